//===- ResolveWorkItemFunctions.cpp - get_*_id() from context and ids -----===//
//
// Makes the per-work-item function K.workitem of each (flattened) kernel K:
// K's body with four parameters appended,
//
//   K.workitem(<K's parameters>, ptr %ctx, i64 %lid.x, i64 %lid.y, i64 %lid.z)
//
// and every OpenCL work-item function call in it replaced by arithmetic on
// those: get_local_id from the ids, the rest from the WorkGroupContext the
// driver passes (launcher.h):
//
//   get_global_id(d)   = GroupId[d] * EnqueuedLocalSize[d] + lid[d]
//                        + GlobalOffset[d]
//   get_local_linear_id  = (lid.z * LocalSize[1] + lid.y) * LocalSize[0]
//                          + lid.x
//   get_global_linear_id = ((gz - oz) * GlobalSize[1] + (gy - oy))
//                          * GlobalSize[0] + (gx - ox)
//
// A dimension index d >= 3 gives the specification's out-of-range values
// (0 for ids and offsets, 1 for sizes); for d < 3 past get_work_dim() the
// driver's context holds those same values (sizes 1, ids and offsets 0), so
// no run-time comparison against WorkDim is needed. A non-constant d becomes
// a select over the three dimensions.
//
// The generic address space's queries are answered from where the worker's
// memory lies (launcher.h): clang's __to_global, __to_local and
// __to_private return the pointer when its value falls in global, local or
// private memory and null otherwise, and get_fence says
// CLK_LOCAL_MEM_FENCE, CLK_GLOBAL_MEM_FENCE or 0 (private) the same way.
//
// K itself is left unchanged: it still carries clang's kernel metadata.
//
//===----------------------------------------------------------------------===//
#include "WorkGroup/ResolveWorkItemFunctions.h"
#include "WorkGroup/KernelUtils.h"
#include "WorkGroup/WorkGroupContextLayout.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#define DEBUG_TYPE "weft-resolve-workitem-functions"

using namespace llvm;

namespace weft {

namespace {

enum class WorkItemQuery {
  None,
  GlobalId,
  LocalId,
  GroupId,
  LocalSize,
  EnqueuedLocalSize,
  GlobalSize,
  NumGroups,
  GlobalOffset,
  WorkDim,
  GlobalLinearId,
  LocalLinearId,
};

/// The query a callee implements, by its Itanium-mangled OpenCL name.
WorkItemQuery classifyCallee(StringRef Name) {
  return StringSwitch<WorkItemQuery>(Name)
      .Case("_Z13get_global_idj", WorkItemQuery::GlobalId)
      .Case("_Z12get_local_idj", WorkItemQuery::LocalId)
      .Case("_Z12get_group_idj", WorkItemQuery::GroupId)
      .Case("_Z14get_local_sizej", WorkItemQuery::LocalSize)
      .Case("_Z23get_enqueued_local_sizej", WorkItemQuery::EnqueuedLocalSize)
      .Case("_Z15get_global_sizej", WorkItemQuery::GlobalSize)
      .Case("_Z14get_num_groupsj", WorkItemQuery::NumGroups)
      .Case("_Z17get_global_offsetj", WorkItemQuery::GlobalOffset)
      .Case("_Z12get_work_dimv", WorkItemQuery::WorkDim)
      .Case("_Z20get_global_linear_idv", WorkItemQuery::GlobalLinearId)
      .Case("_Z19get_local_linear_idv", WorkItemQuery::LocalLinearId)
      .Default(WorkItemQuery::None);
}

enum class SpaceQuery { None, ToGlobal, ToLocal, ToPrivate, GetFence };

/// The generic address space's queries, by the names clang calls them.
SpaceQuery classifySpaceQuery(StringRef Name) {
  return StringSwitch<SpaceQuery>(Name)
      .Case("__to_global", SpaceQuery::ToGlobal)
      .Case("__to_local", SpaceQuery::ToLocal)
      .Case("__to_private", SpaceQuery::ToPrivate)
      .Cases("_Z9get_fencePU9CLgenericv", "_Z9get_fencePU9CLgenericKv",
             SpaceQuery::GetFence)
      .Default(SpaceQuery::None);
}

/// Whether Addr (an i64) lies in the context's [Begin, Begin + Size).
Value *inRange(IRBuilder<> &B, Value *Ctx, Value *Addr,
               WorkGroupContextField Begin, WorkGroupContextField Size) {
  Value *First = loadContextWord(B, Ctx, Begin);
  Value *Bytes = loadContextWord(B, Ctx, Size);
  return B.CreateICmpULT(B.CreateSub(Addr, First), Bytes);
}

/// The answer to Q for the call CB's pointer argument.
Value *resolveSpaceQuery(IRBuilder<> &B, Value *Ctx, SpaceQuery Q,
                         CallBase &CB) {
  Value *Ptr = CB.getArgOperand(0);
  Value *Addr = B.CreatePtrToInt(Ptr, B.getInt64Ty());
  Value *Local = inRange(B, Ctx, Addr, CtxLocalMemory, CtxLocalMemorySize);
  Value *OnStack = inRange(B, Ctx, Addr, CtxStack, CtxStackSize);
  Value *InArena = inRange(B, Ctx, Addr, CtxPrivateArena, CtxPrivateArenaSize);
  Value *Private = B.CreateOr(OnStack, InArena);
  if (Q == SpaceQuery::GetFence) {
    // CLK_GLOBAL_MEM_FENCE 1, CLK_LOCAL_MEM_FENCE 2 (opencl-c-base.h).
    Value *Fence = B.CreateSelect(Local, B.getInt32(2), B.getInt32(1));
    return B.CreateSelect(Private, B.getInt32(0), Fence);
  }
  Value *In = Q == SpaceQuery::ToLocal     ? Local
              : Q == SpaceQuery::ToPrivate ? Private
                                           : nullptr;
  if (!In)
    In = B.CreateNot(B.CreateOr(Local, Private));
  auto *ResultTy = cast<PointerType>(CB.getType());
  Value *Cast = B.CreateAddrSpaceCast(Ptr, ResultTy);
  return B.CreateSelect(In, Cast, ConstantPointerNull::get(ResultTy));
}

class Resolver {
public:
  Resolver(IRBuilder<> &B, Value *Ctx, Value *const LocalIds[3])
      : B(B), Ctx(Ctx), LocalIds{LocalIds[0], LocalIds[1], LocalIds[2]} {}

  Value *resolve(WorkItemQuery Q, CallBase &Call) {
    switch (Q) {
    case WorkItemQuery::WorkDim:
      return loadContextField(B, Ctx, CtxWorkDim);
    case WorkItemQuery::LocalLinearId:
      return localLinearId();
    case WorkItemQuery::GlobalLinearId:
      return globalLinearId();
    default:
      break;
    }
    Value *Dim = Call.getArgOperand(0);
    bool IsSize = Q == WorkItemQuery::LocalSize ||
                  Q == WorkItemQuery::EnqueuedLocalSize ||
                  Q == WorkItemQuery::GlobalSize ||
                  Q == WorkItemQuery::NumGroups;
    Value *OutOfRange = B.getInt64(IsSize ? 1 : 0);
    if (auto *C = dyn_cast<ConstantInt>(Dim)) {
      uint64_t D = C->getZExtValue();
      return D < 3 ? inDimension(Q, unsigned(D)) : OutOfRange;
    }
    // A run-time dimension: pick among the three, else the default.
    Value *Result = OutOfRange;
    for (unsigned D = 3; D-- > 0;) {
      Value *IsD = B.CreateICmpEQ(Dim, ConstantInt::get(Dim->getType(), D));
      Result = B.CreateSelect(IsD, inDimension(Q, D), Result);
    }
    return Result;
  }

private:
  Value *inDimension(WorkItemQuery Q, unsigned D) {
    switch (Q) {
    case WorkItemQuery::LocalId:
      return LocalIds[D];
    case WorkItemQuery::GroupId:
      return loadContextField(B, Ctx, CtxGroupId, D);
    case WorkItemQuery::LocalSize:
      return loadContextField(B, Ctx, CtxLocalSize, D);
    case WorkItemQuery::EnqueuedLocalSize:
      return loadContextField(B, Ctx, CtxEnqueuedLocalSize, D);
    case WorkItemQuery::GlobalSize:
      return loadContextField(B, Ctx, CtxGlobalSize, D);
    case WorkItemQuery::NumGroups:
      return loadContextField(B, Ctx, CtxNumGroups, D);
    case WorkItemQuery::GlobalOffset:
      return loadContextField(B, Ctx, CtxGlobalOffset, D);
    case WorkItemQuery::GlobalId:
      return globalId(D);
    default:
      llvm_unreachable("not a per-dimension query");
    }
  }

  Value *globalId(unsigned D) {
    Value *Group = loadContextField(B, Ctx, CtxGroupId, D);
    Value *Size = loadContextField(B, Ctx, CtxEnqueuedLocalSize, D);
    Value *Offset = loadContextField(B, Ctx, CtxGlobalOffset, D);
    return B.CreateAdd(B.CreateAdd(B.CreateMul(Group, Size), LocalIds[D]),
                       Offset);
  }

  Value *localLinearId() {
    Value *SizeX = loadContextField(B, Ctx, CtxLocalSize, 0);
    Value *SizeY = loadContextField(B, Ctx, CtxLocalSize, 1);
    Value *ZY = B.CreateAdd(B.CreateMul(LocalIds[2], SizeY), LocalIds[1]);
    return B.CreateAdd(B.CreateMul(ZY, SizeX), LocalIds[0]);
  }

  Value *globalLinearId() {
    Value *Rel[3];
    for (unsigned D = 0; D < 3; ++D)
      Rel[D] = B.CreateSub(globalId(D),
                           loadContextField(B, Ctx, CtxGlobalOffset, D));
    Value *SizeX = loadContextField(B, Ctx, CtxGlobalSize, 0);
    Value *SizeY = loadContextField(B, Ctx, CtxGlobalSize, 1);
    Value *ZY = B.CreateAdd(B.CreateMul(Rel[2], SizeY), Rel[1]);
    return B.CreateAdd(B.CreateMul(ZY, SizeX), Rel[0]);
  }

  IRBuilder<> &B;
  Value *Ctx;
  Value *LocalIds[3];
};

/// Clones kernel K into K.workitem with the context and local-id
/// parameters appended.
Function *createWorkItemFunction(Function &K) {
  LLVMContext &C = K.getContext();
  SmallVector<Type *, 8> Params(K.getFunctionType()->params());
  Params.push_back(PointerType::get(C, 0));
  Params.append(3, Type::getInt64Ty(C));
  auto *FTy = FunctionType::get(K.getReturnType(), Params, false);
  Function *WI = Function::Create(FTy, GlobalValue::InternalLinkage,
                                  K.getName() + ".workitem", K.getParent());
  ValueToValueMapTy VMap;
  auto NewArg = WI->arg_begin();
  for (Argument &A : K.args()) {
    NewArg->setName(A.getName());
    VMap[&A] = &*NewArg++;
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(WI, &K, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  WI->setCallingConv(CallingConv::C);
  WI->setLinkage(GlobalValue::InternalLinkage);
  // The clone is a helper, not a kernel: clang's kernel metadata stays on K.
  SmallVector<std::pair<unsigned, MDNode *>, 8> MDs;
  WI->getAllMetadata(MDs);
  for (auto &[Kind, Node] : MDs)
    if (Kind != LLVMContext::MD_dbg)
      WI->setMetadata(Kind, nullptr);
  WI->addFnAttr(WorkItemAttr, K.getName());

  unsigned N = K.arg_size();
  WI->getArg(N)->setName("ctx");
  WI->addParamAttr(N, Attribute::NoAlias);
  WI->addParamAttr(N, Attribute::NoCapture);
  WI->addParamAttr(N, Attribute::ReadOnly);
  WI->getArg(N + 1)->setName("lid.x");
  WI->getArg(N + 2)->setName("lid.y");
  WI->getArg(N + 3)->setName("lid.z");
  return WI;
}

} // namespace

PreservedAnalyses ResolveWorkItemFunctionsPass::run(Module &M,
                                                    ModuleAnalysisManager &) {
  SmallVector<Function *, 4> Kernels;
  for (Function &F : M)
    if (isSelectedKernel(F, Kernel))
      Kernels.push_back(&F);
  if (Kernels.empty())
    return PreservedAnalyses::all();

  for (Function *K : Kernels) {
    Function *WI = createWorkItemFunction(*K);
    unsigned N = K->arg_size();
    Value *LocalIds[3] = {WI->getArg(N + 1), WI->getArg(N + 2),
                          WI->getArg(N + 3)};
    SmallVector<std::pair<CallBase *, WorkItemQuery>, 16> Queries;
    SmallVector<std::pair<CallBase *, SpaceQuery>, 4> SpaceQueries;
    for (Instruction &I : instructions(*WI))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction()) {
          if (WorkItemQuery Q = classifyCallee(Callee->getName());
              Q != WorkItemQuery::None)
            Queries.push_back({CB, Q});
          else if (SpaceQuery S = classifySpaceQuery(Callee->getName());
                   S != SpaceQuery::None)
            SpaceQueries.push_back({CB, S});
        }

    IRBuilder<> B(M.getContext());
    for (auto [CB, S] : SpaceQueries) {
      B.SetInsertPoint(CB);
      CB->replaceAllUsesWith(resolveSpaceQuery(B, WI->getArg(N), S, *CB));
      CB->eraseFromParent();
    }
    for (auto [CB, Q] : Queries) {
      B.SetInsertPoint(CB);
      Resolver R(B, WI->getArg(N), LocalIds);
      Value *V = R.resolve(Q, *CB);
      if (V->getType() != CB->getType())
        V = B.CreateZExtOrTrunc(V, CB->getType());
      LLVM_DEBUG(dbgs() << "resolved " << *CB << "\n");
      CB->replaceAllUsesWith(V);
      CB->eraseFromParent();
    }
  }

  // The declarations are dead once no kernel calls them any more.
  SmallVector<Function *, 8> Dead;
  for (Function &F : M)
    if (F.isDeclaration() && F.use_empty() &&
        (classifyCallee(F.getName()) != WorkItemQuery::None ||
         classifySpaceQuery(F.getName()) != SpaceQuery::None))
      Dead.push_back(&F);
  for (Function *F : Dead)
    F->eraseFromParent();
  return PreservedAnalyses::none();
}

} // namespace weft
