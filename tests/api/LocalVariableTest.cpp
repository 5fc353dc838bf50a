//===- tests/api/LocalVariableTest.cpp - automatic __local variables ------===//
//
// __local variables declared in a kernel's body are work-group memory like
// __local pointer arguments (OpenCL C 6.5.2): one copy per work-group,
// shared by its work-items, up to CL_DEVICE_LOCAL_MEM_SIZE together with
// the arguments, counted in CL_KERNEL_LOCAL_MEM_SIZE. The kernels are in
// tests/kernels/local_variables.cl; every result is checked against a host
// reference. The suite also runs with WEFT_WG_METHOD=fallback and, as
// LocalVariables.smallstack, with every thread the runtime creates limited
// to a 256 KiB stack (WEFT_TEST_THREAD_STACK_KB): half a MiB of __local
// variables must not live on a worker's stack.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <pthread.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

using namespace weft_test;

namespace {

/// Before the runtime starts its threads (the device list is read when
/// gtest registers the tests, after static initialization): their default
/// stack size, when WEFT_TEST_THREAD_STACK_KB asks for one.
const bool SmallThreadStacks = [] {
  const char *KB = getenv("WEFT_TEST_THREAD_STACK_KB");
  if (!KB || !*KB)
    return false;
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  bool Set = pthread_attr_setstacksize(&Attr, size_t(atoi(KB)) * 1024) == 0 &&
             pthread_setattr_default_np(&Attr) == 0;
  pthread_attr_destroy(&Attr);
  return Set;
}();

class LocalVariables : public DeviceTest {
protected:
  cl_ulong deviceLocalMem() {
    return deviceInfo<cl_ulong>(Device, CL_DEVICE_LOCAL_MEM_SIZE);
  }
  bool hasFp64() {
    return splitWords(deviceString(Device, CL_DEVICE_EXTENSIONS))
        .count("cl_khr_fp64");
  }
  size_t kernelWorkGroupSize(cl_kernel K) {
    return kernelWorkGroupInfo<size_t>(K, Device, CL_KERNEL_WORK_GROUP_SIZE);
  }
  cl_ulong kernelLocalMem(cl_kernel K) {
    return kernelWorkGroupInfo<cl_ulong>(K, Device, CL_KERNEL_LOCAL_MEM_SIZE);
  }
  /// 1, 13, 64 and Max, at most Max.
  static std::vector<size_t> localSizes(size_t Max) {
    std::vector<size_t> Sizes = {1, 13, 64, Max};
    Sizes.erase(std::remove_if(Sizes.begin(), Sizes.end(),
                               [&](size_t S) { return S > Max; }),
                Sizes.end());
    std::sort(Sizes.begin(), Sizes.end());
    Sizes.erase(std::unique(Sizes.begin(), Sizes.end()), Sizes.end());
    return Sizes;
  }

  /// Runs mixed_types of P over Groups groups of Local and checks Out.
  void checkMixedTypes(cl_program P, size_t Local, size_t Groups);
};

/// mixed_types's result for one work-item (local_variables.cl).
double mixedTypesReference(int Base, size_t L) {
  auto Tag = [&](size_t I) { return int8_t(Base * 3 + int(I)); };
  auto Wide = [&](size_t I) { return double(Base) + 0.5 * double(I); };
  size_t W = L % 4, R = L % 3;
  double V = double(Tag((L * 7 + 3) % 67)) + Wide(W * 16) + Wide(W * 16 + 15) +
             0.25 * double(Base - int(R)) + double(int8_t(Base + int(R))) +
             double(Base * int(R + 1));
  int Sum = 0;
  for (size_t I = 0; I < 67; ++I)
    Sum += Tag(I);
  return V + double(Sum);
}

void LocalVariables::checkMixedTypes(cl_program P, size_t Local,
                                     size_t Groups) {
  SCOPED_TRACE(testing::Message() << "local size " << Local);
  cl_int Err = CL_SUCCESS;
  KernelRef K(clCreateKernel(P, "mixed_types", &Err));
  ASSERT_CL_OK(Err);
  const size_t N = Local * Groups;
  std::vector<cl_int> In(Groups);
  for (size_t G = 0; G < Groups; ++G)
    In[G] = cl_int(G * 37 + 11) - 60;
  MemRef InBuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          Groups * sizeof(cl_int), In.data()));
  MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, N * sizeof(cl_double)));
  cl_mem InMem = InBuf, OutMem = OutBuf;
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &InMem));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutMem));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                      nullptr, nullptr));
  std::vector<cl_double> Out(N, -1.0);
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                   N * sizeof(cl_double), Out.data(), 0,
                                   nullptr, nullptr));
  size_t Wrong = 0;
  for (size_t I = 0; I < N && Wrong < 5; ++I) {
    double Want = mixedTypesReference(In[I / Local], I % Local);
    if (Out[I] != Want) {
      ADD_FAILURE() << "work-item " << I << ": " << Out[I] << ", want " << Want;
      ++Wrong;
    }
  }
}

TEST_P(LocalVariables, MixedTypesAcrossBarriers) {
  if (!hasFp64())
    GTEST_SKIP() << "no cl_khr_fp64";
  ProgramRef P(buildProgram(Context, Device, kernelSource("local_variables.cl"),
                            "-DHAVE_FP64"));
  ASSERT_NE(P.get(), nullptr);
  cl_int Err = CL_SUCCESS;
  KernelRef K(clCreateKernel(P, "mixed_types", &Err));
  ASSERT_CL_OK(Err);
  for (size_t Local : localSizes(kernelWorkGroupSize(K)))
    checkMixedTypes(P, Local, 5);
}

TEST_P(LocalVariables, NearTheDeviceLimit) {
  // All but 1 KiB of the device's local memory in one array, at local size
  // 1 and at the largest the kernel allows, over more groups than a pool
  // has workers so that several run at once.
  if (getenv("WEFT_TEST_THREAD_STACK_KB")) {
    ASSERT_TRUE(SmallThreadStacks) << "pthread_setattr_default_np failed";
  }
  const cl_ulong Limit = deviceLocalMem();
  ASSERT_GE(Limit, 16u * 1024);
  const size_t Big = size_t(Limit - 1024) / sizeof(cl_uint);
  ProgramRef P(buildProgram(Context, Device, kernelSource("local_variables.cl"),
                            "-DBIG=" + std::to_string(Big)));
  ASSERT_NE(P.get(), nullptr);
  cl_int Err = CL_SUCCESS;
  KernelRef K(clCreateKernel(P, "near_limit", &Err));
  ASSERT_CL_OK(Err);
  EXPECT_GE(kernelLocalMem(K), Big * sizeof(cl_uint) + sizeof(cl_uint));
  EXPECT_LE(kernelLocalMem(K), Limit);
  const size_t Groups =
      2 * deviceInfo<cl_uint>(Device, CL_DEVICE_MAX_COMPUTE_UNITS) + 1;
  std::vector<cl_uint> Want(Groups);
  for (size_t G = 0; G < Groups; ++G) {
    const cl_uint Seed = cl_uint(G) * 2654435761u;
    cl_uint Sum = 0;
    for (size_t I = 0; I < Big; ++I)
      Sum += (Seed ^ cl_uint(Big - 1 - I)) * cl_uint(I & 7);
    Want[G] = Sum;
  }
  MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, Groups * sizeof(cl_uint)));
  cl_mem OutMem = OutBuf;
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutMem));
  for (size_t Local : {size_t(1), kernelWorkGroupSize(K)}) {
    SCOPED_TRACE(testing::Message() << "local size " << Local);
    const size_t N = Local * Groups;
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                        nullptr, nullptr));
    std::vector<cl_uint> Out(Groups, 0xdeadbeef);
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                     Groups * sizeof(cl_uint), Out.data(), 0,
                                     nullptr, nullptr));
    EXPECT_EQ(Out, Want);
  }
}

TEST_P(LocalVariables, NextToLocalArguments) {
  ProgramRef P(
      buildProgram(Context, Device, kernelSource("local_variables.cl")));
  ASSERT_NE(P.get(), nullptr);
  cl_int Err = CL_SUCCESS;
  KernelRef K(clCreateKernel(P, "with_local_args", &Err));
  ASSERT_CL_OK(Err);
  const cl_int SizeA = 50, SizeB = 21;
  const size_t Groups = 4;
  ASSERT_CL_OK(clSetKernelArg(K, 1, SizeA * sizeof(cl_float), nullptr));
  ASSERT_CL_OK(clSetKernelArg(K, 2, SizeB * sizeof(cl_int4), nullptr));
  ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(cl_int), &SizeA));
  ASSERT_CL_OK(clSetKernelArg(K, 4, sizeof(cl_int), &SizeB));
  // The automatic variables (66 bytes of short, 144 of float4 at the next
  // multiple of 16) and both arguments.
  const cl_ulong Arguments = SizeA * sizeof(cl_float) + SizeB * sizeof(cl_int4);
  if (testingWeft())
    EXPECT_EQ(kernelLocalMem(K), 80 + 144 + Arguments);
  else
    EXPECT_GE(kernelLocalMem(K), 66 + 144 + Arguments);
  for (size_t Local : localSizes(kernelWorkGroupSize(K))) {
    SCOPED_TRACE(testing::Message() << "local size " << Local);
    const size_t N = Local * Groups;
    MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, N * sizeof(cl_int)));
    cl_mem OutMem = OutBuf;
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutMem));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                        nullptr, nullptr));
    std::vector<cl_int> Out(N, -1);
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                     N * sizeof(cl_int), Out.data(), 0, nullptr,
                                     nullptr));
    size_t Wrong = 0;
    for (size_t I = 0; I < N && Wrong < 5; ++I) {
      const int G = int(I / Local);
      const size_t L = I % Local;
      const int A = G * 1000 + int((L * 3 + 1) % SizeA);
      const int B = G + 3 * int((L * 5) % SizeB) + 7;
      const int S = int16_t(G * 100 - int((L + 4) % 33));
      const float TX = float((L * 2) % 9);
      const int T = int(TX + float(G) + 0.5f + -2.0f);
      if (Out[I] != A + B + S + T) {
        ADD_FAILURE() << "work-item " << I << ": " << Out[I] << ", want "
                      << A + B + S + T;
        ++Wrong;
      }
    }
  }
}

TEST_P(LocalVariables, LocalMemSizeIsTheAlignedLayout) {
  ProgramRef P(
      buildProgram(Context, Device, kernelSource("local_variables.cl")));
  ASSERT_NE(P.get(), nullptr);
  cl_int Err = CL_SUCCESS;
  KernelRef K(clCreateKernel(P, "padded", &Err));
  ASSERT_CL_OK(Err);
  // char[3] at 0, float16 at 64 (its alignment), int at 128. (pocl 3.1
  // reports 0 here, leaving out variables declared in the body.)
  if (testingWeft()) {
    EXPECT_EQ(kernelLocalMem(K), 132u);
  }
  const size_t N = 8, Local = 4;
  MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, N * sizeof(cl_float)));
  cl_mem OutMem = OutBuf;
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutMem));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                      nullptr, nullptr));
  std::vector<cl_float> Out(N);
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                   N * sizeof(cl_float), Out.data(), 0, nullptr,
                                   nullptr));
  EXPECT_EQ(Out, std::vector<cl_float>(N, 6.0f));
}

TEST_P(LocalVariables, OverTheLimitIsOutOfResources) {
  // Automatic variables that fit alone, plus a __local argument that takes
  // the total past CL_DEVICE_LOCAL_MEM_SIZE: CL_OUT_OF_RESOURCES at enqueue
  // (clEnqueueNDRangeKernel), and fine again with a smaller argument.
  const cl_ulong Limit = deviceLocalMem();
  const size_t Big = size_t(Limit - 1024) / sizeof(cl_uint);
  ProgramRef P(buildProgram(
      Context, Device,
      std::string("#define BIG ") + std::to_string(Big) + "\n" +
          "kernel void k(global uint *Out, local uint *Extra) {\n"
          "  local uint Big[BIG];\n"
          "  size_t L = get_local_id(0);\n"
          "  Big[BIG - 1 - L] = (uint)L + 5;\n"
          "  Extra[L] = 1;\n"
          "  barrier(CLK_LOCAL_MEM_FENCE);\n"
          "  Out[get_global_id(0)] = Big[BIG - 1 - L] + Extra[L];\n"
          "}\n"));
  ASSERT_NE(P.get(), nullptr);
  cl_int Err = CL_SUCCESS;
  KernelRef K(clCreateKernel(P, "k", &Err));
  ASSERT_CL_OK(Err);
  MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, sizeof(cl_uint)));
  cl_mem OutMem = OutBuf;
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutMem));
  ASSERT_CL_OK(clSetKernelArg(K, 1, 2048, nullptr));
  if (testingWeft()) {
    EXPECT_GT(kernelLocalMem(K), Limit);
  }
  const size_t One = 1;
  // (pocl 3.1 runs it anyway.)
  EXPECT_CL_SPEC(CL_OUT_OF_RESOURCES,
                 clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &One, &One, 0,
                                        nullptr, nullptr));
  ASSERT_CL_OK(clSetKernelArg(K, 1, 512, nullptr));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &One, &One, 0,
                                      nullptr, nullptr));
  cl_uint Out = 0;
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0, sizeof(Out), &Out,
                                   0, nullptr, nullptr));
  EXPECT_EQ(Out, 6u);
}

TEST_P(LocalVariables, ProgramBinaryRoundTrip) {
  if (!hasFp64())
    GTEST_SKIP() << "no cl_khr_fp64";
  ProgramRef Built(buildProgram(
      Context, Device, kernelSource("local_variables.cl"), "-DHAVE_FP64"));
  ASSERT_NE(Built.get(), nullptr);
  size_t Size = 0;
  ASSERT_CL_OK(clGetProgramInfo(Built, CL_PROGRAM_BINARY_SIZES, sizeof(Size),
                                &Size, nullptr));
  std::vector<unsigned char> Binary(Size);
  unsigned char *Ptr = Binary.data();
  ASSERT_CL_OK(
      clGetProgramInfo(Built, CL_PROGRAM_BINARIES, sizeof(Ptr), &Ptr, nullptr));
  const unsigned char *Bytes = Binary.data();
  cl_int Err = CL_SUCCESS, Status = CL_SUCCESS;
  ProgramRef Loaded(clCreateProgramWithBinary(Context, 1, &Device, &Size,
                                              &Bytes, &Status, &Err));
  ASSERT_CL_OK(Err);
  ASSERT_CL_OK(Status);
  ASSERT_CL_OK(clBuildProgram(Loaded, 1, &Device, "", nullptr, nullptr));
  KernelRef Original(clCreateKernel(Built, "padded", &Err));
  ASSERT_CL_OK(Err);
  KernelRef Again(clCreateKernel(Loaded, "padded", &Err));
  ASSERT_CL_OK(Err);
  EXPECT_EQ(kernelLocalMem(Again), kernelLocalMem(Original));
  checkMixedTypes(Loaded, 13, 3);
}

WEFT_INSTANTIATE_DEVICE_TEST(LocalVariables);

} // namespace
