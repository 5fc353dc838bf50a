//===- SVM.cpp - Shared virtual memory --------------------------------------===//
//
// Every Weft device that offers SVM shares the host's address space, so an
// SVM allocation is host memory that kernels reach at the same address:
// coarse- and fine-grained buffers need no copies, map and unmap only
// order, and migration has nothing to move. The context remembers its
// allocations so that clSVMFree and CL_MEM_USES_SVM_POINTER can recognize
// them. Fine-grained system SVM (any malloc'ed pointer) and SVM atomics are
// not claimed.
//
//===----------------------------------------------------------------------===//

#include "CommandQueue.h"
#include "HostMemory.h"
#include "Kernel.h"

#include <cstdlib>
#include <cstring>

namespace weft {
namespace {

/// The SVM capabilities every device of the context has in common.
cl_device_svm_capabilities contextSvm(const Context &Ctx) {
  cl_device_svm_capabilities Common = ~cl_device_svm_capabilities(0);
  for (Device *D : Ctx.devices())
    Common &= D->description().SvmCapabilities;
  return Common;
}

cl_int validateSvmQueue(CommandQueue *Queue) {
  if (!Queue)
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue");
  if (!(Queue->device().description().SvmCapabilities &
        CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
    return WEFT_ERROR(CL_INVALID_OPERATION, "the device has no SVM");
  return CL_SUCCESS;
}

bool validFillPattern(const void *Pattern, size_t PatternSize) {
  return Pattern && PatternSize && !(PatternSize & (PatternSize - 1)) &&
         PatternSize <= 128;
}

/// An SVM command that only orders (map, unmap, migrate).
cl_int enqueueOrderingOnly(CommandQueue *Queue, cl_command_type Type,
                           cl_uint NumEvents, const cl_event *WaitList,
                           cl_event *EventRet, bool Blocking = false) {
  Event *E = Queue->beginCommand(Type, NumEvents, WaitList);
  return Queue->finishEnqueue(E, EventRet, Blocking);
}

} // namespace
} // namespace weft

using namespace weft;

extern "C" {

CL_API_ENTRY void *CL_API_CALL clSVMAlloc(cl_context C, cl_svm_mem_flags Flags,
                                          size_t Size, cl_uint Alignment) {
  Context *Ctx = castContext(C);
  if (!Ctx) {
    WEFT_ERROR(CL_INVALID_CONTEXT, "bad context");
    return nullptr;
  }
  cl_device_svm_capabilities Caps = contextSvm(*Ctx);
  const cl_svm_mem_flags Access =
      CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
  const cl_svm_mem_flags Known =
      Access | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
  cl_svm_mem_flags AccessSet = Flags & Access;
  if (!(Caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) || (Flags & ~Known) ||
      (AccessSet & (AccessSet - 1))) {
    WEFT_ERROR(CL_INVALID_VALUE, "no SVM or bad SVM flags");
    return nullptr;
  }
  if (((Flags & CL_MEM_SVM_FINE_GRAIN_BUFFER) &&
       !(Caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER)) ||
      ((Flags & CL_MEM_SVM_ATOMICS) &&
       (!(Caps & CL_DEVICE_SVM_ATOMICS) ||
        !(Flags & CL_MEM_SVM_FINE_GRAIN_BUFFER)))) {
    WEFT_ERROR(CL_INVALID_VALUE, "SVM kind the devices do not support");
    return nullptr;
  }
  if (Size == 0) {
    WEFT_ERROR(CL_INVALID_VALUE, "size is 0");
    return nullptr;
  }
  for (Device *D : Ctx->devices())
    if (Size > D->description().MaxMemAllocSize) {
      WEFT_ERROR(CL_INVALID_VALUE, "size above CL_DEVICE_MAX_MEM_ALLOC_SIZE");
      return nullptr;
    }
  // 0 means the largest data type's alignment; at most a page.
  size_t Align = Alignment ? Alignment : 128;
  if ((Align & (Align - 1)) || Align > 4096) {
    WEFT_ERROR(CL_INVALID_VALUE, "unsupported alignment");
    return nullptr;
  }
  Align = std::max<size_t>(Align, sizeof(void *));
  void *Ptr = allocateHostMemory(Size, Align);
  if (!Ptr)
    return nullptr;
  Ctx->addSvm(Ptr, {Size, Flags});
  WEFT_LOG(DebugMemory, "SVM allocation of %zu bytes at %p", Size, Ptr);
  return Ptr;
}

CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context C, void *Ptr) {
  Context *Ctx = castContext(C);
  if (!Ctx || !Ptr)
    return;
  // Only what clSVMAlloc returned is freed; anything else is ignored
  // rather than handed to free().
  if (Ctx->removeSvm(Ptr))
    freeHostMemory(Ptr);
  else
    WEFT_ERROR(CL_INVALID_VALUE, "not an SVM allocation of this context");
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel KernelId,
                                                         cl_uint Index,
                                                         const void *Value) {
  Kernel *K = castKernel(KernelId);
  if (!K)
    return WEFT_ERROR(CL_INVALID_KERNEL, "bad kernel");
  if (!(contextSvm(K->program().context()) & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
    return WEFT_ERROR(CL_INVALID_OPERATION, "no device of the context has SVM");
  return K->setArgSvm(Index, Value);
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel KernelId,
                                                    cl_kernel_exec_info Param,
                                                    size_t Size,
                                                    const void *Value) {
  Kernel *K = castKernel(KernelId);
  if (!K)
    return WEFT_ERROR(CL_INVALID_KERNEL, "bad kernel");
  cl_device_svm_capabilities Caps = contextSvm(K->program().context());
  switch (Param) {
  case CL_KERNEL_EXEC_INFO_SVM_PTRS:
    if (!Value || !Size || Size % sizeof(void *))
      return WEFT_ERROR(CL_INVALID_VALUE, "bad SVM pointer list");
    if (!(Caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
      return WEFT_ERROR(CL_INVALID_OPERATION, "no SVM");
    // Pointers reached indirectly need nothing: the device sees the whole
    // host address space.
    return CL_SUCCESS;
  case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
    if (!Value || Size != sizeof(cl_bool))
      return WEFT_ERROR(CL_INVALID_VALUE, "expects a cl_bool");
    if (*static_cast<const cl_bool *>(Value) &&
        !(Caps & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM))
      return WEFT_ERROR(CL_INVALID_OPERATION, "no fine-grained system SVM");
    return CL_SUCCESS;
  default:
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown cl_kernel_exec_info");
  }
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMFree(
    cl_command_queue Q, cl_uint NumPointers, void *Pointers[],
    void(CL_CALLBACK *FreeFn)(cl_command_queue, cl_uint, void *[], void *),
    void *UserData, cl_uint NumEvents, const cl_event *WaitList,
    cl_event *EventRet) {
  CommandQueue *Queue = castQueue(Q);
  if (cl_int Err = validateSvmQueue(Queue))
    return Err;
  if (NumPointers == 0 || !Pointers)
    return WEFT_ERROR(CL_INVALID_VALUE, "no SVM pointers");
  for (cl_uint I = 0; I < NumPointers; ++I)
    if (!Pointers[I])
      return WEFT_ERROR(CL_INVALID_VALUE, "NULL SVM pointer");
  if (cl_int Err = validateWaitList(NumEvents, WaitList, &Queue->context()))
    return Err;
  // The list is the application's and may be gone by the time the
  // command runs: keep a copy.
  auto List = std::make_shared<std::vector<void *>>(Pointers,
                                                    Pointers + NumPointers);
  Event *E = Queue->beginCommand(CL_COMMAND_SVM_FREE, NumEvents, WaitList);
  Context *Ctx = &Queue->context();
  Ctx->retainInternal();
  Queue->retainInternal();
  E->onCompletion([Ctx, Queue, List, FreeFn, UserData] {
    if (FreeFn)
      FreeFn(Queue, static_cast<cl_uint>(List->size()), List->data(),
             UserData);
    else
      for (void *P : *List)
        clSVMFree(Ctx, P);
    Queue->releaseInternal();
    Ctx->releaseInternal();
  });
  return Queue->finishEnqueue(E, EventRet);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemcpy(
    cl_command_queue Q, cl_bool Blocking, void *Dst, const void *Src,
    size_t Size, cl_uint NumEvents, const cl_event *WaitList,
    cl_event *EventRet) {
  CommandQueue *Queue = castQueue(Q);
  if (cl_int Err = validateSvmQueue(Queue))
    return Err;
  if (!Dst || !Src)
    return WEFT_ERROR(CL_INVALID_VALUE, "NULL pointer");
  auto *D = static_cast<const unsigned char *>(Dst);
  auto *S = static_cast<const unsigned char *>(Src);
  if (Size && D < S + Size && S < D + Size)
    return WEFT_ERROR(CL_MEM_COPY_OVERLAP, "source and destination overlap");
  if (cl_int Err = validateWaitList(NumEvents, WaitList, &Queue->context()))
    return Err;
  Event *E = Queue->beginCommand(CL_COMMAND_SVM_MEMCPY, NumEvents, WaitList);
  if (Size) {
    Command &Cmd = E->command();
    Cmd.Kind = CommandKind::CopyBuffer;
    Cmd.Dst = Dst;
    Cmd.Src = Src;
    Cmd.Size = Size;
  }
  return Queue->finishEnqueue(E, EventRet, Blocking);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemFill(
    cl_command_queue Q, void *Ptr, const void *Pattern, size_t PatternSize,
    size_t Size, cl_uint NumEvents, const cl_event *WaitList,
    cl_event *EventRet) {
  CommandQueue *Queue = castQueue(Q);
  if (cl_int Err = validateSvmQueue(Queue))
    return Err;
  if (!Ptr)
    return WEFT_ERROR(CL_INVALID_VALUE, "NULL SVM pointer");
  if (!validFillPattern(Pattern, PatternSize))
    return WEFT_ERROR(CL_INVALID_VALUE, "bad pattern or pattern size");
  if (reinterpret_cast<uintptr_t>(Ptr) % PatternSize || Size % PatternSize)
    return WEFT_ERROR(CL_INVALID_VALUE,
                      "pointer or size not a multiple of the pattern size");
  if (cl_int Err = validateWaitList(NumEvents, WaitList, &Queue->context()))
    return Err;
  Event *E = Queue->beginCommand(CL_COMMAND_SVM_MEMFILL, NumEvents, WaitList);
  if (Size) {
    Command &Cmd = E->command();
    Cmd.Kind = CommandKind::FillBuffer;
    Cmd.Dst = Ptr;
    Cmd.Size = Size;
    Cmd.Pattern.assign(static_cast<const unsigned char *>(Pattern),
                       static_cast<const unsigned char *>(Pattern) +
                           PatternSize);
  }
  return Queue->finishEnqueue(E, EventRet);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMap(
    cl_command_queue Q, cl_bool Blocking, cl_map_flags Flags, void *Ptr,
    size_t Size, cl_uint NumEvents, const cl_event *WaitList,
    cl_event *EventRet) {
  CommandQueue *Queue = castQueue(Q);
  if (cl_int Err = validateSvmQueue(Queue))
    return Err;
  const cl_map_flags Known =
      CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  if (!Ptr || Size == 0 || (Flags & ~Known) ||
      ((Flags & CL_MAP_WRITE_INVALIDATE_REGION) &&
       (Flags & (CL_MAP_READ | CL_MAP_WRITE))))
    return WEFT_ERROR(CL_INVALID_VALUE, "bad pointer, size or map flags");
  if (cl_int Err = validateWaitList(NumEvents, WaitList, &Queue->context()))
    return Err;
  return enqueueOrderingOnly(Queue, CL_COMMAND_SVM_MAP, NumEvents, WaitList,
                             EventRet, Blocking);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue Q,
                                                  void *Ptr, cl_uint NumEvents,
                                                  const cl_event *WaitList,
                                                  cl_event *EventRet) {
  CommandQueue *Queue = castQueue(Q);
  if (cl_int Err = validateSvmQueue(Queue))
    return Err;
  if (!Ptr)
    return WEFT_ERROR(CL_INVALID_VALUE, "NULL SVM pointer");
  if (cl_int Err = validateWaitList(NumEvents, WaitList, &Queue->context()))
    return Err;
  return enqueueOrderingOnly(Queue, CL_COMMAND_SVM_UNMAP, NumEvents, WaitList,
                             EventRet);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMigrateMem(
    cl_command_queue Q, cl_uint NumPointers, const void **Pointers,
    const size_t *Sizes, cl_mem_migration_flags Flags, cl_uint NumEvents,
    const cl_event *WaitList, cl_event *EventRet) {
  CommandQueue *Queue = castQueue(Q);
  if (cl_int Err = validateSvmQueue(Queue))
    return Err;
  if (NumPointers == 0 || !Pointers)
    return WEFT_ERROR(CL_INVALID_VALUE, "no SVM pointers");
  for (cl_uint I = 0; I < NumPointers; ++I)
    if (!Pointers[I])
      return WEFT_ERROR(CL_INVALID_VALUE, "NULL SVM pointer");
  (void)Sizes; // any size is valid; nothing moves
  if (Flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST |
                                      CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown migration flags");
  if (cl_int Err = validateWaitList(NumEvents, WaitList, &Queue->context()))
    return Err;
  return enqueueOrderingOnly(Queue, CL_COMMAND_SVM_MIGRATE_MEM, NumEvents,
                             WaitList, EventRet);
}

} // extern "C"
