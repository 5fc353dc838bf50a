//===- tests/api/SvmTest.cpp - shared virtual memory ------------------------===//
//
// Coarse- and fine-grained buffer SVM: kernels read and write SVM through
// clSetKernelArgSVMPointer (also at an offset into the allocation), the
// SVM enqueue commands move and fill data, clEnqueueSVMFree calls back,
// and every entry point refuses bad arguments with the specified code.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <atomic>

using namespace weft_test;

namespace {

class Svm : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    Caps = deviceInfo<cl_device_svm_capabilities>(Device,
                                                  CL_DEVICE_SVM_CAPABILITIES);
    if (!(Caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
      GTEST_SKIP() << "no SVM";
    K.reset(makeKernel(kernelSource("increment.cl"), "increment"));
    ASSERT_NE(K.get(), nullptr);
  }
  void runIncrement(size_t Count) {
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Count, nullptr,
                                        0, nullptr, nullptr));
    ASSERT_CL_OK(clFinish(Queue));
  }
  cl_device_svm_capabilities Caps = 0;
  KernelRef K;
};

TEST_P(Svm, CoarseGrainWithMapUnmap) {
  const size_t N = 1000;
  auto *P = static_cast<cl_int *>(
      clSVMAlloc(Context, CL_MEM_READ_WRITE, N * sizeof(cl_int), 0));
  ASSERT_NE(P, nullptr);
  ASSERT_CL_OK(clEnqueueSVMMap(Queue, CL_TRUE, CL_MAP_WRITE, P,
                               N * sizeof(cl_int), 0, nullptr, nullptr));
  for (size_t I = 0; I < N; ++I)
    P[I] = static_cast<cl_int>(I * 3);
  ASSERT_CL_OK(clEnqueueSVMUnmap(Queue, P, 0, nullptr, nullptr));
  ASSERT_CL_OK(clSetKernelArgSVMPointer(K, 0, P));
  runIncrement(N);
  // At an offset inside the allocation: only the tail moves again.
  ASSERT_CL_OK(clSetKernelArgSVMPointer(K, 0, P + 500));
  runIncrement(N - 500);
  EventRef Map;
  ASSERT_CL_OK(clEnqueueSVMMap(Queue, CL_FALSE, CL_MAP_READ, P,
                               N * sizeof(cl_int), 0, nullptr, Map.out()));
  cl_event List[] = {Map.get()};
  ASSERT_CL_OK(clWaitForEvents(1, List));
  cl_command_type Type = 0;
  ASSERT_CL_OK(clGetEventInfo(Map, CL_EVENT_COMMAND_TYPE, sizeof(Type), &Type,
                              nullptr));
  EXPECT_EQ(Type, cl_command_type(CL_COMMAND_SVM_MAP));
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(P[I], static_cast<cl_int>(I * 3 + (I >= 500 ? 2 : 1)));
  ASSERT_CL_OK(clEnqueueSVMUnmap(Queue, P, 0, nullptr, nullptr));
  ASSERT_CL_OK(clFinish(Queue));
  clSVMFree(Context, P);
}

TEST_P(Svm, FineGrainNeedsNoMap) {
  if (!(Caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER))
    GTEST_SKIP() << "no fine-grained buffer SVM";
  const size_t N = 256;
  auto *P = static_cast<cl_int *>(clSVMAlloc(
      Context, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER,
      N * sizeof(cl_int), 64));
  ASSERT_NE(P, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(P) % 64, 0u);
  for (size_t I = 0; I < N; ++I)
    P[I] = -static_cast<cl_int>(I);
  ASSERT_CL_OK(clSetKernelArgSVMPointer(K, 0, P));
  runIncrement(N);
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(P[I], 1 - static_cast<cl_int>(I));
  clSVMFree(Context, P);
}

TEST_P(Svm, MemcpyMemFillMigrate) {
  const size_t N = 512;
  auto *A = static_cast<cl_int *>(
      clSVMAlloc(Context, CL_MEM_READ_WRITE, N * sizeof(cl_int), 0));
  auto *B = static_cast<cl_int *>(
      clSVMAlloc(Context, CL_MEM_READ_WRITE, N * sizeof(cl_int), 0));
  ASSERT_NE(A, nullptr);
  ASSERT_NE(B, nullptr);
  cl_int Pattern = 0x01020304;
  ASSERT_CL_OK(clEnqueueSVMMemFill(Queue, A, &Pattern, sizeof(Pattern),
                                   N * sizeof(cl_int), 0, nullptr, nullptr));
  std::vector<cl_int> Host(N);
  for (size_t I = 0; I < N; ++I)
    Host[I] = static_cast<cl_int>(I);
  // Host to SVM, SVM to SVM (half), SVM back to host.
  ASSERT_CL_OK(clEnqueueSVMMemcpy(Queue, CL_FALSE, B, Host.data(),
                                  N * sizeof(cl_int), 0, nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueSVMMemcpy(Queue, CL_FALSE, A, B,
                                  N / 2 * sizeof(cl_int), 0, nullptr,
                                  nullptr));
  const void *Ptrs[] = {A, B};
  const size_t Sizes[] = {0, 16};
  ASSERT_CL_OK(clEnqueueSVMMigrateMem(Queue, 2, Ptrs, Sizes, 0, 0, nullptr,
                                      nullptr));
  std::vector<cl_int> Out(N);
  ASSERT_CL_OK(clEnqueueSVMMemcpy(Queue, CL_TRUE, Out.data(), A,
                                  N * sizeof(cl_int), 0, nullptr, nullptr));
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(Out[I], I < N / 2 ? static_cast<cl_int>(I) : Pattern) << I;

  EXPECT_CL(CL_MEM_COPY_OVERLAP,
            clEnqueueSVMMemcpy(Queue, CL_TRUE, A + 1, A, 8, 0, nullptr,
                               nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueSVMMemcpy(Queue, CL_TRUE, nullptr, A, 8,
                                                 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueSVMMemFill(Queue, A, &Pattern, 3, 12, 0, nullptr,
                                nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueSVMMemFill(Queue, A, &Pattern, 4, 10, 0, nullptr,
                                nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueSVMMemFill(Queue, reinterpret_cast<char *>(A) + 2,
                                &Pattern, 4, 8, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueSVMMap(Queue, CL_TRUE, CL_MAP_READ, A, 0, 0, nullptr,
                            nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueSVMMap(Queue, CL_TRUE,
                            CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, A, 4,
                            0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE,
            clEnqueueSVMUnmap(Queue, nullptr, 0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueSVMMigrateMem(Queue, 0, Ptrs, Sizes, 0,
                                                     0, nullptr, nullptr));
  EXPECT_CL(CL_INVALID_COMMAND_QUEUE,
            clEnqueueSVMMemcpy(nullptr, CL_TRUE, B, A, 8, 0, nullptr,
                               nullptr));
  clSVMFree(Context, A);
  clSVMFree(Context, B);
}

struct FreeRecord {
  std::atomic<int> Calls{0};
  std::atomic<cl_uint> Count{0};
  void *First = nullptr;
};

void CL_CALLBACK recordFree(cl_command_queue, cl_uint Num, void *Ptrs[],
                            void *User) {
  auto *R = static_cast<FreeRecord *>(User);
  R->Count = Num;
  R->First = Ptrs[0];
  R->Calls.fetch_add(1);
}

TEST_P(Svm, EnqueueFreeWithAndWithoutCallback) {
  void *P = clSVMAlloc(Context, CL_MEM_READ_WRITE, 64, 0);
  void *Q = clSVMAlloc(Context, CL_MEM_READ_WRITE, 64, 0);
  ASSERT_NE(P, nullptr);
  ASSERT_NE(Q, nullptr);
  FreeRecord R;
  void *List[] = {P};
  EventRef E;
  ASSERT_CL_OK(clEnqueueSVMFree(Queue, 1, List, recordFree, &R, 0, nullptr,
                                E.out()));
  List[0] = nullptr; // the runtime kept its own copy
  ASSERT_CL_OK(clFinish(Queue));
  EXPECT_EQ(R.Calls.load(), 1);
  EXPECT_EQ(R.Count.load(), 1u);
  EXPECT_EQ(R.First, P);
  clSVMFree(Context, P); // the callback did not free it: we do
  void *Own[] = {Q};
  ASSERT_CL_OK(clEnqueueSVMFree(Queue, 1, Own, nullptr, nullptr, 0, nullptr,
                                nullptr));
  ASSERT_CL_OK(clFinish(Queue));
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueSVMFree(Queue, 0, Own, nullptr, nullptr,
                                               0, nullptr, nullptr));
  void *Null[] = {nullptr};
  EXPECT_CL(CL_INVALID_VALUE, clEnqueueSVMFree(Queue, 1, Null, nullptr,
                                               nullptr, 0, nullptr, nullptr));
}

TEST_P(Svm, AllocationErrors) {
  EXPECT_EQ(clSVMAlloc(nullptr, CL_MEM_READ_WRITE, 64, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(Context, CL_MEM_READ_WRITE, 0, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(Context, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, 0),
            nullptr);
  EXPECT_EQ(clSVMAlloc(Context, CL_MEM_READ_WRITE, 64, 3), nullptr);
  EXPECT_EQ(clSVMAlloc(Context, CL_MEM_USE_HOST_PTR, 64, 0), nullptr);
  // Atomics without fine grain is never valid.
  EXPECT_EQ(clSVMAlloc(Context, CL_MEM_SVM_ATOMICS, 64, 0), nullptr);
  cl_ulong Max = deviceInfo<cl_ulong>(Device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_EQ(clSVMAlloc(Context, CL_MEM_READ_WRITE, Max + 1, 0), nullptr);
  // Freeing NULL or a foreign pointer is harmless.
  clSVMFree(Context, nullptr);
  int NotSvm = 0;
  clSVMFree(Context, &NotSvm);
  EXPECT_CL(CL_INVALID_KERNEL, clSetKernelArgSVMPointer(nullptr, 0, nullptr));
  EXPECT_CL(CL_INVALID_ARG_INDEX, clSetKernelArgSVMPointer(K, 5, nullptr));
}

TEST_P(Svm, BufferOnSvmAndExecInfo) {
  void *P = clSVMAlloc(Context, CL_MEM_READ_WRITE, 256, 0);
  ASSERT_NE(P, nullptr);
  cl_int Err = CL_SUCCESS;
  MemRef Buf(clCreateBuffer(Context, CL_MEM_USE_HOST_PTR, 256, P, &Err));
  ASSERT_CL_OK(Err);
  cl_bool Uses = CL_FALSE;
  ASSERT_CL_OK(clGetMemObjectInfo(Buf, CL_MEM_USES_SVM_POINTER, sizeof(Uses),
                                  &Uses, nullptr));
  EXPECT_EQ(Uses, cl_bool(CL_TRUE));
  std::vector<char> Plain(256);
  MemRef Other(
      clCreateBuffer(Context, CL_MEM_USE_HOST_PTR, 256, Plain.data(), &Err));
  ASSERT_CL_OK(clGetMemObjectInfo(Other, CL_MEM_USES_SVM_POINTER, sizeof(Uses),
                                  &Uses, nullptr));
  EXPECT_EQ(Uses, cl_bool(CL_FALSE));
  void *Ptrs[] = {P};
  EXPECT_CL_OK(
      clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(Ptrs), Ptrs));
  cl_bool No = CL_FALSE, Yes = CL_TRUE;
  EXPECT_CL_OK(clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                                   sizeof(No), &No));
  if (!(Caps & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM)) {
    EXPECT_CL(CL_INVALID_OPERATION,
              clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                                  sizeof(Yes), &Yes));
  }
  EXPECT_CL(CL_INVALID_VALUE, clSetKernelExecInfo(K, 0x7777, 4, &Yes));
  EXPECT_CL(CL_INVALID_VALUE,
            clSetKernelExecInfo(K, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, Ptrs));
  Buf.reset();
  clSVMFree(Context, P);
}

WEFT_INSTANTIATE_DEVICE_TEST(Svm);

} // namespace
