//===- examples/common/ExampleCommon.cpp - host helpers of the samples ----===//

#include "ExampleCommon.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace example {

const char *errorName(cl_int Err) {
  switch (Err) {
#define NAME(E)                                                                \
  case E:                                                                      \
    return #E;
    NAME(CL_SUCCESS)
    NAME(CL_DEVICE_NOT_FOUND)
    NAME(CL_DEVICE_NOT_AVAILABLE)
    NAME(CL_COMPILER_NOT_AVAILABLE)
    NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    NAME(CL_OUT_OF_RESOURCES)
    NAME(CL_OUT_OF_HOST_MEMORY)
    NAME(CL_BUILD_PROGRAM_FAILURE)
    NAME(CL_INVALID_VALUE)
    NAME(CL_INVALID_PLATFORM)
    NAME(CL_INVALID_DEVICE)
    NAME(CL_INVALID_CONTEXT)
    NAME(CL_INVALID_COMMAND_QUEUE)
    NAME(CL_INVALID_HOST_PTR)
    NAME(CL_INVALID_MEM_OBJECT)
    NAME(CL_INVALID_BUILD_OPTIONS)
    NAME(CL_INVALID_PROGRAM)
    NAME(CL_INVALID_PROGRAM_EXECUTABLE)
    NAME(CL_INVALID_KERNEL_NAME)
    NAME(CL_INVALID_KERNEL)
    NAME(CL_INVALID_ARG_INDEX)
    NAME(CL_INVALID_ARG_VALUE)
    NAME(CL_INVALID_ARG_SIZE)
    NAME(CL_INVALID_KERNEL_ARGS)
    NAME(CL_INVALID_WORK_DIMENSION)
    NAME(CL_INVALID_WORK_GROUP_SIZE)
    NAME(CL_INVALID_WORK_ITEM_SIZE)
    NAME(CL_INVALID_GLOBAL_OFFSET)
    NAME(CL_INVALID_EVENT_WAIT_LIST)
    NAME(CL_INVALID_EVENT)
    NAME(CL_INVALID_OPERATION)
    NAME(CL_INVALID_BUFFER_SIZE)
    NAME(CL_INVALID_GLOBAL_WORK_SIZE)
    NAME(CL_INVALID_PROPERTY)
#undef NAME
  default:
    return "unknown OpenCL error";
  }
}

void check(cl_int Err, const char *What) {
  if (Err != CL_SUCCESS)
    throw Error(std::string(What) + ": " + errorName(Err) + " (" +
                std::to_string(Err) + ")");
}

/// True when a failed build's log names only features the implementation
/// says it does not support yet: Weft's words for the atomic builtins while
/// its builtin library lacks them. Every other error line makes the build a
/// real failure. (Barriers were the other such feature until Weft's
/// work-group compiler gained them.)
static bool isUnsupportedFeatureLog(const std::string &Log) {
  bool SawUnsupported = false;
  size_t Pos = 0;
  while (Pos < Log.size()) {
    size_t End = Log.find('\n', Pos);
    if (End == std::string::npos)
      End = Log.size();
    std::string Line = Log.substr(Pos, End - Pos);
    Pos = End + 1;
    if (Line.find("error") == std::string::npos)
      continue;
    bool Atomic = Line.find("error: function 'atom") != std::string::npos &&
                  Line.find("does not provide it yet") != std::string::npos;
    if (!Atomic)
      return false;
    SawUnsupported = true;
  }
  return SawUnsupported;
}

Session::~Session() {
  for (cl_event E : KernelEvents)
    clReleaseEvent(E);
  if (Queue)
    clReleaseCommandQueue(Queue);
  if (Context)
    clReleaseContext(Context);
}

cl_mem Session::buffer(cl_mem_flags Flags, size_t Bytes, void *Host) {
  cl_int Err = CL_SUCCESS;
  cl_mem M = clCreateBuffer(Context, Flags, Bytes, Host, &Err);
  check(Err, "clCreateBuffer");
  return M;
}

cl_program Session::build(const char *Source,
                          const std::string &BuildOptions) {
  auto Start = std::chrono::steady_clock::now();
  cl_int Err = CL_SUCCESS;
  cl_program P = clCreateProgramWithSource(Context, 1, &Source, nullptr, &Err);
  check(Err, "clCreateProgramWithSource");
  Err = clBuildProgram(P, 1, &Device, BuildOptions.c_str(), nullptr, nullptr);
  BuildMs += std::chrono::duration<double, std::milli>(
                 std::chrono::steady_clock::now() - Start)
                 .count();
  if (Err != CL_SUCCESS) {
    size_t Size = 0;
    clGetProgramBuildInfo(P, Device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &Size);
    std::string Log(Size, '\0');
    if (Size)
      clGetProgramBuildInfo(P, Device, CL_PROGRAM_BUILD_LOG, Size, &Log[0],
                            nullptr);
    clReleaseProgram(P);
    std::string Message = std::string("clBuildProgram: ") + errorName(Err) +
                          "\n--- build log ---\n" + Log.c_str();
    if (isUnsupportedFeatureLog(Log.c_str()))
      throw Unsupported(Message);
    throw Error(Message);
  }
  return P;
}

cl_kernel Session::kernel(cl_program Program, const char *Name) {
  cl_int Err = CL_SUCCESS;
  cl_kernel K = clCreateKernel(Program, Name, &Err);
  check(Err, "clCreateKernel");
  return K;
}

/// The kernels' time by their events: the sum of END - START, in ms.
static double profiledMs(const std::vector<cl_event> &Events) {
  double Ns = 0;
  for (cl_event E : Events) {
    cl_ulong Start = 0, End = 0;
    check(clGetEventProfilingInfo(E, CL_PROFILING_COMMAND_START,
                                  sizeof(Start), &Start, nullptr),
          "clGetEventProfilingInfo");
    check(clGetEventProfilingInfo(E, CL_PROFILING_COMMAND_END, sizeof(End),
                                  &End, nullptr),
          "clGetEventProfilingInfo");
    Ns += double(End - Start);
  }
  return Ns / 1e6;
}

static void releaseKernelEvents(Session &S) {
  for (cl_event E : S.KernelEvents)
    clReleaseEvent(E);
  S.KernelEvents.clear();
}

double Session::timeMedian(const std::function<void()> &Launch,
                           const std::function<void()> &Prepare) {
  // One untimed launch first: it may compile the work-group function.
  if (Prepare)
    Prepare();
  Launch();
  finish(*this);
  std::vector<double> Times;
  for (unsigned I = 0; I < Opts->Iterations; ++I) {
    if (Prepare) {
      Prepare();
      check(clFinish(Queue), "clFinish");
    }
    releaseKernelEvents(*this);
    auto Start = std::chrono::steady_clock::now();
    Launch();
    finish(*this);
    double Wall = std::chrono::duration<double, std::milli>(
                      std::chrono::steady_clock::now() - Start)
                      .count();
    Times.push_back(Opts->Profile ? profiledMs(KernelEvents) : Wall);
  }
  releaseKernelEvents(*this);
  if (Times.empty())
    return 0;
  std::sort(Times.begin(), Times.end());
  size_t Mid = Times.size() / 2;
  return Times.size() % 2 ? Times[Mid] : (Times[Mid - 1] + Times[Mid]) / 2;
}

std::vector<float> randomFloats(size_t N, unsigned Seed, float Lo, float Hi) {
  std::vector<float> V(N);
  unsigned long long X = 0x2545f4914f6cdd1dull ^ (Seed * 0x9e3779b97f4a7c15ull);
  for (float &F : V) {
    X ^= X << 13;
    X ^= X >> 7;
    X ^= X << 17;
    F = Lo + (Hi - Lo) * float(X >> 40) / float(1ull << 24);
  }
  return V;
}

std::vector<cl_uint> randomUints(size_t N, unsigned Seed, cl_uint Bound) {
  std::vector<cl_uint> V(N);
  unsigned long long X = 0x9e3779b97f4a7c15ull ^ (Seed * 0x2545f4914f6cdd1dull);
  for (cl_uint &U : V) {
    X ^= X << 13;
    X ^= X >> 7;
    X ^= X << 17;
    U = cl_uint(X >> 32);
    if (Bound)
      U %= Bound;
  }
  return V;
}

void writeBuffer(Session &S, cl_mem Buffer, const void *Data, size_t Bytes) {
  check(clEnqueueWriteBuffer(S.Queue, Buffer, CL_TRUE, 0, Bytes, Data, 0,
                             nullptr, nullptr),
        "clEnqueueWriteBuffer");
}

void readBuffer(Session &S, cl_mem Buffer, void *Data, size_t Bytes) {
  check(clEnqueueReadBuffer(S.Queue, Buffer, CL_TRUE, 0, Bytes, Data, 0,
                            nullptr, nullptr),
        "clEnqueueReadBuffer");
}

/// Flushes, then spins on the event's status until it is final, the way
/// the classic SDK samples wait; releases the event.
static void pollEvent(Session &S, cl_event E) {
  check(clFlush(S.Queue), "clFlush");
  cl_int Status = CL_QUEUED;
  cl_int Err;
  do
    Err = clGetEventInfo(E, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(Status),
                         &Status, nullptr);
  while (Err == CL_SUCCESS && Status > CL_COMPLETE);
  clReleaseEvent(E);
  check(Err, "clGetEventInfo");
  check(Status, "command status");
}

void finish(Session &S) {
  if (!S.Opts || !S.Opts->Poll) {
    check(clFinish(S.Queue), "clFinish");
    return;
  }
  cl_event Marker;
  check(clEnqueueMarkerWithWaitList(S.Queue, 0, nullptr, &Marker),
        "clEnqueueMarkerWithWaitList");
  pollEvent(S, Marker);
}

void enqueue(Session &S, cl_kernel K, cl_uint Dims, const size_t *Global,
             const size_t *Local) {
  bool Poll = S.Opts && S.Opts->Poll;
  bool Profile = S.Opts && S.Opts->Profile;
  cl_event E = nullptr;
  check(clEnqueueNDRangeKernel(S.Queue, K, Dims, nullptr, Global, Local, 0,
                               nullptr, Poll || Profile ? &E : nullptr),
        "clEnqueueNDRangeKernel");
  if (Profile)
    check(clRetainEvent(E), "clRetainEvent");
  if (Poll)
    pollEvent(S, E);
  if (Profile)
    S.KernelEvents.push_back(E);
}

void enqueue1D(Session &S, cl_kernel K, size_t Global, size_t Local) {
  enqueue(S, K, 1, &Global, Local ? &Local : nullptr);
}

void setLocalArg(cl_kernel K, cl_uint Index, size_t Bytes) {
  check(clSetKernelArg(K, Index, Bytes, nullptr), "clSetKernelArg (local)");
}

std::string mismatch(const char *What, size_t Index, double Got, double Want) {
  char Buf[160];
  snprintf(Buf, sizeof(Buf), "%s[%zu] = %.9g, expected %.9g", What, Index, Got,
           Want);
  return Buf;
}

namespace {

[[noreturn]] void usage(const char *Prog, size_t DefaultSize,
                        const char *SizeMeaning,
                        const std::vector<Switch> &Switches, int Status) {
  FILE *Out = Status ? stderr : stdout;
  fprintf(Out,
          "usage: %s [--platform <substring>] [--device <index>] "
          "[--size <N>] [--iterations <N>] [--poll] [--profile]\n"
          "  --platform   platform whose name contains the text (default: "
          "the first)\n"
          "  --device     index of one device of that platform (default: "
          "all)\n"
          "  --size       %s (default %zu)\n"
          "  --iterations timed kernel launches (default 10)\n"
          "  --poll       wait for each launch by polling its event status\n"
          "  --profile    time kernels by their events' profiling times (the "
          "device's clock)\n",
          Prog, SizeMeaning, DefaultSize);
  for (const Switch &Sw : Switches)
    fprintf(Out, "  %-12s %s\n", Sw.Name, Sw.Help);
  exit(Status);
}

unsigned long long parseNumber(const char *Prog, const char *Flag,
                               const char *Text, size_t DefaultSize,
                               const char *SizeMeaning,
                               const std::vector<Switch> &Switches) {
  char *End = nullptr;
  unsigned long long V = strtoull(Text, &End, 10);
  if (!*Text || *End || Text[0] == '-') {
    fprintf(stderr, "%s: %s needs a non-negative integer, not \"%s\"\n", Prog,
            Flag, Text);
    usage(Prog, DefaultSize, SizeMeaning, Switches, 2);
  }
  return V;
}

std::string platformName(cl_platform_id P) {
  size_t Size = 0;
  clGetPlatformInfo(P, CL_PLATFORM_NAME, 0, nullptr, &Size);
  std::string S(Size, '\0');
  clGetPlatformInfo(P, CL_PLATFORM_NAME, Size, &S[0], nullptr);
  return S.c_str();
}

std::string deviceName(cl_device_id D) {
  size_t Size = 0;
  clGetDeviceInfo(D, CL_DEVICE_NAME, 0, nullptr, &Size);
  std::string S(Size, '\0');
  clGetDeviceInfo(D, CL_DEVICE_NAME, Size, &S[0], nullptr);
  return S.c_str();
}

} // namespace

cl_platform_id findPlatform(const std::string &Wanted) {
  cl_uint NumPlatforms = 0;
  if (clGetPlatformIDs(0, nullptr, &NumPlatforms) != CL_SUCCESS)
    return nullptr;
  std::vector<cl_platform_id> Platforms(NumPlatforms);
  check(clGetPlatformIDs(NumPlatforms, Platforms.data(), nullptr),
        "clGetPlatformIDs");
  for (cl_platform_id P : Platforms)
    if (platformName(P).find(Wanted) != std::string::npos)
      return P;
  return nullptr;
}

int runExample(int Argc, char **Argv, const char *Name, size_t DefaultSize,
               const char *SizeMeaning,
               const std::function<Result(Session &)> &Run) {
  return runExample(Argc, Argv, Name, DefaultSize, SizeMeaning, {}, Run);
}

int runExample(int Argc, char **Argv, const char *Name, size_t DefaultSize,
               const char *SizeMeaning, const std::vector<Switch> &Switches,
               const std::function<Result(Session &)> &Run) {
  Options Opts;
  Opts.Size = DefaultSize;
  const char *Prog = Argv[0];
  for (int I = 1; I < Argc; ++I) {
    std::string Arg = Argv[I];
    std::string Value;
    bool HasValue = false;
    size_t Eq = Arg.find('=');
    if (Arg.rfind("--", 0) == 0 && Eq != std::string::npos) {
      Value = Arg.substr(Eq + 1);
      Arg = Arg.substr(0, Eq);
      HasValue = true;
    }
    if (Arg == "--help" || Arg == "-h")
      usage(Prog, DefaultSize, SizeMeaning, Switches, 0);
    if (Arg == "--poll" && !HasValue) {
      Opts.Poll = true;
      continue;
    }
    if (Arg == "--profile" && !HasValue) {
      Opts.Profile = true;
      continue;
    }
    auto Own = std::find_if(Switches.begin(), Switches.end(),
                            [&](const Switch &Sw) { return Arg == Sw.Name; });
    if (Own != Switches.end() && !HasValue) {
      Opts.Switches.insert(Arg);
      continue;
    }
    bool Known = Arg == "--platform" || Arg == "--device" ||
                 Arg == "--size" || Arg == "--iterations";
    if (!Known) {
      fprintf(stderr, "%s: unknown option \"%s\"\n", Prog, Argv[I]);
      usage(Prog, DefaultSize, SizeMeaning, Switches, 2);
    }
    if (!HasValue) {
      if (I + 1 >= Argc) {
        fprintf(stderr, "%s: %s needs a value\n", Prog, Arg.c_str());
        usage(Prog, DefaultSize, SizeMeaning, Switches, 2);
      }
      Value = Argv[++I];
    }
    if (Arg == "--platform")
      Opts.Platform = Value;
    else if (Arg == "--device")
      Opts.Device = int(parseNumber(Prog, "--device", Value.c_str(),
                                    DefaultSize, SizeMeaning, Switches));
    else if (Arg == "--size")
      Opts.Size = size_t(parseNumber(Prog, "--size", Value.c_str(), DefaultSize,
                                     SizeMeaning, Switches));
    else
      Opts.Iterations =
          unsigned(parseNumber(Prog, "--iterations", Value.c_str(), DefaultSize,
                               SizeMeaning, Switches));
  }
  if (Opts.Size == 0) {
    fprintf(stderr, "%s: --size must be positive\n", Prog);
    return 2;
  }

  // Platform.
  cl_uint NumPlatforms = 0;
  cl_int Err = clGetPlatformIDs(0, nullptr, &NumPlatforms);
  if (Err != CL_SUCCESS || NumPlatforms == 0) {
    fprintf(stderr, "%s: no OpenCL platform (%s); is OCL_ICD_VENDORS set?\n",
            Name, errorName(Err));
    return 1;
  }
  std::vector<cl_platform_id> Platforms(NumPlatforms);
  check(clGetPlatformIDs(NumPlatforms, Platforms.data(), nullptr),
        "clGetPlatformIDs");
  cl_platform_id Platform = findPlatform(Opts.Platform);
  if (!Platform) {
    fprintf(stderr, "%s: no platform name contains \"%s\"; there are:\n",
            Name, Opts.Platform.c_str());
    for (cl_platform_id P : Platforms)
      fprintf(stderr, "  %s\n", platformName(P).c_str());
    return 1;
  }

  // Devices.
  cl_uint NumDevices = 0;
  Err = clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &NumDevices);
  if (Err != CL_SUCCESS || NumDevices == 0) {
    fprintf(stderr, "%s: platform \"%s\" has no devices (%s)\n", Name,
            platformName(Platform).c_str(), errorName(Err));
    return 1;
  }
  std::vector<cl_device_id> Devices(NumDevices);
  check(clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, NumDevices,
                       Devices.data(), nullptr),
        "clGetDeviceIDs");
  if (Opts.Device >= 0) {
    if (unsigned(Opts.Device) >= NumDevices) {
      fprintf(stderr, "%s: --device %d, but the platform has %u device(s)\n",
              Name, Opts.Device, NumDevices);
      return 1;
    }
    Devices = {Devices[Opts.Device]};
  }

  int Failures = 0, Skips = 0;
  for (cl_device_id D : Devices) {
    Session S;
    S.Platform = Platform;
    S.Device = D;
    S.DeviceName = deviceName(D);
    S.Opts = &Opts;
    Result R;
    bool Skipped = false;
    try {
      S.Context = clCreateContext(nullptr, 1, &D, nullptr, nullptr, &Err);
      check(Err, "clCreateContext");
      cl_queue_properties Profiling[] = {CL_QUEUE_PROPERTIES,
                                         CL_QUEUE_PROFILING_ENABLE, 0};
      S.Queue = clCreateCommandQueueWithProperties(
          S.Context, D, Opts.Profile ? Profiling : nullptr, &Err);
      check(Err, "clCreateCommandQueueWithProperties");
      R = Run(S);
    } catch (const Unsupported &E) {
      Skipped = true;
      R.Detail = E.what();
    } catch (const Error &E) {
      R.Pass = false;
      R.Detail = E.what();
    }
    if (Skipped) {
      ++Skips;
      printf("%s [%s]: SKIP  %s\n", Name, S.DeviceName.c_str(),
             R.Detail.c_str());
    } else if (R.Pass) {
      printf("%s [%s]: PASS  kernel median%s %.3f ms (%u iterations), build "
             "%.1f ms%s%s\n",
             Name, S.DeviceName.c_str(), Opts.Profile ? " (profiled)" : "",
             R.KernelMs, Opts.Iterations,
             S.BuildMs, R.Detail.empty() ? "" : ", ", R.Detail.c_str());
    } else {
      ++Failures;
      printf("%s [%s]: FAIL  %s\n", Name, S.DeviceName.c_str(),
             R.Detail.c_str());
    }
    fflush(stdout);
  }
  if (Failures)
    return 1;
  return Skips ? SkipExitStatus : 0;
}

} // namespace example
