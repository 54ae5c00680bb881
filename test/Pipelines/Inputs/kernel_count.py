"""Checks, for every example, that the PTX has as many kernels as the report.

usage: kernel_count.py FUSE_OPT EXAMPLES_DIR
"""
import json
import pathlib
import re
import subprocess
import sys


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


fuse_opt, examples = sys.argv[1], pathlib.Path(sys.argv[2])
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
sys.exit(1 if failures else 0)
