//===- tests/api/HorizontalLoopTest.cpp - uniform loops, end to end -------===//
//
// The kernels of tests/kernels/horizontal.cl on every device at several
// local sizes, against references computed here on the host: loops that
// horizontal inner-loop parallelization interchanges with the work-item
// loop (uniform trip counts, early uniform exits and returns, nested loops,
// loops under uniform branches, a naive matrix product, clpeak-like fma
// chains of scalars and vectors) and loops it must leave alone (varying
// trip counts, loops under varying branches, a work-item reloading what it
// stored). Each reference follows the kernel's meaning; fma keeps the
// floating-point ones exact.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>

using namespace weft_test;

namespace {

using Words = std::vector<uint32_t>;
/// Out of the whole NDRange from In and the two parameters.
using Reference = std::function<Words(const Words &In, size_t Local, int P0,
                                      int P1)>;

const std::vector<std::pair<int, int>> TripParams = {
    {0, 0}, {1, 0}, {5, 2}, {17, 100}, {40, 39}, {23, 11}};

class HorizontalLoops : public DeviceTest {
protected:
  size_t maxWorkGroup(cl_kernel K) {
    return std::min(
        deviceInfo<size_t>(Device, CL_DEVICE_MAX_WORK_GROUP_SIZE),
        kernelWorkGroupInfo<size_t>(K, Device, CL_KERNEL_WORK_GROUP_SIZE));
  }

  /// Runs a 1D kernel of the common signature over three groups of each
  /// local size and each parameter pair, against Ref.
  void check1D(const char *Name, const Reference &Ref) {
    KernelRef K(makeKernel(kernelSource("horizontal.cl"), Name));
    ASSERT_NE(K.get(), nullptr);
    size_t Max = maxWorkGroup(K);
    for (size_t Local : {size_t(1), size_t(7), size_t(16), size_t(64),
                         size_t(256)}) {
      if (Local > Max)
        continue;
      const size_t N = Local * 3;
      Words In = pseudoRandomWords(N, uint32_t(Local));
      for (auto [P0, P1] : TripParams) {
        SCOPED_TRACE(testing::Message() << Name << " local size " << Local
                                        << " P0=" << P0 << " P1=" << P1);
        Words Out = runWordKernel(K, Local, In, P0, P1);
        if (HasFailure())
          return;
        Words Want = Ref(In, Local, P0, P1);
        for (size_t G = 0; G < N; ++G)
          ASSERT_EQ(Out[G], Want[G]) << "work-item " << G;
      }
    }
  }
};

TEST_P(HorizontalLoops, EarlyUniformExit) {
  check1D("early_exit", [](const Words &In, size_t, int P0, int P1) {
    size_t N = In.size();
    Words Out(N);
    for (size_t G = 0; G < N; ++G) {
      uint32_t Acc = In[G];
      for (int I = 0; I < P0; ++I) {
        Acc = Acc * 3u + In[(G + I) % N] + uint32_t(I);
        if (I == P1)
          break;
      }
      Out[G] = Acc;
    }
    return Out;
  });
}

TEST_P(HorizontalLoops, ReturnFromUniformLoop) {
  check1D("early_return", [](const Words &In, size_t, int P0, int P1) {
    size_t N = In.size();
    Words Out(N);
    for (size_t G = 0; G < N; ++G) {
      uint32_t Acc = In[G];
      Out[G] = 0;
      bool Returned = false;
      for (int I = 0; I < P0 && !Returned; ++I) {
        Acc ^= In[(G * 7 + I) % N] + uint32_t(I);
        if (I == P1) {
          Out[G] = Acc + 1u;
          Returned = true;
        }
      }
      if (!Returned)
        Out[G] = Acc;
    }
    return Out;
  });
}

TEST_P(HorizontalLoops, VaryingTripCountLeftAlone) {
  check1D("varying_trips", [](const Words &In, size_t Local, int P0, int) {
    size_t N = In.size();
    Words Out(N);
    for (size_t G = 0; G < N; ++G) {
      uint32_t Acc = 0;
      for (uint32_t I = 0; I < G % Local % 5 + uint32_t(P0); ++I)
        Acc += In[(G + I) % N] * (I + 1u);
      Out[G] = Acc;
    }
    return Out;
  });
}

TEST_P(HorizontalLoops, NestedUniformLoops) {
  check1D("nested", [](const Words &In, size_t, int P0, int P1) {
    size_t N = In.size();
    Words Out(N);
    for (size_t G = 0; G < N; ++G) {
      uint32_t Acc = In[G];
      for (int I = 0; I < P0; ++I) {
        for (int J = 0; J < P1; ++J)
          Acc += In[(G + I * 3 + J) % N] ^ uint32_t(J);
        Acc = Acc * 5u + uint32_t(I);
      }
      Out[G] = Acc;
    }
    return Out;
  });
}

TEST_P(HorizontalLoops, LoopsUnderUniformAndVaryingBranches) {
  check1D("loops_in_ifs", [](const Words &In, size_t Local, int P0, int P1) {
    size_t N = In.size();
    Words Out(N);
    for (size_t G = 0; G < N; ++G) {
      uint32_t Acc = In[G];
      if (P0 > 3) {
        for (int I = 0; I < P0; ++I)
          Acc = Acc * 7u + In[(G + I) % N];
      } else {
        for (int I = 0; I < P1; ++I)
          Acc ^= In[(G + 2 * I) % N] + uint32_t(I);
      }
      if (G % Local % 3 == 0)
        for (int I = 0; I < P0; ++I)
          Acc += uint32_t(I) * In[(G + I) % N];
      Out[G] = Acc;
    }
    return Out;
  });
}

TEST_P(HorizontalLoops, UniformLoopBetweenBarriers) {
  check1D("between_barriers", [](const Words &In, size_t Local, int P0, int) {
    size_t N = In.size();
    Words Acc(N), Out(N);
    for (size_t G = 0; G < N; ++G) {
      size_t Base = G - G % Local, L = G % Local;
      for (int I = 0; I < P0; ++I)
        Acc[G] += In[Base + (L + I) % Local] * uint32_t(I + 1);
    }
    for (size_t G = 0; G < N; ++G) {
      size_t Base = G - G % Local, L = G % Local;
      Out[G] = Acc[Base + Local - 1 - L] + Acc[G];
    }
    return Out;
  });
}

TEST_P(HorizontalLoops, ReloadOfOwnStore) {
  check1D("store_reload", [](const Words &In, size_t, int P0, int) {
    Words Out = In;
    for (uint32_t &E : Out)
      for (int I = 0; I < P0; ++I)
        E = E * 3u + uint32_t(I);
    return Out;
  });
}

TEST_P(HorizontalLoops, NaiveMatrixProduct) {
  KernelRef K(makeKernel(kernelSource("horizontal.cl"), "matmul"));
  ASSERT_NE(K.get(), nullptr);
  const cl_uint N = 48;
  std::vector<float> A(N * N), B(N * N), C(N * N);
  Words Bits = pseudoRandomWords(2 * N * N, 7);
  for (size_t I = 0; I < N * N; ++I) {
    A[I] = float(Bits[I] % 2001) / 1000.0f - 1.0f;
    B[I] = float(Bits[N * N + I] % 2001) / 1000.0f - 1.0f;
  }
  std::vector<float> Want(N * N);
  for (size_t Row = 0; Row < N; ++Row)
    for (size_t Col = 0; Col < N; ++Col) {
      float Sum = 0.0f;
      for (size_t I = 0; I < N; ++I)
        Sum = std::fma(A[Row * N + I], B[I * N + Col], Sum);
      Want[Row * N + Col] = Sum;
    }
  MemRef ABuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                         A.size() * sizeof(float), A.data()));
  MemRef BBuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                         B.size() * sizeof(float), B.data()));
  MemRef CBuf(makeBuffer(CL_MEM_WRITE_ONLY, C.size() * sizeof(float)));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &CBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &ABuf));
  ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_mem), &BBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(cl_uint), &N));
  size_t Max = maxWorkGroup(K);
  const size_t Locals[][2] = {{1, 1}, {3, 2}, {8, 8}, {16, 4}, {48, 1},
                              {16, 16}};
  for (auto &Local : Locals) {
    if (Local[0] * Local[1] > Max)
      continue;
    SCOPED_TRACE(testing::Message()
                 << "local size " << Local[0] << "x" << Local[1]);
    const size_t Global[2] = {N, N};
    std::fill(C.begin(), C.end(), -99.0f);
    ASSERT_CL_OK(clEnqueueWriteBuffer(Queue, CBuf, CL_TRUE, 0,
                                      C.size() * sizeof(float), C.data(), 0,
                                      nullptr, nullptr));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, Local,
                                        0, nullptr, nullptr));
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, CBuf, CL_TRUE, 0,
                                     C.size() * sizeof(float), C.data(), 0,
                                     nullptr, nullptr));
    for (size_t I = 0; I < N * N; ++I)
      ASSERT_EQ(C[I], Want[I]) << "row " << I / N << " column " << I % N;
  }
}

TEST_P(HorizontalLoops, FmaChainsOfScalarsAndVectors) {
  for (int Width : {1, 2, 4, 8, 16}) {
    std::string Type = Width == 1 ? "float" : "float" + std::to_string(Width);
    SCOPED_TRACE(testing::Message() << Type);
    KernelRef K(makeKernel(kernelSource("horizontal.cl"), "mad_chain",
                           "-DCHAIN_T=" + Type + " -DCHAIN_W=" + std::to_string(Width)));
    ASSERT_NE(K.get(), nullptr);
    size_t Max = maxWorkGroup(K);
    for (size_t Local : {size_t(1), size_t(13), size_t(64), size_t(256)}) {
      if (Local > Max)
        continue;
      SCOPED_TRACE(testing::Message() << "local size " << Local);
      const size_t N = Local * 2;
      const float A = 1.5f;
      const int Trips = 37;
      MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, N * Width * sizeof(float)));
      ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
      ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(float), &A));
      ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(int), &Trips));
      ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                          nullptr, nullptr));
      std::vector<float> Out(N * Width);
      ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                       Out.size() * sizeof(float), Out.data(),
                                       0, nullptr, nullptr));
      for (size_t G = 0; G < N; ++G)
        for (int Lane = 0; Lane < Width; ++Lane) {
          float Y = float(G) * 0.001f + float(Lane), X = A;
          for (int I = 0; I < Trips; ++I)
            for (int Step = 0; Step < 4; ++Step) {
              X = std::fma(X, 0.5f, Y);
              Y = std::fma(Y, 0.75f, 0.125f);
            }
          ASSERT_EQ(Out[G * Width + Lane], X + Y)
              << "work-item " << G << " lane " << Lane;
        }
    }
  }
}

} // namespace

WEFT_INSTANTIATE_DEVICE_TEST(HorizontalLoops);
