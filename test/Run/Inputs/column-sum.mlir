// Sums over the leading dimension of an N x 4 matrix: 4 rows (columns),
// not read in lanes, in pieces of about 32 elements (up to 65536 each),
// split in two kernels (a thread per piece, neighbouring threads on
// neighbouring columns); the second sum's divide the columns in a kernel
// of their own.
func.func @cols(%x: tensor<?x4xf32>) -> (tensor<4xf32>, tensor<?x4xf32>) {
  %s = fuse.reduce_sum %x {dims = array<i64: 0>} : tensor<?x4xf32> -> tensor<4xf32>
  %t = fuse.reduce_sum %x {dims = array<i64: 0>} : tensor<?x4xf32> -> tensor<1x4xf32>
  %y = fuse.div %x, %t : tensor<?x4xf32>, tensor<1x4xf32> -> tensor<?x4xf32>
  return %s, %y : tensor<4xf32>, tensor<?x4xf32>
}
