//===- Printf.cpp - Printing the records a kernel's printf calls left -----===//
//
// LowerPrintf.cpp turns each printf call into a record in the NDRange's
// PrintfBuffer (launcher.h). Once every work-group of the command has run,
// the driver formats the records here, each conversion through the host's
// snprintf, and writes the command's whole output to stdout with one call
// before the command completes, so that it is never interleaved with
// another command's.
//
// The OpenCL C additions to C99's format (6.15.14.2) are the vector
// specifier vN (N = 2, 3, 4, 8, 16), which prints N elements separated by
// commas with the same flags, width and precision, and the length modifier
// hl (32-bit elements, only with vN). The arguments come as the x86-64
// calling convention passed them (a float2 as 8 bytes, a float as a
// double), so an element's size comes from the length modifier, or from
// the stored size when there is none.
//
//===----------------------------------------------------------------------===//
#include "cpu/CpuDevice.h"

#include "weft/debug.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace weft {

namespace {

float halfToFloat(uint16_t H) {
  const int Sign = H >> 15, Exponent = (H >> 10) & 0x1f, Mantissa = H & 0x3ff;
  float Magnitude;
  if (Exponent == 0)
    Magnitude = std::ldexp(float(Mantissa), -24);
  else if (Exponent == 31)
    Magnitude = Mantissa ? NAN : INFINITY;
  else
    Magnitude = std::ldexp(float(Mantissa | 0x400), Exponent - 25);
  return Sign ? -Magnitude : Magnitude;
}

enum class Length { None, HH, H, HL, L };

/// One conversion specification: %[flags][width][.precision][vN][length]c.
struct Conversion {
  std::string FlagsWidthPrecision;
  unsigned VectorLength = 0; ///< 0 for a scalar
  Length Len = Length::None;
  char Specifier = 0;
};

/// Parses the specification after a '%' at Format[Pos]; false when it is
/// not one OpenCL C allows. Pos ends after it either way.
bool parseConversion(const char *Format, size_t &Pos, Conversion &Out) {
  size_t I = Pos;
  while (Format[I] && strchr("-+ #0", Format[I]))
    ++I;
  while (Format[I] >= '0' && Format[I] <= '9')
    ++I;
  if (Format[I] == '.') {
    ++I;
    while (Format[I] >= '0' && Format[I] <= '9')
      ++I;
  }
  Out.FlagsWidthPrecision.assign(Format + Pos, I - Pos);
  if (Format[I] == 'v') {
    unsigned N = 0;
    ++I;
    while (Format[I] >= '0' && Format[I] <= '9' && N < 100)
      N = N * 10 + (Format[I++] - '0');
    if (N != 2 && N != 3 && N != 4 && N != 8 && N != 16) {
      Pos = I;
      return false;
    }
    Out.VectorLength = N;
  }
  if (Format[I] == 'h' && Format[I + 1] == 'h') {
    Out.Len = Length::HH;
    I += 2;
  } else if (Format[I] == 'h' && Format[I + 1] == 'l') {
    Out.Len = Length::HL;
    I += 2;
  } else if (Format[I] == 'h') {
    Out.Len = Length::H;
    ++I;
  } else if (Format[I] == 'l') {
    Out.Len = Length::L;
    ++I;
  }
  Out.Specifier = Format[I];
  Pos = Format[I] ? I + 1 : I;
  if (!Out.Specifier || !strchr("diouxXfFeEgGaAcsp", Out.Specifier))
    return false;
  // hl only qualifies vectors; vectors of characters, strings and pointers
  // do not exist.
  if (Out.Len == Length::HL && !Out.VectorLength)
    return false;
  if (Out.VectorLength && strchr("csp", Out.Specifier))
    return false;
  return true;
}

template <typename... Ts>
void appendFormatted(std::string &Out, const std::string &Format, Ts... Values) {
  char Small[128];
  int N = snprintf(Small, sizeof(Small), Format.c_str(), Values...);
  if (N < 0)
    return;
  if (size_t(N) < sizeof(Small)) {
    Out.append(Small, N);
    return;
  }
  std::string Large(size_t(N) + 1, '\0');
  snprintf(&Large[0], Large.size(), Format.c_str(), Values...);
  Out.append(Large.data(), N);
}

uint64_t readUnsigned(const unsigned char *Bytes, unsigned Size) {
  uint64_t V = 0;
  memcpy(&V, Bytes, Size); // little-endian host
  return V;
}

int64_t readSigned(const unsigned char *Bytes, unsigned Size) {
  uint64_t V = readUnsigned(Bytes, Size);
  unsigned Shift = 64 - 8 * Size;
  return Shift ? int64_t(V << Shift) >> Shift : int64_t(V);
}

double readFloat(const unsigned char *Bytes, unsigned Size) {
  if (Size == 2)
    return halfToFloat(uint16_t(readUnsigned(Bytes, 2)));
  if (Size == 4) {
    float F;
    memcpy(&F, Bytes, 4);
    return F;
  }
  double D;
  memcpy(&D, Bytes, 8);
  return D;
}

/// Formats one element of Size bytes at Bytes.
void formatElement(std::string &Out, const Conversion &C,
                   const unsigned char *Bytes, unsigned Size) {
  const std::string Prefix = "%" + C.FlagsWidthPrecision;
  const char Spec = C.Specifier;
  if (strchr("fFeEgGaA", Spec)) {
    appendFormatted(Out, Prefix + Spec, readFloat(Bytes, Size));
    return;
  }
  if (Spec == 'c') {
    appendFormatted(Out, Prefix + 'c', int(static_cast<unsigned char>(
                                           readUnsigned(Bytes, Size))));
    return;
  }
  if (Spec == 's') {
    const char *S;
    memcpy(&S, Bytes, sizeof(S));
    appendFormatted(Out, Prefix + 's', S ? S : "(null)");
    return;
  }
  if (Spec == 'p') {
    void *P;
    memcpy(&P, Bytes, sizeof(P));
    appendFormatted(Out, Prefix + 'p', P);
    return;
  }
  // Integers: the length modifier says which C type the value has.
  const std::string Format = Prefix + "ll" + Spec;
  if (Spec == 'd' || Spec == 'i') {
    int64_t V = readSigned(Bytes, Size);
    switch (C.Len) {
    case Length::HH: V = static_cast<signed char>(V); break;
    case Length::H: V = static_cast<short>(V); break;
    case Length::L: break;
    default: V = static_cast<int>(V); break;
    }
    appendFormatted(Out, Format, static_cast<long long>(V));
    return;
  }
  uint64_t V = readUnsigned(Bytes, Size);
  switch (C.Len) {
  case Length::HH: V = static_cast<unsigned char>(V); break;
  case Length::H: V = static_cast<unsigned short>(V); break;
  case Length::L: break;
  default: V = static_cast<unsigned>(V); break;
  }
  appendFormatted(Out, Format, static_cast<unsigned long long>(V));
}

/// Bytes of one element of a vN conversion of an argument of Size bytes,
/// or 0 if the argument cannot hold N such elements.
unsigned elementSize(const Conversion &C, uint64_t Size) {
  const bool IsFloat = strchr("fFeEgGaA", C.Specifier) != nullptr;
  unsigned E = 0;
  switch (C.Len) {
  case Length::HH: E = IsFloat ? 0 : 1; break;
  case Length::H: E = 2; break;
  case Length::HL: E = 4; break;
  case Length::L: E = 8; break;
  case Length::None: {
    // Not allowed by the specification for vectors, but %v2f is common
    // enough: take the elements the argument has (a vec3 occupies 4).
    const unsigned N = C.VectorLength;
    if (Size % N == 0)
      E = unsigned(Size / N);
    else if (N == 3 && Size % 4 == 0)
      E = unsigned(Size / 4);
    if (IsFloat && E != 2 && E != 4 && E != 8)
      E = 0;
    break;
  }
  }
  if (E == 0 || E > 8 || uint64_t(E) * C.VectorLength > Size)
    return 0;
  return E;
}

struct RecordArg {
  const unsigned char *Bytes;
  uint64_t Size;
  /// Address space + 1 of a pointer argument, 0 for anything else.
  unsigned PointerSpace;
};

/// Clang's fake address-space map, which the front end uses: %s reads only
/// constant memory, where literals live until the command completes.
constexpr unsigned ConstantAddressSpace = 2;

/// Formats one printf call; false when the record is malformed.
bool formatRecord(std::string &Out, const unsigned char *Record,
                  uint64_t RecordSize) {
  if (RecordSize < 24)
    return false;
  const char *Format;
  memcpy(&Format, Record + 8, sizeof(Format));
  uint64_t NumArgs = readUnsigned(Record + 16, 8);
  std::vector<RecordArg> Args;
  uint64_t Offset = 24;
  for (uint64_t I = 0; I < NumArgs; ++I) {
    if (Offset + 8 > RecordSize)
      return false;
    uint64_t Tag = readUnsigned(Record + Offset, 8);
    uint64_t Size = Tag & 0xffffffffu;
    if (Size > RecordSize - Offset - 8)
      return false;
    Args.push_back({Record + Offset + 8, Size, unsigned(Tag >> 32) & 0xffu});
    Offset += 8 + (Size + 7) / 8 * 8;
  }
  if (!Format)
    return false;

  size_t NextArg = 0;
  for (size_t Pos = 0; Format[Pos];) {
    if (Format[Pos] != '%') {
      size_t Run = strcspn(Format + Pos, "%");
      Out.append(Format + Pos, Run);
      Pos += Run;
      continue;
    }
    if (Format[Pos + 1] == '%') {
      Out += '%';
      Pos += 2;
      continue;
    }
    const size_t Begin = Pos++;
    Conversion C;
    bool Valid = parseConversion(Format, Pos, C);
    if (!Valid || NextArg >= Args.size()) {
      // Undefined behaviour by the specification: show what was written.
      WEFT_LOG(DebugDevice, "printf: bad conversion or missing argument in "
                            "\"%s\"", Format);
      Out.append(Format + Begin, Pos - Begin);
      continue;
    }
    const RecordArg &A = Args[NextArg++];
    if (C.VectorLength) {
      unsigned E = elementSize(C, A.Size);
      if (!E) {
        Out.append(Format + Begin, Pos - Begin);
        continue;
      }
      for (unsigned I = 0; I < C.VectorLength; ++I) {
        if (I)
          Out += ',';
        formatElement(Out, C, A.Bytes + I * E, E);
      }
      continue;
    }
    if (A.Size == 0 || A.Size > 8 ||
        (strchr("sp", C.Specifier) && A.Size != sizeof(void *)) ||
        (C.Specifier == 's' &&
         A.PointerSpace != ConstantAddressSpace + 1) ||
        (strchr("fFeEgGaA", C.Specifier) && A.Size != 2 && A.Size != 4 &&
         A.Size != 8)) {
      WEFT_LOG(DebugDevice, "printf: argument %zu does not fit its conversion "
                            "in \"%s\" (a %%s string must be a literal)",
               NextArg, Format);
      Out.append(Format + Begin, Pos - Begin);
      continue;
    }
    formatElement(Out, C, A.Bytes, unsigned(A.Size));
  }
  return true;
}

struct PrintfStorage {
  PrintfBuffer Buffer;
  std::unique_ptr<uint64_t[]> Data;
};

} // namespace

void preparePrintf(KernelLaunch &Launch, size_t Capacity) {
  if (!Launch.Function.UsesPrintf || Launch.Printf)
    return;
  auto Storage = std::make_shared<PrintfStorage>();
  const size_t Words = Capacity / 8;
  Storage->Data.reset(new uint64_t[Words ? Words : 1]);
  Storage->Buffer.Used = 0;
  Storage->Buffer.Capacity = Words * 8;
  Storage->Buffer.Data = reinterpret_cast<unsigned char *>(Storage->Data.get());
  Launch.Printf = std::shared_ptr<PrintfBuffer>(Storage, &Storage->Buffer);
}

std::string formatPrintfRecords(const PrintfBuffer &Buffer) {
  std::string Out;
  const uint64_t Limit = std::min(Buffer.Used, Buffer.Capacity);
  for (uint64_t Offset = 0; Offset + 8 <= Limit;) {
    uint64_t Size = readUnsigned(Buffer.Data + Offset, 8);
    if (Size == 0 || Size % 8 || Size > Limit - Offset)
      break;
    if (!formatRecord(Out, Buffer.Data + Offset, Size))
      break;
    Offset += Size;
  }
  return Out;
}

void flushPrintf(KernelLaunch &Launch) {
  if (!Launch.Printf)
    return;
  std::string Out = formatPrintfRecords(*Launch.Printf);
  if (Launch.Printf->Used > Launch.Printf->Capacity)
    WEFT_LOG(DebugDevice, "printf buffer full: %llu of %llu bytes claimed",
             static_cast<unsigned long long>(Launch.Printf->Used),
             static_cast<unsigned long long>(Launch.Printf->Capacity));
  Launch.Printf->Used = 0;
  if (Out.empty())
    return;
  fwrite(Out.data(), 1, Out.size(), stdout);
  fflush(stdout);
}

} // namespace weft
