#!/usr/bin/env python3
"""Prints what `fuse-run examples/add_relu.mlir --input rand:N --input rand:N
--seed SEED` must print, computed with numpy.

usage: add_relu_expected.py N SEED

fuse-run's rand: inputs of an f32 argument are std::mt19937_64(SEED) drawn
through std::uniform_real_distribution<double>(-1, 1), argument after
argument, each value rounded to float32. With libstdc++ one draw x (64 bits)
gives -1 + 2 * (double(x) / 2^64) (generate_canonical; a result of 1.0 becomes
the largest double below 1). This script implements mt19937_64 (vectorized
with numpy) and checks it against the C++ standard's reference value first.

The result line is `relu(a + b)` in float32, its first 8 values as %.6g and
the sum of all values in float64, added in order, as %.9g.
"""

import sys

import numpy as np

N, M = 312, 156
MATRIX_A = np.uint64(0xB5026F5AA96619E9)
UPPER, LOWER = np.uint64(0xFFFFFFFF80000000), np.uint64(0x7FFFFFFF)
ONE = np.uint64(1)


def mt19937_64(seed, count):
    state = [seed & (2 ** 64 - 1)]
    for i in range(1, N):
        prev = state[-1]
        state.append((6364136223846793005 * (prev ^ (prev >> 62)) + i)
                     & (2 ** 64 - 1))
    mt = np.array(state, np.uint64)

    def twisted(current, following, far):
        y = (current & UPPER) | (following & LOWER)
        return far ^ (y >> ONE) ^ ((y & ONE) * MATRIX_A)

    blocks = []
    for _ in range(-(-count // N)):
        # In place in the reference: the first N-M words read only old
        # words, the next ones read words of this twist already updated.
        mt[:N - M] = twisted(mt[:N - M], mt[1:N - M + 1], mt[M:])
        mt[N - M:N - 1] = twisted(mt[N - M:N - 1], mt[N - M + 1:],
                                  mt[:M - 1])
        mt[N - 1] = twisted(mt[N - 1:], mt[:1], mt[M - 1:M])[0]
        blocks.append(mt.copy())
    y = np.concatenate(blocks)[:count]
    y ^= (y >> np.uint64(29)) & np.uint64(0x5555555555555555)
    y ^= (y << np.uint64(17)) & np.uint64(0x71D67FFFEDA60000)
    y ^= (y << np.uint64(37)) & np.uint64(0xFFF7EEE000000000)
    y ^= y >> np.uint64(43)
    return y


def uniform(bits):
    canonical = bits.astype(np.float64) / 2.0 ** 64
    canonical[canonical >= 1] = np.nextafter(1.0, 0.0)
    return canonical * 2.0 + -1.0


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    n, seed = int(sys.argv[1]), int(sys.argv[2])
    # [rand.predef]: the 10000th output of a default-constructed mt19937_64.
    assert mt19937_64(5489, 10000)[-1] == 9981545732273789042
    # A draw that rounds to 1 in float32 (from 1 - 2^-25) is drawn again:
    # the draws that are kept, in order, with a few to spare.
    draws = uniform(mt19937_64(seed, 2 * n + 64))
    values = draws[draws < 1.0 - 2.0 ** -25][:2 * n].astype(np.float32)
    assert values.size == 2 * n
    a, b = values[:n], values[n:]
    c = np.maximum(a + b, np.float32(0))
    shown = ", ".join("%.6g" % v for v in c[:8]) + (", ..." if n > 8 else "")
    total = np.cumsum(c.astype(np.float64))[-1] if n else 0.0
    print("result 0: float32 [%d] = [%s]  sum = %.9g" % (n, shown, total))


if __name__ == "__main__":
    main()
