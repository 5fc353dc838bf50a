//===- LinkProgramTest.cpp - compileProgram / linkProgram -----------------===//
//
// What the API tests cannot see: the IR that separate compilation produces.
// A compiled object holds the program's own code only (builtins still
// declarations); an executable linked from objects has the builtins and the
// kernel descriptions; the link-time math options reach the program's
// functions as attributes and fast-math flags, except those of a library
// made without -enable-link-options.
//
//===----------------------------------------------------------------------===//
#include "weft/compiler.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

namespace {

using weft::BinaryKind;
using weft::ProgramBuild;

const weft::TargetDesc &host() {
  static weft::TargetDesc T = weft::hostTargetDesc();
  return T;
}

const char *Header = "float combine(float a, float b);\n";
const char *Helper = R"CLC(
#include "combine.h"
float combine(float a, float b) { return sqrt(a) + b; }
)CLC";
const char *Kernel = R"CLC(
#include "combine.h"
kernel void k(global float *p) { p[0] = combine(p[0], p[1]) * p[2]; }
)CLC";

ProgramBuild compiled(const char *Source) {
  ProgramBuild B =
      weft::compileProgram(Source, "", {{"combine.h", Header}}, host());
  EXPECT_EQ(B.Result, ProgramBuild::Status::Success) << B.Log;
  EXPECT_EQ(B.Kind, BinaryKind::CompiledObject);
  return B;
}

std::unique_ptr<llvm::Module> parse(llvm::LLVMContext &Context,
                                    const std::string &Bitcode) {
  auto M = llvm::parseBitcodeFile(llvm::MemoryBufferRef(Bitcode, "test"),
                                  Context);
  if (!M) {
    ADD_FAILURE() << llvm::toString(M.takeError());
    return nullptr;
  }
  return std::move(*M);
}

bool hasAttr(const llvm::Function &F, const char *Name) {
  return F.getFnAttribute(Name).getValueAsString() == "true";
}

/// Whether every floating-point operation of F carries no-signed-zeros.
bool allFPOpsNSZ(const llvm::Function &F) {
  bool Any = false;
  for (const llvm::Instruction &I : llvm::instructions(F))
    if (llvm::isa<llvm::FPMathOperator>(&I) &&
        I.getType()->isFloatingPointTy()) {
      Any = true;
      if (!I.hasNoSignedZeros())
        return false;
    }
  return Any;
}

TEST(LinkProgram, ObjectHasNoBuiltinsExecutableHas) {
  ProgramBuild Obj = compiled(Helper);
  llvm::LLVMContext Context;
  auto M = parse(Context, Obj.Bitcode);
  ASSERT_TRUE(M);
  ASSERT_TRUE(M->getFunction("combine"));
  llvm::Function *Sqrt = M->getFunction("_Z4sqrtf");
  ASSERT_TRUE(Sqrt);
  EXPECT_TRUE(Sqrt->isDeclaration());
  EXPECT_TRUE(Obj.Kernels.empty());

  ProgramBuild Exe =
      weft::linkProgram({Obj.Bitcode, compiled(Kernel).Bitcode}, "", host());
  ASSERT_EQ(Exe.Result, ProgramBuild::Status::Success) << Exe.Log;
  EXPECT_EQ(Exe.Kind, BinaryKind::Executable);
  ASSERT_EQ(Exe.Kernels.size(), 1u);
  EXPECT_EQ(Exe.Kernels[0].Name, "k");
  ASSERT_EQ(Exe.Kernels[0].Args.size(), 1u);
  auto L = parse(Context, Exe.Bitcode);
  ASSERT_TRUE(L);
  // sqrt is defined now (or was inlined and dropped), never left undefined.
  if (llvm::Function *S = L->getFunction("_Z4sqrtf")) {
    EXPECT_FALSE(S->isDeclaration() && !S->use_empty());
  }
}

TEST(LinkProgram, MathOptionsReachTheProgram) {
  ProgramBuild Obj = compiled(Helper), Kern = compiled(Kernel);
  ProgramBuild Exe = weft::linkProgram({Obj.Bitcode, Kern.Bitcode},
                                       "-cl-fast-relaxed-math", host());
  ASSERT_EQ(Exe.Result, ProgramBuild::Status::Success) << Exe.Log;
  llvm::LLVMContext Context;
  auto M = parse(Context, Exe.Bitcode);
  ASSERT_TRUE(M);
  for (const char *Name : {"combine", "k"}) {
    llvm::Function *F = M->getFunction(Name);
    ASSERT_TRUE(F) << Name;
    EXPECT_TRUE(hasAttr(*F, "unsafe-fp-math")) << Name;
    EXPECT_TRUE(hasAttr(*F, "no-infs-fp-math")) << Name;
    EXPECT_TRUE(hasAttr(*F, "no-signed-zeros-fp-math")) << Name;
    EXPECT_TRUE(allFPOpsNSZ(*F)) << Name;
  }

  // Without options, none of it.
  ProgramBuild Plain =
      weft::linkProgram({Obj.Bitcode, Kern.Bitcode}, "", host());
  ASSERT_EQ(Plain.Result, ProgramBuild::Status::Success) << Plain.Log;
  auto P = parse(Context, Plain.Bitcode);
  ASSERT_TRUE(P);
  EXPECT_FALSE(hasAttr(*P->getFunction("k"), "unsafe-fp-math"));
  EXPECT_FALSE(allFPOpsNSZ(*P->getFunction("k")));
}

TEST(LinkProgram, LibraryKeepsItsSemanticsUnlessItAllowsLinkOptions) {
  ProgramBuild Obj = compiled(Helper), Kern = compiled(Kernel);
  for (bool Enable : {false, true}) {
    ProgramBuild Lib = weft::linkProgram(
        {Obj.Bitcode},
        Enable ? "-create-library -enable-link-options" : "-create-library",
        host());
    ASSERT_EQ(Lib.Result, ProgramBuild::Status::Success) << Lib.Log;
    EXPECT_EQ(Lib.Kind, BinaryKind::Library);
    ProgramBuild Exe = weft::linkProgram({Kern.Bitcode, Lib.Bitcode},
                                         "-cl-no-signed-zeros", host());
    ASSERT_EQ(Exe.Result, ProgramBuild::Status::Success) << Exe.Log;
    llvm::LLVMContext Context;
    auto M = parse(Context, Exe.Bitcode);
    ASSERT_TRUE(M);
    EXPECT_TRUE(hasAttr(*M->getFunction("k"), "no-signed-zeros-fp-math"));
    EXPECT_EQ(hasAttr(*M->getFunction("combine"), "no-signed-zeros-fp-math"),
              Enable);
    EXPECT_FALSE(
        M->getFunction("combine")->hasFnAttribute("weft-no-link-options"));
  }
}

TEST(LinkProgram, NestedEmbeddedHeaders) {
  // "inc/defs.h" includes "two.h" by the name it was given, from another
  // directory; "helper.h" is found next to the source.
  ProgramBuild B = weft::compileProgram(
      "#include \"helper.h\"\nkernel void k(global int *p) { *p = TWICE(3); }",
      "",
      {{"helper.h", "#include \"inc/defs.h\"\n"},
       {"inc/defs.h", "#include \"two.h\"\n#define TWICE(x) (TWO * (x))\n"},
       {"two.h", "#define TWO 2\n"}},
      host());
  EXPECT_EQ(B.Result, ProgramBuild::Status::Success) << B.Log;
}

TEST(LinkProgram, Failures) {
  ProgramBuild Kern = compiled(Kernel);
  ProgramBuild Undefined = weft::linkProgram({Kern.Bitcode}, "", host());
  EXPECT_EQ(Undefined.Result, ProgramBuild::Status::BuildFailure);
  EXPECT_NE(Undefined.Log.find("combine"), std::string::npos) << Undefined.Log;
  EXPECT_TRUE(Undefined.Kernels.empty());

  ProgramBuild Obj = compiled(Helper);
  ProgramBuild Twice =
      weft::linkProgram({Obj.Bitcode, Kern.Bitcode, Obj.Bitcode}, "", host());
  EXPECT_EQ(Twice.Result, ProgramBuild::Status::BuildFailure);
  EXPECT_NE(Twice.Log.find("combine"), std::string::npos) << Twice.Log;

  ProgramBuild Garbage = weft::linkProgram({"not bitcode"}, "", host());
  EXPECT_EQ(Garbage.Result, ProgramBuild::Status::BuildFailure);
  EXPECT_FALSE(Garbage.Log.empty());

  EXPECT_EQ(weft::linkProgram({Obj.Bitcode}, "-O2", host()).Result,
            ProgramBuild::Status::InvalidOptions);
  EXPECT_EQ(
      weft::linkProgram({Obj.Bitcode}, "-enable-link-options", host()).Result,
      ProgramBuild::Status::InvalidOptions);
}

} // namespace
