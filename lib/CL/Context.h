//===- Context.h - cl_context ----------------------------------------------===//
#ifndef WEFT_LIB_CL_CONTEXT_H
#define WEFT_LIB_CL_CONTEXT_H

#include "Object.h"
#include "Platform.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace weft {

class Context : public _cl_context, public RefCounted<Context> {
public:
  using NotifyFn = void(CL_CALLBACK *)(const char *, const void *, size_t,
                                       void *);
  using DestructorFn = void(CL_CALLBACK *)(cl_context, void *);

  Context(std::vector<Device *> Devices,
          std::vector<cl_context_properties> Properties, NotifyFn Notify,
          void *NotifyData);
  ~Context();

  const std::vector<Device *> &devices() const { return Devices; }
  bool hasDevice(const Device *D) const;
  /// Whether a device of the context has memory of its own
  /// (DeviceDriver::sharesHostMemory false): its buffers then keep a copy
  /// on each such device (MemObject.h). The one test the paths of
  /// host-sharing devices pay.
  bool hasOwnMemoryDevice() const { return OwnMemoryDevices; }
  /// Whether the host copy of every buffer is kept current after each
  /// command (a device's writes copied back): in every context but one
  /// made of a single device with memory of its own.
  bool keepsHostCopyCurrent() const { return KeepsHostCopyCurrent; }
  const std::vector<cl_context_properties> &properties() const {
    return Properties;
  }
  /// Held from the moment a command takes its place in a queue until its
  /// buffer uses are tracked (CommandQueue::beginCommand to finishEnqueue),
  /// in contexts with an own-memory device only: the copies' bookkeeping
  /// (trackBufferUsesSlow) must see commands in queue order, or a command
  /// could wait for the fetch of one queued after it, which waits for it.
  std::mutex &enqueueOrderLock() { return EnqueueOrder; }
  /// Reports an error to the application's callback, if any.
  void notify(const char *Message) const;
  void addDestructorCallback(DestructorFn Fn, void *UserData);

  /// Shared virtual memory allocated in this context (clSVMAlloc).
  struct SvmAllocation {
    size_t Size;
    cl_svm_mem_flags Flags;
  };
  void addSvm(void *Base, SvmAllocation A);
  /// Forgets the allocation at Base; false if there is none.
  bool removeSvm(void *Base);
  /// Whether Ptr points into an SVM allocation of this context.
  bool isSvmPointer(const void *Ptr) const;

private:
  std::vector<Device *> Devices;
  bool OwnMemoryDevices = false;
  bool KeepsHostCopyCurrent = true;
  std::vector<cl_context_properties> Properties;
  NotifyFn Notify;
  void *NotifyData;
  std::mutex Lock;
  std::mutex EnqueueOrder;
  std::vector<std::pair<DestructorFn, void *>> DestructorCallbacks;
  mutable std::mutex SvmLock;
  std::map<uintptr_t, SvmAllocation> Svm;
};

inline Context *castContext(cl_context C) {
  return castHandle<Context, ObjectKind::Context>(C);
}

} // namespace weft

#endif // WEFT_LIB_CL_CONTEXT_H
