//===- tests/api/KernelTest.cpp - kernel objects and argument checking ----===//

#include "TestCommon.h"

#include <CL/cl_ext.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace weft_test;

namespace {

const char *const ArgsSource =
    "kernel void args(global int *Out, int Value, local int *Scratch,\n"
    "                 float4 V) {\n"
    "  Scratch[get_local_id(0)] = Value;\n"
    "  Out[get_global_id(0)] = Scratch[get_local_id(0)] + (int)V.x;\n"
    "}\n"
    "kernel void other(global int *Out) { Out[0] = 7; }\n"
    "__attribute__((reqd_work_group_size(4, 2, 1)))\n"
    "kernel void fixed(global int *Out) {\n"
    "  size_t I = get_global_id(1) * get_global_size(0) + get_global_id(0);\n"
    "  Out[I] = (int)(get_local_size(0) * 10 + get_local_size(1));\n"
    "}\n";

/// 256 KiB of private array per work-item, live across a barrier: the
/// context arrays limit the work-group far below a CPU device's maximum.
const char *const BigPrivateArraySource =
    "kernel void big(global float *Out) {\n"
    "  float P[65536];\n"
    "  size_t L = get_local_id(0);\n"
    "  for (int I = 0; I < 65536; ++I)\n"
    "    P[I] = (float)(I + L);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  Out[get_global_id(0)] = P[(L * 31) % 65536];\n"
    "}\n";

class Kernels : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    K.reset(makeKernel(ArgsSource, "args"));
    ASSERT_NE(K.get(), nullptr);
    Out.reset(makeBuffer(CL_MEM_READ_WRITE, 64 * sizeof(cl_int)));
    ASSERT_NE(Out.get(), nullptr);
  }
  /// args(Out, Value, 16 ints of Scratch, (X, 0, 0, 0)).
  void setArgs(cl_mem Buf, cl_int Value, cl_float X) {
    cl_float4 V = {{X, 0, 0, 0}};
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(Value), &Value));
    ASSERT_CL_OK(clSetKernelArg(K, 2, 16 * sizeof(cl_int), nullptr));
    ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(V), &V));
  }
  KernelRef K;
  MemRef Out;
};

TEST_P(Kernels, Queries) {
  cl_uint NumArgs = 0;
  ASSERT_CL_OK(
      clGetKernelInfo(K, CL_KERNEL_NUM_ARGS, sizeof(NumArgs), &NumArgs, nullptr));
  EXPECT_EQ(NumArgs, 4u);
  size_t Size = 0;
  ASSERT_CL_OK(
      clGetKernelInfo(K, CL_KERNEL_FUNCTION_NAME, 0, nullptr, &Size));
  std::string Name(Size, '\0');
  ASSERT_CL_OK(
      clGetKernelInfo(K, CL_KERNEL_FUNCTION_NAME, Size, &Name[0], nullptr));
  EXPECT_EQ(Name.c_str(), std::string("args"));
  cl_program P = nullptr;
  ASSERT_CL_OK(clGetKernelInfo(K, CL_KERNEL_PROGRAM, sizeof(P), &P, nullptr));
  EXPECT_EQ(P, Program.get());
  cl_context C = nullptr;
  ASSERT_CL_OK(clGetKernelInfo(K, CL_KERNEL_CONTEXT, sizeof(C), &C, nullptr));
  EXPECT_EQ(C, Context.get());
  cl_uint Count = 0;
  ASSERT_CL_OK(clGetKernelInfo(K, CL_KERNEL_REFERENCE_COUNT, sizeof(Count),
                               &Count, nullptr));
  EXPECT_EQ(Count, 1u);

  size_t GroupSize = 0;
  ASSERT_CL_OK(clGetKernelWorkGroupInfo(K, Device, CL_KERNEL_WORK_GROUP_SIZE,
                                        sizeof(GroupSize), &GroupSize, nullptr));
  EXPECT_GE(GroupSize, 1u);
  EXPECT_LE(GroupSize, deviceInfo<size_t>(Device, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  size_t Compile[3] = {9, 9, 9};
  ASSERT_CL_OK(clGetKernelWorkGroupInfo(K, Device,
                                        CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                        sizeof(Compile), Compile, nullptr));
  EXPECT_EQ(Compile[0], 0u);
  EXPECT_EQ(Compile[1], 0u);
  EXPECT_EQ(Compile[2], 0u);
}

TEST_P(Kernels, BadNames) {
  cl_int Err = CL_SUCCESS;
  EXPECT_EQ(clCreateKernel(Program, "no_such_kernel", &Err), nullptr);
  EXPECT_CL(CL_INVALID_KERNEL_NAME, Err);
  EXPECT_EQ(clCreateKernel(Program, "arg", &Err), nullptr);
  EXPECT_CL(CL_INVALID_KERNEL_NAME, Err);
  EXPECT_EQ(clCreateKernel(Program, nullptr, &Err), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
}

TEST_P(Kernels, CreateKernelsInProgram) {
  cl_uint Num = 0;
  ASSERT_CL_OK(clCreateKernelsInProgram(Program, 0, nullptr, &Num));
  ASSERT_EQ(Num, 3u);
  cl_kernel All[3] = {};
  ASSERT_CL_OK(clCreateKernelsInProgram(Program, 3, All, nullptr));
  std::set<std::string> Names;
  for (cl_kernel Each : All) {
    char Name[64] = {};
    EXPECT_CL_OK(clGetKernelInfo(Each, CL_KERNEL_FUNCTION_NAME, sizeof(Name),
                                 Name, nullptr));
    Names.insert(Name);
    clReleaseKernel(Each);
  }
  EXPECT_EQ(Names, (std::set<std::string>{"args", "other", "fixed"}));
  cl_kernel One = nullptr;
  EXPECT_CL(CL_INVALID_VALUE, clCreateKernelsInProgram(Program, 1, &One, nullptr));
}

TEST_P(Kernels, SetArgErrors) {
  cl_int Value = 5;
  cl_char Small = 1;
  cl_float4 V = {{1, 2, 3, 4}};
  EXPECT_CL(CL_INVALID_ARG_INDEX, clSetKernelArg(K, 4, sizeof(Value), &Value));
  EXPECT_CL(CL_INVALID_ARG_INDEX,
            clSetKernelArg(K, 1000, sizeof(Value), &Value));
  EXPECT_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(K, 1, sizeof(Small), &Small));
  EXPECT_CL(CL_INVALID_ARG_SIZE,
            clSetKernelArg(K, 1, sizeof(cl_long), &V));
  EXPECT_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(K, 3, sizeof(cl_float), &V));
  EXPECT_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(K, 0, 4, &Out));
  // A local argument takes a size and no value.
  EXPECT_CL(CL_INVALID_ARG_SIZE, clSetKernelArg(K, 2, 0, nullptr));
  EXPECT_CL(CL_INVALID_ARG_VALUE, clSetKernelArg(K, 2, 16, &Value));
  // A by-value argument needs a value.
  EXPECT_CL(CL_INVALID_ARG_VALUE, clSetKernelArg(K, 1, sizeof(Value), nullptr));
  // Correct calls.
  EXPECT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Out));
  EXPECT_CL_OK(clSetKernelArg(K, 1, sizeof(Value), &Value));
  EXPECT_CL_OK(clSetKernelArg(K, 2, 64 * sizeof(cl_int), nullptr));
  EXPECT_CL_OK(clSetKernelArg(K, 3, sizeof(V), &V));
}

TEST_P(Kernels, EnqueueWithUnsetArgs) {
  cl_int Value = 5;
  size_t Global = 8, Local = 8;
  EXPECT_CL(CL_INVALID_KERNEL_ARGS,
            clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local, 0,
                                   nullptr, nullptr));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Out));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(Value), &Value));
  ASSERT_CL_OK(clSetKernelArg(K, 2, 8 * sizeof(cl_int), nullptr));
  EXPECT_CL(CL_INVALID_KERNEL_ARGS,
            clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local, 0,
                                   nullptr, nullptr));
  cl_float4 V = {{30, 0, 0, 0}};
  ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(V), &V));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local, 0,
                                      nullptr, nullptr));
  cl_int Result[8] = {};
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, Out, CL_TRUE, 0, sizeof(Result),
                                   Result, 0, nullptr, nullptr));
  for (cl_int R : Result)
    EXPECT_EQ(R, 35);
}

TEST_P(Kernels, NDRangeErrors) {
  cl_int Value = 1;
  cl_float4 V = {{0, 0, 0, 0}};
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Out));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(Value), &Value));
  ASSERT_CL_OK(clSetKernelArg(K, 2, 64 * sizeof(cl_int), nullptr));
  ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(V), &V));
  size_t Global[3] = {16, 1, 1}, Local[3] = {8, 1, 1};
  EXPECT_CL(CL_INVALID_WORK_DIMENSION,
            clEnqueueNDRangeKernel(Queue, K, 0, nullptr, Global, Local, 0,
                                   nullptr, nullptr));
  EXPECT_CL(CL_INVALID_WORK_DIMENSION,
            clEnqueueNDRangeKernel(Queue, K, 4, nullptr, Global, Local, 0,
                                   nullptr, nullptr));
  // OpenCL C 1.2 programs need uniform work-groups.
  size_t Uneven = 12;
  EXPECT_CL(CL_INVALID_WORK_GROUP_SIZE,
            clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Uneven, Local, 0,
                                   nullptr, nullptr));

  // A work-group larger than the device allows.
  size_t MaxGroup = deviceInfo<size_t>(Device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  size_t Items[3] = {};
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                               sizeof(Items), Items, nullptr));
  size_t X = std::min(Items[0], MaxGroup), Y = MaxGroup / X + 1;
  if (Y <= Items[1]) {
    size_t Big[3] = {X, Y, 1};
    EXPECT_CL(CL_INVALID_WORK_GROUP_SIZE,
              clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Big, Big, 0,
                                     nullptr, nullptr));
  }
  // One dimension larger than CL_DEVICE_MAX_WORK_ITEM_SIZES.
  size_t TooWide[1] = {Items[0] + 1};
  size_t WideGlobal[1] = {Items[0] + 1};
  cl_int Err = clEnqueueNDRangeKernel(Queue, K, 1, nullptr, WideGlobal, TooWide,
                                      0, nullptr, nullptr);
  EXPECT_TRUE(Err == CL_INVALID_WORK_ITEM_SIZE ||
              Err == CL_INVALID_WORK_GROUP_SIZE)
      << errorName(Err);
  ASSERT_CL_OK(clFinish(Queue));
}

TEST_P(Kernels, RequiredWorkGroupSize) {
  cl_int Err = CL_SUCCESS;
  KernelRef Fixed(clCreateKernel(Program, "fixed", &Err));
  ASSERT_CL_OK(Err);
  size_t Compile[3] = {};
  ASSERT_CL_OK(clGetKernelWorkGroupInfo(Fixed, Device,
                                        CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                        sizeof(Compile), Compile, nullptr));
  EXPECT_EQ(Compile[0], 4u);
  EXPECT_EQ(Compile[1], 2u);
  EXPECT_EQ(Compile[2], 1u);
  ASSERT_CL_OK(clSetKernelArg(Fixed, 0, sizeof(cl_mem), &Out));
  size_t Global[2] = {8, 4}, Wrong[2] = {8, 1};
  EXPECT_CL(CL_INVALID_WORK_GROUP_SIZE,
            clEnqueueNDRangeKernel(Queue, Fixed, 2, nullptr, Global, Wrong, 0,
                                   nullptr, nullptr));
  // The required size must be given explicitly.
  EXPECT_CL(CL_INVALID_WORK_GROUP_SIZE,
            clEnqueueNDRangeKernel(Queue, Fixed, 2, nullptr, Global, nullptr,
                                   0, nullptr, nullptr));
  size_t Required[2] = {4, 2};
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, Fixed, 2, nullptr, Global,
                                      Required, 0, nullptr, nullptr));
  cl_int Result[32] = {};
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, Out, CL_TRUE, 0, sizeof(Result),
                                   Result, 0, nullptr, nullptr));
  for (cl_int R : Result)
    EXPECT_EQ(R, 42);
}

// cl_khr_suggested_local_work_size's entry point on the platform under
// test, or null (with a test failure) when the device does not offer it.
static clGetKernelSuggestedLocalWorkSizeKHR_fn
suggestedLocalWorkSizeFunction(cl_device_id Device) {
  std::set<std::string> Extensions =
      splitWords(deviceString(Device, CL_DEVICE_EXTENSIONS));
  EXPECT_TRUE(Extensions.count("cl_khr_suggested_local_work_size"));
  auto *Fn = reinterpret_cast<clGetKernelSuggestedLocalWorkSizeKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(
          platformUnderTest(), "clGetKernelSuggestedLocalWorkSizeKHR"));
  EXPECT_NE(Fn, nullptr);
  return Fn;
}

TEST_P(Kernels, SuggestedLocalWorkSizeMatchesANullLocalSize) {
  auto *Suggest = suggestedLocalWorkSizeFunction(Device);
  ASSERT_NE(Suggest, nullptr);
  // Work-item (0,0,0) of each launch records the local size it ran with.
  const char *Source =
      "kernel void sizes(global uint *Out) {\n"
      "  if (get_global_id(0) == get_global_offset(0) &&\n"
      "      get_global_id(1) == get_global_offset(1) &&\n"
      "      get_global_id(2) == get_global_offset(2))\n"
      "    for (uint D = 0; D < 3; ++D)\n"
      "      Out[D] = (uint)get_local_size(D);\n"
      "}\n";
  KernelRef Sizes(makeKernel(Source, "sizes", "-cl-std=CL3.0"));
  ASSERT_NE(Sizes.get(), nullptr);
  MemRef SizesOut(makeBuffer(CL_MEM_READ_WRITE, 3 * sizeof(cl_uint)));
  cl_mem SizesMem = SizesOut;
  ASSERT_CL_OK(clSetKernelArg(Sizes, 0, sizeof(cl_mem), &SizesMem));
  size_t KernelLimit =
      kernelWorkGroupInfo<size_t>(Sizes, Device, CL_KERNEL_WORK_GROUP_SIZE);
  size_t Items[3] = {};
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                               sizeof(Items), Items, nullptr));
  struct Case {
    cl_uint Dims;
    size_t Global[3];
    size_t Offset[3];
  };
  const Case Cases[] = {{1, {1024, 1, 1}, {0, 0, 0}},
                        {1, {1000, 1, 1}, {5, 0, 0}},
                        {1, {97, 1, 1}, {0, 0, 0}},
                        {1, {1, 1, 1}, {0, 0, 0}},
                        {2, {64, 48, 1}, {0, 0, 0}},
                        {2, {100000, 3, 1}, {1, 2, 0}},
                        {3, {8, 8, 8}, {0, 0, 0}},
                        {3, {30, 7, 5}, {3, 3, 3}}};
  for (const Case &C : Cases) {
    SCOPED_TRACE(::testing::Message() << C.Dims << "-D " << C.Global[0]
                                      << "x" << C.Global[1] << "x"
                                      << C.Global[2]);
    size_t Suggested[3] = {0, 0, 0};
    ASSERT_CL_OK(Suggest(Queue, Sizes, C.Dims, C.Offset, C.Global, Suggested));
    size_t Product = 1;
    for (cl_uint D = 0; D < C.Dims; ++D) {
      EXPECT_GE(Suggested[D], 1u);
      EXPECT_LE(Suggested[D], C.Global[D]);
      EXPECT_LE(Suggested[D], Items[D]);
      Product *= Suggested[D];
    }
    EXPECT_LE(Product, KernelLimit);
    cl_uint Ran[3] = {0, 0, 0};
    ASSERT_CL_OK(clEnqueueWriteBuffer(Queue, SizesOut, CL_TRUE, 0,
                                      sizeof(Ran), Ran, 0, nullptr, nullptr));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, Sizes, C.Dims, C.Offset,
                                        C.Global, nullptr, 0, nullptr,
                                        nullptr));
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, SizesOut, CL_TRUE, 0, sizeof(Ran),
                                     Ran, 0, nullptr, nullptr));
    for (cl_uint D = 0; D < 3; ++D)
      EXPECT_EQ(Ran[D], D < C.Dims ? Suggested[D] : 1u) << "dimension " << D;
    // The suggestion is itself a valid local size.
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, Sizes, C.Dims, C.Offset,
                                        C.Global, Suggested, 0, nullptr,
                                        nullptr));
  }
  ASSERT_CL_OK(clFinish(Queue));
}

TEST_P(Kernels, SuggestedLocalWorkSizeFollowsTheKernel) {
  auto *Suggest = suggestedLocalWorkSizeFunction(Device);
  ASSERT_NE(Suggest, nullptr);
  // reqd_work_group_size is the only local size the kernel takes.
  cl_int Err = CL_SUCCESS;
  KernelRef Fixed(clCreateKernel(Program, "fixed", &Err));
  ASSERT_CL_OK(Err);
  cl_mem OutMem = Out;
  ASSERT_CL_OK(clSetKernelArg(Fixed, 0, sizeof(cl_mem), &OutMem));
  size_t Global[2] = {8, 4}, Suggested[2] = {0, 0};
  ASSERT_CL_OK(Suggest(Queue, Fixed, 2, nullptr, Global, Suggested));
  EXPECT_EQ(Suggested[0], 4u);
  EXPECT_EQ(Suggested[1], 2u);

  // 256 KiB live across a barrier per work-item: the kernel's limit is far
  // below the device's, and the suggestion stays within it.
  KernelRef Big(makeKernel(BigPrivateArraySource, "big"));
  ASSERT_NE(Big.get(), nullptr);
  ASSERT_CL_OK(clSetKernelArg(Big, 0, sizeof(cl_mem), &OutMem));
  size_t Limit =
      kernelWorkGroupInfo<size_t>(Big, Device, CL_KERNEL_WORK_GROUP_SIZE);
  size_t BigGlobal = 1 << 16, BigSuggested = 0;
  ASSERT_CL_OK(Suggest(Queue, Big, 1, nullptr, &BigGlobal, &BigSuggested));
  EXPECT_GE(BigSuggested, 1u);
  EXPECT_LE(BigSuggested, Limit);
  EXPECT_EQ(BigGlobal % BigSuggested, 0u) << "OpenCL C 1.2: uniform groups";
}

TEST_P(Kernels, SuggestedLocalWorkSizeErrors) {
  auto *Suggest = suggestedLocalWorkSizeFunction(Device);
  ASSERT_NE(Suggest, nullptr);
  size_t Global[3] = {64, 4, 2}, Suggested[3] = {0, 0, 0};
  // In the order of the extension's specification. The arguments of K are
  // not set yet.
  EXPECT_CL(CL_INVALID_COMMAND_QUEUE,
            Suggest(nullptr, K, 1, nullptr, Global, Suggested));
  EXPECT_CL(CL_INVALID_KERNEL,
            Suggest(Queue, nullptr, 1, nullptr, Global, Suggested));
  {
    cl_int Err = CL_SUCCESS;
    ContextRef Other(
        clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err));
    ASSERT_CL_OK(Err);
    QueueRef OtherQueue(
        clCreateCommandQueueWithProperties(Other, Device, nullptr, &Err));
    ASSERT_CL_OK(Err);
    EXPECT_CL(CL_INVALID_CONTEXT,
              Suggest(OtherQueue, K, 1, nullptr, Global, Suggested));
  }
  EXPECT_CL(CL_INVALID_KERNEL_ARGS,
            Suggest(Queue, K, 1, nullptr, Global, Suggested));
  cl_int Value = 1;
  cl_float4 V = {{0, 0, 0, 0}};
  cl_mem OutMem = Out;
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutMem));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(Value), &Value));
  ASSERT_CL_OK(clSetKernelArg(K, 2, 64 * sizeof(cl_int), nullptr));
  ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(V), &V));
  EXPECT_CL(CL_INVALID_WORK_DIMENSION,
            Suggest(Queue, K, 0, nullptr, Global, Suggested));
  EXPECT_CL(CL_INVALID_WORK_DIMENSION,
            Suggest(Queue, K, 4, nullptr, Global, Suggested));
  EXPECT_CL(CL_INVALID_GLOBAL_WORK_SIZE,
            Suggest(Queue, K, 1, nullptr, nullptr, Suggested));
  size_t Empty[3] = {64, 0, 2};
  EXPECT_CL(CL_INVALID_GLOBAL_WORK_SIZE,
            Suggest(Queue, K, 2, nullptr, Empty, Suggested));
  // Dimensions past work_dim are not read.
  EXPECT_CL_OK(Suggest(Queue, K, 1, nullptr, Empty, Suggested));
  size_t Offset[3] = {0, SIZE_MAX - 1, 0};
  EXPECT_CL(CL_INVALID_GLOBAL_OFFSET,
            Suggest(Queue, K, 2, Offset, Global, Suggested));
  EXPECT_CL(CL_INVALID_VALUE, Suggest(Queue, K, 1, nullptr, Global, nullptr));
  size_t NoOffset[3] = {0, 0, 0};
  EXPECT_CL_OK(Suggest(Queue, K, 3, NoOffset, Global, Suggested));
}

TEST_P(Kernels, RetainRelease) {
  ASSERT_CL_OK(clRetainKernel(K));
  cl_uint Count = 0;
  ASSERT_CL_OK(clGetKernelInfo(K, CL_KERNEL_REFERENCE_COUNT, sizeof(Count),
                               &Count, nullptr));
  EXPECT_EQ(Count, 2u);
  ASSERT_CL_OK(clReleaseKernel(K));
  // A program with kernels attached cannot be rebuilt.
  EXPECT_CL(CL_INVALID_OPERATION,
            clBuildProgram(Program, 1, &Device, nullptr, nullptr, nullptr));
}

void CL_CALLBACK countDestruction(cl_mem, void *Count) {
  ++*static_cast<int *>(Count);
}

// clSetKernelArg does not retain: a buffer the application releases while
// it is still a kernel argument is destroyed (its destructor callbacks run)
// once no command uses it, and the kernel lives on. A command enqueued
// before the release keeps the buffer until it completes.
TEST_P(Kernels, ArgumentsDoNotKeepBuffersAlive) {
  int Destroyed = 0;
  cl_mem Buf = makeBuffer(CL_MEM_READ_WRITE, 64 * sizeof(cl_int));
  ASSERT_NE(Buf, nullptr);
  ASSERT_CL_OK(clSetMemObjectDestructorCallback(Buf, countDestruction,
                                                &Destroyed));
  ASSERT_NO_FATAL_FAILURE(setArgs(Buf, 5, 2));
  size_t Global = 64, Local = 16;
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local,
                                      0, nullptr, nullptr));
  std::vector<cl_int> Host(64, -1);
  ASSERT_CL_OK(readInto(Buf, Host));
  for (cl_int X : Host)
    ASSERT_EQ(X, 7);
  ASSERT_CL_OK(clReleaseMemObject(Buf));
  ASSERT_CL_OK(clFinish(Queue));
  EXPECT_EQ(Destroyed, 1) << "the kernel argument kept the buffer alive";

  // The kernel still works with a new buffer in the slot.
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Out));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local,
                                      0, nullptr, nullptr));
  ASSERT_CL_OK(readInto(Out, Host));
  EXPECT_EQ(Host[63], 7);

  // Released while an enqueued command still uses it: destroyed after the
  // command, with its results written.
  cl_mem Late = makeBuffer(CL_MEM_READ_WRITE, 64 * sizeof(cl_int));
  ASSERT_NE(Late, nullptr);
  int LateDestroyed = 0;
  ASSERT_CL_OK(clSetMemObjectDestructorCallback(Late, countDestruction,
                                                &LateDestroyed));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Late));
  cl_event Gate = clCreateUserEvent(Context, nullptr);
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local,
                                      1, &Gate, nullptr));
  ASSERT_CL_OK(clReleaseMemObject(Late));
  EXPECT_EQ(LateDestroyed, 0) << "destroyed under a pending command";
  ASSERT_CL_OK(clSetUserEventStatus(Gate, CL_COMPLETE));
  ASSERT_CL_OK(clFinish(Queue));
  ASSERT_CL_OK(clReleaseEvent(Gate));
  EXPECT_EQ(LateDestroyed, 1);
}

// Enqueuing a kernel whose buffer argument the application has released is
// refused rather than run on freed memory.
TEST_P(Kernels, EnqueueWithReleasedBufferArgument) {
  WEFT_ONLY("the specification leaves this undefined");
  cl_mem Buf = makeBuffer(CL_MEM_READ_WRITE, 64 * sizeof(cl_int));
  ASSERT_NE(Buf, nullptr);
  ASSERT_NO_FATAL_FAILURE(setArgs(Buf, 1, 0));
  ASSERT_CL_OK(clReleaseMemObject(Buf));
  size_t Global = 64;
  EXPECT_CL(CL_INVALID_MEM_OBJECT,
            clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, nullptr, 0,
                                   nullptr, nullptr));
}

// An enqueue reuses the memory of a completed launch of the same kernel:
// launches still waiting behind a gate must keep their own arguments,
// local sizes and local memory sizes, and a launch after a change of local
// size must not run the function of the old one.
const char *const StampSource =
    "kernel void stamp(global int *Out, int Value, local int *Tile) {\n"
    "  int L = get_local_id(0), S = get_local_size(0);\n"
    "  size_t G = get_global_id(0);\n"
    "  int Mine = Out[G];\n" // live across the barrier: a context array
    "  Tile[L] = Value + L;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  Out[G] = Tile[S - 1 - L] * 1000 + S + Mine * 3;\n"
    "}\n";

/// stamp's result at global index G of a launch with Value and Local, over
/// Before.
cl_int stampAt(size_t G, cl_int Value, size_t Local, cl_int Before) {
  cl_int L = cl_int(G % Local), S = cl_int(Local);
  return (Value + S - 1 - L) * 1000 + S + Before * 3;
}

TEST_P(Kernels, RepeatedEnqueuesKeepTheirOwnLaunches) {
  KernelRef Stamp(makeKernel(StampSource, "stamp"));
  ASSERT_NE(Stamp.get(), nullptr);
  const size_t Launches = 60, Span = 64;
  const size_t LocalSizes[] = {1, 4, 16, 64, 8};
  std::vector<cl_int> Expected(Launches * Span);
  for (size_t G = 0; G < Expected.size(); ++G)
    Expected[G] = cl_int(G % 97);
  MemRef All(makeBufferFrom(Expected));
  ASSERT_NE(All.get(), nullptr);
  ASSERT_CL_OK(clSetKernelArg(Stamp, 0, sizeof(cl_mem), &All));
  for (int Round = 0; Round < 2; ++Round) {
    SCOPED_TRACE(Round ? "launches complete one by one" : "behind a gate");
    cl_int Err = CL_SUCCESS;
    EventRef Gate(clCreateUserEvent(Context, &Err));
    ASSERT_CL_OK(Err);
    for (size_t I = 0; I < Launches; ++I) {
      cl_int Value = cl_int(I * 7 + Round);
      size_t Local = LocalSizes[I % std::size(LocalSizes)];
      size_t Offset = I * Span;
      ASSERT_CL_OK(clSetKernelArg(Stamp, 1, sizeof(Value), &Value));
      ASSERT_CL_OK(clSetKernelArg(Stamp, 2, Local * sizeof(cl_int), nullptr));
      // In round 0 the first launch waits for the gate, and the in-order
      // queue holds every later one behind it.
      cl_event Wait = Gate;
      bool Gated = Round == 0 && I == 0;
      ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, Stamp, 1, &Offset, &Span,
                                          &Local, Gated ? 1 : 0,
                                          Gated ? &Wait : nullptr, nullptr));
      if (Round == 1)
        ASSERT_CL_OK(clFinish(Queue));
    }
    ASSERT_CL_OK(clSetUserEventStatus(Gate, CL_COMPLETE));
    std::vector<cl_int> Host(Launches * Span, -1);
    ASSERT_CL_OK(readInto(All, Host));
    for (size_t I = 0; I < Launches; ++I)
      for (size_t X = 0; X < Span; ++X) {
        cl_int &E = Expected[I * Span + X];
        E = stampAt(X, cl_int(I * 7 + Round),
                    LocalSizes[I % std::size(LocalSizes)], E);
        ASSERT_EQ(Host[I * Span + X], E)
            << "launch " << I << ", work-item " << X;
      }
  }
}

// Enqueues of one kernel may come from several threads at once (only
// clSetKernelArg on one kernel may not): each gets a launch of its own.
TEST_P(Kernels, EnqueuesOfOneKernelFromTwoThreads) {
  KernelRef Stamp(makeKernel(StampSource, "stamp"));
  ASSERT_NE(Stamp.get(), nullptr);
  const size_t PerThread = 300, Span = 16, Local = 16;
  const cl_int Value = 11;
  MemRef All(makeBufferFrom(std::vector<cl_int>(2 * PerThread * Span, 1)));
  ASSERT_NE(All.get(), nullptr);
  ASSERT_CL_OK(clSetKernelArg(Stamp, 0, sizeof(cl_mem), &All));
  ASSERT_CL_OK(clSetKernelArg(Stamp, 1, sizeof(Value), &Value));
  ASSERT_CL_OK(clSetKernelArg(Stamp, 2, Local * sizeof(cl_int), nullptr));
  cl_int Err = CL_SUCCESS;
  QueueRef Second(
      clCreateCommandQueueWithProperties(Context, Device, nullptr, &Err));
  ASSERT_CL_OK(Err);
  std::atomic<int> Failures{0};
  auto enqueueAll = [&](cl_command_queue Q, size_t First) {
    for (size_t I = 0; I < PerThread; ++I) {
      size_t Offset = (First + I) * Span;
      if (clEnqueueNDRangeKernel(Q, Stamp, 1, &Offset, &Span, &Local, 0,
                                 nullptr, nullptr) != CL_SUCCESS)
        ++Failures;
      if (I % 16 == 15)
        clFlush(Q);
    }
    if (clFinish(Q) != CL_SUCCESS)
      ++Failures;
  };
  std::thread Other(enqueueAll, Second.get(), PerThread);
  enqueueAll(Queue, 0);
  Other.join();
  EXPECT_EQ(Failures.load(), 0);
  std::vector<cl_int> Host(2 * PerThread * Span, -1);
  ASSERT_CL_OK(readInto(All, Host));
  for (size_t G = 0; G < Host.size(); ++G)
    ASSERT_EQ(Host[G], stampAt(G, Value, Local, 1)) << "work-item " << G;
}

// CL_KERNEL_PRIVATE_MEM_SIZE, CL_KERNEL_LOCAL_MEM_SIZE and the work-group
// size a kernel's context arrays allow.
class KernelMemory : public DeviceTest {};

TEST_P(KernelMemory, PrivateArrayLiveAcrossBarrier) {
  // 1 KiB of private memory written before the barrier and read after it:
  // it lives in a context array, one per work-item.
  const char *Source =
      "kernel void across(global float *Out, global const float *In) {\n"
      "  float P[256];\n"
      "  size_t L = get_local_id(0), G = get_global_id(0);\n"
      "  for (int I = 0; I < 256; ++I)\n"
      "    P[I] = In[(G + I) % 256] * (float)(L + 1);\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  float S = 0.0f;\n"
      "  for (int I = 0; I < 256; ++I)\n"
      "    S += P[(I * 7 + L) % 256] * (float)(I % 3);\n"
      "  Out[G] = S;\n"
      "}\n";
  KernelRef K(makeKernel(Source, "across"));
  ASSERT_NE(K.get(), nullptr);
  cl_ulong Private = 0;
  ASSERT_CL_OK(clGetKernelWorkGroupInfo(K, Device, CL_KERNEL_PRIVATE_MEM_SIZE,
                                        sizeof(Private), &Private, nullptr));
  EXPECT_GE(Private, 1024u);
  size_t GroupSize = 0;
  ASSERT_CL_OK(clGetKernelWorkGroupInfo(K, Device, CL_KERNEL_WORK_GROUP_SIZE,
                                        sizeof(GroupSize), &GroupSize, nullptr));
  EXPECT_GE(GroupSize, 16u);
  EXPECT_LE(GroupSize,
            deviceInfo<size_t>(Device, CL_DEVICE_MAX_WORK_GROUP_SIZE));

  // And it runs right, against a host reference.
  const size_t N = 64, Local = 16;
  std::vector<float> In(256), Out(N, -1.0f);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = float(I % 13) - 6.0f;
  MemRef InBuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          In.size() * sizeof(float), In.data()));
  MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, N * sizeof(float)));
  cl_mem OutMem = OutBuf, InMem = InBuf;
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutMem));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InMem));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                      nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                   N * sizeof(float), Out.data(), 0, nullptr,
                                   nullptr));
  for (size_t G = 0; G < N; ++G) {
    size_t L = G % Local;
    float P[256];
    for (int I = 0; I < 256; ++I)
      P[I] = In[(G + I) % 256] * float(L + 1);
    float S = 0.0f;
    for (int I = 0; I < 256; ++I)
      S += P[(I * 7 + L) % 256] * float(I % 3);
    EXPECT_FLOAT_EQ(Out[G], S) << "work-item " << G;
  }
}

TEST_P(KernelMemory, ContextArraysLimitTheWorkGroup) {
  // 256 KiB live across a barrier per work-item: the private arena a worker
  // may hold allows far fewer work-items than a CPU device's maximum.
  KernelRef K(makeKernel(BigPrivateArraySource, "big"));
  ASSERT_NE(K.get(), nullptr);
  cl_ulong Private = 0;
  ASSERT_CL_OK(clGetKernelWorkGroupInfo(K, Device, CL_KERNEL_PRIVATE_MEM_SIZE,
                                        sizeof(Private), &Private, nullptr));
  EXPECT_GE(Private, 65536u * 4);
  size_t GroupSize = 0;
  ASSERT_CL_OK(clGetKernelWorkGroupInfo(K, Device, CL_KERNEL_WORK_GROUP_SIZE,
                                        sizeof(GroupSize), &GroupSize, nullptr));
  size_t DeviceMax = deviceInfo<size_t>(Device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  EXPECT_GE(GroupSize, 1u);
  EXPECT_LE(GroupSize, DeviceMax);
  // No more than 64 MiB of context arrays per group.
  EXPECT_LE(GroupSize * 65536 * 4, size_t(64) << 20);
  if (GroupSize >= DeviceMax)
    GTEST_SKIP() << "the device allows no group larger than the kernel";
  MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, 2 * DeviceMax * sizeof(float)));
  cl_mem OutMem = OutBuf;
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutMem));
  size_t Local = GroupSize * 2 <= DeviceMax ? GroupSize * 2 : DeviceMax;
  size_t Global = Local;
  EXPECT_CL(CL_INVALID_WORK_GROUP_SIZE,
            clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local, 0,
                                   nullptr, nullptr));
}

TEST_P(KernelMemory, FiguresOfARebuildMatchTheFirstBuild) {
  // clBuildProgram measures each kernel's memory once and keeps the figures
  // in the kernel cache: a second build of the same program (a source no
  // earlier run has built, so the first build measures) must report what
  // the first measured.
  std::string Source =
      "// build " + std::to_string(std::random_device{}()) + "-" +
      std::to_string(std::chrono::steady_clock::now().time_since_epoch()
                         .count()) +
      "\n"
      "kernel void big(global float *Out) {\n"
      "  float P[16384];\n"
      "  size_t L = get_local_id(0);\n"
      "  for (int I = 0; I < 16384; ++I)\n"
      "    P[I] = (float)(I + L);\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  Out[get_global_id(0)] = P[(L * 31) % 16384];\n"
      "}\n";
  std::pair<cl_ulong, size_t> Figures[2];
  for (auto &[Private, GroupSize] : Figures) {
    ProgramRef P(buildProgram(Context, Device, Source));
    ASSERT_NE(P.get(), nullptr);
    cl_int Err = CL_SUCCESS;
    KernelRef K(clCreateKernel(P, "big", &Err));
    ASSERT_CL_OK(Err);
    ASSERT_CL_OK(clGetKernelWorkGroupInfo(K, Device,
                                          CL_KERNEL_PRIVATE_MEM_SIZE,
                                          sizeof(Private), &Private, nullptr));
    ASSERT_CL_OK(clGetKernelWorkGroupInfo(K, Device, CL_KERNEL_WORK_GROUP_SIZE,
                                          sizeof(GroupSize), &GroupSize,
                                          nullptr));
  }
  // 64 KiB per work-item in context arrays: the 64 MiB arena allows 1024.
  EXPECT_GE(Figures[0].first, 16384u * 4);
  EXPECT_LE(Figures[0].second, size_t(1024));
  EXPECT_EQ(Figures[1].first, Figures[0].first);
  EXPECT_EQ(Figures[1].second, Figures[0].second);
}

TEST_P(KernelMemory, LocalMemorySizeCountsAutomaticLocals) {
  const char *Source =
      "kernel void withLocal(global float *Out, local float *Extra) {\n"
      "  local float Tmp[256];\n"
      "  size_t L = get_local_id(0);\n"
      "  Tmp[L] = (float)L;\n"
      "  Extra[L] = 1.0f;\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  Out[get_global_id(0)] = Tmp[255 - L] + Extra[L];\n"
      "}\n";
  KernelRef K(makeKernel(Source, "withLocal"));
  ASSERT_NE(K.get(), nullptr);
  ASSERT_CL_OK(clSetKernelArg(K, 1, 64 * sizeof(float), nullptr));
  cl_ulong Local = 0;
  ASSERT_CL_OK(clGetKernelWorkGroupInfo(K, Device, CL_KERNEL_LOCAL_MEM_SIZE,
                                        sizeof(Local), &Local, nullptr));
  // The automatic array and the local argument.
  EXPECT_EQ(Local, 1024u + 64 * sizeof(float));
}

WEFT_INSTANTIATE_DEVICE_TEST(Kernels);
WEFT_INSTANTIATE_DEVICE_TEST(KernelMemory);

} // namespace
