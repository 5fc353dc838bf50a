//===- SpinTest.cpp - The spin-or-sleep policy of waiting threads ---------===//
//
// weft/spin.h must notice that the core is shared with a thread that does
// not give it back (another process's busy loop), and then stop spinning:
// a spinning waiter's yield hands such a thread the core for a whole time
// slice. On a core of its own, yields return at once and spinning goes on.
//
//===----------------------------------------------------------------------===//
#include "weft/spin.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <pthread.h>
#include <thread>

namespace {

bool pinToCpu(pthread_t T, int Cpu) {
  cpu_set_t Set;
  CPU_ZERO(&Set);
  CPU_SET(Cpu, &Set);
  return pthread_setaffinity_np(T, sizeof(Set), &Set) == 0;
}

/// A CPU this process may run on.
int someAllowedCpu() {
  cpu_set_t Set;
  if (sched_getaffinity(0, sizeof(Set), &Set) != 0)
    return -1;
  for (int C = 0; C < CPU_SETSIZE; ++C)
    if (CPU_ISSET(C, &Set))
      return C;
  return -1;
}

TEST(Spin, LateYieldStopsSpinningForAWhile) {
  int Cpu = someAllowedCpu();
  ASSERT_GE(Cpu, 0);
  cpu_set_t Saved;
  ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof(Saved), &Saved), 0);
  // A busy thread on the same core as this one, like another process's.
  std::atomic<bool> Stop{false};
  std::thread Busy([&] {
    while (!Stop.load(std::memory_order_relaxed))
      ;
  });
  ASSERT_TRUE(pinToCpu(Busy.native_handle(), Cpu));
  ASSERT_TRUE(pinToCpu(pthread_self(), Cpu));
  bool SawLate = false;
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!SawLate && std::chrono::steady_clock::now() < Deadline)
    SawLate = !weft::spinYield();
  bool Pays = weft::spinningPays(std::chrono::steady_clock::now());
  Stop = true;
  Busy.join();
  pthread_setaffinity_np(pthread_self(), sizeof(Saved), &Saved);
  EXPECT_TRUE(SawLate) << "yields to a busy thread on the same core all "
                          "returned within 30 us";
  EXPECT_FALSE(Pays) << "spinning should pause right after a late yield";
  // ... and resumes once the pause is over.
  std::this_thread::sleep_for(std::chrono::milliseconds(120));
  EXPECT_TRUE(weft::spinningPays(std::chrono::steady_clock::now()));
}

} // namespace
