//===- tests/api/TestCommon.h - shared helpers of the API tests -----------===//
//
// The API tests reach the implementation only through the ICD loader, like
// any application. The platform under test is chosen by WEFT_TEST_PLATFORM
// (a substring of CL_PLATFORM_NAME, default "Weft"), so the same tests run
// against another implementation to check the tests themselves.
//
// Device-parametrized suites derive from DeviceTest and are instantiated
// with WEFT_INSTANTIATE_DEVICE_TEST(Suite): one instance per device of the
// platform under test, named after the device.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_TESTS_API_TESTCOMMON_H
#define WEFT_TESTS_API_TESTCOMMON_H

#include <CL/cl.h>
#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <cmath>
#include <vector>

namespace weft_test {

inline const char *errorName(cl_int Err) {
  switch (Err) {
#define WEFT_CASE(E)                                                           \
  case E:                                                                      \
    return #E;
    WEFT_CASE(CL_SUCCESS)
    WEFT_CASE(CL_DEVICE_NOT_FOUND)
    WEFT_CASE(CL_DEVICE_NOT_AVAILABLE)
    WEFT_CASE(CL_COMPILER_NOT_AVAILABLE)
    WEFT_CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    WEFT_CASE(CL_OUT_OF_RESOURCES)
    WEFT_CASE(CL_OUT_OF_HOST_MEMORY)
    WEFT_CASE(CL_PROFILING_INFO_NOT_AVAILABLE)
    WEFT_CASE(CL_MEM_COPY_OVERLAP)
    WEFT_CASE(CL_IMAGE_FORMAT_MISMATCH)
    WEFT_CASE(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    WEFT_CASE(CL_BUILD_PROGRAM_FAILURE)
    WEFT_CASE(CL_MAP_FAILURE)
    WEFT_CASE(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    WEFT_CASE(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    WEFT_CASE(CL_COMPILE_PROGRAM_FAILURE)
    WEFT_CASE(CL_LINKER_NOT_AVAILABLE)
    WEFT_CASE(CL_LINK_PROGRAM_FAILURE)
    WEFT_CASE(CL_DEVICE_PARTITION_FAILED)
    WEFT_CASE(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    WEFT_CASE(CL_INVALID_VALUE)
    WEFT_CASE(CL_INVALID_DEVICE_TYPE)
    WEFT_CASE(CL_INVALID_PLATFORM)
    WEFT_CASE(CL_INVALID_DEVICE)
    WEFT_CASE(CL_INVALID_CONTEXT)
    WEFT_CASE(CL_INVALID_QUEUE_PROPERTIES)
    WEFT_CASE(CL_INVALID_COMMAND_QUEUE)
    WEFT_CASE(CL_INVALID_HOST_PTR)
    WEFT_CASE(CL_INVALID_MEM_OBJECT)
    WEFT_CASE(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    WEFT_CASE(CL_INVALID_IMAGE_SIZE)
    WEFT_CASE(CL_INVALID_SAMPLER)
    WEFT_CASE(CL_INVALID_BINARY)
    WEFT_CASE(CL_INVALID_BUILD_OPTIONS)
    WEFT_CASE(CL_INVALID_PROGRAM)
    WEFT_CASE(CL_INVALID_PROGRAM_EXECUTABLE)
    WEFT_CASE(CL_INVALID_KERNEL_NAME)
    WEFT_CASE(CL_INVALID_KERNEL_DEFINITION)
    WEFT_CASE(CL_INVALID_KERNEL)
    WEFT_CASE(CL_INVALID_ARG_INDEX)
    WEFT_CASE(CL_INVALID_ARG_VALUE)
    WEFT_CASE(CL_INVALID_ARG_SIZE)
    WEFT_CASE(CL_INVALID_KERNEL_ARGS)
    WEFT_CASE(CL_INVALID_WORK_DIMENSION)
    WEFT_CASE(CL_INVALID_WORK_GROUP_SIZE)
    WEFT_CASE(CL_INVALID_WORK_ITEM_SIZE)
    WEFT_CASE(CL_INVALID_GLOBAL_OFFSET)
    WEFT_CASE(CL_INVALID_EVENT_WAIT_LIST)
    WEFT_CASE(CL_INVALID_EVENT)
    WEFT_CASE(CL_INVALID_OPERATION)
    WEFT_CASE(CL_INVALID_GL_OBJECT)
    WEFT_CASE(CL_INVALID_BUFFER_SIZE)
    WEFT_CASE(CL_INVALID_MIP_LEVEL)
    WEFT_CASE(CL_INVALID_GLOBAL_WORK_SIZE)
    WEFT_CASE(CL_INVALID_PROPERTY)
    WEFT_CASE(CL_INVALID_IMAGE_DESCRIPTOR)
    WEFT_CASE(CL_INVALID_COMPILER_OPTIONS)
    WEFT_CASE(CL_INVALID_LINKER_OPTIONS)
    WEFT_CASE(CL_INVALID_DEVICE_PARTITION_COUNT)
    WEFT_CASE(CL_INVALID_PIPE_SIZE)
    WEFT_CASE(CL_INVALID_DEVICE_QUEUE)
    WEFT_CASE(CL_INVALID_SPEC_ID)
    WEFT_CASE(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
#undef WEFT_CASE
  default:
    return "unknown OpenCL error";
  }
}

/// gtest predicate formatter: compares two error codes and prints names.
inline ::testing::AssertionResult clErrorEq(const char *, const char *ActualExpr,
                                            cl_int Expected, cl_int Actual) {
  if (Expected == Actual)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << ActualExpr << "\n  returned " << errorName(Actual) << " ("
         << Actual << ")\n  expected " << errorName(Expected) << " ("
         << Expected << ")";
}

#define EXPECT_CL(Expected, Expr)                                              \
  EXPECT_PRED_FORMAT2(::weft_test::clErrorEq, Expected, Expr)
#define ASSERT_CL(Expected, Expr)                                              \
  ASSERT_PRED_FORMAT2(::weft_test::clErrorEq, Expected, Expr)
#define EXPECT_CL_OK(Expr) EXPECT_CL(CL_SUCCESS, Expr)
#define ASSERT_CL_OK(Expr) ASSERT_CL(CL_SUCCESS, Expr)

bool testingWeft();

/// Like clErrorEq, but only Weft is held to it. Another implementation that
/// deviates from the specification here (the tests also run against other
/// implementations, to check the tests) gets a note on stdout instead.
inline ::testing::AssertionResult
clErrorEqOnWeft(const char *ExpectedExpr, const char *ActualExpr,
                cl_int Expected, cl_int Actual) {
  ::testing::AssertionResult R =
      clErrorEq(ExpectedExpr, ActualExpr, Expected, Actual);
  if (R || testingWeft())
    return R;
  printf("[ DEVIATES ] (tolerated on this platform) %s\n", R.message());
  return ::testing::AssertionSuccess();
}

/// For error checks other implementations are known to get wrong.
#define EXPECT_CL_SPEC(Expected, Expr)                                         \
  EXPECT_PRED_FORMAT2(::weft_test::clErrorEqOnWeft, Expected, Expr)

/// For checks that crash other implementations (they do not validate the
/// handle or pointer in question): run them on Weft only.
#define WEFT_ONLY(Reason)                                                      \
  do {                                                                         \
    if (!::weft_test::testingWeft())                                           \
      GTEST_SKIP() << "checked on Weft only: " << Reason;                      \
  } while (0)

/// Owns one OpenCL handle and releases it when it goes out of scope, so a
/// failed ASSERT does not leak objects into the next test.
template <typename T, cl_int(CL_API_CALL *Release)(T)> class Ref {
public:
  Ref() = default;
  explicit Ref(T H) : H(H) {}
  Ref(const Ref &) = delete;
  Ref &operator=(const Ref &) = delete;
  Ref(Ref &&O) noexcept : H(O.H) { O.H = nullptr; }
  Ref &operator=(Ref &&O) noexcept {
    reset(O.H);
    O.H = nullptr;
    return *this;
  }
  ~Ref() { reset(); }
  void reset(T New = nullptr) {
    if (H)
      Release(H);
    H = New;
  }
  T release() {
    T Old = H;
    H = nullptr;
    return Old;
  }
  T get() const { return H; }
  operator T() const { return H; }
  T *out() {
    reset();
    return &H;
  }

private:
  T H = nullptr;
};

using ContextRef = Ref<cl_context, clReleaseContext>;
using QueueRef = Ref<cl_command_queue, clReleaseCommandQueue>;
using MemRef = Ref<cl_mem, clReleaseMemObject>;
using ProgramRef = Ref<cl_program, clReleaseProgram>;
using KernelRef = Ref<cl_kernel, clReleaseKernel>;
using EventRef = Ref<cl_event, clReleaseEvent>;

/// The platform name substring the tests look for.
inline std::string platformUnderTestName() {
  const char *Env = std::getenv("WEFT_TEST_PLATFORM");
  return Env && *Env ? Env : "Weft";
}

inline std::string platformString(cl_platform_id P, cl_platform_info Param) {
  size_t Size = 0;
  if (clGetPlatformInfo(P, Param, 0, nullptr, &Size) != CL_SUCCESS || !Size)
    return {};
  std::string S(Size, '\0');
  clGetPlatformInfo(P, Param, Size, &S[0], nullptr);
  S.resize(strnlen(S.c_str(), Size));
  return S;
}

inline std::string deviceString(cl_device_id D, cl_device_info Param) {
  size_t Size = 0;
  if (clGetDeviceInfo(D, Param, 0, nullptr, &Size) != CL_SUCCESS || !Size)
    return {};
  std::string S(Size, '\0');
  clGetDeviceInfo(D, Param, Size, &S[0], nullptr);
  S.resize(strnlen(S.c_str(), Size));
  return S;
}

/// Whether D lists the OpenCL C feature Name in CL_DEVICE_OPENCL_C_FEATURES.
inline bool deviceHasFeature(cl_device_id D, const char *Name) {
  size_t Size = 0;
  if (clGetDeviceInfo(D, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &Size) !=
      CL_SUCCESS)
    return false;
  std::vector<cl_name_version> Features(Size / sizeof(cl_name_version));
  if (Size &&
      clGetDeviceInfo(D, CL_DEVICE_OPENCL_C_FEATURES, Size, Features.data(),
                      nullptr) != CL_SUCCESS)
    return false;
  for (const cl_name_version &F : Features)
    if (strcmp(F.name, Name) == 0)
      return true;
  return false;
}

template <typename T> T deviceInfo(cl_device_id D, cl_device_info Param) {
  T Value{};
  cl_int Err = clGetDeviceInfo(D, Param, sizeof(T), &Value, nullptr);
  EXPECT_CL_OK(Err) << " querying device info 0x" << std::hex << Param;
  return Value;
}

template <typename T>
T kernelWorkGroupInfo(cl_kernel K, cl_device_id D,
                      cl_kernel_work_group_info Param) {
  T Value{};
  cl_int Err =
      clGetKernelWorkGroupInfo(K, D, Param, sizeof(T), &Value, nullptr);
  EXPECT_CL_OK(Err) << " querying kernel work-group info 0x" << std::hex
                    << Param;
  return Value;
}

/// The platform under test, or nullptr if the loader does not offer it.
inline cl_platform_id platformUnderTest() {
  static cl_platform_id Found = [] {
    cl_uint Num = 0;
    if (clGetPlatformIDs(0, nullptr, &Num) != CL_SUCCESS || Num == 0)
      return cl_platform_id(nullptr);
    std::vector<cl_platform_id> Platforms(Num);
    clGetPlatformIDs(Num, Platforms.data(), nullptr);
    std::string Wanted = platformUnderTestName();
    for (cl_platform_id P : Platforms)
      if (platformString(P, CL_PLATFORM_NAME).find(Wanted) !=
          std::string::npos)
        return P;
    return cl_platform_id(nullptr);
  }();
  return Found;
}

/// True when the platform under test is Weft itself. Used only where Weft
/// deliberately differs from other implementations for now (no barriers).
inline bool testingWeft() {
  cl_platform_id P = platformUnderTest();
  return P && platformString(P, CL_PLATFORM_NAME) == "Weft";
}

inline std::vector<cl_device_id> allDevices() {
  std::vector<cl_device_id> Devices;
  cl_platform_id P = platformUnderTest();
  cl_uint Num = 0;
  if (!P || clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, 0, nullptr, &Num) !=
                CL_SUCCESS)
    return Devices;
  Devices.resize(Num);
  clGetDeviceIDs(P, CL_DEVICE_TYPE_ALL, Num, Devices.data(), nullptr);
  return Devices;
}

struct DeviceParam {
  cl_device_id Id;
  unsigned Index;
  std::string Name;
};

inline void PrintTo(const DeviceParam &P, std::ostream *OS) {
  *OS << "device " << P.Index << " (" << P.Name << ")";
}

inline const std::vector<DeviceParam> &devicesUnderTest() {
  static const std::vector<DeviceParam> Params = [] {
    std::vector<DeviceParam> Result;
    unsigned Index = 0;
    for (cl_device_id D : allDevices()) {
      Result.push_back({D, Index, deviceString(D, CL_DEVICE_NAME)});
      ++Index;
    }
    return Result;
  }();
  return Params;
}

/// gtest instance names: "<index>_<device name with [A-Za-z0-9] kept>".
inline std::string
deviceParamName(const ::testing::TestParamInfo<DeviceParam> &Info) {
  std::string Name = std::to_string(Info.param.Index) + "_";
  for (char C : Info.param.Name)
    Name += std::isalnum(static_cast<unsigned char>(C)) ? C : '_';
  return Name;
}

/// Builds \p Source for \p Device. On any failure reports the error and the
/// build log as a test failure and returns nullptr.
inline cl_program buildProgram(cl_context Context, cl_device_id Device,
                               const std::string &Source,
                               const std::string &Options = "") {
  const char *Text = Source.c_str();
  cl_int Err = CL_SUCCESS;
  cl_program Program =
      clCreateProgramWithSource(Context, 1, &Text, nullptr, &Err);
  if (Err != CL_SUCCESS) {
    ADD_FAILURE() << "clCreateProgramWithSource: " << errorName(Err);
    return nullptr;
  }
  Err = clBuildProgram(Program, 1, &Device, Options.c_str(), nullptr, nullptr);
  if (Err != CL_SUCCESS) {
    size_t Size = 0;
    clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG, 0, nullptr,
                          &Size);
    std::string Log(Size, '\0');
    if (Size)
      clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG, Size,
                            &Log[0], nullptr);
    Log.resize(strnlen(Log.c_str(), Log.size()));
    ADD_FAILURE() << "clBuildProgram(\"" << Options
                  << "\") failed: " << errorName(Err) << "\n--- build log ---\n"
                  << Log << "\n--- source ---\n"
                  << Source;
    clReleaseProgram(Program);
    return nullptr;
  }
  return Program;
}

inline std::string buildLog(cl_program Program, cl_device_id Device) {
  size_t Size = 0;
  EXPECT_CL_OK(clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG, 0,
                                     nullptr, &Size));
  std::string Log(Size, '\0');
  if (Size) {
    EXPECT_CL_OK(clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG,
                                       Size, &Log[0], nullptr));
  }
  Log.resize(strnlen(Log.c_str(), Log.size()));
  return Log;
}

/// The text of tests/kernels/<Name>.
inline std::string kernelSource(const std::string &Name) {
  std::string Path = std::string(WEFT_TEST_KERNEL_DIR) + "/" + Name;
  std::ifstream In(Path);
  if (!In) {
    ADD_FAILURE() << "cannot read kernel source " << Path;
    return {};
  }
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

/// Space-separated words of an extension string.
inline std::set<std::string> splitWords(const std::string &S) {
  std::set<std::string> Words;
  std::istringstream In(S);
  std::string W;
  while (In >> W)
    Words.insert(W);
  return Words;
}

/// N reproducible pseudo-random words (a linear congruential sequence from
/// Seed), the input of the barrier and loop suites.
inline std::vector<uint32_t> pseudoRandomWords(size_t N, uint32_t Seed) {
  std::vector<uint32_t> V(N);
  uint32_t X = Seed * 2654435761u + 1;
  for (uint32_t &E : V) {
    X = X * 1664525u + 1013904223u;
    E = X >> 7;
  }
  return V;
}

/// A context and an in-order queue on one device of the platform under test.
class DeviceTest : public ::testing::TestWithParam<DeviceParam> {
protected:
  void SetUp() override {
    Device = GetParam().Id;
    cl_int Err = CL_SUCCESS;
    Context.reset(clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err));
    ASSERT_CL_OK(Err);
    Queue.reset(
        clCreateCommandQueueWithProperties(Context, Device, nullptr, &Err));
    ASSERT_CL_OK(Err);
  }

  /// Builds \p Source and creates kernel \p Name; nullptr after a failure.
  cl_kernel makeKernel(const std::string &Source, const char *Name,
                       const std::string &Options = "") {
    Program.reset(buildProgram(Context, Device, Source, Options));
    if (!Program)
      return nullptr;
    cl_int Err = CL_SUCCESS;
    cl_kernel K = clCreateKernel(Program, Name, &Err);
    EXPECT_CL_OK(Err) << " creating kernel " << Name;
    return K;
  }

  cl_mem makeBuffer(cl_mem_flags Flags, size_t Size, void *Host = nullptr) {
    cl_int Err = CL_SUCCESS;
    cl_mem M = clCreateBuffer(Context, Flags, Size, Host, &Err);
    EXPECT_CL_OK(Err) << " creating a buffer of " << Size << " bytes";
    return M;
  }

  /// A buffer holding a copy of Host (CL_MEM_COPY_HOST_PTR added to Flags).
  template <typename T>
  cl_mem makeBufferFrom(const std::vector<T> &Host,
                        cl_mem_flags Flags = CL_MEM_READ_WRITE) {
    return makeBuffer(Flags | CL_MEM_COPY_HOST_PTR, Host.size() * sizeof(T),
                      const_cast<T *>(Host.data()));
  }

  /// Reads Out.size() elements from the start of Buf into Out, blocking.
  template <typename T> cl_int readInto(cl_mem Buf, std::vector<T> &Out) {
    return clEnqueueReadBuffer(Queue, Buf, CL_TRUE, 0, Out.size() * sizeof(T),
                               Out.data(), 0, nullptr, nullptr);
  }

  /// Runs K(global uint *Out, global const uint *In, local uint *Scratch,
  /// int P0, int P1) — the signature of the barrier and loop suites — over
  /// In.size() work-items in groups of Local, with Local words of scratch,
  /// and returns Out (0xdeadbeef where nothing was written).
  std::vector<uint32_t> runWordKernel(cl_kernel K, size_t Local,
                                      const std::vector<uint32_t> &In, int P0,
                                      int P1) {
    const size_t N = In.size();
    std::vector<uint32_t> Out(N, 0xdeadbeef);
    MemRef InBuf(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                            N * sizeof(uint32_t),
                            const_cast<uint32_t *>(In.data())));
    MemRef OutBuf(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                             N * sizeof(uint32_t), Out.data()));
    EXPECT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
    EXPECT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
    EXPECT_CL_OK(clSetKernelArg(K, 2, Local * sizeof(uint32_t), nullptr));
    EXPECT_CL_OK(clSetKernelArg(K, 3, sizeof(int), &P0));
    EXPECT_CL_OK(clSetKernelArg(K, 4, sizeof(int), &P1));
    EXPECT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                        nullptr, nullptr));
    EXPECT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                     N * sizeof(uint32_t), Out.data(), 0,
                                     nullptr, nullptr));
    return Out;
  }

  /// Runs K(int M, int N, int Depth, global const float *A, global const
  /// float *B, global float *C) — the signature of the tiled matrix-product
  /// kernels — over Global in groups of Local and returns C, M * N floats
  /// (-99 where nothing was written).
  template <typename T>
  std::vector<T> runGemmKernel(cl_kernel K, cl_int M, cl_int N, cl_int Depth,
                               const std::vector<T> &A,
                               const std::vector<T> &B, const size_t Global[2],
                               const size_t Local[2]) {
    std::vector<T> C(size_t(M) * N, T(-99));
    MemRef ABuf(makeBufferFrom(A, CL_MEM_READ_ONLY));
    MemRef BBuf(makeBufferFrom(B, CL_MEM_READ_ONLY));
    MemRef CBuf(makeBufferFrom(C));
    EXPECT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_int), &M));
    EXPECT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_int), &N));
    EXPECT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_int), &Depth));
    EXPECT_CL_OK(clSetKernelArg(K, 3, sizeof(cl_mem), &ABuf));
    EXPECT_CL_OK(clSetKernelArg(K, 4, sizeof(cl_mem), &BBuf));
    EXPECT_CL_OK(clSetKernelArg(K, 5, sizeof(cl_mem), &CBuf));
    EXPECT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, Local, 0,
                                        nullptr, nullptr));
    EXPECT_CL_OK(readInto(CBuf, C));
    return C;
  }

  /// Asserts C (N rows of M) equals the host's product: C[n][m] = the fma
  /// sum over k of A[k][m] * B[k][n], all three row-major.
  template <typename T>
  static void expectHostProduct(const std::vector<T> &C,
                                const std::vector<T> &A,
                                const std::vector<T> &B, cl_int M, cl_int N,
                                cl_int Depth) {
    for (cl_int Col = 0; Col < N; ++Col)
      for (cl_int Row = 0; Row < M; ++Row) {
        T Sum = 0;
        for (cl_int I = 0; I < Depth; ++I)
          Sum = std::fma(A[size_t(I) * M + Row], B[size_t(I) * N + Col], Sum);
        ASSERT_EQ(C[size_t(Col) * M + Row], Sum) << "n " << Col << " m " << Row;
      }
  }

  cl_device_id Device = nullptr;
  ContextRef Context;
  QueueRef Queue;
  ProgramRef Program;
};

#define WEFT_INSTANTIATE_DEVICE_TEST(Suite)                                    \
  INSTANTIATE_TEST_SUITE_P(Devices, Suite,                                     \
                           ::testing::ValuesIn(                                \
                               ::weft_test::devicesUnderTest()),               \
                           ::weft_test::deviceParamName)

} // namespace weft_test

#endif // WEFT_TESTS_API_TESTCOMMON_H
