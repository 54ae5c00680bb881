func.func @prog(%a0: tensor<?x?xf32>, %a1: tensor<1x7x2xf32>) -> (tensor<1x7x2xi1>) {
  %v1 = fuse.constant nan : tensor<f32>
  %v2 = fuse.sub %a0, %v1 : tensor<?x?xf32>, tensor<f32> -> tensor<?x?xf32>
  %v3 = fuse.reduce_max %v2 {dims = array<i64: 0, 1>} : tensor<?x?xf32> -> tensor<1x1xf32>
  %v4 = fuse.sub %v2, %v3 : tensor<?x?xf32>, tensor<1x1xf32> -> tensor<?x?xf32>
  %v5 = fuse.max %v2, %v4 : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  %v7 = fuse.cast %a1 : tensor<1x7x2xf32> to tensor<1x7x2xbf16>
  %v8 = fuse.cast %v5 : tensor<?x?xf32> to tensor<?x?xbf16>
  %v9 = fuse.cmp le, %v7, %v8 : tensor<1x7x2xbf16>, tensor<?x?xbf16> -> tensor<1x7x2xi1>
  return %v9 : tensor<1x7x2xi1>
}
