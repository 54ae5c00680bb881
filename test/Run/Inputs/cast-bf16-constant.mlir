// Integers to bf16 (cast-bf16-constant.test): at run time and as a
// constant the optimizer folds.
func.func @to_bf16(%x: tensor<?xi32>) -> (tensor<?xf32>, tensor<f32>, tensor<f32>) {
  %b = fuse.cast %x : tensor<?xi32> to tensor<?xbf16>
  %w = fuse.cast %b : tensor<?xbf16> to tensor<?xf32>
  %c = fuse.constant 16842753 : tensor<i32>
  %cb = fuse.cast %c : tensor<i32> to tensor<bf16>
  %cw = fuse.cast %cb : tensor<bf16> to tensor<f32>
  %l = fuse.constant 1103806595073 : tensor<i64>
  %lb = fuse.cast %l : tensor<i64> to tensor<bf16>
  %lw = fuse.cast %lb : tensor<bf16> to tensor<f32>
  return %w, %cw, %lw : tensor<?xf32>, tensor<f32>, tensor<f32>
}
