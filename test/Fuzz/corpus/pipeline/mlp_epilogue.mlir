// The epilogue after an MLP's matmul: y = (gelu(x + bias) + residual) * 0.5,
// with the bias broadcast over the rows and gelu's tanh approximation. Eager
// it is four kernels that each stream the whole activation in and out; fused
// it is one that reads x, bias and residual once and writes y once.
func.func @mlp_epilogue(%x: tensor<?x?xf32>, %bias: tensor<?xf32>, %residual: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %scale = fuse.constant 0.5 : tensor<f32>
  %0 = fuse.add %x, %bias : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %1 = fuse.gelu %0 {approximate = "tanh"} : tensor<?x?xf32>
  %2 = fuse.add %1, %residual : tensor<?x?xf32>
  %3 = fuse.mul %2, %scale : tensor<?x?xf32>, tensor<f32> -> tensor<?x?xf32>
  return %3 : tensor<?x?xf32>
}
