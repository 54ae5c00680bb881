// The passes on their own: fuse-canonicalize folds the addition and the
// sqrt (correctly rounded: the same bits on every target), not the tanh;
// fuse-guard-target-math guards only constant operands.
// RUN: fuse-opt %s --fuse-canonicalize | FileCheck %s --check-prefix=CANON
// RUN: fuse-opt %s --fuse-guard-target-math | FileCheck %s --check-prefix=GUARD
// CANON-LABEL: func.func @scalars
// CANON-DAG:   %[[T:.+]] = arith.constant 3.000000e+00 : f32
// CANON-DAG:   %[[S:.+]] = arith.constant 2.000000e+00 : f32
// CANON:       %[[H:.+]] = math.tanh %[[T]] : f32
// CANON:       %[[X:.+]] = math.exp %arg0 : f32
// CANON:       return %[[H]], %[[S]], %[[X]]
// GUARD-LABEL: func.func @scalars
// GUARD:       %[[A:.+]] = arith.addf
// GUARD-NEXT:  %[[H:.+]] = math.tanh %[[A]] : f32
// GUARD-NEXT:  math.sqrt %{{.+}} : f32
// GUARD-NEXT:  math.exp %arg0 : f32
// GUARD-NEXT:  %[[O:.+]] = fuse.opaque %{{.+}} : f32
// GUARD-NEXT:  math.exp %[[O]] : f32
func.func @scalars(%x: f32) -> (f32, f32, f32, f32) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %four = arith.constant 4.0 : f32
  %sum = arith.addf %one, %two : f32
  %tanh = math.tanh %sum : f32
  %sqrt = math.sqrt %four : f32
  %exp = math.exp %x : f32
  %expc = math.exp %one : f32
  return %tanh, %sqrt, %exp, %expc : f32, f32, f32, f32
}
