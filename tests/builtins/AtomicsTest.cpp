//===- AtomicsTest.cpp - atomics under contention -------------------------===//
//
// Many work-items (several work-groups, so several threads on the pthread
// device) hammer the same few addresses; the final values and the returned
// old values must be what a serial execution in some order would give:
// counters count every increment, returned tickets are a permutation, min
// and max find the extremes, 64-bit sums do not tear.
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

TEST_P(Atomics, LegacyGlobalContention) {
  const size_t N = 1 << 16;
  std::vector<cl_int> In(N);
  Random R(9);
  for (cl_int &V : In)
    V = cl_int(R.next() % 2000001) - 1000000;
  // Counters: inc, add, sub, min, max, and, or, xor, xchg target, cmpxchg
  // counter, dec.
  std::vector<cl_int> C = {0, 0, 0, INT32_MAX, INT32_MIN, -1, 0, 0, 0, 0, 0};
  std::vector<cl_uint> Tickets(N);
  std::vector<cl_long> L = {0, 0};
  const char *Source = R"(
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void k(global const int *In, global int *C, global uint *Tickets,
              global long *L) {
  size_t i = get_global_id(0);
  int v = In[i];
  Tickets[i] = (uint)atomic_inc(&C[0]);
  atomic_add(&C[1], v);
  atom_sub(&C[2], v);
  atomic_min(&C[3], v);
  atom_max(&C[4], v);
  atomic_and(&C[5], ~(1 << (i % 31)) | (i % 7 ? -1 : 0));
  atom_or(&C[6], 1 << (i % 31));
  atomic_xor(&C[7], v);
  atomic_xchg(&C[8], v);
  // An increment built from compare-and-swap retries until it wins.
  int old = C[9], seen;
  while ((seen = atomic_cmpxchg(&C[9], old, old + 1)) != old)
    old = seen;
  atomic_dec(&C[10]);
  atom_add(&L[0], (long)v << 20);
  atom_xor(&L[1], (long)v << 32);
}
)";
  ASSERT_TRUE(runKernel(Source, "k", N, {in(In), out(C), out(Tickets), out(L)}));
  int64_t Sum = 0;
  int32_t Min = INT32_MAX, Max = INT32_MIN, Xor = 0, Or = 0, And = -1;
  int64_t LXor = 0;
  for (size_t I = 0; I < N; ++I) {
    Sum += In[I];
    Min = std::min(Min, In[I]);
    Max = std::max(Max, In[I]);
    Xor ^= In[I];
    Or |= 1 << (I % 31);
    And &= ~(1 << (I % 31)) | (I % 7 ? -1 : 0);
    LXor ^= int64_t(In[I]) << 32;
  }
  EXPECT_EQ(C[0], cl_int(N)) << "atomic_inc";
  EXPECT_EQ(C[1], cl_int(uint32_t(Sum))) << "atomic_add";
  EXPECT_EQ(C[2], cl_int(uint32_t(-Sum))) << "atom_sub";
  EXPECT_EQ(C[3], Min) << "atomic_min";
  EXPECT_EQ(C[4], Max) << "atom_max";
  EXPECT_EQ(C[5], And) << "atomic_and";
  EXPECT_EQ(C[6], Or) << "atom_or";
  EXPECT_EQ(C[7], Xor) << "atomic_xor";
  EXPECT_TRUE(std::find(In.begin(), In.end(), C[8]) != In.end())
      << "atomic_xchg left a value no work-item wrote";
  EXPECT_EQ(C[9], cl_int(N)) << "atomic_cmpxchg loop";
  EXPECT_EQ(C[10], -cl_int(N)) << "atomic_dec";
  EXPECT_EQ(L[0], Sum << 20) << "atom_add on long";
  EXPECT_EQ(L[1], LXor) << "atom_xor on long";
  std::sort(Tickets.begin(), Tickets.end());
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(Tickets[I], cl_uint(I)) << "atomic_inc returned a ticket twice";
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
