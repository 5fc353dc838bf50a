//===- MemObject.h - cl_mem: buffers and sub-buffers ------------------------===//
//
// Every buffer has its storage in host memory: the application's memory for
// CL_MEM_USE_HOST_PTR, where CL_MEM_COPY_HOST_PTR contents land and maps are
// staged. Devices that share host memory (DeviceDriver::sharesHostMemory)
// read and write it in place, and CL_MEM_USE_HOST_PTR is zero-copy. A
// context with a device of memory of its own also gives each buffer a copy
// on each such device (DeviceCopies), which the commands of that device use;
// trackBufferUses keeps, in the order commands are enqueued, which copies
// are current and adds the transfers a command needs.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_CL_MEMOBJECT_H
#define WEFT_LIB_CL_MEMOBJECT_H

#include "Context.h"

#include "weft/device.h"

#include <atomic>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace weft {

class Event;
struct ImageInfo;

/// Disjoint byte ranges [first, second) of a buffer, in address order.
class ByteRanges {
public:
  using Range = std::pair<size_t, size_t>;
  void add(size_t Begin, size_t End);
  void remove(size_t Begin, size_t End);
  /// The parts of [Begin, End) outside the set.
  std::vector<Range> missing(size_t Begin, size_t End) const;

private:
  std::vector<Range> Ranges;
};

/// The copies of a buffer on the devices of its context that have memory
/// of their own, and which bytes of which copies (the host's included)
/// hold the buffer's current contents; every byte is current in at least
/// one. Kept by top-level buffers only (a sub-buffer is a range of its
/// parent's copies); absent in contexts where every device shares host
/// memory. The state is that after every command enqueued so far: OpenCL
/// makes applications order conflicting accesses with events, so enqueue
/// order is the order that matters. Ranges, not whole buffers: two devices
/// may work on disjoint sub-buffers of one buffer at the same time, and
/// neither may fetch, and count current, the other's range meanwhile.
struct DeviceCopies {
  struct Copy {
    const Device *Dev;
    unsigned char *Address; ///< from Dev's allocate()
    ByteRanges Current;
    /// The last command that fetched into this copy (held), which later
    /// commands of Dev using the buffer wait for.
    Event *LastFetch = nullptr;
  };
  /// A mapping (clEnqueueMapBuffer) not unmapped yet: a writable one
  /// uploads its range when it is unmapped.
  struct Mapping {
    const void *Ptr;
    size_t Offset, Size; ///< within the top-level buffer
    bool Writes;
  };
  std::mutex Lock;
  ByteRanges HostCurrent;
  std::vector<Copy> Copies;
  std::vector<Mapping> Mappings;

  Copy *find(const Device &D) {
    for (Copy &C : Copies)
      if (C.Dev == &D)
        return &C;
    return nullptr;
  }
};

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
  /// Where D's kernels and transfers find the first byte: the storage for
  /// devices that share host memory, the copy on D otherwise (null for
  /// images there: such devices have no images).
  void *deviceAddress(const Device &D) const;
  /// The top-level buffer: this one or the parent of a sub-buffer.
  MemObject &root() { return Parent ? *Parent : *this; }
  /// The copies on devices with memory of their own (top-level buffers of
  /// contexts with such devices), set once after creation; null otherwise.
  DeviceCopies *deviceCopies() const { return root().Copies.get(); }
  void setDeviceCopies(std::unique_ptr<DeviceCopies> C) {
    Copies = std::move(C);
  }

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
  std::unique_ptr<DeviceCopies> Copies;
  const MemObject &root() const { return Parent ? *Parent : *this; }
  /// Weak references, plus one held by all the strong ones together.
  std::atomic<cl_uint> WeakRefs{1};
};

class CommandQueue;

/// How a command uses a buffer: the bytes [Offset, Offset + Size) of Mem.
struct BufferUse {
  MemObject *Mem;
  size_t Offset, Size;
  bool Reads, Writes;
};

/// The bookkeeping of a command of Dev that uses these buffers, at enqueue
/// time, before the command is submitted: Dev's stale copies are brought up
/// to date (Cmd.Before), and what the command writes becomes current there
/// only, copied back to the host copy (Cmd.After) where the context keeps
/// that current. A command of a device that shares host memory only makes
/// the other devices' copies stale. Nothing to do, and not called, in
/// contexts where every device shares host memory.
void trackBufferUsesSlow(const Context &Ctx, const Device &Dev, Command &Cmd,
                         const BufferUse *Uses, size_t Count);
inline void trackBufferUses(const Context &Ctx, const Device &Dev, Command &Cmd,
                            std::initializer_list<BufferUse> Uses) {
  if (Ctx.hasOwnMemoryDevice())
    trackBufferUsesSlow(Ctx, Dev, Cmd, Uses.begin(), Uses.size());
}

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
