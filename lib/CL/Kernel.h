//===- Kernel.h - cl_kernel -------------------------------------------------===//
#ifndef WEFT_LIB_CL_KERNEL_H
#define WEFT_LIB_CL_KERNEL_H

#include "MemObject.h"
#include "Program.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace weft {

class Kernel : public _cl_kernel, public RefCounted<Kernel> {
public:
  Kernel(Program &Prog, const KernelDesc &Desc);
  /// clCloneKernel: the same kernel with a copy of Source's arguments.
  explicit Kernel(const Kernel &Source);
  ~Kernel();

  Program &program() const { return Prog; }
  const KernelDesc &desc() const { return Desc; }

  /// The value of one argument as clSetKernelArg gave it.
  struct ArgValue {
    bool IsSet = false;
    std::vector<unsigned char> Bytes; ///< scalars
    MemObject *Buffer = nullptr;      ///< buffers (null for a NULL buffer)
    size_t LocalSize = 0;             ///< __local pointers
    bool IsSvm = false;               ///< clSetKernelArgSVMPointer
    const void *SvmPointer = nullptr;
  };

  /// clSetKernelArgSVMPointer.
  cl_int setArgSvm(cl_uint Index, const void *Pointer);

  cl_int setArg(cl_uint Index, size_t Size, const void *Value);
  /// A consistent copy of the arguments, each memory object retained;
  /// fails if one is unset or its memory object is gone.
  cl_int snapshotArgs(std::vector<ArgValue> &Out) const;
  /// Whether every argument has been given a value.
  bool argsSet() const;
  /// Bytes of local memory the kernel needs with its current arguments.
  size_t localMemSize() const;

  /// What one enqueue of the kernel owns until its command completes.
  struct LaunchState {
    std::unique_ptr<KernelLaunch> Launch;
    /// The snapshot of the arguments, each memory object retained.
    std::vector<ArgValue> Values;
    /// Launch->Function was made for this device (null: none yet).
    const Device *FunctionDevice = nullptr;
    Kernel *Owner = nullptr;
  };
  /// The state a completed enqueue gave back, or a new one. Its vectors
  /// keep their capacity, so that a kernel enqueued again and again
  /// (thousands of short launches are common) allocates nothing for its
  /// launch and arguments: each allocation here was freed by the worker
  /// that completed the command, a slow path of malloc.
  std::unique_ptr<LaunchState> takeLaunchState();
  /// Keeps S for the next enqueue (one is kept; more are freed). Its
  /// memory objects must have been released.
  void recycleLaunchState(std::unique_ptr<LaunchState> S);

private:
  Program &Prog;
  KernelDesc Desc;
  mutable std::mutex Lock;
  std::vector<ArgValue> Args;
  /// Exchanged, not locked: enqueues of one kernel may run in several
  /// threads at once.
  std::atomic<LaunchState *> Spare{nullptr};
};

class CommandQueue;

/// clEnqueueNDRangeKernel's checks of K and the NDRange on Queue's device,
/// in the specification's order, then the command's launch in State: the
/// work-group function looked up and the arguments snapshotted (Values,
/// memory objects retained) and packed. State may be one a completed
/// enqueue gave back (Kernel::takeLaunchState): its memory is reused, and
/// its function too when it was for the same device and local size.
/// State.Launch is null for an empty NDRange.
cl_int prepareKernelLaunch(CommandQueue &Queue, Kernel &K, cl_uint WorkDim,
                           const size_t *GlobalOffset, const size_t *GlobalSize,
                           const size_t *LocalSize, cl_uint NumEvents,
                           const cl_event *WaitList,
                           Kernel::LaunchState &State);
/// The buffers a launch with these argument values reads and may write,
/// for the copies on devices with memory of their own (trackBufferUses):
/// each buffer argument, written unless __constant or const-qualified, and
/// the buffer under an image argument made from one, written unless
/// read_only.
std::vector<BufferUse>
kernelBufferUses(const KernelDesc &Desc,
                 const std::vector<Kernel::ArgValue> &Values);
/// Releases the memory objects of a snapshot.
void releaseArgValues(std::vector<Kernel::ArgValue> &Values);
/// A launch with the same function, NDRange and argument values as From
/// (no printf buffer): what a replayed command runs.
std::unique_ptr<KernelLaunch> copyLaunch(const KernelLaunch &From);

inline Kernel *castKernel(cl_kernel K) {
  return castHandle<Kernel, ObjectKind::Kernel>(K);
}

} // namespace weft

#endif // WEFT_LIB_CL_KERNEL_H
