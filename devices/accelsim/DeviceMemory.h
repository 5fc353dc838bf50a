//===- DeviceMemory.h - The simulated accelerator's own memory ------------===//
//
// The device's global memory is one region reserved when the driver is
// created: buffers, program variables, the core's local memory and private
// arena and the printf records are all chunks of it, so a full device says
// so (allocate returns null) instead of quietly borrowing host memory.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_ACCELSIM_DEVICEMEMORY_H
#define WEFT_ACCELSIM_DEVICEMEMORY_H

#include "accelsim/ChunkAllocator.h"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace weft {

class DeviceMemory {
public:
  /// Reserves Bytes of address space for the device; valid() tells whether
  /// the reservation succeeded.
  explicit DeviceMemory(uint64_t Bytes);
  ~DeviceMemory();
  DeviceMemory(const DeviceMemory &) = delete;
  DeviceMemory &operator=(const DeviceMemory &) = delete;

  bool valid() const { return Base != nullptr; }
  uint64_t size() const { return Size; }

  /// A chunk of Size bytes aligned to Alignment, or null when no free chunk
  /// is large enough.
  void *allocate(size_t Size, size_t Alignment);
  void deallocate(void *Address);

  /// [Address, Address + Bytes) lies inside the region.
  bool contains(const void *Address, size_t Bytes) const;

  /// What is allocated now, in address order (the access checker's
  /// buffers, AccessChecker.h).
  std::vector<ChunkAllocator::Allocation> allocations() const {
    return Chunks ? Chunks->allocations()
                  : std::vector<ChunkAllocator::Allocation>();
  }

private:
  unsigned char *Base = nullptr;
  uint64_t Size = 0;
  std::unique_ptr<ChunkAllocator> Chunks;
};

} // namespace weft

#endif // WEFT_ACCELSIM_DEVICEMEMORY_H
