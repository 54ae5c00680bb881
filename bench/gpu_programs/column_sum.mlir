// A sum over dimension 0 (of each column): the columns in pieces of about
// 32 elements, a thread per piece (neighbouring threads on neighbouring
// columns), then a thread per column sums its pieces' values. The GPU check
// runs it on a few long columns (R x 1024) and on many short ones
// (1024 x R).
func.func @column_sum(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %s = fuse.reduce_sum %x {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<?xf32>
  return %s : tensor<?xf32>
}
