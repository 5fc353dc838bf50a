// Candidate loops in the shape of hashcat's optimized kernels, which
// JamLoopIterations runs two trips at a time: one work-item a group, a loop
// over candidates read from constant memory whose trip count is read
// through a pointer every trip, each candidate a chain of MD5 steps, most
// candidates leaving at an early test, matches counted with an atomic.
// WORD is uint or a uint vector (hashcat's u32x); -DLANES=n says which.

#if LANES == 1
typedef uint word_t;
#define ANY(x) (x)
#define FOLD(x) (x)
#elif LANES == 4
typedef uint4 word_t;
#define ANY(x) any(x)
#define FOLD(x) ((x).s0 + (x).s1 + (x).s2 + (x).s3)
#endif

#define F(x, y, z) ((((y) ^ (z)) & (x)) ^ (z))
#define G(x, y, z) ((((x) ^ (y)) & (z)) ^ (y))
#define STEP(f, a, b, c, d, k, s)                                             \
  a = b + rotate(a + f(b, c, d) + (word_t)(k), (word_t)(s))

typedef struct {
  uint count;
} params_t;

kernel void chain_search(global const params_t *params,
                         constant word_t *words, global uint *hits,
                         global uint *last, uint seed, uint target) {
  uint gid = get_global_id(0);
  word_t salt = (word_t)(gid * 0x9e3779b9u + seed);
  for (uint i = 0; i < params->count; i++) {
    word_t a = 0x67452301u ^ words[i], b = 0xefcdab89u ^ salt;
    word_t c = 0x98badcfeu, d = 0x10325476u;
    STEP(F, a, b, c, d, 0xd76aa478u, 7);
    STEP(F, d, a, b, c, 0xe8c7b756u, 12);
    STEP(F, c, d, a, b, 0x242070dbu, 17);
    STEP(F, b, c, d, a, 0xc1bdceeeu, 22);
    STEP(F, a, b, c, d, 0xf57c0fafu, 7);
    STEP(F, d, a, b, c, 0x4787c62au, 12);
    STEP(F, c, d, a, b, 0xa8304613u, 17);
    STEP(F, b, c, d, a, 0xfd469501u, 22);
    STEP(F, a, b, c, d, 0x698098d8u, 7);
    STEP(F, d, a, b, c, 0x8b44f7afu, 12);
    STEP(F, c, d, a, b, 0xffff5bb1u, 17);
    STEP(F, b, c, d, a, 0x895cd7beu, 22);
    STEP(G, a, b, c, d, 0xf61e2562u, 5);
    STEP(G, d, a, b, c, 0xc040b340u, 9);
    STEP(G, c, d, a, b, 0x265e5a51u, 14);
    STEP(G, b, c, d, a, 0xe9b6c7aau, 20);
    STEP(G, a, b, c, d, 0xd62f105du, 5);
    STEP(G, d, a, b, c, 0x02441453u, 9);
    STEP(G, c, d, a, b, 0xd8a1e681u, 14);
    STEP(G, b, c, d, a, 0xe7d3fbc8u, 20);
    if (!ANY((a & 15u) == target))
      continue;
    STEP(G, a, b, c, d, 0x21e1cde6u, 5);
    STEP(G, d, a, b, c, 0xc33707d6u, 9);
    atomic_inc(&hits[gid]);
    last[gid] = FOLD(a ^ d) ^ i;
  }
}
