"""Runs fuse-run with an .npy on its standard input that the writer follows
with zeros until fuse-run stops reading: fuse-run must read what the header
says and run (it read until memory ran out). Prints fuse-run's output and
its exit status."""

import io
import subprocess
import sys

import numpy as np

fuse_run, program = sys.argv[1], sys.argv[2]
npy = io.BytesIO()
np.save(npy, np.arange(3, dtype=np.float32))
process = subprocess.Popen(
    [fuse_run, program, "--target=cpu", "--input=/dev/stdin", "--input=fill:1:3"],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
try:
    process.stdin.write(npy.getvalue())
    zeros = bytes(1 << 16)
    for _ in range(1 << 16):  # 4 GiB at most
        process.stdin.write(zeros)
except BrokenPipeError:
    pass
try:
    process.stdin.close()
except BrokenPipeError:
    pass
print(process.stdout.read().decode(), end="")
print(f"exit {process.wait()}")
