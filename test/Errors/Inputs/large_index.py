#!/usr/bin/env python3
"""Inputs and the check of large-index.test: more elements than 32-bit
indexing can address.

    large_index.py make N FILE.npy      writes a bool array of N elements,
                                        true where i % 3 == 0 or i >= N - 5
    large_index.py check N IN.npy OUT.npy
                                        checks that OUT (the program's
                                        result) is IN, element for element,
                                        and prints `ok N`

Every element is checked: an index that wrapped at 2^31 or 2^32 would put
values in the wrong places or leave the end unwritten.
"""

import sys

import numpy as np


def pattern(n):
    a = np.zeros(n, dtype=np.bool_)
    a[::3] = True
    a[-5:] = True
    return a


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "make":
        np.save(sys.argv[3], pattern(int(sys.argv[2])))
    elif len(sys.argv) == 5 and sys.argv[1] == "check":
        n = int(sys.argv[2])
        want = np.load(sys.argv[3], mmap_mode="r")
        got = np.load(sys.argv[4], mmap_mode="r")
        if got.dtype != np.bool_ or got.shape != (n,):
            sys.exit(f"result is {got.dtype} {got.shape}, expected bool ({n},)")
        step = 1 << 26
        for start in range(0, n, step):
            if not np.array_equal(got[start:start + step], want[start:start + step]):
                bad = start + int(np.argmax(got[start:start + step] != want[start:start + step]))
                sys.exit(f"element {bad}: got {bool(got[bad])}, expected {bool(want[bad])}")
        print(f"ok {n}")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
