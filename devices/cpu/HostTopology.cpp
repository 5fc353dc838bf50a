//===- HostTopology.cpp - The host machine, from hwloc ---------------------===//

#include "cpu/CpuDevice.h"

#include "weft/debug.h"

#include <hwloc.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sched.h>
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

/// The CPUs a cgroup's quota lets this process use at once, rounded up; 0
/// when no group on the way to the hierarchy's root sets one. cgroup v2's
/// cpu.max ("150000 100000": quota and period in microseconds) and v1's
/// cpu.cfs_quota_us and cpu.cfs_period_us.
static unsigned cpuQuota() {
  auto ReadQuota = [](const std::string &Dir, bool V2) -> unsigned {
    long long Quota = -1, Period = 0;
    if (V2) {
      std::ifstream Max(Dir + "/cpu.max");
      std::string Word;
      if (!(Max >> Word >> Period) || Word == "max")
        return 0;
      Quota = std::atoll(Word.c_str());
    } else {
      std::ifstream QuotaFile(Dir + "/cpu.cfs_quota_us");
      std::ifstream PeriodFile(Dir + "/cpu.cfs_period_us");
      if (!(QuotaFile >> Quota) || !(PeriodFile >> Period))
        return 0;
    }
    if (Quota <= 0 || Period <= 0)
      return 0;
    return static_cast<unsigned>((Quota + Period - 1) / Period);
  };
  unsigned Least = 0;
  std::ifstream Groups("/proc/self/cgroup");
  std::string Line;
  while (std::getline(Groups, Line)) {
    // "0::/path" (v2) or "4:cpu,cpuacct:/path" (v1).
    size_t First = Line.find(':'), Second = Line.find(':', First + 1);
    if (Second == std::string::npos)
      continue;
    std::string Controllers = Line.substr(First + 1, Second - First - 1);
    std::string Path = Line.substr(Second + 1);
    bool V2 = Controllers.empty();
    if (!V2 && ("," + Controllers + ",").find(",cpu,") == std::string::npos)
      continue;
    std::string Root = V2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/" + Controllers;
    if (!V2 && !std::ifstream(Root + "/cpu.cfs_period_us"))
      Root = "/sys/fs/cgroup/cpu";
    // Every group from the process's own up to the root may set a quota;
    // inside a container's cgroup namespace the path is "/" and the root
    // is the container's group.
    for (;;) {
      if (unsigned Quota = ReadQuota(Root + Path, V2))
        Least = Least ? std::min(Least, Quota) : Quota;
      size_t Slash = Path.find_last_of('/');
      if (Path.empty() || Path == "/" || Slash == std::string::npos)
        break;
      Path = Slash ? Path.substr(0, Slash) : "/";
    }
  }
  return Least;
}

static HostTopology probe() {
  HostTopology T;
  // The CPUs this process may run on (taskset, a cpuset), as the first
  // thread to ask finds them.
  cpu_set_t Allowed;
  CPU_ZERO(&Allowed);
  const bool HaveAffinity =
      sched_getaffinity(0, sizeof(Allowed), &Allowed) == 0;
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
      unsigned Chosen = PU ? PU->os_index : C;
      // A core's second hyperthread may be the only one taskset left us.
      for (int I = 0; Core && HaveAffinity; ++I) {
        hwloc_obj_t Sibling = hwloc_get_obj_inside_cpuset_by_type(
            Topology, Core->cpuset, HWLOC_OBJ_PU, I);
        if (!Sibling)
          break;
        if (Sibling->os_index < CPU_SETSIZE &&
            CPU_ISSET(Sibling->os_index, &Allowed)) {
          Chosen = Sibling->os_index;
          break;
        }
      }
      T.CorePU.push_back(Chosen);
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
  for (unsigned C = 0; C < T.Cores; ++C)
    if (!HaveAffinity ||
        (T.CorePU[C] < CPU_SETSIZE && CPU_ISSET(T.CorePU[C], &Allowed)))
      T.UsableCores.push_back(C);
  // An affinity naming no CPU hwloc knows: better every core than none.
  if (T.UsableCores.empty())
    for (unsigned C = 0; C < T.Cores; ++C)
      T.UsableCores.push_back(C);
  T.AvailableCores = static_cast<unsigned>(T.UsableCores.size());
  if (unsigned Quota = cpuQuota())
    T.AvailableCores = std::min(T.AvailableCores, Quota);
  if (!T.MemoryBytes)
    T.MemoryBytes = 1ull << 30;
  if (T.CpuModel.empty())
    T.CpuModel = "unknown CPU";
  if (T.CpuVendor.empty())
    T.CpuVendor = "unknown vendor";
  T.MaxClockMHz = readMaxClockMHz();
  WEFT_LOG(DebugDevice,
           "host: %s, %u cores (%zu usable, %u at once), %u PUs, %llu MiB, "
           "L2 %llu KiB",
           T.CpuModel.c_str(), T.Cores, T.UsableCores.size(), T.AvailableCores,
           T.ProcessingUnits, T.MemoryBytes >> 20, T.L2Bytes >> 10);
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
