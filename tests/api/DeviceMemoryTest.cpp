//===- tests/api/DeviceMemoryTest.cpp - buffers on devices with own memory
//-===//
//
// The runtime keeps a host copy of every buffer and, for each device with
// memory of its own (the accelerator simulator), a copy there, moving data
// between them as commands need it (lib/CL/MemObject.h). These tests check
// the data an application sees against host-computed references: transfers,
// copies, fills, strided copies, kernels, sub-buffers, initial contents,
// maps (the application's memory holds a USE_HOST_PTR buffer's contents
// after a map), migration, program-scope variables, and a context of every
// device of the platform with commands on two devices ordered by events.
// They pass unchanged on devices that share host memory, where the same
// calls work in place. The ctest entries api.DeviceMemory.accelsim and
// api.DeviceMemoryMixed.pthread_accelsim run them on the simulator.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <thread>

using namespace weft_test;

namespace {

const char *const Kernels = R"(
// Reads In and reads and writes Out.
kernel void scaleAdd(global int *Out, global const int *In, int Factor) {
  size_t I = get_global_id(0);
  Out[I] = Out[I] + In[I] * Factor;
}
kernel void addOne(global int *Data) { Data[get_global_id(0)] += 1; }
kernel void twice(global int *Data) { Data[get_global_id(0)] *= 2; }
// Reads through a __constant pointer only.
kernel void sumConstant(global int *Out, constant int *In, int N) {
  int S = 0;
  for (int I = 0; I < N; ++I)
    S += In[I];
  Out[get_global_id(0)] = S + (int)get_global_id(0);
}
)";

std::vector<cl_int> iota(size_t N, cl_int First) {
  std::vector<cl_int> V(N);
  std::iota(V.begin(), V.end(), First);
  return V;
}

class DeviceMemory : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    Program.reset(buildProgram(Context, Device, Kernels));
    ASSERT_NE(Program.get(), nullptr);
  }

  cl_kernel kernel(const char *Name) {
    cl_int Err = CL_SUCCESS;
    cl_kernel K = clCreateKernel(Program, Name, &Err);
    EXPECT_CL_OK(Err) << " creating " << Name;
    return K;
  }

  /// Runs the one-argument kernel Name over N work-items on Buf.
  void runOn(const char *Name, cl_mem Buf, size_t N) {
    KernelRef K(kernel(Name));
    ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0,
                                        nullptr, nullptr));
  }

  std::vector<cl_int> readAll(cl_mem Buf, size_t N) {
    std::vector<cl_int> Out(N, -12345);
    EXPECT_CL_OK(readInto(Buf, Out));
    return Out;
  }
};

TEST_P(DeviceMemory, WriteThenRead) {
  const size_t N = 1000;
  MemRef Buf(makeBuffer(CL_MEM_READ_WRITE, N * sizeof(cl_int)));
  std::vector<cl_int> Ref = iota(N, 7);
  ASSERT_CL_OK(clEnqueueWriteBuffer(Queue, Buf, CL_TRUE, 0, N * sizeof(cl_int),
                                    Ref.data(), 0, nullptr, nullptr));
  // A partial write over it, then a partial read and a whole one.
  std::vector<cl_int> Part = iota(100, -500);
  ASSERT_CL_OK(clEnqueueWriteBuffer(Queue, Buf, CL_FALSE, 300 * sizeof(cl_int),
                                    100 * sizeof(cl_int), Part.data(), 0,
                                    nullptr, nullptr));
  std::copy(Part.begin(), Part.end(), Ref.begin() + 300);
  std::vector<cl_int> Some(200, 0);
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, Buf, CL_TRUE, 250 * sizeof(cl_int),
                                   200 * sizeof(cl_int), Some.data(), 0,
                                   nullptr, nullptr));
  EXPECT_EQ(Some, std::vector<cl_int>(Ref.begin() + 250, Ref.begin() + 450));
  EXPECT_EQ(readAll(Buf, N), Ref);
}

TEST_P(DeviceMemory, CopyBetweenAndWithinBuffers) {
  const size_t N = 512;
  std::vector<cl_int> A = iota(N, 1), B = iota(N, 10000);
  MemRef BufA(makeBufferFrom(A)), BufB(makeBufferFrom(B));
  ASSERT_CL_OK(clEnqueueCopyBuffer(Queue, BufA, BufB, 16 * sizeof(cl_int),
                                   100 * sizeof(cl_int), 64 * sizeof(cl_int), 0,
                                   nullptr, nullptr));
  std::copy(A.begin() + 16, A.begin() + 80, B.begin() + 100);
  // Within one buffer, to a disjoint range.
  ASSERT_CL_OK(clEnqueueCopyBuffer(Queue, BufB, BufB, 100 * sizeof(cl_int),
                                   400 * sizeof(cl_int), 64 * sizeof(cl_int), 0,
                                   nullptr, nullptr));
  std::copy(B.begin() + 100, B.begin() + 164, B.begin() + 400);
  EXPECT_EQ(readAll(BufB, N), B);
  EXPECT_EQ(readAll(BufA, N), A);
}

TEST_P(DeviceMemory, Fill) {
  const size_t N = 256;
  std::vector<cl_int> Ref = iota(N, 3);
  MemRef Buf(makeBufferFrom(Ref));
  const cl_int Pattern[2] = {-1, 42};
  ASSERT_CL_OK(clEnqueueFillBuffer(Queue, Buf, Pattern, sizeof(Pattern),
                                   10 * sizeof(cl_int), 100 * sizeof(cl_int), 0,
                                   nullptr, nullptr));
  for (size_t I = 10; I < 110; ++I)
    Ref[I] = Pattern[(I - 10) % 2];
  EXPECT_EQ(readAll(Buf, N), Ref);
  // A fill of the whole buffer replaces everything.
  const cl_int Nine = 9;
  ASSERT_CL_OK(clEnqueueFillBuffer(Queue, Buf, &Nine, sizeof(Nine), 0,
                                   N * sizeof(cl_int), 0, nullptr, nullptr));
  EXPECT_EQ(readAll(Buf, N), std::vector<cl_int>(N, 9));
}

TEST_P(DeviceMemory, RectTransfers) {
  // A 16 x 8 x 2 box of bytes in buffers of 32-byte rows and 320-byte
  // slices, so the rows leave gaps the transfers must not touch.
  const size_t Rows = 10, Row = 32, Slices = 3, Slice = Row * Rows;
  const size_t Size = Slice * Slices;
  std::vector<unsigned char> Base(Size);
  for (size_t I = 0; I < Size; ++I)
    Base[I] = static_cast<unsigned char>(I * 7 + 1);
  MemRef Buf(makeBufferFrom(Base));
  MemRef Other(makeBufferFrom(std::vector<unsigned char>(Size, 0xee)));
  const size_t Region[3] = {16, 8, 2};
  const size_t BufOrigin[3] = {4, 1, 1}, HostOrigin[3] = {0, 0, 0};
  std::vector<unsigned char> HostBox(16 * 8 * 2);
  for (size_t I = 0; I < HostBox.size(); ++I)
    HostBox[I] = static_cast<unsigned char>(200 - I);
  ASSERT_CL_OK(clEnqueueWriteBufferRect(Queue, Buf, CL_FALSE, BufOrigin,
                                        HostOrigin, Region, Row, Slice, 0, 0,
                                        HostBox.data(), 0, nullptr, nullptr));
  std::vector<unsigned char> Ref = Base;
  auto At = [&](const size_t *O, size_t X, size_t Y, size_t Z) {
    return (O[2] + Z) * Slice + (O[1] + Y) * Row + O[0] + X;
  };
  for (size_t Z = 0; Z < 2; ++Z)
    for (size_t Y = 0; Y < 8; ++Y)
      for (size_t X = 0; X < 16; ++X)
        Ref[At(BufOrigin, X, Y, Z)] = HostBox[(Z * 8 + Y) * 16 + X];
  // The box copied to another buffer at another origin.
  const size_t DstOrigin[3] = {10, 2, 0};
  ASSERT_CL_OK(clEnqueueCopyBufferRect(Queue, Buf, Other, BufOrigin, DstOrigin,
                                       Region, Row, Slice, Row, Slice, 0,
                                       nullptr, nullptr));
  std::vector<unsigned char> OtherRef(Size, 0xee);
  for (size_t Z = 0; Z < 2; ++Z)
    for (size_t Y = 0; Y < 8; ++Y)
      for (size_t X = 0; X < 16; ++X)
        OtherRef[At(DstOrigin, X, Y, Z)] = Ref[At(BufOrigin, X, Y, Z)];
  std::vector<unsigned char> Back(Size);
  ASSERT_CL_OK(readInto(Buf, Back));
  EXPECT_EQ(Back, Ref);
  ASSERT_CL_OK(readInto(Other, Back));
  EXPECT_EQ(Back, OtherRef);
  // And read back as a box into a host buffer with pitches of its own.
  std::vector<unsigned char> Box(20 * 8 * 2, 0x11);
  ASSERT_CL_OK(clEnqueueReadBufferRect(
      Queue, Other, CL_TRUE, DstOrigin, HostOrigin, Region, Row, Slice, 20,
      20 * 8, Box.data(), 0, nullptr, nullptr));
  for (size_t Z = 0; Z < 2; ++Z)
    for (size_t Y = 0; Y < 8; ++Y)
      for (size_t X = 0; X < 20; ++X)
        ASSERT_EQ(Box[(Z * 8 + Y) * 20 + X],
                  X < 16 ? HostBox[(Z * 8 + Y) * 16 + X] : 0x11)
            << X << "," << Y << "," << Z;
}

TEST_P(DeviceMemory, KernelReadsAndWrites) {
  const size_t N = 4096;
  std::vector<cl_int> Out = iota(N, 0), In = iota(N, 100);
  MemRef OutBuf(makeBufferFrom(Out)), InBuf(makeBufferFrom(In));
  KernelRef K(kernel("scaleAdd"));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
  for (cl_int Factor : {3, -2, 5}) {
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(Factor), &Factor));
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0,
                                        nullptr, nullptr));
    for (size_t I = 0; I < N; ++I)
      Out[I] += In[I] * Factor;
  }
  EXPECT_EQ(readAll(OutBuf, N), Out);
  // The input was only read.
  EXPECT_EQ(readAll(InBuf, N), In);
  // A write from the host between two launches is seen by the second.
  std::vector<cl_int> NewIn(N, 1);
  ASSERT_CL_OK(clEnqueueWriteBuffer(Queue, InBuf, CL_FALSE, 0,
                                    N * sizeof(cl_int), NewIn.data(), 0,
                                    nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0,
                                      nullptr, nullptr));
  for (size_t I = 0; I < N; ++I)
    Out[I] += 5;
  EXPECT_EQ(readAll(OutBuf, N), Out);
}

TEST_P(DeviceMemory, ConstantArgument) {
  const size_t N = 64;
  std::vector<cl_int> In = iota(N, 1);
  MemRef InBuf(makeBufferFrom(In, CL_MEM_READ_ONLY));
  MemRef OutBuf(makeBuffer(CL_MEM_WRITE_ONLY, 8 * sizeof(cl_int)));
  KernelRef K(kernel("sumConstant"));
  cl_int Count = static_cast<cl_int>(N);
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(Count), &Count));
  const size_t Items = 8;
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Items, nullptr, 0,
                                      nullptr, nullptr));
  std::vector<cl_int> Ref(8);
  for (size_t I = 0; I < 8; ++I)
    Ref[I] = static_cast<cl_int>(N * (N + 1) / 2 + I);
  EXPECT_EQ(readAll(OutBuf, 8), Ref);
}

TEST_P(DeviceMemory, SubBuffers) {
  cl_uint AlignBits =
      deviceInfo<cl_uint>(Device, CL_DEVICE_MEM_BASE_ADDR_ALIGN);
  const size_t Align = AlignBits / 8 / sizeof(cl_int); // in ints
  const size_t N = Align * 8;
  std::vector<cl_int> Ref = iota(N, 0);
  MemRef Parent(makeBufferFrom(Ref));
  cl_buffer_region Region{2 * Align * sizeof(cl_int),
                          3 * Align * sizeof(cl_int)};
  cl_int Err = CL_SUCCESS;
  MemRef Sub(clCreateSubBuffer(Parent, CL_MEM_READ_WRITE,
                               CL_BUFFER_CREATE_TYPE_REGION, &Region, &Err));
  ASSERT_CL_OK(Err);
  // A kernel on the sub-buffer changes only its range of the parent.
  runOn("addOne", Sub, 3 * Align);
  for (size_t I = 2 * Align; I < 5 * Align; ++I)
    Ref[I] += 1;
  EXPECT_EQ(readAll(Parent, N), Ref);
  // A write through the parent shows in the sub-buffer.
  std::vector<cl_int> Part(Align, -7);
  ASSERT_CL_OK(clEnqueueWriteBuffer(
      Queue, Parent, CL_FALSE, 3 * Align * sizeof(cl_int),
      Align * sizeof(cl_int), Part.data(), 0, nullptr, nullptr));
  std::copy(Part.begin(), Part.end(), Ref.begin() + 3 * Align);
  std::vector<cl_int> SubData(3 * Align);
  ASSERT_CL_OK(readInto(Sub, SubData));
  EXPECT_EQ(SubData, std::vector<cl_int>(Ref.begin() + 2 * Align,
                                         Ref.begin() + 5 * Align));
  // And a kernel on the parent after one on the sub-buffer.
  runOn("twice", Parent, N);
  for (cl_int &V : Ref)
    V *= 2;
  EXPECT_EQ(readAll(Parent, N), Ref);
}

TEST_P(DeviceMemory, InitialContents) {
  const size_t N = 300;
  std::vector<cl_int> Copied = iota(N, 50);
  MemRef CopyBuf(makeBufferFrom(Copied));
  // The application's array changes after creation: COPY_HOST_PTR took a
  // copy.
  std::vector<cl_int> Original = Copied;
  std::fill(Copied.begin(), Copied.end(), 0);
  EXPECT_EQ(readAll(CopyBuf, N), Original);
  std::vector<cl_int> Used = iota(N, -1000);
  MemRef UseBuf(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                           N * sizeof(cl_int), Used.data()));
  EXPECT_EQ(readAll(UseBuf, N), iota(N, -1000));
  // Kernels see both.
  runOn("addOne", CopyBuf, N);
  runOn("addOne", UseBuf, N);
  EXPECT_EQ(readAll(CopyBuf, N), iota(N, 51));
  EXPECT_EQ(readAll(UseBuf, N), iota(N, -999));
}

TEST_P(DeviceMemory, MapUseHostPtrAroundKernel) {
  const size_t N = 1024, Bytes = N * sizeof(cl_int);
  std::vector<cl_int> Host(N, 0);
  MemRef Buf(
      makeBuffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, Bytes, Host.data()));
  cl_int Err = CL_SUCCESS;
  auto *W = static_cast<cl_int *>(clEnqueueMapBuffer(
      Queue, Buf, CL_TRUE, CL_MAP_WRITE, 0, Bytes, 0, nullptr, nullptr, &Err));
  ASSERT_CL_OK(Err);
  for (size_t I = 0; I < N; ++I)
    W[I] = static_cast<cl_int>(I * 3);
  ASSERT_CL_OK(clEnqueueUnmapMemObject(Queue, Buf, W, 0, nullptr, nullptr));
  runOn("addOne", Buf, N);
  // Mapping for reading brings the result into the application's memory.
  const size_t Offset = 100 * sizeof(cl_int);
  auto *R = static_cast<cl_int *>(
      clEnqueueMapBuffer(Queue, Buf, CL_TRUE, CL_MAP_READ, Offset,
                         Bytes - Offset, 0, nullptr, nullptr, &Err));
  ASSERT_CL_OK(Err);
  EXPECT_EQ(R, Host.data() + 100) << "a USE_HOST_PTR mapping is host_ptr";
  for (size_t I = 100; I < N; ++I)
    ASSERT_EQ(Host[I], static_cast<cl_int>(I * 3 + 1)) << I;
  ASSERT_CL_OK(clEnqueueUnmapMemObject(Queue, Buf, R, 0, nullptr, nullptr));
  ASSERT_CL_OK(clFinish(Queue));
}

TEST_P(DeviceMemory, MapWriteInvalidateRegion) {
  const size_t N = 512;
  std::vector<cl_int> Ref = iota(N, 1);
  MemRef Buf(makeBufferFrom(Ref));
  runOn("twice", Buf, N); // the current copy is the device's, if it has one
  for (cl_int &V : Ref)
    V *= 2;
  cl_int Err = CL_SUCCESS;
  auto *P = static_cast<cl_int *>(clEnqueueMapBuffer(
      Queue, Buf, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 64 * sizeof(cl_int),
      128 * sizeof(cl_int), 0, nullptr, nullptr, &Err));
  ASSERT_CL_OK(Err);
  for (size_t I = 0; I < 128; ++I)
    P[I] = Ref[64 + I] = -static_cast<cl_int>(I);
  ASSERT_CL_OK(clEnqueueUnmapMemObject(Queue, Buf, P, 0, nullptr, nullptr));
  EXPECT_EQ(readAll(Buf, N), Ref);
  runOn("addOne", Buf, N);
  for (cl_int &V : Ref)
    V += 1;
  EXPECT_EQ(readAll(Buf, N), Ref);
}

TEST_P(DeviceMemory, Migrate) {
  const size_t N = 256, Bytes = N * sizeof(cl_int);
  std::vector<cl_int> Host = iota(N, 10);
  MemRef Buf(
      makeBuffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, Bytes, Host.data()));
  cl_mem Mem = Buf;
  ASSERT_CL_OK(
      clEnqueueMigrateMemObjects(Queue, 1, &Mem, 0, 0, nullptr, nullptr));
  runOn("twice", Buf, N);
  ASSERT_CL_OK(clEnqueueMigrateMemObjects(
      Queue, 1, &Mem, CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr, nullptr));
  ASSERT_CL_OK(clFinish(Queue));
  // The result is in the application's memory without a read or a map
  // (the specification leaves that to the implementation; Weft's host copy
  // of a USE_HOST_PTR buffer is host_ptr).
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(Host[I], static_cast<cl_int>((10 + I) * 2)) << I;
  EXPECT_EQ(readAll(Buf, N), Host);
  // Content-undefined migration, then a write of the whole buffer.
  ASSERT_CL_OK(clEnqueueMigrateMemObjects(
      Queue, 1, &Mem, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, nullptr,
      nullptr));
  std::vector<cl_int> Fresh = iota(N, 7000);
  ASSERT_CL_OK(clEnqueueWriteBuffer(Queue, Buf, CL_TRUE, 0, Bytes, Fresh.data(),
                                    0, nullptr, nullptr));
  runOn("addOne", Buf, N);
  EXPECT_EQ(readAll(Buf, N), iota(N, 7001));
}

TEST_P(DeviceMemory, ProgramVariablesPersist) {
  if (!deviceHasFeature(Device, "__opencl_c_program_scope_global_variables"))
    GTEST_SKIP() << "no __opencl_c_program_scope_global_variables";
  ProgramRef P(buildProgram(Context, Device, R"(
global int Table[4] = {5, 6, 7, 8};
global int *global Cursor = &Table[1];
kernel void step(global int *Out) {
  Out[0] = *Cursor;
  *Cursor += 100;
  Cursor = Cursor + 1;
  Out[1] = Table[0];
}
)",
                            "-cl-std=CL3.0"));
  ASSERT_NE(P.get(), nullptr);
  cl_int Err = CL_SUCCESS;
  KernelRef K(clCreateKernel(P, "step", &Err));
  ASSERT_CL_OK(Err);
  MemRef Out(makeBuffer(CL_MEM_READ_WRITE, 2 * sizeof(cl_int)));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Out));
  const size_t One = 1;
  for (cl_int Expected : {6, 7, 8}) {
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &One, &One, 0,
                                        nullptr, nullptr));
    std::vector<cl_int> Got(2);
    ASSERT_CL_OK(readInto(Out, Got));
    EXPECT_EQ(Got, (std::vector<cl_int>{Expected, 5}));
  }
}

TEST_P(DeviceMemory, AllocationFailure) {
  if (deviceInfo<cl_bool>(Device, CL_DEVICE_HOST_UNIFIED_MEMORY))
    GTEST_SKIP() << "the device shares host memory";
  // Buffers of the largest size fill the device's memory: one of them
  // fails (the specification's error), and a release makes room again.
  cl_ulong Max = deviceInfo<cl_ulong>(Device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  cl_ulong Global = deviceInfo<cl_ulong>(Device, CL_DEVICE_GLOBAL_MEM_SIZE);
  ASSERT_GT(Max, 0u);
  std::vector<MemRef> Held;
  cl_int Err = CL_SUCCESS;
  for (cl_ulong I = 0; I <= Global / Max; ++I) {
    cl_mem M = clCreateBuffer(Context, CL_MEM_READ_WRITE, Max, nullptr, &Err);
    if (Err != CL_SUCCESS) {
      EXPECT_EQ(M, nullptr);
      break;
    }
    Held.emplace_back(M);
  }
  EXPECT_CL(CL_MEM_OBJECT_ALLOCATION_FAILURE, Err);
  EXPECT_LT(Held.size(), Global / Max + 1);
  ASSERT_FALSE(Held.empty());
  Held.pop_back();
  MemRef Again(clCreateBuffer(Context, CL_MEM_READ_WRITE, Max, nullptr, &Err));
  EXPECT_CL_OK(Err);
  // What is left still works.
  const cl_int Value = 77;
  ASSERT_CL_OK(clEnqueueFillBuffer(Queue, Again, &Value, sizeof(Value), 0,
                                   64 * sizeof(cl_int), 0, nullptr, nullptr));
  std::vector<cl_int> Got(64);
  ASSERT_CL_OK(readInto(Again.get(), Got));
  EXPECT_EQ(Got, std::vector<cl_int>(64, 77));
}

TEST_P(DeviceMemory, FailedWaitListLeavesContents) {
  // The kernel never runs, and the buffer keeps its initial contents on
  // every copy: a device with memory of its own still fetches them for the
  // failed command, which later commands count on.
  const size_t N = 128;
  std::vector<cl_int> Ref = iota(N, 40);
  MemRef Buf(makeBufferFrom(Ref));
  cl_int Err = CL_SUCCESS;
  EventRef Gate(clCreateUserEvent(Context, &Err));
  ASSERT_CL_OK(Err);
  KernelRef K(kernel("addOne"));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
  cl_event Wait = Gate;
  EventRef Failed;
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 1,
                                      &Wait, Failed.out()));
  ASSERT_CL_OK(clSetUserEventStatus(Gate, -1));
  cl_event Done = Failed;
  EXPECT_CL(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
            clWaitForEvents(1, &Done));
  EXPECT_EQ(readAll(Buf, N), Ref);
  runOn("twice", Buf, N);
  for (cl_int &V : Ref)
    V *= 2;
  EXPECT_EQ(readAll(Buf, N), Ref);
}

TEST_P(DeviceMemory, ProfiledCommandsFollowOneAnother) {
  // On a device that reports simulated time too, each command of an
  // in-order queue starts no earlier than the one before ended, and
  // COMPLETE is END.
  cl_int Err = CL_SUCCESS;
  const cl_queue_properties Props[] = {CL_QUEUE_PROPERTIES,
                                       CL_QUEUE_PROFILING_ENABLE, 0};
  QueueRef Profiled(
      clCreateCommandQueueWithProperties(Context, Device, Props, &Err));
  ASSERT_CL_OK(Err);
  const size_t N = 4096;
  std::vector<cl_int> Host = iota(N, 0);
  MemRef Buf(makeBufferFrom(Host));
  KernelRef K(kernel("addOne"));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
  std::vector<EventRef> Events(12);
  for (size_t I = 0; I < Events.size(); ++I) {
    if (I % 3 == 2)
      ASSERT_CL_OK(clEnqueueReadBuffer(Profiled, Buf, CL_FALSE, 0,
                                       N * sizeof(cl_int), Host.data(), 0,
                                       nullptr, Events[I].out()));
    else
      ASSERT_CL_OK(clEnqueueNDRangeKernel(Profiled, K, 1, nullptr, &N, nullptr,
                                          0, nullptr, Events[I].out()));
  }
  ASSERT_CL_OK(clFinish(Profiled));
  auto Time = [](cl_event E, cl_profiling_info Which) {
    cl_ulong T = 0;
    EXPECT_CL_OK(clGetEventProfilingInfo(E, Which, sizeof(T), &T, nullptr));
    return T;
  };
  cl_ulong PreviousEnd = 0;
  for (size_t I = 0; I < Events.size(); ++I) {
    cl_ulong Start = Time(Events[I], CL_PROFILING_COMMAND_START);
    cl_ulong End = Time(Events[I], CL_PROFILING_COMMAND_END);
    EXPECT_LE(Time(Events[I], CL_PROFILING_COMMAND_SUBMIT), Start) << I;
    EXPECT_GE(Start, PreviousEnd) << "command " << I;
    EXPECT_GE(End, Start) << I;
    EXPECT_EQ(Time(Events[I], CL_PROFILING_COMMAND_COMPLETE), End) << I;
    PreviousEnd = End;
  }
  EXPECT_EQ(Host[0], 8) << "eight launches before the last read";
}

TEST_P(DeviceMemory, ReadersOnTwoQueuesShareAFetch) {
  // Two commands that only read a buffer need no order between them; the
  // first enqueued fetches the buffer to a device with memory of its own,
  // and the second, on another queue of the device, must still find the
  // contents although it could start first (the first waits for a gate).
  const size_t N = 64;
  std::vector<cl_int> In = iota(N, 1);
  MemRef InBuf(makeBufferFrom(In, CL_MEM_READ_ONLY));
  MemRef Out1(makeBuffer(CL_MEM_READ_WRITE, N * sizeof(cl_int)));
  MemRef Out2(makeBuffer(CL_MEM_READ_WRITE, N * sizeof(cl_int)));
  cl_int Err = CL_SUCCESS;
  QueueRef Other(
      clCreateCommandQueueWithProperties(Context, Device, nullptr, &Err));
  ASSERT_CL_OK(Err);
  EventRef Gate(clCreateUserEvent(Context, &Err));
  ASSERT_CL_OK(Err);
  cl_int Count = static_cast<cl_int>(N);
  KernelRef K1(kernel("sumConstant")), K2(kernel("sumConstant"));
  for (cl_kernel K : {K1.get(), K2.get()}) {
    ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
    ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(Count), &Count));
  }
  ASSERT_CL_OK(clSetKernelArg(K1, 0, sizeof(cl_mem), &Out1));
  ASSERT_CL_OK(clSetKernelArg(K2, 0, sizeof(cl_mem), &Out2));
  cl_event Wait = Gate;
  EventRef First, Second;
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K1, 1, nullptr, &N, nullptr, 1,
                                      &Wait, First.out()));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Other, K2, 1, nullptr, &N, nullptr, 0,
                                      nullptr, Second.out()));
  ASSERT_CL_OK(clFlush(Other));
  // Long enough for the second to have run, had nothing held it.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_CL_OK(clSetUserEventStatus(Gate, CL_COMPLETE));
  ASSERT_CL_OK(clFinish(Queue));
  ASSERT_CL_OK(clFinish(Other));
  std::vector<cl_int> Ref(N);
  for (size_t I = 0; I < N; ++I)
    Ref[I] = static_cast<cl_int>(N * (N + 1) / 2 + I);
  EXPECT_EQ(readAll(Out1, N), Ref);
  std::vector<cl_int> Got(N);
  ASSERT_CL_OK(clEnqueueReadBuffer(Other, Out2, CL_TRUE, 0, N * sizeof(cl_int),
                                   Got.data(), 0, nullptr, nullptr));
  EXPECT_EQ(Got, Ref);
}

WEFT_INSTANTIATE_DEVICE_TEST(DeviceMemory);

/// Every device of the platform in one context, each with a queue, and the
/// kernels built for all of them.
class DeviceMemoryMixed : public testing::Test {
protected:
  void SetUp() override {
    Devices = allDevices();
    ASSERT_FALSE(Devices.empty());
    cl_int Err = CL_SUCCESS;
    Context.reset(clCreateContext(nullptr, static_cast<cl_uint>(Devices.size()),
                                  Devices.data(), nullptr, nullptr, &Err));
    ASSERT_CL_OK(Err);
    const char *Source = Kernels;
    Program.reset(
        clCreateProgramWithSource(Context, 1, &Source, nullptr, &Err));
    ASSERT_CL_OK(Err);
    ASSERT_CL_OK(clBuildProgram(Program, 0, nullptr, "", nullptr, nullptr));
    for (cl_device_id D : Devices) {
      Queues.emplace_back(
          clCreateCommandQueueWithProperties(Context, D, nullptr, &Err));
      ASSERT_CL_OK(Err);
    }
  }

  std::vector<cl_device_id> Devices;
  ContextRef Context;
  ProgramRef Program;
  std::vector<QueueRef> Queues;
};

/// One device's results feed another's commands, ordered only by events.
TEST_F(DeviceMemoryMixed, DevicesTakeTurnsOnBuffers) {
  cl_int Err = CL_SUCCESS;
  KernelRef AddOne(clCreateKernel(Program, "addOne", &Err));
  ASSERT_CL_OK(Err);
  KernelRef Twice(clCreateKernel(Program, "twice", &Err));
  ASSERT_CL_OK(Err);
  const size_t N = 2048, Bytes = N * sizeof(cl_int);
  // Every ordered pair, the same device twice included, on a buffer with
  // a copy of the application's data and on one in the application's
  // memory.
  for (cl_mem_flags HostFlag : {CL_MEM_COPY_HOST_PTR, CL_MEM_USE_HOST_PTR})
    for (size_t A = 0; A < Devices.size(); ++A)
      for (size_t B = 0; B < Devices.size(); ++B) {
        SCOPED_TRACE("first device " + std::to_string(A) + ", second " +
                     std::to_string(B) +
                     (HostFlag == CL_MEM_USE_HOST_PTR ? ", USE_HOST_PTR"
                                                      : ", COPY_HOST_PTR"));
        std::vector<cl_int> Ref = iota(N, static_cast<cl_int>(A * 1000 + B));
        std::vector<cl_int> Host = Ref;
        MemRef Buf(clCreateBuffer(Context, CL_MEM_READ_WRITE | HostFlag, Bytes,
                                  Host.data(), &Err));
        ASSERT_CL_OK(Err);
        // A writes, B reads and writes, A reads back.
        EventRef First, Second, Third;
        ASSERT_CL_OK(clSetKernelArg(AddOne, 0, sizeof(cl_mem), &Buf));
        ASSERT_CL_OK(clEnqueueNDRangeKernel(Queues[A], AddOne, 1, nullptr, &N,
                                            nullptr, 0, nullptr, First.out()));
        ASSERT_CL_OK(clSetKernelArg(Twice, 0, sizeof(cl_mem), &Buf));
        cl_event Wait = First;
        ASSERT_CL_OK(clEnqueueNDRangeKernel(Queues[B], Twice, 1, nullptr, &N,
                                            nullptr, 1, &Wait, Second.out()));
        for (cl_int &V : Ref)
          V = (V + 1) * 2;
        // B also writes part of it from the host, and A copies within it.
        std::vector<cl_int> Part(100, -3);
        Wait = Second;
        ASSERT_CL_OK(clEnqueueWriteBuffer(
            Queues[B], Buf, CL_FALSE, 10 * sizeof(cl_int), 100 * sizeof(cl_int),
            Part.data(), 1, &Wait, Third.out()));
        std::copy(Part.begin(), Part.end(), Ref.begin() + 10);
        EventRef Fourth;
        Wait = Third;
        ASSERT_CL_OK(
            clEnqueueCopyBuffer(Queues[A], Buf, Buf, 0, 1024 * sizeof(cl_int),
                                200 * sizeof(cl_int), 1, &Wait, Fourth.out()));
        std::copy(Ref.begin(), Ref.begin() + 200, Ref.begin() + 1024);
        std::vector<cl_int> Got(N, 0);
        Wait = Fourth;
        ASSERT_CL_OK(clEnqueueReadBuffer(Queues[A], Buf, CL_TRUE, 0, Bytes,
                                         Got.data(), 1, &Wait, nullptr));
        EXPECT_EQ(Got, Ref);
        // A map on B sees it too.
        auto *P = static_cast<cl_int *>(
            clEnqueueMapBuffer(Queues[B], Buf, CL_TRUE, CL_MAP_READ, 0, Bytes,
                               0, nullptr, nullptr, &Err));
        ASSERT_CL_OK(Err);
        EXPECT_EQ(std::vector<cl_int>(P, P + N), Ref);
        if (HostFlag == CL_MEM_USE_HOST_PTR)
          EXPECT_EQ(P, Host.data()) << "a USE_HOST_PTR mapping is host_ptr";
        ASSERT_CL_OK(
            clEnqueueUnmapMemObject(Queues[B], Buf, P, 0, nullptr, nullptr));
        ASSERT_CL_OK(clFinish(Queues[B]));
        if (HostFlag == CL_MEM_COPY_HOST_PTR)
          EXPECT_EQ(Host, iota(N, static_cast<cl_int>(A * 1000 + B)))
              << "COPY_HOST_PTR memory is the application's alone";
      }
}

/// Two devices of one context work at the same time on the two halves of
/// a buffer (sub-buffers, no event between them), then each works on the
/// half the other wrote: neither may count the other's half current from
/// before it was written.
TEST_F(DeviceMemoryMixed, DisjointSubBuffersAtOnce) {
  if (Devices.size() < 2)
    GTEST_SKIP() << "one device";
  cl_int Err = CL_SUCCESS;
  size_t Align = 0;
  for (cl_device_id D : Devices)
    Align = std::max<size_t>(
        Align, deviceInfo<cl_uint>(D, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8);
  const size_t Half = std::max<size_t>(Align / sizeof(cl_int), 1024);
  const size_t N = 2 * Half;
  for (size_t A = 0; A < Devices.size(); ++A)
    for (size_t B = 0; B < Devices.size(); ++B) {
      if (A == B)
        continue;
      SCOPED_TRACE("device " + std::to_string(A) + " on the first half, " +
                   std::to_string(B) + " on the second");
      std::vector<cl_int> Ref = iota(N, 3);
      MemRef Parent(clCreateBuffer(Context,
                                   CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                   N * sizeof(cl_int), Ref.data(), &Err));
      ASSERT_CL_OK(Err);
      MemRef Halves[2];
      for (size_t H = 0; H < 2; ++H) {
        cl_buffer_region Region{H * Half * sizeof(cl_int),
                                Half * sizeof(cl_int)};
        Halves[H].reset(clCreateSubBuffer(Parent, CL_MEM_READ_WRITE,
                                          CL_BUFFER_CREATE_TYPE_REGION, &Region,
                                          &Err));
        ASSERT_CL_OK(Err);
      }
      // A's command on the first half waits for a gate opened only after
      // B's command on the second half is done: B runs first, A later,
      // though A's was enqueued first.
      EventRef Gate(clCreateUserEvent(Context, &Err));
      ASSERT_CL_OK(Err);
      KernelRef AddOne(clCreateKernel(Program, "addOne", &Err));
      ASSERT_CL_OK(Err);
      KernelRef Twice(clCreateKernel(Program, "twice", &Err));
      ASSERT_CL_OK(Err);
      EventRef OnFirst, OnSecond;
      cl_event Wait = Gate;
      ASSERT_CL_OK(clSetKernelArg(AddOne, 0, sizeof(cl_mem), &Halves[0]));
      ASSERT_CL_OK(clEnqueueNDRangeKernel(Queues[A], AddOne, 1, nullptr, &Half,
                                          nullptr, 1, &Wait, OnFirst.out()));
      ASSERT_CL_OK(clSetKernelArg(Twice, 0, sizeof(cl_mem), &Halves[1]));
      ASSERT_CL_OK(clEnqueueNDRangeKernel(Queues[B], Twice, 1, nullptr, &Half,
                                          nullptr, 0, nullptr, OnSecond.out()));
      ASSERT_CL_OK(clFinish(Queues[B]));
      ASSERT_CL_OK(clSetUserEventStatus(Gate, CL_COMPLETE));
      for (size_t I = 0; I < Half; ++I) {
        Ref[I] += 1;
        Ref[Half + I] *= 2;
      }
      // Now each device takes the other's half.
      cl_event Both[] = {OnFirst.get(), OnSecond.get()};
      EventRef Crossed[2];
      KernelRef AddOne2(clCreateKernel(Program, "addOne", &Err));
      ASSERT_CL_OK(Err);
      ASSERT_CL_OK(clSetKernelArg(AddOne2, 0, sizeof(cl_mem), &Halves[0]));
      ASSERT_CL_OK(clEnqueueNDRangeKernel(Queues[B], AddOne2, 1, nullptr, &Half,
                                          nullptr, 2, Both, Crossed[0].out()));
      KernelRef Twice2(clCreateKernel(Program, "twice", &Err));
      ASSERT_CL_OK(Err);
      ASSERT_CL_OK(clSetKernelArg(Twice2, 0, sizeof(cl_mem), &Halves[1]));
      ASSERT_CL_OK(clEnqueueNDRangeKernel(Queues[A], Twice2, 1, nullptr, &Half,
                                          nullptr, 2, Both, Crossed[1].out()));
      for (size_t I = 0; I < Half; ++I) {
        Ref[I] += 1;
        Ref[Half + I] *= 2;
      }
      cl_event Last[] = {Crossed[0].get(), Crossed[1].get()};
      for (size_t Q : {A, B}) {
        std::vector<cl_int> Got(N, 0);
        ASSERT_CL_OK(clEnqueueReadBuffer(Queues[Q], Parent, CL_TRUE, 0,
                                         N * sizeof(cl_int), Got.data(), 2,
                                         Last, nullptr));
        EXPECT_EQ(Got, Ref) << "read on device " << Q;
      }
    }
}

} // namespace
