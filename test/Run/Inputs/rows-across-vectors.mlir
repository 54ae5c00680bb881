// Broadcasts over rows that are not a whole number of a GPU thread's
// vectors (rows-across-vectors-cuda.test): a scale and a shift per channel
// of 7 x 7 images (rows of 49 after the merge; a batch norm at inference)
// and a bias along rows of 196 f16 (8 lanes), each vector from its two
// rows; a scale along and a bias per row of 49 (the scale reads the rows:
// the generic path), and rows of 3 (shorter than a vector: the generic
// path).
func.func @rows(%x: tensor<?x?x7x7xf32>, %a: tensor<1x?x1x1xf32>, %b: tensor<1x?x1x1xf32>,
                %y: tensor<?x49xf32>, %c: tensor<49xf32>, %s: tensor<?x1xf32>,
                %h: tensor<?x196xf16>, %e: tensor<196xf16>,
                %z: tensor<?x3xf32>, %d: tensor<3xf32>)
    -> (tensor<?x?x7x7xf32>, tensor<?x49xf32>, tensor<?x196xf16>, tensor<?x3xf32>) {
  %xa = fuse.mul %x, %a : tensor<?x?x7x7xf32>, tensor<1x?x1x1xf32> -> tensor<?x?x7x7xf32>
  %0 = fuse.add %xa, %b : tensor<?x?x7x7xf32>, tensor<1x?x1x1xf32> -> tensor<?x?x7x7xf32>
  %1 = fuse.relu %0 : tensor<?x?x7x7xf32>
  %2 = fuse.mul %y, %c : tensor<?x49xf32>, tensor<49xf32> -> tensor<?x49xf32>
  %3 = fuse.add %2, %s : tensor<?x49xf32>, tensor<?x1xf32> -> tensor<?x49xf32>
  %4 = fuse.sub %h, %e : tensor<?x196xf16>, tensor<196xf16> -> tensor<?x196xf16>
  %5 = fuse.mul %z, %d : tensor<?x3xf32>, tensor<3xf32> -> tensor<?x3xf32>
  return %1, %3, %4, %5 : tensor<?x?x7x7xf32>, tensor<?x49xf32>, tensor<?x196xf16>, tensor<?x3xf32>
}
