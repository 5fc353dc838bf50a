//===- DriverRegistry.cpp - The drivers built into libweft ------------------===//
//
// WEFT_DEVICES picks drivers from this list by name; without it, every
// driver here marked ByDefault is instantiated in this order. A new driver
// adds one line.
//
//===----------------------------------------------------------------------===//

#include "weft/device.h"

#include <algorithm>
#include <cstring>

namespace weft {

std::unique_ptr<DeviceDriver> createPthreadDriver();
std::unique_ptr<DeviceDriver> createBasicDriver();
std::unique_ptr<DeviceDriver> createAccelsimDriver();
#ifdef WEFT_TEMPLATE_DRIVER
std::unique_ptr<DeviceDriver> createTemplateDriver();
#endif

const std::vector<DriverRegistration> &registeredDrivers() {
  static const std::vector<DriverRegistration> Drivers = {
      {"pthread", createPthreadDriver},
      {"basic", createBasicDriver},
      {"accelsim", createAccelsimDriver, /*ByDefault=*/false},
#ifdef WEFT_TEMPLATE_DRIVER
      {"template", createTemplateDriver, /*ByDefault=*/false},
#endif
  };
  return Drivers;
}

/// The largest divisor of Global within Limit, preferring multiples of
/// Lanes (a work-item loop whose trip count is a multiple of the SIMD width
/// needs no scalar remainder) unless that would more than halve the size;
/// 1 when nothing larger divides.
static size_t largestDivisor(size_t Global, size_t Limit, size_t Lanes) {
  size_t Best = 1;
  for (size_t Candidate = std::min(Limit, Global); Candidate > 1; --Candidate)
    if (Global % Candidate == 0) {
      if (Candidate % Lanes == 0 && 2 * Candidate >= Best)
        return Candidate;
      if (Best == 1)
        Best = Candidate;
      else if (2 * Candidate < Best)
        break;
    }
  return Best;
}

void DeviceDriver::copyToDevice(void *Dst, const void *Src, size_t Size) {
  std::memcpy(Dst, Src, Size);
}

void DeviceDriver::chooseLocalSize(cl_uint WorkDim, const size_t GlobalSize[3],
                                   size_t LocalSize[3]) const {
  // Work-items per group: large, so that the vectorized work-item loop over
  // x runs many full SIMD iterations and the fixed cost of a work-group
  // call (about 5 ns a group; examples/LaunchLatency over 1M work-items) is
  // spread thin; at most 1024, so that the context arrays of a kernel with
  // barriers (one slot per work-item and live value) stay within L1/L2;
  // and small enough to leave at least 4 groups per compute unit when the
  // NDRange allows it, for load balance.
  const DeviceDescription &D = description();
  size_t Total = 1;
  for (cl_uint Dim = 0; Dim < WorkDim; ++Dim)
    Total *= GlobalSize[Dim];
  size_t Budget = std::min<size_t>(D.MaxWorkGroupSize, 1024);
  const size_t MinGroups = 4 * std::max<cl_uint>(1, D.MaxComputeUnits);
  while (Budget > 64 && Total / Budget < MinGroups)
    Budget /= 2;
  // x is the dimension the compiler vectorizes: 16 float lanes of AVX-512.
  const size_t Lanes = 16;
  for (cl_uint Dim = 0; Dim < 3; ++Dim) {
    LocalSize[Dim] = 1;
    if (Dim >= WorkDim)
      continue;
    size_t Limit = std::min(Budget, D.MaxWorkItemSizes[Dim]);
    LocalSize[Dim] = largestDivisor(GlobalSize[Dim], Limit, Dim ? 1 : Lanes);
    Budget /= LocalSize[Dim];
  }
}

} // namespace weft
