// RUN: fuse-opt %s --convert-fuse-to-linalg "--fuse-elementwise-fusion=remarks=true" -split-input-file -verify-diagnostics
// RUN: fuse-opt %s --fuse-pipeline=fused --fuse-remarks -split-input-file -verify-diagnostics

// With remarks, each producer/consumer pair left unfused gets a remark at
// the consumer saying why, and a note at the producer. Fused pairs get
// none (verify-diagnostics fails on any unexpected remark).

func.func @fused_chain_is_quiet(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  %2 = fuse.exp %1 : tensor<?xf32>
  return %2 : tensor<?xf32>
}

// -----

func.func @broadcast(%a: tensor<4xf32>, %m: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-note @+1 {{producer is here}}
  %0 = fuse.exp %a : tensor<4xf32>
  // expected-remark @+1 {{not fused with its producer 'fuse.exp': this op reads that result broadcast from tensor<4xf32> to tensor<3x4xf32>, so the two iterate over different spaces}}
  %1 = fuse.add %m, %0 : tensor<3x4xf32>, tensor<4xf32> -> tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}

// -----

// The remark says which type is broadcast to which, and why the producer
// is not computed again at each element (a neg is: elementwise-fusion-
// broadcast.mlir).
func.func @broadcast_one(%s: tensor<1xf32>, %x: tensor<2x?xf32>) -> tensor<2x?xf32> {
  // expected-note @+1 {{producer is here}}
  %0 = fuse.exp %s : tensor<1xf32>
  // expected-remark @+1 {{broadcast from tensor<1xf32> to tensor<2x?xf32>, so the two iterate over different spaces, and that op is not computed again at each of this op's elements: it has a math function ('exp')}}
  %1 = fuse.mul %x, %0 : tensor<2x?xf32>, tensor<1xf32> -> tensor<2x?xf32>
  return %1 : tensor<2x?xf32>
}

// -----

// A one-value producer (rank 0) is computed inside its reader: no remark.
func.func @scalar_producer_is_inside(%s: tensor<f32>, %x: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %0 = fuse.neg %s : tensor<f32>
  %1 = fuse.mul %x, %0 : tensor<2x?xf32>, tensor<f32> -> tensor<2x?xf32>
  return %1 : tensor<2x?xf32>
}

// -----

// Each unfused pair gets its own remark, here two at one consumer; the
// fused pair (exp, neg) gets none. (An abs of %c would be computed again
// inside the sub: elementwise-fusion-broadcast.mlir.)
func.func @two_broadcast_producers(%a: tensor<4xf32>, %c: tensor<3x1xf32>) -> (tensor<3x4xf32>, tensor<4xf32>) {
  // expected-note @+1 {{producer is here}}
  %0 = fuse.exp %a : tensor<4xf32>
  // expected-note @+1 {{producer is here}}
  %1 = fuse.exp %c : tensor<3x1xf32>
  // expected-remark @+2 {{not fused with its producer 'fuse.exp': this op reads that result broadcast from tensor<4xf32> to tensor<3x4xf32>}}
  // expected-remark @+1 {{not fused with its producer 'fuse.exp': this op reads that result broadcast from tensor<3x1xf32> to tensor<3x4xf32>}}
  %2 = fuse.sub %0, %1 : tensor<4xf32>, tensor<3x1xf32> -> tensor<3x4xf32>
  %3 = fuse.neg %0 : tensor<4xf32>
  return %2, %3 : tensor<3x4xf32>, tensor<4xf32>
}

// -----

func.func @cycle(%a: tensor<4xf32>, %f: f32, %i: index) -> tensor<4xf32> {
  // expected-note @+1 {{producer is here}}
  %0 = fuse.exp %a : tensor<4xf32>
  %o = tensor.insert %f into %0[%i] : tensor<4xf32>
  // expected-remark @+1 {{not fused with its producer 'fuse.exp': fusing them would create a cycle through an op outside the kernel}}
  %1 = fuse.add %0, %o : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// A producer that is not a kernel (tensor.insert) is not a pair: no remark.
func.func @not_a_kernel(%a: tensor<4xf32>, %f: f32, %i: index) -> tensor<4xf32> {
  %o = tensor.insert %f into %a[%i] : tensor<4xf32>
  %0 = fuse.exp %o : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A one-value producer with a math function is a kernel of one element: the
// remark says so (it said the two "iterate over different spaces").
func.func @one_value_math(%s: tensor<f32>, %x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-note @+1 {{producer is here}}
  %e = fuse.exp %s : tensor<f32>
  // expected-remark @+1 {{not fused with its producer 'fuse.exp': that op computes one value, with a math function ('exp'), and a one-value producer is computed again inside the ops that read it only when it takes at most 16 operations and no math function (exp, log, tanh, pow, ...): it is a kernel of one element, whose value this op reads}}
  %y = fuse.mul %x, %e : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  return %y : tensor<?xf32>
}

// -----

// A chain of one-value adds: the last 16 are computed inside the mul, and
// the remark is at the first of them, the op that reads the value of the
// 17 before (it was at the mul, which does not read it).
func.func @one_value_chain(%s: tensor<f32>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = fuse.add %s, %s : tensor<f32>
  %c1 = fuse.add %c0, %s : tensor<f32>
  %c2 = fuse.add %c1, %s : tensor<f32>
  %c3 = fuse.add %c2, %s : tensor<f32>
  %c4 = fuse.add %c3, %s : tensor<f32>
  %c5 = fuse.add %c4, %s : tensor<f32>
  %c6 = fuse.add %c5, %s : tensor<f32>
  %c7 = fuse.add %c6, %s : tensor<f32>
  %c8 = fuse.add %c7, %s : tensor<f32>
  %c9 = fuse.add %c8, %s : tensor<f32>
  %c10 = fuse.add %c9, %s : tensor<f32>
  %c11 = fuse.add %c10, %s : tensor<f32>
  %c12 = fuse.add %c11, %s : tensor<f32>
  %c13 = fuse.add %c12, %s : tensor<f32>
  %c14 = fuse.add %c13, %s : tensor<f32>
  %c15 = fuse.add %c14, %s : tensor<f32>
  // expected-note @+1 {{producer is here}}
  %c16 = fuse.add %c15, %s : tensor<f32>
  // expected-remark @+1 {{that op computes one value, in 17 operations, and a one-value producer is computed again inside the ops that read it only when it takes at most 16 operations}}
  %c17 = fuse.add %c16, %s : tensor<f32>
  %c18 = fuse.add %c17, %s : tensor<f32>
  %y = fuse.mul %x, %c18 : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  return %y : tensor<?xf32>
}
