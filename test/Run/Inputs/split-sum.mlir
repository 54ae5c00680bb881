// Few rows, a constant number of them: each row is split into 4096 pieces
// (RowForm::split), a first kernel reduces each piece and a second the
// pieces' values. A sum of squares over 3 rows (the square fused into the
// first kernel) and a full sum of a vector (one row).
func.func @split_sum(%x: tensor<3x?xf32>, %v: tensor<?xf32>) -> (tensor<3xf32>, tensor<f32>) {
  %sq = fuse.mul %x, %x : tensor<3x?xf32>, tensor<3x?xf32> -> tensor<3x?xf32>
  %s = fuse.reduce_sum %sq {dims = array<i64: 1>} : tensor<3x?xf32> -> tensor<3xf32>
  %t = fuse.reduce_sum %v {dims = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  return %s, %t : tensor<3xf32>, tensor<f32>
}
