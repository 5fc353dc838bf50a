//===- weft/debug.h - WEFT_DEBUG log categories ----------------------------===//
//
// WEFT_DEBUG is a comma-separated list of categories (or "all"). Logging is
// to stderr, one line a message, prefixed with the category, so that it can
// be grepped out of an application's own output.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_DEBUG_H
#define WEFT_DEBUG_H

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace weft {

enum DebugCategory : unsigned {
  DebugAPI = 1u << 0,     ///< "api": rejected calls and why
  DebugCompile = 1u << 1, ///< "compile": front end, passes, code generation
  DebugQueue = 1u << 2,   ///< "queue": commands, events, scheduling
  DebugMemory = 1u << 3,  ///< "memory": allocations and transfers
  DebugDevice = 1u << 4,  ///< "device": probing, driver selection
  /// "accelsim": the accelerator simulator's model, simulated time of each
  /// kernel and transfer, device memory
  DebugAccelsim = 1u << 5,
};

inline unsigned parseDebugCategories(const char *Spec) {
  static const struct {
    const char *Name;
    unsigned Mask;
  } Names[] = {{"api", DebugAPI},       {"compile", DebugCompile},
               {"queue", DebugQueue},   {"memory", DebugMemory},
               {"device", DebugDevice}, {"accelsim", DebugAccelsim},
               {"all", ~0u}};
  unsigned Mask = 0;
  if (!Spec)
    return 0;
  const char *P = Spec;
  while (*P) {
    size_t Len = strcspn(P, ",");
    for (const auto &N : Names)
      if (strlen(N.Name) == Len && strncmp(N.Name, P, Len) == 0)
        Mask |= N.Mask;
    P += Len;
    if (*P == ',')
      ++P;
  }
  return Mask;
}

inline bool debugEnabled(DebugCategory Category) {
  static const unsigned Mask = parseDebugCategories(getenv("WEFT_DEBUG"));
  return (Mask & Category) != 0;
}

inline const char *debugCategoryName(DebugCategory Category) {
  switch (Category) {
  case DebugAPI:
    return "api";
  case DebugCompile:
    return "compile";
  case DebugQueue:
    return "queue";
  case DebugMemory:
    return "memory";
  case DebugDevice:
    return "device";
  case DebugAccelsim:
    return "accelsim";
  }
  return "?";
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
inline void debugLog(DebugCategory Category, const char *Format, ...) {
  if (!debugEnabled(Category))
    return;
  char Buffer[2048];
  va_list Args;
  va_start(Args, Format);
  vsnprintf(Buffer, sizeof(Buffer), Format, Args);
  va_end(Args);
  fprintf(stderr, "weft[%s]: %s\n", debugCategoryName(Category), Buffer);
}

} // namespace weft

#define WEFT_LOG(Category, ...)                                                \
  do {                                                                         \
    if (::weft::debugEnabled(::weft::Category))                                \
      ::weft::debugLog(::weft::Category, __VA_ARGS__);                         \
  } while (0)

#endif // WEFT_DEBUG_H
