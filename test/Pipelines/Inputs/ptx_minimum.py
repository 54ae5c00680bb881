"""Checks fuse's table of the oldest PTX version of each GPU architecture
(minPTXVersion in lib/Pipelines/Pipelines.cpp, a copy of LLVM's private
one) against LLVM's NVPTX back end, for every chip LLVM knows: asked for
PTX 3.2, fuse-opt refuses a chip that needs more and names the minimum;
given that minimum, LLVM emits the PTX (an older one than LLVM takes would
be a fatal error, which ends the process); the version just below it is
refused by fuse. Where that minimum is older than PTX 6.0 (sm_30 to
sm_62), fuse refuses it too, since its reductions' warp shuffles need 6.0:
there fuse's minimum is 6.0, the PTX that `auto` gives. Prints one line
per chip (fuse's minimum) and a summary.

  ptx_minimum.py FUSE_OPT PROGRAM.mlir
"""
import re
import subprocess
import sys

fuse_opt, program = sys.argv[1], sys.argv[2]


def run(*flags):
    return subprocess.run([fuse_opt, program, "--emit=ptx", *flags],
                          capture_output=True, text=True)


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


listing = run("--chip=sm_bogus").stderr
chips = re.search(r"it knows (.*)$", listing, re.M).group(1).split(", ")
features = run("--ptx-features=+bogus").stderr
versions = sorted(int(v) for v in re.findall(r"\bptx(\d+)\b", features))
if len(chips) < 20 or len(versions) < 20:
    fail(f"could not read LLVM's chips and PTX versions: {listing} {features}")

for chip in chips:
    oldest = run(f"--chip={chip}", f"--ptx-features=+ptx{versions[0]}")
    if oldest.returncode == 0 or "warp shuffles" in oldest.stderr:
        minimum = versions[0]
    else:
        found = re.search(r"LLVM emits PTX \d+\.\d+ \(\+ptx(\d+)\) or later",
                          oldest.stderr)
        if not found:
            fail(f"{chip}: {oldest.stderr.strip()}")
        minimum = int(found.group(1))
    shuffles = run(f"--chip={chip}", f"--ptx-features=+ptx{minimum}")
    if "(shfl.sync), which need PTX 6.0 (+ptx60) or later" in shuffles.stderr:
        if minimum >= 60:
            fail(f"{chip}: +ptx{minimum} refused for shuffles")
        auto = run(f"--chip={chip}")
        if auto.returncode != 0 or ".version 6.0" not in auto.stdout:
            fail(f"{chip}: auto does not give PTX 6.0: {auto.stderr.strip()[:300]}")
        minimum = 60
    at = run(f"--chip={chip}", f"--ptx-features=+ptx{minimum}")
    version = f".version {minimum // 10}.{minimum % 10}"
    if at.returncode != 0 or version not in at.stdout:
        fail(f"{chip} with +ptx{minimum}: rc {at.returncode}, "
             f"{at.stderr.strip()[:300]}")
    older = [v for v in versions if v < minimum]
    if older:
        below = run(f"--chip={chip}", f"--ptx-features=+ptx{older[-1]}")
        if below.returncode == 0 or "or later" not in below.stderr:
            fail(f"{chip} with +ptx{older[-1]}: not refused by fuse: "
                 f"{below.stderr.strip()[:300]}")
    print(f"{chip}: PTX {minimum // 10}.{minimum % 10}")
print(f"{len(chips)} chips checked")
