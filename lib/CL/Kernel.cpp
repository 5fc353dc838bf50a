//===- Kernel.cpp - Kernels, their arguments, clEnqueueNDRangeKernel ------===//

#include "Kernel.h"

#include "CommandQueue.h"
#include "Image.h"

#include "weft/launcher.h"

#include <CL/cl_ext.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace weft {

/// Whether an image of Type may be passed for an argument declared with
/// TypeName (e.g. "image2d_t", possibly qualified).
static bool imageMatchesArgType(cl_mem_object_type Type,
                                const std::string &TypeName) {
  auto Has = [&](const char *S) {
    return TypeName.find(S) != std::string::npos;
  };
  switch (Type) {
  case CL_MEM_OBJECT_IMAGE1D:
    return Has("image1d_t");
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    return Has("image1d_buffer_t");
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    return Has("image1d_array_t");
  case CL_MEM_OBJECT_IMAGE2D:
    return Has("image2d_t");
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    return Has("image2d_array_t");
  case CL_MEM_OBJECT_IMAGE3D:
    return Has("image3d_t");
  default:
    return false;
  }
}

Kernel::Kernel(Program &P, const KernelDesc &D)
    : _cl_kernel(ObjectKind::Kernel), Prog(P), Desc(D), Args(D.Args.size()) {
  Prog.retainInternal();
  Prog.attachKernel();
}

Kernel::Kernel(const Kernel &Source)
    : _cl_kernel(ObjectKind::Kernel), RefCounted<Kernel>(), Prog(Source.Prog),
      Desc(Source.Desc) {
  {
    std::lock_guard<std::mutex> Guard(Source.Lock);
    Args = Source.Args;
  }
  for (ArgValue &A : Args)
    if (A.Buffer)
      A.Buffer->retainWeak();
  Prog.retainInternal();
  Prog.attachKernel();
}

Kernel::~Kernel() {
  delete Spare.exchange(nullptr);
  for (ArgValue &A : Args)
    if (A.Buffer)
      A.Buffer->releaseWeak();
  Prog.detachKernel();
  Prog.releaseInternal();
}

cl_int Kernel::setArg(cl_uint Index, size_t Size, const void *Value) {
  if (Index >= Desc.Args.size())
    return WEFT_ERROR(CL_INVALID_ARG_INDEX, "no argument with that index");
  const KernelArgDesc &Arg = Desc.Args[Index];
  ArgValue New;
  New.IsSet = true;
  switch (Arg.ArgKind) {
  case KernelArgDesc::Kind::GlobalBuffer:
  case KernelArgDesc::Kind::ConstantBuffer: {
    if (Size != sizeof(cl_mem))
      return WEFT_ERROR(CL_INVALID_ARG_SIZE, "buffer argument needs a cl_mem");
    cl_mem Handle = Value ? *static_cast<const cl_mem *>(Value) : nullptr;
    if (Handle) {
      New.Buffer = castBuffer(Handle);
      if (!New.Buffer)
        return WEFT_ERROR(CL_INVALID_MEM_OBJECT, "bad buffer argument");
      if (&New.Buffer->context() != &Prog.context())
        return WEFT_ERROR(CL_INVALID_MEM_OBJECT,
                          "buffer from another context");
    }
    break;
  }
  case KernelArgDesc::Kind::LocalBuffer:
    if (Value)
      return WEFT_ERROR(CL_INVALID_ARG_VALUE, "__local argument with a value");
    if (Size == 0)
      return WEFT_ERROR(CL_INVALID_ARG_SIZE, "__local argument of size 0");
    New.LocalSize = Size;
    break;
  case KernelArgDesc::Kind::Scalar:
    if (Size != Arg.Size)
      return WEFT_ERROR(CL_INVALID_ARG_SIZE, "size differs from the type's");
    if (!Value)
      return WEFT_ERROR(CL_INVALID_ARG_VALUE, "NULL value for a scalar");
    New.Bytes.assign(static_cast<const unsigned char *>(Value),
                     static_cast<const unsigned char *>(Value) + Size);
    break;
  case KernelArgDesc::Kind::Image: {
    if (Size != sizeof(cl_mem))
      return WEFT_ERROR(CL_INVALID_ARG_SIZE, "image argument needs a cl_mem");
    New.Buffer = Value ? castMemObject(*static_cast<const cl_mem *>(Value))
                       : nullptr;
    if (!New.Buffer || !New.Buffer->image())
      return WEFT_ERROR(CL_INVALID_ARG_VALUE, "not an image");
    if (&New.Buffer->context() != &Prog.context())
      return WEFT_ERROR(CL_INVALID_MEM_OBJECT, "image from another context");
    if (!imageMatchesArgType(New.Buffer->image()->Type, Arg.TypeName))
      return WEFT_ERROR(CL_INVALID_ARG_VALUE,
                        "image type differs from the argument's");
    cl_mem_flags F = New.Buffer->flags();
    if ((Arg.AccessQualifier == CL_KERNEL_ARG_ACCESS_READ_ONLY &&
         (F & CL_MEM_WRITE_ONLY)) ||
        (Arg.AccessQualifier == CL_KERNEL_ARG_ACCESS_WRITE_ONLY &&
         (F & CL_MEM_READ_ONLY)) ||
        (Arg.AccessQualifier == CL_KERNEL_ARG_ACCESS_READ_WRITE &&
         (F & (CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY))))
      return WEFT_ERROR(CL_INVALID_ARG_VALUE,
                        "image flags conflict with the access qualifier");
    break;
  }
  case KernelArgDesc::Kind::Sampler: {
    if (Size != sizeof(cl_sampler))
      return WEFT_ERROR(CL_INVALID_ARG_SIZE,
                        "sampler argument needs a cl_sampler");
    Sampler *S = Value ? castSampler(*static_cast<const cl_sampler *>(Value))
                       : nullptr;
    if (!S)
      return WEFT_ERROR(CL_INVALID_SAMPLER, "bad sampler argument");
    if (&S->context() != &Prog.context())
      return WEFT_ERROR(CL_INVALID_SAMPLER, "sampler from another context");
    // The kernel sees the sampler's bits as its pointer value.
    uintptr_t Bits = S->kernelValue();
    New.Bytes.assign(reinterpret_cast<const unsigned char *>(&Bits),
                     reinterpret_cast<const unsigned char *>(&Bits) +
                         sizeof(Bits));
    break;
  }
  }
  // A weak reference: the application may release the buffer while the
  // kernel lives on, and then its destructor callbacks must run.
  if (New.Buffer)
    New.Buffer->retainWeak();
  std::lock_guard<std::mutex> Guard(Lock);
  if (Args[Index].Buffer)
    Args[Index].Buffer->releaseWeak();
  Args[Index] = std::move(New);
  return CL_SUCCESS;
}

cl_int Kernel::setArgSvm(cl_uint Index, const void *Pointer) {
  if (Index >= Desc.Args.size())
    return WEFT_ERROR(CL_INVALID_ARG_INDEX, "no argument with that index");
  KernelArgDesc::Kind K = Desc.Args[Index].ArgKind;
  if (K != KernelArgDesc::Kind::GlobalBuffer &&
      K != KernelArgDesc::Kind::ConstantBuffer)
    return WEFT_ERROR(CL_INVALID_ARG_VALUE,
                      "an SVM pointer for a non-global argument");
  ArgValue New;
  New.IsSet = true;
  New.IsSvm = true;
  New.SvmPointer = Pointer;
  std::lock_guard<std::mutex> Guard(Lock);
  if (Args[Index].Buffer)
    Args[Index].Buffer->releaseWeak();
  Args[Index] = std::move(New);
  return CL_SUCCESS;
}

std::unique_ptr<Kernel::LaunchState> Kernel::takeLaunchState() {
  if (LaunchState *S = Spare.exchange(nullptr, std::memory_order_acquire))
    return std::unique_ptr<LaunchState>(S);
  auto S = std::make_unique<LaunchState>();
  S->Owner = this;
  return S;
}

void Kernel::recycleLaunchState(std::unique_ptr<LaunchState> S) {
  LaunchState *Empty = nullptr;
  if (Spare.compare_exchange_strong(Empty, S.get(), std::memory_order_release))
    S.release();
}

cl_int Kernel::snapshotArgs(std::vector<ArgValue> &Out) const {
  std::lock_guard<std::mutex> Guard(Lock);
  for (const ArgValue &A : Args)
    if (!A.IsSet)
      return WEFT_ERROR(CL_INVALID_KERNEL_ARGS, "an argument is not set");
  Out = Args;
  for (size_t I = 0; I < Out.size(); ++I) {
    if (!Out[I].Buffer || Out[I].Buffer->tryRetainInternal())
      continue;
    for (size_t J = 0; J < I; ++J)
      if (Out[J].Buffer)
        Out[J].Buffer->releaseInternal();
    Out.clear();
    return WEFT_ERROR(CL_INVALID_MEM_OBJECT,
                      "a memory object argument was released");
  }
  return CL_SUCCESS;
}

bool Kernel::argsSet() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return std::all_of(Args.begin(), Args.end(),
                     [](const ArgValue &A) { return A.IsSet; });
}

size_t Kernel::localMemSize() const {
  std::lock_guard<std::mutex> Guard(Lock);
  size_t Total = Desc.StaticLocalMemSize;
  for (const ArgValue &A : Args)
    Total += A.LocalSize;
  return Total;
}

namespace {

/// CL_KERNEL_WORK_GROUP_SIZE on D: the device's limit, lowered when the
/// kernel's context arrays would not fit a worker's private arena.
size_t kernelWorkGroupSize(const KernelDesc &K, const DeviceDescription &D) {
  return K.MaxWorkGroupSize ? std::min(D.MaxWorkGroupSize, K.MaxWorkGroupSize)
                            : D.MaxWorkGroupSize;
}

/// The local size an NDRange of Global gets when enqueued with a NULL
/// local size (also clGetKernelSuggestedLocalWorkSizeKHR's answer): the
/// kernel's reqd_work_group_size, else the driver's choice cut to the
/// kernel's limit.
void suggestLocalSize(const Device &D, const Kernel &K, cl_uint WorkDim,
                      const size_t Global[3], size_t Local[3]) {
  const DeviceDescription &Desc = D.description();
  const size_t *Reqd = K.desc().ReqdWorkGroupSize;
  if (Reqd[0]) {
    std::copy(Reqd, Reqd + 3, Local);
    return;
  }
  // A kernel that allows a smaller last group need not be cut into
  // divisors of the global size (a prime size would give groups of one):
  // the driver chooses for the size rounded up to a multiple of 64.
  bool NonUniform =
      Desc.NonUniformWorkGroupSupport && !K.desc().UniformWorkGroupSize;
  size_t Padded[3] = {Global[0], Global[1], Global[2]};
  if (NonUniform && Global[0] <= SIZE_MAX - 63)
    Padded[0] = (Global[0] + 63) / 64 * 64;
  D.driver().chooseLocalSize(WorkDim, Padded, Local);
  for (cl_uint I = 0; I < 3; ++I)
    Local[I] = std::max<size_t>(1, std::min(Local[I], Global[I]));
  // The driver knows the device, not the kernel: shrink its choice to
  // the kernel's limit, keeping every dimension a divisor of the global
  // size unless the kernel allows a remainder group.
  size_t Limit = kernelWorkGroupSize(K.desc(), Desc);
  for (cl_uint I = WorkDim; I-- > 0;)
    while (Local[0] * Local[1] * Local[2] > Limit && Local[I] > 1) {
      size_t Smaller = Local[I] - 1;
      while (!NonUniform && Smaller > 1 && Global[I] % Smaller)
        --Smaller;
      Local[I] = Smaller;
    }
}

/// Everything clEnqueueNDRangeKernel checks about the NDRange, in the
/// specification's order; fills in the local size when NULL was given.
cl_int validateNDRange(const Device &D, const Kernel &K, cl_uint WorkDim,
                       const size_t *GlobalOffset, const size_t *GlobalSize,
                       const size_t *LocalSizeIn, size_t Offset[3],
                       size_t Global[3], size_t Local[3]) {
  const DeviceDescription &Desc = D.description();
  if (WorkDim < 1 || WorkDim > 3)
    return WEFT_ERROR(CL_INVALID_WORK_DIMENSION, "work_dim must be 1 to 3");
  if (!GlobalSize)
    return WEFT_ERROR(CL_INVALID_GLOBAL_WORK_SIZE, "global_work_size is NULL");
  for (cl_uint I = 0; I < 3; ++I) {
    Global[I] = I < WorkDim ? GlobalSize[I] : 1;
    Offset[I] = I < WorkDim && GlobalOffset ? GlobalOffset[I] : 0;
    if (Offset[I] + Global[I] < Offset[I])
      return WEFT_ERROR(CL_INVALID_GLOBAL_OFFSET,
                        "global offset + size overflows size_t");
  }
  const size_t *Reqd = K.desc().ReqdWorkGroupSize;
  bool HasReqd = Reqd[0] != 0;
  if (LocalSizeIn) {
    for (cl_uint I = 0; I < 3; ++I)
      Local[I] = I < WorkDim ? LocalSizeIn[I] : 1;
  } else if (HasReqd) {
    return WEFT_ERROR(CL_INVALID_WORK_GROUP_SIZE,
                      "NULL local size for a kernel with reqd_work_group_size");
  } else {
    suggestLocalSize(D, K, WorkDim, Global, Local);
  }
  size_t Product = 1;
  for (cl_uint I = 0; I < 3; ++I) {
    if (Local[I] == 0)
      return WEFT_ERROR(CL_INVALID_WORK_GROUP_SIZE, "local size of 0");
    if (HasReqd && Local[I] != Reqd[I])
      return WEFT_ERROR(CL_INVALID_WORK_GROUP_SIZE,
                        "local size differs from reqd_work_group_size");
    // OpenCL 2.0+: a remainder group is allowed when the device supports
    // it and the kernel was not built for uniform groups (OpenCL C 1.x or
    // -cl-uniform-work-group-size).
    if (Global[I] % Local[I] &&
        (!Desc.NonUniformWorkGroupSupport || K.desc().UniformWorkGroupSize))
      return WEFT_ERROR(CL_INVALID_WORK_GROUP_SIZE,
                        "global size not a multiple of the local size (the "
                        "kernel needs uniform work-groups: OpenCL C 1.x or "
                        "-cl-uniform-work-group-size)");
    Product *= Local[I];
  }
  if (Product > kernelWorkGroupSize(K.desc(), Desc))
    return WEFT_ERROR(CL_INVALID_WORK_GROUP_SIZE,
                      "local size exceeds CL_KERNEL_WORK_GROUP_SIZE");
  for (cl_uint I = 0; I < WorkDim; ++I)
    if (Local[I] > Desc.MaxWorkItemSizes[I])
      return WEFT_ERROR(CL_INVALID_WORK_ITEM_SIZE,
                        "local size exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES");
  return CL_SUCCESS;
}

/// Lays the argument values out as the launcher ABI wants them.
void packArguments(const Device &D, const KernelDesc &Desc,
                   const std::vector<Kernel::ArgValue> &Values,
                   KernelLaunch &Launch) {
  // The size first, then one allocation, over-aligned so that every value
  // sits at its type's alignment from an aligned base; the offsets are
  // worked out again while filling it (no allocation for them).
  constexpr size_t BaseAlign = 128;
  auto place = [&](size_t I, size_t &End) {
    const KernelArgDesc &Arg = Desc.Args[I];
    size_t Bytes = Arg.ArgKind == KernelArgDesc::Kind::Scalar
                       ? Values[I].Bytes.size()
                       : sizeof(void *);
    size_t Align = std::max<size_t>(Arg.Alignment, sizeof(void *));
    size_t Offset = (End + Align - 1) / Align * Align;
    End = Offset + Bytes;
    return Offset;
  };
  size_t Size = 0;
  for (size_t I = 0; I < Values.size(); ++I)
    place(I, Size);
  Launch.ArgStorage.assign(Size + BaseAlign, 0);
  uintptr_t Raw = reinterpret_cast<uintptr_t>(Launch.ArgStorage.data());
  auto *Base = reinterpret_cast<unsigned char *>((Raw + BaseAlign - 1) /
                                                 BaseAlign * BaseAlign);
  Launch.ArgPointers.assign(Values.size(), nullptr);
  Launch.LocalArgs.clear();
  size_t End = 0;
  for (size_t I = 0; I < Values.size(); ++I) {
    unsigned char *Slot = Base + place(I, End);
    const Kernel::ArgValue &V = Values[I];
    switch (Desc.Args[I].ArgKind) {
    case KernelArgDesc::Kind::LocalBuffer:
      Launch.LocalArgs.push_back({static_cast<unsigned>(I), V.LocalSize});
      continue; // each worker points it at its own local memory
    case KernelArgDesc::Kind::GlobalBuffer:
    case KernelArgDesc::Kind::ConstantBuffer: {
      const void *Address = V.IsSvm    ? V.SvmPointer
                            : V.Buffer ? V.Buffer->deviceAddress(D)
                                       : nullptr;
      memcpy(Slot, &Address, sizeof(Address));
      break;
    }
    case KernelArgDesc::Kind::Image: {
      // The descriptor lives as long as the image, which the command holds.
      const void *Address = &V.Buffer->image()->Kernel;
      memcpy(Slot, &Address, sizeof(Address));
      break;
    }
    default:
      memcpy(Slot, V.Bytes.data(), V.Bytes.size());
      break;
    }
    Launch.ArgPointers[I] = Slot;
  }
}

} // namespace

cl_int prepareKernelLaunch(CommandQueue &Queue, Kernel &K, cl_uint WorkDim,
                           const size_t *GlobalOffset, const size_t *GlobalSize,
                           const size_t *LocalSize, cl_uint NumEvents,
                           const cl_event *WaitList,
                           Kernel::LaunchState &State) {
  std::vector<Kernel::ArgValue> &Values = State.Values;
  if (&K.program().context() != &Queue.context())
    return WEFT_ERROR(CL_INVALID_CONTEXT, "kernel and queue contexts differ");
  Device &D = Queue.device();
  if (!K.program().buildFor(D))
    return WEFT_ERROR(CL_INVALID_PROGRAM_EXECUTABLE,
                      "program not built for the queue's device");
  size_t Offset[3], Global[3], Local[3];
  if (cl_int Err = validateNDRange(D, K, WorkDim, GlobalOffset, GlobalSize,
                                   LocalSize, Offset, Global, Local))
    return Err;
  if (cl_int Err = K.snapshotArgs(Values))
    return Err;
  cl_int Err = validateWaitList(NumEvents, WaitList, &Queue.context());
  // Images live in host memory, which only devices with images may touch.
  if (!D.description().ImageSupport)
    for (size_t I = 0; Err == CL_SUCCESS && I < Values.size(); ++I)
      if (K.desc().Args[I].ArgKind == KernelArgDesc::Kind::Image)
        Err = WEFT_ERROR(CL_INVALID_KERNEL_ARGS,
                         "an image argument, on a device without images");
  if (Err == CL_SUCCESS && K.localMemSize() > D.description().LocalMemSize)
    Err = WEFT_ERROR(CL_OUT_OF_RESOURCES, "too much local memory");
  if (Err != CL_SUCCESS) {
    releaseArgValues(Values);
    return Err;
  }

  if (Global[0] * Global[1] * Global[2] == 0) {
    State.Launch.reset();
    return CL_SUCCESS;
  }
  if (!State.Launch)
    State.Launch = std::make_unique<KernelLaunch>();
  KernelLaunch &Launch = *State.Launch;
  // A kernel's program cannot be built again while the kernel exists, so
  // the function of a previous launch of the same shape is still its own.
  bool SameFunction = Launch.Function.Launch && State.FunctionDevice == &D &&
                      std::equal(Local, Local + 3, Launch.LocalSize);
  if (!SameFunction) {
    std::string Error;
    State.FunctionDevice = nullptr;
    if (!K.program().workGroupFunction(D, K.desc(), Local, Launch.Function,
                                       Error)) {
      Queue.context().notify(Error.c_str());
      releaseArgValues(Values);
      WEFT_LOG(DebugCompile, "kernel %s: %s", K.desc().Name.c_str(),
               Error.c_str());
      return WEFT_ERROR(CL_OUT_OF_RESOURCES,
                        "the work-group function did not compile");
    }
    State.FunctionDevice = &D;
  }
  Launch.WorkDim = WorkDim;
  std::copy(Offset, Offset + 3, Launch.GlobalOffset);
  std::copy(Global, Global + 3, Launch.GlobalSize);
  std::copy(Local, Local + 3, Launch.LocalSize);
  Launch.Printf.reset();
  packArguments(D, K.desc(), Values, Launch);
  return CL_SUCCESS;
}

void releaseArgValues(std::vector<Kernel::ArgValue> &Values) {
  for (Kernel::ArgValue &V : Values)
    if (V.Buffer)
      V.Buffer->releaseInternal();
}

std::unique_ptr<KernelLaunch> copyLaunch(const KernelLaunch &From) {
  auto To = std::make_unique<KernelLaunch>();
  To->Function = From.Function;
  To->WorkDim = From.WorkDim;
  std::copy(From.GlobalOffset, From.GlobalOffset + 3, To->GlobalOffset);
  std::copy(From.GlobalSize, From.GlobalSize + 3, To->GlobalSize);
  std::copy(From.LocalSize, From.LocalSize + 3, To->LocalSize);
  To->LocalArgs = From.LocalArgs;
  // The values sit at an aligned base inside ArgStorage, and the copy's
  // allocation may be aligned differently: lay them out again from the
  // copy's own aligned base (packArguments's BaseAlign).
  constexpr size_t BaseAlign = 128;
  auto alignedBase = [](const unsigned char *Raw) {
    uintptr_t P = reinterpret_cast<uintptr_t>(Raw);
    return (P + BaseAlign - 1) / BaseAlign * BaseAlign;
  };
  To->ArgStorage.assign(From.ArgStorage.size(), 0);
  uintptr_t FromBase = alignedBase(From.ArgStorage.data());
  uintptr_t ToBase = alignedBase(To->ArgStorage.data());
  size_t Used = From.ArgStorage.size() - BaseAlign;
  memcpy(reinterpret_cast<void *>(ToBase), reinterpret_cast<void *>(FromBase),
         Used);
  To->ArgPointers.assign(From.ArgPointers.size(), nullptr);
  for (size_t I = 0; I < From.ArgPointers.size(); ++I)
    if (From.ArgPointers[I])
      To->ArgPointers[I] = reinterpret_cast<void *>(
          ToBase + (reinterpret_cast<uintptr_t>(From.ArgPointers[I]) -
                    FromBase));
  return To;
}

std::vector<BufferUse>
kernelBufferUses(const KernelDesc &Desc,
                 const std::vector<Kernel::ArgValue> &Values) {
  std::vector<BufferUse> Uses;
  for (size_t I = 0; I < Values.size(); ++I) {
    const KernelArgDesc &Arg = Desc.Args[I];
    const Kernel::ArgValue &V = Values[I];
    if (V.IsSvm || !V.Buffer)
      continue;
    switch (Arg.ArgKind) {
    case KernelArgDesc::Kind::GlobalBuffer:
      Uses.push_back({V.Buffer, 0, V.Buffer->size(), true,
                      !(Arg.TypeQualifier & CL_KERNEL_ARG_TYPE_CONST)});
      break;
    case KernelArgDesc::Kind::ConstantBuffer:
      Uses.push_back({V.Buffer, 0, V.Buffer->size(), true, false});
      break;
    case KernelArgDesc::Kind::Image:
      if (MemObject *Under = V.Buffer->image()->Buffer)
        Uses.push_back({Under, 0, Under->size(), true,
                        Arg.AccessQualifier != CL_KERNEL_ARG_ACCESS_READ_ONLY});
      break;
    default:
      break;
    }
  }
  return Uses;
}

namespace {

cl_int enqueueKernel(cl_command_queue Q, cl_kernel KernelId, cl_uint WorkDim,
                     const size_t *GlobalOffset, const size_t *GlobalSize,
                     const size_t *LocalSize, cl_uint NumEvents,
                     const cl_event *WaitList, cl_event *EventRet,
                     cl_command_type Type) {
  CommandQueue *Queue = castQueue(Q);
  if (!Queue)
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue");
  Kernel *K = castKernel(KernelId);
  if (!K)
    return WEFT_ERROR(CL_INVALID_KERNEL, "bad kernel");
  std::unique_ptr<Kernel::LaunchState> State = K->takeLaunchState();
  if (cl_int Err =
          prepareKernelLaunch(*Queue, *K, WorkDim, GlobalOffset, GlobalSize,
                              LocalSize, NumEvents, WaitList, *State)) {
    K->recycleLaunchState(std::move(State));
    return Err;
  }

  Event *E = Queue->beginCommand(Type, NumEvents, WaitList);
  if (State->Launch) {
    E->command().Kind = CommandKind::NDRangeKernel;
    E->command().Launch = std::move(State->Launch);
    if (Queue->context().hasOwnMemoryDevice()) {
      std::vector<BufferUse> Uses = kernelBufferUses(K->desc(), State->Values);
      trackBufferUsesSlow(Queue->context(), Queue->device(), E->command(),
                          Uses.data(), Uses.size());
    }
  }
  K->retainInternal();
  // The command's driver is done with the launch when the event completes:
  // the launch and the snapshot go back to the kernel for its next enqueue.
  // Two pointers: std::function keeps them without allocating.
  E->onCompletion([E, S = State.release()] {
    releaseArgValues(S->Values);
    S->Launch = std::move(E->command().Launch);
    Kernel *Owner = S->Owner;
    Owner->recycleLaunchState(std::unique_ptr<Kernel::LaunchState>(S));
    Owner->releaseInternal();
  });
  return Queue->finishEnqueue(E, EventRet);
}

} // namespace
} // namespace weft

using namespace weft;

extern "C" {

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program P,
                                                  const char *Name,
                                                  cl_int *ErrcodeRet) {
  Program *Prog = castProgram(P);
  if (!Prog) {
    setError(ErrcodeRet, WEFT_ERROR(CL_INVALID_PROGRAM, "bad program"));
    return nullptr;
  }
  if (!Prog->isBuiltForAnyDevice()) {
    setError(ErrcodeRet, WEFT_ERROR(CL_INVALID_PROGRAM_EXECUTABLE,
                                    "program not built"));
    return nullptr;
  }
  if (!Name) {
    setError(ErrcodeRet, WEFT_ERROR(CL_INVALID_VALUE, "NULL kernel name"));
    return nullptr;
  }
  const KernelDesc *Desc = Prog->findKernel(Name);
  if (!Desc) {
    setError(ErrcodeRet,
             WEFT_ERROR(CL_INVALID_KERNEL_NAME, "no kernel of that name"));
    return nullptr;
  }
  setError(ErrcodeRet, CL_SUCCESS);
  return new Kernel(*Prog, *Desc);
}

CL_API_ENTRY cl_int CL_API_CALL clCreateKernelsInProgram(
    cl_program P, cl_uint NumKernels, cl_kernel *Kernels,
    cl_uint *NumKernelsRet) {
  Program *Prog = castProgram(P);
  if (!Prog)
    return WEFT_ERROR(CL_INVALID_PROGRAM, "bad program");
  if (!Prog->isBuiltForAnyDevice())
    return WEFT_ERROR(CL_INVALID_PROGRAM_EXECUTABLE, "program not built");
  std::vector<std::string> Names = Prog->kernelNames();
  if (Kernels && NumKernels < Names.size())
    return WEFT_ERROR(CL_INVALID_VALUE, "num_kernels too small");
  if (Kernels)
    for (size_t I = 0; I < Names.size(); ++I)
      Kernels[I] = new Kernel(*Prog, *Prog->findKernel(Names[I]));
  if (NumKernelsRet)
    *NumKernelsRet = static_cast<cl_uint>(Names.size());
  return CL_SUCCESS;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel SourceKernel,
                                                 cl_int *ErrcodeRet) {
  Kernel *K = castKernel(SourceKernel);
  if (!K) {
    setError(ErrcodeRet, WEFT_ERROR(CL_INVALID_KERNEL, "bad kernel"));
    return nullptr;
  }
  setError(ErrcodeRet, CL_SUCCESS);
  return new Kernel(*K);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel KernelId) {
  Kernel *K = castKernel(KernelId);
  if (!K)
    return WEFT_ERROR(CL_INVALID_KERNEL, "bad kernel");
  K->retain();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel KernelId) {
  Kernel *K = castKernel(KernelId);
  if (!K)
    return WEFT_ERROR(CL_INVALID_KERNEL, "bad kernel");
  K->release();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel KernelId,
                                               cl_uint Index, size_t Size,
                                               const void *Value) {
  Kernel *K = castKernel(KernelId);
  if (!K)
    return WEFT_ERROR(CL_INVALID_KERNEL, "bad kernel");
  return K->setArg(Index, Size, Value);
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelInfo(cl_kernel KernelId,
                                                cl_kernel_info ParamName,
                                                size_t ParamValueSize,
                                                void *ParamValue,
                                                size_t *ParamValueSizeRet) {
  Kernel *K = castKernel(KernelId);
  if (!K)
    return WEFT_ERROR(CL_INVALID_KERNEL, "bad kernel");
  auto Ret = [&](const auto &V) {
    return returnValue(V, ParamValueSize, ParamValue, ParamValueSizeRet);
  };
  switch (ParamName) {
  case CL_KERNEL_FUNCTION_NAME:
    return returnString(K->desc().Name, ParamValueSize, ParamValue,
                        ParamValueSizeRet);
  case CL_KERNEL_NUM_ARGS:
    return Ret(static_cast<cl_uint>(K->desc().Args.size()));
  case CL_KERNEL_REFERENCE_COUNT:
    return Ret(K->referenceCount());
  case CL_KERNEL_CONTEXT:
    return Ret(static_cast<cl_context>(&K->program().context()));
  case CL_KERNEL_PROGRAM:
    return Ret(static_cast<cl_program>(&K->program()));
  case CL_KERNEL_ATTRIBUTES:
    return returnString(K->desc().Attributes, ParamValueSize, ParamValue,
                        ParamValueSizeRet);
  default:
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown cl_kernel_info");
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(
    cl_kernel KernelId, cl_device_id DeviceId,
    cl_kernel_work_group_info ParamName, size_t ParamValueSize,
    void *ParamValue, size_t *ParamValueSizeRet) {
  Kernel *K = castKernel(KernelId);
  if (!K)
    return WEFT_ERROR(CL_INVALID_KERNEL, "bad kernel");
  const std::vector<Device *> &Devices = K->program().context().devices();
  Device *D = DeviceId ? castDevice(DeviceId) : nullptr;
  if (!DeviceId && Devices.size() == 1)
    D = Devices.front();
  if (!D || !K->program().context().hasDevice(D))
    return WEFT_ERROR(CL_INVALID_DEVICE, "device not in the kernel's context");
  const DeviceDescription &Desc = D->description();
  auto Ret = [&](const auto &V) {
    return returnValue(V, ParamValueSize, ParamValue, ParamValueSizeRet);
  };
  switch (ParamName) {
  case CL_KERNEL_WORK_GROUP_SIZE:
    return Ret(kernelWorkGroupSize(K->desc(), Desc));
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
    return returnInfo(K->desc().ReqdWorkGroupSize,
                      sizeof(K->desc().ReqdWorkGroupSize), ParamValueSize,
                      ParamValue, ParamValueSizeRet);
  case CL_KERNEL_LOCAL_MEM_SIZE:
    return Ret(static_cast<cl_ulong>(K->localMemSize()));
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return Ret(static_cast<size_t>(std::max<cl_uint>(
        1, Desc.PreferredVectorWidth[4])));
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    return Ret(static_cast<cl_ulong>(K->desc().PrivateMemSize));
  case CL_KERNEL_GLOBAL_WORK_SIZE:
    return WEFT_ERROR(CL_INVALID_VALUE,
                      "only for custom devices and built-in kernels");
  default:
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown cl_kernel_work_group_info");
  }
}

// A work-group's sub-groups are runs of weft::SubGroupSize work-items of
// the local linear id, the last one possibly shorter (lib/kernel/
// subgroups.cl); every answer counts them that way.
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(
    cl_kernel KernelId, cl_device_id DeviceId,
    cl_kernel_sub_group_info ParamName, size_t InputValueSize,
    const void *InputValue, size_t ParamValueSize, void *ParamValue,
    size_t *ParamValueSizeRet) {
  Kernel *K = castKernel(KernelId);
  if (!K)
    return WEFT_ERROR(CL_INVALID_KERNEL, "bad kernel");
  const std::vector<Device *> &Devices = K->program().context().devices();
  Device *D = DeviceId ? castDevice(DeviceId) : nullptr;
  if (!DeviceId && Devices.size() == 1)
    D = Devices.front();
  if (!D || !K->program().context().hasDevice(D))
    return WEFT_ERROR(CL_INVALID_DEVICE,
                      "device not in the kernel's context, or NULL with "
                      "several devices");
  const DeviceDescription &Desc = D->description();
  bool SubGroups = false;
  for (const cl_name_version &F : Desc.OpenCLCFeatures)
    SubGroups |= strcmp(F.name, "__opencl_c_subgroups") == 0;
  if (!SubGroups)
    return WEFT_ERROR(CL_INVALID_OPERATION, "device without sub-groups");
  auto Ret = [&](size_t V) {
    return returnValue(V, ParamValueSize, ParamValue, ParamValueSizeRet);
  };
  constexpr size_t S = SubGroupSize;
  auto SubGroupsOf = [](size_t WorkItems) { return (WorkItems + S - 1) / S; };
  const size_t *Reqd = K->desc().ReqdWorkGroupSize;
  size_t MaxWorkItems = Reqd[0] ? Reqd[0] * Reqd[1] * Reqd[2]
                                : kernelWorkGroupSize(K->desc(), Desc);
  switch (ParamName) {
  case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
  case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
    // The input is a local size of 1 to 3 dimensions.
    if (!InputValue || InputValueSize % sizeof(size_t) ||
        InputValueSize < sizeof(size_t) || InputValueSize > 3 * sizeof(size_t))
      return WEFT_ERROR(CL_INVALID_VALUE,
                        "input_value must be a local size of 1 to 3 size_t");
    size_t Local[3] = {1, 1, 1};
    memcpy(Local, InputValue, InputValueSize);
    size_t WorkItems = Local[0] * Local[1] * Local[2];
    if (ParamName == CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE)
      return Ret(SubGroupsOf(WorkItems));
    return Ret(std::min(S, WorkItems));
  }
  case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
    if (!InputValue || InputValueSize != sizeof(size_t))
      return WEFT_ERROR(CL_INVALID_VALUE,
                        "input_value must be one size_t, a sub-group count");
    size_t Count;
    memcpy(&Count, InputValue, sizeof(Count));
    // The answer has as many dimensions as param_value has room for.
    size_t Dims = std::min<size_t>(ParamValueSize / sizeof(size_t), 3);
    if (!ParamValue && Dims == 0)
      Dims = 3;
    if (ParamValue && (Dims == 0 || ParamValueSize % sizeof(size_t)))
      return WEFT_ERROR(CL_INVALID_VALUE,
                        "param_value must hold 1 to 3 size_t");
    // Count sub-groups: more than (Count - 1) * S work-items, at most
    // Count * S. The required size when it has that count, otherwise the
    // largest such size the kernel accepts, in x; zeros when there is none.
    size_t Local[3] = {0, 0, 0};
    if (Reqd[0]) {
      if (Count && SubGroupsOf(MaxWorkItems) == Count) {
        for (size_t I = 0; I < 3; ++I)
          Local[I] = I < Dims ? Reqd[I] : 1;
        if (Dims < 3 && Reqd[2] != 1)
          Local[0] = Local[1] = 0;
        if (Dims < 2 && Reqd[1] != 1)
          Local[0] = 0;
      }
    } else if (Count) {
      size_t Largest = std::min(MaxWorkItems, Desc.MaxWorkItemSizes[0]);
      size_t Size =
          std::min(Count <= Largest / S ? Count * S : Largest, Largest);
      if (SubGroupsOf(Size) == Count) {
        Local[0] = Size;
        Local[1] = Local[2] = 1;
      }
    }
    return returnInfo(Local, Dims * sizeof(size_t), ParamValueSize,
                      ParamValue, ParamValueSizeRet);
  }
  case CL_KERNEL_MAX_NUM_SUB_GROUPS:
    return Ret(SubGroupsOf(MaxWorkItems));
  case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
    // OpenCL C has no attribute that fixes the count.
    return Ret(0);
  default:
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown cl_kernel_sub_group_info");
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelArgInfo(
    cl_kernel KernelId, cl_uint Index, cl_kernel_arg_info ParamName,
    size_t ParamValueSize, void *ParamValue, size_t *ParamValueSizeRet) {
  Kernel *K = castKernel(KernelId);
  if (!K)
    return WEFT_ERROR(CL_INVALID_KERNEL, "bad kernel");
  if (Index >= K->desc().Args.size())
    return WEFT_ERROR(CL_INVALID_ARG_INDEX, "no argument with that index");
  const KernelArgDesc &Arg = K->desc().Args[Index];
  auto Ret = [&](const auto &V) {
    return returnValue(V, ParamValueSize, ParamValue, ParamValueSizeRet);
  };
  switch (ParamName) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
    return Ret(Arg.AddressQualifier);
  case CL_KERNEL_ARG_ACCESS_QUALIFIER:
    return Ret(Arg.AccessQualifier);
  case CL_KERNEL_ARG_TYPE_NAME:
    return returnString(Arg.TypeName, ParamValueSize, ParamValue,
                        ParamValueSizeRet);
  case CL_KERNEL_ARG_TYPE_QUALIFIER:
    return Ret(Arg.TypeQualifier);
  case CL_KERNEL_ARG_NAME:
    return returnString(Arg.Name, ParamValueSize, ParamValue,
                        ParamValueSizeRet);
  default:
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown cl_kernel_arg_info");
  }
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(
    cl_command_queue Q, cl_kernel KernelId, cl_uint WorkDim,
    const size_t *GlobalOffset, const size_t *GlobalSize,
    const size_t *LocalSize, cl_uint NumEvents, const cl_event *WaitList,
    cl_event *EventRet) {
  return enqueueKernel(Q, KernelId, WorkDim, GlobalOffset, GlobalSize,
                       LocalSize, NumEvents, WaitList, EventRet,
                       CL_COMMAND_NDRANGE_KERNEL);
}

// cl_khr_suggested_local_work_size: the local size clEnqueueNDRangeKernel
// would choose for a NULL local_work_size, with the errors of the
// extension's specification in its order.
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSuggestedLocalWorkSizeKHR(
    cl_command_queue Q, cl_kernel KernelId, cl_uint WorkDim,
    const size_t *GlobalOffset, const size_t *GlobalSize,
    size_t *SuggestedLocalSize) {
  CommandQueue *Queue = castQueue(Q);
  if (!Queue)
    return WEFT_ERROR(CL_INVALID_COMMAND_QUEUE, "bad queue");
  Kernel *K = castKernel(KernelId);
  if (!K)
    return WEFT_ERROR(CL_INVALID_KERNEL, "bad kernel");
  if (&K->program().context() != &Queue->context())
    return WEFT_ERROR(CL_INVALID_CONTEXT, "kernel and queue contexts differ");
  Device &D = Queue->device();
  if (!K->program().buildFor(D))
    return WEFT_ERROR(CL_INVALID_PROGRAM_EXECUTABLE,
                      "program not built for the queue's device");
  if (!K->argsSet())
    return WEFT_ERROR(CL_INVALID_KERNEL_ARGS, "an argument is not set");
  if (WorkDim < 1 || WorkDim > 3)
    return WEFT_ERROR(CL_INVALID_WORK_DIMENSION, "work_dim must be 1 to 3");
  if (!GlobalSize)
    return WEFT_ERROR(CL_INVALID_GLOBAL_WORK_SIZE, "global_work_size is NULL");
  size_t Global[3] = {1, 1, 1};
  for (cl_uint I = 0; I < WorkDim; ++I) {
    if (GlobalSize[I] == 0)
      return WEFT_ERROR(CL_INVALID_GLOBAL_WORK_SIZE,
                        "a global work size of 0");
    Global[I] = GlobalSize[I];
  }
  for (cl_uint I = 0; GlobalOffset && I < WorkDim; ++I)
    if (GlobalOffset[I] + Global[I] < GlobalOffset[I])
      return WEFT_ERROR(CL_INVALID_GLOBAL_OFFSET,
                        "global offset + size overflows size_t");
  if (!SuggestedLocalSize)
    return WEFT_ERROR(CL_INVALID_VALUE, "suggested_local_work_size is NULL");
  size_t Local[3];
  suggestLocalSize(D, *K, WorkDim, Global, Local);
  std::copy(Local, Local + WorkDim, SuggestedLocalSize);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueTask(cl_command_queue Q,
                                              cl_kernel KernelId,
                                              cl_uint NumEvents,
                                              const cl_event *WaitList,
                                              cl_event *EventRet) {
  const size_t One[3] = {1, 1, 1};
  return enqueueKernel(Q, KernelId, 1, nullptr, One, One, NumEvents, WaitList,
                       EventRet, CL_COMMAND_TASK);
}

} // extern "C"
