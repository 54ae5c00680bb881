// A producer in a kernel with a reduction, also a result of the function
// (through a cast to the function's result type, placed before the
// kernel's last generic).
func.func @f(%a: tensor<?x?xf32>, %b: tensor<?x6xf32>) -> (tensor<?x6xf32>, tensor<?x?xf32>) {
  %c = fuse.neg %a : tensor<?x?xf32>
  %m = fuse.reduce_min %c {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %p = fuse.mul %m, %b : tensor<1x?xf32>, tensor<?x6xf32> -> tensor<?x6xf32>
  return %p, %c : tensor<?x6xf32>, tensor<?x?xf32>
}
