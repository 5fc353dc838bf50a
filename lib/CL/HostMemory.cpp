//===- HostMemory.cpp - Storage of memory objects in host memory ---------===//

#include "HostMemory.h"

#include "weft/debug.h"

#include <algorithm>
#include <cstdlib>
#include <sys/mman.h>

namespace weft {

namespace {

/// x86-64's transparent huge page. Smaller allocations keep ordinary pages:
/// rounding them up to 2 MiB would waste more memory than the TLB saves.
constexpr size_t HugePageSize = size_t(2) << 20;

size_t roundUp(size_t Size, size_t Alignment) {
  return (Size + Alignment - 1) / Alignment * Alignment;
}

} // namespace

void *allocateHostMemory(size_t Size, size_t Alignment) {
  if (Size == 0)
    Size = 1;
  if (Size < HugePageSize)
    return aligned_alloc(Alignment, roundUp(Size, Alignment));
  size_t Align = std::max(Alignment, HugePageSize);
  size_t Rounded = roundUp(Size, HugePageSize);
  void *Ptr = aligned_alloc(Align, Rounded);
  if (!Ptr)
    return nullptr;
  // Advice only: a kernel without THP, or with it disabled, keeps 4 KiB
  // pages and the memory works the same.
  if (madvise(Ptr, Rounded, MADV_HUGEPAGE) != 0)
    WEFT_LOG(DebugMemory, "no huge pages for %zu bytes at %p", Rounded, Ptr);
  return Ptr;
}

void freeHostMemory(void *Ptr) { free(Ptr); }

} // namespace weft
