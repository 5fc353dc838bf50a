//===- tests/api/SubDeviceTest.cpp - clCreateSubDevices ---------------------===//
//
// Partitions equally, by counts and by affinity domain; each sub-device
// is a device of its own that runs kernels; its queries describe the
// partition; reference counts; the error codes of every scheme.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <algorithm>

using namespace weft_test;

namespace {

class SubDevices : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    MaxSub = deviceInfo<cl_uint>(Device, CL_DEVICE_PARTITION_MAX_SUB_DEVICES);
    Units = deviceInfo<cl_uint>(Device, CL_DEVICE_MAX_COMPUTE_UNITS);
  }
  bool partitionable() const { return MaxSub > 1; }

  /// Runs increment on D in a context of its own; true if it computed.
  void checkRuns(cl_device_id D) {
    cl_int Err = CL_SUCCESS;
    ContextRef Ctx(clCreateContext(nullptr, 1, &D, nullptr, nullptr, &Err));
    ASSERT_CL_OK(Err);
    QueueRef Q(clCreateCommandQueue(Ctx, D, 0, &Err));
    ASSERT_CL_OK(Err);
    ProgramRef P(buildProgram(Ctx, D, kernelSource("increment.cl")));
    ASSERT_NE(P.get(), nullptr);
    KernelRef K(clCreateKernel(P, "increment", &Err));
    ASSERT_CL_OK(Err);
    checkIncrement(Ctx, Q, K, 4096);
  }

  /// Runs increment (K) over N ints in Ctx on Q and checks each went up
  /// by one.
  void checkIncrement(cl_context Ctx, cl_command_queue Q, cl_kernel K,
                      size_t N) {
    std::vector<cl_int> Host(N);
    for (size_t I = 0; I < N; ++I)
      Host[I] = static_cast<cl_int>(3 * I);
    cl_int Err = CL_SUCCESS;
    MemRef B(clCreateBuffer(Ctx, CL_MEM_COPY_HOST_PTR, N * sizeof(cl_int),
                            Host.data(), &Err));
    ASSERT_CL_OK(Err);
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &B));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Q, K, 1, nullptr, &N, nullptr, 0,
                                        nullptr, nullptr));
    ASSERT_CL_OK(clEnqueueReadBuffer(Q, B, CL_TRUE, 0, N * sizeof(cl_int),
                                     Host.data(), 0, nullptr, nullptr));
    for (size_t I = 0; I < N; ++I)
      ASSERT_EQ(Host[I], static_cast<cl_int>(3 * I) + 1);
  }

  cl_uint MaxSub = 0, Units = 0;
};

TEST_P(SubDevices, ReportsPartitionSupport) {
  size_t Size = 0;
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_PARTITION_PROPERTIES, 0,
                               nullptr, &Size));
  std::vector<cl_device_partition_property> Props(
      Size / sizeof(cl_device_partition_property));
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_PARTITION_PROPERTIES, Size,
                               Props.data(), nullptr));
  ASSERT_FALSE(Props.empty());
  if (!partitionable()) {
    EXPECT_EQ(Props[0], 0);
    cl_device_partition_property Equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1,
                                              0};
    cl_uint Num = 0;
    EXPECT_CL(CL_INVALID_VALUE,
              clCreateSubDevices(Device, Equally, 0, nullptr, &Num));
    return;
  }
  EXPECT_NE(std::find(Props.begin(), Props.end(),
                      cl_device_partition_property(CL_DEVICE_PARTITION_EQUALLY)),
            Props.end());
  cl_device_id Parent = reinterpret_cast<cl_device_id>(1);
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_PARENT_DEVICE, sizeof(Parent),
                               &Parent, nullptr));
  EXPECT_EQ(Parent, nullptr);
}

TEST_P(SubDevices, EquallyEachRunsKernels) {
  if (!partitionable())
    GTEST_SKIP() << "not partitionable";
  cl_device_partition_property Props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_uint Num = 0;
  ASSERT_CL_OK(clCreateSubDevices(Device, Props, 0, nullptr, &Num));
  EXPECT_EQ(Num, Units);
  std::vector<cl_device_id> Subs(Num);
  ASSERT_CL_OK(clCreateSubDevices(Device, Props, Num, Subs.data(), nullptr));
  for (cl_device_id S : Subs) {
    EXPECT_EQ(deviceInfo<cl_uint>(S, CL_DEVICE_MAX_COMPUTE_UNITS), 1u);
    EXPECT_EQ(deviceInfo<cl_device_id>(S, CL_DEVICE_PARENT_DEVICE), Device);
    EXPECT_EQ(deviceInfo<cl_uint>(S, CL_DEVICE_REFERENCE_COUNT), 1u);
    size_t Size = 0;
    ASSERT_CL_OK(
        clGetDeviceInfo(S, CL_DEVICE_PARTITION_TYPE, 0, nullptr, &Size));
    std::vector<cl_device_partition_property> Type(
        Size / sizeof(cl_device_partition_property));
    ASSERT_CL_OK(clGetDeviceInfo(S, CL_DEVICE_PARTITION_TYPE, Size,
                                 Type.data(), nullptr));
    ASSERT_GE(Type.size(), 2u);
    EXPECT_EQ(Type[0], CL_DEVICE_PARTITION_EQUALLY);
    EXPECT_EQ(Type[1], 1);
    checkRuns(S);
    ASSERT_CL_OK(clRetainDevice(S));
    EXPECT_EQ(deviceInfo<cl_uint>(S, CL_DEVICE_REFERENCE_COUNT), 2u);
    ASSERT_CL_OK(clReleaseDevice(S));
    ASSERT_CL_OK(clReleaseDevice(S));
  }
  // (A released sub-device is freed once its contexts are gone; the ICD
  // loader dereferences a handle before Weft sees it, so using one after
  // release cannot be tested through the loader.)
}

// One context holding a device and its sub-devices (the CTS's
// device_partition): a program built for the parent device alone is built
// for its sub-devices too, and runs on each.
TEST_P(SubDevices, BuildForParentServesSubDevicesInOneContext) {
  if (!partitionable())
    GTEST_SKIP() << "not partitionable";
  cl_device_partition_property Props[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  cl_uint Num = 0;
  ASSERT_CL_OK(clCreateSubDevices(Device, Props, 0, nullptr, &Num));
  std::vector<cl_device_id> Devices(Num);
  ASSERT_CL_OK(
      clCreateSubDevices(Device, Props, Num, Devices.data(), nullptr));
  Devices.push_back(Device);
  cl_int Err = CL_SUCCESS;
  ContextRef Ctx(clCreateContext(nullptr, cl_uint(Devices.size()),
                                 Devices.data(), nullptr, nullptr, &Err));
  ASSERT_CL_OK(Err);
  std::string Source = kernelSource("increment.cl");
  const char *Text = Source.c_str();
  ProgramRef P(clCreateProgramWithSource(Ctx, 1, &Text, nullptr, &Err));
  ASSERT_CL_OK(Err);
  ASSERT_CL_OK(clBuildProgram(P, 1, &Device, nullptr, nullptr, nullptr));
  for (cl_device_id D : Devices) {
    cl_build_status Status = CL_BUILD_NONE;
    ASSERT_CL_OK(clGetProgramBuildInfo(P, D, CL_PROGRAM_BUILD_STATUS,
                                       sizeof(Status), &Status, nullptr));
    EXPECT_EQ(Status, CL_BUILD_SUCCESS)
        << "device " << (D == Device ? "parent" : "sub-device");
  }
  KernelRef K(clCreateKernel(P, "increment", &Err));
  ASSERT_CL_OK(Err);
  for (cl_device_id D : Devices) {
    QueueRef Q(clCreateCommandQueue(Ctx, D, 0, &Err));
    ASSERT_CL_OK(Err);
    checkIncrement(Ctx, Q, K, 1024);
    if (HasFatalFailure())
      return;
  }
  K.reset();
  P.reset();
  Ctx.reset();
  for (size_t I = 0; I + 1 < Devices.size(); ++I)
    ASSERT_CL_OK(clReleaseDevice(Devices[I]));
}

TEST_P(SubDevices, ByCountsAndNested) {
  if (!partitionable())
    GTEST_SKIP() << "not partitionable";
  cl_device_partition_property Props[] = {
      CL_DEVICE_PARTITION_BY_COUNTS, static_cast<cl_device_partition_property>(Units),
      CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  cl_device_id Sub = nullptr;
  cl_uint Num = 0;
  ASSERT_CL_OK(clCreateSubDevices(Device, Props, 1, &Sub, &Num));
  ASSERT_EQ(Num, 1u);
  EXPECT_EQ(deviceInfo<cl_uint>(Sub, CL_DEVICE_MAX_COMPUTE_UNITS), Units);
  checkRuns(Sub);
  // A sub-device partitions again.
  cl_device_partition_property OneUnit[] = {
      CL_DEVICE_PARTITION_BY_COUNTS, 1, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END,
      0};
  cl_device_id Inner = nullptr;
  ASSERT_CL_OK(clCreateSubDevices(Sub, OneUnit, 1, &Inner, &Num));
  EXPECT_EQ(deviceInfo<cl_uint>(Inner, CL_DEVICE_MAX_COMPUTE_UNITS), 1u);
  EXPECT_EQ(deviceInfo<cl_device_id>(Inner, CL_DEVICE_PARENT_DEVICE), Sub);
  checkRuns(Inner);
  // The parent's handle may go first; the child keeps working.
  ASSERT_CL_OK(clReleaseDevice(Sub));
  checkRuns(Inner);
  ASSERT_CL_OK(clReleaseDevice(Inner));
}

// Every affinity domain the device reports splits it into sub-devices
// that together cover it; one that left a single sub-device as large as
// its parent could be applied again for ever, and the CTS's
// device_partition, which partitions each sub-device again the same way,
// never ended.
TEST_P(SubDevices, ByAffinityDomainCoversTheDevice) {
  if (!partitionable())
    GTEST_SKIP() << "not partitionable";
  cl_device_affinity_domain Domains = deviceInfo<cl_device_affinity_domain>(
      Device, CL_DEVICE_PARTITION_AFFINITY_DOMAIN);
  const cl_device_affinity_domain Levels[] = {
      CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE,
      CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
      CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE,
      CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE};
  for (cl_device_affinity_domain Level : Levels) {
    cl_device_partition_property Props[] = {
        CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
        static_cast<cl_device_partition_property>(Level), 0};
    cl_uint Num = 0;
    cl_int Err = clCreateSubDevices(Device, Props, 0, nullptr, &Num);
    if (!(Domains & Level)) {
      EXPECT_CL(CL_INVALID_VALUE, Err) << "unlisted domain 0x" << std::hex
                                       << Level;
      continue;
    }
    ASSERT_CL_OK(Err);
    EXPECT_GE(Num, 2u) << "domain 0x" << std::hex << Level
                       << " does not split the device";
    std::vector<cl_device_id> Subs(Num);
    ASSERT_CL_OK(clCreateSubDevices(Device, Props, Num, Subs.data(), nullptr));
    cl_uint Total = 0;
    for (cl_device_id S : Subs) {
      cl_uint SubUnits = deviceInfo<cl_uint>(S, CL_DEVICE_MAX_COMPUTE_UNITS);
      Total += SubUnits;
      EXPECT_LT(SubUnits, Units);
      checkRuns(S);
      clReleaseDevice(S);
    }
    EXPECT_EQ(Total, Units);
  }
}

TEST_P(SubDevices, Errors) {
  cl_uint Num = 0;
  cl_device_partition_property Equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
  EXPECT_CL(CL_INVALID_DEVICE,
            clCreateSubDevices(nullptr, Equally, 0, nullptr, &Num));
  EXPECT_CL(CL_INVALID_VALUE,
            clCreateSubDevices(Device, nullptr, 0, nullptr, &Num));
  if (!partitionable())
    return;
  cl_device_partition_property Unknown[] = {0x7777, 1, 0};
  EXPECT_CL(CL_INVALID_VALUE,
            clCreateSubDevices(Device, Unknown, 0, nullptr, &Num));
  cl_device_partition_property Zero[] = {CL_DEVICE_PARTITION_EQUALLY, 0, 0};
  EXPECT_CL(CL_INVALID_VALUE, clCreateSubDevices(Device, Zero, 0, nullptr, &Num));
  cl_device_partition_property TooMany[] = {
      CL_DEVICE_PARTITION_BY_COUNTS,
      static_cast<cl_device_partition_property>(Units) + 1,
      CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  EXPECT_CL(CL_INVALID_DEVICE_PARTITION_COUNT,
            clCreateSubDevices(Device, TooMany, 0, nullptr, &Num));
  cl_device_partition_property Empty[] = {
      CL_DEVICE_PARTITION_BY_COUNTS, CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
  EXPECT_CL(CL_INVALID_VALUE,
            clCreateSubDevices(Device, Empty, 0, nullptr, &Num));
  cl_device_partition_property BadDomain[] = {
      CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, 0x300, 0};
  EXPECT_CL(CL_INVALID_VALUE,
            clCreateSubDevices(Device, BadDomain, 0, nullptr, &Num));
  // Room for fewer sub-devices than the partition makes.
  cl_device_id One = nullptr;
  EXPECT_CL(CL_INVALID_VALUE, clCreateSubDevices(Device, Equally, 1, &One,
                                                 nullptr));
  EXPECT_EQ(One, nullptr);
}

WEFT_INSTANTIATE_DEVICE_TEST(SubDevices);

} // namespace
