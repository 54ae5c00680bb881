// A sum over the rows: one warp per row, with warp shuffles (shfl.sync).
func.func @f(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %0 = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
