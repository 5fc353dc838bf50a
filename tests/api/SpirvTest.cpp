//===- tests/api/SpirvTest.cpp - SPIR-V programs (clCreateProgramWithIL) --===//
//
// Modules made at build time by another tool chain (tests/spirv: clang-15
// and the SPIR-V/LLVM translator at -O0 and -O2, and a hand-written module
// with specialization constants), run on every device and compared with
// host references and with the same OpenCL C built from source.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>

using namespace weft_test;

namespace {

std::string readBytes(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(In),
                     std::istreambuf_iterator<char>());
}

class Spirv : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    ASSERT_STRNE(WEFT_TEST_SPIRV_DIR, "")
        << "the SPIR-V test modules were not built (clang-15, "
           "llvm-spirv-15 and spirv-as are needed: scripts/install-deps.sh)";
    if (deviceString(Device, CL_DEVICE_IL_VERSION).find("SPIR-V") ==
        std::string::npos) {
      EXPECT_FALSE(testingWeft()) << "Weft takes SPIR-V (llvm-spirv-15)";
      GTEST_SKIP() << "the device takes no SPIR-V";
    }
  }
  std::string module(const char *Name) {
    std::string Bytes =
        readBytes(std::string(WEFT_TEST_SPIRV_DIR) + "/" + Name);
    EXPECT_FALSE(Bytes.empty()) << "cannot read " << Name;
    return Bytes;
  }
  cl_program createIL(const std::string &IL, cl_int *Err) {
    return clCreateProgramWithIL(Context, IL.data(), IL.size(), Err);
  }
  /// Creates and builds a program from IL; null after a reported failure.
  cl_program buildIL(const std::string &IL, const char *Options = "") {
    cl_int Err = CL_SUCCESS;
    cl_program P = createIL(IL, &Err);
    EXPECT_CL_OK(Err);
    if (!P)
      return nullptr;
    Err = clBuildProgram(P, 1, &Device, Options, nullptr, nullptr);
    EXPECT_CL_OK(Err) << buildLog(P, Device);
    if (Err != CL_SUCCESS) {
      clReleaseProgram(P);
      return nullptr;
    }
    return P;
  }
  cl_kernel kernel(cl_program P, const char *Name) {
    cl_int Err = CL_SUCCESS;
    cl_kernel K = clCreateKernel(P, Name, &Err);
    EXPECT_CL_OK(Err) << Name;
    return K;
  }
  /// Runs every kernel of tests/spirv/kernels.cl from P against host
  /// references; the outputs of math, for comparison with another build.
  std::vector<float> runAll(cl_program P);
};

std::vector<float> Spirv::runAll(cl_program P) {
  const size_t N = 256, Local = 64;
  std::vector<cl_int> Ints(N);
  for (size_t I = 0; I < N; ++I)
    Ints[I] = static_cast<cl_int>(I * 7919 % 1013);
  // Kernels (In, Out, local Tile) over N in groups of Local.
  auto RunTiled = [&](const char *Name) {
    KernelRef K(kernel(P, Name));
    MemRef In(makeBufferFrom(Ints)), Out(makeBufferFrom(std::vector<cl_int>(N)));
    EXPECT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &In));
    EXPECT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &Out));
    EXPECT_CL_OK(clSetKernelArg(K, 2, Local * sizeof(cl_int), nullptr));
    EXPECT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                        nullptr, nullptr));
    std::vector<cl_int> Got(N);
    EXPECT_CL_OK(readInto(Out, Got));
    return Got;
  };
  {
    std::vector<cl_int> Got = RunTiled("reverse_groups");
    for (size_t I = 0; I < N; ++I)
      EXPECT_EQ(Got[I], Ints[I / Local * Local + Local - 1 - I % Local]) << I;
  }
  {
    KernelRef K(kernel(P, "histogram"));
    std::vector<cl_int> Bins(16, 0), Want(16, 0);
    for (cl_int V : Ints)
      ++Want[V & 15];
    MemRef In(makeBufferFrom(Ints)), B(makeBufferFrom(Bins));
    EXPECT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &In));
    EXPECT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &B));
    EXPECT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0,
                                        nullptr, nullptr));
    EXPECT_CL_OK(readInto(B, Bins));
    EXPECT_EQ(Bins, Want);
  }
  std::vector<float> Math(4 * N);
  {
    KernelRef K(kernel(P, "math"));
    std::vector<float> X(N);
    for (size_t I = 0; I < N; ++I)
      X[I] = 0.25f + 0.37f * I;
    MemRef In(makeBufferFrom(X)), Out(makeBufferFrom(Math));
    EXPECT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &In));
    EXPECT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &Out));
    EXPECT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0,
                                        nullptr, nullptr));
    EXPECT_CL_OK(readInto(Out, Math));
    for (size_t I = 0; I < N; ++I) {
      double V = X[I], Whole = std::floor(V);
      double Want[4] = {std::sin(V) * std::exp(-V), std::pow(V, 1.5),
                        V - Whole, Whole + std::sqrt(V)};
      for (int J = 0; J < 4; ++J)
        EXPECT_NEAR(Math[4 * I + J], Want[J], 1e-5 * std::fabs(Want[J]) + 1e-7)
            << "x " << V << " output " << J;
    }
  }
  {
    KernelRef K(kernel(P, "vectors"));
    std::vector<float> In(N);
    for (size_t I = 0; I < N; ++I)
      In[I] = (static_cast<float>(I) - 128.0f) * 3.3e7f;
    float Scale = 0.75f;
    std::vector<cl_int> Got(N, 0);
    MemRef InBuf(makeBufferFrom(In)), Out(makeBufferFrom(Got));
    EXPECT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf));
    EXPECT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &Out));
    EXPECT_CL_OK(clSetKernelArg(K, 2, sizeof(float), &Scale));
    size_t Quads = N / 4;
    EXPECT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Quads, nullptr,
                                        0, nullptr, nullptr));
    EXPECT_CL_OK(readInto(Out, Got));
    for (size_t I = 0; I < N; ++I) {
      double V = std::trunc(double(In[I] * Scale));
      V = std::min(std::max(V, -2147483648.0), 2147483647.0);
      EXPECT_EQ(Got[I], static_cast<cl_int>(V)) << I;
    }
  }
  if (deviceInfo<cl_bool>(Device, CL_DEVICE_IMAGE_SUPPORT)) {
    KernelRef K(kernel(P, "copy_image"));
    const size_t W = 8, H = 4;
    std::vector<float> Pixels(W * H * 4);
    for (size_t I = 0; I < Pixels.size(); ++I)
      Pixels[I] = 0.125f * I;
    cl_image_format F{CL_RGBA, CL_FLOAT};
    cl_image_desc D{};
    D.image_type = CL_MEM_OBJECT_IMAGE2D;
    D.image_width = W;
    D.image_height = H;
    cl_int Err = CL_SUCCESS;
    MemRef Src(clCreateImage(Context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                             &F, &D, Pixels.data(), &Err));
    EXPECT_CL_OK(Err);
    MemRef Dst(clCreateImage(Context, CL_MEM_WRITE_ONLY, &F, &D, nullptr,
                             &Err));
    EXPECT_CL_OK(Err);
    cl_sampler S = clCreateSampler(Context, CL_FALSE, CL_ADDRESS_CLAMP,
                                   CL_FILTER_NEAREST, &Err);
    EXPECT_CL_OK(Err);
    EXPECT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Src));
    EXPECT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &Dst));
    EXPECT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_sampler), &S));
    size_t Global[2] = {W, H};
    EXPECT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, nullptr,
                                        0, nullptr, nullptr));
    std::vector<float> Got(Pixels.size());
    size_t Zero[3] = {0, 0, 0}, Region[3] = {W, H, 1};
    EXPECT_CL_OK(clEnqueueReadImage(Queue, Dst, CL_TRUE, Zero, Region, 0, 0,
                                    Got.data(), 0, nullptr, nullptr));
    for (size_t I = 0; I < Got.size(); ++I)
      EXPECT_EQ(Got[I], 2 * Pixels[I]) << I;
    clReleaseSampler(S);
  }
  {
    std::vector<cl_int> Got = RunTiled("async_sum");
    for (size_t I = 0; I < N; ++I) {
      size_t Base = I / Local * Local;
      EXPECT_EQ(Got[I], Ints[I] + Ints[Base + (I - Base + 1) % Local]) << I;
    }
  }
  return Math;
}

TEST_P(Spirv, DeviceReportsSpirvVersions) {
  EXPECT_NE(deviceString(Device, CL_DEVICE_IL_VERSION).find("SPIR-V_1.0"),
            std::string::npos);
  EXPECT_TRUE(splitWords(deviceString(Device, CL_DEVICE_EXTENSIONS))
                  .count("cl_khr_il_program"));
  size_t Size = 0;
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_ILS_WITH_VERSION, 0, nullptr,
                               &Size));
  std::vector<cl_name_version> ILs(Size / sizeof(cl_name_version));
  ASSERT_FALSE(ILs.empty());
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_ILS_WITH_VERSION, Size,
                               ILs.data(), nullptr));
  EXPECT_STREQ(ILs[0].name, "SPIR-V");
  EXPECT_EQ(ILs[0].version, CL_MAKE_VERSION(1, 0, 0));
}

// The same kernels from SPIR-V made by clang-15 at -O0 and at -O2, and
// from their OpenCL C source: all against the host, and the math
// results of the three alike.
TEST_P(Spirv, ModulesFromAnotherToolChainRunLikeTheirSource) {
  ProgramRef FromSource(buildProgram(
      Context, Device,
      readBytes(std::string(WEFT_TEST_SPIRV_SOURCES) + "/kernels.cl")));
  ASSERT_NE(FromSource.get(), nullptr);
  std::vector<float> Reference = runAll(FromSource);
  std::vector<const char *> Modules = {"kernels-O0.spv", "kernels-O2.spv"};
  // With NoSignedWrap decorations (SPV_KHR_no_integer_wrap_decoration).
  if (splitWords(deviceString(Device, CL_DEVICE_EXTENSIONS))
          .count("cl_khr_spirv_no_integer_wrap_decoration"))
    Modules.push_back("kernels-nowrap.spv");
  else
    EXPECT_FALSE(testingWeft())
        << "Weft takes SPV_KHR_no_integer_wrap_decoration";
  for (const char *Name : Modules) {
    SCOPED_TRACE(Name);
    std::string IL = module(Name);
    ProgramRef P(buildIL(IL));
    ASSERT_NE(P.get(), nullptr);
    size_t Size = 0;
    ASSERT_CL_OK(clGetProgramInfo(P, CL_PROGRAM_IL, 0, nullptr, &Size));
    std::string Back(Size, '\0');
    ASSERT_CL_OK(clGetProgramInfo(P, CL_PROGRAM_IL, Size, &Back[0], nullptr));
    EXPECT_EQ(Back, IL);
    std::vector<float> Math = runAll(P);
    for (size_t I = 0; I < Math.size(); ++I)
      EXPECT_NEAR(Math[I], Reference[I], 4e-6f * std::fabs(Reference[I]))
          << "output " << I;
  }
}

// clCompileProgram on IL, then clLinkProgram, and the executable's binary
// loaded again.
// Non-uniform sub-group functions as SPIR-V's GroupNonUniform
// instructions (tests/spirv/subgroups.cl), against host references per
// sub-group, and the same from the OpenCL C build.
TEST_P(Spirv, NonUniformSubGroupInstructions) {
  std::string Extensions = deviceString(Device, CL_DEVICE_EXTENSIONS);
  for (const char *Ext :
       {"cl_khr_subgroup_ballot", "cl_khr_subgroup_non_uniform_vote",
        "cl_khr_subgroup_non_uniform_arithmetic"})
    if (!splitWords(Extensions).count(Ext)) {
      EXPECT_FALSE(testingWeft()) << Ext;
      GTEST_SKIP() << Ext;
    }
  const size_t N = 448, Local = 224;
  std::vector<cl_int> In(N);
  for (size_t I = 0; I < N; ++I)
    In[I] = cl_int(I * 7919 % 101);
  ProgramRef FromIL(buildIL(module("subgroups.spv")));
  ASSERT_NE(FromIL.get(), nullptr);
  ProgramRef FromSource(buildProgram(
      Context, Device,
      readBytes(std::string(WEFT_TEST_SPIRV_SOURCES) + "/subgroups.cl"),
      "-cl-std=CL3.0"));
  ASSERT_NE(FromSource.get(), nullptr);
  for (cl_program P : {FromIL.get(), FromSource.get()}) {
    SCOPED_TRACE(P == FromIL.get() ? "SPIR-V" : "OpenCL C");
    KernelRef K(kernel(P, "non_uniform"));
    size_t SubGroup = 0;
    ASSERT_CL_OK(clGetKernelSubGroupInfo(
        K, Device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(Local),
        &Local, sizeof(SubGroup), &SubGroup, nullptr));
    ASSERT_GT(SubGroup, 0u);
    std::vector<cl_int> Out(N, -1);
    std::vector<cl_uint> Ballot(4 * N, 0);
    MemRef InBuf(makeBufferFrom(In)), OutBuf(makeBufferFrom(Out)),
        BallotBuf(makeBufferFrom(Ballot));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_mem), &BallotBuf));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0,
                                        nullptr, nullptr));
    ASSERT_CL_OK(readInto(OutBuf, Out));
    ASSERT_CL_OK(readInto(BallotBuf, Ballot));
    for (size_t Group = 0; Group < N; Group += Local)
      for (size_t First = Group; First < Group + Local; First += SubGroup) {
        size_t End = std::min(First + SubGroup, Group + Local);
        std::vector<size_t> Active, Others;
        for (size_t I = First; I < End; ++I)
          (In[I] % 3 ? Active : Others).push_back(I);
        cl_int Sum = 0;
        cl_uint Want[4] = {0, 0, 0, 0};
        for (size_t I : Active) {
          Sum += In[I];
          if (In[I] & 1)
            Want[(I - First) / 32] |= 1u << ((I - First) % 32);
        }
        for (size_t I : Active) {
          EXPECT_EQ(Out[I], Sum + (I == Active.front() ? 1000 : 0)) << I;
          for (int W = 0; W < 4; ++W)
            EXPECT_EQ(Ballot[4 * I + W], Want[W]) << I << " word " << W;
        }
        for (size_t I : Others)
          EXPECT_EQ(Out[I], In[Others.front()]) << I;
      }
  }
}

TEST_P(Spirv, CompileLinkAndBinaries) {
  cl_int Err = CL_SUCCESS;
  ProgramRef P(createIL(module("kernels-O2.spv"), &Err));
  ASSERT_CL_OK(Err);
  ASSERT_CL_OK(clCompileProgram(P, 1, &Device, "", 0, nullptr, nullptr,
                                nullptr, nullptr));
  cl_program Inputs[] = {P};
  ProgramRef Linked(clLinkProgram(Context, 1, &Device, "", 1, Inputs, nullptr,
                                  nullptr, &Err));
  ASSERT_CL_OK(Err);
  runAll(Linked);
  size_t Size = 0;
  ASSERT_CL_OK(clGetProgramInfo(Linked, CL_PROGRAM_BINARY_SIZES, sizeof(Size),
                                &Size, nullptr));
  std::vector<unsigned char> Binary(Size);
  unsigned char *Ptr = Binary.data();
  ASSERT_CL_OK(clGetProgramInfo(Linked, CL_PROGRAM_BINARIES, sizeof(Ptr), &Ptr,
                                nullptr));
  const unsigned char *Const = Binary.data();
  cl_int Status = CL_SUCCESS;
  ProgramRef Loaded(clCreateProgramWithBinary(Context, 1, &Device, &Size,
                                              &Const, &Status, &Err));
  ASSERT_CL_OK(Err);
  ASSERT_CL_OK(clBuildProgram(Loaded, 1, &Device, nullptr, nullptr, nullptr));
  runAll(Loaded);
}

TEST_P(Spirv, SpecializationConstants) {
  std::string IL = module("spec_constants.spv");
  auto Run = [&](cl_program P) {
    KernelRef K(kernel(P, "spec"));
    std::vector<cl_uint> Out(4, 0);
    MemRef Buf(makeBufferFrom(Out));
    EXPECT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
    size_t N = Out.size();
    EXPECT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0,
                                        nullptr, nullptr));
    EXPECT_CL_OK(readInto(Buf, Out));
    for (cl_uint V : Out)
      EXPECT_EQ(V, Out[0]);
    return Out[0];
  };
  ProgramRef Defaults(buildIL(IL));
  ASSERT_NE(Defaults.get(), nullptr);
  EXPECT_EQ(Run(Defaults), 7015u) << "defaults 7 and 1.5";

  cl_int Err = CL_SUCCESS;
  ProgramRef P(createIL(IL, &Err));
  ASSERT_CL_OK(Err);
  cl_uint C3 = 9;
  float C5 = 2.25f;
  ASSERT_CL_OK(clSetProgramSpecializationConstant(P, 3, sizeof(C3), &C3));
  ASSERT_CL_OK(clSetProgramSpecializationConstant(P, 5, sizeof(C5), &C5));
  ASSERT_CL_OK(clBuildProgram(P, 1, &Device, nullptr, nullptr, nullptr));
  EXPECT_EQ(Run(P), 9022u);
  // A later value rebuilds differently.
  C3 = 1;
  ASSERT_CL_OK(clSetProgramSpecializationConstant(P, 3, sizeof(C3), &C3));
  ASSERT_CL_OK(clBuildProgram(P, 1, &Device, nullptr, nullptr, nullptr));
  EXPECT_EQ(Run(P), 1022u);
  // A negative float: its bits as an integer are negative, which the
  // translator's own --spec-const refuses.
  C5 = -2.25f;
  ASSERT_CL_OK(clSetProgramSpecializationConstant(P, 5, sizeof(C5), &C5));
  ASSERT_CL_OK(clBuildProgram(P, 1, &Device, nullptr, nullptr, nullptr));
  EXPECT_EQ(Run(P), 1000u - 22u);

  EXPECT_CL(CL_INVALID_SPEC_ID,
            clSetProgramSpecializationConstant(P, 4, sizeof(C3), &C3));
  EXPECT_CL(CL_INVALID_VALUE,
            clSetProgramSpecializationConstant(P, 3, 8, &C3));
  EXPECT_CL(CL_INVALID_VALUE,
            clSetProgramSpecializationConstant(P, 3, sizeof(C3), nullptr));
  const char *Source = "kernel void k(global int *p) { p[0] = 1; }";
  ProgramRef FromSource(
      clCreateProgramWithSource(Context, 1, &Source, nullptr, &Err));
  ASSERT_CL_OK(Err);
  EXPECT_CL(CL_INVALID_PROGRAM,
            clSetProgramSpecializationConstant(FromSource, 3, 4, &C3));
}

TEST_P(Spirv, BadModules) {
  cl_int Err = CL_SUCCESS;
  std::string Garbage(64, 'x');
  EXPECT_EQ(createIL(Garbage, &Err), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  EXPECT_EQ(clCreateProgramWithIL(Context, nullptr, 64, &Err), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);

  // SPIR-V's header, then a cut: the translator refuses it, the build
  // fails with its words in the log, the process lives on.
  std::string IL = module("kernels-O2.spv").substr(0, 200);
  ProgramRef Cut(createIL(IL, &Err));
  ASSERT_CL_OK(Err);
  EXPECT_CL(CL_BUILD_PROGRAM_FAILURE,
            clBuildProgram(Cut, 1, &Device, nullptr, nullptr, nullptr));
  cl_build_status Status = CL_BUILD_NONE;
  ASSERT_CL_OK(clGetProgramBuildInfo(Cut, Device, CL_PROGRAM_BUILD_STATUS,
                                     sizeof(Status), &Status, nullptr));
  EXPECT_EQ(Status, CL_BUILD_ERROR);
  EXPECT_FALSE(buildLog(Cut, Device).empty());

  ProgramRef BadOptions(createIL(module("kernels-O0.spv"), &Err));
  ASSERT_CL_OK(Err);
  EXPECT_CL(CL_INVALID_BUILD_OPTIONS,
            clBuildProgram(BadOptions, 1, &Device, "-no-such-option", nullptr,
                           nullptr));
}

// Without the translator a SPIR-V build fails with a log that names it.
TEST_P(Spirv, MissingTranslatorIsABuildFailure) {
  WEFT_ONLY("WEFT_LLVM_SPIRV is Weft's");
  cl_int Err = CL_SUCCESS;
  ProgramRef P(createIL(module("kernels-O0.spv"), &Err));
  ASSERT_CL_OK(Err);
  const char *Old = getenv("WEFT_LLVM_SPIRV");
  std::string Saved = Old ? Old : "";
  setenv("WEFT_LLVM_SPIRV", "/nonexistent/llvm-spirv", 1);
  cl_int Build = clBuildProgram(P, 1, &Device, nullptr, nullptr, nullptr);
  if (Old)
    setenv("WEFT_LLVM_SPIRV", Saved.c_str(), 1);
  else
    unsetenv("WEFT_LLVM_SPIRV");
  EXPECT_CL(CL_BUILD_PROGRAM_FAILURE, Build);
  EXPECT_NE(buildLog(P, Device).find("llvm-spirv"), std::string::npos)
      << buildLog(P, Device);
}

} // namespace

WEFT_INSTANTIATE_DEVICE_TEST(Spirv);
