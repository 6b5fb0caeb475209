"""usage: make_db.py KIND SRC_DIR OUT_DIR

Writes OUT_DIR/compile_commands.json over the sources in SRC_DIR:
  cmake   CMake-style: targets safe, racy, tool (executables) and the
          library 'shlib' built static (CMakeFiles/shlib.dir) and shared
          (-fPIC, CMakeFiles/shlib_pic.dir), so lib.c is compiled twice
  make    no targets (a bear database): the same four files, once each
  twice   one program; lib.c compiled twice (static, then -fPIC)
  lib     no program: lib.c alone, compiled twice (static, then -fPIC)
"""
import json
import os
import sys

kind, src, out = sys.argv[1:4]


def cmd(file, target=None, extra=""):
    o = (f"CMakeFiles/{target}.dir/{file}.o" if target else file[:-2] + ".o")
    return {"directory": out,
            "command": f"/usr/bin/cc {extra} -O2 -o {o} -c {os.path.join(src, file)}",
            "file": os.path.join(src, file)}


if kind == "cmake":
    db = [cmd("lib.c", "shlib_pic", "-fPIC"), cmd("lib.c", "shlib"),
          cmd("prog_safe.c", "safe"), cmd("prog_racy.c", "racy"),
          cmd("prog_tool.c", "tool")]
elif kind == "make":
    db = [cmd(f) for f in ("lib.c", "prog_safe.c", "prog_racy.c", "prog_tool.c")]
elif kind == "twice":
    db = [cmd("lib.c"), cmd("prog_racy.c"), cmd("lib.c", None, "-fPIC -DPIC")]
elif kind == "lib":
    db = [cmd("lib.c", "shlib"), cmd("lib.c", "shlib_pic", "-fPIC")]
else:
    sys.exit("unknown kind " + kind)
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "compile_commands.json"), "w") as f:
    json.dump(db, f, indent=1)
