//===- startup-probe.cpp - process start to the first kernel result ------===//
//
// What an application that ships its kernels does before its first result:
// load the OpenCL platform, create a program from source or from a binary
// it stored, build it, run one of its kernels and read the result back.
// The time is counted from WEFT_STARTUP_T0_NS (CLOCK_MONOTONIC, set by the
// runner just before it starts this process, so process start and the ICD
// loader count too) or else from main().
//
//   weft-startup-probe [--platform TEXT] (--source F | --binary F)
//                      [--save-binary F]
//
// The program's kernel k0(out, in) must compute out[i] = in[i] * 3 + 1.
// Prints "first-result-ms <ms>" and exits 0 when the result is right.
//
//===----------------------------------------------------------------------===//
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

long long nowNs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1000000000LL + T.tv_nsec;
}

[[noreturn]] void fail(const char *What, cl_int Err) {
  fprintf(stderr, "weft-startup-probe: %s (%d)\n", What, Err);
  exit(1);
}

void check(cl_int Err, const char *What) {
  if (Err != CL_SUCCESS)
    fail(What, Err);
}

std::string readFile(const char *Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    fail("cannot read the input file", CL_INVALID_VALUE);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

cl_device_id findDevice(const char *Want) {
  cl_uint Count = 0;
  check(clGetPlatformIDs(0, nullptr, &Count), "clGetPlatformIDs");
  std::vector<cl_platform_id> Platforms(Count);
  check(clGetPlatformIDs(Count, Platforms.data(), nullptr), "clGetPlatformIDs");
  for (cl_platform_id P : Platforms) {
    char Name[256] = {};
    clGetPlatformInfo(P, CL_PLATFORM_NAME, sizeof(Name) - 1, Name, nullptr);
    if (Want && !strstr(Name, Want))
      continue;
    cl_device_id D;
    if (clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 1, &D, nullptr) == CL_SUCCESS)
      return D;
  }
  fail("no such platform with a device", CL_DEVICE_NOT_FOUND);
}

} // namespace

int main(int Argc, char **Argv) {
  long long Start = nowNs();
  if (const char *T0 = getenv("WEFT_STARTUP_T0_NS"))
    Start = atoll(T0);
  const char *Platform = nullptr, *Source = nullptr, *Binary = nullptr,
             *Save = nullptr;
  for (int I = 1; I + 1 < Argc; I += 2) {
    std::string Opt = Argv[I];
    if (Opt == "--platform")
      Platform = Argv[I + 1];
    else if (Opt == "--source")
      Source = Argv[I + 1];
    else if (Opt == "--binary")
      Binary = Argv[I + 1];
    else if (Opt == "--save-binary")
      Save = Argv[I + 1];
  }
  if (!Source == !Binary) {
    fprintf(stderr, "usage: %s [--platform TEXT] (--source F | --binary F) "
                    "[--save-binary F]\n",
            Argv[0]);
    return 2;
  }

  cl_device_id Device = findDevice(Platform);
  cl_int Err;
  cl_context Context =
      clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err);
  check(Err, "clCreateContext");
  cl_command_queue Queue =
      clCreateCommandQueueWithProperties(Context, Device, nullptr, &Err);
  check(Err, "clCreateCommandQueueWithProperties");
  cl_program Program;
  if (Source) {
    std::string Text = readFile(Source);
    const char *P = Text.c_str();
    Program = clCreateProgramWithSource(Context, 1, &P, nullptr, &Err);
    check(Err, "clCreateProgramWithSource");
  } else {
    std::string Bytes = readFile(Binary);
    const unsigned char *P =
        reinterpret_cast<const unsigned char *>(Bytes.data());
    size_t Size = Bytes.size();
    cl_int Status;
    Program = clCreateProgramWithBinary(Context, 1, &Device, &Size, &P,
                                        &Status, &Err);
    check(Err, "clCreateProgramWithBinary");
  }
  check(clBuildProgram(Program, 1, &Device, "", nullptr, nullptr),
        "clBuildProgram");
  cl_kernel Kernel = clCreateKernel(Program, "k0", &Err);
  check(Err, "clCreateKernel k0");

  const size_t N = 4096, Local = 64;
  std::vector<float> In(N), Out(N, -1.0f);
  for (size_t I = 0; I < N; ++I)
    In[I] = float(I % 1000);
  cl_mem InBuf = clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                N * sizeof(float), In.data(), &Err);
  check(Err, "clCreateBuffer");
  cl_mem OutBuf = clCreateBuffer(Context, CL_MEM_WRITE_ONLY,
                                 N * sizeof(float), nullptr, &Err);
  check(Err, "clCreateBuffer");
  check(clSetKernelArg(Kernel, 0, sizeof(cl_mem), &OutBuf), "clSetKernelArg");
  check(clSetKernelArg(Kernel, 1, sizeof(cl_mem), &InBuf), "clSetKernelArg");
  check(clEnqueueNDRangeKernel(Queue, Kernel, 1, nullptr, &N, &Local, 0,
                               nullptr, nullptr),
        "clEnqueueNDRangeKernel");
  check(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0, N * sizeof(float),
                            Out.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  long long End = nowNs();
  for (size_t I = 0; I < N; ++I)
    if (Out[I] != In[I] * 3.0f + 1.0f) {
      fprintf(stderr, "weft-startup-probe: wrong result at %zu: %g\n", I,
              double(Out[I]));
      return 1;
    }
  printf("first-result-ms %.3f\n", double(End - Start) / 1e6);

  if (Save) {
    size_t Size = 0;
    check(clGetProgramInfo(Program, CL_PROGRAM_BINARY_SIZES, sizeof(Size),
                           &Size, nullptr),
          "CL_PROGRAM_BINARY_SIZES");
    std::vector<unsigned char> Bytes(Size);
    unsigned char *P = Bytes.data();
    check(clGetProgramInfo(Program, CL_PROGRAM_BINARIES, sizeof(P), &P,
                           nullptr),
          "CL_PROGRAM_BINARIES");
    std::ofstream(Save, std::ios::binary)
        .write(reinterpret_cast<const char *>(Bytes.data()), Size);
  }
  clReleaseMemObject(InBuf);
  clReleaseMemObject(OutBuf);
  clReleaseKernel(Kernel);
  clReleaseProgram(Program);
  clReleaseCommandQueue(Queue);
  clReleaseContext(Context);
  return 0;
}
