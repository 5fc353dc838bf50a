//===- GenericBuiltinsTest.cpp - builtins through generic pointers --------===//
//
// tests/kernels/generic_builtins.cl calls the builtins that take pointers
// (the math functions with a pointer result, vload/vstore, vload_half/
// vstore_half, the C11 atomics) through __generic pointers to global, local
// and private memory, which in OpenCL C 3.0 with
// __opencl_c_generic_address_space is the only way opencl-c.h declares
// them (lib/kernel/generic.cl defines them). Every copy is checked against
// a host reference, and the three memories against each other bit for
// bit. Skipped on a device that does not claim the feature.
//
//===----------------------------------------------------------------------===//
#include "BuiltinTestCommon.h"

#include <cmath>
#include <cstring>
#include <immintrin.h>
#include <numeric>

using namespace weft_test;

namespace {

const size_t Items = 256, LocalSize = 64; // LOCAL_SIZE in the kernel
const char *const MemoryName[] = {"global", "local", "private"};

class GenericBuiltins : public BuiltinTest {
protected:
  void SetUp() override {
    BuiltinTest::SetUp();
    if (HasFatalFailure())
      return;
    if (!hasFeature("__opencl_c_generic_address_space"))
      GTEST_SKIP() << "the device does not claim "
                      "__opencl_c_generic_address_space in "
                      "CL_DEVICE_OPENCL_C_FEATURES";
    Source = kernelSource("generic_builtins.cl");
  }

  bool hasFeature(const char *Name) {
    size_t Size = 0;
    if (clGetDeviceInfo(Device, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr,
                        &Size) != CL_SUCCESS)
      return false;
    std::vector<cl_name_version> Features(Size / sizeof(cl_name_version));
    if (Size)
      clGetDeviceInfo(Device, CL_DEVICE_OPENCL_C_FEATURES, Size,
                      Features.data(), nullptr);
    for (const cl_name_version &F : Features)
      if (strcmp(F.name, Name) == 0)
        return true;
    return false;
  }

  bool run(const char *Name, std::vector<BufferArg> Args) {
    return runKernel(Source, Name, Items, std::move(Args), "-cl-std=CL3.0",
                     LocalSize);
  }

  std::string Source;
};

uint32_t bitsOf(float F) {
  uint32_t B;
  memcpy(&B, &F, sizeof B);
  return B;
}

TEST_P(GenericBuiltins, MathPointerResults) {
  Random Rng(7);
  std::vector<float> X(Items), Y(Items);
  for (size_t I = 0; I < Items; ++I) {
    X[I] = float(int64_t(Rng.next() % 100001) - 50000) / 1000.0f;
    // lgamma_r has poles at the non-positive integers.
    if (X[I] <= 0 && X[I] == std::floor(X[I]))
      X[I] -= 0.5f;
    Y[I] = 1.0f + float(Rng.next() % 2001) / 1000.0f;
  }
  X[0] = 0.5f;
  X[1] = -0x1p-30f; // fract: not rounded up to 1
  X[2] = 7.0f;
  std::vector<float> R(Items * 3 * 6), F(Items * 3 * 3);
  std::vector<cl_int> N(Items * 3 * 3);
  ASSERT_TRUE(
      run("math_generic", {in(X), in(Y), out(R), out(F), out(N)}));
  for (size_t I = 0; I < Items; ++I) {
    float XI = X[I], YI = Y[I];
    float Floor = std::floor(XI);
    float Fract = std::fmin(XI - Floor, 0x1.fffffep-1f);
    float Int;
    float Frac = std::modf(XI, &Int);
    int Exp;
    float Mant = std::frexp(XI, &Exp);
    float Rem = std::remainder(XI, YI);
    // x - r is exactly n * y, so the double quotient is exactly n (below
    // 128 in magnitude, which OpenCL's 7 bits keep whole).
    int Quo = int((double(XI) - double(Rem)) / double(YI));
    int Sign;
    double LGamma = ::lgamma_r(double(XI), &Sign);
    for (int M = 0; M < 3; ++M) {
      const float *RM = &R[(I * 3 + M) * 6], *FM = &F[(I * 3 + M) * 3];
      const cl_int *NM = &N[(I * 3 + M) * 3];
      SCOPED_TRACE(testing::Message() << "x = " << XI << ", y = " << YI
                                      << ", " << MemoryName[M] << " memory");
      EXPECT_EQ(bitsOf(RM[0]), bitsOf(Fract)) << "fract " << RM[0];
      EXPECT_EQ(FM[0], Floor) << "fract's floor";
      EXPECT_EQ(bitsOf(RM[1]), bitsOf(Frac)) << "modf " << RM[1];
      EXPECT_EQ(FM[1], Int) << "modf's integral part";
      EXPECT_LE(ulpError(RM[2], ::sinl((long double)XI)), 4.0)
          << "sincos's sine " << RM[2];
      EXPECT_LE(ulpError(FM[2], ::cosl((long double)XI)), 4.0)
          << "sincos's cosine " << FM[2];
      EXPECT_EQ(RM[3], Mant) << "frexp";
      EXPECT_EQ(NM[0], Exp) << "frexp's exponent";
      EXPECT_EQ(RM[4], Rem) << "remquo";
      EXPECT_EQ(NM[1], Quo) << "remquo's quotient";
      EXPECT_NEAR(RM[5], LGamma, 1e-5 * std::fmax(1.0, std::fabs(LGamma)))
          << "lgamma_r";
      EXPECT_EQ(NM[2], Sign) << "lgamma_r's sign";
      if (M > 0) {
        const float *R0 = &R[I * 3 * 6], *F0 = &F[I * 3 * 3];
        EXPECT_EQ(0, memcmp(RM, R0, 6 * sizeof(float)))
            << "results differ from the global memory call's";
        EXPECT_EQ(0, memcmp(FM, F0, 3 * sizeof(float)));
        EXPECT_EQ(0, memcmp(NM, &N[I * 3 * 3], 3 * sizeof(cl_int)));
      }
    }
  }
}

TEST_P(GenericBuiltins, VloadVstore) {
  const size_t Chunk = 25;
  const float Untouched = -12345.0f;
  Random Rng(11);
  std::vector<float> In(Items * Chunk), Out(Items * 3 * Chunk, Untouched);
  for (float &V : In)
    V = float(int64_t(Rng.next() % 20001) - 10000) / 64.0f;
  ASSERT_TRUE(run("vectors_generic", {in(In), out(Out)}));
  for (size_t I = 0; I < Items; ++I) {
    const float *Src = &In[I * Chunk];
    for (int M = 0; M < 3; ++M) {
      const float *Dst = &Out[(I * 3 + M) * Chunk];
      for (size_t K = 0; K < Chunk; ++K) {
        float Want = K < 16    ? Src[K] * 2.0f
                     : K < 20  ? Src[K] + 1.0f
                     : K == 20 ? Untouched
                     : K < 24  ? Src[K] - 1.0f
                               : Untouched;
        EXPECT_EQ(Dst[K], Want) << "work-item " << I << ", "
                                << MemoryName[M] << " memory, element " << K
                                << " (vstore16 0-15, vstore4 16-19, vstore3 "
                                   "21-23, 20 and 24 untouched)";
      }
    }
  }
}

TEST_P(GenericBuiltins, VloadVstoreHalf) {
  const size_t Chunk = 8;
  const cl_ushort Untouched = 0xbeef;
  Random Rng(13);
  std::vector<cl_ushort> In(Items * Chunk), Out(Items * 3 * Chunk, Untouched);
  for (cl_ushort &H : In) {
    // Finite halves up to 2^13 (three times them stays finite), denormals
    // included.
    uint64_t R = Rng.next();
    H = cl_ushort((R & 0x8000) | ((R >> 16) % 29) << 10 | ((R >> 32) & 0x3ff));
  }
  std::vector<float> R(Items * 15);
  ASSERT_TRUE(run("halves_generic", {in(In), out(Out), out(R)}));
  for (size_t I = 0; I < Items; ++I) {
    const cl_ushort *Src = &In[I * Chunk];
    float A = _cvtsh_ss(Src[0]);
    float B[4];
    for (int K = 0; K < 4; ++K)
      B[K] = _cvtsh_ss(Src[4 + K]);
    cl_ushort Want[Chunk] = {
        cl_ushort(_cvtss_sh(A * 3.0f, _MM_FROUND_TO_NEAREST_INT)),
        cl_ushort(_cvtss_sh(A * 3.0f, _MM_FROUND_TO_ZERO)), Untouched,
        Untouched};
    for (int K = 0; K < 4; ++K)
      Want[4 + K] = cl_ushort(_cvtss_sh(B[K] / 3.0f, _MM_FROUND_TO_NEG_INF));
    for (int M = 0; M < 3; ++M) {
      SCOPED_TRACE(testing::Message() << "work-item " << I << ", "
                                      << MemoryName[M] << " memory");
      const float *RM = &R[I * 15 + M * 5];
      EXPECT_EQ(bitsOf(RM[0]), bitsOf(A)) << "vload_half";
      for (int K = 0; K < 4; ++K)
        EXPECT_EQ(bitsOf(RM[1 + K]), bitsOf(B[K])) << "vload_half4 [" << K
                                                   << "]";
      const cl_ushort *Dst = &Out[(I * 3 + M) * Chunk];
      for (size_t K = 0; K < Chunk; ++K)
        EXPECT_EQ(Dst[K], Want[K])
            << "element " << K << " (vstore_half 0, vstore_half_rtz 1, "
            << "vstore_half4_rtn 4-7, 2 and 3 untouched)";
    }
  }
}

TEST_P(GenericBuiltins, C11Atomics) {
  std::vector<cl_int> G(2, 0), Tickets(Items * 2, -1),
      Groups(Items / LocalSize * 2, -1);
  std::vector<cl_long> GL(1, 0);
  ASSERT_TRUE(
      run("atomics_generic", {out(G), out(GL), out(Tickets), out(Groups)}));
  std::vector<cl_int> Global(Items);
  for (size_t I = 0; I < Items; ++I)
    Global[I] = Tickets[I * 2];
  std::sort(Global.begin(), Global.end());
  for (size_t I = 0; I < Items; ++I)
    ASSERT_EQ(Global[I], cl_int(I))
        << "the global tickets of atomic_fetch_add are not 0.." << Items - 1;
  EXPECT_EQ(G[0], cl_int(Items)) << "global atomic_fetch_add";
  EXPECT_EQ(G[1], cl_int(Items)) << "global compare_exchange increments";
  EXPECT_EQ(GL[0], cl_long(Items * (Items + 1) / 2) << 32)
      << "global atomic_fetch_add_explicit of atomic_long";
  for (size_t Group = 0; Group < Items / LocalSize; ++Group) {
    std::vector<cl_int> Local(LocalSize);
    for (size_t L = 0; L < LocalSize; ++L)
      Local[L] = Tickets[(Group * LocalSize + L) * 2 + 1];
    std::sort(Local.begin(), Local.end());
    for (size_t L = 0; L < LocalSize; ++L)
      ASSERT_EQ(Local[L], cl_int(L))
          << "group " << Group << ": the local tickets are not 0.."
          << LocalSize - 1;
    EXPECT_EQ(Groups[Group * 2], cl_int(LocalSize))
        << "group " << Group << ": local atomic_fetch_add";
    EXPECT_EQ(Groups[Group * 2 + 1], cl_int(LocalSize))
        << "group " << Group << ": local compare_exchange increments";
  }
}

WEFT_INSTANTIATE_DEVICE_TEST(GenericBuiltins);

} // namespace
