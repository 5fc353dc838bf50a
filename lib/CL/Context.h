//===- Context.h - cl_context ----------------------------------------------===//
#ifndef WEFT_LIB_CL_CONTEXT_H
#define WEFT_LIB_CL_CONTEXT_H

#include "Object.h"
#include "Platform.h"

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
  const std::vector<cl_context_properties> &properties() const {
    return Properties;
  }
  /// Reports an error to the application's callback, if any.
  void notify(const char *Message) const;
  void addDestructorCallback(DestructorFn Fn, void *UserData);

private:
  std::vector<Device *> Devices;
  std::vector<cl_context_properties> Properties;
  NotifyFn Notify;
  void *NotifyData;
  std::mutex Lock;
  std::vector<std::pair<DestructorFn, void *>> DestructorCallbacks;
};

inline Context *castContext(cl_context C) {
  return castHandle<Context, ObjectKind::Context>(C);
}

} // namespace weft

#endif // WEFT_LIB_CL_CONTEXT_H
