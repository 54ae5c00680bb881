// RUN: fuse-opt %s --fuse-math-to-libm=polynomials=true | FileCheck %s
// RUN: fuse-opt %s --fuse-math-to-libm | FileCheck %s --check-prefix=GPU

// On the cpu target (polynomials), f32 <-> bf16 are integer arithmetic on
// the whole vector, the bits of LLVM's own expansion: x86 without
// AVX512-BF16 expanded a vector's conversion lane by lane, and a bf16 pow
// of 128 lanes took seconds in LLVM's scheduler (a 45-op bf16 program did
// not compile in 300 s). Rounded to nearest even; a NaN keeps its sign and
// the top of its payload, made quiet.
// CHECK-LABEL: func.func @truncf(
// CHECK-SAME:    %[[X:.+]]: vector<128xf32>
// CHECK-NOT:     arith.truncf
// CHECK-DAG:     %[[QUIETBIT:.+]] = arith.constant dense<4194304> : vector<128xi32>
// CHECK-DAG:     %[[SIXTEEN:.+]] = arith.constant dense<16> : vector<128xi32>
// CHECK-DAG:     %[[ONE:.+]] = arith.constant dense<1> : vector<128xi32>
// CHECK-DAG:     %[[BIAS:.+]] = arith.constant dense<32767> : vector<128xi32>
// CHECK:         %[[BITS:.+]] = arith.bitcast %[[X]] : vector<128xf32> to vector<128xi32>
// CHECK-NEXT:    %[[NAN:.+]] = arith.cmpf uno, %[[X]], %[[X]] : vector<128xf32>
// CHECK-NEXT:    %[[QUIET:.+]] = arith.ori %[[BITS]], %[[QUIETBIT]] : vector<128xi32>
// CHECK-NEXT:    %[[SHIFTED:.+]] = arith.shrui %[[BITS]], %[[SIXTEEN]] : vector<128xi32>
// CHECK-NEXT:    %[[LSB:.+]] = arith.andi %[[SHIFTED]], %[[ONE]] : vector<128xi32>
// CHECK-NEXT:    %[[ROUNDING:.+]] = arith.addi %[[LSB]], %[[BIAS]] : vector<128xi32>
// CHECK-NEXT:    %[[ROUNDED:.+]] = arith.addi %[[BITS]], %[[ROUNDING]] : vector<128xi32>
// CHECK-NEXT:    %[[CHOSEN:.+]] = arith.select %[[NAN]], %[[QUIET]], %[[ROUNDED]] : vector<128xi1>, vector<128xi32>
// CHECK-NEXT:    %[[HIGH:.+]] = arith.shrui %[[CHOSEN]], %[[SIXTEEN]] : vector<128xi32>
// CHECK-NEXT:    %[[HALF:.+]] = arith.trunci %[[HIGH]] : vector<128xi32> to vector<128xi16>
// CHECK-NEXT:    %[[R:.+]] = arith.bitcast %[[HALF]] : vector<128xi16> to vector<128xbf16>
// CHECK-NEXT:    return %[[R]]
// GPU-LABEL: func.func @truncf(
// GPU:         arith.truncf %{{.+}} : vector<128xf32> to vector<128xbf16>
func.func @truncf(%x: vector<128xf32>) -> vector<128xbf16> {
  %0 = arith.truncf %x : vector<128xf32> to vector<128xbf16>
  return %0 : vector<128xbf16>
}

// CHECK-LABEL: func.func @extf(
// CHECK-SAME:    %[[X:.+]]: bf16
// CHECK-NOT:     arith.extf
// CHECK:         %[[SIXTEEN:.+]] = arith.constant 16 : i32
// CHECK-NEXT:    %[[HALF:.+]] = arith.bitcast %[[X]] : bf16 to i16
// CHECK-NEXT:    %[[WIDE:.+]] = arith.extui %[[HALF]] : i16 to i32
// CHECK-NEXT:    %[[SHIFTED:.+]] = arith.shli %[[WIDE]], %[[SIXTEEN]] : i32
// CHECK-NEXT:    %[[R:.+]] = arith.bitcast %[[SHIFTED]] : i32 to f32
// CHECK-NEXT:    return %[[R]]
func.func @extf(%x: bf16) -> f32 {
  %0 = arith.extf %x : bf16 to f32
  return %0 : f32
}

// Other conversions are LLVM's (f16 has F16C's instructions; f64 to bf16
// rounds once, as LLVM does it).
// CHECK-LABEL: func.func @others(
// CHECK:         arith.truncf %{{.+}} : vector<8xf32> to vector<8xf16>
// CHECK:         arith.truncf %{{.+}} : vector<8xf64> to vector<8xbf16>
func.func @others(%x: vector<8xf32>, %y: vector<8xf64>) -> (vector<8xf16>, vector<8xbf16>) {
  %0 = arith.truncf %x : vector<8xf32> to vector<8xf16>
  %1 = arith.truncf %y : vector<8xf64> to vector<8xbf16>
  return %0, %1 : vector<8xf16>, vector<8xbf16>
}
