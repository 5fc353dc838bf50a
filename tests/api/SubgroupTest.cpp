//===- tests/api/SubgroupTest.cpp - sub-groups (cl_khr_subgroups) ---------===//
//
// OpenCL C 3.0's sub-group functions (__opencl_c_subgroups) and
// clGetKernelSubGroupInfo. Weft's sub-groups are consecutive runs of 128
// work-items of the local linear id, the last one possibly shorter
// (lib/kernel/subgroups.cl); the size is read from
// CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE (and must be 128 on Weft), and
// every reference here is computed sub-group by sub-group from it. Groups
// of at most 128 work-items are one sub-group; larger ones, up to the
// largest group, have several, with a shorter last one, in 1D, 2D and 3D,
// uniform and not. The collectives are compared for every type; the values
// make every sum exact, so the order of the additions cannot change it.
//
//===----------------------------------------------------------------------===//

#include "CollectiveResults.h"
#include "TestCommon.h"

#include <CL/cl_ext.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <tuple>
#include <type_traits>

using namespace weft_test;

namespace {

const char *WorkItemSource = R"CLC(
size_t linear_global_id(void) {
  return (get_global_id(2) * get_global_size(1) + get_global_id(1)) *
             get_global_size(0) + get_global_id(0);
}

kernel void work_item(global uint *Out) {
  global uint *O = Out + 6 * linear_global_id();
  O[0] = get_sub_group_size();
  O[1] = get_max_sub_group_size();
  O[2] = get_num_sub_groups();
  O[3] = get_enqueued_num_sub_groups();
  O[4] = get_sub_group_id();
  O[5] = get_sub_group_local_id();
}

// The sub-group reversed through local memory, with each barrier overload;
// each sub-group has a part of Tmp of its own.
kernel void reverse(global const int *In, global int *Out, local int *All) {
  size_t G = (get_global_id(1) * get_global_size(0)) + get_global_id(0);
  uint L = get_sub_group_local_id(), N = get_sub_group_size();
  local int *Tmp = All + get_sub_group_id() * get_max_sub_group_size();
  Tmp[L] = In[G];
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  int V = Tmp[N - 1 - L];
  sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);
  Tmp[L] = V * 3;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
  Out[G] = Tmp[(L + 1) % N];
}
)CLC";

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

size_t linear_group_id(void) {
  return (get_group_id(2) * get_num_groups(1) + get_group_id(1)) *
             get_num_groups(0) + get_group_id(0);
}

// Out: 10 results per work-item; Pred: all and any. The broadcast source
// moves with the group and the sub-group, wrapped into the sub-group's
// size.
kernel void collectives(global const T *In, global T *Out, global int *Pred,
                        uint Source) {
  size_t G = linear_global_id();
  T X = In[G];
  global T *O = Out + 10 * G;
  O[0] = sub_group_reduce_add(X);
  O[1] = sub_group_reduce_min(X);
  O[2] = sub_group_reduce_max(X);
  O[3] = sub_group_scan_exclusive_add(X);
  O[4] = sub_group_scan_exclusive_min(X);
  O[5] = sub_group_scan_exclusive_max(X);
  O[6] = sub_group_scan_inclusive_add(X);
  O[7] = sub_group_scan_inclusive_min(X);
  O[8] = sub_group_scan_inclusive_max(X);
  O[9] = sub_group_broadcast(
      X, (uint)((Source + 5 * linear_group_id() + 3 * get_sub_group_id()) %
                get_sub_group_size()));
  Pred[2 * G] = sub_group_all(X > (T)0);
  Pred[2 * G + 1] = sub_group_any(X > (T)0);
}
)CLC";

uint16_t halfBits(float F) {
  uint16_t Sign = std::signbit(F) ? 0x8000 : 0;
  F = std::fabs(F);
  if (F == 0)
    return Sign;
  if (std::isinf(F))
    return Sign | 0x7c00;
  int Exp = 0;
  float M = std::frexp(F, &Exp);
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

template <typename DevT, typename HostT> struct TypeInfo {
  using Dev = DevT;
  using Host = HostT;
  const char *Name;
  const char *Options;
  std::function<Host(uint32_t Random)> Value;
  std::function<Dev(Host)> ToDev;
  std::function<Host(Dev)> ToHost;
};

template <typename T> T same(T V) { return V; }

/// An NDRange: dimensions, global and local size (1 beyond Dims).
struct Shape {
  cl_uint Dims;
  size_t Global[3], Local[3];
};

/// The global linear ids of each group's work-items in local linear id
/// order, groups in linear group id order.
std::vector<std::vector<size_t>> groupsOf(const Shape &S) {
  size_t Groups[3];
  for (int D = 0; D < 3; ++D)
    Groups[D] = (S.Global[D] + S.Local[D] - 1) / S.Local[D];
  std::vector<std::vector<size_t>> Result;
  for (size_t Gz = 0; Gz < Groups[2]; ++Gz)
    for (size_t Gy = 0; Gy < Groups[1]; ++Gy)
      for (size_t Gx = 0; Gx < Groups[0]; ++Gx) {
        size_t G[3] = {Gx, Gy, Gz}, Size[3];
        for (int D = 0; D < 3; ++D)
          Size[D] = std::min(S.Local[D], S.Global[D] - G[D] * S.Local[D]);
        std::vector<size_t> Items;
        for (size_t Z = 0; Z < Size[2]; ++Z)
          for (size_t Y = 0; Y < Size[1]; ++Y)
            for (size_t X = 0; X < Size[0]; ++X) {
              size_t Id[3] = {Gx * S.Local[0] + X, Gy * S.Local[1] + Y,
                              Gz * S.Local[2] + Z};
              Items.push_back((Id[2] * S.Global[1] + Id[1]) * S.Global[0] +
                              Id[0]);
            }
        Result.push_back(Items);
      }
  return Result;
}

/// Group's work-items (groupsOf's order) cut into sub-groups of Size.
std::vector<std::vector<size_t>> subGroupsOf(const std::vector<size_t> &Group,
                                             size_t Size) {
  std::vector<std::vector<size_t>> Result;
  for (size_t First = 0; First < Group.size(); First += Size)
    Result.emplace_back(Group.begin() + First,
                        Group.begin() + std::min(First + Size, Group.size()));
  return Result;
}

/// 1D, 2D and 3D shapes, uniform and not, of one sub-group (up to 128
/// work-items) and of several, the 1D ones up to Max.
std::vector<Shape> shapes(size_t Max) {
  std::vector<Shape> Result;
  for (size_t L : {size_t(1), size_t(7), size_t(64), size_t(128), size_t(129),
                   size_t(200), Max}) {
    L = std::min(L, Max);
    Result.push_back(Shape{1, {3 * L, 1, 1}, {L, 1, 1}});
  }
  Result.push_back(Shape{1,
                         {std::min<size_t>(Max, 256) * 3 + 5, 1, 1},
                         {std::min<size_t>(Max, 256), 1, 1}});
  Result.push_back(Shape{2, {16, 12, 1}, {8, 4, 1}});
  Result.push_back(Shape{2, {19, 6, 1}, {8, 4, 1}});
  Result.push_back(Shape{3, {8, 4, 6}, {4, 2, 3}});
  Result.push_back(Shape{3, {9, 3, 7}, {4, 2, 3}});
  if (Max >= 200) {
    // 200 work-items: sub-groups of 128 and 72; the non-uniform ones
    // also have groups of 100 (one sub-group) and 160 (128 and 32).
    Result.push_back(Shape{2, {40, 20, 1}, {20, 10, 1}});
    Result.push_back(Shape{2, {36, 25, 1}, {20, 10, 1}});
    Result.push_back(Shape{3, {16, 10, 10}, {8, 5, 5}});
    Result.push_back(Shape{3, {13, 10, 8}, {8, 5, 5}});
  }
  return Result;
}

std::ostream &operator<<(std::ostream &OS, const Shape &S) {
  return OS << S.Dims << "D global " << S.Global[0] << "x" << S.Global[1] << "x"
            << S.Global[2] << " local " << S.Local[0] << "x" << S.Local[1]
            << "x" << S.Local[2];
}

class Subgroups : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFailure())
      return;
    if (deviceInfo<cl_uint>(Device, CL_DEVICE_MAX_NUM_SUB_GROUPS) == 0) {
      EXPECT_FALSE(testingWeft()) << "Weft devices support sub-groups";
      GTEST_SKIP() << "device without sub-groups";
    }
  }

  bool hasExtension(const char *Name) {
    return splitWords(deviceString(Device, CL_DEVICE_EXTENSIONS)).count(Name);
  }

  /// The sub-group size of a large group, which Weft's groups are cut in.
  size_t subGroupSize(cl_kernel K) {
    size_t Local = largestGroup(K), Size = 0;
    EXPECT_CL_OK(clGetKernelSubGroupInfo(
        K, Device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(Local),
        &Local, sizeof(Size), &Size, nullptr));
    if (testingWeft())
      EXPECT_EQ(Size, std::min<size_t>(128, Local));
    return Size;
  }

  size_t largestGroup(cl_kernel K) {
    return std::min(
        deviceInfo<size_t>(Device, CL_DEVICE_MAX_WORK_GROUP_SIZE),
        kernelWorkGroupInfo<size_t>(K, Device, CL_KERNEL_WORK_GROUP_SIZE));
  }

  void enqueue(cl_kernel K, const Shape &S) {
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, S.Dims, nullptr, S.Global,
                                        S.Local, 0, nullptr, nullptr));
  }

  /// Runs the collectives kernel of type Ty over S and checks every
  /// result of every work-item.
  template <typename Info>
  void check(const Info &Ty, cl_kernel K, const Shape &S, cl_uint Source,
             uint32_t Seed) {
    using Dev = typename Info::Dev;
    using Host = typename Info::Host;
    SCOPED_TRACE(testing::Message()
                 << Ty.Name << " " << S << " source " << Source);
    size_t Total = S.Global[0] * S.Global[1] * S.Global[2];
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
    ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(cl_uint), &Source));
    ASSERT_NO_FATAL_FAILURE(enqueue(K, S));
    ASSERT_CL_OK(readInto(OutBuf, Out));
    ASSERT_CL_OK(readInto(PredBuf, Pred));

    std::vector<std::vector<size_t>> Members = groupsOf(S);
    const size_t SubGroup = subGroupSize(K);
    for (size_t Group = 0; Group < Members.size(); ++Group) {
      std::vector<std::vector<size_t>> SubGroups =
          subGroupsOf(Members[Group], SubGroup);
      for (size_t Id = 0; Id < SubGroups.size(); ++Id) {
        const std::vector<size_t> &Items = SubGroups[Id];
        size_t From = (Source + 5 * Group + 3 * Id) % Items.size();
        SCOPED_TRACE(testing::Message()
                     << "group " << Group << ", sub-group " << Id);
        checkCollectiveResults(Ty, In, Out, Pred, Items, From);
        if (HasFatalFailure())
          return;
      }
    }
  }

  /// Runs Body(Info) for every type the device has sub-group functions of.
  template <typename F> void forEachType(F Body) {
    TypeInfo<cl_int, int32_t> Int{
        "int", "-DT=int", [](uint32_t R) { return int32_t(R % 2001) - 1000; },
        same<cl_int>, same<int32_t>};
    TypeInfo<cl_uint, uint32_t> UInt{"uint", "-DT=uint",
                                     [](uint32_t R) { return R * 2654435761u; },
                                     same<cl_uint>, same<uint32_t>};
    TypeInfo<cl_long, int64_t> Long{
        "long", "-DT=long",
        [](uint32_t R) { return (int64_t(R) - (1 << 24)) * 4099; },
        same<cl_long>, same<int64_t>};
    TypeInfo<cl_ulong, uint64_t> ULong{
        "ulong", "-DT=ulong",
        [](uint32_t R) { return uint64_t(R) * 0x9e3779b97f4a7c15ull; },
        same<cl_ulong>, same<uint64_t>};
    TypeInfo<cl_float, float> Float{
        "float", "-DT=float",
        [](uint32_t R) { return float(int(R % 2001) - 1000) / 8; },
        same<cl_float>, same<float>};
    TypeInfo<cl_double, double> Double{
        "double", "-DT=double -DDOUBLE",
        [](uint32_t R) { return double(int64_t(R) - (1 << 24)) / 16; },
        same<cl_double>, same<double>};
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

  /// clGetKernelSubGroupInfo of a size_t for a local size of Dims.
  size_t subGroupInfo(cl_kernel K, cl_kernel_sub_group_info Param,
                      std::vector<size_t> Input) {
    size_t Value = 12345, Size = 0;
    EXPECT_CL_OK(
        clGetKernelSubGroupInfo(K, Device, Param, Input.size() * sizeof(size_t),
                                Input.data(), sizeof(Value), &Value, &Size));
    EXPECT_EQ(Size, sizeof(size_t));
    return Value;
  }
};

TEST_P(Subgroups, DeviceQueries) {
  // Sub-groups of 128 in the largest group.
  size_t Largest = deviceInfo<size_t>(Device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  EXPECT_EQ(deviceInfo<cl_uint>(Device, CL_DEVICE_MAX_NUM_SUB_GROUPS),
            (Largest + 127) / 128);
  // A sub-group spinning on another's store would wait for ever, so no
  // independent forward progress, and no cl_khr_subgroups, which requires
  // it (the OpenCL 3.0 API specification, clGetDeviceInfo).
  EXPECT_EQ(deviceInfo<cl_bool>(
                Device, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS),
            cl_bool(CL_FALSE));
  EXPECT_FALSE(hasExtension("cl_khr_subgroups"));
  auto nameVersions = [&](cl_device_info Param) {
    size_t Size = 0;
    EXPECT_CL_OK(clGetDeviceInfo(Device, Param, 0, nullptr, &Size));
    std::vector<cl_name_version> List(Size / sizeof(cl_name_version));
    EXPECT_CL_OK(clGetDeviceInfo(Device, Param, Size, List.data(), nullptr));
    return List;
  };
  auto listed = [](const std::vector<cl_name_version> &List, const char *Name,
                   cl_version Version) {
    for (const cl_name_version &E : List)
      if (!strcmp(E.name, Name))
        return E.version == Version;
    return false;
  };
  EXPECT_TRUE(listed(nameVersions(CL_DEVICE_OPENCL_C_FEATURES),
                     "__opencl_c_subgroups", CL_MAKE_VERSION(3, 0, 0)));
  for (const cl_name_version &E :
       nameVersions(CL_DEVICE_EXTENSIONS_WITH_VERSION))
    EXPECT_STRNE(E.name, "cl_khr_subgroups");
}

// The feature macro exists in OpenCL C 3.0 only; the extension's macro,
// the extension not claimed, in none.
TEST_P(Subgroups, MacrosInOpenCLC30Only) {
  const char *Source = R"CLC(
kernel void macros(global int *Out) {
#ifdef __opencl_c_subgroups
  Out[0] = __opencl_c_subgroups;
#else
  Out[0] = 0;
#endif
#ifdef cl_khr_subgroups
  Out[1] = cl_khr_subgroups;
#else
  Out[1] = 0;
#endif
}
)CLC";
  for (const char *Options : {"-cl-std=CL3.0", "-cl-std=CL1.2"}) {
    SCOPED_TRACE(Options);
    KernelRef K(makeKernel(Source, "macros", Options));
    ASSERT_NE(K.get(), nullptr);
    std::vector<cl_int> Out(2, -1);
    MemRef Buf(makeBufferFrom(Out));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
    size_t One = 1;
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &One, &One, 0,
                                        nullptr, nullptr));
    ASSERT_CL_OK(readInto(Buf, Out));
    int Expected = strcmp(Options, "-cl-std=CL3.0") ? 0 : 1;
    EXPECT_EQ(Out[0], Expected) << "__opencl_c_subgroups";
    EXPECT_EQ(Out[1], 0) << "cl_khr_subgroups";
  }
}

// Runs of the sub-group size in local linear id order; the last one of a
// group (the group's real size) may be shorter, the enqueued counts and
// maximum follow the enqueued local size.
TEST_P(Subgroups, WorkItemFunctions) {
  KernelRef K(makeKernel(WorkItemSource, "work_item", "-cl-std=CL3.0"));
  ASSERT_NE(K.get(), nullptr);
  const size_t SubGroup = subGroupSize(K);
  auto count = [&](size_t WorkItems) {
    return (WorkItems + SubGroup - 1) / SubGroup;
  };
  for (const Shape &S : shapes(largestGroup(K))) {
    SCOPED_TRACE(testing::Message() << S);
    size_t Total = S.Global[0] * S.Global[1] * S.Global[2];
    std::vector<cl_uint> Out(6 * Total, 0xdeadbeef);
    MemRef Buf(makeBufferFrom(Out));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
    ASSERT_NO_FATAL_FAILURE(enqueue(K, S));
    ASSERT_CL_OK(readInto(Buf, Out));
    size_t Enqueued = S.Local[0] * S.Local[1] * S.Local[2];
    std::vector<std::vector<size_t>> Members = groupsOf(S);
    for (size_t Group = 0; Group < Members.size(); ++Group) {
      size_t Real = Members[Group].size();
      for (size_t L = 0; L < Real; ++L) {
        SCOPED_TRACE(testing::Message()
                     << "group " << Group << ", local linear id " << L);
        const cl_uint *O = &Out[6 * Members[Group][L]];
        size_t Id = L / SubGroup;
        ASSERT_EQ(O[0], std::min(SubGroup, Real - Id * SubGroup))
            << "get_sub_group_size";
        ASSERT_EQ(O[1], std::min(SubGroup, Enqueued))
            << "get_max_sub_group_size";
        ASSERT_EQ(O[2], count(Real)) << "get_num_sub_groups";
        ASSERT_EQ(O[3], count(Enqueued)) << "get_enqueued_num_sub_groups";
        ASSERT_EQ(O[4], Id) << "get_sub_group_id";
        ASSERT_EQ(O[5], L % SubGroup) << "get_sub_group_local_id";
      }
    }
  }
}

TEST_P(Subgroups, BarrierOverloads) {
  KernelRef K(makeKernel(WorkItemSource, "reverse", "-cl-std=CL3.0"));
  ASSERT_NE(K.get(), nullptr);
  const size_t SubGroup = subGroupSize(K);
  std::vector<Shape> Shapes = {Shape{1, {64, 1, 1}, {16, 1, 1}},
                               Shape{1, {70, 1, 1}, {32, 1, 1}},
                               Shape{2, {12, 6, 1}, {4, 3, 1}}};
  if (largestGroup(K) >= 300) {
    Shapes.push_back(Shape{1, {600, 1, 1}, {300, 1, 1}});
    Shapes.push_back(Shape{1, {650, 1, 1}, {300, 1, 1}});
    Shapes.push_back(Shape{2, {40, 20, 1}, {20, 10, 1}});
  }
  for (const Shape &S : Shapes) {
    SCOPED_TRACE(testing::Message() << S);
    size_t Total = S.Global[0] * S.Global[1];
    std::vector<cl_int> In(Total), Out(Total, -1);
    for (size_t I = 0; I < Total; ++I)
      In[I] = cl_int(I * 7 + 1);
    MemRef InBuf(makeBufferFrom(In, CL_MEM_READ_ONLY));
    MemRef OutBuf(makeBufferFrom(Out));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 2, S.Local[0] * S.Local[1] * sizeof(cl_int),
                                nullptr));
    ASSERT_NO_FATAL_FAILURE(enqueue(K, S));
    ASSERT_CL_OK(readInto(OutBuf, Out));
    for (const std::vector<size_t> &Group : groupsOf(S))
      for (const std::vector<size_t> &Items : subGroupsOf(Group, SubGroup)) {
        size_t N = Items.size();
        for (size_t L = 0; L < N; ++L) {
          // Work-item L's result is work-item L+1's value: In at N-2-L.
          size_t Next = (L + 1) % N;
          ASSERT_EQ(Out[Items[L]], 3 * In[Items[N - 1 - Next]])
              << "sub-group local id " << L << " of a sub-group of " << N;
        }
      }
  }
}

TEST_P(Subgroups, CollectivesOfEveryType) {
  forEachType([&](const auto &Ty) {
    KernelRef K(makeKernel(CollectiveSource, "collectives",
                           std::string("-cl-std=CL3.0 ") + Ty.Options));
    ASSERT_NE(K.get(), nullptr);
    uint32_t Seed = 1;
    for (const Shape &S : shapes(largestGroup(K))) {
      check(Ty, K.get(), S, cl_uint(S.Local[0] / 2 + Seed), Seed);
      ++Seed;
      if (::testing::Test::HasFatalFailure())
        return;
    }
  });
}

TEST_P(Subgroups, BroadcastFromEveryLocalId) {
  TypeInfo<cl_long, int64_t> Long{
      "long", "-DT=long",
      [](uint32_t R) { return int64_t(R) * 65537 - (int64_t(1) << 40); },
      same<cl_long>, same<int64_t>};
  KernelRef K(makeKernel(CollectiveSource, "collectives",
                         std::string("-cl-std=CL3.0 ") + Long.Options));
  ASSERT_NE(K.get(), nullptr);
  std::vector<Shape> Shapes = {Shape{1, {26, 1, 1}, {13, 1, 1}},
                               Shape{2, {8, 6, 1}, {4, 3, 1}},
                               Shape{3, {4, 3, 4}, {2, 3, 2}}};
  // Sub-groups of 128 and 72: every source of the short one, and a
  // spread of the long one's.
  if (largestGroup(K) >= 200)
    Shapes.push_back(Shape{1, {400, 1, 1}, {200, 1, 1}});
  for (const Shape &S : Shapes) {
    size_t N = S.Local[0] * S.Local[1] * S.Local[2];
    for (cl_uint Source = 0;
         Source<std::min<size_t>(N, 128); Source += N> 128 ? 5 : 1) {
      check(Long, K.get(), S, Source, Source + 3);
      if (HasFatalFailure())
        return;
    }
  }
}

TEST_P(Subgroups, KernelQueries) {
  KernelRef K(makeKernel(WorkItemSource, "work_item", "-cl-std=CL3.0"));
  ASSERT_NE(K.get(), nullptr);
  const size_t SubGroup = subGroupSize(K);
  size_t Largest =
      kernelWorkGroupInfo<size_t>(K, Device, CL_KERNEL_WORK_GROUP_SIZE);
  for (std::vector<size_t> Local : {std::vector<size_t>{1},
                                    {64},
                                    {7, 3},
                                    {4, 2, 3},
                                    {128},
                                    {129},
                                    {20, 10},
                                    {8, 5, 5},
                                    {16, 16, 4},
                                    {4096}}) {
    size_t Product = 1;
    for (size_t L : Local)
      Product *= L;
    SCOPED_TRACE(testing::Message() << Product << " work-items");
    EXPECT_EQ(subGroupInfo(K, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, Local),
              std::min(Product, SubGroup));
    EXPECT_EQ(subGroupInfo(K, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, Local),
              (Product + SubGroup - 1) / SubGroup);
  }
  EXPECT_EQ(subGroupInfo(K, CL_KERNEL_MAX_NUM_SUB_GROUPS, {}),
            (Largest + SubGroup - 1) / SubGroup);
  EXPECT_EQ(subGroupInfo(K, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, {}), 0u);

  // A local size for 1, 2 and 5 sub-groups, in 1, 2 and 3 dimensions,
  // that the kernel runs with that many sub-groups per group; a count no
  // group of the kernel can have: zeros.
  size_t Impossible = (Largest + SubGroup - 1) / SubGroup + 1;
  for (size_t Dims = 1; Dims <= 3; ++Dims) {
    SCOPED_TRACE(testing::Message() << Dims << " dimensions");
    for (size_t Count : {size_t(1), size_t(2), size_t(5), Impossible}) {
      SCOPED_TRACE(testing::Message() << Count << " sub-groups");
      size_t Local[3] = {99, 99, 99}, Size = 0;
      ASSERT_CL_OK(clGetKernelSubGroupInfo(
          K, Device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof(Count),
          &Count, Dims * sizeof(size_t), Local, &Size));
      EXPECT_EQ(Size, Dims * sizeof(size_t));
      for (size_t D = Dims; D < 3; ++D)
        EXPECT_EQ(Local[D], 99u) << "written beyond param_value_size";
      if (Count == Impossible || (Count - 1) * SubGroup >= Largest) {
        for (size_t D = 0; D < Dims; ++D)
          EXPECT_EQ(Local[D], 0u);
        continue;
      }
      EXPECT_GT(Local[0], (Count - 1) * SubGroup);
      EXPECT_LE(Local[0], Count * SubGroup);
      EXPECT_LE(Local[0], Largest);
      for (size_t D = 1; D < Dims; ++D)
        EXPECT_EQ(Local[D], 1u);
      Shape S{cl_uint(Dims), {Local[0], 1, 1}, {Local[0], 1, 1}};
      std::vector<cl_uint> Out(6 * Local[0], 0xdeadbeef);
      MemRef Buf(makeBufferFrom(Out));
      ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
      ASSERT_NO_FATAL_FAILURE(enqueue(K, S));
      ASSERT_CL_OK(readInto(Buf, Out));
      EXPECT_EQ(Out[2], Count) << "get_num_sub_groups";
      EXPECT_EQ(Out[6 * (Local[0] - 1) + 2], Count) << "get_num_sub_groups";
    }
  }

  // With param_value NULL the size follows param_value_size.
  size_t Count = 1, Size = 0;
  ASSERT_CL_OK(clGetKernelSubGroupInfo(
      K, Device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof(Count),
      &Count, 2 * sizeof(size_t), nullptr, &Size));
  EXPECT_EQ(Size, 2 * sizeof(size_t));

  // A required work-group size is the local size for its own count of
  // sub-groups, and for no other; the kernel's maximum count is its.
  struct Required {
    size_t Local[3], Count;
  };
  for (const Required &R : {Required{{8, 2, 1}, 1}, Required{{20, 10, 1}, 2},
                            Required{{8, 8, 5}, 3}}) {
    std::string Source =
        "kernel __attribute__((reqd_work_group_size(" +
        std::to_string(R.Local[0]) + ", " + std::to_string(R.Local[1]) + ", " +
        std::to_string(R.Local[2]) +
        "))) void reqd(global int *Out) { Out[get_global_id(0)] = "
        "get_sub_group_size(); }";
    SCOPED_TRACE(Source);
    KernelRef Reqd(makeKernel(Source.c_str(), "reqd", "-cl-std=CL3.0"));
    ASSERT_NE(Reqd.get(), nullptr);
    EXPECT_EQ(subGroupInfo(Reqd, CL_KERNEL_MAX_NUM_SUB_GROUPS, {}), R.Count);
    for (size_t C : {R.Count, R.Count + 1}) {
      size_t Local[3] = {7, 7, 7};
      ASSERT_CL_OK(clGetKernelSubGroupInfo(
          Reqd, Device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof(C), &C,
          sizeof(Local), Local, nullptr));
      for (size_t D = 0; D < 3; ++D)
        EXPECT_EQ(Local[D], C == R.Count ? R.Local[D] : 0u)
            << "dimension " << D << ", " << C << " sub-groups";
    }
  }
}

// The specification promises uniform control flow only within a
// sub-group: each sub-group here takes its own path to its own
// collectives and barriers, and a work-group barrier and collective sit
// between them. Under a work-group barrier in place of the sub-group ones
// the groups would wait for work-items that never come. The first
// collective, which the whole group reaches, may have one (the compiler
// widens it, WidenSubGroupBarriers.cpp); the kernel has both kinds.
const char *DivergentSource = R"CLC(
kernel void divergent(global const int *In, global int *Out, local int *Tmp) {
  size_t G = get_global_id(0);
  uint Id = get_sub_group_id(), L = get_sub_group_local_id();
  uint N = get_sub_group_size();
  int X = In[G];
  int U = sub_group_reduce_min(X);
  int A = -1, B = -1;
  if (Id == 0) {
    A = sub_group_reduce_add(X);
  } else if (Id % 2 == 1) {
    A = sub_group_scan_exclusive_max(X);
    B = sub_group_broadcast(X, N - 1);
  } else {
    local int *T = Tmp + Id * get_max_sub_group_size();
    T[L] = X;
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    A = T[N - 1 - L];
    B = sub_group_any(X == 7) + 2 * sub_group_all(X >= 0);
  }
  int W = work_group_reduce_max(X);
  // Only the last sub-group, whose size differs from the others'.
  int C = -1;
  if (Id == get_num_sub_groups() - 1)
    C = sub_group_scan_inclusive_add(X + W);
  Out[5 * G] = A;
  Out[5 * G + 1] = B;
  Out[5 * G + 2] = W;
  Out[5 * G + 3] = C;
  Out[5 * G + 4] = U;
}
)CLC";

TEST_P(Subgroups, SubGroupDependentControlFlow) {
  KernelRef K(makeKernel(DivergentSource, "divergent", "-cl-std=CL3.0"));
  ASSERT_NE(K.get(), nullptr);
  const size_t SubGroup = subGroupSize(K);
  size_t Largest = largestGroup(K);
  for (size_t Local : {size_t(100), size_t(300), size_t(520), Largest}) {
    Local = std::min(Local, Largest);
    Shape S{1, {2 * Local + Local / 3, 1, 1}, {Local, 1, 1}};
    SCOPED_TRACE(testing::Message() << S);
    size_t Total = S.Global[0];
    std::vector<uint32_t> Random = pseudoRandomWords(Total, 41);
    std::vector<cl_int> In(Total), Out(5 * Total, -9);
    for (size_t I = 0; I < Total; ++I)
      In[I] = cl_int(Random[I] % 21);
    MemRef InBuf(makeBufferFrom(In, CL_MEM_READ_ONLY));
    MemRef OutBuf(makeBufferFrom(Out));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 2, Local * sizeof(cl_int), nullptr));
    ASSERT_NO_FATAL_FAILURE(enqueue(K, S));
    ASSERT_CL_OK(readInto(OutBuf, Out));
    for (const std::vector<size_t> &Group : groupsOf(S)) {
      int W = In[Group[0]];
      for (size_t G : Group)
        W = std::max(W, In[G]);
      std::vector<std::vector<size_t>> SubGroups = subGroupsOf(Group, SubGroup);
      for (size_t Id = 0; Id < SubGroups.size(); ++Id) {
        const std::vector<size_t> &Items = SubGroups[Id];
        size_t N = Items.size();
        int Sum = 0, Any = 0, All = 1, Max = INT_MIN, Scan = 0, Min = INT_MAX;
        for (size_t G : Items) {
          Sum += In[G];
          Min = std::min(Min, In[G]);
          Any |= In[G] == 7;
          All &= In[G] >= 0;
        }
        for (size_t L = 0; L < N; ++L) {
          SCOPED_TRACE(testing::Message()
                       << "sub-group " << Id << " of " << SubGroups.size()
                       << ", local id " << L);
          const cl_int *O = &Out[5 * Items[L]];
          ASSERT_EQ(O[4], Min) << "reduce_min, reached by the whole group";
          if (Id == 0) {
            ASSERT_EQ(O[0], Sum) << "reduce_add";
            ASSERT_EQ(O[1], -1);
          } else if (Id % 2 == 1) {
            ASSERT_EQ(O[0], Max) << "scan_exclusive_max";
            ASSERT_EQ(O[1], In[Items[N - 1]]) << "broadcast";
          } else {
            ASSERT_EQ(O[0], In[Items[N - 1 - L]]) << "through local memory";
            ASSERT_EQ(O[1], Any + 2 * All) << "any and all";
          }
          Max = std::max(Max, In[Items[L]]);
          ASSERT_EQ(O[2], W) << "work_group_reduce_max";
          Scan += In[Items[L]] + W;
          ASSERT_EQ(O[3], Id + 1 == SubGroups.size() ? Scan : -1)
              << "scan_inclusive_add";
        }
      }
    }
  }
}

// cl_khr_subgroup_shuffle and cl_khr_subgroup_shuffle_relative against
// host references, per sub-group; indices outside the sub-group are
// undefined and not checked. The odd sub-groups shuffle once more, under a
// condition the other sub-groups do not take.
const char *ShuffleSource = R"CLC(
#ifdef HALF
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif
#ifdef DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
kernel void shuffles(global const T *In, global T *Out) {
  size_t G = get_global_id(1) * get_global_size(0) + get_global_id(0);
  uint L = get_sub_group_local_id(), N = get_sub_group_size();
  T X = In[G];
  global T *O = Out + 5 * G;
  O[0] = sub_group_shuffle(X, (L * 7 + 3) % N);
  O[1] = sub_group_shuffle_xor(X, 5);
  O[2] = sub_group_shuffle_up(X, 3);
  O[3] = sub_group_shuffle_down(X, 2);
  if (get_sub_group_id() % 2 == 1)
    O[4] = sub_group_shuffle(X, N - 1 - L);
}
)CLC";

TEST_P(Subgroups, Shuffles) {
  for (const char *Ext :
       {"cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative"})
    if (!hasExtension(Ext)) {
      EXPECT_FALSE(testingWeft()) << Ext;
      GTEST_SKIP() << Ext;
    }
  forEachType([&](const auto &Ty) {
    using Dev = typename std::decay_t<decltype(Ty)>::Dev;
    KernelRef K(makeKernel(ShuffleSource, "shuffles",
                           std::string("-cl-std=CL3.0 ") + Ty.Options));
    ASSERT_NE(K.get(), nullptr);
    const size_t SubGroup = subGroupSize(K);
    std::vector<Shape> Shapes = {Shape{1, {64, 1, 1}, {16, 1, 1}},
                                 Shape{2, {12, 6, 1}, {4, 3, 1}}};
    if (largestGroup(K) >= 300) {
      Shapes.push_back(Shape{1, {600, 1, 1}, {200, 1, 1}});
      Shapes.push_back(Shape{1, {700, 1, 1}, {300, 1, 1}});
      Shapes.push_back(Shape{2, {40, 25, 1}, {20, 10, 1}});
    }
    for (const Shape &S : Shapes) {
      SCOPED_TRACE(testing::Message() << Ty.Name << " " << S);
      size_t Total = S.Global[0] * S.Global[1];
      std::vector<uint32_t> Random = pseudoRandomWords(Total, 17);
      std::vector<Dev> In(Total), Out(5 * Total);
      for (size_t I = 0; I < Total; ++I)
        In[I] = Ty.ToDev(Ty.Value(Random[I]));
      const Dev Marker = Ty.ToDev(Ty.Value(0x5a5a5a5a));
      std::fill(Out.begin(), Out.end(), Marker);
      MemRef InBuf(makeBufferFrom(In, CL_MEM_READ_ONLY));
      MemRef OutBuf(makeBufferFrom(Out));
      ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf));
      ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf));
      ASSERT_NO_FATAL_FAILURE(enqueue(K, S));
      ASSERT_CL_OK(readInto(OutBuf, Out));
      auto same = [&](Dev A, Dev B) { return !memcmp(&A, &B, sizeof(Dev)); };
      for (const std::vector<size_t> &Group : groupsOf(S)) {
        std::vector<std::vector<size_t>> SubGroups =
            subGroupsOf(Group, SubGroup);
        for (size_t Id = 0; Id < SubGroups.size(); ++Id) {
          const std::vector<size_t> &Items = SubGroups[Id];
          size_t N = Items.size();
          for (size_t L = 0; L < N; ++L) {
            SCOPED_TRACE(testing::Message()
                         << "sub-group " << Id << ", local id " << L);
            const Dev *O = &Out[5 * Items[L]];
            ASSERT_TRUE(same(O[0], In[Items[(L * 7 + 3) % N]])) << "shuffle";
            if ((L ^ 5) < N)
              ASSERT_TRUE(same(O[1], In[Items[L ^ 5]])) << "shuffle_xor";
            if (L >= 3)
              ASSERT_TRUE(same(O[2], In[Items[L - 3]])) << "shuffle_up";
            if (L + 2 < N)
              ASSERT_TRUE(same(O[3], In[Items[L + 2]])) << "shuffle_down";
            ASSERT_TRUE(same(O[4], Id % 2 ? In[Items[N - 1 - L]] : Marker))
                << "shuffle under a sub-group condition";
          }
        }
      }
    }
  });
}

// cl_khr_subgroup_clustered_reduce against host references: clusters of
// consecutive sub-group local ids, the last one of a short sub-group cut
// short with it.
const char *ClusteredSource = R"CLC(
#ifdef HALF
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif
#ifdef DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
kernel void clustered(global const T *In, global T *Out, uint C) {
  size_t G = get_global_id(0);
  T X = In[G];
  Out[3 * G] = sub_group_clustered_reduce_add(X, C);
  Out[3 * G + 1] = sub_group_clustered_reduce_min(X, C);
  Out[3 * G + 2] = sub_group_clustered_reduce_max(X, C);
}

kernel void bits(global const uint *In, global uint *Out, uint C) {
  size_t G = get_global_id(0);
  uint X = In[G];
  Out[7 * G] = sub_group_clustered_reduce_mul(X, C);
  Out[7 * G + 1] = sub_group_clustered_reduce_and(X, C);
  Out[7 * G + 2] = sub_group_clustered_reduce_or(X, C);
  Out[7 * G + 3] = sub_group_clustered_reduce_xor(X, C);
  Out[7 * G + 4] = sub_group_clustered_reduce_logical_and((int)(X % 5), C);
  Out[7 * G + 5] = sub_group_clustered_reduce_logical_or((int)(X % 7 == 0), C);
  Out[7 * G + 6] = sub_group_clustered_reduce_logical_xor((int)(X % 3), C);
}
)CLC";

TEST_P(Subgroups, ClusteredReductions) {
  if (!hasExtension("cl_khr_subgroup_clustered_reduce")) {
    EXPECT_FALSE(testingWeft());
    GTEST_SKIP() << "cl_khr_subgroup_clustered_reduce";
  }
  auto sizes = [&](cl_kernel K) {
    std::vector<size_t> Locals = {8, 100};
    if (largestGroup(K) >= 300)
      Locals.push_back(300);
    return Locals;
  };
  forEachType([&](const auto &Ty) {
    using Dev = typename std::decay_t<decltype(Ty)>::Dev;
    using Host = typename std::decay_t<decltype(Ty)>::Host;
    KernelRef K(makeKernel(ClusteredSource, "clustered",
                           std::string("-cl-std=CL3.0 ") + Ty.Options));
    ASSERT_NE(K.get(), nullptr);
    const size_t SubGroup = subGroupSize(K);
    for (size_t Local : sizes(K))
      for (cl_uint C : {1u, 4u, 32u, 128u}) {
        Shape S{1, {2 * Local + Local / 2, 1, 1}, {Local, 1, 1}};
        SCOPED_TRACE(testing::Message()
                     << Ty.Name << " " << S << " clusters of " << C);
        size_t Total = S.Global[0];
        std::vector<uint32_t> Random = pseudoRandomWords(Total, C + 5);
        std::vector<Host> In(Total);
        std::vector<Dev> InDev(Total), Out(3 * Total);
        for (size_t I = 0; I < Total; ++I) {
          In[I] = Ty.Value(Random[I]);
          InDev[I] = Ty.ToDev(In[I]);
        }
        MemRef InBuf(makeBufferFrom(InDev, CL_MEM_READ_ONLY));
        MemRef OutBuf(makeBufferFrom(Out));
        ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf));
        ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf));
        ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_uint), &C));
        ASSERT_NO_FATAL_FAILURE(enqueue(K, S));
        ASSERT_CL_OK(readInto(OutBuf, Out));
        for (const std::vector<size_t> &Group : groupsOf(S))
          for (const std::vector<size_t> &Items : subGroupsOf(Group, SubGroup))
            for (size_t From = 0; From < Items.size(); From += C) {
              size_t End = std::min<size_t>(From + C, Items.size());
              Host Sum = 0, Min = In[Items[From]], Max = In[Items[From]];
              for (size_t L = From; L < End; ++L) {
                Sum = Host(Sum + In[Items[L]]);
                Min = std::min(Min, In[Items[L]]);
                Max = std::max(Max, In[Items[L]]);
              }
              for (size_t L = From; L < End; ++L) {
                SCOPED_TRACE(testing::Message() << "sub-group local id " << L);
                const Dev *O = &Out[3 * Items[L]];
                ASSERT_EQ(Ty.ToHost(O[0]), Sum) << "add";
                ASSERT_EQ(Ty.ToHost(O[1]), Min) << "min";
                ASSERT_EQ(Ty.ToHost(O[2]), Max) << "max";
              }
            }
      }
  });

  KernelRef K(makeKernel(ClusteredSource, "bits", "-cl-std=CL3.0 -DT=uint"));
  ASSERT_NE(K.get(), nullptr);
  const size_t SubGroup = subGroupSize(K);
  for (size_t Local : sizes(K))
    for (cl_uint C : {2u, 16u, 128u}) {
      Shape S{1, {2 * Local + 3, 1, 1}, {Local, 1, 1}};
      SCOPED_TRACE(testing::Message() << S << " clusters of " << C);
      size_t Total = S.Global[0];
      std::vector<cl_uint> In = pseudoRandomWords(Total, C);
      std::vector<cl_uint> Out(7 * Total);
      MemRef InBuf(makeBufferFrom(In, CL_MEM_READ_ONLY));
      MemRef OutBuf(makeBufferFrom(Out));
      ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf));
      ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf));
      ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_uint), &C));
      ASSERT_NO_FATAL_FAILURE(enqueue(K, S));
      ASSERT_CL_OK(readInto(OutBuf, Out));
      for (const std::vector<size_t> &Group : groupsOf(S))
        for (const std::vector<size_t> &Items : subGroupsOf(Group, SubGroup))
          for (size_t From = 0; From < Items.size(); From += C) {
            size_t End = std::min<size_t>(From + C, Items.size());
            cl_uint Mul = 1, And = ~0u, Or = 0, Xor = 0;
            bool LAnd = true, LOr = false, LXor = false;
            for (size_t L = From; L < End; ++L) {
              cl_uint X = In[Items[L]];
              Mul *= X;
              And &= X;
              Or |= X;
              Xor ^= X;
              LAnd = LAnd && X % 5;
              LOr = LOr || X % 7 == 0;
              LXor = LXor != (X % 3 != 0);
            }
            cl_uint Expected[7] = {Mul, And, Or, Xor, LAnd, LOr, LXor};
            for (size_t L = From; L < End; ++L)
              for (int I = 0; I < 7; ++I)
                ASSERT_EQ(Out[7 * Items[L] + I], Expected[I])
                    << "operation " << I << ", sub-group local id " << L;
          }
    }
}

// cl_khr_subgroup_extended_types: the collectives of char, uchar, short
// and ushort (checked like the others', wrapping sums and all), and the
// broadcast of vectors.
const char *VectorBroadcastSource = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void vectors(global const uint *In, global uint *Out, uint Source) {
  size_t G = get_global_id(0);
  uint X = In[G];
  uint From = Source % get_sub_group_size();
  global uint *O = Out + 12 * G;
  uchar16 C = sub_group_broadcast((uchar16)(X), From);
  O[0] = C.s0 + C.sf;
  short3 S = sub_group_broadcast((short3)((short)X, (short)(X >> 16), 7), From);
  O[1] = (ushort)S.x;
  O[2] = (ushort)S.y;
  O[3] = S.z;
  int4 I = sub_group_broadcast((int4)(X, X + 1, X + 2, X + 3), From);
  O[4] = I.x;
  O[5] = I.w;
  double2 D = sub_group_broadcast((double2)(X, -(double)X), From);
  O[6] = (uint)D.x;
  O[7] = (uint)(-D.y);
  ulong8 L = sub_group_broadcast((ulong8)((ulong)X << 32), From);
  O[8] = (uint)(L.s7 >> 32);
  half2 H = sub_group_broadcast((half2)((half)(X % 64), (half)1), From);
  O[9] = (uint)H.x;
  float16 F = sub_group_broadcast((float16)((float)(X % 1000)), From);
  O[10] = (uint)F.sa;
  O[11] = get_sub_group_local_id();
}
)CLC";

TEST_P(Subgroups, ExtendedTypes) {
  if (!hasExtension("cl_khr_subgroup_extended_types")) {
    EXPECT_FALSE(testingWeft());
    GTEST_SKIP() << "cl_khr_subgroup_extended_types";
  }
  TypeInfo<cl_char, int8_t> Char{
      "char", "-DT=char", [](uint32_t R) { return int8_t(int(R % 3) - 1); },
      same<cl_char>, same<int8_t>};
  TypeInfo<cl_uchar, uint8_t> UChar{"uchar", "-DT=uchar",
                                    [](uint32_t R) { return uint8_t(R % 5); },
                                    same<cl_uchar>, same<uint8_t>};
  TypeInfo<cl_short, int16_t> Short{
      "short", "-DT=short",
      [](uint32_t R) { return int16_t(int(R % 201) - 100); }, same<cl_short>,
      same<int16_t>};
  TypeInfo<cl_ushort, uint16_t> UShort{
      "ushort", "-DT=ushort", [](uint32_t R) { return uint16_t(R % 400); },
      same<cl_ushort>, same<uint16_t>};
  auto run = [&](const auto &Ty) {
    KernelRef K(makeKernel(CollectiveSource, "collectives",
                           std::string("-cl-std=CL3.0 ") + Ty.Options));
    ASSERT_NE(K.get(), nullptr);
    uint32_t Seed = 3;
    for (const Shape &S : shapes(largestGroup(K))) {
      check(Ty, K.get(), S, cl_uint(S.Local[0] / 3 + Seed), Seed);
      ++Seed;
      if (::testing::Test::HasFatalFailure())
        return;
    }
  };
  run(Char);
  run(UChar);
  run(Short);
  run(UShort);
  if (HasFatalFailure())
    return;

  KernelRef K(makeKernel(VectorBroadcastSource, "vectors", "-cl-std=CL3.0"));
  ASSERT_NE(K.get(), nullptr);
  const size_t SubGroup = subGroupSize(K);
  for (size_t Local : {size_t(24), size_t(200)}) {
    Local = std::min(Local, largestGroup(K));
    Shape S{1, {2 * Local + 5, 1, 1}, {Local, 1, 1}};
    SCOPED_TRACE(testing::Message() << S);
    size_t Total = S.Global[0];
    std::vector<cl_uint> In = pseudoRandomWords(Total, 77);
    std::vector<cl_uint> Out(12 * Total);
    cl_uint Source = 141;
    MemRef InBuf(makeBufferFrom(In, CL_MEM_READ_ONLY));
    MemRef OutBuf(makeBufferFrom(Out));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_uint), &Source));
    ASSERT_NO_FATAL_FAILURE(enqueue(K, S));
    ASSERT_CL_OK(readInto(OutBuf, Out));
    for (const std::vector<size_t> &Group : groupsOf(S))
      for (const std::vector<size_t> &Items : subGroupsOf(Group, SubGroup))
        for (size_t L = 0; L < Items.size(); ++L) {
          SCOPED_TRACE(testing::Message() << "sub-group local id " << L);
          cl_uint X = In[Items[Source % Items.size()]];
          const cl_uint *O = &Out[12 * Items[L]];
          cl_uint Expected[12] = {
              2u * uint8_t(X), uint16_t(X), X >> 16,   7, X, X + 3, X, X, X,
              X % 64,          X % 1000,    cl_uint(L)};
          for (int I = 0; I < 12; ++I)
            ASSERT_EQ(O[I], Expected[I]) << "value " << I;
        }
  }
}

// cl_khr_subgroup_non_uniform_vote, _ballot and _non_uniform_arithmetic
// under work-item-dependent control: the work-items whose value is not a
// multiple of 3 call each function together (their sub-group's active
// set), the others run a loop of as many trips as their value modulo 4,
// each trip a reduction over those still looping; after the branch, the
// whole sub-group is active again. (The loop comes first, with a call
// after it: in a plain reverse post-order the loop's exit would come before
// its body, and the work-items leaving the loop early would not wait there
// for the others.)
const char *NonUniformSource = R"CLC(
kernel void divided(global const int *In, global int *Out,
                    global uint4 *Ballot) {
  size_t G = get_global_id(1) * get_global_size(0) + get_global_id(0);
  int X = In[G];
  global int *O = Out + 13 * G;
  if (X % 3 == 0) {
    int Acc = 0;
    for (int I = 0; I < X % 4; ++I)
      Acc += sub_group_non_uniform_reduce_add(I + 1) * (I + 1);
    O[11] = Acc;
    O[0] = sub_group_non_uniform_reduce_add(1);
  } else {
    O[0] = sub_group_non_uniform_reduce_add(X);
    O[1] = sub_group_non_uniform_scan_inclusive_min(X);
    O[2] = sub_group_non_uniform_scan_exclusive_add(X);
    O[3] = sub_group_non_uniform_reduce_xor(X);
    O[4] = sub_group_non_uniform_reduce_logical_or(X > 15);
    O[5] = sub_group_elect();
    O[6] = sub_group_non_uniform_all(X > 2) +
           2 * sub_group_non_uniform_any(X > 18);
    O[7] = sub_group_non_uniform_all_equal(X / 100);
    O[8] = sub_group_broadcast_first(X);
    int4 W = sub_group_non_uniform_broadcast(
        (int4)(X, X + 1, 2 * X, -X),
        sub_group_ballot_find_msb(sub_group_ballot(1)));
    O[9] = W.s2;
    O[10] = W.s3 + W.s1 - W.s0;
    Ballot[G] = sub_group_ballot(X % 2);
  }
  O[12] = sub_group_non_uniform_reduce_add(1);
}

// The same functions where every work-item calls them, and the rotations
// of cl_khr_subgroup_rotate.
kernel void whole(global const int *In, global int *Out,
                  global uint4 *Ballot) {
  size_t G = get_global_id(1) * get_global_size(0) + get_global_id(0);
  int X = In[G];
  global int *O = Out + 10 * G;
  O[0] = sub_group_non_uniform_reduce_add(X);
  O[1] = sub_group_non_uniform_scan_inclusive_add(X);
  O[2] = sub_group_elect();
  O[3] = sub_group_broadcast_first(X);
  O[4] = sub_group_rotate(X, 5);
  O[5] = sub_group_clustered_rotate(X, -3, 8);
  O[6] = sub_group_non_uniform_reduce_xor(X);
  O[7] = (int)sub_group_non_uniform_scan_exclusive_mul((uint)X + 1u);
  O[8] = sub_group_non_uniform_reduce_logical_and(X);
  O[9] = 2 * sub_group_non_uniform_any(X == 20) +
         sub_group_non_uniform_all_equal(X / 100);
  Ballot[G] = sub_group_ballot(X % 2);
}
)CLC";

/// A ballot of the local ids L < Items.size() for which Take(L) holds.
template <typename F> std::array<cl_uint, 4> ballotOf(size_t Count, F Take) {
  std::array<cl_uint, 4> B = {0, 0, 0, 0};
  for (size_t L = 0; L < Count; ++L)
    if (Take(L))
      B[L / 32] |= 1u << (L % 32);
  return B;
}

TEST_P(Subgroups, NonUniformFunctions) {
  for (const char *Ext :
       {"cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_ballot",
        "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_rotate"})
    if (!hasExtension(Ext)) {
      EXPECT_FALSE(testingWeft()) << Ext;
      GTEST_SKIP() << Ext;
    }
  ProgramRef P(
      buildProgram(Context, Device, NonUniformSource, "-cl-std=CL3.0"));
  ASSERT_NE(P.get(), nullptr);
  cl_int Err = CL_SUCCESS;
  KernelRef Divided(clCreateKernel(P, "divided", &Err));
  ASSERT_CL_OK(Err);
  KernelRef Whole(clCreateKernel(P, "whole", &Err));
  ASSERT_CL_OK(Err);
  const size_t SubGroup = subGroupSize(Divided);
  size_t Largest = std::min(largestGroup(Divided), largestGroup(Whole));
  std::vector<Shape> Shapes = {Shape{1, {150, 1, 1}, {64, 1, 1}},
                               Shape{2, {12, 6, 1}, {4, 3, 1}}};
  if (Largest >= 300) {
    Shapes.push_back(Shape{1, {677, 1, 1}, {200, 1, 1}});
    Shapes.push_back(Shape{1, {600, 1, 1}, {300, 1, 1}});
    Shapes.push_back(Shape{2, {40, 25, 1}, {20, 10, 1}});
  }
  for (const Shape &S : Shapes) {
    SCOPED_TRACE(testing::Message() << S);
    size_t Total = S.Global[0] * S.Global[1];
    std::vector<uint32_t> Random = pseudoRandomWords(Total, 29);
    std::vector<cl_int> In(Total);
    for (size_t I = 0; I < Total; ++I)
      In[I] = cl_int(Random[I] % 21);
    MemRef InBuf(makeBufferFrom(In, CL_MEM_READ_ONLY));
    std::vector<cl_int> Out(13 * Total, -9), WholeOut(10 * Total, -9);
    std::vector<cl_uint> Ballot(4 * Total, 0xdead), WholeBallot(4 * Total);
    MemRef OutBuf(makeBufferFrom(Out)), WholeOutBuf(makeBufferFrom(WholeOut));
    MemRef BallotBuf(makeBufferFrom(Ballot)),
        WholeBallotBuf(makeBufferFrom(WholeBallot));
    for (auto [K, O, B] :
         {std::tuple(Divided.get(), &OutBuf, &BallotBuf),
          std::tuple(Whole.get(), &WholeOutBuf, &WholeBallotBuf)}) {
      ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf));
      ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), O));
      ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_mem), B));
      ASSERT_NO_FATAL_FAILURE(enqueue(K, S));
    }
    ASSERT_CL_OK(readInto(OutBuf, Out));
    ASSERT_CL_OK(readInto(WholeOutBuf, WholeOut));
    ASSERT_CL_OK(readInto(BallotBuf, Ballot));
    ASSERT_CL_OK(readInto(WholeBallotBuf, WholeBallot));
    size_t MaxSubGroup = std::min(SubGroup, S.Local[0] * S.Local[1]);
    for (const std::vector<size_t> &Group : groupsOf(S))
      for (const std::vector<size_t> &Items : subGroupsOf(Group, SubGroup)) {
        const size_t N = Items.size();
        auto X = [&](size_t L) { return In[Items[L]]; };
        std::vector<size_t> Active, Looping;
        for (size_t L = 0; L < N; ++L)
          (X(L) % 3 ? Active : Looping).push_back(L);
        int Sum = 0, Xor = 0, Any15 = 0, All2 = 1, Any18 = 0;
        for (size_t L : Active) {
          Sum += X(L);
          Xor ^= X(L);
          Any15 |= X(L) > 15;
          All2 &= X(L) > 2;
          Any18 |= X(L) > 18;
        }
        auto Odd = ballotOf(N, [&](size_t L) { return X(L) % 3 && X(L) % 2; });
        int WholeSum = 0, WholeScan = 0, WholeXor = 0, WholeAnd = 1, Any20 = 0;
        uint32_t Product = 1;
        for (size_t L = 0; L < N; ++L) {
          WholeSum += X(L);
          WholeXor ^= X(L);
          WholeAnd &= X(L) != 0;
          Any20 |= X(L) == 20;
        }
        for (size_t L = 0; L < N; ++L) {
          SCOPED_TRACE(testing::Message() << "sub-group local id " << L
                                          << " of " << N << ", value " << X(L));
          const cl_int *O = &Out[13 * Items[L]];
          ASSERT_EQ(O[12], int(N)) << "the whole sub-group after the branch";
          if (X(L) % 3) {
            int Min = INT_MAX, Before = 0;
            for (size_t A : Active) {
              if (A <= L)
                Min = std::min(Min, X(A));
              if (A < L)
                Before += X(A);
            }
            ASSERT_EQ(O[0], Sum) << "reduce_add";
            ASSERT_EQ(O[1], Min) << "scan_inclusive_min";
            ASSERT_EQ(O[2], Before) << "scan_exclusive_add";
            ASSERT_EQ(O[3], Xor) << "reduce_xor";
            ASSERT_EQ(O[4], Any15) << "reduce_logical_or";
            ASSERT_EQ(O[5], L == Active.front()) << "elect";
            ASSERT_EQ(O[6], All2 + 2 * Any18) << "all and any";
            ASSERT_EQ(O[7], 1) << "all_equal";
            ASSERT_EQ(O[8], X(Active.front())) << "broadcast_first";
            ASSERT_EQ(O[9], 2 * X(Active.back())) << "broadcast of an int4";
            ASSERT_EQ(O[10], -X(Active.back()) + 1) << "broadcast of an int4";
            for (int W = 0; W < 4; ++W)
              ASSERT_EQ(Ballot[4 * Items[L] + W], Odd[W])
                  << "ballot word " << W;
            ASSERT_EQ(O[11], -9);
          } else {
            int Acc = 0;
            for (int I = 0; I < X(L) % 4; ++I) {
              int Still = 0;
              for (size_t J : Looping)
                Still += X(J) % 4 > I;
              Acc += (I + 1) * (I + 1) * Still;
            }
            ASSERT_EQ(O[11], Acc) << "reductions in a loop of varying trips";
            ASSERT_EQ(O[0], int(Looping.size())) << "the looping ones after it";
          }
          const cl_int *WO = &WholeOut[10 * Items[L]];
          WholeScan += X(L);
          ASSERT_EQ(WO[0], WholeSum) << "reduce_add, whole sub-group";
          ASSERT_EQ(WO[1], WholeScan) << "scan_inclusive_add, whole sub-group";
          ASSERT_EQ(WO[2], L == 0) << "elect, whole sub-group";
          ASSERT_EQ(WO[3], X(0)) << "broadcast_first, whole sub-group";
          size_t From = (L + 5) % MaxSubGroup;
          if (From < N) {
            ASSERT_EQ(WO[4], X(From)) << "rotate";
          }
          size_t Cluster = L / 8 * 8,
                 InCluster = Cluster + (L - Cluster + 5) % 8;
          if (InCluster < N) {
            ASSERT_EQ(WO[5], X(InCluster)) << "clustered_rotate";
          }
          ASSERT_EQ(WO[6], WholeXor) << "reduce_xor, whole sub-group";
          ASSERT_EQ(cl_uint(WO[7]), Product) << "scan_exclusive_mul, whole";
          Product *= uint32_t(X(L)) + 1u;
          ASSERT_EQ(WO[8], WholeAnd) << "reduce_logical_and, whole sub-group";
          ASSERT_EQ(WO[9], 2 * Any20 + 1) << "any and all_equal, whole";
          auto WholeOdd = ballotOf(N, [&](size_t J) { return X(J) % 2; });
          for (int W = 0; W < 4; ++W)
            ASSERT_EQ(WholeBallot[4 * Items[L] + W], WholeOdd[W])
                << "ballot word " << W << ", whole sub-group";
        }
      }
  }
}

// cl_khr_subgroups's entry point answers like the core one (the
// extension is not claimed, but the loader may still hand it out).
TEST_P(Subgroups, ExtensionEntryPoint) {
  cl_platform_id Platform = nullptr;
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_PLATFORM, sizeof(Platform),
                               &Platform, nullptr));
  auto Khr = reinterpret_cast<clGetKernelSubGroupInfoKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(Platform,
                                               "clGetKernelSubGroupInfoKHR"));
  ASSERT_NE(Khr, nullptr);
  KernelRef K(makeKernel(WorkItemSource, "work_item", "-cl-std=CL3.0"));
  ASSERT_NE(K.get(), nullptr);
  size_t Local[2] = {6, 5}, Value = 0;
  ASSERT_CL_OK(Khr(K, Device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR,
                   sizeof(Local), Local, sizeof(Value), &Value, nullptr));
  EXPECT_EQ(Value, 30u);
  ASSERT_CL_OK(Khr(K, Device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR,
                   sizeof(Local), Local, sizeof(Value), &Value, nullptr));
  EXPECT_EQ(Value, 1u);
  size_t Large[2] = {20, 10};
  ASSERT_CL_OK(Khr(K, Device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR,
                   sizeof(Large), Large, sizeof(Value), &Value, nullptr));
  EXPECT_EQ(Value, 2u);
  EXPECT_CL(CL_INVALID_VALUE,
            Khr(K, Device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR, 0,
                nullptr, sizeof(Value), &Value, nullptr));
}

TEST_P(Subgroups, KernelQueryErrors) {
  KernelRef K(makeKernel(WorkItemSource, "work_item", "-cl-std=CL3.0"));
  ASSERT_NE(K.get(), nullptr);
  size_t Local[4] = {8, 2, 2, 2}, Value = 0;
  // The one device of the kernel's context may be given as NULL.
  EXPECT_CL_OK(clGetKernelSubGroupInfo(
      K, nullptr, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof(size_t), Local,
      sizeof(Value), &Value, nullptr));
  EXPECT_EQ(Value, 1u);
  EXPECT_CL(CL_INVALID_KERNEL,
            clGetKernelSubGroupInfo(nullptr, Device,
                                    CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr,
                                    sizeof(Value), &Value, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clGetKernelSubGroupInfo(K, Device, CL_KERNEL_WORK_GROUP_SIZE, 0,
                                    nullptr, sizeof(Value), &Value, nullptr));
  // Too small for the answer.
  cl_uint Small = 0;
  EXPECT_CL(CL_INVALID_VALUE,
            clGetKernelSubGroupInfo(K, Device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0,
                                    nullptr, sizeof(Small), &Small, nullptr));
  // Local sizes of 0 or 4 dimensions, a size that is no multiple, NULL.
  for (cl_kernel_sub_group_info Param :
       {CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
        CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE}) {
    SCOPED_TRACE(testing::Message() << "param 0x" << std::hex << Param);
    for (size_t InputSize :
         {size_t(0), 4 * sizeof(size_t), sizeof(size_t) + 1, sizeof(cl_uint)})
      EXPECT_CL(CL_INVALID_VALUE,
                clGetKernelSubGroupInfo(K, Device, Param, InputSize, Local,
                                        sizeof(Value), &Value, nullptr))
          << "input_value_size " << InputSize;
    EXPECT_CL(CL_INVALID_VALUE,
              clGetKernelSubGroupInfo(K, Device, Param, sizeof(size_t), nullptr,
                                      sizeof(Value), &Value, nullptr));
  }
  size_t Count = 1;
  EXPECT_CL(CL_INVALID_VALUE,
            clGetKernelSubGroupInfo(
                K, Device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                2 * sizeof(size_t), Local, sizeof(Value), &Value, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clGetKernelSubGroupInfo(
                K, Device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                sizeof(Count), nullptr, sizeof(Value), &Value, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clGetKernelSubGroupInfo(
                K, Device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                sizeof(Count), &Count, sizeof(cl_uint), &Small, nullptr));

  // A device outside the kernel's context; NULL in a context of several.
  std::vector<cl_device_id> Others;
  for (cl_device_id D : allDevices())
    if (D != Device)
      Others.push_back(D);
  if (Others.empty())
    return;
  EXPECT_CL(CL_INVALID_DEVICE, clGetKernelSubGroupInfo(
                                   K, Others[0], CL_KERNEL_MAX_NUM_SUB_GROUPS,
                                   0, nullptr, sizeof(Value), &Value, nullptr));
  std::vector<cl_device_id> Both = {Device, Others[0]};
  cl_int Err = CL_SUCCESS;
  ContextRef Shared(
      clCreateContext(nullptr, 2, Both.data(), nullptr, nullptr, &Err));
  ASSERT_CL_OK(Err);
  const char *Source = "kernel void k(global int *O) { O[0] = 1; }";
  ProgramRef P(buildProgram(Shared, Device, Source, "-cl-std=CL3.0"));
  ASSERT_NE(P.get(), nullptr);
  KernelRef SharedKernel(clCreateKernel(P, "k", &Err));
  ASSERT_CL_OK(Err);
  EXPECT_CL(CL_INVALID_DEVICE,
            clGetKernelSubGroupInfo(SharedKernel, nullptr,
                                    CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr,
                                    sizeof(Value), &Value, nullptr));
  EXPECT_CL_OK(clGetKernelSubGroupInfo(SharedKernel, Device,
                                       CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr,
                                       sizeof(Value), &Value, nullptr));
}

} // namespace

WEFT_INSTANTIATE_DEVICE_TEST(Subgroups);
