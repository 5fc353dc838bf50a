//===- KernelCache.h - The on-disk cache of work-group functions ----------===//
//
// Compiling a work-group function (passes, O3, code generation) costs tens
// to hundreds of milliseconds per kernel and local size; applications pay
// it again on every run. The cache keeps the object code on disk, keyed by
// everything the code depends on, so a later process loads it instead.
//
// It must never serve stale or corrupt code: the key hashes the program's
// bitcode (source, options and builtin library are all in it), the kernel,
// the local size, the device target, the LLVM version and the build of
// libweft itself; an entry whose header, length, key or checksum does not
// match is deleted and rebuilt. Entries are written to a temporary file and
// renamed into place, so readers never see a partial entry, and the cache's
// total size is bounded.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LLVMOPENCL_KERNELCACHE_H
#define WEFT_LLVMOPENCL_KERNELCACHE_H

#include "weft/compiler.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace weft {

/// What a cache entry restores.
struct CachedWorkGroupFunction {
  std::string Symbol; ///< the launcher's name in Object
  std::string Object; ///< a relocatable object file for the target
  uint64_t PrivateArenaSize = 0;
  uint64_t PrivateMemPerWorkItem = 0;
  uint64_t LocalVariablesSize = 0;
};

class KernelCache {
public:
  using Key = std::array<uint8_t, 32>;

  /// The process's cache, configured from WEFT_KERNEL_CACHE, WEFT_CACHE_DIR,
  /// XDG_CACHE_HOME, HOME and WEFT_CACHE_MAX_MB.
  static KernelCache &get();

  /// A cache in Directory (created if missing), bounded to MaxBytes.
  KernelCache(std::string Directory, uint64_t MaxBytes);

  bool enabled() const { return !Directory.empty(); }
  const std::string &directory() const { return Directory; }

  static Key makeKey(const std::string &Bitcode, const std::string &Kernel,
                     const size_t LocalSize[3], const TargetDesc &Target);

  /// Reads the entry for K, from the adopted entries (adopt()) or the
  /// disk; a damaged entry on disk is deleted and reported absent.
  bool lookup(const Key &K, CachedWorkGroupFunction &Out) const;
  /// Writes the entry for K atomically, then trims the cache to its bound
  /// when the cache's size record says it is passed (see account()).
  void store(const Key &K, const CachedWorkGroupFunction &Entry) const;

  /// Entries that come with the application rather than from this cache
  /// (a program binary's compiled kernels): kept in memory for lookup(),
  /// also when the disk cache is off. False (and ignored) when Bytes is
  /// not a sound entry made for K: code of another Weft build, LLVM or
  /// target has another key.
  bool adopt(const Key &K, const std::string &Bytes);
  bool hasAdopted() const { return HasAdopted.load(std::memory_order_acquire); }

  /// An entry in the format of the disk cache and of adopt().
  static std::string encode(const Key &K, const CachedWorkGroupFunction &Entry);
  /// Reads Bytes as an entry for K; false with the reason in Why.
  static bool decode(const Key &K, const std::string &Bytes,
                     CachedWorkGroupFunction &Out, const char *&Why);

  /// The path of K's entry (for tests).
  std::string pathFor(const Key &K) const;
  /// Successful lookups so far (for tests and WEFT_DEBUG).
  uint64_t hits() const { return Hits.load(); }
  /// Scans of the directory's entries so far (for tests).
  uint64_t scans() const { return Scans.load(); }

private:
  /// Adds a stored entry's bytes to the size record, trimming if due.
  void account(uint64_t Added) const;
  /// Deletes the oldest entries while the total passes the bound; returns
  /// the total left.
  uint64_t trim() const;

  mutable std::atomic<uint64_t> Hits{0};
  mutable std::atomic<uint64_t> Scans{0};
  /// A store has failed (and said so) in this process.
  mutable std::atomic<bool> StoreFailed{false};
  /// One size-record update at a time in this process.
  mutable std::mutex RecordLock;
  mutable std::mutex AdoptedLock;
  std::map<Key, std::string> Adopted;
  std::atomic<bool> HasAdopted{false};

  std::string Directory;
  uint64_t MaxBytes;
};

} // namespace weft

#endif // WEFT_LLVMOPENCL_KERNELCACHE_H
