func.func @f(%a: tensor<1x3x?xf32>, %b: tensor<?xf32>) -> tensor<1x3x?xf32> {
  %0 = fuse.mul %a, %b : tensor<1x3x?xf32>, tensor<?xf32> -> tensor<1x3x?xf32>
  return %0 : tensor<1x3x?xf32>
}
