//===- MemObject.cpp - Buffers and the commands that move their data ------===//

#include "MemObject.h"

#include "CommandQueue.h"
#include "HostMemory.h"
#include "Image.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace weft {

MemObject::MemObject(Context &C, cl_mem_flags F, size_t S, void *Host,
                     void *Store, bool Owns,
                     std::vector<cl_mem_properties> Props)
    : _cl_mem(ObjectKind::MemObject), Ctx(C), Flags(F), Size(S),
      HostPtr(Host), Storage(static_cast<unsigned char *>(Store)),
      OwnsStorage(Owns), Properties(std::move(Props)) {
  Ctx.retainInternal();
}

MemObject::MemObject(MemObject &P, cl_mem_flags F, size_t O, size_t S)
    : _cl_mem(ObjectKind::MemObject), Ctx(P.Ctx), Flags(F), Size(S),
      HostPtr(P.HostPtr ? static_cast<unsigned char *>(P.HostPtr) + O
                        : nullptr),
      Storage(P.Storage + O), OwnsStorage(false), Parent(&P), Origin(O) {
  Ctx.retainInternal();
  Parent->retainInternal();
}

MemObject::~MemObject() = default;

void MemObject::destroy() {
  // Most recently registered first, before the storage goes away.
  for (auto It = DestructorCallbacks.rbegin(); It != DestructorCallbacks.rend();
       ++It)
    It->first(this, It->second);
  Image.reset();
  if (Copies)
    for (const DeviceCopies::Copy &C : Copies->Copies) {
      C.Dev->driver().deallocate(C.Address);
      if (C.LastFetch)
        C.LastFetch->releaseInternal();
    }
  if (OwnsStorage)
    freeHostMemory(Storage);
  if (Parent)
    Parent->releaseInternal();
  Ctx.releaseInternal();
  releaseWeak();
}

void *MemObject::deviceAddress(const Device &D) const {
  if (D.driver().sharesHostMemory())
    return Storage;
  DeviceCopies *C = deviceCopies();
  DeviceCopies::Copy *Mine = C ? C->find(D) : nullptr;
  return Mine ? Mine->Address + Origin : nullptr;
}

using Dir = Transfer::Direction;

/// A copy of a Size-byte buffer on every device of Ctx with memory of its
/// own; null and an error (CL_MEM_OBJECT_ALLOCATION_FAILURE) if a device
/// has no room, with what was allocated freed again.
static std::unique_ptr<DeviceCopies>
allocateDeviceCopies(Context &Ctx, size_t Size, bool HasContents, cl_int &Err) {
  auto Copies = std::make_unique<DeviceCopies>();
  Copies->HostCurrent.add(0, Size);
  for (Device *D : Ctx.devices()) {
    if (D->driver().sharesHostMemory())
      continue;
    void *Address = D->driver().allocate(Size, BufferAlignment);
    if (!Address) {
      for (const DeviceCopies::Copy &C : Copies->Copies)
        C.Dev->driver().deallocate(C.Address);
      Err = WEFT_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE,
                       "no room in the device's memory");
      return nullptr;
    }
    // Without initial contents every copy is as good as another: none is
    // fetched before the first command.
    Copies->Copies.push_back({D, static_cast<unsigned char *>(Address), {}});
    if (!HasContents)
      Copies->Copies.back().Current.add(0, Size);
    WEFT_LOG(DebugMemory, "buffer of %zu bytes: copy at %p on %s", Size,
             Address, D->description().Name.c_str());
  }
  Err = CL_SUCCESS;
  return Copies;
}

void ByteRanges::add(size_t Begin, size_t End) {
  if (Begin >= End)
    return;
  // Merged with every range it overlaps or touches.
  auto First = std::lower_bound(
      Ranges.begin(), Ranges.end(), Begin,
      [](const Range &R, size_t At) { return R.second < At; });
  auto Last = First;
  for (; Last != Ranges.end() && Last->first <= End; ++Last) {
    Begin = std::min(Begin, Last->first);
    End = std::max(End, Last->second);
  }
  Ranges.insert(Ranges.erase(First, Last), {Begin, End});
}

void ByteRanges::remove(size_t Begin, size_t End) {
  if (Begin >= End)
    return;
  std::vector<Range> Kept;
  Kept.reserve(Ranges.size() + 1);
  for (const Range &R : Ranges) {
    if (R.second <= Begin || R.first >= End) {
      Kept.push_back(R);
      continue;
    }
    if (R.first < Begin)
      Kept.push_back({R.first, Begin});
    if (R.second > End)
      Kept.push_back({End, R.second});
  }
  Ranges.swap(Kept);
}

std::vector<ByteRanges::Range> ByteRanges::missing(size_t Begin,
                                                   size_t End) const {
  std::vector<Range> Gaps;
  size_t At = Begin;
  for (const Range &R : Ranges) {
    if (R.second <= At)
      continue;
    if (R.first >= End)
      break;
    if (R.first > At)
      Gaps.push_back({At, R.first});
    At = R.second;
    if (At >= End)
      break;
  }
  if (At < End)
    Gaps.push_back({At, End});
  return Gaps;
}

/// A fetch into a device copy is a write the application does not see: a
/// command of the device that counts on it must run after the command that
/// makes it, even when the application orders the two by nothing (both
/// only read the buffer, from two queues or an out-of-order one). Cmd
/// waits for the copy's last fetch, and becomes it when Fetches.
static void orderAfterFetch(DeviceCopies::Copy &Mine, Command &Cmd,
                            bool Fetches) {
  auto *E = static_cast<Event *>(Cmd.RuntimeData);
  if (!E)
    return;
  if (Mine.LastFetch && Mine.LastFetch != E) {
    if (Mine.LastFetch->status() > CL_COMPLETE)
      E->addDependency(Mine.LastFetch, /*PropagatesFailure=*/false);
    else if (!Fetches) {
      Mine.LastFetch->releaseInternal();
      Mine.LastFetch = nullptr;
    }
  }
  if (Fetches && Mine.LastFetch != E) {
    E->retainInternal();
    if (Mine.LastFetch)
      Mine.LastFetch->releaseInternal();
    Mine.LastFetch = E;
  }
}

/// Transfers of the bytes Gaps of Root between its host copy and Mine.
static void addTransfers(std::vector<Transfer> &To, Transfer::Direction D,
                         MemObject &Root, const DeviceCopies::Copy &Mine,
                         const std::vector<ByteRanges::Range> &Gaps) {
  for (const ByteRanges::Range &G : Gaps)
    To.push_back({D, Mine.Address + G.first, Root.storage() + G.first,
                  G.second - G.first});
}

void trackBufferUsesSlow(const Context &Ctx, const Device &Dev, Command &Cmd,
                         const BufferUse *Uses, size_t Count) {
  const bool OwnMemory = !Dev.driver().sharesHostMemory();
  for (size_t I = 0; I < Count; ++I) {
    const BufferUse &U = Uses[I];
    MemObject &Root = U.Mem->root();
    DeviceCopies *C = Root.deviceCopies();
    if (!C)
      continue; // an image: no copies, and no device of its own memory uses it
    size_t Begin = U.Mem->origin() + U.Offset, End = Begin + U.Size;
    std::lock_guard<std::mutex> Guard(C->Lock);
    if (!OwnMemory) {
      // Dev works in the host copy, which is current in every context with
      // such a device: the others' copies are stale after a write.
      if (U.Writes)
        for (DeviceCopies::Copy &Other : C->Copies)
          Other.Current.remove(Begin, End);
      continue;
    }
    DeviceCopies::Copy *Mine = C->find(Dev);
    if (!Mine)
      continue; // cannot happen: each such device of the context has one
    // What is stale here is current in the host copy: only single-device
    // contexts let that go stale, and then only where this copy is current.
    // A use that only writes (a contiguous range) fetches nothing.
    size_t Fetches = Cmd.Before.size();
    if (U.Reads || !U.Writes)
      addTransfers(Cmd.Before, Dir::ToDevice, Root, *Mine,
                   Mine->Current.missing(Begin, End));
    Mine->Current.add(Begin, End);
    orderAfterFetch(*Mine, Cmd, Cmd.Before.size() > Fetches);
    if (!U.Writes)
      continue;
    for (DeviceCopies::Copy &Other : C->Copies)
      if (&Other != Mine)
        Other.Current.remove(Begin, End);
    if (Ctx.keepsHostCopyCurrent())
      addTransfers(Cmd.After, Dir::ToHost, Root, *Mine, {{Begin, End}});
    else
      C->HostCurrent.remove(Begin, End);
  }
}

void MemObject::addDestructorCallback(DestructorFn Fn, void *UserData) {
  std::lock_guard<std::mutex> Guard(Lock);
  DestructorCallbacks.emplace_back(Fn, UserData);
}

void MemObject::setImage(std::unique_ptr<ImageInfo> Info) {
  Image = std::move(Info);
}

static bool hasMoreThanOne(cl_mem_flags Flags, cl_mem_flags Group) {
  cl_mem_flags Set = Flags & Group;
  return Set & (Set - 1);
}

/// The flag rules shared by buffers and sub-buffers.
static cl_int validateAccessFlags(cl_mem_flags Flags) {
  const cl_mem_flags Known =
      CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY |
      CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR |
      CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
  if (Flags & ~Known)
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown cl_mem_flags bits");
  if (hasMoreThanOne(Flags, CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY |
                                CL_MEM_READ_ONLY))
    return WEFT_ERROR(CL_INVALID_VALUE, "conflicting device access flags");
  if (hasMoreThanOne(Flags, CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY |
                                CL_MEM_HOST_NO_ACCESS))
    return WEFT_ERROR(CL_INVALID_VALUE, "conflicting host access flags");
  return CL_SUCCESS;
}

static cl_mem createBuffer(cl_context C, const cl_mem_properties *Properties,
                           cl_mem_flags Flags, size_t Size, void *HostPtr,
                           cl_int *ErrcodeRet) {
  auto Fail = [&](cl_int Err) -> cl_mem {
    setError(ErrcodeRet, Err);
    return nullptr;
  };
  Context *Ctx = castContext(C);
  if (!Ctx)
    return Fail(WEFT_ERROR(CL_INVALID_CONTEXT, "bad context"));
  std::vector<cl_mem_properties> Props;
  if (Properties) {
    if (*Properties)
      return Fail(WEFT_ERROR(CL_INVALID_PROPERTY, "unknown buffer property"));
    Props.push_back(0);
  }
  if (Flags == 0)
    Flags = CL_MEM_READ_WRITE;
  if (cl_int Err = validateAccessFlags(Flags))
    return Fail(Err);
  if ((Flags & CL_MEM_USE_HOST_PTR) &&
      (Flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
    return Fail(WEFT_ERROR(CL_INVALID_VALUE,
                           "USE_HOST_PTR with ALLOC or COPY_HOST_PTR"));
  if (Size == 0)
    return Fail(WEFT_ERROR(CL_INVALID_BUFFER_SIZE, "size is 0"));
  for (Device *D : Ctx->devices())
    if (Size > D->description().MaxMemAllocSize)
      return Fail(WEFT_ERROR(CL_INVALID_BUFFER_SIZE,
                             "size exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE"));
  bool NeedsHostPtr = Flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (NeedsHostPtr != (HostPtr != nullptr))
    return Fail(WEFT_ERROR(CL_INVALID_HOST_PTR,
                           NeedsHostPtr ? "host_ptr is NULL"
                                        : "host_ptr without USE/COPY_HOST_PTR"));

  std::unique_ptr<DeviceCopies> Copies;
  if (Ctx->hasOwnMemoryDevice()) {
    cl_int Err;
    Copies = allocateDeviceCopies(*Ctx, Size, NeedsHostPtr, Err);
    if (!Copies)
      return Fail(Err);
  }
  void *Storage = HostPtr;
  bool Owns = false;
  if (!(Flags & CL_MEM_USE_HOST_PTR)) {
    Storage = allocateHostMemory(Size, BufferAlignment);
    if (!Storage) {
      if (Copies)
        for (const DeviceCopies::Copy &C : Copies->Copies)
          C.Dev->driver().deallocate(C.Address);
      return Fail(WEFT_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE,
                             "out of host memory"));
    }
    Owns = true;
    if (Flags & CL_MEM_COPY_HOST_PTR)
      memcpy(Storage, HostPtr, Size);
  }
  WEFT_LOG(DebugMemory, "buffer of %zu bytes at %p%s", Size, Storage,
           Owns ? "" : " (application's memory)");
  setError(ErrcodeRet, CL_SUCCESS);
  auto *Mem = new MemObject(*Ctx, Flags, Size, HostPtr, Storage, Owns,
                            std::move(Props));
  if (Copies)
    Mem->setDeviceCopies(std::move(Copies));
  return Mem;
}

/// clEnqueueMapBuffer's bookkeeping where Mem has device copies: the
/// mapping is the host copy, its stale bytes fetched from Dev's copy (not
/// for CL_MAP_WRITE_INVALIDATE_REGION, which fetches nothing); the mapping
/// is remembered for its unmap.
static void trackMap(const Device &Dev, Command &Cmd, MemObject &Mem,
                     size_t Offset, size_t Size, cl_map_flags Flags,
                     const void *Ptr) {
  DeviceCopies *C = Mem.deviceCopies();
  if (!C)
    return;
  MemObject &Root = Mem.root();
  size_t Begin = Mem.origin() + Offset;
  std::lock_guard<std::mutex> Guard(C->Lock);
  C->Mappings.push_back(
      {Ptr, Begin, Size,
       (Flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0});
  if (Flags & CL_MAP_WRITE_INVALIDATE_REGION)
    return;
  // The host copy is stale only in a context of this one device, and
  // there only where this device's copy is current.
  DeviceCopies::Copy *Mine = C->find(Dev);
  if (!Mine)
    return;
  addTransfers(Cmd.Before, Dir::ToHost, Root, *Mine,
               C->HostCurrent.missing(Begin, Begin + Size));
  C->HostCurrent.add(Begin, Begin + Size);
}

/// clEnqueueUnmapMemObject's: a writable mapping's range, current in the
/// host copy, goes to Dev's copy, and is stale in the others.
static void trackUnmap(const Device &Dev, Command &Cmd, MemObject &Mem,
                       const void *Ptr) {
  DeviceCopies *C = Mem.deviceCopies();
  if (!C)
    return;
  MemObject &Root = Mem.root();
  std::lock_guard<std::mutex> Guard(C->Lock);
  auto It = std::find_if(
      C->Mappings.begin(), C->Mappings.end(),
      [Ptr](const DeviceCopies::Mapping &M) { return M.Ptr == Ptr; });
  if (It == C->Mappings.end())
    return;
  DeviceCopies::Mapping M = *It;
  C->Mappings.erase(It);
  if (!M.Writes)
    return;
  size_t End = M.Offset + M.Size;
  DeviceCopies::Copy *Mine = C->find(Dev);
  for (DeviceCopies::Copy &Other : C->Copies)
    if (&Other != Mine)
      Other.Current.remove(M.Offset, End);
  C->HostCurrent.add(M.Offset, End);
  if (!Mine)
    return;
  addTransfers(Cmd.Before, Dir::ToDevice, Root, *Mine, {{M.Offset, End}});
  Mine->Current.add(M.Offset, End);
  orderAfterFetch(*Mine, Cmd, true);
}

/// clEnqueueMigrateMemObjects's: to the host, the host copy is fetched if
/// stale; to Dev, Dev's copy if stale; with CONTENT_UNDEFINED nothing
/// moves, the destination's copy is just declared current.
static void trackMigration(const Device &Dev, Command &Cmd, MemObject &Mem,
                           cl_mem_migration_flags Flags) {
  DeviceCopies *C = Mem.deviceCopies();
  if (!C)
    return;
  MemObject &Root = Mem.root();
  bool Undefined = Flags & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
  std::lock_guard<std::mutex> Guard(C->Lock);
  DeviceCopies::Copy *Mine = C->find(Dev);
  size_t End = Root.size();
  if (Flags & CL_MIGRATE_MEM_OBJECT_HOST) {
    // A stale host byte is current on this device: the host copy goes
    // stale only in a context of this one device.
    if (!Undefined && Mine)
      addTransfers(Cmd.Before, Dir::ToHost, Root, *Mine,
                   C->HostCurrent.missing(0, End));
    C->HostCurrent.add(0, End);
    return;
  }
  if (!Mine)
    return; // Dev works in the host copy
  size_t Fetches = Cmd.Before.size();
  if (!Undefined)
    addTransfers(Cmd.Before, Dir::ToDevice, Root, *Mine,
                 Mine->Current.missing(0, End));
  Mine->Current.add(0, End);
  orderAfterFetch(*Mine, Cmd, Cmd.Before.size() > Fetches);
}

/// Validates what every buffer transfer checks, in the specification's order.
static cl_int validateTransfer(CommandQueue *Queue, MemObject *Mem,
                               size_t Offset, size_t Size, const void *Ptr,
                               cl_uint NumEvents, const cl_event *WaitList) {
  if (!Queue)
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue");
  if (!Mem)
    return WEFT_ERROR(CL_INVALID_MEM_OBJECT, "bad buffer");
  if (&Mem->context() != &Queue->context())
    return WEFT_ERROR(CL_INVALID_CONTEXT, "buffer and queue contexts differ");
  if (Offset > Mem->size() || Size > Mem->size() - Offset)
    return WEFT_ERROR(CL_INVALID_VALUE, "region outside the buffer");
  if (!Ptr || Size == 0)
    return WEFT_ERROR(CL_INVALID_VALUE, "NULL pointer or zero size");
  return validateWaitList(NumEvents, WaitList, &Queue->context());
}

/// Keeps the buffers a command touches alive until it completes.
static void holdUntilComplete(Event *E, MemObject *Mem) {
  Mem->retainInternal();
  E->onCompletion([Mem] { Mem->releaseInternal(); });
}

/// clEnqueueReadBuffer and clEnqueueWriteBuffer: the same checks and the
/// same command, in opposite directions.
static cl_int enqueueHostTransfer(cl_command_queue Q, cl_mem Buffer,
                                  cl_bool Blocking, size_t Offset, size_t Size,
                                  void *Ptr, bool IsRead, cl_uint NumEvents,
                                  const cl_event *WaitList,
                                  cl_event *EventRet) {
  CommandQueue *Queue = castQueue(Q);
  MemObject *Mem = castBuffer(Buffer);
  if (cl_int Err =
          validateTransfer(Queue, Mem, Offset, Size, Ptr, NumEvents, WaitList))
    return Err;
  cl_mem_flags Forbidden =
      IsRead ? CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS
             : CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
  if (Mem->flags() & Forbidden)
    return WEFT_ERROR(CL_INVALID_OPERATION,
                      IsRead ? "buffer is not host-readable"
                             : "buffer is not host-writable");
  Event *E = Queue->beginCommand(
      IsRead ? CL_COMMAND_READ_BUFFER : CL_COMMAND_WRITE_BUFFER, NumEvents,
      WaitList);
  Command &Cmd = E->command();
  char *Device = static_cast<char *>(Mem->deviceAddress(Queue->device()));
  Cmd.Kind = IsRead ? CommandKind::ReadBuffer : CommandKind::WriteBuffer;
  Cmd.Src = IsRead ? Device + Offset : Ptr;
  Cmd.Dst = IsRead ? Ptr : Device + Offset;
  Cmd.Size = Size;
  trackBufferUses(Queue->context(), Queue->device(), Cmd,
                  {{Mem, Offset, Size, IsRead, !IsRead}});
  holdUntilComplete(E, Mem);
  return Queue->finishEnqueue(E, EventRet, Blocking);
}

cl_int prepareCopyBuffer(CommandQueue &Queue, MemObject *Src, MemObject *Dst,
                         size_t SrcOffset, size_t DstOffset, size_t Size,
                         Command &Cmd) {
  if (!Src || !Dst)
    return WEFT_ERROR(CL_INVALID_MEM_OBJECT, "bad buffer");
  if (&Src->context() != &Queue.context() ||
      &Dst->context() != &Queue.context())
    return WEFT_ERROR(CL_INVALID_CONTEXT, "buffers and queue contexts differ");
  if (Size == 0 || SrcOffset > Src->size() ||
      Size > Src->size() - SrcOffset || DstOffset > Dst->size() ||
      Size > Dst->size() - DstOffset)
    return WEFT_ERROR(CL_INVALID_VALUE, "region outside a buffer");
  unsigned char *SrcStart = Src->storage() + SrcOffset;
  unsigned char *DstStart = Dst->storage() + DstOffset;
  bool SameStorage = Src == Dst || Src->parent() == Dst ||
                     Dst->parent() == Src ||
                     (Src->parent() && Src->parent() == Dst->parent());
  if (SameStorage && SrcStart < DstStart + Size && DstStart < SrcStart + Size)
    return WEFT_ERROR(CL_MEM_COPY_OVERLAP, "source and destination overlap");
  Cmd.Kind = CommandKind::CopyBuffer;
  Cmd.Src =
      static_cast<char *>(Src->deviceAddress(Queue.device())) + SrcOffset;
  Cmd.Dst =
      static_cast<char *>(Dst->deviceAddress(Queue.device())) + DstOffset;
  Cmd.Size = Size;
  return CL_SUCCESS;
}

cl_int prepareFillBuffer(CommandQueue &Queue, MemObject *Mem,
                         const void *Pattern, size_t PatternSize,
                         size_t Offset, size_t Size, Command &Cmd) {
  if (!Mem)
    return WEFT_ERROR(CL_INVALID_MEM_OBJECT, "bad buffer");
  if (&Mem->context() != &Queue.context())
    return WEFT_ERROR(CL_INVALID_CONTEXT, "buffer and queue contexts differ");
  if (Offset > Mem->size() || Size > Mem->size() - Offset)
    return WEFT_ERROR(CL_INVALID_VALUE, "region outside the buffer");
  if (!Pattern || Size == 0)
    return WEFT_ERROR(CL_INVALID_VALUE, "NULL pattern or zero size");
  bool PowerOfTwo = PatternSize && !(PatternSize & (PatternSize - 1));
  if (!PowerOfTwo || PatternSize > 128 || Offset % PatternSize ||
      Size % PatternSize)
    return WEFT_ERROR(CL_INVALID_VALUE,
                      "bad pattern size, or offset/size not a multiple of it");
  Cmd.Kind = CommandKind::FillBuffer;
  Cmd.Dst = static_cast<char *>(Mem->deviceAddress(Queue.device())) + Offset;
  Cmd.Size = Size;
  Cmd.Pattern.assign(static_cast<const unsigned char *>(Pattern),
                     static_cast<const unsigned char *>(Pattern) + PatternSize);
  return CL_SUCCESS;
}

} // namespace weft

using namespace weft;

extern "C" {

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context C,
                                               cl_mem_flags Flags, size_t Size,
                                               void *HostPtr,
                                               cl_int *ErrcodeRet) {
  return createBuffer(C, nullptr, Flags, Size, HostPtr, ErrcodeRet);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBufferWithProperties(
    cl_context C, const cl_mem_properties *Properties, cl_mem_flags Flags,
    size_t Size, void *HostPtr, cl_int *ErrcodeRet) {
  return createBuffer(C, Properties, Flags, Size, HostPtr, ErrcodeRet);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(
    cl_mem Buffer, cl_mem_flags Flags, cl_buffer_create_type CreateType,
    const void *CreateInfo, cl_int *ErrcodeRet) {
  auto Fail = [&](cl_int Err) -> cl_mem {
    setError(ErrcodeRet, Err);
    return nullptr;
  };
  MemObject *Parent = castBuffer(Buffer);
  if (!Parent || Parent->parent())
    return Fail(WEFT_ERROR(CL_INVALID_MEM_OBJECT, "not a (top-level) buffer"));
  if (cl_int Err = validateAccessFlags(Flags))
    return Fail(Err);
  if (Flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR |
               CL_MEM_COPY_HOST_PTR))
    return Fail(WEFT_ERROR(CL_INVALID_VALUE, "host-pointer flags"));
  const cl_mem_flags Device =
      CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
  const cl_mem_flags Host =
      CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
  cl_mem_flags P = Parent->flags();
  if (((P & CL_MEM_WRITE_ONLY) &&
       (Flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
      ((P & CL_MEM_READ_ONLY) &&
       (Flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
      ((P & CL_MEM_HOST_WRITE_ONLY) && (Flags & CL_MEM_HOST_READ_ONLY)) ||
      ((P & CL_MEM_HOST_READ_ONLY) && (Flags & CL_MEM_HOST_WRITE_ONLY)) ||
      ((P & CL_MEM_HOST_NO_ACCESS) &&
       (Flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
    return Fail(WEFT_ERROR(CL_INVALID_VALUE, "flags conflict with parent's"));
  if (CreateType != CL_BUFFER_CREATE_TYPE_REGION)
    return Fail(WEFT_ERROR(CL_INVALID_VALUE, "unknown buffer_create_type"));
  if (!CreateInfo)
    return Fail(WEFT_ERROR(CL_INVALID_VALUE, "NULL buffer_create_info"));
  const auto *Region = static_cast<const cl_buffer_region *>(CreateInfo);
  if (Region->size == 0)
    return Fail(WEFT_ERROR(CL_INVALID_BUFFER_SIZE, "region size is 0"));
  if (Region->origin > Parent->size() ||
      Region->size > Parent->size() - Region->origin)
    return Fail(WEFT_ERROR(CL_INVALID_VALUE, "region outside the buffer"));
  bool Aligned = false;
  for (weft::Device *D : Parent->context().devices())
    if (Region->origin % (D->description().MemBaseAddrAlignBits / 8) == 0)
      Aligned = true;
  if (!Aligned)
    return Fail(WEFT_ERROR(CL_MISALIGNED_SUB_BUFFER_OFFSET,
                           "origin not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN"));
  // Unspecified access flags are inherited from the parent.
  if (!(Flags & Device))
    Flags |= P & Device;
  if (!(Flags & Host))
    Flags |= P & Host;
  Flags |= P & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR |
                CL_MEM_COPY_HOST_PTR);
  setError(ErrcodeRet, CL_SUCCESS);
  return new MemObject(*Parent, Flags, Region->origin, Region->size);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem M) {
  MemObject *Mem = castMemObject(M);
  if (!Mem)
    return WEFT_ERROR(CL_INVALID_MEM_OBJECT, "bad memory object");
  Mem->retain();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem M) {
  MemObject *Mem = castMemObject(M);
  if (!Mem)
    return WEFT_ERROR(CL_INVALID_MEM_OBJECT, "bad memory object");
  Mem->release();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetMemObjectDestructorCallback(
    cl_mem M, MemObject::DestructorFn Fn, void *UserData) {
  MemObject *Mem = castMemObject(M);
  if (!Mem)
    return WEFT_ERROR(CL_INVALID_MEM_OBJECT, "bad memory object");
  if (!Fn)
    return WEFT_ERROR(CL_INVALID_VALUE, "NULL callback");
  Mem->addDestructorCallback(Fn, UserData);
  return CL_SUCCESS;
}

// No Weft device supports pipes (CL_DEVICE_PIPE_SUPPORT is CL_FALSE), so no
// memory object is a pipe.
CL_API_ENTRY cl_mem CL_API_CALL clCreatePipe(cl_context C, cl_mem_flags,
                                             cl_uint, cl_uint,
                                             const cl_pipe_properties *,
                                             cl_int *ErrcodeRet) {
  if (!castContext(C))
    setError(ErrcodeRet, WEFT_ERROR(CL_INVALID_CONTEXT, "bad context"));
  else
    setError(ErrcodeRet, WEFT_ERROR(CL_INVALID_OPERATION,
                                    "no device of the context supports pipes"));
  return nullptr;
}

CL_API_ENTRY cl_int CL_API_CALL clGetPipeInfo(cl_mem M, cl_pipe_info, size_t,
                                              void *, size_t *) {
  if (!castMemObject(M))
    return WEFT_ERROR(CL_INVALID_MEM_OBJECT, "bad memory object");
  return WEFT_ERROR(CL_INVALID_MEM_OBJECT, "the memory object is not a pipe");
}

CL_API_ENTRY cl_int CL_API_CALL clGetMemObjectInfo(cl_mem M,
                                                   cl_mem_info ParamName,
                                                   size_t ParamValueSize,
                                                   void *ParamValue,
                                                   size_t *ParamValueSizeRet) {
  MemObject *Mem = castMemObject(M);
  if (!Mem)
    return WEFT_ERROR(CL_INVALID_MEM_OBJECT, "bad memory object");
  auto Ret = [&](const auto &V) {
    return returnValue(V, ParamValueSize, ParamValue, ParamValueSizeRet);
  };
  switch (ParamName) {
  case CL_MEM_TYPE:
    return Ret(Mem->image() ? Mem->image()->Type
                            : cl_mem_object_type(CL_MEM_OBJECT_BUFFER));
  case CL_MEM_FLAGS:
    return Ret(Mem->flags());
  case CL_MEM_SIZE:
    return Ret(Mem->size());
  case CL_MEM_HOST_PTR:
    return Ret(Mem->flags() & CL_MEM_USE_HOST_PTR ? Mem->hostPtr() : nullptr);
  case CL_MEM_MAP_COUNT:
    return Ret(Mem->mapCount());
  case CL_MEM_REFERENCE_COUNT:
    return Ret(Mem->referenceCount());
  case CL_MEM_CONTEXT:
    return Ret(static_cast<cl_context>(&Mem->context()));
  case CL_MEM_ASSOCIATED_MEMOBJECT:
    return Ret(static_cast<cl_mem>(Mem->image() ? Mem->image()->Buffer
                                                : Mem->parent()));
  case CL_MEM_OFFSET:
    return Ret(Mem->origin());
  case CL_MEM_USES_SVM_POINTER:
    return Ret(cl_bool((Mem->flags() & CL_MEM_USE_HOST_PTR) &&
                               Mem->context().isSvmPointer(Mem->hostPtr())
                           ? CL_TRUE
                           : CL_FALSE));
  case CL_MEM_PROPERTIES:
    return returnVector(Mem->properties(), ParamValueSize, ParamValue,
                        ParamValueSizeRet);
  default:
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown cl_mem_info");
  }
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(
    cl_command_queue Q, cl_mem Buffer, cl_bool Blocking, size_t Offset,
    size_t Size, void *Ptr, cl_uint NumEvents, const cl_event *WaitList,
    cl_event *EventRet) {
  return enqueueHostTransfer(Q, Buffer, Blocking, Offset, Size, Ptr,
                             /*IsRead=*/true, NumEvents, WaitList, EventRet);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(
    cl_command_queue Q, cl_mem Buffer, cl_bool Blocking, size_t Offset,
    size_t Size, const void *Ptr, cl_uint NumEvents, const cl_event *WaitList,
    cl_event *EventRet) {
  return enqueueHostTransfer(Q, Buffer, Blocking, Offset, Size,
                             const_cast<void *>(Ptr), /*IsRead=*/false,
                             NumEvents, WaitList, EventRet);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(
    cl_command_queue Q, cl_mem SrcBuffer, cl_mem DstBuffer, size_t SrcOffset,
    size_t DstOffset, size_t Size, cl_uint NumEvents, const cl_event *WaitList,
    cl_event *EventRet) {
  CommandQueue *Queue = castQueue(Q);
  if (!Queue)
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue");
  MemObject *Src = castBuffer(SrcBuffer);
  MemObject *Dst = castBuffer(DstBuffer);
  Command Cmd;
  if (cl_int Err = prepareCopyBuffer(*Queue, Src, Dst, SrcOffset, DstOffset,
                                     Size, Cmd))
    return Err;
  if (cl_int Err = validateWaitList(NumEvents, WaitList, &Queue->context()))
    return Err;
  Event *E = Queue->beginCommand(CL_COMMAND_COPY_BUFFER, NumEvents, WaitList);
  E->setCommand(std::move(Cmd));
  trackBufferUses(Queue->context(), Queue->device(), E->command(),
                  {{Src, SrcOffset, Size, true, false},
                   {Dst, DstOffset, Size, false, true}});
  holdUntilComplete(E, Src);
  holdUntilComplete(E, Dst);
  return Queue->finishEnqueue(E, EventRet);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(
    cl_command_queue Q, cl_mem Buffer, const void *Pattern, size_t PatternSize,
    size_t Offset, size_t Size, cl_uint NumEvents, const cl_event *WaitList,
    cl_event *EventRet) {
  CommandQueue *Queue = castQueue(Q);
  if (!Queue)
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue");
  MemObject *Mem = castBuffer(Buffer);
  Command Cmd;
  if (cl_int Err = prepareFillBuffer(*Queue, Mem, Pattern, PatternSize, Offset,
                                     Size, Cmd))
    return Err;
  if (cl_int Err = validateWaitList(NumEvents, WaitList, &Queue->context()))
    return Err;
  Event *E = Queue->beginCommand(CL_COMMAND_FILL_BUFFER, NumEvents, WaitList);
  E->setCommand(std::move(Cmd));
  trackBufferUses(Queue->context(), Queue->device(), E->command(),
                  {{Mem, Offset, Size, false, true}});
  holdUntilComplete(E, Mem);
  return Queue->finishEnqueue(E, EventRet);
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapBuffer(
    cl_command_queue Q, cl_mem Buffer, cl_bool Blocking, cl_map_flags MapFlags,
    size_t Offset, size_t Size, cl_uint NumEvents, const cl_event *WaitList,
    cl_event *EventRet, cl_int *ErrcodeRet) {
  CommandQueue *Queue = castQueue(Q);
  MemObject *Mem = castBuffer(Buffer);
  // validateTransfer wants a pointer; mapping has none to check.
  cl_int Err = validateTransfer(Queue, Mem, Offset, Size, &Offset, NumEvents,
                                WaitList);
  const cl_map_flags Known =
      CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  if (Err == CL_SUCCESS &&
      ((MapFlags & ~Known) || ((MapFlags & CL_MAP_WRITE_INVALIDATE_REGION) &&
                               (MapFlags & (CL_MAP_READ | CL_MAP_WRITE)))))
    Err = WEFT_ERROR(CL_INVALID_VALUE, "bad map flags");
  if (Err == CL_SUCCESS && (MapFlags & CL_MAP_READ) &&
      (Mem->flags() & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)))
    Err = WEFT_ERROR(CL_INVALID_OPERATION, "buffer is not host-readable");
  if (Err == CL_SUCCESS &&
      (MapFlags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
      (Mem->flags() & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)))
    Err = WEFT_ERROR(CL_INVALID_OPERATION, "buffer is not host-writable");
  if (Err != CL_SUCCESS) {
    setError(ErrcodeRet, Err);
    return nullptr;
  }
  // The mapping is the buffer's storage itself (for USE_HOST_PTR, the
  // application's pointer): devices that share host memory work in it, and
  // the others' copies are fetched into it.
  Event *E = Queue->beginCommand(CL_COMMAND_MAP_BUFFER, NumEvents, WaitList);
  if (Queue->context().hasOwnMemoryDevice())
    trackMap(Queue->device(), E->command(), *Mem, Offset, Size, MapFlags,
             Mem->storage() + Offset);
  Mem->addMapping();
  holdUntilComplete(E, Mem);
  Err = Queue->finishEnqueue(E, EventRet, Blocking);
  setError(ErrcodeRet, Err);
  return Err == CL_SUCCESS ? Mem->storage() + Offset : nullptr;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(
    cl_command_queue Q, cl_mem M, void *MappedPtr, cl_uint NumEvents,
    const cl_event *WaitList, cl_event *EventRet) {
  CommandQueue *Queue = castQueue(Q);
  MemObject *Mem = castMemObject(M);
  if (!Queue)
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue");
  if (!Mem)
    return WEFT_ERROR(CL_INVALID_MEM_OBJECT, "bad memory object");
  if (&Mem->context() != &Queue->context())
    return WEFT_ERROR(CL_INVALID_CONTEXT, "buffer and queue contexts differ");
  auto *Ptr = static_cast<unsigned char *>(MappedPtr);
  if (!Ptr || Ptr < Mem->storage() || Ptr > Mem->storage() + Mem->size() ||
      Mem->mapCount() == 0)
    return WEFT_ERROR(CL_INVALID_VALUE, "pointer was not mapped from buffer");
  if (cl_int Err = validateWaitList(NumEvents, WaitList, &Queue->context()))
    return Err;
  Event *E =
      Queue->beginCommand(CL_COMMAND_UNMAP_MEM_OBJECT, NumEvents, WaitList);
  if (Queue->context().hasOwnMemoryDevice())
    trackUnmap(Queue->device(), E->command(), *Mem, MappedPtr);
  Mem->removeMapping();
  holdUntilComplete(E, Mem);
  return Queue->finishEnqueue(E, EventRet);
}

} // extern "C"

namespace weft {
namespace {

/// One side of a strided copy, with the specification's defaults applied.
struct RectSide {
  const size_t *Origin;
  size_t RowPitch, SlicePitch;
};

/// Applies the pitch defaults and checks the pitch rules of the *Rect
/// calls; Region is already known to be non-zero.
cl_int normalizePitches(RectSide &S, const size_t *Region) {
  if (S.RowPitch == 0)
    S.RowPitch = Region[0];
  else if (S.RowPitch < Region[0])
    return WEFT_ERROR(CL_INVALID_VALUE, "row pitch smaller than region[0]");
  if (S.SlicePitch == 0)
    S.SlicePitch = Region[1] * S.RowPitch;
  else if (S.SlicePitch < Region[1] * S.RowPitch ||
           S.SlicePitch % S.RowPitch)
    return WEFT_ERROR(CL_INVALID_VALUE,
                      "slice pitch smaller than region[1] * row pitch or "
                      "not a multiple of the row pitch");
  return CL_SUCCESS;
}

size_t rectOffset(const RectSide &S) {
  return S.Origin[2] * S.SlicePitch + S.Origin[1] * S.RowPitch + S.Origin[0];
}

/// Bytes from the region's first to its last, the range a write to it
/// copies back; the region is known to fit.
size_t rectSpan(const RectSide &S, const size_t *Region) {
  return (Region[2] - 1) * S.SlicePitch + (Region[1] - 1) * S.RowPitch +
         Region[0];
}

/// Whether the region at S lies within Size bytes (without overflow).
bool rectFits(const RectSide &S, const size_t *Region, size_t Size) {
  // Each term is bounded before it is multiplied, so nothing wraps.
  for (int I = 0; I < 3; ++I)
    if (S.Origin[I] > Size || Region[I] > Size)
      return false;
  __uint128_t End = static_cast<__uint128_t>(S.Origin[2] + Region[2] - 1) *
                        S.SlicePitch +
                    static_cast<__uint128_t>(S.Origin[1] + Region[1] - 1) *
                        S.RowPitch +
                    S.Origin[0] + Region[0];
  return End <= Size;
}

/// The checks every *BufferRect call shares, in the specification's order.
cl_int validateRect(CommandQueue *Queue, std::initializer_list<MemObject *> Mems,
                    const size_t *Region, std::initializer_list<const size_t *> Origins,
                    cl_uint NumEvents, const cl_event *WaitList) {
  if (!Queue)
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue");
  for (MemObject *M : Mems)
    if (!M)
      return WEFT_ERROR(CL_INVALID_MEM_OBJECT, "bad buffer");
  for (MemObject *M : Mems)
    if (&M->context() != &Queue->context())
      return WEFT_ERROR(CL_INVALID_CONTEXT, "buffer and queue contexts differ");
  if (!Region)
    return WEFT_ERROR(CL_INVALID_VALUE, "region is NULL");
  for (const size_t *O : Origins)
    if (!O)
      return WEFT_ERROR(CL_INVALID_VALUE, "origin is NULL");
  if (!Region[0] || !Region[1] || !Region[2])
    return WEFT_ERROR(CL_INVALID_VALUE, "a region dimension is 0");
  return validateWaitList(NumEvents, WaitList, &Queue->context());
}

cl_int enqueueHostRect(cl_command_queue Q, cl_mem Buffer, cl_bool Blocking,
                       const size_t *BufferOrigin, const size_t *HostOrigin,
                       const size_t *Region, size_t BufferRowPitch,
                       size_t BufferSlicePitch, size_t HostRowPitch,
                       size_t HostSlicePitch, const void *Ptr,
                       cl_uint NumEvents, const cl_event *WaitList,
                       cl_event *EventRet, bool IsRead) {
  CommandQueue *Queue = castQueue(Q);
  MemObject *Mem = castBuffer(Buffer);
  if (cl_int Err = validateRect(Queue, {Mem}, Region,
                                {BufferOrigin, HostOrigin}, NumEvents, WaitList))
    return Err;
  RectSide Buf{BufferOrigin, BufferRowPitch, BufferSlicePitch};
  RectSide Host{HostOrigin, HostRowPitch, HostSlicePitch};
  if (cl_int Err = normalizePitches(Buf, Region))
    return Err;
  if (cl_int Err = normalizePitches(Host, Region))
    return Err;
  if (!rectFits(Buf, Region, Mem->size()))
    return WEFT_ERROR(CL_INVALID_VALUE, "region outside the buffer");
  if (!Ptr)
    return WEFT_ERROR(CL_INVALID_VALUE, "ptr is NULL");
  if (IsRead &&
      (Mem->flags() & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)))
    return WEFT_ERROR(CL_INVALID_OPERATION, "buffer is not host-readable");
  if (!IsRead &&
      (Mem->flags() & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)))
    return WEFT_ERROR(CL_INVALID_OPERATION, "buffer is not host-writable");
  Event *E = Queue->beginCommand(
      IsRead ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT,
      NumEvents, WaitList);
  Command &Cmd = E->command();
  char *DeviceStart =
      static_cast<char *>(Mem->deviceAddress(Queue->device())) + rectOffset(Buf);
  char *HostStart =
      static_cast<char *>(const_cast<void *>(Ptr)) + rectOffset(Host);
  Cmd.Kind = IsRead ? CommandKind::ReadBufferRect : CommandKind::WriteBufferRect;
  Cmd.Src = IsRead ? DeviceStart : HostStart;
  Cmd.Dst = IsRead ? HostStart : DeviceStart;
  std::copy(Region, Region + 3, Cmd.Rect.Region);
  const RectSide &From = IsRead ? Buf : Host, &To = IsRead ? Host : Buf;
  Cmd.Rect.SrcRowPitch = From.RowPitch;
  Cmd.Rect.SrcSlicePitch = From.SlicePitch;
  Cmd.Rect.DstRowPitch = To.RowPitch;
  Cmd.Rect.DstSlicePitch = To.SlicePitch;
  // A write reads too: the rows' gaps keep what the copy held.
  trackBufferUses(Queue->context(), Queue->device(), Cmd,
                  {{Mem, rectOffset(Buf), rectSpan(Buf, Region), true,
                    !IsRead}});
  holdUntilComplete(E, Mem);
  return Queue->finishEnqueue(E, EventRet, Blocking);
}

} // namespace

cl_int prepareCopyBufferRect(CommandQueue &Queue, MemObject *Src,
                             MemObject *Dst, const size_t *SrcOrigin,
                             const size_t *DstOrigin, const size_t *Region,
                             size_t SrcRowPitch, size_t SrcSlicePitch,
                             size_t DstRowPitch, size_t DstSlicePitch,
                             Command &Cmd) {
  if (cl_int Err = validateRect(&Queue, {Src, Dst}, Region,
                                {SrcOrigin, DstOrigin}, 0, nullptr))
    return Err;
  RectSide From{SrcOrigin, SrcRowPitch, SrcSlicePitch};
  RectSide To{DstOrigin, DstRowPitch, DstSlicePitch};
  if (cl_int Err = normalizePitches(From, Region))
    return Err;
  if (cl_int Err = normalizePitches(To, Region))
    return Err;
  if (!rectFits(From, Region, Src->size()) || !rectFits(To, Region, Dst->size()))
    return WEFT_ERROR(CL_INVALID_VALUE, "region outside a buffer");
  if (Src == Dst) {
    if (From.RowPitch != To.RowPitch || From.SlicePitch != To.SlicePitch)
      return WEFT_ERROR(CL_INVALID_VALUE,
                        "same buffer with different pitches");
    // With equal pitches the two boxes overlap exactly when they overlap
    // along every axis.
    bool Overlap = true;
    for (int I = 0; I < 3; ++I) {
      size_t A = SrcOrigin[I], B = DstOrigin[I];
      if ((A < B ? B - A : A - B) >= Region[I])
        Overlap = false;
    }
    if (Overlap)
      return WEFT_ERROR(CL_MEM_COPY_OVERLAP, "source and destination overlap");
  }
  Cmd.Kind = CommandKind::CopyBufferRect;
  Cmd.Src = static_cast<char *>(Src->deviceAddress(Queue.device())) +
            rectOffset(From);
  Cmd.Dst = static_cast<char *>(Dst->deviceAddress(Queue.device())) +
            rectOffset(To);
  std::copy(Region, Region + 3, Cmd.Rect.Region);
  Cmd.Rect.SrcRowPitch = From.RowPitch;
  Cmd.Rect.SrcSlicePitch = From.SlicePitch;
  Cmd.Rect.DstRowPitch = To.RowPitch;
  Cmd.Rect.DstSlicePitch = To.SlicePitch;
  return CL_SUCCESS;
}

} // namespace weft

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(
    cl_command_queue Q, cl_mem Buffer, cl_bool Blocking,
    const size_t *BufferOrigin, const size_t *HostOrigin, const size_t *Region,
    size_t BufferRowPitch, size_t BufferSlicePitch, size_t HostRowPitch,
    size_t HostSlicePitch, void *Ptr, cl_uint NumEvents,
    const cl_event *WaitList, cl_event *EventRet) {
  return enqueueHostRect(Q, Buffer, Blocking, BufferOrigin, HostOrigin, Region,
                         BufferRowPitch, BufferSlicePitch, HostRowPitch,
                         HostSlicePitch, Ptr, NumEvents, WaitList, EventRet,
                         /*IsRead=*/true);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(
    cl_command_queue Q, cl_mem Buffer, cl_bool Blocking,
    const size_t *BufferOrigin, const size_t *HostOrigin, const size_t *Region,
    size_t BufferRowPitch, size_t BufferSlicePitch, size_t HostRowPitch,
    size_t HostSlicePitch, const void *Ptr, cl_uint NumEvents,
    const cl_event *WaitList, cl_event *EventRet) {
  return enqueueHostRect(Q, Buffer, Blocking, BufferOrigin, HostOrigin, Region,
                         BufferRowPitch, BufferSlicePitch, HostRowPitch,
                         HostSlicePitch, Ptr, NumEvents, WaitList, EventRet,
                         /*IsRead=*/false);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(
    cl_command_queue Q, cl_mem SrcBuffer, cl_mem DstBuffer,
    const size_t *SrcOrigin, const size_t *DstOrigin, const size_t *Region,
    size_t SrcRowPitch, size_t SrcSlicePitch, size_t DstRowPitch,
    size_t DstSlicePitch, cl_uint NumEvents, const cl_event *WaitList,
    cl_event *EventRet) {
  CommandQueue *Queue = castQueue(Q);
  if (!Queue)
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue");
  MemObject *Src = castBuffer(SrcBuffer);
  MemObject *Dst = castBuffer(DstBuffer);
  if (cl_int Err = validateRect(Queue, {Src, Dst}, Region,
                                {SrcOrigin, DstOrigin}, NumEvents, WaitList))
    return Err;
  Command Cmd;
  if (cl_int Err = prepareCopyBufferRect(
          *Queue, Src, Dst, SrcOrigin, DstOrigin, Region, SrcRowPitch,
          SrcSlicePitch, DstRowPitch, DstSlicePitch, Cmd))
    return Err;
  Event *E =
      Queue->beginCommand(CL_COMMAND_COPY_BUFFER_RECT, NumEvents, WaitList);
  E->setCommand(std::move(Cmd));
  if (Queue->context().hasOwnMemoryDevice()) {
    const RectCopy &R = E->command().Rect;
    RectSide From{SrcOrigin, R.SrcRowPitch, R.SrcSlicePitch};
    RectSide To{DstOrigin, R.DstRowPitch, R.DstSlicePitch};
    trackBufferUses(Queue->context(), Queue->device(), E->command(),
                    {{Src, rectOffset(From), rectSpan(From, Region), true,
                      false},
                     {Dst, rectOffset(To), rectSpan(To, Region), true,
                      true}});
  }
  holdUntilComplete(E, Src);
  holdUntilComplete(E, Dst);
  return Queue->finishEnqueue(E, EventRet);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateMemObjects(
    cl_command_queue Q, cl_uint NumMemObjects, const cl_mem *MemObjects,
    cl_mem_migration_flags Flags, cl_uint NumEvents, const cl_event *WaitList,
    cl_event *EventRet) {
  CommandQueue *Queue = castQueue(Q);
  if (!Queue)
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue");
  if (NumMemObjects == 0 || !MemObjects)
    return WEFT_ERROR(CL_INVALID_VALUE, "no memory objects");
  std::vector<MemObject *> Mems;
  for (cl_uint I = 0; I < NumMemObjects; ++I) {
    MemObject *M = castMemObject(MemObjects[I]);
    if (!M)
      return WEFT_ERROR(CL_INVALID_MEM_OBJECT, "bad memory object");
    if (&M->context() != &Queue->context())
      return WEFT_ERROR(CL_INVALID_CONTEXT, "memory object of another context");
    Mems.push_back(M);
  }
  if (Flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST |
                                      CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown migration flags");
  if (cl_int Err = validateWaitList(NumEvents, WaitList, &Queue->context()))
    return Err;
  // Devices that share host memory work in the same host copy, so for them
  // nothing moves; the command still orders like any other.
  Event *E =
      Queue->beginCommand(CL_COMMAND_MIGRATE_MEM_OBJECTS, NumEvents, WaitList);
  for (MemObject *M : Mems) {
    if (Queue->context().hasOwnMemoryDevice())
      trackMigration(Queue->device(), E->command(), *M, Flags);
    holdUntilComplete(E, M);
  }
  return Queue->finishEnqueue(E, EventRet);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNativeKernel(
    cl_command_queue Q, void(CL_CALLBACK *UserFunc)(void *), void *Args,
    size_t CbArgs, cl_uint NumMemObjects, const cl_mem *MemList,
    const void **ArgsMemLoc, cl_uint NumEvents, const cl_event *WaitList,
    cl_event *EventRet) {
  CommandQueue *Queue = castQueue(Q);
  if (!Queue)
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue");
  if (!UserFunc)
    return WEFT_ERROR(CL_INVALID_VALUE, "user_func is NULL");
  if ((!Args && (CbArgs || NumMemObjects)) || (Args && !CbArgs))
    return WEFT_ERROR(CL_INVALID_VALUE, "args and cb_args disagree");
  if ((NumMemObjects == 0) != (MemList == nullptr) ||
      (NumMemObjects == 0) != (ArgsMemLoc == nullptr))
    return WEFT_ERROR(CL_INVALID_VALUE,
                      "num_mem_objects, mem_list and args_mem_loc disagree");
  std::vector<MemObject *> Mems;
  for (cl_uint I = 0; I < NumMemObjects; ++I) {
    MemObject *M = castMemObject(MemList[I]);
    if (!M)
      return WEFT_ERROR(CL_INVALID_MEM_OBJECT, "bad memory object");
    if (&M->context() != &Queue->context())
      return WEFT_ERROR(CL_INVALID_CONTEXT, "memory object of another context");
    // Each location must be a pointer-sized slot inside the block.
    auto *Loc = static_cast<const unsigned char *>(ArgsMemLoc[I]);
    auto *Begin = static_cast<const unsigned char *>(Args);
    if (Loc < Begin || Loc + sizeof(void *) > Begin + CbArgs)
      return WEFT_ERROR(CL_INVALID_VALUE, "args_mem_loc outside args");
    Mems.push_back(M);
  }
  if (!(Queue->device().description().ExecCapabilities & CL_EXEC_NATIVE_KERNEL))
    return WEFT_ERROR(CL_INVALID_OPERATION,
                      "the device cannot execute native kernels");
  if (cl_int Err = validateWaitList(NumEvents, WaitList, &Queue->context()))
    return Err;
  Event *E = Queue->beginCommand(CL_COMMAND_NATIVE_KERNEL, NumEvents, WaitList);
  Command &Cmd = E->command();
  Cmd.Kind = CommandKind::NativeKernel;
  Cmd.Native.Fn = UserFunc;
  Cmd.Native.Args.assign(static_cast<const unsigned char *>(Args),
                         static_cast<const unsigned char *>(Args) + CbArgs);
  // The function finds, where the application put each cl_mem in its
  // block, a pointer to the memory object's storage.
  for (cl_uint I = 0; I < NumMemObjects; ++I) {
    size_t At = static_cast<const unsigned char *>(ArgsMemLoc[I]) -
                static_cast<const unsigned char *>(Args);
    void *Address = Mems[I]->deviceAddress(Queue->device());
    memcpy(Cmd.Native.Args.data() + At, &Address, sizeof(Address));
    // The function may read and write all of it.
    trackBufferUses(Queue->context(), Queue->device(), Cmd,
                    {{Mems[I], 0, Mems[I]->size(), true, true}});
    holdUntilComplete(E, Mems[I]);
  }
  return Queue->finishEnqueue(E, EventRet);
}

} // extern "C"
