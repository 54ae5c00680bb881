func.func @twice(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = fuse.add %x, %x : tensor<?xf32>
  return %y : tensor<?xf32>
}
