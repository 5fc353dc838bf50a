//===- tests/api/CacheProcessTest.cpp - the kernel cache across processes -===//
//
// The on-disk kernel cache is shared by every process of a user, and the
// cache settings are read once per process: each scenario runs its OpenCL
// work in child processes (fork before any OpenCL call), each with its own
// environment, and checks their results against host references.
//   * Eight processes building the same new program at the same moment
//     into one directory all get correct results, leave no temporary
//     files, and a later process is served from what they stored.
//   * A cache directory that cannot be created degrades to compiling in
//     memory, with one WEFT_DEBUG line saying so, never an error.
//   * WEFT_KERNEL_CACHE=0 writes nothing at all; a full or read-only cache
//     directory degrades to compiling in memory, with one WEFT_DEBUG line.
//   * An included header that changed between two builds of the same
//     source text never brings back the old code, nor does one that the
//     search would now find first; a kept build (the program cache) skips
//     the front end and keeps its log.
//
//===----------------------------------------------------------------------===//

#include <CL/cl.h>

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <sched.h>
#include <sstream>
#include <string>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

/// What a child process does: build Source with Options (or load the
/// program from the binary file BinaryIn) on the first device of the
/// platform under test, run kernel "fill" over 4096 work-items in groups
/// of Local, compare with Expected(I), and write the program's binary to
/// BinaryOut and its build log to LogOut if given. Cwd: the working
/// directory to build in, if not the test's. FileSizeLimit: no file this
/// process writes may grow past it (a full disk, as writes see it).
/// ReadOnlyDir: a directory this process sees read-only.
struct Job {
  std::string Source;
  std::string Options;
  int (*Expected)(size_t) = nullptr;
  size_t Local = 64;
  std::string BinaryIn;
  std::string BinaryOut;
  std::string LogOut;
  std::string Cwd;
  rlim_t FileSizeLimit = 0;
  std::string ReadOnlyDir;
};

/// Makes Dir read-only for this process: its mode for an ordinary user
/// (root ignores modes), a read-only bind mount in a mount namespace of
/// its own for root. False when neither is possible here.
bool makeReadOnly(const std::string &Dir) {
  if (geteuid() != 0)
    return chmod(Dir.c_str(), 0555) == 0;
  return unshare(CLONE_NEWNS) == 0 &&
         mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) == 0 &&
         mount(Dir.c_str(), Dir.c_str(), nullptr, MS_BIND, nullptr) == 0 &&
         mount(nullptr, Dir.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY,
               nullptr) == 0;
}

/// Runs J in this (child) process; the exit status says how it went (0:
/// right results).
int runJob(const Job &J) {
  const size_t N = 4096;
  if (!J.Cwd.empty() && chdir(J.Cwd.c_str()) != 0)
    return 17;
  if (!J.ReadOnlyDir.empty() && !makeReadOnly(J.ReadOnlyDir))
    return 18;
  if (J.FileSizeLimit) {
    // Writes past the limit then fail with EFBIG, as on a full disk with
    // ENOSPC, instead of ending the process.
    signal(SIGXFSZ, SIG_IGN);
    rlimit Limit = {J.FileSizeLimit, J.FileSizeLimit};
    if (setrlimit(RLIMIT_FSIZE, &Limit) != 0)
      return 19;
  }
  cl_uint Count = 0;
  if (clGetPlatformIDs(0, nullptr, &Count) != CL_SUCCESS || !Count)
    return 10;
  std::vector<cl_platform_id> Platforms(Count);
  clGetPlatformIDs(Count, Platforms.data(), nullptr);
  const char *Wanted = getenv("WEFT_TEST_PLATFORM");
  cl_platform_id Platform = nullptr;
  for (cl_platform_id P : Platforms) {
    char Name[256] = {};
    clGetPlatformInfo(P, CL_PLATFORM_NAME, sizeof(Name), Name, nullptr);
    if (!Wanted || strstr(Name, Wanted))
      Platform = P;
  }
  cl_device_id Device;
  if (!Platform || clGetDeviceIDs(Platform, CL_DEVICE_TYPE_ALL, 1, &Device,
                                  nullptr) != CL_SUCCESS)
    return 11;
  cl_int Err;
  cl_context Ctx = clCreateContext(nullptr, 1, &Device, nullptr, nullptr, &Err);
  cl_command_queue Q =
      clCreateCommandQueueWithProperties(Ctx, Device, nullptr, &Err);
  cl_program P;
  if (J.BinaryIn.empty()) {
    const char *Text = J.Source.c_str();
    P = clCreateProgramWithSource(Ctx, 1, &Text, nullptr, &Err);
  } else {
    std::ifstream In(J.BinaryIn, std::ios::binary);
    std::string Bytes((std::istreambuf_iterator<char>(In)), {});
    const unsigned char *Data =
        reinterpret_cast<const unsigned char *>(Bytes.data());
    size_t Size = Bytes.size();
    cl_int Status;
    P = clCreateProgramWithBinary(Ctx, 1, &Device, &Size, &Data, &Status,
                                  &Err);
    if (Err != CL_SUCCESS)
      return 15;
  }
  if (clBuildProgram(P, 1, &Device, J.Options.c_str(), nullptr, nullptr) !=
      CL_SUCCESS) {
    char Log[4096] = {};
    clGetProgramBuildInfo(P, Device, CL_PROGRAM_BUILD_LOG, sizeof(Log) - 1,
                          Log, nullptr);
    fprintf(stderr, "build failed:\n%s\n", Log);
    return 12;
  }
  if (!J.LogOut.empty()) {
    size_t Size = 0;
    clGetProgramBuildInfo(P, Device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &Size);
    std::string Log(Size, '\0');
    clGetProgramBuildInfo(P, Device, CL_PROGRAM_BUILD_LOG, Size, &Log[0],
                          nullptr);
    std::ofstream(J.LogOut) << Log.c_str();
  }
  cl_kernel K = clCreateKernel(P, "fill", &Err);
  cl_mem Buf = clCreateBuffer(Ctx, CL_MEM_WRITE_ONLY, N * sizeof(cl_int),
                              nullptr, &Err);
  clSetKernelArg(K, 0, sizeof(Buf), &Buf);
  size_t Global = N, Local = J.Local;
  std::vector<cl_int> Out(N, -1);
  if (clEnqueueNDRangeKernel(Q, K, 1, nullptr, &Global, &Local, 0, nullptr,
                             nullptr) != CL_SUCCESS ||
      clEnqueueReadBuffer(Q, Buf, CL_TRUE, 0, N * sizeof(cl_int), Out.data(),
                          0, nullptr, nullptr) != CL_SUCCESS)
    return 13;
  for (size_t I = 0; I < N; ++I)
    if (Out[I] != J.Expected(I)) {
      fprintf(stderr, "out[%zu] = %d, expected %d\n", I, Out[I],
              J.Expected(I));
      return 14;
    }
  if (!J.BinaryOut.empty()) {
    size_t Size = 0;
    clGetProgramInfo(P, CL_PROGRAM_BINARY_SIZES, sizeof(Size), &Size, nullptr);
    std::string Bytes(Size, '\0');
    unsigned char *Data = reinterpret_cast<unsigned char *>(&Bytes[0]);
    if (!Size || clGetProgramInfo(P, CL_PROGRAM_BINARIES, sizeof(Data), &Data,
                                  nullptr) != CL_SUCCESS)
      return 16;
    std::ofstream(J.BinaryOut, std::ios::binary) << Bytes;
  }
  clReleaseMemObject(Buf);
  clReleaseKernel(K);
  clReleaseProgram(P);
  clReleaseCommandQueue(Q);
  clReleaseContext(Ctx);
  return 0;
}

struct Child {
  pid_t Pid;
};

/// Starts J in a child with the environment settings Env ("NAME=value";
/// "NAME=" unsets), its stderr to StderrPath if given.
Child start(const std::vector<std::string> &Env, const Job &J,
            const std::string &StderrPath = "") {
  fflush(nullptr);
  pid_t Pid = fork();
  if (Pid == 0) {
    for (const std::string &E : Env) {
      size_t Eq = E.find('=');
      std::string Name = E.substr(0, Eq), Value = E.substr(Eq + 1);
      if (Value.empty())
        unsetenv(Name.c_str());
      else
        setenv(Name.c_str(), Value.c_str(), 1);
    }
    if (!StderrPath.empty()) {
      int Fd = open(StderrPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (Fd >= 0)
        dup2(Fd, 2);
    }
    _exit(runJob(J));
  }
  return {Pid};
}

/// The child's exit status, or -1 if it did not exit normally.
int finish(Child C) {
  int Status = 0;
  if (waitpid(C.Pid, &Status, 0) != C.Pid || !WIFEXITED(Status))
    return -1;
  return WEXITSTATUS(Status);
}

int run(const std::vector<std::string> &Env, const Job &J,
        const std::string &StderrPath = "") {
  return finish(start(Env, J, StderrPath));
}

/// Lines of File that contain Text.
int countLines(const std::string &File, const char *Text) {
  std::ifstream In(File);
  std::string Line;
  int N = 0;
  while (std::getline(In, Line))
    N += Line.find(Text) != std::string::npos;
  return N;
}

/// A directory of its own for one test, removed with what it holds.
struct TempDir {
  std::string Path;
  TempDir() {
    char Template[] = "/tmp/weft-cache-test-XXXXXX";
    if (const char *Made = mkdtemp(Template))
      Path = Made;
  }
  ~TempDir() {
    if (!Path.empty())
      std::system(("rm -rf '" + Path + "'").c_str());
  }
};

/// Names in Dir (not . and ..); empty if Dir does not exist.
std::vector<std::string> listDir(const std::string &Dir) {
  std::vector<std::string> Names;
  if (DIR *D = opendir(Dir.c_str())) {
    while (dirent *E = readdir(D))
      if (strcmp(E->d_name, ".") && strcmp(E->d_name, ".."))
        Names.push_back(E->d_name);
    closedir(D);
  }
  return Names;
}

size_t countSuffix(const std::vector<std::string> &Names, const char *Suffix) {
  size_t N = 0;
  for (const std::string &Name : Names)
    if (Name.size() >= strlen(Suffix) &&
        Name.compare(Name.size() - strlen(Suffix), std::string::npos,
                     Suffix) == 0)
      ++N;
  return N;
}

size_t countPrefix(const std::vector<std::string> &Names, const char *Prefix) {
  size_t N = 0;
  for (const std::string &Name : Names)
    if (Name.rfind(Prefix, 0) == 0)
      ++N;
  return N;
}

/// A kernel source no earlier run has cached: a unique token in it.
std::string freshSource(const char *Body) {
  std::ostringstream S;
  S << "// " << getpid() << " "
    << std::chrono::steady_clock::now().time_since_epoch().count() << "\n"
    << Body;
  return S.str();
}

int squarePlusOne(size_t I) { return int(I * I % 1000) + 1; }
const char *SquarePlusOne = R"CLC(
kernel void fill(global int *Out) {
  size_t I = get_global_id(0);
  Out[I] = (int)(I * I % 1000) + 1;
}
)CLC";

TEST(CacheProcesses, ConcurrentColdBuildsShareOneDirectory) {
  TempDir Temp;
  const std::string &Dir = Temp.Path;
  ASSERT_FALSE(Dir.empty());
  std::vector<std::string> Env = {"WEFT_CACHE_DIR=" + Dir,
                                  "WEFT_KERNEL_CACHE="};
  std::string Source = freshSource(SquarePlusOne);
  std::vector<Child> Children;
  for (int I = 0; I < 8; ++I)
    Children.push_back(start(Env, {Source, "", squarePlusOne}));
  for (size_t I = 0; I < Children.size(); ++I)
    EXPECT_EQ(finish(Children[I]), 0) << "process " << I;
  std::vector<std::string> Names = listDir(Dir);
  size_t Entries = countSuffix(Names, ".wkc");
  EXPECT_GE(Entries, 1u);
  EXPECT_EQ(countPrefix(Names, ".tmp-"), 0u) << "a torn entry was left";
  EXPECT_EQ(countPrefix(Names, ".size-"), 0u);
  // A later process is served from the cache: it stores nothing new.
  EXPECT_EQ(run(Env, {Source, "", squarePlusOne}), 0);
  EXPECT_EQ(countSuffix(listDir(Dir), ".wkc"), Entries);
}

TEST(CacheProcesses, UncreatableDirectoryCompilesInMemory) {
  TempDir Temp;
  const std::string &Dir = Temp.Path;
  ASSERT_FALSE(Dir.empty());
  // A regular file where the cache's parent directory should be: no user,
  // root included, can create the directory.
  std::string Blocker = Dir + "/not-a-directory";
  std::ofstream(Blocker) << "x";
  std::string Log = Dir + "/stderr.txt";
  EXPECT_EQ(run({"WEFT_CACHE_DIR=" + Blocker + "/cache", "WEFT_KERNEL_CACHE=",
                 "WEFT_DEBUG=compile"},
                {freshSource(SquarePlusOne), "", squarePlusOne}, Log),
            0);
  EXPECT_EQ(countLines(Log, "kernel cache disabled"), 1)
      << "one WEFT_DEBUG line says the cache is off";
}

TEST(CacheProcesses, CacheOffWritesNothing) {
  TempDir Temp;
  const std::string &Dir = Temp.Path;
  ASSERT_FALSE(Dir.empty());
  std::string Cache = Dir + "/cache";
  EXPECT_EQ(run({"WEFT_CACHE_DIR=" + Cache, "WEFT_KERNEL_CACHE=0"},
                {freshSource(SquarePlusOne), "", squarePlusOne}),
            0);
  EXPECT_TRUE(listDir(Cache).empty()) << "files written with the cache off";
}

// A cache directory that is full or read-only: every store fails, the
// process says so once (WEFT_DEBUG) and computes right results from code
// compiled in memory, and nothing is left half-written.
TEST(CacheProcesses, FullCacheDirectoryCompilesInMemory) {
  TempDir Temp;
  const std::string &Dir = Temp.Path;
  ASSERT_FALSE(Dir.empty());
  std::string Cache = Dir + "/cache", Log = Dir + "/stderr.txt";
  Job J{freshSource(SquarePlusOne), "", squarePlusOne};
  // Entries of compiled code and of the program's build are larger.
  J.FileSizeLimit = 2048;
  EXPECT_EQ(run({"WEFT_CACHE_DIR=" + Cache,
                 "WEFT_KERNEL_CACHE=", "WEFT_DEBUG=compile"},
                J, Log),
            0);
  EXPECT_EQ(countLines(Log, "compiled code stays in memory"), 1)
      << "one WEFT_DEBUG line says the stores failed";
  EXPECT_EQ(countPrefix(listDir(Cache), ".tmp-"), 0u)
      << "a half-written entry was left";
}

TEST(CacheProcesses, ReadOnlyCacheDirectoryCompilesInMemory) {
  TempDir Temp;
  const std::string &Dir = Temp.Path;
  ASSERT_FALSE(Dir.empty());
  std::string Cache = Dir + "/cache", Log = Dir + "/stderr.txt";
  ASSERT_EQ(mkdir(Cache.c_str(), 0755), 0);
  Job J{freshSource(SquarePlusOne), "", squarePlusOne};
  J.ReadOnlyDir = Cache;
  int Status = run(
      {"WEFT_CACHE_DIR=" + Cache, "WEFT_KERNEL_CACHE=", "WEFT_DEBUG=compile"},
      J, Log);
  if (Status == 18)
    GTEST_SKIP() << "cannot make a directory read-only here (root without "
                    "a mount namespace of its own)";
  EXPECT_EQ(Status, 0);
  EXPECT_EQ(countLines(Log, "compiled code stays in memory"), 1)
      << "one WEFT_DEBUG line says the stores failed";
  EXPECT_TRUE(listDir(Cache).empty());
}

int three(size_t) { return 3; }
int seven(size_t) { return 7; }

TEST(CacheProcesses, ChangedIncludeIsNeverServedStale) {
  TempDir Temp;
  const std::string &Dir = Temp.Path;
  ASSERT_FALSE(Dir.empty());
  std::vector<std::string> Env = {"WEFT_CACHE_DIR=" + Dir + "/cache",
                                  "WEFT_KERNEL_CACHE="};
  // The same source text and options both times; only the header changes.
  std::string Source = freshSource(R"CLC(
#include "value.h"
kernel void fill(global int *Out) { Out[get_global_id(0)] = VALUE; }
)CLC");
  std::string Options = "-I " + Dir;
  std::ofstream(Dir + "/value.h") << "#define VALUE 3\n";
  EXPECT_EQ(run(Env, {Source, Options, three}), 0);
  std::ofstream(Dir + "/value.h", std::ios::trunc) << "#define VALUE 7\n";
  EXPECT_EQ(run(Env, {Source, Options, seven}), 0)
      << "the code built with the old header came back";
}

// clBuildProgram keeps its build in the cache: a later process with the
// same source and options skips the front end and gets the same log.
TEST(CacheProcesses, KeptBuildSkipsTheFrontEnd) {
  TempDir Temp;
  const std::string &Dir = Temp.Path;
  ASSERT_FALSE(Dir.empty());
  std::vector<std::string> Env = {"WEFT_CACHE_DIR=" + Dir + "/cache",
                                  "WEFT_KERNEL_CACHE=", "WEFT_DEBUG=compile"};
  // Mismatched pointer types: a warning the log must show both times.
  std::string Source = freshSource(R"CLC(
kernel void fill(global int *Out) {
  int *unused_value = 0;
  float *mismatched_pointer = unused_value;
  size_t I = get_global_id(0);
  Out[I] = (int)(I * I % 1000) + 1;
}
)CLC");
  Job First{Source, "", squarePlusOne};
  First.LogOut = Dir + "/first-log.txt";
  ASSERT_EQ(run(Env, First, Dir + "/first.txt"), 0);
  EXPECT_EQ(countLines(Dir + "/first.txt", "front end:"), 1);
  ASSERT_EQ(countLines(First.LogOut, "mismatched_pointer"), 1);

  Job Second = First;
  Second.LogOut = Dir + "/second-log.txt";
  ASSERT_EQ(run(Env, Second, Dir + "/second.txt"), 0);
  EXPECT_EQ(countLines(Dir + "/second.txt", "front end:"), 0)
      << "the second build of the same program ran the front end";
  EXPECT_EQ(countLines(Dir + "/second.txt", "from the kept build"), 1);
  EXPECT_EQ(countLines(Second.LogOut, "mismatched_pointer"), 1)
      << "the kept build lost its warning";

  // Other options are another program.
  Job Other = First;
  Other.Options = "-DUNRELATED=1";
  ASSERT_EQ(run(Env, Other, Dir + "/other.txt"), 0);
  EXPECT_EQ(countLines(Dir + "/other.txt", "front end:"), 1);
}

// A header that the search would now find before the one the kept build
// read: a new file in an earlier -I directory, or next to the source.
TEST(CacheProcesses, HeaderFoundEarlierNowIsNeverServedStale) {
  TempDir Temp;
  const std::string &Dir = Temp.Path;
  ASSERT_FALSE(Dir.empty());
  std::vector<std::string> Env = {"WEFT_CACHE_DIR=" + Dir + "/cache",
                                  "WEFT_KERNEL_CACHE="};
  mkdir((Dir + "/first").c_str(), 0755);
  mkdir((Dir + "/second").c_str(), 0755);
  mkdir((Dir + "/work").c_str(), 0755);
  std::string Source = freshSource(R"CLC(
#include "value.h"
kernel void fill(global int *Out) { Out[get_global_id(0)] = VALUE; }
)CLC");
  Job J{Source, "-I " + Dir + "/first -I " + Dir + "/second", three};
  J.Cwd = Dir + "/work";
  std::ofstream(Dir + "/second/value.h") << "#define VALUE 3\n";
  EXPECT_EQ(run(Env, J), 0);
  EXPECT_EQ(run(Env, J), 0);
  std::ofstream(Dir + "/first/value.h") << "#define VALUE 7\n";
  J.Expected = seven;
  EXPECT_EQ(run(Env, J), 0) << "a header in an earlier -I directory";
  // A quoted include looks next to the source (the working directory)
  // before any -I directory.
  std::ofstream(Dir + "/work/value.h") << "#define VALUE 3\n";
  J.Expected = three;
  EXPECT_EQ(run(Env, J), 0) << "a header next to the source";
}

// A header that became a directory: the kept build is not used and the
// build fails as clang says, never taking the process down (found by
// weft-fuzz-program-binary: the entry reader threw from its file read).
TEST(CacheProcesses, HeaderReplacedByADirectoryFailsTheBuild) {
  TempDir Temp;
  const std::string &Dir = Temp.Path;
  ASSERT_FALSE(Dir.empty());
  std::vector<std::string> Env = {"WEFT_CACHE_DIR=" + Dir + "/cache",
                                  "WEFT_KERNEL_CACHE="};
  std::string Source = freshSource(R"CLC(
#include "value.h"
kernel void fill(global int *Out) { Out[get_global_id(0)] = VALUE; }
)CLC");
  Job J{Source, "-I " + Dir, three};
  std::ofstream(Dir + "/value.h") << "#define VALUE 3\n";
  EXPECT_EQ(run(Env, J), 0);
  ASSERT_EQ(unlink((Dir + "/value.h").c_str()), 0);
  ASSERT_EQ(mkdir((Dir + "/value.h").c_str(), 0755), 0);
  EXPECT_EQ(run(Env, J), 12) << "12: the build failed; -1: the process died";
}

// Includes nested in a header, __has_include, and a relative -I path
// from two working directories.
TEST(CacheProcesses, EveryFileTheSearchMetIsChecked) {
  TempDir Temp;
  const std::string &Dir = Temp.Path;
  ASSERT_FALSE(Dir.empty());
  std::vector<std::string> Env = {"WEFT_CACHE_DIR=" + Dir + "/cache",
                                  "WEFT_KERNEL_CACHE="};
  for (const char *Sub : {"/a", "/a/inc", "/b", "/b/inc"})
    mkdir((Dir + Sub).c_str(), 0755);
  std::string Source = freshSource(R"CLC(
#include "outer.h"
#if __has_include("extra.h")
#include "extra.h"
#endif
#ifndef EXTRA
#define EXTRA 0
#endif
kernel void fill(global int *Out) { Out[get_global_id(0)] = VALUE + EXTRA; }
)CLC");
  std::ofstream(Dir + "/a/inc/outer.h") << "#include \"inner.h\"\n";
  std::ofstream(Dir + "/a/inc/inner.h") << "#define VALUE 3\n";
  std::ofstream(Dir + "/b/inc/outer.h") << "#include \"inner.h\"\n";
  std::ofstream(Dir + "/b/inc/inner.h") << "#define VALUE 7\n";
  Job J{Source, "-I inc", three};
  J.Cwd = Dir + "/a";
  EXPECT_EQ(run(Env, J), 0);
  J.Cwd = Dir + "/b";
  J.Expected = seven;
  EXPECT_EQ(run(Env, J), 0) << "-I inc from another working directory";
  std::ofstream(Dir + "/b/inc/inner.h", std::ios::trunc) << "#define VALUE 3\n";
  J.Expected = three;
  EXPECT_EQ(run(Env, J), 0) << "a header included by a header changed";
  std::ofstream(Dir + "/b/inc/extra.h") << "#define EXTRA 4\n";
  J.Expected = seven;
  EXPECT_EQ(run(Env, J), 0) << "__has_include of a file that now exists";
}

// A binary this build wrote is sealed (a digest keyed by the build) and
// loads without being read whole again; one whose bytes changed under a
// recomputed checksum, as a tool that rewrites binaries leaves it, is read
// whole before it is accepted.
TEST(CacheProcesses, SealedBinaryIsNotReadAgain) {
  TempDir Temp;
  const std::string &Dir = Temp.Path;
  ASSERT_FALSE(Dir.empty());
  std::vector<std::string> NoCache = {"WEFT_KERNEL_CACHE=0",
                                      "WEFT_DEBUG=compile"};
  std::string Binary = Dir + "/program.bin";
  Job Make{freshSource(SquarePlusOne), "", squarePlusOne, 64};
  Make.BinaryOut = Binary;
  ASSERT_EQ(run(NoCache, Make), 0);

  Job Reload{"", "", squarePlusOne, 64};
  Reload.BinaryIn = Binary;
  std::string Log = Dir + "/reload.txt";
  EXPECT_EQ(run(NoCache, Reload, Log), 0);
  EXPECT_EQ(countLines(Log, "sealed by this build"), 1);
  EXPECT_EQ(countLines(Log, "bytes of bitcode"), 0)
      << "a binary this build wrote was read whole again";

  // The seal is the payload's last 32 bytes; the header is magic, format
  // version, payload size and the payload's FNV-1a checksum (28 bytes).
  std::string Bytes;
  {
    std::ifstream In(Binary, std::ios::binary);
    Bytes.assign((std::istreambuf_iterator<char>(In)), {});
  }
  ASSERT_GT(Bytes.size(), 100u);
  Bytes[Bytes.size() - 5] ^= 0x21;
  uint64_t Hash = 0xcbf29ce484222325ull;
  for (size_t I = 28; I < Bytes.size(); ++I) {
    Hash ^= static_cast<unsigned char>(Bytes[I]);
    Hash *= 0x100000001b3ull;
  }
  memcpy(&Bytes[20], &Hash, 8);
  std::ofstream(Binary, std::ios::binary | std::ios::trunc) << Bytes;
  EXPECT_EQ(run(NoCache, Reload, Log), 0);
  EXPECT_EQ(countLines(Log, "sealed by this build"), 0);
  EXPECT_EQ(countLines(Log, "bytes of bitcode"), 1)
      << "a binary without this build's seal was not read whole";
}

// A program binary carries the kernels compiled so far: reloaded in a
// process with no kernel cache, it runs them without compiling, and
// compiles only for a local size it does not carry. Corrupted native code
// makes the binary invalid, never wrong results.
TEST(CacheProcesses, BinaryRunsCompiledKernelsWithoutCompiling) {
  TempDir Temp;
  const std::string &Dir = Temp.Path;
  ASSERT_FALSE(Dir.empty());
  std::vector<std::string> NoCache = {"WEFT_KERNEL_CACHE=0",
                                      "WEFT_DEBUG=compile"};
  std::string Binary = Dir + "/program.bin";
  Job Make{freshSource(SquarePlusOne), "", squarePlusOne, 64};
  Make.BinaryOut = Binary;
  ASSERT_EQ(run(NoCache, Make, Dir + "/make.txt"), 0);
  EXPECT_EQ(countLines(Dir + "/make.txt", "code generation for 'fill'"), 1);

  Job Reload{"", "", squarePlusOne, 64};
  Reload.BinaryIn = Binary;
  std::string Log = Dir + "/reload.txt";
  EXPECT_EQ(run(NoCache, Reload, Log), 0);
  EXPECT_EQ(countLines(Log, "code generation for"), 0)
      << "the reloaded program compiled a kernel its binary carries";
  EXPECT_EQ(countLines(Log, "from a program binary: adopted"), 1);

  // Another local size: compiled from the binary's bitcode.
  Reload.Local = 32;
  EXPECT_EQ(run(NoCache, Reload, Log), 0);
  EXPECT_EQ(countLines(Log, "code generation for 'fill'"), 1);

  // A flipped byte near the end (inside the native code) is refused.
  std::string Bytes;
  {
    std::ifstream In(Binary, std::ios::binary);
    Bytes.assign((std::istreambuf_iterator<char>(In)), {});
  }
  ASSERT_GT(Bytes.size(), 100u);
  Bytes[Bytes.size() - 40] ^= 0x5a;
  std::ofstream(Binary, std::ios::binary | std::ios::trunc) << Bytes;
  Reload.Local = 64;
  EXPECT_EQ(run(NoCache, Reload), 15) << "a damaged binary was accepted";
}

} // namespace
