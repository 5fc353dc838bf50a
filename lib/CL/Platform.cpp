//===- Platform.cpp - clGetPlatformIDs, clGetPlatformInfo -----------------===//

#include "Platform.h"

#include <CL/cl_ext.h>

#include <cstdlib>
#include <sstream>

namespace weft {

std::string joinNames(const std::vector<cl_name_version> &List) {
  std::string Result;
  for (const cl_name_version &Entry : List) {
    if (!Result.empty())
      Result += ' ';
    Result += Entry.name;
  }
  return Result;
}

cl_name_version nameVersion(const char *Name, cl_version Version) {
  cl_name_version Entry{};
  Entry.version = Version;
  snprintf(Entry.name, sizeof(Entry.name), "%s", Name);
  return Entry;
}

Device::Device(Platform &P, std::unique_ptr<DeviceDriver> D)
    : _cl_device_id(ObjectKind::Device), ThePlatform(P), Driver(std::move(D)) {}

Device::Device(Device &P, std::unique_ptr<DeviceDriver> D,
               std::vector<cl_device_partition_property> Type)
    : _cl_device_id(ObjectKind::Device), ThePlatform(P.ThePlatform),
      Driver(std::move(D)), Parent(&P), PartitionType(std::move(Type)) {
  Parent->retainInternal();
}

Device::~Device() {
  Driver.reset(); // joins the sub-device's threads
  if (Parent)
    Parent->releaseInternal();
}

void Device::retain() {
  if (!Parent)
    return;
  ExternalRefs.fetch_add(1);
  TotalRefs.fetch_add(1);
}

void Device::release() {
  if (!Parent)
    return;
  ExternalRefs.fetch_sub(1);
  releaseInternal();
}

void Device::retainInternal() {
  if (Parent)
    TotalRefs.fetch_add(1);
}

void Device::releaseInternal() {
  if (Parent && TotalRefs.fetch_sub(1) == 1) {
    Kind = ObjectKind::Dead;
    ThePlatform.retire(this);
  }
}

void Platform::retire(Device *D) {
  std::lock_guard<std::mutex> Guard(RetiredLock);
  Retired.push_back(D);
}

void Platform::collectRetired() {
  std::vector<Device *> Doomed;
  {
    std::lock_guard<std::mutex> Guard(RetiredLock);
    Doomed.swap(Retired);
  }
  for (Device *D : Doomed)
    delete D;
}

static std::vector<std::string> requestedDriverNames() {
  std::vector<std::string> Names;
  const char *Spec = getenv("WEFT_DEVICES");
  if (!Spec || !*Spec) {
    for (const DriverRegistration &R : registeredDrivers())
      if (R.ByDefault)
        Names.push_back(R.Name);
    return Names;
  }
  std::stringstream Stream(Spec);
  std::string Name;
  while (std::getline(Stream, Name, ','))
    if (!Name.empty())
      Names.push_back(Name);
  return Names;
}

Platform::Platform() : _cl_platform_id(ObjectKind::Platform) {
  for (const std::string &Name : requestedDriverNames()) {
    const DriverRegistration *Found = nullptr;
    for (const DriverRegistration &R : registeredDrivers())
      if (Name == R.Name)
        Found = &R;
    if (!Found) {
      WEFT_LOG(DebugDevice, "WEFT_DEVICES names unknown driver '%s'",
               Name.c_str());
      continue;
    }
    std::unique_ptr<DeviceDriver> Driver = Found->Create();
    if (!Driver) {
      WEFT_LOG(DebugDevice, "driver '%s' found no device", Name.c_str());
      continue;
    }
    WEFT_LOG(DebugDevice, "device %zu: %s", Devices.size(),
             Driver->description().Name.c_str());
    Devices.push_back(new Device(*this, std::move(Driver)));
  }
}

Platform &Platform::get() {
  // Never destroyed: applications may call into the library from their own
  // static destructors.
  static Platform *Instance = new Platform();
  return *Instance;
}

std::string Platform::version() const {
  return std::string("OpenCL 3.0 Weft ") + WEFT_VERSION_STRING;
}

std::vector<cl_name_version> Platform::extensions() const {
  return {nameVersion("cl_khr_icd", CL_MAKE_VERSION(1, 0, 0))};
}

Platform *castPlatform(cl_platform_id P) {
  if (!P || P->Kind != ObjectKind::Platform)
    return nullptr;
  return static_cast<Platform *>(P);
}

Device *castDevice(cl_device_id D) {
  if (!D || D->Kind != ObjectKind::Device)
    return nullptr;
  Device *Dev = static_cast<Device *>(D);
  return Dev->isAlive() ? Dev : nullptr;
}

} // namespace weft

using namespace weft;

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint NumEntries,
                                                 cl_platform_id *Platforms,
                                                 cl_uint *NumPlatforms) {
  if ((NumEntries == 0 && Platforms) || (!Platforms && !NumPlatforms))
    return WEFT_ERROR(CL_INVALID_VALUE, "no room for the platforms");
  if (Platforms)
    Platforms[0] = &Platform::get();
  if (NumPlatforms)
    *NumPlatforms = 1;
  return CL_SUCCESS;
}

WEFT_EXPORT CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(
    cl_uint NumEntries, cl_platform_id *Platforms, cl_uint *NumPlatforms) {
  return clGetPlatformIDs(NumEntries, Platforms, NumPlatforms);
}

WEFT_EXPORT CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id PlatformId,
                                                  cl_platform_info ParamName,
                                                  size_t ParamValueSize,
                                                  void *ParamValue,
                                                  size_t *ParamValueSizeRet) {
  // A NULL platform selects the only one (implementation-defined per spec).
  Platform *P = PlatformId ? castPlatform(PlatformId) : &Platform::get();
  if (!P)
    return WEFT_ERROR(CL_INVALID_PLATFORM, "not a Weft platform");
  switch (ParamName) {
  case CL_PLATFORM_PROFILE:
    return returnString("FULL_PROFILE", ParamValueSize, ParamValue,
                        ParamValueSizeRet);
  case CL_PLATFORM_VERSION:
    return returnString(P->version(), ParamValueSize, ParamValue,
                        ParamValueSizeRet);
  case CL_PLATFORM_NUMERIC_VERSION:
    return returnValue<cl_version>(CL_MAKE_VERSION(3, 0, 0), ParamValueSize,
                                   ParamValue, ParamValueSizeRet);
  case CL_PLATFORM_NAME:
    return returnString(Platform::Name, ParamValueSize, ParamValue,
                        ParamValueSizeRet);
  case CL_PLATFORM_VENDOR:
    return returnString(Platform::Vendor, ParamValueSize, ParamValue,
                        ParamValueSizeRet);
  case CL_PLATFORM_EXTENSIONS:
    return returnString(joinNames(P->extensions()), ParamValueSize,
                        ParamValue, ParamValueSizeRet);
  case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
    return returnVector(P->extensions(), ParamValueSize, ParamValue,
                        ParamValueSizeRet);
  case CL_PLATFORM_HOST_TIMER_RESOLUTION:
    return returnValue<cl_ulong>(1, ParamValueSize, ParamValue,
                                 ParamValueSizeRet);
  case CL_PLATFORM_ICD_SUFFIX_KHR:
    return returnString(Platform::IcdSuffix, ParamValueSize, ParamValue,
                        ParamValueSizeRet);
  default:
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown cl_platform_info");
  }
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id P) {
  if (!castPlatform(P))
    return WEFT_ERROR(CL_INVALID_PLATFORM, "not a Weft platform");
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }

} // extern "C"
