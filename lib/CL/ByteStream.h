//===- ByteStream.h - Fixed-width integers and strings in a byte string ---===//
//
// The encoding of program binaries and of the program cache's entries:
// little-endian fixed-width integers and length-prefixed strings. The
// reader checks every length against what is left, so damaged bytes are
// reported, never read past.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_CL_BYTESTREAM_H
#define WEFT_LIB_CL_BYTESTREAM_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace weft {

class ByteWriter {
public:
  void u32(uint32_t V) { raw(&V, sizeof(V)); }
  void u64(uint64_t V) { raw(&V, sizeof(V)); }
  void str(const std::string &S) {
    u64(S.size());
    Out.append(S);
  }
  void raw(const void *P, size_t N) {
    Out.append(static_cast<const char *>(P), N);
  }
  std::string Out;
};

class ByteReader {
public:
  ByteReader(const unsigned char *D, size_t S) : Data(D), Size(S) {}
  bool u32(uint32_t &V) { return raw(&V, sizeof(V)); }
  bool u64(uint64_t &V) { return raw(&V, sizeof(V)); }
  bool size(size_t &V) {
    uint64_t W;
    if (!u64(W))
      return false;
    V = static_cast<size_t>(W);
    return true;
  }
  bool str(std::string &S) {
    uint64_t N;
    if (!u64(N) || N > Size - Pos)
      return false;
    S.assign(reinterpret_cast<const char *>(Data + Pos), N);
    Pos += N;
    return true;
  }
  bool raw(void *P, size_t N) {
    if (N > Size - Pos)
      return false;
    memcpy(P, Data + Pos, N);
    Pos += N;
    return true;
  }
  bool atEnd() const { return Pos == Size; }

private:
  const unsigned char *Data;
  size_t Size;
  size_t Pos = 0;
};

} // namespace weft

#endif // WEFT_LIB_CL_BYTESTREAM_H
