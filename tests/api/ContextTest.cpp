//===- tests/api/ContextTest.cpp - contexts, queues, reference counts -----===//

#include "TestCommon.h"

using namespace weft_test;

namespace {

class ContextQueries : public DeviceTest {};

cl_uint contextRefCount(cl_context C) {
  cl_uint Count = 0;
  EXPECT_CL_OK(clGetContextInfo(C, CL_CONTEXT_REFERENCE_COUNT, sizeof(Count),
                                &Count, nullptr));
  return Count;
}

TEST_P(ContextQueries, RetainReleaseCounts) {
  cl_int Err = CL_SUCCESS;
  cl_context C = clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err);
  ASSERT_CL_OK(Err);
  EXPECT_EQ(contextRefCount(C), 1u);
  ASSERT_CL_OK(clRetainContext(C));
  EXPECT_EQ(contextRefCount(C), 2u);
  ASSERT_CL_OK(clRetainContext(C));
  EXPECT_EQ(contextRefCount(C), 3u);
  ASSERT_CL_OK(clReleaseContext(C));
  EXPECT_EQ(contextRefCount(C), 2u);
  ASSERT_CL_OK(clReleaseContext(C));
  EXPECT_EQ(contextRefCount(C), 1u);
  ASSERT_CL_OK(clReleaseContext(C));
}

TEST_P(ContextQueries, DevicesAndProperties) {
  cl_uint Num = 0;
  ASSERT_CL_OK(clGetContextInfo(Context, CL_CONTEXT_NUM_DEVICES, sizeof(Num),
                                &Num, nullptr));
  EXPECT_EQ(Num, 1u);
  cl_device_id D = nullptr;
  ASSERT_CL_OK(clGetContextInfo(Context, CL_CONTEXT_DEVICES, sizeof(D), &D,
                                nullptr));
  EXPECT_EQ(D, Device);
  size_t Size = 123;
  ASSERT_CL_OK(
      clGetContextInfo(Context, CL_CONTEXT_PROPERTIES, 0, nullptr, &Size));
  EXPECT_EQ(Size, 0u) << "no properties were given";

  // Properties given at creation come back verbatim.
  cl_context_properties Props[] = {
      CL_CONTEXT_PLATFORM, (cl_context_properties)platformUnderTest(), 0};
  cl_int Err = CL_SUCCESS;
  ContextRef C(clCreateContext(Props, 1, &Device, nullptr, nullptr, &Err));
  ASSERT_CL_OK(Err);
  ASSERT_CL_OK(clGetContextInfo(C, CL_CONTEXT_PROPERTIES, 0, nullptr, &Size));
  ASSERT_EQ(Size, sizeof(Props));
  cl_context_properties Back[3] = {};
  ASSERT_CL_OK(
      clGetContextInfo(C, CL_CONTEXT_PROPERTIES, Size, Back, nullptr));
  EXPECT_EQ(Back[0], Props[0]);
  EXPECT_EQ(Back[1], Props[1]);
  EXPECT_EQ(Back[2], 0);
}

TEST_P(ContextQueries, InvalidCreation) {
  cl_int Err = CL_SUCCESS;
  EXPECT_EQ(clCreateContext(nullptr, 0, &Device, nullptr, nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  EXPECT_EQ(clCreateContext(nullptr, 1, nullptr, nullptr, nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  // user_data without pfn_notify.
  int UserData = 0;
  EXPECT_EQ(clCreateContext(nullptr, 1, &Device, nullptr, &UserData, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  // An unknown property name.
  cl_context_properties Bogus[] = {
      CL_CONTEXT_PLATFORM, (cl_context_properties)platformUnderTest(), 0x7777,
      1, 0};
  EXPECT_EQ(clCreateContext(Bogus, 1, &Device, nullptr, nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_PROPERTY, Err);
  // The same property twice.
  cl_context_properties Twice[] = {
      CL_CONTEXT_PLATFORM, (cl_context_properties)platformUnderTest(),
      CL_CONTEXT_PLATFORM, (cl_context_properties)platformUnderTest(), 0};
  EXPECT_EQ(clCreateContext(Twice, 1, &Device, nullptr, nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_PROPERTY, Err);
}

TEST_P(ContextQueries, QueueInfoAndCounts) {
  cl_queue_properties Props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE,
                                 0};
  cl_int Err = CL_SUCCESS;
  cl_command_queue Q =
      clCreateCommandQueueWithProperties(Context, Device, Props, &Err);
  ASSERT_CL_OK(Err);
  cl_context C = nullptr;
  ASSERT_CL_OK(clGetCommandQueueInfo(Q, CL_QUEUE_CONTEXT, sizeof(C), &C, nullptr));
  EXPECT_EQ(C, Context.get());
  cl_device_id D = nullptr;
  ASSERT_CL_OK(clGetCommandQueueInfo(Q, CL_QUEUE_DEVICE, sizeof(D), &D, nullptr));
  EXPECT_EQ(D, Device);
  cl_command_queue_properties Got = 0;
  ASSERT_CL_OK(clGetCommandQueueInfo(Q, CL_QUEUE_PROPERTIES, sizeof(Got), &Got,
                                     nullptr));
  EXPECT_EQ(Got, cl_command_queue_properties(CL_QUEUE_PROFILING_ENABLE));

  cl_uint Count = 0;
  ASSERT_CL_OK(clGetCommandQueueInfo(Q, CL_QUEUE_REFERENCE_COUNT, sizeof(Count),
                                     &Count, nullptr));
  EXPECT_EQ(Count, 1u);
  ASSERT_CL_OK(clRetainCommandQueue(Q));
  ASSERT_CL_OK(clGetCommandQueueInfo(Q, CL_QUEUE_REFERENCE_COUNT, sizeof(Count),
                                     &Count, nullptr));
  EXPECT_EQ(Count, 2u);
  ASSERT_CL_OK(clReleaseCommandQueue(Q));
  ASSERT_CL_OK(clReleaseCommandQueue(Q));

  // The deprecated 1.x entry point still works.
  QueueRef Old(clCreateCommandQueue(Context, Device, 0, &Err));
  EXPECT_CL_OK(Err);

  // An unknown queue property bit.
  cl_queue_properties Bad[] = {CL_QUEUE_PROPERTIES, cl_queue_properties(1) << 40,
                               0};
  EXPECT_EQ(clCreateCommandQueueWithProperties(Context, Device, Bad, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
}

TEST_P(ContextQueries, FinishAndFlushOnEmptyQueue) {
  EXPECT_CL_OK(clFlush(Queue));
  EXPECT_CL_OK(clFinish(Queue));
}

WEFT_INSTANTIATE_DEVICE_TEST(ContextQueries);

// Not per device: a context over all devices of the platform.
TEST(ContextAllDevices, FromTypeAndFromList) {
  cl_platform_id Platform = platformUnderTest();
  ASSERT_NE(Platform, nullptr);
  std::vector<cl_device_id> Devices = allDevices();
  ASSERT_FALSE(Devices.empty());
  cl_context_properties Props[] = {CL_CONTEXT_PLATFORM,
                                   (cl_context_properties)Platform, 0};
  cl_int Err = CL_SUCCESS;
  ContextRef FromList(clCreateContext(Props, cl_uint(Devices.size()),
                                      Devices.data(), nullptr, nullptr, &Err));
  ASSERT_CL_OK(Err);
  cl_uint Num = 0;
  ASSERT_CL_OK(clGetContextInfo(FromList, CL_CONTEXT_NUM_DEVICES, sizeof(Num),
                                &Num, nullptr));
  EXPECT_EQ(Num, Devices.size());

  // By the first device's type (CPU, or accelerator for a platform of the
  // accelerator simulator alone): every device of that type.
  const cl_device_type Type =
      deviceInfo<cl_device_type>(Devices[0], CL_DEVICE_TYPE);
  ContextRef FromType(
      clCreateContextFromType(Props, Type, nullptr, nullptr, &Err));
  ASSERT_CL_OK(Err);
  cl_uint OfType = 0;
  ASSERT_CL_OK(clGetDeviceIDs(Platform, Type, 0, nullptr, &OfType));
  ASSERT_CL_OK(clGetContextInfo(FromType, CL_CONTEXT_NUM_DEVICES, sizeof(Num),
                                &Num, nullptr));
  EXPECT_EQ(Num, OfType);

  // A queue for a device outside the context is refused.
  if (Devices.size() >= 2) {
    ContextRef One(clCreateContext(Props, 1, &Devices[0], nullptr, nullptr, &Err));
    ASSERT_CL_OK(Err);
    EXPECT_EQ(clCreateCommandQueueWithProperties(One, Devices[1], nullptr, &Err),
              nullptr);
    EXPECT_CL(CL_INVALID_DEVICE, Err);
  }
}

} // namespace
