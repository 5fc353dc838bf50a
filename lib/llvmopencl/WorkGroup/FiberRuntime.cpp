//===- FiberRuntime.cpp - Work-items as fibers, switched at barriers ------===//
//
// The run-time half of the fallback work-group method (WorkGroupFibers.cpp
// is the compiler half). __weft_run_work_group_fibers runs one work-group:
//
//   private arena:  [FiberGroup | saved stack pointers | done flags]
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

struct FiberGroup {
  void *MainStack;
  FiberBody Body;
  void *Frame;
  const WorkGroupContext *Ctx;
  uint64_t Count, Current, Live, StackBytes;
  void **Stacks;       ///< saved stack pointer of each work-item
  unsigned char *Done; ///< the work-item has returned
  unsigned char *StackBase;
};

uint64_t alignUp(uint64_t V, uint64_t A) { return (V + A - 1) / A * A; }

uint64_t headerSize(uint64_t WorkItems) {
  return alignUp(sizeof(FiberGroup) + WorkItems * (sizeof(void *) + 1),
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
  if (--G->Live == 0) {
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
                                             uint64_t StackBytes) {
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
  G->Done = reinterpret_cast<unsigned char *>(G->Stacks + Count);
  G->StackBase = Arena + headerSize(Count);
  memset(G->Done, 0, Count);
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
  uint64_t I = G->Current;
  uint64_t Next = nextLiveInSubGroup(*G, I);
  if (Next == I)
    return;
  G->Current = Next;
  weftFiberSwitch(&G->Stacks[I], G->Stacks[Next]);
}

namespace weft {
void *runFibersAddress() {
  return reinterpret_cast<void *>(&__weft_run_work_group_fibers);
}
void *fiberBarrierAddress() {
  return reinterpret_cast<void *>(&__weft_fiber_barrier);
}
void *fiberSubGroupBarrierAddress() {
  return reinterpret_cast<void *>(&__weft_fiber_sub_group_barrier);
}
} // namespace weft

#else

namespace weft {
bool fibersAvailable() { return false; }
void *runFibersAddress() { return nullptr; }
void *fiberBarrierAddress() { return nullptr; }
void *fiberSubGroupBarrierAddress() { return nullptr; }
} // namespace weft

#endif
