//===- CommandQueue.h - cl_command_queue -----------------------------------===//
#ifndef WEFT_LIB_CL_COMMANDQUEUE_H
#define WEFT_LIB_CL_COMMANDQUEUE_H

#include "Context.h"
#include "Event.h"

#include <mutex>
#include <vector>

namespace weft {

class CommandQueue : public _cl_command_queue,
                     public RefCounted<CommandQueue> {
public:
  CommandQueue(Context &Ctx, Device &Dev, cl_command_queue_properties Props,
               std::vector<cl_queue_properties> PropertyList);
  ~CommandQueue();

  Context &context() const { return Ctx; }
  Device &device() const { return Dev; }
  cl_command_queue_properties properties() const { return Props; }
  const std::vector<cl_queue_properties> &propertyList() const {
    return PropertyList;
  }
  bool isOutOfOrder() const {
    return Props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
  }
  bool profilingEnabled() const { return Props & CL_QUEUE_PROFILING_ENABLE; }

  /// Starts a command: a new event that depends on the given (validated)
  /// wait list and, in order, on the previous command; out of order, on
  /// the last barrier (a barrier, or a marker without a wait list, on
  /// every command enqueued before it). The caller fills
  /// in event->command() and calls finishEnqueue().
  Event *beginCommand(cl_command_type Type, cl_uint NumEvents,
                      const cl_event *WaitList);
  /// Starts a group of commands that the queue orders as one (a command
  /// buffer's): returns its first event, which waits for the wait list and
  /// what the queue orders before it, and sets GroupEnd to its last, which
  /// waits for the first and whatever the caller adds, and which the
  /// queue orders later commands after. Both are of Type; the caller
  /// submits the first with finishEnqueue(First, nullptr), the commands of
  /// the group depend on it, and the last is submitted with finishEnqueue.
  Event *beginCommandGroup(cl_command_type Type, cl_uint NumEvents,
                           const cl_event *WaitList, Event *&GroupEnd);
  /// Submits the command; hands its event to the application through
  /// EventRet, or drops the application's reference. With Blocking, waits
  /// for the command and returns its failure, if any.
  cl_int finishEnqueue(Event *E, cl_event *EventRet, bool Blocking = false);

  /// Waits for every command enqueued so far.
  cl_int finish();

  void lastExternalRelease();

private:
  Context &Ctx;
  Device &Dev;
  cl_command_queue_properties Props;
  std::vector<cl_queue_properties> PropertyList;
  /// Orders E after what the queue's mode says it waits for and records
  /// it as the latest command. Lock is held.
  void orderCommand(Event *E, cl_uint NumEvents);
  /// In a context with an own-memory device, takes its enqueueOrderLock
  /// for E until finishEnqueue(E).
  void holdEnqueueOrder(Event *E);
  /// Drops completed commands from Outstanding. Lock is held.
  void pruneOutstanding();

  std::mutex Lock;
  /// The most recent command: in order, every command depends on it.
  Event *Last = nullptr;
  /// Out of order: the most recent barrier, which every later command
  /// waits for, and the commands enqueued since that may not be complete
  /// yet, which the next barrier or wait-list-less marker waits for.
  Event *LastBarrier = nullptr;
  std::vector<Event *> Outstanding;
};

inline CommandQueue *castQueue(cl_command_queue Q) {
  return castHandle<CommandQueue, ObjectKind::CommandQueue>(Q);
}

} // namespace weft

#endif // WEFT_LIB_CL_COMMANDQUEUE_H
