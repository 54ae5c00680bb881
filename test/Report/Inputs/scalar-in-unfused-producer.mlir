func.func @l(%x: tensor<7x1xf32>, %y: tensor<1x5xf32>, %s: tensor<f32>) -> tensor<7x5xf32> {
  %h = fuse.constant 0.5 : tensor<f32>
  %t = fuse.mul %s, %h : tensor<f32>
  %xs = fuse.pow %x, %t : tensor<7x1xf32>, tensor<f32> -> tensor<7x1xf32>
  %z = fuse.add %xs, %y : tensor<7x1xf32>, tensor<1x5xf32> -> tensor<7x5xf32>
  return %z : tensor<7x5xf32>
}
