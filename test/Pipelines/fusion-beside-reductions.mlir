// RUN: fuse-opt %s --fuse-report | FileCheck %s
// RUN: fuse-opt %s --fuse-pipeline=fused --fuse-remarks --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: fuse-run %s --entry=@two_layer_norms --target=cpu --input=rand:256x512 --input=rand:256x64 --check | FileCheck %s --check-prefix=RUNS
// RUN: fuse-run %s --entry=@relu_returned_and_averaged --target=cpu --input=rand:2x3x5x7 --check | FileCheck %s --check-prefix=RUNS
// RUN: env FUSE_LIBCUDA=%fakecuda fuse-run %s --entry=@relu_returned_and_averaged --target=cuda --input=rand:2x3x5x7 --check | FileCheck %s --check-prefix=RUNS
// RUN: env FUSE_LIBCUDA=%fakecuda fuse-run %s --entry=@narrowed_and_read_broadcast --target=cuda --input=rand:64x128 --input=rand:8x1x1 --check | FileCheck %s --check-prefix=RUN1
// RUNS: check: result 0 matches eager
// RUNS-NEXT: check: result 1 matches eager
// RUN1: check: result 0 matches eager

// Programs that fused worse than their parts, each fused as well as its
// parts now.

// Two layer norms over as many rows (256), of other widths: each reduction's
// per-row ops (the variance's `+ eps` and rsqrt) are its own kernel's. The
// first fuse-elementwise-fusion merged the two rows' ops into one generic
// (horizontal fusion: same space), which only one kernel could take: 3
// kernels and 1249280 bytes.
// CHECK-LABEL: @two_layer_norms
// CHECK-NEXT: fused: 2 kernels, 1179648 bytes
func.func @two_layer_norms(%x: tensor<256x512xf32>, %y: tensor<256x64xf32>) -> (tensor<256x512xf32>, tensor<256x64xf32>) {
  %eps = fuse.constant 1.0e-05 : tensor<f32>
  %mx = fuse.reduce_mean %x {dims = array<i64: 1>} : tensor<256x512xf32> -> tensor<256x1xf32>
  %cx = fuse.sub %x, %mx : tensor<256x512xf32>, tensor<256x1xf32> -> tensor<256x512xf32>
  %qx = fuse.mul %cx, %cx : tensor<256x512xf32>
  %vx = fuse.reduce_mean %qx {dims = array<i64: 1>} : tensor<256x512xf32> -> tensor<256x1xf32>
  %wx = fuse.add %vx, %eps : tensor<256x1xf32>, tensor<f32> -> tensor<256x1xf32>
  %rx = fuse.rsqrt %wx : tensor<256x1xf32>
  %ox = fuse.mul %cx, %rx : tensor<256x512xf32>, tensor<256x1xf32> -> tensor<256x512xf32>
  %my = fuse.reduce_mean %y {dims = array<i64: 1>} : tensor<256x64xf32> -> tensor<256x1xf32>
  %cy = fuse.sub %y, %my : tensor<256x64xf32>, tensor<256x1xf32> -> tensor<256x64xf32>
  %qy = fuse.mul %cy, %cy : tensor<256x64xf32>
  %vy = fuse.reduce_mean %qy {dims = array<i64: 1>} : tensor<256x64xf32> -> tensor<256x1xf32>
  %wy = fuse.add %vy, %eps : tensor<256x1xf32>, tensor<f32> -> tensor<256x1xf32>
  %ry = fuse.rsqrt %wy : tensor<256x1xf32>
  %oy = fuse.mul %cy, %ry : tensor<256x64xf32>, tensor<256x1xf32> -> tensor<256x64xf32>
  return %ox, %oy : tensor<256x512xf32>, tensor<256x64xf32>
}

// A row mean beside a column mean of a square matrix: their divisions (256
// each) were one generic, which the row mean's kernel could not take: 4
// kernels and more bytes than eager. The column mean's rows are strided, so
// the add reads it from a kernel of its own (the remark).
// CHECK-LABEL: @row_and_column_means
// CHECK-NEXT: fused: 3 kernels, 804864 bytes
// CHECK: fused vs eager: 3 vs 4 kernels, 804864 vs 806912 bytes
// REMARK: fusion-beside-reductions.mlir:[[# @LINE + 4]]:8: remark: not fused with its producer 'fuse.reduce_mean': this op reads, over the whole space, a value computed from a reduction whose rows are strided
func.func @row_and_column_means(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = fuse.reduce_mean %x {dims = array<i64: 1>} : tensor<256x256xf32> -> tensor<256x1xf32>
  %c = fuse.reduce_mean %x {dims = array<i64: 0>} : tensor<256x256xf32> -> tensor<1x256xf32>
  %o = fuse.add %r, %c : tensor<256x1xf32>, tensor<1x256xf32> -> tensor<256x256xf32>
  return %o : tensor<256x256xf32>
}

// An op returned and reduced over two dimensions runs over them collapsed
// into one, as the reduction reads it: one kernel, as over one dimension
// (it was 2, and 12 bytes an element, not 8).
// CHECK-LABEL: @relu_returned_and_averaged
// CHECK-NEXT: fused: 1 kernel, 8*N*M*K*L + 4*N*M bytes
// REMARK-NOT: fusion-beside-reductions.mlir:[[# @LINE + 3]]
func.func @relu_returned_and_averaged(%a: tensor<?x?x?x?xf32>) -> (tensor<?x?x?x?xf32>, tensor<?x?xf32>) {
  %r = fuse.relu %a : tensor<?x?x?x?xf32>
  %s = fuse.reduce_mean %r {dims = array<i64: 2, 3>} : tensor<?x?x?x?xf32> -> tensor<?x?xf32>
  return %r, %s : tensor<?x?x?x?xf32>, tensor<?x?xf32>
}

// A cast to fewer bits of a computed value, read broadcast, is computed
// with that value (the product's kernel writes 2 bytes an element), not
// again by its reader from the product's 4 (229392 bytes).
// CHECK-LABEL: @narrowed_and_read_broadcast
// CHECK-NEXT: fused: 2 kernels, 196624 bytes
// CHECK: fused_mul_cast_{{[0-9]+}}  mul cast  8192  32768  16384
func.func @narrowed_and_read_broadcast(%x: tensor<64x128xf32>, %t: tensor<8x1x1xf16>) -> tensor<8x64x128xf16> {
  %two = fuse.constant 2.0 : tensor<f32>
  %a = fuse.mul %x, %two : tensor<64x128xf32>, tensor<f32> -> tensor<64x128xf32>
  %h = fuse.cast %a : tensor<64x128xf32> to tensor<64x128xf16>
  %o = fuse.mul %h, %t : tensor<64x128xf16>, tensor<8x1x1xf16> -> tensor<8x64x128xf16>
  return %o : tensor<8x64x128xf16>
}

// The same for an f16 softmax returned and read broadcast: the softmax's
// kernel writes its f16 result alone (it wrote the f32 value too).
// CHECK-LABEL: @f16_softmax_returned_and_read_broadcast
// CHECK-NEXT: fused: 2 kernels, 114696 bytes
func.func @f16_softmax_returned_and_read_broadcast(%a: tensor<64x128xf16>, %t: tensor<4x1x1xf16>) -> (tensor<64x128xf16>, tensor<4x64x128xf16>) {
  %x = fuse.cast %a : tensor<64x128xf16> to tensor<64x128xf32>
  %m = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<64x128xf32> -> tensor<64x1xf32>
  %d = fuse.sub %x, %m : tensor<64x128xf32>, tensor<64x1xf32> -> tensor<64x128xf32>
  %e = fuse.exp %d : tensor<64x128xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<64x128xf32> -> tensor<64x1xf32>
  %y = fuse.div %e, %s : tensor<64x128xf32>, tensor<64x1xf32> -> tensor<64x128xf32>
  %h = fuse.cast %y : tensor<64x128xf32> to tensor<64x128xf16>
  %o = fuse.mul %h, %t : tensor<64x128xf16>, tensor<4x1x1xf16> -> tensor<4x64x128xf16>
  return %h, %o : tensor<64x128xf16>, tensor<4x64x128xf16>
}
