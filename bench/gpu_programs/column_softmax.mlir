// A softmax over dimension 0 (each column's): three kernels, the max, the sum of
// exp(x - max) and the division (which computes exp(x - max) again), a
// thread per column in the first two and a thread per element in the last.
func.func @column_softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = fuse.reduce_max %x {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %d = fuse.sub %x, %m : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  %e = fuse.exp %d : tensor<?x?xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %r = fuse.div %e, %s : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
