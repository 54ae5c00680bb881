// From the emulated-GPU differential run (seed 204, minimized): eager,
// cmp_1 compares over a 0x1x1 shape and launches nothing.
func.func @prog(%a0: tensor<1xf16>, %a1: tensor<1xf16>, %a2: tensor<0x1x1xf16>, %a3: tensor<1xf16>) -> (tensor<0x1x1xf16>) {
  %v1 = fuse.gelu %a0 {approximate = "tanh"} : tensor<1xf16>
  %v3 = fuse.constant 0.0 : tensor<f16>
  %v4 = fuse.constant 0.0 : tensor<f16>
  %v5 = fuse.cmp le, %a1, %v4 : tensor<1xf16>, tensor<f16> -> tensor<1xi1>
  %v7 = fuse.select %v5, %v3, %a2 : tensor<1xi1>, tensor<f16>, tensor<0x1x1xf16> -> tensor<0x1x1xf16>
  %v9 = fuse.cmp eq, %v7, %v1 : tensor<0x1x1xf16>, tensor<1xf16> -> tensor<0x1x1xi1>
  %v10 = fuse.constant -2.5 : tensor<f16>
  %v11 = fuse.select %v9, %a3, %v10 : tensor<0x1x1xi1>, tensor<1xf16>, tensor<f16> -> tensor<0x1x1xf16>
  return %v11 : tensor<0x1x1xf16>
}
