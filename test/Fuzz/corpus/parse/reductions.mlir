// The reductions on every element type they accept, keeping the reduced
// dimensions (size 1) or dropping them, over one, several or all
// dimensions, static and dynamic.
func.func @reduce_sum(%f16: tensor<?x8xf16>, %bf16: tensor<2x3x4xbf16>, %i64: tensor<?x?xi64>) -> (tensor<?xf16>, tensor<1x3x1xbf16>, tensor<i64>) {
  %0 = fuse.reduce_sum %f16 {dims = array<i64: 1>} : tensor<?x8xf16> -> tensor<?xf16>
  %1 = fuse.reduce_sum %bf16 {dims = array<i64: 0, 2>} : tensor<2x3x4xbf16> -> tensor<1x3x1xbf16>
  %2 = fuse.reduce_sum %i64 {dims = array<i64: 0, 1>} : tensor<?x?xi64> -> tensor<i64>
  return %0, %1, %2 : tensor<?xf16>, tensor<1x3x1xbf16>, tensor<i64>
}

func.func @reduce_max(%f32: tensor<?x?x?xf32>, %i32: tensor<5x?xi32>) -> (tensor<?x1x?xf32>, tensor<?xi32>) {
  %0 = fuse.reduce_max %f32 {dims = array<i64: 1>} : tensor<?x?x?xf32> -> tensor<?x1x?xf32>
  %1 = fuse.reduce_max %i32 {dims = array<i64: 0>} : tensor<5x?xi32> -> tensor<?xi32>
  return %0, %1 : tensor<?x1x?xf32>, tensor<?xi32>
}

func.func @reduce_min(%f64: tensor<?xf64>, %i64: tensor<3x?xi64>) -> (tensor<f64>, tensor<3x1xi64>) {
  %0 = fuse.reduce_min %f64 {dims = array<i64: 0>} : tensor<?xf64> -> tensor<f64>
  %1 = fuse.reduce_min %i64 {dims = array<i64: 1>} : tensor<3x?xi64> -> tensor<3x1xi64>
  return %0, %1 : tensor<f64>, tensor<3x1xi64>
}

func.func @reduce_mean(%f16: tensor<?x?xf16>, %f64: tensor<4x?x2xf64>) -> (tensor<1x?xf16>, tensor<2xf64>) {
  %0 = fuse.reduce_mean %f16 {dims = array<i64: 0>} : tensor<?x?xf16> -> tensor<1x?xf16>
  %1 = fuse.reduce_mean %f64 {dims = array<i64: 1, 0>} : tensor<4x?x2xf64> -> tensor<2xf64>
  return %0, %1 : tensor<1x?xf16>, tensor<2xf64>
}
