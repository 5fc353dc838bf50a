//===- FuzzProgramBinary.cpp - libFuzzer target: program binaries
//----------===//
//
// Feeds arbitrary bytes to deserializeProgramBinary, the decoder behind
// clCreateProgramWithBinary. Random bytes almost never carry a valid FNV-1a
// checksum or this host's target, so they would only ever reach the header
// checks; each input is therefore decoded twice:
//
//   1. as it is (magic, version, size and checksum checks), and
//   2. as a payload under a sound header (its size and checksum computed
//      here), decoded for the target the payload itself names, so that every
//      field after the checksum is reached.
//
// Whatever the decoder accepts must serialize back to the very same bytes:
// every field it reads is one serializeProgramBinary writes, so a difference
// means it let through something the format cannot express. The exception
// is the seal, which only this build can write: a binary whose seal does
// not match must say so (Sealed false), and serializes back with the right
// seal (and checksum) around the same fields.
//
// The same bytes also go to decodeKeptBuild, the program cache's entry
// reader (lib/CL/ProgramCache.cpp), which must refuse with a reason or
// return a build.
//
//===----------------------------------------------------------------------===//
#include "ProgramBinary.h"
#include "ProgramCache.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace weft;

namespace {

uint64_t fnv1a(const unsigned char *Data, size_t Size) {
  uint64_t Hash = 0xcbf29ce484222325ull;
  for (size_t I = 0; I < Size; ++I) {
    Hash ^= Data[I];
    Hash *= 0x100000001b3ull;
  }
  return Hash;
}

[[noreturn]] void fail(const char *What) {
  fprintf(stderr, "fuzz-program-binary: %s\n", What);
  abort();
}

/// Reads the length-prefixed strings and the SIMD width at the payload's
/// start, the fields the decoder compares with the device's target.
TargetDesc targetNamedBy(const unsigned char *Data, size_t Size) {
  TargetDesc T;
  size_t Pos = 0;
  auto Str = [&](std::string &S) {
    uint64_t N;
    if (Size - Pos < sizeof(N))
      return false;
    memcpy(&N, Data + Pos, sizeof(N));
    Pos += sizeof(N);
    if (N > Size - Pos)
      return false;
    S.assign(reinterpret_cast<const char *>(Data + Pos), N);
    Pos += N;
    return true;
  };
  std::string Version;
  if (Str(Version) && Str(T.Triple) && Str(T.CPU) && Str(T.Features) &&
      Size - Pos >= 4)
    memcpy(&T.SimdBytes, Data + Pos, 4);
  return T;
}

void decode(const unsigned char *Data, size_t Size, const TargetDesc &T) {
  std::string Options, Why;
  std::vector<KernelCode> Code;
  bool Sealed = false;
  std::shared_ptr<const ProgramBuild> Build =
      deserializeProgramBinary(Data, Size, T, Options, Why, &Code, &Sealed);
  if (!Build) {
    if (Why.empty())
      fail("refused without a reason");
    return;
  }
  if (Build->Result != ProgramBuild::Status::Success)
    fail("accepted a binary that is not a successful build");
  std::string Again = serializeProgramBinary(*Build, Options, T, Code);
  // Past the header (magic, version, size, checksum: 28 bytes), up to the
  // seal (the last 32).
  const size_t Header = 28, Seal = 32;
  if (Again.size() != Size || Size < Header + Seal ||
      memcmp(Again.data(), Data, Header - 8) != 0 ||
      memcmp(Again.data() + Header, Data + Header, Size - Header - Seal) != 0)
    fail("accepted bytes that do not serialize back to themselves");
  if (Sealed != (memcmp(Again.data(), Data, Size) == 0))
    fail("a seal that does not match was taken for this build's");
}

void decodeEntry(const uint8_t *Data, size_t Size, const TargetDesc &T) {
  std::string Why;
  // After the entry's version (1), so that random bytes reach the file
  // list and the kept binary.
  std::string Bytes("\x01\0\0\0", 4);
  Bytes.append(reinterpret_cast<const char *>(Data), Size);
  if (!decodeKeptBuild(Bytes, T, Why) && Why.empty())
    fail("a program cache entry refused without a reason");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  decode(Data, Size, TargetDesc());
  decodeEntry(Data, Size, targetNamedBy(Data, Size));

  // Magic and format version as this build writes them.
  static const std::string Prefix =
      serializeProgramBinary(ProgramBuild(), "", TargetDesc()).substr(0, 12);
  std::string Binary = Prefix;
  uint64_t PayloadSize = Size, Checksum = fnv1a(Data, Size);
  Binary.append(reinterpret_cast<const char *>(&PayloadSize), 8);
  Binary.append(reinterpret_cast<const char *>(&Checksum), 8);
  Binary.append(reinterpret_cast<const char *>(Data), Size);
  decode(reinterpret_cast<const unsigned char *>(Binary.data()), Binary.size(),
         targetNamedBy(Data, Size));
  return 0;
}
