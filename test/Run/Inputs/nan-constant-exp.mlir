// exp and sigmoid of values that LLVM sees are NaN (a NaN constant added):
// the cpu target's exp converts its exponent to an integer, which LLVM
// makes poison for a NaN unless the NaN is taken out first.
func.func @nan_exp(%a: tensor<?xf32>, %b: tensor<?xf64>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf64>) {
  %n = fuse.constant nan : tensor<f32>
  %x = fuse.add %a, %n : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %e = fuse.exp %x : tensor<?xf32>
  %s = fuse.sigmoid %x : tensor<?xf32>
  %n64 = fuse.constant nan : tensor<f64>
  %y = fuse.add %b, %n64 : tensor<?xf64>, tensor<f64> -> tensor<?xf64>
  %e64 = fuse.exp %y : tensor<?xf64>
  return %e, %s, %e64 : tensor<?xf32>, tensor<?xf32>, tensor<?xf64>
}
