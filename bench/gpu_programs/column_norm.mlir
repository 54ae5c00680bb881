// A batch norm's normalization over dimension 0 (each column's mean and
// variance, keepdims): two reductions over the columns, each in pieces,
// the variance's `rsqrt(v + eps)` in the kernel that finishes it, and the
// scaling a kernel of its own.
func.func @column_norm(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = fuse.reduce_mean %x {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %d = fuse.sub %x, %m : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  %sq = fuse.mul %d, %d : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  %v = fuse.reduce_mean %sq {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %eps = fuse.constant 1.0e-5 : tensor<f32>
  %ve = fuse.add %v, %eps : tensor<1x?xf32>, tensor<f32> -> tensor<1x?xf32>
  %r = fuse.rsqrt %ve : tensor<1x?xf32>
  %y = fuse.mul %d, %r : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
