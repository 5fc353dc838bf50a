//===- ProgramBinary.cpp - The program binary format -----------------------===//
//
// Little-endian fixed-width integers and length-prefixed strings; see
// ProgramBinary.h for the layout. The checksum covers the whole payload,
// so a flipped byte anywhere is caught before any field is trusted; the
// reader still checks every length against what is left.
//
//===----------------------------------------------------------------------===//

#include "ProgramBinary.h"
#include "ByteStream.h"

#include <cstdint>
#include <cstring>

namespace weft {
namespace {

constexpr char Magic[8] = {'W', 'E', 'F', 'T', 'B', 'I', 'N', '\0'};
/// Bump when the layout or a field's meaning changes: older binaries are
/// then refused. 5: StaticLocalMemSize counts alignment padding. 6: the
/// program's variables in the global address space. 7: compiled kernels.
/// 8: sub-groups of 128 work-items (lib/kernel/subgroups.cl); an older
/// binary's library code makes each work-group one sub-group, which the
/// runtime's sub-group queries no longer describe. 9: the seal.
constexpr uint32_t FormatVersion = 9;
constexpr size_t HeaderSize = sizeof(Magic) + 4 + 8 + 8;

uint64_t fnv1a(const unsigned char *Data, size_t Size) {
  uint64_t Hash = 0xcbf29ce484222325ull;
  for (size_t I = 0; I < Size; ++I) {
    Hash ^= Data[I];
    Hash *= 0x100000001b3ull;
  }
  return Hash;
}

void writeTarget(ByteWriter &W, const TargetDesc &T) {
  W.str(T.Triple);
  W.str(T.CPU);
  W.str(T.Features);
  W.u32(T.SimdBytes);
}

/// GlobalVariableDesc entries, each pointer inside its variable and naming
/// one of the table's variables.
bool readGlobalVariables(ByteReader &R, ProgramBuild &Build) {
  uint32_t Count;
  if (!R.u32(Count))
    return false;
  if (Count && Build.Kind != BinaryKind::Executable)
    return false;
  for (uint32_t I = 0; I < Count; ++I) {
    GlobalVariableDesc V;
    uint32_t NumPointers;
    if (!R.str(V.Name) || !R.u64(V.Alignment) || !R.str(V.Initializer) ||
        !R.u32(NumPointers))
      return false;
    if (V.Alignment == 0 || (V.Alignment & (V.Alignment - 1)))
      return false;
    V.Size = V.Initializer.size();
    for (uint32_t J = 0; J < NumPointers; ++J) {
      GlobalVariableDesc::Pointer Ptr;
      uint64_t Addend;
      if (!R.u64(Ptr.Offset) || !R.u32(Ptr.Target) || !R.u64(Addend))
        return false;
      if (Ptr.Target >= Count || Ptr.Offset > V.Size ||
          V.Size - Ptr.Offset < sizeof(void *))
        return false;
      Ptr.Addend = static_cast<int64_t>(Addend);
      V.Pointers.push_back(Ptr);
    }
    Build.GlobalVariables.push_back(std::move(V));
  }
  return true;
}

} // namespace

std::string serializeProgramBinary(const ProgramBuild &Build,
                                   const std::string &Options,
                                   const TargetDesc &Target,
                                   const std::vector<KernelCode> &Code) {
  ByteWriter P;
  P.str(WEFT_VERSION_STRING);
  writeTarget(P, Target);
  P.str(Options);
  P.u32(static_cast<uint32_t>(Build.Kind));
  P.u32(static_cast<uint32_t>(Build.Kernels.size()));
  for (const KernelDesc &K : Build.Kernels) {
    P.str(K.Name);
    P.u32(static_cast<uint32_t>(K.Args.size()));
    for (const KernelArgDesc &A : K.Args) {
      P.u32(static_cast<uint32_t>(A.ArgKind));
      P.u64(A.Size);
      P.u64(A.Alignment);
      P.str(A.Name);
      P.str(A.TypeName);
      P.u32(A.AddressQualifier);
      P.u32(A.AccessQualifier);
      P.u64(A.TypeQualifier);
    }
    for (size_t V : K.ReqdWorkGroupSize)
      P.u64(V);
    for (size_t V : K.WorkGroupSizeHint)
      P.u64(V);
    P.str(K.Attributes);
    P.u64(K.StaticLocalMemSize);
    P.u64(K.PrivateMemSize);
    P.u64(K.MaxWorkGroupSize);
    P.u32(K.UniformWorkGroupSize ? 1 : 0);
  }
  P.u32(static_cast<uint32_t>(Build.GlobalVariables.size()));
  for (const GlobalVariableDesc &V : Build.GlobalVariables) {
    P.str(V.Name);
    P.u64(V.Alignment);
    P.str(V.Initializer);
    P.u32(static_cast<uint32_t>(V.Pointers.size()));
    for (const GlobalVariableDesc::Pointer &Ptr : V.Pointers) {
      P.u64(Ptr.Offset);
      P.u32(Ptr.Target);
      P.u64(static_cast<uint64_t>(Ptr.Addend));
    }
  }
  P.str(Build.Bitcode);
  P.u32(static_cast<uint32_t>(Code.size()));
  for (const KernelCode &C : Code) {
    P.str(C.Kernel);
    for (size_t V : C.LocalSize)
      P.u64(V);
    P.str(C.Code);
  }
  BinarySeal Seal = sealOfBinary(
      reinterpret_cast<const unsigned char *>(P.Out.data()), P.Out.size());
  P.raw(Seal.data(), Seal.size());

  ByteWriter Header;
  Header.raw(Magic, sizeof(Magic));
  Header.u32(FormatVersion);
  Header.u64(P.Out.size());
  Header.u64(fnv1a(reinterpret_cast<const unsigned char *>(P.Out.data()),
                   P.Out.size()));
  return Header.Out + P.Out;
}

std::shared_ptr<const ProgramBuild>
deserializeProgramBinary(const unsigned char *Data, size_t Size,
                         const TargetDesc &Target, std::string &Options,
                         std::string &Why, std::vector<KernelCode> *Code,
                         bool *Sealed) {
  auto Fail = [&](const char *Reason) {
    Why = Reason;
    return nullptr;
  };
  if (Size < HeaderSize || memcmp(Data, Magic, sizeof(Magic)) != 0)
    return Fail("not a Weft program binary");
  ByteReader H(Data + sizeof(Magic), HeaderSize - sizeof(Magic));
  uint32_t Version;
  uint64_t PayloadSize, Checksum;
  H.u32(Version);
  H.u64(PayloadSize);
  H.u64(Checksum);
  if (Version != FormatVersion)
    return Fail("binary of another format version");
  if (PayloadSize != Size - HeaderSize)
    return Fail("binary is truncated or has trailing bytes");
  const unsigned char *Payload = Data + HeaderSize;
  if (fnv1a(Payload, PayloadSize) != Checksum)
    return Fail("binary is corrupted (checksum mismatch)");

  ByteReader R(Payload, PayloadSize);
  std::string WeftVersion, Triple, CPU, Features;
  uint32_t Simd;
  if (!R.str(WeftVersion) || !R.str(Triple) || !R.str(CPU) ||
      !R.str(Features) || !R.u32(Simd) || !R.str(Options))
    return Fail("binary header fields are cut short");
  if (WeftVersion != WEFT_VERSION_STRING)
    return Fail("binary was made by another version of Weft");
  if (Triple != Target.Triple || CPU != Target.CPU ||
      Features != Target.Features || Simd != Target.SimdBytes)
    return Fail("binary was compiled for another target");

  auto Build = std::make_shared<ProgramBuild>();
  uint32_t Kind, NumKernels;
  if (!R.u32(Kind) || !R.u32(NumKernels))
    return Fail("kernel table is cut short");
  if (Kind > static_cast<uint32_t>(BinaryKind::Library))
    return Fail("unknown binary type");
  Build->Kind = static_cast<BinaryKind>(Kind);
  // Only an executable describes kernels; objects and libraries are linked
  // (and their kernels described) later.
  if (Build->Kind != BinaryKind::Executable && NumKernels)
    return Fail("a compiled object or library with a kernel table");
  for (uint32_t I = 0; I < NumKernels; ++I) {
    KernelDesc K;
    uint32_t NumArgs;
    if (!R.str(K.Name) || !R.u32(NumArgs))
      return Fail("kernel description is cut short");
    for (uint32_t J = 0; J < NumArgs; ++J) {
      KernelArgDesc A;
      uint32_t Kind, Addr, Access;
      uint64_t TypeQual;
      if (!R.u32(Kind) || !R.size(A.Size) || !R.size(A.Alignment) ||
          !R.str(A.Name) || !R.str(A.TypeName) || !R.u32(Addr) ||
          !R.u32(Access) || !R.u64(TypeQual))
        return Fail("kernel argument description is cut short");
      if (Kind > static_cast<uint32_t>(KernelArgDesc::Kind::Sampler))
        return Fail("unknown kernel argument kind");
      if (A.Alignment == 0 || (A.Alignment & (A.Alignment - 1)) ||
          A.Alignment > 4096)
        return Fail("bad kernel argument alignment");
      A.ArgKind = static_cast<KernelArgDesc::Kind>(Kind);
      A.AddressQualifier = Addr;
      A.AccessQualifier = Access;
      A.TypeQualifier = TypeQual;
      K.Args.push_back(std::move(A));
    }
    for (size_t &V : K.ReqdWorkGroupSize)
      if (!R.size(V))
        return Fail("kernel attributes are cut short");
    for (size_t &V : K.WorkGroupSizeHint)
      if (!R.size(V))
        return Fail("kernel attributes are cut short");
    if (!R.str(K.Attributes) || !R.size(K.StaticLocalMemSize) ||
        !R.size(K.PrivateMemSize) || !R.size(K.MaxWorkGroupSize))
      return Fail("kernel attributes are cut short");
    uint32_t Uniform;
    if (!R.u32(Uniform) || Uniform > 1)
      return Fail("kernel attributes are cut short");
    K.UniformWorkGroupSize = Uniform != 0;
    Build->Kernels.push_back(std::move(K));
  }
  if (!readGlobalVariables(R, *Build))
    return Fail("the table of the program's variables is damaged");
  if (!R.str(Build->Bitcode))
    return Fail("bitcode is cut short");
  uint32_t NumCode;
  if (!R.u32(NumCode))
    return Fail("the table of compiled kernels is cut short");
  std::vector<KernelCode> Loaded;
  for (uint32_t I = 0; I < NumCode; ++I) {
    KernelCode C;
    if (!R.str(C.Kernel) || !R.size(C.LocalSize[0]) ||
        !R.size(C.LocalSize[1]) || !R.size(C.LocalSize[2]) || !R.str(C.Code))
      return Fail("the table of compiled kernels is cut short");
    Loaded.push_back(std::move(C));
  }
  BinarySeal Seal;
  if (!R.raw(Seal.data(), Seal.size()))
    return Fail("the seal is cut short");
  if (!R.atEnd())
    return Fail("binary is followed by garbage");
  // LLVM's bitcode magic: 'B' 'C' 0xC0DE.
  if (Build->Bitcode.size() < 4 ||
      memcmp(Build->Bitcode.data(), "BC\xc0\xde", 4) != 0)
    return Fail("payload is not LLVM bitcode");
  Build->Result = ProgramBuild::Status::Success;
  if (Code)
    *Code = std::move(Loaded);
  if (Sealed)
    *Sealed = sealOfBinary(Payload, PayloadSize - Seal.size()) == Seal;
  return Build;
}

} // namespace weft
