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

#include <memory>
#include <string>
#include <vector>

namespace weft {

class Platform;

class Device : public _cl_device_id {
public:
  Device(Platform &P, std::unique_ptr<DeviceDriver> D);

  DeviceDriver &driver() const { return *Driver; }
  const DeviceDescription &description() const {
    return Driver->description();
  }
  Platform &platform() const { return ThePlatform; }
  bool isAlive() const { return true; }

private:
  Platform &ThePlatform;
  std::unique_ptr<DeviceDriver> Driver;
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

private:
  Platform();
  std::vector<Device *> Devices;
};

Platform *castPlatform(cl_platform_id P);
Device *castDevice(cl_device_id D);

/// "name1 name2 ..." from a list of named versions.
std::string joinNames(const std::vector<cl_name_version> &List);
cl_name_version nameVersion(const char *Name, cl_version Version);

} // namespace weft

#endif // WEFT_LIB_CL_PLATFORM_H
