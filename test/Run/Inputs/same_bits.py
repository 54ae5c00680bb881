"""Compares .npy files pairwise, bit for bit: same_bits.py A0 B0 [A1 B1 ...].
Prints `result I: same bits (N elements)` or where the first pair of
elements differs, in hex."""
import sys

import numpy as np

paths = sys.argv[1:]
for i in range(0, len(paths), 2):
    a, b = np.load(paths[i]), np.load(paths[i + 1])
    if a.dtype != b.dtype or a.shape != b.shape:
        print(f"result {i // 2}: {a.dtype}{list(a.shape)} vs {b.dtype}{list(b.shape)}")
        continue
    words = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.itemsize]
    x, y = a.reshape(-1).view(words), b.reshape(-1).view(words)
    differ = np.flatnonzero(x != y)
    if differ.size:
        j = differ[0]
        print(f"result {i // 2}: {differ.size} elements differ, first {j}: "
              f"{int(x[j]):#x} vs {int(y[j]):#x}")
    else:
        print(f"result {i // 2}: same bits ({a.size} elements)")
