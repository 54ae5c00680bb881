

func.func @i32_too_large() -> tensor<i32> {
  // expected-error @+1 {{value does not fit in i32}}
  %0 = fuse.constant 2