// Few rows of a constant length longer than 1024: 8 rows of 2048 are cut
// into 2 pieces each (pieces of about 1024 elements, not 4096 / 8 = 512
// pieces of 4), the 16 pieces' sums are reduced by a second kernel, and
// the division is a third.
func.func @pieces_long(%x: tensor<8x2048xf32>) -> (tensor<8x2048xf32>, tensor<8x1xf32>) {
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<8x2048xf32> -> tensor<8x1xf32>
  %y = fuse.div %x, %s : tensor<8x2048xf32>, tensor<8x1xf32> -> tensor<8x2048xf32>
  return %y, %s : tensor<8x2048xf32>, tensor<8x1xf32>
}
