//===- Event.h - cl_event and the command DAG ------------------------------===//
//
// Every enqueued command is an Event that owns the device-level Command.
// Events form a DAG: a command waits for its wait list and, on an in-order
// queue, for the command enqueued before it. When its last dependency
// completes, the command is handed to its device's driver; when the driver
// reports completion, the event's status changes, waiters wake up,
// callbacks run and dependants are released in turn. A dependency that
// fails makes its dependants fail with
// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST instead of running.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_CL_EVENT_H
#define WEFT_LIB_CL_EVENT_H

#include "Object.h"

#include "weft/device.h"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <vector>

namespace weft {

class CommandQueue;
class Context;
class Device;

/// A list whose first element lives in place. Nearly every event has one
/// completion action and at most one dependant (the next command of its
/// queue): a vector would allocate for each, twice per command.
template <typename T> class InlineFirstList {
public:
  void push_back(T V) {
    if (HasFirst)
      Rest.push_back(std::move(V));
    else
      First = std::move(V), HasFirst = true;
  }
  void swap(InlineFirstList &Other) {
    std::swap(First, Other.First);
    std::swap(HasFirst, Other.HasFirst);
    Rest.swap(Other.Rest);
  }
  template <typename Fn> void forEach(Fn F) {
    if (!HasFirst)
      return;
    F(First);
    for (T &V : Rest)
      F(V);
  }

private:
  T First{};
  bool HasFirst = false;
  std::vector<T> Rest;
};

class Event : public _cl_event, public RefCounted<Event> {
public:
  using CallbackFn = void(CL_CALLBACK *)(cl_event, cl_int, void *);

  /// A command of Queue (on its device); Queue may be null for user events.
  Event(Context &Ctx, CommandQueue *Queue, cl_command_type Type);
  ~Event();

  Context &context() const { return Ctx; }
  CommandQueue *queue() const { return Queue; }
  cl_command_type commandType() const { return Type; }
  /// Takes no lock: applications poll it in tight loops.
  cl_int status() const { return Status.load(std::memory_order_acquire); }
  /// The status for an application polling it (clGetEventInfo): while the
  /// command is not final, the polling thread first runs a piece of queued
  /// work of the device, so that a command whose workers lost their cores
  /// to other processes still advances (see Event.cpp).
  cl_int pollStatus();
  Command &command() { return Cmd; }
  /// Takes over From's description of the work (all but RuntimeData).
  void setCommand(Command &&From) {
    void *Runtime = Cmd.RuntimeData;
    Cmd = std::move(From);
    Cmd.RuntimeData = Runtime;
  }

  /// Adds Dep to what this command waits for. Only before submit().
  /// A failure of Dep fails this command only through a wait list
  /// (PropagatesFailure); the implicit order of a queue just waits, so
  /// one failed command does not fail everything enqueued after it.
  void addDependency(Event *Dep, bool PropagatesFailure = true);
  /// Called when the command is fully described: it runs once every
  /// dependency is complete (possibly before this returns).
  void submit();
  /// Runs when the command has completed, successful or not (e.g. to
  /// release memory objects the command used).
  void onCompletion(std::function<void()> Fn);

  /// Blocks until the event is complete or failed; returns its status.
  cl_int wait();
  void addCallback(cl_int Status, CallbackFn Fn, void *UserData);
  /// Only once status() is CL_COMPLETE: the times are final then, and
  /// read without a lock.
  cl_ulong profilingTime(cl_profiling_info Which) const;

  // Called through the driver interface.
  void markRunning();
  /// Sets the final status; false if the event was already complete.
  bool markComplete(cl_int Status);

  struct Callback {
    cl_int Status;
    CallbackFn Fn;
    void *UserData;
  };

private:
  friend class CommandQueue; // HoldsEnqueueOrder
  void dependencyDone(bool Failed);
  void dispatch();

  Context &Ctx;
  CommandQueue *Queue;
  cl_command_type Type;
  Command Cmd;

  mutable std::mutex Lock;
  std::condition_variable Finished;
  /// Written under Lock, read without it (status()). The profiling times
  /// are written before the final status is published.
  std::atomic<cl_int> Status{CL_QUEUED};
  /// Dependencies not complete yet, plus one until submit() is called.
  unsigned PendingDependencies = 1;
  bool DependencyFailed = false;
  bool HeldByDriver = false;
  /// The enqueue holds its context's enqueueOrderLock for this event
  /// (released by CommandQueue::finishEnqueue).
  bool HoldsEnqueueOrder = false;
  /// A failed dependency: the driver makes only the command's transfers,
  /// and the event fails when they are done.
  bool TransfersOnly = false;
  struct DependantLink {
    Event *Waiter = nullptr;
    bool PropagatesFailure = false;
  };
  InlineFirstList<DependantLink> Dependants;
  std::vector<Callback> Callbacks;
  InlineFirstList<std::function<void()>> CompletionActions;
  /// Set by the markComplete that won: its completion actions are running
  /// and the status will follow.
  bool Completing = false;
  /// Commands of a queue with CL_QUEUE_PROFILING_ENABLE keep times; the
  /// others do not read the clock (four reads a command: with the example's
  /// own two, 11% of LaunchLatency's profile went to clock_gettime).
  const bool Profiled;
  cl_ulong Queued = 0, Submitted = 0, Started = 0, Ended = 0;
};

inline Event *castEvent(cl_event E) {
  return castHandle<Event, ObjectKind::Event>(E);
}

/// Waits for every event of a validated wait list; returns
/// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if one failed.
cl_int waitForEvents(cl_uint NumEvents, const cl_event *EventList);

} // namespace weft

#endif // WEFT_LIB_CL_EVENT_H
