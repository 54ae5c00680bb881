func.func @f(%x: tensor<?x?x?xf32>, %y: tensor<?x1x?xf32>) -> tensor<?x?x?xf32> {
  %1 = fuse.sub %x, %y : tensor<?x?x?xf32>, tensor<?x1x?xf32> -> tensor<?x?x?xf32>
  %2 = fuse.reduce_sum %1 {dims = array<i64: 1, 2>} : tensor<?x?x?xf32> -> tensor<?x1x1xf32>
  %3 = fuse.sqrt %2 : tensor<?x1x1xf32>
  %4 = fuse.mul %3, %x : tensor<?x1x1xf32>, tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  return %4 : tensor<?x?x?xf32>
}
