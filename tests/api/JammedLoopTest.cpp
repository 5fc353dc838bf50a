//===- tests/api/JammedLoopTest.cpp - Two trips at a time, end to end -----===//
//
// tests/kernels/jammed_chains.cl is a candidate loop in hashcat's shape,
// which the compiler (JamLoopIterations.cpp) runs two trips at a time,
// loading the second trip's word early. The words lie in host memory
// (CL_MEM_USE_HOST_PTR) that ends at an inaccessible page, and the loop
// crosses pages every 4 KiB: the last trip's early load must not touch the
// guard page, and trips whose word is on another page than the trip
// before must be recomputed. Hit counts and last hits are checked against
// the host, on every device, for uint and uint4 words.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <sys/mman.h>
#include <unistd.h>

#include <string>

using namespace weft_test;

namespace {

uint32_t rotl(uint32_t X, unsigned S) { return (X << S) | (X >> (32 - S)); }

struct Digest {
  uint32_t Hits = 0, Last = 0;
};

/// The kernel's loop for one work-item, lane by lane.
Digest searchOnHost(const uint32_t *Words, unsigned Lanes, uint32_t Count,
                    uint32_t Target, uint32_t Salt) {
  static const uint32_t K[22] = {
      0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a,
      0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
      0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453,
      0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6};
  static const unsigned S[4][2] = {{7, 5}, {12, 9}, {17, 14}, {22, 20}};
  Digest Out;
  for (uint32_t I = 0; I < Count; ++I) {
    bool Any = false;
    uint32_t Fold = 0;
    for (unsigned L = 0; L < Lanes; ++L) {
      uint32_t V[4] = {0x67452301u ^ Words[I * Lanes + L], 0xefcdab89u ^ Salt,
                       0x98badcfeu, 0x10325476u};
      // Step N updates V[(4 - N % 4) % 4] from the next three.
      for (unsigned N = 0; N < 22; ++N) {
        unsigned Ai = (4 - N % 4) % 4;
        uint32_t &Va = V[Ai];
        uint32_t Vb = V[(Ai + 1) % 4], Vc = V[(Ai + 2) % 4],
                 Vd = V[(Ai + 3) % 4];
        uint32_t F = N < 12 ? (((Vc ^ Vd) & Vb) ^ Vd) : (((Vb ^ Vc) & Vd) ^ Vc);
        Va = Vb + rotl(Va + F + K[N], S[N % 4][N < 12 ? 0 : 1]);
        if (N == 19)
          Any |= (V[0] & 15u) == Target;
      }
      Fold += V[0] ^ V[3];
    }
    if (!Any)
      continue;
    ++Out.Hits;
    Out.Last = Fold ^ I;
  }
  return Out;
}

class JammedLoops : public DeviceTest {
protected:
  void TearDown() override {
    if (Region)
      munmap(Region, RegionBytes);
    DeviceTest::TearDown();
  }

  /// Count words of Lanes lanes ending exactly at an inaccessible page.
  uint32_t *wordsBeforeGuardPage(size_t Count, unsigned Lanes) {
    if (Region)
      munmap(Region, RegionBytes);
    Region = nullptr;
    size_t Page = size_t(sysconf(_SC_PAGESIZE));
    size_t Bytes = Count * Lanes * sizeof(uint32_t);
    size_t Pages = (Bytes + Page - 1) / Page;
    RegionBytes = (Pages + 1) * Page;
    Region = mmap(nullptr, RegionBytes, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (Region == MAP_FAILED) {
      Region = nullptr;
      return nullptr;
    }
    char *Guard = static_cast<char *>(Region) + Pages * Page;
    if (mprotect(Guard, Page, PROT_NONE) != 0)
      return nullptr;
    return reinterpret_cast<uint32_t *>(Guard - Bytes);
  }

  /// Runs the search over Count words of Lanes lanes that end at a guard
  /// page, of which the kernel reads the first Trips.
  void check(unsigned Lanes, uint32_t Count, uint32_t Trips) {
    SCOPED_TRACE("lanes " + std::to_string(Lanes) + ", " +
                 std::to_string(Trips) + " trips");
    const uint32_t Target = 5, Seed = 0x1234567u;
    const size_t Items = 6;
    uint32_t *Words = wordsBeforeGuardPage(Count, Lanes);
    ASSERT_NE(Words, nullptr) << "no guard page";
    std::vector<uint32_t> Host = pseudoRandomWords(size_t(Count) * Lanes, 77);
    std::copy(Host.begin(), Host.end(), Words);
    KernelRef K(makeKernel(kernelSource("jammed_chains.cl"), "chain_search",
                           "-DLANES=" + std::to_string(Lanes)));
    ASSERT_TRUE(K);
    std::vector<uint32_t> Params = {Trips};
    std::vector<uint32_t> Hits(Items, 0), Last(Items, 0xdeadbeef);
    MemRef ParamBuf(makeBufferFrom(Params, CL_MEM_READ_ONLY));
    MemRef WordBuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR,
                              Host.size() * sizeof(uint32_t), Words));
    MemRef HitBuf(makeBufferFrom(Hits));
    MemRef LastBuf(makeBufferFrom(Last));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &ParamBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &WordBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_mem), &HitBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(cl_mem), &LastBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 4, sizeof(uint32_t), &Seed));
    ASSERT_CL_OK(clSetKernelArg(K, 5, sizeof(uint32_t), &Target));
    const size_t One = 1;
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Items, &One, 0,
                                        nullptr, nullptr));
    ASSERT_CL_OK(readInto(HitBuf, Hits));
    ASSERT_CL_OK(readInto(LastBuf, Last));
    for (size_t G = 0; G < Items; ++G) {
      Digest Want = searchOnHost(Words, Lanes, Trips, Target,
                                 uint32_t(G) * 0x9e3779b9u + Seed);
      ASSERT_GT(Want.Hits, 0u) << "a test without hits checks too little";
      EXPECT_EQ(Hits[G], Want.Hits) << "work-item " << G;
      EXPECT_EQ(Last[G], Want.Last) << "work-item " << G;
    }
  }

  void *Region = nullptr;
  size_t RegionBytes = 0;
};

// Three pages and a bit of words. Two trips at a time, an odd count leaves
// a last trip whose second would read the guard page; an even count ends
// one word before it.
TEST_P(JammedLoops, CandidateChains) {
  for (unsigned Lanes : {1u, 4u}) {
    uint32_t Count = (3 * 4096 + 320) / (Lanes * 4) | 1;
    check(Lanes, Count, Count);
    check(Lanes, Count, Count - 1);
  }
}

} // namespace

WEFT_INSTANTIATE_DEVICE_TEST(JammedLoops);
