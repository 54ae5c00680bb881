// A sum of f16 data widened to f32: fused, the kernel's narrowest element
// is f16; eager, the sum's kernel sees f32 only. The order of the sum must
// not depend on it.
func.func @cast_sum(%x: tensor<?x?xf16>) -> tensor<?xf32> {
  %y = fuse.cast %x : tensor<?x?xf16> to tensor<?x?xf32>
  %s = fuse.reduce_sum %y {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  return %s : tensor<?xf32>
}
