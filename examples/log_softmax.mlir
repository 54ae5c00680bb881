// log_softmax over the last dimension, y = (x - max) - log(sum(exp(x - max))),
// the numerically stable form: the shift by the row's max keeps exp from
// overflowing. The log is taken once per row, on the sum. Fused it is one
// kernel that reads x once and writes y once, 8 bytes per element.
func.func @log_softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %max = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %shifted = fuse.sub %x, %max : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %e = fuse.exp %shifted : tensor<?x?xf32>
  %sum = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %lse = fuse.log %sum : tensor<?x1xf32>
  %y = fuse.sub %shifted, %lse : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
