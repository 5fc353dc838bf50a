//===- weftcc.cpp - Offline compiler for Weft program binaries ------------===//
//
// Builds an OpenCL C file for one Weft device and writes the binary that
// clCreateProgramWithBinary accepts on that device, so that applications
// can ship kernels compiled ahead of time and kernel authors can check
// their kernels in CI (the build log and a non-zero exit on an error).
//
// Only the public OpenCL API is used, through the ICD loader: weftcc
// compiles exactly as an application's clBuildProgram would, and a binary
// it writes is the one CL_PROGRAM_BINARIES would have returned.
//
//===----------------------------------------------------------------------===//

#include <CL/cl.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

const char *const PlatformName = "Weft";

/// Exit statuses: a build that fails is 1 like any other failure, so that a
/// CI job needs no more than the status; a command line weftcc does not
/// understand is 2, as with most compilers' drivers.
constexpr int ExitFailure = 1;
constexpr int ExitUsage = 2;

struct CommandLine {
  std::string Device = "0";
  std::string BuildOptions;
  std::vector<std::string> ExtraOptions; ///< -I and -D, in order
  std::string Output;
  std::string Input;
  bool ListDevices = false;
  bool ListKernels = false;
};

void printUsage(std::FILE *To) {
  std::fprintf(
      To,
      "usage: weftcc [options] kernel.cl\n"
      "       weftcc --kernels [options] kernel.cl|program.bin\n"
      "       weftcc --list-devices\n"
      "\n"
      "Builds an OpenCL C file for a device of the Weft platform and writes\n"
      "the program binary that clCreateProgramWithBinary loads on it.\n"
      "\n"
      "  -d, --device DEV     device index or a unique part of its name\n"
      "                       (default 0; see --list-devices)\n"
      "  -b, --build-options OPTS\n"
      "                       clBuildProgram options, e.g. \"-cl-std=CL3.0\"\n"
      "  -I DIR               add DIR to the include path\n"
      "  -D NAME[=VALUE]      define a macro\n"
      "  -o FILE              output file (default: the input's name with\n"
      "                       .bin, in the current directory; - for stdout)\n"
      "  --kernels            list the kernels and their arguments; writes a\n"
      "                       binary only with -o. The input may also be a\n"
      "                       program binary.\n"
      "  --list-devices       list the Weft devices and exit\n"
      "  -h, --help           this text\n"
      "  --version            weftcc's version\n"
      "\n"
      "The build log goes to stderr; the exit status is 1 when the build\n"
      "fails, 2 for a bad command line.\n");
}

[[noreturn]] void usageError(const std::string &Message) {
  std::fprintf(stderr, "weftcc: %s\n", Message.c_str());
  std::fprintf(stderr, "weftcc: try 'weftcc --help'\n");
  std::exit(ExitUsage);
}

[[noreturn]] void fatal(const std::string &Message) {
  std::fprintf(stderr, "weftcc: %s\n", Message.c_str());
  std::exit(ExitFailure);
}

const char *errorName(cl_int Err) {
  switch (Err) {
  case CL_DEVICE_NOT_FOUND:
    return "CL_DEVICE_NOT_FOUND";
  case CL_COMPILER_NOT_AVAILABLE:
    return "CL_COMPILER_NOT_AVAILABLE";
  case CL_OUT_OF_RESOURCES:
    return "CL_OUT_OF_RESOURCES";
  case CL_OUT_OF_HOST_MEMORY:
    return "CL_OUT_OF_HOST_MEMORY";
  case CL_BUILD_PROGRAM_FAILURE:
    return "CL_BUILD_PROGRAM_FAILURE";
  case CL_INVALID_VALUE:
    return "CL_INVALID_VALUE";
  case CL_INVALID_DEVICE:
    return "CL_INVALID_DEVICE";
  case CL_INVALID_BINARY:
    return "CL_INVALID_BINARY";
  case CL_INVALID_BUILD_OPTIONS:
    return "CL_INVALID_BUILD_OPTIONS";
  case CL_INVALID_PROGRAM:
    return "CL_INVALID_PROGRAM";
  case CL_INVALID_PROGRAM_EXECUTABLE:
    return "CL_INVALID_PROGRAM_EXECUTABLE";
  case CL_INVALID_KERNEL_DEFINITION:
    return "CL_INVALID_KERNEL_DEFINITION";
  case CL_KERNEL_ARG_INFO_NOT_AVAILABLE:
    return "CL_KERNEL_ARG_INFO_NOT_AVAILABLE";
  case -1001: // CL_PLATFORM_NOT_FOUND_KHR, from the ICD loader
    return "CL_PLATFORM_NOT_FOUND_KHR";
  default:
    return "OpenCL error";
  }
}

void check(cl_int Err, const std::string &What) {
  if (Err != CL_SUCCESS)
    fatal(What + " failed: " + errorName(Err) + " (" + std::to_string(Err) +
          ")");
}

/// Build options are split at white space by the implementation; quoting
/// keeps a directory with spaces (or quotes) one word.
std::string quoteOption(const std::string &Word) {
  std::string Quoted = "\"";
  for (char Ch : Word) {
    if (Ch == '"' || Ch == '\\')
      Quoted += '\\';
    Quoted += Ch;
  }
  return Quoted + "\"";
}

/// Accepts "-X VALUE" and "-XVALUE" (and "--long VALUE", "--long=VALUE" for
/// the long spelling). Returns false when Arg is not this option.
bool takeValue(const std::vector<std::string> &Args, size_t &I,
               const char *Short, const char *Long, std::string &Value) {
  const std::string &Arg = Args[I];
  std::string Name;
  if (Arg == Short || (Long && Arg == Long)) {
    if (I + 1 >= Args.size())
      usageError("option '" + Arg + "' needs an argument");
    Value = Args[++I];
    return true;
  }
  size_t ShortLen = std::strlen(Short);
  if (ShortLen == 2 && Arg.size() > 2 && Arg.compare(0, 2, Short) == 0) {
    Value = Arg.substr(2);
    return true;
  }
  if (Long) {
    std::string Prefix = std::string(Long) + "=";
    if (Arg.compare(0, Prefix.size(), Prefix) == 0) {
      Value = Arg.substr(Prefix.size());
      return true;
    }
  }
  return false;
}

CommandLine parseCommandLine(int Argc, char **Argv) {
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  CommandLine CL;
  bool OnlyInputs = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &Arg = Args[I];
    std::string Value;
    if (OnlyInputs || Arg.empty() || Arg[0] != '-' || Arg == "-") {
      if (!CL.Input.empty())
        usageError("more than one input file ('" + CL.Input + "', '" + Arg +
                   "')");
      CL.Input = Arg;
    } else if (Arg == "--") {
      OnlyInputs = true;
    } else if (Arg == "-h" || Arg == "--help") {
      printUsage(stdout);
      std::exit(0);
    } else if (Arg == "--version") {
      std::printf("weftcc (Weft %s)\n", WEFT_VERSION_STRING);
      std::exit(0);
    } else if (Arg == "--list-devices") {
      CL.ListDevices = true;
    } else if (Arg == "--kernels") {
      CL.ListKernels = true;
    } else if (takeValue(Args, I, "-d", "--device", Value)) {
      CL.Device = Value;
    } else if (takeValue(Args, I, "-b", "--build-options", Value)) {
      if (!CL.BuildOptions.empty())
        CL.BuildOptions += ' ';
      CL.BuildOptions += Value;
    } else if (takeValue(Args, I, "-o", nullptr, Value)) {
      CL.Output = Value;
    } else if (takeValue(Args, I, "-I", nullptr, Value)) {
      CL.ExtraOptions.push_back("-I " + quoteOption(Value));
    } else if (takeValue(Args, I, "-D", nullptr, Value)) {
      CL.ExtraOptions.push_back("-D " + quoteOption(Value));
    } else {
      usageError("unknown option '" + Arg + "'");
    }
  }
  if (!CL.ListDevices && CL.Input.empty())
    usageError("no input file");
  if (CL.Input == "-")
    usageError("the input must be a file (reading stdin is not supported)");
  return CL;
}

/// From its build tree, weftcc uses the libweft of the same build (the ICD
/// file the build writes, build/vendors/weft.icd) unless OCL_ICD_VENDORS
/// names another: an installed Weft of another version would write
/// binaries this build's library refuses, and without an installed Weft
/// the loader would find no platform at all. The loader reads the variable
/// on the first OpenCL call, so this runs before any.
void selectBuildTreeLibrary() {
#if defined(WEFTCC_BUILD_DIR) && defined(WEFTCC_BUILD_TREE_ICD)
  if (std::getenv("OCL_ICD_VENDORS"))
    return;
  char Exe[PATH_MAX];
  ssize_t Len = readlink("/proc/self/exe", Exe, sizeof(Exe) - 1);
  if (Len <= 0)
    return;
  std::string ExeDir(Exe, static_cast<size_t>(Len));
  size_t Slash = ExeDir.rfind('/');
  if (Slash == std::string::npos)
    return;
  ExeDir.resize(Slash);
  char *BuildDir = realpath(WEFTCC_BUILD_DIR, nullptr);
  bool InBuildTree = BuildDir && ExeDir == BuildDir;
  std::free(BuildDir);
  if (InBuildTree && access(WEFTCC_BUILD_TREE_ICD, R_OK) == 0)
    setenv("OCL_ICD_VENDORS", WEFTCC_BUILD_TREE_ICD, 1);
#endif
}

std::string platformString(cl_platform_id Platform, cl_platform_info Param) {
  size_t Size = 0;
  if (clGetPlatformInfo(Platform, Param, 0, nullptr, &Size) != CL_SUCCESS ||
      Size == 0)
    return "";
  std::string Value(Size, '\0');
  if (clGetPlatformInfo(Platform, Param, Size, &Value[0], nullptr) !=
      CL_SUCCESS)
    return "";
  Value.resize(std::strlen(Value.c_str()));
  return Value;
}

std::string deviceString(cl_device_id Device, cl_device_info Param) {
  size_t Size = 0;
  check(clGetDeviceInfo(Device, Param, 0, nullptr, &Size), "clGetDeviceInfo");
  std::string Value(Size, '\0');
  check(clGetDeviceInfo(Device, Param, Size, &Value[0], nullptr),
        "clGetDeviceInfo");
  Value.resize(std::strlen(Value.c_str()));
  return Value;
}

cl_platform_id findWeftPlatform() {
  cl_uint Count = 0;
  cl_int Err = clGetPlatformIDs(0, nullptr, &Count);
  if (Err != CL_SUCCESS && Err != -1001)
    check(Err, "clGetPlatformIDs");
  std::vector<cl_platform_id> Platforms(Count);
  if (Count)
    check(clGetPlatformIDs(Count, Platforms.data(), nullptr),
          "clGetPlatformIDs");
  for (cl_platform_id Platform : Platforms)
    if (platformString(Platform, CL_PLATFORM_NAME) == PlatformName)
      return Platform;
  const char *Vendors = std::getenv("OCL_ICD_VENDORS");
  fatal(std::string("no OpenCL platform named '") + PlatformName +
        "' (the ICD loader found " + std::to_string(Count) + " platform" +
        (Count == 1 ? "" : "s") +
        (Vendors ? std::string(" through OCL_ICD_VENDORS=") + Vendors
                 : std::string(" in /etc/OpenCL/vendors")) +
        "); install Weft, or point OCL_ICD_VENDORS at build/vendors/weft.icd");
}

std::vector<cl_device_id> weftDevices(cl_platform_id Platform) {
  cl_uint Count = 0;
  cl_int Err = clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &Count);
  if (Err == CL_DEVICE_NOT_FOUND || Count == 0)
    fatal("the Weft platform has no devices (is WEFT_DEVICES set?)");
  check(Err, "clGetDeviceIDs");
  std::vector<cl_device_id> Devices(Count);
  check(clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, Count, Devices.data(),
                       nullptr),
        "clGetDeviceIDs");
  return Devices;
}

void listDevices(const std::vector<cl_device_id> &Devices) {
  for (size_t I = 0; I < Devices.size(); ++I)
    std::printf("%zu: %s\n", I,
                deviceString(Devices[I], CL_DEVICE_NAME).c_str());
}

/// An index, or a part of the name that only one device has ("basic",
/// "pthread"): names carry the CPU's model, which scripts cannot know.
cl_device_id pickDevice(const std::vector<cl_device_id> &Devices,
                        const std::string &Wanted) {
  if (!Wanted.empty() &&
      Wanted.find_first_not_of("0123456789") == std::string::npos) {
    unsigned long Index = std::strtoul(Wanted.c_str(), nullptr, 10);
    if (Index >= Devices.size())
      usageError("no device " + Wanted + ": Weft has " +
                 std::to_string(Devices.size()) +
                 " (see weftcc --list-devices)");
    return Devices[Index];
  }
  std::vector<size_t> Matches;
  for (size_t I = 0; I < Devices.size(); ++I)
    if (deviceString(Devices[I], CL_DEVICE_NAME).find(Wanted) !=
        std::string::npos)
      Matches.push_back(I);
  if (Matches.size() != 1)
    usageError(std::string(Matches.empty() ? "no" : "more than one") +
               " device name contains '" + Wanted +
               "' (see weftcc --list-devices)");
  return Devices[Matches[0]];
}

bool readFile(const std::string &Path, std::string &Contents) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return false;
  Contents.assign(std::istreambuf_iterator<char>(In),
                  std::istreambuf_iterator<char>());
  return !In.bad();
}

/// OpenCL C source is text and never holds a NUL byte; Weft's binaries
/// (like most implementations') do. Telling them apart this way keeps
/// weftcc ignorant of the binary format.
bool looksLikeBinary(const std::string &Contents) {
  return Contents.find('\0') != std::string::npos;
}

std::string buildLog(cl_program Program, cl_device_id Device) {
  size_t Size = 0;
  if (clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG, 0, nullptr,
                            &Size) != CL_SUCCESS ||
      Size == 0)
    return "";
  std::string Log(Size, '\0');
  if (clGetProgramBuildInfo(Program, Device, CL_PROGRAM_BUILD_LOG, Size,
                            &Log[0], nullptr) != CL_SUCCESS)
    return "";
  Log.resize(std::strlen(Log.c_str()));
  return Log;
}

void printLog(const std::string &Log) {
  if (Log.find_first_not_of(" \t\n") == std::string::npos)
    return;
  std::fputs(Log.c_str(), stderr);
  if (Log.back() != '\n')
    std::fputc('\n', stderr);
}

/// A C-like declaration from clGetKernelArgInfo, e.g.
/// "__global const float* restrict x".
std::string argumentDeclaration(cl_kernel Kernel, cl_uint Index) {
  cl_kernel_arg_address_qualifier Address;
  cl_kernel_arg_access_qualifier Access;
  cl_kernel_arg_type_qualifier Qualifiers;
  check(clGetKernelArgInfo(Kernel, Index, CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                           sizeof(Address), &Address, nullptr),
        "clGetKernelArgInfo");
  check(clGetKernelArgInfo(Kernel, Index, CL_KERNEL_ARG_ACCESS_QUALIFIER,
                           sizeof(Access), &Access, nullptr),
        "clGetKernelArgInfo");
  check(clGetKernelArgInfo(Kernel, Index, CL_KERNEL_ARG_TYPE_QUALIFIER,
                           sizeof(Qualifiers), &Qualifiers, nullptr),
        "clGetKernelArgInfo");
  auto Text = [&](cl_kernel_arg_info Param) {
    size_t Size = 0;
    check(clGetKernelArgInfo(Kernel, Index, Param, 0, nullptr, &Size),
          "clGetKernelArgInfo");
    std::string Value(Size, '\0');
    check(clGetKernelArgInfo(Kernel, Index, Param, Size, &Value[0], nullptr),
          "clGetKernelArgInfo");
    Value.resize(std::strlen(Value.c_str()));
    return Value;
  };

  std::string Decl;
  // Images (the arguments with an access qualifier) are __global by the
  // specification's rule, not by anything the source says.
  if (Access != CL_KERNEL_ARG_ACCESS_NONE)
    Address = CL_KERNEL_ARG_ADDRESS_PRIVATE;
  switch (Address) {
  case CL_KERNEL_ARG_ADDRESS_GLOBAL:
    Decl = "__global ";
    break;
  case CL_KERNEL_ARG_ADDRESS_LOCAL:
    Decl = "__local ";
    break;
  case CL_KERNEL_ARG_ADDRESS_CONSTANT:
    Decl = "__constant ";
    break;
  default:
    break;
  }
  switch (Access) {
  case CL_KERNEL_ARG_ACCESS_READ_ONLY:
    Decl += "__read_only ";
    break;
  case CL_KERNEL_ARG_ACCESS_WRITE_ONLY:
    Decl += "__write_only ";
    break;
  case CL_KERNEL_ARG_ACCESS_READ_WRITE:
    Decl += "__read_write ";
    break;
  default:
    break;
  }
  // The specification sets CONST for every __constant argument; the
  // address space already says so.
  if ((Qualifiers & CL_KERNEL_ARG_TYPE_CONST) &&
      Address != CL_KERNEL_ARG_ADDRESS_CONSTANT)
    Decl += "const ";
  if (Qualifiers & CL_KERNEL_ARG_TYPE_VOLATILE)
    Decl += "volatile ";
  Decl += Text(CL_KERNEL_ARG_TYPE_NAME);
  if (Qualifiers & CL_KERNEL_ARG_TYPE_RESTRICT)
    Decl += " restrict";
  std::string Name = Text(CL_KERNEL_ARG_NAME);
  if (!Name.empty())
    Decl += " " + Name;
  return Decl;
}

/// One line per kernel: "name(declarations)", then its attributes in
/// brackets when the source gave any.
void listKernels(cl_program Program) {
  size_t Size = 0;
  check(clGetProgramInfo(Program, CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &Size),
        "clGetProgramInfo(CL_PROGRAM_KERNEL_NAMES)");
  std::string Names(Size, '\0');
  check(clGetProgramInfo(Program, CL_PROGRAM_KERNEL_NAMES, Size, &Names[0],
                         nullptr),
        "clGetProgramInfo(CL_PROGRAM_KERNEL_NAMES)");
  Names.resize(std::strlen(Names.c_str()));

  size_t Pos = 0;
  while (Pos < Names.size()) {
    size_t End = Names.find(';', Pos);
    if (End == std::string::npos)
      End = Names.size();
    std::string Name = Names.substr(Pos, End - Pos);
    Pos = End + 1;
    if (Name.empty())
      continue;
    cl_int Err;
    cl_kernel Kernel = clCreateKernel(Program, Name.c_str(), &Err);
    check(Err, "clCreateKernel(" + Name + ")");
    cl_uint NumArgs = 0;
    check(clGetKernelInfo(Kernel, CL_KERNEL_NUM_ARGS, sizeof(NumArgs), &NumArgs,
                          nullptr),
          "clGetKernelInfo(CL_KERNEL_NUM_ARGS)");
    std::string Line = Name + "(";
    for (cl_uint I = 0; I < NumArgs; ++I)
      Line += (I ? ", " : "") + argumentDeclaration(Kernel, I);
    Line += ")";
    size_t AttrSize = 0;
    if (clGetKernelInfo(Kernel, CL_KERNEL_ATTRIBUTES, 0, nullptr, &AttrSize) ==
            CL_SUCCESS &&
        AttrSize > 1) {
      std::string Attributes(AttrSize, '\0');
      check(clGetKernelInfo(Kernel, CL_KERNEL_ATTRIBUTES, AttrSize,
                            &Attributes[0], nullptr),
            "clGetKernelInfo(CL_KERNEL_ATTRIBUTES)");
      Attributes.resize(std::strlen(Attributes.c_str()));
      if (!Attributes.empty())
        Line += " [" + Attributes + "]";
    }
    std::printf("%s\n", Line.c_str());
    clReleaseKernel(Kernel);
  }
}

std::string defaultOutput(const std::string &Input) {
  std::string Name = Input.substr(Input.rfind('/') + 1);
  size_t Dot = Name.rfind('.');
  if (Dot != std::string::npos && Dot != 0)
    Name.erase(Dot);
  return Name + ".bin";
}

void writeOutput(const std::string &Path,
                 const std::vector<unsigned char> &Binary) {
  if (Path == "-") {
    if (std::fwrite(Binary.data(), 1, Binary.size(), stdout) != Binary.size() ||
        std::fflush(stdout) != 0)
      fatal("cannot write the binary to stdout");
    return;
  }
  std::ofstream Out(Path, std::ios::binary | std::ios::trunc);
  Out.write(reinterpret_cast<const char *>(Binary.data()),
            static_cast<std::streamsize>(Binary.size()));
  Out.close();
  if (!Out)
    fatal("cannot write '" + Path + "': " + std::strerror(errno));
}

std::vector<unsigned char> programBinary(cl_program Program) {
  size_t Size = 0;
  check(clGetProgramInfo(Program, CL_PROGRAM_BINARY_SIZES, sizeof(Size), &Size,
                         nullptr),
        "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)");
  if (Size == 0)
    fatal("the implementation returned an empty program binary");
  std::vector<unsigned char> Binary(Size);
  unsigned char *Data = Binary.data();
  check(clGetProgramInfo(Program, CL_PROGRAM_BINARIES, sizeof(Data), &Data,
                         nullptr),
        "clGetProgramInfo(CL_PROGRAM_BINARIES)");
  return Binary;
}

} // namespace

int main(int Argc, char **Argv) {
  CommandLine CL = parseCommandLine(Argc, Argv);
  selectBuildTreeLibrary();

  cl_platform_id Platform = findWeftPlatform();
  std::vector<cl_device_id> Devices = weftDevices(Platform);
  if (CL.ListDevices) {
    listDevices(Devices);
    if (CL.Input.empty())
      return 0;
  }
  cl_device_id Device = pickDevice(Devices, CL.Device);

  std::string Contents;
  if (!readFile(CL.Input, Contents))
    fatal("cannot read '" + CL.Input + "': " + std::strerror(errno));
  bool IsBinary = looksLikeBinary(Contents);
  if (IsBinary && !CL.ListKernels)
    fatal("'" + CL.Input +
          "' is a program binary, not OpenCL C source (--kernels lists its "
          "kernels)");

  cl_int Err;
  cl_context Context =
      clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err);
  check(Err, "clCreateContext");

  std::string Options = CL.BuildOptions;
  cl_program Program;
  if (IsBinary) {
    const unsigned char *Data =
        reinterpret_cast<const unsigned char *>(Contents.data());
    size_t Size = Contents.size();
    cl_int BinaryStatus;
    Program = clCreateProgramWithBinary(Context, 1, &Device, &Size, &Data,
                                        &BinaryStatus, &Err);
    if (Err == CL_INVALID_BINARY)
      fatal("'" + CL.Input +
            "' is not a program binary this device loads (made by another "
            "Weft version, for another CPU, or damaged)");
    check(Err, "clCreateProgramWithBinary");
  } else {
    // Diagnostics then name the file as given instead of the
    // implementation's name for the source string.
    std::string Line = "#line 1 " + quoteOption(CL.Input) + "\n";
    std::string Source = Line + Contents;
    const char *Text = Source.c_str();
    size_t Length = Source.size();
    Program = clCreateProgramWithSource(Context, 1, &Text, &Length, &Err);
    check(Err, "clCreateProgramWithSource");
    // The source is handed over as a string, so a quoted #include would
    // not look next to it as a C compiler's does: its directory goes first
    // on the include path.
    size_t Slash = CL.Input.rfind('/');
    if (Slash != std::string::npos) {
      std::string Dir = Slash == 0 ? "/" : CL.Input.substr(0, Slash);
      CL.ExtraOptions.insert(CL.ExtraOptions.begin(), "-I " + quoteOption(Dir));
    }
    for (const std::string &Extra : CL.ExtraOptions)
      Options += (Options.empty() ? "" : " ") + Extra;
    // Kept in the binary, so that --kernels can describe it later.
    Options +=
        (Options.empty() ? "" : " ") + std::string("-cl-kernel-arg-info");
  }

  Err = clBuildProgram(Program, 1, &Device, Options.c_str(), nullptr, nullptr);
  printLog(buildLog(Program, Device));
  if (Err != CL_SUCCESS) {
    std::fprintf(stderr, "weftcc: %s: build failed: %s (%d)\n",
                 CL.Input.c_str(), errorName(Err), Err);
    return ExitFailure;
  }

  if (CL.ListKernels)
    listKernels(Program);
  if (!IsBinary && (!CL.ListKernels || !CL.Output.empty()))
    writeOutput(CL.Output.empty() ? defaultOutput(CL.Input) : CL.Output,
                programBinary(Program));

  clReleaseProgram(Program);
  clReleaseContext(Context);
  return 0;
}
