//===- weft/spin.h - Spin or sleep while waiting for another thread -------===//
//
// A thread that waits for another one (an idle worker for the next job, an
// application thread for its command) can spin or sleep. Spinning, with
// sched_yield so that anything else runnable gets the core, saves the futex
// wake-up and scheduler trip of each hand-off (microseconds on a virtual
// machine): on a quiet machine launch-heavy applications run faster. On
// cores shared with other processes it is the other way round: a yield
// hands the core to the other process for the rest of its time slice
// (milliseconds), while a sleeper is served promptly when it is woken.
// BitonicSort --size 524288 beside a busy loop on each of 2 cores, 9
// rounds: 110 ms spinning, 46 ms sleeping at once (pocl 3.1: 72 ms).
//
// So every spinner yields through spinYield(), which notices a yield that
// returns late (another process had the core) and then tells all spinners
// of the process to sleep at once for a while; after that they try
// spinning again. One policy for the whole process, since the runtime's
// waits and every device's workers share the same cores.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_SPIN_H
#define WEFT_SPIN_H

#include <atomic>
#include <chrono>
#include <cstdint>

#include <sched.h>

namespace weft {

namespace spin_detail {
using Clock = std::chrono::steady_clock;
/// A yield that takes longer than this gave the core to another thread
/// for a time slice, not just for a moment.
constexpr auto LateYield = std::chrono::microseconds(30);
/// How long spinners sleep at once after a late yield.
constexpr auto SleepFor = std::chrono::milliseconds(50);

/// Until when (Clock ticks) spinning does not pay.
inline std::atomic<int64_t> &contendedUntil() {
  static std::atomic<int64_t> Until{0};
  return Until;
}
} // namespace spin_detail

/// Whether a waiting thread should spin at all now.
inline bool spinningPays(std::chrono::steady_clock::time_point Now) {
  return Now.time_since_epoch().count() >=
         spin_detail::contendedUntil().load(std::memory_order_relaxed);
}

/// Yields the core once; false when the yield returned late, after which
/// spinningPays() is false for a while and the caller should sleep.
inline bool spinYield() {
  using namespace spin_detail;
  Clock::time_point Before = Clock::now();
  sched_yield();
  Clock::time_point After = Clock::now();
  if (After - Before <= LateYield)
    return true;
  contendedUntil().store((After + SleepFor).time_since_epoch().count(),
                         std::memory_order_relaxed);
  return false;
}

} // namespace weft

#endif // WEFT_SPIN_H
