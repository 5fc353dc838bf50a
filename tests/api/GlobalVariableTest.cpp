//===- tests/api/GlobalVariableTest.cpp - program-scope global variables --===//
//
// OpenCL C 3.0 variables in the global address space, at program scope and
// static in functions (__opencl_c_program_scope_global_variables): their
// initial values, one copy per program shared by its kernels and kept
// from launch to launch, pointers among them, the queries that describe
// them, and program binaries.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"


using namespace weft_test;

namespace {

const char *const VariablesSource = R"(
typedef struct { char C; long L; float F[3]; } Record;
global int Counter;
global int Table[4] = {10, 20, 30, 40};
global int *global Third = &Table[2];
global Record R = {'w', 1234567890123L, {0.5f, 1.5f, 2.5f}};
static global float Hidden = 2.5f;
global uchar Big[100000];

// Reads the initial state into Out, then changes it.
kernel void first(global long *Out) {
  Out[0] = Counter;
  Out[1] = Table[0] + Table[1] + Table[2] + Table[3];
  Out[2] = *Third;
  Out[3] = R.C;
  Out[4] = R.L;
  Out[5] = (long)(R.F[0] + R.F[1] + R.F[2]);
  Out[6] = (long)(Hidden * 2);
  Out[7] = Big[99999];
  Counter = 7;
  Table[2] = 300;
  Third = &Table[3];
  Big[99999] = 9;
}

// Sees what the other kernel left.
kernel void second(global long *Out) {
  Out[0] = Counter;
  Out[1] = *Third;
  Out[2] = Table[2];
  Out[3] = Big[99999];
}

// Every work-item adds to one variable; a static counts the launches.
kernel void count(global long *Out) {
  static global int Launches;
  atomic_add(&Counter, 1);
  if (get_global_id(0) == 0)
    Out[0] = ++Launches;
}
)";

class GlobalVariables : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    if (!deviceHasFeature(Device,
                          "__opencl_c_program_scope_global_variables")) {
      EXPECT_FALSE(testingWeft()) << "Weft supports program-scope variables";
      GTEST_SKIP() << "no __opencl_c_program_scope_global_variables";
    }
  }
  /// Runs kernel Name of P over Items work-items and returns Out[0..N).
  std::vector<cl_long> run(cl_program P, const char *Name, size_t N,
                           size_t Items = 1) {
    cl_int Err = CL_SUCCESS;
    KernelRef K(clCreateKernel(P, Name, &Err));
    EXPECT_CL_OK(Err);
    std::vector<cl_long> Out(N, -1);
    MemRef Buf(makeBufferFrom(Out));
    if (!K || !Buf)
      return Out;
    EXPECT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
    EXPECT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Items, nullptr,
                                        0, nullptr, nullptr));
    EXPECT_CL_OK(readInto(Buf, Out));
    return Out;
  }
  static constexpr const char *Std = "-cl-std=CL3.0";
};

TEST_P(GlobalVariables, DeviceQueries) {
  // OpenCL 3.0: at least 64 KiB per variable where the feature is claimed.
  EXPECT_GE(deviceInfo<size_t>(Device, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE),
            size_t(65536));
  EXPECT_GT(deviceInfo<size_t>(Device,
                               CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE),
            size_t(0));
}

TEST_P(GlobalVariables, InitializedSharedAndKeptAcrossKernels) {
  ProgramRef P(buildProgram(Context, Device, VariablesSource, Std));
  ASSERT_NE(P.get(), nullptr);
  size_t Total = 0;
  ASSERT_CL_OK(clGetProgramBuildInfo(P, Device,
                                     CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
                                     sizeof(Total), &Total, nullptr));
  // Counter, Table, Third, R, Hidden, Big, and count's Launches.
  EXPECT_GE(Total, 4 + 16 + 8 + 32 + 4 + 100000 + 4u);
  std::vector<cl_long> A = run(P, "first", 8);
  EXPECT_EQ(A[0], 0) << "an uninitialized variable starts as zero";
  EXPECT_EQ(A[1], 100);
  EXPECT_EQ(A[2], 30) << "a pointer initialized to another variable";
  EXPECT_EQ(A[3], 'w');
  EXPECT_EQ(A[4], 1234567890123LL);
  EXPECT_EQ(A[5], 4);
  EXPECT_EQ(A[6], 5);
  EXPECT_EQ(A[7], 0);
  std::vector<cl_long> B = run(P, "second", 4);
  EXPECT_EQ(B[0], 7);
  EXPECT_EQ(B[1], 40);
  EXPECT_EQ(B[2], 300);
  EXPECT_EQ(B[3], 9);
  // 256 work-items add 1 each, twice; the static counts two launches.
  EXPECT_EQ(run(P, "count", 1, 256)[0], 1);
  EXPECT_EQ(run(P, "count", 1, 256)[0], 2);
  EXPECT_EQ(run(P, "second", 4)[0], 7 + 512);
}

TEST_P(GlobalVariables, EachProgramHasItsOwnCopies) {
  ProgramRef P1(buildProgram(Context, Device, VariablesSource, Std));
  ProgramRef P2(buildProgram(Context, Device, VariablesSource, Std));
  ASSERT_NE(P1.get(), nullptr);
  ASSERT_NE(P2.get(), nullptr);
  run(P1, "first", 8);
  EXPECT_EQ(run(P1, "second", 4)[0], 7);
  // The same source, another program: untouched.
  EXPECT_EQ(run(P2, "second", 4)[0], 0);
  std::vector<cl_long> A = run(P2, "first", 8);
  EXPECT_EQ(A[2], 30);
  // A program rebuilt starts over.
  ASSERT_CL_OK(clBuildProgram(P1, 1, &Device, Std, nullptr, nullptr));
  EXPECT_EQ(run(P1, "first", 8)[2], 30);
}

TEST_P(GlobalVariables, ProgramBinaryStartsFromTheInitialValues) {
  ProgramRef P(buildProgram(Context, Device, VariablesSource, Std));
  ASSERT_NE(P.get(), nullptr);
  run(P, "first", 8);
  size_t Size = 0;
  ASSERT_CL_OK(clGetProgramInfo(P, CL_PROGRAM_BINARY_SIZES, sizeof(Size),
                                &Size, nullptr));
  std::vector<unsigned char> Binary(Size);
  unsigned char *Ptr = Binary.data();
  ASSERT_CL_OK(clGetProgramInfo(P, CL_PROGRAM_BINARIES, sizeof(Ptr), &Ptr,
                                nullptr));
  const unsigned char *Const = Binary.data();
  cl_int Status = CL_SUCCESS, Err = CL_SUCCESS;
  ProgramRef Loaded(clCreateProgramWithBinary(Context, 1, &Device, &Size,
                                              &Const, &Status, &Err));
  ASSERT_CL_OK(Err);
  ASSERT_CL_OK(clBuildProgram(Loaded, 1, &Device, nullptr, nullptr, nullptr));
  std::vector<cl_long> A = run(Loaded, "first", 8);
  EXPECT_EQ(A[0], 0);
  EXPECT_EQ(A[1], 100);
  EXPECT_EQ(A[2], 30);
  EXPECT_EQ(A[4], 1234567890123LL);
}

TEST_P(GlobalVariables, TooLargeOrUndefinedFailsTheBuild) {
  size_t Max = deviceInfo<size_t>(Device, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE);
  std::string Source = "global char Huge[" + std::to_string(Max + 1) +
                       "];\nkernel void k(global char *p) { p[0] = Huge[1]; "
                       "Huge[0] = 1; }\n";
  const char *Text = Source.c_str();
  cl_int Err = CL_SUCCESS;
  ProgramRef P(clCreateProgramWithSource(Context, 1, &Text, nullptr, &Err));
  ASSERT_CL_OK(Err);
  EXPECT_CL(CL_BUILD_PROGRAM_FAILURE,
            clBuildProgram(P, 1, &Device, Std, nullptr, nullptr));
  if (testingWeft()) {
    EXPECT_NE(buildLog(P, Device).find("CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE"),
              std::string::npos)
        << buildLog(P, Device);
  }
  // OpenCL C 1.2 has no program-scope variables outside __constant.
  Source = "global int X;\nkernel void k(global int *p) { p[0] = X; }\n";
  Text = Source.c_str();
  ProgramRef Old(clCreateProgramWithSource(Context, 1, &Text, nullptr, &Err));
  ASSERT_CL_OK(Err);
  EXPECT_CL(CL_BUILD_PROGRAM_FAILURE,
            clBuildProgram(Old, 1, &Device, "-cl-std=CL1.2", nullptr,
                           nullptr));
}

} // namespace

WEFT_INSTANTIATE_DEVICE_TEST(GlobalVariables);
