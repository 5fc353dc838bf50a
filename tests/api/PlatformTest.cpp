//===- tests/api/PlatformTest.cpp - clGetPlatformInfo, clGetDeviceIDs -----===//

#include "TestCommon.h"

#include <cstdio>

using namespace weft_test;

namespace {

class PlatformQueries : public ::testing::Test {
protected:
  void SetUp() override {
    Platform = platformUnderTest();
    ASSERT_NE(Platform, nullptr)
        << "the ICD loader offers no platform named like \""
        << platformUnderTestName() << "\" (check OCL_ICD_VENDORS)";
  }
  cl_platform_id Platform = nullptr;
};

TEST_F(PlatformQueries, FoundWithDevices) {
  cl_uint Num = 0;
  ASSERT_CL_OK(clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &Num));
  EXPECT_GE(Num, 1u);
  EXPECT_EQ(devicesUnderTest().size(), Num);
}

TEST_F(PlatformQueries, NameVendorProfile) {
  std::string Name = platformString(Platform, CL_PLATFORM_NAME);
  EXPECT_NE(Name.find(platformUnderTestName()), std::string::npos) << Name;
  if (platformUnderTestName() == "Weft") {
    EXPECT_EQ(Name, "Weft");
  }
  EXPECT_FALSE(platformString(Platform, CL_PLATFORM_VENDOR).empty());
  std::string Profile = platformString(Platform, CL_PLATFORM_PROFILE);
  EXPECT_TRUE(Profile == "FULL_PROFILE" || Profile == "EMBEDDED_PROFILE")
      << Profile;
}

TEST_F(PlatformQueries, VersionStringAndNumericVersionAgree) {
  std::string Version = platformString(Platform, CL_PLATFORM_VERSION);
  ASSERT_EQ(Version.rfind("OpenCL 3.0 ", 0), 0u)
      << "CL_PLATFORM_VERSION is \"" << Version << "\"";
  cl_version Numeric = 0;
  ASSERT_CL_OK(clGetPlatformInfo(Platform, CL_PLATFORM_NUMERIC_VERSION,
                                 sizeof(Numeric), &Numeric, nullptr));
  EXPECT_EQ(CL_VERSION_MAJOR(Numeric), 3u);
  EXPECT_EQ(CL_VERSION_MINOR(Numeric), 0u);
}

TEST_F(PlatformQueries, ExtensionsIncludeIcdAndMatchVersionedList) {
  std::set<std::string> Names =
      splitWords(platformString(Platform, CL_PLATFORM_EXTENSIONS));
  EXPECT_TRUE(Names.count("cl_khr_icd"));

  size_t Size = 0;
  ASSERT_CL_OK(clGetPlatformInfo(Platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION,
                                 0, nullptr, &Size));
  ASSERT_EQ(Size % sizeof(cl_name_version), 0u);
  std::vector<cl_name_version> Versioned(Size / sizeof(cl_name_version));
  if (Size) {
    ASSERT_CL_OK(clGetPlatformInfo(Platform,
                                   CL_PLATFORM_EXTENSIONS_WITH_VERSION, Size,
                                   Versioned.data(), nullptr));
  }
  std::set<std::string> VersionedNames;
  for (const cl_name_version &NV : Versioned)
    VersionedNames.insert(std::string(NV.name, strnlen(NV.name, sizeof(NV.name))));
  EXPECT_EQ(Names, VersionedNames);
}

TEST_F(PlatformQueries, SizeQueryProtocol) {
  size_t Size = 0;
  ASSERT_CL_OK(clGetPlatformInfo(Platform, CL_PLATFORM_NAME, 0, nullptr, &Size));
  ASSERT_GT(Size, 1u);

  // Exactly the reported size: the string fills it, NUL included.
  std::vector<char> Exact(Size, 'x');
  size_t Returned = 0;
  ASSERT_CL_OK(clGetPlatformInfo(Platform, CL_PLATFORM_NAME, Size,
                                 Exact.data(), &Returned));
  EXPECT_EQ(Returned, Size);
  EXPECT_EQ(Exact[Size - 1], '\0');
  EXPECT_EQ(strlen(Exact.data()), Size - 1);

  // One byte short is an error, and the buffer is not a truncated string.
  std::vector<char> Short(Size - 1, 'x');
  EXPECT_CL(CL_INVALID_VALUE, clGetPlatformInfo(Platform, CL_PLATFORM_NAME,
                                                Size - 1, Short.data(),
                                                nullptr));

  // Non-string values follow the same protocol.
  cl_version Numeric = 0;
  EXPECT_CL(CL_INVALID_VALUE,
            clGetPlatformInfo(Platform, CL_PLATFORM_NUMERIC_VERSION,
                              sizeof(Numeric) - 1, &Numeric, nullptr));
  Size = 0;
  EXPECT_CL_OK(clGetPlatformInfo(Platform, CL_PLATFORM_NUMERIC_VERSION, 0,
                                 nullptr, &Size));
  EXPECT_EQ(Size, sizeof(cl_version));

  // An unknown query.
  char Buffer[64];
  EXPECT_CL(CL_INVALID_VALUE,
            clGetPlatformInfo(Platform, 0x7fff, sizeof(Buffer), Buffer, nullptr));
}

TEST_F(PlatformQueries, DeviceIdsByType) {
  cl_uint All = 0, Cpu = 0;
  ASSERT_CL_OK(clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &All));
  cl_int Err = clGetDeviceIDs(Platform, CL_DEVICE_TYPE_CPU, 0, nullptr, &Cpu);
  ASSERT_TRUE(Err == CL_SUCCESS || Err == CL_DEVICE_NOT_FOUND) << errorName(Err);
  cl_uint Other = 0;
  for (cl_device_type T : {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR,
                           CL_DEVICE_TYPE_CUSTOM}) {
    cl_uint N = 0;
    Err = clGetDeviceIDs(Platform, T, 0, nullptr, &N);
    ASSERT_TRUE(Err == CL_SUCCESS || Err == CL_DEVICE_NOT_FOUND)
        << errorName(Err);
    if (Err == CL_SUCCESS)
      Other += N;
  }
  EXPECT_EQ(All, Cpu + Other);
  if (testingWeft()) {
    // The CPU drivers' devices, and the accelerator simulator's when
    // WEFT_DEVICES names it.
    cl_uint Accelerators = 0;
    Err = clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ACCELERATOR, 0, nullptr,
                         &Accelerators);
    EXPECT_EQ(All, Cpu + (Err == CL_SUCCESS ? Accelerators : 0))
        << "every Weft device is a CPU or the accelerator simulator";
  }

  // Exactly one default device.
  cl_uint Default = 0;
  ASSERT_CL_OK(
      clGetDeviceIDs(Platform, CL_DEVICE_TYPE_DEFAULT, 0, nullptr, &Default));
  EXPECT_EQ(Default, 1u);

  // Fewer entries than devices: only that many are written.
  std::vector<cl_device_id> Ids(All + 1, nullptr);
  ASSERT_CL_OK(clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, 1, Ids.data(),
                              nullptr));
  EXPECT_NE(Ids[0], nullptr);
  EXPECT_EQ(Ids[1], nullptr);
}

TEST_F(PlatformQueries, DeviceIdsInvalidArguments) {
  cl_device_id Id = nullptr;
  cl_uint Num = 0;
  EXPECT_CL(CL_INVALID_VALUE,
            clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, 0, &Id, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, 0, nullptr, nullptr));
  EXPECT_CL_SPEC(CL_INVALID_DEVICE_TYPE,
                 clGetDeviceIDs(Platform, cl_device_type(1) << 40, 1, &Id, &Num));
}

} // namespace
