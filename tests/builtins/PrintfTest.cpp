//===- PrintfTest.cpp - printf in kernels ----------------------------------===//
//
// Kernels print scalars, vectors (vN with hh, h, hl, l), constant strings
// and %%; stdout is redirected to a temporary file around the command, and
// the captured text is compared with the host's snprintf of the same
// conversions and values. Also: the output of many work-items (around a
// barrier) comes out whole, one line per call, complete when clFinish
// returns; and a command that prints more than CL_DEVICE_PRINTF_BUFFER_SIZE
// gets -1 from exactly the calls whose text is missing.
//
//===----------------------------------------------------------------------===//
#include "BuiltinTestCommon.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <map>
#include <sstream>
#include <unistd.h>

using namespace weft_test;

namespace {

/// Redirects stdout (the file descriptor, so the runtime's writes are
/// caught whatever buffering it uses) to a temporary file while alive.
class StdoutCapture {
public:
  StdoutCapture() {
    char Name[] = "/tmp/weft-printf-XXXXXX";
    File = mkstemp(Name);
    unlink(Name);
    fflush(stdout);
    Saved = dup(1);
    dup2(File, 1);
  }
  ~StdoutCapture() { release(); }
  /// Restores stdout and returns what was written meanwhile.
  std::string release() {
    if (Saved < 0)
      return Text;
    fflush(stdout);
    dup2(Saved, 1);
    close(Saved);
    Saved = -1;
    lseek(File, 0, SEEK_SET);
    char Chunk[4096];
    ssize_t N;
    while ((N = read(File, Chunk, sizeof(Chunk))) > 0)
      Text.append(Chunk, size_t(N));
    close(File);
    return Text;
  }

private:
  int File = -1, Saved = -1;
  std::string Text;
};

std::string format(const char *Format, ...) {
  va_list Args;
  va_start(Args, Format);
  char Buffer[512];
  vsnprintf(Buffer, sizeof(Buffer), Format, Args);
  va_end(Args);
  return Buffer;
}

/// The elements of a vector conversion, each formatted by Format, joined
/// by commas as OpenCL C prints them.
template <typename T>
std::string joined(const char *Format, std::initializer_list<T> Values) {
  std::string Out;
  for (T V : Values) {
    if (!Out.empty())
      Out += ',';
    Out += format(Format, V);
  }
  return Out;
}

std::vector<std::string> lines(const std::string &Text) {
  std::vector<std::string> Out;
  std::istringstream S(Text);
  for (std::string L; std::getline(S, L);)
    Out.push_back(L);
  return Out;
}

class Printf : public BuiltinTest {
protected:
  /// Runs kernel k of Source over Global items (Local per group) with the
  /// int buffer Results and the given scalars; returns the captured stdout.
  std::string run(const std::string &Source, size_t Global, size_t Local,
                  std::vector<cl_int> &Results,
                  const std::vector<std::pair<size_t, const void *>> &Scalars) {
    cl_kernel Raw = makeKernel(Source, "k");
    if (!Raw)
      return "<no kernel>";
    KernelRef K(Raw);
    MemRef Buf(makeBuffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                          Results.size() * sizeof(cl_int), Results.data()));
    EXPECT_CL_OK(clSetKernelArg(K, 0, sizeof(cl_mem), &Buf));
    for (size_t I = 0; I < Scalars.size(); ++I)
      EXPECT_CL_OK(clSetKernelArg(K, cl_uint(I + 1), Scalars[I].first,
                                  Scalars[I].second));
    StdoutCapture Capture;
    cl_int Err = clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local,
                                        0, nullptr, nullptr);
    EXPECT_CL_OK(Err);
    // clFinish alone must be enough for the text to be out.
    EXPECT_CL_OK(clFinish(Queue));
    std::string Text = Capture.release();
    EXPECT_CL_OK(clEnqueueReadBuffer(Queue, Buf, CL_TRUE, 0,
                                     Results.size() * sizeof(cl_int),
                                     Results.data(), 0, nullptr, nullptr));
    return Text;
  }
};

const char *FormatsSource = R"(
kernel void k(global int *r, int i, float f, long l, uint u) {
  r[0] = printf("int %d %5i|%-4d|%+d %u %x %X %o %c\n", i, -i, 7, 3, u, u, u,
                u, 'A');
  r[1] = printf("long %ld %lu %lx %hd %hhu\n", l, (ulong)l, (ulong)l,
                (short)i, (uchar)u);
  r[2] = printf("float %f %.3e %g %10.2f %a\n", f, f, f, f, f);
  r[3] = printf("vec %v4hld|%v2hlf|%v3hd|%v8hhx|%v2ld\n", (int4)(1, -2, 3, -4),
                (float2)(f, 2 * f), (short3)(5, -6, 7),
                (uchar8)(0, 1, 15, 16, 127, 128, 200, 255), (long2)(l, -l));
  r[4] = printf("more %v16hhu|%v4hlx|%#v2hho|%v2f|%5.1v4hlf\n",
                (uchar16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                (uint4)(u, 1, 2, 0xffffffffu), (uchar2)(8, 9), (float2)(f, -f),
                (float4)(1.25f, -2.5f, f, 100.0f));
  r[5] = printf("str %s|%10s|%-6s|%.2s\n", "hello", "right", "left", "trunc");
  r[6] = printf("pct %% %d%%\n", 50);
  r[7] = printf("plain line\n");
}
)";

TEST_P(Printf, Conversions) {
  std::vector<cl_int> Results(8, 99);
  cl_int I = 42;
  cl_float F = 3.14159f;
  cl_long L = -1234567890123LL;
  cl_uint U = 0xdeadbeefu;
  std::string Text = run(FormatsSource, 1, 1, Results,
                         {{sizeof(I), &I}, {sizeof(F), &F}, {sizeof(L), &L},
                          {sizeof(U), &U}});
  for (size_t C = 0; C < Results.size(); ++C)
    EXPECT_EQ(Results[C], 0) << "printf call " << C << " did not return 0";

  std::string Expected;
  Expected += format("int %d %5i|%-4d|%+d %u %x %X %o %c\n", I, -I, 7, 3, U, U,
                     U, U, 'A');
  Expected += format("long %ld %lu %lx %hd %hhu\n", long(L),
                     (unsigned long)L, (unsigned long)L, (short)I,
                     (unsigned char)U);
  Expected += format("float %f %.3e %g %10.2f %a\n", double(F), double(F),
                     double(F), double(F), double(F));
  Expected += "vec " + joined("%d", {1, -2, 3, -4}) + "|" +
              joined("%f", {double(F), double(2 * F)}) + "|" +
              joined("%hd", {5, -6, 7}) + "|" +
              joined("%hhx", {0, 1, 15, 16, 127, 128, 200, 255}) + "|" +
              joined("%ld", {long(L), long(-L)}) + "\n";
  Expected += "more " +
              joined("%hhu", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                              14, 15}) +
              "|" + joined("%x", {U, 1u, 2u, 0xffffffffu}) + "|" +
              joined("%#hho", {8, 9}) + "|" +
              joined("%f", {double(F), double(-F)}) + "|" +
              joined("%5.1f", {1.25, -2.5, double(F), 100.0}) + "\n";
  Expected += format("str %s|%10s|%-6s|%.2s\n", "hello", "right", "left",
                     "trunc");
  Expected += format("pct %% %d%%\n", 50);
  Expected += "plain line\n";
  EXPECT_EQ(Text, Expected);
}

// printf from a helper function the kernel calls, doubles (scalar and
// vN with l) when the device has them, and a call with no newline at the
// end of the command's output.
const char *HelperSource = R"(
#ifdef HAS_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real_t;
#else
typedef ulong real_t; // same size, never printed
#endif
int show(constant char *what, int n) {
  return printf("%s=%d;", what, n);
}
kernel void k(global int *r, real_t d) {
  r[0] = show("n", 3);
#ifdef HAS_DOUBLE
  r[1] = printf("%.10f %v2lf %v3le|", d, (double2)(d, -d), (double3)(1, 2, d));
#else
  r[1] = 0;
#endif
  r[2] = printf("%5.2s|%-3c|", "abc", 'z');
  // Only literal strings may be printed with %s (6.15.14.2); a private
  // array is gone when the command's output is formatted, so the
  // conversion is shown as written instead of reading freed memory.
  char priv[4] = "no";
  r[3] = printf("[%s]", priv);
}
)";

TEST_P(Printf, HelperFunctionsAndDoubles) {
  const bool Double = deviceHasDouble();
  std::string Source = std::string(Double ? "#define HAS_DOUBLE 1\n" : "") +
                       HelperSource;
  std::vector<cl_int> Results(4, 99);
  cl_double D = 2.718281828459045;
  std::string Text = run(Source, 1, 1, Results, {{sizeof(D), &D}});
  for (size_t C = 0; C < Results.size(); ++C)
    EXPECT_EQ(Results[C], 0) << "printf call " << C;
  std::string Expected = format("%s=%d;", "n", 3);
  if (Double)
    Expected += format("%.10f ", D) + joined("%lf", {D, -D}) + " " +
                joined("%le", {1.0, 2.0, D}) + "|";
  Expected += format("%5.2s|%-3c|", "abc", 'z');
  Expected += "[%s]";
  EXPECT_EQ(Text, Expected);
}

// cl_khr_fp16: a half argument is promoted to double like a float; h with
// a vector specifier and a floating conversion means halfn.
const char *HalfSource = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void k(global int *r) {
  half h = 1.5h;
  half4 v = (half4)(-2.25h, 65504.0h, 0x1p-24h, 0.1h);
  r[0] = printf("half %f %a|%v4hf|%.3v2he\n", h, -h, v, v.s01);
}
)";

TEST_P(Printf, Half) {
  std::vector<cl_int> Results(1, 99);
  std::string Text = run(HalfSource, 1, 1, Results, {});
  EXPECT_EQ(Results[0], 0);
  // 0.1h is 0x1.998p-4.
  EXPECT_EQ(Text, format("half %f %a|", 1.5, -1.5) +
                      joined("%f", {-2.25, 65504.0, 0x1p-24, 0x1.998p-4}) +
                      "|" + joined("%.3e", {-2.25, 65504.0}) + "\n");
}

// Many work-items, two calls each around a barrier: every line whole,
// each exactly once, all of them out when clFinish returns.
const char *ManySource = R"(
kernel void k(global int *r) {
  size_t g = get_global_id(0);
  int4 v = (int4)((int)g, (int)g * 2, -(int)g, 7);
  int a = printf("before %u in group %u: %v4hld\n", (uint)g,
                 (uint)get_group_id(0), v);
  barrier(CLK_LOCAL_MEM_FENCE);
  int b = printf("after %u %s\n", (uint)g, g % 2 ? "odd" : "even");
  r[g] = a | b;
}
)";

TEST_P(Printf, ManyWorkItemsStayWhole) {
  for (size_t Local : {1u, 16u, 64u}) {
    SCOPED_TRACE("local size " + std::to_string(Local));
    const size_t Global = 256;
    std::vector<cl_int> Results(Global, 99);
    std::string Text = run(ManySource, Global, Local, Results, {});
    std::vector<std::string> Got = lines(Text), Want;
    for (size_t G = 0; G < Global; ++G) {
      Want.push_back(format("before %u in group %u: %d,%d,%d,%d", unsigned(G),
                            unsigned(G / Local), int(G), int(G) * 2, -int(G),
                            7));
      Want.push_back(format("after %u %s", unsigned(G), G % 2 ? "odd" : "even"));
      ASSERT_EQ(Results[G], 0) << "work-item " << G;
    }
    ASSERT_FALSE(Text.empty());
    EXPECT_EQ(Text.back(), '\n');
    std::sort(Got.begin(), Got.end());
    std::sort(Want.begin(), Want.end());
    ASSERT_EQ(Got, Want);
  }
}

// One record is 24 bytes of header and 16 per argument here: 40 bytes.
// Twice as many calls as fit: the ones that did not fit return -1 and
// print nothing; the others print their line.
const char *OverflowSource = R"(
kernel void k(global int *r) {
  r[get_global_id(0)] = printf("%d\n", (int)get_global_id(0));
}
)";

TEST_P(Printf, OverflowReturnsMinusOne) {
  size_t BufferSize =
      deviceInfo<size_t>(Device, CL_DEVICE_PRINTF_BUFFER_SIZE);
  ASSERT_GE(BufferSize, 1024u) << "the full profile requires 1 MB";
  const size_t Global = ((BufferSize / 40) * 2 + 64) / 64 * 64;
  std::vector<cl_int> Results(Global, 99);
  std::string Text = run(OverflowSource, Global, 64, Results, {});
  std::map<int, int> Printed;
  for (const std::string &L : lines(Text)) {
    char *End = nullptr;
    long V = strtol(L.c_str(), &End, 10);
    ASSERT_TRUE(!L.empty() && *End == '\0') << "malformed line '" << L << "'";
    ASSERT_TRUE(V >= 0 && size_t(V) < Global) << L;
    ++Printed[int(V)];
  }
  size_t Ok = 0, Failed = 0;
  for (size_t G = 0; G < Global; ++G) {
    ASSERT_TRUE(Results[G] == 0 || Results[G] == -1)
        << "work-item " << G << " got " << Results[G];
    if (Results[G] == 0) {
      ++Ok;
      ASSERT_EQ(Printed[int(G)], 1) << "work-item " << G << " returned 0";
    } else {
      ++Failed;
      ASSERT_EQ(Printed.count(int(G)) ? Printed[int(G)] : 0, 0)
          << "work-item " << G << " returned -1 but printed";
    }
  }
  EXPECT_GT(Failed, 0u);
  // The buffer is used up to its last whole record.
  EXPECT_GE(Ok * 40 + 40, BufferSize - BufferSize % 8);
  EXPECT_LE(Ok * 40, BufferSize);
}

WEFT_INSTANTIATE_DEVICE_TEST(Printf);

} // namespace
