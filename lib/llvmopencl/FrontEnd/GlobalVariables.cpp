//===- GlobalVariables.cpp - The program's variables in global memory -----===//
//
// OpenCL C 3.0 lets a program declare variables in the global address
// space at program scope, and static ones inside functions. They belong
// to the program instance (the program built for one device): every kernel
// of it sees the same copy, a kernel's writes are there at the next
// launch, and two programs, even of the same source, have copies of their
// own.
//
// Kernels are compiled one at a time, per local size, and their objects
// are cached on disk and shared by every program instance with the same
// bitcode. So the copy cannot live in a kernel's object: at build time
// each variable is described (size, alignment, initial bytes, and the
// pointers to other variables its initializer holds), the runtime
// allocates the instance's copies from that description, and before a
// kernel is compiled the variables become external declarations, which
// the loader resolves to the instance's copies by name
// (WorkGroupCompiler.cpp's loadObject). Code reaches them through the GOT
// of position-independent code, wherever the runtime put them.
//
//===----------------------------------------------------------------------===//
#include "FrontEnd/GlobalVariables.h"

#include "WorkGroup/KernelUtils.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

#include <string>

using namespace llvm;

namespace weft {
namespace {

bool isProgramVariable(const GlobalVariable &GV) {
  return GV.getAddressSpace() == GlobalAddressSpace;
}

/// Lays the initial value of one variable into bytes, recording pointers.
class InitializerWriter {
public:
  InitializerWriter(const DataLayout &DL,
                    const DenseMap<const GlobalVariable *, uint32_t> &Index,
                    GlobalVariableDesc &Var)
      : DL(DL), Index(Index), Var(Var) {}

  /// False, with Why set, when C holds something other than data and
  /// addresses of the program's variables.
  bool write(const Constant *C, uint64_t Offset, std::string &Why);

private:
  void writeInteger(const APInt &Value, uint64_t Offset, uint64_t Bytes);
  bool writePointer(const Constant *C, uint64_t Offset, std::string &Why);

  const DataLayout &DL;
  const DenseMap<const GlobalVariable *, uint32_t> &Index;
  GlobalVariableDesc &Var;
};

void InitializerWriter::writeInteger(const APInt &Value, uint64_t Offset,
                                     uint64_t Bytes) {
  for (uint64_t I = 0; I < Bytes && I * 8 < Value.getBitWidth(); ++I)
    Var.Initializer[Offset + I] =
        static_cast<char>(Value.extractBitsAsZExtValue(
            std::min<unsigned>(8, Value.getBitWidth() - I * 8), I * 8));
}

bool InitializerWriter::writePointer(const Constant *C, uint64_t Offset,
                                     std::string &Why) {
  APInt Addend(DL.getIndexTypeSizeInBits(C->getType()), 0);
  const Value *Base =
      C->stripAndAccumulateConstantOffsets(DL, Addend,
                                           /*AllowNonInbounds=*/true);
  Base = Base->stripPointerCasts();
  auto *Target = dyn_cast<GlobalVariable>(Base);
  auto It = Target ? Index.find(Target) : Index.end();
  if (It == Index.end()) {
    Why = "is initialized with the address of '" + Base->getName().str() +
          "', which is not a variable in the global address space";
    return false;
  }
  Var.Pointers.push_back({Offset, It->second, Addend.getSExtValue()});
  return true;
}

bool InitializerWriter::write(const Constant *C, uint64_t Offset,
                              std::string &Why) {
  if (isa<UndefValue>(C) || C->isNullValue())
    return true; // the bytes start as zeros
  Type *Ty = C->getType();
  if (auto *CI = dyn_cast<ConstantInt>(C)) {
    writeInteger(CI->getValue(), Offset, DL.getTypeStoreSize(Ty));
    return true;
  }
  if (auto *CF = dyn_cast<ConstantFP>(C)) {
    writeInteger(CF->getValueAPF().bitcastToAPInt(), Offset,
                 DL.getTypeStoreSize(Ty));
    return true;
  }
  if (Ty->isPointerTy())
    return writePointer(C, Offset, Why);
  if (auto *ST = dyn_cast<StructType>(Ty)) {
    const StructLayout *Layout = DL.getStructLayout(ST);
    for (unsigned I = 0; I < ST->getNumElements(); ++I)
      if (!write(C->getAggregateElement(I),
                 Offset + Layout->getElementOffset(I), Why))
        return false;
    return true;
  }
  if (Ty->isArrayTy() || Ty->isVectorTy()) {
    Type *Element = Ty->isArrayTy() ? Ty->getArrayElementType()
                                    : cast<VectorType>(Ty)->getElementType();
    uint64_t Count = Ty->isArrayTy()
                         ? Ty->getArrayNumElements()
                         : cast<FixedVectorType>(Ty)->getNumElements();
    uint64_t Stride = DL.getTypeAllocSize(Element);
    for (uint64_t I = 0; I < Count; ++I)
      if (!write(C->getAggregateElement(unsigned(I)), Offset + I * Stride,
                 Why))
        return false;
    return true;
  }
  Why = "has an initializer Weft cannot lay out";
  return false;
}

} // namespace

bool describeGlobalVariables(Module &M, const TargetDesc &Target,
                             ProgramBuild &Build) {
  const DataLayout &DL = M.getDataLayout();
  DenseMap<const GlobalVariable *, uint32_t> Index;
  Build.GlobalVariables.clear();
  bool OK = true;
  for (GlobalVariable &GV : M.globals()) {
    if (!isProgramVariable(GV))
      continue;
    if (GV.isDeclaration()) {
      Build.Log += "error: variable '" + GV.getName().str() +
                   "' in the global address space is declared but not "
                   "defined\n";
      OK = false;
      continue;
    }
    if (!GV.hasName())
      GV.setName("__weft_global");
    Index[&GV] = uint32_t(Build.GlobalVariables.size());
    GlobalVariableDesc Var;
    Var.Name = GV.getName().str();
    Var.Size = DL.getTypeAllocSize(GV.getValueType());
    Var.Alignment = GV.getPointerAlignment(DL).value();
    if (Var.Size > Target.MaxGlobalVariableSize) {
      Build.Log += "error: variable '" + Var.Name + "' takes " +
                   std::to_string(Var.Size) +
                   " bytes, more than the device's "
                   "CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE (" +
                   std::to_string(Target.MaxGlobalVariableSize) + ")\n";
      OK = false;
    }
    Build.GlobalVariables.push_back(std::move(Var));
  }
  if (!OK)
    return false;
  for (auto &[GV, I] : Index) {
    GlobalVariableDesc &Var = Build.GlobalVariables[I];
    Var.Initializer.assign(Var.Size, '\0');
    InitializerWriter Writer(DL, Index, Var);
    std::string Why;
    if (!Writer.write(GV->getInitializer(), 0, Why)) {
      Build.Log += "error: variable '" + Var.Name + "' " + Why + "\n";
      OK = false;
    }
  }
  return OK;
}

void externalizeGlobalVariables(Module &M) {
  for (GlobalVariable &GV : M.globals()) {
    if (!isProgramVariable(GV) || GV.isDeclaration())
      continue;
    GV.setInitializer(nullptr);
    GV.setConstant(false);
    GV.setLinkage(GlobalValue::ExternalLinkage);
    GV.setVisibility(GlobalValue::DefaultVisibility);
    GV.setDSOLocal(false);
  }
}

} // namespace weft
