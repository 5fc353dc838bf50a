//===- tests/api/CollectiveTest.cpp - work-group collective functions -----===//
//
// OpenCL C 3.0's work_group_all/any/broadcast/reduce/scan
// (__opencl_c_work_group_collective_functions) for every type the
// specification lists, at 1D, 2D and 3D local sizes up to the device's
// largest, in uniform and non-uniform NDRanges, compared with references
// computed here group by group. The values are chosen so that every sum
// is exact in its type (or wraps, for the unsigned types), so the order in
// which the device adds (free by the specification) cannot change them.
//
//===----------------------------------------------------------------------===//

#include "CollectiveResults.h"
#include "TestCommon.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>

using namespace weft_test;

namespace {

const char *CollectiveSource = R"CLC(
#ifdef HALF
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif
#ifdef DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

size_t linear_global_id(void) {
  return (get_global_id(2) * get_global_size(1) + get_global_id(1)) *
             get_global_size(0) + get_global_id(0);
}

// Out: 10 results per work-item; Pred: all and any per work-item. The
// broadcast source moves with the group id, wrapped into the group's size.
kernel void collectives(global const T *In, global T *Out, global int *Pred,
                        uint Sx, uint Sy, uint Sz) {
  size_t G = linear_global_id();
  T X = In[G];
  global T *O = Out + 10 * G;
  O[0] = work_group_reduce_add(X);
  O[1] = work_group_reduce_min(X);
  O[2] = work_group_reduce_max(X);
  O[3] = work_group_scan_exclusive_add(X);
  O[4] = work_group_scan_exclusive_min(X);
  O[5] = work_group_scan_exclusive_max(X);
  O[6] = work_group_scan_inclusive_add(X);
  O[7] = work_group_scan_inclusive_min(X);
  O[8] = work_group_scan_inclusive_max(X);
  size_t Bx = (Sx + 3 * get_group_id(0)) % get_local_size(0);
  size_t By = (Sy + get_group_id(1)) % get_local_size(1);
  size_t Bz = (Sz + get_group_id(2)) % get_local_size(2);
  uint D = get_work_dim();
  if (D == 1)
    O[9] = work_group_broadcast(X, Bx);
  else if (D == 2)
    O[9] = work_group_broadcast(X, Bx, By);
  else
    O[9] = work_group_broadcast(X, Bx, By, Bz);
  Pred[2 * G] = work_group_all(X > (T)0);
  Pred[2 * G + 1] = work_group_any(X > (T)0);
}
)CLC";

const char *LoopSource = R"CLC(
// Collectives of several types in a row, in a loop: each reuses the
// scratch the one before it read its result from.
kernel void in_loop(global const int *In, global long *Out, int Trips) {
  size_t G = get_global_id(0);
  long Acc = 0;
  for (int I = 0; I < Trips; ++I) {
    int V = In[G] * (I + 1);
    Acc += work_group_scan_inclusive_add(V);
    Acc ^= work_group_broadcast(V, (size_t)I % get_local_size(0));
    Acc += work_group_scan_exclusive_add((long)V << 20);
    Acc += work_group_reduce_max(V + I);
    Acc += (long)work_group_scan_exclusive_min((double)V);
  }
  Out[G] = Acc;
}
)CLC";

/// Half bits of F, which must be a half: zero, an infinity or an integer
/// of magnitude below 2048.
uint16_t halfBits(float F) {
  uint16_t Sign = std::signbit(F) ? 0x8000 : 0;
  F = std::fabs(F);
  if (F == 0)
    return Sign;
  if (std::isinf(F))
    return Sign | 0x7c00;
  int Exp = 0;
  float M = std::frexp(F, &Exp); // F = M * 2^Exp, M in [0.5, 1)
  uint16_t Mant = uint16_t(std::lround(M * 2048)) & 0x3ff;
  return Sign | uint16_t((Exp - 1 + 15) << 10) | Mant;
}

float halfValue(uint16_t H) {
  float Sign = (H & 0x8000) ? -1.f : 1.f;
  unsigned Exp = (H >> 10) & 0x1f, Mant = H & 0x3ff;
  if (Exp == 0x1f)
    return Mant ? NAN : Sign * INFINITY;
  if (Exp == 0)
    return Sign * std::ldexp(float(Mant), -24);
  return Sign * std::ldexp(float(Mant | 0x400), int(Exp) - 25);
}

/// One element type: its device storage (Dev), the host type the reference
/// computes in (Host), the build options and the test values.
template <typename DevT, typename HostT> struct TypeInfo {
  using Dev = DevT;
  using Host = HostT;
  const char *Name;
  const char *Options;
  std::function<Host(uint32_t Random)> Value;
  std::function<Dev(Host)> ToDev;
  std::function<Host(Dev)> ToHost;
};

template <typename T> T identity(T V) { return V; }

/// The work-items of each group, each as its global linear id, in the
/// order of local linear ids.
std::vector<std::vector<size_t>> groupsOf(const size_t Global[3],
                                          const size_t Local[3]) {
  size_t Groups[3];
  for (int D = 0; D < 3; ++D)
    Groups[D] = (Global[D] + Local[D] - 1) / Local[D];
  std::vector<std::vector<size_t>> Result;
  for (size_t Gz = 0; Gz < Groups[2]; ++Gz)
    for (size_t Gy = 0; Gy < Groups[1]; ++Gy)
      for (size_t Gx = 0; Gx < Groups[0]; ++Gx) {
        std::vector<size_t> Items;
        size_t G[3] = {Gx, Gy, Gz};
        size_t Size[3];
        for (int D = 0; D < 3; ++D)
          Size[D] = std::min(Local[D], Global[D] - G[D] * Local[D]);
        for (size_t Z = 0; Z < Size[2]; ++Z)
          for (size_t Y = 0; Y < Size[1]; ++Y)
            for (size_t X = 0; X < Size[0]; ++X) {
              size_t Id[3] = {Gx * Local[0] + X, Gy * Local[1] + Y,
                              Gz * Local[2] + Z};
              Items.push_back((Id[2] * Global[1] + Id[1]) * Global[0] +
                              Id[0]);
            }
        Result.push_back(Items);
      }
  return Result;
}

class Collectives : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFailure())
      return;
    cl_bool Supported = deviceInfo<cl_bool>(
        Device, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT);
    if (!Supported) {
      EXPECT_FALSE(testingWeft()) << "Weft devices support the collectives";
      GTEST_SKIP() << "device without work-group collective functions";
    }
  }

  bool hasExtension(const char *Name) {
    return splitWords(deviceString(Device, CL_DEVICE_EXTENSIONS)).count(Name);
  }

  size_t largestGroup(cl_kernel K) {
    return std::min(
        deviceInfo<size_t>(Device, CL_DEVICE_MAX_WORK_GROUP_SIZE),
        kernelWorkGroupInfo<size_t>(K, Device, CL_KERNEL_WORK_GROUP_SIZE));
  }

  /// Builds the collectives kernel for type Ty; nullptr after a failure.
  template <typename Info> cl_kernel collectivesKernel(const Info &Ty) {
    return makeKernel(CollectiveSource, "collectives",
                      std::string("-cl-std=CL3.0 ") + Ty.Options);
  }

  /// Runs K over Global x Local with broadcast source (Sx, Sy, Sz) and
  /// checks every result of every work-item.
  template <typename Info>
  void check(const Info &Ty, cl_kernel K, cl_uint WorkDim,
             const size_t Global[3], const size_t Local[3],
             const cl_uint Source[3] = nullptr, uint32_t Seed = 1) {
    using Dev = typename Info::Dev;
    using Host = typename Info::Host;
    static const cl_uint Zero[3] = {0, 0, 0};
    if (!Source)
      Source = Zero;
    SCOPED_TRACE(testing::Message()
                 << Ty.Name << " global " << Global[0] << "x" << Global[1]
                 << "x" << Global[2] << " local " << Local[0] << "x"
                 << Local[1] << "x" << Local[2] << " source " << Source[0]
                 << "," << Source[1] << "," << Source[2]);
    size_t Total = Global[0] * Global[1] * Global[2];
    std::vector<uint32_t> Random = pseudoRandomWords(Total, Seed);
    std::vector<Host> In(Total);
    std::vector<Dev> InDev(Total);
    for (size_t I = 0; I < Total; ++I) {
      In[I] = Ty.Value(Random[I]);
      InDev[I] = Ty.ToDev(In[I]);
    }
    MemRef InBuf(makeBufferFrom(InDev, CL_MEM_READ_ONLY));
    std::vector<Dev> Out(10 * Total);
    std::vector<cl_int> Pred(2 * Total, -7);
    MemRef OutBuf(makeBufferFrom(Out));
    MemRef PredBuf(makeBufferFrom(Pred));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_mem), &PredBuf));
    for (cl_uint D = 0; D < 3; ++D)
      ASSERT_CL_OK(clSetKernelArg(K, 3 + D, sizeof(cl_uint), &Source[D]));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, WorkDim, nullptr, Global,
                                        Local, 0, nullptr, nullptr));
    ASSERT_CL_OK(readInto(OutBuf, Out));
    ASSERT_CL_OK(readInto(PredBuf, Pred));

    size_t Groups[3];
    for (int D = 0; D < 3; ++D)
      Groups[D] = (Global[D] + Local[D] - 1) / Local[D];
    std::vector<std::vector<size_t>> Members = groupsOf(Global, Local);
    for (size_t GroupIndex = 0; GroupIndex < Members.size(); ++GroupIndex) {
      const std::vector<size_t> &Items = Members[GroupIndex];
      size_t Group[3] = {GroupIndex % Groups[0],
                         GroupIndex / Groups[0] % Groups[1],
                         GroupIndex / Groups[0] / Groups[1]};
      size_t Size[3];
      for (int D = 0; D < 3; ++D)
        Size[D] = std::min(Local[D], Global[D] - Group[D] * Local[D]);
      size_t B[3] = {(Source[0] + 3 * Group[0]) % Size[0],
                     (Source[1] + Group[1]) % Size[1],
                     (Source[2] + Group[2]) % Size[2]};
      size_t BLinear = (B[2] * Size[1] + B[1]) * Size[0] + B[0];
      if (WorkDim == 1)
        BLinear = B[0];
      SCOPED_TRACE(testing::Message()
                   << "group " << GroupIndex << ", broadcast from " << B[0]
                   << "," << B[1] << "," << B[2]);
      checkCollectiveResults(Ty, In, Out, Pred, Items, BLinear);
      if (HasFatalFailure())
        return;
    }
  }

  /// Runs Body(Info) for every type the device supports.
  template <typename F> void forEachType(F Body) {
    // Each value is exact in its type and every partial sum of up to 4096
    // of them too; the unsigned types wrap around instead.
    TypeInfo<cl_int, int32_t> Int{
        "int", "-DT=int", [](uint32_t R) { return int32_t(R % 2001) - 1000; },
        identity<cl_int>, identity<int32_t>};
    TypeInfo<cl_uint, uint32_t> UInt{
        "uint", "-DT=uint", [](uint32_t R) { return R * 2654435761u; },
        identity<cl_uint>, identity<uint32_t>};
    TypeInfo<cl_long, int64_t> Long{
        "long", "-DT=long",
        [](uint32_t R) { return (int64_t(R) - (1 << 24)) * 4099; },
        identity<cl_long>, identity<int64_t>};
    TypeInfo<cl_ulong, uint64_t> ULong{
        "ulong", "-DT=ulong",
        [](uint32_t R) { return uint64_t(R) * 0x9e3779b97f4a7c15ull; },
        identity<cl_ulong>, identity<uint64_t>};
    TypeInfo<cl_float, float> Float{
        "float", "-DT=float",
        [](uint32_t R) { return float(int(R % 2001) - 1000) / 8; },
        identity<cl_float>, identity<float>};
    TypeInfo<cl_double, double> Double{
        "double", "-DT=double -DDOUBLE",
        [](uint32_t R) { return double(int64_t(R) - (1 << 24)) / 16; },
        identity<cl_double>, identity<double>};
    TypeInfo<cl_half, float> Half{
        "half", "-DT=half -DHALF",
        [](uint32_t R) { return float(int(R % 7) - 3); }, halfBits, halfValue};
    Body(Int);
    Body(UInt);
    Body(Long);
    Body(ULong);
    Body(Float);
    if (hasExtension("cl_khr_fp64"))
      Body(Double);
    if (hasExtension("cl_khr_fp16"))
      Body(Half);
  }
};

TEST_P(Collectives, DeviceQueryFollowsTheFeature) {
  size_t Size = 0;
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_OPENCL_C_FEATURES, 0,
                               nullptr, &Size));
  std::vector<cl_name_version> Features(Size / sizeof(cl_name_version));
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_OPENCL_C_FEATURES, Size,
                               Features.data(), nullptr));
  bool Listed = false;
  for (const cl_name_version &F : Features)
    Listed |= !strcmp(F.name, "__opencl_c_work_group_collective_functions");
  EXPECT_TRUE(Listed);

  // The macro is defined for OpenCL C 3.0 only.
  const char *Source = R"CLC(
kernel void macro(global int *Out) {
#ifdef __opencl_c_work_group_collective_functions
  Out[0] = __opencl_c_work_group_collective_functions;
#else
  Out[0] = 0;
#endif
}
)CLC";
  for (const char *Options : {"-cl-std=CL3.0", "-cl-std=CL1.2"}) {
    SCOPED_TRACE(Options);
    KernelRef K(makeKernel(Source, "macro", Options));
    ASSERT_NE(K.get(), nullptr);
    std::vector<cl_int> Out(1, -1);
    MemRef Buf(makeBufferFrom(Out));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
    size_t One = 1;
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &One, &One, 0,
                                        nullptr, nullptr));
    ASSERT_CL_OK(readInto(Buf, Out));
    EXPECT_EQ(Out[0], strcmp(Options, "-cl-std=CL3.0") ? 0 : 1);
  }
}

TEST_P(Collectives, EveryTypeAt1DLocalSizes) {
  forEachType([&](const auto &Ty) {
    KernelRef K(collectivesKernel(Ty));
    ASSERT_NE(K.get(), nullptr);
    size_t Max = largestGroup(K);
    for (size_t L : {size_t(1), size_t(7), size_t(64), size_t(256), Max}) {
      L = std::min(L, Max);
      size_t Global[3] = {3 * L, 1, 1}, Local[3] = {L, 1, 1};
      cl_uint Source[3] = {cl_uint(L / 2), 0, 0};
      check(Ty, K, 1, Global, Local, Source, cl_uint(L));
    }
  });
}

TEST_P(Collectives, EveryTypeAt2DAnd3DLocalSizes) {
  forEachType([&](const auto &Ty) {
    KernelRef K(collectivesKernel(Ty));
    ASSERT_NE(K.get(), nullptr);
    {
      size_t Global[3] = {16, 12, 1}, Local[3] = {8, 4, 1};
      cl_uint Source[3] = {5, 2, 0};
      check(Ty, K, 2, Global, Local, Source);
    }
    {
      size_t Global[3] = {8, 4, 6}, Local[3] = {4, 2, 3};
      cl_uint Source[3] = {1, 1, 2};
      check(Ty, K, 3, Global, Local, Source);
    }
  });
}

TEST_P(Collectives, NonUniformWorkGroups) {
  forEachType([&](const auto &Ty) {
    KernelRef K(collectivesKernel(Ty));
    ASSERT_NE(K.get(), nullptr);
    {
      size_t Global[3] = {1000, 1, 1}, Local[3] = {256, 1, 1};
      cl_uint Source[3] = {250, 0, 0};
      check(Ty, K, 1, Global, Local, Source);
    }
    {
      size_t Global[3] = {19, 6, 1}, Local[3] = {8, 4, 1};
      cl_uint Source[3] = {6, 3, 0};
      check(Ty, K, 2, Global, Local, Source);
    }
    {
      size_t Global[3] = {9, 3, 7}, Local[3] = {4, 2, 3};
      cl_uint Source[3] = {3, 1, 2};
      check(Ty, K, 3, Global, Local, Source);
    }
  });
}

TEST_P(Collectives, BroadcastFromEveryPosition) {
  TypeInfo<cl_long, int64_t> Long{
      "long", "-DT=long",
      [](uint32_t R) { return int64_t(R) * 65537 - (int64_t(1) << 40); },
      identity<cl_long>, identity<int64_t>};
  KernelRef K(collectivesKernel(Long));
  ASSERT_NE(K.get(), nullptr);
  struct Shape {
    cl_uint Dims;
    size_t Global[3], Local[3];
  };
  for (const Shape &S : {Shape{1, {26, 1, 1}, {13, 1, 1}},
                         Shape{2, {8, 6, 1}, {4, 3, 1}},
                         Shape{3, {4, 3, 4}, {2, 3, 2}}})
    for (cl_uint Z = 0; Z < S.Local[2]; ++Z)
      for (cl_uint Y = 0; Y < S.Local[1]; ++Y)
        for (cl_uint X = 0; X < S.Local[0]; ++X) {
          cl_uint Source[3] = {X, Y, Z};
          check(Long, K.get(), S.Dims, S.Global, S.Local, Source,
                X + 7 * Y + 31 * Z);
          if (HasFatalFailure())
            return;
        }
}

TEST_P(Collectives, InALoopWithMixedTypes) {
  KernelRef K(makeKernel(LoopSource, "in_loop", "-cl-std=CL3.0"));
  ASSERT_NE(K.get(), nullptr);
  for (size_t L : {size_t(1), size_t(7), size_t(64), largestGroup(K)}) {
    SCOPED_TRACE(testing::Message() << "local size " << L);
    const size_t N = 2 * L;
    const cl_int Trips = 5;
    std::vector<uint32_t> Random = pseudoRandomWords(N, 11);
    std::vector<cl_int> In(N);
    for (size_t I = 0; I < N; ++I)
      In[I] = cl_int(Random[I] % 201) - 100;
    MemRef InBuf(makeBufferFrom(In, CL_MEM_READ_ONLY));
    std::vector<cl_long> Out(N, -1);
    MemRef OutBuf(makeBufferFrom(Out));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_int), &Trips));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &L, 0,
                                        nullptr, nullptr));
    ASSERT_CL_OK(readInto(OutBuf, Out));
    for (size_t Group = 0; Group < N / L; ++Group)
      for (size_t Me = 0; Me < L; ++Me) {
        int64_t Acc = 0;
        for (int I = 0; I < Trips; ++I) {
          auto V = [&](size_t W) { return In[Group * L + W] * (I + 1); };
          int32_t Inclusive = 0, Max = std::numeric_limits<int32_t>::min();
          int64_t Exclusive = 0;
          double Min = INFINITY;
          for (size_t W = 0; W <= Me; ++W)
            Inclusive += V(W);
          for (size_t W = 0; W < Me; ++W) {
            // The kernel's (long)x << 20 as a product: shifting a negative
            // value left is undefined in C++17 (UBSan stopped here).
            Exclusive += int64_t(V(W)) * (int64_t(1) << 20);
            Min = std::min(Min, double(V(W)));
          }
          for (size_t W = 0; W < L; ++W)
            Max = std::max(Max, V(W) + I);
          Acc += Inclusive;
          Acc ^= V(size_t(I) % L);
          Acc += Exclusive;
          Acc += Max;
          // (long)INFINITY is undefined: only work-item 0 sees it.
          if (Me != 0)
            Acc += int64_t(Min);
        }
        if (Me == 0)
          continue;
        ASSERT_EQ(Out[Group * L + Me], Acc) << "work-item " << Me
                                            << " of group " << Group;
      }
  }
}

// Not a check of speed, a record of it: the time per 1024-item group of a
// reduction against that of a kernel with one barrier.
TEST_P(Collectives, ReduceCostPerGroup) {
  const char *Source = R"CLC(
kernel void reduce(global const float *In, global float *Out) {
  size_t G = get_global_id(0);
  Out[G] = work_group_reduce_add(In[G]);
}
kernel void with_barrier(global const float *In, global float *Out,
                         local float *Tmp) {
  size_t G = get_global_id(0), L = get_local_id(0);
  Tmp[L] = In[G];
  barrier(CLK_LOCAL_MEM_FENCE);
  Out[G] = Tmp[get_local_size(0) - 1 - L];
}
)CLC";
  KernelRef Reduce(makeKernel(Source, "reduce", "-cl-std=CL3.0"));
  ASSERT_NE(Reduce.get(), nullptr);
  cl_int Err = CL_SUCCESS;
  KernelRef Plain(clCreateKernel(Program, "with_barrier", &Err));
  ASSERT_CL_OK(Err);
  size_t L = std::min<size_t>(1024, std::min(largestGroup(Reduce),
                                             largestGroup(Plain)));
  const size_t Groups = 4096, N = Groups * L;
  std::vector<float> In(N, 1.0f);
  MemRef InBuf(makeBufferFrom(In, CL_MEM_READ_ONLY));
  MemRef OutBuf(makeBuffer(CL_MEM_READ_WRITE, N * sizeof(float)));
  for (cl_kernel K : {Reduce.get(), Plain.get()}) {
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf));
  }
  ASSERT_CL_OK(clSetKernelArg(Plain, 2, L * sizeof(float), nullptr));
  double Best[2] = {1e9, 1e9};
  for (int Rep = 0; Rep < 5; ++Rep)
    for (int Which = 0; Which < 2; ++Which) {
      cl_kernel K = Which ? Plain.get() : Reduce.get();
      auto Start = std::chrono::steady_clock::now();
      ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &L, 0,
                                          nullptr, nullptr));
      ASSERT_CL_OK(clFinish(Queue));
      double Seconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - Start)
                           .count();
      Best[Which] = std::min(Best[Which], Seconds);
    }
  std::vector<float> Out(N);
  ASSERT_CL_OK(readInto(OutBuf, Out));
  std::vector<float> Check(N);
  // The last run was the barrier kernel's; run the reduction once more.
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, Reduce, 1, nullptr, &N, &L, 0,
                                      nullptr, nullptr));
  ASSERT_CL_OK(readInto(OutBuf, Check));
  EXPECT_EQ(Check[0], float(L));
  EXPECT_EQ(Check[N - 1], float(L));
  printf("[ COST     ] %zu groups of %zu: reduce_add %.2f us per group, "
         "one barrier %.2f us per group\n",
         Groups, L, Best[0] * 1e6 / Groups, Best[1] * 1e6 / Groups);
}

} // namespace

WEFT_INSTANTIATE_DEVICE_TEST(Collectives);
