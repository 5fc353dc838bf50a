//===- tests/builtins/BuiltinTestCommon.h - running generated kernels -----===//
//
// The builtin tests generate OpenCL C for many types and widths, run it
// over arrays and compare every element with a host reference computed
// independently (host integer arithmetic, the host FPU in the asked
// rounding mode, F16C for halves). Device-parametrized like tests/api.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TESTS_BUILTINS_BUILTINTESTCOMMON_H
#define WEFT_TESTS_BUILTINS_BUILTINTESTCOMMON_H

#include "../api/TestCommon.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace weft_test {

/// One kernel argument: a host array copied in, and back out if Output.
struct BufferArg {
  void *Host;
  size_t Bytes;
  bool Output;
};

template <typename T> BufferArg in(std::vector<T> &V) {
  return {V.data(), V.size() * sizeof(T), false};
}
template <typename T> BufferArg out(std::vector<T> &V) {
  return {V.data(), V.size() * sizeof(T), true};
}

class BuiltinTest : public DeviceTest {
protected:
  /// Builds Source (once per call) and runs kernel Name over Global work-items
  /// with Args as its buffer arguments in order, in work-groups of Local
  /// work-items (the implementation's choice when 0). False if this call
  /// failed.
  bool runKernel(const std::string &Source, const char *Name, size_t Global,
                 std::vector<BufferArg> Args, const std::string &Options = "",
                 size_t Local = 0) {
    if (Source != LastSource || Options != LastOptions) {
      Program.reset(buildProgram(Context, Device, Source, Options));
      LastSource = Source;
      LastOptions = Options;
    }
    if (!Program)
      return false;
    cl_int Err = CL_SUCCESS;
    KernelRef K(clCreateKernel(Program, Name, &Err));
    EXPECT_CL_OK(Err) << " creating kernel " << Name;
    if (Err != CL_SUCCESS)
      return false;
    // Only this call's own errors count: a failure recorded earlier in the
    // test (another function's accuracy) must not stop the next function
    // from being checked.
    bool Ok = true;
    std::vector<MemRef> Buffers;
    for (size_t I = 0; I < Args.size(); ++I) {
      Buffers.emplace_back(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                      Args[I].Bytes, Args[I].Host));
      cl_mem M = Buffers.back();
      cl_int SetErr = clSetKernelArg(K, cl_uint(I), sizeof(cl_mem), &M);
      EXPECT_CL_OK(SetErr);
      Ok &= SetErr == CL_SUCCESS;
    }
    Err = clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global,
                                 Local ? &Local : nullptr, 0, nullptr, nullptr);
    EXPECT_CL_OK(Err) << " running " << Name;
    if (Err != CL_SUCCESS)
      return false;
    for (size_t I = 0; I < Args.size(); ++I) {
      if (!Args[I].Output)
        continue;
      cl_int ReadErr =
          clEnqueueReadBuffer(Queue, Buffers[I], CL_TRUE, 0, Args[I].Bytes,
                              Args[I].Host, 0, nullptr, nullptr);
      EXPECT_CL_OK(ReadErr);
      Ok &= ReadErr == CL_SUCCESS;
    }
    return Ok;
  }

  bool deviceHasDouble() {
    return deviceInfo<cl_device_fp_config>(Device,
                                           CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
  }

private:
  std::string LastSource, LastOptions;
};

/// "int4", "int" for width 1.
inline std::string vecType(const std::string &Scalar, unsigned Width) {
  return Width == 1 ? Scalar : Scalar + std::to_string(Width);
}

/// Source lines defining LD(i, P) and ST(v, i, P) for Width: vloadN/vstoreN,
/// or plain indexing for scalars.
inline std::string loadStoreMacros(unsigned Width) {
  if (Width == 1)
    return "#undef LD\n#undef ST\n#define LD(i, P) (P)[i]\n"
           "#define ST(v, i, P) ((P)[i] = (v))\n";
  std::string W = std::to_string(Width);
  return "#undef LD\n#undef ST\n#define LD(i, P) vload" + W +
         "(i, P)\n#define ST(v, i, P) vstore" + W + "(v, i, P)\n";
}

/// A small xorshift generator: the tests are reproducible.
struct Random {
  uint64_t State;
  explicit Random(uint64_t Seed) : State(Seed * 0x9e3779b97f4a7c15ull + 1) {}
  uint64_t next() {
    State ^= State << 13;
    State ^= State >> 7;
    State ^= State << 17;
    return State;
  }
};

/// Error of Got against the exact Want in ulps of F (denormal ulps below
/// the normal range); 1e30 for a wrong special value: infinities, NaN and
/// the sign of zero must match exactly.
template <typename F> double ulpError(F Got, long double Want) {
  using L = std::numeric_limits<F>;
  if (std::isnan(Want))
    return std::isnan(Got) ? 0 : 1e30;
  if (std::isnan(Got))
    return 1e30;
  if (std::isinf(Want))
    return Got == F(Want) ? 0 : 1e30;
  if (Want == 0 && Got == 0)
    return std::signbit(Got) == std::signbit(Want) ? 0 : 1e30;
  // Beyond the largest finite value, the rounded result is infinity.
  if (::fabsl(Want) > (long double)L::max()) {
    if (std::isinf(Got) && std::signbit(Got) == std::signbit(Want))
      return 0;
  }
  if (std::isinf(Got))
    return 1e30;
  int E = std::ilogb(Want);
  E = std::max(E, L::min_exponent - 1);
  long double Ulp = std::ldexp((long double)1, E - (L::digits - 1));
  return double(::fabsl((long double)Got - Want) / Ulp);
}

} // namespace weft_test

#endif // WEFT_TESTS_BUILTINS_BUILTINTESTCOMMON_H
