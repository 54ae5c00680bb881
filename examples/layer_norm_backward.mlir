// The backward pass of layer norm over the last dimension, as
// torch.nn.functional.layer_norm's gradient: from the output gradient dy,
// the input x, the weight, and the mean and rsqrt(var + eps) of each row
// that the forward pass saved, with xhat = (x - mean) * rstd:
//   dx = (w * dy - (xhat * mean(xhat * w * dy) + mean(w * dy))) * rstd,
//   dweight = sum over rows of dy * xhat, dbias = sum over rows of dy.
// Fused it is three kernels: dx (a warp per row, the two row means), the
// two column sums in pieces (one kernel reads dy and x once for both,
// computing xhat again rather than storing it), and the sums of the pieces.
func.func @layer_norm_backward(%dy: tensor<?x?xf32>, %x: tensor<?x?xf32>, %weight: tensor<?xf32>, %mean: tensor<?x1xf32>, %rstd: tensor<?x1xf32>) -> (tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %centered = fuse.sub %x, %mean : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %xhat = fuse.mul %centered, %rstd : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %dyxhat = fuse.mul %dy, %xhat : tensor<?x?xf32>
  %dweight = fuse.reduce_sum %dyxhat {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<?xf32>
  %dbias = fuse.reduce_sum %dy {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<?xf32>
  %wdy = fuse.mul %dy, %weight : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %xhatwdy = fuse.mul %xhat, %wdy : tensor<?x?xf32>
  %c1 = fuse.reduce_mean %xhatwdy {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %c2 = fuse.reduce_mean %wdy {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %scaled = fuse.mul %xhat, %c1 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %shifted = fuse.add %scaled, %c2 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %diff = fuse.sub %wdy, %shifted : tensor<?x?xf32>
  %dx = fuse.mul %diff, %rstd : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  return %dx, %dweight, %dbias : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>
}
