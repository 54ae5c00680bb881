// RUN: fuse-opt %s --convert-fuse-to-linalg | FileCheck %s

// The scalar body of every op, as docs/dialect.md defines it: one case per
// op (and per element type where the body differs). f16 and bf16 compute in
// f32 and round once; f64 computes in f64.

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @neg_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = arith.negf %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @neg_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.neg %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Integer neg is 0 - x, which wraps for INT_MIN.
// CHECK-LABEL: func @neg_i32
// CHECK: ^bb0(%[[X:.+]]: i32, %{{.+}}: i32):
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[R:.+]] = arith.subi %[[ZERO]], %[[X]] : i32
// CHECK-NEXT: linalg.yield %[[R]] : i32
func.func @neg_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = fuse.neg %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func @abs_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.absf %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @abs_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.abs %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @abs_i64
// CHECK: ^bb0(%[[X:.+]]: i64, %{{.+}}: i64):
// CHECK-NEXT: %[[R:.+]] = math.absi %[[X]] : i64
// CHECK-NEXT: linalg.yield %[[R]] : i64
func.func @abs_i64(%x: tensor<4xi64>) -> tensor<4xi64> {
  %0 = fuse.abs %x : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// Float relu propagates NaN: maximumf, not maxnumf.
// CHECK-LABEL: func @relu_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[R:.+]] = arith.maximumf %[[X]], %[[ZERO]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @relu_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.relu %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @relu_i32
// CHECK: ^bb0(%[[X:.+]]: i32, %{{.+}}: i32):
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[R:.+]] = arith.maxsi %[[X]], %[[ZERO]] : i32
// CHECK-NEXT: linalg.yield %[[R]] : i32
func.func @relu_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = fuse.relu %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func @floor_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.floor %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @floor_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.floor %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// floor and ceil leave integers unchanged.
// CHECK-LABEL: func @floor_i32
// CHECK: ^bb0(%[[X:.+]]: i32, %{{.+}}: i32):
// CHECK-NEXT: linalg.yield %[[X]] : i32
func.func @floor_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = fuse.floor %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func @ceil_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.ceil %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @ceil_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.ceil %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @ceil_i64
// CHECK: ^bb0(%[[X:.+]]: i64, %{{.+}}: i64):
// CHECK-NEXT: linalg.yield %[[X]] : i64
func.func @ceil_i64(%x: tensor<4xi64>) -> tensor<4xi64> {
  %0 = fuse.ceil %x : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// CHECK-LABEL: func @exp_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.exp %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @exp_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// bf16 is widened to f32, computed, and rounded once.
// CHECK-LABEL: func @exp_bf16
// CHECK: ^bb0(%[[X:.+]]: bf16, %{{.+}}: bf16):
// CHECK-NEXT: %[[W:.+]] = arith.extf %[[X]] : bf16 to f32
// CHECK-NEXT: %[[E:.+]] = math.exp %[[W]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.truncf %[[E]] : f32 to bf16
// CHECK-NEXT: linalg.yield %[[R]] : bf16
func.func @exp_bf16(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  %0 = fuse.exp %x : tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// CHECK-LABEL: func @log_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.log %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @log_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.log %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @sqrt_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.sqrt %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @sqrt_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.sqrt %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// f64 computes in f64: no extf/truncf.
// CHECK-LABEL: func @sqrt_f64
// CHECK: ^bb0(%[[X:.+]]: f64, %{{.+}}: f64):
// CHECK-NEXT: %[[R:.+]] = math.sqrt %[[X]] : f64
// CHECK-NEXT: linalg.yield %[[R]] : f64
func.func @sqrt_f64(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = fuse.sqrt %x : tensor<4xf64>
  return %0 : tensor<4xf64>
}

// CHECK-LABEL: func @rsqrt_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.rsqrt %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @rsqrt_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.rsqrt %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @tanh_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.tanh %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @tanh_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.tanh %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// sigmoid(x) = 1 / (1 + e^-x), its f32 division marked `afn` (the GPU's
// approximate reciprocal, test/Pipelines/gpu-sigmoid.mlir).
// CHECK-LABEL: func @sigmoid_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[NEG:.+]] = arith.negf %[[X]] : f32
// CHECK-NEXT: %[[EXP:.+]] = math.exp %[[NEG]] : f32
// CHECK-NEXT: %[[DEN:.+]] = arith.addf %[[ONE]], %[[EXP]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.divf %[[ONE]], %[[DEN]] fastmath<afn> : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @sigmoid_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.sigmoid %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// silu(x) = x * sigmoid(x)
// CHECK-LABEL: func @silu_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[NEG:.+]] = arith.negf %[[X]] : f32
// CHECK-NEXT: %[[EXP:.+]] = math.exp %[[NEG]] : f32
// CHECK-NEXT: %[[DEN:.+]] = arith.addf %[[ONE]], %[[EXP]] : f32
// CHECK-NEXT: %[[SIG:.+]] = arith.divf %[[ONE]], %[[DEN]] fastmath<afn> : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[X]], %[[SIG]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @silu_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.silu %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @sin_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.sin %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @sin_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.sin %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @cos_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.cos %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @cos_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.cos %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @erf_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.erf %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @erf_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.erf %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @reciprocal_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[R:.+]] = arith.divf %[[ONE]], %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @reciprocal_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.reciprocal %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Exact gelu: x * 0.5 * (1 + erf(x / sqrt(2))).
// CHECK-LABEL: func @gelu_none_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[HALF:.+]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[RSQRT2:.+]] = arith.constant 0.707106769 : f32
// CHECK-NEXT: %[[S:.+]] = arith.mulf %[[X]], %[[RSQRT2]] : f32
// CHECK-NEXT: %[[ERF:.+]] = math.erf %[[S]] : f32
// CHECK-NEXT: %[[HX:.+]] = arith.mulf %[[X]], %[[HALF]] : f32
// CHECK-NEXT: %[[P:.+]] = arith.addf %[[ONE]], %[[ERF]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[HX]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @gelu_none_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.gelu %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Tanh gelu: 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))),
// evaluated in f32 for f16 data.
// CHECK-LABEL: func @gelu_tanh_f16
// CHECK: ^bb0(%[[IN:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT: %[[X:.+]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT: %[[HALF:.+]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[SQ:.+]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT: %[[CUBE:.+]] = arith.mulf %[[X]], %[[SQ]] : f32
// CHECK-NEXT: %[[K:.+]] = arith.constant 4.471500e-02 : f32
// CHECK-NEXT: %[[KC:.+]] = arith.mulf %[[K]], %[[CUBE]] : f32
// CHECK-NEXT: %[[POLY:.+]] = arith.addf %[[X]], %[[KC]] : f32
// CHECK-NEXT: %[[C:.+]] = arith.constant 0.797884583 : f32
// CHECK-NEXT: %[[SC:.+]] = arith.mulf %[[C]], %[[POLY]] : f32
// CHECK-NEXT: %[[T:.+]] = math.tanh %[[SC]] : f32
// CHECK-NEXT: %[[HX:.+]] = arith.mulf %[[X]], %[[HALF]] : f32
// CHECK-NEXT: %[[P:.+]] = arith.addf %[[ONE]], %[[T]] : f32
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[HX]], %[[P]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.truncf %[[M]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[R]] : f16
func.func @gelu_tanh_f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = fuse.gelu %x {approximate = "tanh"} : tensor<4xf16>
  return %0 : tensor<4xf16>
}

// clamp = min(max(x, min), max), NaN-propagating on floats.
// CHECK-LABEL: func @clamp_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[LO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[A:.+]] = arith.maximumf %[[X]], %[[LO]] : f32
// CHECK-NEXT: %[[HI:.+]] = arith.constant 6.000000e+00 : f32
// CHECK-NEXT: %[[R:.+]] = arith.minimumf %[[A]], %[[HI]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @clamp_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.clamp %x {min = 0.0 : f32, max = 6.0 : f32} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// f16 bounds become f32 constants.
// CHECK-LABEL: func @clamp_f16
// CHECK: ^bb0(%[[IN:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT: %[[X:.+]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT: %[[LO:.+]] = arith.constant -1.000000e+00 : f32
// CHECK-NEXT: %[[A:.+]] = arith.maximumf %[[X]], %[[LO]] : f32
// CHECK-NEXT: %[[HI:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[B:.+]] = arith.minimumf %[[A]], %[[HI]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.truncf %[[B]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[R]] : f16
func.func @clamp_f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = fuse.clamp %x {min = -1.0 : f16, max = 1.0 : f16} : tensor<4xf16>
  return %0 : tensor<4xf16>
}

// Only the bounds given are applied.
// CHECK-LABEL: func @clamp_min_i32
// CHECK: ^bb0(%[[X:.+]]: i32, %{{.+}}: i32):
// CHECK-NEXT: %[[LO:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[R:.+]] = arith.maxsi %[[X]], %[[LO]] : i32
// CHECK-NEXT: linalg.yield %[[R]] : i32
func.func @clamp_min_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = fuse.clamp %x {min = 0 : i32} : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func @clamp_max_i64
// CHECK: ^bb0(%[[X:.+]]: i64, %{{.+}}: i64):
// CHECK-NEXT: %[[HI:.+]] = arith.constant 255 : i64
// CHECK-NEXT: %[[R:.+]] = arith.minsi %[[X]], %[[HI]] : i64
// CHECK-NEXT: linalg.yield %[[R]] : i64
func.func @clamp_max_i64(%x: tensor<4xi64>) -> tensor<4xi64> {
  %0 = fuse.clamp %x {max = 255 : i64} : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// A bound of another integer type is its value as that type reads it:
// `200 : ui8` is 200 (it was -56), `-5 : si8` is -5.
// CHECK-LABEL: func @clamp_unsigned_bound
// CHECK: ^bb0(%[[X:.+]]: i32, %{{.+}}: i32):
// CHECK-NEXT: %[[LO:.+]] = arith.constant -5 : i32
// CHECK-NEXT: %[[A:.+]] = arith.maxsi %[[X]], %[[LO]] : i32
// CHECK-NEXT: %[[HI:.+]] = arith.constant 200 : i32
// CHECK-NEXT: %[[R:.+]] = arith.minsi %[[A]], %[[HI]] : i32
func.func @clamp_unsigned_bound(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = fuse.clamp %x {min = -5 : si8, max = 200 : ui8} : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// leaky_relu: x if x > 0, else alpha * x (as PyTorch: with a negative alpha,
// -0 for +0); alpha defaults to 0.01.
// CHECK-LABEL: func @leaky_relu_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[ALPHA:.+]] = arith.constant 0.00999999977 : f32
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[GT:.+]] = arith.cmpf ogt, %[[X]], %[[ZERO]] : f32
// CHECK-NEXT: %[[AX:.+]] = arith.mulf %[[ALPHA]], %[[X]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.select %[[GT]], %[[X]], %[[AX]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @leaky_relu_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.leaky_relu %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @leaky_relu_alpha_f16
// CHECK: ^bb0(%[[IN:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT: %[[X:.+]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT: %[[ALPHA:.+]] = arith.constant 2.000000e-01 : f32
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[GT:.+]] = arith.cmpf ogt, %[[X]], %[[ZERO]] : f32
// CHECK-NEXT: %[[AX:.+]] = arith.mulf %[[ALPHA]], %[[X]] : f32
// CHECK-NEXT: %[[S:.+]] = arith.select %[[GT]], %[[X]], %[[AX]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.truncf %[[S]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[R]] : f16
func.func @leaky_relu_alpha_f16(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = fuse.leaky_relu %x {alpha = 2.000000e-01 : f32} : tensor<4xf16>
  return %0 : tensor<4xf16>
}

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @add_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @add_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.add %x, %y : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @add_i32
// CHECK: ^bb0(%[[X:.+]]: i32, %[[Y:.+]]: i32, %{{.+}}: i32):
// CHECK-NEXT: %[[R:.+]] = arith.addi %[[X]], %[[Y]] : i32
// CHECK-NEXT: linalg.yield %[[R]] : i32
func.func @add_i32(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %0 = fuse.add %x, %y : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// Both operands are widened.
// CHECK-LABEL: func @add_f16
// CHECK: ^bb0(%[[X:.+]]: f16, %[[Y:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT: %[[WX:.+]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT: %[[WY:.+]] = arith.extf %[[Y]] : f16 to f32
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[WX]], %[[WY]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.truncf %[[S]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[R]] : f16
func.func @add_f16(%x: tensor<4xf16>, %y: tensor<4xf16>) -> tensor<4xf16> {
  %0 = fuse.add %x, %y : tensor<4xf16>
  return %0 : tensor<4xf16>
}

// CHECK-LABEL: func @sub_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = arith.subf %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @sub_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.sub %x, %y : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @sub_i64
// CHECK: ^bb0(%[[X:.+]]: i64, %[[Y:.+]]: i64, %{{.+}}: i64):
// CHECK-NEXT: %[[R:.+]] = arith.subi %[[X]], %[[Y]] : i64
// CHECK-NEXT: linalg.yield %[[R]] : i64
func.func @sub_i64(%x: tensor<4xi64>, %y: tensor<4xi64>) -> tensor<4xi64> {
  %0 = fuse.sub %x, %y : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// CHECK-LABEL: func @mul_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @mul_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.mul %x, %y : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @mul_i32
// CHECK: ^bb0(%[[X:.+]]: i32, %[[Y:.+]]: i32, %{{.+}}: i32):
// CHECK-NEXT: %[[R:.+]] = arith.muli %[[X]], %[[Y]] : i32
// CHECK-NEXT: linalg.yield %[[R]] : i32
func.func @mul_i32(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %0 = fuse.mul %x, %y : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// Float division is IEEE.
// CHECK-LABEL: func @div_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = arith.divf %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @div_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.div %x, %y : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Integer division truncates, never divides by 0 or -1: x / 0 is 0 and
// x / -1 is 0 - x (INT_MIN / -1 wraps to INT_MIN).
// CHECK-LABEL: func @div_i32
// CHECK: ^bb0(%[[X:.+]]: i32, %[[Y:.+]]: i32, %{{.+}}: i32):
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[MONE:.+]] = arith.constant -1 : i32
// CHECK-NEXT: %[[ISZERO:.+]] = arith.cmpi eq, %[[Y]], %[[ZERO]] : i32
// CHECK-NEXT: %[[ISMONE:.+]] = arith.cmpi eq, %[[Y]], %[[MONE]] : i32
// CHECK-NEXT: %[[UNSAFE:.+]] = arith.ori %[[ISZERO]], %[[ISMONE]] : i1
// CHECK-NEXT: %[[DIVISOR:.+]] = arith.select %[[UNSAFE]], %[[ONE]], %[[Y]] : i32
// CHECK-NEXT: %[[Q:.+]] = arith.divsi %[[X]], %[[DIVISOR]] : i32
// CHECK-NEXT: %[[NEG:.+]] = arith.subi %[[ZERO]], %[[X]] : i32
// CHECK-NEXT: %[[SPECIAL:.+]] = arith.select %[[ISZERO]], %[[ZERO]], %[[NEG]] : i32
// CHECK-NEXT: %[[R:.+]] = arith.select %[[UNSAFE]], %[[SPECIAL]], %[[Q]] : i32
// CHECK-NEXT: linalg.yield %[[R]] : i32
func.func @div_i32(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %0 = fuse.div %x, %y : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// max and min propagate NaN on floats.
// CHECK-LABEL: func @max_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = arith.maximumf %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @max_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.max %x, %y : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @max_i32
// CHECK: ^bb0(%[[X:.+]]: i32, %[[Y:.+]]: i32, %{{.+}}: i32):
// CHECK-NEXT: %[[R:.+]] = arith.maxsi %[[X]], %[[Y]] : i32
// CHECK-NEXT: linalg.yield %[[R]] : i32
func.func @max_i32(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %0 = fuse.max %x, %y : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func @min_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = arith.minimumf %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @min_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.min %x, %y : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @min_i64
// CHECK: ^bb0(%[[X:.+]]: i64, %[[Y:.+]]: i64, %{{.+}}: i64):
// CHECK-NEXT: %[[R:.+]] = arith.minsi %[[X]], %[[Y]] : i64
// CHECK-NEXT: linalg.yield %[[R]] : i64
func.func @min_i64(%x: tensor<4xi64>, %y: tensor<4xi64>) -> tensor<4xi64> {
  %0 = fuse.min %x, %y : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// CHECK-LABEL: func @pow_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = math.powf %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @pow_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.pow %x, %y : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// A constant exponent of 2 is x * x (the correctly rounded square, as
// numpy's x ** 2), in the compute type for f16; 3 is x * x * x in f64 (an
// f32 x's square exact there), rounded to f32; 0.5 is sqrt(x) + 0 (pow's
// +0 for -0), +inf for -inf; -0.5 one over that in f64; -1 is 1 / x; 1.5
// stays pow.

// CHECK-LABEL: func @pow_two
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %{{.+}} = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK: ^bb0(%[[H:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT: %{{.+}} = arith.constant 2.000000e+00 : f16
// CHECK-NEXT: %[[W:.+]] = arith.extf %[[H]] : f16 to f32
// CHECK-NEXT: %{{.+}} = arith.extf
// CHECK-NEXT: %[[S:.+]] = arith.mulf %[[W]], %[[W]] : f32
// CHECK-NEXT: %[[T:.+]] = arith.truncf %[[S]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[T]] : f16
// CHECK: ^bb0(%[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %{{.+}} = arith.constant 3.000000e+00 : f32
// CHECK-NEXT: %[[V:.+]] = arith.extf %[[Y]] : f32 to f64
// CHECK-NEXT: %[[SQ:.+]] = arith.mulf %[[V]], %[[V]] : f64
// CHECK-NEXT: %[[CUBE:.+]] = arith.mulf %[[SQ]], %[[V]] : f64
// CHECK-NEXT: %[[C:.+]] = arith.truncf %[[CUBE]] : f64 to f32
// CHECK-NEXT: linalg.yield %[[C]] : f32
// CHECK: ^bb0(%[[Z:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %{{.+}} = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[INF:.+]] = arith.constant 0x7F800000 : f32
// CHECK-NEXT: %[[ROOT:.+]] = math.sqrt %[[Z]] : f32
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[PLUS:.+]] = arith.addf %[[ROOT]], %[[ZERO]] : f32
// CHECK-NEXT: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[IS:.+]] = arith.cmpf oeq, %[[Z]], %[[NEGINF]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.select %[[IS]], %[[INF]], %[[PLUS]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
// CHECK: ^bb0(%[[Q:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[QV:.+]] = arith.extf %[[Q]] : f32 to f64
// CHECK: math.sqrt %[[QV]] : f64
// CHECK: %[[RQ:.+]] = arith.divf %{{.+}}, %{{.+}} : f64
// CHECK-NEXT: arith.truncf %[[RQ]] : f64 to f32
// CHECK: ^bb0(%[[I:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %{{.+}} = arith.constant -1.000000e+00 : f32
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[INV:.+]] = arith.divf %[[ONE]], %[[I]] : f32
// CHECK-NEXT: linalg.yield %[[INV]] : f32
// CHECK: ^bb0(%[[W:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[POW:.+]] = arith.constant 1.500000e+00 : f32
// CHECK-NEXT: %{{.+}} = math.powf %[[W]], %[[POW]] : f32
func.func @pow_two(%x: tensor<4xf32>, %h: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %two = fuse.constant 2.0 : tensor<f32>
  %0 = fuse.pow %x, %two : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %htwo = fuse.constant 2.0 : tensor<f16>
  %1 = fuse.pow %h, %htwo : tensor<4xf16>, tensor<f16> -> tensor<4xf16>
  %three = fuse.constant 3.0 : tensor<f32>
  %2 = fuse.pow %x, %three : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %half = fuse.constant 0.5 : tensor<f32>
  %3 = fuse.pow %x, %half : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %mhalf = fuse.constant -0.5 : tensor<f32>
  %4 = fuse.pow %x, %mhalf : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %mone = fuse.constant -1.0 : tensor<f32>
  %5 = fuse.pow %x, %mone : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %other = fuse.constant 1.5 : tensor<f32>
  %6 = fuse.pow %x, %other : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<4xf32>, tensor<4xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// Integer pow squares over each of the 31 value bits of the exponent (no
// loop), then a negative exponent gives 1 for base 1, +-1 for base -1 (odd
// exponent: -1) and 0 otherwise.
// CHECK-LABEL: func @pow_i32
// CHECK: ^bb0(%[[B:.+]]: i32, %[[E:.+]]: i32, %{{.+}}: i32):
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[MONE:.+]] = arith.constant -1 : i32
// CHECK-NEXT: %[[LOW:.+]] = arith.andi %[[E]], %[[ONE]] : i32
// CHECK-NEXT: %[[SET:.+]] = arith.cmpi ne, %[[LOW]], %[[ZERO]] : i32
// CHECK-NEXT: %[[PROD:.+]] = arith.muli %[[ONE]], %[[B]] : i32
// CHECK-NEXT: %[[ACC:.+]] = arith.select %[[SET]], %[[PROD]], %[[ONE]] : i32
// CHECK-NEXT: %[[SQ:.+]] = arith.muli %[[B]], %[[B]] : i32
// CHECK-NEXT: %[[REST:.+]] = arith.shrui %[[E]], %[[ONE]] : i32
// CHECK-COUNT-30: arith.shrui
// CHECK-NOT: arith.shrui
// CHECK: %[[ODDBIT:.+]] = arith.andi %[[E]], %[[ONE]] : i32
// CHECK-NEXT: %[[ODD:.+]] = arith.cmpi ne, %[[ODDBIT]], %[[ZERO]] : i32
// CHECK-NEXT: %[[ISONE:.+]] = arith.cmpi eq, %[[B]], %[[ONE]] : i32
// CHECK-NEXT: %[[ISMONE:.+]] = arith.cmpi eq, %[[B]], %[[MONE]] : i32
// CHECK-NEXT: %[[SIGN:.+]] = arith.select %[[ODD]], %[[MONE]], %[[ONE]] : i32
// CHECK-NEXT: %[[M1:.+]] = arith.select %[[ISMONE]], %[[SIGN]], %[[ZERO]] : i32
// CHECK-NEXT: %[[NEGEXP:.+]] = arith.select %[[ISONE]], %[[ONE]], %[[M1]] : i32
// CHECK-NEXT: %[[ISNEG:.+]] = arith.cmpi slt, %[[E]], %[[ZERO]] : i32
// CHECK-NEXT: %[[R:.+]] = arith.select %[[ISNEG]], %[[NEGEXP]], %{{.+}} : i32
// CHECK-NEXT: linalg.yield %[[R]] : i32
func.func @pow_i32(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %0 = fuse.pow %x, %y : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// 63 value bits for i64.
// CHECK-LABEL: func @pow_i64
// CHECK-COUNT-63: arith.shrui {{.*}} : i64
// CHECK-NOT: arith.shrui
// CHECK: arith.cmpi slt
// CHECK: linalg.yield
func.func @pow_i64(%x: tensor<4xi64>, %y: tensor<4xi64>) -> tensor<4xi64> {
  %0 = fuse.pow %x, %y : tensor<4xi64>
  return %0 : tensor<4xi64>
}

//===----------------------------------------------------------------------===//
// cmp: ordered float predicates except ne (unordered), signed integers,
// unsigned i1 (false < true).
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @cmp_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: i1):
// CHECK-NEXT: %[[R:.+]] = arith.cmpf oeq, %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : i1
// CHECK: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: i1):
// CHECK-NEXT: %[[R:.+]] = arith.cmpf une, %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : i1
// CHECK: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: i1):
// CHECK-NEXT: %[[R:.+]] = arith.cmpf olt, %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : i1
// CHECK: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: i1):
// CHECK-NEXT: %[[R:.+]] = arith.cmpf ole, %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : i1
// CHECK: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: i1):
// CHECK-NEXT: %[[R:.+]] = arith.cmpf ogt, %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : i1
// CHECK: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: i1):
// CHECK-NEXT: %[[R:.+]] = arith.cmpf oge, %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : i1
func.func @cmp_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = fuse.cmp eq, %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  %1 = fuse.cmp ne, %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  %2 = fuse.cmp lt, %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  %3 = fuse.cmp le, %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  %4 = fuse.cmp gt, %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  %5 = fuse.cmp ge, %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// bf16 compares in f32; the i1 result needs no rounding.
// CHECK-LABEL: func @cmp_bf16
// CHECK: ^bb0(%[[X:.+]]: bf16, %[[Y:.+]]: bf16, %{{.+}}: i1):
// CHECK-NEXT: %[[WX:.+]] = arith.extf %[[X]] : bf16 to f32
// CHECK-NEXT: %[[WY:.+]] = arith.extf %[[Y]] : bf16 to f32
// CHECK-NEXT: %[[R:.+]] = arith.cmpf une, %[[WX]], %[[WY]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : i1
func.func @cmp_bf16(%x: tensor<4xbf16>, %y: tensor<4xbf16>) -> tensor<4xi1> {
  %0 = fuse.cmp ne, %x, %y : tensor<4xbf16>, tensor<4xbf16> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func @cmp_i32
// CHECK: ^bb0(%[[X:.+]]: i32, %[[Y:.+]]: i32, %{{.+}}: i1):
// CHECK-NEXT: %[[R:.+]] = arith.cmpi eq, %[[X]], %[[Y]] : i32
// CHECK-NEXT: linalg.yield %[[R]] : i1
// CHECK: ^bb0(%[[X:.+]]: i32, %[[Y:.+]]: i32, %{{.+}}: i1):
// CHECK-NEXT: %[[R:.+]] = arith.cmpi ne, %[[X]], %[[Y]] : i32
// CHECK-NEXT: linalg.yield %[[R]] : i1
// CHECK: ^bb0(%[[X:.+]]: i32, %[[Y:.+]]: i32, %{{.+}}: i1):
// CHECK-NEXT: %[[R:.+]] = arith.cmpi slt, %[[X]], %[[Y]] : i32
// CHECK-NEXT: linalg.yield %[[R]] : i1
// CHECK: ^bb0(%[[X:.+]]: i32, %[[Y:.+]]: i32, %{{.+}}: i1):
// CHECK-NEXT: %[[R:.+]] = arith.cmpi sle, %[[X]], %[[Y]] : i32
// CHECK-NEXT: linalg.yield %[[R]] : i1
// CHECK: ^bb0(%[[X:.+]]: i32, %[[Y:.+]]: i32, %{{.+}}: i1):
// CHECK-NEXT: %[[R:.+]] = arith.cmpi sgt, %[[X]], %[[Y]] : i32
// CHECK-NEXT: linalg.yield %[[R]] : i1
// CHECK: ^bb0(%[[X:.+]]: i32, %[[Y:.+]]: i32, %{{.+}}: i1):
// CHECK-NEXT: %[[R:.+]] = arith.cmpi sge, %[[X]], %[[Y]] : i32
// CHECK-NEXT: linalg.yield %[[R]] : i1
func.func @cmp_i32(%x: tensor<4xi32>, %y: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = fuse.cmp eq, %x, %y : tensor<4xi32>, tensor<4xi32> -> tensor<4xi1>
  %1 = fuse.cmp ne, %x, %y : tensor<4xi32>, tensor<4xi32> -> tensor<4xi1>
  %2 = fuse.cmp lt, %x, %y : tensor<4xi32>, tensor<4xi32> -> tensor<4xi1>
  %3 = fuse.cmp le, %x, %y : tensor<4xi32>, tensor<4xi32> -> tensor<4xi1>
  %4 = fuse.cmp gt, %x, %y : tensor<4xi32>, tensor<4xi32> -> tensor<4xi1>
  %5 = fuse.cmp ge, %x, %y : tensor<4xi32>, tensor<4xi32> -> tensor<4xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// CHECK-LABEL: func @cmp_i1
// CHECK: ^bb0(%[[X:.+]]: i1, %[[Y:.+]]: i1, %{{.+}}: i1):
// CHECK-NEXT: %[[R:.+]] = arith.cmpi eq, %[[X]], %[[Y]] : i1
// CHECK-NEXT: linalg.yield %[[R]] : i1
// CHECK: ^bb0(%[[X:.+]]: i1, %[[Y:.+]]: i1, %{{.+}}: i1):
// CHECK-NEXT: %[[R:.+]] = arith.cmpi ne, %[[X]], %[[Y]] : i1
// CHECK-NEXT: linalg.yield %[[R]] : i1
// CHECK: ^bb0(%[[X:.+]]: i1, %[[Y:.+]]: i1, %{{.+}}: i1):
// CHECK-NEXT: %[[R:.+]] = arith.cmpi ult, %[[X]], %[[Y]] : i1
// CHECK-NEXT: linalg.yield %[[R]] : i1
// CHECK: ^bb0(%[[X:.+]]: i1, %[[Y:.+]]: i1, %{{.+}}: i1):
// CHECK-NEXT: %[[R:.+]] = arith.cmpi ule, %[[X]], %[[Y]] : i1
// CHECK-NEXT: linalg.yield %[[R]] : i1
// CHECK: ^bb0(%[[X:.+]]: i1, %[[Y:.+]]: i1, %{{.+}}: i1):
// CHECK-NEXT: %[[R:.+]] = arith.cmpi ugt, %[[X]], %[[Y]] : i1
// CHECK-NEXT: linalg.yield %[[R]] : i1
// CHECK: ^bb0(%[[X:.+]]: i1, %[[Y:.+]]: i1, %{{.+}}: i1):
// CHECK-NEXT: %[[R:.+]] = arith.cmpi uge, %[[X]], %[[Y]] : i1
// CHECK-NEXT: linalg.yield %[[R]] : i1
func.func @cmp_i1(%x: tensor<4xi1>, %y: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = fuse.cmp eq, %x, %y : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  %1 = fuse.cmp ne, %x, %y : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  %2 = fuse.cmp lt, %x, %y : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  %3 = fuse.cmp le, %x, %y : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  %4 = fuse.cmp gt, %x, %y : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  %5 = fuse.cmp ge, %x, %y : tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

//===----------------------------------------------------------------------===//
// select: no widening, whatever the element type.
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @select_f16
// CHECK: ^bb0(%[[C:.+]]: i1, %[[X:.+]]: f16, %[[Y:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT: %[[R:.+]] = arith.select %[[C]], %[[X]], %[[Y]] : f16
// CHECK-NEXT: linalg.yield %[[R]] : f16
func.func @select_f16(%c: tensor<4xi1>, %x: tensor<4xf16>, %y: tensor<4xf16>) -> tensor<4xf16> {
  %0 = fuse.select %c, %x, %y : tensor<4xi1>, tensor<4xf16>, tensor<4xf16> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// CHECK-LABEL: func @select_i1
// CHECK: ^bb0(%[[C:.+]]: i1, %[[X:.+]]: i1, %[[Y:.+]]: i1, %{{.+}}: i1):
// CHECK-NEXT: %[[R:.+]] = arith.select %[[C]], %[[X]], %[[Y]] : i1
// CHECK-NEXT: linalg.yield %[[R]] : i1
func.func @select_i1(%c: tensor<4xi1>, %x: tensor<4xi1>, %y: tensor<4xi1>) -> tensor<4xi1> {
  %0 = fuse.select %c, %x, %y : tensor<4xi1>, tensor<4xi1>, tensor<4xi1> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

//===----------------------------------------------------------------------===//
// cast: each kind of conversion, directly (one rounding), f16 <-> bf16
// through f32 (exact widening).
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @cast_same_type
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: linalg.yield %[[X]] : f32
func.func @cast_same_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.cast %x : tensor<4xf32> to tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @cast_f32_to_f16
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f16):
// CHECK-NEXT: %[[R:.+]] = arith.truncf %[[X]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[R]] : f16
func.func @cast_f32_to_f16(%x: tensor<4xf32>) -> tensor<4xf16> {
  %0 = fuse.cast %x : tensor<4xf32> to tensor<4xf16>
  return %0 : tensor<4xf16>
}

// f64 -> f16 rounds once, not through f32.
// CHECK-LABEL: func @cast_f64_to_f16
// CHECK: ^bb0(%[[X:.+]]: f64, %{{.+}}: f16):
// CHECK-NEXT: %[[R:.+]] = arith.truncf %[[X]] : f64 to f16
// CHECK-NEXT: linalg.yield %[[R]] : f16
func.func @cast_f64_to_f16(%x: tensor<4xf64>) -> tensor<4xf16> {
  %0 = fuse.cast %x : tensor<4xf64> to tensor<4xf16>
  return %0 : tensor<4xf16>
}

// CHECK-LABEL: func @cast_f16_to_f64
// CHECK: ^bb0(%[[X:.+]]: f16, %{{.+}}: f64):
// CHECK-NEXT: %[[R:.+]] = arith.extf %[[X]] : f16 to f64
// CHECK-NEXT: linalg.yield %[[R]] : f64
func.func @cast_f16_to_f64(%x: tensor<4xf16>) -> tensor<4xf64> {
  %0 = fuse.cast %x : tensor<4xf16> to tensor<4xf64>
  return %0 : tensor<4xf64>
}

// CHECK-LABEL: func @cast_f16_to_bf16
// CHECK: ^bb0(%[[X:.+]]: f16, %{{.+}}: bf16):
// CHECK-NEXT: %[[W:.+]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT: %[[R:.+]] = arith.truncf %[[W]] : f32 to bf16
// CHECK-NEXT: linalg.yield %[[R]] : bf16
func.func @cast_f16_to_bf16(%x: tensor<4xf16>) -> tensor<4xbf16> {
  %0 = fuse.cast %x : tensor<4xf16> to tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// CHECK-LABEL: func @cast_bf16_to_f16
// CHECK: ^bb0(%[[X:.+]]: bf16, %{{.+}}: f16):
// CHECK-NEXT: %[[W:.+]] = arith.extf %[[X]] : bf16 to f32
// CHECK-NEXT: %[[R:.+]] = arith.truncf %[[W]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[R]] : f16
func.func @cast_bf16_to_f16(%x: tensor<4xbf16>) -> tensor<4xf16> {
  %0 = fuse.cast %x : tensor<4xbf16> to tensor<4xf16>
  return %0 : tensor<4xf16>
}

// Float to integer truncates toward zero, saturating: NaN is 0, past
// +-2^31 the largest or smallest i32 (fptosi alone is poison there).
// CHECK-LABEL: func @cast_f32_to_i32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: i32):
// CHECK-NEXT: %[[NAN:.+]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-NEXT: %[[BOUND:.+]] = arith.constant 2.14748365E+9 : f32
// CHECK-NEXT: %[[ABOVE:.+]] = arith.cmpf oge, %[[X]], %[[BOUND]] : f32
// CHECK-NEXT: %[[LOW:.+]] = arith.constant -2.14748365E+9 : f32
// CHECK-NEXT: %[[BELOW:.+]] = arith.cmpf olt, %[[X]], %[[LOW]] : f32
// CHECK-NEXT: %[[OUT:.+]] = arith.ori %[[ABOVE]], %[[BELOW]] : i1
// CHECK-NEXT: %[[BAD:.+]] = arith.ori %[[NAN]], %[[OUT]] : i1
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[SAFE:.+]] = arith.select %[[BAD]], %[[ZERO]], %[[X]] : f32
// CHECK-NEXT: %[[T:.+]] = arith.fptosi %[[SAFE]] : f32 to i32
// CHECK-NEXT: %[[MAX:.+]] = arith.constant 2147483647 : i32
// CHECK-NEXT: %[[HIGH:.+]] = arith.select %[[ABOVE]], %[[MAX]], %[[T]] : i32
// CHECK-NEXT: %[[MIN:.+]] = arith.constant -2147483648 : i32
// CHECK-NEXT: %[[R:.+]] = arith.select %[[BELOW]], %[[MIN]], %[[HIGH]] : i32
// CHECK-NEXT: linalg.yield %[[R]] : i32
func.func @cast_f32_to_i32(%x: tensor<4xf32>) -> tensor<4xi32> {
  %0 = fuse.cast %x : tensor<4xf32> to tensor<4xi32>
  return %0 : tensor<4xi32>
}

// f16 has no 2^31: only -inf is below an i32's range (f16 to i32, with
// <=); bf16 has 2^63.
// CHECK-LABEL: func @cast_f16_to_i32
// CHECK: ^bb0(%[[X:.+]]: f16, %{{.+}}: i32):
// CHECK: arith.cmpf oge, %[[X]], %{{.+}} : f16
// CHECK-NEXT: %[[NINF:.+]] = arith.constant 0xFC00 : f16
// CHECK-NEXT: arith.cmpf ole, %[[X]], %[[NINF]] : f16
func.func @cast_f16_to_i32(%x: tensor<4xf16>) -> tensor<4xi32> {
  %0 = fuse.cast %x : tensor<4xf16> to tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func @cast_bf16_to_i64
// CHECK: ^bb0(%[[X:.+]]: bf16, %{{.+}}: i64):
// CHECK: %[[LOW:.+]] = arith.constant -9.223370e+18 : bf16
// CHECK-NEXT: arith.cmpf olt, %[[X]], %[[LOW]] : bf16
// CHECK: arith.fptosi %{{.+}} : bf16 to i64
// CHECK: arith.select
// CHECK: %[[R:.+]] = arith.select
// CHECK-NEXT: linalg.yield %[[R]] : i64
func.func @cast_bf16_to_i64(%x: tensor<4xbf16>) -> tensor<4xi64> {
  %0 = fuse.cast %x : tensor<4xbf16> to tensor<4xi64>
  return %0 : tensor<4xi64>
}

// Signed integer to float, rounding once (straight to f16).
// CHECK-LABEL: func @cast_i32_to_f16
// CHECK: ^bb0(%[[X:.+]]: i32, %{{.+}}: f16):
// CHECK-NEXT: %[[R:.+]] = arith.sitofp %[[X]] : i32 to f16
// CHECK-NEXT: linalg.yield %[[R]] : f16
func.func @cast_i32_to_f16(%x: tensor<4xi32>) -> tensor<4xf16> {
  %0 = fuse.cast %x : tensor<4xi32> to tensor<4xf16>
  return %0 : tensor<4xf16>
}

// CHECK-LABEL: func @cast_i32_to_i64
// CHECK: ^bb0(%[[X:.+]]: i32, %{{.+}}: i64):
// CHECK-NEXT: %[[R:.+]] = arith.extsi %[[X]] : i32 to i64
// CHECK-NEXT: linalg.yield %[[R]] : i64
func.func @cast_i32_to_i64(%x: tensor<4xi32>) -> tensor<4xi64> {
  %0 = fuse.cast %x : tensor<4xi32> to tensor<4xi64>
  return %0 : tensor<4xi64>
}

// CHECK-LABEL: func @cast_i64_to_i32
// CHECK: ^bb0(%[[X:.+]]: i64, %{{.+}}: i32):
// CHECK-NEXT: %[[R:.+]] = arith.trunci %[[X]] : i64 to i32
// CHECK-NEXT: linalg.yield %[[R]] : i32
func.func @cast_i64_to_i32(%x: tensor<4xi64>) -> tensor<4xi32> {
  %0 = fuse.cast %x : tensor<4xi64> to tensor<4xi32>
  return %0 : tensor<4xi32>
}

// Anything to i1 is x != 0; for floats unordered, so NaN gives true.
// CHECK-LABEL: func @cast_f32_to_i1
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: i1):
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[R:.+]] = arith.cmpf une, %[[X]], %[[ZERO]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : i1
func.func @cast_f32_to_i1(%x: tensor<4xf32>) -> tensor<4xi1> {
  %0 = fuse.cast %x : tensor<4xf32> to tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func @cast_f16_to_i1
// CHECK: ^bb0(%[[X:.+]]: f16, %{{.+}}: i1):
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT: %[[R:.+]] = arith.cmpf une, %[[X]], %[[ZERO]] : f16
// CHECK-NEXT: linalg.yield %[[R]] : i1
func.func @cast_f16_to_i1(%x: tensor<4xf16>) -> tensor<4xi1> {
  %0 = fuse.cast %x : tensor<4xf16> to tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func @cast_i64_to_i1
// CHECK: ^bb0(%[[X:.+]]: i64, %{{.+}}: i1):
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK-NEXT: %[[R:.+]] = arith.cmpi ne, %[[X]], %[[ZERO]] : i64
// CHECK-NEXT: linalg.yield %[[R]] : i1
func.func @cast_i64_to_i1(%x: tensor<4xi64>) -> tensor<4xi1> {
  %0 = fuse.cast %x : tensor<4xi64> to tensor<4xi1>
  return %0 : tensor<4xi1>
}

// i1 converts as 0 or 1, unsigned.
// CHECK-LABEL: func @cast_i1_to_f32
// CHECK: ^bb0(%[[X:.+]]: i1, %{{.+}}: f32):
// CHECK-NEXT: %[[R:.+]] = arith.uitofp %[[X]] : i1 to f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @cast_i1_to_f32(%x: tensor<4xi1>) -> tensor<4xf32> {
  %0 = fuse.cast %x : tensor<4xi1> to tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @cast_i1_to_i32
// CHECK: ^bb0(%[[X:.+]]: i1, %{{.+}}: i32):
// CHECK-NEXT: %[[R:.+]] = arith.extui %[[X]] : i1 to i32
// CHECK-NEXT: linalg.yield %[[R]] : i32
func.func @cast_i1_to_i32(%x: tensor<4xi1>) -> tensor<4xi32> {
  %0 = fuse.cast %x : tensor<4xi1> to tensor<4xi32>
  return %0 : tensor<4xi32>
}
