func.func @math(%x: tensor<?xf32>, %d: tensor<?xf64>)
    -> (tensor<?xf32>, tensor<?xf64>) {
  %0 = fuse.exp %x : tensor<?xf32>
  %1 = fuse.log %0 : tensor<?xf32>
  %2 = fuse.pow %1, %x : tensor<?xf32>
  %3 = fuse.sin %2 : tensor<?xf32>
  %4 = fuse.cos %3 : tensor<?xf32>
  %5 = fuse.tanh %4 : tensor<?xf32>
  %6 = fuse.sqrt %5 : tensor<?xf32>
  %7 = fuse.floor %6 : tensor<?xf32>
  %8 = fuse.exp %d : tensor<?xf64>
  return %7, %8 : tensor<?xf32>, tensor<?xf64>
}
