//===- CpuDriver.cpp - Describing the host and compiling for it -----------===//

#include "cpu/CpuDevice.h"

#include "weft/debug.h"

#include <CL/cl_ext.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace weft {

static cl_name_version named(const char *Name, unsigned Major, unsigned Minor,
                             unsigned Patch = 0) {
  cl_name_version Entry{};
  Entry.version = CL_MAKE_VERSION(Major, Minor, Patch);
  snprintf(Entry.name, sizeof(Entry.name), "%s", Name);
  return Entry;
}

/// A name-based UUID (RFC 9562 version 8, custom): two 64-bit FNV-1a
/// hashes of Name with different offset bases, so the same name gives the
/// same UUID in every process.
static void nameUuid(const std::string &Name, cl_uchar Uuid[16]) {
  uint64_t Halves[2] = {0xcbf29ce484222325ull, 0x6c62272e07bb0142ull};
  for (uint64_t &H : Halves)
    for (unsigned char C : Name)
      H = (H ^ C) * 0x100000001b3ull;
  for (unsigned I = 0; I < 16; ++I)
    Uuid[I] = static_cast<cl_uchar>(Halves[I / 8] >> (8 * (I % 8)));
  Uuid[6] = (Uuid[6] & 0x0f) | 0x80; // version 8
  Uuid[8] = (Uuid[8] & 0x3f) | 0x80; // the RFC's variant
}

static bool hasFeature(const std::string &Features, const char *Name) {
  return ("," + Features + ",").find(std::string(",+") + Name + ",") !=
         std::string::npos;
}

CpuDriver::CpuDriver(const char *DriverName, unsigned ComputeUnits) {
  const HostTopology &Host = hostTopology();
  Desc.Target = hostTargetDesc();
  // What lib/kernel implements: the atomics (lib/kernel/atomics.cl) work
  // on real LLVM atomics with every order up to seq_cst at device scope.
  Desc.Target.OpenCLCFeatures = {
      "__opencl_c_int64", "__opencl_c_fp64", "__opencl_c_atomic_order_acq_rel",
      "__opencl_c_atomic_order_seq_cst", "__opencl_c_atomic_scope_device",
      // Images: lib/CL/Image.cpp and lib/kernel/image.cl.
      "__opencl_c_images", "__opencl_c_read_write_images",
      "__opencl_c_3d_image_writes",
      // The program's variables in the global address space:
      // lib/llvmopencl/FrontEnd/GlobalVariables.cpp.
      "__opencl_c_program_scope_global_variables",
      // Generic pointers: one flat address space on a CPU; to_local,
      // to_private and get_fence tell the spaces apart by address
      // (ResolveWorkItemFunctions.cpp).
      "__opencl_c_generic_address_space",
      // lib/kernel/collectives.cl.
      "__opencl_c_work_group_collective_functions",
      // Sub-groups of weft::SubGroupSize work-items: lib/kernel/subgroups.cl.
      "__opencl_c_subgroups"};
  // cl_khr_fp16: half arithmetic is float arithmetic rounded back (F16C or
  // libgcc's conversions), the builtins are lib/kernel/half.cl.
  Desc.Target.Extensions = {"cl_khr_fp64",
                            "cl_khr_fp16",
                            "cl_khr_byte_addressable_store",
                            "cl_khr_global_int32_base_atomics",
                            "cl_khr_global_int32_extended_atomics",
                            "cl_khr_local_int32_base_atomics",
                            "cl_khr_local_int32_extended_atomics",
                            "cl_khr_int64_base_atomics",
                            "cl_khr_int64_extended_atomics",
                            "cl_khr_3d_image_writes"};
  Desc.AtomicMemoryCapabilities =
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
      CL_DEVICE_ATOMIC_ORDER_SEQ_CST | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
      CL_DEVICE_ATOMIC_SCOPE_DEVICE;
  Desc.AtomicFenceCapabilities =
      Desc.AtomicMemoryCapabilities | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM;

  Desc.Name = std::string(DriverName) + "-" + Host.CpuModel;
  Desc.Vendor = Host.CpuVendor;
  if (Host.CpuVendor == "GenuineIntel")
    Desc.VendorId = 0x8086;
  else if (Host.CpuVendor == "AuthenticAMD")
    Desc.VendorId = 0x1022;
  // Applications that keep program binaries key them on the device name
  // and driver version (hashcat does): naming the code's target here makes
  // a WEFT_TARGET_CPU change miss their cache instead of handing Weft a
  // binary it must refuse (CL_INVALID_BINARY ends hashcat's run).
  Desc.DriverVersion =
      std::string(WEFT_VERSION_STRING) + " (" + Desc.Target.CPU + ")";
  Desc.Version = std::string("OpenCL 3.0 Weft ") + WEFT_VERSION_STRING;
  Desc.OpenCLCVersion = "OpenCL C 1.2 Weft";
  Desc.OpenCLCAllVersions = {named("OpenCL C", 1, 0), named("OpenCL C", 1, 1),
                             named("OpenCL C", 1, 2), named("OpenCL C", 3, 0)};
  // __builtin_expect and __builtin_assume are clang's: the extension is
  // its macro, which the front end defines (BuildProgram.cpp).
  Desc.Target.Extensions.push_back("cl_khr_expect_assume");
  // lib/kernel/bitops.cl.
  Desc.Target.Extensions.push_back("cl_khr_extended_bit_ops");
  // lib/kernel/subgroups.cl, on the sub-groups of __opencl_c_subgroups.
  Desc.Target.Extensions.push_back("cl_khr_subgroup_shuffle");
  Desc.Target.Extensions.push_back("cl_khr_subgroup_shuffle_relative");
  Desc.Target.Extensions.push_back("cl_khr_subgroup_clustered_reduce");
  Desc.Target.Extensions.push_back("cl_khr_subgroup_extended_types");
  Desc.Target.Extensions.push_back("cl_khr_subgroup_rotate");
  // The non-uniform ones act on the work-items that call them together:
  // the fallback work-group method's scheduler finds them where a kernel
  // calls them under work-item-dependent control
  // (ResolveNonUniformSubGroups.cpp).
  Desc.Target.Extensions.push_back("cl_khr_subgroup_non_uniform_vote");
  Desc.Target.Extensions.push_back("cl_khr_subgroup_ballot");
  Desc.Target.Extensions.push_back("cl_khr_subgroup_non_uniform_arithmetic");
  // lib/kernel/dot.cl: version 2.0 of the extension, whose unpacked char4
  // and uchar4 forms have a feature macro of their own.
  Desc.Target.Extensions.push_back("cl_khr_integer_dot_product");
  Desc.Target.OpenCLCFeatures.push_back(
      "__opencl_c_integer_dot_product_input_4x8bit");
  Desc.Target.OpenCLCFeatures.push_back(
      "__opencl_c_integer_dot_product_input_4x8bit_packed");
  for (const std::string &F : Desc.Target.OpenCLCFeatures)
    Desc.OpenCLCFeatures.push_back(named(F.c_str(), 3, 0));
  for (const std::string &E : Desc.Target.Extensions)
    Desc.Extensions.push_back(
        named(E.c_str(), E == "cl_khr_integer_dot_product" ? 2 : 1, 0));
  // SPIR-V programs go through the SPIR-V/LLVM translator
  // (lib/llvmopencl/FrontEnd/SpirvFrontEnd.cpp): offered when it is installed.
  if (spirvTranslatorAvailable()) {
    for (unsigned Minor = 0; Minor <= SpirvMaxMinorVersion; ++Minor) {
      Desc.ILVersion += (Minor ? " SPIR-V_1." : "SPIR-V_1.") +
                        std::to_string(Minor);
      Desc.ILsWithVersion.push_back(named("SPIR-V", 1, Minor));
    }
    Desc.Extensions.push_back(named("cl_khr_il_program", 1, 0));
    // The translator reads SPV_KHR_no_integer_wrap_decoration's
    // NoSignedWrap/NoUnsignedWrap as LLVM's nsw/nuw.
    Desc.Extensions.push_back(
        named("cl_khr_spirv_no_integer_wrap_decoration", 1, 0));
  }

  Desc.MaxComputeUnits = ComputeUnits;
  // Compute units go round the cores this process may use; pinned to
  // another, a worker would run where taskset said not to.
  for (unsigned I = 0; I < ComputeUnits; ++I)
    Cores.push_back(Host.UsableCores[I % Host.UsableCores.size()]);
  Desc.MaxClockFrequency = Host.MaxClockMHz;
  Desc.GlobalMemSize = Host.MemoryBytes;
  Desc.MaxMemAllocSize =
      std::max<cl_ulong>(Host.MemoryBytes / 4, 128ull << 20);
  Desc.GlobalMemCacheSize = Host.L2Bytes ? Host.L2Bytes : Host.L1DataBytes;
  Desc.GlobalMemCachelineSize = Host.CachelineBytes;
  // Local memory is ordinary host memory per worker; keep it cache-sized
  // but well above the specification's 32 KiB minimum.
  Desc.LocalMemSize = 512 * 1024;
  Desc.MaxConstantBufferSize = 4 << 20;
  Desc.MaxConstantArgs = 16;
  Desc.MaxParameterSize = 1024;

  unsigned Simd = Desc.Target.SimdBytes ? Desc.Target.SimdBytes : 16;
  const unsigned TypeBytes[7] = {1, 2, 4, 8, 4, 8, 2};
  for (unsigned I = 0; I < 7; ++I)
    Desc.NativeVectorWidth[I] = Desc.PreferredVectorWidth[I] =
        Simd / TypeBytes[I];
  // Half vectors compute as float vectors: as many halves as floats fit.
  Desc.NativeVectorWidth[6] = Desc.PreferredVectorWidth[6] = Simd / 4;

  bool HasFma = hasFeature(Desc.Target.Features, "fma") ||
                hasFeature(Desc.Target.Features, "fma4");
  cl_device_fp_config Common = CL_FP_DENORM | CL_FP_INF_NAN |
                               CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                               CL_FP_ROUND_TO_INF | (HasFma ? CL_FP_FMA : 0);
  Desc.SingleFpConfig = Common | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;
  Desc.DoubleFpConfig = Common;
  // Each half operation is the float one rounded once to half: correctly
  // rounded, denormals kept, infinities and NaNs. The rounding-mode
  // conversions exist, but arithmetic rounds to nearest only.
  Desc.HalfFpConfig = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST;

  // The runtime orders commands of out-of-order queues by their wait lists
  // alone; both drivers run whatever is ready. Native kernels are host
  // functions, which a CPU device calls directly.
  Desc.QueueProperties =
      CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
  Desc.ExecCapabilities = CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL;
  // Kernels run on the host's cores in the host's address space: an SVM
  // allocation is ordinary memory both sides see coherently.
  Desc.SvmCapabilities =
      CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER;

  // Images are host memory with a descriptor (lib/CL/Image.h); the builtins
  // are in lib/kernel/image.cl. Limits are the full profile's minimums or
  // more. A 2D image made from a buffer reads the buffer's storage in place;
  // the builtins load a pixel at its own size's alignment, so rows and
  // bases need only be whole pixels apart (cl_khr_image2d_from_buffer).
  // Remainder groups run the work-group function's second, smaller copy
  // (ParallelRegions.cpp, WorkItemLoops.cpp).
  Desc.NonUniformWorkGroupSupport = true;
  Desc.ImageSupport = true;
  Desc.Image2DMaxWidth = Desc.Image2DMaxHeight = 16384;
  Desc.Image3DMaxWidth = Desc.Image3DMaxHeight = Desc.Image3DMaxDepth = 2048;
  Desc.ImageMaxBufferSize = 1 << 27;
  Desc.ImageMaxArraySize = 2048;
  Desc.MaxReadImageArgs = 128;
  Desc.MaxWriteImageArgs = 64;
  Desc.MaxReadWriteImageArgs = 64;
  Desc.MaxSamplers = 16;
  Desc.ImagePitchAlignment = 1;
  Desc.ImageBaseAddressAlignment = 1;
  Desc.Extensions.push_back(named("cl_khr_image2d_from_buffer", 1, 0));
  // clGetKernelSuggestedLocalWorkSizeKHR (lib/CL/Kernel.cpp): what a NULL
  // local size would get.
  Desc.Extensions.push_back(
      named("cl_khr_suggested_local_work_size", 1, 0));
  // The device is the driver on this kind of CPU (its sub-devices are parts
  // of the same device); the driver is this build of Weft.
  nameUuid(std::string("weft device\n") + DriverName + "\n" + Host.CpuVendor +
               "\n" + Host.CpuModel,
           Desc.DeviceUuid);
  nameUuid("weft driver\n" + compilerIdentity(), Desc.DriverUuid);
  Desc.Extensions.push_back(named("cl_khr_device_uuid", 1, 0));
  // Command buffers replay recorded commands through the runtime's event
  // DAG (lib/CL/CommandBuffer.cpp): on any queue the device takes, printf
  // included, a submission while another is pending included. 0.9.1 is
  // the version <CL/cl_ext.h> declares.
  Desc.CommandBufferCapabilities =
      CL_COMMAND_BUFFER_CAPABILITY_KERNEL_PRINTF_KHR |
      CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR |
      CL_COMMAND_BUFFER_CAPABILITY_OUT_OF_ORDER_KHR;
  Desc.Extensions.push_back(named("cl_khr_command_buffer", 0, 9, 1));
}

std::vector<std::vector<unsigned>>
CpuDriver::affinityGroups(cl_device_affinity_domain Domain) const {
  int Index;
  switch (Domain) {
  case CL_DEVICE_AFFINITY_DOMAIN_NUMA:
    Index = 0;
    break;
  case CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE:
    Index = 1;
    break;
  case CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE:
    Index = 2;
    break;
  case CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE:
    Index = 3;
    break;
  default:
    return {};
  }
  // The host's groups, restricted to this device's cores and renumbered
  // as this device's compute units.
  std::vector<std::vector<unsigned>> Result;
  for (const std::vector<unsigned> &HostGroup :
       hostTopology().CoreGroups[Index]) {
    std::vector<unsigned> Units;
    for (unsigned Unit = 0; Unit < Cores.size(); ++Unit)
      if (std::find(HostGroup.begin(), HostGroup.end(), Cores[Unit]) !=
          HostGroup.end())
        Units.push_back(Unit);
    if (!Units.empty())
      Result.push_back(std::move(Units));
  }
  return Result;
}

void *CpuDriver::allocate(size_t Size, size_t Alignment) {
  Alignment = std::max<size_t>(Alignment, sizeof(void *));
  return aligned_alloc(Alignment, (Size + Alignment - 1) / Alignment *
                                      Alignment);
}

void CpuDriver::deallocate(void *Address) { free(Address); }

bool CpuDriver::prepareKernel(const std::string &Bitcode,
                              const KernelDesc &Kernel,
                              const size_t LocalSize[3],
                              const GlobalVariableAddresses &Globals,
                              WorkGroupFunction &Out, std::string &Error) {
  Out = compileWorkGroupFunction(Bitcode, Kernel.Name, LocalSize, Desc.Target,
                                 Error, Globals);
  return Out.Launch != nullptr;
}

void CpuDriver::adoptKernelCode(const std::string &Bitcode,
                                const std::string &Kernel,
                                const size_t LocalSize[3],
                                const std::string &Code) {
  adoptWorkGroupFunction(Bitcode, Kernel, LocalSize, Desc.Target, Code);
}

} // namespace weft
