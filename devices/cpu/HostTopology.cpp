//===- HostTopology.cpp - The host machine, from hwloc ---------------------===//

#include "cpu/CpuDevice.h"

#include "weft/debug.h"

#include <hwloc.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <thread>

namespace weft {

static unsigned long long largestCache(hwloc_topology_t Topology,
                                       hwloc_obj_type_t Type,
                                       unsigned &Line) {
  unsigned long long Size = 0;
  int Count = hwloc_get_nbobjs_by_type(Topology, Type);
  for (int I = 0; I < Count; ++I) {
    hwloc_obj_t Obj = hwloc_get_obj_by_type(Topology, Type, I);
    if (!Obj->attr)
      continue;
    Size = std::max<unsigned long long>(Size, Obj->attr->cache.size);
    if (Obj->attr->cache.linesize)
      Line = Obj->attr->cache.linesize;
  }
  return Size;
}

/// The highest frequency the kernel reports for CPU 0, in MHz.
static unsigned readMaxClockMHz() {
  std::ifstream MaxFreq(
      "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  unsigned long KHz = 0;
  if (MaxFreq >> KHz && KHz)
    return static_cast<unsigned>(KHz / 1000);
  std::ifstream CpuInfo("/proc/cpuinfo");
  std::string Line;
  while (std::getline(CpuInfo, Line))
    if (Line.rfind("cpu MHz", 0) == 0) {
      size_t Colon = Line.find(':');
      if (Colon != std::string::npos)
        return static_cast<unsigned>(std::stod(Line.substr(Colon + 1)));
    }
  return 0;
}

static HostTopology probe() {
  HostTopology T;
  hwloc_topology_t Topology;
  if (hwloc_topology_init(&Topology) == 0 &&
      hwloc_topology_load(Topology) == 0) {
    T.Cores = std::max(1, hwloc_get_nbobjs_by_type(Topology, HWLOC_OBJ_CORE));
    T.ProcessingUnits =
        std::max(1, hwloc_get_nbobjs_by_type(Topology, HWLOC_OBJ_PU));
    hwloc_obj_t Root = hwloc_get_root_obj(Topology);
    T.MemoryBytes = Root->total_memory;
    if (const char *Model = hwloc_obj_get_info_by_name(Root, "CPUModel"))
      T.CpuModel = Model;
    if (const char *Vendor = hwloc_obj_get_info_by_name(Root, "CPUVendor"))
      T.CpuVendor = Vendor;
    // Per-package info lives on the package objects on some systems.
    hwloc_obj_t Package = hwloc_get_obj_by_type(Topology, HWLOC_OBJ_PACKAGE, 0);
    if (Package && T.CpuModel.empty())
      if (const char *Model = hwloc_obj_get_info_by_name(Package, "CPUModel"))
        T.CpuModel = Model;
    if (Package && T.CpuVendor.empty())
      if (const char *Vendor =
              hwloc_obj_get_info_by_name(Package, "CPUVendor"))
        T.CpuVendor = Vendor;
    for (unsigned C = 0; C < T.Cores; ++C) {
      hwloc_obj_t Core = hwloc_get_obj_by_type(Topology, HWLOC_OBJ_CORE, C);
      hwloc_obj_t PU =
          Core ? hwloc_get_obj_inside_cpuset_by_type(Topology, Core->cpuset,
                                                     HWLOC_OBJ_PU, 0)
               : nullptr;
      T.CorePU.push_back(PU ? PU->os_index : C);
    }
    const hwloc_obj_type_t Domains[4] = {HWLOC_OBJ_NUMANODE, HWLOC_OBJ_L3CACHE,
                                         HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE};
    for (int D = 0; D < 4; ++D) {
      int Count = hwloc_get_nbobjs_by_type(Topology, Domains[D]);
      for (int I = 0; I < Count; ++I) {
        hwloc_obj_t Obj = hwloc_get_obj_by_type(Topology, Domains[D], I);
        std::vector<unsigned> Group;
        for (unsigned C = 0; C < T.Cores; ++C) {
          hwloc_obj_t Core = hwloc_get_obj_by_type(Topology, HWLOC_OBJ_CORE, C);
          if (Core && hwloc_bitmap_isincluded(Core->cpuset, Obj->cpuset))
            Group.push_back(C);
        }
        if (!Group.empty())
          T.CoreGroups[D].push_back(std::move(Group));
      }
    }
    T.L1DataBytes = largestCache(Topology, HWLOC_OBJ_L1CACHE, T.CachelineBytes);
    T.L2Bytes = largestCache(Topology, HWLOC_OBJ_L2CACHE, T.CachelineBytes);
    T.L3Bytes = largestCache(Topology, HWLOC_OBJ_L3CACHE, T.CachelineBytes);
    hwloc_topology_destroy(Topology);
  } else {
    T.Cores = T.ProcessingUnits =
        std::max(1u, std::thread::hardware_concurrency());
  }
  for (unsigned C = T.CorePU.size(); C < T.Cores; ++C)
    T.CorePU.push_back(C);
  if (!T.MemoryBytes)
    T.MemoryBytes = 1ull << 30;
  if (T.CpuModel.empty())
    T.CpuModel = "unknown CPU";
  if (T.CpuVendor.empty())
    T.CpuVendor = "unknown vendor";
  T.MaxClockMHz = readMaxClockMHz();
  WEFT_LOG(DebugDevice, "host: %s, %u cores, %u PUs, %llu MiB, L2 %llu KiB",
           T.CpuModel.c_str(), T.Cores, T.ProcessingUnits,
           T.MemoryBytes >> 20, T.L2Bytes >> 10);
  return T;
}

const HostTopology &hostTopology() {
  // Never destroyed: the pthread device's workers read it (to pin
  // themselves) for as long as they run, and they run until the process
  // ends, past the static destructors. A static object freed its vectors
  // under a worker that was just starting as a short process exited
  // (ThreadSanitizer, DeviceQueries.UuidsAreTheSameInAnotherProcess' child).
  static const HostTopology &Topology = *new HostTopology(probe());
  return Topology;
}

} // namespace weft
