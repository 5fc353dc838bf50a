//===- GlobalVariables.h - The program's variables in global memory -------===//
#ifndef WEFT_LLVMOPENCL_GLOBALVARIABLES_H
#define WEFT_LLVMOPENCL_GLOBALVARIABLES_H

#include "weft/compiler.h"

namespace llvm {
class Module;
} // namespace llvm

namespace weft {

/// Describes M's variables in the global address space (program-scope and
/// static) into Build.GlobalVariables: size, alignment, initial bytes and
/// the pointers among them. Names unnamed ones, since the loader finds
/// each by name. False, with the reason in Build.Log, for a variable over
/// Target.MaxGlobalVariableSize, declared but never defined, or initialized
/// with an address the program instance cannot hold (a function's, or a
/// __constant variable's).
bool describeGlobalVariables(llvm::Module &M, const TargetDesc &Target,
                             ProgramBuild &Build);

/// Turns those variables into external declarations, before a kernel is
/// compiled: the code then refers to the program instance's copy, which
/// the loader resolves by name, and no optimization may assume what the
/// variables hold (another kernel of the program may have changed it).
void externalizeGlobalVariables(llvm::Module &M);

} // namespace weft

#endif // WEFT_LLVMOPENCL_GLOBALVARIABLES_H
