//===- FuzzLoadBinary.cpp - libFuzzer target: binaries loaded and run -----===//
//
// weft-fuzz-program-binary stops where a damaged binary's checksum fails,
// so LLVM never sees the bitcode inside. This target takes the whole path
// an application's binary takes, on the pthread device through the ICD
// loader: clCreateProgramWithBinary, clBuildProgram,
// clCreateKernelsInProgram, and one work-item of each kernel enqueued (the
// first enqueue compiles, or loads the compiled code the binary carries).
//
// An input is a program binary. Before it is loaded, its header (magic,
// format version, payload size, checksum) and the target fields at the
// payload's start (Weft version, triple, CPU, features, SIMD width) are
// replaced by this build's and this device's, taken from a binary built at
// start-up, so that every mutation reaches what follows: the kernel table,
// the bitcode and the compiled kernels. The seeds (tests/fuzz/corpus/
// load-binary) therefore load on any x86-64, whatever CPU made them.
//
// Whatever the bytes, the process must survive, and the answers must be
// ones the spec allows: CL_SUCCESS or CL_INVALID_BINARY (with the same
// binary_status) from clCreateProgramWithBinary; once loaded, the build
// (of an executable; an object or library is linked, which may fail) and
// the kernels must succeed. An enqueue may fail (a compile that fails
// is CL_OUT_OF_RESOURCES), but must not crash.
//
// The kernel cache is off (WEFT_KERNEL_CACHE=0).
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"

#include <CL/cl.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

const char *const weft_fuzz::TargetName = "fuzz-load-binary";

using weft_fuzz::check;
using weft_fuzz::fail;

namespace {

cl_context Context;
cl_device_id Device;
cl_command_queue Queue;
/// This build's header (its first 12 bytes: magic and format version) and
/// the target fields every payload of this device starts with.
std::string HeaderStart, TargetFields;


/// Length of the target fields at the start of Payload (four strings and
/// a 32-bit width), or 0 when they are cut short.
size_t targetFieldsLength(const unsigned char *Payload, size_t Size) {
  size_t Pos = 0;
  for (int I = 0; I < 4; ++I) {
    uint64_t N;
    if (Size - Pos < sizeof(N))
      return 0;
    memcpy(&N, Payload + Pos, sizeof(N));
    Pos += sizeof(N);
    if (N > Size - Pos)
      return 0;
    Pos += N;
  }
  return Size - Pos < 4 ? 0 : Pos + 4;
}

uint64_t fnv1a(const std::string &Bytes) {
  uint64_t Hash = 0xcbf29ce484222325ull;
  for (unsigned char C : Bytes) {
    Hash ^= C;
    Hash *= 0x100000001b3ull;
  }
  return Hash;
}

/// One work-item of K, with zeroed buffers for its memory arguments and
/// zeros for its values. Kernels with images or samplers are not run.
void runOnce(cl_kernel K) {
  cl_uint NumArgs = 0;
  check(clGetKernelInfo(K, CL_KERNEL_NUM_ARGS, sizeof(NumArgs), &NumArgs,
                        nullptr),
        "CL_KERNEL_NUM_ARGS");
  std::vector<cl_mem> Buffers;
  bool Runnable = true;
  for (cl_uint I = 0; I < NumArgs && Runnable; ++I) {
    cl_kernel_arg_address_qualifier Address = 0;
    if (clGetKernelArgInfo(K, I, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                           sizeof(Address), &Address, nullptr) != CL_SUCCESS) {
      Runnable = false;
      break;
    }
    char Type[256] = {};
    clGetKernelArgInfo(K, I, CL_KERNEL_ARG_TYPE_NAME, sizeof(Type) - 1, Type,
                       nullptr);
    if (strstr(Type, "image") || strstr(Type, "sampler")) {
      Runnable = false;
      break;
    }
    cl_int Err = CL_SUCCESS;
    if (Address == CL_KERNEL_ARG_ADDRESS_LOCAL) {
      Err = clSetKernelArg(K, I, 4096, nullptr);
    } else if (Address == CL_KERNEL_ARG_ADDRESS_GLOBAL ||
               Address == CL_KERNEL_ARG_ADDRESS_CONSTANT) {
      std::vector<unsigned char> Zeros(1 << 16);
      cl_mem B = clCreateBuffer(Context, CL_MEM_COPY_HOST_PTR, Zeros.size(),
                                Zeros.data(), &Err);
      check(Err, "clCreateBuffer");
      Buffers.push_back(B);
      Err = clSetKernelArg(K, I, sizeof(B), &B);
    } else {
      // A value: the size clSetKernelArg accepts is the one the kernel
      // table records; try the usual sizes.
      static const unsigned char Zeros[256] = {};
      Err = CL_INVALID_ARG_SIZE;
      for (size_t Size = 1; Size <= sizeof(Zeros) && Err == CL_INVALID_ARG_SIZE;
           Size *= 2)
        Err = clSetKernelArg(K, I, Size, Zeros);
    }
    if (Err != CL_SUCCESS)
      Runnable = false;
  }
  if (Runnable) {
    size_t One = 1;
    cl_int Err = clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &One, &One, 0,
                                        nullptr, nullptr);
    if (Err == CL_SUCCESS)
      check(clFinish(Queue), "clFinish");
  }
  for (cl_mem B : Buffers)
    clReleaseMemObject(B);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  weft_fuzz::openWeftDevice(Device, Context);
  cl_int Err;
  Queue = clCreateCommandQueueWithProperties(Context, Device, nullptr, &Err);
  check(Err, "clCreateCommandQueueWithProperties");
  // A binary of this build for this device, for its header and target.
  const char *Source = "kernel void k(global int *p) { *p = 1; }";
  cl_program Program =
      clCreateProgramWithSource(Context, 1, &Source, nullptr, &Err);
  check(Err, "clCreateProgramWithSource");
  check(clBuildProgram(Program, 1, &Device, "", nullptr, nullptr),
        "clBuildProgram");
  size_t Size = 0;
  check(clGetProgramInfo(Program, CL_PROGRAM_BINARY_SIZES, sizeof(Size),
                         &Size, nullptr),
        "CL_PROGRAM_BINARY_SIZES");
  std::string Binary(Size, '\0');
  unsigned char *Ptr = reinterpret_cast<unsigned char *>(&Binary[0]);
  check(clGetProgramInfo(Program, CL_PROGRAM_BINARIES, sizeof(Ptr), &Ptr,
                         nullptr),
        "CL_PROGRAM_BINARIES");
  clReleaseProgram(Program);
  size_t Fields = Size < 28 ? 0 : targetFieldsLength(Ptr + 28, Size - 28);
  if (!Fields)
    fail("this build's own binary has no target fields", CL_INVALID_BINARY);
  HeaderStart = Binary.substr(0, 12);
  TargetFields = Binary.substr(28, Fields);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // This build's header and target in front of the input's payload (all of
  // the input after a header, less its own target fields when it has any).
  size_t Skip = Size < 28 ? Size : 28;
  Skip += targetFieldsLength(Data + Skip, Size - Skip);
  std::string Payload = TargetFields;
  Payload.append(reinterpret_cast<const char *>(Data) + Skip, Size - Skip);
  uint64_t PayloadSize = Payload.size(), Checksum = fnv1a(Payload);
  std::string Binary = HeaderStart;
  Binary.append(reinterpret_cast<const char *>(&PayloadSize), 8);
  Binary.append(reinterpret_cast<const char *>(&Checksum), 8);
  Binary += Payload;

  const unsigned char *Bytes =
      reinterpret_cast<const unsigned char *>(Binary.data());
  size_t Length = Binary.size();
  cl_int Status = CL_SUCCESS, Err = CL_SUCCESS;
  cl_program Program = clCreateProgramWithBinary(Context, 1, &Device, &Length,
                                                 &Bytes, &Status, &Err);
  if (Err == CL_INVALID_BINARY) {
    if (Program || Status != CL_INVALID_BINARY)
      fail("CL_INVALID_BINARY with a program or another binary_status", Err);
    return 0;
  }
  check(Err, "clCreateProgramWithBinary: an error the spec does not allow");
  check(Status, "binary_status of a binary that loaded");
  // A compiled object or library is linked alone, which may fail.
  Err = clBuildProgram(Program, 1, &Device, nullptr, nullptr, nullptr);
  if (Err == CL_BUILD_PROGRAM_FAILURE) {
    cl_program_binary_type Type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    check(clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BINARY_TYPE,
                                sizeof(Type), &Type, nullptr),
          "CL_PROGRAM_BINARY_TYPE");
    if (Type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE)
      fail("an executable binary that loaded failed its build", Err);
    check(clReleaseProgram(Program), "clReleaseProgram");
    return 0;
  }
  check(Err, "clBuildProgram of a binary that loaded");
  for (cl_kernel K : weft_fuzz::createAllKernels(Program)) {
    runOnce(K);
    clReleaseKernel(K);
  }
  check(clReleaseProgram(Program), "clReleaseProgram");
  return 0;
}
