//===- FuzzCacheEntry.cpp - libFuzzer target: kernel cache entries --------===//
//
// Feeds arbitrary bytes to KernelCache::decode, which reads entries of the
// disk cache and the compiled kernels a program binary carries (adopt()).
// As with program binaries, random bytes rarely carry a valid xxh3 checksum,
// so each input is decoded twice:
//
//   1. as it is, for the key the entry's header names (the cache asks for
//      one key; taking it from the header lets the fuzzer past that check),
//   2. with the checksum made right when the header's lengths fit the
//      input, so that the checks after it are reached; the magic, version
//      and header size stay the input's, so the decoder must still refuse
//      a sound payload under a foreign header.
//
// An accepted entry must encode back to the same bytes: the format has no
// slack, so anything else is an entry that no cache could have written.
//
//===----------------------------------------------------------------------===//
#include "KernelCache.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace weft;

namespace {

[[noreturn]] void fail(const char *What) {
  fprintf(stderr, "fuzz-cache-entry: %s\n", What);
  abort();
}

// The header's layout (KernelCache.cpp's EntryHeader): magic, version and
// header size, the key, five 64-bit figures and lengths, the checksum.
constexpr size_t KeyOffset = 16;
constexpr size_t FiguresOffset = KeyOffset + 32;
constexpr size_t SymbolSizeOffset = FiguresOffset + 24;
constexpr size_t ObjectSizeOffset = SymbolSizeOffset + 8;

uint64_t u64At(const std::string &Bytes, size_t Offset) {
  uint64_t V;
  memcpy(&V, Bytes.data() + Offset, sizeof(V));
  return V;
}

bool decode(const KernelCache::Key &K, const std::string &Bytes) {
  CachedWorkGroupFunction Out;
  const char *Why = nullptr;
  if (!KernelCache::decode(K, Bytes, Out, Why)) {
    if (!Why || !*Why)
      fail("refused without a reason");
    return false;
  }
  if (KernelCache::encode(K, Out) != Bytes)
    fail("accepted bytes that do not encode back to themselves");
  return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const size_t HeaderSize =
      KernelCache::encode(KernelCache::Key(), CachedWorkGroupFunction()).size();
  if (HeaderSize != ObjectSizeOffset + 16)
    fail("the entry header's layout changed: update this target");
  std::string Bytes(reinterpret_cast<const char *>(Data), Size);
  KernelCache::Key K{};
  if (Size >= FiguresOffset)
    memcpy(K.data(), Data + KeyOffset, K.size());
  decode(K, Bytes);

  if (Size < HeaderSize)
    return 0;
  uint64_t SymbolSize = u64At(Bytes, SymbolSizeOffset);
  uint64_t ObjectSize = u64At(Bytes, ObjectSizeOffset);
  if (SymbolSize > Size - HeaderSize ||
      ObjectSize != Size - HeaderSize - SymbolSize)
    return 0;
  CachedWorkGroupFunction Entry;
  Entry.PrivateArenaSize = u64At(Bytes, FiguresOffset);
  Entry.PrivateMemPerWorkItem = u64At(Bytes, FiguresOffset + 8);
  Entry.LocalVariablesSize = u64At(Bytes, FiguresOffset + 16);
  Entry.Symbol = Bytes.substr(HeaderSize, SymbolSize);
  Entry.Object = Bytes.substr(HeaderSize + SymbolSize);
  std::string Sound = KernelCache::encode(K, Entry);
  bool Foreign = memcmp(Sound.data(), Data, KeyOffset) != 0;
  memcpy(Sound.data(), Data, KeyOffset);
  if (decode(K, Sound) == Foreign)
    fail(Foreign ? "accepted an entry under a foreign header"
                 : "refused a sound entry");
  return 0;
}
