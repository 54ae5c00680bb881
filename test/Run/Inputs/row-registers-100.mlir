// row-registers.mlir with rows of a constant 100 elements: 4 per lane, the
// last under a test against the length.
func.func @row_registers_100(%x: tensor<?x100xf32>) -> tensor<?x100xf32> {
  %m = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x100xf32> -> tensor<?x1xf32>
  %d = fuse.sub %x, %m : tensor<?x100xf32>, tensor<?x1xf32> -> tensor<?x100xf32>
  %q = fuse.mul %d, %d : tensor<?x100xf32>
  %s = fuse.reduce_sum %q {dims = array<i64: 1>} : tensor<?x100xf32> -> tensor<?x1xf32>
  %y = fuse.div %d, %s : tensor<?x100xf32>, tensor<?x1xf32> -> tensor<?x100xf32>
  return %y : tensor<?x100xf32>
}
