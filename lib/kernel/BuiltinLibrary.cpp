//===- BuiltinLibrary.cpp - Bounds of the embedded bitcode ----------------===//

#include "BuiltinLibrary.h"

extern "C" {
extern const char weft_builtins_baseline_start[], weft_builtins_baseline_end[];
extern const char weft_builtins_avx2_start[], weft_builtins_avx2_end[];
extern const char weft_builtins_avx512_start[], weft_builtins_avx512_end[];
}

namespace weft {

BuiltinLibrary builtinLibraryFor(unsigned SimdBytes) {
  BuiltinLibrary Lib;
  if (SimdBytes >= 64) {
    Lib.Data = weft_builtins_avx512_start;
    Lib.Size = size_t(weft_builtins_avx512_end - weft_builtins_avx512_start);
    Lib.Level = "avx512";
    Lib.CPU = "x86-64-v4";
  } else if (SimdBytes >= 32) {
    Lib.Data = weft_builtins_avx2_start;
    Lib.Size = size_t(weft_builtins_avx2_end - weft_builtins_avx2_start);
    Lib.Level = "avx2";
    Lib.CPU = "x86-64-v3";
  } else {
    Lib.Data = weft_builtins_baseline_start;
    Lib.Size = size_t(weft_builtins_baseline_end - weft_builtins_baseline_start);
    Lib.Level = "baseline";
    Lib.CPU = "x86-64";
  }
  return Lib;
}

} // namespace weft
