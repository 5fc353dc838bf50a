//===- examples/common/ExampleCommon.h - host helpers of the samples ------===//
//
// What every sample application shares: command-line options, platform and
// device selection, building an embedded kernel source, timing, and the
// one-line report. Plain OpenCL API only; nothing here knows Weft.
//
//   --platform <substring>  platform whose name contains it (default: first)
//   --device <index>        one device of that platform (default: all)
//   --size <N>              problem size (meaning depends on the sample)
//   --iterations <N>        timed kernel launches (default 10)
//   --poll                  wait for each launch the way many SDK samples
//                           do: flush, then call clGetEventInfo in a loop
//                           until its event is complete (default: clFinish)
//
// A sample may also declare on/off switches of its own (see Switch), e.g.
// SobelFilter's --rgba.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_EXAMPLES_EXAMPLECOMMON_H
#define WEFT_EXAMPLES_EXAMPLECOMMON_H

#include <CL/cl.h>

#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace example {

struct Options {
  std::string Platform;   ///< substring of the platform name; empty: first
  int Device = -1;        ///< device index; -1: every device
  size_t Size = 0;        ///< problem size
  unsigned Iterations = 10;
  bool Poll = false;      ///< wait by polling event status (--poll)
  /// Time kernels by their events' CL_PROFILING_COMMAND_START/END
  /// (--profile): the device's own clock, for a simulated device its
  /// simulated time.
  bool Profile = false;
  std::set<std::string> Switches; ///< the sample's own switches given

  /// True when the sample's switch \p Name (with its dashes) was given.
  bool has(const std::string &Name) const { return Switches.count(Name); }
};

/// An on/off option of one sample, off unless given on the command line.
struct Switch {
  const char *Name; ///< with its dashes: "--rgba"
  const char *Help; ///< one line for the usage text
};

/// One device with a context and an in-order queue.
struct Session {
  cl_platform_id Platform = nullptr;
  cl_device_id Device = nullptr;
  cl_context Context = nullptr;
  cl_command_queue Queue = nullptr;
  std::string DeviceName;
  const Options *Opts = nullptr;

  ~Session();
  /// Creates a buffer; throws on failure.
  cl_mem buffer(cl_mem_flags Flags, size_t Bytes, void *Host = nullptr);
  /// Builds \p Source; throws with the build log on failure. Adds the build
  /// time in milliseconds to BuildMs.
  cl_program build(const char *Source, const std::string &BuildOptions = "");
  /// clCreateKernel; throws on failure.
  cl_kernel kernel(cl_program Program, const char *Name);
  /// Runs \p Launch (which enqueues one launch) Iterations times, waiting
  /// for each, and returns the median time in milliseconds. \p Prepare, if
  /// given, runs untimed before each launch (e.g. to reset an in-place
  /// input).
  double timeMedian(const std::function<void()> &Launch,
                    const std::function<void()> &Prepare = nullptr);

  double BuildMs = 0;
  /// With --profile: the events of the kernels enqueue() made since the
  /// last timed launch began.
  std::vector<cl_event> KernelEvents;
};

/// Thrown by check() and the Session helpers.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Thrown by Session::build when the platform's build log says the program
/// uses a feature the implementation does not support yet (Weft while its
/// atomic builtins are being brought up). Reported as SKIP, never as PASS;
/// any other build failure is a FAIL.
struct Unsupported : Error {
  using Error::Error;
};

const char *errorName(cl_int Err);

/// Throws Error("<What>: <error name>") unless Err is CL_SUCCESS.
void check(cl_int Err, const char *What);

/// The first platform whose name contains Wanted (the first of all for an
/// empty Wanted), or null when none does.
cl_platform_id findPlatform(const std::string &Wanted);

/// The result of one run on one device.
struct Result {
  bool Pass = false;
  double KernelMs = 0; ///< median kernel time
  std::string Detail;  ///< why it failed, or extra information
};

/// Parses the options (exits with usage on a bad command line), then calls
/// \p Run for every selected device and prints one line each:
///   <Name> [<device>]: PASS  kernel median 0.123 ms (10 iterations), build 45.6 ms
/// (with --profile: "kernel median (profiled) ...", the kernels' time by
/// their events)
///   <Name> [<device>]: SKIP  <why>   (see Unsupported)
/// Returns the process exit status: 0 when every device passed, 1 when one
/// failed, SkipExitStatus when none failed but one skipped.
int runExample(int Argc, char **Argv, const char *Name, size_t DefaultSize,
               const char *SizeMeaning,
               const std::function<Result(Session &)> &Run);
/// The same for a sample that also accepts the switches \p Switches.
int runExample(int Argc, char **Argv, const char *Name, size_t DefaultSize,
               const char *SizeMeaning, const std::vector<Switch> &Switches,
               const std::function<Result(Session &)> &Run);

/// Exit status of a run that skipped (ctest's SKIP_RETURN_CODE).
constexpr int SkipExitStatus = 77;

/// Deterministic pseudo-random floats in [Lo, Hi).
std::vector<float> randomFloats(size_t N, unsigned Seed, float Lo, float Hi);

/// Deterministic pseudo-random 32-bit integers in [0, Bound) (Bound 0: any).
std::vector<cl_uint> randomUints(size_t N, unsigned Seed, cl_uint Bound = 0);

/// Blocking whole-buffer transfers; throw on failure.
void writeBuffer(Session &S, cl_mem Buffer, const void *Data, size_t Bytes);
void readBuffer(Session &S, cl_mem Buffer, void *Data, size_t Bytes);
template <typename T>
void writeBuffer(Session &S, cl_mem Buffer, const std::vector<T> &Data) {
  writeBuffer(S, Buffer, Data.data(), Data.size() * sizeof(T));
}
template <typename T>
void readBuffer(Session &S, cl_mem Buffer, std::vector<T> &Data) {
  readBuffer(S, Buffer, Data.data(), Data.size() * sizeof(T));
}

/// Waits for everything enqueued on S's queue: clFinish, or with --poll a
/// marker's status polled with clGetEventInfo. Throws.
void finish(Session &S);

/// clEnqueueNDRangeKernel; Local may be null. With --poll, waits for the
/// launch by polling its event, as SDK samples do; with --profile, keeps
/// its event for timeMedian. Throws.
void enqueue(Session &S, cl_kernel K, cl_uint Dims, const size_t *Global,
             const size_t *Local);
/// One-dimensional form.
void enqueue1D(Session &S, cl_kernel K, size_t Global, size_t Local);

/// clSetKernelArg for a __local argument of Bytes bytes; throws.
void setLocalArg(cl_kernel K, cl_uint Index, size_t Bytes);

/// "<What>[<Index>] = <Got>, expected <Want>" for a failure message.
std::string mismatch(const char *What, size_t Index, double Got, double Want);

/// Releases an OpenCL object when it goes out of scope.
template <typename T, cl_int(CL_API_CALL *Release)(T)> struct Holder {
  T H;
  explicit Holder(T H) : H(H) {}
  Holder(const Holder &) = delete;
  Holder &operator=(const Holder &) = delete;
  Holder(Holder &&Other) noexcept : H(Other.H) { Other.H = nullptr; }
  ~Holder() {
    if (H)
      Release(H);
  }
  operator T() const { return H; }
  const T *ptr() const { return &H; }
};
using Mem = Holder<cl_mem, clReleaseMemObject>;
using Program = Holder<cl_program, clReleaseProgram>;
using Kernel = Holder<cl_kernel, clReleaseKernel>;

/// clSetKernelArg with the size taken from the argument; throws on failure.
template <typename T> void setArg(cl_kernel K, cl_uint Index, const T &Value) {
  check(clSetKernelArg(K, Index, sizeof(T), &Value), "clSetKernelArg");
}

} // namespace example

#endif // WEFT_EXAMPLES_EXAMPLECOMMON_H
