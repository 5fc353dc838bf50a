//===- ChunkAllocator.cpp - First-fit allocation inside one memory region -===//
//
// The chunks live in a map from start address to (size, used), so walking it
// in order is walking the region, and free() finds its chunk without a scan.
// Two invariants hold between calls:
//
//  - the last chunk is the sentinel: free, holding the region's free tail.
//    When the tail is in use (always so after a greedy allocation, or when a
//    first-fit request takes the tail exactly) the sentinel is empty and
//    sits at the region's end address;
//  - no two neighbours are both free (the sentinel counts as free), so a
//    free chunk other than the sentinel has used chunks on both sides.
//
// An allocation splits a free chunk into at most three: the gap that the
// alignment leaves before the request, the request, and what is left after
// it. Both leftovers are free and bordered by used chunks or the sentinel,
// so the invariants still hold. free() marks the chunk free and merges it
// with a free right neighbour (taking over the sentinel's role when that
// neighbour was the sentinel) and then with a free left neighbour:
//
//   [used A][free][used B][free] -- free(B) --> [used A][      free      ]
//
// Sizes and alignments are multiples of MinAlignment, so every leftover is
// one too and no chunk ever needs rounding again.
//
//===----------------------------------------------------------------------===//
#include "ChunkAllocator.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <mutex>

using namespace weft;

namespace {

struct Chunk {
  size_t Size = 0;
  bool Used = false;
  /// Of a used chunk: the size its owner asked for.
  size_t Requested = 0;
};

bool isPowerOfTwo(size_t X) { return X != 0 && (X & (X - 1)) == 0; }

uintptr_t alignUp(uintptr_t X, size_t Alignment) {
  return (X + Alignment - 1) & ~static_cast<uintptr_t>(Alignment - 1);
}

uintptr_t alignDown(uintptr_t X, size_t Alignment) {
  return X & ~static_cast<uintptr_t>(Alignment - 1);
}

} // namespace

struct ChunkAllocator::Impl {
  using ChunkMap = std::map<uintptr_t, Chunk>;

  uintptr_t Begin = 0;
  uintptr_t End = 0;
  size_t MinAlignment = 0;
  bool Greedy = false;
  mutable std::mutex Lock;
  ChunkMap Chunks;

  /// Where a request of Size bytes aligned to Alignment starts inside the
  /// free chunk at It, or nothing when it does not fit. First fit takes the
  /// lowest such address, greedy mode the highest.
  std::optional<uintptr_t> placeIn(ChunkMap::const_iterator It, size_t Size,
                                   size_t Alignment) const {
    uintptr_t ChunkBegin = It->first;
    uintptr_t ChunkEnd = ChunkBegin + It->second.Size;
    if (It->second.Size < Size)
      return std::nullopt;
    uintptr_t Start = Greedy ? alignDown(ChunkEnd - Size, Alignment)
                             : alignUp(ChunkBegin, Alignment);
    // alignUp may wrap around near the top of the address space.
    if (Start < ChunkBegin || Start > ChunkEnd || ChunkEnd - Start < Size)
      return std::nullopt;
    return Start;
  }

  /// Turns [Start, Start + Size) of the free chunk at It into a used chunk.
  void carve(ChunkMap::iterator It, uintptr_t Start, size_t Size) {
    uintptr_t ChunkBegin = It->first;
    uintptr_t ChunkEnd = ChunkBegin + It->second.Size;
    bool WasSentinel = std::next(It) == Chunks.end();
    uintptr_t UsedEnd = Start + Size;

    // The part before the request stays free where it is (or goes away when
    // empty); the request becomes a chunk of its own.
    if (Start == ChunkBegin) {
      It->second = Chunk{Size, true};
    } else {
      It->second.Size = Start - ChunkBegin;
      Chunks.emplace_hint(std::next(It), Start, Chunk{Size, true});
    }

    // What follows the request is free; the sentinel must survive even
    // when nothing follows, so that the list still ends with it.
    if (UsedEnd < ChunkEnd || WasSentinel)
      Chunks.emplace(UsedEnd, Chunk{ChunkEnd - UsedEnd, false});
  }
};

ChunkAllocator::ChunkAllocator(uintptr_t Base, size_t Size, size_t MinAlignment,
                               bool Greedy)
    : P(std::make_unique<Impl>()) {
  if (!isPowerOfTwo(MinAlignment))
    MinAlignment = 1;
  // Only whole, aligned granules of the region are handed out; a region
  // smaller than one granule holds nothing but the empty sentinel.
  uintptr_t Begin = alignUp(Base, MinAlignment);
  uintptr_t End = std::max(Begin, alignDown(Base + Size, MinAlignment));
  P->Begin = Begin;
  P->End = End;
  P->MinAlignment = MinAlignment;
  P->Greedy = Greedy;
  P->Chunks.emplace(Begin, Chunk{End - Begin, false});
}

ChunkAllocator::~ChunkAllocator() = default;

std::optional<uintptr_t> ChunkAllocator::allocate(size_t Size,
                                                  size_t Alignment) {
  if (Alignment != 0 && !isPowerOfTwo(Alignment))
    return std::nullopt;
  Alignment = std::max(Alignment, P->MinAlignment);
  if (Size > P->End - P->Begin)
    return std::nullopt;
  const size_t Requested = Size;
  Size = alignUp(std::max<size_t>(Size, 1), P->MinAlignment);

  std::lock_guard<std::mutex> Guard(P->Lock);
  auto Take = [&](auto It) -> std::optional<uintptr_t> {
    if (It->second.Used)
      return std::nullopt;
    std::optional<uintptr_t> Start = P->placeIn(It, Size, Alignment);
    if (Start) {
      P->carve(It, *Start, Size);
      P->Chunks.find(*Start)->second.Requested = Requested;
    }
    return Start;
  };
  if (P->Greedy) {
    for (auto It = P->Chunks.end(); It != P->Chunks.begin();)
      if (std::optional<uintptr_t> Start = Take(--It))
        return Start;
  } else {
    for (auto It = P->Chunks.begin(); It != P->Chunks.end(); ++It)
      if (std::optional<uintptr_t> Start = Take(It))
        return Start;
  }
  return std::nullopt;
}

bool ChunkAllocator::free(uintptr_t Address) {
  std::lock_guard<std::mutex> Guard(P->Lock);
  auto It = P->Chunks.find(Address);
  if (It == P->Chunks.end() || !It->second.Used)
    return false;
  It->second.Used = false;

  // A used chunk is never the last one, so a right neighbour exists.
  auto Next = std::next(It);
  if (!Next->second.Used) {
    It->second.Size += Next->second.Size;
    P->Chunks.erase(Next);
  }
  if (It != P->Chunks.begin()) {
    auto Prev = std::prev(It);
    if (!Prev->second.Used) {
      Prev->second.Size += It->second.Size;
      P->Chunks.erase(It);
    }
  }
  return true;
}

size_t ChunkAllocator::freeBytes() const {
  std::lock_guard<std::mutex> Guard(P->Lock);
  size_t Bytes = 0;
  for (const auto &[Start, C] : P->Chunks)
    if (!C.Used)
      Bytes += C.Size;
  return Bytes;
}

size_t ChunkAllocator::largestFreeChunk() const {
  std::lock_guard<std::mutex> Guard(P->Lock);
  size_t Largest = 0;
  for (const auto &[Start, C] : P->Chunks)
    if (!C.Used)
      Largest = std::max(Largest, C.Size);
  return Largest;
}

size_t ChunkAllocator::chunkCount() const {
  std::lock_guard<std::mutex> Guard(P->Lock);
  return P->Chunks.size();
}

std::vector<ChunkAllocator::Allocation> ChunkAllocator::allocations() const {
  std::lock_guard<std::mutex> Guard(P->Lock);
  std::vector<Allocation> Used;
  for (const auto &[Start, C] : P->Chunks)
    if (C.Used)
      Used.push_back({Start, C.Requested});
  return Used;
}
