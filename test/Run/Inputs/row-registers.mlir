// Two passes over each row and a result over the row: the max, then the
// sum of squares of x - max, then (x - max) / sum. On the GPU a row of at
// most 1024 elements stays in the warp's registers between the passes
// (RowForm::registers), a longer one is read again by each pass.
func.func @row_registers(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %d = fuse.sub %x, %m : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %q = fuse.mul %d, %d : tensor<?x?xf32>
  %s = fuse.reduce_sum %q {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %y = fuse.div %d, %s : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
