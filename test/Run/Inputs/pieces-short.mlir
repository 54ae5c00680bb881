// Few rows of a constant length of at most 1024 whose sums a member over
// the whole space reads: no pieces, one kernel with a warp per row (32
// lanes, the order of rows in lanes), fused and eager alike.
func.func @pieces_short(%x: tensor<3x128xf32>) -> (tensor<3x128xf32>, tensor<3x1xf32>) {
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<3x128xf32> -> tensor<3x1xf32>
  %y = fuse.div %x, %s : tensor<3x128xf32>, tensor<3x1xf32> -> tensor<3x128xf32>
  return %y, %s : tensor<3x128xf32>, tensor<3x1xf32>
}
