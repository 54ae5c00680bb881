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
// A NaN k (from a NaN x) is converted as 0: fptosi of NaN is poison.
// CHECK:         %[[NAN:.+]] = arith.cmpf uno, %[[K]], %[[K]] : vector<4xf32>
// CHECK:         %[[KSAFE:.+]] = arith.select %[[NAN]], %{{.+}}, %[[K]]
// CHECK:         %[[KI:.+]] = arith.fptosi %[[KSAFE]] : vector<4xf32> to vector<4xi32>
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

// f32 log keeps subnormal inputs, scaled by 2^24 into normal numbers, in
// straight-line code: log(x 2^24) - 24 ln 2, with ln 2 in two parts.
// CHECK-LABEL: func.func @log_f32(
// CHECK-SAME:    %[[X:.+]]: vector<4xf32>
// CHECK:         %[[MIN:.+]] = arith.constant dense<1.17549435E-38> : vector<4xf32>
// CHECK:         %[[SMALL:.+]] = arith.cmpf olt, %[[X]], %[[MIN]] : vector<4xf32>
// CHECK:         %[[SCALE:.+]] = arith.constant dense<0x4B800000> : vector<4xf32>
// CHECK:         %[[SCALED:.+]] = arith.mulf %[[X]], %[[SCALE]] : vector<4xf32>
// CHECK:         %[[OPERAND:.+]] = arith.select %[[SMALL]], %[[SCALED]], %[[X]]
// CHECK-NOT:     scf.if
// CHECK-NOT:     call
// CHECK:         %[[HI:.+]] = arith.constant dense<16.635498> : vector<4xf32>
// CHECK:         %[[A:.+]] = arith.subf %[[LOG:.+]], %[[HI]] : vector<4xf32>
// CHECK:         %[[LO:.+]] = arith.constant dense<3.42865642E-5> : vector<4xf32>
// CHECK:         %[[B:.+]] = arith.subf %[[A]], %[[LO]] : vector<4xf32>
// CHECK:         %[[Y:.+]] = arith.select %[[SMALL]], %[[B]], %[[LOG]]
// CHECK-NOT:     scf.if
// CHECK:         return %[[Y]]
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

// f32 sin and cos are computed in f64 and rounded once; only lanes beyond
// 2^20, inf and NaN take the C library, in a branch, one lane at a time in
// a loop (one call in the code, whatever the vector's width).
// CHECK-LABEL: func.func @sin_f32(
// CHECK-SAME:    %[[X:.+]]: vector<4xf32>
// CHECK:         %[[XD:.+]] = arith.extf %[[X]] : vector<4xf32> to vector<4xf64>
// CHECK:         math.roundeven
// CHECK:         %[[R:.+]] = arith.truncf %{{.+}} : vector<4xf64> to vector<4xf32>
// CHECK:         %[[FAST:.+]] = arith.select %{{.+}}, %[[X]], %[[R]]
// CHECK:         %[[ABS:.+]] = math.absf %[[X]]
// CHECK:         %[[OUT:.+]] = arith.cmpf ugt, %[[ABS]], %{{.+}} : vector<4xf32>
// CHECK:         %[[ANY:.+]] = vector.reduction <or>, %[[OUT]]
// CHECK:         scf.if %[[ANY]]
// CHECK:           scf.for %[[LANE:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %[[FAST]])
// CHECK-NEXT:        %[[RARE:.+]] = vector.extract %[[OUT]][%[[LANE]]] : i1 from vector<4xi1>
// CHECK-NEXT:        scf.if %[[RARE]]
// CHECK-NEXT:          %[[XI:.+]] = vector.extract %[[X]][%[[LANE]]] : f32 from vector<4xf32>
// CHECK-NEXT:          %[[SI:.+]] = func.call @sinf(%[[XI]]) : (f32) -> f32
// CHECK-NEXT:          vector.insert %[[SI]], %[[ACC]] [%[[LANE]]]
// CHECK-NEXT:          scf.yield
// CHECK-NEXT:        } else {
// CHECK-NEXT:          scf.yield %[[ACC]]
// CHECK-NOT:     call @sinf
// CHECK:         } else {
// CHECK-NEXT:      scf.yield %[[FAST]]
func.func @sin_f32(%x: vector<4xf32>) -> vector<4xf32> {
  %0 = math.sin %x : vector<4xf32>
  return %0 : vector<4xf32>
}

// f32 pow too, with exp(y log |x|) in f64; inf and NaN operands, 0^0 and
// results far out of range take the C library.
// CHECK-LABEL: func.func @pow_f32(
// CHECK-SAME:    %[[X:.+]]: vector<4xf32>, %[[Y:.+]]: vector<4xf32>
// CHECK-DAG:     arith.extf %[[X]] : vector<4xf32> to vector<4xf64>
// CHECK-DAG:     arith.extf %[[Y]] : vector<4xf32> to vector<4xf64>
// CHECK:         arith.divf %{{.+}} : vector<4xf64>
// CHECK:         %[[FAST:.+]] = arith.truncf %{{.+}} : vector<4xf64> to vector<4xf32>
// CHECK:         %[[ANY:.+]] = vector.reduction <or>
// CHECK:         scf.if %[[ANY]]
// CHECK:             call @powf
// CHECK-NOT:         call @powf
// CHECK:           scf.yield %[[FAST]]
func.func @pow_f32(%x: vector<4xf32>, %y: vector<4xf32>) -> vector<4xf32> {
  %0 = math.powf %x, %y : vector<4xf32>
  return %0 : vector<4xf32>
}

// f64 exp, log, tanh, sin and cos are straight-line code too (exp with the
// same two-step scale, log with a select for subnormal inputs, sin and cos
// with the C library only beyond 2^19 pi). Without polynomials, every function is the C library's.
// CHECK-LABEL: func.func @exp_f64(
// CHECK-NOT:     call
// CHECK:         math.roundeven
// CHECK:         arith.shrsi
// CHECK-NOT:     call
// CHECK:         return
// CALLS-LABEL: func.func @exp_f32(
// CALLS:         call @expf
// CALLS-LABEL: func.func @exp_f64(
// CALLS:         call @exp(
func.func @exp_f64(%x: vector<4xf64>) -> vector<4xf64> {
  %0 = math.exp %x : vector<4xf64>
  return %0 : vector<4xf64>
}

// CHECK-LABEL: func.func @log_tanh_f64(
// CHECK-NOT:     call
// CHECK-NOT:     scf.if
// CHECK:         return
func.func @log_tanh_f64(%x: vector<4xf64>) -> vector<4xf64> {
  %0 = math.log %x : vector<4xf64>
  %1 = math.tanh %0 : vector<4xf64>
  return %1 : vector<4xf64>
}

// CHECK-LABEL: func.func @sin_f64(
// CHECK-SAME:    %[[X:.+]]: vector<4xf64>
// CHECK:         math.roundeven
// CHECK:         %[[ABS:.+]] = math.absf %[[X]]
// CHECK:         %[[OUT:.+]] = arith.cmpf ugt, %[[ABS]], %{{.+}} : vector<4xf64>
// CHECK:         scf.if
// CHECK:             call @sin(
// CHECK-NOT:         call @sin(
// CHECK:         } else {
func.func @sin_f64(%x: vector<4xf64>) -> vector<4xf64> {
  %0 = math.sin %x : vector<4xf64>
  return %0 : vector<4xf64>
}

// f64 erf computes its four ranges and selects one per lane: no branch,
// no call; two exps (of -z^2 - 0.5625 and of the rest) for erfc.
// CHECK-LABEL: func.func @erf_f64(
// CHECK-SAME:    %[[X:.+]]: vector<4xf64>
// CHECK-NOT:     scf.if
// CHECK-NOT:     call
// CHECK-COUNT-2: math.roundeven
// CHECK-NOT:     math.roundeven
// CHECK:         %[[SIGNED:.+]] = math.copysign %{{.+}}, %[[X]] : vector<4xf64>
// CHECK:         %[[R:.+]] = arith.select %{{.+}}, %{{.+}}, %[[SIGNED]]
// CHECK-NOT:     call
// CHECK:         return %[[R]]
// CALLS-LABEL: func.func @erf_f64(
// CALLS:         call @erf(
func.func @erf_f64(%x: vector<4xf64>) -> vector<4xf64> {
  %0 = math.erf %x : vector<4xf64>
  return %0 : vector<4xf64>
}

// f64 pow is straight-line code on ordinary lanes (fdlibm's log2 in two
// parts, one division for s and one for exp's rational form); inf and NaN
// operands, 0^0 and |y| > 2^31 take the C library in a branch.
// CHECK-LABEL: func.func @pow_f64(
// CHECK-SAME:    %[[X:.+]]: vector<4xf64>, %[[Y:.+]]: vector<4xf64>
// CHECK-NOT:     call
// CHECK-COUNT-2: arith.divf
// CHECK-NOT:     arith.divf
// CHECK:         %[[ANY:.+]] = vector.reduction <or>
// CHECK:         scf.if %[[ANY]]
// CHECK:             call @pow(
// CHECK-NOT:         call @pow(
// CHECK:         } else {
// CALLS-LABEL: func.func @pow_f64(
// CALLS:         call @pow(
func.func @pow_f64(%x: vector<4xf64>, %y: vector<4xf64>) -> vector<4xf64> {
  %0 = math.powf %x, %y : vector<4xf64>
  return %0 : vector<4xf64>
}

// expm1 and log1p compute in f64, f32 extended first and the result rounded
// once: straight-line code, no branch and no call. expm1 reduces by ln 2
// (a roundeven) and builds 2^k from k; log1p is the log of 1 + x (its
// exponent and mantissa split) plus the correction (x - (u - 1)) / u.
// CHECK-LABEL: func.func @expm1_log1p_f32(
// CHECK-SAME:    %[[X:.+]]: vector<4xf32>
// CHECK-NOT:     scf.if
// CHECK-NOT:     call
// CHECK:         %[[E:.+]] = arith.extf %[[X]] : vector<4xf32> to vector<4xf64>
// CHECK:         math.roundeven
// CHECK:         arith.shli
// CHECK:         %[[EXPM1:.+]] = arith.truncf %{{.+}} : vector<4xf64> to vector<4xf32>
// CHECK:         %[[L:.+]] = arith.extf %[[EXPM1]] : vector<4xf32> to vector<4xf64>
// CHECK:         %[[U:.+]] = arith.addf %[[L]], %[[ONE:.+]] : vector<4xf64>
// CHECK:         %[[US:.+]] = arith.select %{{.+}}, %[[U]], %[[ONE]]
// CHECK:         %[[UM1:.+]] = arith.subf %[[US]], %[[ONE]]
// CHECK:         %[[C:.+]] = arith.subf %[[L]], %[[UM1]]
// CHECK:         arith.divf %[[C]], %[[US]]
// CHECK:         arith.shrui
// CHECK:         arith.truncf %{{.+}} : vector<4xf64> to vector<4xf32>
// CHECK-NOT:     call
// CHECK:         return
// CALLS-LABEL: func.func @expm1_log1p_f32(
// CALLS:         call @expm1f
// CALLS:         call @log1pf
func.func @expm1_log1p_f32(%x: vector<4xf32>) -> vector<4xf32> {
  %0 = math.expm1 %x : vector<4xf32>
  %1 = math.log1p %0 : vector<4xf32>
  return %1 : vector<4xf32>
}

// CHECK-LABEL: func.func @expm1_log1p_f64(
// CHECK-NOT:     arith.extf
// CHECK-NOT:     call
// CHECK-NOT:     arith.truncf
// CHECK:         return
func.func @expm1_log1p_f64(%x: vector<4xf64>) -> vector<4xf64> {
  %0 = math.expm1 %x : vector<4xf64>
  %1 = math.log1p %0 : vector<4xf64>
  return %1 : vector<4xf64>
}
