//===- HostMemory.h - Storage of memory objects in host memory -----------===//
//
// Buffers, images and SVM allocations of host-memory devices live in the
// process's memory. Large ones are backed by transparent huge pages where
// the kernel allows it (Debian's default is THP on madvise only): kernels
// streaming through tens of megabytes otherwise take a TLB miss every 4 KiB,
// and the first touch of every 4 KiB page faults. Freed large blocks are
// kept (up to a bound) for the next allocation of the same size, so a
// temporary buffer created on every call of a library faults its pages in
// once, not on every call.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_CL_HOSTMEMORY_H
#define WEFT_LIB_CL_HOSTMEMORY_H

#include <cstddef>

namespace weft {

/// Size * 1 bytes aligned to Alignment (a power of two), or null. Release
/// with freeHostMemory only: large blocks are recycled, not freed.
void *allocateHostMemory(size_t Size, size_t Alignment);
void freeHostMemory(void *Ptr);

} // namespace weft

#endif // WEFT_LIB_CL_HOSTMEMORY_H
