// Few rows of a constant length of at most 128 (pieces of one element at
// most) whose sums a member over the whole space reads: one kernel, the
// warp of each row going over its 4096 pieces, in the order of the eager,
// split sum.
func.func @pieces_short(%x: tensor<3x128xf32>) -> (tensor<3x128xf32>, tensor<3x1xf32>) {
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<3x128xf32> -> tensor<3x1xf32>
  %y = fuse.div %x, %s : tensor<3x128xf32>, tensor<3x1xf32> -> tensor<3x128xf32>
  return %y, %s : tensor<3x128xf32>, tensor<3x1xf32>
}
