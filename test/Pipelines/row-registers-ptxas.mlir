// REQUIRES: ptxas
// RUN: fuse-opt %s --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %{ptxas} -arch=sm_90 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s

// A kernel whose warps take rows (gpu.shuffle) asks for half occupancy, 4
// blocks of 256 threads per SM on sm_90, so that 64 registers hold a row
// of up to 1024 elements (32 per lane) with the passes' values: softmax and
// layer norm of any length (the row in registers or looped, chosen at run
// time) spill a few bytes at most (an H200 ran them 1.2x faster this way
// than with rows of 512, unspilled: bench/RESULTS.md, Dec 4); a sum over rows of a
// constant 100 elements and a softmax of the sum of two inputs, each kept
// (rows of up to 512 in registers), do not spill.
// PTX: .entry fused_reduce_max_sub_exp_reduce_sum_div_0(
// PTX: .minnctapersm 4
// PTX: setp.lt.u64 {{.*}}, 1025;
// PTX: .entry fused_reduce_mean_sub_mul_reduce_mean_add_plus4_1(
// PTX: .minnctapersm 4
// The 100 elements of a row: 4 loads per lane, then 4 stores, no other
// access.
// PTX-LABEL: .entry fused_reduce_sum_div_2(
// PTX: .minnctapersm 4
// PTX-COUNT-4: ld.global.b32
// PTX-NOT: ld.global
// PTX-COUNT-4: st.global.b32
// PTX-NOT: {{ld|st}}.global
// PTX: }

// The row in registers when its length is at most 1024 (one input kept)
// or 512 (two).
// PTX-LABEL: .entry fused_add_reduce_max_sub_exp_reduce_sum_plus1_3(
// PTX: .minnctapersm 4
// PTX: setp.lt.u64 {{.*}}, 513;

// CHECK-NOT: error
// CHECK-LABEL: Function properties for fused_add_reduce_max_sub_exp_reduce_sum_plus1_3
// CHECK-NEXT: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: Used {{(6[5-9]|[7-9][0-9]|[0-9]{3,})}} registers
// CHECK-LABEL: Function properties for fused_reduce_sum_div_2
// CHECK-NEXT: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: Used {{(6[5-9]|[7-9][0-9]|[0-9]{3,})}} registers
// CHECK-LABEL: Function properties for fused_reduce_mean_sub_mul_reduce_mean_add_plus4_1
// CHECK-NEXT: {{([0-9]|[1-5][0-9]|6[0-4])}} bytes spill stores
// CHECK-NOT: Used {{(6[5-9]|[7-9][0-9]|[0-9]{3,})}} registers
// CHECK-LABEL: Function properties for fused_reduce_max_sub_exp_reduce_sum_div_0
// CHECK-NEXT: {{([0-9]|[1-5][0-9]|6[0-4])}} bytes spill stores
// CHECK-NOT: Used {{(6[5-9]|[7-9][0-9]|[0-9]{3,})}} registers

func.func @softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %d = fuse.sub %x, %m : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %e = fuse.exp %d : tensor<?x?xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %r = fuse.div %e, %s : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @layer_norm(%x: tensor<?x?xf32>, %weight: tensor<?xf32>, %bias: tensor<?xf32>) -> tensor<?x?xf32> {
  %eps = fuse.constant 1.0e-05 : tensor<f32>
  %mean = fuse.reduce_mean %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %centered = fuse.sub %x, %mean : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %sq = fuse.mul %centered, %centered : tensor<?x?xf32>
  %var = fuse.reduce_mean %sq {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %ve = fuse.add %var, %eps : tensor<?x1xf32>, tensor<f32> -> tensor<?x1xf32>
  %rstd = fuse.rsqrt %ve : tensor<?x1xf32>
  %norm = fuse.mul %centered, %rstd : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %scaled = fuse.mul %norm, %weight : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %y = fuse.add %scaled, %bias : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @sum_div_100(%x: tensor<?x100xf32>) -> tensor<?x100xf32> {
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x100xf32> -> tensor<?x1xf32>
  %y = fuse.div %x, %s : tensor<?x100xf32>, tensor<?x1xf32> -> tensor<?x100xf32>
  return %y : tensor<?x100xf32>
}

func.func @softmax_of_sum(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %a = fuse.add %x, %y : tensor<?x?xf32>
  %m = fuse.reduce_max %a {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %d = fuse.sub %a, %m : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %e = fuse.exp %d : tensor<?x?xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %r = fuse.div %e, %s : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
