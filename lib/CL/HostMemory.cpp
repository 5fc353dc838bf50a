//===- HostMemory.cpp - Storage of memory objects in host memory ---------===//

#include "HostMemory.h"

#include "weft/debug.h"

#include <algorithm>
#include <cstdlib>
#include <list>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>
#include <unordered_map>

namespace weft {

namespace {

/// x86-64's transparent huge page. Smaller allocations keep ordinary pages:
/// rounding them up to 2 MiB would waste more memory than the TLB saves.
constexpr size_t HugePageSize = size_t(2) << 20;

/// The most freed huge-page memory kept for reuse: 1 GiB, or an eighth of
/// the machine's memory when that is less.
size_t recycleLimit() {
  long Pages = sysconf(_SC_PHYS_PAGES);
  long PageSize = sysconf(_SC_PAGESIZE);
  size_t Limit = size_t(1) << 30;
  if (Pages > 0 && PageSize > 0)
    Limit = std::min(Limit, size_t(Pages) * size_t(PageSize) / 8);
  return Limit;
}

size_t roundUp(size_t Size, size_t Alignment) {
  return (Size + Alignment - 1) / Alignment * Alignment;
}

/// Freed huge-page blocks, kept for the next allocation of the same size.
/// Libraries create and release temporaries of the same size on every call
/// (CLBlast's GEMM pads and transposes into fresh buffers each time). Given
/// back to the system, every such buffer's first touch faults its pages in
/// again and the kernel zeroes them: a quarter of the run time of a 1024
/// DGEMM. Buffer contents are undefined at creation, so a block is handed
/// out again as it was left.
class HugeBlockRecycler {
public:
  void *take(size_t Rounded, size_t Align) {
    std::lock_guard<std::mutex> Guard(Lock);
    for (auto It = Idle.begin(); It != Idle.end(); ++It) {
      if (It->second != Rounded ||
          reinterpret_cast<uintptr_t>(It->first) % Align)
        continue;
      void *Ptr = It->first;
      Idle.erase(It);
      IdleBytes -= Rounded;
      Live[Ptr] = Rounded;
      return Ptr;
    }
    return nullptr;
  }

  void track(void *Ptr, size_t Rounded) {
    std::lock_guard<std::mutex> Guard(Lock);
    Live[Ptr] = Rounded;
  }

  /// False when Ptr is not a huge block (the caller frees it).
  bool give(void *Ptr) {
    std::list<std::pair<void *, size_t>> Evicted;
    {
      std::lock_guard<std::mutex> Guard(Lock);
      auto It = Live.find(Ptr);
      if (It == Live.end())
        return false;
      size_t Rounded = It->second;
      Live.erase(It);
      if (Rounded > Limit) {
        Evicted.emplace_back(Ptr, Rounded);
      } else {
        // Most recent first: it is the likeliest to be warm in the caches.
        Idle.emplace_front(Ptr, Rounded);
        IdleBytes += Rounded;
        while (IdleBytes > Limit) {
          IdleBytes -= Idle.back().second;
          Evicted.splice(Evicted.end(), Idle, std::prev(Idle.end()));
        }
      }
    }
    for (auto &Block : Evicted)
      free(Block.first);
    return true;
  }

private:
  std::mutex Lock;
  std::unordered_map<void *, size_t> Live;
  std::list<std::pair<void *, size_t>> Idle;
  size_t IdleBytes = 0;
  const size_t Limit = recycleLimit();
};

HugeBlockRecycler &recycler() {
  // Never destroyed: buffers may outlive static destruction at exit.
  static HugeBlockRecycler *R = new HugeBlockRecycler;
  return *R;
}

} // namespace

void *allocateHostMemory(size_t Size, size_t Alignment) {
  if (Size == 0)
    Size = 1;
  if (Size < HugePageSize)
    return aligned_alloc(Alignment, roundUp(Size, Alignment));
  size_t Align = std::max(Alignment, HugePageSize);
  size_t Rounded = roundUp(Size, HugePageSize);
  if (void *Ptr = recycler().take(Rounded, Align)) {
    WEFT_LOG(DebugMemory, "%zu bytes at %p reused", Rounded, Ptr);
    return Ptr;
  }
  void *Ptr = aligned_alloc(Align, Rounded);
  if (!Ptr)
    return nullptr;
  // Advice only: a kernel without THP, or with it disabled, keeps 4 KiB
  // pages and the memory works the same.
  if (madvise(Ptr, Rounded, MADV_HUGEPAGE) != 0)
    WEFT_LOG(DebugMemory, "no huge pages for %zu bytes at %p", Rounded, Ptr);
  recycler().track(Ptr, Rounded);
  return Ptr;
}

void freeHostMemory(void *Ptr) {
  if (Ptr && !recycler().give(Ptr))
    free(Ptr);
}

} // namespace weft
