#!/usr/bin/env python3
"""Writes .npy fixtures with real numpy, for checking fuse's .npy reader.

    make_npy.py OUTDIR        writes the fixtures below into OUTDIR
    make_npy.py --c-array     prints the file numpy writes for a (3, 4) float32
                              array of 0..11 as a C array (pasted into
                              unittests/NpyTest.cpp)

Readable fixtures: one per supported dtype (float16 float32 float64 int32 int64
bool), the same float32 array with 2.0 and 3.0 headers, a 0-d array, a
zero-size array and a Fortran-order array (read into C order); a bool array
whose bytes are 1, 0, 1, 2 (numpy reads any nonzero byte as True: the
reader makes it 1), and a float32 array whose descr has no byte order
('f4', which numpy reads as native). Fixtures the reader must reject:
big-endian, complex64, a truncated file and a corrupt magic.
"""

import io
import os
import sys

import numpy as np


def numpy_bytes(array, version=None):
    f = io.BytesIO()
    np.lib.format.write_array(f, array, version=version)
    return f.getvalue()


def fixtures():
    base = np.arange(12).reshape(3, 4)
    for dtype in ["float16", "float32", "float64", "int32", "int64"]:
        yield dtype, numpy_bytes((base - 5).astype(dtype))
    yield "bool", numpy_bytes(base % 3 == 0)
    yield "float32_v2", numpy_bytes(base.astype(np.float32), version=(2, 0))
    yield "float32_v3", numpy_bytes(base.astype(np.float32), version=(3, 0))
    yield "scalar_0d", numpy_bytes(np.array(2.5))
    yield "empty", numpy_bytes(np.zeros((0, 3), np.float32))
    yield "fortran", numpy_bytes(np.asfortranarray(base.astype(np.float32)))
    yield "bool_bytes", numpy_bytes(np.frombuffer(bytes([1, 0, 1, 2]), np.bool_).reshape(2, 2))
    # numpy's character code of bool, which np.load reads (np.dtype('?')).
    yield "bool_code", numpy_bytes(np.array([[True, False], [False, True]])).replace(
        b"'descr': '|b1'", b"'descr': '?'  ")
    unordered = numpy_bytes(base.astype(np.float32))
    yield "unordered_f4", unordered.replace(b"'descr': '<f4'", b"'descr': 'f4' ")
    yield "bigendian", numpy_bytes(base.astype(">f4"))
    yield "complex64", numpy_bytes(base.astype(np.complex64))
    yield "truncated", numpy_bytes(base.astype(np.float32))[:-5]
    yield "badmagic", b"\x93NUMPZ" + numpy_bytes(base.astype(np.float32))[6:]


def print_c_array(data):
    print(f"// {len(data)} bytes: np.save of np.arange(12, dtype=np.float32)"
          f".reshape(3, 4), numpy {np.__version__}")
    for i in range(0, len(data), 12):
        print("    " + " ".join(f"0x{b:02x}," for b in data[i:i + 12]))


def main():
    if sys.argv[1:] == ["--c-array"]:
        print_c_array(numpy_bytes(np.arange(12, dtype=np.float32).reshape(3, 4)))
        return
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    os.makedirs(sys.argv[1], exist_ok=True)
    for name, data in fixtures():
        with open(os.path.join(sys.argv[1], name + ".npy"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
