//===- Timer.h - The clock of profiling and device timers ------------------===//
#ifndef WEFT_LIB_CL_TIMER_H
#define WEFT_LIB_CL_TIMER_H

#include <CL/cl.h>

#include <chrono>

namespace weft {

/// Nanoseconds of the host's monotonic clock: profiling timestamps, device
/// and host timers all read it, so they are comparable.
inline cl_ulong monotonicNanoseconds() {
  return static_cast<cl_ulong>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::steady_clock::now().time_since_epoch())
          .count());
}

} // namespace weft

#endif // WEFT_LIB_CL_TIMER_H
