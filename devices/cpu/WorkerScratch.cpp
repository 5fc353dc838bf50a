//===- WorkerScratch.cpp - Running work-groups on the calling thread ------===//

#include "cpu/CpuDevice.h"

#include <pthread.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace weft {

/// Every __local block and the private arena start at this alignment, so
/// the widest vector type is aligned and blocks never share a cache line.
static constexpr size_t ScratchAlignment = 128;
static_assert(ScratchAlignment % LocalVariablesAlignment == 0,
              "launcher.h's promise for WorkGroupContext::LocalVariables");

static size_t alignUp(size_t Value, size_t Alignment) {
  return (Value + Alignment - 1) / Alignment * Alignment;
}

WorkerScratch::~WorkerScratch() {
  release(LocalMemory);
  release(PrivateArena);
}

void WorkerScratch::release(void *Block) {
  if (Memory)
    Memory->deallocate(Block);
  else
    free(Block);
}

void *WorkerScratch::grow(void *&Block, size_t &Capacity, size_t Needed) {
  if (Needed <= Capacity && Block)
    return Block;
  release(Block);
  Capacity = alignUp(std::max<size_t>(Needed, ScratchAlignment),
                     ScratchAlignment);
  Block = Memory ? Memory->allocate(Capacity, ScratchAlignment)
                 : aligned_alloc(ScratchAlignment, Capacity);
  if (!Block)
    Capacity = 0;
  return Block;
}

namespace {

/// The calling thread's stack, where kernels' private variables live.
struct ThreadStack {
  const void *Base = nullptr;
  uint64_t Size = 0;
};

const ThreadStack &threadStack() {
  thread_local ThreadStack Stack = [] {
    ThreadStack S;
    pthread_attr_t Attr;
    if (pthread_getattr_np(pthread_self(), &Attr) == 0) {
      void *Base;
      size_t Size;
      if (pthread_attr_getstack(&Attr, &Base, &Size) == 0) {
        S.Base = Base;
        S.Size = Size;
      }
      pthread_attr_destroy(&Attr);
    }
    return S;
  }();
  return Stack;
}

} // namespace

size_t workGroupCount(const KernelLaunch &Launch) {
  size_t Count = 1;
  for (unsigned D = 0; D < 3; ++D)
    Count *= (Launch.GlobalSize[D] + Launch.LocalSize[D] - 1) /
             Launch.LocalSize[D];
  return Count;
}

// The launcher is JIT-compiled code without the type signature that
// clang's -fsanitize=function (part of -fsanitize=undefined) reads in the
// 8 bytes before a function it calls indirectly: unchecked, or the check
// reads the page before the code, unmapped when the code starts a page
// (SIGSEGV in weft-fuzz-load-binary's build, whenever the JIT placed
// saxpy's launcher so).
#if defined(__clang__)
__attribute__((no_sanitize("function")))
#endif
bool WorkerScratch::runWorkGroups(const KernelLaunch &Launch, size_t First,
                                  size_t End, uint64_t *BlockCounters) {
  // This thread's view of the arguments: shared values, own local memory.
  // One block, sized once per command and reused by every group: the
  // kernel's automatic __local variables, then each __local argument.
  Args = Launch.ArgPointers;
  const size_t VariableBytes =
      alignUp(Launch.Function.LocalVariablesSize, ScratchAlignment);
  size_t LocalBytes = VariableBytes;
  for (const KernelLaunch::LocalArg &L : Launch.LocalArgs)
    LocalBytes += alignUp(L.Size, ScratchAlignment);
  auto *Local = static_cast<unsigned char *>(
      LocalBytes ? grow(LocalMemory, LocalCapacity, LocalBytes) : nullptr);
  if (LocalBytes && !Local)
    return false;
  void *Variables = VariableBytes ? Local : nullptr;
  Local += VariableBytes;
  LocalPointers.assign(Launch.LocalArgs.size(), nullptr);
  for (size_t I = 0; I < Launch.LocalArgs.size(); ++I) {
    LocalPointers[I] = Local;
    Local += alignUp(Launch.LocalArgs[I].Size, ScratchAlignment);
    Args[Launch.LocalArgs[I].Index] = &LocalPointers[I];
  }

  WorkGroupContext Ctx;
  memset(&Ctx, 0, sizeof(Ctx));
  Ctx.WorkDim = Launch.WorkDim;
  for (unsigned D = 0; D < 3; ++D) {
    Ctx.NumGroups[D] = (Launch.GlobalSize[D] + Launch.LocalSize[D] - 1) /
                       Launch.LocalSize[D];
    Ctx.GlobalOffset[D] = Launch.GlobalOffset[D];
    Ctx.GlobalSize[D] = Launch.GlobalSize[D];
    Ctx.EnqueuedLocalSize[D] = Launch.LocalSize[D];
  }
  Ctx.PrivateArena =
      Launch.Function.PrivateArenaSize
          ? grow(PrivateArena, PrivateCapacity,
                 Launch.Function.PrivateArenaSize)
          : nullptr;
  if (Launch.Function.PrivateArenaSize && !Ctx.PrivateArena)
    return false;
  Ctx.BlockCounters = BlockCounters;

  Ctx.Printf = Launch.Printf.get();
  Ctx.LocalVariables = Variables;
  // Where generic pointers' address spaces are told apart.
  Ctx.LocalMemory = LocalBytes ? LocalMemory : nullptr;
  Ctx.LocalMemorySize = LocalBytes;
  Ctx.PrivateArenaSize = Ctx.PrivateArena ? PrivateCapacity : 0;
  const ThreadStack &Stack = threadStack();
  Ctx.Stack = Stack.Base;
  Ctx.StackSize = Stack.Size;

  const size_t GroupsX = Ctx.NumGroups[0], GroupsY = Ctx.NumGroups[1];
  for (size_t Group = First; Group < End; ++Group) {
    Ctx.GroupId[0] = Group % GroupsX;
    Ctx.GroupId[1] = (Group / GroupsX) % GroupsY;
    Ctx.GroupId[2] = Group / (GroupsX * GroupsY);
    for (unsigned D = 0; D < 3; ++D) {
      // The last group of a non-uniform NDRange is smaller.
      uint64_t Start = Ctx.GroupId[D] * Launch.LocalSize[D];
      Ctx.LocalSize[D] =
          std::min<uint64_t>(Launch.LocalSize[D], Launch.GlobalSize[D] - Start);
    }
    Launch.Function.Launch(Args.data(), &Ctx);
  }
  return true;
}

void runTransfer(const Command &Cmd) {
  switch (Cmd.Kind) {
  case CommandKind::ReadBuffer:
  case CommandKind::WriteBuffer:
  case CommandKind::CopyBuffer:
    if (Cmd.Dst != Cmd.Src)
      memmove(Cmd.Dst, Cmd.Src, Cmd.Size);
    break;
  case CommandKind::FillBuffer: {
    auto *Dst = static_cast<unsigned char *>(Cmd.Dst);
    const size_t Step = Cmd.Pattern.size();
    for (size_t Offset = 0; Offset < Cmd.Size; Offset += Step)
      memcpy(Dst + Offset, Cmd.Pattern.data(), Step);
    break;
  }
  case CommandKind::ReadBufferRect:
  case CommandKind::WriteBufferRect:
  case CommandKind::CopyBufferRect: {
    const RectCopy &R = Cmd.Rect;
    auto *Dst = static_cast<unsigned char *>(Cmd.Dst);
    const auto *Src = static_cast<const unsigned char *>(Cmd.Src);
    for (size_t Z = 0; Z < R.Region[2]; ++Z)
      for (size_t Y = 0; Y < R.Region[1]; ++Y)
        memmove(Dst + Z * R.DstSlicePitch + Y * R.DstRowPitch,
                Src + Z * R.SrcSlicePitch + Y * R.SrcRowPitch, R.Region[0]);
    break;
  }
  case CommandKind::NativeKernel:
    // The argument block is the command's own copy; the function may
    // write to it, as the specification allows.
    Cmd.Native.Fn(const_cast<unsigned char *>(Cmd.Native.Args.data()));
    break;
  default:
    break;
  }
}

} // namespace weft
