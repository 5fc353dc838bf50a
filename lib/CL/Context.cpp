//===- Context.cpp - clCreateContext and friends ---------------------------===//

#include "Context.h"
#include "HostMemory.h"

#include <algorithm>
#include <cstdlib>

namespace weft {

Context::Context(std::vector<Device *> Devs,
                 std::vector<cl_context_properties> Props, NotifyFn Fn,
                 void *Data)
    : _cl_context(ObjectKind::Context), Devices(std::move(Devs)),
      Properties(std::move(Props)), Notify(Fn), NotifyData(Data) {
  for (Device *D : Devices) {
    D->retainInternal();
    OwnMemoryDevices |= !D->driver().sharesHostMemory();
  }
  // With one device, nothing but the application reads the host copy, and
  // maps and reads fetch what they need; with several, a device that
  // shares host memory reads it directly, and another device with its own
  // memory fetches from it.
  KeepsHostCopyCurrent = !OwnMemoryDevices || Devices.size() > 1;
}

Context::~Context() {
  // Most recently registered first, as the specification requires.
  for (auto It = DestructorCallbacks.rbegin(); It != DestructorCallbacks.rend();
       ++It)
    It->first(this, It->second);
  // SVM the application did not free dies with its context.
  for (auto &Entry : Svm)
    freeHostMemory(reinterpret_cast<void *>(Entry.first));
  for (Device *D : Devices)
    D->releaseInternal();
}

void Context::addSvm(void *Base, SvmAllocation A) {
  std::lock_guard<std::mutex> Guard(SvmLock);
  Svm[reinterpret_cast<uintptr_t>(Base)] = A;
}

bool Context::removeSvm(void *Base) {
  std::lock_guard<std::mutex> Guard(SvmLock);
  return Svm.erase(reinterpret_cast<uintptr_t>(Base)) != 0;
}

bool Context::isSvmPointer(const void *Ptr) const {
  uintptr_t P = reinterpret_cast<uintptr_t>(Ptr);
  std::lock_guard<std::mutex> Guard(SvmLock);
  auto It = Svm.upper_bound(P);
  if (It == Svm.begin())
    return false;
  --It;
  return P < It->first + It->second.Size;
}

bool Context::hasDevice(const Device *D) const {
  return std::find(Devices.begin(), Devices.end(), D) != Devices.end();
}

void Context::notify(const char *Message) const {
  WEFT_LOG(DebugAPI, "context error: %s", Message);
  if (Notify)
    Notify(Message, nullptr, 0, NotifyData);
}

void Context::addDestructorCallback(DestructorFn Fn, void *UserData) {
  std::lock_guard<std::mutex> Guard(Lock);
  DestructorCallbacks.emplace_back(Fn, UserData);
}

/// Checks a context property list; copies it, terminator included, into Out.
static cl_int parseContextProperties(const cl_context_properties *Properties,
                                     std::vector<cl_context_properties> &Out) {
  if (!Properties)
    return CL_SUCCESS;
  bool SeenPlatform = false, SeenSync = false;
  for (const cl_context_properties *P = Properties; *P; P += 2) {
    switch (P[0]) {
    case CL_CONTEXT_PLATFORM:
      if (SeenPlatform)
        return WEFT_ERROR(CL_INVALID_PROPERTY, "CL_CONTEXT_PLATFORM twice");
      SeenPlatform = true;
      if (!castPlatform(reinterpret_cast<cl_platform_id>(P[1])))
        return WEFT_ERROR(CL_INVALID_PLATFORM, "bad CL_CONTEXT_PLATFORM");
      break;
    case CL_CONTEXT_INTEROP_USER_SYNC:
      if (SeenSync)
        return WEFT_ERROR(CL_INVALID_PROPERTY, "property given twice");
      SeenSync = true;
      break;
    default:
      return WEFT_ERROR(CL_INVALID_PROPERTY, "unknown context property");
    }
    Out.push_back(P[0]);
    Out.push_back(P[1]);
  }
  Out.push_back(0);
  return CL_SUCCESS;
}

} // namespace weft

using namespace weft;

extern "C" {

CL_API_ENTRY cl_context CL_API_CALL clCreateContext(
    const cl_context_properties *Properties, cl_uint NumDevices,
    const cl_device_id *DeviceList, Context::NotifyFn Notify, void *UserData,
    cl_int *ErrcodeRet) {
  std::vector<cl_context_properties> Props;
  cl_int Err = parseContextProperties(Properties, Props);
  if (Err == CL_SUCCESS && (NumDevices == 0 || !DeviceList))
    Err = WEFT_ERROR(CL_INVALID_VALUE, "no devices given");
  if (Err == CL_SUCCESS && !Notify && UserData)
    Err = WEFT_ERROR(CL_INVALID_VALUE, "user_data without pfn_notify");
  std::vector<Device *> Devices;
  for (cl_uint I = 0; Err == CL_SUCCESS && I < NumDevices; ++I) {
    Device *D = castDevice(DeviceList[I]);
    if (!D)
      Err = WEFT_ERROR(CL_INVALID_DEVICE, "bad device in the list");
    else if (std::find(Devices.begin(), Devices.end(), D) == Devices.end())
      Devices.push_back(D);
  }
  if (Err != CL_SUCCESS) {
    setError(ErrcodeRet, Err);
    return nullptr;
  }
  setError(ErrcodeRet, CL_SUCCESS);
  return new Context(std::move(Devices), std::move(Props), Notify, UserData);
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContextFromType(
    const cl_context_properties *Properties, cl_device_type DeviceType,
    Context::NotifyFn Notify, void *UserData, cl_int *ErrcodeRet) {
  std::vector<cl_context_properties> Props;
  cl_int Err = parseContextProperties(Properties, Props);
  if (Err == CL_SUCCESS && !Notify && UserData)
    Err = WEFT_ERROR(CL_INVALID_VALUE, "user_data without pfn_notify");
  cl_uint Count = 0;
  if (Err == CL_SUCCESS)
    Err = clGetDeviceIDs(nullptr, DeviceType, 0, nullptr, &Count);
  std::vector<cl_device_id> Ids(Count);
  if (Err == CL_SUCCESS)
    Err = clGetDeviceIDs(nullptr, DeviceType, Count, Ids.data(), nullptr);
  if (Err != CL_SUCCESS) {
    setError(ErrcodeRet, Err);
    return nullptr;
  }
  std::vector<Device *> Devices;
  for (cl_device_id Id : Ids)
    Devices.push_back(castDevice(Id));
  setError(ErrcodeRet, CL_SUCCESS);
  return new Context(std::move(Devices), std::move(Props), Notify, UserData);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context C) {
  Context *Ctx = castContext(C);
  if (!Ctx)
    return WEFT_ERROR(CL_INVALID_CONTEXT, "bad context");
  Ctx->retain();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context C) {
  Context *Ctx = castContext(C);
  if (!Ctx)
    return WEFT_ERROR(CL_INVALID_CONTEXT, "bad context");
  Ctx->release();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetContextInfo(cl_context C,
                                                 cl_context_info ParamName,
                                                 size_t ParamValueSize,
                                                 void *ParamValue,
                                                 size_t *ParamValueSizeRet) {
  Context *Ctx = castContext(C);
  if (!Ctx)
    return WEFT_ERROR(CL_INVALID_CONTEXT, "bad context");
  switch (ParamName) {
  case CL_CONTEXT_REFERENCE_COUNT:
    return returnValue<cl_uint>(Ctx->referenceCount(), ParamValueSize,
                                ParamValue, ParamValueSizeRet);
  case CL_CONTEXT_NUM_DEVICES:
    return returnValue<cl_uint>(static_cast<cl_uint>(Ctx->devices().size()),
                                ParamValueSize, ParamValue, ParamValueSizeRet);
  case CL_CONTEXT_DEVICES: {
    std::vector<cl_device_id> Ids(Ctx->devices().begin(),
                                  Ctx->devices().end());
    return returnVector(Ids, ParamValueSize, ParamValue, ParamValueSizeRet);
  }
  case CL_CONTEXT_PROPERTIES:
    return returnVector(Ctx->properties(), ParamValueSize, ParamValue,
                        ParamValueSizeRet);
  default:
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown cl_context_info");
  }
}

CL_API_ENTRY cl_int CL_API_CALL clSetContextDestructorCallback(
    cl_context C, Context::DestructorFn Fn, void *UserData) {
  Context *Ctx = castContext(C);
  if (!Ctx)
    return WEFT_ERROR(CL_INVALID_CONTEXT, "bad context");
  if (!Fn)
    return WEFT_ERROR(CL_INVALID_VALUE, "NULL callback");
  Ctx->addDestructorCallback(Fn, UserData);
  return CL_SUCCESS;
}

} // extern "C"
