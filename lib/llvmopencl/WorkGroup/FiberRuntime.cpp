//===- FiberRuntime.cpp - Work-items as fibers, switched at barriers ------===//
//
// The run-time half of the fallback work-group method (WorkGroupFibers.cpp
// is the compiler half). __weft_run_work_group_fibers runs one work-group:
//
//   private arena:  [FiberGroup | saved stack pointers | done flags |
//                    the converging scheduler's state (below)]
//                   [stack of work-item 0][stack of work-item 1]...
//
// Work-item I starts on its own stack and runs the kernel until its first
// barrier, __weft_fiber_barrier, which switches to work-item I+1; the last
// work-item's barrier resumes work-item 0. So no work-item passes a barrier
// before every work-item has reached it, which is all a barrier promises,
// whatever the control flow around it: the method needs nothing from the
// kernel's shape. A work-item that returns is skipped from then on (a kernel
// whose work-items do not all reach the same barriers, undefined by the
// specification, so still ends); the last one to return switches back to
// the worker's own stack.
//
// The switch is a few instructions of assembly rather than swapcontext():
// it saves only the general registers the x86-64 System V ABI asks a callee
// to preserve (rbx, rbp, r12-r15) and the stack pointer, where swapcontext
// also saves the FP state and makes a sigprocmask system call each time.
// The ABI's other callee-saved state, the MXCSR and x87 control words, is
// the same in every work-item of a group: they all start with the worker's
// (the launcher sets FTZ/DAZ for -cl-denorms-are-zero before any starts)
// and OpenCL C cannot change it. Saving it anyway cost more than the rest
// of the switch: stmxcsr is microcoded on Zen, and with it the switch took
// 32% of the cycles of a kernel doing little but barriers, 13% without
// (perf record; 64 groups of 64 work-items, 2000 barriers each, basic
// device). Stacks never come from the worker thread's own stack; the
// stack size, fixed by the compiler from the kernel's frame, is what
// CL_KERNEL_PRIVATE_MEM_SIZE reports. A guard word at the low end of each
// stack is checked when the group ends: an overflow aborts with a message
// rather than corrupting the next work-item's stack silently.
//
// Sub-groups (lib/kernel/subgroups.cl): work-items I with the same
// I / SubGroupSize form one. A sub-group barrier, __weft_fiber_sub_group_
// barrier, switches to the next work-item of the caller's sub-group, the
// last one resuming the first of the same sub-group; a work-group barrier
// switches to the next work-item of the group as before. Each sub-group
// therefore runs in lockstep between its barriers, and, because
// sub-group barriers are uniform within a sub-group and work-group ones
// within the group, a sub-group's last work-item reaching a work-group
// barrier hands over to the next sub-group, which runs (through any
// sub-group barriers of its own) until it reaches the same barrier; the
// last sub-group's resumes work-item 0. Sub-groups do not make progress
// independently: one that spins waiting for another never switches away
// (docs/DESIGN.md, Sub-groups).
//
// Non-uniform sub-group functions (cl_khr_subgroup_ballot and friends,
// ResolveNonUniformSubGroups.cpp) need more than a switch order: under a
// condition that divides a sub-group, the work-items that call one together
// are its active set, so the method must know who waits where. A group
// whose kernel has such calls is run "converging": every work-item has an
// explicit state (ready, at a barrier, at a sub-group barrier, at a
// converge call with its site and value, returned), ready work-items run
// in a queue, and when none is left the scheduler lets go, in this order:
// in each sub-group, the work-items waiting at the converge call that comes
// first in the kernel (site ids follow the blocks' reverse post-order, so
// a call inside a branch or loop is met before the calls after it, and a
// set is not split by work-items that are still on their way); then the
// sub-group barriers; then the work-group barrier. The set's values are
// copied aside with its mask; the next set of that sub-group is let go only
// when none is ready, so after each of the set has read them.
//
// Thread-safety: everything lives in the calling worker's private arena,
// so workers run groups concurrently without sharing anything.
//
//===----------------------------------------------------------------------===//
#include "WorkGroup/FiberRuntime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace weft {

namespace {

constexpr uint64_t GuardWord = 0x57454654'46494245ull; // "WEFTFIBE"
constexpr uint64_t HeaderAlign = 64;
/// Distinct stack-top offsets (StackColors * 192 bytes at most, well within
/// the compiler's margin, WorkGroupFibers.cpp).
constexpr uint64_t StackColors = 16;

/// What a work-item of a converging group waits for.
enum FiberState : unsigned char {
  Ready,
  AtBarrier,
  AtSubGroupBarrier,
  AtConverge,
  Returned
};

struct FiberGroup {
  void *MainStack;
  FiberBody Body;
  void *Frame;
  const WorkGroupContext *Ctx;
  uint64_t Count, Current, Live, StackBytes;
  void **Stacks;       ///< saved stack pointer of each work-item
  unsigned char *Done; ///< the work-item has returned
  unsigned char *StackBase;
  // A converging group's scheduler (see above).
  bool Converging;
  FiberState *State;
  uint32_t *Site;     ///< the converge call a work-item waits at
  uint64_t *Value;    ///< the value it brought there
  uint64_t *Snapshot; ///< the values of the set last let go, per work-item
  uint32_t *Masks;    ///< that set, four words per sub-group
  uint64_t *Queue;    ///< ready work-items, a ring of Count
  uint64_t QueueHead, QueueSize;
  uint64_t Waiting[Returned]; ///< work-items in each waiting state
};

uint64_t alignUp(uint64_t V, uint64_t A) { return (V + A - 1) / A * A; }

uint64_t subGroups(uint64_t WorkItems) {
  return (WorkItems + SubGroupSize - 1) / SubGroupSize;
}

/// Per work-item: stack pointer, value, snapshot, queue slot, site, done,
/// state; per sub-group: a mask.
uint64_t headerSize(uint64_t WorkItems) {
  return alignUp(sizeof(FiberGroup) + WorkItems * (4 * 8 + 4 + 1 + 1) +
                     subGroups(WorkItems) * 4 * sizeof(uint32_t),
                 HeaderAlign);
}

} // namespace

uint64_t fiberArenaSize(uint64_t WorkItems, uint64_t StackBytes) {
  return headerSize(WorkItems) + WorkItems * StackBytes;
}

} // namespace weft

#if defined(__x86_64__) && defined(__ELF__)

// void weftFiberSwitch(void **Save, void *Resume): saves the callee-saved
// state on the current stack and its pointer in *Save, then pops the same
// from Resume and returns there.
//
// A fresh work-item's stack holds a frame as if weftFiberSwitch had saved
// it at weftFiberStart's address, with the FiberGroup in r12 and the
// work-item's index in r13; weftFiberStart passes those to runFiber by a
// jump, so that runFiber sees the stack alignment of a call.
extern "C" void weftFiberSwitch(void **Save, void *Resume);
extern "C" void weftFiberStart();
asm(R"(
  .text
  .p2align 4
  .globl weftFiberSwitch
  .hidden weftFiberSwitch
  .type weftFiberSwitch,@function
weftFiberSwitch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size weftFiberSwitch, .-weftFiberSwitch

  .p2align 4
  .globl weftFiberStart
  .hidden weftFiberStart
  .type weftFiberStart,@function
weftFiberStart:
  movq %r12, %rdi
  movq %r13, %rsi
  jmpq *%r14
  .size weftFiberStart, .-weftFiberStart
)");

namespace weft {
namespace {

/// The next work-item after I that has not returned; I when none.
uint64_t nextLive(const FiberGroup &G, uint64_t I) {
  uint64_t Next = I;
  do
    Next = Next + 1 == G.Count ? 0 : Next + 1;
  while (G.Done[Next] && Next != I);
  return Next;
}

/// The next work-item after I in I's sub-group that has not returned; I
/// when none.
uint64_t nextLiveInSubGroup(const FiberGroup &G, uint64_t I) {
  uint64_t First = I / SubGroupSize * SubGroupSize;
  uint64_t End = std::min<uint64_t>(First + SubGroupSize, G.Count);
  uint64_t Next = I;
  do
    Next = Next + 1 == End ? First : Next + 1;
  while (G.Done[Next] && Next != I);
  return Next;
}

void makeReady(FiberGroup &G, uint64_t I) {
  G.State[I] = Ready;
  G.Queue[(G.QueueHead + G.QueueSize++) % G.Count] = I;
}

/// In each sub-group with work-items at a converge call, lets go those at
/// the first call, with their mask and values. Whether any went.
bool letGoConverged(FiberGroup &G) {
  bool Any = false;
  for (uint64_t First = 0; First < G.Count; First += SubGroupSize) {
    uint64_t End = std::min<uint64_t>(First + SubGroupSize, G.Count);
    uint32_t Site = UINT32_MAX;
    for (uint64_t I = First; I < End; ++I)
      if (G.State[I] == AtConverge)
        Site = std::min(Site, G.Site[I]);
    if (Site == UINT32_MAX)
      continue;
    uint32_t *Mask = G.Masks + First / SubGroupSize * 4;
    std::fill(Mask, Mask + 4, 0u);
    for (uint64_t I = First; I < End; ++I)
      if (G.State[I] == AtConverge && G.Site[I] == Site) {
        G.Snapshot[I] = G.Value[I];
        Mask[(I - First) / 32] |= 1u << ((I - First) % 32);
        --G.Waiting[AtConverge];
        makeReady(G, I);
      }
    Any = true;
  }
  return Any;
}

void letGoAll(FiberGroup &G, FiberState S) {
  for (uint64_t I = 0; I < G.Count; ++I)
    if (G.State[I] == S)
      makeReady(G, I);
  G.Waiting[S] = 0;
}

/// The next work-item of a converging group to run; Count when all have
/// returned.
uint64_t nextConverging(FiberGroup &G) {
  if (G.QueueSize == 0 && !(G.Waiting[AtConverge] && letGoConverged(G))) {
    if (G.Waiting[AtSubGroupBarrier])
      letGoAll(G, AtSubGroupBarrier);
    else if (G.Waiting[AtBarrier])
      letGoAll(G, AtBarrier);
  }
  if (G.QueueSize == 0)
    return G.Count;
  uint64_t I = G.Queue[G.QueueHead];
  G.QueueHead = (G.QueueHead + 1) % G.Count;
  --G.QueueSize;
  return I;
}

/// The current work-item of a converging group waits in state S while the
/// others run.
void waitConverging(FiberGroup &G, FiberState S) {
  uint64_t I = G.Current;
  G.State[I] = S;
  ++G.Waiting[S];
  // I waits, so something can be let go: Next is a work-item.
  uint64_t Next = nextConverging(G);
  if (Next == I)
    return;
  G.Current = Next;
  weftFiberSwitch(&G.Stacks[I], G.Stacks[Next]);
}

// Not instrumented by AddressSanitizer: its frame is never popped (the
// fiber switches away for good), so the redzones an instrumented frame
// poisons would stay on the work-item's stack in the private arena, and
// the next group's initialFrame, writing the same words, would be
// reported as a stack-buffer-overflow. Nor checked by clang's
// -fsanitize=function: Body is JIT-compiled code without the type
// signature the check reads before it (see WorkerScratch::runWorkGroups).
[[noreturn]] __attribute__((no_sanitize("address")))
#if defined(__clang__)
__attribute__((no_sanitize("function")))
#endif
void runFiber(FiberGroup *G, uint64_t Index) {
  const WorkGroupContext &Ctx = *G->Ctx;
  uint64_t X = Index % Ctx.LocalSize[0];
  uint64_t Y = Index / Ctx.LocalSize[0] % Ctx.LocalSize[1];
  uint64_t Z = Index / (Ctx.LocalSize[0] * Ctx.LocalSize[1]);
  G->Body(G->Frame, G->Ctx, X, Y, Z);
  G->Done[Index] = 1;
  void *Resume;
  if (G->Converging) {
    G->State[Index] = Returned;
    --G->Live;
    uint64_t Next = nextConverging(*G);
    if (Next == G->Count) {
      Resume = G->MainStack;
    } else {
      G->Current = Next;
      Resume = G->Stacks[Next];
    }
  } else if (--G->Live == 0) {
    Resume = G->MainStack;
  } else {
    G->Current = nextLive(*G, Index);
    Resume = G->Stacks[G->Current];
  }
  void *Unused;
  weftFiberSwitch(&Unused, Resume);
  __builtin_unreachable();
}

/// Lays out work-item Index's first frame at the top of its stack (see
/// weftFiberSwitch for the order).
void *initialFrame(FiberGroup &G, uint64_t Index) {
  unsigned char *Low = G.StackBase + Index * G.StackBytes;
  memcpy(Low, &GuardWord, sizeof(GuardWord));
  // Stacks are a multiple of 4 KiB apart, so their tops would all fall in
  // the same L1 sets; starting each a few cache lines lower spreads them.
  uint64_t Color = (Index % StackColors) * 64 * 3;
  auto *Top = reinterpret_cast<uint64_t *>(Low + G.StackBytes - Color);
  uint64_t *Frame = Top - 8;
  Frame[0] = 0;                                           // r15
  Frame[1] = reinterpret_cast<uint64_t>(&runFiber);       // r14
  Frame[2] = Index;                                       // r13
  Frame[3] = reinterpret_cast<uint64_t>(&G);              // r12
  Frame[4] = 0;                                           // rbx
  Frame[5] = 0;                                           // rbp
  Frame[6] = reinterpret_cast<uint64_t>(&weftFiberStart); // return address
  Frame[7] = 0; // runFiber's return address: it never returns
  return Frame;
}

} // namespace

bool fibersAvailable() { return true; }

} // namespace weft

extern "C" void __weft_run_work_group_fibers(const weft::WorkGroupContext *Ctx,
                                             weft::FiberBody Body, void *Frame,
                                             uint64_t StackBytes,
                                             uint64_t Converging) {
  using namespace weft;
  uint64_t Count = Ctx->LocalSize[0] * Ctx->LocalSize[1] * Ctx->LocalSize[2];
  auto *Arena = static_cast<unsigned char *>(Ctx->PrivateArena);
  auto *G = reinterpret_cast<FiberGroup *>(Arena);
  G->Body = Body;
  G->Frame = Frame;
  G->Ctx = Ctx;
  G->Count = G->Live = Count;
  G->Current = 0;
  G->StackBytes = StackBytes;
  G->Stacks = reinterpret_cast<void **>(Arena + sizeof(FiberGroup));
  G->Value = reinterpret_cast<uint64_t *>(G->Stacks + Count);
  G->Snapshot = G->Value + Count;
  G->Queue = G->Snapshot + Count;
  G->Site = reinterpret_cast<uint32_t *>(G->Queue + Count);
  G->Masks = G->Site + Count;
  G->Done = reinterpret_cast<unsigned char *>(G->Masks + 4 * subGroups(Count));
  G->State = reinterpret_cast<FiberState *>(G->Done + Count);
  G->StackBase = Arena + headerSize(Count);
  memset(G->Done, 0, Count);
  G->Converging = Converging != 0;
  if (G->Converging) {
    // Work-item 0 starts; the rest are ready in order.
    for (uint64_t I = 0; I < Count; ++I) {
      G->State[I] = Ready;
      G->Queue[I] = I;
    }
    G->QueueHead = Count > 1 ? 1 : 0;
    G->QueueSize = Count - 1;
    std::fill(std::begin(G->Waiting), std::end(G->Waiting), 0);
  }
  for (uint64_t I = 0; I < Count; ++I)
    G->Stacks[I] = initialFrame(*G, I);
  weftFiberSwitch(&G->MainStack, G->Stacks[0]);
  for (uint64_t I = 0; I < Count; ++I)
    if (memcmp(G->StackBase + I * StackBytes, &GuardWord, sizeof(GuardWord))) {
      fprintf(stderr,
              "weft: work-item %llu overflowed its %llu-byte stack (fallback "
              "work-group method); aborting\n",
              (unsigned long long)I, (unsigned long long)StackBytes);
      abort();
    }
}

extern "C" void __weft_fiber_barrier(const weft::WorkGroupContext *Ctx) {
  using namespace weft;
  auto *G = static_cast<FiberGroup *>(Ctx->PrivateArena);
  if (G->Converging)
    return waitConverging(*G, AtBarrier);
  uint64_t I = G->Current;
  uint64_t Next = nextLive(*G, I);
  if (Next == I)
    return;
  G->Current = Next;
  weftFiberSwitch(&G->Stacks[I], G->Stacks[Next]);
}

extern "C" void
__weft_fiber_sub_group_barrier(const weft::WorkGroupContext *Ctx) {
  using namespace weft;
  auto *G = static_cast<FiberGroup *>(Ctx->PrivateArena);
  if (G->Converging)
    return waitConverging(*G, AtSubGroupBarrier);
  uint64_t I = G->Current;
  uint64_t Next = nextLiveInSubGroup(*G, I);
  if (Next == I)
    return;
  G->Current = Next;
  weftFiberSwitch(&G->Stacks[I], G->Stacks[Next]);
}

extern "C" void __weft_fiber_converge(const weft::WorkGroupContext *Ctx,
                                      uint32_t Site, uint64_t Value) {
  using namespace weft;
  auto *G = static_cast<FiberGroup *>(Ctx->PrivateArena);
  G->Site[G->Current] = Site;
  G->Value[G->Current] = Value;
  waitConverging(*G, AtConverge);
}

extern "C" uint32_t
__weft_fiber_converged_mask(const weft::WorkGroupContext *Ctx, uint32_t Word) {
  using namespace weft;
  auto *G = static_cast<FiberGroup *>(Ctx->PrivateArena);
  return Word < 4 ? G->Masks[G->Current / SubGroupSize * 4 + Word] : 0;
}

extern "C" uint64_t
__weft_fiber_converged_value(const weft::WorkGroupContext *Ctx,
                             uint32_t SubGroupLocalId) {
  using namespace weft;
  auto *G = static_cast<FiberGroup *>(Ctx->PrivateArena);
  uint64_t I = G->Current / SubGroupSize * SubGroupSize + SubGroupLocalId;
  return SubGroupLocalId < SubGroupSize && I < G->Count ? G->Snapshot[I] : 0;
}

namespace weft {
std::vector<FiberRuntimeSymbol> fiberRuntimeSymbols() {
  auto Address = [](auto *F) { return reinterpret_cast<void *>(F); };
  return {
      {RunFibersSymbol, Address(&__weft_run_work_group_fibers)},
      {FiberBarrierSymbol, Address(&__weft_fiber_barrier)},
      {FiberSubGroupBarrierSymbol, Address(&__weft_fiber_sub_group_barrier)},
      {FiberConvergeSymbol, Address(&__weft_fiber_converge)},
      {FiberConvergedMaskSymbol, Address(&__weft_fiber_converged_mask)},
      {FiberConvergedValueSymbol, Address(&__weft_fiber_converged_value)}};
}
} // namespace weft

#else

namespace weft {
bool fibersAvailable() { return false; }
std::vector<FiberRuntimeSymbol> fiberRuntimeSymbols() { return {}; }
} // namespace weft

#endif
