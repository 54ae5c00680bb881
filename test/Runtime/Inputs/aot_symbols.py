"""Checks that what a program compiled ahead of time calls of fuse's own is
defined where it is loaded: scripts/gpu-check builds the `cpu` and `cuda`
stages into shared objects that fuse-gpu-harness (and scripts/accuracy
--aot) load beside libfuse_runtime.so, with no JIT to supply a symbol.

usage: aot_symbols.py LIBFUSE_RUNTIME PROGRAM.ll...
Prints `defined NAME` for each function of fuse's (fuse_*, mgpu*) that a
program declares and the runtime exports, and `UNDEFINED NAME` for any
other."""
import re
import subprocess
import sys

runtime, *programs = sys.argv[1:]
exported = set(subprocess.run(["llvm-nm", "-D", "--defined-only", "--format=just-symbols",
                               runtime], check=True, capture_output=True,
                              text=True).stdout.split())
declared = set()
for path in programs:
    declared |= set(re.findall(r"^declare .*? @((?:fuse_|mgpu)\w+)\(", open(path).read(),
                               re.MULTILINE))
for name in sorted(declared):
    print(("defined" if name in exported else "UNDEFINED") + " " + name)
