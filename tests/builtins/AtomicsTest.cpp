//===- AtomicsTest.cpp - atomics under contention -------------------------===//
//
// Many work-items (several work-groups, so several threads on the pthread
// device) hammer the same few addresses; the final values and the returned
// old values must be what a serial execution in some order would give:
// counters count every increment, returned tickets are a permutation, min
// and max find the extremes, 64-bit sums do not tear. The same holds for
// __local objects within each work-group, at several local sizes, which
// Weft compiles to plain accesses (LowerLocalAtomics.cpp): a histogram's
// data-dependent bins check that the work-item loop is not vectorized as
// if the work-items' updates were independent.
//
//===----------------------------------------------------------------------===//
#include "BuiltinTestCommon.h"

#include <algorithm>
#include <numeric>

using namespace weft_test;

namespace {

class Atomics : public BuiltinTest {
public:
  using BuiltinTest::runKernel;
};

/// The OpenCL 1.2 atomics on counters C[0..10] and longs L[0..1], as a
/// work-item with value v and index j applies them (j picks its bits).
const char *const LegacyUpdates = R"(
  Tickets[i] = (uint)atomic_inc(&C[0]);
  atomic_add(&C[1], v);
  atom_sub(&C[2], v);
  atomic_min(&C[3], v);
  atom_max(&C[4], v);
  atomic_and(&C[5], ~(1 << (j % 31)) | (j % 7 ? -1 : 0));
  atom_or(&C[6], 1 << (j % 31));
  atomic_xor(&C[7], v);
  atomic_xchg(&C[8], v);
  // An increment built from compare-and-swap retries until it wins.
  int old = C[9], seen;
  while ((seen = atomic_cmpxchg(&C[9], old, old + 1)) != old)
    old = seen;
  atomic_dec(&C[10]);
  atom_add(&L[0], (long)v << 20);
  atom_xor(&L[1], (long)v << 32);
)";

/// Counters' starting values: inc, add, sub, min, max, and, or, xor, xchg
/// target, cmpxchg counter, dec.
const std::vector<cl_int> LegacyStart = {0, 0, 0, INT32_MAX, INT32_MIN, -1,
                                         0, 0, 0, 0,         0};

/// Checks counters C and longs L after work-items with values In[0..N)
/// (index j = position) applied LegacyUpdates, and that the tickets they
/// drew are 0..N-1.
void expectLegacyResults(const cl_int *In, size_t N, const cl_int *C,
                         const cl_long *L, const cl_uint *Tickets) {
  int64_t Sum = 0, LXor = 0;
  int32_t Min = INT32_MAX, Max = INT32_MIN, Xor = 0, Or = 0, And = -1;
  for (size_t J = 0; J < N; ++J) {
    Sum += In[J];
    Min = std::min(Min, In[J]);
    Max = std::max(Max, In[J]);
    Xor ^= In[J];
    Or |= 1 << (J % 31);
    And &= ~(1 << (J % 31)) | (J % 7 ? -1 : 0);
    LXor ^= int64_t(In[J]) << 32;
  }
  EXPECT_EQ(C[0], cl_int(N)) << "atomic_inc";
  EXPECT_EQ(C[1], cl_int(uint32_t(Sum))) << "atomic_add";
  EXPECT_EQ(C[2], cl_int(uint32_t(-Sum))) << "atom_sub";
  EXPECT_EQ(C[3], Min) << "atomic_min";
  EXPECT_EQ(C[4], Max) << "atom_max";
  EXPECT_EQ(C[5], And) << "atomic_and";
  EXPECT_EQ(C[6], Or) << "atom_or";
  EXPECT_EQ(C[7], Xor) << "atomic_xor";
  EXPECT_TRUE(std::find(In, In + N, C[8]) != In + N)
      << "atomic_xchg left a value no work-item wrote";
  EXPECT_EQ(C[9], cl_int(N)) << "atomic_cmpxchg loop";
  EXPECT_EQ(C[10], -cl_int(N)) << "atomic_dec";
  EXPECT_EQ(L[0], Sum << 20) << "atom_add on long";
  EXPECT_EQ(L[1], LXor) << "atom_xor on long";
  std::vector<cl_uint> T(Tickets, Tickets + N);
  std::sort(T.begin(), T.end());
  for (size_t J = 0; J < N; ++J)
    ASSERT_EQ(T[J], cl_uint(J)) << "atomic_inc returned a ticket twice";
}

TEST_P(Atomics, LegacyGlobalContention) {
  const size_t N = 1 << 16;
  std::vector<cl_int> In(N);
  Random R(9);
  for (cl_int &V : In)
    V = cl_int(R.next() % 2000001) - 1000000;
  std::vector<cl_int> C = LegacyStart;
  std::vector<cl_uint> Tickets(N);
  std::vector<cl_long> L = {0, 0};
  const std::string Source = std::string(R"(
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void k(global const int *In, global int *C, global uint *Tickets,
              global long *L) {
  size_t i = get_global_id(0), j = i;
  int v = In[i];
)") + LegacyUpdates + "}\n";
  ASSERT_TRUE(
      runKernel(Source, "k", N, {in(In), out(C), out(Tickets), out(L)}));
  expectLegacyResults(In.data(), N, C.data(), L.data(), Tickets.data());
}

TEST_P(Atomics, C11GlobalContention) {
  const size_t N = 1 << 16;
  std::vector<cl_ulong> Counters = {0, 0, 0, ~0ull, 0};
  std::vector<cl_int> Flags(N);
  std::vector<cl_uint> Lock = {0, 0};
  const char *Source = R"(
kernel void k(global atomic_ulong *C, global int *Flags, global atomic_int *F) {
  size_t i = get_global_id(0);
  atomic_fetch_add_explicit(&C[0], 1UL, memory_order_relaxed);
  atomic_fetch_add_explicit(&C[1], (ulong)i << 20, memory_order_acq_rel,
                            memory_scope_device);
  ulong expected = atomic_load(&C[2]);
  while (!atomic_compare_exchange_weak(&C[2], &expected, expected + 3UL))
    ;
  atomic_fetch_min(&C[3], (ulong)(i + 5));
  atomic_fetch_max_explicit(&C[4], (ulong)i * 7, memory_order_seq_cst);
  // atomic_flag: exactly one work-item sees it clear.
  Flags[i] = atomic_flag_test_and_set((volatile global atomic_flag *)&F[0]);
  atomic_store_explicit(&F[1], 1, memory_order_release);
}
)";
  ASSERT_TRUE(runKernel(Source, "k", N, {out(Counters), out(Flags), out(Lock)},
                        "-cl-std=CL3.0"));
  uint64_t Sum = 0;
  for (size_t I = 0; I < N; ++I)
    Sum += uint64_t(I) << 20;
  EXPECT_EQ(Counters[0], N);
  EXPECT_EQ(Counters[1], Sum);
  EXPECT_EQ(Counters[2], 3 * N) << "compare_exchange_weak loop";
  EXPECT_EQ(Counters[3], 5u) << "atomic_fetch_min";
  EXPECT_EQ(Counters[4], (N - 1) * 7) << "atomic_fetch_max_explicit";
  EXPECT_EQ(std::count(Flags.begin(), Flags.end(), 0), 1)
      << "atomic_flag_test_and_set cleared more or less than once";
  EXPECT_EQ(Lock[1], 1u) << "atomic_store_explicit";
}

/// Work-group sizes the __local tests run at: one work-item, a size that
/// is no multiple of any vector width, and full vectors.
const size_t LocalSizes[] = {1, 7, 64, 256};
constexpr size_t Groups = 12;

TEST_P(Atomics, LegacyLocalContention) {
  const std::string Source = std::string(R"(
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void k(global const int *In, global const int *Start, global int *Out,
              global uint *Tickets, global long *LOut) {
  local int C[11];
  local long L[2];
  size_t j = get_local_id(0), g = get_group_id(0), i = get_global_id(0);
  if (j == 0) {
    for (int c = 0; c < 11; ++c)
      C[c] = Start[c];
    L[0] = L[1] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = In[i];
)") + LegacyUpdates + R"(
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t c = j; c < 11; c += get_local_size(0))
    Out[g * 11 + c] = C[c];
  if (j == 0) {
    LOut[2 * g] = L[0];
    LOut[2 * g + 1] = L[1];
  }
}
)";
  for (size_t Local : LocalSizes) {
    SCOPED_TRACE("local size " + std::to_string(Local));
    const size_t N = Local * Groups;
    std::vector<cl_int> In(N), C(Groups * 11), Start = LegacyStart;
    Random R(11 + Local);
    for (cl_int &V : In)
      V = cl_int(R.next() % 2000001) - 1000000;
    std::vector<cl_uint> Tickets(N);
    std::vector<cl_long> L(Groups * 2);
    ASSERT_TRUE(runKernel(Source, "k", N,
                          {in(In), in(Start), out(C), out(Tickets), out(L)}, "",
                          Local));
    for (size_t G = 0; G < Groups; ++G) {
      SCOPED_TRACE("group " + std::to_string(G));
      expectLegacyResults(&In[G * Local], Local, &C[G * 11], &L[2 * G],
                          &Tickets[G * Local]);
    }
  }
}

TEST_P(Atomics, LocalHistogram) {
  // Work-items count bytes, consecutive work-items reading consecutive
  // bytes, into 256 bins shared by their group; neighbouring work-items
  // often hit the same bin (skewed data), so a work-item loop vectorized as
  // if their updates were independent would lose counts. Two shapes: a
  // loop of the kernel around the updates, and one update per work-item,
  // where the work-item loop is the innermost loop.
  const char *Prologue = R"(
kernel void k(global const uchar *Data, global uint *Bins,
              global const uint *ItemsBuf) {
  local uint H[256];
  local uint Weighted[256];
  uint Items = ItemsBuf[0];
  size_t l = get_local_id(0), w = get_local_size(0);
  for (size_t b = l; b < 256; b += w) {
    H[b] = 0;
    Weighted[b] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t base = get_group_id(0) * w * Items;
)";
  const char *Loop = R"(
  for (uint r = 0; r < Items; ++r) {
    uchar d = Data[base + r * w + l];
    atomic_inc(&H[d]);
    atomic_add(&Weighted[d], (uint)l + 1);
  }
)";
  const char *Once = R"(
  uchar d = Data[base + l];
  atomic_inc(&H[d]);
  atomic_add(&Weighted[d], (uint)l + 1);
)";
  const char *Epilogue = R"(
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t b = l; b < 256; b += w) {
    Bins[get_group_id(0) * 512 + b] = H[b];
    Bins[get_group_id(0) * 512 + 256 + b] = Weighted[b];
  }
}
)";
  for (bool InLoop : {true, false}) {
    const cl_uint Items = InLoop ? 16 : 1;
    const std::string Source =
        std::string(Prologue) + (InLoop ? Loop : Once) + Epilogue;
    for (size_t Local : LocalSizes) {
      SCOPED_TRACE(std::string(InLoop ? "loop" : "once") + ", local size " +
                   std::to_string(Local));
      const size_t N = Local * Groups;
      std::vector<cl_uchar> Data(N * Items);
      Random R(5 + Local);
      for (cl_uchar &D : Data)
        D = cl_uchar((R.next() & 0xff) * (R.next() & 0xff) >> 12);
      std::vector<cl_uint> Bins(Groups * 512), Want(Groups * 512, 0);
      std::vector<cl_uint> ItemsArg = {Items};
      for (size_t G = 0; G < Groups; ++G)
        for (cl_uint Round = 0; Round < Items; ++Round)
          for (size_t Li = 0; Li < Local; ++Li) {
            cl_uchar D = Data[G * Local * Items + Round * Local + Li];
            ++Want[G * 512 + D];
            Want[G * 512 + 256 + D] += cl_uint(Li + 1);
          }
      ASSERT_TRUE(runKernel(Source, "k", N,
                            {in(Data), out(Bins), in(ItemsArg)}, "", Local));
      for (size_t B = 0; B < Want.size(); ++B)
        ASSERT_EQ(Bins[B], Want[B])
            << "group " << B / 512 << (B % 512 < 256 ? " count" : " weight")
            << " of bin " << B % 256;
    }
  }
}

TEST_P(Atomics, C11LocalContention) {
  const char *Source = R"(
kernel void k(global int *Out, global int *Flags) {
  local atomic_int C[4];
  local atomic_flag F;
  size_t l = get_local_id(0), g = get_group_id(0);
  if (l == 0) {
    for (int c = 0; c < 4; ++c)
      atomic_store_explicit(&C[c], 0, memory_order_relaxed,
                            memory_scope_work_group);
    atomic_flag_clear_explicit(&F, memory_order_relaxed,
                               memory_scope_work_group);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_fetch_add_explicit(&C[0], 1, memory_order_relaxed,
                            memory_scope_work_group);
  int expected = atomic_load(&C[1]);
  while (!atomic_compare_exchange_strong(&C[1], &expected, expected + 3))
    ;
  atomic_fetch_max_explicit(&C[2], (int)l * 5, memory_order_acq_rel,
                            memory_scope_work_group);
  atomic_exchange(&C[3], (int)l);
  Flags[get_global_id(0)] = atomic_flag_test_and_set(&F);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0)
    for (int c = 0; c < 4; ++c)
      Out[g * 4 + c] = atomic_load(&C[c]);
}
)";
  for (size_t Local : LocalSizes) {
    SCOPED_TRACE("local size " + std::to_string(Local));
    const size_t N = Local * Groups;
    std::vector<cl_int> Out(Groups * 4), Flags(N);
    ASSERT_TRUE(
        runKernel(Source, "k", N, {out(Out), out(Flags)}, "-cl-std=CL3.0",
                  Local));
    for (size_t G = 0; G < Groups; ++G) {
      SCOPED_TRACE("group " + std::to_string(G));
      EXPECT_EQ(Out[G * 4], cl_int(Local)) << "atomic_fetch_add_explicit";
      EXPECT_EQ(Out[G * 4 + 1], cl_int(3 * Local))
          << "atomic_compare_exchange_strong loop";
      EXPECT_EQ(Out[G * 4 + 2], cl_int(Local - 1) * 5)
          << "atomic_fetch_max_explicit";
      EXPECT_TRUE(Out[G * 4 + 3] >= 0 && Out[G * 4 + 3] < cl_int(Local))
          << "atomic_exchange";
      EXPECT_EQ(std::count(Flags.begin() + G * Local,
                           Flags.begin() + (G + 1) * Local, 0),
                1)
          << "atomic_flag_test_and_set cleared more or less than once";
    }
  }
}

TEST_P(Atomics, DeviceClaimsTheAtomicExtensions) {
  std::set<std::string> Ext =
      splitWords(deviceString(Device, CL_DEVICE_EXTENSIONS));
  for (const char *E :
       {"cl_khr_global_int32_base_atomics", "cl_khr_global_int32_extended_atomics",
        "cl_khr_local_int32_base_atomics", "cl_khr_local_int32_extended_atomics",
        "cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics"})
    EXPECT_TRUE(Ext.count(E)) << E;
  cl_device_atomic_capabilities Caps = deviceInfo<cl_device_atomic_capabilities>(
      Device, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
  EXPECT_TRUE(Caps & CL_DEVICE_ATOMIC_ORDER_SEQ_CST);
  EXPECT_TRUE(Caps & CL_DEVICE_ATOMIC_SCOPE_DEVICE);
}

WEFT_INSTANTIATE_DEVICE_TEST(Atomics);

} // namespace
