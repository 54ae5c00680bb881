// RUN: fuse-opt %s --fuse-math-to-libm=polynomials=true | FileCheck %s
// RUN: fuse-opt %s --fuse-math-to-libm | FileCheck %s --check-prefix=CALLS

// f32 exp is straight-line code, with no branch for subnormal results: the
// scale 2^k is applied as 2^k1 * 2^k2 (k1 = k >> 1), both normal numbers,
// so the result rounds once into the subnormals.
// CHECK-LABEL: func.func @exp_f32(
// CHECK-SAME:    %[[X:.+]]: vector<4xf32>
// CHECK-NOT:     scf.if
// CHECK-NOT:     call
// CHECK:         %[[LOW:.+]] = arith.cmpf olt, %[[X]], %{{.+}} : vector<4xf32>
// CHECK:         %[[K:.+]] = math.floor
// CHECK:         %[[KI:.+]] = arith.fptosi %[[K]] : vector<4xf32> to vector<4xi32>
// CHECK:         %[[K1:.+]] = arith.shrsi %[[KI]], %{{.+}} : vector<4xi32>
// CHECK:         %[[K2:.+]] = arith.subi %[[KI]], %[[K1]] : vector<4xi32>
// CHECK:         %[[E1:.+]] = arith.addi %[[K1]],
// CHECK:         %[[S1:.+]] = arith.bitcast %{{.+}} : vector<4xi32> to vector<4xf32>
// CHECK:         %[[Y1:.+]] = arith.mulf %{{.+}}, %[[S1]] : vector<4xf32>
// CHECK:         %[[E2:.+]] = arith.addi %[[K2]],
// CHECK:         %[[S2:.+]] = arith.bitcast %{{.+}} : vector<4xi32> to vector<4xf32>
// CHECK:         %[[Y:.+]] = arith.mulf %[[Y1]], %[[S2]] : vector<4xf32>
// CHECK-NOT:     scf.if
// CHECK:         return %[[Y]]
func.func @exp_f32(%x: vector<4xf32>) -> vector<4xf32> {
  %0 = math.exp %x : vector<4xf32>
  return %0 : vector<4xf32>
}

// f32 log keeps subnormal inputs in a branch that ordinary vectors skip.
// CHECK-LABEL: func.func @log_f32(
// CHECK:         %[[SMALL:.+]] = arith.cmpf olt, %{{.+}}, %{{.+}} : vector<4xf32>
// CHECK:         %[[ANY:.+]] = vector.reduction <or>, %[[SMALL]]
// CHECK:         scf.if %[[ANY]] -> (vector<4xf32>)
// CHECK-NOT:     call
// CHECK:         return
func.func @log_f32(%x: vector<4xf32>) -> vector<4xf32> {
  %0 = math.log %x : vector<4xf32>
  return %0 : vector<4xf32>
}

// erf is odd: its sign is the operand's, -0 included.
// CHECK-LABEL: func.func @erf_f32(
// CHECK-SAME:    %[[X:.+]]: vector<4xf32>
// CHECK:         %[[R:.+]] = math.copysign %{{.+}}, %[[X]] : vector<4xf32>
// CHECK:         return %[[R]]
func.func @erf_f32(%x: vector<4xf32>) -> vector<4xf32> {
  %0 = math.erf %x : vector<4xf32>
  return %0 : vector<4xf32>
}

// Without polynomials, and for f64, the C library's functions.
// CALLS-LABEL: func.func @exp_f32(
// CALLS:         call @expf
// CHECK-LABEL: func.func @exp_f64(
// CHECK:         call @exp(
// CALLS-LABEL: func.func @exp_f64(
// CALLS:         call @exp(
func.func @exp_f64(%x: f64) -> f64 {
  %0 = math.exp %x : f64
  return %0 : f64
}
