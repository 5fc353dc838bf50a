//===- tests/api/LockstepLoopTest.cpp - divergent loops, end to end -------===//
//
// The kernels of tests/kernels/lockstep.cl on every device at several local
// sizes, against references computed here on the host: loops whose trip
// count differs between work-items (Collatz steps, a search with two exits
// and a store inside, an escape-time iteration, two loops in a row and an
// early return, a 2D digit loop), which LockstepLoops runs across the
// work-items of a group, and one under a varying branch that it leaves
// alone. The references follow each kernel's meaning, work-item by
// work-item.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <algorithm>
#include <functional>

using namespace weft_test;

namespace {

using Words = std::vector<uint32_t>;
/// Out[G] of one work-item from In, the NDRange size and the parameters.
using Reference =
    std::function<uint32_t(const Words &In, size_t G, int P0, int P1)>;

class LockstepLoops : public DeviceTest {
protected:
  /// Runs a 1D kernel of the common signature over three groups of each
  /// local size and each parameter pair, against Ref.
  void check1D(const char *Name, const Reference &Ref,
               std::vector<std::pair<int, int>> Params) {
    KernelRef K(makeKernel(kernelSource("lockstep.cl"), Name));
    ASSERT_NE(K.get(), nullptr);
    size_t Max = std::min(
        deviceInfo<size_t>(Device, CL_DEVICE_MAX_WORK_GROUP_SIZE),
        kernelWorkGroupInfo<size_t>(K, Device, CL_KERNEL_WORK_GROUP_SIZE));
    for (size_t Local :
         {size_t(1), size_t(7), size_t(16), size_t(64), size_t(256)}) {
      if (Local > Max)
        continue;
      const size_t N = Local * 3;
      Words In = pseudoRandomWords(N, uint32_t(Local) + 11);
      for (auto [P0, P1] : Params) {
        SCOPED_TRACE(testing::Message() << Name << " local size " << Local
                                        << " P0=" << P0 << " P1=" << P1);
        Words Out = runWordKernel(K, Local, In, P0, P1);
        if (HasFailure())
          return;
        for (size_t G = 0; G < N; ++G)
          ASSERT_EQ(Out[G], Ref(In, G, P0, P1)) << "work-item " << G;
      }
    }
  }
};

TEST_P(LockstepLoops, Collatz) {
  check1D("collatz",
          [](const Words &In, size_t G, int P0, int P1) {
            uint64_t N = In[G] % uint32_t(P0 + 1) + 1, Peak = N;
            uint32_t Steps = 0;
            while (N != 1) {
              N = (N & 1) ? 3 * N + 1 : N / 2;
              Peak = std::max(Peak, N);
              ++Steps;
            }
            return (Steps << 16) + uint32_t(Peak % 65521) + uint32_t(G) * 7u +
                   uint32_t(P1);
          },
          {{0, 0}, {1, 3}, {27, 1}, {1000, 2}, {100000, 5}});
}

TEST_P(LockstepLoops, SearchTwoExits) {
  check1D("search_two_exits",
          [](const Words &In, size_t G, int P0, int) {
            const size_t N = In.size();
            uint32_t Key = In[G] % 64u, Scale = uint32_t(G) * 3u + 1u;
            uint32_t Stride = 1u + In[G] % 7u, J = uint32_t(G % 5);
            uint32_t Found = 0xffffffffu, Seen = 0, Stored = 0xdeadbeef;
            while (J < uint32_t(P0) + uint32_t(G % 11)) {
              Seen += In[J % N] & 1u;
              Stored = J;
              if (In[(J * 7u) % N] % 64u == Key) {
                Found = J;
                break;
              }
              J += Stride;
            }
            return Stored + Found * Scale + J * 131u + Seen;
          },
          {{0, 0}, {3, 0}, {40, 0}, {300, 0}});
}

TEST_P(LockstepLoops, EscapeTime) {
  check1D("escape",
          [](const Words &In, size_t G, int P0, int) {
            // volatile: no contraction or excess precision on the host either.
            volatile float Cr = -2.0f + float(In[G] % 3000u) / 1000.0f;
            volatile float Ci = -1.5f + float((In[G] >> 12) % 3000u) / 1000.0f;
            volatile float Zr = 0.0f, Zi = 0.0f;
            uint32_t K = 0;
            while (K < uint32_t(P0)) {
              volatile float R2 = Zr * Zr, I2 = Zi * Zi;
              volatile float M = R2 + I2;
              if (!(M <= 4.0f))
                break;
              volatile float D = R2 - I2;
              volatile float T = D + Cr;
              volatile float P = 2.0f * Zr;
              volatile float Q = P * Zi;
              Zi = Q + Ci;
              Zr = T;
              ++K;
            }
            return K;
          },
          {{0, 0}, {1, 0}, {64, 0}, {500, 0}});
}

TEST_P(LockstepLoops, TwoLoopsAndEarlyReturn) {
  check1D("two_loops",
          [](const Words &In, size_t G, int P0, int P1) {
            uint32_t V = In[G], Bits = 0;
            while (V != 0) {
              Bits += V & 1u;
              V >>= 1;
            }
            uint32_t B = Bits + uint32_t(G), K = 0;
            while (B % 7u != 0u) {
              B += uint32_t(P1) + 1u;
              if (++K > uint32_t(P0))
                return 0xffff0000u + K;
            }
            return Bits * 1000u + K * 10u + (B & 7u);
          },
          // P1 + 1 a multiple of 7 never reaches a multiple of 7 from
          // elsewhere: the early return.
          {{100, 0}, {3, 2}, {5, 6}, {0, 1}});
}

TEST_P(LockstepLoops, LoopUnderVaryingBranch) {
  check1D("loop_under_branch",
          [](const Words &In, size_t G, int P0, int) {
            uint32_t X = In[G], K = 0;
            if (X & 1u) {
              while (X > uint32_t(P0)) {
                X /= 3u;
                ++K;
              }
            }
            return X + K * 100000u;
          },
          {{0, 0}, {5, 0}, {100000, 0}});
}

TEST_P(LockstepLoops, Digits2D) {
  KernelRef K(makeKernel(kernelSource("lockstep.cl"), "digits_2d"));
  ASSERT_NE(K.get(), nullptr);
  struct Shape {
    size_t Local[2];
  };
  for (Shape S : {Shape{{16, 4}}, Shape{{8, 8}}, Shape{{5, 3}}, Shape{{1, 16}},
                  Shape{{64, 1}}}) {
    const size_t Global[2] = {S.Local[0] * 3, S.Local[1] * 2};
    const uint32_t Width = uint32_t(Global[0]);
    const size_t N = Global[0] * Global[1];
    SCOPED_TRACE(testing::Message()
                 << "local " << S.Local[0] << "x" << S.Local[1]);
    Words In = pseudoRandomWords(N, 5), Out(N, 0xdeadbeef);
    MemRef InBuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                            N * sizeof(uint32_t), In.data()));
    MemRef OutBuf(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                             N * sizeof(uint32_t), Out.data()));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(uint32_t), &Width));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, S.Local,
                                        0, nullptr, nullptr));
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                     N * sizeof(uint32_t), Out.data(), 0,
                                     nullptr, nullptr));
    for (size_t Y = 0; Y < Global[1]; ++Y)
      for (size_t X = 0; X < Global[0]; ++X) {
        uint32_t V = In[Y * Width + X] >> uint32_t(Y % 9), Sum = 0, Count = 0;
        do {
          Sum += V % 10u;
          V /= 10u;
          ++Count;
        } while (V != 0u);
        ASSERT_EQ(Out[Y * Width + X], Sum * 100u + Count + uint32_t(X))
            << "x " << X << " y " << Y;
      }
  }
}

} // namespace

WEFT_INSTANTIATE_DEVICE_TEST(LockstepLoops);
