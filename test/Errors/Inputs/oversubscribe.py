#!/usr/bin/env python3
"""Runs fuse-run on two float32 inputs that each fit in the memory this
machine has available but together do not, under a 2 GiB address-space
limit so that nothing close to that size is ever touched.

    oversubscribe.py FUSE_RUN PROGRAM [ARGS...]

PROGRAM takes two `tensor<?xf32>` arguments; each gets rand:N with
N * 4 bytes = 3/4 of MemAvailable (/proc/meminfo). A fuse-run that checks
the total it needs against the memory available refuses the request before
allocating; one that does not fails at the address-space limit (without the
limit it would be killed by the kernel's OOM killer once the pages are
touched, with no message).
"""

import os
import resource
import sys


def mem_available():
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    sys.exit("oversubscribe.py: no MemAvailable in /proc/meminfo")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    fuse_run, program, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
    n = mem_available() * 3 // 4 // 4
    limit = 2 << 30
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    args = [fuse_run, program, "--target=cpu", "--input", f"rand:{n}", "--input", f"rand:{n}"]
    os.execv(fuse_run, args + rest)


if __name__ == "__main__":
    main()
