//===- ChunkAllocatorTest.cpp - The accelerator simulator's allocator -----===//
//
// devices/accelsim/ChunkAllocator.cpp is compiled into this test: it hands
// out plain integers, so the region is an address range that nothing maps.
// Each expectation is a number worked out by hand from the region's layout
// (first fit, greedy from the end, which neighbours merge), never something
// read back from the allocator itself.
//
//===----------------------------------------------------------------------===//
#include "ChunkAllocator.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <vector>

using weft::ChunkAllocator;

namespace {

// An address far from zero, aligned to 4 KiB, so that alignments up to
// there need no help from the region's start.
constexpr uintptr_t Base = 0x10000000;
constexpr size_t Min = 64;

uintptr_t take(ChunkAllocator &A, size_t Size, size_t Alignment = 0) {
  std::optional<uintptr_t> Address = A.allocate(Size, Alignment);
  EXPECT_TRUE(Address.has_value()) << Size << " bytes";
  return Address.value_or(0);
}

TEST(ChunkAllocator, StartsAsOneFreeChunk) {
  ChunkAllocator A(Base, 4096, Min);
  EXPECT_EQ(A.chunkCount(), 1u);
  EXPECT_EQ(A.freeBytes(), 4096u);
  EXPECT_EQ(A.largestFreeChunk(), 4096u);
}

TEST(ChunkAllocator, ConsecutiveRequestsAreLaidOutFromTheStart) {
  ChunkAllocator A(Base, 4096, Min);
  EXPECT_EQ(take(A, 100), Base); // rounded up to 128
  EXPECT_EQ(take(A, 64), Base + 128);
  EXPECT_EQ(take(A, 1), Base + 192); // 64
  EXPECT_EQ(A.chunkCount(), 4u);     // three used, the sentinel
  EXPECT_EQ(A.freeBytes(), 4096u - 256);
}

TEST(ChunkAllocator, FirstFitPicksTheLowestHoleThatFits) {
  ChunkAllocator A(Base, 4096, Min);
  uintptr_t C0 = take(A, 64);  // Base
  uintptr_t C1 = take(A, 128); // Base + 64
  uintptr_t C2 = take(A, 64);  // Base + 192
  uintptr_t C3 = take(A, 256); // Base + 256
  uintptr_t C4 = take(A, 64);  // Base + 512
  ASSERT_EQ(C4, Base + 512);
  // Holes of 128 at Base + 64 and 256 at Base + 256; the tail from 576.
  ASSERT_TRUE(A.free(C1));
  ASSERT_TRUE(A.free(C3));
  EXPECT_EQ(A.chunkCount(), 6u);
  // 200 bytes (256) skip the 128-byte hole and take the 256-byte one
  // exactly; 64 bytes then take the start of the 128-byte hole.
  EXPECT_EQ(take(A, 200), Base + 256);
  EXPECT_EQ(take(A, 64), Base + 64);
  EXPECT_EQ(take(A, 64), Base + 128);
  // No hole left: the next request comes from the tail.
  EXPECT_EQ(take(A, 64), Base + 576);
  (void)C0;
  (void)C2;
}

TEST(ChunkAllocator, GreedyModeServesFromTheEnd) {
  ChunkAllocator A(Base, 4096, Min, /*Greedy=*/true);
  EXPECT_EQ(take(A, 100), Base + 4096 - 128);
  EXPECT_EQ(take(A, 64), Base + 4096 - 192);
  // The used end leaves an empty sentinel after it: the free start, two
  // used chunks, the sentinel.
  EXPECT_EQ(A.chunkCount(), 4u);
  EXPECT_EQ(A.freeBytes(), 4096u - 192);
  EXPECT_EQ(A.largestFreeChunk(), 4096u - 192);
}

TEST(ChunkAllocator, GreedyModeTakesTheHighestHoleThatFits) {
  ChunkAllocator A(Base, 4096, Min, /*Greedy=*/true);
  uintptr_t Top = take(A, 64);   // 4032
  uintptr_t Hole = take(A, 128); // 3904
  uintptr_t Guard = take(A, 64); // 3840
  ASSERT_EQ(Guard, Base + 3840);
  ASSERT_TRUE(A.free(Hole));
  // 64 bytes come from the top of the 128-byte hole, not from the large
  // free start below it.
  EXPECT_EQ(take(A, 64), Base + 3968);
  // 256 bytes do not fit the hole's rest: the large chunk's top.
  EXPECT_EQ(take(A, 256), Base + 3840 - 256);
  EXPECT_TRUE(A.free(Top));
}

TEST(ChunkAllocator, FreeMergesWithTheLeftNeighbour) {
  ChunkAllocator A(Base, 4096, Min);
  uintptr_t X = take(A, 64), Y = take(A, 64), Z = take(A, 64);
  take(A, 64); // keeps Z away from the sentinel
  ASSERT_EQ(A.chunkCount(), 5u);
  ASSERT_TRUE(A.free(X)); // [free X][Y][Z][W][sentinel]
  EXPECT_EQ(A.chunkCount(), 5u);
  ASSERT_TRUE(A.free(Y)); // X and Y are one chunk now
  EXPECT_EQ(A.chunkCount(), 4u);
  EXPECT_EQ(A.largestFreeChunk(), 4096u - 256);
  // The merged chunk serves a request as large as both.
  EXPECT_EQ(take(A, 128), Base);
  (void)Z;
}

TEST(ChunkAllocator, FreeMergesWithTheRightNeighbour) {
  ChunkAllocator A(Base, 4096, Min);
  uintptr_t X = take(A, 64), Y = take(A, 64), Z = take(A, 64);
  take(A, 64);
  ASSERT_TRUE(A.free(Z)); // [X][Y][free Z][W][sentinel]
  EXPECT_EQ(A.chunkCount(), 5u);
  ASSERT_TRUE(A.free(Y)); // Y takes Z in
  EXPECT_EQ(A.chunkCount(), 4u);
  EXPECT_EQ(take(A, 128), Base + 64);
  (void)X;
}

TEST(ChunkAllocator, FreeMergesWithBothNeighbours) {
  ChunkAllocator A(Base, 4096, Min);
  uintptr_t X = take(A, 64), Y = take(A, 64), Z = take(A, 64);
  take(A, 64);
  ASSERT_TRUE(A.free(X));
  ASSERT_TRUE(A.free(Z));
  EXPECT_EQ(A.chunkCount(), 5u);
  ASSERT_TRUE(A.free(Y)); // three chunks become one
  EXPECT_EQ(A.chunkCount(), 3u);
  EXPECT_EQ(take(A, 192), Base);
}

TEST(ChunkAllocator, FreeNextToTheSentinelGivesTheTailBack) {
  ChunkAllocator A(Base, 4096, Min);
  uintptr_t X = take(A, 64), Y = take(A, 64);
  ASSERT_TRUE(A.free(Y));
  EXPECT_EQ(A.chunkCount(), 2u);
  ASSERT_TRUE(A.free(X));
  EXPECT_EQ(A.chunkCount(), 1u);
  EXPECT_EQ(A.largestFreeChunk(), 4096u);
}

TEST(ChunkAllocator, GreedyFreeMergesBackIntoOneChunk) {
  ChunkAllocator A(Base, 4096, Min, /*Greedy=*/true);
  uintptr_t X = take(A, 64), Y = take(A, 64), Z = take(A, 64);
  ASSERT_TRUE(A.free(Y)); // [free][Z][free Y][X][empty sentinel]
  EXPECT_EQ(A.chunkCount(), 5u);
  ASSERT_TRUE(A.free(X)); // Y, X and the sentinel merge
  EXPECT_EQ(A.chunkCount(), 3u);
  ASSERT_TRUE(A.free(Z));
  EXPECT_EQ(A.chunkCount(), 1u);
  EXPECT_EQ(A.freeBytes(), 4096u);
}

TEST(ChunkAllocator, FragmentationFailsALargeRequestUntilNeighboursGo) {
  ChunkAllocator A(Base, 64 * 64, Min);
  std::vector<uintptr_t> Chunks;
  for (int I = 0; I < 64; ++I)
    Chunks.push_back(take(A, 64));
  EXPECT_EQ(A.freeBytes(), 0u);
  EXPECT_FALSE(A.allocate(64, 0));
  for (int I = 0; I < 64; I += 2)
    ASSERT_TRUE(A.free(Chunks[I]));
  // Half the region is free, but in 64-byte holes.
  EXPECT_EQ(A.freeBytes(), 32u * 64);
  EXPECT_EQ(A.largestFreeChunk(), 64u);
  EXPECT_FALSE(A.allocate(256, 0));
  // Chunks 1 and 3 go: 0..4 form one hole of 320 bytes at the start.
  ASSERT_TRUE(A.free(Chunks[1]));
  EXPECT_FALSE(A.allocate(256, 0));
  ASSERT_TRUE(A.free(Chunks[3]));
  EXPECT_EQ(A.largestFreeChunk(), 320u);
  EXPECT_EQ(A.allocate(256, 0), Base);
}

TEST(ChunkAllocator, OutOfMemory) {
  ChunkAllocator A(Base, 4096, Min);
  EXPECT_FALSE(A.allocate(4097, 0));
  EXPECT_FALSE(A.allocate(SIZE_MAX, 0));
  EXPECT_EQ(A.chunkCount(), 1u);
  EXPECT_EQ(take(A, 4096), Base);
  // Nothing left, the sentinel is empty.
  EXPECT_EQ(A.chunkCount(), 2u);
  EXPECT_EQ(A.freeBytes(), 0u);
  EXPECT_FALSE(A.allocate(1, 0));
  ASSERT_TRUE(A.free(Base));
  EXPECT_EQ(A.chunkCount(), 1u);
  EXPECT_EQ(take(A, 4000), Base);
  // 4000 bytes took 4032: 64 are left.
  EXPECT_FALSE(A.allocate(128, 0));
  EXPECT_EQ(take(A, 64), Base + 4032);
}

TEST(ChunkAllocator, AlignmentsLargerThanTheMinimum) {
  ChunkAllocator A(Base, 8192, Min);
  take(A, 64); // Base
  // The next 256-byte boundary: a 192-byte free gap stays before it.
  EXPECT_EQ(take(A, 64, 256), Base + 256);
  EXPECT_EQ(A.chunkCount(), 4u);
  EXPECT_EQ(A.freeBytes(), 8192u - 128);
  // The gap serves a small request later.
  EXPECT_EQ(take(A, 128), Base + 64);
  EXPECT_EQ(take(A, 64, 4096), Base + 4096);
  // An alignment below the minimum still gives the minimum.
  uintptr_t Small = take(A, 8, 8);
  EXPECT_EQ(Small % Min, 0u);
  EXPECT_EQ(Small, Base + 192);
  // Not a power of two: refused.
  EXPECT_FALSE(A.allocate(64, 96));
}

TEST(ChunkAllocator, GreedyAlignmentLeavesTheRestFree) {
  ChunkAllocator A(Base, 8192, Min, /*Greedy=*/true);
  // 100 bytes (128) at the highest 1024-byte boundary that leaves room:
  // Base + 7168, and the 896 bytes after it stay free as the sentinel.
  EXPECT_EQ(take(A, 100, 1024), Base + 7168);
  EXPECT_EQ(A.chunkCount(), 3u);
  EXPECT_EQ(A.freeBytes(), 8192u - 128);
  EXPECT_EQ(take(A, 896), Base + 7296);
}

TEST(ChunkAllocator, SizeZeroTakesOneGranule) {
  ChunkAllocator A(Base, 4096, Min);
  uintptr_t X = take(A, 0);
  uintptr_t Y = take(A, 0);
  EXPECT_EQ(X, Base);
  EXPECT_EQ(Y, Base + Min); // distinct addresses
  EXPECT_EQ(A.freeBytes(), 4096u - 2 * Min);
  EXPECT_TRUE(A.free(X));
}

TEST(ChunkAllocator, UnalignedRegionKeepsOnlyWholeGranules) {
  // [Base + 10, Base + 310): the granules at 64, 128 and 192 (the one at
  // 256 would end past the region).
  ChunkAllocator A(Base + 10, 300, Min);
  EXPECT_EQ(A.freeBytes(), 192u);
  EXPECT_EQ(take(A, 1), Base + 64);
}

TEST(ChunkAllocator, BadFreesChangeNothing) {
  ChunkAllocator A(Base, 4096, Min);
  uintptr_t X = take(A, 256);
  uintptr_t Y = take(A, 64);
  ASSERT_EQ(A.chunkCount(), 3u);
  EXPECT_FALSE(A.free(X + 64));        // inside X
  EXPECT_FALSE(A.free(Base + 320));    // the sentinel's start
  EXPECT_FALSE(A.free(Base + 100000)); // outside the region
  EXPECT_FALSE(A.free(0));
  EXPECT_EQ(A.chunkCount(), 3u);
  EXPECT_EQ(A.freeBytes(), 4096u - 320);
  ASSERT_TRUE(A.free(Y));
  EXPECT_FALSE(A.free(Y)); // twice
  EXPECT_EQ(A.chunkCount(), 2u);
  EXPECT_EQ(A.freeBytes(), 4096u - 256);
  EXPECT_TRUE(A.free(X));
}

/// Threads allocate and free at random; no two live chunks may overlap, and
/// when all is freed the region is one chunk again.
void stress(bool Greedy) {
  constexpr size_t RegionSize = 1 << 20;
  ChunkAllocator A(Base, RegionSize, Min, Greedy);
  std::mutex LiveLock;
  std::set<std::pair<uintptr_t, uintptr_t>> Live; // [start, end)
  std::atomic<bool> Overlap{false}, Misaligned{false}, BadFree{false};
  auto Worker = [&](unsigned Seed) {
    std::mt19937 Rng(Seed);
    std::vector<std::pair<uintptr_t, size_t>> Mine;
    for (int I = 0; I < 20000; ++I) {
      if (Mine.empty() || Rng() % 2 == 0) {
        size_t Size = 1 + Rng() % 3000;
        size_t Alignment = size_t(1) << (Rng() % 10);
        std::optional<uintptr_t> X = A.allocate(Size, Alignment);
        if (!X)
          continue;
        if (*X % std::max(Alignment, Min) != 0)
          Misaligned = true;
        std::lock_guard<std::mutex> G(LiveLock);
        auto Next = Live.lower_bound({*X, 0});
        if (Next != Live.end() && Next->first < *X + Size)
          Overlap = true;
        if (Next != Live.begin() && std::prev(Next)->second > *X)
          Overlap = true;
        Live.insert({*X, *X + Size});
        Mine.push_back({*X, Size});
      } else {
        size_t Pick = Rng() % Mine.size();
        auto [X, Size] = Mine[Pick];
        Mine[Pick] = Mine.back();
        Mine.pop_back();
        {
          std::lock_guard<std::mutex> G(LiveLock);
          Live.erase({X, X + Size});
        }
        if (!A.free(X))
          BadFree = true;
      }
    }
    for (auto [X, Size] : Mine) {
      {
        std::lock_guard<std::mutex> G(LiveLock);
        Live.erase({X, X + Size});
      }
      if (!A.free(X))
        BadFree = true;
    }
  };
  std::vector<std::thread> Threads;
  for (unsigned T = 0; T < 4; ++T)
    Threads.emplace_back(Worker, 1234 + T);
  for (std::thread &T : Threads)
    T.join();
  EXPECT_FALSE(Overlap);
  EXPECT_FALSE(Misaligned);
  EXPECT_FALSE(BadFree);
  EXPECT_EQ(A.chunkCount(), 1u);
  EXPECT_EQ(A.freeBytes(), RegionSize);
  EXPECT_EQ(A.largestFreeChunk(), RegionSize);
}

// The access checker's view: used chunks in address order with the sizes
// asked for (not the rounded chunk sizes), merged-away chunks gone.
TEST(ChunkAllocator, AllocationsListUsedChunksWithTheirRequestedSizes) {
  ChunkAllocator A(Base, 4096, Min);
  EXPECT_TRUE(A.allocations().empty());
  uintptr_t C0 = take(A, 100); // Base, a 128-byte chunk
  uintptr_t C1 = take(A, 64);  // Base + 128
  uintptr_t C2 = take(A, 1);   // Base + 192
  A.free(C1);
  std::vector<ChunkAllocator::Allocation> Used = A.allocations();
  ASSERT_EQ(Used.size(), 2u);
  EXPECT_EQ(Used[0].Start, C0);
  EXPECT_EQ(Used[0].Size, 100u);
  EXPECT_EQ(Used[1].Start, C2);
  EXPECT_EQ(Used[1].Size, 1u);
  // The hole is reused first fit, and its new owner's size is recorded.
  EXPECT_EQ(take(A, 40), Base + 128);
  Used = A.allocations();
  ASSERT_EQ(Used.size(), 3u);
  EXPECT_EQ(Used[1].Start, Base + 128);
  EXPECT_EQ(Used[1].Size, 40u);
}

TEST(ChunkAllocator, GreedyAllocationsAreListedInAddressOrder) {
  ChunkAllocator A(Base, 4096, Min, /*Greedy=*/true);
  uintptr_t High = take(A, 200); // Base + 4096 - 256
  uintptr_t Low = take(A, 64);   // just below
  std::vector<ChunkAllocator::Allocation> Used = A.allocations();
  ASSERT_EQ(Used.size(), 2u);
  EXPECT_EQ(Used[0].Start, Low);
  EXPECT_EQ(Used[0].Size, 64u);
  EXPECT_EQ(Used[1].Start, High);
  EXPECT_EQ(Used[1].Size, 200u);
}

TEST(ChunkAllocator, ThreadsEndWithTheWholeRegionFree) { stress(false); }
TEST(ChunkAllocator, GreedyThreadsEndWithTheWholeRegionFree) { stress(true); }

} // namespace
