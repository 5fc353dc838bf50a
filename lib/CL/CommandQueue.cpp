//===- CommandQueue.cpp - Queues, markers, barriers, flush and finish -----===//

#include "CommandQueue.h"

#include <algorithm>

namespace weft {

CommandQueue::CommandQueue(Context &C, Device &D,
                           cl_command_queue_properties P,
                           std::vector<cl_queue_properties> List)
    : _cl_command_queue(ObjectKind::CommandQueue), Ctx(C), Dev(D), Props(P),
      PropertyList(std::move(List)) {
  Ctx.retainInternal();
}

CommandQueue::~CommandQueue() {
  if (Last)
    Last->releaseInternal();
  if (LastBarrier)
    LastBarrier->releaseInternal();
  for (Event *E : Outstanding)
    E->releaseInternal();
  Ctx.releaseInternal();
}

void CommandQueue::lastExternalRelease() {
  // clReleaseCommandQueue performs an implicit flush; commands are already
  // submitted, and they keep the queue alive until they complete. No
  // command can be enqueued any more, so the queue lets go of the events
  // it tracked for ordering: they hold the queue, and keeping them would
  // be a reference cycle that never frees either.
  std::vector<Event *> Held;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Held.swap(Outstanding);
    if (Last)
      Held.push_back(Last);
    if (LastBarrier)
      Held.push_back(LastBarrier);
    Last = LastBarrier = nullptr;
  }
  for (Event *E : Held)
    E->releaseInternal();
}

void CommandQueue::pruneOutstanding() {
  auto Done = [](Event *E) {
    if (E->status() > CL_COMPLETE)
      return false;
    E->releaseInternal();
    return true;
  };
  Outstanding.erase(
      std::remove_if(Outstanding.begin(), Outstanding.end(), Done),
      Outstanding.end());
}

Event *CommandQueue::beginCommand(cl_command_type Type, cl_uint NumEvents,
                                  const cl_event *WaitList) {
  Event *E = new Event(Ctx, this, Type);
  for (cl_uint I = 0; I < NumEvents; ++I)
    E->addDependency(castEvent(WaitList[I]));
  holdEnqueueOrder(E);
  std::lock_guard<std::mutex> Guard(Lock);
  orderCommand(E, NumEvents);
  return E;
}

void CommandQueue::holdEnqueueOrder(Event *E) {
  if (!Ctx.hasOwnMemoryDevice())
    return;
  Ctx.enqueueOrderLock().lock();
  E->HoldsEnqueueOrder = true;
}

Event *CommandQueue::beginCommandGroup(cl_command_type Type,
                                       cl_uint NumEvents,
                                       const cl_event *WaitList,
                                       Event *&GroupEnd) {
  Event *Start = new Event(Ctx, this, Type);
  for (cl_uint I = 0; I < NumEvents; ++I)
    Start->addDependency(castEvent(WaitList[I]));
  Event *End = new Event(Ctx, this, Type);
  End->addDependency(Start);
  // Until the group's end is enqueued: its commands are tracked in between.
  holdEnqueueOrder(End);
  // Under one hold of the lock: no command of another thread comes
  // between the two.
  std::lock_guard<std::mutex> Guard(Lock);
  orderCommand(Start, NumEvents);
  orderCommand(End, NumEvents);
  GroupEnd = End;
  return Start;
}

void CommandQueue::orderCommand(Event *E, cl_uint NumEvents) {
  cl_command_type Type = E->commandType();
  if (!isOutOfOrder()) {
    // In order, every command waits for its predecessor.
    if (Last) {
      E->addDependency(Last, /*PropagatesFailure=*/false);
      Last->releaseInternal();
    }
    E->retainInternal();
    Last = E;
    return;
  }
  // Out of order: only the wait list and the last barrier order a command.
  // A barrier, and a marker without a wait list, wait for everything
  // enqueued before them.
  bool IsBarrier = Type == CL_COMMAND_BARRIER;
  bool WaitsForAll = (IsBarrier || Type == CL_COMMAND_MARKER) && !NumEvents;
  pruneOutstanding();
  if (WaitsForAll)
    for (Event *Before : Outstanding)
      E->addDependency(Before, /*PropagatesFailure=*/false);
  if (LastBarrier)
    E->addDependency(LastBarrier, /*PropagatesFailure=*/false);
  if (IsBarrier) {
    if (LastBarrier)
      LastBarrier->releaseInternal();
    E->retainInternal();
    LastBarrier = E;
  }
  E->retainInternal();
  Outstanding.push_back(E);
  if (Last)
    Last->releaseInternal();
  E->retainInternal();
  Last = E;
}

cl_int CommandQueue::finishEnqueue(Event *E, cl_event *EventRet,
                                   bool Blocking) {
  if (E->HoldsEnqueueOrder) {
    E->HoldsEnqueueOrder = false;
    Ctx.enqueueOrderLock().unlock();
  }
  E->submit();
  cl_int Result = CL_SUCCESS;
  if (Blocking && E->wait() < 0)
    Result = WEFT_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                        "a command this one waited for failed");
  if (EventRet)
    *EventRet = E;
  else
    E->release();
  return Result;
}

cl_int CommandQueue::finish() {
  std::vector<Event *> Pending;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    pruneOutstanding();
    Pending = Outstanding;
    if (Last)
      Pending.push_back(Last);
    for (Event *E : Pending)
      E->retainInternal();
  }
  for (Event *E : Pending) {
    E->wait();
    E->releaseInternal();
  }
  return CL_SUCCESS;
}

/// Checks a queue property list and extracts the properties bit-field.
static cl_int parseQueueProperties(const cl_queue_properties *List,
                                   cl_command_queue_properties &Props,
                                   std::vector<cl_queue_properties> &Out) {
  Props = 0;
  if (!List)
    return CL_SUCCESS;
  for (const cl_queue_properties *P = List; *P; P += 2) {
    switch (P[0]) {
    case CL_QUEUE_PROPERTIES:
      Props = static_cast<cl_command_queue_properties>(P[1]);
      break;
    case CL_QUEUE_SIZE:
      return WEFT_ERROR(CL_INVALID_QUEUE_PROPERTIES,
                        "CL_QUEUE_SIZE is for device queues");
    default:
      return WEFT_ERROR(CL_INVALID_VALUE, "unknown queue property");
    }
    Out.push_back(P[0]);
    Out.push_back(P[1]);
  }
  Out.push_back(0);
  return CL_SUCCESS;
}

static cl_command_queue createQueue(cl_context C, cl_device_id D,
                                    cl_command_queue_properties Props,
                                    std::vector<cl_queue_properties> List,
                                    cl_int *ErrcodeRet) {
  Context *Ctx = castContext(C);
  Device *Dev = castDevice(D);
  cl_int Err = CL_SUCCESS;
  const cl_command_queue_properties Known =
      CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE |
      CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;
  if (!Ctx)
    Err = WEFT_ERROR(CL_INVALID_CONTEXT, "bad context");
  else if (!Dev || !Ctx->hasDevice(Dev))
    Err = WEFT_ERROR(CL_INVALID_DEVICE, "device not in the context");
  else if (Props & ~Known)
    Err = WEFT_ERROR(CL_INVALID_VALUE, "unknown queue property bits");
  else if (Props & ~Dev->description().QueueProperties)
    Err = WEFT_ERROR(CL_INVALID_QUEUE_PROPERTIES,
                     "queue properties the device does not support");
  if (Err != CL_SUCCESS) {
    setError(ErrcodeRet, Err);
    return nullptr;
  }
  setError(ErrcodeRet, CL_SUCCESS);
  return new CommandQueue(*Ctx, *Dev, Props, std::move(List));
}

} // namespace weft

using namespace weft;

extern "C" {

CL_API_ENTRY cl_command_queue CL_API_CALL
clCreateCommandQueue(cl_context C, cl_device_id D,
                     cl_command_queue_properties Props, cl_int *ErrcodeRet) {
  return createQueue(C, D, Props, {}, ErrcodeRet);
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(
    cl_context C, cl_device_id D, const cl_queue_properties *Properties,
    cl_int *ErrcodeRet) {
  cl_command_queue_properties Props;
  std::vector<cl_queue_properties> List;
  cl_int Err = parseQueueProperties(Properties, Props, List);
  if (Err != CL_SUCCESS) {
    setError(ErrcodeRet, Err);
    return nullptr;
  }
  return createQueue(C, D, Props, std::move(List), ErrcodeRet);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue Q) {
  CommandQueue *Queue = castQueue(Q);
  if (!Queue)
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue");
  Queue->retain();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue Q) {
  CommandQueue *Queue = castQueue(Q);
  if (!Queue)
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue");
  Queue->release();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetCommandQueueInfo(
    cl_command_queue Q, cl_command_queue_info ParamName, size_t ParamValueSize,
    void *ParamValue, size_t *ParamValueSizeRet) {
  CommandQueue *Queue = castQueue(Q);
  if (!Queue)
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue");
  switch (ParamName) {
  case CL_QUEUE_CONTEXT:
    return returnValue<cl_context>(&Queue->context(), ParamValueSize,
                                   ParamValue, ParamValueSizeRet);
  case CL_QUEUE_DEVICE:
    return returnValue<cl_device_id>(&Queue->device(), ParamValueSize,
                                     ParamValue, ParamValueSizeRet);
  case CL_QUEUE_REFERENCE_COUNT:
    return returnValue<cl_uint>(Queue->referenceCount(), ParamValueSize,
                                ParamValue, ParamValueSizeRet);
  case CL_QUEUE_PROPERTIES:
    return returnValue<cl_command_queue_properties>(
        Queue->properties(), ParamValueSize, ParamValue, ParamValueSizeRet);
  case CL_QUEUE_PROPERTIES_ARRAY:
    return returnVector(Queue->propertyList(), ParamValueSize, ParamValue,
                        ParamValueSizeRet);
  case CL_QUEUE_SIZE:
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "not a device queue");
  case CL_QUEUE_DEVICE_DEFAULT:
    return returnValue<cl_command_queue>(nullptr, ParamValueSize, ParamValue,
                                         ParamValueSizeRet);
  default:
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown cl_command_queue_info");
  }
}

CL_API_ENTRY cl_int CL_API_CALL clSetCommandQueueProperty(
    cl_command_queue Q, cl_command_queue_properties, cl_bool,
    cl_command_queue_properties *) {
  if (!castQueue(Q))
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue");
  return WEFT_ERROR(CL_INVALID_OPERATION, "deprecated since OpenCL 1.1");
}

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue Q) {
  if (!castQueue(Q))
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue");
  // Commands are handed to the device as soon as they are ready.
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue Q) {
  CommandQueue *Queue = castQueue(Q);
  if (!Queue)
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue");
  return Queue->finish();
}

static cl_int enqueueMarker(cl_command_queue Q, cl_command_type Type,
                            cl_uint NumEvents, const cl_event *WaitList,
                            cl_event *EventRet) {
  CommandQueue *Queue = castQueue(Q);
  if (!Queue)
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue");
  cl_int Err = validateWaitList(NumEvents, WaitList, &Queue->context());
  if (Err != CL_SUCCESS)
    return Err;
  Event *E = Queue->beginCommand(Type, NumEvents, WaitList);
  return Queue->finishEnqueue(E, EventRet);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(
    cl_command_queue Q, cl_uint NumEvents, const cl_event *WaitList,
    cl_event *EventRet) {
  return enqueueMarker(Q, CL_COMMAND_MARKER, NumEvents, WaitList, EventRet);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrierWithWaitList(
    cl_command_queue Q, cl_uint NumEvents, const cl_event *WaitList,
    cl_event *EventRet) {
  return enqueueMarker(Q, CL_COMMAND_BARRIER, NumEvents, WaitList, EventRet);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue Q,
                                                cl_event *EventRet) {
  if (!EventRet)
    return WEFT_ERROR(CL_INVALID_VALUE, "NULL event");
  return enqueueMarker(Q, CL_COMMAND_MARKER, 0, nullptr, EventRet);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue Q) {
  return enqueueMarker(Q, CL_COMMAND_BARRIER, 0, nullptr, nullptr);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWaitForEvents(
    cl_command_queue Q, cl_uint NumEvents, const cl_event *EventList) {
  if (NumEvents == 0 || !EventList)
    return WEFT_ERROR(CL_INVALID_VALUE, "empty event list");
  cl_int Err = enqueueMarker(Q, CL_COMMAND_BARRIER, NumEvents, EventList,
                             nullptr);
  return Err == CL_INVALID_EVENT_WAIT_LIST ? CL_INVALID_EVENT : Err;
}

} // extern "C"
