// REQUIRES: ptxas
// RUN: fuse-opt %s --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %python -c "import sys; ptx = open(sys.argv[1]).read(); pow = ptx[ptx.index('.entry fused_reduce_max_pow_4('):]; assert len(pow) < 60000, len(pow)" %t.ptx
// RUN: %{ptxas} -arch=sm_90 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s

// Rows of 64-bit accumulators (f64, i64) take a warp per row, as 32-bit
// ones do: each shuffle of a 64-bit value is two of 32 bits (shfl.sync
// moves 32). With a thread per row and 32-lane vectors they took 140 to
// 255 registers: an f64 sum spilled 900 bytes, a softmax 1164, a layer
// norm 1888, and an i64 pow beside a reduction over a small static shape
// made 500 KB of PTX (20 s of ptxas; 97 s on sm_100; now under 60 KB). A row in registers
// counts its 64-bit elements twice: up to 512 of f64 (a softmax of f64 rows
// of 1024 spilled 104 bytes), so that none of these spills.

// Five steps down and one broadcast from lane 0, each of two halves.
// PTX-LABEL: .entry reduce_sum_0(
// PTX: .minnctapersm 4
// PTX-COUNT-10: shfl.sync.down.b32
// PTX-COUNT-2: shfl.sync.idx.b32
// PTX-NOT: shfl.sync
// PTX: }
// PTX-LABEL: .entry reduce_sum_1(
// PTX: .minnctapersm 4
// PTX-COUNT-10: shfl.sync.down.b32
// PTX-COUNT-2: shfl.sync.idx.b32
// PTX-NOT: shfl.sync
// PTX: }
// PTX-LABEL: .entry fused_reduce_max_sub_exp_reduce_sum_div_2(
// PTX: setp.lt.u64 {{.*}}, 513;
// PTX-LABEL: .entry fused_reduce_mean_sub_mul_reduce_mean_rsqrt_plus1_3(
// PTX: setp.lt.u64 {{.*}}, 513;
// PTX-LABEL: .entry fused_reduce_max_pow_4(
// PTX: shfl.sync

// ptxas reports the functions last first. The i64 pow (63 squarings and
// products per element) spills a few bytes at 64 registers.
// CHECK-NOT: error
// CHECK-LABEL: Function properties for fused_reduce_max_pow_4
// CHECK-NEXT: {{ [0-9] }}bytes spill stores
// CHECK-LABEL: Function properties for fused_reduce_mean_sub_mul_reduce_mean_rsqrt_plus1_3
// CHECK-NEXT: 0 bytes spill stores, 0 bytes spill loads
// CHECK-LABEL: Function properties for fused_reduce_max_sub_exp_reduce_sum_div_2
// CHECK-NEXT: 0 bytes spill stores, 0 bytes spill loads
// CHECK-LABEL: Function properties for reduce_sum_1
// CHECK-NEXT: 0 bytes spill stores, 0 bytes spill loads
// CHECK-LABEL: Function properties for reduce_sum_0
// CHECK-NEXT: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: Used {{(6[5-9]|[7-9][0-9]|[0-9]{3,})}} registers

func.func @sum_f64(%x: tensor<?x?xf64>) -> tensor<?x1xf64> {
  %0 = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?xf64> -> tensor<?x1xf64>
  return %0 : tensor<?x1xf64>
}

func.func @sum_i64(%x: tensor<?x?xi64>) -> tensor<?x1xi64> {
  %0 = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?xi64> -> tensor<?x1xi64>
  return %0 : tensor<?x1xi64>
}

func.func @softmax_f64(%x: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %m = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf64> -> tensor<?x1xf64>
  %d = fuse.sub %x, %m : tensor<?x?xf64>, tensor<?x1xf64> -> tensor<?x?xf64>
  %e = fuse.exp %d : tensor<?x?xf64>
  %s = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<?x?xf64> -> tensor<?x1xf64>
  %r = fuse.div %e, %s : tensor<?x?xf64>, tensor<?x1xf64> -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}

func.func @layer_norm_f64(%x: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %m = fuse.reduce_mean %x {dims = array<i64: 1>} : tensor<?x?xf64> -> tensor<?x1xf64>
  %d = fuse.sub %x, %m : tensor<?x?xf64>, tensor<?x1xf64> -> tensor<?x?xf64>
  %q = fuse.mul %d, %d : tensor<?x?xf64>
  %v = fuse.reduce_mean %q {dims = array<i64: 1>} : tensor<?x?xf64> -> tensor<?x1xf64>
  %r = fuse.rsqrt %v : tensor<?x1xf64>
  %y = fuse.mul %d, %r : tensor<?x?xf64>, tensor<?x1xf64> -> tensor<?x?xf64>
  return %y : tensor<?x?xf64>
}

func.func @pow_beside_max_i64(%a0: tensor<5x8xi64>, %a1: tensor<5x8xi64>) -> (tensor<i64>, tensor<5x8xi64>) {
  %v1 = fuse.reduce_max %a1 {dims = array<i64: 0, 1>} : tensor<5x8xi64> -> tensor<i64>
  %v2 = fuse.pow %a1, %a0 : tensor<5x8xi64>, tensor<5x8xi64> -> tensor<5x8xi64>
  return %v1, %v2 : tensor<i64>, tensor<5x8xi64>
}
