// fuse.max and fuse.min are IEEE 754-2019 maximum and minimum
// (docs/dialect.md, "Floating point"): -0 is less than +0 in either operand
// order, and a NaN operand gives NaN (of any sign and payload). The values
// are fuse's own, pinned on the CPU target for every float type, fused and
// eager; numpy's sign of a zero result depends on its SIMD code, so it is no
// reference here. fuse-run prints the sign of a zero: `0` is +0 (all bits
// clear) and `-0` is -0 (only the sign bit set).

// RUN: fuse-run %s --target=cpu --input fill:0:1 --input fill:-0:1 | FileCheck %s --check-prefix=POS-NEG
// RUN: fuse-run %s --target=cpu --input fill:0:1 --input fill:-0:1 --fusion=off | FileCheck %s --check-prefix=POS-NEG
// RUN: fuse-run %s --target=cpu --input fill:-0:1 --input fill:0:1 | FileCheck %s --check-prefix=POS-NEG
// RUN: fuse-run %s --target=cpu --input fill:-0:1 --input fill:0:1 --fusion=off | FileCheck %s --check-prefix=POS-NEG
// POS-NEG:      result 0: float32 [1] = [0]  sum = 0
// POS-NEG-NEXT: result 1: float32 [1] = [-0]  sum = -0
// POS-NEG-NEXT: result 2: float64 [1] = [0]  sum = 0
// POS-NEG-NEXT: result 3: float64 [1] = [-0]  sum = -0
// POS-NEG-NEXT: result 4: float16 [1] = [0]  sum = 0
// POS-NEG-NEXT: result 5: float16 [1] = [-0]  sum = -0
// POS-NEG-NEXT: result 6: bfloat16 [1] = [0]  sum = 0
// POS-NEG-NEXT: result 7: bfloat16 [1] = [-0]  sum = -0

// Equal zeros give that zero.
// RUN: fuse-run %s --target=cpu --input fill:-0:1 --input fill:-0:1 | FileCheck %s --check-prefix=NEG-NEG
// RUN: fuse-run %s --target=cpu --input fill:0:1 --input fill:0:1 | FileCheck %s --check-prefix=POS-POS
// NEG-NEG-COUNT-8: result {{[0-7]}}: {{[a-z0-9]+}} [1] = [-0]
// POS-POS-COUNT-8: result {{[0-7]}}: {{[a-z0-9]+}} [1] = [0]

// NaN wins over a number, an infinity and a zero, as either operand.
// RUN: fuse-run %s --target=cpu --input fill:nan:1 --input fill:1:1 | FileCheck %s --check-prefix=NAN
// RUN: fuse-run %s --target=cpu --input fill:1:1 --input fill:nan:1 | FileCheck %s --check-prefix=NAN
// RUN: fuse-run %s --target=cpu --input fill:-inf:1 --input fill:nan:1 --fusion=off | FileCheck %s --check-prefix=NAN
// RUN: fuse-run %s --target=cpu --input fill:nan:1 --input fill:inf:1 | FileCheck %s --check-prefix=NAN
// RUN: fuse-run %s --target=cpu --input fill:-0:1 --input fill:nan:1 | FileCheck %s --check-prefix=NAN
// NAN-COUNT-8: result {{[0-7]}}: {{[a-z0-9]+}} [1] = [{{-?}}nan]

// Infinities are ordinary: max(-inf, +inf) is +inf.
// RUN: fuse-run %s --target=cpu --input fill:-inf:1 --input fill:inf:1 | FileCheck %s --check-prefix=INF
// INF:      result 0: float32 [1] = [inf]
// INF-NEXT: result 1: float32 [1] = [-inf]
// INF-NEXT: result 2: float64 [1] = [inf]
// INF-NEXT: result 3: float64 [1] = [-inf]
// INF-NEXT: result 4: float16 [1] = [inf]
// INF-NEXT: result 5: float16 [1] = [-inf]
// INF-NEXT: result 6: bfloat16 [1] = [inf]
// INF-NEXT: result 7: bfloat16 [1] = [-inf]

// The f32 results as bits, written with --output: +0 is 0x00000000, -0 is
// 0x80000000.
// RUN: fuse-run %s --target=cpu --input fill:0:1 --input fill:-0:1 --output %t.max.npy --output %t.min.npy --output %t.2 --output %t.3 --output %t.4 --output %t.5 --output %t.6 --output %t.7
// RUN: %python -c "import numpy as np, sys; print(*('%%08x' %% np.load(p).view(np.uint32)[0] for p in sys.argv[1:]))" %t.max.npy %t.min.npy | FileCheck %s --check-prefix=BITS
// BITS: 00000000 80000000

func.func @max_min(%a: tensor<?xf32>, %b: tensor<?xf32>)
    -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf64>, tensor<?xf64>,
        tensor<?xf16>, tensor<?xf16>, tensor<?xbf16>, tensor<?xbf16>) {
  %max32 = fuse.max %a, %b : tensor<?xf32>
  %min32 = fuse.min %a, %b : tensor<?xf32>
  %a64 = fuse.cast %a : tensor<?xf32> to tensor<?xf64>
  %b64 = fuse.cast %b : tensor<?xf32> to tensor<?xf64>
  %max64 = fuse.max %a64, %b64 : tensor<?xf64>
  %min64 = fuse.min %a64, %b64 : tensor<?xf64>
  %a16 = fuse.cast %a : tensor<?xf32> to tensor<?xf16>
  %b16 = fuse.cast %b : tensor<?xf32> to tensor<?xf16>
  %max16 = fuse.max %a16, %b16 : tensor<?xf16>
  %min16 = fuse.min %a16, %b16 : tensor<?xf16>
  %abf = fuse.cast %a : tensor<?xf32> to tensor<?xbf16>
  %bbf = fuse.cast %b : tensor<?xf32> to tensor<?xbf16>
  %maxbf = fuse.max %abf, %bbf : tensor<?xbf16>
  %minbf = fuse.min %abf, %bbf : tensor<?xbf16>
  return %max32, %min32, %max64, %min64, %max16, %min16, %maxbf, %minbf
      : tensor<?xf32>, tensor<?xf32>, tensor<?xf64>, tensor<?xf64>,
        tensor<?xf16>, tensor<?xf16>, tensor<?xbf16>, tensor<?xbf16>
}
