//===- tests/api/BufferTest.cpp - buffers and transfers -------------------===//

#include "TestCommon.h"

#include <cstdint>
#include <numeric>
#include <thread>

using namespace weft_test;

namespace {

class Buffers : public DeviceTest {};

std::vector<uint8_t> pattern(size_t Size, unsigned Seed) {
  std::vector<uint8_t> V(Size);
  uint32_t X = 2463534242u ^ Seed;
  for (uint8_t &B : V) {
    X ^= X << 13;
    X ^= X >> 17;
    X ^= X << 5;
    B = uint8_t(X);
  }
  return V;
}

TEST_P(Buffers, WriteReadRoundTrip) {
  for (size_t Size : {size_t(1), size_t(17), size_t(4096), size_t(1) << 20}) {
    SCOPED_TRACE(Size);
    std::vector<uint8_t> In = pattern(Size, unsigned(Size));
    std::vector<uint8_t> Out(Size, 0);
    MemRef M(makeBuffer(CL_MEM_READ_WRITE, Size));
    ASSERT_NE(M.get(), nullptr);
    ASSERT_CL_OK(clEnqueueWriteBuffer(Queue, M, CL_TRUE, 0, Size, In.data(), 0,
                                      nullptr, nullptr));
    ASSERT_CL_OK(clEnqueueReadBuffer(Queue, M, CL_TRUE, 0, Size, Out.data(), 0,
                                     nullptr, nullptr));
    EXPECT_EQ(In, Out);
  }
}

TEST_P(Buffers, CopyHostPtr) {
  std::vector<uint8_t> In = pattern(1000, 1);
  MemRef M(makeBuffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, In.size(),
                      In.data()));
  ASSERT_NE(M.get(), nullptr);
  // The buffer holds a copy: changing the host data afterwards is invisible.
  std::vector<uint8_t> Expected = In;
  std::fill(In.begin(), In.end(), 0);
  std::vector<uint8_t> Out(Expected.size());
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, M, CL_TRUE, 0, Out.size(), Out.data(),
                                   0, nullptr, nullptr));
  EXPECT_EQ(Out, Expected);

  size_t Size = 0;
  ASSERT_CL_OK(clGetMemObjectInfo(M, CL_MEM_SIZE, sizeof(Size), &Size, nullptr));
  EXPECT_EQ(Size, Expected.size());
  cl_mem_flags Flags = 0;
  ASSERT_CL_OK(
      clGetMemObjectInfo(M, CL_MEM_FLAGS, sizeof(Flags), &Flags, nullptr));
  EXPECT_EQ(Flags, cl_mem_flags(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR));
  void *HostPtr = &Size;
  ASSERT_CL_OK(clGetMemObjectInfo(M, CL_MEM_HOST_PTR, sizeof(HostPtr), &HostPtr,
                                  nullptr));
  EXPECT_EQ(HostPtr, nullptr);
  cl_context C = nullptr;
  ASSERT_CL_OK(clGetMemObjectInfo(M, CL_MEM_CONTEXT, sizeof(C), &C, nullptr));
  EXPECT_EQ(C, Context.get());
  cl_mem_object_type Type = 0;
  ASSERT_CL_OK(clGetMemObjectInfo(M, CL_MEM_TYPE, sizeof(Type), &Type, nullptr));
  EXPECT_EQ(Type, cl_mem_object_type(CL_MEM_OBJECT_BUFFER));
}

TEST_P(Buffers, UseHostPtr) {
  std::vector<int32_t> Host(256);
  std::iota(Host.begin(), Host.end(), 100);
  MemRef M(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR,
                      Host.size() * sizeof(int32_t), Host.data()));
  ASSERT_NE(M.get(), nullptr);
  void *HostPtr = nullptr;
  ASSERT_CL_OK(clGetMemObjectInfo(M, CL_MEM_HOST_PTR, sizeof(HostPtr), &HostPtr,
                                  nullptr));
  EXPECT_EQ(HostPtr, Host.data());

  // The initial contents are the host's.
  std::vector<int32_t> Out(Host.size());
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, M, CL_TRUE, 0,
                                   Out.size() * sizeof(int32_t), Out.data(), 0,
                                   nullptr, nullptr));
  EXPECT_EQ(Out, Host);

  // A kernel's writes are visible in the host memory once it is mapped.
  KernelRef K(makeKernel(
      "kernel void twice(global int *p) { size_t i = get_global_id(0);"
      " p[i] = 2 * p[i]; }",
      "twice"));
  ASSERT_NE(K.get(), nullptr);
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &M));
  size_t Global = Host.size();
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, nullptr, 0,
                                      nullptr, nullptr));
  cl_int Err = CL_SUCCESS;
  auto *Mapped = static_cast<int32_t *>(
      clEnqueueMapBuffer(Queue, M, CL_TRUE, CL_MAP_READ, 0,
                         Host.size() * sizeof(int32_t), 0, nullptr, nullptr,
                         &Err));
  ASSERT_CL_OK(Err);
  ASSERT_NE(Mapped, nullptr);
  for (size_t I = 0; I < Host.size(); ++I) {
    ASSERT_EQ(Mapped[I], 2 * int32_t(100 + I)) << "at " << I;
    ASSERT_EQ(Host[I], 2 * int32_t(100 + I)) << "host memory at " << I;
  }
  ASSERT_CL_OK(clEnqueueUnmapMemObject(Queue, M, Mapped, 0, nullptr, nullptr));
  ASSERT_CL_OK(clFinish(Queue));
}

TEST_P(Buffers, AllocHostPtrMapWriteThenRead) {
  const size_t N = 1024;
  MemRef M(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                      N * sizeof(float)));
  ASSERT_NE(M.get(), nullptr);
  void *HostPtr = &HostPtr;
  ASSERT_CL_OK(clGetMemObjectInfo(M, CL_MEM_HOST_PTR, sizeof(HostPtr), &HostPtr,
                                  nullptr));
  EXPECT_EQ(HostPtr, nullptr);

  cl_int Err = CL_SUCCESS;
  auto *W = static_cast<float *>(clEnqueueMapBuffer(
      Queue, M, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, N * sizeof(float),
      0, nullptr, nullptr, &Err));
  ASSERT_CL_OK(Err);
  ASSERT_NE(W, nullptr);
  for (size_t I = 0; I < N; ++I)
    W[I] = float(I) * 0.5f;
  ASSERT_CL_OK(clEnqueueUnmapMemObject(Queue, M, W, 0, nullptr, nullptr));
  std::vector<float> Out(N);
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, M, CL_TRUE, 0, N * sizeof(float),
                                   Out.data(), 0, nullptr, nullptr));
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(Out[I], float(I) * 0.5f) << "at " << I;
}

TEST_P(Buffers, Offsets) {
  const size_t Size = 512;
  std::vector<uint8_t> Base = pattern(Size, 7), Patch = pattern(100, 8);
  MemRef M(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Size,
                      Base.data()));
  ASSERT_NE(M.get(), nullptr);
  ASSERT_CL_OK(clEnqueueWriteBuffer(Queue, M, CL_TRUE, 37, Patch.size(),
                                    Patch.data(), 0, nullptr, nullptr));
  std::vector<uint8_t> Expected = Base;
  std::copy(Patch.begin(), Patch.end(), Expected.begin() + 37);

  std::vector<uint8_t> Whole(Size);
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, M, CL_TRUE, 0, Size, Whole.data(), 0,
                                   nullptr, nullptr));
  EXPECT_EQ(Whole, Expected);
  std::vector<uint8_t> Part(50);
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, M, CL_TRUE, 120, Part.size(),
                                   Part.data(), 0, nullptr, nullptr));
  EXPECT_TRUE(std::equal(Part.begin(), Part.end(), Expected.begin() + 120));
  // The last byte alone.
  uint8_t Last = 0;
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, M, CL_TRUE, Size - 1, 1, &Last, 0,
                                   nullptr, nullptr));
  EXPECT_EQ(Last, Expected.back());
}

TEST_P(Buffers, CopyBetweenBuffers) {
  const size_t Size = 300;
  std::vector<uint8_t> A = pattern(Size, 11), B = pattern(Size, 12);
  MemRef Src(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Size,
                        A.data()));
  MemRef Dst(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Size,
                        B.data()));
  ASSERT_NE(Src.get(), nullptr);
  ASSERT_NE(Dst.get(), nullptr);
  ASSERT_CL_OK(clEnqueueCopyBuffer(Queue, Src, Dst, 10, 200, 64, 0, nullptr,
                                   nullptr));
  // Non-overlapping regions of one buffer.
  ASSERT_CL_OK(clEnqueueCopyBuffer(Queue, Src, Src, 0, 150, 100, 0, nullptr,
                                   nullptr));
  std::vector<uint8_t> OutDst(Size), OutSrc(Size);
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, Dst, CL_TRUE, 0, Size, OutDst.data(),
                                   0, nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, Src, CL_TRUE, 0, Size, OutSrc.data(),
                                   0, nullptr, nullptr));
  std::vector<uint8_t> ExpDst = B, ExpSrc = A;
  std::copy(A.begin() + 10, A.begin() + 74, ExpDst.begin() + 200);
  std::copy(A.begin(), A.begin() + 100, ExpSrc.begin() + 150);
  EXPECT_EQ(OutDst, ExpDst);
  EXPECT_EQ(OutSrc, ExpSrc);

  EXPECT_CL(CL_MEM_COPY_OVERLAP,
            clEnqueueCopyBuffer(Queue, Src, Src, 0, 50, 100, 0, nullptr,
                                nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueCopyBuffer(Queue, Src, Dst, 250, 0, 100,
                                                  0, nullptr, nullptr));
}

TEST_P(Buffers, FillBuffer) {
  const size_t N = 64;
  MemRef M(makeBuffer(CL_MEM_READ_WRITE, N * sizeof(uint32_t)));
  ASSERT_NE(M.get(), nullptr);
  uint32_t Zero = 0, Value = 0xdeadbeef;
  ASSERT_CL_OK(clEnqueueFillBuffer(Queue, M, &Zero, sizeof(Zero), 0,
                                   N * sizeof(uint32_t), 0, nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueFillBuffer(Queue, M, &Value, sizeof(Value),
                                   8 * sizeof(uint32_t), 16 * sizeof(uint32_t),
                                   0, nullptr, nullptr));
  std::vector<uint32_t> Out(N, 1);
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, M, CL_TRUE, 0, N * sizeof(uint32_t),
                                   Out.data(), 0, nullptr, nullptr));
  for (size_t I = 0; I < N; ++I)
    EXPECT_EQ(Out[I], I >= 8 && I < 24 ? Value : 0u) << "at " << I;
  // The pattern size must be a power of two up to 128 and divide the range.
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueFillBuffer(Queue, M, &Value, 3, 0, 12, 0,
                                                  nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueFillBuffer(Queue, M, &Value, 4, 0, 10, 0,
                                                  nullptr, nullptr));
}

TEST_P(Buffers, NonBlockingWithEvents) {
  const size_t Size = 1 << 16;
  std::vector<uint8_t> In = pattern(Size, 3), Out(Size, 0);
  MemRef M(makeBuffer(CL_MEM_READ_WRITE, Size));
  ASSERT_NE(M.get(), nullptr);
  EventRef Write, Read;
  ASSERT_CL_OK(clEnqueueWriteBuffer(Queue, M, CL_FALSE, 0, Size, In.data(), 0,
                                    nullptr, Write.out()));
  cl_event WaitList[] = {Write.get()};
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, M, CL_FALSE, 0, Size, Out.data(), 1,
                                   WaitList, Read.out()));
  cl_event ReadList[] = {Read.get()};
  ASSERT_CL_OK(clWaitForEvents(1, ReadList));
  EXPECT_EQ(Out, In);

  for (cl_event E : {Write.get(), Read.get()}) {
    cl_int Status = CL_QUEUED;
    ASSERT_CL_OK(clGetEventInfo(E, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                sizeof(Status), &Status, nullptr));
    // The write precedes the read, so both are complete now.
    EXPECT_EQ(Status, CL_COMPLETE);
    cl_command_queue Q = nullptr;
    ASSERT_CL_OK(
        clGetEventInfo(E, CL_EVENT_COMMAND_QUEUE, sizeof(Q), &Q, nullptr));
    EXPECT_EQ(Q, Queue.get());
    cl_context C = nullptr;
    ASSERT_CL_OK(clGetEventInfo(E, CL_EVENT_CONTEXT, sizeof(C), &C, nullptr));
    EXPECT_EQ(C, Context.get());
  }
  cl_command_type Type = 0;
  ASSERT_CL_OK(clGetEventInfo(Write, CL_EVENT_COMMAND_TYPE, sizeof(Type), &Type,
                              nullptr));
  EXPECT_EQ(Type, cl_command_type(CL_COMMAND_WRITE_BUFFER));
  ASSERT_CL_OK(clGetEventInfo(Read, CL_EVENT_COMMAND_TYPE, sizeof(Type), &Type,
                              nullptr));
  EXPECT_EQ(Type, cl_command_type(CL_COMMAND_READ_BUFFER));
}

TEST_P(Buffers, InvalidCreation) {
  cl_int Err = CL_SUCCESS;
  char Host[16];
  EXPECT_EQ(clCreateBuffer(Context, CL_MEM_READ_WRITE, 0, nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_BUFFER_SIZE, Err);
  cl_ulong MaxAlloc = deviceInfo<cl_ulong>(Device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_EQ(clCreateBuffer(Context, CL_MEM_READ_WRITE, size_t(MaxAlloc) + 1,
                           nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_BUFFER_SIZE, Err);
  EXPECT_EQ(clCreateBuffer(Context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 16,
                           nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  EXPECT_EQ(clCreateBuffer(Context, cl_mem_flags(1) << 40, 16, nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  EXPECT_EQ(clCreateBuffer(Context, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR,
                           16, Host, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  EXPECT_EQ(clCreateBuffer(Context, CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR,
                           16, Host, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_VALUE, Err);
  // A host pointer without a flag that uses it, and the other way round.
  EXPECT_EQ(clCreateBuffer(Context, CL_MEM_READ_WRITE, 16, Host, &Err), nullptr);
  EXPECT_CL(CL_INVALID_HOST_PTR, Err);
  EXPECT_EQ(clCreateBuffer(Context, CL_MEM_USE_HOST_PTR, 16, nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_HOST_PTR, Err);
  EXPECT_EQ(clCreateBuffer(Context, CL_MEM_COPY_HOST_PTR, 16, nullptr, &Err),
            nullptr);
  EXPECT_CL(CL_INVALID_HOST_PTR, Err);
}

TEST_P(Buffers, InvalidTransfers) {
  MemRef M(makeBuffer(CL_MEM_READ_WRITE, 64));
  ASSERT_NE(M.get(), nullptr);
  char Host[128];
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueReadBuffer(Queue, M, CL_TRUE, 0, 65, Host,
                                                  0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueReadBuffer(Queue, M, CL_TRUE, 60, 8, Host,
                                                  0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueWriteBuffer(Queue, M, CL_TRUE, 64, 1,
                                                   Host, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueReadBuffer(Queue, M, CL_TRUE, 0, 4,
                                                  nullptr, 0, nullptr, nullptr));
  cl_event Event = nullptr;
  EXPECT_CL(CL_INVALID_EVENT_WAIT_LIST,
            clEnqueueReadBuffer(Queue, M, CL_TRUE, 0, 4, Host, 1, nullptr,
                                nullptr));
  EXPECT_CL(CL_INVALID_EVENT_WAIT_LIST,
            clEnqueueReadBuffer(Queue, M, CL_TRUE, 0, 4, Host, 0, &Event,
                                nullptr));
}

// Large buffers' memory is recycled after release (HostMemory): a recreated
// buffer must never share storage with one still alive, whatever the order
// of creation and release, and from several threads at once.
TEST_P(Buffers, RecreatedLargeBuffersKeepTheirOwnData) {
  constexpr size_t Size = size_t(3) << 20; // rounds up to two huge pages
  auto Cycle = [&](unsigned Seed, std::string &Failure) {
    std::vector<std::pair<cl_mem, unsigned>> Alive;
    for (unsigned Round = 0; Round < 12; ++Round) {
      // Release the oldest buffer every third round, so blocks go back to
      // the pool while others stay in use.
      if (Round % 3 == 2) {
        clReleaseMemObject(Alive.front().first);
        Alive.erase(Alive.begin());
      }
      unsigned Tag = Seed * 100 + Round;
      std::vector<uint8_t> In = pattern(Size, Tag);
      cl_int Err = CL_SUCCESS;
      cl_mem M = clCreateBuffer(Context,
                                CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Size,
                                In.data(), &Err);
      if (Err != CL_SUCCESS) {
        Failure = "clCreateBuffer: " + std::to_string(Err);
        break;
      }
      Alive.emplace_back(M, Tag);
    }
    std::vector<uint8_t> Out(Size);
    for (auto &[M, Tag] : Alive) {
      if (Failure.empty() &&
          (clEnqueueReadBuffer(Queue, M, CL_TRUE, 0, Size, Out.data(), 0,
                               nullptr, nullptr) != CL_SUCCESS ||
           Out != pattern(Size, Tag)))
        Failure = "buffer " + std::to_string(Tag) + " lost its data";
      clReleaseMemObject(M);
    }
  };
  std::string Failures[2];
  std::thread Other(Cycle, 1u, std::ref(Failures[1]));
  Cycle(0u, Failures[0]);
  Other.join();
  EXPECT_EQ(Failures[0], "");
  EXPECT_EQ(Failures[1], "");
}

TEST_P(Buffers, ReferenceCount) {
  cl_mem M = makeBuffer(CL_MEM_READ_WRITE, 8);
  ASSERT_NE(M, nullptr);
  cl_uint Count = 0;
  ASSERT_CL_OK(clGetMemObjectInfo(M, CL_MEM_REFERENCE_COUNT, sizeof(Count),
                                  &Count, nullptr));
  EXPECT_EQ(Count, 1u);
  ASSERT_CL_OK(clRetainMemObject(M));
  ASSERT_CL_OK(clGetMemObjectInfo(M, CL_MEM_REFERENCE_COUNT, sizeof(Count),
                                  &Count, nullptr));
  EXPECT_EQ(Count, 2u);
  ASSERT_CL_OK(clReleaseMemObject(M));
  ASSERT_CL_OK(clReleaseMemObject(M));
}

// Without CL_DEVICE_PIPE_SUPPORT no pipe can be created (CL_INVALID_OPERATION)
// and no memory object is a pipe (CL_INVALID_MEM_OBJECT), per the OpenCL 3.0
// API specification of clCreatePipe and clGetPipeInfo.
TEST_P(Buffers, PipesWithoutPipeSupport) {
  if (deviceInfo<cl_bool>(Device, CL_DEVICE_PIPE_SUPPORT)) {
    EXPECT_FALSE(testingWeft()) << "Weft has no pipes";
    GTEST_SKIP() << "the device supports pipes";
  }
  EXPECT_EQ(deviceInfo<cl_uint>(Device, CL_DEVICE_PIPE_MAX_PACKET_SIZE), 0u);
  cl_int Err = CL_SUCCESS;
  cl_mem Pipe = clCreatePipe(Context, CL_MEM_HOST_NO_ACCESS, 4, 4, nullptr,
                             &Err);
  EXPECT_EQ(Pipe, nullptr);
  EXPECT_CL(CL_INVALID_OPERATION, Err);
  MemRef NotAPipe(makeBuffer(CL_MEM_READ_WRITE, 4));
  cl_uint Packet = 0;
  EXPECT_CL(CL_INVALID_MEM_OBJECT,
            clGetPipeInfo(NotAPipe, CL_PIPE_PACKET_SIZE, sizeof(Packet),
                          &Packet, nullptr));
}

WEFT_INSTANTIATE_DEVICE_TEST(Buffers);

} // namespace
