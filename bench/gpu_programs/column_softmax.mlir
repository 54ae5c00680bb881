// A softmax over dimension 0 (each column's): five kernels, the max and the
// sum of exp(x - max) each in pieces (two kernels), and the division
// (which computes exp(x - max) again) with a thread per element.
func.func @column_softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = fuse.reduce_max %x {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %d = fuse.sub %x, %m : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  %e = fuse.exp %d : tensor<?x?xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %r = fuse.div %e, %s : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
