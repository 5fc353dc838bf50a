//===- tests/api/BarrierTest.cpp - kernels with barriers, end to end ------===//
//
// The kernels of tests/kernels/barriers.cl on every device, at several local
// sizes each (1, a prime, a power of two, the largest the device and kernel
// allow), compared with references computed here on the host. The 1D kernels
// share one signature, so one harness runs them all; each reference is
// written from the kernel's meaning, not from the compiler's.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>

using namespace weft_test;

namespace {

using Slice = std::vector<uint32_t>;
/// Out of one group from In of that group, its id and the two parameters.
using Reference =
    std::function<Slice(const Slice &In, size_t Group, int P0, int P1)>;

Slice permuted(const Slice &V, const std::function<size_t(size_t)> &From) {
  Slice R(V.size());
  for (size_t L = 0; L < V.size(); ++L)
    R[L] = V[From(L)];
  return R;
}

class Barriers : public DeviceTest {
protected:
  size_t deviceMaxWorkGroup() {
    return deviceInfo<size_t>(Device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  }

  size_t kernelMaxWorkGroup(cl_kernel K) {
    return kernelWorkGroupInfo<size_t>(K, Device, CL_KERNEL_WORK_GROUP_SIZE);
  }

  cl_ulong localMemSize() {
    cl_ulong Size = 0;
    EXPECT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_LOCAL_MEM_SIZE,
                                 sizeof(Size), &Size, nullptr));
    return Size;
  }

  /// 1, a prime, a power of two and the largest allowed (capped by Cap);
  /// powers of two only when PowerOfTwo.
  std::vector<size_t> localSizes(cl_kernel K, bool PowerOfTwo, size_t Cap) {
    size_t Max = std::min({kernelMaxWorkGroup(K), deviceMaxWorkGroup(), Cap,
                           size_t(localMemSize() / sizeof(uint32_t) / 2)});
    std::vector<size_t> Sizes = {1, PowerOfTwo ? size_t(2) : size_t(13), 64};
    size_t Largest = Max;
    if (PowerOfTwo)
      for (Largest = 1; Largest * 2 <= Max; Largest *= 2)
        ;
    Sizes.push_back(Largest);
    Sizes.erase(std::remove_if(Sizes.begin(), Sizes.end(),
                               [&](size_t S) { return S > Max; }),
                Sizes.end());
    std::sort(Sizes.begin(), Sizes.end());
    Sizes.erase(std::unique(Sizes.begin(), Sizes.end()), Sizes.end());
    return Sizes;
  }

  /// Runs a kernel of the common 1D signature over three groups of each
  /// local size and each parameter pair, against Ref.
  void check1D(const char *Name, const Reference &Ref,
               std::vector<std::pair<int, int>> Params = {{0, 0}},
               bool PowerOfTwo = false, size_t Cap = SIZE_MAX,
               const std::string &Options = "") {
    KernelRef K(makeKernel(kernelSource("barriers.cl"), Name, Options));
    ASSERT_NE(K.get(), nullptr);
    for (size_t Local : localSizes(K, PowerOfTwo, Cap)) {
      const size_t Groups = 3, N = Local * Groups;
      std::vector<uint32_t> In = pseudoRandomWords(N, uint32_t(Local));
      for (auto [P0, P1] : Params) {
        SCOPED_TRACE(testing::Message() << Name << " local size " << Local
                                        << " P0=" << P0 << " P1=" << P1);
        std::vector<uint32_t> Out = runWordKernel(K, Local, In, P0, P1);
        if (HasFailure())
          return;
        for (size_t G = 0; G < Groups; ++G) {
          Slice GroupIn(In.begin() + G * Local, In.begin() + (G + 1) * Local);
          Slice Want = Ref(GroupIn, G, P0, P1);
          for (size_t L = 0; L < Local; ++L)
            ASSERT_EQ(Out[G * Local + L], Want[L])
                << "group " << G << " work-item " << L;
        }
      }
    }
  }
};

TEST_P(Barriers, StraightLine) {
  check1D("straight_line", [](const Slice &In, size_t, int, int) {
    size_t N = In.size();
    Slice A = permuted(In, [&](size_t L) { return (L + 1) % N; });
    Slice Out(N);
    for (size_t L = 0; L < N; ++L)
      Out[L] = 2u * A[N - 1 - L] + A[L];
    return Out;
  });
}

TEST_P(Barriers, UniformIfElse) {
  check1D(
      "uniform_if",
      [](const Slice &In, size_t Group, int P0, int) {
        size_t N = In.size();
        Slice V(N);
        if ((Group + size_t(P0)) % 2 == 0) {
          for (size_t L = 0; L < N; ++L)
            V[L] = In[N - 1 - L] + 1u;
          return V;
        }
        for (size_t L = 0; L < N; ++L)
          V[L] = In[(L + 1) % N] * 3u;
        for (uint32_t &E : V)
          E ^= 5u;
        return permuted(V, [&](size_t L) { return (L + 2) % N; });
      },
      {{0, 0}, {1, 0}});
}

TEST_P(Barriers, WorkGroupBarrierOpenCLC30) {
  check1D(
      "work_group_barrier_scopes",
      [](const Slice &In, size_t, int, int) {
        size_t N = In.size();
        Slice V(N);
        for (size_t L = 0; L < N; ++L)
          V[L] = In[N - 1 - L] + 1u;
        return permuted(V, [&](size_t L) { return (L + 1) % N; });
      },
      {{0, 0}}, false, SIZE_MAX, "-cl-std=CL3.0");
}

// Work-items that loop forever after a barrier (the loop's condition is an
// assignment): the region after it reaches no barrier and no return. The
// build measures the kernel through the region method, which crashed the
// process on it (found by weft-fuzz-build-source). The kernel is built and
// queried, never run.
TEST_P(Barriers, EndlessRegionAfterABarrierBuilds) {
  const char *Source = R"CLC(
kernel void endless(global float *buf, global float *sum,
                    global const float *in, int k, local float *scratch) {
  size_t g = get_global_id(0), l = get_local_id(0);
  scratch[l] = in[g * 4];
  barrier(CLK_LOCAL_MEM_FENCE);
  float s = scratch[(l + 1) % get_local_size(0)];
  for (int i = 0; i = 4; ++i) {
    buf[g * 2 + i] = in[g * 4 + i] * 2.0f;
    s += buf[g * 4 + k];
  }
  sum[g] = s;
}
)CLC";
  KernelRef K(makeKernel(Source, "endless"));
  ASSERT_NE(K.get(), nullptr);
  EXPECT_GE(kernelMaxWorkGroup(K), 1u);
}

TEST_P(Barriers, ForLoop) {
  check1D(
      "loop_for",
      [](const Slice &In, size_t, int P0, int) {
        Slice V = In;
        size_t N = V.size();
        for (int I = 0; I < P0; ++I) {
          V = permuted(V, [&](size_t L) { return (L + 1) % N; });
          for (uint32_t &E : V)
            E += uint32_t(I);
        }
        return V;
      },
      {{0, 0}, {1, 0}, {5, 0}});
}

TEST_P(Barriers, LoopCarriedValues) {
  check1D(
      "loop_carried",
      [](const Slice &In, size_t, int P0, int) {
        size_t N = In.size();
        Slice Acc = In, Prev(N, 0u), A(N), B(N, 7u);
        for (size_t L = 0; L < N; ++L)
          A[L] = uint32_t(L);
        for (int I = 0; I < P0; ++I) {
          Slice Next(N);
          for (size_t L = 0; L < N; ++L)
            Next[L] = Acc[L] * 3u + Acc[(L + 1) % N];
          for (size_t L = 0; L < N; ++L) {
            Prev[L] = Acc[L] ^ Next[L];
            uint32_t T = A[L];
            A[L] = B[L] + uint32_t(I);
            B[L] = T;
          }
          Acc = Next;
        }
        Slice Out(N);
        for (size_t L = 0; L < N; ++L)
          Out[L] = Acc[L] + Prev[L] * 5u + A[L] * 11u + B[L] * 13u;
        return Out;
      },
      {{0, 0}, {1, 0}, {4, 0}});
}

TEST_P(Barriers, WhileLoop) {
  check1D(
      "loop_while",
      [](const Slice &In, size_t, int P0, int) {
        Slice V = In;
        size_t N = V.size();
        for (int I = 0; I < P0; ++I) {
          Slice S = V;
          for (uint32_t &E : S)
            E *= 3u;
          for (size_t L = 0; L < N; ++L)
            V[L] = S[(L + size_t(I)) % N] + 1u;
        }
        return V;
      },
      {{0, 0}, {4, 0}});
}

TEST_P(Barriers, DoWhileLoop) {
  check1D(
      "loop_do",
      [](const Slice &In, size_t, int P0, int) {
        Slice V = In;
        size_t N = V.size();
        int I = 0;
        do {
          Slice S = V;
          for (size_t L = 0; L < N; ++L)
            V[L] = S[L] + S[N - 1 - L];
        } while (++I < P0);
        return V;
      },
      {{0, 0}, {3, 0}});
}

TEST_P(Barriers, NestedLoops) {
  check1D(
      "loop_nested",
      [](const Slice &In, size_t, int P0, int P1) {
        Slice V = In;
        size_t N = V.size();
        for (int I = 0; I < P0; ++I) {
          for (int J = 0; J < P1; ++J) {
            V = permuted(V, [&](size_t L) { return (L + size_t(J) + 1) % N; });
            for (uint32_t &E : V)
              E += uint32_t(I);
          }
          for (uint32_t &E : V)
            E = E * 3u + 1u;
        }
        return V;
      },
      {{2, 3}, {3, 0}, {0, 2}});
}

Slice rotateAndIncrement(const Slice &In, int Times) {
  Slice V = In;
  size_t N = V.size();
  for (int I = 0; I < Times; ++I) {
    V = permuted(V, [&](size_t L) { return (L + 1) % N; });
    for (uint32_t &E : V)
      E += 1u;
  }
  return V;
}

TEST_P(Barriers, EarlyUniformBreak) {
  check1D(
      "loop_early_exit",
      [](const Slice &In, size_t, int P0, int) {
        return rotateAndIncrement(In, std::min(P0 + 1, 100));
      },
      {{0, 0}, {6, 0}, {500, 0}});
}

TEST_P(Barriers, EarlyUniformReturn) {
  check1D(
      "loop_return",
      [](const Slice &In, size_t, int P0, int) {
        if (P0 >= 100)
          return Slice(In.size(), 0u);
        return rotateAndIncrement(In, P0 + 1);
      },
      {{0, 0}, {6, 0}, {500, 0}});
}

TEST_P(Barriers, BarriersInCalledFunctions) {
  check1D("called_barrier", [](const Slice &In, size_t, int, int) {
    size_t N = In.size();
    auto Reverse = [&](const Slice &V) {
      return permuted(V, [&](size_t L) { return N - 1 - L; });
    };
    Slice V = Reverse(In);
    for (uint32_t &E : V)
      E += 1u;
    V = permuted(V, [&](size_t L) { return (L + 3) % N; });
    return Reverse(V);
  });
}

Slice groupSum(const Slice &In, size_t, int, int) {
  uint32_t Sum = 0;
  for (uint32_t E : In)
    Sum += E;
  return Slice(In.size(), Sum);
}

TEST_P(Barriers, LocalMemoryReduction) { check1D("reduce_sum", groupSum); }

TEST_P(Barriers, AutomaticLocalArrayReduction) {
  check1D("reduce_static", groupSum, {{0, 0}}, false, 256);
}

TEST_P(Barriers, BlellochPrefixSum) {
  check1D(
      "scan_blelloch",
      [](const Slice &In, size_t, int, int) {
        Slice Out(In.size());
        uint32_t Sum = 0;
        for (size_t L = 0; L < In.size(); ++L) {
          Out[L] = Sum;
          Sum += In[L];
        }
        return Out;
      },
      {{0, 0}}, true);
}

TEST_P(Barriers, BitonicSortInLocalMemory) {
  check1D(
      "bitonic_sort",
      [](const Slice &In, size_t, int, int) {
        Slice Out = In;
        std::sort(Out.begin(), Out.end());
        return Out;
      },
      {{0, 0}}, true);
}

TEST_P(Barriers, KiBOfPrivateDataLiveAcrossBarrier) {
  check1D(
      "private_1k",
      [](const Slice &In, size_t, int, int) {
        size_t N = In.size();
        Slice S(N), Out(N);
        std::vector<std::vector<uint32_t>> P(N, std::vector<uint32_t>(256));
        for (size_t L = 0; L < N; ++L) {
          for (uint32_t I = 0; I < 256; ++I)
            P[L][I] = In[L] * (I + 1) + I;
          S[L] = P[L][L % 256];
        }
        for (size_t L = 0; L < N; ++L) {
          uint32_t X = In[L];
          uint32_t Acc = S[(L + 1) % N];
          for (uint32_t I = 0; I < 256; ++I)
            Acc += P[L][(I * 7 + L % 256) % 256] ^ I;
          Out[L] = Acc + (X + 1u) + (X * 7u) * 3u + (X ^ 0x55u) * 5u +
                   (X >> 3) * 9u + X * X;
        }
        return Out;
      });
}

/// The 1 KiB kernel at local size 1024, which needs 1 MiB of context arrays
/// per worker: more than a worker's stack could hold safely.
TEST_P(Barriers, KiBOfPrivateDataAtLocalSize1024) {
  KernelRef K(makeKernel(kernelSource("barriers.cl"), "private_1k"));
  ASSERT_NE(K.get(), nullptr);
  if (kernelMaxWorkGroup(K) < 1024 || localMemSize() < 4096 * 2)
    GTEST_SKIP() << "the device does not allow 1024 work-items";
  const size_t Local = 1024, N = 2 * Local;
  std::vector<uint32_t> In = pseudoRandomWords(N, 99);
  MemRef InBuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          N * sizeof(uint32_t), In.data()));
  MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, N * sizeof(uint32_t)));
  int Zero = 0;
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 2, Local * sizeof(uint32_t), nullptr));
  ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(int), &Zero));
  ASSERT_CL_OK(clSetKernelArg(K, 4, sizeof(int), &Zero));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                      nullptr, nullptr));
  std::vector<uint32_t> Out(N);
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                   N * sizeof(uint32_t), Out.data(), 0,
                                   nullptr, nullptr));
  for (size_t L = 0; L < N; ++L) {
    size_t G = L / Local, I = L % Local;
    uint32_t X = In[L];
    uint32_t Left = In[G * Local + (I + 1) % Local];
    uint32_t Acc = Left * (uint32_t((I + 1) % Local % 256) + 1) +
                   uint32_t((I + 1) % Local % 256);
    for (uint32_t J = 0; J < 256; ++J) {
      uint32_t Idx = (J * 7 + I % 256) % 256;
      Acc += (X * (Idx + 1) + Idx) ^ J;
    }
    uint32_t Want = Acc + (X + 1u) + (X * 7u) * 3u + (X ^ 0x55u) * 5u +
                    (X >> 3) * 9u + X * X;
    ASSERT_EQ(Out[L], Want) << "at " << L;
  }
}

TEST_P(Barriers, ThreeDimensionalGroups) {
  KernelRef K(makeKernel(kernelSource("barriers.cl"), "reverse_3d"));
  ASSERT_NE(K.get(), nullptr);
  size_t MaxItems[3] = {};
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                               sizeof(MaxItems), MaxItems, nullptr));
  size_t Max = std::min(kernelMaxWorkGroup(K), deviceMaxWorkGroup());
  const size_t Shapes[][3] = {{1, 1, 1}, {2, 3, 5}, {4, 4, 4}, {16, 16, 16}};
  for (const auto &Shape : Shapes) {
    if (Shape[0] * Shape[1] * Shape[2] > Max || Shape[0] > MaxItems[0] ||
        Shape[1] > MaxItems[1] || Shape[2] > MaxItems[2])
      continue;
    SCOPED_TRACE(testing::Message() << "local " << Shape[0] << "x" << Shape[1]
                                    << "x" << Shape[2]);
    size_t Global[3] = {Shape[0] * 2, Shape[1] * 3, Shape[2] * 2};
    size_t N = Global[0] * Global[1] * Global[2];
    size_t GroupItems = Shape[0] * Shape[1] * Shape[2];
    std::vector<uint32_t> In = pseudoRandomWords(N, 3);
    MemRef InBuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                            N * sizeof(uint32_t), In.data()));
    MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, N * sizeof(uint32_t)));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
    ASSERT_CL_OK(
        clSetKernelArg(K, 2, GroupItems * sizeof(uint32_t), nullptr));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 3, nullptr, Global, Shape,
                                        0, nullptr, nullptr));
    std::vector<uint32_t> Out(N);
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                     N * sizeof(uint32_t), Out.data(), 0,
                                     nullptr, nullptr));
    auto Index = [&](size_t X, size_t Y, size_t Z) {
      return X + Global[0] * (Y + Global[1] * Z);
    };
    for (size_t Z = 0; Z < Global[2]; ++Z)
      for (size_t Y = 0; Y < Global[1]; ++Y)
        for (size_t X = 0; X < Global[0]; ++X) {
          size_t LX = X % Shape[0], LY = Y % Shape[1], LZ = Z % Shape[2];
          size_t Lin = LX + Shape[0] * (LY + Shape[1] * LZ);
          size_t From = GroupItems - 1 - Lin;
          size_t FX = From % Shape[0], FY = From / Shape[0] % Shape[1],
                 FZ = From / (Shape[0] * Shape[1]);
          size_t Src = Index(X - LX + FX, Y - LY + FY, Z - LZ + FZ);
          ASSERT_EQ(Out[Index(X, Y, Z)], In[Src])
              << "at " << X << "," << Y << "," << Z;
        }
  }
}

TEST_P(Barriers, MatrixTransposeThroughLocalMemory) {
  KernelRef K(makeKernel(kernelSource("barriers.cl"), "transpose"));
  ASSERT_NE(K.get(), nullptr);
  size_t Max = std::min(kernelMaxWorkGroup(K), deviceMaxWorkGroup());
  for (size_t T : {size_t(1), size_t(7), size_t(16), size_t(64)}) {
    if (T * T > Max || (T + 1) * T * sizeof(float) > localMemSize())
      continue;
    SCOPED_TRACE(testing::Message() << "tile " << T);
    cl_uint Width = cl_uint(3 * T), Height = cl_uint(2 * T);
    size_t N = size_t(Width) * Height;
    std::vector<float> In(N);
    for (size_t I = 0; I < N; ++I)
      In[I] = float(I) * 0.5f - 7.0f;
    MemRef InBuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                            N * sizeof(float), In.data()));
    MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, N * sizeof(float)));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 2, (T + 1) * T * sizeof(float), nullptr));
    ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(cl_uint), &Width));
    ASSERT_CL_OK(clSetKernelArg(K, 4, sizeof(cl_uint), &Height));
    size_t Global[2] = {Width, Height}, Local[2] = {T, T};
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, Local, 0,
                                        nullptr, nullptr));
    std::vector<float> Out(N);
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                     N * sizeof(float), Out.data(), 0, nullptr,
                                     nullptr));
    for (size_t Y = 0; Y < Height; ++Y)
      for (size_t X = 0; X < Width; ++X)
        ASSERT_EQ(Out[X * Height + Y], In[Y * Width + X])
            << "at " << X << "," << Y;
  }
}

TEST_P(Barriers, Dct8x8Blocks) {
  KernelRef K(makeKernel(kernelSource("barriers.cl"), "dct8x8"));
  ASSERT_NE(K.get(), nullptr);
  const double Pi = 3.14159265358979323846;
  std::vector<float> Coef(64);
  for (int U = 0; U < 8; ++U)
    for (int X = 0; X < 8; ++X)
      Coef[U * 8 + X] = float((U == 0 ? std::sqrt(1.0 / 8) : std::sqrt(2.0 / 8)) *
                              std::cos((2 * X + 1) * U * Pi / 16));
  const cl_uint Width = 32, Height = 24;
  std::vector<float> In(Width * Height);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = float((I * 37) % 255) - 128.0f;
  MemRef InBuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          In.size() * sizeof(float), In.data()));
  MemRef CoefBuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                            Coef.size() * sizeof(float), Coef.data()));
  MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, In.size() * sizeof(float)));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_mem), &CoefBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(cl_uint), &Width));
  size_t Global[2] = {Width, Height}, Local[2] = {8, 8};
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, Local, 0,
                                      nullptr, nullptr));
  std::vector<float> Out(In.size());
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                   Out.size() * sizeof(float), Out.data(), 0,
                                   nullptr, nullptr));
  for (size_t BY = 0; BY < Height; BY += 8)
    for (size_t BX = 0; BX < Width; BX += 8)
      for (int V = 0; V < 8; ++V)
        for (int U = 0; U < 8; ++U) {
          double Want = 0;
          for (int Y = 0; Y < 8; ++Y)
            for (int X = 0; X < 8; ++X)
              Want += double(In[(BY + Y) * Width + BX + X]) *
                      double(Coef[U * 8 + X]) * double(Coef[V * 8 + Y]);
          ASSERT_NEAR(Out[(BY + V) * Width + BX + U], Want, 1e-3)
              << "block " << BX << "," << BY << " coefficient " << U << ","
              << V;
        }
}

} // namespace

WEFT_INSTANTIATE_DEVICE_TEST(Barriers);
