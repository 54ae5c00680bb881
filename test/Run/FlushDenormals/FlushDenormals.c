/*===- FlushDenormals.c - a library that sets FTZ and DAZ when loaded -----===*\
|*                                                                            *|
|* Loaded with LD_PRELOAD, it does to the process what a library built with   *|
|* -ffast-math (crtfastmath.o) or torch.set_flush_denormal(True) does: the    *|
|* main thread flushes subnormal results to zero (FTZ) and reads subnormal    *|
|* operands as zero (DAZ). The tests check that fuse's kernels do not.        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include <xmmintrin.h>

__attribute__((constructor)) static void flushDenormals(void) {
  _mm_setcsr(_mm_getcsr() | 0x8040);
}
