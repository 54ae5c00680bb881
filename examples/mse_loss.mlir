// Mean squared error, a loss: mean((p - t)^2) over every element of two
// N x M tensors. The sum runs over both dimensions, the innermost ones: one
// row of N*M elements (the dimensions collapsed), a single row and so split
// in pieces (N*M / 1024 rounded up to a power of two, at most 4096). Fused,
// a first kernel reads p and t once and writes a partial sum per piece; a
// second sums them and divides by N*M. Eager, the
// difference and the square each write an N x M tensor that the next
// kernel reads back.
func.func @mse_loss(%p: tensor<?x?xf32>, %t: tensor<?x?xf32>) -> tensor<f32> {
  %d = fuse.sub %p, %t : tensor<?x?xf32>
  %sq = fuse.mul %d, %d : tensor<?x?xf32>
  %loss = fuse.reduce_mean %sq {dims = array<i64: 0, 1>} : tensor<?x?xf32> -> tensor<f32>
  return %loss : tensor<f32>
}
