//===- FuzzBuildSource.cpp - libFuzzer target: OpenCL C source text -------===//
//
// clCreateProgramWithSource + clBuildProgram on arbitrary text, on the
// pthread device through the ICD loader, the way an application reaches the
// front end. Whatever the text, the process must survive and the answer be
// one the spec allows: CL_SUCCESS, or CL_BUILD_PROGRAM_FAILURE with a build
// log, or CL_INVALID_BUILD_OPTIONS for bad options.
//
// An input is "options NUL source"; without a NUL byte it is all source and
// the options are empty. A successful build is also taken through
// CL_PROGRAM_BINARIES and clCreateProgramWithBinary, and its kernels are
// created, so the metadata the front end derived from the text is used.
//
// The kernel cache is off (WEFT_KERNEL_CACHE=0): nothing is written to disk,
// and no input is served from an earlier one.
//
//===----------------------------------------------------------------------===//
#include "FuzzCommon.h"

#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

const char *const weft_fuzz::TargetName = "fuzz-build-source";

using weft_fuzz::check;
using weft_fuzz::fail;

namespace {

cl_context Context;
cl_device_id Device;


std::string buildLog(cl_program Program) {
  size_t Size = 0;
  check(clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG, 0,
                              nullptr, &Size),
        "build log size");
  std::string Log(Size, '\0');
  check(clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG, Size,
                              Log.data(), nullptr),
        "build log");
  while (!Log.empty() && Log.back() == '\0')
    Log.pop_back();
  return Log;
}

cl_build_status buildStatus(cl_program Program) {
  cl_build_status Status;
  check(clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_STATUS,
                              sizeof(Status), &Status, nullptr),
        "build status");
  return Status;
}

void useKernels(cl_program Program) {
  for (cl_kernel K : weft_fuzz::createAllKernels(Program)) {
    cl_uint Args;
    check(clGetKernelInfo(K, CL_KERNEL_NUM_ARGS, sizeof(Args), &Args, nullptr),
          "CL_KERNEL_NUM_ARGS");
    clReleaseKernel(K);
  }
}

void reloadBinary(cl_program Program) {
  size_t Size;
  check(clGetProgramInfo(Program, CL_PROGRAM_BINARY_SIZES, sizeof(Size), &Size,
                         nullptr),
        "CL_PROGRAM_BINARY_SIZES");
  std::vector<unsigned char> Binary(Size);
  unsigned char *Ptr = Binary.data();
  check(clGetProgramInfo(Program, CL_PROGRAM_BINARIES, sizeof(Ptr), &Ptr,
                         nullptr),
        "CL_PROGRAM_BINARIES");
  const unsigned char *Bytes = Binary.data();
  cl_int Status, Err;
  cl_program Again = clCreateProgramWithBinary(Context, 1, &Device, &Size,
                                               &Bytes, &Status, &Err);
  check(Err, "clCreateProgramWithBinary of the program's own binary");
  check(clBuildProgram(Again, 1, &Device, nullptr, nullptr, nullptr),
        "clBuildProgram of the program's own binary");
  clReleaseProgram(Again);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  weft_fuzz::openWeftDevice(Device, Context);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const char *Text = reinterpret_cast<const char *>(Data);
  const void *Nul = memchr(Data, 0, Size);
  std::string Options, Source;
  if (Nul) {
    size_t Split = static_cast<const uint8_t *>(Nul) - Data;
    Options.assign(Text, Split);
    Source.assign(Text + Split + 1, Size - Split - 1);
  } else {
    Source.assign(Text, Size);
  }
  const char *Src = Source.c_str();
  size_t Length = Source.size();
  cl_int Err;
  cl_program Program =
      clCreateProgramWithSource(Context, 1, &Src, &Length, &Err);
  check(Err, "clCreateProgramWithSource");
  Err = clBuildProgram(Program, 1, &Device, Options.c_str(), nullptr, nullptr);
  switch (Err) {
  case CL_SUCCESS:
    if (buildStatus(Program) != CL_BUILD_SUCCESS)
      fail("CL_SUCCESS without CL_BUILD_SUCCESS", Err);
    useKernels(Program);
    reloadBinary(Program);
    break;
  case CL_BUILD_PROGRAM_FAILURE:
    if (buildStatus(Program) != CL_BUILD_ERROR)
      fail("CL_BUILD_PROGRAM_FAILURE without CL_BUILD_ERROR", Err);
    if (buildLog(Program).empty())
      fail("CL_BUILD_PROGRAM_FAILURE with an empty build log", Err);
    break;
  case CL_INVALID_BUILD_OPTIONS:
    break;
  default:
    fail("clBuildProgram: an error the spec does not allow here", Err);
  }
  check(clReleaseProgram(Program), "clReleaseProgram");
  return 0;
}
