//===- tests/api/AccelsimTest.cpp - What only the accelerator simulator has ===//
//
// The accelerator simulator (devices/accelsim) describes a machine model
// and reports the time its commands would take on it. These tests read the
// model's figures from the model file itself (the one WEFT_ACCELSIM_MACHINE
// names, else pocl-table2.json, the built-in default written out) and check
// the device against them: its type and sizes in clGetDeviceInfo, the
// profiled duration of a transfer (exactly DMA set-up + bytes / bandwidth
// cycles at the clock), a kernel's duration (twice the work-groups of a
// loop-free kernel take exactly twice as long, and no less than its global
// loads and stores need on the model's load-store units), and device memory
// that runs out instead of falling back on the host's. On other devices they
// skip. ctest runs them with WEFT_DEVICES=accelsim (api.Accelsim.accelsim),
// with a second model (api.Accelsim.wide) and a model file of odd figures
// (api.Accelsim.odd, accelsim-odd.json); api.AccelsimModels.missing and
// .invalid check that a bad model file leaves no device.
//
//===----------------------------------------------------------------------===//

#include "TestCommon.h"

#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

using namespace weft_test;

namespace {

/// The figures of a machine model file the tests need.
struct ModelFigures {
  std::string Name;
  double ClockMHz = 0;
  uint64_t GlobalMemBytes = 0, LocalMemBytes = 0;
  uint64_t DmaSetupCycles = 0;
  double DmaBytesPerCycle = 0;
  unsigned GlobalLoadStoreUnits = 0;
};

std::string readText(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

/// The number after "Key": in Text, or Fallback when the key is absent.
double numberAt(const std::string &Text, const std::string &Key,
                double Fallback) {
  std::smatch M;
  if (std::regex_search(Text, M,
                        std::regex("\"" + Key + "\"\\s*:\\s*([0-9.eE+-]+)")))
    return std::stod(M[1]);
  return Fallback;
}

/// The model file WEFT_ACCELSIM_MACHINE names (a path, or a name in the
/// machines directory), else the default's.
std::string modelFilePath() {
  const std::string Dir = WEFT_TEST_ACCELSIM_MACHINES;
  const char *Spec = getenv("WEFT_ACCELSIM_MACHINE");
  if (!Spec || !*Spec)
    return Dir + "/pocl-table2.json";
  std::string S = Spec;
  if (S.find('/') != std::string::npos)
    return S;
  if (S.size() < 5 || S.compare(S.size() - 5, 5, ".json") != 0)
    S += ".json";
  return Dir + "/" + S;
}

/// Keys a model file leaves out keep the default model's values, which
/// pocl-table2.json spells out.
bool loadModelFigures(ModelFigures &F) {
  const std::string Default =
      readText(std::string(WEFT_TEST_ACCELSIM_MACHINES) + "/pocl-table2.json");
  const std::string Text = readText(modelFilePath());
  if (Default.empty() || Text.empty())
    return false;
  std::smatch M;
  if (!std::regex_search(Text, M, std::regex("\"name\"\\s*:\\s*\"([^\"]*)\"")))
    return false;
  F.Name = M[1];
  auto Figure = [&](const char *Key) {
    return numberAt(Text, Key, numberAt(Default, Key, -1));
  };
  F.ClockMHz = Figure("clock_mhz");
  F.GlobalMemBytes = uint64_t(Figure("global_mem_bytes"));
  F.LocalMemBytes = uint64_t(Figure("local_mem_bytes"));
  F.DmaSetupCycles = uint64_t(Figure("dma_setup_cycles"));
  F.DmaBytesPerCycle = Figure("dma_bytes_per_cycle");
  const std::regex Units("\"load_store_global\"\\s*:\\s*\\{[^}]*\"count\"\\s*:"
                         "\\s*([0-9]+)");
  if (std::regex_search(Text, M, Units) ||
      std::regex_search(Default, M, Units))
    F.GlobalLoadStoreUnits = unsigned(std::stoul(M[1]));
  return F.ClockMHz > 0 && F.DmaBytesPerCycle > 0 && F.GlobalLoadStoreUnits;
}

bool isSimulator(cl_device_id D) {
  return deviceInfo<cl_device_type>(D, CL_DEVICE_TYPE) ==
             CL_DEVICE_TYPE_ACCELERATOR &&
         deviceString(D, CL_DEVICE_NAME)
                 .rfind("Weft accelerator simulator (", 0) == 0;
}

cl_ulong profile(cl_event E, cl_profiling_info Param) {
  cl_ulong Value = 0;
  EXPECT_CL_OK(
      clGetEventProfilingInfo(E, Param, sizeof(Value), &Value, nullptr));
  return Value;
}

cl_ulong duration(cl_event E) {
  return profile(E, CL_PROFILING_COMMAND_END) -
         profile(E, CL_PROFILING_COMMAND_START);
}

class Accelsim : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    if (!isSimulator(Device))
      GTEST_SKIP() << "not the accelerator simulator";
    ASSERT_TRUE(loadModelFigures(Model)) << "model file " << modelFilePath();
    cl_queue_properties Props[] = {CL_QUEUE_PROPERTIES,
                                   CL_QUEUE_PROFILING_ENABLE, 0};
    cl_int Err = CL_SUCCESS;
    Profiled.reset(
        clCreateCommandQueueWithProperties(Context, Device, Props, &Err));
    ASSERT_CL_OK(Err);
  }

  /// Nanoseconds of Cycles at the model's clock.
  cl_ulong nanoseconds(uint64_t Cycles) const {
    return cl_ulong(std::llround(double(Cycles) * 1000.0 / Model.ClockMHz));
  }

  ModelFigures Model;
  QueueRef Profiled;
};

TEST_P(Accelsim, DescribesTheModel) {
  EXPECT_EQ(deviceString(Device, CL_DEVICE_NAME),
            "Weft accelerator simulator (" + Model.Name + ")");
  EXPECT_EQ(deviceInfo<cl_uint>(Device, CL_DEVICE_MAX_CLOCK_FREQUENCY),
            cl_uint(std::lround(Model.ClockMHz)));
  EXPECT_EQ(deviceInfo<cl_uint>(Device, CL_DEVICE_MAX_COMPUTE_UNITS), 1u);
  EXPECT_EQ(deviceInfo<cl_ulong>(Device, CL_DEVICE_GLOBAL_MEM_SIZE),
            Model.GlobalMemBytes);
  EXPECT_EQ(deviceInfo<cl_ulong>(Device, CL_DEVICE_LOCAL_MEM_SIZE),
            Model.LocalMemBytes);
  const cl_ulong MaxAlloc =
      deviceInfo<cl_ulong>(Device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_LE(MaxAlloc, Model.GlobalMemBytes);
  // The specification's minimum: a quarter of the global memory.
  EXPECT_GE(MaxAlloc, Model.GlobalMemBytes / 4);
  EXPECT_FALSE(deviceInfo<cl_bool>(Device, CL_DEVICE_IMAGE_SUPPORT));
  EXPECT_FALSE(deviceInfo<cl_bool>(Device, CL_DEVICE_HOST_UNIFIED_MEMORY));
  EXPECT_EQ(deviceInfo<cl_device_svm_capabilities>(Device,
                                                   CL_DEVICE_SVM_CAPABILITIES),
            0u);
  EXPECT_EQ(deviceInfo<cl_device_exec_capabilities>(
                Device, CL_DEVICE_EXECUTION_CAPABILITIES),
            cl_device_exec_capabilities(CL_EXEC_KERNEL));
  EXPECT_EQ(deviceInfo<cl_uint>(Device, CL_DEVICE_PARTITION_MAX_SUB_DEVICES),
            0u);
  EXPECT_TRUE(deviceInfo<cl_command_queue_properties>(
                  Device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES) &
              CL_QUEUE_PROFILING_ENABLE);
  // No SIMD on the machine: every native vector width is 1.
  EXPECT_EQ(deviceInfo<cl_uint>(Device, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT),
            1u);
  std::set<std::string> Extensions =
      splitWords(deviceString(Device, CL_DEVICE_EXTENSIONS));
  EXPECT_TRUE(Extensions.count("cl_khr_fp64"));
  EXPECT_FALSE(Extensions.count("cl_khr_3d_image_writes"));
  EXPECT_FALSE(Extensions.count("cl_khr_image2d_from_buffer"));
  // The device is found by its type, and is no CPU.
  cl_platform_id Platform = platformUnderTest();
  cl_uint Accelerators = 0;
  ASSERT_CL_OK(clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ACCELERATOR, 0, nullptr,
                              &Accelerators));
  EXPECT_GE(Accelerators, 1u);
}

// A transfer of N bytes takes DmaSetupCycles + N / DmaBytesPerCycle cycles
// on the model's clock, in each direction, and moves the bytes exactly.
TEST_P(Accelsim, TransferTimeIsTheModelsDma) {
  for (size_t Bytes : {size_t(4096), size_t(1) << 20, size_t(3) << 20}) {
    SCOPED_TRACE(Bytes);
    MemRef Buf(makeBuffer(CL_MEM_READ_WRITE, Bytes));
    ASSERT_NE(Buf.get(), nullptr);
    std::vector<unsigned char> Data(Bytes), Back(Bytes, 0);
    for (size_t I = 0; I < Bytes; ++I)
      Data[I] = static_cast<unsigned char>(I * 7 + I / 251);
    // The write covers the whole buffer and the read follows it: neither
    // needs another copy first, so each is exactly one DMA transfer.
    EventRef Write, Read;
    ASSERT_CL_OK(clEnqueueWriteBuffer(Profiled, Buf, CL_TRUE, 0, Bytes,
                                      Data.data(), 0, nullptr, Write.out()));
    ASSERT_CL_OK(clEnqueueReadBuffer(Profiled, Buf, CL_TRUE, 0, Bytes,
                                     Back.data(), 0, nullptr, Read.out()));
    const uint64_t Cycles =
        Model.DmaSetupCycles +
        uint64_t(std::ceil(double(Bytes) / Model.DmaBytesPerCycle));
    EXPECT_EQ(duration(Write), nanoseconds(Cycles));
    EXPECT_EQ(duration(Read), nanoseconds(Cycles));
    EXPECT_TRUE(Data == Back);
  }
}

// A loop-free kernel: every work-group runs the same blocks the same number
// of times, so twice the groups take exactly twice the cycles. Each
// work-item loads and stores one int of global memory, which bounds the
// time from below by the model's global load-store units. The results are
// the host's, exactly.
TEST_P(Accelsim, KernelTimeGrowsWithTheWork) {
  KernelRef K(makeKernel(
      "kernel void affine(global const int *In, global int *Out, int A,"
      "                   int B) {"
      "  size_t I = get_global_id(0);"
      "  Out[I] = In[I] * A + B;"
      "}",
      "affine"));
  ASSERT_NE(K.get(), nullptr);
  const size_t Local = 64, Groups = 16, N = 2 * Groups * Local;
  std::vector<cl_int> In(N), Out(N, -1);
  for (size_t I = 0; I < N; ++I)
    In[I] = cl_int(I * 2654435761u);
  const cl_int A = 37, B = -5;
  MemRef InBuf(makeBuffer(CL_MEM_READ_ONLY, N * sizeof(cl_int)));
  MemRef OutBuf(makeBuffer(CL_MEM_READ_WRITE, N * sizeof(cl_int)));
  // Both buffers written whole: the kernels find their device copies
  // current and make no transfers, so their durations are kernel cycles.
  ASSERT_CL_OK(clEnqueueWriteBuffer(Profiled, InBuf, CL_TRUE, 0,
                                    N * sizeof(cl_int), In.data(), 0, nullptr,
                                    nullptr));
  ASSERT_CL_OK(clEnqueueWriteBuffer(Profiled, OutBuf, CL_TRUE, 0,
                                    N * sizeof(cl_int), Out.data(), 0, nullptr,
                                    nullptr));
  ASSERT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 1, sizeof(cl_mem), &OutBuf));
  ASSERT_CL_OK(clSetKernelArg(K, 2, sizeof(A), &A));
  ASSERT_CL_OK(clSetKernelArg(K, 3, sizeof(B), &B));
  cl_ulong Took[2];
  for (size_t Times : {1, 2}) {
    const size_t Global = Times * Groups * Local;
    EventRef Run;
    ASSERT_CL_OK(clEnqueueNDRangeKernel(Profiled, K, 1, nullptr, &Global,
                                        &Local, 0, nullptr, Run.out()));
    cl_event Wait = Run.get();
    ASSERT_CL_OK(clWaitForEvents(1, &Wait));
    Took[Times - 1] = duration(Run);
    // One load and one store per work-item on the global units.
    const uint64_t Bound =
        (2 * Global + Model.GlobalLoadStoreUnits - 1) /
        Model.GlobalLoadStoreUnits;
    EXPECT_GE(Took[Times - 1], nanoseconds(Bound)) << Global << " work-items";
  }
  EXPECT_GT(Took[0], 0u);
  EXPECT_EQ(Took[1], 2 * Took[0]);
  ASSERT_CL_OK(clEnqueueReadBuffer(Profiled, OutBuf, CL_TRUE, 0,
                                   N * sizeof(cl_int), Out.data(), 0, nullptr,
                                   nullptr));
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(Out[I], cl_int(uint32_t(In[I]) * uint32_t(A) + uint32_t(B)))
        << I;
}

// Buffers are chunks of the device's own memory: as many buffers of the
// largest allocation as fit, then a refusal, never host memory instead;
// freeing one makes room again, and the new buffer holds what is written.
TEST_P(Accelsim, DeviceMemoryRunsOut) {
  const cl_ulong Max =
      deviceInfo<cl_ulong>(Device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  const cl_ulong Global =
      deviceInfo<cl_ulong>(Device, CL_DEVICE_GLOBAL_MEM_SIZE);
  ASSERT_GT(Max, 0u);
  std::vector<MemRef> Held;
  cl_int Err = CL_SUCCESS;
  const cl_uchar Zero = 0;
  for (cl_ulong Attempt = 0; Attempt <= Global / Max; ++Attempt) {
    cl_mem M = clCreateBuffer(Context, CL_MEM_READ_WRITE, Max, nullptr, &Err);
    if (!M)
      break;
    Held.emplace_back(M);
    // A runtime may allocate at first use: use the buffer's last page.
    Err = clEnqueueFillBuffer(Queue, M, &Zero, 1, Max - 4096, 4096, 0, nullptr,
                              nullptr);
    if (Err == CL_SUCCESS)
      Err = clFinish(Queue);
    if (Err != CL_SUCCESS)
      break;
  }
  EXPECT_TRUE(Err == CL_MEM_OBJECT_ALLOCATION_FAILURE ||
              Err == CL_OUT_OF_RESOURCES)
      << errorName(Err) << " after " << Held.size() << " buffers of " << Max
      << " bytes";
  EXPECT_GE(Held.size(), 1u);
  EXPECT_LE(Held.size() * Max, Global);

  if (Err != CL_MEM_OBJECT_ALLOCATION_FAILURE)
    return; // the failed buffer exists; the rest needs it refused at creation
  Held.pop_back();
  MemRef Again(clCreateBuffer(Context, CL_MEM_READ_WRITE, Max, nullptr, &Err));
  ASSERT_CL_OK(Err) << "after freeing a buffer of the same size";
  std::vector<cl_int> Tail(1024), Back(1024, 0);
  for (size_t I = 0; I < Tail.size(); ++I)
    Tail[I] = cl_int(I * I + 3);
  const size_t Offset = Max - Tail.size() * sizeof(cl_int);
  ASSERT_CL_OK(clEnqueueWriteBuffer(Queue, Again, CL_TRUE, Offset,
                                    Tail.size() * sizeof(cl_int), Tail.data(),
                                    0, nullptr, nullptr));
  ASSERT_CL_OK(clEnqueueReadBuffer(Queue, Again, CL_TRUE, Offset,
                                   Back.size() * sizeof(cl_int), Back.data(),
                                   0, nullptr, nullptr));
  EXPECT_TRUE(Tail == Back);
}

WEFT_INSTANTIATE_DEVICE_TEST(Accelsim);

// Run by ctest with WEFT_DEVICES=accelsim, WEFT_ACCELSIM_MACHINE naming a
// file that does not exist or one with a bad figure, and
// WEFT_TEST_EXPECT_NO_ACCELSIM set: the simulator is not created, so the
// platform has no accelerator.
TEST(AccelsimModels, BadModelFileMeansNoDevice) {
  if (!getenv("WEFT_TEST_EXPECT_NO_ACCELSIM"))
    GTEST_SKIP() << "only with a bad WEFT_ACCELSIM_MACHINE";
  cl_platform_id Platform = platformUnderTest();
  ASSERT_NE(Platform, nullptr);
  cl_uint Accelerators = 0;
  EXPECT_CL(CL_DEVICE_NOT_FOUND,
            clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ACCELERATOR, 0, nullptr,
                           &Accelerators));
}

} // namespace
