// Shifts by a variable amount on the emulated GPU are PTX's: an amount of
// the register width or more shifts every bit out, where x86 would take it
// modulo the width. libdevice's pow tests whether y is an odd integer by
// shifting y's bits left by its exponent plus 11: 704 for y = 3.8e208, an
// even integer, which must give +inf for a negative base as on a GPU and
// the CPU target (x86's shift by 704 mod 64 = 0 made it -inf); 63 for
// y = 2^53 - 1, an odd one (-inf).
// REQUIRES: fakecuda
// RUN: env FUSE_LIBCUDA=%fakecuda fuse-run %s --target=cuda --input fill:-1.5:5 --input fill:3.7987943378728619e208:5 | FileCheck %s --check-prefix=EVEN
// RUN: fuse-run %s --target=cpu --input fill:-1.5:5 --input fill:3.7987943378728619e208:5 | FileCheck %s --check-prefix=EVEN
// RUN: env FUSE_LIBCUDA=%fakecuda fuse-run %s --target=cuda --input fill:-1.5:5 --input fill:9007199254740991:5 | FileCheck %s --check-prefix=ODD
// EVEN: result 0: float64 [5] = [inf, inf, inf, inf, inf]  sum = inf
// ODD: result 0: float64 [5] = [-inf, -inf, -inf, -inf, -inf]  sum = -inf

func.func @power(%a: tensor<?xf64>, %b: tensor<?xf64>) -> tensor<?xf64> {
  %r = fuse.pow %a, %b : tensor<?xf64>
  return %r : tensor<?xf64>
}
