// A sum over the middle dimension of three: its rows (one per pair of
// outer and inner index) are read a thread per piece, neighbouring threads
// on neighbouring inner indices. The GPU check runs it on 64 x R x 16.
func.func @middle_sum(%x: tensor<?x?x?xf32>) -> tensor<?x?xf32> {
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?x?xf32> -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}
