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

/// The parts of a Weft program binary (lib/CL/ProgramBinary.h) that the
/// tests below damage, found by walking the format's fields, and the means
/// to put damaged bytes again under a header whose size and FNV-1a
/// checksum match, as a tool that rewrites binaries would.
struct WeftBinaryLayout {
  static constexpr size_t HeaderSize = 28;
  /// Offset of the bitcode's length field, and the bitcode's size.
  size_t BitcodeField = 0, BitcodeSize = 0;
  /// Offset of each compiled kernel's name field and of its code's bytes,
  /// and the code's size.
  struct Code {
    size_t NameField = 0, CodeAt = 0, CodeSize = 0;
  };
  std::vector<Code> Codes;

  /// False when Bytes is not a Weft binary this walk understands.
  bool read(const std::vector<unsigned char> &Bytes) {
    if (Bytes.size() < HeaderSize || memcmp(Bytes.data(), "WEFTBIN", 8) != 0)
      return false;
    size_t Pos = HeaderSize;
    bool OK = true;
    auto U32 = [&]() -> uint32_t {
      uint32_t V = 0;
      if (Bytes.size() - Pos < 4) {
        OK = false;
        return 0;
      }
      memcpy(&V, &Bytes[Pos], 4);
      Pos += 4;
      return V;
    };
    auto U64 = [&]() -> uint64_t {
      uint64_t V = 0;
      if (Bytes.size() - Pos < 8) {
        OK = false;
        return 0;
      }
      memcpy(&V, &Bytes[Pos], 8);
      Pos += 8;
      return V;
    };
    auto Str = [&]() {
      uint64_t N = U64();
      if (!OK || N > Bytes.size() - Pos)
        OK = false;
      else
        Pos += N;
    };
    for (int I = 0; I < 4; ++I) // version, triple, CPU, features
      Str();
    U32(); // SIMD width
    Str(); // options
    U32(); // binary type
    for (uint32_t K = 0, NK = U32(); OK && K < NK; ++K) {
      Str();
      for (uint32_t A = 0, NA = U32(); OK && A < NA; ++A) {
        U32(), U64(), U64(), Str(), Str(), U32(), U32(), U64();
      }
      for (int I = 0; I < 6; ++I)
        U64();
      Str(), U64(), U64(), U64(), U32();
    }
    for (uint32_t V = 0, NV = U32(); OK && V < NV; ++V) {
      Str(), U64(), Str();
      for (uint32_t P = 0, NP = U32(); OK && P < NP; ++P)
        U64(), U32(), U64();
    }
    BitcodeField = Pos;
    Str();
    BitcodeSize = Pos - BitcodeField - 8;
    for (uint32_t C = 0, NC = U32(); OK && C < NC; ++C) {
      Code E;
      E.NameField = Pos;
      Str(), U64(), U64(), U64();
      E.CodeAt = Pos + 8;
      Str();
      E.CodeSize = Pos - E.CodeAt;
      Codes.push_back(E);
    }
    // The seal: 32 bytes that only the Weft build which wrote the binary
    // can make (a rewritten binary keeps a stale one).
    if (Bytes.size() - Pos < 32)
      return false;
    Pos += 32;
    return OK && Pos == Bytes.size();
  }

  /// Bytes with the bitcode replaced by Bitcode.
  std::vector<unsigned char>
  withBitcode(const std::vector<unsigned char> &Bytes,
              const std::vector<unsigned char> &Bitcode) const {
    std::vector<unsigned char> Out(Bytes.begin(), Bytes.begin() + BitcodeField);
    uint64_t N = Bitcode.size();
    Out.insert(Out.end(), reinterpret_cast<unsigned char *>(&N),
               reinterpret_cast<unsigned char *>(&N) + 8);
    Out.insert(Out.end(), Bitcode.begin(), Bitcode.end());
    Out.insert(Out.end(), Bytes.begin() + BitcodeField + 8 + BitcodeSize,
               Bytes.end());
    return withChecksum(Out);
  }

  std::vector<unsigned char>
  bitcodeOf(const std::vector<unsigned char> &Bytes) const {
    return std::vector<unsigned char>(Bytes.begin() + BitcodeField + 8,
                                      Bytes.begin() + BitcodeField + 8 +
                                          BitcodeSize);
  }

  /// Bytes under a header whose payload size and checksum match.
  static std::vector<unsigned char>
  withChecksum(std::vector<unsigned char> Bytes) {
    uint64_t Size = Bytes.size() - HeaderSize;
    uint64_t Hash = 0xcbf29ce484222325ull;
    for (size_t I = HeaderSize; I < Bytes.size(); ++I) {
      Hash ^= Bytes[I];
      Hash *= 0x100000001b3ull;
    }
    memcpy(&Bytes[12], &Size, 8);
    memcpy(&Bytes[20], &Hash, 8);
    return Bytes;
  }
};

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

// Damage inside the bitcode under a recomputed checksum gets past the
// binary's own checks: the bitcode itself must be read whole at load.
// (Before: accepted, and the first enqueue failed to compile it.)
TEST_P(Binaries, DamagedBitcodeUnderARecomputedChecksumIsRefused) {
  WeftBinaryLayout L;
  if (!L.read(Binary)) {
    // On Weft the walk must follow its own format: a skip would hide
    // every test below.
    ASSERT_FALSE(testingWeft()) << "Weft's binary does not read as its format";
    GTEST_SKIP() << "not a Weft program binary";
  }
  std::vector<unsigned char> Bitcode = L.bitcodeOf(Binary);
  ASSERT_GT(Bitcode.size(), 64u);
  std::vector<std::pair<std::string, std::vector<unsigned char>>> Cases;
  for (size_t Keep : {Bitcode.size() / 2, Bitcode.size() * 3 / 4, size_t(8)})
    Cases.emplace_back("cut to " + std::to_string(Keep) + " bytes",
                       std::vector<unsigned char>(Bitcode.begin(),
                                                  Bitcode.begin() + Keep));
  // Spread over the middle half: 16 bytes in one place can fall where the
  // module stays readable and valid (they did with WEFT_TARGET_CPU=
  // x86-64-v4, whose bitcode differs in its target features), and a
  // readable module is rightly accepted
  // (EveryFlippedBitOfTheBitcodeIsRefusedOrReadable).
  std::vector<unsigned char> Flipped = Bitcode;
  for (size_t I = Bitcode.size() / 4; I < Bitcode.size() * 3 / 4; I += 7)
    Flipped[I] ^= 0xff;
  Cases.emplace_back("every 7th byte of the middle half flipped", Flipped);
  for (const auto &[What, Bad] : Cases) {
    cl_int Err = CL_SUCCESS, Status = CL_SUCCESS;
    cl_program P = fromBinary(L.withBitcode(Binary, Bad), Err, Status);
    EXPECT_EQ(P, nullptr) << What;
    EXPECT_CL(CL_INVALID_BINARY, Err) << What;
    EXPECT_CL(CL_INVALID_BINARY, Status) << What;
    if (P)
      clReleaseProgram(P);
  }
  // The binary itself, sealed the same way, still loads and runs.
  cl_int Err = CL_SUCCESS, Status = CL_SUCCESS;
  ProgramRef P(fromBinary(L.withBitcode(Binary, Bitcode), Err, Status));
  ASSERT_CL_OK(Err);
  ASSERT_CL_OK(clBuildProgram(P, 1, &Device, "", nullptr, nullptr));
  checkSaxpy(P);
}

// Single flipped bits all over the bitcode, each under a recomputed
// checksum. Some of them crashed LLVM's bitcode reader (SIGSEGV in its
// metadata loader, abort on an attribute index read as billions) at the
// first kernel compile, taking the process with them. Now each is either
// refused at load or a module that reads and verifies (a flip can change a
// constant), which then builds and yields its kernel. Not run: a changed
// constant may index out of bounds, as a changed source could.
TEST_P(Binaries, EveryFlippedBitOfTheBitcodeIsRefusedOrReadable) {
  WeftBinaryLayout L;
  if (!L.read(Binary)) {
    // On Weft the walk must follow its own format: a skip would hide
    // every test below.
    ASSERT_FALSE(testingWeft()) << "Weft's binary does not read as its format";
    GTEST_SKIP() << "not a Weft program binary";
  }
  std::vector<unsigned char> Bitcode = L.bitcodeOf(Binary);
  size_t Refused = 0, Accepted = 0;
  // One bit of every fifth byte, the bit going round: a thousand loads,
  // each a fork and a parse of a few kilobytes. (Before, about one flip in
  // sixty crashed.)
  for (size_t At = 4; At < Bitcode.size(); At += 5) {
    {
      unsigned char Bit = static_cast<unsigned char>(1u << (At / 5 % 8));
      std::vector<unsigned char> Bad = Bitcode;
      Bad[At] ^= Bit;
      std::string What =
          "byte " + std::to_string(At) + " ^ " + std::to_string(Bit);
      cl_int Err = CL_SUCCESS, Status = CL_SUCCESS;
      cl_program P = fromBinary(L.withBitcode(Binary, Bad), Err, Status);
      if (!P) {
        ASSERT_CL(CL_INVALID_BINARY, Err) << What;
        ASSERT_CL(CL_INVALID_BINARY, Status) << What;
        ++Refused;
        continue;
      }
      ++Accepted;
      ProgramRef Owner(P);
      ASSERT_CL_OK(Err) << What;
      ASSERT_CL_OK(clBuildProgram(P, 1, &Device, "", nullptr, nullptr))
          << What;
      KernelRef K(clCreateKernel(P, "saxpy", &Err));
      ASSERT_CL_OK(Err) << What;
    }
  }
  // Most flips break the stream; the rest are still modules.
  EXPECT_GT(Refused, 0u);
  std::printf("%zu flips refused, %zu still readable\n", Refused, Accepted);
}

// Valid bitcode of another program under saxpy's kernel table: a kernel
// the table lists is missing, or takes other arguments than it records.
// (Before: accepted; the first enqueue failed, or ran a kernel with an
// argument table of the wrong shape.)
TEST_P(Binaries, BitcodeOfAnotherProgramIsRefused) {
  WeftBinaryLayout L;
  if (!L.read(Binary)) {
    // On Weft the walk must follow its own format: a skip would hide
    // every test below.
    ASSERT_FALSE(testingWeft()) << "Weft's binary does not read as its format";
    GTEST_SKIP() << "not a Weft program binary";
  }
  const char *Others[] = {
      "kernel void other(global float *Y) { Y[get_global_id(0)] = 1.0f; }",
      "kernel void saxpy(global float *Y, float A) {\n"
      "  Y[get_global_id(0)] *= A;\n}",
      "kernel void saxpy(global float *Y, global const float *X, double A) {\n"
      "  Y[get_global_id(0)] = X[get_global_id(0)];\n}",
  };
  for (const char *Source : Others) {
    ProgramRef Other(buildProgram(Context, Device, Source));
    ASSERT_NE(Other.get(), nullptr);
    size_t Size = 0;
    ASSERT_CL_OK(clGetProgramInfo(Other, CL_PROGRAM_BINARY_SIZES,
                                  sizeof(Size), &Size, nullptr));
    std::vector<unsigned char> OtherBinary(Size);
    unsigned char *Ptr = OtherBinary.data();
    ASSERT_CL_OK(clGetProgramInfo(Other, CL_PROGRAM_BINARIES, sizeof(Ptr),
                                  &Ptr, nullptr));
    WeftBinaryLayout OL;
    ASSERT_TRUE(OL.read(OtherBinary));
    cl_int Err = CL_SUCCESS, Status = CL_SUCCESS;
    cl_program P = fromBinary(L.withBitcode(Binary, OL.bitcodeOf(OtherBinary)),
                              Err, Status);
    EXPECT_EQ(P, nullptr) << Source;
    EXPECT_CL(CL_INVALID_BINARY, Err) << Source;
    EXPECT_CL(CL_INVALID_BINARY, Status) << Source;
    if (P)
      clReleaseProgram(P);
  }
}

// A binary that carries saxpy's compiled code, with that code damaged
// under a recomputed checksum: the code's own checksum catches it, and the
// program falls back to its bitcode (right results). Compiled code that
// names a kernel the binary does not have is refused.
TEST_P(Binaries, DamagedCompiledKernelFallsBackToTheBitcode) {
  cl_int Err = CL_SUCCESS, Status = CL_SUCCESS;
  ProgramRef Ran(fromBinary(Binary, Err, Status));
  ASSERT_CL_OK(Err);
  ASSERT_CL_OK(clBuildProgram(Ran, 1, &Device, "", nullptr, nullptr));
  checkSaxpy(Ran);
  size_t Size = 0;
  ASSERT_CL_OK(clGetProgramInfo(Ran, CL_PROGRAM_BINARY_SIZES, sizeof(Size),
                                &Size, nullptr));
  std::vector<unsigned char> WithCode(Size);
  unsigned char *Ptr = WithCode.data();
  ASSERT_CL_OK(clGetProgramInfo(Ran, CL_PROGRAM_BINARIES, sizeof(Ptr), &Ptr,
                                nullptr));
  WeftBinaryLayout L;
  if (!L.read(WithCode)) {
    // On Weft the walk must follow its own format: a skip would hide
    // every test below.
    ASSERT_FALSE(testingWeft()) << "Weft's binary does not read as its format";
    GTEST_SKIP() << "not a Weft program binary";
  }
  if (L.Codes.empty())
    GTEST_SKIP() << "this device's binaries carry no compiled code";
  const WeftBinaryLayout::Code &C = L.Codes[0];
  ASSERT_GT(C.CodeSize, 256u);
  // In the entry's header, its symbol and its object: each falls back.
  for (size_t At : {C.CodeAt + 10, C.CodeAt + C.CodeSize / 2,
                    C.CodeAt + C.CodeSize - 1}) {
    std::vector<unsigned char> Bad = WithCode;
    Bad[At] ^= 0x5a;
    ProgramRef P(fromBinary(WeftBinaryLayout::withChecksum(Bad), Err, Status));
    ASSERT_CL_OK(Err) << "byte " << At;
    ASSERT_CL_OK(clBuildProgram(P, 1, &Device, "", nullptr, nullptr));
    checkSaxpy(P);
  }
  // The compiled code renamed to a kernel that is not in the binary.
  std::vector<unsigned char> Renamed = WithCode;
  ASSERT_EQ(memcmp(&Renamed[C.NameField + 8], "saxpy", 5), 0);
  Renamed[C.NameField + 8] = 'z';
  cl_program P =
      fromBinary(WeftBinaryLayout::withChecksum(Renamed), Err, Status);
  EXPECT_EQ(P, nullptr);
  EXPECT_CL(CL_INVALID_BINARY, Err);
  EXPECT_CL(CL_INVALID_BINARY, Status);
  if (P)
    clReleaseProgram(P);
}

WEFT_INSTANTIATE_DEVICE_TEST(Binaries);

} // namespace
