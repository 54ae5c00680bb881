#!/usr/bin/env python3
"""Writes corrupt .npy files that fuse-run must reject with a message, for
test/Errors/catalog.test (the fixtures of test/Runtime/Inputs/make_npy.py
cover truncated data, a bad magic, Fortran order, big-endian and complex).

    make_bad_npy.py OUTDIR

Each file starts from what numpy writes for a (3, 4) float32 array and
breaks one thing:

    header_past_end  the header length says 60000 bytes; the file is 176
    header_not_dict  the header is a Python list, not a dict
    shape_negative   'shape': (-3, 4)
    shape_huge       'shape': (2**62,): more than 2^63 - 1 bytes
    version_9        format version 9.0
    empty            a file of 0 bytes
"""

import io
import os
import sys

import numpy as np


def numpy_bytes(array):
    f = io.BytesIO()
    np.lib.format.write_array(f, array, version=(1, 0))
    return f.getvalue()


def fixtures():
    good = numpy_bytes(np.arange(12, dtype=np.float32).reshape(3, 4))
    header_len = int.from_bytes(good[8:10], "little")
    header = good[10:10 + header_len].decode("latin1")
    data = good[10 + header_len:]

    def with_header(text):
        # Padded to the original length, so only the changed field differs.
        text = text.ljust(header_len - 1) + "\n"
        return good[:10] + text.encode("latin1") + data

    yield "header_past_end", good[:8] + (60000).to_bytes(2, "little") + good[10:]
    yield "header_not_dict", with_header("[3, 4]")
    yield "shape_negative", with_header(header.replace("(3, 4)", "(-3, 4)").rstrip())
    yield "shape_huge", with_header(header.replace("(3, 4)", "(%d,)" % 2**62).rstrip())
    yield "version_9", good[:6] + b"\x09\x00" + good[8:]
    # A header of 2^40 floats over 48 bytes of data: refused as truncated
    # before anything is allocated (it said it could not allocate 4 TB; a
    # header of 3e9 took 12 GB and 18 s to be refused).
    yield "shape_past_data", with_header(header.replace("(3, 4)", "(%d,)" % 2**40).rstrip())
    # Sizes numpy refuses ("array is too big"), one of them 0.
    yield "shape_zero_huge", with_header(header.replace("(3, 4)", "(0, %d)" % 2**62).rstrip())
    # numpy's np.savez: a zip archive.
    yield "archive", b"PK\x03\x04" + bytes(60)
    yield "empty", b""


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    os.makedirs(sys.argv[1], exist_ok=True)
    for name, data in fixtures():
        with open(os.path.join(sys.argv[1], name + ".npy"), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
