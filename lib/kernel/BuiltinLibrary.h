//===- BuiltinLibrary.h - The embedded builtin bitcode --------------------===//
//
// lib/kernel is compiled to one bitcode module per x86-64 level at build
// time and linked into libweft; the compiler picks the level matching the
// device's vector width. No LLVM types here: the bytes are parsed by the
// caller.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_BUILTINLIBRARY_H
#define WEFT_BUILTINLIBRARY_H

#include <cstddef>

namespace weft {

struct BuiltinLibrary {
  const char *Data = nullptr; ///< LLVM bitcode
  size_t Size = 0;
  const char *Level = "";     ///< "baseline", "avx2" or "avx512"
  /// The -target-cpu the library was compiled for. Kernels must be compiled
  /// for it too: the x86-64 vector calling convention depends on it.
  const char *CPU = "";
};

/// The library for a device whose widest vector register is SimdBytes.
BuiltinLibrary builtinLibraryFor(unsigned SimdBytes);

} // namespace weft

#endif // WEFT_BUILTINLIBRARY_H
