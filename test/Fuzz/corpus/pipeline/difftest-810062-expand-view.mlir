func.func @prog(%a0: tensor<?x?x?xf64>, %a1: tensor<?x?xf64>) -> (tensor<?x1x1xf64>, tensor<?x?x?xi1>) {
  %v2 = fuse.add %a0, %a1 : tensor<?x?x?xf64>, tensor<?x?xf64> -> tensor<?x?x?xf64>
  %v3 = fuse.cast %v2 : tensor<?x?x?xf64> to tensor<?x?x?xbf16>
  %v4 = fuse.reduce_max %v2 {dims = array<i64: 2, 1, 0>} : tensor<?x?x?xf64> -> tensor<1x1x1xf64>
  %v5 = fuse.sub %v2, %v4 : tensor<?x?x?xf64>, tensor<1x1x1xf64> -> tensor<?x?x?xf64>
  %v6 = fuse.exp %v5 : tensor<?x?x?xf64>
  %v7 = fuse.cast %v3 : tensor<?x?x?xbf16> to tensor<?x?x?xf16>
  %v8 = fuse.constant 32.5 : tensor<f16>
  %v9 = fuse.cmp ge, %v7, %v8 : tensor<?x?x?xf16>, tensor<f16> -> tensor<?x?x?xi1>
  %v10 = fuse.reduce_mean %v6 {dims = array<i64: 1, 2>} : tensor<?x?x?xf64> -> tensor<?x1x1xf64>
  return %v10, %v9 : tensor<?x1x1xf64>, tensor<?x?x?xi1>
}
