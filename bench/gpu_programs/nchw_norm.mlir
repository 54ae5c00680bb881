// A batch norm's normalization of an NCHW tensor (each channel's mean and
// variance over N, H and W, keepdims): dimensions 0, 2 and 3 are not next
// to each other, so each reduction is two: each (n, c)'s H x W as a row in
// lanes, then each channel's N values as a column, in pieces. The
// scaling's kernel computes `x - mean` again from x.
func.func @nchw_norm(%x: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %m = fuse.reduce_mean %x {dims = array<i64: 0, 2, 3>} : tensor<?x?x?x?xf32> -> tensor<1x?x1x1xf32>
  %d = fuse.sub %x, %m : tensor<?x?x?x?xf32>, tensor<1x?x1x1xf32> -> tensor<?x?x?x?xf32>
  %sq = fuse.mul %d, %d : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32> -> tensor<?x?x?x?xf32>
  %v = fuse.reduce_mean %sq {dims = array<i64: 0, 2, 3>} : tensor<?x?x?x?xf32> -> tensor<1x?x1x1xf32>
  %eps = fuse.constant 1.0e-5 : tensor<f32>
  %ve = fuse.add %v, %eps : tensor<1x?x1x1xf32>, tensor<f32> -> tensor<1x?x1x1xf32>
  %r = fuse.rsqrt %ve : tensor<1x?x1x1xf32>
  %y = fuse.mul %d, %r : tensor<?x?x?x?xf32>, tensor<1x?x1x1xf32> -> tensor<?x?x?x?xf32>
  return %y : tensor<?x?x?x?xf32>
}
