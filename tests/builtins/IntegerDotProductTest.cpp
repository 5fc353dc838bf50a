//===- IntegerDotProductTest.cpp - cl_khr_integer_dot_product -------------===//
//
// The device queries of the extension (version 2.0: both inputs, the
// acceleration structures) and its sixteen builtins, dot and dot_acc_sat
// on char4/uchar4 in the four signedness mixes and their 4x8-bit packed
// forms, against host arithmetic on edge and random bytes and
// accumulators near the limits, as OpenCL C 1.2 and 3.0.
//
//===----------------------------------------------------------------------===//
#include "BuiltinTestCommon.h"

#include <CL/cl_ext.h>

#include <limits>

using namespace weft_test;

namespace {

class IntegerDotProduct : public BuiltinTest {};

TEST_P(IntegerDotProduct, Queries) {
  bool Found = false;
  size_t Size = 0;
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0,
                               nullptr, &Size));
  std::vector<cl_name_version> Extensions(Size / sizeof(cl_name_version));
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_EXTENSIONS_WITH_VERSION, Size,
                               Extensions.data(), nullptr));
  for (const cl_name_version &E : Extensions)
    if (strcmp(E.name, "cl_khr_integer_dot_product") == 0) {
      Found = true;
      EXPECT_EQ(E.version, CL_MAKE_VERSION(2, 0, 0));
    }
  ASSERT_TRUE(Found) << "cl_khr_integer_dot_product is not claimed";
  EXPECT_TRUE(splitWords(deviceString(Device, CL_DEVICE_EXTENSIONS))
                  .count("cl_khr_integer_dot_product"));

  auto Caps = deviceInfo<cl_device_integer_dot_product_capabilities_khr>(
      Device, CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR);
  EXPECT_EQ(Caps, cl_device_integer_dot_product_capabilities_khr(
                      CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR |
                      CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR));
  for (cl_device_info Param :
       {CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR,
        CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR}) {
    ASSERT_CL_OK(clGetDeviceInfo(Device, Param, 0, nullptr, &Size));
    EXPECT_EQ(Size,
              sizeof(cl_device_integer_dot_product_acceleration_properties_khr));
    cl_device_integer_dot_product_acceleration_properties_khr Props;
    EXPECT_CL_OK(
        clGetDeviceInfo(Device, Param, sizeof(Props), &Props, nullptr));
  }

  // Both feature macros are OpenCL C features of the device.
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr,
                               &Size));
  std::vector<cl_name_version> Features(Size / sizeof(cl_name_version));
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_OPENCL_C_FEATURES, Size,
                               Features.data(), nullptr));
  std::set<std::string> Names;
  for (const cl_name_version &F : Features)
    Names.insert(F.name);
  EXPECT_TRUE(Names.count("__opencl_c_integer_dot_product_input_4x8bit"));
  EXPECT_TRUE(
      Names.count("__opencl_c_integer_dot_product_input_4x8bit_packed"));
}

/// Component I (0 to 3) of a packed operand, signed or not.
int64_t component(uint32_t Packed, unsigned I, bool Signed) {
  uint8_t Byte = uint8_t(Packed >> (8 * I));
  return Signed ? int64_t(int8_t(Byte)) : int64_t(Byte);
}

TEST_P(IntegerDotProduct, Builtins) {
  // Each work-item: one packed pair A, B and accumulator, and every
  // function. The unpacked forms take the same bytes through as_<type>4.
  struct Form {
    const char *Suffix;
    bool SignedA, SignedB, SignedResult;
  };
  const Form Forms[] = {{"uu_uint", false, false, false},
                        {"ss_int", true, true, true},
                        {"us_int", false, true, true},
                        {"su_int", true, false, true}};
  std::string Source =
      "#if !defined(cl_khr_integer_dot_product) || "
      "!defined(__opencl_c_integer_dot_product_input_4x8bit) || "
      "!defined(__opencl_c_integer_dot_product_input_4x8bit_packed)\n"
      "#error the macros of cl_khr_integer_dot_product are not defined\n"
      "#endif\n"
      "kernel void dots(global const uint *A, global const uint *B,\n"
      "                 global const uint *Acc, global uint *Out) {\n"
      "  size_t i = get_global_id(0), n = get_global_size(0);\n"
      "  uint a = A[i], b = B[i], acc = Acc[i];\n";
  unsigned Slot = 0;
  for (const Form &F : Forms) {
    std::string TA = F.SignedA ? "char4" : "uchar4";
    std::string TB = F.SignedB ? "char4" : "uchar4";
    std::string R = F.SignedResult ? "int" : "uint";
    std::string X = "as_" + TA + "(a)", Y = "as_" + TB + "(b)";
    std::string Acc = "as_" + R + "(acc)";
    const std::string Calls[4] = {
        "dot(" + X + ", " + Y + ")",
        "dot_acc_sat(" + X + ", " + Y + ", " + Acc + ")",
        std::string("dot_4x8packed_") + F.Suffix + "(a, b)",
        std::string("dot_acc_sat_4x8packed_") + F.Suffix + "(a, b, " + Acc +
            ")"};
    for (const std::string &Call : Calls)
      Source += "  Out[i + " + std::to_string(Slot++) + " * n] = as_uint(" +
                Call + ");\n";
  }
  Source += "}\n";

  const size_t N = 1024;
  const uint32_t EdgeBytes[] = {0x00, 0x01, 0x7f, 0x80, 0x81, 0xff, 0xfe};
  const uint32_t EdgeAcc[] = {0,          1,          0x7fffffff, 0x7ffc0000,
                              0x80000000, 0x80040000, 0xffffffff, 0xfffc0000,
                              0x0003f810};
  Random Rng(42);
  std::vector<cl_uint> A(N), B(N), Acc(N);
  for (size_t I = 0; I < N; ++I) {
    uint64_t X = Rng.next();
    if (I < 256) {
      // Edge bytes in every component, and accumulators at the limits.
      for (unsigned C = 0; C < 4; ++C) {
        A[I] |= EdgeBytes[(X >> (3 * C)) % 7] << (8 * C);
        B[I] |= EdgeBytes[(X >> (12 + 3 * C)) % 7] << (8 * C);
      }
      Acc[I] = EdgeAcc[(X >> 32) % 9];
    } else {
      A[I] = uint32_t(X);
      B[I] = uint32_t(X >> 32);
      Acc[I] = uint32_t(Rng.next());
    }
  }
  for (const char *Options : {"", "-cl-std=CL3.0"}) {
    SCOPED_TRACE(std::string("options \"") + Options + "\"");
    std::vector<cl_uint> Out(16 * N);
    if (!runKernel(Source, "dots", N, {in(A), in(B), in(Acc), out(Out)},
                   Options))
      return;
    unsigned Failures = 0;
    for (unsigned FI = 0; FI < 4; ++FI) {
      const Form &F = Forms[FI];
      for (size_t I = 0; I < N && Failures < 10; ++I) {
        int64_t Dot = 0;
        for (unsigned C = 0; C < 4; ++C)
          Dot += component(A[I], C, F.SignedA) * component(B[I], C, F.SignedB);
        int64_t Sum = Dot + (F.SignedResult ? int64_t(int32_t(Acc[I]))
                                            : int64_t(Acc[I]));
        int64_t Lo = F.SignedResult ? std::numeric_limits<int32_t>::min() : 0;
        int64_t Hi = F.SignedResult ? std::numeric_limits<int32_t>::max()
                                    : std::numeric_limits<uint32_t>::max();
        uint32_t Want[2] = {uint32_t(Dot),
                            uint32_t(std::min(Hi, std::max(Lo, Sum)))};
        for (unsigned Call = 0; Call < 4; ++Call) {
          uint32_t Got = Out[(4 * FI + Call) * N + I];
          if (Got != Want[Call % 2]) {
            ++Failures;
            ADD_FAILURE() << (Call % 2 ? "dot_acc_sat" : "dot")
                          << (Call >= 2 ? " 4x8packed " : " ") << F.Suffix
                          << " of 0x" << std::hex << A[I] << ", 0x" << B[I]
                          << ", acc 0x" << Acc[I] << ": got 0x" << Got
                          << ", want 0x" << Want[Call % 2];
          }
        }
      }
    }
  }
}

WEFT_INSTANTIATE_DEVICE_TEST(IntegerDotProduct);

} // namespace
