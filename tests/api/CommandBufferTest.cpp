//===- tests/api/CommandBufferTest.cpp - cl_khr_command_buffer -------------===//
//
// Recording and replaying kernels, copies, fills and barriers, sync points,
// events, the queries and every error of the extension's specification.

#include "TestCommon.h"

#include <algorithm>
#include <sstream>

#include <CL/cl_ext.h>

#include <thread>

using namespace weft_test;

namespace {

struct CommandBufferFunctions {
  clCreateCommandBufferKHR_fn Create = nullptr;
  clRetainCommandBufferKHR_fn Retain = nullptr;
  clReleaseCommandBufferKHR_fn Release = nullptr;
  clFinalizeCommandBufferKHR_fn Finalize = nullptr;
  clEnqueueCommandBufferKHR_fn Enqueue = nullptr;
  clGetCommandBufferInfoKHR_fn GetInfo = nullptr;
  clCommandBarrierWithWaitListKHR_fn Barrier = nullptr;
  clCommandCopyBufferKHR_fn Copy = nullptr;
  clCommandCopyBufferRectKHR_fn CopyRect = nullptr;
  clCommandFillBufferKHR_fn Fill = nullptr;
  clCommandNDRangeKernelKHR_fn NDRange = nullptr;
  clCommandFillImageKHR_fn FillImage = nullptr;
  clCommandCopyImageKHR_fn CopyImage = nullptr;
  clCommandCopyImageToBufferKHR_fn ImageToBuffer = nullptr;
  clCommandCopyBufferToImageKHR_fn BufferToImage = nullptr;
};

class CommandBuffers : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    std::string Extensions = deviceString(Device, CL_DEVICE_EXTENSIONS);
    ASSERT_NE(Extensions.find("cl_khr_command_buffer"), std::string::npos)
        << "cl_khr_command_buffer is not in " << Extensions;
    cl_platform_id P = platformUnderTest();
#define GET(Field, Name)                                                       \
  F.Field = reinterpret_cast<Name##_fn>(                                       \
      clGetExtensionFunctionAddressForPlatform(P, #Name));                     \
  ASSERT_NE(F.Field, nullptr) << #Name;
    GET(Create, clCreateCommandBufferKHR)
    GET(Retain, clRetainCommandBufferKHR)
    GET(Release, clReleaseCommandBufferKHR)
    GET(Finalize, clFinalizeCommandBufferKHR)
    GET(Enqueue, clEnqueueCommandBufferKHR)
    GET(GetInfo, clGetCommandBufferInfoKHR)
    GET(Barrier, clCommandBarrierWithWaitListKHR)
    GET(Copy, clCommandCopyBufferKHR)
    GET(CopyRect, clCommandCopyBufferRectKHR)
    GET(Fill, clCommandFillBufferKHR)
    GET(NDRange, clCommandNDRangeKernelKHR)
    GET(FillImage, clCommandFillImageKHR)
    GET(CopyImage, clCommandCopyImageKHR)
    GET(ImageToBuffer, clCommandCopyImageToBufferKHR)
    GET(BufferToImage, clCommandCopyBufferToImageKHR)
#undef GET
  }
  void TearDown() override {
    for (cl_command_buffer_khr B : Owned)
      F.Release(B);
  }

  cl_command_buffer_khr create(cl_command_queue Q = nullptr,
                               const cl_command_buffer_properties_khr *Props =
                                   nullptr) {
    cl_command_queue Queues[] = {Q ? Q : Queue.get()};
    cl_int Err = CL_SUCCESS;
    cl_command_buffer_khr B = F.Create(1, Queues, Props, &Err);
    EXPECT_CL_OK(Err);
    if (B)
      Owned.push_back(B);
    return B;
  }
  cl_command_buffer_state_khr state(cl_command_buffer_khr B) {
    cl_command_buffer_state_khr S = 99;
    EXPECT_CL_OK(F.GetInfo(B, CL_COMMAND_BUFFER_STATE_KHR, sizeof(S), &S,
                           nullptr));
    return S;
  }
  std::vector<cl_int> read(cl_mem Buf, size_t N) {
    std::vector<cl_int> V(N, -1);
    EXPECT_CL_OK(readInto(Buf, V));
    return V;
  }

  CommandBufferFunctions F;
  std::vector<cl_command_buffer_khr> Owned;
};

TEST_P(CommandBuffers, DeviceClaimsTheExtension) {
  size_t Size = 0;
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0,
                               nullptr, &Size));
  std::vector<cl_name_version> Versions(Size / sizeof(cl_name_version));
  ASSERT_CL_OK(clGetDeviceInfo(Device, CL_DEVICE_EXTENSIONS_WITH_VERSION, Size,
                               Versions.data(), nullptr));
  bool Found = false;
  for (const cl_name_version &V : Versions)
    if (std::string(V.name) == "cl_khr_command_buffer") {
      Found = true;
      EXPECT_EQ(V.version, CL_MAKE_VERSION(0, 9, 1));
    }
  EXPECT_TRUE(Found);
  auto Caps = deviceInfo<cl_device_command_buffer_capabilities_khr>(
      Device, CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR);
  EXPECT_TRUE(Caps & CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR);
  EXPECT_TRUE(Caps & CL_COMMAND_BUFFER_CAPABILITY_OUT_OF_ORDER_KHR);
  EXPECT_FALSE(Caps & CL_COMMAND_BUFFER_CAPABILITY_DEVICE_SIDE_ENQUEUE_KHR);
  EXPECT_EQ(deviceInfo<cl_command_queue_properties>(
                Device, CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR),
            0u);
}

TEST_P(CommandBuffers, KernelReplaysWithItsArgumentsOfRecordTime) {
  constexpr size_t N = 256;
  KernelRef K(makeKernel(kernelSource("saxpy.cl"), "saxpy"));
  ASSERT_NE(K.get(), nullptr);
  std::vector<float> X(N), Y(N, 1.0f);
  for (size_t I = 0; I < N; ++I)
    X[I] = float(I);
  MemRef XBuf(makeBufferFrom(X)), YBuf(makeBufferFrom(Y)),
      Other(makeBufferFrom(Y));
  float A = 2.0f;
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &YBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &XBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(float), &A));
  cl_command_buffer_khr B = create();
  size_t Global = N, Local = 32;
  ASSERT_CL_OK(F.NDRange(B, nullptr, nullptr, K, 1, nullptr, &Global, &Local,
                         0, nullptr, nullptr, nullptr));
  ASSERT_CL_OK(F.Finalize(B));
  // Changing the kernel's arguments after recording changes nothing.
  float A2 = 100.0f;
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Other));
  ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(float), &A2));
  for (int Run = 1; Run <= 3; ++Run) {
    ASSERT_CL_OK(F.Enqueue(0, nullptr, B, 0, nullptr, nullptr));
    ASSERT_CL_OK(clFinish(Queue));
    std::vector<float> Out(N);
    ASSERT_CL_OK(readInto(YBuf, Out));
    for (size_t I = 0; I < N; ++I)
      ASSERT_EQ(Out[I], 1.0f + Run * 2.0f * I) << "run " << Run << " i " << I;
  }
  std::vector<float> Untouched(N);
  ASSERT_CL_OK(readInto(Other, Untouched));
  EXPECT_EQ(Untouched, Y);
}

TEST_P(CommandBuffers, KeepsKernelsAndBuffersAlive) {
  constexpr size_t N = 64;
  cl_kernel K = makeKernel(kernelSource("increment.cl"), "increment");
  ASSERT_NE(K, nullptr);
  cl_mem Buf = makeBuffer(CL_MEM_READ_WRITE, N * sizeof(cl_int));
  MemRef Result(makeBuffer(CL_MEM_READ_WRITE, N * sizeof(cl_int)));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
  cl_command_buffer_khr B = create();
  cl_int Zero = 0;
  size_t Global = N;
  ASSERT_CL_OK(F.Fill(B, nullptr, Buf, &Zero, sizeof(Zero), 0,
                      N * sizeof(cl_int), 0, nullptr, nullptr, nullptr));
  ASSERT_CL_OK(F.NDRange(B, nullptr, nullptr, K, 1, nullptr, &Global, nullptr,
                         0, nullptr, nullptr, nullptr));
  ASSERT_CL_OK(F.Copy(B, nullptr, Buf, Result, 0, 0, N * sizeof(cl_int), 0,
                      nullptr, nullptr, nullptr));
  ASSERT_CL_OK(F.Finalize(B));
  ASSERT_CL_OK(clReleaseKernel(K));
  ASSERT_CL_OK(clReleaseMemObject(Buf));
  ASSERT_CL_OK(F.Enqueue(0, nullptr, B, 0, nullptr, nullptr));
  ASSERT_CL_OK(clFinish(Queue));
  EXPECT_EQ(read(Result, N), std::vector<cl_int>(N, 1));
}

TEST_P(CommandBuffers, CopiesAndFillsCheckedOnTheHost) {
  constexpr size_t N = 64;
  std::vector<cl_int> Init(N);
  for (size_t I = 0; I < N; ++I)
    Init[I] = cl_int(I);
  MemRef Src(makeBufferFrom(Init)), Dst(makeBufferFrom(std::vector<cl_int>(N)));
  MemRef Rect(makeBufferFrom(std::vector<cl_int>(N)));
  cl_command_buffer_khr B = create();
  cl_int Pattern = 7;
  cl_sync_point_khr Filled = 0, Copied = 0;
  // Dst[0..16) = 7; Dst[16..48) = Src[0..32).
  ASSERT_CL_OK(F.Fill(B, nullptr, Dst, &Pattern, sizeof(Pattern), 0,
                      16 * sizeof(cl_int), 0, nullptr, &Filled, nullptr));
  ASSERT_CL_OK(F.Copy(B, nullptr, Src, Dst, 0, 16 * sizeof(cl_int),
                      32 * sizeof(cl_int), 1, &Filled, &Copied, nullptr));
  EXPECT_NE(Filled, Copied);
  // An 8x3 (int) block of Src as a 16-wide grid, rows 1..3 from column 4,
  // to Rect's 8-wide rows 0..2.
  size_t SrcOrigin[3] = {4 * sizeof(cl_int), 1, 0};
  size_t DstOrigin[3] = {0, 0, 0};
  size_t Region[3] = {8 * sizeof(cl_int), 3, 1};
  ASSERT_CL_OK(F.CopyRect(B, nullptr, Src, Rect, SrcOrigin, DstOrigin, Region,
                          16 * sizeof(cl_int), 0, 8 * sizeof(cl_int), 0, 0,
                          nullptr, nullptr, nullptr));
  ASSERT_CL_OK(F.Finalize(B));
  ASSERT_CL_OK(F.Enqueue(0, nullptr, B, 0, nullptr, nullptr));
  ASSERT_CL_OK(clFinish(Queue));
  std::vector<cl_int> Out = read(Dst, N);
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(Out[I], I < 16 ? 7 : I < 48 ? cl_int(I - 16) : 0) << I;
  std::vector<cl_int> RectOut = read(Rect, N);
  for (size_t Row = 0; Row < 3; ++Row)
    for (size_t Col = 0; Col < 8; ++Col)
      ASSERT_EQ(RectOut[Row * 8 + Col], cl_int((Row + 1) * 16 + 4 + Col));
}

// The image commands, replayed twice: a buffer written into one image, a
// fill of part of another, an image-to-image copy, read back to a buffer.
TEST_P(CommandBuffers, ImageCommandsCheckedOnTheHost) {
  if (!deviceInfo<cl_bool>(Device, CL_DEVICE_IMAGE_SUPPORT))
    GTEST_SKIP() << "no images";
  constexpr size_t W = 8, H = 4;
  cl_image_format Format{CL_R, CL_UNSIGNED_INT32};
  cl_image_desc Desc{};
  Desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  Desc.image_width = W;
  Desc.image_height = H;
  cl_int Err = CL_SUCCESS;
  MemRef A(clCreateImage(Context, CL_MEM_READ_WRITE, &Format, &Desc, nullptr,
                         &Err));
  ASSERT_CL_OK(Err);
  MemRef Bimg(clCreateImage(Context, CL_MEM_READ_WRITE, &Format, &Desc,
                            nullptr, &Err));
  ASSERT_CL_OK(Err);
  std::vector<cl_int> Init(W * H);
  for (size_t I = 0; I < W * H; ++I)
    Init[I] = cl_int(100 + I);
  MemRef In(makeBufferFrom(Init)), Out(makeBufferFrom(std::vector<cl_int>(W * H)));
  cl_command_buffer_khr B = create();
  size_t Zero[3] = {0, 0, 0}, Whole[3] = {W, H, 1};
  size_t FillOrigin[3] = {2, 1, 0}, FillRegion[3] = {3, 2, 1};
  cl_uint Color[4] = {7, 0, 0, 0};
  cl_sync_point_khr Loaded, Filled, Copied;
  ASSERT_CL_OK(F.BufferToImage(B, nullptr, In, A, 0, Zero, Whole, 0, nullptr,
                               &Loaded, nullptr));
  ASSERT_CL_OK(F.FillImage(B, nullptr, A, Color, FillOrigin, FillRegion, 1,
                           &Loaded, &Filled, nullptr));
  ASSERT_CL_OK(F.CopyImage(B, nullptr, A, Bimg, Zero, Zero, Whole, 1, &Filled,
                           &Copied, nullptr));
  ASSERT_CL_OK(F.ImageToBuffer(B, nullptr, Bimg, Out, Zero, Whole, 0, 1,
                               &Copied, nullptr, nullptr));
  ASSERT_CL_OK(F.Finalize(B));
  for (int Run = 0; Run < 2; ++Run) {
    ASSERT_CL_OK(F.Enqueue(0, nullptr, B, 0, nullptr, nullptr));
    ASSERT_CL_OK(clFinish(Queue));
    std::vector<cl_int> Got = read(Out, W * H);
    for (size_t Y = 0; Y < H; ++Y)
      for (size_t X = 0; X < W; ++X) {
        bool InFill = X >= 2 && X < 5 && Y >= 1 && Y < 3;
        ASSERT_EQ(Got[Y * W + X], InFill ? 7 : Init[Y * W + X])
            << "run " << Run << " x " << X << " y " << Y;
      }
  }
}

// printf in a recorded kernel (the device claims the capability): every
// work-item's line of every replay reaches stdout, more than the 1 MiB
// printf buffer the device had held (the CTS's basic_printf lost output).
TEST_P(CommandBuffers, ReplayedPrintfPrintsEveryLine) {
  cl_device_command_buffer_capabilities_khr Caps =
      deviceInfo<cl_device_command_buffer_capabilities_khr>(
          Device, CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR);
  if (!(Caps & CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR)) {
    EXPECT_FALSE(testingWeft()) << "Weft records printf";
    GTEST_SKIP() << "no printf in command buffers";
  }
  KernelRef K(makeKernel(
      "kernel void say(int Base) { printf(\"%d\\n\", Base + "
      "(int)get_global_id(0)); }",
      "say"));
  ASSERT_NE(K.get(), nullptr);
  cl_int Base = 1000;
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(Base), &Base));
  const size_t N = 60000;
  cl_command_buffer_khr B = create();
  ASSERT_CL_OK(F.NDRange(B, nullptr, nullptr, K, 1, nullptr, &N, nullptr, 0,
                         nullptr, nullptr, nullptr));
  ASSERT_CL_OK(F.Finalize(B));
  for (int Run = 0; Run < 2; ++Run) {
    testing::internal::CaptureStdout();
    cl_int Err = F.Enqueue(0, nullptr, B, 0, nullptr, nullptr);
    cl_int Done = clFinish(Queue);
    std::string Text = testing::internal::GetCapturedStdout();
    ASSERT_CL_OK(Err);
    ASSERT_CL_OK(Done);
    std::vector<char> Seen(N, 0);
    std::istringstream Lines(Text);
    long Value;
    size_t Count = 0;
    while (Lines >> Value) {
      ASSERT_GE(Value, Base);
      ASSERT_LT(Value, Base + long(N));
      Seen[Value - Base] = 1;
      ++Count;
    }
    EXPECT_EQ(Count, N) << "run " << Run;
    EXPECT_EQ(std::count(Seen.begin(), Seen.end(), 1), long(N));
  }
}

// On an out-of-order queue only sync points and barriers order the
// commands: fill, then kernel, then copy, each waiting for the one before.
TEST_P(CommandBuffers, SyncPointsOrderCommandsOnAnOutOfOrderQueue) {
  constexpr size_t N = 1024;
  cl_int Err = CL_SUCCESS;
  cl_queue_properties Props[] = {CL_QUEUE_PROPERTIES,
                                 CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  QueueRef OOO(clCreateCommandQueueWithProperties(Context, Device, Props, &Err));
  ASSERT_CL_OK(Err);
  KernelRef K(makeKernel(kernelSource("increment.cl"), "increment"));
  MemRef Buf(makeBuffer(CL_MEM_READ_WRITE, N * sizeof(cl_int)));
  MemRef Result(makeBuffer(CL_MEM_READ_WRITE, N * sizeof(cl_int)));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
  cl_command_buffer_khr B = create(OOO);
  cl_int Five = 5;
  size_t Global = N;
  cl_sync_point_khr S1, S2, S3;
  ASSERT_CL_OK(F.Fill(B, nullptr, Buf, &Five, sizeof(Five), 0,
                      N * sizeof(cl_int), 0, nullptr, &S1, nullptr));
  ASSERT_CL_OK(F.NDRange(B, nullptr, nullptr, K, 1, nullptr, &Global, nullptr,
                         1, &S1, &S2, nullptr));
  ASSERT_CL_OK(F.NDRange(B, nullptr, nullptr, K, 1, nullptr, &Global, nullptr,
                         1, &S2, &S3, nullptr));
  // The barrier waits for everything; the copy waits for the barrier.
  ASSERT_CL_OK(F.Barrier(B, nullptr, 0, nullptr, nullptr, nullptr));
  ASSERT_CL_OK(F.Copy(B, nullptr, Buf, Result, 0, 0, N * sizeof(cl_int), 0,
                      nullptr, nullptr, nullptr));
  ASSERT_CL_OK(F.Finalize(B));
  for (int Run = 0; Run < 5; ++Run) {
    EventRef E;
    ASSERT_CL_OK(F.Enqueue(0, nullptr, B, 0, nullptr, E.out()));
    cl_event List[] = {E.get()};
    ASSERT_CL_OK(clWaitForEvents(1, List));
    std::vector<cl_int> Out(N);
    ASSERT_CL_OK(clEnqueueReadBuffer(OOO, Result, CL_TRUE, 0,
                                     N * sizeof(cl_int), Out.data(), 0,
                                     nullptr, nullptr));
    ASSERT_EQ(Out, std::vector<cl_int>(N, 7)) << "run " << Run;
  }
}

TEST_P(CommandBuffers, EventsWaitForAndAreWaitedFor) {
  constexpr size_t N = 64;
  KernelRef K(makeKernel(kernelSource("increment.cl"), "increment"));
  MemRef Buf(makeBufferFrom(std::vector<cl_int>(N, 0)));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
  cl_command_buffer_khr B = create();
  size_t Global = N;
  ASSERT_CL_OK(F.NDRange(B, nullptr, nullptr, K, 1, nullptr, &Global, nullptr,
                         0, nullptr, nullptr, nullptr));
  ASSERT_CL_OK(F.Finalize(B));
  EXPECT_EQ(state(B), cl_command_buffer_state_khr(
                          CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR));
  cl_int Err;
  EventRef User(clCreateUserEvent(Context, &Err));
  ASSERT_CL_OK(Err);
  cl_event Wait[] = {User.get()};
  EventRef Done;
  ASSERT_CL_OK(F.Enqueue(0, nullptr, B, 1, Wait, Done.out()));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  cl_int Status = 0;
  ASSERT_CL_OK(clGetEventInfo(Done, CL_EVENT_COMMAND_EXECUTION_STATUS,
                              sizeof(Status), &Status, nullptr));
  EXPECT_GT(Status, CL_COMPLETE);
  EXPECT_EQ(state(B),
            cl_command_buffer_state_khr(CL_COMMAND_BUFFER_STATE_PENDING_KHR));
  // Pending, without CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR.
  EXPECT_CL(CL_INVALID_OPERATION, F.Enqueue(0, nullptr, B, 0, nullptr, nullptr));
  cl_command_type Type = 0;
  ASSERT_CL_OK(clGetEventInfo(Done, CL_EVENT_COMMAND_TYPE, sizeof(Type), &Type,
                              nullptr));
  EXPECT_EQ(Type, cl_command_type(CL_COMMAND_COMMAND_BUFFER_KHR));
  ASSERT_CL_OK(clSetUserEventStatus(User, CL_COMPLETE));
  cl_event DoneList[] = {Done.get()};
  ASSERT_CL_OK(clWaitForEvents(1, DoneList));
  EXPECT_EQ(state(B), cl_command_buffer_state_khr(
                          CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR));
  EXPECT_EQ(read(Buf, N), std::vector<cl_int>(N, 1));

  // With the flag, several submissions may be pending at once; a regular
  // command waits for them through its wait list.
  cl_command_buffer_properties_khr Props[] = {
      CL_COMMAND_BUFFER_FLAGS_KHR, CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR, 0};
  cl_command_buffer_khr S = create(nullptr, Props);
  ASSERT_CL_OK(F.NDRange(S, nullptr, nullptr, K, 1, nullptr, &Global, nullptr,
                         0, nullptr, nullptr, nullptr));
  ASSERT_CL_OK(F.Finalize(S));
  EventRef User2(clCreateUserEvent(Context, &Err));
  cl_event Wait2[] = {User2.get()};
  EventRef First, Second;
  ASSERT_CL_OK(F.Enqueue(0, nullptr, S, 1, Wait2, First.out()));
  ASSERT_CL_OK(F.Enqueue(0, nullptr, S, 0, nullptr, Second.out()));
  ASSERT_CL_OK(clSetUserEventStatus(User2, CL_COMPLETE));
  cl_event Both[] = {First.get(), Second.get()};
  ASSERT_CL_OK(clWaitForEvents(2, Both));
  EXPECT_EQ(read(Buf, N), std::vector<cl_int>(N, 3));
}

TEST_P(CommandBuffers, Queries) {
  cl_command_buffer_properties_khr Props[] = {
      CL_COMMAND_BUFFER_FLAGS_KHR, CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR, 0};
  cl_command_buffer_khr B = create(nullptr, Props);
  cl_uint NumQueues = 0;
  ASSERT_CL_OK(F.GetInfo(B, CL_COMMAND_BUFFER_NUM_QUEUES_KHR,
                         sizeof(NumQueues), &NumQueues, nullptr));
  EXPECT_EQ(NumQueues, 1u);
  cl_command_queue Q = nullptr;
  ASSERT_CL_OK(F.GetInfo(B, CL_COMMAND_BUFFER_QUEUES_KHR, sizeof(Q), &Q,
                         nullptr));
  EXPECT_EQ(Q, Queue.get());
  cl_uint Count = 0;
  ASSERT_CL_OK(F.Retain(B));
  ASSERT_CL_OK(F.GetInfo(B, CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR,
                         sizeof(Count), &Count, nullptr));
  EXPECT_EQ(Count, 2u);
  ASSERT_CL_OK(F.Release(B));
  size_t Size = 0;
  ASSERT_CL_OK(F.GetInfo(B, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, 0,
                         nullptr, &Size));
  ASSERT_EQ(Size, sizeof(Props));
  cl_command_buffer_properties_khr Back[3] = {};
  ASSERT_CL_OK(F.GetInfo(B, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR,
                         sizeof(Back), Back, nullptr));
  EXPECT_EQ(Back[1], Props[1]);
  EXPECT_EQ(state(B), cl_command_buffer_state_khr(
                          CL_COMMAND_BUFFER_STATE_RECORDING_KHR));
  EXPECT_CL(CL_INVALID_VALUE,
            F.GetInfo(B, CL_COMMAND_BUFFER_STATE_KHR, 1, &Count, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, F.GetInfo(B, 0x7fff, sizeof(Count), &Count,
                                        nullptr));
  cl_command_buffer_khr None = create(nullptr, nullptr);
  ASSERT_CL_OK(F.GetInfo(None, CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR, 0,
                         nullptr, &Size));
  EXPECT_EQ(Size, 0u);
}

TEST_P(CommandBuffers, Errors) {
  cl_int Err = CL_SUCCESS;
  cl_command_queue Queues[] = {Queue.get()};
  EXPECT_EQ(F.Create(0, Queues, nullptr, &Err), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  EXPECT_EQ(F.Create(1, nullptr, nullptr, &Err), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  cl_command_queue Bad[] = {reinterpret_cast<cl_command_queue>(Context.get())};
  EXPECT_EQ(F.Create(1, Bad, nullptr, &Err), nullptr);
  EXPECT_CL(CL_INVALID_COMMAND_QUEUE, Err);
  cl_command_buffer_properties_khr Unknown[] = {0x4321, 0, 0};
  EXPECT_EQ(F.Create(1, Queues, Unknown, &Err), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  // cl_khr_command_buffer_mutable_dispatch's CL_COMMAND_BUFFER_MUTABLE_KHR.
  cl_command_buffer_properties_khr Mutable[] = {CL_COMMAND_BUFFER_FLAGS_KHR,
                                                1 << 1, 0};
  EXPECT_EQ(F.Create(1, Queues, Mutable, &Err), nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);

  cl_command_buffer_khr NotBuffer =
      reinterpret_cast<cl_command_buffer_khr>(Queue.get());
  EXPECT_CL(CL_INVALID_COMMAND_BUFFER_KHR, F.Retain(NotBuffer));
  EXPECT_CL(CL_INVALID_COMMAND_BUFFER_KHR, F.Release(nullptr));
  EXPECT_CL(CL_INVALID_COMMAND_BUFFER_KHR, F.Finalize(nullptr));
  EXPECT_CL(CL_INVALID_COMMAND_BUFFER_KHR,
            F.Enqueue(0, nullptr, nullptr, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_COMMAND_BUFFER_KHR,
            F.GetInfo(nullptr, CL_COMMAND_BUFFER_STATE_KHR, 0, nullptr,
                      nullptr));
  EXPECT_CL(CL_INVALID_COMMAND_BUFFER_KHR,
            F.Barrier(nullptr, nullptr, 0, nullptr, nullptr, nullptr));

  constexpr size_t N = 64;
  MemRef Buf(makeBuffer(CL_MEM_READ_WRITE, N * sizeof(cl_int)));
  KernelRef K(makeKernel(kernelSource("increment.cl"), "increment"));
  cl_command_buffer_khr B = create();
  cl_int Pattern = 0;
  size_t Global = N;
  // Recording commands: command_queue must be NULL, mutable_handle too.
  EXPECT_CL(CL_INVALID_COMMAND_QUEUE,
            F.Barrier(B, Queue, 0, nullptr, nullptr, nullptr));
  cl_mutable_command_khr Handle = nullptr;
  EXPECT_CL(CL_INVALID_VALUE,
            F.Barrier(B, nullptr, 0, nullptr, nullptr, &Handle));
  // Sync point wait lists.
  cl_sync_point_khr Never = 42;
  EXPECT_CL(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
            F.Barrier(B, nullptr, 1, nullptr, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
            F.Barrier(B, nullptr, 0, &Never, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
            F.Fill(B, nullptr, Buf, &Pattern, sizeof(Pattern), 0,
                   N * sizeof(cl_int), 1, &Never, nullptr, nullptr));
  // The enqueue counterparts' errors.
  EXPECT_CL(CL_INVALID_MEM_OBJECT,
            F.Fill(B, nullptr, nullptr, &Pattern, sizeof(Pattern), 0,
                   N * sizeof(cl_int), 0, nullptr, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            F.Fill(B, nullptr, Buf, &Pattern, 3, 0, N * sizeof(cl_int), 0,
                   nullptr, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, F.Copy(B, nullptr, Buf, Buf, 0, 0,
                                     2 * N * sizeof(cl_int), 0, nullptr,
                                     nullptr, nullptr));
  EXPECT_CL(CL_MEM_COPY_OVERLAP,
            F.Copy(B, nullptr, Buf, Buf, 0, 4, 16, 0, nullptr, nullptr,
                   nullptr));
  size_t Origin[3] = {0, 0, 0}, Region[3] = {4, 0, 1};
  EXPECT_CL(CL_INVALID_VALUE,
            F.CopyRect(B, nullptr, Buf, Buf, Origin, Origin, Region, 0, 0, 0,
                       0, 0, nullptr, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_KERNEL,
            F.NDRange(B, nullptr, nullptr, nullptr, 1, nullptr, &Global,
                      nullptr, 0, nullptr, nullptr, nullptr));
  // K's argument is not set yet.
  EXPECT_CL(CL_INVALID_KERNEL_ARGS,
            F.NDRange(B, nullptr, nullptr, K, 1, nullptr, &Global, nullptr, 0,
                      nullptr, nullptr, nullptr));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
  EXPECT_CL(CL_INVALID_WORK_DIMENSION,
            F.NDRange(B, nullptr, nullptr, K, 0, nullptr, &Global, nullptr, 0,
                      nullptr, nullptr, nullptr));
  cl_ndrange_kernel_command_properties_khr KernelProps[] = {0x12B1, 1, 0};
  EXPECT_CL(CL_INVALID_VALUE,
            F.NDRange(B, nullptr, KernelProps, K, 1, nullptr, &Global, nullptr,
                      0, nullptr, nullptr, nullptr));
  // A kernel of another context.
  ContextRef Other(clCreateContext(nullptr, 1, &Device, nullptr, nullptr,
                                   &Err));
  ASSERT_CL_OK(Err);
  ProgramRef OtherProgram(buildProgram(Other, Device,
                                       kernelSource("increment.cl"), ""));
  KernelRef OtherKernel(clCreateKernel(OtherProgram, "increment", &Err));
  ASSERT_CL_OK(Err);
  EXPECT_CL(CL_INVALID_CONTEXT,
            F.NDRange(B, nullptr, nullptr, OtherKernel, 1, nullptr, &Global,
                      nullptr, 0, nullptr, nullptr, nullptr));

  // Not finalized yet.
  EXPECT_CL(CL_INVALID_OPERATION,
            F.Enqueue(0, nullptr, B, 0, nullptr, nullptr));
  ASSERT_CL_OK(F.Finalize(B));
  EXPECT_CL(CL_INVALID_OPERATION, F.Finalize(B));
  // Finalized: no more recording.
  EXPECT_CL(CL_INVALID_OPERATION,
            F.Barrier(B, nullptr, 0, nullptr, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_OPERATION,
            F.NDRange(B, nullptr, nullptr, K, 1, nullptr, &Global, nullptr, 0,
                      nullptr, nullptr, nullptr));
  // clEnqueueCommandBufferKHR's queues and wait list.
  EXPECT_CL(CL_INVALID_VALUE, F.Enqueue(1, nullptr, B, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, F.Enqueue(0, Queues, B, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_COMMAND_QUEUE, F.Enqueue(1, Bad, B, 0, nullptr, nullptr));
  QueueRef OtherQueue(
      clCreateCommandQueueWithProperties(Other, Device, nullptr, &Err));
  cl_command_queue OtherQueues[] = {OtherQueue.get()};
  EXPECT_CL(CL_INVALID_CONTEXT,
            F.Enqueue(1, OtherQueues, B, 0, nullptr, nullptr));
  cl_queue_properties Profiling[] = {CL_QUEUE_PROPERTIES,
                                     CL_QUEUE_PROFILING_ENABLE, 0};
  QueueRef Incompatible(
      clCreateCommandQueueWithProperties(Context, Device, Profiling, &Err));
  cl_command_queue IncompatibleQueues[] = {Incompatible.get()};
  EXPECT_CL(CL_INCOMPATIBLE_COMMAND_QUEUE_KHR,
            F.Enqueue(1, IncompatibleQueues, B, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_EVENT_WAIT_LIST,
            F.Enqueue(0, nullptr, B, 1, nullptr, nullptr));
  // A compatible queue of the same device and properties may stand in.
  QueueRef Substitute(
      clCreateCommandQueueWithProperties(Context, Device, nullptr, &Err));
  cl_command_queue SubstituteQueues[] = {Substitute.get()};
  EXPECT_CL_OK(F.Enqueue(1, SubstituteQueues, B, 0, nullptr, nullptr));
  EXPECT_CL_OK(clFinish(Substitute));
}

TEST_P(CommandBuffers, RecordAndReplayFromSeveralThreads) {
  constexpr size_t N = 64;
  constexpr int Threads = 4;
  KernelRef K(makeKernel(kernelSource("increment.cl"), "increment"));
  MemRef Buf(makeBufferFrom(std::vector<cl_int>(N, 0)));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
  cl_command_buffer_properties_khr Props[] = {
      CL_COMMAND_BUFFER_FLAGS_KHR, CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR, 0};
  cl_command_buffer_khr B = create(nullptr, Props);
  size_t Global = N;
  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back([&] {
      for (int I = 0; I < 10; ++I)
        EXPECT_CL_OK(F.NDRange(B, nullptr, nullptr, K, 1, nullptr, &Global,
                               nullptr, 0, nullptr, nullptr, nullptr));
    });
  for (std::thread &T : Pool)
    T.join();
  ASSERT_CL_OK(F.Finalize(B));
  Pool.clear();
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back([&] {
      for (int I = 0; I < 5; ++I)
        EXPECT_CL_OK(F.Enqueue(0, nullptr, B, 0, nullptr, nullptr));
    });
  for (std::thread &T : Pool)
    T.join();
  ASSERT_CL_OK(clFinish(Queue));
  EXPECT_EQ(read(Buf, N), std::vector<cl_int>(N, Threads * 10 * Threads * 5));
}

WEFT_INSTANTIATE_DEVICE_TEST(CommandBuffers);

} // namespace
