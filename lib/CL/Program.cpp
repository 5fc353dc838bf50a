//===- Program.cpp - Programs from source, builds, program queries --------===//

#include "Program.h"

#include "ProgramBinary.h"
#include "ProgramCache.h"

#include <algorithm>
#include <cstring>

namespace weft {

Program::Program(Context &C, std::string S)
    : _cl_program(ObjectKind::Program), Ctx(C), Source(std::move(S)),
      Devices(C.devices()) {
  Ctx.retainInternal();
}

Program::Program(Context &C, FromILTag, std::string Module)
    : _cl_program(ObjectKind::Program), Ctx(C), FromIL(true),
      IL(std::move(Module)), Devices(C.devices()) {
  Ctx.retainInternal();
}

cl_int Program::setSpecializationConstant(cl_uint Id, size_t Size,
                                          const void *Value) {
  if (!FromIL)
    return WEFT_ERROR(CL_INVALID_PROGRAM, "the program was not made from IL");
  if (!Value)
    return WEFT_ERROR(CL_INVALID_VALUE, "NULL spec_value");
  std::lock_guard<std::mutex> Guard(Lock);
  if (!SpecSizesKnown) {
    std::string Error;
    if (!specializationConstantsOf(IL, SpecSizes, Error)) {
      WEFT_LOG(DebugAPI, "clSetProgramSpecializationConstant: %s",
               Error.c_str());
      return WEFT_ERROR(CL_OUT_OF_RESOURCES,
                        "cannot read the module's specialization constants");
    }
    SpecSizesKnown = true;
  }
  auto It = SpecSizes.find(Id);
  if (It == SpecSizes.end())
    return WEFT_ERROR(CL_INVALID_SPEC_ID,
                      "no specialization constant with that id");
  if (It->second != Size)
    return WEFT_ERROR(CL_INVALID_VALUE,
                      "spec_size differs from the constant's size");
  SpecValues[Id].assign(static_cast<const char *>(Value), Size);
  return CL_SUCCESS;
}

Program::Program(Context &C, std::map<const Device *, LoadedBinary> B)
    : _cl_program(ObjectKind::Program), Ctx(C), FromBinary(true),
      Binaries(std::move(B)) {
  Ctx.retainInternal();
  // In the order of the context, which is the order the application gave.
  for (Device *D : C.devices())
    if (Binaries.count(D))
      Devices.push_back(D);
}

Program::Program(Context &C, std::vector<Device *> Ds,
                 const std::map<const Device *, LinkResult> &Links,
                 const std::string &Options)
    : _cl_program(ObjectKind::Program), Ctx(C), FromBinary(true),
      Devices(std::move(Ds)) {
  Ctx.retainInternal();
  for (const auto &[D, Link] : Links) {
    DeviceBuild &B = Builds[D];
    B.Options = Options;
    B.Log = Link.Log;
    B.Status = Link.Build ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    B.Result = Link.Build;
    if (Link.Build)
      Binaries[D] = LoadedBinary{Link.Build, Options};
  }
}

std::string Program::binaryFor(const Device &D) const {
  std::shared_ptr<const ProgramBuild> Built = resultFor(D);
  if (!Built)
    return {};
  std::string Options;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    auto It = Builds.find(&D);
    if (It != Builds.end() && It->second.Result)
      Options = It->second.Options;
    else if (auto Bin = Binaries.find(&D); Bin != Binaries.end())
      Options = Bin->second.Options;
  }
  // The kernels compiled for D so far travel with the binary: a program
  // reloaded from it runs them without compiling.
  std::vector<KernelCode> Code;
  {
    std::lock_guard<std::mutex> Guard(FunctionLock);
    for (const auto &[Key, Fn] : Functions)
      if (std::get<0>(Key) == &D && Fn.Native) {
        const std::array<size_t, 3> &Local = std::get<2>(Key);
        Code.push_back(
            {std::get<1>(Key), {Local[0], Local[1], Local[2]}, *Fn.Native});
      }
  }
  return serializeProgramBinary(*Built, Options, D.description().Target, Code);
}

Program::~Program() { Ctx.releaseInternal(); }

/// Offsets of the variables laid out one after the other; the end in End.
static std::vector<size_t>
layOutVariables(const std::vector<GlobalVariableDesc> &Variables, size_t &End,
                size_t &Alignment) {
  std::vector<size_t> Offsets;
  End = 0;
  Alignment = 1;
  for (const GlobalVariableDesc &V : Variables) {
    size_t Align = static_cast<size_t>(V.Alignment);
    End = (End + Align - 1) / Align * Align;
    Offsets.push_back(End);
    End += V.Size;
    Alignment = std::max(Alignment, Align);
  }
  return Offsets;
}

size_t
ProgramVariables::totalSize(const std::vector<GlobalVariableDesc> &Variables) {
  size_t End, Alignment;
  layOutVariables(Variables, End, Alignment);
  return End;
}

ProgramVariables::ProgramVariables(
    DeviceDriver &D, const std::vector<GlobalVariableDesc> &Variables)
    : Driver(D) {
  if (Variables.empty())
    return;
  size_t End, Alignment;
  std::vector<size_t> Offsets = layOutVariables(Variables, End, Alignment);
  Block = Driver.allocate(End, std::max<size_t>(Alignment, 64));
  if (!Block) {
    Error = "out of memory for the program's global variables";
    return;
  }
  // The initial contents, pointers to other variables holding their
  // device addresses, are written in place where the device shares host
  // memory; for a device with memory of its own they are laid out on the
  // host and handed to the driver in one piece (copyToDevice).
  auto *Base = static_cast<unsigned char *>(Block);
  std::vector<unsigned char> Staged;
  unsigned char *Contents = Base;
  if (!Driver.sharesHostMemory()) {
    Staged.assign(End, 0);
    Contents = Staged.data();
  }
  for (size_t I = 0; I < Variables.size(); ++I) {
    memcpy(Contents + Offsets[I], Variables[I].Initializer.data(),
           Variables[I].Size);
    Addresses.emplace_back(Variables[I].Name, Base + Offsets[I]);
  }
  for (size_t I = 0; I < Variables.size(); ++I)
    for (const GlobalVariableDesc::Pointer &P : Variables[I].Pointers) {
      uintptr_t Value = reinterpret_cast<uintptr_t>(Base + Offsets[P.Target]) +
                        static_cast<uintptr_t>(P.Addend);
      memcpy(Contents + Offsets[I] + P.Offset, &Value, sizeof(Value));
    }
  if (!Staged.empty())
    Driver.copyToDevice(Block, Staged.data(), End);
}

ProgramVariables::~ProgramVariables() {
  if (Block)
    Driver.deallocate(Block);
}

static std::string targetKey(const TargetDesc &T) {
  return T.Triple + "|" + T.CPU + "|" + T.Features;
}

template <typename Fn>
cl_int Program::runBuild(const std::vector<Device *> &Devices,
                         const std::string &Options, const BuildErrors &Errors,
                         Fn Compile) {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    if (Building)
      return WEFT_ERROR(CL_INVALID_OPERATION, "a build is in progress");
    if (AttachedKernels.load())
      return WEFT_ERROR(CL_INVALID_OPERATION, "kernels are attached");
    Building = true;
    for (Device *D : Devices) {
      DeviceBuild &B = Builds[D];
      B = DeviceBuild();
      B.Status = CL_BUILD_IN_PROGRESS;
      B.Options = FromBinary ? Binaries.at(D).Options : Options;
    }
  }
  // One compilation per distinct target.
  std::map<std::string, std::shared_ptr<const ProgramBuild>> ByTarget;
  for (Device *D : Devices) {
    auto &Slot = ByTarget[targetKey(D->description().Target)];
    if (!Slot)
      Slot = Compile(*D);
  }
  cl_int Result = CL_SUCCESS;
  std::lock_guard<std::mutex> Guard(Lock);
  {
    std::lock_guard<std::mutex> FunctionGuard(FunctionLock);
    Functions.clear();
    Variables.clear();
  }
  for (Device *D : Devices) {
    const auto &Built = ByTarget[targetKey(D->description().Target)];
    DeviceBuild &B = Builds[D];
    B.Log = Built->Log;
    switch (Built->Result) {
    case ProgramBuild::Status::Success:
      B.Status = CL_BUILD_SUCCESS;
      B.Result = Built;
      break;
    case ProgramBuild::Status::InvalidOptions:
      B.Status = CL_BUILD_ERROR;
      Result = WEFT_ERROR(Errors.InvalidOptions, "invalid options");
      break;
    case ProgramBuild::Status::BuildFailure:
      B.Status = CL_BUILD_ERROR;
      if (Result == CL_SUCCESS)
        Result = WEFT_ERROR(Errors.Failure, "build failed");
      break;
    }
  }
  Building = false;
  return Result;
}

cl_int Program::build(const std::vector<Device *> &Devices,
                      const std::string &Options) {
  if (FromBinary)
    for (Device *D : Devices)
      if (!Binaries.count(D))
        return WEFT_ERROR(CL_INVALID_BINARY,
                          "no binary was loaded for a listed device");
  SpecializationConstants Spec;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Spec = SpecValues;
  }
  return runBuild(
      Devices, Options, {CL_INVALID_BUILD_OPTIONS, CL_BUILD_PROGRAM_FAILURE},
      [&](const Device &D) -> std::shared_ptr<const ProgramBuild> {
        const TargetDesc &Target = D.description().Target;
        if (FromIL) {
          WEFT_LOG(DebugCompile, "building SPIR-V program %p for %s",
                   static_cast<const void *>(this),
                   D.description().Name.c_str());
          ProgramText Text{"", IL, Spec};
          if (auto Kept = findKeptBuild(Text, Options, Target))
            return Kept;
          auto Built = std::make_shared<const ProgramBuild>(
              buildProgramFromIL(IL, Spec, Options, Target));
          keepBuild(Text, Options, Target, *Built);
          return Built;
        }
        if (!FromBinary) {
          WEFT_LOG(DebugCompile, "building program %p for %s",
                   static_cast<const void *>(this), D.description().Name.c_str());
          ProgramText Text{Source, "", {}};
          if (auto Kept = findKeptBuild(Text, Options, Target))
            return Kept;
          auto Built = std::make_shared<const ProgramBuild>(
              buildProgram(Source, Options, Target));
          keepBuild(Text, Options, Target, *Built);
          return Built;
        }
        // An executable binary was checked for the device when loaded; a
        // compiled object or library becomes one by linking it alone.
        const std::shared_ptr<const ProgramBuild> &Loaded =
            Binaries.at(&D).Build;
        if (Loaded->Kind == BinaryKind::Executable)
          return Loaded;
        return std::make_shared<const ProgramBuild>(
            linkProgram({Loaded->Bitcode}, "", Target));
      });
}

cl_int Program::compile(const std::vector<Device *> &Devices,
                        const std::string &Options,
                        const std::vector<HeaderSource> &Headers) {
  SpecializationConstants Spec;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Spec = SpecValues;
  }
  return runBuild(
      Devices, Options,
      {CL_INVALID_COMPILER_OPTIONS, CL_COMPILE_PROGRAM_FAILURE},
      [&](const Device &D) {
        WEFT_LOG(DebugCompile, "compiling program %p for %s",
                 static_cast<const void *>(this), D.description().Name.c_str());
        if (FromIL)
          return std::make_shared<const ProgramBuild>(compileProgramFromIL(
              IL, Spec, Options, D.description().Target));
        return std::make_shared<const ProgramBuild>(compileProgram(
            Source, Options, Headers, D.description().Target));
      });
}

bool Program::isBuilding() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return Building;
}

cl_build_status Program::buildStatus(const Device &D) const {
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Builds.find(&D);
  return It == Builds.end() ? CL_BUILD_NONE : It->second.Status;
}

std::string Program::buildLog(const Device &D) const {
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Builds.find(&D);
  return It == Builds.end() ? std::string() : It->second.Log;
}

std::string Program::buildOptions(const Device &D) const {
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Builds.find(&D);
  return It == Builds.end() ? std::string() : It->second.Options;
}

static bool isExecutable(const std::shared_ptr<const ProgramBuild> &B) {
  return B && B->Kind == BinaryKind::Executable;
}

std::shared_ptr<const ProgramBuild> Program::buildFor(const Device &D) const {
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Builds.find(&D);
  if (It == Builds.end() || !isExecutable(It->second.Result))
    return nullptr;
  return It->second.Result;
}

std::shared_ptr<const ProgramBuild> Program::resultFor(const Device &D) const {
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Builds.find(&D);
  if (It != Builds.end() && It->second.Result)
    return It->second.Result;
  // A failed or running build of a program from binaries still leaves the
  // binary it was loaded from.
  auto Bin = Binaries.find(&D);
  return Bin == Binaries.end() ? nullptr : Bin->second.Build;
}

cl_program_binary_type Program::binaryType(const Device &D) const {
  std::shared_ptr<const ProgramBuild> B = resultFor(D);
  if (!B)
    return CL_PROGRAM_BINARY_TYPE_NONE;
  switch (B->Kind) {
  case BinaryKind::CompiledObject:
    return CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
  case BinaryKind::Library:
    return CL_PROGRAM_BINARY_TYPE_LIBRARY;
  case BinaryKind::Executable:
    break;
  }
  return CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
}

bool Program::isBuiltForAnyDevice() const {
  std::lock_guard<std::mutex> Guard(Lock);
  for (const auto &Entry : Builds)
    if (isExecutable(Entry.second.Result))
      return true;
  return false;
}

const KernelDesc *Program::findKernel(const std::string &Name) const {
  std::lock_guard<std::mutex> Guard(Lock);
  for (const auto &Entry : Builds)
    if (isExecutable(Entry.second.Result))
      for (const KernelDesc &K : Entry.second.Result->Kernels)
        if (K.Name == Name)
          return &K;
  return nullptr;
}

std::vector<std::string> Program::kernelNames() const {
  std::lock_guard<std::mutex> Guard(Lock);
  std::vector<std::string> Names;
  for (const auto &Entry : Builds)
    if (isExecutable(Entry.second.Result)) {
      for (const KernelDesc &K : Entry.second.Result->Kernels)
        Names.push_back(K.Name);
      break;
    }
  return Names;
}

bool Program::workGroupFunction(const Device &D, const KernelDesc &Kernel,
                                const size_t LocalSize[3],
                                WorkGroupFunction &Out, std::string &Error) {
  FunctionKey Key{&D, Kernel.Name, {LocalSize[0], LocalSize[1], LocalSize[2]}};
  {
    std::lock_guard<std::mutex> Guard(FunctionLock);
    auto It = Functions.find(Key);
    if (It != Functions.end()) {
      Out = It->second;
      return true;
    }
  }
  std::shared_ptr<const ProgramBuild> Built = buildFor(D);
  if (!Built) {
    Error = "program is not built for this device";
    return false;
  }
  std::shared_ptr<ProgramVariables> Vars;
  {
    std::lock_guard<std::mutex> Guard(FunctionLock);
    std::shared_ptr<ProgramVariables> &Slot = Variables[&D];
    if (!Slot)
      Slot = std::make_shared<ProgramVariables>(D.driver(),
                                                Built->GlobalVariables);
    Vars = Slot;
  }
  if (!Vars->valid()) {
    Error = Vars->error();
    return false;
  }
  // Compiled outside the lock: other kernels of the program may compile
  // at the same time. A racing duplicate is harmless; the first one wins.
  WorkGroupFunction Fn;
  if (!D.driver().prepareKernel(Built->Bitcode, Kernel, LocalSize,
                                Vars->addresses(), Fn, Error))
    return false;
  std::lock_guard<std::mutex> Guard(FunctionLock);
  Out = Functions.emplace(Key, std::move(Fn)).first->second;
  return true;
}

/// Devices a program call names: the given list, or all of the context's.
static cl_int selectDevices(Program &P, cl_uint NumDevices,
                            const cl_device_id *DeviceList,
                            std::vector<Device *> &Out) {
  if ((NumDevices == 0) != (DeviceList == nullptr))
    return WEFT_ERROR(CL_INVALID_VALUE, "num_devices and device_list disagree");
  if (!DeviceList) {
    Out = P.devices();
    return CL_SUCCESS;
  }
  const std::vector<Device *> &Mine = P.devices();
  for (cl_uint I = 0; I < NumDevices; ++I) {
    Device *D = castDevice(DeviceList[I]);
    if (!D || std::find(Mine.begin(), Mine.end(), D) == Mine.end())
      return WEFT_ERROR(CL_INVALID_DEVICE,
                        "device not associated with the program");
    Out.push_back(D);
  }
  // A sub-device runs its parent's code: a build for a device is a build
  // for the program's sub-devices of it too (the CTS's device_partition
  // builds for the parent, then runs on the sub-devices). A program from
  // binaries builds only what was loaded for each device.
  for (Device *Sub : P.isFromBinary() ? std::vector<Device *>() : Mine) {
    if (std::find(Out.begin(), Out.end(), Sub) != Out.end())
      continue;
    for (Device *Up = Sub->parent(); Up; Up = Up->parent())
      if (std::find(Out.begin(), Out.begin() + NumDevices, Up) !=
          Out.begin() + NumDevices) {
        Out.push_back(Sub);
        break;
      }
  }
  return CL_SUCCESS;
}

} // namespace weft

using namespace weft;

extern "C" {

CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithIL(cl_context C, const void *IL, size_t Length,
                      cl_int *ErrcodeRet) {
  Context *Ctx = castContext(C);
  if (!Ctx) {
    setError(ErrcodeRet, WEFT_ERROR(CL_INVALID_CONTEXT, "bad context"));
    return nullptr;
  }
  if (!IL || !Length) {
    setError(ErrcodeRet, WEFT_ERROR(CL_INVALID_VALUE, "no IL"));
    return nullptr;
  }
  bool AnyDevice = false;
  for (Device *D : Ctx->devices())
    AnyDevice |= !D->description().ILVersion.empty();
  if (!AnyDevice) {
    setError(ErrcodeRet,
             WEFT_ERROR(CL_INVALID_OPERATION,
                        "no device of the context accepts IL programs"));
    return nullptr;
  }
  if (!isSpirv(IL, Length)) {
    setError(ErrcodeRet,
             WEFT_ERROR(CL_INVALID_VALUE, "the IL is not a SPIR-V module"));
    return nullptr;
  }
  setError(ErrcodeRet, CL_SUCCESS);
  return new Program(*Ctx, Program::FromILTag(),
                     std::string(static_cast<const char *>(IL), Length));
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramSpecializationConstant(
    cl_program P, cl_uint SpecId, size_t SpecSize, const void *SpecValue) {
  Program *Prog = castProgram(P);
  if (!Prog)
    return WEFT_ERROR(CL_INVALID_PROGRAM, "bad program");
  return Prog->setSpecializationConstant(SpecId, SpecSize, SpecValue);
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(
    cl_context C, cl_uint Count, const char **Strings, const size_t *Lengths,
    cl_int *ErrcodeRet) {
  Context *Ctx = castContext(C);
  if (!Ctx) {
    setError(ErrcodeRet, WEFT_ERROR(CL_INVALID_CONTEXT, "bad context"));
    return nullptr;
  }
  if (Count == 0 || !Strings) {
    setError(ErrcodeRet, WEFT_ERROR(CL_INVALID_VALUE, "no source strings"));
    return nullptr;
  }
  std::string Source;
  for (cl_uint I = 0; I < Count; ++I) {
    if (!Strings[I]) {
      setError(ErrcodeRet, WEFT_ERROR(CL_INVALID_VALUE, "NULL source string"));
      return nullptr;
    }
    if (Lengths && Lengths[I])
      Source.append(Strings[I], Lengths[I]);
    else
      Source.append(Strings[I]);
  }
  setError(ErrcodeRet, CL_SUCCESS);
  return new Program(*Ctx, std::move(Source));
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(
    cl_context C, cl_uint NumDevices, const cl_device_id *DeviceList,
    const size_t *Lengths, const unsigned char **Binaries,
    cl_int *BinaryStatus, cl_int *ErrcodeRet) {
  auto Fail = [&](cl_int Err) -> cl_program {
    setError(ErrcodeRet, Err);
    return nullptr;
  };
  Context *Ctx = castContext(C);
  if (!Ctx)
    return Fail(WEFT_ERROR(CL_INVALID_CONTEXT, "bad context"));
  if (NumDevices == 0 || !DeviceList)
    return Fail(WEFT_ERROR(CL_INVALID_VALUE, "no devices"));
  std::vector<Device *> Devices;
  for (cl_uint I = 0; I < NumDevices; ++I) {
    Device *D = castDevice(DeviceList[I]);
    if (!D || !Ctx->hasDevice(D))
      return Fail(WEFT_ERROR(CL_INVALID_DEVICE, "device not in the context"));
    if (std::find(Devices.begin(), Devices.end(), D) != Devices.end())
      return Fail(WEFT_ERROR(CL_INVALID_DEVICE, "device listed twice"));
    Devices.push_back(D);
  }
  if (!Lengths || !Binaries)
    return Fail(WEFT_ERROR(CL_INVALID_VALUE, "lengths or binaries is NULL"));
  cl_int Result = CL_SUCCESS;
  std::map<const Device *, Program::LoadedBinary> Loaded;
  for (cl_uint I = 0; I < NumDevices; ++I) {
    cl_int Status = CL_SUCCESS;
    if (!Lengths[I] || !Binaries[I]) {
      Status = WEFT_ERROR(CL_INVALID_VALUE, "empty or NULL binary");
    } else {
      std::string Why;
      Program::LoadedBinary B;
      std::vector<KernelCode> Code;
      const TargetDesc &Target = Devices[I]->description().Target;
      bool Sealed = false;
      B.Build = deserializeProgramBinary(Binaries[I], Lengths[I], Target,
                                         B.Options, Why, &Code, &Sealed);
      // The bitcode and compiled kernels inside are read whole now: damage
      // must be refused here, not met at the first kernel's compile. What
      // this build wrote and sealed is as sound as when it was written.
      if (B.Build && Sealed)
        WEFT_LOG(DebugCompile, "program binary: sealed by this build");
      else if (B.Build && !checkProgramBinary(*B.Build, Code, Target, Why))
        B.Build = nullptr;
      for (const KernelCode &C : B.Build ? Code : std::vector<KernelCode>())
        Devices[I]->driver().adoptKernelCode(B.Build->Bitcode, C.Kernel,
                                             C.LocalSize, C.Code);
      if (B.Build)
        Loaded[Devices[I]] = std::move(B);
      else
        Status = apiError(__func__, CL_INVALID_BINARY, Why.c_str());
    }
    if (BinaryStatus)
      BinaryStatus[I] = Status;
    // CL_INVALID_VALUE outranks CL_INVALID_BINARY in the error list.
    if (Status == CL_INVALID_VALUE || Result == CL_SUCCESS)
      if (Status != CL_SUCCESS && Result != CL_INVALID_VALUE)
        Result = Status;
  }
  if (Result != CL_SUCCESS)
    return Fail(Result);
  setError(ErrcodeRet, CL_SUCCESS);
  return new Program(*Ctx, std::move(Loaded));
}

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program P) {
  Program *Prog = castProgram(P);
  if (!Prog)
    return WEFT_ERROR(CL_INVALID_PROGRAM, "bad program");
  Prog->retain();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program P) {
  Program *Prog = castProgram(P);
  if (!Prog)
    return WEFT_ERROR(CL_INVALID_PROGRAM, "bad program");
  Prog->release();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(
    cl_program P, cl_uint NumDevices, const cl_device_id *DeviceList,
    const char *Options, void(CL_CALLBACK *Notify)(cl_program, void *),
    void *UserData) {
  Program *Prog = castProgram(P);
  if (!Prog)
    return WEFT_ERROR(CL_INVALID_PROGRAM, "bad program");
  std::vector<Device *> Devices;
  if (cl_int Err = selectDevices(*Prog, NumDevices, DeviceList, Devices))
    return Err;
  if (!Notify && UserData)
    return WEFT_ERROR(CL_INVALID_VALUE, "user_data without pfn_notify");
  cl_int Result = Prog->build(Devices, Options ? Options : "");
  // The build is synchronous; the callback still reports its end.
  if (Notify && Result != CL_INVALID_OPERATION)
    Notify(P, UserData);
  return Result;
}

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(
    cl_program P, cl_uint NumDevices, const cl_device_id *DeviceList,
    const char *Options, cl_uint NumInputHeaders,
    const cl_program *InputHeaders, const char **HeaderIncludeNames,
    void(CL_CALLBACK *Notify)(cl_program, void *), void *UserData) {
  Program *Prog = castProgram(P);
  if (!Prog)
    return WEFT_ERROR(CL_INVALID_PROGRAM, "bad program");
  std::vector<Device *> Devices;
  if (cl_int Err = selectDevices(*Prog, NumDevices, DeviceList, Devices))
    return Err;
  if ((NumInputHeaders == 0) != (InputHeaders == nullptr) ||
      (NumInputHeaders == 0) != (HeaderIncludeNames == nullptr))
    return WEFT_ERROR(CL_INVALID_VALUE,
                      "num_input_headers, input_headers and "
                      "header_include_names disagree");
  std::vector<HeaderSource> Headers;
  for (cl_uint I = 0; I < NumInputHeaders; ++I) {
    Program *Header = castProgram(InputHeaders[I]);
    if (!Header)
      return WEFT_ERROR(CL_INVALID_PROGRAM, "an input header is not a program");
    if (!HeaderIncludeNames[I] || !*HeaderIncludeNames[I])
      return WEFT_ERROR(CL_INVALID_VALUE, "a header include name is empty");
    if (!Header->hasSource())
      return WEFT_ERROR(CL_INVALID_VALUE,
                        "an input header was not created from source");
    Headers.push_back({HeaderIncludeNames[I], Header->source()});
  }
  if (!Notify && UserData)
    return WEFT_ERROR(CL_INVALID_VALUE, "user_data without pfn_notify");
  if (!Prog->hasSource() && !Prog->hasIL())
    return WEFT_ERROR(CL_INVALID_OPERATION,
                      "program was not created from source or IL");
  cl_int Result = Prog->compile(Devices, Options ? Options : "", Headers);
  // The compilation is synchronous; the callback still reports its end.
  if (Notify && Result != CL_INVALID_OPERATION)
    Notify(P, UserData);
  return Result;
}

CL_API_ENTRY cl_program CL_API_CALL clLinkProgram(
    cl_context C, cl_uint NumDevices, const cl_device_id *DeviceList,
    const char *OptionsPtr, cl_uint NumInputPrograms,
    const cl_program *InputPrograms,
    void(CL_CALLBACK *Notify)(cl_program, void *), void *UserData,
    cl_int *ErrcodeRet) {
  auto Fail = [&](cl_int Err) -> cl_program {
    setError(ErrcodeRet, Err);
    return nullptr;
  };
  Context *Ctx = castContext(C);
  if (!Ctx)
    return Fail(WEFT_ERROR(CL_INVALID_CONTEXT, "bad context"));
  if ((NumDevices == 0) != (DeviceList == nullptr))
    return Fail(
        WEFT_ERROR(CL_INVALID_VALUE, "num_devices and device_list disagree"));
  if (NumInputPrograms == 0 || !InputPrograms)
    return Fail(WEFT_ERROR(CL_INVALID_VALUE, "no input programs"));
  std::vector<Program *> Inputs;
  for (cl_uint I = 0; I < NumInputPrograms; ++I) {
    Program *In = castProgram(InputPrograms[I]);
    if (!In)
      return Fail(
          WEFT_ERROR(CL_INVALID_PROGRAM, "an input program is not a program"));
    if (&In->context() != Ctx)
      return Fail(WEFT_ERROR(CL_INVALID_PROGRAM,
                             "an input program is from another context"));
    Inputs.push_back(In);
  }
  if (!Notify && UserData)
    return Fail(WEFT_ERROR(CL_INVALID_VALUE, "user_data without pfn_notify"));
  std::vector<Device *> Devices;
  if (DeviceList) {
    for (cl_uint I = 0; I < NumDevices; ++I) {
      Device *D = castDevice(DeviceList[I]);
      if (!D || !Ctx->hasDevice(D))
        return Fail(WEFT_ERROR(CL_INVALID_DEVICE, "device not in the context"));
      if (std::find(Devices.begin(), Devices.end(), D) == Devices.end())
        Devices.push_back(D);
    }
  } else {
    Devices = Ctx->devices();
  }
  for (Program *In : Inputs)
    if (In->isBuilding())
      return Fail(WEFT_ERROR(CL_INVALID_OPERATION,
                             "an input program is still being built"));

  // Per device, every input must hold a compiled object or library (then
  // the device gets a link) or none may (then it gets nothing).
  std::map<const Device *, std::vector<std::string>> ToLink;
  for (Device *D : Devices) {
    std::vector<std::string> Bitcodes;
    for (Program *In : Inputs) {
      std::shared_ptr<const ProgramBuild> B = In->resultFor(*D);
      if (B && B->Kind != BinaryKind::Executable)
        Bitcodes.push_back(B->Bitcode);
    }
    if (Bitcodes.empty())
      continue;
    if (Bitcodes.size() != Inputs.size())
      return Fail(WEFT_ERROR(CL_INVALID_OPERATION,
                             "some input programs hold no compiled object or "
                             "library for a device that others hold one for"));
    ToLink[D] = std::move(Bitcodes);
  }
  if (ToLink.empty())
    return Fail(WEFT_ERROR(CL_INVALID_OPERATION,
                           "no input program holds a compiled object or "
                           "library (clCompileProgram first)"));

  // One link per distinct target and set of inputs, as for builds.
  std::string Options = OptionsPtr ? OptionsPtr : "";
  std::map<std::pair<std::string, std::vector<std::string>>,
           std::shared_ptr<const ProgramBuild>>
      ByTarget;
  std::map<const Device *, Program::LinkResult> Links;
  cl_int Result = CL_SUCCESS;
  for (auto &[D, Bitcodes] : ToLink) {
    const TargetDesc &Target = D->description().Target;
    auto &Slot = ByTarget[{targetKey(Target), Bitcodes}];
    if (!Slot) {
      WEFT_LOG(DebugCompile, "linking %zu program(s) for %s", Bitcodes.size(),
               D->description().Name.c_str());
      Slot = std::make_shared<const ProgramBuild>(
          linkProgram(Bitcodes, Options, Target));
    }
    if (Slot->Result == ProgramBuild::Status::InvalidOptions) {
      std::string Why = Slot->Log;
      while (!Why.empty() && Why.back() == '\n')
        Why.pop_back();
      return Fail(WEFT_ERROR(CL_INVALID_LINKER_OPTIONS, Why.c_str()));
    }
    Program::LinkResult &L = Links[D];
    L.Log = Slot->Log;
    if (Slot->Result == ProgramBuild::Status::Success)
      L.Build = Slot;
    else
      Result = WEFT_ERROR(CL_LINK_PROGRAM_FAILURE, "link failed");
  }
  // A failed link still makes a program: its build log says why.
  auto *Linked = new Program(*Ctx, std::move(Devices), Links, Options);
  setError(ErrcodeRet, Result);
  if (Notify)
    Notify(Linked, UserData);
  return Linked;
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program P,
                                                 cl_program_info ParamName,
                                                 size_t ParamValueSize,
                                                 void *ParamValue,
                                                 size_t *ParamValueSizeRet) {
  Program *Prog = castProgram(P);
  if (!Prog)
    return WEFT_ERROR(CL_INVALID_PROGRAM, "bad program");
  const std::vector<Device *> &Devices = Prog->devices();
  auto Ret = [&](const auto &V) {
    return returnValue(V, ParamValueSize, ParamValue, ParamValueSizeRet);
  };
  switch (ParamName) {
  case CL_PROGRAM_REFERENCE_COUNT:
    return Ret(Prog->referenceCount());
  case CL_PROGRAM_CONTEXT:
    return Ret(static_cast<cl_context>(&Prog->context()));
  case CL_PROGRAM_NUM_DEVICES:
    return Ret(static_cast<cl_uint>(Devices.size()));
  case CL_PROGRAM_DEVICES: {
    std::vector<cl_device_id> Ids(Devices.begin(), Devices.end());
    return returnVector(Ids, ParamValueSize, ParamValue, ParamValueSizeRet);
  }
  case CL_PROGRAM_SOURCE:
    return returnString(Prog->source(), ParamValueSize, ParamValue,
                        ParamValueSizeRet);
  case CL_PROGRAM_IL:
    return returnInfo(Prog->il().data(), Prog->il().size(), ParamValueSize,
                      ParamValue, ParamValueSizeRet);
  case CL_PROGRAM_BINARY_SIZES: {
    std::vector<size_t> Sizes;
    for (Device *D : Devices)
      Sizes.push_back(Prog->binaryFor(*D).size());
    return returnVector(Sizes, ParamValueSize, ParamValue, ParamValueSizeRet);
  }
  case CL_PROGRAM_BINARIES: {
    size_t Needed = Devices.size() * sizeof(unsigned char *);
    if (ParamValue) {
      if (ParamValueSize < Needed)
        return WEFT_ERROR(CL_INVALID_VALUE, "param_value too small");
      // Entries the application left NULL are skipped, as specified.
      auto **Out = static_cast<unsigned char **>(ParamValue);
      for (size_t I = 0; I < Devices.size(); ++I)
        if (Out[I]) {
          std::string Binary = Prog->binaryFor(*Devices[I]);
          memcpy(Out[I], Binary.data(), Binary.size());
        }
    }
    if (ParamValueSizeRet)
      *ParamValueSizeRet = Needed;
    return CL_SUCCESS;
  }
  case CL_PROGRAM_NUM_KERNELS:
    if (!Prog->isBuiltForAnyDevice())
      return WEFT_ERROR(CL_INVALID_PROGRAM_EXECUTABLE, "program not built");
    return Ret(Prog->kernelNames().size());
  case CL_PROGRAM_KERNEL_NAMES: {
    if (!Prog->isBuiltForAnyDevice())
      return WEFT_ERROR(CL_INVALID_PROGRAM_EXECUTABLE, "program not built");
    std::string Names;
    for (const std::string &Name : Prog->kernelNames())
      Names += (Names.empty() ? "" : ";") + Name;
    return returnString(Names, ParamValueSize, ParamValue, ParamValueSizeRet);
  }
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
  case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
    return Ret(cl_bool(CL_FALSE));
  default:
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown cl_program_info");
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(
    cl_program P, cl_device_id DeviceId, cl_program_build_info ParamName,
    size_t ParamValueSize, void *ParamValue, size_t *ParamValueSizeRet) {
  Program *Prog = castProgram(P);
  if (!Prog)
    return WEFT_ERROR(CL_INVALID_PROGRAM, "bad program");
  Device *D = castDevice(DeviceId);
  const std::vector<Device *> &Mine = Prog->devices();
  if (!D || std::find(Mine.begin(), Mine.end(), D) == Mine.end())
    return WEFT_ERROR(CL_INVALID_DEVICE,
                      "device not associated with the program");
  switch (ParamName) {
  case CL_PROGRAM_BUILD_STATUS:
    return returnValue<cl_build_status>(Prog->buildStatus(*D), ParamValueSize,
                                        ParamValue, ParamValueSizeRet);
  case CL_PROGRAM_BUILD_OPTIONS:
    return returnString(Prog->buildOptions(*D), ParamValueSize, ParamValue,
                        ParamValueSizeRet);
  case CL_PROGRAM_BUILD_LOG:
    return returnString(Prog->buildLog(*D), ParamValueSize, ParamValue,
                        ParamValueSizeRet);
  case CL_PROGRAM_BINARY_TYPE:
    return returnValue<cl_program_binary_type>(
        Prog->binaryType(*D), ParamValueSize, ParamValue, ParamValueSizeRet);
  case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: {
    std::shared_ptr<const ProgramBuild> Built = Prog->buildFor(*D);
    size_t Total =
        Built ? ProgramVariables::totalSize(Built->GlobalVariables) : 0;
    return returnValue<size_t>(Total, ParamValueSize, ParamValue,
                               ParamValueSizeRet);
  }
  default:
    return WEFT_ERROR(CL_INVALID_VALUE, "unknown cl_program_build_info");
  }
}

} // extern "C"
