// Every reduction: layer norm of f16 rows (mean, variance, rsqrt), the
// range of each column (max - min over the first dimension, dropped) and
// the sum of every element of an integer tensor (wraps around).
func.func @reductions(%x: tensor<?x64xf16>, %gamma: tensor<64xf16>, %c: tensor<?x?x?xi32>) -> (tensor<?x64xf16>, tensor<64xf16>, tensor<i32>) {
  %mu = fuse.reduce_mean %x {dims = array<i64: 1>} : tensor<?x64xf16> -> tensor<?x1xf16>
  %d = fuse.sub %x, %mu : tensor<?x64xf16>, tensor<?x1xf16> -> tensor<?x64xf16>
  %q = fuse.mul %d, %d : tensor<?x64xf16>
  %v = fuse.reduce_mean %q {dims = array<i64: 1>} : tensor<?x64xf16> -> tensor<?x1xf16>
  %eps = fuse.constant 1.0e-05 : tensor<f16>
  %ve = fuse.add %v, %eps : tensor<?x1xf16>, tensor<f16> -> tensor<?x1xf16>
  %rs = fuse.rsqrt %ve : tensor<?x1xf16>
  %n = fuse.mul %d, %rs : tensor<?x64xf16>, tensor<?x1xf16> -> tensor<?x64xf16>
  %y = fuse.mul %n, %gamma : tensor<?x64xf16>, tensor<64xf16> -> tensor<?x64xf16>
  %hi = fuse.reduce_max %x {dims = array<i64: 0>} : tensor<?x64xf16> -> tensor<64xf16>
  %lo = fuse.reduce_min %x {dims = array<i64: 0>} : tensor<?x64xf16> -> tensor<64xf16>
  %range = fuse.sub %hi, %lo : tensor<64xf16>
  %total = fuse.reduce_sum %c {dims = array<i64: 0, 1, 2>} : tensor<?x?x?xi32> -> tensor<i32>
  return %y, %range, %total : tensor<?x64xf16>, tensor<64xf16>, tensor<i32>
}
