//===- MachineFile.cpp - Finding and reading the model file ---------------===//
//
// A name without a slash is looked up in the source tree's machines
// directory first (a build used in place, where the files may be newer than
// an older installation's) and then in the installed one; a path is taken
// as given. The model's text is parsed by parseMachineModel (weft/machine.h).
//
//===----------------------------------------------------------------------===//
#include "accelsim/MachineFile.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace weft {

static bool isRegularFile(const std::string &Path) {
  struct stat Info;
  return stat(Path.c_str(), &Info) == 0 && S_ISREG(Info.st_mode);
}

/// The file Spec names, or "" when none exists.
static std::string findMachineFile(const std::string &Spec) {
  if (Spec.find('/') != std::string::npos)
    return isRegularFile(Spec) ? Spec : "";
  const char *Directories[] = {WEFT_ACCELSIM_SOURCE_MACHINES,
                               WEFT_ACCELSIM_INSTALLED_MACHINES};
  for (const char *Directory : Directories)
    for (const char *Suffix : {"", ".json"}) {
      std::string Path = std::string(Directory) + "/" + Spec + Suffix;
      if (isRegularFile(Path))
        return Path;
    }
  return isRegularFile(Spec) ? Spec : "";
}

bool loadMachineModel(MachineModel &Out, std::string &Error) {
  const char *Spec = getenv("WEFT_ACCELSIM_MACHINE");
  if (!Spec || !*Spec) {
    Out = defaultMachineModel();
    return true;
  }
  const std::string Path = findMachineFile(Spec);
  if (Path.empty()) {
    Error = std::string("no machine model file '") + Spec +
            "' (a path, or a name in " WEFT_ACCELSIM_SOURCE_MACHINES
            " or " WEFT_ACCELSIM_INSTALLED_MACHINES ")";
    return false;
  }
  std::ifstream File(Path);
  std::stringstream Text;
  if (File.is_open())
    Text << File.rdbuf();
  if (!File.is_open() || File.bad()) {
    Error = "cannot read machine model file " + Path;
    return false;
  }
  if (!parseMachineModel(Text.str(), Out, Error)) {
    Error = Path + ": " + Error;
    return false;
  }
  return true;
}

} // namespace weft
