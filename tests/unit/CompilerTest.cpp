//===- CompilerTest.cpp - buildProgram / compileWorkGroupFunction ---------===//
//
// Drives the compiler the way a CPU driver does: build, compile for a local
// size, fill a WorkGroupContext per group and call the launcher, then check
// against a host reference.
//
//===----------------------------------------------------------------------===//
#include "weft/compiler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace {

using weft::KernelArgDesc;
using weft::ProgramBuild;

const weft::TargetDesc &host() {
  static weft::TargetDesc T = weft::hostTargetDesc();
  return T;
}

ProgramBuild build(const char *Source, const char *Options = "") {
  return weft::buildProgram(Source, Options, host());
}

/// Runs every work-group of an NDRange through F, the way a driver does:
/// unused dimensions have size 1 and offset 0.
void runNDRange(const weft::WorkGroupFunction &F, void *const *Args,
                unsigned Dims, const size_t Global[3], const size_t Local[3],
                const size_t Offset[3]) {
  weft::WorkGroupContext Ctx;
  std::memset(&Ctx, 0, sizeof(Ctx));
  Ctx.WorkDim = Dims;
  for (unsigned D = 0; D < 3; ++D) {
    Ctx.GlobalSize[D] = D < Dims ? Global[D] : 1;
    Ctx.EnqueuedLocalSize[D] = D < Dims ? Local[D] : 1;
    Ctx.GlobalOffset[D] = D < Dims ? Offset[D] : 0;
    Ctx.NumGroups[D] = (Ctx.GlobalSize[D] + Ctx.EnqueuedLocalSize[D] - 1) /
                       Ctx.EnqueuedLocalSize[D];
  }
  std::vector<char> Arena(F.PrivateArenaSize + 64);
  Ctx.PrivateArena = Arena.data();
  // With the alignment launcher.h promises, as a driver gives it.
  const size_t A = weft::LocalVariablesAlignment;
  std::unique_ptr<void, decltype(&std::free)> Locals(
      F.LocalVariablesSize
          ? std::aligned_alloc(A, (F.LocalVariablesSize + A - 1) / A * A)
          : nullptr,
      &std::free);
  Ctx.LocalVariables = Locals.get();
  for (uint64_t Z = 0; Z < Ctx.NumGroups[2]; ++Z)
    for (uint64_t Y = 0; Y < Ctx.NumGroups[1]; ++Y)
      for (uint64_t X = 0; X < Ctx.NumGroups[0]; ++X) {
        uint64_t G[3] = {X, Y, Z};
        for (unsigned D = 0; D < 3; ++D) {
          Ctx.GroupId[D] = G[D];
          uint64_t Start = G[D] * Ctx.EnqueuedLocalSize[D];
          Ctx.LocalSize[D] =
              std::min(Ctx.EnqueuedLocalSize[D], Ctx.GlobalSize[D] - Start);
        }
        F.Launch(Args, &Ctx);
      }
}

const char *VectorAdd = R"CL(
kernel void vadd(global const float *A, global const float *B,
                 global float *C, uint Width, uint Height) {
  size_t X = get_global_id(0), Y = get_global_id(1), Z = get_global_id(2);
  size_t I = (Z * Height + Y) * Width + X;
  C[I] = A[I] + B[I] + (float)get_local_linear_id() * 0.0f;
}
)CL";

struct NDRangeCase {
  unsigned Dims;
  size_t Global[3], Local[3], Offset[3];
};

class VectorAddTest : public ::testing::TestWithParam<NDRangeCase> {};

TEST_P(VectorAddTest, MatchesHostReference) {
  const NDRangeCase &C = GetParam();
  ProgramBuild B = build(VectorAdd, "-cl-std=CL3.0");
  ASSERT_EQ(B.Result, ProgramBuild::Status::Success) << B.Log;

  size_t Extent[3];
  for (unsigned D = 0; D < 3; ++D)
    Extent[D] = D < C.Dims ? C.Global[D] + C.Offset[D] : 1;
  size_t N = Extent[0] * Extent[1] * Extent[2];
  std::vector<float> A(N), Bv(N), Out(N, -1.0f);
  for (size_t I = 0; I < N; ++I) {
    A[I] = float(I) * 0.5f;
    Bv[I] = 1000.0f - float(I);
  }
  float *PA = A.data(), *PB = Bv.data(), *PC = Out.data();
  cl_uint Width = cl_uint(Extent[0]), Height = cl_uint(Extent[1]);
  void *Args[] = {&PA, &PB, &PC, &Width, &Height};

  std::string Error;
  weft::WorkGroupFunction F = weft::compileWorkGroupFunction(
      B.Bitcode, "vadd", C.Local, host(), Error);
  ASSERT_NE(F.Launch, nullptr) << Error;
  runNDRange(F, Args, C.Dims, C.Global, C.Local, C.Offset);

  for (size_t Z = 0; Z < Extent[2]; ++Z)
    for (size_t Y = 0; Y < Extent[1]; ++Y)
      for (size_t X = 0; X < Extent[0]; ++X) {
        size_t I = (Z * Extent[1] + Y) * Extent[0] + X;
        bool Inside = X >= C.Offset[0] && (C.Dims < 2 || Y >= C.Offset[1]) &&
                      (C.Dims < 3 || Z >= C.Offset[2]);
        float Expected = Inside ? A[I] + Bv[I] : -1.0f;
        ASSERT_EQ(Out[I], Expected) << "at " << X << "," << Y << "," << Z;
      }
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, VectorAddTest,
    ::testing::Values(NDRangeCase{1, {1024, 1, 1}, {64, 1, 1}, {0, 0, 0}},
                      NDRangeCase{1, {1000, 1, 1}, {1, 1, 1}, {0, 0, 0}},
                      NDRangeCase{1, {1000, 1, 1}, {128, 1, 1}, {5, 0, 0}},
                      NDRangeCase{1, {77, 1, 1}, {7, 1, 1}, {3, 0, 0}},
                      NDRangeCase{2, {64, 48, 1}, {16, 4, 1}, {0, 0, 0}},
                      NDRangeCase{2, {50, 30, 1}, {8, 8, 1}, {2, 3, 0}},
                      NDRangeCase{3, {16, 12, 6}, {4, 3, 2}, {1, 2, 3}},
                      NDRangeCase{3, {9, 7, 5}, {4, 4, 4}, {0, 0, 0}}));

TEST(Compiler, BuildFailureHasDiagnostics) {
  ProgramBuild B = build("kernel void k(global int *P) { P[0] = undeclared; }");
  EXPECT_EQ(B.Result, ProgramBuild::Status::BuildFailure);
  EXPECT_NE(B.Log.find("undeclared"), std::string::npos) << B.Log;
  EXPECT_NE(B.Log.find("error"), std::string::npos) << B.Log;
  EXPECT_TRUE(B.Kernels.empty());
}

TEST(Compiler, UnknownOptionIsInvalid) {
  ProgramBuild B = build("kernel void k(global int *P) { P[0] = 1; }",
                         "-cl-mad-enable -fno-such-option");
  EXPECT_EQ(B.Result, ProgramBuild::Status::InvalidOptions);
  EXPECT_NE(B.Log.find("-fno-such-option"), std::string::npos) << B.Log;
}

TEST(Compiler, KnownOptionsAndDefines) {
  ProgramBuild B = build("kernel void k(global int *P) { P[0] = VALUE; }",
                         "-D VALUE=3 -DOTHER -cl-fast-relaxed-math "
                         "-cl-std=CL1.2 -cl-kernel-arg-info -w -g");
  EXPECT_EQ(B.Result, ProgramBuild::Status::Success) << B.Log;
  ProgramBuild B3 = build("kernel void k(global int *P) { P[0] = 1; }",
                          "-cl-std=CL3.0");
  EXPECT_EQ(B3.Result, ProgramBuild::Status::Success) << B3.Log;
  ProgramBuild Bad = build("kernel void k(global int *P) { P[0] = 1; }",
                           "-cl-std=CL9.9");
  EXPECT_EQ(Bad.Result, ProgramBuild::Status::InvalidOptions);
}

// A known version the device does not list fails the compile with a log
// (OpenCL 3.0 5.8.6.5); 1.0 and 1.1 come with 1.2.
TEST(Compiler, UnsupportedLanguageVersionFailsTheBuild) {
  const char *Src = "kernel void k(global int *P) { P[0] = 1; }";
  ProgramBuild B20 = build(Src, "-cl-std=CL2.0");
  EXPECT_EQ(B20.Result, ProgramBuild::Status::BuildFailure);
  EXPECT_NE(B20.Log.find("does not support OpenCL C 2.0"), std::string::npos)
      << B20.Log;
  EXPECT_EQ(build(Src, "-cl-std=CL1.1").Result,
            ProgramBuild::Status::Success);
  EXPECT_EQ(build(Src, "-cl-std=CL1.0").Result,
            ProgramBuild::Status::Success);
}

TEST(Compiler, WerrorTurnsWarningsIntoFailure) {
  const char *Src = "#warning careful\nkernel void k(global int *P) { P[0] = 1; }";
  ProgramBuild Warned = build(Src);
  EXPECT_EQ(Warned.Result, ProgramBuild::Status::Success);
  EXPECT_NE(Warned.Log.find("careful"), std::string::npos) << Warned.Log;
  EXPECT_EQ(build(Src, "-Werror").Result, ProgramBuild::Status::BuildFailure);
  ProgramBuild Quiet = build(Src, "-w");
  EXPECT_EQ(Quiet.Result, ProgramBuild::Status::Success);
  EXPECT_EQ(Quiet.Log.find("careful"), std::string::npos) << Quiet.Log;
}

TEST(Compiler, BarrierInHelperBuilds) {
  ProgramBuild B = build(R"CL(
void helper(void) { barrier(CLK_LOCAL_MEM_FENCE); }
kernel void k(global int *P) { P[get_global_id(0)] = 1; helper(); }
)CL");
  EXPECT_EQ(B.Result, ProgramBuild::Status::Success) << B.Log;
  ASSERT_EQ(B.Kernels.size(), 1u);
  EXPECT_EQ(B.Kernels[0].Name, "k");
}

TEST(Compiler, KernelArgumentDescriptions) {
  ProgramBuild B = build(R"CL(
typedef struct { int A; float B; double C; } Pair;
kernel __attribute__((reqd_work_group_size(8, 2, 1)))
void k(global float *restrict Out, constant int *Table, local float4 *Tmp,
       const float Scale, Pair P, float3 V, read_only image2d_t Img,
       sampler_t S, global const volatile uchar *Bytes) {
  Out[0] = Scale + P.B + V.y + Table[0] + Bytes[0];
}
)CL");
  ASSERT_EQ(B.Result, ProgramBuild::Status::Success) << B.Log;
  ASSERT_EQ(B.Kernels.size(), 1u);
  const weft::KernelDesc &K = B.Kernels[0];
  EXPECT_EQ(K.Name, "k");
  EXPECT_EQ(K.ReqdWorkGroupSize[0], 8u);
  EXPECT_EQ(K.ReqdWorkGroupSize[1], 2u);
  EXPECT_EQ(K.ReqdWorkGroupSize[2], 1u);
  EXPECT_EQ(K.Attributes, "reqd_work_group_size(8,2,1)");
  ASSERT_EQ(K.Args.size(), 9u);
  const auto &A = K.Args;
  EXPECT_EQ(A[0].Name, "Out");
  EXPECT_EQ(A[0].TypeName, "float*");
  EXPECT_EQ(A[0].ArgKind, KernelArgDesc::Kind::GlobalBuffer);
  EXPECT_EQ(A[0].AddressQualifier, cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_GLOBAL));
  EXPECT_EQ(A[0].TypeQualifier, cl_kernel_arg_type_qualifier(CL_KERNEL_ARG_TYPE_RESTRICT));
  EXPECT_EQ(A[0].Size, sizeof(cl_mem));
  EXPECT_EQ(A[1].ArgKind, KernelArgDesc::Kind::ConstantBuffer);
  EXPECT_EQ(A[1].AddressQualifier, cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_CONSTANT));
  EXPECT_EQ(A[1].TypeName, "int*");
  EXPECT_EQ(A[2].ArgKind, KernelArgDesc::Kind::LocalBuffer);
  EXPECT_EQ(A[2].AddressQualifier, cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_LOCAL));
  EXPECT_EQ(A[2].TypeName, "float4*");
  EXPECT_EQ(A[3].ArgKind, KernelArgDesc::Kind::Scalar);
  EXPECT_EQ(A[3].Name, "Scale");
  EXPECT_EQ(A[3].TypeName, "float");
  EXPECT_EQ(A[3].Size, 4u);
  EXPECT_EQ(A[3].AddressQualifier, cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_PRIVATE));
  EXPECT_EQ(A[4].ArgKind, KernelArgDesc::Kind::Scalar);
  EXPECT_EQ(A[4].TypeName, "Pair");
  EXPECT_EQ(A[4].Size, 16u);
  EXPECT_EQ(A[4].Alignment, 8u);
  EXPECT_EQ(A[5].TypeName, "float3");
  EXPECT_EQ(A[5].Size, 16u);
  EXPECT_EQ(A[5].Alignment, 16u);
  EXPECT_EQ(A[6].ArgKind, KernelArgDesc::Kind::Image);
  EXPECT_EQ(A[6].AccessQualifier, cl_kernel_arg_access_qualifier(CL_KERNEL_ARG_ACCESS_READ_ONLY));
  EXPECT_EQ(A[7].ArgKind, KernelArgDesc::Kind::Sampler);
  EXPECT_EQ(A[8].TypeName, "uchar*");
  EXPECT_EQ(A[8].TypeQualifier, cl_kernel_arg_type_qualifier(
                                    CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_VOLATILE));
}

TEST(Compiler, ScalarsStructsAndLocalMemory) {
  ProgramBuild B = build(R"CL(
typedef struct { int A; float B; } S;
kernel void k(global float *Out, S Value, float4 V, local float *Scratch) {
  local float Mine[16];
  size_t L = get_local_id(0);
  Scratch[L] = V.y;
  Mine[L] = (float)Value.A;
  Out[get_global_id(0)] = Scratch[L] + Mine[L] + Value.B + sqrt(4.0f) +
                          exp(0.0f) + pow(2.0f, 3.0f);
}
)CL");
  ASSERT_EQ(B.Result, ProgramBuild::Status::Success) << B.Log;
  ASSERT_EQ(B.Kernels.size(), 1u);
  EXPECT_EQ(B.Kernels[0].StaticLocalMemSize, 16 * sizeof(float));
  size_t Local[3] = {16, 1, 1};
  std::string Error;
  weft::WorkGroupFunction F =
      weft::compileWorkGroupFunction(B.Bitcode, "k", Local, host(), Error);
  ASSERT_NE(F.Launch, nullptr) << Error;
  std::vector<float> Out(32);
  float *POut = Out.data();
  struct { cl_int A; cl_float B; } Value = {5, 0.25f};
  alignas(16) cl_float V[4] = {0, 7, 0, 0};
  std::vector<float> Scratch(16);
  float *PScratch = Scratch.data();
  void *Args[] = {&POut, &Value, V, &PScratch};
  size_t Global[3] = {32, 1, 1}, Offset[3] = {0, 0, 0};
  runNDRange(F, Args, 1, Global, Local, Offset);
  for (float X : Out)
    EXPECT_FLOAT_EQ(X, 7 + 5 + 0.25f + 2 + 1 + 8);
}

TEST(Compiler, MissingKernelIsAnError) {
  ProgramBuild B = build("kernel void k(global int *P) { P[0] = 1; }");
  ASSERT_EQ(B.Result, ProgramBuild::Status::Success) << B.Log;
  size_t Local[3] = {1, 1, 1};
  std::string Error;
  weft::WorkGroupFunction F =
      weft::compileWorkGroupFunction(B.Bitcode, "nope", Local, host(), Error);
  EXPECT_EQ(F.Launch, nullptr);
  EXPECT_NE(Error.find("nope"), std::string::npos);
}

} // namespace
