//===- AccessChecker.cpp - Out-of-bounds accesses of the simulated device -===//
//
// The device's memory is the driver's: every buffer, program variable and
// scratch area is a chunk of one region (DeviceMemory.h), so the driver
// knows the extent of everything a kernel may address. Before the launch
// the control core snapshots the allocations. A global or constant access
// is in bounds when it lies wholly inside the allocation that holds its
// base, the buffer argument or program variable the compiler saw it derive
// from (so an overrun into the next buffer is caught), or inside any
// allocation when the base is unknown; a local access when it lies inside
// the running work-group's local memory. The core's own
// chunks -- the local memory and private arena it lends to work-groups, the
// printf records -- are taken out of the snapshot when the first
// work-group shows where they are: kernel code reaches them only through
// __local pointers or the compiler's own stores, never through a buffer.
//
// An access out of bounds is redirected to a sink, private memory of the
// checker as large as the access, and only the first one is kept for the
// report, as Oclgrind reports the first invalid access of a work-item; the
// kernel runs to its end, so the other work-items' results are complete
// and the command fails cleanly instead of the process faulting.
//
// The local memory's extent comes from the WorkGroupContext of each
// work-group: the checker wraps the launch's launcher in one that records
// it and calls the real one. Everything runs on the control core's
// thread; the state is found through a thread_local pointer, so other
// devices' threads (and code compiled without checks) are not affected.
//
//===----------------------------------------------------------------------===//
#include "accelsim/AccessChecker.h"

#include "weft/compiler.h"
#include "weft/launcher.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace weft {

namespace {

/// [Address, Address + Bytes) within [Begin, Begin + Size), without
/// overflow.
bool within(uintptr_t Address, uint64_t Bytes, uintptr_t Begin, uint64_t Size) {
  return Address >= Begin && Bytes <= Size && Address - Begin <= Size - Bytes;
}

} // namespace

struct AccessCheck::State {
  std::string Kernel;
  /// Device memory a global or constant access may touch, by address.
  std::vector<ChunkAllocator::Allocation> Buffers;
  bool ScratchDropped = false;
  LauncherFn Real = nullptr;
  /// The running work-group: its local memory, and its place in the
  /// NDRange for the global ids.
  const WorkGroupContext *Group = nullptr;
  uintptr_t LocalBase = 0;
  uint64_t LocalSize = 0;

  uint64_t Count = 0;
  struct Violation {
    uintptr_t Address = 0;
    uint64_t Bytes = 0;
    uint32_t Flags = 0;
    uint64_t Id[3] = {0, 0, 0}; ///< global ids
    uintptr_t Base = 0;
    uintptr_t LocalBase = 0;
    uint64_t LocalSize = 0;
  } First;

  std::unique_ptr<unsigned char[]> SinkStorage;
  size_t SinkBytes = 0;
  unsigned char *Sink = nullptr;

  State *Outer = nullptr;

  /// Address lies in the work-group's local memory.
  bool inLocal(uintptr_t Address) const {
    return Address - LocalBase < LocalSize;
  }
  /// [Address, Address + Bytes) is the calling thread's stack or the
  /// private arena (context arrays, fiber stacks): private memory.
  bool inPrivate(uintptr_t Address, uint64_t Bytes) const {
    return within(Address, Bytes, reinterpret_cast<uintptr_t>(Group->Stack),
                  Group->StackSize) ||
           within(Address, Bytes,
                  reinterpret_cast<uintptr_t>(Group->PrivateArena),
                  Group->PrivateArenaSize);
  }
  /// Inside the allocation Base points into; inside any when Base is 0.
  bool inBuffer(uintptr_t Address, uint64_t Bytes, uintptr_t Base) const;
  /// The allocation that holds Address, or Buffers.end().
  std::vector<ChunkAllocator::Allocation>::const_iterator
  holding(uintptr_t Address) const;
  void dropAllocationAt(const void *Address);
  void *sink(uint64_t Bytes);
};

namespace {

thread_local AccessCheck::State *Current = nullptr;

/// The last allocation that starts at or below Address, or end.
std::vector<ChunkAllocator::Allocation>::const_iterator
allocationBelow(const std::vector<ChunkAllocator::Allocation> &Buffers,
                uintptr_t Address) {
  auto It =
      std::upper_bound(Buffers.begin(), Buffers.end(), Address,
                       [](uintptr_t A, const ChunkAllocator::Allocation &B) {
                         return A < B.Start;
                       });
  return It == Buffers.begin() ? Buffers.end() : std::prev(It);
}

void *checkedAddress(void *Address, uint64_t Bytes, uint32_t Flags,
                     uint64_t Local0, uint64_t Local1, uint64_t Local2,
                     void *Base) {
  AccessCheck::State *S = Current;
  if (!S || Bytes == 0)
    return Address;
  uintptr_t A = reinterpret_cast<uintptr_t>(Address);
  unsigned Space = Flags >> CheckedAccessSpaceShift;
  if (Space == 4) {
    // Generic: where the address lies says what it points to.
    if (S->inPrivate(A, Bytes))
      return Address;
    Space = S->inLocal(A) ? 3 : 1;
  }
  if (Space == 3 ? within(A, Bytes, S->LocalBase, S->LocalSize)
                 : S->inBuffer(A, Bytes, reinterpret_cast<uintptr_t>(Base)))
    return Address;
  if (S->Count++ == 0) {
    const uint64_t Local[3] = {Local0, Local1, Local2};
    AccessCheck::State::Violation &V = S->First;
    V.Address = A;
    V.Bytes = Bytes;
    // A generic access is reported as what it turned out to be.
    V.Flags = (Flags & ((1u << CheckedAccessSpaceShift) - 1)) |
              (Space << CheckedAccessSpaceShift);
    V.Base = reinterpret_cast<uintptr_t>(Base);
    V.LocalBase = S->LocalBase;
    V.LocalSize = S->LocalSize;
    // get_global_id as ResolveWorkItemFunctions computes it.
    const WorkGroupContext &G = *S->Group;
    for (unsigned D = 0; D < 3; ++D)
      V.Id[D] =
          G.GroupId[D] * G.EnqueuedLocalSize[D] + Local[D] + G.GlobalOffset[D];
  }
  return S->sink(Bytes);
}

/// The launcher the checked launch calls instead of its own.
void checkedLaunch(void *const *Args, const WorkGroupContext *Ctx) {
  AccessCheck::State &S = *Current;
  S.Group = Ctx;
  S.LocalBase = reinterpret_cast<uintptr_t>(Ctx->LocalMemory);
  S.LocalSize = Ctx->LocalMemory ? Ctx->LocalMemorySize : 0;
  if (!S.ScratchDropped) {
    // The core lends every work-group the same chunks.
    S.ScratchDropped = true;
    S.dropAllocationAt(Ctx->LocalMemory);
    S.dropAllocationAt(Ctx->PrivateArena);
    if (Ctx->Printf)
      S.dropAllocationAt(Ctx->Printf->Data);
  }
  S.Real(Args, Ctx);
}

const char *accessKind(uint32_t Flags) {
  bool Read = Flags & CheckedRead, Write = Flags & CheckedWrite;
  return Read && Write ? "read-write" : Write ? "write" : "read";
}

std::string hex(uintptr_t Address) {
  char Text[32];
  snprintf(Text, sizeof(Text), "0x%" PRIxPTR, Address);
  return Text;
}

/// Where the access lies relative to the memory it should have stayed in:
/// "4 bytes past buffer 0x..., size 1024" (bytes of the access beyond the
/// end) or "4 bytes before ..." (bytes from its start to the memory's).
std::string relativeTo(uintptr_t Address, uint64_t Bytes, const char *What,
                       uintptr_t Begin, uint64_t Size) {
  std::string Where;
  if (Address >= Begin)
    Where = std::to_string(Address + Bytes - (Begin + Size)) + " bytes past ";
  else
    Where = std::to_string(Begin - Address) + " bytes before ";
  return Where + What + " " + hex(Begin) + ", size " + std::to_string(Size);
}

} // namespace

std::vector<ChunkAllocator::Allocation>::const_iterator
AccessCheck::State::holding(uintptr_t Address) const {
  auto It = allocationBelow(Buffers, Address);
  // A zero-byte allocation still holds its own start.
  if (It != Buffers.end() &&
      within(Address, 1, It->Start, std::max<uint64_t>(It->Size, 1)))
    return It;
  return Buffers.end();
}

bool AccessCheck::State::inBuffer(uintptr_t Address, uint64_t Bytes,
                                  uintptr_t Base) const {
  auto It = holding(Base ? Base : Address);
  return It != Buffers.end() && within(Address, Bytes, It->Start, It->Size);
}

void AccessCheck::State::dropAllocationAt(const void *Address) {
  if (!Address)
    return;
  auto It = holding(reinterpret_cast<uintptr_t>(Address));
  if (It != Buffers.end())
    Buffers.erase(It);
}

void *AccessCheck::State::sink(uint64_t Bytes) {
  // Aligned for the widest access (double16) and a little more.
  constexpr size_t Alignment = 256;
  if (Bytes > SinkBytes) {
    SinkStorage.reset(new unsigned char[Bytes + Alignment]);
    SinkBytes = Bytes;
    uintptr_t Raw = reinterpret_cast<uintptr_t>(SinkStorage.get());
    Sink = reinterpret_cast<unsigned char *>((Raw + Alignment - 1) &
                                             ~uintptr_t(Alignment - 1));
  }
  return Sink;
}

bool accessChecksRequested() {
  static const bool Requested = [] {
    const char *V = getenv("WEFT_ACCELSIM_CHECK");
    return V && !strcmp(V, "1");
  }();
  return Requested;
}

void registerAccessChecker() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    for (unsigned Space : {1u, 2u, 3u, 4u})
      registerRuntimeSymbol(std::string(CheckedAddressSymbol) + ".p" +
                                std::to_string(Space),
                            reinterpret_cast<void *>(&checkedAddress));
  });
}

AccessCheck::AccessCheck(KernelLaunch &Launch, std::string Kernel,
                         std::vector<ChunkAllocator::Allocation> Buffers)
    : Launch(Launch), S(std::make_unique<State>()) {
  S->Kernel = std::move(Kernel);
  S->Buffers = std::move(Buffers);
  S->Real = Launch.Function.Launch;
  S->Outer = Current;
  Current = S.get();
  Launch.Function.Launch = &checkedLaunch;
}

AccessCheck::~AccessCheck() { finish(); }

uint64_t AccessCheck::violations() const { return S->Count; }

std::string AccessCheck::finish() {
  if (Finished)
    return Report;
  Finished = true;
  Launch.Function.Launch = S->Real;
  Current = S->Outer;
  if (!S->Count)
    return Report;
  const State::Violation &V = S->First;
  std::string Where;
  if ((V.Flags >> CheckedAccessSpaceShift) == 3) {
    Where = V.LocalSize ? relativeTo(V.Address, V.Bytes, "local memory",
                                     V.LocalBase, V.LocalSize)
                        : "the work-group has no local memory";
  } else if (V.Base) {
    // The access left the buffer its pointer came from.
    auto It = S->holding(V.Base);
    Where = It == S->Buffers.end()
                ? "its pointer " + hex(V.Base) + " is in no buffer"
                : relativeTo(V.Address, V.Bytes, "buffer", It->Start, It->Size);
  } else {
    // The nearer of the allocations on either side.
    auto Below = allocationBelow(S->Buffers, V.Address);
    auto Above =
        Below == S->Buffers.end() ? S->Buffers.begin() : std::next(Below);
    uint64_t PastBelow = UINT64_MAX, BeforeAbove = UINT64_MAX;
    if (Below != S->Buffers.end())
      PastBelow = V.Address + V.Bytes - (Below->Start + Below->Size);
    if (Above != S->Buffers.end())
      BeforeAbove = Above->Start - V.Address;
    if (Below == S->Buffers.end() && Above == S->Buffers.end())
      Where = "no buffer is allocated";
    else if (PastBelow <= BeforeAbove)
      Where =
          relativeTo(V.Address, V.Bytes, "buffer", Below->Start, Below->Size);
    else
      Where =
          relativeTo(V.Address, V.Bytes, "buffer", Above->Start, Above->Size);
  }
  Report = std::string("accelsim: out-of-bounds ") + accessKind(V.Flags) +
           " of " + std::to_string(V.Bytes) + " bytes at " + hex(V.Address) +
           " (" + Where + ") in kernel " + S->Kernel + ", work-item (" +
           std::to_string(V.Id[0]) + ", " + std::to_string(V.Id[1]) + ", " +
           std::to_string(V.Id[2]) + ")";
  return Report;
}

} // namespace weft
