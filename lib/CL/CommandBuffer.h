//===- CommandBuffer.h - cl_khr_command_buffer ------------------------------===//
//
// A command buffer records commands once and replays them many times. A
// recording command runs its enqueue counterpart's checks and builds the
// device-level Command then (kernel arguments snapshotted and packed, the
// work-group function looked up, addresses resolved), so a replay only
// copies each Command into a fresh Event and links the events: in order
// on an in-order queue, by sync points (and barriers) on an out-of-order
// one. The memory objects and kernels the commands use are retained until
// the command buffer is destroyed.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_CL_COMMANDBUFFER_H
#define WEFT_LIB_CL_COMMANDBUFFER_H

#include "CommandQueue.h"
#include "Kernel.h"

#include <CL/cl_ext.h>

#include <mutex>
#include <vector>

struct _cl_command_buffer_khr : weft::ICDObject {
  using ICDObject::ICDObject;
};

namespace weft {

class CommandBuffer : public _cl_command_buffer_khr,
                      public RefCounted<CommandBuffer> {
public:
  CommandBuffer(CommandQueue &Queue, cl_command_buffer_flags_khr Flags,
                std::vector<cl_command_buffer_properties_khr> Properties);
  ~CommandBuffer();

  CommandQueue &queue() const { return Queue; }
  Context &context() const { return Queue.context(); }
  const std::vector<cl_command_buffer_properties_khr> &properties() const {
    return Properties;
  }
  cl_command_buffer_state_khr state() const;

  /// CL_INVALID_OPERATION once finalized, CL_INVALID_SYNC_POINT_WAIT_LIST_KHR
  /// for a bad wait list: the checks every recording command shares.
  cl_int checkRecording(cl_uint NumSyncPoints,
                        const cl_sync_point_khr *SyncPoints) const;
  /// Appends a prepared command. Takes over the references of Mems and K
  /// (released on failure too). IsBarrier: later commands wait for it,
  /// and without a wait list it waits for everything before it.
  /// Uses: the buffers the command reads and writes, which each replay
  /// brings up to date on devices with memory of their own
  /// (trackBufferUses); only kept in contexts with such devices.
  cl_int record(cl_command_type Type, Command &&Work,
                std::vector<MemObject *> Mems, Kernel *K,
                cl_uint NumSyncPoints, const cl_sync_point_khr *SyncPoints,
                cl_sync_point_khr *SyncPoint, bool IsBarrier = false,
                std::vector<BufferUse> Uses = {});
  cl_int finalize();
  /// Submits the recorded commands to Target (the queue or a compatible
  /// one) after the wait list; EventRet gets one event for all of them.
  cl_int enqueue(CommandQueue &Target, cl_uint NumEvents,
                 const cl_event *WaitList, cl_event *EventRet);

private:
  struct Recorded {
    cl_command_type Type;
    Command Work; ///< Launch: the template each replay copies
    std::vector<unsigned> Waits; ///< earlier commands (indices)
    std::vector<BufferUse> Uses;
  };

  CommandQueue &Queue;
  cl_command_buffer_flags_khr Flags;
  std::vector<cl_command_buffer_properties_khr> Properties;

  mutable std::mutex Lock;
  bool Finalized = false;
  /// Submissions not complete yet (CL_COMMAND_BUFFER_STATE_PENDING_KHR).
  unsigned Pending = 0;
  std::vector<Recorded> Commands;
  /// Commands no other command waits for: what a submission's event
  /// waits for. Set by finalize().
  std::vector<unsigned> Sinks;
  std::vector<bool> HasWaiter;
  /// Index + 1 of the most recent barrier (0: none).
  unsigned LastBarrier = 0;
  std::vector<MemObject *> HeldMems;
  std::vector<Kernel *> HeldKernels;
};

inline CommandBuffer *castCommandBuffer(cl_command_buffer_khr B) {
  return castHandle<CommandBuffer, ObjectKind::CommandBuffer>(B);
}

} // namespace weft

#endif // WEFT_LIB_CL_COMMANDBUFFER_H
