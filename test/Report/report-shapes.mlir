// RUN: fuse-opt %s --fuse-report=json | FileCheck %s

// "shapes": what each size of each argument must be for a run: a number
// (its type's, or one that broadcasting asserts it equal to), the name of
// a size of "sizes" (asserted equal to that argument's dimension), or null
// (nothing asserts it: an argument no kernel reads). fuse.explain checks
// its arrays against them.

// %x and %y are asserted equal to %w's static 4.
// CHECK-LABEL: "name": "static_asserted",
// CHECK-NEXT:  "shapes": [
// CHECK-NEXT:    [
// CHECK-NEXT:      4
// CHECK-NEXT:    ],
// CHECK-NEXT:    [
// CHECK-NEXT:      4
// CHECK-NEXT:    ],
// CHECK-NEXT:    [
// CHECK-NEXT:      4
// CHECK-NEXT:    ]
// CHECK-NEXT:  ],
// CHECK-NEXT:  "sizes": []
func.func @static_asserted(%x: tensor<?xf32>, %w: tensor<4xf32>, %y: tensor<?xf32>) -> tensor<4xf32> {
  %0 = fuse.add %x, %w : tensor<?xf32>, tensor<4xf32> -> tensor<4xf32>
  %1 = fuse.add %0, %y : tensor<4xf32>, tensor<?xf32> -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// A bias over the channels of an N x C x H x W input: its 1s are its
// type's, its C is %x's dimension 1 (M). %unused is read by no kernel.
// CHECK-LABEL: "name": "bias_per_channel",
// CHECK-NEXT:  "shapes": [
// CHECK-NEXT:    [
// CHECK-NEXT:      "N",
// CHECK-NEXT:      "M",
// CHECK-NEXT:      "K",
// CHECK-NEXT:      "L"
// CHECK-NEXT:    ],
// CHECK-NEXT:    [
// CHECK-NEXT:      1,
// CHECK-NEXT:      "M",
// CHECK-NEXT:      1,
// CHECK-NEXT:      1
// CHECK-NEXT:    ],
// CHECK-NEXT:    [
// CHECK-NEXT:      null,
// CHECK-NEXT:      null
// CHECK-NEXT:    ]
// CHECK-NEXT:  ],
func.func @bias_per_channel(%x: tensor<?x?x?x?xf32>, %b: tensor<1x?x1x1xf32>, %unused: tensor<?x?xf32>) -> tensor<?x?x?x?xf32> {
  %0 = fuse.add %x, %b : tensor<?x?x?x?xf32>, tensor<1x?x1x1xf32> -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}
