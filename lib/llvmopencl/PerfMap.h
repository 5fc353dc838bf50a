//===- PerfMap.h - Naming JIT-compiled kernels for perf ------------------===//
#ifndef WEFT_LLVMOPENCL_PERFMAP_H
#define WEFT_LLVMOPENCL_PERFMAP_H

#include "llvm/ExecutionEngine/Orc/LLJIT.h"

namespace weft {

/// Under WEFT_PERF_MAP=1, makes J record every function it links in
/// /tmp/perf-<pid>.map, where `perf report` finds names for JIT code.
void enablePerfMap(llvm::orc::LLJIT &J);

} // namespace weft

#endif // WEFT_LLVMOPENCL_PERFMAP_H
