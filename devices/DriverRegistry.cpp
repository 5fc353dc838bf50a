//===- DriverRegistry.cpp - The drivers built into libweft ------------------===//
//
// WEFT_DEVICES picks drivers from this list by name; without it, every
// driver here is instantiated in this order. A new driver adds one line.
//
//===----------------------------------------------------------------------===//

#include "weft/device.h"

#include <algorithm>

namespace weft {

std::unique_ptr<DeviceDriver> createPthreadDriver();
std::unique_ptr<DeviceDriver> createBasicDriver();

const std::vector<DriverRegistration> &registeredDrivers() {
  static const std::vector<DriverRegistration> Drivers = {
      {"pthread", createPthreadDriver},
      {"basic", createBasicDriver},
  };
  return Drivers;
}

void DeviceDriver::chooseLocalSize(cl_uint WorkDim, const size_t GlobalSize[3],
                                   size_t LocalSize[3]) const {
  // The largest divisor of each global size within a budget, x first: the
  // x dimension is the one the compiler vectorizes.
  size_t Budget = std::min<size_t>(description().MaxWorkGroupSize, 256);
  for (cl_uint D = 0; D < 3; ++D) {
    LocalSize[D] = 1;
    if (D >= WorkDim)
      continue;
    size_t Limit = std::min(Budget, description().MaxWorkItemSizes[D]);
    for (size_t Candidate = std::min(Limit, GlobalSize[D]); Candidate > 1;
         --Candidate)
      if (GlobalSize[D] % Candidate == 0) {
        LocalSize[D] = Candidate;
        break;
      }
    Budget /= LocalSize[D];
  }
}

} // namespace weft
