// Layer norm over the last dimension, as torch.nn.functional.layer_norm:
// y = (x - mean) * rsqrt(var + eps) * weight + bias, with the mean and the
// biased variance of each row, eps = 1e-5, and weight and bias of the row's
// length broadcast over the rows. Fused it is one kernel that reads x,
// weight and bias once and writes y once. This is the textbook two-pass
// form: a row of one large value (768 copies of 33333.33) has a rounded mean
// an ulp away and normalizes to about +-1; Python's fuse.layer_norm corrects
// the mean by the mean of %centered (summed in the same pass as %sq) and
// gives 0 there.
func.func @layer_norm(%x: tensor<?x?xf32>, %weight: tensor<?xf32>, %bias: tensor<?xf32>) -> tensor<?x?xf32> {
  %eps = fuse.constant 1.0e-05 : tensor<f32>
  %mean = fuse.reduce_mean %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %centered = fuse.sub %x, %mean : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %sq = fuse.mul %centered, %centered : tensor<?x?xf32>
  %var = fuse.reduce_mean %sq {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %ve = fuse.add %var, %eps : tensor<?x1xf32>, tensor<f32> -> tensor<?x1xf32>
  %rstd = fuse.rsqrt %ve : tensor<?x1xf32>
  %norm = fuse.mul %centered, %rstd : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %scaled = fuse.mul %norm, %weight : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %y = fuse.add %scaled, %bias : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
