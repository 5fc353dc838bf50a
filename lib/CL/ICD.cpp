//===- ICD.cpp - cl_khr_icd: the dispatch table and extension lookup ------===//
//
// The ICD loader finds this library through a .icd file, calls
// clIcdGetPlatformIDsKHR, and from then on reaches every entry point
// through the dispatch table at the start of each object. Every slot is
// filled: an entry point Weft does not implement yet returns
// CL_INVALID_OPERATION (and sets errcode_ret), never crashes the caller.
//
//===----------------------------------------------------------------------===//

#include "Object.h"

#include <CL/cl_ext.h>

#include <cstring>
#include <type_traits>

namespace weft {
namespace {

inline void setIfErrcode(cl_int *ErrcodeRet) {
  if (ErrcodeRet)
    *ErrcodeRet = CL_INVALID_OPERATION;
}
template <typename T> void setIfErrcode(T) {}

template <typename Fn, const char *Name> struct Unsupported;

template <typename R, typename... A, const char *Name>
struct Unsupported<R(CL_API_CALL *)(A...), Name> {
  static R CL_API_CALL call(A... Args) {
    WEFT_LOG(DebugAPI, "%s is not supported by this version of Weft", Name);
    if constexpr (std::is_same_v<R, cl_int>) {
      return CL_INVALID_OPERATION;
    } else if constexpr (std::is_void_v<R>) {
      return;
    } else {
      (setIfErrcode(Args), ...);
      return R();
    }
  }
};

/// Slots whose prototype the headers hide (Direct3D, DX9 media sharing)
/// are typed void*; they get a function that only reports failure.
cl_int CL_API_CALL unsupportedPlatformSpecific() {
  WEFT_LOG(DebugAPI, "a platform-specific sharing extension was called");
  return CL_INVALID_OPERATION;
}

template <typename Fn, const char *Name> Fn unsupported() {
  if constexpr (std::is_same_v<Fn, void *>)
    return reinterpret_cast<void *>(&unsupportedPlatformSpecific);
  else
    return &Unsupported<Fn, Name>::call;
}

// clang-format off
#define WEFT_DISPATCH_SLOTS \
  WEFT_IMPLEMENTED(clGetPlatformIDs) \
  WEFT_IMPLEMENTED(clGetPlatformInfo) \
  WEFT_IMPLEMENTED(clGetDeviceIDs) \
  WEFT_IMPLEMENTED(clGetDeviceInfo) \
  WEFT_IMPLEMENTED(clCreateContext) \
  WEFT_IMPLEMENTED(clCreateContextFromType) \
  WEFT_IMPLEMENTED(clRetainContext) \
  WEFT_IMPLEMENTED(clReleaseContext) \
  WEFT_IMPLEMENTED(clGetContextInfo) \
  WEFT_IMPLEMENTED(clCreateCommandQueue) \
  WEFT_IMPLEMENTED(clRetainCommandQueue) \
  WEFT_IMPLEMENTED(clReleaseCommandQueue) \
  WEFT_IMPLEMENTED(clGetCommandQueueInfo) \
  WEFT_IMPLEMENTED(clSetCommandQueueProperty) \
  WEFT_IMPLEMENTED(clCreateBuffer) \
  WEFT_IMPLEMENTED(clCreateImage2D) \
  WEFT_IMPLEMENTED(clCreateImage3D) \
  WEFT_IMPLEMENTED(clRetainMemObject) \
  WEFT_IMPLEMENTED(clReleaseMemObject) \
  WEFT_IMPLEMENTED(clGetSupportedImageFormats) \
  WEFT_IMPLEMENTED(clGetMemObjectInfo) \
  WEFT_IMPLEMENTED(clGetImageInfo) \
  WEFT_IMPLEMENTED(clCreateSampler) \
  WEFT_IMPLEMENTED(clRetainSampler) \
  WEFT_IMPLEMENTED(clReleaseSampler) \
  WEFT_IMPLEMENTED(clGetSamplerInfo) \
  WEFT_IMPLEMENTED(clCreateProgramWithSource) \
  WEFT_IMPLEMENTED(clCreateProgramWithBinary) \
  WEFT_IMPLEMENTED(clRetainProgram) \
  WEFT_IMPLEMENTED(clReleaseProgram) \
  WEFT_IMPLEMENTED(clBuildProgram) \
  WEFT_IMPLEMENTED(clUnloadCompiler) \
  WEFT_IMPLEMENTED(clGetProgramInfo) \
  WEFT_IMPLEMENTED(clGetProgramBuildInfo) \
  WEFT_IMPLEMENTED(clCreateKernel) \
  WEFT_IMPLEMENTED(clCreateKernelsInProgram) \
  WEFT_IMPLEMENTED(clRetainKernel) \
  WEFT_IMPLEMENTED(clReleaseKernel) \
  WEFT_IMPLEMENTED(clSetKernelArg) \
  WEFT_IMPLEMENTED(clGetKernelInfo) \
  WEFT_IMPLEMENTED(clGetKernelWorkGroupInfo) \
  WEFT_IMPLEMENTED(clWaitForEvents) \
  WEFT_IMPLEMENTED(clGetEventInfo) \
  WEFT_IMPLEMENTED(clRetainEvent) \
  WEFT_IMPLEMENTED(clReleaseEvent) \
  WEFT_IMPLEMENTED(clGetEventProfilingInfo) \
  WEFT_IMPLEMENTED(clFlush) \
  WEFT_IMPLEMENTED(clFinish) \
  WEFT_IMPLEMENTED(clEnqueueReadBuffer) \
  WEFT_IMPLEMENTED(clEnqueueWriteBuffer) \
  WEFT_IMPLEMENTED(clEnqueueCopyBuffer) \
  WEFT_IMPLEMENTED(clEnqueueReadImage) \
  WEFT_IMPLEMENTED(clEnqueueWriteImage) \
  WEFT_IMPLEMENTED(clEnqueueCopyImage) \
  WEFT_IMPLEMENTED(clEnqueueCopyImageToBuffer) \
  WEFT_IMPLEMENTED(clEnqueueCopyBufferToImage) \
  WEFT_IMPLEMENTED(clEnqueueMapBuffer) \
  WEFT_IMPLEMENTED(clEnqueueMapImage) \
  WEFT_IMPLEMENTED(clEnqueueUnmapMemObject) \
  WEFT_IMPLEMENTED(clEnqueueNDRangeKernel) \
  WEFT_IMPLEMENTED(clEnqueueTask) \
  WEFT_IMPLEMENTED(clEnqueueNativeKernel) \
  WEFT_IMPLEMENTED(clEnqueueMarker) \
  WEFT_IMPLEMENTED(clEnqueueWaitForEvents) \
  WEFT_IMPLEMENTED(clEnqueueBarrier) \
  WEFT_IMPLEMENTED(clGetExtensionFunctionAddress) \
  WEFT_UNSUPPORTED(clCreateFromGLBuffer) \
  WEFT_UNSUPPORTED(clCreateFromGLTexture2D) \
  WEFT_UNSUPPORTED(clCreateFromGLTexture3D) \
  WEFT_UNSUPPORTED(clCreateFromGLRenderbuffer) \
  WEFT_UNSUPPORTED(clGetGLObjectInfo) \
  WEFT_UNSUPPORTED(clGetGLTextureInfo) \
  WEFT_UNSUPPORTED(clEnqueueAcquireGLObjects) \
  WEFT_UNSUPPORTED(clEnqueueReleaseGLObjects) \
  WEFT_UNSUPPORTED(clGetGLContextInfoKHR) \
  WEFT_UNSUPPORTED(clGetDeviceIDsFromD3D10KHR) \
  WEFT_UNSUPPORTED(clCreateFromD3D10BufferKHR) \
  WEFT_UNSUPPORTED(clCreateFromD3D10Texture2DKHR) \
  WEFT_UNSUPPORTED(clCreateFromD3D10Texture3DKHR) \
  WEFT_UNSUPPORTED(clEnqueueAcquireD3D10ObjectsKHR) \
  WEFT_UNSUPPORTED(clEnqueueReleaseD3D10ObjectsKHR) \
  WEFT_IMPLEMENTED(clSetEventCallback) \
  WEFT_IMPLEMENTED(clCreateSubBuffer) \
  WEFT_IMPLEMENTED(clSetMemObjectDestructorCallback) \
  WEFT_IMPLEMENTED(clCreateUserEvent) \
  WEFT_IMPLEMENTED(clSetUserEventStatus) \
  WEFT_IMPLEMENTED(clEnqueueReadBufferRect) \
  WEFT_IMPLEMENTED(clEnqueueWriteBufferRect) \
  WEFT_IMPLEMENTED(clEnqueueCopyBufferRect) \
  WEFT_UNSUPPORTED(clCreateSubDevicesEXT) \
  WEFT_UNSUPPORTED(clRetainDeviceEXT) \
  WEFT_UNSUPPORTED(clReleaseDeviceEXT) \
  WEFT_UNSUPPORTED(clCreateEventFromGLsyncKHR) \
  WEFT_IMPLEMENTED(clCreateSubDevices) \
  WEFT_IMPLEMENTED(clRetainDevice) \
  WEFT_IMPLEMENTED(clReleaseDevice) \
  WEFT_IMPLEMENTED(clCreateImage) \
  WEFT_UNSUPPORTED(clCreateProgramWithBuiltInKernels) \
  WEFT_IMPLEMENTED(clCompileProgram) \
  WEFT_IMPLEMENTED(clLinkProgram) \
  WEFT_IMPLEMENTED(clUnloadPlatformCompiler) \
  WEFT_IMPLEMENTED(clGetKernelArgInfo) \
  WEFT_IMPLEMENTED(clEnqueueFillBuffer) \
  WEFT_IMPLEMENTED(clEnqueueFillImage) \
  WEFT_IMPLEMENTED(clEnqueueMigrateMemObjects) \
  WEFT_IMPLEMENTED(clEnqueueMarkerWithWaitList) \
  WEFT_IMPLEMENTED(clEnqueueBarrierWithWaitList) \
  WEFT_IMPLEMENTED(clGetExtensionFunctionAddressForPlatform) \
  WEFT_UNSUPPORTED(clCreateFromGLTexture) \
  WEFT_UNSUPPORTED(clGetDeviceIDsFromD3D11KHR) \
  WEFT_UNSUPPORTED(clCreateFromD3D11BufferKHR) \
  WEFT_UNSUPPORTED(clCreateFromD3D11Texture2DKHR) \
  WEFT_UNSUPPORTED(clCreateFromD3D11Texture3DKHR) \
  WEFT_UNSUPPORTED(clCreateFromDX9MediaSurfaceKHR) \
  WEFT_UNSUPPORTED(clEnqueueAcquireD3D11ObjectsKHR) \
  WEFT_UNSUPPORTED(clEnqueueReleaseD3D11ObjectsKHR) \
  WEFT_UNSUPPORTED(clGetDeviceIDsFromDX9MediaAdapterKHR) \
  WEFT_UNSUPPORTED(clEnqueueAcquireDX9MediaSurfacesKHR) \
  WEFT_UNSUPPORTED(clEnqueueReleaseDX9MediaSurfacesKHR) \
  WEFT_UNSUPPORTED(clCreateFromEGLImageKHR) \
  WEFT_UNSUPPORTED(clEnqueueAcquireEGLObjectsKHR) \
  WEFT_UNSUPPORTED(clEnqueueReleaseEGLObjectsKHR) \
  WEFT_UNSUPPORTED(clCreateEventFromEGLSyncKHR) \
  WEFT_IMPLEMENTED(clCreateCommandQueueWithProperties) \
  WEFT_IMPLEMENTED(clCreatePipe) \
  WEFT_IMPLEMENTED(clGetPipeInfo) \
  WEFT_IMPLEMENTED(clSVMAlloc) \
  WEFT_IMPLEMENTED(clSVMFree) \
  WEFT_IMPLEMENTED(clEnqueueSVMFree) \
  WEFT_IMPLEMENTED(clEnqueueSVMMemcpy) \
  WEFT_IMPLEMENTED(clEnqueueSVMMemFill) \
  WEFT_IMPLEMENTED(clEnqueueSVMMap) \
  WEFT_IMPLEMENTED(clEnqueueSVMUnmap) \
  WEFT_IMPLEMENTED(clCreateSamplerWithProperties) \
  WEFT_IMPLEMENTED(clSetKernelArgSVMPointer) \
  WEFT_IMPLEMENTED(clSetKernelExecInfo) \
  WEFT_CORE_ALIAS(clGetKernelSubGroupInfoKHR, clGetKernelSubGroupInfo) \
  WEFT_IMPLEMENTED(clCloneKernel) \
  WEFT_IMPLEMENTED(clCreateProgramWithIL) \
  WEFT_IMPLEMENTED(clEnqueueSVMMigrateMem) \
  WEFT_IMPLEMENTED(clGetDeviceAndHostTimer) \
  WEFT_IMPLEMENTED(clGetHostTimer) \
  WEFT_IMPLEMENTED(clGetKernelSubGroupInfo) \
  WEFT_UNSUPPORTED(clSetDefaultDeviceCommandQueue) \
  WEFT_UNSUPPORTED(clSetProgramReleaseCallback) \
  WEFT_IMPLEMENTED(clSetProgramSpecializationConstant) \
  WEFT_IMPLEMENTED(clCreateBufferWithProperties) \
  WEFT_IMPLEMENTED(clCreateImageWithProperties) \
  WEFT_IMPLEMENTED(clSetContextDestructorCallback)
// clang-format on

#define WEFT_UNSUPPORTED(F) constexpr char Name_##F[] = #F;
#define WEFT_IMPLEMENTED(F)
#define WEFT_CORE_ALIAS(F, Core)
WEFT_DISPATCH_SLOTS
#undef WEFT_UNSUPPORTED
#undef WEFT_IMPLEMENTED
#undef WEFT_CORE_ALIAS

cl_icd_dispatch makeDispatchTable() {
  cl_icd_dispatch Table;
  memset(&Table, 0, sizeof(Table));
#define WEFT_IMPLEMENTED(F) Table.F = &::F;
#define WEFT_UNSUPPORTED(F) Table.F = unsupported<cl_api_##F, Name_##F>();
  // An extension's entry point that became core: the core function.
#define WEFT_CORE_ALIAS(F, Core) Table.F = &::Core;
  WEFT_DISPATCH_SLOTS
#undef WEFT_UNSUPPORTED
#undef WEFT_IMPLEMENTED
#undef WEFT_CORE_ALIAS
  return Table;
}

} // namespace

const cl_icd_dispatch DispatchTable = makeDispatchTable();

} // namespace weft

using namespace weft;

extern "C" {

WEFT_EXPORT CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddress(const char *FuncName) {
  if (!FuncName)
    return nullptr;
  if (strcmp(FuncName, "clIcdGetPlatformIDsKHR") == 0)
    return reinterpret_cast<void *>(&clIcdGetPlatformIDsKHR);
  // cl_khr_suggested_local_work_size's (lib/CL/Kernel.cpp).
  if (strcmp(FuncName, "clGetKernelSuggestedLocalWorkSizeKHR") == 0)
    return reinterpret_cast<void *>(&clGetKernelSuggestedLocalWorkSizeKHR);
  // cl_khr_command_buffer's (lib/CL/CommandBuffer.cpp).
#define WEFT_COMMAND_BUFFER_ENTRY(F)                                           \
  if (strcmp(FuncName, #F) == 0)                                               \
    return reinterpret_cast<void *>(&F);
  WEFT_COMMAND_BUFFER_ENTRY(clCreateCommandBufferKHR)
  WEFT_COMMAND_BUFFER_ENTRY(clRetainCommandBufferKHR)
  WEFT_COMMAND_BUFFER_ENTRY(clReleaseCommandBufferKHR)
  WEFT_COMMAND_BUFFER_ENTRY(clFinalizeCommandBufferKHR)
  WEFT_COMMAND_BUFFER_ENTRY(clEnqueueCommandBufferKHR)
  WEFT_COMMAND_BUFFER_ENTRY(clGetCommandBufferInfoKHR)
  WEFT_COMMAND_BUFFER_ENTRY(clCommandBarrierWithWaitListKHR)
  WEFT_COMMAND_BUFFER_ENTRY(clCommandCopyBufferKHR)
  WEFT_COMMAND_BUFFER_ENTRY(clCommandCopyBufferRectKHR)
  WEFT_COMMAND_BUFFER_ENTRY(clCommandFillBufferKHR)
  WEFT_COMMAND_BUFFER_ENTRY(clCommandCopyImageKHR)
  WEFT_COMMAND_BUFFER_ENTRY(clCommandFillImageKHR)
  WEFT_COMMAND_BUFFER_ENTRY(clCommandCopyImageToBufferKHR)
  WEFT_COMMAND_BUFFER_ENTRY(clCommandCopyBufferToImageKHR)
  WEFT_COMMAND_BUFFER_ENTRY(clCommandNDRangeKernelKHR)
#undef WEFT_COMMAND_BUFFER_ENTRY
  // cl_khr_il_program's entry point: the core function under its name.
  if (strcmp(FuncName, "clCreateProgramWithILKHR") == 0)
    return reinterpret_cast<void *>(&clCreateProgramWithIL);
  // cl_khr_subgroups's, likewise.
  if (strcmp(FuncName, "clGetKernelSubGroupInfoKHR") == 0)
    return reinterpret_cast<void *>(&clGetKernelSubGroupInfo);
  return nullptr;
}

WEFT_EXPORT CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(
    cl_platform_id, const char *FuncName) {
  return clGetExtensionFunctionAddress(FuncName);
}

} // extern "C"
