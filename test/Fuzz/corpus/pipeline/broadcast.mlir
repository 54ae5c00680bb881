// A kernel boundary at a broadcast: the gate sigmoid(gamma) lives on [M] and
// is consumed by an op over [N,M]. They are different iteration spaces, so the
// gate is its own kernel, written once and read back by the [N,M] kernel.
func.func @broadcast(%x: tensor<?x?xf32>, %gamma: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = fuse.sigmoid %gamma : tensor<?xf32>
  %1 = fuse.mul %x, %0 : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %2 = fuse.relu %1 : tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}
