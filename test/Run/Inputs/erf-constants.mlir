// erf of erf of erf of constants: LLVM folds C library calls on constants
// with the host's double-precision erf, which differs in the last bit from
// erff at run time (-0.7666442 vs -0.76664418 for the second element).
func.func @prog() -> tensor<4xf32> {
  %v0 = fuse.constant dense<[-0.00795745849609375, -2338.0, -1.1533203125, -0.0]> : tensor<4xf16>
  %v1 = fuse.cast %v0 : tensor<4xf16> to tensor<4xf32>
  %v2 = fuse.erf %v1 : tensor<4xf32>
  %v3 = fuse.erf %v2 : tensor<4xf32>
  %v4 = fuse.erf %v3 : tensor<4xf32>
  return %v4 : tensor<4xf32>
}
