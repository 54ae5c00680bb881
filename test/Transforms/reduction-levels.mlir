// RUN: fuse-opt %s --fuse-report | FileCheck %s
// RUN: fuse-opt %s --fuse-pipeline=fused --fuse-remarks -verify-diagnostics -o /dev/null

// fuse-reduction-fusion takes at most 6 levels of reductions in a kernel,
// each reading a value that the one before went into: a thread goes over
// its row once per reduction and computes again all that it reads, so that
// a chain of them in one kernel took time quadratic in its length. Past
// them, a reduction starts another kernel, which computes the values it
// reads again from what the first one stored (copies: the means, 24*N
// bytes), with a remark.

// CHECK-LABEL: @centered_seven_times
// CHECK: fused: 2 kernels, 12*N*M + 48*N bytes (read 8*N*M + 24*N, written 4*N*M + 24*N)
// CHECK-NEXT: kernel
// CHECK-NEXT: fused_reduce_mean_sub_reduce_mean_sub_reduce_mean_plus6_0  reduce_mean sub reduce_mean sub reduce_mean sub reduce_mean sub reduce_mean sub reduce_mean  N*M  4*N*M  24*N
// CHECK-NEXT: fused_sub_sub_sub_sub_sub_plus3_1  sub sub sub sub sub sub reduce_mean sub  N*M  4*N*M + 24*N  4*N*M
func.func @centered_seven_times(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m1 = fuse.reduce_mean %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %h1 = fuse.sub %x, %m1 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %m2 = fuse.reduce_mean %h1 {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %h2 = fuse.sub %h1, %m2 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %m3 = fuse.reduce_mean %h2 {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %h3 = fuse.sub %h2, %m3 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %m4 = fuse.reduce_mean %h3 {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %h4 = fuse.sub %h3, %m4 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %m5 = fuse.reduce_mean %h4 {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %h5 = fuse.sub %h4, %m5 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  // expected-note @+1 {{producer is here}}
  %m6 = fuse.reduce_mean %h5 {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  // The boundary is here: %h6 is computed in the second kernel, with %m7
  // (not with the first kernel's 6 reductions), from the stored %m6.
  // expected-remark @+1 {{not fused with its producer 'fuse.reduce_mean': this op reads a value computed from 6 reductions one after the other, the most a kernel takes (a thread goes over its row once per reduction and computes again all that the reduction reads, so that a longer chain, of layer norms say, would take time quadratic in its length): it starts another kernel, with the reduction that reads it}}
  %h6 = fuse.sub %h5, %m6 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %m7 = fuse.reduce_mean %h6 {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %h7 = fuse.sub %h6, %m7 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  return %h7 : tensor<?x?xf32>
}

// A softmax of a layer norm: 4 levels, one kernel and no remark.
// CHECK-LABEL: @softmax_of_layer_norm
// CHECK: fused: 1 kernel, 8*N*M bytes (read 4*N*M, written 4*N*M)
func.func @softmax_of_layer_norm(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = fuse.reduce_mean %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %c = fuse.sub %x, %m : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %s = fuse.mul %c, %c : tensor<?x?xf32>
  %v = fuse.reduce_mean %s {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %r = fuse.rsqrt %v : tensor<?x1xf32>
  %n = fuse.mul %c, %r : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %mx = fuse.reduce_max %n {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %d = fuse.sub %n, %mx : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %e = fuse.exp %d : tensor<?x?xf32>
  %sum = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %y = fuse.div %e, %sum : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

