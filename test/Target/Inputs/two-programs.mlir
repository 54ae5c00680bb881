func.func @first(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.neg %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @second(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.exp %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
