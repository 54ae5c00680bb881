// Few rows (a constant number) of a dynamic length whose sums a member
// over the whole space reads: the sum is split in two kernels, each row in
// 4096 pieces, and the division is a third kernel.
func.func @pieces_div(%x: tensor<3x?xf32>) -> (tensor<3x?xf32>, tensor<3x1xf32>) {
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<3x?xf32> -> tensor<3x1xf32>
  %y = fuse.div %x, %s : tensor<3x?xf32>, tensor<3x1xf32> -> tensor<3x?xf32>
  return %y, %s : tensor<3x?xf32>, tensor<3x1xf32>
}
