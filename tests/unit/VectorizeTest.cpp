//===- VectorizeTest.cpp - Work-item loops become host-width SIMD code ----===//
//
// The point of the work-group passes is that LLVM's vectorizer turns the
// work-item loops into SIMD code of the host's width. For SAXPY, a map of
// exp and the barrier-free region of a local-memory reduction, this builds
// the work-group function with WEFT_DUMP_IR set (which also bypasses the
// kernel cache) and looks for <N x float> operations in the final IR, N
// being the host's SIMD register width in floats. Vector-typed math calls
// SLEEF's vector functions (at full width, for float4 too), the math
// build options reach the IR, and uint16 lanes tested one by one become one
// vector compare.
//
//===----------------------------------------------------------------------===//
#include "weft/compiler.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

/// The final IR of Kernel compiled for a local size of Local x 1 x 1.
std::string finalIR(const char *Source, const std::string &Kernel, size_t Local,
                    const std::string &Options = "") {
  weft::TargetDesc Host = weft::hostTargetDesc();
  // As the CPU devices claim it (devices/cpu/CpuDriver.cpp).
  Host.Extensions.push_back("cl_khr_fp16");
  weft::ProgramBuild B = weft::buildProgram(Source, Options, Host);
  EXPECT_EQ(B.Result, weft::ProgramBuild::Status::Success) << B.Log;
  char Dir[] = "/tmp/weft-vectorize-XXXXXX";
  if (!mkdtemp(Dir))
    return "";
  setenv("WEFT_DUMP_IR", Dir, 1);
  size_t LocalSize[3] = {Local, 1, 1};
  std::string Error;
  weft::WorkGroupFunction F =
      weft::compileWorkGroupFunction(B.Bitcode, Kernel, LocalSize, Host, Error);
  unsetenv("WEFT_DUMP_IR");
  EXPECT_NE(F.Launch, nullptr) << Error;
  std::string IR;
  if (DIR *D = opendir(Dir)) {
    while (dirent *E = readdir(D)) {
      std::string Name = E->d_name, Path = std::string(Dir) + "/" + Name;
      if (Name.find(Kernel + "-final.ll") != std::string::npos) {
        std::ifstream In(Path);
        std::stringstream SS;
        SS << In.rdbuf();
        IR = SS.str();
      }
      if (Name != "." && Name != "..")
        unlink(Path.c_str());
    }
    closedir(D);
  }
  rmdir(Dir);
  return IR;
}

std::string hostFloatVector() {
  return "<" + std::to_string(weft::hostTargetDesc().SimdBytes / 4) +
         " x float>";
}

/// Whether IR has Call outside the launcher's remainder path. That path
/// runs the work-items a smaller last group leaves after the vector loop
/// one at a time, so a call narrower than the registers (what the SLP
/// vectorizer makes of one work-item's float4) is right there.
bool callsOutsideRemainder(const std::string &IR, const std::string &Call) {
  static const std::regex Label(R"(^([A-Za-z0-9._$-]+):)");
  std::istringstream Lines(IR);
  std::string Block;
  std::smatch M;
  for (std::string Line; std::getline(Lines, Line);) {
    if (std::regex_search(Line, M, Label))
      Block = M[1];
    else if (Line.compare(0, 7, "define ") == 0)
      Block = "entry";
    else if (Line.find(Call) != std::string::npos &&
             Block.compare(0, 10, "remainder.") != 0)
      return true;
  }
  return false;
}

TEST(Vectorize, Saxpy) {
  const char *Source = R"(
kernel void saxpy(global float *Y, global const float *X, float A) {
  size_t I = get_global_id(0);
  Y[I] = A * X[I] + Y[I];
})";
  std::string IR = finalIR(Source, "saxpy", 256);
  EXPECT_NE(IR.find("load " + hostFloatVector()), std::string::npos) << IR;
  EXPECT_NE(IR.find("store " + hostFloatVector()), std::string::npos) << IR;
}

TEST(Vectorize, ExpMap) {
  const char *Source = R"(
kernel void expmap(global float *Out, global const float *In) {
  size_t I = get_global_id(0);
  Out[I] = exp(In[I]);
})";
  std::string IR = finalIR(Source, "expmap", 256);
  EXPECT_NE(IR.find("store " + hostFloatVector()), std::string::npos) << IR;
}

TEST(Vectorize, ReductionRegionWithoutBarrier) {
  // The first region (load from global, store to local) has no barrier
  // inside: its work-item loop must become SIMD code.
  const char *Source = R"(
kernel void reduce(global float *Out, global const float *In,
                   local float *S) {
  size_t L = get_local_id(0);
  S[L] = In[get_global_id(0)] * 2.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t H = get_local_size(0) / 2; H > 0; H /= 2) {
    if (L < H)
      S[L] += S[L + H];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (L == 0)
    Out[get_group_id(0)] = S[0];
})";
  std::string IR = finalIR(Source, "reduce", 256);
  EXPECT_NE(IR.find("store " + hostFloatVector()), std::string::npos) << IR;
}

TEST(Vectorize, TwoOutputsWithExpLogSqrt) {
  // Black-Scholes in small: math builtins and two stores to different
  // buffers in one work-item. clang leaves the kernel arguments in allocas;
  // unless they are promoted before the work-item loops are built, both
  // stores go through reloaded pointers, look like one object, and the
  // loops lose their parallel annotation (and the vector code with it).
  const char *Source = R"(
kernel void twoOutputs(global float *Call, global float *Put,
                       global const float *Spot, global const float *Years) {
  size_t I = get_global_id(0);
  float S = Spot[I], T = Years[I];
  float D = (log(S) + 0.5f * T) / sqrt(T);
  Call[I] = S * exp(-D);
  Put[I] = exp(D) - S;
})";
  std::string IR = finalIR(Source, "twoOutputs", 256);
  std::string Vec = hostFloatVector();
  EXPECT_NE(IR.find("store " + Vec), std::string::npos) << IR;
  EXPECT_NE(IR.find("load " + Vec), std::string::npos) << IR;
  // Both outputs are vector stores.
  size_t First = IR.find("store " + Vec);
  EXPECT_NE(IR.find("store " + Vec, First + 1), std::string::npos) << IR;
  // Annotated parallel, the loop needs no runtime alias check between the
  // buffers (LLVM's own dependence analysis would add one: vector.memcheck).
  EXPECT_EQ(IR.find("memcheck"), std::string::npos) << IR;
}

TEST(Vectorize, VectorTypedMathCallsSleef) {
  // exp(float16) and atan(double8) are SLEEF vector calls, not 16 calls of
  // libm's expf or 8 of atan (lib/kernel/sleef.cl), each of the accuracy
  // its bound allows: 1 ulp for exp (3), 3.5 for atan (5).
  const char *Source = R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void vecmath(global float16 *F, global double8 *D) {
  size_t I = get_global_id(0);
  F[I] = exp(F[I]);
  D[I] = atan(D[I]);
})";
  std::string IR = finalIR(Source, "vecmath", 64);
  EXPECT_NE(IR.find("@Sleef_expf"), std::string::npos) << IR;
  EXPECT_NE(IR.find("@Sleef_atand"), std::string::npos) << IR;
  EXPECT_EQ(IR.find("@expf("), std::string::npos) << IR;
  EXPECT_EQ(IR.find("@atan("), std::string::npos) << IR;
  size_t Atan = IR.find("@Sleef_atand");
  ASSERT_NE(Atan, std::string::npos);
  EXPECT_EQ(IR.compare(Atan + 13, 4, "_u35"), 0) << IR; // @Sleef_atand8_u35
  size_t Exp = IR.find("@Sleef_expf");
  ASSERT_NE(Exp, std::string::npos);
  EXPECT_NE(IR.substr(Exp, 20).find("_u10"), std::string::npos) << IR;
}

TEST(Vectorize, FastRelaxedMathUsesFasterSleef) {
  // acospi is acos(x) / pi on SLEEF's 1-ulp acos, whose error the division
  // can quadruple; -cl-fast-relaxed-math licenses the 3.5-ulp acos for
  // floats (a derived implementation in the relaxed table), for
  // vector-typed calls and for the vectorized work-item loop's scalar ones
  // alike (two kernels: a loop over float16 values is not vectorized
  // further). Double has no relaxed table: its acospi keeps u10.
  const char *Source = R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void vectorAcospi(global float16 *V) {
  size_t I = get_global_id(0);
  V[I] = acospi(V[I]);
}
kernel void scalarAcospi(global float *S) {
  size_t I = get_global_id(0);
  S[I] = acospi(S[I]);
}
kernel void doubleAcospi(global double *S) {
  size_t I = get_global_id(0);
  S[I] = acospi(S[I]);
})";
  std::string H = std::to_string(weft::hostTargetDesc().SimdBytes / 4);
  std::string Relaxed = "call <" + H + " x float> @Sleef_acosf" + H + "_u35";
  std::string Strict = "call <" + H + " x float> @Sleef_acosf" + H + "_u10";
  for (const char *Kernel : {"vectorAcospi", "scalarAcospi"}) {
    SCOPED_TRACE(Kernel);
    std::string IR = finalIR(Source, Kernel, 64, "-cl-fast-relaxed-math");
    EXPECT_NE(IR.find(Relaxed), std::string::npos) << IR;
    EXPECT_EQ(IR.find(Strict), std::string::npos) << IR;
    IR = finalIR(Source, Kernel, 64);
    EXPECT_NE(IR.find(Strict), std::string::npos) << IR;
    EXPECT_EQ(IR.find(Relaxed), std::string::npos) << IR;
  }
  std::string HD = std::to_string(weft::hostTargetDesc().SimdBytes / 8);
  std::string IR = finalIR(Source, "doubleAcospi", 64, "-cl-fast-relaxed-math");
  EXPECT_NE(IR.find("call <" + HD + " x double> @Sleef_acosd" + HD + "_u10"),
            std::string::npos)
      << IR;
  EXPECT_EQ(IR.find("_u35"), std::string::npos) << IR;
}

TEST(Vectorize, NarrowVectorMathRunsAtFullWidth) {
  // exp(float4) in a work-item loop is split into scalar SLEEF calls the
  // vectorizer widens across work-items: the final IR calls SLEEF's
  // function of the host's full width (ScalarizeWorkItemLoops.cpp), of the
  // same accuracy class (u35 only under -cl-fast-relaxed-math, for
  // acospi's acos).
  const char *Source = R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void exp4(global float4 *F) {
  size_t I = get_global_id(0);
  F[I] = exp(F[I]);
}
kernel void atan2d4(global double4 *D) {
  size_t I = get_global_id(0);
  D[I] = atan2(D[I], D[I] + 1.0);
}
kernel void acospi4(global float4 *F) {
  size_t I = get_global_id(0);
  F[I] = acospi(F[I]);
})";
  unsigned Bytes = weft::hostTargetDesc().SimdBytes;
  if (Bytes <= 16)
    GTEST_SKIP() << "float4 already fills the host's registers";
  std::string H = std::to_string(Bytes / 4), HD = std::to_string(Bytes / 8);
  std::string IR = finalIR(Source, "exp4", 64);
  EXPECT_NE(IR.find("call <" + H + " x float> @Sleef_expf" + H + "_u10"),
            std::string::npos)
      << IR;
  EXPECT_FALSE(callsOutsideRemainder(IR, "call <4 x float> @Sleef_expf4_"))
      << IR;
  IR = finalIR(Source, "atan2d4", 64);
  EXPECT_NE(IR.find("call <" + HD + " x double> @Sleef_atan2d" + HD + "_u35"),
            std::string::npos)
      << IR;
  // With 32-byte registers (AVX2) double4 is the full width already.
  if (HD != "4") {
    EXPECT_FALSE(
        callsOutsideRemainder(IR, "call <4 x double> @Sleef_atan2d4_"))
        << IR;
  }
  IR = finalIR(Source, "acospi4", 64, "-cl-fast-relaxed-math");
  EXPECT_NE(IR.find("call <" + H + " x float> @Sleef_acosf" + H + "_u35"),
            std::string::npos)
      << IR;
  EXPECT_EQ(IR.find("call <" + H + " x float> @Sleef_acosf" + H + "_u10"),
            std::string::npos)
      << IR;
  IR = finalIR(Source, "acospi4", 64);
  EXPECT_NE(IR.find("call <" + H + " x float> @Sleef_acosf" + H + "_u10"),
            std::string::npos)
      << IR;
  EXPECT_EQ(IR.find("call <" + H + " x float> @Sleef_acosf" + H + "_u35"),
            std::string::npos)
      << IR;
}

TEST(Vectorize, HypotRunsInFloatVectorsAtItsBound) {
  // hypot's bound is 4 ulp: SLEEF's 3.5-ulp functions, not the 0.5-ulp
  // ones (Sleef_hypotf_u05, 55% of an RGBA Sobel filter's time, once per
  // element), and floats in float vectors (not doubles). A float4 call in
  // a work-item loop runs across work-items at the host's width, as does
  // the scalar call; in the Sobel filter, whose border test keeps the loop
  // of byte loads from the vectorizer, no call is u05 either.
  const char *Source = R"(
kernel void hypot4(global float4 *F, global const float4 *G) {
  size_t I = get_global_id(0);
  F[I] = hypot(F[I], G[I]);
}
kernel void hypot1(global float *F, global const float *G) {
  size_t I = get_global_id(0);
  F[I] = hypot(F[I], G[I]);
}
kernel void sobelRgba(global uchar4 *Out, global const uchar4 *In,
                      uint Width, uint Height) {
  uint X = get_global_id(0), Y = get_global_id(1);
  if (X == 0 || Y == 0 || X == Width - 1 || Y == Height - 1) {
    Out[Y * Width + X] = (uchar4)(0);
    return;
  }
  global const uchar4 *P = In + Y * Width + X;
  int Row = Width;
  float4 Nw = convert_float4(P[-Row - 1]), N = convert_float4(P[-Row]),
         Ne = convert_float4(P[-Row + 1]);
  float4 W = convert_float4(P[-1]), E = convert_float4(P[1]);
  float4 Sw = convert_float4(P[Row - 1]), S = convert_float4(P[Row]),
         Se = convert_float4(P[Row + 1]);
  float4 Gx = (Ne + 2.0f * E + Se) - (Nw + 2.0f * W + Sw);
  float4 Gy = (Sw + 2.0f * S + Se) - (Nw + 2.0f * N + Ne);
  Out[Y * Width + X] = convert_uchar4_sat(hypot(Gx, Gy));
})";
  std::string H = std::to_string(weft::hostTargetDesc().SimdBytes / 4);
  std::string Full = "call <" + H + " x float> @Sleef_hypotf" + H + "_u35";
  for (const char *Kernel : {"hypot4", "hypot1"}) {
    SCOPED_TRACE(Kernel);
    std::string IR = finalIR(Source, Kernel, 64);
    EXPECT_NE(IR.find(Full), std::string::npos) << IR;
    EXPECT_EQ(IR.find("_u05"), std::string::npos) << IR;
    EXPECT_EQ(IR.find("@Sleef_hypotd"), std::string::npos) << IR;
    EXPECT_EQ(IR.find("@hypot("), std::string::npos) << IR;
  }
  std::string IR = finalIR(Source, "sobelRgba", 64);
  EXPECT_NE(IR.find("@Sleef_hypotf"), std::string::npos) << IR;
  EXPECT_EQ(IR.find("_u05"), std::string::npos) << IR;
}

const char *RowSums = R"(
kernel void rowSums(global float *Out, global const float *In, int N) {
  size_t I = get_global_id(0);
  float S = 0;
  for (int J = 0; J < N; ++J)
    S += In[I * N + J];
  Out[I] = S;
})";

TEST(Vectorize, FastRelaxedMathReassociatesReductions) {
  // The row sum is a serial chain of fadds; with the options' fast-math
  // flags the vectorizer may reorder it into vector partial sums.
  for (const char *Options :
       {"-cl-fast-relaxed-math", "-cl-unsafe-math-optimizations"}) {
    SCOPED_TRACE(Options);
    std::string IR = finalIR(RowSums, "rowSums", 64, Options);
    // Partial sums in host-width vectors, reassociable, reduced at the end.
    std::string Vec = hostFloatVector();
    bool Partial = IR.find("fadd fast " + Vec) != std::string::npos ||
                   IR.find("fadd reassoc nsz arcp contract afn " + Vec) !=
                       std::string::npos;
    EXPECT_TRUE(Partial) << IR;
    EXPECT_NE(IR.find("@llvm.vector.reduce.fadd"), std::string::npos) << IR;
  }
}

TEST(Vectorize, StrictMathKeepsReductionOrder) {
  std::string IR = finalIR(RowSums, "rowSums", 64);
  EXPECT_EQ(IR.find("@llvm.vector.reduce.fadd"), std::string::npos) << IR;
  EXPECT_EQ(IR.find("reassoc"), std::string::npos) << IR;
}

TEST(Vectorize, FiniteAndSignedZeroOptionsReachTheIR) {
  const char *Source = R"(
kernel void scale(global float *Out, global const float *In, float A) {
  size_t I = get_global_id(0);
  Out[I] = In[I] * A + 1.0f;
})";
  EXPECT_NE(
      finalIR(Source, "scale", 64, "-cl-finite-math-only").find("nnan ninf"),
      std::string::npos);
  EXPECT_NE(finalIR(Source, "scale", 64, "-cl-no-signed-zeros").find("nsz"),
            std::string::npos);
  std::string Strict = finalIR(Source, "scale", 64);
  EXPECT_EQ(Strict.find("nnan"), std::string::npos) << Strict;
  EXPECT_EQ(Strict.find("nsz"), std::string::npos) << Strict;
}

// A kernel that computes on uint16 and tests the lanes one by one, as
// hash crackers do to leave a block of sixteen candidates early: the
// work-group is one work-item, so only the SLP vectorizer can turn the
// sixteen extracts, compares and branches of each test into one vector
// compare and a test of its mask (clang runs it at -O2 and up; LLVM's
// pipeline does not unless asked).
const char *LaneTests = R"(
#define ANY16(A, B) ((A).s0 == (B).s0 || (A).s1 == (B).s1 ||              \
  (A).s2 == (B).s2 || (A).s3 == (B).s3 || (A).s4 == (B).s4 ||            \
  (A).s5 == (B).s5 || (A).s6 == (B).s6 || (A).s7 == (B).s7 ||            \
  (A).s8 == (B).s8 || (A).s9 == (B).s9 || (A).sa == (B).sa ||            \
  (A).sb == (B).sb || (A).sc == (B).sc || (A).sd == (B).sd ||            \
  (A).se == (B).se || (A).sf == (B).sf)
kernel void laneTests(global const uint16 *Words, global const uint *Want,
                      global uint *Hits, uint Count) {
  uint16 W = (uint16)(Want[0]), X = (uint16)(Want[1]);
  for (uint I = 0; I < Count; ++I) {
    uint16 H = Words[get_global_id(0) * Count + I];
    H = rotate(H * 0x9e3779b1u, (uint16)(7)) + (H >> 3);
    if (!ANY16(H, W))
      continue;
    H = rotate(H ^ 0x5bd1e995u, (uint16)(13));
    if (!ANY16(H, X))
      continue;
    atomic_inc(Hits);
  }
})";

TEST(Vectorize, LaneTestsOfVectorsBecomeOneCompare) {
  std::string IR = finalIR(LaneTests, "laneTests", 1);
  // Each test is an or-reduction of an i1 vector (InstCombine writes it as
  // a bitcast to an integer compared with 0), not a chain of selects.
  std::regex Reduction(R"(@llvm\.vector\.reduce\.or\.v[0-9]+i1\(|)"
                       R"(bitcast <[0-9]+ x i1> %[^ ]+ to i[0-9]+)");
  auto Count = std::distance(
      std::sregex_iterator(IR.begin(), IR.end(), Reduction),
      std::sregex_iterator());
  EXPECT_GE(Count, 2) << IR;
  EXPECT_EQ(IR.find("extractelement <16 x i1>"), std::string::npos) << IR;
}

TEST(Vectorize, HalfMadChainsRunAtTheFloatWidth) {
  // clpeak's half kernel: mad chains on halves through a kernel loop. Its
  // work-item loop computes in float between F16C conversions (or in half,
  // with AVX512-FP16), at least as
  // many work-items at once as the float kernel's (HalfConversionCalls.cpp;
  // twice that with AVX-512's 32 registers); LLVM's cost model alone prices
  // the wide conversions as scalar ones and took 4. The SSE levels have no
  // F16C: each conversion is a call of libgcc's, and the cost model is
  // left to decide.
  const char *Source = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void halfMads(global half *Out, float A) {
  half X = (half)A, Y = (half)get_local_id(0);
  for (int I = 0; I < 64; ++I) {
    X = mad(Y, X, Y); Y = mad(X, Y, X); X = mad(Y, X, Y); Y = mad(X, Y, X);
  }
  Out[get_global_id(0)] = Y;
})";
  const weft::TargetDesc &Target = weft::hostTargetDesc();
  unsigned Floats = Target.SimdBytes / 4;
  if (Floats <= 4)
    GTEST_SKIP() << "no F16C at this level";
  std::string IR = finalIR(Source, "halfMads", 256);
  auto HasWidth = [&](const std::string &Before, const std::string &After,
                      unsigned Lanes) {
    for (unsigned L : {Lanes, 2 * Lanes})
      if (IR.find(Before + std::to_string(L) + After) != std::string::npos)
        return true;
    return false;
  };
  // With AVX512-FP16 the chains stay half arithmetic, two halves where a
  // float goes (PromoteHalfArithmetic.cpp).
  if (Target.Features.find("+avx512fp16") != std::string::npos) {
    EXPECT_TRUE(HasWidth("@llvm.fmuladd.v", "f16(", 2 * Floats)) << IR;
    EXPECT_EQ(IR.find("fpext"), std::string::npos) << IR;
    return;
  }
  auto HasFloatWidth = [&](const std::string &Before,
                           const std::string &After) {
    return HasWidth(Before, After, Floats);
  };
  EXPECT_TRUE(HasFloatWidth("@llvm.fmuladd.v", "f32(")) << IR;
  EXPECT_TRUE(HasFloatWidth("fpext <", " x half>")) << IR;
  EXPECT_TRUE(HasFloatWidth("fptrunc <", " x float>")) << IR;
  EXPECT_EQ(IR.find("@__weft_half_to_float"), std::string::npos) << IR;
  EXPECT_EQ(IR.find("@__weft_float_to_half"), std::string::npos) << IR;
}

} // namespace
