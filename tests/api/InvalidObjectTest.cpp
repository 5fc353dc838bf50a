//===- tests/api/InvalidObjectTest.cpp - NULL, foreign and forged handles ===//
//
// NULL handles are mostly refused by the ICD loader before the
// implementation sees them; the loader forwards a handle of the wrong kind
// (a context where a device is expected) and a forged handle that carries
// the implementation's dispatch table, so those reach the implementation's
// own validation.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

using namespace weft_test;

namespace {

class InvalidObjects : public DeviceTest {
protected:
  /// A fake object: the real dispatch table pointer (the ICD loader's
  /// requirement for the first member) followed by zeroes.
  template <typename T> T forge(T Real) {
    std::memset(Forged, 0, sizeof(Forged));
    std::memcpy(Forged, reinterpret_cast<void *>(Real), sizeof(void *));
    return reinterpret_cast<T>(Forged);
  }
  alignas(64) unsigned char Forged[4096];
};

TEST_P(InvalidObjects, NullHandles) {
  char Buffer[64];
  cl_int Err = CL_SUCCESS;
  EXPECT_CL(CL_INVALID_DEVICE, clGetDeviceInfo(nullptr, CL_DEVICE_NAME,
                                               sizeof(Buffer), Buffer, nullptr));
  EXPECT_CL(CL_INVALID_CONTEXT, clGetContextInfo(nullptr,
                                                 CL_CONTEXT_REFERENCE_COUNT,
                                                 sizeof(Buffer), Buffer,
                                                 nullptr));
  EXPECT_CL(CL_INVALID_CONTEXT, clRetainContext(nullptr));
  EXPECT_CL(CL_INVALID_COMMAND_QUEUE, clFinish(nullptr));
  EXPECT_CL(CL_INVALID_MEM_OBJECT, clReleaseMemObject(nullptr));
  EXPECT_CL(CL_INVALID_PROGRAM,
            clBuildProgram(nullptr, 0, nullptr, nullptr, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_KERNEL, clSetKernelArg(nullptr, 0, 4, Buffer));
  EXPECT_CL(CL_INVALID_EVENT, clReleaseEvent(nullptr));
  EXPECT_EQ(clCreateBuffer(nullptr, CL_MEM_READ_WRITE, 16, nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_CONTEXT, Err);
  EXPECT_EQ(clCreateCommandQueueWithProperties(Context, nullptr, nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_DEVICE, Err);

  // A NULL buffer in a transfer is validated by the implementation.
  EXPECT_CL(CL_INVALID_MEM_OBJECT,
            clEnqueueReadBuffer(Queue, nullptr, CL_TRUE, 0, 4, Buffer, 0,
                                nullptr, nullptr));
  // So is a NULL event in a wait list.
  cl_event NullEvent = nullptr;
  EXPECT_CL(CL_INVALID_EVENT_WAIT_LIST,
            clEnqueueMarkerWithWaitList(Queue, 1, &NullEvent, nullptr));
  EXPECT_CL(CL_INVALID_EVENT_WAIT_LIST,
            clEnqueueMarkerWithWaitList(Queue, 1, nullptr, nullptr));
}

TEST_P(InvalidObjects, HandlesOfTheWrongKind) {
  WEFT_ONLY("other implementations dereference handles unchecked");
  char Buffer[64];
  cl_device_id ContextAsDevice = reinterpret_cast<cl_device_id>(Context.get());
  EXPECT_CL(CL_INVALID_DEVICE, clGetDeviceInfo(ContextAsDevice, CL_DEVICE_NAME,
                                               sizeof(Buffer), Buffer, nullptr));
  cl_context QueueAsContext = reinterpret_cast<cl_context>(Queue.get());
  EXPECT_CL(CL_INVALID_CONTEXT,
            clGetContextInfo(QueueAsContext, CL_CONTEXT_NUM_DEVICES,
                             sizeof(Buffer), Buffer, nullptr));
  cl_command_queue ContextAsQueue =
      reinterpret_cast<cl_command_queue>(Context.get());
  EXPECT_CL(CL_INVALID_COMMAND_QUEUE, clFinish(ContextAsQueue));

  cl_int Err = CL_SUCCESS;
  MemRef Mem(makeBuffer(CL_MEM_READ_WRITE, 64));
  ASSERT_NE(Mem.get(), nullptr);
  cl_mem QueueAsMem = reinterpret_cast<cl_mem>(Queue.get());
  EXPECT_CL(CL_INVALID_MEM_OBJECT,
            clEnqueueReadBuffer(Queue, QueueAsMem, CL_TRUE, 0, 4, Buffer, 0,
                                nullptr, nullptr));
  cl_program MemAsProgram = reinterpret_cast<cl_program>(Mem.get());
  EXPECT_EQ(clCreateKernel(MemAsProgram, "k", &Err), nullptr);
  EXPECT_CL(CL_INVALID_PROGRAM, Err);

  // A kernel argument that should be a buffer but is a queue.
  KernelRef K(makeKernel("kernel void k(global int *p) { p[0] = 1; }", "k"));
  ASSERT_NE(K.get(), nullptr);
  cl_mem NotMem = reinterpret_cast<cl_mem>(Queue.get());
  EXPECT_CL(CL_INVALID_MEM_OBJECT,
            clSetKernelArg(K, 0, sizeof(cl_mem), &NotMem));

  // A device handle given as the context's platform.
  cl_context_properties Props[] = {CL_CONTEXT_PLATFORM,
                                   (cl_context_properties)Device, 0};
  EXPECT_EQ(clCreateContext(Props, 1, &Device, nullptr, nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_PLATFORM, Err);
}

TEST_P(InvalidObjects, ForgedHandles) {
  WEFT_ONLY("other implementations dereference handles unchecked");
  char Buffer[64];
  EXPECT_CL(CL_INVALID_DEVICE, clGetDeviceInfo(forge(Device), CL_DEVICE_NAME,
                                               sizeof(Buffer), Buffer, nullptr));
  EXPECT_CL(CL_INVALID_CONTEXT,
            clGetContextInfo(forge(Context.get()), CL_CONTEXT_NUM_DEVICES,
                             sizeof(Buffer), Buffer, nullptr));
  EXPECT_CL(CL_INVALID_COMMAND_QUEUE, clFinish(forge(Queue.get())));
}

TEST_P(InvalidObjects, ObjectsFromAnotherContext) {
  cl_int Err = CL_SUCCESS;
  ContextRef Other(clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err));
  ASSERT_CL_OK(Err);
  MemRef Foreign(clCreateBuffer(Other, CL_MEM_READ_WRITE, 64, nullptr, &Err));
  ASSERT_CL_OK(Err);
  char Buffer[64];
  EXPECT_CL(CL_INVALID_CONTEXT,
            clEnqueueReadBuffer(Queue, Foreign, CL_TRUE, 0, 4, Buffer, 0,
                                nullptr, nullptr));

  // An event of another context in a wait list.
  QueueRef OtherQueue(
      clCreateCommandQueueWithProperties(Other, Device, nullptr, &Err));
  ASSERT_CL_OK(Err);
  EventRef OtherEvent;
  ASSERT_CL_OK(clEnqueueMarkerWithWaitList(OtherQueue, 0, nullptr,
                                           OtherEvent.out()));
  ASSERT_CL_OK(clFinish(OtherQueue));
  cl_event List[] = {OtherEvent.get()};
  EXPECT_CL(CL_INVALID_CONTEXT,
            clEnqueueMarkerWithWaitList(Queue, 1, List, nullptr));
}

WEFT_INSTANTIATE_DEVICE_TEST(InvalidObjects);

} // namespace
