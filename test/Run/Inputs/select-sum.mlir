// A sum of values chosen by an i1 mask: fused, the kernel reads the i1
// (a byte per element) in the sum's loop; eager, the sum's kernel reads
// f32 only. The order of the sum must not depend on it.
func.func @select_sum(%m: tensor<?x?xi1>, %a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?xf32> {
  %v = fuse.select %m, %a, %b : tensor<?x?xi1>, tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  %l = fuse.abs %v : tensor<?x?xf32>
  %s = fuse.reduce_sum %l {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  return %s : tensor<?xf32>
}
