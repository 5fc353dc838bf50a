//===- tests/api/VectorMadGemmTest.cpp - per-component float4 GEMM --------===//
//
// The kernel of tests/kernels/vector_mad_gemm.cl (CLBlast's Xgemm in small:
// local tiles of A and B, float2/float4 accumulators updated per
// component) on every device, against a reference computed here, for
// several work-group shapes and vector widths. On the pthread device the
// per-component code is rebuilt into vector fmuladds
// (RevectorizeWorkItemLoops), the B element splatted from a scalar load,
// and the copy and compute work-item loops run several work-items per
// register (WidenWorkItemLoops): WEFT_DEBUG=compile logs "rebuilt by the
// SLP vectorizer" and "widened across" for each variant. Small integers
// keep every sum exact, whatever the order or fusing.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <string>
#include <type_traits>

using namespace weft_test;

namespace {

struct Shape {
  int LX, LY, VWM, VWN;
};

class VectorMadGemm : public DeviceTest {
protected:
  template <typename T> void checkShape(Shape S);
};

/// Builds vmad_gemm for S with elements of type T, runs it on 3 x 2 groups
/// and 4 tiles of 16 rows of k, and compares with the host's product.
template <typename T> void VectorMadGemm::checkShape(Shape S) {
  std::string Options =
      "-DLX=" + std::to_string(S.LX) + " -DLY=" + std::to_string(S.LY) +
      " -DVWM=" + std::to_string(S.VWM) + " -DVWN=" + std::to_string(S.VWN);
  if (std::is_same_v<T, double>)
    Options += " -DUSE_DOUBLE";
  SCOPED_TRACE(Options);
  KernelRef K(
      makeKernel(kernelSource("vector_mad_gemm.cl"), "vmad_gemm", Options));
  ASSERT_NE(K.get(), nullptr);
  const size_t GX = 3, GY = 2;
  const cl_int M = cl_int(GX * S.LX * S.VWM), N = cl_int(GY * S.LY * S.VWN),
               Kd = 64;
  std::vector<T> A(size_t(Kd) * M), B(size_t(Kd) * N);
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = T(int(I * 7 % 13) - 6);
  for (size_t I = 0; I < B.size(); ++I)
    B[I] = T(int(I * 5 % 11) - 5);
  const size_t Local[2] = {size_t(S.LX), size_t(S.LY)},
               Global[2] = {GX * S.LX, GY * S.LY};
  std::vector<T> C = runGemmKernel(K, M, N, Kd, A, B, Global, Local);
  if (HasFailure())
    return;
  // Small integers: every product and sum is exact, fused or not.
  expectHostProduct(C, A, B, M, N, Kd);
}

TEST_P(VectorMadGemm, MatchesHostProduct) {
  for (Shape S : {Shape{8, 16, 4, 2}, Shape{4, 8, 4, 4}, Shape{16, 4, 2, 4},
                  Shape{8, 8, 2, 2}, Shape{16, 2, 4, 2}})
    checkShape<float>(S);
}

// CLBlast's DGEMM shape (16 x 8 groups, a scalar of A, a double4 of B the
// same for every work-item in x): O3 loads B's lanes one by one without
// the loop's access groups, which CheckParallelLoops gives back.
TEST_P(VectorMadGemm, MatchesHostProductInDoubles) {
  for (Shape S : {Shape{16, 8, 1, 4}, Shape{8, 8, 1, 2}, Shape{8, 16, 2, 4},
                  Shape{16, 4, 4, 2}})
    checkShape<double>(S);
}

} // namespace

WEFT_INSTANTIATE_DEVICE_TEST(VectorMadGemm);
