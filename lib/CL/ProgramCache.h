//===- ProgramCache.h - clBuildProgram's results kept between runs --------===//
//
// An application that builds its kernels from source at every start pays
// for the front end and the builtin library's link each time (a program
// of 50 kernels, 4,500 lines: 0.2 s of a 0.25 s warm start), although
// the kernel cache already keeps the code. The program cache keeps the
// build itself, in the kernel cache's directory, under a key of the
// source, the options and the device's compiler, so a later
// clBuildProgram of the same program reads it instead. SPIR-V programs
// too: their translator runs as a process of its own.
//
// It must never serve a build that the source would no longer produce. All
// the program's text is in the key except what the preprocessor found
// outside it, so an entry lists every file the preprocessor read (with its
// contents) and every path its searches tried and did not find; a lookup
// reads those files again and misses when one changed, or when a file now
// exists where the search would find it first.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_CL_PROGRAMCACHE_H
#define WEFT_LIB_CL_PROGRAMCACHE_H

#include "weft/compiler.h"

#include <memory>
#include <string>

namespace weft {

/// What a program is built from, as the program cache tells programs
/// apart: OpenCL C source, or a SPIR-V module with the values of its
/// specialization constants.
struct ProgramText {
  std::string Source;
  std::string IL;
  SpecializationConstants Spec;
};

/// The build of Program with Options for Target that an earlier
/// clBuildProgram kept, when its files are unchanged; null otherwise (and
/// always when the kernel cache is off or WEFT_DUMP_IR asks for the IR).
std::shared_ptr<const ProgramBuild> findKeptBuild(const ProgramText &Program,
                                                  const std::string &Options,
                                                  const TargetDesc &Target);

/// Reads an entry's Bytes, checking the files it lists against the file
/// system; null with the reason in Why when it does not hold.
std::shared_ptr<ProgramBuild> decodeKeptBuild(const std::string &Bytes,
                                              const TargetDesc &Target,
                                              std::string &Why);

/// Keeps a successful Build of Program with Options for findKeptBuild.
void keepBuild(const ProgramText &Program, const std::string &Options,
               const TargetDesc &Target, const ProgramBuild &Build);

} // namespace weft

#endif // WEFT_LIB_CL_PROGRAMCACHE_H
