// Reductions over columns of a dynamic number (docs/dialect.md,
// "Reductions"): a sum over dimension 0 of an N x M matrix, whose M
// columns share 262144 pieces at run time; a batch norm over dimension 0,
// whose `rsqrt(var + eps)` (over the columns, dimension 0 kept as size 1)
// runs in the kernel that reduces the variance's pieces; a sum over the
// middle dimension of three; a sum over the two leading dimensions of
// three (one reduced loop of their product); a batch norm of an NHWC
// tensor (over dimensions 0, 1 and 2: the columns of their product); a
// sum and a batch norm of an NCHW tensor (over dimensions 0, 2 and 3: the
// rows of H x W in lanes, then those sums over N).
func.func @column_sum(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %s = fuse.reduce_sum %x {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<?xf32>
  return %s : tensor<?xf32>
}

func.func @column_norm(%x: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<1x?xf32>) {
  %m = fuse.reduce_mean %x {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %d = fuse.sub %x, %m : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  %sq = fuse.mul %d, %d : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  %v = fuse.reduce_mean %sq {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %eps = fuse.constant 1.0e-5 : tensor<f32>
  %ve = fuse.add %v, %eps : tensor<1x?xf32>, tensor<f32> -> tensor<1x?xf32>
  %r = fuse.rsqrt %ve : tensor<1x?xf32>
  %y = fuse.mul %d, %r : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  return %y, %r : tensor<?x?xf32>, tensor<1x?xf32>
}

func.func @middle_sum(%x: tensor<?x?x?xf32>) -> tensor<?x?xf32> {
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?x?xf32> -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}

func.func @leading_sum(%x: tensor<?x?x?xf32>) -> tensor<?xf32> {
  %s = fuse.reduce_sum %x {dims = array<i64: 0, 1>} : tensor<?x?x?xf32> -> tensor<?xf32>
  return %s : tensor<?xf32>
}

func.func @nhwc_norm(%x: tensor<?x?x?x?xf32>) -> (tensor<?x?x?x?xf32>, tensor<1x1x1x?xf32>) {
  %m = fuse.reduce_mean %x {dims = array<i64: 0, 1, 2>} : tensor<?x?x?x?xf32> -> tensor<1x1x1x?xf32>
  %d = fuse.sub %x, %m : tensor<?x?x?x?xf32>, tensor<1x1x1x?xf32> -> tensor<?x?x?x?xf32>
  %sq = fuse.mul %d, %d : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32> -> tensor<?x?x?x?xf32>
  %v = fuse.reduce_mean %sq {dims = array<i64: 0, 1, 2>} : tensor<?x?x?x?xf32> -> tensor<1x1x1x?xf32>
  %eps = fuse.constant 1.0e-5 : tensor<f32>
  %ve = fuse.add %v, %eps : tensor<1x1x1x?xf32>, tensor<f32> -> tensor<1x1x1x?xf32>
  %r = fuse.rsqrt %ve : tensor<1x1x1x?xf32>
  %y = fuse.mul %d, %r : tensor<?x?x?x?xf32>, tensor<1x1x1x?xf32> -> tensor<?x?x?x?xf32>
  return %y, %r : tensor<?x?x?x?xf32>, tensor<1x1x1x?xf32>
}

func.func @nchw_sum(%x: tensor<?x?x?x?xf32>) -> tensor<?xf32> {
  %s = fuse.reduce_sum %x {dims = array<i64: 0, 2, 3>} : tensor<?x?x?x?xf32> -> tensor<?xf32>
  return %s : tensor<?xf32>
}

func.func @nchw_norm(%x: tensor<?x?x?x?xf32>) -> (tensor<?x?x?x?xf32>, tensor<1x?x1x1xf32>) {
  %m = fuse.reduce_mean %x {dims = array<i64: 0, 2, 3>} : tensor<?x?x?x?xf32> -> tensor<1x?x1x1xf32>
  %d = fuse.sub %x, %m : tensor<?x?x?x?xf32>, tensor<1x?x1x1xf32> -> tensor<?x?x?x?xf32>
  %sq = fuse.mul %d, %d : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32> -> tensor<?x?x?x?xf32>
  %v = fuse.reduce_mean %sq {dims = array<i64: 0, 2, 3>} : tensor<?x?x?x?xf32> -> tensor<1x?x1x1xf32>
  %eps = fuse.constant 1.0e-5 : tensor<f32>
  %ve = fuse.add %v, %eps : tensor<1x?x1x1xf32>, tensor<f32> -> tensor<1x?x1x1xf32>
  %r = fuse.rsqrt %ve : tensor<1x?x1x1xf32>
  %y = fuse.mul %d, %r : tensor<?x?x?x?xf32>, tensor<1x?x1x1xf32> -> tensor<?x?x?x?xf32>
  return %y, %r : tensor<?x?x?x?xf32>, tensor<1x?x1x1xf32>
}
