//===- MachineFile.h - Which machine model the simulator runs -------------===//
#ifndef WEFT_ACCELSIM_MACHINEFILE_H
#define WEFT_ACCELSIM_MACHINEFILE_H

#include "weft/machine.h"

#include <string>

namespace weft {

/// The model WEFT_ACCELSIM_MACHINE names: a file path, or the name of a
/// file (with or without ".json") in the machines directory of the source
/// tree or of the installation; defaultMachineModel() when unset. False,
/// with the reason in Error, when the file cannot be found, read or parsed.
bool loadMachineModel(MachineModel &Out, std::string &Error);

} // namespace weft

#endif // WEFT_ACCELSIM_MACHINEFILE_H
