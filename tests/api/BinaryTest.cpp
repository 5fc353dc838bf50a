//===- tests/api/BinaryTest.cpp - program binaries -------------------------===//
//
// CL_PROGRAM_BINARIES round-trips through clCreateProgramWithBinary and the
// rebuilt program computes the same results; truncated, corrupted and
// foreign binaries are refused with CL_INVALID_BINARY (binary_status per
// device), never a crash.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

using namespace weft_test;

namespace {

class Binaries : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    Program.reset(buildProgram(Context, Device, kernelSource("saxpy.cl")));
    ASSERT_NE(Program.get(), nullptr);
    size_t Size = 0;
    ASSERT_CL_OK(clGetProgramInfo(Program, CL_PROGRAM_BINARY_SIZES,
                                  sizeof(Size), &Size, nullptr));
    ASSERT_GT(Size, 0u);
    Binary.resize(Size);
    unsigned char *Ptr = Binary.data();
    ASSERT_CL_OK(clGetProgramInfo(Program, CL_PROGRAM_BINARIES, sizeof(Ptr),
                                  &Ptr, nullptr));
  }

  cl_program fromBinary(const std::vector<unsigned char> &Bytes, cl_int &Err,
                        cl_int &Status) {
    const unsigned char *Ptr = Bytes.data();
    size_t Length = Bytes.size();
    return clCreateProgramWithBinary(Context, 1, &Device, &Length, &Ptr,
                                     &Status, &Err);
  }

  /// Runs saxpy from P and checks the result against the host.
  void checkSaxpy(cl_program P) {
    cl_int Err = CL_SUCCESS;
    KernelRef K(clCreateKernel(P, "saxpy", &Err));
    ASSERT_CL_OK(Err);
    const size_t N = 1000;
    std::vector<float> X(N), Y(N);
    for (size_t I = 0; I < N; ++I) {
      X[I] = float(I) * 0.5f;
      Y[I] = 3.0f - float(I);
    }
    MemRef BX(makeBuffer(CL_MEM_COPY_HOST_PTR, N * sizeof(float), X.data()));
    MemRef BY(makeBuffer(CL_MEM_COPY_HOST_PTR, N * sizeof(float), Y.data()));
    float A = 2.5f;
    cl_uint NumArgs = 0;
    ASSERT_CL_OK(clGetKernelInfo(K, CL_KERNEL_NUM_ARGS, sizeof(NumArgs),
                                 &NumArgs, nullptr));
    ASSERT_EQ(NumArgs, 3u);
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &BY));
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &BX));
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(float), &A));
    size_t Global = N;
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, nullptr,
                                        0, nullptr, nullptr));
    std::vector<float> Out(N);
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, BY, CL_TRUE, 0, N * sizeof(float),
                                     Out.data(), 0, nullptr, nullptr));
    for (size_t I = 0; I < N; ++I)
      ASSERT_FLOAT_EQ(Out[I], A * X[I] + Y[I]) << "at " << I;
  }

  std::vector<unsigned char> Binary;
};

TEST_P(Binaries, RoundTrip) {
  cl_int Err = CL_SUCCESS, Status = -1;
  ProgramRef P(fromBinary(Binary, Err, Status));
  ASSERT_CL_OK(Err);
  EXPECT_CL_OK(Status);
  cl_program_binary_type Type = 0;
  ASSERT_CL_OK(clGetProgramBuildInfo(P, Device, CL_PROGRAM_BINARY_TYPE,
                                     sizeof(Type), &Type, nullptr));
  EXPECT_EQ(Type, cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
  ASSERT_CL_OK(clBuildProgram(P, 1, &Device, "", nullptr, nullptr));
  cl_build_status BS = CL_BUILD_NONE;
  ASSERT_CL_OK(clGetProgramBuildInfo(P, Device, CL_PROGRAM_BUILD_STATUS,
                                     sizeof(BS), &BS, nullptr));
  EXPECT_EQ(BS, CL_BUILD_SUCCESS);
  char Names[128] = {};
  ASSERT_CL_OK(clGetProgramInfo(P, CL_PROGRAM_KERNEL_NAMES, sizeof(Names),
                                Names, nullptr));
  EXPECT_STREQ(Names, "saxpy");
  // The binary of the loaded program is the same binary again, until a
  // kernel runs: then it also carries the kernel's compiled code.
  auto binaryOf = [&](cl_program Prog) {
    size_t Size = 0;
    EXPECT_CL_OK(clGetProgramInfo(Prog, CL_PROGRAM_BINARY_SIZES, sizeof(Size),
                                  &Size, nullptr));
    std::vector<unsigned char> Bytes(Size);
    unsigned char *Ptr = Bytes.data();
    EXPECT_CL_OK(
        clGetProgramInfo(Prog, CL_PROGRAM_BINARIES, sizeof(Ptr), &Ptr, nullptr));
    return Bytes;
  };
  EXPECT_EQ(binaryOf(P), Binary);
  checkSaxpy(P);
  std::vector<unsigned char> WithCode = binaryOf(P);
  // The accelerator simulator's code is worth nothing without its static
  // schedule, which binaries do not hold: it always compiles and carries no
  // code (WorkGroupCompiler.cpp).
  if (deviceInfo<cl_device_type>(Device, CL_DEVICE_TYPE) ==
      CL_DEVICE_TYPE_ACCELERATOR)
    EXPECT_EQ(WithCode, Binary);
  else
    EXPECT_GT(WithCode.size(), Binary.size());
  ProgramRef Reloaded(fromBinary(WithCode, Err, Status));
  ASSERT_CL_OK(Err);
  ASSERT_CL_OK(clBuildProgram(Reloaded, 1, &Device, "", nullptr, nullptr));
  checkSaxpy(Reloaded);
  // Kernel argument info survives the round trip.
  cl_int KErr = CL_SUCCESS;
  KernelRef K(clCreateKernel(P, "saxpy", &KErr));
  ASSERT_CL_OK(KErr);
  char ArgName[32] = {};
  ASSERT_CL_OK(clGetKernelArgInfo(K, 1, CL_KERNEL_ARG_NAME, sizeof(ArgName),
                                  ArgName, nullptr));
  EXPECT_STREQ(ArgName, "X");
}

TEST_P(Binaries, KernelsNeedABuildFirst) {
  cl_int Err = CL_SUCCESS, Status = -1;
  ProgramRef P(fromBinary(Binary, Err, Status));
  ASSERT_CL_OK(Err);
  clCreateKernel(P, "saxpy", &Err);
  EXPECT_CL(CL_INVALID_PROGRAM_EXECUTABLE, Err);
}

TEST_P(Binaries, TruncatedIsRefusedEverywhere) {
  // Every prefix length that cuts a field, plus a few inside the bitcode.
  std::vector<size_t> Cuts = {1, 7, 8, 12, 20, 27, 28, 40, 64, 100};
  Cuts.push_back(Binary.size() / 2);
  Cuts.push_back(Binary.size() - 1);
  for (size_t Cut : Cuts) {
    if (Cut >= Binary.size())
      continue;
    std::vector<unsigned char> Short(Binary.begin(), Binary.begin() + Cut);
    cl_int Err = CL_SUCCESS, Status = CL_SUCCESS;
    cl_program P = fromBinary(Short, Err, Status);
    EXPECT_EQ(P, nullptr) << "cut at " << Cut;
    EXPECT_CL(CL_INVALID_BINARY, Err) << "cut at " << Cut;
    EXPECT_CL(CL_INVALID_BINARY, Status) << "cut at " << Cut;
    if (P)
      clReleaseProgram(P);
  }
}

TEST_P(Binaries, CorruptedIsRefused) {
  // Flip one byte at a spread of positions: header, metadata, bitcode.
  for (size_t At = 0; At < Binary.size(); At += 1 + Binary.size() / 97) {
    std::vector<unsigned char> Bad = Binary;
    Bad[At] ^= 0x5a;
    cl_int Err = CL_SUCCESS, Status = CL_SUCCESS;
    cl_program P = fromBinary(Bad, Err, Status);
    EXPECT_EQ(P, nullptr) << "flipped byte " << At;
    EXPECT_CL(CL_INVALID_BINARY, Err) << "flipped byte " << At;
    EXPECT_CL(CL_INVALID_BINARY, Status) << "flipped byte " << At;
    if (P)
      clReleaseProgram(P);
  }
  // Trailing garbage is not a valid binary either.
  std::vector<unsigned char> Long = Binary;
  Long.push_back(0);
  cl_int Err = CL_SUCCESS, Status = CL_SUCCESS;
  EXPECT_EQ(fromBinary(Long, Err, Status), nullptr);
  EXPECT_CL(CL_INVALID_BINARY, Err);
}

TEST_P(Binaries, ForeignIsRefused) {
  // Raw LLVM bitcode, an ELF header, text: none is a Weft binary.
  const std::vector<std::vector<unsigned char>> Foreign = {
      {'B', 'C', 0xc0, 0xde, 0x35, 0x14, 0, 0, 5, 0, 0, 0},
      {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      std::vector<unsigned char>(4096, 'x')};
  for (const auto &Bytes : Foreign) {
    cl_int Err = CL_SUCCESS, Status = CL_SUCCESS;
    EXPECT_EQ(fromBinary(Bytes, Err, Status), nullptr);
    EXPECT_CL(CL_INVALID_BINARY, Err);
    EXPECT_CL(CL_INVALID_BINARY, Status);
  }
}

TEST_P(Binaries, ArgumentErrors) {
  const unsigned char *Ptr = Binary.data();
  size_t Length = Binary.size();
  cl_int Err = CL_SUCCESS;
  EXPECT_EQ(clCreateProgramWithBinary(nullptr, 1, &Device, &Length, &Ptr,
                                      nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_CONTEXT, Err);
  EXPECT_EQ(clCreateProgramWithBinary(Context, 0, &Device, &Length, &Ptr,
                                      nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  EXPECT_EQ(clCreateProgramWithBinary(Context, 1, nullptr, &Length, &Ptr,
                                      nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  cl_device_id Bogus = reinterpret_cast<cl_device_id>(&Err);
  (void)Bogus;
  EXPECT_EQ(clCreateProgramWithBinary(Context, 1, &Device, nullptr, &Ptr,
                                      nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  size_t Zero = 0;
  cl_int Status = CL_SUCCESS;
  EXPECT_EQ(clCreateProgramWithBinary(Context, 1, &Device, &Zero, &Ptr,
                                      &Status, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  EXPECT_CL(CL_INVALID_VALUE, Status);
  const unsigned char *Null = nullptr;
  EXPECT_EQ(clCreateProgramWithBinary(Context, 1, &Device, &Length, &Null,
                                      nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
}

TEST_P(Binaries, UnbuiltProgramHasNoBinary) {
  const char *Src = "kernel void k(global int *p) { p[0] = 1; }";
  cl_int Err = CL_SUCCESS;
  ProgramRef P(clCreateProgramWithSource(Context, 1, &Src, nullptr, &Err));
  ASSERT_CL_OK(Err);
  size_t Size = 123;
  ASSERT_CL_OK(clGetProgramInfo(P, CL_PROGRAM_BINARY_SIZES, sizeof(Size),
                                &Size, nullptr));
  EXPECT_EQ(Size, 0u);
}

WEFT_INSTANTIATE_DEVICE_TEST(Binaries);

} // namespace
