//===- MemObject.h - cl_mem: buffers and sub-buffers ------------------------===//
//
// A buffer's storage is host memory for as long as every device of its
// context shares host memory (DeviceDriver::sharesHostMemory): kernels then
// read and write it in place, and CL_MEM_USE_HOST_PTR is zero-copy.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_CL_MEMOBJECT_H
#define WEFT_LIB_CL_MEMOBJECT_H

#include "Context.h"

#include "weft/device.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace weft {

struct ImageInfo;

class MemObject : public _cl_mem, public RefCounted<MemObject> {
public:
  using DestructorFn = void(CL_CALLBACK *)(cl_mem, void *);

  /// A buffer of Size bytes at Storage; OwnsStorage says who frees it.
  MemObject(Context &Ctx, cl_mem_flags Flags, size_t Size, void *HostPtr,
            void *Storage, bool OwnsStorage,
            std::vector<cl_mem_properties> Properties);
  /// A sub-buffer of Parent.
  MemObject(MemObject &Parent, cl_mem_flags Flags, size_t Origin, size_t Size);
  ~MemObject();

  /// The last reference went: destructor callbacks run and the storage is
  /// freed now; the object's own memory stays while weak references remain.
  void destroy();
  /// A kernel argument slot names the object without keeping it alive
  /// (clSetKernelArg does not retain); enqueues upgrade it with
  /// tryRetainInternal.
  void retainWeak() { WeakRefs.fetch_add(1, std::memory_order_relaxed); }
  void releaseWeak() {
    if (WeakRefs.fetch_sub(1, std::memory_order_acq_rel) == 1)
      delete this;
  }

  Context &context() const { return Ctx; }
  cl_mem_flags flags() const { return Flags; }
  size_t size() const { return Size; }
  void *hostPtr() const { return HostPtr; }
  MemObject *parent() const { return Parent; }
  size_t origin() const { return Origin; }
  const std::vector<cl_mem_properties> &properties() const {
    return Properties;
  }
  /// Where the buffer's first byte is, as the host sees it.
  unsigned char *storage() const { return Storage; }
  /// Where D's kernels and transfers find the first byte.
  void *deviceAddress(const Device &D) const;

  cl_uint mapCount() const { return MapCount.load(); }
  void addMapping() { ++MapCount; }
  void removeMapping() { --MapCount; }
  void addDestructorCallback(DestructorFn Fn, void *UserData);

  /// Images (Image.h): the format, extent and kernel descriptor; null for
  /// buffers.
  const ImageInfo *image() const { return Image.get(); }
  ImageInfo *image() { return Image.get(); }
  void setImage(std::unique_ptr<ImageInfo> Info);

private:
  Context &Ctx;
  cl_mem_flags Flags;
  size_t Size;
  void *HostPtr;
  unsigned char *Storage;
  bool OwnsStorage;
  MemObject *Parent = nullptr;
  size_t Origin = 0;
  std::vector<cl_mem_properties> Properties;
  std::atomic<cl_uint> MapCount{0};
  std::mutex Lock;
  std::vector<std::pair<DestructorFn, void *>> DestructorCallbacks;
  std::unique_ptr<ImageInfo> Image;
  /// Weak references, plus one held by all the strong ones together.
  std::atomic<cl_uint> WeakRefs{1};
};

class CommandQueue;

/// The checks of clEnqueueCopyBuffer, clEnqueueFillBuffer and
/// clEnqueueCopyBufferRect after the queue's and before the wait list's,
/// in the specification's order; on success Cmd describes the command on
/// Queue's device. Shared with the command-buffer recording commands.
cl_int prepareCopyBuffer(CommandQueue &Queue, MemObject *Src, MemObject *Dst,
                         size_t SrcOffset, size_t DstOffset, size_t Size,
                         Command &Cmd);
cl_int prepareFillBuffer(CommandQueue &Queue, MemObject *Mem,
                         const void *Pattern, size_t PatternSize,
                         size_t Offset, size_t Size, Command &Cmd);
cl_int prepareCopyBufferRect(CommandQueue &Queue, MemObject *Src,
                             MemObject *Dst, const size_t *SrcOrigin,
                             const size_t *DstOrigin, const size_t *Region,
                             size_t SrcRowPitch, size_t SrcSlicePitch,
                             size_t DstRowPitch, size_t DstSlicePitch,
                             Command &Cmd);

/// A buffer (not an image), for the buffer entry points.
inline MemObject *castBuffer(cl_mem M) {
  MemObject *Mem = castHandle<MemObject, ObjectKind::MemObject>(M);
  return Mem && !Mem->image() ? Mem : nullptr;
}

inline MemObject *castMemObject(cl_mem M) {
  return castHandle<MemObject, ObjectKind::MemObject>(M);
}

/// Alignment of every buffer's storage, in bytes: enough for the widest
/// vector type (double16) and for sub-buffers at CL_DEVICE_MEM_BASE_ADDR_ALIGN.
constexpr size_t BufferAlignment = 128;

} // namespace weft

#endif // WEFT_LIB_CL_MEMOBJECT_H
