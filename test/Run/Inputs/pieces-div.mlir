// Few rows (a constant number) whose sum a member over the whole space
// reads: one kernel, each row still reduced in 4096 pieces, the order of
// the eager kernel's split sum.
func.func @pieces_div(%x: tensor<3x?xf32>) -> (tensor<3x?xf32>, tensor<3x1xf32>) {
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<3x?xf32> -> tensor<3x1xf32>
  %y = fuse.div %x, %s : tensor<3x?xf32>, tensor<3x1xf32> -> tensor<3x?xf32>
  return %y, %s : tensor<3x?xf32>, tensor<3x1xf32>
}
