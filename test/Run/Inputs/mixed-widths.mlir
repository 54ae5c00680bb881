// A kernel with a 64-bit and a 32-bit reduction (the f64 rows' maxima, the
// f32 means of the rows divided by them): no warp per row, a thread per
// row keeps each reduction's 32 partials. An f64 sum of the rows too.
func.func @mixed(%x: tensor<?x?xf64>) -> (tensor<?x1xf32>, tensor<?xf64>) {
  %m = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf64> -> tensor<?x1xf64>
  %d = fuse.div %x, %m : tensor<?x?xf64>, tensor<?x1xf64> -> tensor<?x?xf64>
  %c = fuse.cast %d : tensor<?x?xf64> to tensor<?x?xf32>
  %r = fuse.reduce_mean %c {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?xf64> -> tensor<?xf64>
  return %r, %s : tensor<?x1xf32>, tensor<?xf64>
}
