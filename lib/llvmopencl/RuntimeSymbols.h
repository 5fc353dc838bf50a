//===- RuntimeSymbols.h - Host functions drivers offer to kernel code -----===//
//
// registerRuntimeSymbol (weft/compiler.h) fills a process-wide table; the
// loader consults it through a definition generator whenever a kernel's
// object refers to a symbol nothing else defines.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_RUNTIMESYMBOLS_H
#define WEFT_LLVMOPENCL_RUNTIMESYMBOLS_H

#include "llvm/ExecutionEngine/Orc/Core.h"

#include <memory>

namespace weft {

/// A generator that defines, in the JITDylib it is added to, the registered
/// symbols a lookup asks for. GlobalPrefix is the data layout's symbol
/// prefix ('\0' on ELF).
std::unique_ptr<llvm::orc::DefinitionGenerator>
createRuntimeSymbolGenerator(char GlobalPrefix);

} // namespace weft

#endif // WEFT_LLVMOPENCL_RUNTIMESYMBOLS_H
