//===- Platform.h - The Weft platform and its devices ----------------------===//
//
// One platform per process, created on first use. Its devices are the
// drivers named by WEFT_DEVICES (default: every registered driver, in
// registration order), probed once and kept for the life of the process.
//
//===----------------------------------------------------------------------===//
#ifndef WEFT_LIB_CL_PLATFORM_H
#define WEFT_LIB_CL_PLATFORM_H

#include "Object.h"

#include "weft/device.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace weft {

class Platform;

/// A root device lives as long as the platform; a sub-device
/// (clCreateSubDevices) is reference counted like other objects, its
/// contexts holding internal references.
class Device : public _cl_device_id {
public:
  Device(Platform &P, std::unique_ptr<DeviceDriver> D);
  /// A sub-device of Parent, created by the partition Type.
  Device(Device &Parent, std::unique_ptr<DeviceDriver> D,
         std::vector<cl_device_partition_property> Type);
  ~Device();

  DeviceDriver &driver() const { return *Driver; }
  const DeviceDescription &description() const {
    return Driver->description();
  }
  Platform &platform() const { return ThePlatform; }
  Device *parent() const { return Parent; }
  const std::vector<cl_device_partition_property> &partitionType() const {
    return PartitionType;
  }
  bool isAlive() const { return !Parent || ExternalRefs.load() > 0; }

  // Reference counts; no-ops on root devices.
  void retain();
  void release();
  void retainInternal();
  void releaseInternal();
  cl_uint referenceCount() const { return Parent ? ExternalRefs.load() : 1; }

  /// Profiling on a device that reports simulated time
  /// (Command::SimulatedNanoseconds): the start, in host nanoseconds, of a
  /// command that began at HostStart and lasted Duration on the simulated
  /// device, which runs one command at a time: no earlier than the end of
  /// the one placed before it.
  cl_ulong placeSimulated(cl_ulong HostStart, cl_ulong Duration) {
    cl_ulong End = SimulatedEnd.load(std::memory_order_relaxed), Start;
    do
      Start = std::max(HostStart, End);
    while (!SimulatedEnd.compare_exchange_weak(End, Start + Duration,
                                               std::memory_order_relaxed));
    return Start;
  }

private:
  Platform &ThePlatform;
  std::unique_ptr<DeviceDriver> Driver;
  Device *Parent = nullptr;
  std::vector<cl_device_partition_property> PartitionType;
  std::atomic<cl_uint> ExternalRefs{1};
  std::atomic<cl_uint> TotalRefs{1};
  std::atomic<cl_ulong> SimulatedEnd{0};
};

class Platform : public _cl_platform_id {
public:
  static Platform &get();

  const std::vector<Device *> &devices() const { return Devices; }
  bool isAlive() const { return true; }

  static constexpr const char *Name = "Weft";
  static constexpr const char *Vendor = "The Weft developers";
  static constexpr const char *IcdSuffix = "WEFT";
  std::string version() const;
  std::vector<cl_name_version> extensions() const;

  /// Takes a sub-device nobody references any more. It is destroyed later,
  /// by collectRetired() on an application thread: the last reference may
  /// go on one of the sub-device's own worker threads, which cannot join
  /// itself.
  void retire(Device *D);
  /// Destroys retired sub-devices (from clCreateSubDevices and
  /// clReleaseDevice, i.e. on application threads).
  void collectRetired();

private:
  Platform();
  std::vector<Device *> Devices;
  std::mutex RetiredLock;
  std::vector<Device *> Retired;
};

Platform *castPlatform(cl_platform_id P);
Device *castDevice(cl_device_id D);

/// "name1 name2 ..." from a list of named versions.
std::string joinNames(const std::vector<cl_name_version> &List);
cl_name_version nameVersion(const char *Name, cl_version Version);

} // namespace weft

#endif // WEFT_LIB_CL_PLATFORM_H
