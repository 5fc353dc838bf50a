//===- RegionMethodLimits.h - When the region method declines a kernel ----===//
#ifndef WEFT_LLVMOPENCL_REGIONMETHODLIMITS_H
#define WEFT_LLVMOPENCL_REGIONMETHODLIMITS_H

#include "llvm/IR/Function.h"

#include <string>

namespace weft {

/// Why ParallelRegions must not take the barrier-normal work-item function
/// WI, or "" when it may. Looks at WI only; never changes it.
std::string whyRegionMethodDeclines(llvm::Function &WI);

} // namespace weft

#endif
