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

// The remark says which type is broadcast to which.
func.func @broadcast_one(%s: tensor<1xf32>, %x: tensor<2x?xf32>) -> tensor<2x?xf32> {
  // expected-note @+1 {{producer is here}}
  %0 = fuse.neg %s : tensor<1xf32>
  // expected-remark @+1 {{broadcast from tensor<1xf32> to tensor<2x?xf32>, so the two iterate over different spaces}}
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
// fused pair (exp, neg) gets none.
func.func @two_broadcast_producers(%a: tensor<4xf32>, %c: tensor<3x1xf32>) -> (tensor<3x4xf32>, tensor<4xf32>) {
  // expected-note @+1 {{producer is here}}
  %0 = fuse.exp %a : tensor<4xf32>
  // expected-note @+1 {{producer is here}}
  %1 = fuse.abs %c : tensor<3x1xf32>
  // expected-remark @+2 {{not fused with its producer 'fuse.exp': this op reads that result broadcast from tensor<4xf32> to tensor<3x4xf32>}}
  // expected-remark @+1 {{not fused with its producer 'fuse.abs': this op reads that result broadcast from tensor<3x1xf32> to tensor<3x4xf32>}}
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
