# lit configuration of the Weft pass tests (tests/passes).
import os

import lit.formats

config.name = "weft-passes"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.weft_passes_binary_dir

config.substitutions.append(("weft-opt", config.weft_opt))
config.substitutions.append(("FileCheck", config.filecheck))
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "")])
