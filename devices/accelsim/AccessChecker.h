//===- AccessChecker.h - Out-of-bounds accesses of the simulated device ---===//
//
// WEFT_ACCELSIM_CHECK=1: the kernels of the accelerator simulator are
// compiled with TargetDesc::CheckAccesses (lib/llvmopencl/StaticMultiIssue/
// CheckMemoryAccesses.cpp), so each of their global, constant and local
// accesses asks __weft_checked_address first. This is the answer, on the
// control core's thread, for the launch that runs there.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_ACCELSIM_ACCESSCHECKER_H
#define WEFT_ACCELSIM_ACCESSCHECKER_H

#include "accelsim/ChunkAllocator.h"

#include "weft/device.h"

#include <memory>
#include <string>
#include <vector>

namespace weft {

/// WEFT_ACCELSIM_CHECK=1 (read once per process).
bool accessChecksRequested();

/// Offers __weft_checked_address to kernel code (registerRuntimeSymbol);
/// idempotent. Code that calls it while no AccessCheck is installed on the
/// thread gets every address back unchanged.
void registerAccessChecker();

/// The checker of one launch, installed on the calling thread for its
/// lifetime (the control core runs every work-group of the launch there).
/// Global and constant accesses must lie inside one of Buffers, the device
/// memory's allocations; local ones inside the running work-group's local
/// memory (WorkGroupContext::LocalMemory), which the checker learns by
/// wrapping the launch's launcher until finish().
class AccessCheck {
public:
  AccessCheck(KernelLaunch &Launch, std::string Kernel,
              std::vector<ChunkAllocator::Allocation> Buffers);
  ~AccessCheck();
  AccessCheck(const AccessCheck &) = delete;
  AccessCheck &operator=(const AccessCheck &) = delete;

  /// Uninstalls the checker and gives the launch its launcher back; then
  /// the first out-of-bounds access as one line ("accelsim: out-of-bounds
  /// read of 4 bytes at 0x... (4 bytes past buffer 0x..., size 1024) in
  /// kernel k, work-item (256, 0, 0)"), or "" when every access was in
  /// bounds. Later calls return the same.
  std::string finish();
  /// Out-of-bounds accesses seen (each was redirected to the sink).
  uint64_t violations() const;

  struct State;

private:
  KernelLaunch &Launch;
  std::unique_ptr<State> S;
  bool Finished = false;
  std::string Report;
};

} // namespace weft

#endif // WEFT_ACCELSIM_ACCESSCHECKER_H
