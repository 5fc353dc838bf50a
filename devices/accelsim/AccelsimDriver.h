//===- AccelsimDriver.h - The accelerator simulator's driver --------------===//
//
// A simulated accelerator (issue 19): a device with memory of its own and a
// control core that makes every host<->device transfer, whose kernels are
// compiled for a static multi-issue machine model (weft/machine.h) and run
// natively for exact results while their cycles on the model are counted.
// Instantiated only when WEFT_DEVICES names "accelsim".
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_ACCELSIM_ACCELSIMDRIVER_H
#define WEFT_ACCELSIM_ACCELSIMDRIVER_H

#include "accelsim/ControlCore.h"
#include "accelsim/DeviceMemory.h"
#include "cpu/CpuDevice.h"

#include <memory>

namespace weft {

/// The compiler side is the CPU drivers' (the code runs on the host), with
/// the static multi-issue back half; memory and execution are the device's.
class AccelsimDriver final : public CpuDriver {
public:
  explicit AccelsimDriver(std::shared_ptr<const MachineModel> Model);
  ~AccelsimDriver() override;

  /// The device memory and the control core are in place.
  bool valid() const { return Memory.valid() && Core && Core->valid(); }

  bool sharesHostMemory() const override { return false; }
  void *allocate(size_t Size, size_t Alignment) override;
  void deallocate(void *Address) override;
  void copyToDevice(void *Dst, const void *Src, size_t Size) override;
  bool prepareKernel(const std::string &Bitcode, const KernelDesc &Kernel,
                     const size_t LocalSize[3],
                     const GlobalVariableAddresses &Globals,
                     WorkGroupFunction &Out, std::string &Error) override;
  void submit(Command *Cmd) override;
  std::vector<std::vector<unsigned>>
  affinityGroups(cl_device_affinity_domain Domain) const override {
    (void)Domain;
    return {};
  }

private:
  void describe();

  std::shared_ptr<const MachineModel> Model;
  DeviceMemory Memory;
  /// Last: stopped first, while the memory it runs in is still there.
  std::unique_ptr<ControlCore> Core;
};

/// The driver for WEFT_DEVICES=accelsim; null (with the reason in
/// WEFT_DEBUG=accelsim) when the model file is bad or the device memory
/// cannot be reserved.
std::unique_ptr<DeviceDriver> createAccelsimDriver();

} // namespace weft

#endif // WEFT_ACCELSIM_ACCELSIMDRIVER_H
