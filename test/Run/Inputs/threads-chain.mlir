// Exact ops and the cpu target's polynomial functions, in one kernel.
func.func @chain(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.tanh %x : tensor<?xf32>
  %1 = fuse.mul %0, %x : tensor<?xf32>
  %2 = fuse.exp %1 : tensor<?xf32>
  %3 = fuse.sigmoid %2 : tensor<?xf32>
  %4 = fuse.add %3, %x : tensor<?xf32>
  return %4 : tensor<?xf32>
}
