//===- Object.h - The header every ICD object carries ---------------------===//
//
// cl_khr_icd requires every object handed to an application to begin with a
// pointer to the vendor's dispatch table: the ICD loader reads it to route a
// call to the implementation that made the object. The _cl_* structs below
// are the application-visible handles; each runtime class derives from its
// handle struct without virtual functions, so the dispatch pointer stays at
// offset 0.
//
// Reference counting follows the specification: the count an application
// sees (and retains/releases) is separate from the references the runtime
// holds internally (a queue holds its context, an event its queue), so a
// handle becomes invalid when the application's count reaches zero, while
// the object lives on until the runtime is done with it.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_CL_OBJECT_H
#define WEFT_LIB_CL_OBJECT_H

#include "weft/debug.h"

#include <CL/cl_icd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

/// The few entry points the ICD loader looks up by name; everything else is
/// reached through the dispatch table and stays hidden.
#define WEFT_EXPORT __attribute__((visibility("default")))

namespace weft {

extern const cl_icd_dispatch DispatchTable;

/// A tag per object family, so that a handle of one family passed where
/// another is expected is reported as invalid rather than misused.
enum class ObjectKind : uint32_t {
  Platform = 0x57504c54,
  Device = 0x57444556,
  Context = 0x57435458,
  CommandQueue = 0x57515545,
  MemObject = 0x574d454d,
  Program = 0x57505247,
  Kernel = 0x574b524e,
  Event = 0x57455654,
  Sampler = 0x5753414d,
  CommandBuffer = 0x57434d42,
  Dead = 0xdeadbeef,
};

struct ICDObject {
  const cl_icd_dispatch *Dispatch = &DispatchTable;
  ObjectKind Kind;
  explicit ICDObject(ObjectKind K) : Kind(K) {}
};

} // namespace weft

struct _cl_platform_id : weft::ICDObject {
  using ICDObject::ICDObject;
};
struct _cl_device_id : weft::ICDObject {
  using ICDObject::ICDObject;
};
struct _cl_context : weft::ICDObject {
  using ICDObject::ICDObject;
};
struct _cl_command_queue : weft::ICDObject {
  using ICDObject::ICDObject;
};
struct _cl_mem : weft::ICDObject {
  using ICDObject::ICDObject;
};
struct _cl_program : weft::ICDObject {
  using ICDObject::ICDObject;
};
struct _cl_kernel : weft::ICDObject {
  using ICDObject::ICDObject;
};
struct _cl_event : weft::ICDObject {
  using ICDObject::ICDObject;
};
struct _cl_sampler : weft::ICDObject {
  using ICDObject::ICDObject;
};

namespace weft {

/// Reference counts of a runtime object. Derived classes pass themselves as
/// Derived so that the last release deletes the right type without a
/// virtual destructor.
template <typename Derived> class RefCounted {
public:
  /// The application's retain.
  void retain() {
    ExternalRefs.fetch_add(1, std::memory_order_relaxed);
    TotalRefs.fetch_add(1, std::memory_order_relaxed);
  }
  /// The application's release; the handle is invalid once this reaches 0.
  void release() {
    if (ExternalRefs.fetch_sub(1, std::memory_order_acq_rel) == 1)
      static_cast<Derived *>(this)->lastExternalRelease();
    releaseInternal();
  }
  void retainInternal() { TotalRefs.fetch_add(1, std::memory_order_relaxed); }
  void releaseInternal() {
    if (TotalRefs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      Derived *Self = static_cast<Derived *>(this);
      Self->Kind = ObjectKind::Dead;
      Self->destroy();
    }
  }
  /// A reference taken from a weak one (MemObject's kernel argument
  /// slots): fails once the last reference has gone, however many weak
  /// ones remain.
  bool tryRetainInternal() {
    cl_uint N = TotalRefs.load(std::memory_order_relaxed);
    while (N != 0)
      if (TotalRefs.compare_exchange_weak(N, N + 1, std::memory_order_acquire,
                                          std::memory_order_relaxed))
        return true;
    return false;
  }
  cl_uint referenceCount() const {
    return ExternalRefs.load(std::memory_order_relaxed);
  }
  bool isAlive() const {
    return ExternalRefs.load(std::memory_order_relaxed) > 0;
  }
  /// Hook for work due when the application lets go (e.g. a queue
  /// flushing). Derived classes may hide it.
  void lastExternalRelease() {}
  /// Runs when the last reference goes. Derived classes that outlive their
  /// references in memory (weak references) hide it.
  void destroy() { delete static_cast<Derived *>(this); }

private:
  std::atomic<cl_uint> ExternalRefs{1};
  std::atomic<cl_uint> TotalRefs{1};
};

/// A handle is valid when it is non-null, of the expected family and still
/// held by the application.
template <typename T, ObjectKind K, typename Handle>
T *castHandle(Handle H) {
  if (!H || H->Kind != K)
    return nullptr;
  T *Object = static_cast<T *>(H);
  if (!Object->isAlive())
    return nullptr;
  return Object;
}

/// The clGet*Info protocol: copy Size bytes of Value into ParamValue when
/// it is big enough, report the size through ParamValueSizeRet.
inline cl_int returnInfo(const void *Value, size_t Size, size_t ParamValueSize,
                         void *ParamValue, size_t *ParamValueSizeRet) {
  if (ParamValue) {
    if (ParamValueSize < Size)
      return CL_INVALID_VALUE;
    if (Size)
      memcpy(ParamValue, Value, Size);
  }
  if (ParamValueSizeRet)
    *ParamValueSizeRet = Size;
  return CL_SUCCESS;
}

template <typename T>
cl_int returnValue(const T &Value, size_t ParamValueSize, void *ParamValue,
                   size_t *ParamValueSizeRet) {
  return returnInfo(&Value, sizeof(T), ParamValueSize, ParamValue,
                    ParamValueSizeRet);
}

inline cl_int returnString(const std::string &Value, size_t ParamValueSize,
                           void *ParamValue, size_t *ParamValueSizeRet) {
  return returnInfo(Value.c_str(), Value.size() + 1, ParamValueSize,
                    ParamValue, ParamValueSizeRet);
}

template <typename T>
cl_int returnVector(const std::vector<T> &Value, size_t ParamValueSize,
                    void *ParamValue, size_t *ParamValueSizeRet) {
  return returnInfo(Value.data(), Value.size() * sizeof(T), ParamValueSize,
                    ParamValue, ParamValueSizeRet);
}

inline void setError(cl_int *ErrcodeRet, cl_int Code) {
  if (ErrcodeRet)
    *ErrcodeRet = Code;
}

/// Logs why a call was rejected (WEFT_DEBUG=api) and returns Code.
inline cl_int apiError(const char *Function, cl_int Code, const char *Why) {
  WEFT_LOG(DebugAPI, "%s: %s (error %d)", Function, Why, Code);
  return Code;
}
#define WEFT_ERROR(Code, Why) ::weft::apiError(__func__, (Code), (Why))

class Context;

/// Validates an event wait list per the specification.
cl_int validateWaitList(cl_uint NumEvents, const cl_event *EventList,
                        Context *Ctx);

} // namespace weft

#endif // WEFT_LIB_CL_OBJECT_H
