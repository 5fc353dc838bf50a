//===- tests/api/KernelTest.cpp - kernel objects and argument checking ----===//

#include "TestCommon.h"

#include <algorithm>

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

WEFT_INSTANTIATE_DEVICE_TEST(Kernels);

} // namespace
