//===- FuzzCommon.h - what the OpenCL-level fuzz targets share --*- C++ -*-===//
//
// The targets that go through the ICD loader (build-source, load-binary)
// run on Weft's pthread device with the kernel cache off, so that nothing
// is written to disk and no input is served from an earlier one. A set-up
// step that fails is the harness's fault, not a finding: it aborts with a
// line naming the step.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TESTS_FUZZ_FUZZCOMMON_H
#define WEFT_TESTS_FUZZ_FUZZCOMMON_H

#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace weft_fuzz {

/// Names the target in harness failures.
extern const char *const TargetName;

[[noreturn]] inline void fail(const char *What, cl_int Err) {
  fprintf(stderr, "%s: %s (%d)\n", TargetName, What, Err);
  abort();
}

inline void check(cl_int Err, const char *What) {
  if (Err != CL_SUCCESS)
    fail(What, Err);
}

/// Selects Weft's pthread device (unless WEFT_DEVICES says otherwise) with
/// the cache off, and makes a context on its first device.
inline void openWeftDevice(cl_device_id &Device, cl_context &Context) {
  setenv("WEFT_KERNEL_CACHE", "0", 1);
  setenv("WEFT_DEVICES", "pthread", 0);
  setenv("OCL_ICD_VENDORS", WEFT_FUZZ_ICD, 0);
  cl_uint Count = 0;
  check(clGetPlatformIDs(0, nullptr, &Count), "clGetPlatformIDs");
  std::vector<cl_platform_id> Platforms(Count);
  check(clGetPlatformIDs(Count, Platforms.data(), nullptr), "clGetPlatformIDs");
  for (cl_platform_id P : Platforms) {
    char Name[256] = {};
    clGetPlatformInfo(P, CL_PLATFORM_NAME, sizeof(Name) - 1, Name, nullptr);
    if (!strstr(Name, "Weft"))
      continue;
    check(clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 1, &Device, nullptr),
          "clGetDeviceIDs");
    cl_int Err;
    Context = clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err);
    check(Err, "clCreateContext");
    return;
  }
  fail("no Weft platform", CL_INVALID_PLATFORM);
}

/// Every kernel of a built program (the caller releases them).
inline std::vector<cl_kernel> createAllKernels(cl_program Program) {
  cl_uint Count = 0;
  check(clCreateKernelsInProgram(Program, 0, nullptr, &Count),
        "clCreateKernelsInProgram count");
  std::vector<cl_kernel> Kernels(Count);
  check(clCreateKernelsInProgram(Program, Count, Kernels.data(), nullptr),
        "clCreateKernelsInProgram");
  return Kernels;
}

} // namespace weft_fuzz

#endif // WEFT_TESTS_FUZZ_FUZZCOMMON_H
