//===- tests/api/RectTest.cpp - rect transfers, migration, native kernels -===//
//
// clEnqueue{Read,Write,Copy}BufferRect against a host reference of the same
// strided copy, their error codes; clEnqueueMigrateMemObjects;
// clEnqueueNativeKernel with memory objects; clCloneKernel.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <numeric>

using namespace weft_test;

namespace {

/// The reference: copies Region (bytes, rows, slices) between two byte
/// arrays with their own origins and pitches.
void referenceRect(const unsigned char *Src, const size_t SrcOrigin[3],
                   size_t SrcRow, size_t SrcSlice, unsigned char *Dst,
                   const size_t DstOrigin[3], size_t DstRow, size_t DstSlice,
                   const size_t Region[3]) {
  for (size_t Z = 0; Z < Region[2]; ++Z)
    for (size_t Y = 0; Y < Region[1]; ++Y)
      for (size_t X = 0; X < Region[0]; ++X)
        Dst[(DstOrigin[2] + Z) * DstSlice + (DstOrigin[1] + Y) * DstRow +
            DstOrigin[0] + X] =
            Src[(SrcOrigin[2] + Z) * SrcSlice + (SrcOrigin[1] + Y) * SrcRow +
                SrcOrigin[0] + X];
}

class RectTransfers : public DeviceTest {
protected:
  static constexpr size_t Size = 4096;
  std::vector<unsigned char> pattern(unsigned Seed) {
    std::vector<unsigned char> V(Size);
    for (size_t I = 0; I < Size; ++I)
      V[I] = static_cast<unsigned char>(I * 7 + Seed * 13 + (I >> 8));
    return V;
  }
  std::vector<unsigned char> readAll(cl_mem Buf) {
    std::vector<unsigned char> V(Size);
    EXPECT_CL_OK(clEnqueueReadBuffer(Queue, Buf, CL_TRUE, 0, Size, V.data(), 0,
                                     nullptr, nullptr));
    return V;
  }
};

TEST_P(RectTransfers, WriteRectMatchesReference) {
  std::vector<unsigned char> Initial = pattern(1), Host = pattern(2);
  MemRef Buf(makeBuffer(CL_MEM_COPY_HOST_PTR, Size, Initial.data()));
  const size_t BufOrigin[3] = {3, 2, 1}, HostOrigin[3] = {5, 1, 2};
  const size_t Region[3] = {9, 4, 3};
  const size_t BufRow = 20, BufSlice = 200, HostRow = 32, HostSlice = 160;
  ASSERT_CL_OK(clEnqueueWriteBufferRect(Queue, Buf, CL_TRUE, BufOrigin,
                                        HostOrigin, Region, BufRow, BufSlice,
                                        HostRow, HostSlice, Host.data(), 0,
                                        nullptr, nullptr));
  std::vector<unsigned char> Expected = Initial;
  referenceRect(Host.data(), HostOrigin, HostRow, HostSlice, Expected.data(),
                BufOrigin, BufRow, BufSlice, Region);
  EXPECT_EQ(readAll(Buf), Expected);
}

TEST_P(RectTransfers, ReadRectMatchesReference) {
  std::vector<unsigned char> Initial = pattern(3), Host = pattern(4);
  MemRef Buf(makeBuffer(CL_MEM_COPY_HOST_PTR, Size, Initial.data()));
  const size_t BufOrigin[3] = {1, 3, 2}, HostOrigin[3] = {0, 0, 1};
  const size_t Region[3] = {16, 5, 2};
  // Zero pitches take the defaults: region[0], then region[1] * row pitch.
  const size_t BufRow = 24, BufSlice = 0, HostRow = 0, HostSlice = 0;
  std::vector<unsigned char> Expected = Host;
  referenceRect(Initial.data(), BufOrigin, BufRow, BufRow * Region[1],
                Expected.data(), HostOrigin, Region[0], Region[0] * Region[1],
                Region);
  EventRef E;
  ASSERT_CL_OK(clEnqueueReadBufferRect(Queue, Buf, CL_FALSE, BufOrigin,
                                       HostOrigin, Region, BufRow, BufSlice,
                                       HostRow, HostSlice, Host.data(), 0,
                                       nullptr, E.out()));
  cl_event List[] = {E.get()};
  ASSERT_CL_OK(clWaitForEvents(1, List));
  cl_command_type Type = 0;
  ASSERT_CL_OK(clGetEventInfo(E, CL_EVENT_COMMAND_TYPE, sizeof(Type), &Type,
                              nullptr));
  EXPECT_EQ(Type, cl_command_type(CL_COMMAND_READ_BUFFER_RECT));
  EXPECT_EQ(Host, Expected);
}

TEST_P(RectTransfers, CopyRectMatchesReference) {
  std::vector<unsigned char> S = pattern(5), D = pattern(6);
  MemRef Src(makeBuffer(CL_MEM_COPY_HOST_PTR, Size, S.data()));
  MemRef Dst(makeBuffer(CL_MEM_COPY_HOST_PTR, Size, D.data()));
  const size_t SrcOrigin[3] = {2, 1, 0}, DstOrigin[3] = {7, 0, 3};
  const size_t Region[3] = {5, 6, 4};
  const size_t SrcRow = 10, SrcSlice = 80, DstRow = 16, DstSlice = 128;
  ASSERT_CL_OK(clEnqueueCopyBufferRect(Queue, Src, Dst, SrcOrigin, DstOrigin,
                                       Region, SrcRow, SrcSlice, DstRow,
                                       DstSlice, 0, nullptr, nullptr));
  referenceRect(S.data(), SrcOrigin, SrcRow, SrcSlice, D.data(), DstOrigin,
                DstRow, DstSlice, Region);
  EXPECT_EQ(readAll(Dst), D);
  EXPECT_EQ(readAll(Src), S);

  // Within one buffer, disjoint boxes copy; overlapping ones are refused.
  const size_t Low[3] = {0, 0, 0}, High[3] = {0, 0, 10};
  const size_t Box[3] = {8, 8, 4};
  ASSERT_CL_OK(clEnqueueCopyBufferRect(Queue, Src, Src, Low, High, Box, 8, 64,
                                       8, 64, 0, nullptr, nullptr));
  referenceRect(S.data(), Low, 8, 64, S.data(), High, 8, 64, Box);
  EXPECT_EQ(readAll(Src), S);
  const size_t Near[3] = {0, 0, 2};
  EXPECT_CL(CL_MEM_COPY_OVERLAP,
            clEnqueueCopyBufferRect(Queue, Src, Src, Low, Near, Box, 8, 64, 8,
                                    64, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueCopyBufferRect(Queue, Src, Src, Low, High, Box, 8, 64, 16,
                                    128, 0, nullptr, nullptr));
}

TEST_P(RectTransfers, RectErrors) {
  MemRef Buf(makeBuffer(CL_MEM_READ_WRITE, Size));
  std::vector<unsigned char> Host(Size);
  const size_t Zero[3] = {0, 0, 0}, Region[3] = {16, 16, 1};
  const size_t Empty[3] = {16, 0, 1}, Huge[3] = {64, 64, 2};
  auto Write = [&](const size_t *BO, const size_t *R, size_t BRow,
                   size_t BSlice, const void *Ptr) {
    return clEnqueueWriteBufferRect(Queue, Buf, CL_TRUE, BO, Zero, R, BRow,
                                    BSlice, 0, 0, Ptr, 0, nullptr, nullptr);
  };
  EXPECT_CL_OK(Write(Zero, Region, 0, 0, Host.data()));
  EXPECT_CL(CL_INVALID_VALUE, Write(Zero, Empty, 0, 0, Host.data()));
  EXPECT_CL(CL_INVALID_VALUE, Write(Zero, Huge, 0, 0, Host.data()));
  EXPECT_CL(CL_INVALID_VALUE, Write(Zero, Region, 8, 0, Host.data()));
  EXPECT_CL(CL_INVALID_VALUE, Write(Zero, Region, 16, 100, Host.data()));
  EXPECT_CL(CL_INVALID_VALUE, Write(Zero, Region, 0, 0, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, Write(nullptr, Region, 0, 0, Host.data()));
  EXPECT_CL(CL_INVALID_VALUE, Write(Zero, nullptr, 0, 0, Host.data()));
  const size_t Edge[3] = {Size - 15, 0, 0};
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueReadBufferRect(Queue, Buf, CL_TRUE, Edge, Zero, Region, 0,
                                    0, 0, 0, Host.data(), 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_MEM_OBJECT,
            clEnqueueReadBufferRect(Queue, nullptr, CL_TRUE, Zero, Zero,
                                    Region, 0, 0, 0, 0, Host.data(), 0,
                                    nullptr, nullptr));
  EXPECT_CL(CL_INVALID_COMMAND_QUEUE,
            clEnqueueReadBufferRect(nullptr, Buf, CL_TRUE, Zero, Zero, Region,
                                    0, 0, 0, 0, Host.data(), 0, nullptr,
                                    nullptr));
  EXPECT_CL(CL_INVALID_EVENT_WAIT_LIST,
            clEnqueueReadBufferRect(Queue, Buf, CL_TRUE, Zero, Zero, Region, 0,
                                    0, 0, 0, Host.data(), 1, nullptr,
                                    nullptr));
  MemRef NoRead(makeBuffer(CL_MEM_HOST_WRITE_ONLY, Size));
  EXPECT_CL(CL_INVALID_OPERATION,
            clEnqueueReadBufferRect(Queue, NoRead, CL_TRUE, Zero, Zero, Region,
                                    0, 0, 0, 0, Host.data(), 0, nullptr,
                                    nullptr));
}

TEST_P(RectTransfers, MigrateKeepsContents) {
  std::vector<unsigned char> Initial = pattern(8);
  MemRef Buf(makeBuffer(CL_MEM_COPY_HOST_PTR, Size, Initial.data()));
  cl_mem List[] = {Buf.get()};
  EventRef E;
  ASSERT_CL_OK(clEnqueueMigrateMemObjects(Queue, 1, List,
                                          CL_MIGRATE_MEM_OBJECT_HOST, 0,
                                          nullptr, E.out()));
  ASSERT_CL_OK(clFinish(Queue));
  cl_command_type Type = 0;
  ASSERT_CL_OK(clGetEventInfo(E, CL_EVENT_COMMAND_TYPE, sizeof(Type), &Type,
                              nullptr));
  EXPECT_EQ(Type, cl_command_type(CL_COMMAND_MIGRATE_MEM_OBJECTS));
  EXPECT_EQ(readAll(Buf), Initial);
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueMigrateMemObjects(
                                  Queue, 0, List, 0, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueMigrateMemObjects(
                                  Queue, 1, nullptr, 0, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueMigrateMemObjects(
                                  Queue, 1, List, 0x100, 0, nullptr, nullptr));
  cl_mem Bad[] = {nullptr};
  EXPECT_CL(CL_INVALID_MEM_OBJECT, clEnqueueMigrateMemObjects(
                                       Queue, 1, Bad, 0, 0, nullptr, nullptr));
}

struct NativeArgs {
  cl_mem In;  // replaced by a pointer to the buffer's storage
  cl_mem Out; // likewise
  int Count;
  int Add;
};

void CL_CALLBACK addInNative(void *Raw) {
  auto *A = static_cast<NativeArgs *>(Raw);
  auto *In = reinterpret_cast<const int *>(A->In);
  auto *Out = reinterpret_cast<int *>(A->Out);
  for (int I = 0; I < A->Count; ++I)
    Out[I] = In[I] + A->Add;
}

TEST_P(RectTransfers, NativeKernelSeesBuffers) {
  cl_device_exec_capabilities Exec =
      deviceInfo<cl_device_exec_capabilities>(Device,
                                              CL_DEVICE_EXECUTION_CAPABILITIES);
  const int Count = 100;
  std::vector<int> In(Count);
  std::iota(In.begin(), In.end(), 1);
  MemRef InBuf(makeBuffer(CL_MEM_COPY_HOST_PTR, Count * sizeof(int), In.data()));
  MemRef OutBuf(makeBuffer(CL_MEM_READ_WRITE, Count * sizeof(int)));
  NativeArgs Args{InBuf.get(), OutBuf.get(), Count, 1000};
  cl_mem Mems[] = {InBuf.get(), OutBuf.get()};
  const void *Locs[] = {&Args.In, &Args.Out};
  if (!(Exec & CL_EXEC_NATIVE_KERNEL)) {
    EXPECT_CL(CL_INVALID_OPERATION,
              clEnqueueNativeKernel(Queue, addInNative, &Args, sizeof(Args), 2,
                                    Mems, Locs, 0, nullptr, nullptr));
    return;
  }
  EventRef E;
  ASSERT_CL_OK(clEnqueueNativeKernel(Queue, addInNative, &Args, sizeof(Args), 2,
                                     Mems, Locs, 0, nullptr, E.out()));
  // The block was copied at enqueue: changing it now has no effect.
  Args.Add = -1;
  std::vector<int> Out(Count);
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, OutBuf, CL_TRUE, 0,
                                   Count * sizeof(int), Out.data(), 0, nullptr,
                                   nullptr));
  for (int I = 0; I < Count; ++I)
    ASSERT_EQ(Out[I], In[I] + 1000);
  cl_command_type Type = 0;
  ASSERT_CL_OK(clGetEventInfo(E, CL_EVENT_COMMAND_TYPE, sizeof(Type), &Type,
                              nullptr));
  EXPECT_EQ(Type, cl_command_type(CL_COMMAND_NATIVE_KERNEL));

  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueNativeKernel(Queue, nullptr, &Args, sizeof(Args), 0,
                                  nullptr, nullptr, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueNativeKernel(Queue, addInNative, nullptr, sizeof(Args), 0,
                                  nullptr, nullptr, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueNativeKernel(Queue, addInNative, &Args, 0, 0, nullptr,
                                  nullptr, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueNativeKernel(Queue, addInNative, &Args, sizeof(Args), 2,
                                  nullptr, Locs, 0, nullptr, nullptr));
  cl_mem BadMems[] = {nullptr, OutBuf.get()};
  EXPECT_CL(CL_INVALID_MEM_OBJECT,
            clEnqueueNativeKernel(Queue, addInNative, &Args, sizeof(Args), 2,
                                  BadMems, Locs, 0, nullptr, nullptr));
}

TEST_P(RectTransfers, CloneKernelCopiesArguments) {
  KernelRef K(makeKernel(kernelSource("increment.cl"), "increment"));
  ASSERT_NE(K.get(), nullptr);
  const size_t N = 64;
  std::vector<cl_int> Zero(N, 0);
  MemRef A(makeBuffer(CL_MEM_COPY_HOST_PTR, N * sizeof(cl_int), Zero.data()));
  MemRef B(makeBuffer(CL_MEM_COPY_HOST_PTR, N * sizeof(cl_int), Zero.data()));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &A));
  cl_int Err = CL_SUCCESS;
  KernelRef Clone(clCloneKernel(K, &Err));
  ASSERT_CL_OK(Err);
  ASSERT_NE(Clone.get(), nullptr);
  EXPECT_NE(Clone.get(), K.get());
  // The original now points elsewhere; the clone keeps its copy.
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &B));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, Clone, 1, nullptr, &N, nullptr, 0,
                                      nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, Clone, 1, nullptr, &N, nullptr, 0,
                                      nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, nullptr, 0,
                                      nullptr, nullptr));
  std::vector<cl_int> VA(N), VB(N);
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, A, CL_TRUE, 0, N * sizeof(cl_int),
                                   VA.data(), 0, nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, B, CL_TRUE, 0, N * sizeof(cl_int),
                                   VB.data(), 0, nullptr, nullptr));
  for (size_t I = 0; I < N; ++I) {
    ASSERT_EQ(VA[I], 2);
    ASSERT_EQ(VB[I], 1);
  }
  char Name[64] = {};
  ASSERT_CL_OK(clGetKernelInfo(Clone, CL_KERNEL_FUNCTION_NAME, sizeof(Name),
                               Name, nullptr));
  EXPECT_STREQ(Name, "increment");
  cl_program P = nullptr;
  ASSERT_CL_OK(
      clGetKernelInfo(Clone, CL_KERNEL_PROGRAM, sizeof(P), &P, nullptr));
  EXPECT_EQ(P, Program.get());
  EXPECT_EQ(clCloneKernel(nullptr, &Err), nullptr);
  EXPECT_CL(CL_INVALID_KERNEL, Err);
}

WEFT_INSTANTIATE_DEVICE_TEST(RectTransfers);

} // namespace
