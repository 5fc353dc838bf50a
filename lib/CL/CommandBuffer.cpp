//===- CommandBuffer.cpp - cl_khr_command_buffer ----------------------------===//
//
// Version 0.9.1 of the extension, the one <CL/cl_ext.h> declares: one
// queue per command buffer, command_queue of the recording commands NULL,
// no mutable commands. A replay is cheaper than enqueueing the same
// commands: nothing is validated, looked up or snapshotted again; each
// recorded Command is copied into a new event (a kernel's packed
// arguments with it) and linked to the events of the commands it waits
// for. The whole submission is framed by two events of the queue
// (CommandQueue::beginCommandGroup): the first waits for the wait list
// and the queue's order, the last for every command no other one waits
// for, and it is the event the application gets.
//
//   wait list, queue order -> Start -> [recorded commands, linked] -> End
//
//===----------------------------------------------------------------------===//

#include "CommandBuffer.h"

#include "Image.h"

#include <algorithm>

namespace weft {

CommandBuffer::CommandBuffer(
    CommandQueue &Q, cl_command_buffer_flags_khr F,
    std::vector<cl_command_buffer_properties_khr> Props)
    : _cl_command_buffer_khr(ObjectKind::CommandBuffer), Queue(Q), Flags(F),
      Properties(std::move(Props)) {
  Queue.retainInternal();
}

CommandBuffer::~CommandBuffer() {
  for (MemObject *M : HeldMems)
    M->releaseInternal();
  for (Kernel *K : HeldKernels)
    K->releaseInternal();
  Queue.releaseInternal();
}

cl_command_buffer_state_khr CommandBuffer::state() const {
  std::lock_guard<std::mutex> Guard(Lock);
  if (!Finalized)
    return CL_COMMAND_BUFFER_STATE_RECORDING_KHR;
  return Pending ? CL_COMMAND_BUFFER_STATE_PENDING_KHR
                 : CL_COMMAND_BUFFER_STATE_EXECUTABLE_KHR;
}

cl_int CommandBuffer::checkRecording(cl_uint NumSyncPoints,
                                     const cl_sync_point_khr *SyncPoints) const {
  std::lock_guard<std::mutex> Guard(Lock);
  if (Finalized)
    return WEFT_ERROR(CL_INVALID_OPERATION, "command buffer is finalized");
  if ((NumSyncPoints == 0) != (SyncPoints == nullptr))
    return WEFT_ERROR(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
                      "num_sync_points and sync_point_wait_list disagree");
  // A sync point is a recorded command's index + 1.
  for (cl_uint I = 0; I < NumSyncPoints; ++I)
    if (SyncPoints[I] == 0 || SyncPoints[I] > Commands.size())
      return WEFT_ERROR(CL_INVALID_SYNC_POINT_WAIT_LIST_KHR,
                        "a sync point this command buffer did not return");
  return CL_SUCCESS;
}

cl_int CommandBuffer::record(cl_command_type Type, Command &&Work,
                             std::vector<MemObject *> Mems, Kernel *K,
                             cl_uint NumSyncPoints,
                             const cl_sync_point_khr *SyncPoints,
                             cl_sync_point_khr *SyncPoint, bool IsBarrier,
                             std::vector<BufferUse> Uses) {
  std::unique_lock<std::mutex> Guard(Lock);
  if (Finalized) {
    // Another thread finalized it since checkRecording.
    Guard.unlock();
    for (MemObject *M : Mems)
      M->releaseInternal();
    if (K)
      K->releaseInternal();
    return WEFT_ERROR(CL_INVALID_OPERATION, "command buffer is finalized");
  }
  unsigned Index = static_cast<unsigned>(Commands.size());
  Recorded R{Type, std::move(Work), {}, std::move(Uses)};
  if (!Queue.isOutOfOrder()) {
    // An in-order queue runs the commands in the order they were
    // recorded; sync points add nothing.
    if (Index)
      R.Waits.push_back(Index - 1);
  } else {
    for (cl_uint I = 0; I < NumSyncPoints; ++I)
      R.Waits.push_back(SyncPoints[I] - 1);
    if (IsBarrier && !NumSyncPoints)
      for (unsigned I = LastBarrier ? LastBarrier - 1 : 0; I < Index; ++I)
        R.Waits.push_back(I);
    else if (LastBarrier)
      R.Waits.push_back(LastBarrier - 1);
    std::sort(R.Waits.begin(), R.Waits.end());
    R.Waits.erase(std::unique(R.Waits.begin(), R.Waits.end()), R.Waits.end());
    if (IsBarrier)
      LastBarrier = Index + 1;
  }
  HasWaiter.push_back(false);
  for (unsigned W : R.Waits)
    HasWaiter[W] = true;
  Commands.push_back(std::move(R));
  HeldMems.insert(HeldMems.end(), Mems.begin(), Mems.end());
  if (K)
    HeldKernels.push_back(K);
  if (SyncPoint)
    *SyncPoint = Index + 1;
  return CL_SUCCESS;
}

cl_int CommandBuffer::finalize() {
  std::lock_guard<std::mutex> Guard(Lock);
  if (Finalized)
    return WEFT_ERROR(CL_INVALID_OPERATION, "command buffer already finalized");
  Finalized = true;
  for (unsigned I = 0; I < Commands.size(); ++I)
    if (!HasWaiter[I])
      Sinks.push_back(I);
  return CL_SUCCESS;
}

cl_int CommandBuffer::enqueue(CommandQueue &Target, cl_uint NumEvents,
                              const cl_event *WaitList, cl_event *EventRet) {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    if (!Finalized)
      return WEFT_ERROR(CL_INVALID_OPERATION, "command buffer not finalized");
    if (Pending && !(Flags & CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR))
      return WEFT_ERROR(CL_INVALID_OPERATION,
                        "pending, and not created with "
                        "CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR");
    ++Pending;
  }
  // Finalized: Commands and Sinks no longer change, so they are read
  // without the lock. The submission holds the command buffer (and so
  // its memory objects and kernels) until it completes.
  retainInternal();
  Event *End;
  Event *Start = Target.beginCommandGroup(CL_COMMAND_COMMAND_BUFFER_KHR,
                                          NumEvents, WaitList, End);
  End->onCompletion([this] {
    {
      std::lock_guard<std::mutex> Guard(Lock);
      --Pending;
    }
    releaseInternal();
  });
  // Start is linked to below after it may have completed and been
  // dropped by the queue: held until then.
  Start->retainInternal();
  Target.finishEnqueue(Start, nullptr);
  Context &Ctx = Target.context();
  std::vector<Event *> Events(Commands.size());
  for (size_t I = 0; I < Commands.size(); ++I) {
    const Recorded &R = Commands[I];
    Event *E = new Event(Ctx, &Target, R.Type);
    Command &Cmd = E->command();
    Cmd.Kind = R.Work.Kind;
    Cmd.Src = R.Work.Src;
    Cmd.Dst = R.Work.Dst;
    Cmd.Size = R.Work.Size;
    Cmd.Rect = R.Work.Rect;
    if (!R.Work.Pattern.empty())
      Cmd.Pattern = R.Work.Pattern;
    if (R.Work.Launch)
      Cmd.Launch = copyLaunch(*R.Work.Launch);
    // Image fills run as a host function over the recorded pixel.
    Cmd.Native = R.Work.Native;
    // In the order of the recording, which orders conflicting accesses.
    if (Ctx.hasOwnMemoryDevice())
      trackBufferUsesSlow(Ctx, Target.device(), Cmd, R.Uses.data(),
                          R.Uses.size());
    // The commands without a wait of their own wait for Start; the others
    // reach it through what they wait for.
    if (R.Waits.empty())
      E->addDependency(Start);
    for (unsigned W : R.Waits)
      E->addDependency(Events[W]);
    E->submit();
    Events[I] = E;
  }
  for (unsigned S : Sinks)
    End->addDependency(Events[S]);
  for (Event *E : Events)
    E->release();
  Start->releaseInternal();
  return Target.finishEnqueue(End, EventRet);
}

/// Whether Q may run what was recorded for Recorded: the same device and
/// the same properties (CL_INCOMPATIBLE_COMMAND_QUEUE_KHR otherwise).
static bool compatibleQueues(const CommandQueue &Recorded,
                             const CommandQueue &Q) {
  return &Recorded.device() == &Q.device() &&
         Recorded.properties() == Q.properties();
}

/// The checks every recording command starts with, in the specification's
/// order: the command buffer, command_queue (NULL in this version), the
/// mutable handle (no mutable commands), the state and the sync points.
static cl_int checkCommand(cl_command_buffer_khr B, cl_command_queue Q,
                           cl_mutable_command_khr *MutableHandle,
                           cl_uint NumSyncPoints,
                           const cl_sync_point_khr *SyncPoints,
                           CommandBuffer *&Buffer) {
  Buffer = castCommandBuffer(B);
  if (!Buffer)
    return WEFT_ERROR(CL_INVALID_COMMAND_BUFFER_KHR, "bad command buffer");
  if (Q)
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE,
                      "command_queue must be NULL (one queue per buffer)");
  if (MutableHandle)
    return WEFT_ERROR(CL_INVALID_VALUE,
                      "mutable_handle must be NULL (no mutable dispatch)");
  return Buffer->checkRecording(NumSyncPoints, SyncPoints);
}

/// Records a copy or fill on buffers: their references taken for the
/// command buffer.
static cl_int recordBufferCommand(CommandBuffer &Buffer, cl_command_type Type,
                                  Command &&Cmd,
                                  std::vector<MemObject *> Mems,
                                  cl_uint NumSyncPoints,
                                  const cl_sync_point_khr *SyncPoints,
                                  cl_sync_point_khr *SyncPoint,
                                  std::vector<BufferUse> Uses = {}) {
  for (MemObject *M : Mems)
    M->retainInternal();
  if (!Buffer.context().hasOwnMemoryDevice())
    Uses.clear();
  return Buffer.record(Type, std::move(Cmd), std::move(Mems), nullptr,
                       NumSyncPoints, SyncPoints, SyncPoint,
                       /*IsBarrier=*/false, std::move(Uses));
}

// The image commands: an image is a memory object with an ImageInfo.
static MemObject *castImageObject(cl_mem M) {
  MemObject *Mem = castMemObject(M);
  return Mem && Mem->image() ? Mem : nullptr;
}

/// clCommandCopyImageToBufferKHR and clCommandCopyBufferToImageKHR.
static cl_int recordImageBufferCopy(cl_command_buffer_khr B,
                                    cl_command_queue Q, cl_mem Image,
                                    cl_mem Buf, const size_t *Origin,
                                    const size_t *Region, size_t Offset,
                                    bool ToBuffer, cl_uint NumSyncPoints,
                                    const cl_sync_point_khr *SyncPoints,
                                    cl_sync_point_khr *SyncPoint,
                                    cl_mutable_command_khr *MutableHandle) {
  CommandBuffer *Buffer;
  if (cl_int Err = checkCommand(B, Q, MutableHandle, NumSyncPoints,
                                SyncPoints, Buffer))
    return Err;
  MemObject *Img = castImageObject(Image);
  MemObject *Mem = castBuffer(Buf);
  Command Cmd;
  if (cl_int Err = prepareCopyImageBuffer(&Buffer->queue(), Img, Mem, Origin,
                                          Region, Offset, ToBuffer, Cmd))
    return Err;
  return recordBufferCommand(*Buffer,
                             ToBuffer ? CL_COMMAND_COPY_IMAGE_TO_BUFFER
                                      : CL_COMMAND_COPY_BUFFER_TO_IMAGE,
                             std::move(Cmd), {Img, Mem}, NumSyncPoints,
                             SyncPoints, SyncPoint);
}

} // namespace weft

using namespace weft;

extern "C" {

CL_API_ENTRY cl_command_buffer_khr CL_API_CALL clCreateCommandBufferKHR(
    cl_uint NumQueues, const cl_command_queue *Queues,
    const cl_command_buffer_properties_khr *Properties, cl_int *ErrcodeRet) {
  auto Fail = [&](cl_int Err) -> cl_command_buffer_khr {
    setError(ErrcodeRet, Err);
    return nullptr;
  };
  if (NumQueues != 1 || !Queues)
    return Fail(WEFT_ERROR(CL_INVALID_VALUE,
                           "exactly one queue is supported (num_queues 1)"));
  CommandQueue *Queue = castQueue(Queues[0]);
  if (!Queue)
    return Fail(WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue"));
  cl_command_buffer_flags_khr Flags = 0;
  std::vector<cl_command_buffer_properties_khr> List;
  bool SeenFlags = false;
  for (const cl_command_buffer_properties_khr *P = Properties; P && *P;
       P += 2) {
    if (P[0] != CL_COMMAND_BUFFER_FLAGS_KHR || SeenFlags)
      return Fail(WEFT_ERROR(CL_INVALID_VALUE,
                             "unknown or repeated command buffer property"));
    SeenFlags = true;
    Flags = static_cast<cl_command_buffer_flags_khr>(P[1]);
    // CL_COMMAND_BUFFER_MUTABLE_KHR (cl_khr_command_buffer_mutable_dispatch)
    // and any other bit are not supported.
    if (Flags & ~static_cast<cl_command_buffer_flags_khr>(
                    CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR))
      return Fail(WEFT_ERROR(CL_INVALID_VALUE,
                             "unsupported command buffer flags"));
    List.push_back(P[0]);
    List.push_back(P[1]);
  }
  if (Properties)
    List.push_back(0);
  const DeviceDescription &Desc = Queue->device().description();
  if ((Flags & CL_COMMAND_BUFFER_SIMULTANEOUS_USE_KHR) &&
      !(Desc.CommandBufferCapabilities &
        CL_COMMAND_BUFFER_CAPABILITY_SIMULTANEOUS_USE_KHR))
    return Fail(WEFT_ERROR(CL_INVALID_PROPERTY,
                           "device without simultaneous use"));
  cl_command_queue_properties Required =
      Desc.CommandBufferRequiredQueueProperties;
  if ((Queue->properties() & Required) != Required ||
      (Queue->isOutOfOrder() &&
       !(Desc.CommandBufferCapabilities &
         CL_COMMAND_BUFFER_CAPABILITY_OUT_OF_ORDER_KHR)))
    return Fail(WEFT_ERROR(CL_INCOMPATIBLE_COMMAND_QUEUE_KHR,
                           "queue properties the device cannot record for"));
  setError(ErrcodeRet, CL_SUCCESS);
  return new CommandBuffer(*Queue, Flags, std::move(List));
}

CL_API_ENTRY cl_int CL_API_CALL
clRetainCommandBufferKHR(cl_command_buffer_khr B) {
  CommandBuffer *Buffer = castCommandBuffer(B);
  if (!Buffer)
    return WEFT_ERROR(CL_INVALID_COMMAND_BUFFER_KHR, "bad command buffer");
  Buffer->retain();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clReleaseCommandBufferKHR(cl_command_buffer_khr B) {
  CommandBuffer *Buffer = castCommandBuffer(B);
  if (!Buffer)
    return WEFT_ERROR(CL_INVALID_COMMAND_BUFFER_KHR, "bad command buffer");
  Buffer->release();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clFinalizeCommandBufferKHR(cl_command_buffer_khr B) {
  CommandBuffer *Buffer = castCommandBuffer(B);
  if (!Buffer)
    return WEFT_ERROR(CL_INVALID_COMMAND_BUFFER_KHR, "bad command buffer");
  return Buffer->finalize();
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCommandBufferKHR(
    cl_uint NumQueues, cl_command_queue *Queues, cl_command_buffer_khr B,
    cl_uint NumEvents, const cl_event *WaitList, cl_event *EventRet) {
  CommandBuffer *Buffer = castCommandBuffer(B);
  if (!Buffer)
    return WEFT_ERROR(CL_INVALID_COMMAND_BUFFER_KHR, "bad command buffer");
  if ((NumQueues == 0) != (Queues == nullptr) || NumQueues > 1)
    return WEFT_ERROR(CL_INVALID_VALUE,
                      "queues and num_queues disagree, or more than one");
  CommandQueue *Target = &Buffer->queue();
  if (Queues) {
    Target = castQueue(Queues[0]);
    if (!Target)
      return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue");
    if (&Target->context() != &Buffer->context())
      return WEFT_ERROR(CL_INVALID_CONTEXT,
                        "queue of another context than the command buffer");
    if (!compatibleQueues(Buffer->queue(), *Target))
      return WEFT_ERROR(CL_INCOMPATIBLE_COMMAND_QUEUE_KHR,
                        "queue of another device or other properties");
  }
  if (cl_int Err = validateWaitList(NumEvents, WaitList, &Buffer->context()))
    return Err;
  return Buffer->enqueue(*Target, NumEvents, WaitList, EventRet);
}

CL_API_ENTRY cl_int CL_API_CALL clGetCommandBufferInfoKHR(
    cl_command_buffer_khr B, cl_command_buffer_info_khr ParamName,
    size_t ParamValueSize, void *ParamValue, size_t *ParamValueSizeRet) {
  CommandBuffer *Buffer = castCommandBuffer(B);
  if (!Buffer)
    return WEFT_ERROR(CL_INVALID_COMMAND_BUFFER_KHR, "bad command buffer");
  auto Ret = [&](const auto &V) {
    return returnValue(V, ParamValueSize, ParamValue, ParamValueSizeRet);
  };
  switch (ParamName) {
  case CL_COMMAND_BUFFER_QUEUES_KHR:
    return Ret(static_cast<cl_command_queue>(&Buffer->queue()));
  case CL_COMMAND_BUFFER_NUM_QUEUES_KHR:
    return Ret(cl_uint(1));
  case CL_COMMAND_BUFFER_REFERENCE_COUNT_KHR:
    return Ret(Buffer->referenceCount());
  case CL_COMMAND_BUFFER_STATE_KHR:
    return Ret(Buffer->state());
  case CL_COMMAND_BUFFER_PROPERTIES_ARRAY_KHR:
    return returnVector(Buffer->properties(), ParamValueSize, ParamValue,
                        ParamValueSizeRet);
  default:
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown cl_command_buffer_info_khr");
  }
}

CL_API_ENTRY cl_int CL_API_CALL clCommandBarrierWithWaitListKHR(
    cl_command_buffer_khr B, cl_command_queue Q, cl_uint NumSyncPoints,
    const cl_sync_point_khr *SyncPoints, cl_sync_point_khr *SyncPoint,
    cl_mutable_command_khr *MutableHandle) {
  CommandBuffer *Buffer;
  if (cl_int Err = checkCommand(B, Q, MutableHandle, NumSyncPoints,
                                SyncPoints, Buffer))
    return Err;
  return Buffer->record(CL_COMMAND_BARRIER, Command(), {}, nullptr,
                        NumSyncPoints, SyncPoints, SyncPoint,
                        /*IsBarrier=*/true);
}

CL_API_ENTRY cl_int CL_API_CALL clCommandCopyBufferKHR(
    cl_command_buffer_khr B, cl_command_queue Q, cl_mem SrcBuffer,
    cl_mem DstBuffer, size_t SrcOffset, size_t DstOffset, size_t Size,
    cl_uint NumSyncPoints, const cl_sync_point_khr *SyncPoints,
    cl_sync_point_khr *SyncPoint, cl_mutable_command_khr *MutableHandle) {
  CommandBuffer *Buffer;
  if (cl_int Err = checkCommand(B, Q, MutableHandle, NumSyncPoints,
                                SyncPoints, Buffer))
    return Err;
  MemObject *Src = castBuffer(SrcBuffer);
  MemObject *Dst = castBuffer(DstBuffer);
  Command Cmd;
  if (cl_int Err = prepareCopyBuffer(Buffer->queue(), Src, Dst, SrcOffset,
                                     DstOffset, Size, Cmd))
    return Err;
  return recordBufferCommand(*Buffer, CL_COMMAND_COPY_BUFFER, std::move(Cmd),
                             {Src, Dst}, NumSyncPoints, SyncPoints, SyncPoint,
                             {{Src, SrcOffset, Size, true, false},
                              {Dst, DstOffset, Size, false, true}});
}

CL_API_ENTRY cl_int CL_API_CALL clCommandCopyBufferRectKHR(
    cl_command_buffer_khr B, cl_command_queue Q, cl_mem SrcBuffer,
    cl_mem DstBuffer, const size_t *SrcOrigin, const size_t *DstOrigin,
    const size_t *Region, size_t SrcRowPitch, size_t SrcSlicePitch,
    size_t DstRowPitch, size_t DstSlicePitch, cl_uint NumSyncPoints,
    const cl_sync_point_khr *SyncPoints, cl_sync_point_khr *SyncPoint,
    cl_mutable_command_khr *MutableHandle) {
  CommandBuffer *Buffer;
  if (cl_int Err = checkCommand(B, Q, MutableHandle, NumSyncPoints,
                                SyncPoints, Buffer))
    return Err;
  MemObject *Src = castBuffer(SrcBuffer);
  MemObject *Dst = castBuffer(DstBuffer);
  Command Cmd;
  if (cl_int Err = prepareCopyBufferRect(
          Buffer->queue(), Src, Dst, SrcOrigin, DstOrigin, Region, SrcRowPitch,
          SrcSlicePitch, DstRowPitch, DstSlicePitch, Cmd))
    return Err;
  // Whole buffers: a replay's bookkeeping need not redo the pitch rules.
  return recordBufferCommand(*Buffer, CL_COMMAND_COPY_BUFFER_RECT,
                             std::move(Cmd), {Src, Dst}, NumSyncPoints,
                             SyncPoints, SyncPoint,
                             {{Src, 0, Src->size(), true, false},
                              {Dst, 0, Dst->size(), true, true}});
}

CL_API_ENTRY cl_int CL_API_CALL clCommandFillBufferKHR(
    cl_command_buffer_khr B, cl_command_queue Q, cl_mem Mem,
    const void *Pattern, size_t PatternSize, size_t Offset, size_t Size,
    cl_uint NumSyncPoints, const cl_sync_point_khr *SyncPoints,
    cl_sync_point_khr *SyncPoint, cl_mutable_command_khr *MutableHandle) {
  CommandBuffer *Buffer;
  if (cl_int Err = checkCommand(B, Q, MutableHandle, NumSyncPoints,
                                SyncPoints, Buffer))
    return Err;
  MemObject *M = castBuffer(Mem);
  Command Cmd;
  if (cl_int Err = prepareFillBuffer(Buffer->queue(), M, Pattern, PatternSize,
                                     Offset, Size, Cmd))
    return Err;
  return recordBufferCommand(*Buffer, CL_COMMAND_FILL_BUFFER, std::move(Cmd),
                             {M}, NumSyncPoints, SyncPoints, SyncPoint,
                             {{M, Offset, Size, false, true}});
}

CL_API_ENTRY cl_int CL_API_CALL clCommandCopyImageKHR(
    cl_command_buffer_khr B, cl_command_queue Q, cl_mem SrcImage,
    cl_mem DstImage, const size_t *SrcOrigin, const size_t *DstOrigin,
    const size_t *Region, cl_uint NumSyncPoints,
    const cl_sync_point_khr *SyncPoints, cl_sync_point_khr *SyncPoint,
    cl_mutable_command_khr *MutableHandle) {
  CommandBuffer *Buffer;
  if (cl_int Err = checkCommand(B, Q, MutableHandle, NumSyncPoints,
                                SyncPoints, Buffer))
    return Err;
  MemObject *Src = castImageObject(SrcImage);
  MemObject *Dst = castImageObject(DstImage);
  Command Cmd;
  if (cl_int Err = prepareCopyImage(&Buffer->queue(), Src, Dst, SrcOrigin,
                                    DstOrigin, Region, Cmd))
    return Err;
  return recordBufferCommand(*Buffer, CL_COMMAND_COPY_IMAGE, std::move(Cmd),
                             {Src, Dst}, NumSyncPoints, SyncPoints, SyncPoint);
}

CL_API_ENTRY cl_int CL_API_CALL clCommandFillImageKHR(
    cl_command_buffer_khr B, cl_command_queue Q, cl_mem Image,
    const void *FillColor, const size_t *Origin, const size_t *Region,
    cl_uint NumSyncPoints, const cl_sync_point_khr *SyncPoints,
    cl_sync_point_khr *SyncPoint, cl_mutable_command_khr *MutableHandle) {
  CommandBuffer *Buffer;
  if (cl_int Err = checkCommand(B, Q, MutableHandle, NumSyncPoints,
                                SyncPoints, Buffer))
    return Err;
  MemObject *Mem = castImageObject(Image);
  Command Cmd;
  if (cl_int Err = prepareFillImage(&Buffer->queue(), Mem, FillColor, Origin,
                                    Region, Cmd))
    return Err;
  return recordBufferCommand(*Buffer, CL_COMMAND_FILL_IMAGE, std::move(Cmd),
                             {Mem}, NumSyncPoints, SyncPoints, SyncPoint);
}

CL_API_ENTRY cl_int CL_API_CALL clCommandCopyImageToBufferKHR(
    cl_command_buffer_khr B, cl_command_queue Q, cl_mem SrcImage,
    cl_mem DstBuffer, const size_t *SrcOrigin, const size_t *Region,
    size_t DstOffset, cl_uint NumSyncPoints,
    const cl_sync_point_khr *SyncPoints, cl_sync_point_khr *SyncPoint,
    cl_mutable_command_khr *MutableHandle) {
  return recordImageBufferCopy(B, Q, SrcImage, DstBuffer, SrcOrigin, Region,
                               DstOffset, /*ToBuffer=*/true, NumSyncPoints,
                               SyncPoints, SyncPoint, MutableHandle);
}

CL_API_ENTRY cl_int CL_API_CALL clCommandCopyBufferToImageKHR(
    cl_command_buffer_khr B, cl_command_queue Q, cl_mem SrcBuffer,
    cl_mem DstImage, size_t SrcOffset, const size_t *DstOrigin,
    const size_t *Region, cl_uint NumSyncPoints,
    const cl_sync_point_khr *SyncPoints, cl_sync_point_khr *SyncPoint,
    cl_mutable_command_khr *MutableHandle) {
  return recordImageBufferCopy(B, Q, DstImage, SrcBuffer, DstOrigin, Region,
                               SrcOffset, /*ToBuffer=*/false, NumSyncPoints,
                               SyncPoints, SyncPoint, MutableHandle);
}

CL_API_ENTRY cl_int CL_API_CALL clCommandNDRangeKernelKHR(
    cl_command_buffer_khr B, cl_command_queue Q,
    const cl_ndrange_kernel_command_properties_khr *Properties,
    cl_kernel KernelId, cl_uint WorkDim, const size_t *GlobalOffset,
    const size_t *GlobalSize, const size_t *LocalSize, cl_uint NumSyncPoints,
    const cl_sync_point_khr *SyncPoints, cl_sync_point_khr *SyncPoint,
    cl_mutable_command_khr *MutableHandle) {
  CommandBuffer *Buffer;
  if (cl_int Err = checkCommand(B, Q, MutableHandle, NumSyncPoints,
                                SyncPoints, Buffer))
    return Err;
  // The only properties are cl_khr_command_buffer_mutable_dispatch's.
  if (Properties && *Properties)
    return WEFT_ERROR(CL_INVALID_VALUE,
                      "kernel command properties are not supported");
  Kernel *K = castKernel(KernelId);
  if (!K)
    return WEFT_ERROR(CL_INVALID_KERNEL, "bad kernel");
  Kernel::LaunchState State;
  if (cl_int Err =
          prepareKernelLaunch(Buffer->queue(), *K, WorkDim, GlobalOffset,
                              GlobalSize, LocalSize, 0, nullptr, State))
    return Err;
  std::vector<Kernel::ArgValue> &Values = State.Values;
  Command Cmd;
  if (State.Launch) {
    Cmd.Kind = CommandKind::NDRangeKernel;
    Cmd.Launch = std::move(State.Launch);
  }
  std::vector<BufferUse> Uses;
  if (Cmd.Launch && Buffer->context().hasOwnMemoryDevice())
    Uses = kernelBufferUses(K->desc(), Values);
  // The snapshot's references become the command buffer's.
  std::vector<MemObject *> Mems;
  for (const Kernel::ArgValue &V : Values)
    if (V.Buffer)
      Mems.push_back(V.Buffer);
  K->retainInternal();
  return Buffer->record(CL_COMMAND_NDRANGE_KERNEL, std::move(Cmd),
                        std::move(Mems), K, NumSyncPoints, SyncPoints,
                        SyncPoint, /*IsBarrier=*/false, std::move(Uses));
}

} // extern "C"
