// RUN: fuse-opt %s --convert-fuse-to-linalg --split-input-file --verify-diagnostics
// RUN: not fuse-opt %s --split-input-file --fuse-pipeline=fused 2>&1 | FileCheck %s

// fuse.opaque is made inside kernel bodies; a program's function that uses
// it is refused at the op (it crashed the size analysis, which takes every
// fuse op's result for a tensor).
// CHECK: invalid.mlir:10:8: error: 'fuse.opaque' op is compiler-internal
func.func @scalar(%a: f32) -> f32 {
  // expected-error @+1 {{'fuse.opaque' op is compiler-internal: fuse-guard-target-math puts it in kernel bodies, between a constant and a math function; a fuse program does not use it}}
  %0 = fuse.opaque %a : f32
  return %0 : f32
}

// -----

// CHECK: invalid.mlir:19:8: error: 'fuse.opaque' op is compiler-internal
func.func @vector(%a: vector<4xf32>) -> vector<4xf32> {
  // expected-error @+1 {{'fuse.opaque' op is compiler-internal}}
  %0 = fuse.opaque %a : vector<4xf32>
  return %0 : vector<4xf32>
}
