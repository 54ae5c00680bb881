// softmax over the last dimension, y = exp(x - max) / sum(exp(x - max)), with
// the row's max and sum kept as a column (tensor<?x1xf32>) that broadcasts
// over the row. Eager it is five kernels, and x's shifted and exponentiated
// copies make round trips through memory; fused it is one kernel that reads
// x once and writes y once, 8 bytes per element.
func.func @softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %max = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %shifted = fuse.sub %x, %max : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %e = fuse.exp %shifted : tensor<?x?xf32>
  %sum = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %y = fuse.div %e, %sum : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
