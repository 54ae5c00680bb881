// Two results from one kernel: the gate g = sigmoid(x + y) and the output
// (x + y) * g. The kernel computes the sum once, in a register, for both the
// sigmoid and the mul, and never writes it; both results come out of it.
func.func @two_outputs(%x: tensor<?xf32>, %y: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %s = fuse.add %x, %y : tensor<?xf32>
  %g = fuse.sigmoid %s : tensor<?xf32>
  %o = fuse.mul %s, %g : tensor<?xf32>
  return %o, %g : tensor<?xf32>, tensor<?xf32>
}
