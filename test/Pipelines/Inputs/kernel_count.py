"""Checks, for every example, that the PTX has as many kernels as the report.

usage: kernel_count.py FUSE_OPT EXAMPLES_DIR [PTXAS]

With PTXAS, every PTX is also assembled for sm_90 and must not spill,
except a little in a kernel whose warps keep rows in registers (shuffles): at
most ROW_SPILL_BYTES a thread, the price of 64 registers and half occupancy
for rows of 1024 (Kernel.h, kRowInRegisters).
"""
import json
import pathlib
import re
import subprocess
import sys
import tempfile


ROW_SPILL_BYTES = 64


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


fuse_opt, examples = sys.argv[1], pathlib.Path(sys.argv[2])
ptxas = sys.argv[3] if len(sys.argv) > 3 else None
failures = 0
for example in sorted(examples.glob("*.mlir")):
    report = json.loads(run(fuse_opt, str(example), "--fuse-report=json"))
    for variant, flags in (("fused", []), ("eager", ["--fusion=off"])):
        expected = sum(f[variant]["kernel_count"] for f in report["functions"])
        ptx = run(fuse_opt, str(example), "--emit=ptx", *flags)
        entries = len(re.findall(r"^\.visible \.entry ", ptx, re.MULTILINE))
        status = "ok" if entries == expected else "MISMATCH"
        failures += entries != expected
        print(f"{status} {example.name} {variant}: report {expected}, ptx {entries}")
        if ptxas:
            with tempfile.NamedTemporaryFile("w", suffix=".ptx") as f:
                f.write(ptx.split("\n", 1)[1])  # drop the gpu.module comment
                f.flush()
                info = subprocess.run([ptxas, "-arch=sm_90", "-v", f.name, "-o", "/dev/null"],
                                      capture_output=True, text=True)
            # Each kernel's spill stores, and whether its warps shuffle.
            spills = re.findall(r"Function properties for (\w+)\s+\d+ bytes stack "
                                r"frame, (\d+) bytes spill stores", info.stderr)
            bodies = dict(re.findall(r"^\.visible \.entry (\w+)\((.*?)^}",
                                     ptx, re.MULTILINE | re.DOTALL))
            clean = info.returncode == 0 and len(spills) == entries and all(
                int(b) <= (ROW_SPILL_BYTES if "shfl.sync" in bodies.get(k, "") else 0)
                for k, b in spills)
            failures += not clean
            print(f"{'ok' if clean else 'PTXAS-FAIL'} ptxas {example.name} {variant}"
                  + ("" if clean else ": " + info.stderr.strip()))
sys.exit(1 if failures else 0)
