// A reduction over a dimension that is not the innermost (a thread per
// group of columns, 32 accumulators each) with a math function over its
// result in the same kernel: each lane's log has its rare case (subnormal
// arguments) in a branch, and the cpu target's kernel is a control-flow
// graph of hundreds of blocks, whose region simplification in
// expand-strided-metadata did not finish (log_softmax over axis 0 of a 3-D
// float32 array, from Python, never returned). `timeout` makes a hang a
// failure. Every element of x is 1 here: the sum over dimension 0 is 3 and
// the result 1 - log(3) = -0.0986123 everywhere (over dimension 1, 1 -
// log(70) = -3.2485).

// RUN: timeout 120 fuse-run %s --target=cpu --entry=@over_first --input fill:1:3x70x40 --check | FileCheck %s --check-prefix=FIRST
// FIRST: check: result 0 matches eager (8400 elements)
// FIRST-NEXT: result 0: float32 [3x70x40] = [-0.0986123, -0.0986123, {{.*}}]  sum = -828.343{{[0-9]*$}}
// RUN: timeout 120 fuse-run %s --target=cpu --entry=@over_middle --input fill:1:3x70x40 --check | FileCheck %s --check-prefix=MIDDLE
// MIDDLE: check: result 0 matches eager (8400 elements)
// MIDDLE-NEXT: result 0: float32 [3x70x40] = [-3.2485, -3.2485, {{.*}}]  sum = -27287.3{{[0-9]*$}}

func.func @over_first(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %sum = fuse.reduce_sum %x {dims = array<i64: 0>} : tensor<?x?x?xf32> -> tensor<1x?x?xf32>
  %log = fuse.log %sum : tensor<1x?x?xf32>
  %y = fuse.sub %x, %log : tensor<?x?x?xf32>, tensor<1x?x?xf32> -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}

func.func @over_middle(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %sum = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?x?xf32> -> tensor<?x1x?xf32>
  %log = fuse.log %sum : tensor<?x1x?xf32>
  %y = fuse.sub %x, %log : tensor<?x?x?xf32>, tensor<?x1x?xf32> -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}
