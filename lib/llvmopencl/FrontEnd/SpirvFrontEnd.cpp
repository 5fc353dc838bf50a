//===- SpirvFrontEnd.cpp - SPIR-V to an LLVM module, with llvm-spirv ------===//
//
// The translator runs as a child process (posix_spawn) on files in a
// private scratch directory: its LLVM is not ours, and a module it chokes
// on must cost a build log, not the application. Its output, bitcode of
// the SPIR target with OpenCL C 1.2 builtin names, is then adopted:
//
//   * triple and data layout become the builtin library's;
//   * spir_func calls become C calls, as the library's functions are;
//   * builtin calls are renamed to the library's spelling. The translator
//     mangles address spaces as SPIR's numbers (`PU3AS1f`) and private
//     pointers with none (`Pf`); clang's fake address-space map, with
//     which the library is compiled, spells them `PU8CLglobalf` and
//     `PU9CLprivatef`. Substitutions make mangled names hard to rewrite in
//     place, so both sides are demangled, their address spaces written
//     alike, and matched as text.
//
// SPIR-V's address spaces are numbered as the fake map numbers OpenCL's
// (private 0, global 1, constant 2, local 3, generic 4), so pointers need
// no change.
//
//===----------------------------------------------------------------------===//
#include "FrontEnd/SpirvFrontEnd.h"

#include "BuiltinLibrary.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <map>
#include <vector>

extern char **environ;

using namespace llvm;

namespace weft {
namespace {

constexpr uint32_t SpirvMagic = 0x07230203;

/// $WEFT_LLVM_SPIRV, else Debian's translator, found on PATH.
std::string translatorName() {
  const char *Env = getenv("WEFT_LLVM_SPIRV");
  return Env && *Env ? Env : "llvm-spirv-15";
}

/// A directory of its own under $TMPDIR (or /tmp), removed with its files.
class ScratchDirectory {
public:
  ScratchDirectory() {
    const char *Tmp = getenv("TMPDIR");
    std::string Template = std::string(Tmp && *Tmp ? Tmp : "/tmp") +
                           "/weft-spirv-XXXXXX";
    if (mkdtemp(&Template[0]))
      Path = Template;
  }
  ~ScratchDirectory() {
    if (Path.empty())
      return;
    if (DIR *D = opendir(Path.c_str())) {
      while (dirent *E = readdir(D))
        if (strcmp(E->d_name, ".") && strcmp(E->d_name, ".."))
          unlink((Path + "/" + E->d_name).c_str());
      closedir(D);
    }
    rmdir(Path.c_str());
  }
  bool valid() const { return !Path.empty(); }
  std::string file(const char *Name) const { return Path + "/" + Name; }

private:
  std::string Path;
};

bool writeFile(const std::string &Path, const std::string &Bytes) {
  FILE *F = fopen(Path.c_str(), "wb");
  if (!F)
    return false;
  bool OK = fwrite(Bytes.data(), 1, Bytes.size(), F) == Bytes.size();
  return fclose(F) == 0 && OK;
}

bool readFile(const std::string &Path, std::string &Bytes) {
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return false;
  Bytes = (*Buffer)->getBuffer().str();
  return true;
}

/// Runs the translator with Args in Dir, its standard output and error
/// into Output. False, with the reason in Log, when it could not run or
/// did not succeed.
bool runTranslator(const std::vector<std::string> &Args,
                   const ScratchDirectory &Dir, std::string &Output,
                   std::string &Log) {
  std::string Name = translatorName();
  std::vector<char *> Argv;
  Argv.push_back(const_cast<char *>(Name.c_str()));
  for (const std::string &A : Args)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  std::string OutputPath = Dir.file("translator.txt");
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addopen(&Actions, 1, OutputPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&Actions, 1, 2);
  pid_t Child;
  int Err = posix_spawnp(&Child, Name.c_str(), &Actions, nullptr, Argv.data(),
                         environ);
  posix_spawn_file_actions_destroy(&Actions);
  if (Err) {
    Log += "error: SPIR-V programs need the SPIR-V/LLVM translator '" + Name +
           "' (Debian package llvm-spirv-15; WEFT_LLVM_SPIRV names another "
           "executable), which could not be run: " +
           std::string(strerror(Err)) + "\n";
    return false;
  }
  int Status = 0;
  pid_t Waited;
  while ((Waited = waitpid(Child, &Status, 0)) < 0 && errno == EINTR) {
  }
  readFile(OutputPath, Output);
  // An application that ignores SIGCHLD leaves no status to collect; the
  // output files then tell.
  if (Waited < 0)
    return true;
  if (WIFEXITED(Status) && WEXITSTATUS(Status) == 0)
    return true;
  Log += "error: the SPIR-V/LLVM translator refused the module";
  if (WIFSIGNALED(Status))
    Log += " (it was killed by signal " + std::to_string(WTERMSIG(Status)) +
           ")";
  Log += ":\n" + Output;
  if (!Output.empty() && Output.back() != '\n')
    Log += "\n";
  return false;
}

/// A SPIR-V module as words in host byte order, and the specialization
/// constants it declares. The translator's own --spec-const cannot carry
/// every value (it refuses negative and large 64-bit literals), so the
/// values are written into the module's words instead, which is what
/// specializing a module means: an OpSpecConstant's literal replaced, an
/// OpSpecConstantTrue/False turned into the other.
class SpirvWords {
public:
  /// False when IL is not a well-formed sequence of SPIR-V instructions.
  bool read(const std::string &IL) {
    if (IL.size() % 4 || IL.size() < 20)
      return false;
    Words.resize(IL.size() / 4);
    memcpy(Words.data(), IL.data(), IL.size());
    Swapped = Words[0] != SpirvMagic;
    if (Swapped)
      for (uint32_t &W : Words)
        W = __builtin_bswap32(W);
    return Words[0] == SpirvMagic && findConstants();
  }
  std::string bytes() const {
    std::vector<uint32_t> Out = Words;
    if (Swapped)
      for (uint32_t &W : Out)
        W = __builtin_bswap32(W);
    return std::string(reinterpret_cast<const char *>(Out.data()),
                       Out.size() * 4);
  }
  /// Bytes of each specialization constant's value, by SpecId.
  std::map<uint32_t, size_t> sizes() const {
    std::map<uint32_t, size_t> Sizes;
    for (const auto &[Id, C] : Constants)
      Sizes[Id] = C.IsBool ? 1 : C.Width / 8;
    return Sizes;
  }
  /// Writes Value into constant Id; false for an unknown id or a size
  /// that is not the constant's.
  bool specialize(uint32_t Id, const std::string &Value) {
    auto It = Constants.find(Id);
    if (It == Constants.end())
      return false;
    const Constant &C = It->second;
    if (C.IsBool) {
      bool True = std::any_of(Value.begin(), Value.end(),
                              [](char B) { return B != 0; });
      Words[C.At] = (Words[C.At] & 0xffff0000u) |
                    (True ? OpSpecConstantTrue : OpSpecConstantFalse);
      return Value.size() == 1;
    }
    if (Value.size() != C.Width / 8)
      return false;
    uint64_t Bits = 0;
    memcpy(&Bits, Value.data(), Value.size());
    // Literals narrower than a word are zero- or sign-extended to it.
    if (C.Width < 32 && C.Signed && (Bits >> (C.Width - 1) & 1))
      Bits |= ~0ull << C.Width;
    Words[C.At + 3] = static_cast<uint32_t>(Bits);
    if (C.Width == 64)
      Words[C.At + 4] = static_cast<uint32_t>(Bits >> 32);
    return true;
  }

private:
  static constexpr uint32_t OpTypeBool = 20, OpTypeInt = 21,
                            OpTypeFloat = 22, OpSpecConstantTrue = 48,
                            OpSpecConstantFalse = 49, OpSpecConstant = 50,
                            OpDecorate = 71, DecorationSpecId = 1;
  struct Constant {
    size_t At = 0; ///< index of the instruction's first word
    unsigned Width = 0;
    bool Signed = false;
    bool IsBool = false;
  };

  bool findConstants() {
    std::map<uint32_t, uint32_t> SpecIdOf; // result id -> SpecId
    struct Type {
      unsigned Width;
      bool Signed, IsBool;
    };
    std::map<uint32_t, Type> Types;
    std::vector<std::pair<uint32_t, size_t>> Defined; // result id, word
    for (size_t At = 5; At < Words.size();) {
      uint32_t Count = Words[At] >> 16, Opcode = Words[At] & 0xffff;
      if (Count == 0 || At + Count > Words.size())
        return false;
      const uint32_t *Op = &Words[At + 1];
      if (Opcode == OpDecorate && Count >= 4 && Op[1] == DecorationSpecId)
        SpecIdOf[Op[0]] = Op[2];
      else if (Opcode == OpTypeBool && Count >= 2)
        Types[Op[0]] = {8, false, true};
      else if (Opcode == OpTypeInt && Count >= 4)
        Types[Op[0]] = {Op[1], Op[2] != 0, false};
      else if (Opcode == OpTypeFloat && Count >= 3)
        Types[Op[0]] = {Op[1], false, false};
      else if ((Opcode == OpSpecConstant || Opcode == OpSpecConstantTrue ||
                Opcode == OpSpecConstantFalse) &&
               Count >= 3)
        Defined.push_back({Op[1], At});
      At += Count;
    }
    for (const auto &[Result, At] : Defined) {
      auto Id = SpecIdOf.find(Result);
      auto T = Types.find(Words[At + 1]);
      if (Id == SpecIdOf.end() || T == Types.end())
        continue;
      uint32_t Count = Words[At] >> 16;
      bool Fits = T->second.IsBool ||
                  (T->second.Width <= 32 && Count == 4) ||
                  (T->second.Width == 64 && Count == 5);
      if (!Fits || (!T->second.IsBool && T->second.Width % 8))
        continue;
      Constants[Id->second] = {At, T->second.Width, T->second.Signed,
                               T->second.IsBool};
    }
    return true;
  }

  std::vector<uint32_t> Words;
  bool Swapped = false;
  std::map<uint32_t, Constant> Constants;
};

/// A builtin's signature with address spaces spelled one way: SPIR's
/// numbers become the fake map's names, private (named or implicit) and
/// const/volatile qualifiers go. Empty for names that do not demangle.
std::string signatureKey(StringRef Mangled) {
  if (!Mangled.starts_with("_Z"))
    return "";
  char *Text = itaniumDemangle(Mangled);
  if (!Text)
    return "";
  std::string S = Text;
  free(Text);
  static const std::pair<const char *, const char *> Spaces[] = {
      {" AS0", ""},           {" AS1", " CLglobal"}, {" AS2", " CLconstant"},
      {" AS3", " CLlocal"},   {" AS4", " CLgeneric"}, {" CLprivate", ""},
      {" const", ""},         {" volatile", ""}};
  for (const auto &[From, To] : Spaces) {
    size_t Len = strlen(From);
    for (size_t At = S.find(From); At != std::string::npos;
         At = S.find(From, At)) {
      char Next = At + Len < S.size() ? S[At + Len] : '\0';
      // Whole words only ("AS1" but not "AS10", "const" but not "constant").
      if (isalnum(static_cast<unsigned char>(Next)) || Next == '_') {
        At += Len;
        continue;
      }
      S.replace(At, Len, To);
      At += strlen(To);
    }
  }
  return S;
}

/// Renames M's calls of builtins to the names Library defines them under.
void renameBuiltins(Module &M, const Module &Library) {
  StringMap<std::string> ByKey;
  for (const Function &F : Library)
    if (!F.isDeclaration() || F.isMaterializable()) {
      std::string Key = signatureKey(F.getName());
      if (!Key.empty())
        ByKey.try_emplace(Key, F.getName().str());
    }
  for (Function &F : make_early_inc_range(M)) {
    if (!F.isDeclaration() || Library.getFunction(F.getName()))
      continue;
    auto It = ByKey.find(signatureKey(F.getName()));
    if (It == ByKey.end())
      continue;
    if (Function *Existing = M.getFunction(It->second)) {
      F.replaceAllUsesWith(Existing);
      F.eraseFromParent();
    } else {
      F.setName(It->second);
    }
  }
}

/// SPIR's calling convention for ordinary functions is C's on this target.
void useCCallingConvention(Module &M) {
  for (Function &F : M) {
    if (F.getCallingConv() == CallingConv::SPIR_FUNC)
      F.setCallingConv(CallingConv::C);
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (CB->getCallingConv() == CallingConv::SPIR_FUNC)
          CB->setCallingConv(CallingConv::C);
  }
}

} // namespace

bool spirvTranslatorAvailable() { return !spirvTranslatorPath().empty(); }

std::string spirvTranslatorPath() {
  std::string Name = translatorName();
  if (Name.find('/') != std::string::npos)
    return access(Name.c_str(), X_OK) == 0 ? Name : std::string();
  const char *Path = getenv("PATH");
  std::string Dirs = Path ? Path : "/usr/bin:/bin";
  for (size_t Start = 0; Start <= Dirs.size();) {
    size_t End = Dirs.find(':', Start);
    if (End == std::string::npos)
      End = Dirs.size();
    std::string Dir = Dirs.substr(Start, End - Start);
    std::string Candidate = (Dir.empty() ? "." : Dir) + "/" + Name;
    if (access(Candidate.c_str(), X_OK) == 0)
      return Candidate;
    Start = End + 1;
  }
  return std::string();
}

bool isSpirv(const void *Data, size_t Size) {
  if (!Data || Size < 20 || Size % 4)
    return false;
  uint32_t Word;
  memcpy(&Word, Data, 4);
  return Word == SpirvMagic || __builtin_bswap32(Word) == SpirvMagic;
}

bool specializationConstantsOf(const std::string &IL,
                               std::map<uint32_t, size_t> &Sizes,
                               std::string &Error) {
  SpirvWords Words;
  if (!Words.read(IL)) {
    Error = "the IL is not a well-formed SPIR-V module";
    return false;
  }
  Sizes = Words.sizes();
  return true;
}

std::unique_ptr<Module>
translateSpirv(LLVMContext &Context, const std::string &IL,
               const SpecializationConstants &SpecConstants,
               const BuiltinLibrary &Lib, std::string &Log) {
  if (!isSpirv(IL.data(), IL.size())) {
    Log += "error: the program's IL is not a SPIR-V module\n";
    return nullptr;
  }
  SpirvWords Words;
  if (!Words.read(IL)) {
    Log += "error: the program's IL is not a well-formed SPIR-V module\n";
    return nullptr;
  }
  for (const auto &[Id, Value] : SpecConstants)
    if (!Words.specialize(Id, Value)) {
      Log += "error: the module has no specialization constant " +
             std::to_string(Id) + " of " + std::to_string(Value.size()) +
             " bytes\n";
      return nullptr;
    }
  ScratchDirectory Dir;
  if (!Dir.valid() || !writeFile(Dir.file("module.spv"), Words.bytes())) {
    Log += "error: cannot write a temporary file for the SPIR-V translator\n";
    return nullptr;
  }
  std::vector<std::string> Args = {"-r", "--spirv-target-env=CL1.2"};
  Args.insert(Args.end(),
              {Dir.file("module.spv"), "-o", Dir.file("module.bc")});
  std::string Output, Bitcode;
  if (!runTranslator(Args, Dir, Output, Log))
    return nullptr;
  if (!readFile(Dir.file("module.bc"), Bitcode)) {
    Log += "error: the SPIR-V/LLVM translator wrote no module:\n" + Output;
    return nullptr;
  }
  Expected<std::unique_ptr<Module>> M =
      parseBitcodeFile(MemoryBufferRef(Bitcode, "spirv"), Context);
  if (!M) {
    Log += "error: cannot read the translated SPIR-V module: " +
           toString(M.takeError()) + "\n";
    return nullptr;
  }
  Expected<std::unique_ptr<Module>> Library = getLazyBitcodeModule(
      MemoryBufferRef(StringRef(Lib.Data, Lib.Size), "weft-builtins"),
      Context);
  if (!Library) {
    Log += "internal error: cannot read the builtin library: " +
           toString(Library.takeError()) + "\n";
    return nullptr;
  }
  (*M)->setTargetTriple((*Library)->getTargetTriple());
  (*M)->setDataLayout((*Library)->getDataLayout());
  useCCallingConvention(**M);
  renameBuiltins(**M, **Library);
  return std::move(*M);
}

} // namespace weft
