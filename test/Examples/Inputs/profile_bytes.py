"""Checks that the bytes the profile records for each launch are the bytes
the report counts for its kernel, fused and eager.

usage: profile_bytes.py FUSE_OPT FUSE_RUN PROGRAM.mlir SHAPE...
Each SHAPE (`100x100`, `100`) is an argument's; the arguments are random
f32-or-the-argument's-type data (fuse-run's rand:). Prints one line per
kernel of each variant, `fused NAME: B bytes` when the trace's bytes equal
the report's count evaluated at the shapes, `fused NAME: not launched` for
a kernel that neither launches (at a size of 0) nor should, else a line
with `differ` or `report: not launched`; then each variant's total, which
fuse.explain prints at these sizes, and the trace's."""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

# The report's sizes are read by python/fuse/_sizes.py, loaded by its path.
_spec = importlib.util.spec_from_file_location(
    "fuse_report_sizes", os.path.join(os.path.dirname(__file__), os.pardir,
                                      os.pardir, os.pardir, "python", "fuse",
                                      "_sizes.py"))
_sizes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_sizes)

fuse_opt, fuse_run, program = sys.argv[1:4]
shapes = [[int(d) for d in s.split("x")] for s in sys.argv[4:]]


report = json.loads(subprocess.run([fuse_opt, program, "--fuse-report=json"],
                                   check=True, capture_output=True, text=True).stdout)
(function,) = report["functions"]
values = _sizes.sizes_at(function, shapes)
with tempfile.TemporaryDirectory() as tmp:
    for variant, flags in (("fused", []), ("eager", ["--fusion=off"])):
        trace = os.path.join(tmp, variant + ".json")
        subprocess.run([fuse_run, program, "--target=cpu", "--trace=" + trace, *flags]
                       + [f"--input=rand:{'x'.join(map(str, s))}" for s in shapes],
                       check=True, capture_output=True)
        events = [e for e in json.load(open(trace))["traceEvents"]
                  if e.get("ph") == "X" and e.get("cat") == "kernel"]
        recorded = {e["name"]: e["args"]["bytes"] for e in events}
        for kernel in function[variant]["kernels"]:
            want = _sizes.size_at(kernel["bytes"], values)
            got = recorded.get(kernel["name"])
            if not _sizes.launched_at(kernel, values):
                print(f"{variant} {kernel['name']}: "
                      + ("not launched" if got is None else f"profile {got} bytes, report: not launched"))
            elif got == want:
                print(f"{variant} {kernel['name']}: {want} bytes")
            else:
                print(f"{variant} {kernel['name']}: profile {got} and report {want} bytes differ")
        total = _sizes.variant_bytes_at(function[variant], values)
        traced = sum(e["args"]["bytes"] for e in events)
        traced += sum(e["args"]["bytes"] for e in json.load(open(trace))["traceEvents"]
                      if e.get("ph") == "X" and e.get("cat") == "copy")
        print(f"{variant} total: report {total}, profile {traced} bytes"
              + ("" if total == traced else " differ"))
