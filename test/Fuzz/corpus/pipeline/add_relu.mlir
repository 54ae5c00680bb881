// The seed's program: c = relu(a + b). Eager it is two kernels (add, relu)
// and five array-sized transfers; fused it is one kernel and three.
func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %sum = fuse.add %a, %b : tensor<?xf32>
  %c = fuse.relu %sum : tensor<?xf32>
  return %c : tensor<?xf32>
}
