//===- weftcc-load-binary.cpp - Runs a binary weftcc wrote ----------------===//
//
// The other half of weftcc's end-to-end test, in a process of its own as an
// application shipping a precompiled kernel would be: loads axpb.cl's
// binary with clCreateProgramWithBinary on one Weft device, runs axpb and
// compares every element with the host's
//   out[i] = in[i] * Scale + Offset.
//
//   weftcc-load-binary <program.bin> <device index> <offset>
//
// Prints one PASS or FAIL line; the exit status is 0 only on PASS.
//
//===----------------------------------------------------------------------===//

#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const std::string &Why) {
  std::printf("weftcc-load-binary: FAIL  %s\n", Why.c_str());
  std::exit(1);
}

void check(cl_int Err, const char *What) {
  if (Err != CL_SUCCESS)
    fail(std::string(What) + " returned " + std::to_string(Err));
}

cl_platform_id weftPlatform() {
  cl_uint Count = 0;
  check(clGetPlatformIDs(0, nullptr, &Count), "clGetPlatformIDs");
  std::vector<cl_platform_id> Platforms(Count);
  check(clGetPlatformIDs(Count, Platforms.data(), nullptr), "clGetPlatformIDs");
  for (cl_platform_id P : Platforms) {
    char Name[256] = {};
    if (clGetPlatformInfo(P, CL_PLATFORM_NAME, sizeof(Name) - 1, Name,
                          nullptr) == CL_SUCCESS &&
        std::strcmp(Name, "Weft") == 0)
      return P;
  }
  fail("no platform named Weft");
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc != 4) {
    std::fprintf(stderr,
                 "usage: weftcc-load-binary <program.bin> <device> <offset>\n");
    return 2;
  }
  std::ifstream In(Argv[1], std::ios::binary);
  if (!In)
    fail(std::string("cannot read ") + Argv[1]);
  std::vector<unsigned char> Binary((std::istreambuf_iterator<char>(In)),
                                    std::istreambuf_iterator<char>());
  unsigned DeviceIndex = std::strtoul(Argv[2], nullptr, 10);
  cl_uint Offset = std::strtoul(Argv[3], nullptr, 10);

  cl_platform_id Platform = weftPlatform();
  cl_uint NumDevices = 0;
  check(clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &NumDevices),
        "clGetDeviceIDs");
  if (DeviceIndex >= NumDevices)
    fail("no device " + std::to_string(DeviceIndex));
  std::vector<cl_device_id> Devices(NumDevices);
  check(clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, NumDevices, Devices.data(),
                       nullptr),
        "clGetDeviceIDs");
  cl_device_id Device = Devices[DeviceIndex];
  char DeviceName[256] = {};
  clGetDeviceInfo(Device, CL_DEVICE_NAME, sizeof(DeviceName) - 1, DeviceName,
                  nullptr);

  cl_int Err;
  cl_context Context =
      clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err);
  check(Err, "clCreateContext");
  const unsigned char *Data = Binary.data();
  size_t Size = Binary.size();
  cl_int BinaryStatus = CL_INVALID_VALUE;
  cl_program Program = clCreateProgramWithBinary(Context, 1, &Device, &Size,
                                                 &Data, &BinaryStatus, &Err);
  check(Err, "clCreateProgramWithBinary");
  check(BinaryStatus, "clCreateProgramWithBinary's binary status");
  check(clBuildProgram(Program, 1, &Device, "", nullptr, nullptr),
        "clBuildProgram of the binary");
  cl_program_binary_type Type;
  check(clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BINARY_TYPE,
                              sizeof(Type), &Type, nullptr),
        "clGetProgramBuildInfo(CL_PROGRAM_BINARY_TYPE)");
  if (Type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE)
    fail("the loaded program is not an executable");

  // Not a multiple of any work-group size: the kernel's bounds check runs.
  const cl_uint N = 100003, Scale = 37;
  std::vector<cl_uint> Input(N), Output(N, 0);
  for (cl_uint I = 0; I < N; ++I)
    Input[I] = I * 2654435761u;
  cl_mem InBuf =
      clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                     N * sizeof(cl_uint), Input.data(), &Err);
  check(Err, "clCreateBuffer");
  cl_mem OutBuf = clCreateBuffer(Context, CL_MEM_WRITE_ONLY,
                                 N * sizeof(cl_uint), nullptr, &Err);
  check(Err, "clCreateBuffer");
  cl_kernel Kernel = clCreateKernel(Program, "axpb", &Err);
  check(Err, "clCreateKernel(axpb)");
  check(clSetKernelArg(Kernel, 0, sizeof(cl_mem), &OutBuf), "clSetKernelArg");
  check(clSetKernelArg(Kernel, 1, sizeof(cl_mem), &InBuf), "clSetKernelArg");
  check(clSetKernelArg(Kernel, 2, sizeof(cl_uint), &Scale), "clSetKernelArg");
  check(clSetKernelArg(Kernel, 3, sizeof(cl_uint), &N), "clSetKernelArg");
  cl_command_queue Queue =
      clCreateCommandQueueWithProperties(Context, Device, nullptr, &Err);
  check(Err, "clCreateCommandQueueWithProperties");
  size_t Global = (N + 63) / 64 * 64;
  check(clEnqueueNDRangeKernel(Queue, Kernel, 1, nullptr, &Global, nullptr, 0,
                               nullptr, nullptr),
        "clEnqueueNDRangeKernel");
  check(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0, N * sizeof(cl_uint),
                            Output.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");

  for (cl_uint I = 0; I < N; ++I) {
    cl_uint Expected = Input[I] * Scale + Offset;
    if (Output[I] != Expected)
      fail(std::string(DeviceName) + ": out[" + std::to_string(I) +
           "] = " + std::to_string(Output[I]) + ", expected " +
           std::to_string(Expected));
  }
  std::printf("weftcc-load-binary [%s]: PASS  %u elements\n", DeviceName, N);

  clReleaseCommandQueue(Queue);
  clReleaseKernel(Kernel);
  clReleaseMemObject(OutBuf);
  clReleaseMemObject(InBuf);
  clReleaseProgram(Program);
  clReleaseContext(Context);
  return 0;
}
