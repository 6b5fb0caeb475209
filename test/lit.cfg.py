# lit configuration of crace's regression suite: annotated C programs checked
# with `crace --verify` (docs/testing.md), and FileCheck tests of the output.
import os
import shutil
import lit.formats

config.name = "crace"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".i", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.crace_obj_root, "test")

config.substitutions.append(("%crace", config.crace_bin))
config.substitutions.append(("%FileCheck", os.path.join(config.llvm_tools_dir, "FileCheck")))
config.substitutions.append(("%not", os.path.join(config.llvm_tools_dir, "not")))
config.substitutions.append(("%scripts", os.path.join(config.crace_src_root, "scripts")))
config.substitutions.append(("%examples", os.path.join(config.crace_src_root, "examples")))
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "")])

# Headless Chromium renders the HTML report in test/regression/html (.ci/run
# installs it; without it those tests are UNSUPPORTED, not failed).
if shutil.which("chromium") or shutil.which("chromium-browser"):
    config.available_features.add("chromium")
