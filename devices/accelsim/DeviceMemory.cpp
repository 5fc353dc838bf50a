//===- DeviceMemory.cpp - One mapping, carved by the chunk allocator ------===//
//
// The region is an anonymous private mapping without swap reservation: a
// model with gigabytes of device memory costs only the pages kernels and
// transfers touch. The allocator hands out addresses inside it and never
// touches the memory itself.
//
//===----------------------------------------------------------------------===//
#include "accelsim/DeviceMemory.h"

#include "weft/debug.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>

namespace weft {

/// Every chunk starts on a line of its own, and buffers on the alignment
/// the device reports (CL_DEVICE_MEM_BASE_ADDR_ALIGN is in bits: 1024).
static constexpr size_t ChunkGranularity = 128;

DeviceMemory::DeviceMemory(uint64_t Bytes) {
  void *Region = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (Region == MAP_FAILED) {
    WEFT_LOG(DebugAccelsim, "cannot map %llu bytes of device memory: %s",
             static_cast<unsigned long long>(Bytes), strerror(errno));
    return;
  }
  Base = static_cast<unsigned char *>(Region);
  Size = Bytes;
  Chunks = std::make_unique<ChunkAllocator>(reinterpret_cast<uintptr_t>(Base),
                                            Size, ChunkGranularity);
}

DeviceMemory::~DeviceMemory() {
  if (Base)
    munmap(Base, Size);
}

void *DeviceMemory::allocate(size_t Bytes, size_t Alignment) {
  if (!Chunks)
    return nullptr;
  std::optional<uintptr_t> Address = Chunks->allocate(Bytes, Alignment);
  if (!Address) {
    WEFT_LOG(DebugAccelsim,
             "device memory full: %zu bytes wanted, %zu free, largest free "
             "chunk %zu",
             Bytes, Chunks->freeBytes(), Chunks->largestFreeChunk());
    return nullptr;
  }
  return reinterpret_cast<void *>(*Address);
}

void DeviceMemory::deallocate(void *Address) {
  if (!Address || !Chunks)
    return;
  if (!Chunks->free(reinterpret_cast<uintptr_t>(Address)))
    WEFT_LOG(DebugAccelsim, "freeing %p, which is no device allocation",
             Address);
}

bool DeviceMemory::contains(const void *Address, size_t Bytes) const {
  auto *P = static_cast<const unsigned char *>(Address);
  return Base && P >= Base && Bytes <= Size &&
         static_cast<uint64_t>(P - Base) <= Size - Bytes;
}

} // namespace weft
