// RMS norm over the last dimension, as torch.nn.functional.rms_norm:
// y = x * rsqrt(mean(x * x) + eps) * weight, with eps = 1e-6 and a weight of
// the row's length broadcast over the rows. Fused it is one kernel that reads
// x and weight once and writes y once.
func.func @rms_norm(%x: tensor<?x?xf32>, %weight: tensor<?xf32>) -> tensor<?x?xf32> {
  %eps = fuse.constant 1.0e-06 : tensor<f32>
  %sq = fuse.mul %x, %x : tensor<?x?xf32>
  %ms = fuse.reduce_mean %sq {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %me = fuse.add %ms, %eps : tensor<?x1xf32>, tensor<f32> -> tensor<?x1xf32>
  %rrms = fuse.rsqrt %me : tensor<?x1xf32>
  %norm = fuse.mul %x, %rrms : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %y = fuse.mul %norm, %weight : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
