//===- Device.cpp - clGetDeviceIDs, clGetDeviceInfo ------------------------===//
//
// Every answer comes from the driver's DeviceDescription; queries about
// features Weft's devices lack (images, pipes, SVM, device-side enqueue,
// sub-groups) answer with the values the specification prescribes for a
// device without them.
//
//===----------------------------------------------------------------------===//

#include "Platform.h"
#include "Timer.h"

#include "weft/launcher.h"

#include <CL/cl_ext.h>

#include <cstring>

namespace weft {
namespace {

bool hasFeature(const DeviceDescription &Desc, const char *Name) {
  for (const cl_name_version &F : Desc.OpenCLCFeatures)
    if (strcmp(F.name, Name) == 0)
      return true;
  return false;
}

/// Answers one clGetDeviceInfo query.
class DeviceInfoQuery {
public:
  DeviceInfoQuery(Device &D, size_t Size, void *Value, size_t *SizeRet)
      : Dev(D), Desc(D.description()), Size(Size), Value(Value),
        SizeRet(SizeRet) {}

  cl_int answer(cl_device_info Param);

private:
  template <typename T> cl_int value(const T &V) {
    return returnValue(V, Size, Value, SizeRet);
  }
  cl_int uint(cl_uint V) { return value<cl_uint>(V); }
  cl_int ulong(cl_ulong V) { return value<cl_ulong>(V); }
  cl_int sizeT(size_t V) { return value<size_t>(V); }
  cl_int boolean(bool V) { return value<cl_bool>(V ? CL_TRUE : CL_FALSE); }
  cl_int string(const std::string &V) {
    return returnString(V, Size, Value, SizeRet);
  }
  template <typename T> cl_int vector(const std::vector<T> &V) {
    return returnVector(V, Size, Value, SizeRet);
  }
  cl_int nameVersions(const std::vector<cl_name_version> &V) {
    return vector(V);
  }
  cl_int vectorWidth(const cl_uint *Widths, unsigned Index) {
    return uint(Widths[Index]);
  }

  Device &Dev;
  const DeviceDescription &Desc;
  size_t Size;
  void *Value;
  size_t *SizeRet;
};

cl_int DeviceInfoQuery::answer(cl_device_info Param) {
  switch (Param) {
  case CL_DEVICE_TYPE:
    return value<cl_device_type>(Desc.Type);
  case CL_DEVICE_VENDOR_ID:
    return uint(Desc.VendorId);
  case CL_DEVICE_MAX_COMPUTE_UNITS:
    return uint(Desc.MaxComputeUnits);
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
    return uint(3);
  case CL_DEVICE_MAX_WORK_ITEM_SIZES:
    return returnInfo(Desc.MaxWorkItemSizes, sizeof(Desc.MaxWorkItemSizes),
                      Size, Value, SizeRet);
  case CL_DEVICE_MAX_WORK_GROUP_SIZE:
    return sizeT(Desc.MaxWorkGroupSize);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    return vectorWidth(Desc.PreferredVectorWidth, 0);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    return vectorWidth(Desc.PreferredVectorWidth, 1);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    return vectorWidth(Desc.PreferredVectorWidth, 2);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    return vectorWidth(Desc.PreferredVectorWidth, 3);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    return vectorWidth(Desc.PreferredVectorWidth, 4);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    return vectorWidth(Desc.PreferredVectorWidth, 5);
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    return vectorWidth(Desc.PreferredVectorWidth, 6);
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    return vectorWidth(Desc.NativeVectorWidth, 0);
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    return vectorWidth(Desc.NativeVectorWidth, 1);
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
    return vectorWidth(Desc.NativeVectorWidth, 2);
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    return vectorWidth(Desc.NativeVectorWidth, 3);
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
    return vectorWidth(Desc.NativeVectorWidth, 4);
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
    return vectorWidth(Desc.NativeVectorWidth, 5);
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
    return vectorWidth(Desc.NativeVectorWidth, 6);
  case CL_DEVICE_MAX_CLOCK_FREQUENCY:
    return uint(Desc.MaxClockFrequency);
  case CL_DEVICE_ADDRESS_BITS:
    return uint(Desc.AddressBits);
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
    return ulong(Desc.MaxMemAllocSize);
  case CL_DEVICE_GLOBAL_MEM_SIZE:
    return ulong(Desc.GlobalMemSize);
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
    return value<cl_device_mem_cache_type>(CL_READ_WRITE_CACHE);
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
    return uint(Desc.GlobalMemCachelineSize);
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
    return ulong(Desc.GlobalMemCacheSize);
  case CL_DEVICE_LOCAL_MEM_TYPE:
    return value<cl_device_local_mem_type>(CL_GLOBAL);
  case CL_DEVICE_LOCAL_MEM_SIZE:
    return ulong(Desc.LocalMemSize);
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
    return ulong(Desc.MaxConstantBufferSize);
  case CL_DEVICE_MAX_CONSTANT_ARGS:
    return uint(Desc.MaxConstantArgs);
  case CL_DEVICE_MAX_PARAMETER_SIZE:
    return sizeT(Desc.MaxParameterSize);
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
    return uint(Desc.MemBaseAddrAlignBits);
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
    return uint(128);
  case CL_DEVICE_SINGLE_FP_CONFIG:
    return value<cl_device_fp_config>(Desc.SingleFpConfig);
  case CL_DEVICE_DOUBLE_FP_CONFIG:
    return value<cl_device_fp_config>(Desc.DoubleFpConfig);
  case CL_DEVICE_HALF_FP_CONFIG:
    return value<cl_device_fp_config>(Desc.HalfFpConfig);
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
    return boolean(false);
  case CL_DEVICE_HOST_UNIFIED_MEMORY:
    return boolean(Desc.HostUnifiedMemory);
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
    return sizeT(Desc.ProfilingTimerResolution);
  case CL_DEVICE_ENDIAN_LITTLE:
    return boolean(true);
  case CL_DEVICE_AVAILABLE:
  case CL_DEVICE_COMPILER_AVAILABLE:
  case CL_DEVICE_LINKER_AVAILABLE:
    return boolean(true);
  case CL_DEVICE_EXECUTION_CAPABILITIES:
    return value<cl_device_exec_capabilities>(Desc.ExecCapabilities);
  case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
    return value<cl_command_queue_properties>(Desc.QueueProperties);
  case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
    return value<cl_command_queue_properties>(0);
  case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
  case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
  case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
  case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
    return uint(0);
  case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
    return value<cl_device_device_enqueue_capabilities>(0);
  case CL_DEVICE_BUILT_IN_KERNELS:
    return string("");
  case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
    return nameVersions({});
  case CL_DEVICE_ILS_WITH_VERSION:
    return nameVersions(Desc.ILsWithVersion);
  case CL_DEVICE_IL_VERSION:
    return string(Desc.ILVersion);
  case CL_DEVICE_PLATFORM:
    return value<cl_platform_id>(&Dev.platform());
  case CL_DEVICE_NAME:
    return string(Desc.Name);
  case CL_DEVICE_VENDOR:
    return string(Desc.Vendor);
  case CL_DRIVER_VERSION:
    return string(Desc.DriverVersion);
  case CL_DEVICE_PROFILE:
    return string(Desc.Profile);
  case CL_DEVICE_VERSION:
    return string(Desc.Version);
  case CL_DEVICE_NUMERIC_VERSION:
    return value<cl_version>(CL_MAKE_VERSION(3, 0, 0));
  case CL_DEVICE_OPENCL_C_VERSION:
    return string(Desc.OpenCLCVersion);
  case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
    return nameVersions(Desc.OpenCLCAllVersions);
  case CL_DEVICE_OPENCL_C_FEATURES:
    return nameVersions(Desc.OpenCLCFeatures);
  case CL_DEVICE_EXTENSIONS:
    return string(joinNames(Desc.Extensions));
  case CL_DEVICE_EXTENSIONS_WITH_VERSION:
    return nameVersions(Desc.Extensions);
  case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
    // Not submitted for conformance; the spec's format with a zero date.
    return string("v0000-01-01-00");
  case CL_DEVICE_PRINTF_BUFFER_SIZE:
    return sizeT(Desc.PrintfBufferSize);
  case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
    return boolean(true);
  case CL_DEVICE_PARENT_DEVICE:
    return value<cl_device_id>(Dev.parent());
  case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
    return uint(Desc.PartitionMaxSubDevices);
  case CL_DEVICE_PARTITION_PROPERTIES: {
    std::vector<cl_device_partition_property> Props;
    if (Desc.PartitionMaxSubDevices > 1) {
      Props = {CL_DEVICE_PARTITION_EQUALLY, CL_DEVICE_PARTITION_BY_COUNTS};
      if (Desc.AffinityDomains)
        Props.push_back(CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
    } else {
      Props = {0}; // cannot be partitioned
    }
    return vector(Props);
  }
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
    return value<cl_device_affinity_domain>(Desc.AffinityDomains);
  case CL_DEVICE_PARTITION_TYPE:
    return vector(Dev.partitionType());
  case CL_DEVICE_REFERENCE_COUNT:
    return uint(Dev.referenceCount());
  case CL_DEVICE_IMAGE_SUPPORT:
    return boolean(Desc.ImageSupport);
  case CL_DEVICE_MAX_READ_IMAGE_ARGS:
    return uint(Desc.MaxReadImageArgs);
  case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    return uint(Desc.MaxWriteImageArgs);
  case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
    return uint(Desc.MaxReadWriteImageArgs);
  case CL_DEVICE_MAX_SAMPLERS:
    return uint(Desc.MaxSamplers);
  case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
    return uint(Desc.ImagePitchAlignment);
  case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
    return uint(Desc.ImageBaseAddressAlignment);
  case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    return sizeT(Desc.Image2DMaxWidth);
  case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
    return sizeT(Desc.Image2DMaxHeight);
  case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    return sizeT(Desc.Image3DMaxWidth);
  case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    return sizeT(Desc.Image3DMaxHeight);
  case CL_DEVICE_IMAGE3D_MAX_DEPTH:
    return sizeT(Desc.Image3DMaxDepth);
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
    return sizeT(Desc.ImageMaxBufferSize);
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
    return sizeT(Desc.ImageMaxArraySize);
  // Optional OpenCL 2.x/3.0 features Weft does not claim.
  case CL_DEVICE_SVM_CAPABILITIES:
    return value<cl_device_svm_capabilities>(Desc.SvmCapabilities);
  case CL_DEVICE_MAX_PIPE_ARGS:
  case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
  case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    return uint(0);
  case CL_DEVICE_PIPE_SUPPORT:
    return boolean(false);
  case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
    return boolean(hasFeature(Desc, "__opencl_c_generic_address_space"));
  case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
    return boolean(
        hasFeature(Desc, "__opencl_c_work_group_collective_functions"));
  // Sub-groups of weft::SubGroupSize work-items (lib/kernel/subgroups.cl).
  // They do not make independent forward progress: the sub-groups of a
  // group run one after the other on one worker, in work-item loops or as
  // fibers, and one spinning on another's store never lets it run
  // (docs/DESIGN.md, Sub-groups). Hence no cl_khr_subgroups either, which
  // requires that progress.
  case CL_DEVICE_MAX_NUM_SUB_GROUPS:
    return uint(hasFeature(Desc, "__opencl_c_subgroups")
                    ? (Desc.MaxWorkGroupSize + SubGroupSize - 1) / SubGroupSize
                    : 0);
  case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
    return boolean(false);
  case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
    return boolean(Desc.NonUniformWorkGroupSupport);
  case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
  case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
    return sizeT(hasFeature(Desc, "__opencl_c_program_scope_global_variables")
                     ? Desc.Target.MaxGlobalVariableSize
                     : 0);
  case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
    return uint(0);
  case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    return value<cl_device_atomic_capabilities>(Desc.AtomicMemoryCapabilities);
  case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
    return value<cl_device_atomic_capabilities>(Desc.AtomicFenceCapabilities);
  // cl_khr_integer_dot_product (lib/kernel/dot.cl): the inputs its feature
  // macros name; computed in 32-bit vector arithmetic, nothing the
  // extension would call accelerated.
  case CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR:
    return value<cl_device_integer_dot_product_capabilities_khr>(
        (hasFeature(Desc, "__opencl_c_integer_dot_product_input_4x8bit")
             ? CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR
             : 0) |
        (hasFeature(Desc,
                    "__opencl_c_integer_dot_product_input_4x8bit_packed")
             ? CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR
             : 0));
  case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR:
  case CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR:
    return value(cl_device_integer_dot_product_acceleration_properties_khr{
        CL_FALSE, CL_FALSE, CL_FALSE, CL_FALSE, CL_FALSE, CL_FALSE});
  // cl_khr_device_uuid. No LUID (a Windows notion): the LUID and node
  // mask are then undefined; zeros.
  case CL_DEVICE_COMMAND_BUFFER_CAPABILITIES_KHR:
    return value(Desc.CommandBufferCapabilities);
  case CL_DEVICE_COMMAND_BUFFER_REQUIRED_QUEUE_PROPERTIES_KHR:
    return value(Desc.CommandBufferRequiredQueueProperties);
  case CL_DEVICE_UUID_KHR:
    return returnInfo(Desc.DeviceUuid, CL_UUID_SIZE_KHR, Size, Value, SizeRet);
  case CL_DRIVER_UUID_KHR:
    return returnInfo(Desc.DriverUuid, CL_UUID_SIZE_KHR, Size, Value, SizeRet);
  case CL_DEVICE_LUID_VALID_KHR:
    return boolean(false);
  case CL_DEVICE_LUID_KHR: {
    const cl_uchar Luid[CL_LUID_SIZE_KHR] = {};
    return returnInfo(Luid, CL_LUID_SIZE_KHR, Size, Value, SizeRet);
  }
  case CL_DEVICE_NODE_MASK_KHR:
    return uint(0);
  case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return sizeT(Desc.PreferredVectorWidth[4] ? Desc.PreferredVectorWidth[4]
                                              : 1);
  default:
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown cl_device_info");
  }
}

} // namespace
} // namespace weft

using namespace weft;

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id PlatformId,
                                               cl_device_type DeviceType,
                                               cl_uint NumEntries,
                                               cl_device_id *Devices,
                                               cl_uint *NumDevices) {
  Platform *P = PlatformId ? castPlatform(PlatformId) : &Platform::get();
  if (!P)
    return WEFT_ERROR(CL_INVALID_PLATFORM, "not a Weft platform");
  const cl_device_type KnownTypes = CL_DEVICE_TYPE_DEFAULT |
                                    CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                    CL_DEVICE_TYPE_ACCELERATOR |
                                    CL_DEVICE_TYPE_CUSTOM;
  if (DeviceType != CL_DEVICE_TYPE_ALL && (DeviceType & ~KnownTypes))
    return WEFT_ERROR(CL_INVALID_DEVICE_TYPE, "unknown device type bits");
  if ((NumEntries == 0 && Devices) || (!Devices && !NumDevices))
    return WEFT_ERROR(CL_INVALID_VALUE, "no room for the devices");

  std::vector<Device *> Matching;
  for (Device *D : P->devices()) {
    bool IsDefault = D == P->devices().front();
    if (DeviceType == CL_DEVICE_TYPE_ALL ||
        (DeviceType & D->description().Type) ||
        ((DeviceType & CL_DEVICE_TYPE_DEFAULT) && IsDefault))
      Matching.push_back(D);
  }
  if (Matching.empty())
    return WEFT_ERROR(CL_DEVICE_NOT_FOUND, "no device of that type");
  if (Devices)
    for (cl_uint I = 0; I < NumEntries && I < Matching.size(); ++I)
      Devices[I] = Matching[I];
  if (NumDevices)
    *NumDevices = static_cast<cl_uint>(Matching.size());
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id DeviceId,
                                                cl_device_info ParamName,
                                                size_t ParamValueSize,
                                                void *ParamValue,
                                                size_t *ParamValueSizeRet) {
  Device *D = castDevice(DeviceId);
  if (!D)
    return WEFT_ERROR(CL_INVALID_DEVICE, "not a Weft device");
  return DeviceInfoQuery(*D, ParamValueSize, ParamValue, ParamValueSizeRet)
      .answer(ParamName);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id DeviceId) {
  // Root devices live as long as the platform; retains are no-ops.
  Device *D = castDevice(DeviceId);
  if (!D)
    return WEFT_ERROR(CL_INVALID_DEVICE, "bad device");
  D->retain();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id DeviceId) {
  Device *D = castDevice(DeviceId);
  if (!D)
    return WEFT_ERROR(CL_INVALID_DEVICE, "bad device");
  D->release();
  D->platform().collectRetired();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clCreateSubDevices(
    cl_device_id InDevice, const cl_device_partition_property *Properties,
    cl_uint NumDevices, cl_device_id *OutDevices, cl_uint *NumDevicesRet) {
  Device *Parent = castDevice(InDevice);
  if (!Parent)
    return WEFT_ERROR(CL_INVALID_DEVICE, "bad device");
  if (!Properties)
    return WEFT_ERROR(CL_INVALID_VALUE, "no partition properties");
  Parent->platform().collectRetired();
  const DeviceDescription &Desc = Parent->description();
  const cl_uint Units = Desc.MaxComputeUnits;
  if (Desc.PartitionMaxSubDevices < 2)
    return WEFT_ERROR(CL_INVALID_VALUE, "device cannot be partitioned");

  // Each partition: the parent's compute units it gets.
  std::vector<std::vector<unsigned>> Parts;
  std::vector<cl_device_partition_property> Type;
  switch (Properties[0]) {
  case CL_DEVICE_PARTITION_EQUALLY: {
    if (Properties[2] != 0)
      return WEFT_ERROR(CL_INVALID_VALUE, "trailing partition properties");
    cl_device_partition_property Per = Properties[1];
    if (Per <= 0)
      return WEFT_ERROR(CL_INVALID_VALUE, "compute units per sub-device");
    if (static_cast<cl_uint>(Per) > Units)
      return WEFT_ERROR(CL_DEVICE_PARTITION_FAILED,
                        "more compute units per sub-device than the device has");
    for (cl_uint First = 0; First + Per <= Units; First += Per) {
      Parts.emplace_back();
      for (cl_uint U = First; U < First + Per; ++U)
        Parts.back().push_back(U);
    }
    Type = {CL_DEVICE_PARTITION_EQUALLY, Per, 0};
    break;
  }
  case CL_DEVICE_PARTITION_BY_COUNTS: {
    Type = {CL_DEVICE_PARTITION_BY_COUNTS};
    cl_uint Next = 0;
    const cl_device_partition_property *P = Properties + 1;
    for (; *P != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END; ++P) {
      if (*P <= 0)
        return WEFT_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT,
                          "a count is not positive");
      if (static_cast<cl_ulong>(Next) + *P > Units)
        return WEFT_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT,
                          "counts exceed the compute units");
      Parts.emplace_back();
      for (cl_uint U = 0; U < static_cast<cl_uint>(*P); ++U)
        Parts.back().push_back(Next++);
      Type.push_back(*P);
    }
    if (Parts.empty())
      return WEFT_ERROR(CL_INVALID_VALUE, "empty list of counts");
    if (Parts.size() > Desc.PartitionMaxSubDevices)
      return WEFT_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT,
                        "more sub-devices than CL_DEVICE_PARTITION_MAX_SUB_DEVICES");
    if (P[1] != 0)
      return WEFT_ERROR(CL_INVALID_VALUE, "trailing partition properties");
    Type.push_back(CL_DEVICE_PARTITION_BY_COUNTS_LIST_END);
    Type.push_back(0);
    break;
  }
  case CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN: {
    cl_device_affinity_domain Domain = Properties[1];
    if (Properties[2] != 0)
      return WEFT_ERROR(CL_INVALID_VALUE, "trailing partition properties");
    bool OneBit = Domain && !(Domain & (Domain - 1));
    if (!OneBit || !(Domain & Desc.AffinityDomains))
      return WEFT_ERROR(CL_INVALID_VALUE, "unsupported affinity domain");
    if (Domain == CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE) {
      // The first level, outermost first, that splits the device.
      const cl_device_affinity_domain Order[] = {
          CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE,
          CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
          CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE};
      for (cl_device_affinity_domain D : Order) {
        Parts = Parent->driver().affinityGroups(D);
        if (Parts.size() > 1)
          break;
      }
      if (Parts.size() < 2)
        return WEFT_ERROR(CL_DEVICE_PARTITION_FAILED,
                          "no affinity level splits the device");
    } else {
      Parts = Parent->driver().affinityGroups(Domain);
      if (Parts.empty())
        return WEFT_ERROR(CL_DEVICE_PARTITION_FAILED,
                          "no compute units in that affinity domain");
    }
    Type = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
            static_cast<cl_device_partition_property>(Domain), 0};
    break;
  }
  default:
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown partition scheme");
  }
  if (Parts.empty())
    return WEFT_ERROR(CL_DEVICE_PARTITION_FAILED, "no sub-device results");
  if (OutDevices && NumDevices < Parts.size())
    return WEFT_ERROR(CL_INVALID_VALUE, "num_devices below the sub-devices");

  if (OutDevices) {
    std::vector<std::unique_ptr<DeviceDriver>> Drivers;
    for (const std::vector<unsigned> &Part : Parts) {
      Drivers.push_back(Parent->driver().createSubDevice(Part));
      if (!Drivers.back())
        return WEFT_ERROR(CL_DEVICE_PARTITION_FAILED,
                          "the driver could not create a sub-device");
    }
    for (size_t I = 0; I < Parts.size(); ++I)
      OutDevices[I] = new Device(*Parent, std::move(Drivers[I]), Type);
  }
  if (NumDevicesRet)
    *NumDevicesRet = static_cast<cl_uint>(Parts.size());
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceAndHostTimer(
    cl_device_id DeviceId, cl_ulong *DeviceTimestamp, cl_ulong *HostTimestamp) {
  if (!castDevice(DeviceId))
    return WEFT_ERROR(CL_INVALID_DEVICE, "bad device");
  if (!DeviceTimestamp || !HostTimestamp)
    return WEFT_ERROR(CL_INVALID_VALUE, "NULL timestamp");
  // The device clock is the host's monotonic clock.
  *DeviceTimestamp = *HostTimestamp = monotonicNanoseconds();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetHostTimer(cl_device_id DeviceId,
                                               cl_ulong *HostTimestamp) {
  if (!castDevice(DeviceId))
    return WEFT_ERROR(CL_INVALID_DEVICE, "bad device");
  if (!HostTimestamp)
    return WEFT_ERROR(CL_INVALID_VALUE, "NULL timestamp");
  *HostTimestamp = monotonicNanoseconds();
  return CL_SUCCESS;
}

} // extern "C"
