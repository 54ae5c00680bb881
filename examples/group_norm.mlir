// Group norm (torch.nn.functional.group_norm) on a view of an N x C x H x W
// activation as N x G x C/G x H x W: each (sample, group)'s C/G x H x W
// values are normalized by their mean and variance, then scaled and shifted
// by a weight and a bias per channel (1 x G x C/G x 1 x 1).
// Fused it is two kernels at 12 bytes per element: the statistics (a warp
// per (sample, group) row, the mean, then the mean of the squared
// differences), and the normalization, which computes x - mean again from
// x rather than read it: the weight, broadcast along only part of the
// row's dimensions, keeps that kernel over the uncollapsed space.
func.func @group_norm(%x: tensor<?x?x?x?x?xf32>, %weight: tensor<1x?x?x1x1xf32>, %bias: tensor<1x?x?x1x1xf32>) -> tensor<?x?x?x?x?xf32> {
  %mean = fuse.reduce_mean %x {dims = array<i64: 2, 3, 4>} : tensor<?x?x?x?x?xf32> -> tensor<?x?x1x1x1xf32>
  %centered = fuse.sub %x, %mean : tensor<?x?x?x?x?xf32>, tensor<?x?x1x1x1xf32> -> tensor<?x?x?x?x?xf32>
  %squares = fuse.mul %centered, %centered : tensor<?x?x?x?x?xf32>
  %var = fuse.reduce_mean %squares {dims = array<i64: 2, 3, 4>} : tensor<?x?x?x?x?xf32> -> tensor<?x?x1x1x1xf32>
  %eps = fuse.constant 1.0e-05 : tensor<f32>
  %shifted = fuse.add %var, %eps : tensor<?x?x1x1x1xf32>, tensor<f32> -> tensor<?x?x1x1x1xf32>
  %rstd = fuse.rsqrt %shifted : tensor<?x?x1x1x1xf32>
  %normalized = fuse.mul %centered, %rstd : tensor<?x?x?x?x?xf32>, tensor<?x?x1x1x1xf32> -> tensor<?x?x?x?x?xf32>
  %scaled = fuse.mul %normalized, %weight : tensor<?x?x?x?x?xf32>, tensor<1x?x?x1x1xf32> -> tensor<?x?x?x?x?xf32>
  %y = fuse.add %scaled, %bias : tensor<?x?x?x?x?xf32>, tensor<1x?x?x1x1xf32> -> tensor<?x?x?x?x?xf32>
  return %y : tensor<?x?x?x?x?xf32>
}
