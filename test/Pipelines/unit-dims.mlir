// Dimensions of static size 1 make no loop: a reduction goes over its
// operand without them, and the elementwise ops around it too, so that a
// program with them fuses as the same program without them does (a layer
// norm over `1 x N` with `dims = [0, 1]` was 5 kernels, over the `N` of
// `B x N x 1` 5, a softmax over `1 x C x 1 x W` with `dims = [1, 3]` 5;
// each is 1, as over `N`). Fused and eager give the same bits, and a
// reduction over dimensions with one of size 1 between them (`dims = [1,
// 3]` of `2 x 3 x 1 x 5`) accumulates in the order of the operand without
// it, one run (`dims = [1, 2]` of `2 x 3 x 5`).
// RUN: fuse-opt %s --fuse-report | FileCheck %s
// RUN: fuse-opt %s --fuse-pipeline=fused --fuse-remarks --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: fuse-run %s --entry=@batch_of_one --target=cpu --input=rand:1x1024 --check | FileCheck %s --check-prefix=RUNS
// RUN: fuse-run %s --entry=@trailing_one --target=cpu --input=rand:4x300x1 --check | FileCheck %s --check-prefix=RUNS
// RUN: fuse-run %s --entry=@weight_over_part_of_the_row --target=cpu --input=rand:4x1x30x40 --input=rand:40 --check | FileCheck %s --check-prefix=RUNS4
// RUN: env FUSE_LIBCUDA=%fakecuda fuse-run %s --entry=@trailing_one --target=cuda --input=rand:4x300x1 --check | FileCheck %s --check-prefix=RUNS
// RUN: %python -c "import numpy as np; x = (np.random.default_rng(5).standard_normal((2, 3, 1, 5)) * 100).astype(np.float32); np.save('%t.4d.npy', x); np.save('%t.3d.npy', x.reshape(2, 3, 5))"
// RUN: fuse-run %s --entry=@unit_between --target=cpu --input=%t.4d.npy --output=%t.4d.out.npy > /dev/null
// RUN: fuse-run %s --entry=@unit_between --target=cpu --fusion=off --input=%t.4d.npy --output=%t.4d.eager.npy > /dev/null
// RUN: fuse-run %s --entry=@without_it --target=cpu --input=%t.3d.npy --output=%t.3d.out.npy > /dev/null
// RUN: %python %S/../Run/Inputs/same_bits.py %t.4d.out.npy %t.3d.out.npy %t.4d.out.npy %t.4d.eager.npy | FileCheck %s --check-prefix=BITS

// CHECK-LABEL: @batch_of_one
// CHECK-NEXT:    fused: 1 kernel, 8192 bytes (read 4096, written 4096)
// RUNS: check: result 0 matches eager
func.func @batch_of_one(%x: tensor<1x1024xf32>) -> tensor<1x1024xf32> {
  %m = fuse.reduce_mean %x {dims = array<i64: 0, 1>} : tensor<1x1024xf32> -> tensor<1x1xf32>
  %c = fuse.sub %x, %m : tensor<1x1024xf32>, tensor<1x1xf32> -> tensor<1x1024xf32>
  %sq = fuse.mul %c, %c : tensor<1x1024xf32>
  %v = fuse.reduce_mean %sq {dims = array<i64: 0, 1>} : tensor<1x1024xf32> -> tensor<1x1xf32>
  %r = fuse.rsqrt %v : tensor<1x1xf32>
  %y = fuse.mul %c, %r : tensor<1x1024xf32>, tensor<1x1xf32> -> tensor<1x1024xf32>
  return %y : tensor<1x1024xf32>
}

// CHECK-LABEL: @trailing_one
// CHECK-NEXT:    fused: 1 kernel, 9600 bytes (read 4800, written 4800)
func.func @trailing_one(%x: tensor<4x300x1xf32>) -> tensor<4x300x1xf32> {
  %m = fuse.reduce_mean %x {dims = array<i64: 1>} : tensor<4x300x1xf32> -> tensor<4x1x1xf32>
  %c = fuse.sub %x, %m : tensor<4x300x1xf32>, tensor<4x1x1xf32> -> tensor<4x300x1xf32>
  %sq = fuse.mul %c, %c : tensor<4x300x1xf32>
  %v = fuse.reduce_mean %sq {dims = array<i64: 1>} : tensor<4x300x1xf32> -> tensor<4x1x1xf32>
  %r = fuse.rsqrt %v : tensor<4x1x1xf32>
  %y = fuse.mul %c, %r : tensor<4x300x1xf32>, tensor<4x1x1xf32> -> tensor<4x300x1xf32>
  return %y : tensor<4x300x1xf32>
}

// CHECK-LABEL: @channels_between
// CHECK-NEXT:    fused: 1 kernel, 4096 bytes (read 2048, written 2048)
func.func @channels_between(%x: tensor<1x8x1x64xf32>) -> tensor<1x8x1x64xf32> {
  %m = fuse.reduce_max %x {dims = array<i64: 1, 3>} : tensor<1x8x1x64xf32> -> tensor<1x1x1x1xf32>
  %d = fuse.sub %x, %m : tensor<1x8x1x64xf32>, tensor<1x1x1x1xf32> -> tensor<1x8x1x64xf32>
  %e = fuse.exp %d : tensor<1x8x1x64xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 1, 3>} : tensor<1x8x1x64xf32> -> tensor<1x1x1x1xf32>
  %y = fuse.div %e, %s : tensor<1x8x1x64xf32>, tensor<1x1x1x1xf32> -> tensor<1x8x1x64xf32>
  return %y : tensor<1x8x1x64xf32>
}

// A norm over the last two dimensions of `? x 1 x ? x ?` with a weight
// over the last one alone: the weight's kernel computes `x - mean` again
// from x over the same space without the dimension of size 1 (the copy took
// it back, a kernel of its own, and the report could not size it).
// CHECK-LABEL: @weight_over_part_of_the_row
// CHECK-NEXT:    fused: 2 kernels, 12*N*M*K + 16*N + 4*K bytes (read 8*N*M*K + 8*N + 4*K, written 4*N*M*K + 8*N)
// RUNS4: check: result 0 matches eager (4800 elements)
func.func @weight_over_part_of_the_row(%x: tensor<?x1x?x?xf32>, %w: tensor<?xf32>) -> tensor<?x1x?x?xf32> {
  %m = fuse.reduce_mean %x {dims = array<i64: 2, 3>} : tensor<?x1x?x?xf32> -> tensor<?x1x1x1xf32>
  %c = fuse.sub %x, %m : tensor<?x1x?x?xf32>, tensor<?x1x1x1xf32> -> tensor<?x1x?x?xf32>
  %q = fuse.mul %c, %c : tensor<?x1x?x?xf32>
  %v = fuse.reduce_mean %q {dims = array<i64: 2, 3>} : tensor<?x1x?x?xf32> -> tensor<?x1x1x1xf32>
  %r = fuse.rsqrt %v : tensor<?x1x1x1xf32>
  %n = fuse.mul %c, %r : tensor<?x1x?x?xf32>, tensor<?x1x1x1xf32> -> tensor<?x1x?x?xf32>
  %y = fuse.mul %n, %w : tensor<?x1x?x?xf32>, tensor<?xf32> -> tensor<?x1x?x?xf32>
  return %y : tensor<?x1x?x?xf32>
}

// A remark names the ops' own types, not those of the loops without the
// dimensions of size 1 (`tensor<3x1xf32>`, not `tensor<3xf32>`).
// REMARK: remark: not fused with its producer 'fuse.exp': this op reads that result broadcast from tensor<3x1xf32> to tensor<3x4xf32>, so the two iterate over different spaces
func.func @broadcast_remark(%a: tensor<3x1xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = fuse.exp %a : tensor<3x1xf32>
  %1 = fuse.add %0, %b : tensor<3x1xf32>, tensor<3x4xf32> -> tensor<3x4xf32>
  return %1 : tensor<3x4xf32>
}

// A reduction over a dimension of size 1 alone, its result dropping it: the
// remark names its result type, not its operand's. (Of an argument it is
// computed again inside the sub: elementwise-fusion-broadcast.mlir.)
// REMARK: remark: not fused with its producer 'fuse.reduce_sum': this op reads that result broadcast from tensor<?x?xf32> to tensor<?x?x?xf32>, so the two iterate over different spaces
// REMARK-NOT: remark
func.func @dropped_unit_remark(%x: tensor<?x1x?xf32>) -> tensor<?x?x?xf32> {
  %e = fuse.exp %x : tensor<?x1x?xf32>
  %r = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<?x1x?xf32> -> tensor<?x?xf32>
  %y = fuse.sub %x, %r : tensor<?x1x?xf32>, tensor<?x?xf32> -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}

// BITS: result 0: same bits (2 elements)
// BITS-NEXT: result 1: same bits (2 elements)
func.func @unit_between(%x: tensor<2x3x1x5xf32>) -> tensor<2xf32> {
  %s = fuse.reduce_sum %x {dims = array<i64: 1, 3>} : tensor<2x3x1x5xf32> -> tensor<2x1xf32>
  %t = fuse.reduce_sum %s {dims = array<i64: 1>} : tensor<2x1xf32> -> tensor<2xf32>
  return %t : tensor<2xf32>
}
func.func @without_it(%x: tensor<2x3x5xf32>) -> tensor<2xf32> {
  %s = fuse.reduce_sum %x {dims = array<i64: 1, 2>} : tensor<2x3x5xf32> -> tensor<2xf32>
  return %s : tensor<2xf32>
}
