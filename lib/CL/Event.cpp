//===- Event.cpp - Events, the command DAG, clWaitForEvents ---------------===//

#include "Event.h"

#include "CommandQueue.h"
#include "Context.h"
#include "Timer.h"

#include "weft/spin.h"

#include <algorithm>
#include <chrono>

#include <sched.h>

namespace weft {

void commandRunning(Command &Cmd) {
  static_cast<Event *>(Cmd.RuntimeData)->markRunning();
}

void commandComplete(Command &Cmd, cl_int Status) {
  static_cast<Event *>(Cmd.RuntimeData)->markComplete(Status);
}

Event::Event(Context &C, CommandQueue *Q, cl_command_type T)
    : _cl_event(ObjectKind::Event), Ctx(C), Queue(Q), Type(T),
      Profiled(Q && Q->profilingEnabled()) {
  Ctx.retainInternal();
  if (Queue)
    Queue->retainInternal();
  Cmd.RuntimeData = this;
  if (!Queue)
    Status = CL_SUBMITTED; // user events start submitted
  if (Profiled)
    Queued = monotonicNanoseconds();
}

Event::~Event() {
  if (Queue)
    Queue->releaseInternal();
  Ctx.releaseInternal();
}

cl_int Event::pollStatus() {
  cl_int Current = status();
  if (Current <= CL_COMPLETE || !Queue)
    return Current;
  // An application that spins on the status holds a core. When other
  // processes hold the rest, the device's workers wait a whole scheduler
  // time slice for a core (milliseconds per command: FloydWarshall --poll
  // 256 beside a busy loop per core ran 930 ms vs 2.3 ms with clFinish), so
  // the poller runs one piece of queued work itself. One piece, not the
  // command: an application polling between host work keeps its overlap.
  // Done() is asked before the first piece and after each one.
  unsigned Asked = 0;
  Queue->device().driver().runQueuedWork(
      [&] { return ++Asked > 1 || status() <= CL_COMPLETE; },
      DeviceDriver::Helper::Polling);
  // Nothing to run here: the command's last pieces are on workers, which
  // may be waiting for this very core.
  if (Asked == 1 && status() > CL_COMPLETE)
    sched_yield();
  return status();
}

void Event::addDependency(Event *Dep, bool PropagatesFailure) {
  std::lock_guard<std::mutex> DepGuard(Dep->Lock);
  if (Dep->Status <= CL_COMPLETE) {
    if (Dep->Status < 0 && PropagatesFailure) {
      std::lock_guard<std::mutex> Guard(Lock);
      DependencyFailed = true;
    }
    return;
  }
  retainInternal();
  Dep->Dependants.push_back({this, PropagatesFailure});
  std::lock_guard<std::mutex> Guard(Lock);
  ++PendingDependencies;
}

void Event::submit() { dependencyDone(false); }

void Event::dependencyDone(bool Failed) {
  bool Ready;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    DependencyFailed |= Failed;
    Ready = --PendingDependencies == 0;
  }
  if (Ready)
    dispatch();
}

/// Moves the callbacks due once the event reaches NewStatus from Pending
/// to Due. Callers hold the event's lock and call Due after releasing it.
static void takeDueCallbacks(std::vector<Event::Callback> &Pending,
                             cl_int NewStatus,
                             std::vector<Event::Callback> &Due) {
  auto Reached = [NewStatus](const Event::Callback &C) {
    return NewStatus < 0 || C.Status >= NewStatus;
  };
  for (const Event::Callback &C : Pending)
    if (Reached(C))
      Due.push_back(C);
  Pending.erase(std::remove_if(Pending.begin(), Pending.end(), Reached),
                Pending.end());
}

void Event::dispatch() {
  bool Failed;
  std::vector<Callback> Due;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Failed = DependencyFailed;
    Status = CL_SUBMITTED;
    if (Profiled)
      Submitted = monotonicNanoseconds();
    if (!Failed)
      takeDueCallbacks(Callbacks, CL_SUBMITTED, Due);
  }
  for (const Callback &C : Due)
    C.Fn(this, CL_SUBMITTED, C.UserData);
  WEFT_LOG(DebugQueue, "command %p (type 0x%x) %s", static_cast<void *>(this),
           Type, Failed ? "fails: a dependency failed" : "submitted");
  if (Failed && Queue && (!Cmd.Before.empty() || !Cmd.After.empty())) {
    // The command does not run, but its transfers do: the runtime counted
    // on them when it was enqueued (which copies of its buffers are
    // current). They only copy what the command would have found, so the
    // data is as if nothing had been enqueued.
    Cmd.Kind = CommandKind::Marker;
    Cmd.Launch.reset();
    TransfersOnly = true;
  } else if (Failed) {
    markComplete(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    return;
  }
  // A marker with transfers (a map on a device with memory of its own)
  // goes to the driver, which makes them.
  if (!Queue || (Cmd.Kind == CommandKind::Marker && Cmd.Before.empty() &&
                 Cmd.After.empty())) {
    markRunning();
    markComplete(CL_COMPLETE);
    return;
  }
  // The driver holds the command until it reports completion.
  retainInternal();
  {
    std::lock_guard<std::mutex> Guard(Lock);
    HeldByDriver = true;
  }
  Queue->device().driver().submit(&Cmd);
}

void Event::onCompletion(std::function<void()> Fn) {
  std::lock_guard<std::mutex> Guard(Lock);
  CompletionActions.push_back(std::move(Fn));
}

void Event::markRunning() {
  std::vector<Callback> Due;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    if (Status <= CL_RUNNING || TransfersOnly)
      return;
    Status = CL_RUNNING;
    if (Profiled)
      Started = monotonicNanoseconds();
    takeDueCallbacks(Callbacks, CL_RUNNING, Due);
  }
  for (const Callback &C : Due)
    C.Fn(this, C.Status, C.UserData);
}

bool Event::markComplete(cl_int FinalStatus) {
  if (TransfersOnly && FinalStatus == CL_COMPLETE)
    FinalStatus = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  InlineFirstList<DependantLink> Released;
  std::vector<Callback> Due;
  InlineFirstList<std::function<void()>> Actions;
  bool WasHeldByDriver;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    // A user event's status is set once, even when threads race to set it.
    if (Status <= CL_COMPLETE || Completing)
      return false;
    Completing = true;
    Actions.swap(CompletionActions);
  }
  const cl_ulong EndTime = Profiled ? monotonicNanoseconds() : 0;
  // The command lets go of its memory objects and kernel before anyone can
  // see it complete: after clFinish, a buffer the application released is
  // gone and its destructor callbacks have run.
  Actions.forEach([](std::function<void()> &Action) { Action(); });
  {
    std::lock_guard<std::mutex> Guard(Lock);
    WasHeldByDriver = HeldByDriver;
    HeldByDriver = false;
    Ended = EndTime;
    if (!Started)
      Started = Ended;
    if (!Submitted)
      Submitted = Started;
    // A simulated device's duration, not the host's (weft/device.h).
    if (Profiled && Cmd.SimulatedNanoseconds) {
      Started = Queue->device().placeSimulated(Started,
                                               Cmd.SimulatedNanoseconds);
      Ended = Started + Cmd.SimulatedNanoseconds;
    }
    // Callbacks registered for statuses this event never passed through
    // still run, with the final status when it is an error.
    takeDueCallbacks(Callbacks, FinalStatus, Due);
    Status = FinalStatus;
    Released.swap(Dependants);
  }
  Finished.notify_all();
  WEFT_LOG(DebugQueue, "command %p complete, status %d",
           static_cast<void *>(this), FinalStatus);
  for (const Callback &C : Due)
    C.Fn(this, FinalStatus < 0 ? FinalStatus : C.Status, C.UserData);
  Released.forEach([FinalStatus](DependantLink &D) {
    D.Waiter->dependencyDone(FinalStatus < 0 && D.PropagatesFailure);
    D.Waiter->releaseInternal();
  });
  if (WasHeldByDriver)
    releaseInternal();
  return true;
}

cl_int Event::wait() {
  if (status() <= CL_COMPLETE)
    return status();
  // Rather than sleep, help the device: a small command then completes on
  // this thread with no wake-up on either side.
  if (Queue)
    Queue->device().driver().runQueuedWork(
        [this] { return status() <= CL_COMPLETE; },
        DeviceDriver::Helper::Waiting);
  // A command that is nearly done completes faster than a futex round
  // trip: look again for a few microseconds before sleeping.
  // Not on cores shared with other processes (weft/spin.h).
  auto Now = std::chrono::steady_clock::now();
  auto SpinUntil = Now + std::chrono::microseconds(spinningPays(Now) ? 20 : 0);
  while (status() > CL_COMPLETE &&
         std::chrono::steady_clock::now() < SpinUntil)
    if (!spinYield())
      break;
  std::unique_lock<std::mutex> Guard(Lock);
  Finished.wait(Guard, [this] { return Status <= CL_COMPLETE; });
  return Status;
}

void Event::addCallback(cl_int WhenStatus, CallbackFn Fn, void *UserData) {
  cl_int Current;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Current = Status;
    if (Current > WhenStatus) {
      Callbacks.push_back({WhenStatus, Fn, UserData});
      return;
    }
  }
  // Already reached: call now.
  Fn(this, Current < 0 ? Current : WhenStatus, UserData);
}

cl_ulong Event::profilingTime(cl_profiling_info Which) const {
  switch (Which) {
  case CL_PROFILING_COMMAND_QUEUED:
    return Queued;
  case CL_PROFILING_COMMAND_SUBMIT:
    return Submitted;
  case CL_PROFILING_COMMAND_START:
    return Started;
  default:
    return Ended;
  }
}

cl_int validateWaitList(cl_uint NumEvents, const cl_event *EventList,
                        Context *Ctx) {
  if ((NumEvents == 0) != (EventList == nullptr))
    return WEFT_ERROR(CL_INVALID_EVENT_WAIT_LIST,
                      "num_events and event_wait_list disagree");
  for (cl_uint I = 0; I < NumEvents; ++I) {
    Event *E = castEvent(EventList[I]);
    if (!E)
      return WEFT_ERROR(CL_INVALID_EVENT_WAIT_LIST, "bad event in wait list");
    if (Ctx && &E->context() != Ctx)
      return WEFT_ERROR(CL_INVALID_CONTEXT,
                        "wait-list event from another context");
  }
  return CL_SUCCESS;
}

cl_int waitForEvents(cl_uint NumEvents, const cl_event *EventList) {
  cl_int Result = CL_SUCCESS;
  for (cl_uint I = 0; I < NumEvents; ++I)
    if (castEvent(EventList[I])->wait() < 0)
      Result = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  return Result;
}

} // namespace weft

using namespace weft;

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint NumEvents,
                                                const cl_event *EventList) {
  if (NumEvents == 0 || !EventList)
    return WEFT_ERROR(CL_INVALID_VALUE, "empty wait list");
  Context *First = nullptr;
  for (cl_uint I = 0; I < NumEvents; ++I) {
    Event *E = castEvent(EventList[I]);
    if (!E)
      return WEFT_ERROR(CL_INVALID_EVENT, "bad event");
    if (First && &E->context() != First)
      return WEFT_ERROR(CL_INVALID_CONTEXT, "events of several contexts");
    First = &E->context();
  }
  // Commands are submitted eagerly, so there is nothing to flush first.
  return waitForEvents(NumEvents, EventList);
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event EventId,
                                               cl_event_info ParamName,
                                               size_t ParamValueSize,
                                               void *ParamValue,
                                               size_t *ParamValueSizeRet) {
  Event *E = castEvent(EventId);
  if (!E)
    return WEFT_ERROR(CL_INVALID_EVENT, "bad event");
  switch (ParamName) {
  case CL_EVENT_COMMAND_QUEUE:
    return returnValue<cl_command_queue>(E->queue(), ParamValueSize,
                                         ParamValue, ParamValueSizeRet);
  case CL_EVENT_CONTEXT:
    return returnValue<cl_context>(&E->context(), ParamValueSize, ParamValue,
                                   ParamValueSizeRet);
  case CL_EVENT_COMMAND_TYPE:
    return returnValue<cl_command_type>(E->commandType(), ParamValueSize,
                                        ParamValue, ParamValueSizeRet);
  case CL_EVENT_COMMAND_EXECUTION_STATUS:
    return returnValue<cl_int>(E->pollStatus(), ParamValueSize, ParamValue,
                               ParamValueSizeRet);
  case CL_EVENT_REFERENCE_COUNT:
    return returnValue<cl_uint>(E->referenceCount(), ParamValueSize,
                                ParamValue, ParamValueSizeRet);
  default:
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown cl_event_info");
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(
    cl_event EventId, cl_profiling_info ParamName, size_t ParamValueSize,
    void *ParamValue, size_t *ParamValueSizeRet) {
  Event *E = castEvent(EventId);
  if (!E)
    return WEFT_ERROR(CL_INVALID_EVENT, "bad event");
  if (!E->queue() || !E->queue()->profilingEnabled())
    return WEFT_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE,
                      "queue without CL_QUEUE_PROFILING_ENABLE");
  switch (ParamName) {
  case CL_PROFILING_COMMAND_QUEUED:
  case CL_PROFILING_COMMAND_SUBMIT:
  case CL_PROFILING_COMMAND_START:
  case CL_PROFILING_COMMAND_END:
  case CL_PROFILING_COMMAND_COMPLETE:
    break;
  default:
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown cl_profiling_info");
  }
  if (E->status() != CL_COMPLETE)
    return WEFT_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE, "command not complete");
  return returnValue<cl_ulong>(E->profilingTime(ParamName), ParamValueSize,
                               ParamValue, ParamValueSizeRet);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event EventId) {
  Event *E = castEvent(EventId);
  if (!E)
    return WEFT_ERROR(CL_INVALID_EVENT, "bad event");
  E->retain();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event EventId) {
  Event *E = castEvent(EventId);
  if (!E)
    return WEFT_ERROR(CL_INVALID_EVENT, "bad event");
  E->release();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(cl_event EventId,
                                                   cl_int CallbackType,
                                                   Event::CallbackFn Fn,
                                                   void *UserData) {
  Event *E = castEvent(EventId);
  if (!E)
    return WEFT_ERROR(CL_INVALID_EVENT, "bad event");
  if (!Fn || (CallbackType != CL_SUBMITTED && CallbackType != CL_RUNNING &&
              CallbackType != CL_COMPLETE))
    return WEFT_ERROR(CL_INVALID_VALUE, "bad callback or callback type");
  E->addCallback(CallbackType, Fn, UserData);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context C,
                                                    cl_int *ErrcodeRet) {
  Context *Ctx = castContext(C);
  if (!Ctx) {
    setError(ErrcodeRet, WEFT_ERROR(CL_INVALID_CONTEXT, "bad context"));
    return nullptr;
  }
  setError(ErrcodeRet, CL_SUCCESS);
  return new Event(*Ctx, nullptr, CL_COMMAND_USER);
}

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event EventId,
                                                     cl_int ExecutionStatus) {
  Event *E = castEvent(EventId);
  if (!E || E->queue() || E->commandType() != CL_COMMAND_USER)
    return WEFT_ERROR(CL_INVALID_EVENT, "not a user event");
  if (ExecutionStatus > CL_COMPLETE)
    return WEFT_ERROR(CL_INVALID_VALUE, "status must be CL_COMPLETE or < 0");
  if (!E->markComplete(ExecutionStatus))
    return WEFT_ERROR(CL_INVALID_OPERATION, "status already set");
  return CL_SUCCESS;
}

} // extern "C"
