// Softmax over the last dimension, as one kernel: the row's maximum, the
// exponentials of the differences, their sum and the quotients. The reduced
// values keep their dimension (size 1) and broadcast back over the row.
func.func @softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %d = fuse.sub %x, %m : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %e = fuse.exp %d : tensor<?x?xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %y = fuse.div %e, %s : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
