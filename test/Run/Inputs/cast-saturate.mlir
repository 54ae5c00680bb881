// Float to integer casts of every kind of value (cast-saturate.test): run
// time values of f32, f64 and f16 to i32 and i64, and constants the
// optimizer sees, broadcast over %z (zeros).
func.func @casts(%a: tensor<?xf32>, %d: tensor<?xf64>, %h: tensor<?xf16>, %z: tensor<2xi64>)
    -> (tensor<?xi32>, tensor<?xi64>, tensor<?xi32>, tensor<?xi64>, tensor<?xi32>, tensor<?xi64>, tensor<2xi64>) {
  %a32 = fuse.cast %a : tensor<?xf32> to tensor<?xi32>
  %a64 = fuse.cast %a : tensor<?xf32> to tensor<?xi64>
  %d32 = fuse.cast %d : tensor<?xf64> to tensor<?xi32>
  %d64 = fuse.cast %d : tensor<?xf64> to tensor<?xi64>
  %h32 = fuse.cast %h : tensor<?xf16> to tensor<?xi32>
  %h64 = fuse.cast %h : tensor<?xf16> to tensor<?xi64>
  %nan = fuse.constant nan : tensor<f32>
  %big = fuse.constant 3.9e9 : tensor<f64>
  %low = fuse.constant -1.0e19 : tensor<f64>
  %ninf = fuse.constant 0xFC00 : tensor<f16>
  %c0 = fuse.cast %nan : tensor<f32> to tensor<i64>
  %c1 = fuse.cast %big : tensor<f64> to tensor<i32>
  %c1w = fuse.cast %c1 : tensor<i32> to tensor<i64>
  %c2 = fuse.cast %low : tensor<f64> to tensor<i64>
  %c3 = fuse.cast %ninf : tensor<f16> to tensor<i32>
  %c3w = fuse.cast %c3 : tensor<i32> to tensor<i64>
  // 0 + INT32_MAX + INT64_MIN + INT32_MIN, wrapping: INT64_MIN - 1 + ...
  %s0 = fuse.add %z, %c0 : tensor<2xi64>, tensor<i64> -> tensor<2xi64>
  %s1 = fuse.add %s0, %c1w : tensor<2xi64>, tensor<i64> -> tensor<2xi64>
  %s2 = fuse.add %s1, %c2 : tensor<2xi64>, tensor<i64> -> tensor<2xi64>
  %s3 = fuse.add %s2, %c3w : tensor<2xi64>, tensor<i64> -> tensor<2xi64>
  return %a32, %a64, %d32, %d64, %h32, %h64, %s3 : tensor<?xi32>, tensor<?xi64>, tensor<?xi32>, tensor<?xi64>, tensor<?xi32>, tensor<?xi64>, tensor<2xi64>
}
