//===- tests/api/AccessCheckTest.cpp - the simulator's bounds checker -----===//
//
// WEFT_ACCELSIM_CHECK=1 (devices/accelsim/AccessChecker.h): the accelerator
// simulator checks every global, constant and local access of its kernels
// and reports the first one out of bounds on stderr, with kernel name,
// work-item and address; the command then fails (a negative execution
// status) and the process goes on. Each faulty kernel here has exactly one
// kind of bad access (a read, a write, a __local write, a __constant read,
// an atomic, a write through a generic pointer), whose work-item and
// distance the test knows, and its other
// work-items must still produce their results, computed on the host.
// A correct kernel touching the last byte of an odd-sized buffer, __local,
// __constant and atomics must complete with exact results and no report.
//
// Skips off the simulator; the out-of-bounds cases (AccessCheckFaults) also
// skip when the checker is off (the accesses would really happen). ctest
// runs both as api.AccessCheck.accelsim and also matches the reported lines.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <cstdlib>
#include <cstring>
#include <iostream>

using namespace weft_test;

namespace {

const char *const Kernels = R"(
kernel void readPast(global int *Out, global const int *In) {
  size_t I = get_global_id(0);
  Out[I] = In[I + 1] * 2;
}
// Row 0 writes the row before the buffer.
kernel void writeBefore(global int *Data, int Width) {
  int X = get_global_id(0), Y = get_global_id(1);
  Data[(Y - 1) * Width + X] = Y * 1000 + X;
}
kernel void localOverrun(global int *Out, local int *Tile) {
  size_t L = get_local_id(0);
  Tile[L + 1] = (int)L;
  barrier(CLK_LOCAL_MEM_FENCE);
  Out[get_global_id(0)] = L == 0 ? -1 : Tile[L];
}
// Only work-item (7, 3) reads Table[32], past the 32 ints.
kernel void constantPast(global int *Out, constant int *Table) {
  int I = get_global_id(0), J = get_global_id(1);
  Out[J * 8 + I] = Table[J * 8 + I + 1];
}
kernel void histogram(global int *Bins, global const int *In) {
  atomic_inc(&Bins[In[get_global_id(0)]]);
}
constant int Bias[4] = {1, 2, 3, 4};
kernel void correct(global int *Out, global const int *In,
                    constant int *Scale, local int *Tile,
                    global int *Count) {
  size_t G = get_global_id(0), L = get_local_id(0), S = get_local_size(0);
  Tile[L] = In[G];
  barrier(CLK_LOCAL_MEM_FENCE);
  Out[G] = Tile[S - 1 - L] * Scale[G % 3] + Bias[G % 4];
  atomic_add(Count, 1);
}
)";

bool isSimulator(cl_device_id D) {
  return deviceInfo<cl_device_type>(D, CL_DEVICE_TYPE) ==
             CL_DEVICE_TYPE_ACCELERATOR &&
         deviceString(D, CL_DEVICE_NAME)
                 .rfind("Weft accelerator simulator (", 0) == 0;
}

bool checkerOn() {
  const char *V = getenv("WEFT_ACCELSIM_CHECK");
  return V && !strcmp(V, "1");
}

/// The checker's line in Text, or "".
std::string reportIn(const std::string &Text) {
  size_t At = Text.find("accelsim: out-of-bounds");
  if (At == std::string::npos)
    return "";
  return Text.substr(At, Text.find('\n', At) - At);
}

/// The checker's line names the access, where it fell beside the nearest
/// object, and the kernel and work-item that made it.
void expectReport(const std::string &Report, const std::string &Access,
                  const std::string &Where, const std::string &Culprit) {
  EXPECT_NE(Report.find("out-of-bounds " + Access + " at 0x"),
            std::string::npos)
      << Report;
  EXPECT_NE(Report.find("(" + Where + " 0x"), std::string::npos) << Report;
  EXPECT_NE(Report.find(", " + Culprit), std::string::npos) << Report;
}

class AccessCheck : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    if (!isSimulator(Device))
      GTEST_SKIP() << "not the accelerator simulator";
    Program.reset(buildProgram(Context, Device, Kernels));
    ASSERT_NE(Program.get(), nullptr);
  }

  cl_kernel kernel(const char *Name) {
    cl_int Err = CL_SUCCESS;
    cl_kernel K = clCreateKernel(Program, Name, &Err);
    EXPECT_CL_OK(Err) << " creating " << Name;
    return K;
  }

  /// Runs K and waits; returns its execution status and, in Report, the
  /// checker's line from stderr (echoed to stdout for ctest).
  cl_int run(cl_kernel K, cl_uint Dims, const size_t *Global,
             const size_t *Local, std::string &Report) {
    cl_event Raw = nullptr;
    testing::internal::CaptureStderr();
    cl_int Err = clEnqueueNDRangeKernel(Queue, K, Dims, nullptr, Global, Local,
                                        0, nullptr, &Raw);
    EventRef Done(Raw);
    if (Err == CL_SUCCESS)
      clWaitForEvents(1, &Raw);
    std::string Stderr = testing::internal::GetCapturedStderr();
    EXPECT_CL_OK(Err);
    if (Err != CL_SUCCESS)
      return Err;
    std::cerr << Stderr;
    Report = reportIn(Stderr);
    if (!Report.empty())
      std::cout << "reported: " << Report << std::endl;
    cl_int Status = CL_COMPLETE;
    EXPECT_CL_OK(clGetEventInfo(Raw, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                sizeof(Status), &Status, nullptr));
    return Status;
  }
};

/// The faulty kernels: without the checker their accesses would happen.
class AccessCheckFaults : public AccessCheck {
protected:
  void SetUp() override {
    AccessCheck::SetUp();
    if (HasFatalFailure() || IsSkipped())
      return;
    if (!checkerOn())
      GTEST_SKIP() << "WEFT_ACCELSIM_CHECK=1 is not set";
  }
};

TEST_P(AccessCheckFaults, ReadOnePastTheEnd) {
  const size_t N = 1024, Local = 64;
  std::vector<cl_int> In(N), Out(N, -7);
  for (size_t I = 0; I < N; ++I)
    In[I] = cl_int(I * 3 + 1);
  MemRef InBuf(makeBufferFrom(In, CL_MEM_READ_ONLY));
  MemRef OutBuf(makeBufferFrom(Out));
  KernelRef K(kernel("readPast"));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
  std::string Report;
  EXPECT_EQ(run(K, 1, &N, &Local, Report), CL_OUT_OF_RESOURCES);
  expectReport(Report, "read of 4 bytes", "4 bytes past buffer",
               "size 4096) in kernel readPast, work-item (1023, 0, 0)");
  // The queue goes on; every other work-item did its work.
  ASSERT_CL_OK(readInto(OutBuf, Out));
  for (size_t I = 0; I + 1 < N; ++I)
    ASSERT_EQ(Out[I], In[I + 1] * 2) << "work-item " << I;
}

TEST_P(AccessCheckFaults, WriteBeforeTheStart) {
  const size_t Width = 16, Height = 8;
  const size_t Global[2] = {Width, Height}, Local[2] = {8, 4};
  // Allocated first, so that first fit likely puts it right before Data:
  // the writes of row 0 would land in it without the checker.
  std::vector<cl_int> Guard(Width * Height, 0x5a5a5a5a);
  MemRef GuardBuf(makeBufferFrom(Guard));
  std::vector<cl_int> Data(Width * Height, -1);
  MemRef DataBuf(makeBufferFrom(Data));
  KernelRef K(kernel("writeBefore"));
  cl_int W = cl_int(Width);
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &DataBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_int), &W));
  std::string Report;
  EXPECT_EQ(run(K, 2, Global, Local, Report), CL_OUT_OF_RESOURCES);
  // Work-item (0, 0) writes Data[-16]: 64 bytes before the buffer.
  expectReport(Report, "write of 4 bytes", "64 bytes before buffer",
               "size 512) in kernel writeBefore, work-item (0, 0, 0)");
  ASSERT_CL_OK(readInto(DataBuf, Data));
  for (size_t Y = 1; Y < Height; ++Y)
    for (size_t X = 0; X < Width; ++X)
      ASSERT_EQ(Data[(Y - 1) * Width + X], cl_int(Y * 1000 + X))
          << "work-item " << X << ", " << Y;
  for (size_t X = 0; X < Width; ++X)
    ASSERT_EQ(Data[(Height - 1) * Width + X], -1) << "last row, " << X;
  std::vector<cl_int> GuardAfter(Guard.size());
  ASSERT_CL_OK(readInto(GuardBuf, GuardAfter));
  EXPECT_EQ(GuardAfter, Guard) << "the neighbouring buffer was written";
}

TEST_P(AccessCheckFaults, LocalOverrun) {
  const size_t N = 256, Local = 64;
  std::vector<cl_int> Out(N, -7);
  MemRef OutBuf(makeBufferFrom(Out));
  KernelRef K(kernel("localOverrun"));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, Local * sizeof(cl_int), nullptr));
  std::string Report;
  EXPECT_EQ(run(K, 1, &N, &Local, Report), CL_OUT_OF_RESOURCES);
  // Local id 63 of the first group writes Tile[64], just past the 256
  // bytes of the group's local memory.
  expectReport(Report, "write of 4 bytes", "4 bytes past local memory",
               "size 256) in kernel localOverrun, work-item (63, 0, 0)");
  ASSERT_CL_OK(readInto(OutBuf, Out));
  for (size_t I = 0; I < N; ++I) {
    cl_int L = cl_int(I % Local);
    ASSERT_EQ(Out[I], L == 0 ? -1 : L - 1) << "work-item " << I;
  }
}

TEST_P(AccessCheckFaults, ConstantReadInAnotherGroupRow) {
  // 8x4 work-items in groups of 4x2: the bad one is in group (1, 1).
  const size_t Global[2] = {8, 4}, Local[2] = {4, 2};
  std::vector<cl_int> Table(32), Out(32, -7);
  for (size_t I = 0; I < Table.size(); ++I)
    Table[I] = cl_int(I * I);
  MemRef TableBuf(makeBufferFrom(Table, CL_MEM_READ_ONLY));
  MemRef OutBuf(makeBufferFrom(Out));
  KernelRef K(kernel("constantPast"));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &TableBuf));
  std::string Report;
  EXPECT_EQ(run(K, 2, Global, Local, Report), CL_OUT_OF_RESOURCES);
  expectReport(Report, "read of 4 bytes", "4 bytes past buffer",
               "size 128) in kernel constantPast, work-item (7, 3, 0)");
  ASSERT_CL_OK(readInto(OutBuf, Out));
  for (size_t I = 0; I + 1 < Out.size(); ++I)
    ASSERT_EQ(Out[I], Table[I + 1]) << "element " << I;
}

TEST_P(AccessCheckFaults, AtomicPastTheEnd) {
  // 64 values into 16 bins; work-item 37's value is 16, one bin too far.
  const size_t N = 64, Local = 16, Bins = 16;
  std::vector<cl_int> In(N), Counts(Bins, 0), Expected(Bins, 0);
  for (size_t I = 0; I < N; ++I) {
    In[I] = I == 37 ? cl_int(Bins) : cl_int(I * 7 % Bins);
    if (I != 37)
      ++Expected[In[I]];
  }
  MemRef InBuf(makeBufferFrom(In, CL_MEM_READ_ONLY));
  MemRef BinsBuf(makeBufferFrom(Counts));
  KernelRef K(kernel("histogram"));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &BinsBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
  std::string Report;
  EXPECT_EQ(run(K, 1, &N, &Local, Report), CL_OUT_OF_RESOURCES);
  expectReport(Report, "read-write of 4 bytes", "4 bytes past buffer",
               "size 64) in kernel histogram, work-item (37, 0, 0)");
  ASSERT_CL_OK(readInto(BinsBuf, Counts));
  EXPECT_EQ(Counts, Expected);
}

// OpenCL C 3.0: a helper's unqualified pointer is generic. Private and
// local memory through it are in bounds; the buffer is overrun by the last
// work-item.
const char *const GenericKernel = R"(
void put(int *P, int I, int V) { P[I] = V; }
kernel void genericPast(global int *Out, local int *Tile) {
  int I = get_global_id(0), L = get_local_id(0);
  int Private[4] = {0, 0, 0, 0};
  put(Private, I % 4, I);
  put(Tile, L, 2 * I);
  put(Out, I + 1, Private[I % 4] + Tile[L]);
}
)";

TEST_P(AccessCheckFaults, GenericPointerPastTheEnd) {
  if (!deviceHasFeature(Device, "__opencl_c_generic_address_space"))
    GTEST_SKIP() << "no generic address space";
  const size_t N = 128, Local = 32;
  KernelRef K(makeKernel(GenericKernel, "genericPast", "-cl-std=CL3.0"));
  ASSERT_NE(K.get(), nullptr);
  std::vector<cl_int> Out(N, -7);
  MemRef OutBuf(makeBufferFrom(Out));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, Local * sizeof(cl_int), nullptr));
  std::string Report;
  EXPECT_EQ(run(K, 1, &N, &Local, Report), CL_OUT_OF_RESOURCES);
  expectReport(Report, "write of 4 bytes", "4 bytes past buffer",
               "size 512) in kernel genericPast, work-item (127, 0, 0)");
  ASSERT_CL_OK(readInto(OutBuf, Out));
  EXPECT_EQ(Out[0], -7);
  for (size_t I = 0; I + 1 < N; ++I)
    ASSERT_EQ(Out[I + 1], cl_int(3 * I)) << "work-item " << I;
}

TEST_P(AccessCheck, CorrectKernelCompletes) {
  // 1000 ints: the buffer ends inside its chunk of device memory.
  const size_t N = 1000, Local = 40;
  std::vector<cl_int> In(N), Out(N, -7), Scale = {3, -5, 7}, Count = {0};
  for (size_t I = 0; I < N; ++I)
    In[I] = cl_int(I * 7) - 300;
  MemRef InBuf(makeBufferFrom(In, CL_MEM_READ_ONLY));
  MemRef OutBuf(makeBufferFrom(Out));
  MemRef ScaleBuf(makeBufferFrom(Scale, CL_MEM_READ_ONLY));
  MemRef CountBuf(makeBufferFrom(Count));
  KernelRef K(kernel("correct"));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &OutBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &InBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(cl_mem), &ScaleBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 3, Local * sizeof(cl_int), nullptr));
  ASSERT_CL_OK(clSetKernelArg(K, 4, sizeof(cl_mem), &CountBuf));
  std::string Report;
  EXPECT_EQ(run(K, 1, &N, &Local, Report), CL_COMPLETE);
  EXPECT_EQ(Report, "");
  ASSERT_CL_OK(readInto(OutBuf, Out));
  ASSERT_CL_OK(readInto(CountBuf, Count));
  const cl_int Bias[4] = {1, 2, 3, 4};
  for (size_t G = 0; G < N; ++G) {
    size_t First = G / Local * Local, L = G % Local;
    ASSERT_EQ(Out[G], In[First + Local - 1 - L] * Scale[G % 3] + Bias[G % 4])
        << "work-item " << G;
  }
  EXPECT_EQ(Count[0], cl_int(N));
}

WEFT_INSTANTIATE_DEVICE_TEST(AccessCheck);
WEFT_INSTANTIATE_DEVICE_TEST(AccessCheckFaults);

} // namespace
