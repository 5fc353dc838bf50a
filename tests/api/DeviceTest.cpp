//===- tests/api/DeviceTest.cpp - clGetDeviceInfo -------------------------===//
//
// Limits are checked against the minimums the OpenCL 3.0 specification
// sets for a full-profile device; strings are checked against their
// structured twins (CL_DEVICE_NUMERIC_VERSION, ..._WITH_VERSION, ...).
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <CL/cl_ext.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

using namespace weft_test;

namespace {

class DeviceQueries : public DeviceTest {};

std::vector<cl_name_version> nameVersions(cl_device_id D,
                                          cl_device_info Param) {
  size_t Size = 0;
  EXPECT_CL_OK(clGetDeviceInfo(D, Param, 0, nullptr, &Size));
  EXPECT_EQ(Size % sizeof(cl_name_version), 0u);
  std::vector<cl_name_version> Result(Size / sizeof(cl_name_version));
  if (!Result.empty()) {
    EXPECT_CL_OK(clGetDeviceInfo(D, Param, Size, Result.data(), nullptr));
  }
  return Result;
}

std::string nameOf(const cl_name_version &NV) {
  return std::string(NV.name, strnlen(NV.name, sizeof(NV.name)));
}

/// "OpenCL 3.0 xyz" -> (3, 0) after \p Prefix; false if malformed.
bool parseVersion(const std::string &S, const std::string &Prefix,
                  unsigned &Major, unsigned &Minor) {
  if (S.rfind(Prefix, 0) != 0)
    return false;
  char After = 0;
  int N = sscanf(S.c_str() + Prefix.size(), "%u.%u%c", &Major, &Minor, &After);
  return N == 2 || (N == 3 && After == ' ');
}

TEST_P(DeviceQueries, TypeAndAvailability) {
  const cl_device_type Type = deviceInfo<cl_device_type>(Device, CL_DEVICE_TYPE);
  std::string Name = deviceString(Device, CL_DEVICE_NAME);
  // The accelerator simulator (devices/accelsim) names its machine model.
  const bool Simulator =
      testingWeft() && Name.rfind("Weft accelerator simulator (", 0) == 0;
  EXPECT_EQ(Type, cl_device_type(Simulator ? CL_DEVICE_TYPE_ACCELERATOR
                                           : CL_DEVICE_TYPE_CPU));
  EXPECT_TRUE(deviceInfo<cl_bool>(Device, CL_DEVICE_AVAILABLE));
  EXPECT_TRUE(deviceInfo<cl_bool>(Device, CL_DEVICE_COMPILER_AVAILABLE));
  EXPECT_TRUE(deviceInfo<cl_bool>(Device, CL_DEVICE_ENDIAN_LITTLE));
  EXPECT_EQ(deviceInfo<cl_platform_id>(Device, CL_DEVICE_PLATFORM),
            platformUnderTest());
  EXPECT_EQ(deviceInfo<cl_uint>(Device, CL_DEVICE_ADDRESS_BITS),
            sizeof(void *) * 8);
  EXPECT_FALSE(deviceString(Device, CL_DEVICE_VENDOR).empty());
  EXPECT_FALSE(deviceString(Device, CL_DRIVER_VERSION).empty());
  // Applications key their binary caches on name and driver version: the
  // version names the code's target (api.DeviceQueries.x86-64-v3 sets it).
  const char *Level = getenv("WEFT_TARGET_CPU");
  if (testingWeft() && Level) {
    EXPECT_NE(deviceString(Device, CL_DRIVER_VERSION).find(Level),
              std::string::npos)
        << deviceString(Device, CL_DRIVER_VERSION);
  }
  EXPECT_FALSE(Name.empty());
  if (testingWeft()) {
    // "<driver>-<CPU>" for the CPU-like drivers (devices/cpu's CpuDriver).
    EXPECT_TRUE(Simulator || Name.rfind("pthread-", 0) == 0 ||
                Name.rfind("basic-", 0) == 0 ||
                Name.rfind("template-", 0) == 0)
        << Name;
  }
}

TEST_P(DeviceQueries, ComputeLimits) {
  EXPECT_GE(deviceInfo<cl_uint>(Device, CL_DEVICE_MAX_COMPUTE_UNITS), 1u);
  cl_uint Dims = deviceInfo<cl_uint>(Device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  ASSERT_GE(Dims, 3u);
  size_t MaxGroup = deviceInfo<size_t>(Device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  EXPECT_GE(MaxGroup, 1u);

  size_t Size = 0;
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_MAX_WORK_ITEM_SIZES, 0,
                               nullptr, &Size));
  ASSERT_EQ(Size, Dims * sizeof(size_t));
  std::vector<size_t> Items(Dims);
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_MAX_WORK_ITEM_SIZES, Size,
                               Items.data(), nullptr));
  for (cl_uint I = 0; I < Dims; ++I) {
    EXPECT_GE(Items[I], 1u) << "dimension " << I;
  }
  // A work-group of MaxGroup items must be expressible along some axis mix.
  EXPECT_GE(Items[0] * Items[1] * Items[2], MaxGroup);

  EXPECT_GE(deviceInfo<size_t>(Device, CL_DEVICE_MAX_PARAMETER_SIZE), 1024u);
  cl_uint Align = deviceInfo<cl_uint>(Device, CL_DEVICE_MEM_BASE_ADDR_ALIGN);
  // In bits, at least the size of long16.
  EXPECT_GE(Align, 8u * 128u);
}

TEST_P(DeviceQueries, MemoryLimits) {
  cl_ulong Global = deviceInfo<cl_ulong>(Device, CL_DEVICE_GLOBAL_MEM_SIZE);
  cl_ulong MaxAlloc = deviceInfo<cl_ulong>(Device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_GT(Global, 0u);
  EXPECT_LE(MaxAlloc, Global);
  cl_ulong MinAlloc =
      std::max<cl_ulong>(std::min<cl_ulong>(1ull << 30, Global / 4), 32ull << 20);
  EXPECT_GE(MaxAlloc, MinAlloc);
  EXPECT_GE(deviceInfo<cl_ulong>(Device, CL_DEVICE_LOCAL_MEM_SIZE), 32u * 1024);
  EXPECT_GE(deviceInfo<cl_ulong>(Device, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE),
            64u * 1024);
  EXPECT_GE(deviceInfo<cl_uint>(Device, CL_DEVICE_MAX_CONSTANT_ARGS), 8u);
}

TEST_P(DeviceQueries, QueueProperties) {
  cl_command_queue_properties Props =
      deviceInfo<cl_command_queue_properties>(Device,
                                              CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
  EXPECT_TRUE(Props & CL_QUEUE_PROFILING_ENABLE);
  size_t Resolution =
      deviceInfo<size_t>(Device, CL_DEVICE_PROFILING_TIMER_RESOLUTION);
  EXPECT_GT(Resolution, 0u);
}

TEST_P(DeviceQueries, DeviceVersionStrings) {
  std::string Version = deviceString(Device, CL_DEVICE_VERSION);
  unsigned Major = 0, Minor = 0;
  ASSERT_TRUE(parseVersion(Version, "OpenCL ", Major, Minor))
      << "CL_DEVICE_VERSION is \"" << Version << "\"";
  cl_version Numeric = deviceInfo<cl_version>(Device, CL_DEVICE_NUMERIC_VERSION);
  EXPECT_EQ(CL_VERSION_MAJOR(Numeric), Major);
  EXPECT_EQ(CL_VERSION_MINOR(Numeric), Minor);
  EXPECT_EQ(Major, 3u) << Version;

  std::string Profile = deviceString(Device, CL_DEVICE_PROFILE);
  EXPECT_TRUE(Profile == "FULL_PROFILE" || Profile == "EMBEDDED_PROFILE")
      << Profile;
}

TEST_P(DeviceQueries, OpenCLCVersionsConsistent) {
  std::string CVersion = deviceString(Device, CL_DEVICE_OPENCL_C_VERSION);
  unsigned Major = 0, Minor = 0;
  ASSERT_TRUE(parseVersion(CVersion, "OpenCL C ", Major, Minor))
      << "CL_DEVICE_OPENCL_C_VERSION is \"" << CVersion << "\"";

  std::set<std::pair<unsigned, unsigned>> All;
  for (const cl_name_version &NV :
       nameVersions(Device, CL_DEVICE_OPENCL_C_ALL_VERSIONS)) {
    EXPECT_EQ(nameOf(NV), "OpenCL C");
    All.insert({CL_VERSION_MAJOR(NV.version), CL_VERSION_MINOR(NV.version)});
  }
  EXPECT_TRUE(All.count({Major, Minor}))
      << CVersion << " is missing from CL_DEVICE_OPENCL_C_ALL_VERSIONS";
  // A 3.0 device compiles OpenCL C 1.0 to 1.2 and 3.0.
  for (auto V : {std::make_pair(1u, 0u), std::make_pair(1u, 1u),
                 std::make_pair(1u, 2u), std::make_pair(3u, 0u)})
    EXPECT_TRUE(All.count(V)) << "OpenCL C " << V.first << "." << V.second
                              << " missing from CL_DEVICE_OPENCL_C_ALL_VERSIONS";
  // The legacy string names the newest version below 3.0.
  EXPECT_LT(Major, 3u) << CVersion;
}

TEST_P(DeviceQueries, OpenCLCFeaturesConsistent) {
  std::set<std::string> Features;
  for (const cl_name_version &NV :
       nameVersions(Device, CL_DEVICE_OPENCL_C_FEATURES)) {
    std::string Name = nameOf(NV);
    EXPECT_EQ(Name.rfind("__opencl_c_", 0), 0u) << Name;
    Features.insert(Name);
  }
  std::set<std::string> Extensions =
      splitWords(deviceString(Device, CL_DEVICE_EXTENSIONS));
  std::string Profile = deviceString(Device, CL_DEVICE_PROFILE);
  if (Profile == "FULL_PROFILE") {
    EXPECT_TRUE(Features.count("__opencl_c_int64"));
  }

  bool Fp64 = Features.count("__opencl_c_fp64");
  EXPECT_EQ(Fp64, Extensions.count("cl_khr_fp64") == 1);
  EXPECT_EQ(Fp64,
            deviceInfo<cl_device_fp_config>(Device, CL_DEVICE_DOUBLE_FP_CONFIG) !=
                0);
  bool Images = Features.count("__opencl_c_images");
  EXPECT_EQ(Images, deviceInfo<cl_bool>(Device, CL_DEVICE_IMAGE_SUPPORT) != 0);
  if (Fp64) {
    EXPECT_GE(deviceInfo<cl_uint>(Device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE),
              1u);
  } else {
    EXPECT_EQ(deviceInfo<cl_uint>(Device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE),
              0u);
  }
  // Single precision: round to nearest and INF/NaN are required.
  cl_device_fp_config Single =
      deviceInfo<cl_device_fp_config>(Device, CL_DEVICE_SINGLE_FP_CONFIG);
  EXPECT_TRUE(Single & CL_FP_ROUND_TO_NEAREST);
  EXPECT_TRUE(Single & CL_FP_INF_NAN);
}

TEST_P(DeviceQueries, ExtensionsMatchVersionedList) {
  std::set<std::string> Names =
      splitWords(deviceString(Device, CL_DEVICE_EXTENSIONS));
  std::set<std::string> Versioned;
  for (const cl_name_version &NV :
       nameVersions(Device, CL_DEVICE_EXTENSIONS_WITH_VERSION))
    Versioned.insert(nameOf(NV));
  EXPECT_EQ(Names, Versioned);
}

TEST_P(DeviceQueries, SizeQueryProtocol) {
  size_t Size = 0;
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_NAME, 0, nullptr, &Size));
  ASSERT_GT(Size, 1u);
  std::vector<char> Short(Size - 1);
  EXPECT_CL(CL_INVALID_VALUE, clGetDeviceInfo(Device, CL_DEVICE_NAME, Size - 1,
                                              Short.data(), nullptr));
  cl_uint Units = 0;
  EXPECT_CL(CL_INVALID_VALUE,
            clGetDeviceInfo(Device, CL_DEVICE_MAX_COMPUTE_UNITS,
                            sizeof(Units) - 1, &Units, nullptr));
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_MAX_COMPUTE_UNITS, 0, nullptr,
                               &Size));
  EXPECT_EQ(Size, sizeof(cl_uint));
  char Buffer[64];
  EXPECT_CL(CL_INVALID_VALUE,
            clGetDeviceInfo(Device, 0x7fff, sizeof(Buffer), Buffer, nullptr));
}

/// CL_DEVICE_UUID_KHR, CL_DRIVER_UUID_KHR and the like: N bytes.
std::vector<cl_uchar> deviceBytes(cl_device_id D, cl_device_info Param,
                                  size_t N) {
  size_t Size = 0;
  EXPECT_CL_OK(clGetDeviceInfo(D, Param, 0, nullptr, &Size));
  EXPECT_EQ(Size, N);
  std::vector<cl_uchar> Bytes(N);
  EXPECT_CL_OK(clGetDeviceInfo(D, Param, N, Bytes.data(), nullptr));
  return Bytes;
}

std::string hexOf(const std::vector<cl_uchar> &Bytes) {
  std::string Hex;
  char Digits[3];
  for (cl_uchar B : Bytes) {
    snprintf(Digits, sizeof(Digits), "%02x", B);
    Hex += Digits;
  }
  return Hex;
}

cl_version extensionVersion(cl_device_id D, const char *Name) {
  for (const cl_name_version &NV :
       nameVersions(D, CL_DEVICE_EXTENSIONS_WITH_VERSION))
    if (nameOf(NV) == Name)
      return NV.version;
  return 0;
}

TEST_P(DeviceQueries, DeviceUuid) {
  EXPECT_EQ(extensionVersion(Device, "cl_khr_device_uuid"),
            CL_MAKE_VERSION(1, 0, 0));
  std::vector<cl_uchar> DeviceUuid =
      deviceBytes(Device, CL_DEVICE_UUID_KHR, CL_UUID_SIZE_KHR);
  std::vector<cl_uchar> DriverUuid =
      deviceBytes(Device, CL_DRIVER_UUID_KHR, CL_UUID_SIZE_KHR);
  EXPECT_NE(DeviceUuid, std::vector<cl_uchar>(CL_UUID_SIZE_KHR, 0));
  EXPECT_NE(DriverUuid, std::vector<cl_uchar>(CL_UUID_SIZE_KHR, 0));
  EXPECT_NE(DeviceUuid, DriverUuid);
  // No LUID on this platform: the LUID and node mask are then undefined,
  // but the queries answer with their sizes.
  EXPECT_EQ(deviceInfo<cl_bool>(Device, CL_DEVICE_LUID_VALID_KHR), CL_FALSE);
  deviceBytes(Device, CL_DEVICE_LUID_KHR, CL_LUID_SIZE_KHR);
  size_t Size = 0;
  EXPECT_CL_OK(
      clGetDeviceInfo(Device, CL_DEVICE_NODE_MASK_KHR, 0, nullptr, &Size));
  EXPECT_EQ(Size, sizeof(cl_uint));
  // A buffer one byte short is refused.
  cl_uchar Short[CL_UUID_SIZE_KHR - 1];
  EXPECT_CL(CL_INVALID_VALUE, clGetDeviceInfo(Device, CL_DEVICE_UUID_KHR,
                                              sizeof(Short), Short, nullptr));
}

// The UUIDs identify the device and the driver build, not the process: this
// test runs itself again in a child process, which prints them.
TEST_P(DeviceQueries, UuidsAreTheSameInAnotherProcess) {
  std::string DeviceHex =
      hexOf(deviceBytes(Device, CL_DEVICE_UUID_KHR, CL_UUID_SIZE_KHR));
  std::string DriverHex =
      hexOf(deviceBytes(Device, CL_DRIVER_UUID_KHR, CL_UUID_SIZE_KHR));
  if (getenv("WEFT_TEST_UUID_CHILD")) {
    printf("uuids %s %s\n", DeviceHex.c_str(), DriverHex.c_str());
    return;
  }
  const ::testing::TestInfo *Info =
      ::testing::UnitTest::GetInstance()->current_test_info();
  char Self[4096];
  ssize_t Length = readlink("/proc/self/exe", Self, sizeof(Self) - 1);
  ASSERT_GT(Length, 0);
  Self[Length] = 0;
  std::string Command = std::string("WEFT_TEST_UUID_CHILD=1 '") + Self +
                        "' '--gtest_filter=" + Info->test_suite_name() + "." +
                        Info->name() + "'";
  FILE *Child = popen(Command.c_str(), "r");
  ASSERT_NE(Child, nullptr);
  char Line[512];
  std::string Printed;
  while (fgets(Line, sizeof(Line), Child))
    if (strncmp(Line, "uuids ", 6) == 0)
      Printed = Line;
  EXPECT_EQ(pclose(Child), 0);
  EXPECT_EQ(Printed, "uuids " + DeviceHex + " " + DriverHex + "\n");
}

WEFT_INSTANTIATE_DEVICE_TEST(DeviceQueries);

// Devices of different drivers (pthread, basic) are different devices of
// one driver build.
TEST(DeviceQueries, UuidsTellDevicesApart) {
  std::vector<cl_device_id> Devices = allDevices();
  if (Devices.size() < 2)
    GTEST_SKIP() << "one device";
  for (size_t I = 0; I < Devices.size(); ++I)
    for (size_t J = I + 1; J < Devices.size(); ++J) {
      SCOPED_TRACE(deviceString(Devices[I], CL_DEVICE_NAME) + " vs " +
                   deviceString(Devices[J], CL_DEVICE_NAME));
      EXPECT_NE(deviceBytes(Devices[I], CL_DEVICE_UUID_KHR, CL_UUID_SIZE_KHR),
                deviceBytes(Devices[J], CL_DEVICE_UUID_KHR, CL_UUID_SIZE_KHR));
      EXPECT_EQ(deviceBytes(Devices[I], CL_DRIVER_UUID_KHR, CL_UUID_SIZE_KHR),
                deviceBytes(Devices[J], CL_DRIVER_UUID_KHR, CL_UUID_SIZE_KHR));
    }
}

} // namespace
