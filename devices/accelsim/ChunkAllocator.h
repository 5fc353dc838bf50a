//===- ChunkAllocator.h - First-fit allocation inside one memory region ---===//
//
// The accelerator simulator's device memory is one region allocated when the
// device is created; buffers, program variables and the printf buffer are
// chunks of it. The allocator keeps the region as a list of chunks ordered by
// address, each free or used, with the free tail of the region as the last
// chunk (the sentinel). A request takes the first free chunk that fits,
// splitting off what it does not need; in greedy mode it is served from the
// end of the region instead, which keeps the start free for large requests.
// A freed chunk merges with free neighbours, so the list never holds two
// adjacent free chunks.
//
// Addresses are plain integers: the allocator never touches the memory.
// Thread-safe.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_ACCELSIM_CHUNKALLOCATOR_H
#define WEFT_ACCELSIM_CHUNKALLOCATOR_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace weft {

class ChunkAllocator {
public:
  /// Manages [Base, Base + Size). Every chunk starts at a multiple of
  /// MinAlignment (a power of two) and has a size that is a multiple of it.
  ChunkAllocator(uintptr_t Base, size_t Size, size_t MinAlignment = 64,
                 bool Greedy = false);
  ~ChunkAllocator();
  ChunkAllocator(const ChunkAllocator &) = delete;
  ChunkAllocator &operator=(const ChunkAllocator &) = delete;

  /// A chunk of at least Size bytes aligned to Alignment (a power of two;
  /// at least MinAlignment is used), or nothing when no free chunk fits.
  /// Size 0 is served as MinAlignment bytes.
  std::optional<uintptr_t> allocate(size_t Size, size_t Alignment);
  /// Returns the chunk that starts at Address; false (and nothing changes)
  /// when no used chunk starts there.
  bool free(uintptr_t Address);

  /// Bytes in free chunks, and the largest free chunk.
  size_t freeBytes() const;
  size_t largestFreeChunk() const;
  /// Chunks in the list (used and free, the sentinel included), for tests.
  size_t chunkCount() const;

  /// A used chunk as its owner asked for it: where it starts and the size
  /// passed to allocate (the chunk itself may be larger).
  struct Allocation {
    uintptr_t Start = 0;
    size_t Size = 0;
  };
  /// Every used chunk, in address order: what the access checker
  /// (AccessChecker.h) takes as the memory a kernel may touch.
  std::vector<Allocation> allocations() const;

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace weft

#endif // WEFT_ACCELSIM_CHUNKALLOCATOR_H
