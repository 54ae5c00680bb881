"""Prints the bits of half-precision.mlir's results, written by fuse-run as
.npy files PREFIX0.npy ... PREFIX5.npy: bf16 results come as float32 files
(numpy has no bf16) whose low 16 bits must be zero."""
import sys

import numpy as np

prefix = sys.argv[1]
for i, kind in enumerate(["bf16", "bf16", "bf16", "f16", "f16", "bf16"]):
    array = np.load(f"{prefix}{i}.npy")
    if kind == "bf16":
        assert array.dtype == np.float32, array.dtype
        words = array.view(np.uint32)
        assert not (words & 0xFFFF).any(), f"result {i} is not bf16"
        bits = words >> 16
    else:
        assert array.dtype == np.float16, array.dtype
        bits = array.view(np.uint16)
    assert (bits == bits[0]).all(), f"result {i}: {bits}"
    print(f"result {i}: {kind} bits {int(bits[0]):04x}")
