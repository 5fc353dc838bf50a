//===- tests/api/CompileLinkTest.cpp - clCompileProgram and clLinkProgram --===//
//
// Separate compilation: programs compiled with embedded headers, linked
// into an executable (directly or through a library), run and checked
// against the host; link failures, bad options and bad arguments answered
// with the specification's error codes; compiled objects and libraries
// round-tripping through CL_PROGRAM_BINARIES.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <chrono>
#include <thread>

using namespace weft_test;

namespace {

// Included by name from both programs: a static helper and a declaration of
// the function the library program defines.
const char *HelperHeader = R"CLC(
#include "inc/consts.h"
static inline float scale(float x) { return 2.0f * x + ONE; }
float combine(float a, float b);
)CLC";

const char *ConstsHeader = "#define ONE 1.0f\n";

const char *LibrarySource = R"CLC(
#include "helper.h"
float combine(float a, float b) { return scale(a) - b; }
)CLC";

const char *KernelSource = R"CLC(
#include "helper.h"
kernel void apply(global const float *a, global const float *b,
                  global float *out) {
  size_t i = get_global_id(0);
  out[i] = combine(a[i], b[i]) + scale(1.0f);
}
)CLC";

/// What apply computes, on the host.
float applyReference(float A, float B) { return (2.0f * A + 1.0f) - B + 3.0f; }

void CL_CALLBACK countNotify(cl_program, void *UserData) {
  ++*static_cast<int *>(UserData);
}

class CompileLink : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    Helper.reset(source(HelperHeader));
    Consts.reset(source(ConstsHeader));
  }

  cl_program source(const char *Text) {
    cl_int Err = CL_SUCCESS;
    cl_program P = clCreateProgramWithSource(Context, 1, &Text, nullptr, &Err);
    EXPECT_CL_OK(Err);
    return P;
  }

  /// Compiles Text with the two headers; the compiled program, or null
  /// after reporting the failure and its log.
  cl_program compiled(const char *Text, const char *Options = "") {
    cl_program P = source(Text);
    if (!P)
      return nullptr;
    cl_program Headers[] = {Helper, Consts};
    const char *Names[] = {"helper.h", "inc/consts.h"};
    cl_int Err = clCompileProgram(P, 1, &Device, Options, 2, Headers, Names,
                                  nullptr, nullptr);
    if (Err != CL_SUCCESS) {
      ADD_FAILURE() << "clCompileProgram: " << errorName(Err) << "\n"
                    << buildLog(P, Device);
      clReleaseProgram(P);
      return nullptr;
    }
    return P;
  }

  cl_program link(std::vector<cl_program> Inputs, const char *Options,
                  cl_int &Err) {
    return clLinkProgram(Context, 1, &Device, Options, cl_uint(Inputs.size()),
                         Inputs.data(), nullptr, nullptr, &Err);
  }

  cl_build_status status(cl_program P) {
    cl_build_status S = CL_BUILD_NONE;
    EXPECT_CL_OK(clGetProgramBuildInfo(P, Device, CL_PROGRAM_BUILD_STATUS,
                                       sizeof(S), &S, nullptr));
    return S;
  }

  cl_program_binary_type binaryType(cl_program P) {
    cl_program_binary_type T = CL_PROGRAM_BINARY_TYPE_NONE;
    EXPECT_CL_OK(clGetProgramBuildInfo(P, Device, CL_PROGRAM_BINARY_TYPE,
                                       sizeof(T), &T, nullptr));
    return T;
  }

  std::vector<unsigned char> binaryOf(cl_program P) {
    size_t Size = 0;
    EXPECT_CL_OK(clGetProgramInfo(P, CL_PROGRAM_BINARY_SIZES, sizeof(Size),
                                  &Size, nullptr));
    std::vector<unsigned char> Bytes(Size);
    unsigned char *Ptr = Bytes.data();
    EXPECT_CL_OK(
        clGetProgramInfo(P, CL_PROGRAM_BINARIES, sizeof(Ptr), &Ptr, nullptr));
    return Bytes;
  }

  cl_program fromBinary(const std::vector<unsigned char> &Bytes) {
    const unsigned char *Ptr = Bytes.data();
    size_t Length = Bytes.size();
    cl_int Err = CL_SUCCESS, Status = CL_SUCCESS;
    cl_program P = clCreateProgramWithBinary(Context, 1, &Device, &Length, &Ptr,
                                             &Status, &Err);
    EXPECT_CL_OK(Err);
    EXPECT_CL_OK(Status);
    return P;
  }

  /// Runs apply from the linked program P and checks it against the host.
  void checkApply(cl_program P) {
    cl_int Err = CL_SUCCESS;
    KernelRef K(clCreateKernel(P, "apply", &Err));
    ASSERT_CL_OK(Err);
    const size_t N = 1027;
    std::vector<float> A(N), B(N);
    for (size_t I = 0; I < N; ++I) {
      A[I] = float(I % 97) * 0.5f;
      B[I] = float(I % 13) - 6.0f;
    }
    MemRef BA(makeBuffer(CL_MEM_COPY_HOST_PTR, N * sizeof(float), A.data()));
    MemRef BB(makeBuffer(CL_MEM_COPY_HOST_PTR, N * sizeof(float), B.data()));
    MemRef BOut(makeBuffer(CL_MEM_WRITE_ONLY, N * sizeof(float)));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &BA));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &BB));
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_mem), &BOut));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0,
                                        nullptr, nullptr));
    std::vector<float> Out(N);
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, BOut, CL_TRUE, 0,
                                     N * sizeof(float), Out.data(), 0, nullptr,
                                     nullptr));
    // Every value is a small multiple of 0.5: exact in any rounding mode
    // and under any of the math options.
    for (size_t I = 0; I < N; ++I)
      ASSERT_EQ(Out[I], applyReference(A[I], B[I])) << "at " << I;
  }

  ProgramRef Helper, Consts;
};

TEST_P(CompileLink, LinkerIsAvailable) {
  EXPECT_EQ(deviceInfo<cl_bool>(Device, CL_DEVICE_LINKER_AVAILABLE),
            cl_bool(CL_TRUE));
}

TEST_P(CompileLink, CompileWithHeadersLinkAndRun) {
  ProgramRef Lib(compiled(LibrarySource));
  ProgramRef Kern(compiled(KernelSource));
  ASSERT_TRUE(Lib && Kern);
  EXPECT_EQ(status(Kern), CL_BUILD_SUCCESS);
  EXPECT_EQ(binaryType(Kern), cl_program_binary_type(
                                  CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
  // A compiled object is not an executable: no kernels yet.
  cl_int Err = CL_SUCCESS;
  EXPECT_EQ(clCreateKernel(Kern, "apply", &Err), nullptr);
  EXPECT_CL_SPEC(CL_INVALID_PROGRAM_EXECUTABLE, Err);
  size_t NumKernels = 0;
  EXPECT_CL_SPEC(CL_INVALID_PROGRAM_EXECUTABLE,
            clGetProgramInfo(Kern, CL_PROGRAM_NUM_KERNELS, sizeof(NumKernels),
                             &NumKernels, nullptr));

  ProgramRef Linked(link({Lib, Kern}, "", Err));
  ASSERT_CL_OK(Err) << buildLog(Linked, Device);
  ASSERT_NE(Linked.get(), nullptr);
  EXPECT_EQ(status(Linked), CL_BUILD_SUCCESS);
  EXPECT_EQ(binaryType(Linked),
            cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  ASSERT_CL_OK(clGetProgramInfo(Linked, CL_PROGRAM_NUM_KERNELS,
                                sizeof(NumKernels), &NumKernels, nullptr));
  EXPECT_EQ(NumKernels, 1u);
  cl_context LinkedContext = nullptr;
  ASSERT_CL_OK(clGetProgramInfo(Linked, CL_PROGRAM_CONTEXT,
                                sizeof(LinkedContext), &LinkedContext, nullptr));
  EXPECT_EQ(LinkedContext, Context.get());
  checkApply(Linked);
}

TEST_P(CompileLink, LibraryThenExecutable) {
  ProgramRef Lib(compiled(LibrarySource));
  ProgramRef Kern(compiled(KernelSource));
  ASSERT_TRUE(Lib && Kern);
  cl_int Err = CL_SUCCESS;
  ProgramRef Library(link({Lib}, "-create-library", Err));
  ASSERT_CL_OK(Err) << buildLog(Library, Device);
  EXPECT_EQ(status(Library), CL_BUILD_SUCCESS);
  EXPECT_EQ(binaryType(Library),
            cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_LIBRARY));
  EXPECT_EQ(clCreateKernel(Library, "apply", &Err), nullptr);
  EXPECT_CL_SPEC(CL_INVALID_PROGRAM_EXECUTABLE, Err);

  ProgramRef Linked(link({Kern, Library}, "", Err));
  ASSERT_CL_OK(Err) << buildLog(Linked, Device);
  checkApply(Linked);

  // A library that lets link options through, then every link option.
  ProgramRef Open(link({Lib}, "-create-library -enable-link-options", Err));
  if (!testingWeft() && Err == CL_INVALID_LINKER_OPTIONS)
    GTEST_SKIP() << "this platform refuses -enable-link-options";
  ASSERT_CL_OK(Err) << buildLog(Open, Device);
  ProgramRef Fast(link({Kern, Open},
                       "-cl-denorms-are-zero -cl-no-signed-zeros "
                       "-cl-unsafe-math-optimizations -cl-finite-math-only "
                       "-cl-fast-relaxed-math -cl-no-subgroup-ifp",
                       Err));
  if (!testingWeft() && Err == CL_INVALID_LINKER_OPTIONS)
    GTEST_SKIP() << "this platform refuses one of the link options";
  ASSERT_CL_OK(Err) << buildLog(Fast, Device);
  checkApply(Fast);
  std::string Options(64, '\0');
  size_t Size = 0;
  ASSERT_CL_OK(clGetProgramBuildInfo(Fast, Device, CL_PROGRAM_BUILD_OPTIONS, 0,
                                     nullptr, &Size));
  Options.resize(Size);
  ASSERT_CL_OK(clGetProgramBuildInfo(Fast, Device, CL_PROGRAM_BUILD_OPTIONS,
                                     Size, &Options[0], nullptr));
  EXPECT_NE(Options.find("-cl-fast-relaxed-math"), std::string::npos);
}

TEST_P(CompileLink, UndefinedFunctionIsALinkFailure) {
  ProgramRef Kern(compiled(KernelSource));
  ASSERT_TRUE(Kern);
  cl_int Err = CL_SUCCESS;
  ProgramRef Linked(link({Kern}, "", Err));
  EXPECT_CL(CL_LINK_PROGRAM_FAILURE, Err);
  // The specification returns the program even so: its log says why.
  if (!testingWeft() && !Linked)
    GTEST_SKIP() << "this platform returns no program after a link failure";
  ASSERT_NE(Linked.get(), nullptr);
  EXPECT_EQ(status(Linked), CL_BUILD_ERROR);
  std::string Log = buildLog(Linked, Device);
  EXPECT_NE(Log.find("combine"), std::string::npos) << Log;
  EXPECT_EQ(clCreateKernel(Linked, "apply", &Err), nullptr);
  EXPECT_CL(CL_INVALID_PROGRAM_EXECUTABLE, Err);

  // A library may leave it undefined; the executable may not.
  ProgramRef Library(link({Kern}, "-create-library", Err));
  ASSERT_CL_OK(Err) << buildLog(Library, Device);
  ProgramRef FromLibrary(link({Library}, "", Err));
  EXPECT_CL(CL_LINK_PROGRAM_FAILURE, Err);
  ASSERT_NE(FromLibrary.get(), nullptr);
  Log = buildLog(FromLibrary, Device);
  EXPECT_NE(Log.find("combine"), std::string::npos) << Log;
}

TEST_P(CompileLink, DuplicateDefinitionIsALinkFailure) {
  ProgramRef Lib1(compiled(LibrarySource));
  ProgramRef Lib2(compiled(LibrarySource));
  ProgramRef Kern(compiled(KernelSource));
  ASSERT_TRUE(Lib1 && Lib2 && Kern);
  cl_int Err = CL_SUCCESS;
  ProgramRef Linked(link({Lib1, Kern, Lib2}, "", Err));
  EXPECT_CL(CL_LINK_PROGRAM_FAILURE, Err);
  if (!testingWeft() && !Linked)
    GTEST_SKIP() << "this platform returns no program after a link failure";
  ASSERT_NE(Linked.get(), nullptr);
  EXPECT_EQ(status(Linked), CL_BUILD_ERROR);
  std::string Log = buildLog(Linked, Device);
  EXPECT_NE(Log.find("combine"), std::string::npos) << Log;
}

TEST_P(CompileLink, BadLinkOptions) {
  ProgramRef Lib(compiled(LibrarySource));
  ProgramRef Kern(compiled(KernelSource));
  ASSERT_TRUE(Lib && Kern);
  cl_int Err = CL_SUCCESS;
  ProgramRef Linked(link({Lib, Kern}, "-no-such-option", Err));
  EXPECT_CL(CL_INVALID_LINKER_OPTIONS, Err);
  EXPECT_EQ(Linked.get(), nullptr);
  // A compile option is not a link option.
  Linked.reset(link({Lib, Kern}, "-DX=1", Err));
  EXPECT_CL_SPEC(CL_INVALID_LINKER_OPTIONS, Err);
  if (testingWeft()) {
    EXPECT_EQ(Linked.get(), nullptr);
  }
  // -enable-link-options only makes sense for a library.
  Linked.reset(link({Lib, Kern}, "-enable-link-options", Err));
  EXPECT_CL_SPEC(CL_INVALID_LINKER_OPTIONS, Err);
}

TEST_P(CompileLink, CompileFailure) {
  ProgramRef P(source("kernel void k(global int *p) { p[0] = undeclared; }"));
  EXPECT_CL(CL_COMPILE_PROGRAM_FAILURE,
            clCompileProgram(P, 1, &Device, "", 0, nullptr, nullptr, nullptr,
                             nullptr));
  EXPECT_EQ(status(P), CL_BUILD_ERROR);
  std::string Log = buildLog(P, Device);
  EXPECT_NE(Log.find("undeclared"), std::string::npos) << Log;
  if (testingWeft()) {
    EXPECT_EQ(binaryType(P),
              cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_NONE));
  }

  // A header that is not given is a compile error too.
  ProgramRef NoHeader(source(KernelSource));
  EXPECT_CL(CL_COMPILE_PROGRAM_FAILURE,
            clCompileProgram(NoHeader, 1, &Device, "", 0, nullptr, nullptr,
                             nullptr, nullptr));
  Log = buildLog(NoHeader, Device);
  EXPECT_NE(Log.find("helper.h"), std::string::npos) << Log;

  ProgramRef Good(source(LibrarySource));
  cl_program Headers[] = {Helper, Consts};
  const char *Names[] = {"helper.h", "inc/consts.h"};
  EXPECT_CL(CL_INVALID_COMPILER_OPTIONS,
            clCompileProgram(Good, 1, &Device, "-no-such-option", 2, Headers,
                             Names, nullptr, nullptr));
}

TEST_P(CompileLink, CompileArgumentErrors) {
  ProgramRef P(source(LibrarySource));
  cl_program Headers[] = {Helper};
  const char *Names[] = {"helper.h"};
  EXPECT_CL(CL_INVALID_PROGRAM,
            clCompileProgram(nullptr, 1, &Device, "", 0, nullptr, nullptr,
                             nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clCompileProgram(P, 1, nullptr, "", 0, nullptr,
                                               nullptr, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clCompileProgram(P, 0, &Device, "", 0, nullptr,
                                               nullptr, nullptr, nullptr));
  // num_input_headers, input_headers and header_include_names disagree.
  EXPECT_CL(CL_INVALID_VALUE, clCompileProgram(P, 1, &Device, "", 1, nullptr,
                                               nullptr, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clCompileProgram(P, 1, &Device, "", 1, Headers,
                                               nullptr, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clCompileProgram(P, 1, &Device, "", 0, Headers,
                                               Names, nullptr, nullptr));
  int Calls = 0;
  EXPECT_CL(CL_INVALID_VALUE, clCompileProgram(P, 1, &Device, "", 1, Headers,
                                               Names, nullptr, &Calls));
  EXPECT_EQ(status(P), CL_BUILD_NONE);

  // Only a program from source can be compiled.
  ProgramRef Built(buildProgram(Context, Device,
                                "kernel void k(global int *p) { p[0] = 1; }"));
  ASSERT_TRUE(Built);
  ProgramRef FromBinary(fromBinary(binaryOf(Built)));
  EXPECT_CL(CL_INVALID_OPERATION,
            clCompileProgram(FromBinary, 1, &Device, "", 0, nullptr, nullptr,
                             nullptr, nullptr));

  // Not while kernels are attached.
  cl_int Err = CL_SUCCESS;
  KernelRef K(clCreateKernel(Built, "k", &Err));
  ASSERT_CL_OK(Err);
  EXPECT_CL(CL_INVALID_OPERATION,
            clCompileProgram(Built, 1, &Device, "", 0, nullptr, nullptr,
                             nullptr, nullptr));
}

TEST_P(CompileLink, LinkArgumentErrors) {
  ProgramRef Lib(compiled(LibrarySource));
  ASSERT_TRUE(Lib);
  cl_program Inputs[] = {Lib};
  cl_int Err = CL_SUCCESS;
  EXPECT_EQ(clLinkProgram(nullptr, 1, &Device, "", 1, Inputs, nullptr, nullptr,
                          &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_CONTEXT, Err);
  EXPECT_EQ(clLinkProgram(Context, 1, &Device, "", 1, nullptr, nullptr, nullptr,
                          &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  EXPECT_EQ(clLinkProgram(Context, 1, &Device, "", 0, Inputs, nullptr, nullptr,
                          &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  EXPECT_EQ(clLinkProgram(Context, 1, &Device, "", 0, nullptr, nullptr,
                          nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  EXPECT_EQ(clLinkProgram(Context, 1, nullptr, "", 1, Inputs, nullptr, nullptr,
                          &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  int Calls = 0;
  EXPECT_EQ(clLinkProgram(Context, 1, &Device, "", 1, Inputs, nullptr, &Calls,
                          &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);

  // An input with no compiled object: never compiled, or an executable.
  ProgramRef Plain(source(LibrarySource));
  cl_program NotCompiled[] = {Plain};
  EXPECT_EQ(clLinkProgram(Context, 1, &Device, "", 1, NotCompiled, nullptr,
                          nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_OPERATION, Err);
  cl_program Mixed[] = {Lib, Plain};
  EXPECT_EQ(clLinkProgram(Context, 1, &Device, "", 2, Mixed, nullptr, nullptr,
                          &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_OPERATION, Err);
  ProgramRef Built(buildProgram(Context, Device,
                                "kernel void k(global int *p) { p[0] = 1; }"));
  ASSERT_TRUE(Built);
  cl_program Executable[] = {Built};
  EXPECT_EQ(clLinkProgram(Context, 1, &Device, "", 1, Executable, nullptr,
                          nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_OPERATION, Err);
}

TEST_P(CompileLink, NotifyIsCalled) {
  ProgramRef Lib(source(LibrarySource));
  ProgramRef Kern(source(KernelSource));
  cl_program Headers[] = {Helper, Consts};
  const char *Names[] = {"helper.h", "inc/consts.h"};
  int Calls = 0;
  ASSERT_CL_OK(clCompileProgram(Lib, 1, &Device, "", 2, Headers, Names,
                                countNotify, &Calls));
  ASSERT_CL_OK(clCompileProgram(Kern, 1, &Device, "", 2, Headers, Names,
                                countNotify, &Calls));
  cl_program Inputs[] = {Lib, Kern};
  cl_int Err = CL_SUCCESS;
  ProgramRef Linked(clLinkProgram(Context, 1, &Device, "", 2, Inputs,
                                  countNotify, &Calls, &Err));
  ASSERT_NE(Linked.get(), nullptr);
  // With a callback the link may still be running when clLinkProgram
  // returns; a finished one has called back.
  EXPECT_TRUE(Err == CL_SUCCESS) << errorName(Err);
  for (int Wait = 0; Wait < 1000 && status(Linked) == CL_BUILD_IN_PROGRESS;
       ++Wait)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(status(Linked), CL_BUILD_SUCCESS);
  EXPECT_EQ(Calls, 3);
  checkApply(Linked);
}

TEST_P(CompileLink, CompiledObjectBinariesRoundTrip) {
  ProgramRef Lib(compiled(LibrarySource));
  ProgramRef Kern(compiled(KernelSource));
  ASSERT_TRUE(Lib && Kern);
  ProgramRef LibBin(fromBinary(binaryOf(Lib)));
  ProgramRef KernBin(fromBinary(binaryOf(Kern)));
  ASSERT_TRUE(LibBin && KernBin);
  EXPECT_EQ(binaryType(KernBin), cl_program_binary_type(
                                     CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
  cl_int Err = CL_SUCCESS;
  ProgramRef Linked(link({LibBin, KernBin}, "", Err));
  ASSERT_CL_OK(Err) << buildLog(Linked, Device);
  checkApply(Linked);

  // A library's binary too, and the linked executable's.
  ProgramRef Library(link({Lib}, "-create-library", Err));
  ASSERT_CL_OK(Err);
  ProgramRef LibraryBin(fromBinary(binaryOf(Library)));
  ASSERT_TRUE(LibraryBin);
  EXPECT_EQ(binaryType(LibraryBin),
            cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_LIBRARY));
  ProgramRef FromLibrary(link({KernBin, LibraryBin}, "", Err));
  ASSERT_CL_OK(Err) << buildLog(FromLibrary, Device);
  ProgramRef ExecutableBin(fromBinary(binaryOf(FromLibrary)));
  ASSERT_TRUE(ExecutableBin);
  EXPECT_EQ(binaryType(ExecutableBin),
            cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  ASSERT_CL_OK(
      clBuildProgram(ExecutableBin, 1, &Device, "", nullptr, nullptr));
  checkApply(ExecutableBin);
}

TEST_P(CompileLink, BuildFromCompiledObjectBinary) {
  // A self-contained compiled object, loaded as a binary, builds (links)
  // into an executable with clBuildProgram.
  ProgramRef P(source("kernel void twice(global int *p) {"
                      "  p[get_global_id(0)] *= 2; }"));
  ASSERT_CL_OK(clCompileProgram(P, 1, &Device, "", 0, nullptr, nullptr,
                                nullptr, nullptr));
  ProgramRef Bin(fromBinary(binaryOf(P)));
  ASSERT_TRUE(Bin);
  ASSERT_CL_OK(clBuildProgram(Bin, 1, &Device, "", nullptr, nullptr))
      << buildLog(Bin, Device);
  EXPECT_EQ(binaryType(Bin),
            cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  cl_int Err = CL_SUCCESS;
  KernelRef K(clCreateKernel(Bin, "twice", &Err));
  ASSERT_CL_OK(Err);
  std::vector<cl_int> Data = {1, -2, 3, 40, 5, 6, 7};
  MemRef Buf(makeBuffer(CL_MEM_COPY_HOST_PTR, Data.size() * sizeof(cl_int),
                        Data.data()));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
  size_t N = Data.size();
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0,
                                      nullptr, nullptr));
  std::vector<cl_int> Out(N);
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, Buf, CL_TRUE, 0, N * sizeof(cl_int),
                                   Out.data(), 0, nullptr, nullptr));
  for (size_t I = 0; I < N; ++I)
    EXPECT_EQ(Out[I], 2 * Data[I]) << "at " << I;
}

TEST_P(CompileLink, ConcurrentCompilesAndLinks) {
  // Threads link the same inputs and compile programs sharing the header
  // programs, at the same time.
  ProgramRef Lib(compiled(LibrarySource));
  ProgramRef Kern(compiled(KernelSource));
  ASSERT_TRUE(Lib && Kern);
  const int NumThreads = 4;
  std::vector<cl_program> Linked(NumThreads, nullptr);
  std::vector<cl_int> Errors(NumThreads, CL_SUCCESS);
  std::vector<std::thread> Threads;
  for (int T = 0; T < NumThreads; ++T)
    Threads.emplace_back([&, T] {
      cl_program Own = T % 2 ? source(LibrarySource) : nullptr;
      cl_program Headers[] = {Helper, Consts};
      const char *Names[] = {"helper.h", "inc/consts.h"};
      if (Own)
        Errors[T] = clCompileProgram(Own, 1, &Device, "", 2, Headers, Names,
                                     nullptr, nullptr);
      cl_program Inputs[] = {Own ? Own : Lib.get(), Kern};
      cl_int Err = CL_SUCCESS;
      Linked[T] = clLinkProgram(Context, 1, &Device, "", 2, Inputs, nullptr,
                                nullptr, &Err);
      if (Errors[T] == CL_SUCCESS)
        Errors[T] = Err;
      if (Own)
        clReleaseProgram(Own);
    });
  for (std::thread &T : Threads)
    T.join();
  for (int T = 0; T < NumThreads; ++T) {
    ProgramRef P(Linked[T]);
    ASSERT_CL_OK(Errors[T]) << "thread " << T;
    checkApply(P);
  }
}

WEFT_INSTANTIATE_DEVICE_TEST(CompileLink);

} // namespace
