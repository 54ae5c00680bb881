// A chain of six ops, y = tanh(exp(-|x - z|) * x), unary and binary mixed.
// Eager it is six kernels and fourteen array-sized transfers; fused it is one
// kernel that reads x and z once (x feeds two ops) and writes y.
func.func @chain(%x: tensor<?xf32>, %z: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.sub %x, %z : tensor<?xf32>
  %1 = fuse.abs %0 : tensor<?xf32>
  %2 = fuse.neg %1 : tensor<?xf32>
  %3 = fuse.exp %2 : tensor<?xf32>
  %4 = fuse.mul %3, %x : tensor<?xf32>
  %5 = fuse.tanh %4 : tensor<?xf32>
  return %5 : tensor<?xf32>
}
