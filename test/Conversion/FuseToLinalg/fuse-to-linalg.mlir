// RUN: fuse-opt %s --convert-fuse-to-linalg | FileCheck %s

// The structure of the eager lowering: one linalg.generic per fuse op,
// broadcasting through indexing maps, dynamic sizes read once with
// tensor.dim, run-time checks of the sizes broadcasting assumes equal, and
// constants. The scalar body of every op is in scalar-bodies.mlir.

// CHECK-DAG: #[[$ID1:.+]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[$ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$INNER:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$COL:.+]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[$ROW:.+]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-DAG: #[[$SCALAR2:.+]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[$STRETCH1:.+]] = affine_map<(d0) -> (0)>
// CHECK-DAG: #[[$INNER_STRETCH:.+]] = affine_map<(d0, d1) -> (0)>
// CHECK-DAG: #[[$SCALAR0:.+]] = affine_map<() -> ()>

// One op, static shapes: an empty init, identity maps, the op's name in
// fuse.ops, and no size checks.
// CHECK-LABEL: func @static_same_shape
// CHECK-SAME: (%[[A:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<4x8xf32>)
// CHECK-NOT: cf.assert
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT: %[[R:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ID2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<4x8xf32>) outs(%[[INIT]] : tensor<4x8xf32>) attrs = {fuse.ops = ["add"]} {
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[SUM:.+]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[SUM]] : f32
// CHECK-NEXT: } -> tensor<4x8xf32>
// CHECK-NEXT: return %[[R]] : tensor<4x8xf32>
func.func @static_same_shape(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = fuse.add %a, %b : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// A chain is one generic per op (eager), each naming its own op.
// CHECK-LABEL: func @one_generic_per_op
// CHECK: %[[ADD:.+]] = linalg.generic {{.*}} attrs = {fuse.ops = ["add"]}
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}} ins(%[[ADD]] : tensor<4xf32>) {{.*}} attrs = {fuse.ops = ["relu"]}
// CHECK: arith.maximumf
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @one_generic_per_op(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.add %a, %b : tensor<4xf32>
  %1 = fuse.relu %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// A missing leading dimension is dropped from the map; `?` against `?` is
// checked at run time, with a message naming the op, its location and both
// dimensions.
// CHECK-LABEL: func @rank_expansion
// CHECK-SAME: (%[[A:.+]]: tensor<8x?xf32>, %[[B:.+]]: tensor<?xf32>)
// CHECK-DAG: %[[DA:.+]] = tensor.dim %[[A]], %c1{{.*}} : tensor<8x?xf32>
// CHECK-DAG: %[[DB:.+]] = tensor.dim %[[B]], %c0{{.*}} : tensor<?xf32>
// CHECK: %[[EQ:.+]] = arith.cmpi eq, %[[DA]], %[[DB]] : index
// CHECK-NEXT: cf.assert %[[EQ]], "fuse.add at {{.*}}fuse-to-linalg.mlir:[[@LINE+5]]:8: dimension 1 of argument 0 and dimension 0 of argument 1 must be equal (broadcasting assumes it)"
// CHECK-NEXT: %[[INIT:.+]] = tensor.empty(%[[DA]]) : tensor<8x?xf32>
// CHECK-NEXT: linalg.generic {indexing_maps = [#[[$ID2]], #[[$INNER]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[A]], %[[B]] : tensor<8x?xf32>, tensor<?xf32>) outs(%[[INIT]] : tensor<8x?xf32>)
// CHECK: arith.addf
func.func @rank_expansion(%a: tensor<8x?xf32>, %b: tensor<?xf32>) -> tensor<8x?xf32> {
  %0 = fuse.add %a, %b : tensor<8x?xf32>, tensor<?xf32> -> tensor<8x?xf32>
  return %0 : tensor<8x?xf32>
}

// Stretched size-1 dimensions read index 0: a column and a row make a
// matrix.
// CHECK-LABEL: func @stretch_size_one
// CHECK-SAME: (%[[C:.+]]: tensor<3x1xf32>, %[[R:.+]]: tensor<1x4xf32>)
// CHECK-NOT: cf.assert
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<3x4xf32>
// CHECK-NEXT: linalg.generic {indexing_maps = [#[[$COL]], #[[$ROW]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[C]], %[[R]] : tensor<3x1xf32>, tensor<1x4xf32>) outs(%[[INIT]] : tensor<3x4xf32>) attrs = {fuse.ops = ["mul"]}
// CHECK: arith.mulf
func.func @stretch_size_one(%c: tensor<3x1xf32>, %r: tensor<1x4xf32>) -> tensor<3x4xf32> {
  %0 = fuse.mul %c, %r : tensor<3x1xf32>, tensor<1x4xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// A size-1 dimension that meets size 1 is not stretched: it is no loop at
// all, the operands read without it and the result viewed back with it
// (fuse.type names the op's own type for the remarks).
// CHECK-LABEL: func @size_one_meets_one
// CHECK-SAME: (%[[A:.+]]: tensor<1x4xf32>, %[[B:.+]]: tensor<1x4xf32>)
// CHECK: %[[A1:.+]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1]] : tensor<1x4xf32> into tensor<4xf32>
// CHECK: %[[B1:.+]] = tensor.collapse_shape %[[B]] {{\[}}[0, 1]] : tensor<1x4xf32> into tensor<4xf32>
// CHECK: %[[SUB:.+]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[A1]], %[[B1]] : tensor<4xf32>, tensor<4xf32>) {{.*}} attrs = {fuse.ops = ["sub"], fuse.type = tensor<1x4xf32>}
// CHECK: %[[Y:.+]] = tensor.expand_shape %[[SUB]] {{\[}}[0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
// CHECK: return %[[Y]]
func.func @size_one_meets_one(%a: tensor<1x4xf32>, %b: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = fuse.sub %a, %b : tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// A static 1 against `?` stretches without a check; the `?` gives the size.
// CHECK-LABEL: func @static_one_meets_dynamic
// CHECK-SAME: (%[[A:.+]]: tensor<?xf32>, %[[ONE:.+]]: tensor<1xf32>)
// CHECK: %[[D:.+]] = tensor.dim %[[A]], %c0 : tensor<?xf32>
// CHECK-NOT: cf.assert
// CHECK: %[[INIT:.+]] = tensor.empty(%[[D]]) : tensor<?xf32>
// CHECK-NEXT: linalg.generic {indexing_maps = [#[[$ID1]], #[[$STRETCH1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[A]], %[[ONE]] : tensor<?xf32>, tensor<1xf32>)
func.func @static_one_meets_dynamic(%a: tensor<?xf32>, %one: tensor<1xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %one : tensor<?xf32>, tensor<1xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// `?` against a static 4 is checked to be 4.
// CHECK-LABEL: func @dynamic_meets_static
// CHECK-SAME: (%[[A:.+]]: tensor<?xf32>, %[[B:.+]]: tensor<4xf32>)
// CHECK: %[[D:.+]] = tensor.dim %[[A]], %c0 : tensor<?xf32>
// CHECK: %[[C4:.+]] = arith.constant 4 : index
// CHECK-NEXT: %[[EQ:.+]] = arith.cmpi eq, %[[D]], %[[C4]] : index
// CHECK-NEXT: cf.assert %[[EQ]], "fuse.sub at {{.*}}fuse-to-linalg.mlir:[[@LINE+4]]:8: dimension 0 of argument 0 must be 4 (broadcasting assumes it)"
// CHECK-NEXT: %[[INIT:.+]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[A]], %[[B]] : tensor<?xf32>, tensor<4xf32>) outs(%[[INIT]] : tensor<4xf32>)
func.func @dynamic_meets_static(%a: tensor<?xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.sub %a, %b : tensor<?xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// A 0-d argument maps to no dimension; a static 1 after a `?` to index 0.
// CHECK-LABEL: func @scalar_argument
// CHECK-SAME: (%[[X:.+]]: tensor<2x?xf32>, %[[S:.+]]: tensor<f32>, %[[ONE:.+]]: tensor<1xf32>)
// CHECK: %[[D:.+]] = tensor.dim %[[X]], %c1 : tensor<2x?xf32>
// CHECK-NOT: cf.assert
// CHECK: %[[INIT:.+]] = tensor.empty(%[[D]]) : tensor<2x?xf32>
// CHECK-NEXT: %[[MUL:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$SCALAR2]], #[[$ID2]]], {{.*}} ins(%[[X]], %[[S]] : tensor<2x?xf32>, tensor<f32>)
// CHECK: %[[INIT2:.+]] = tensor.empty(%[[D]]) : tensor<2x?xf32>
// CHECK-NEXT: linalg.generic {indexing_maps = [#[[$ID2]], #[[$INNER_STRETCH]], #[[$ID2]]], {{.*}} ins(%[[MUL]], %[[ONE]] : tensor<2x?xf32>, tensor<1xf32>) outs(%[[INIT2]] : tensor<2x?xf32>)
func.func @scalar_argument(%x: tensor<2x?xf32>, %s: tensor<f32>, %one: tensor<1xf32>) -> tensor<2x?xf32> {
  %0 = fuse.mul %x, %s : tensor<2x?xf32>, tensor<f32> -> tensor<2x?xf32>
  %1 = fuse.sub %0, %one : tensor<2x?xf32>, tensor<1xf32> -> tensor<2x?xf32>
  return %1 : tensor<2x?xf32>
}

// Each `?` of an argument is read once, at the entry, and shared by every
// op; a size already checked equal is not checked again (a == b and a == c
// give b == c).
// CHECK-LABEL: func @sizes_read_once
// CHECK-SAME: (%[[A:.+]]: tensor<?xf32>, %[[B:.+]]: tensor<?xf32>, %[[C:.+]]: tensor<?xf32>)
// CHECK-DAG: %[[DA:.+]] = tensor.dim %[[A]], %c0{{.*}} : tensor<?xf32>
// CHECK-DAG: %[[DB:.+]] = tensor.dim %[[B]], %c0{{.*}} : tensor<?xf32>
// CHECK-DAG: %[[DC:.+]] = tensor.dim %[[C]], %c0{{.*}} : tensor<?xf32>
// CHECK: %[[EQ1:.+]] = arith.cmpi eq, %[[DA]], %[[DB]] : index
// CHECK-NEXT: cf.assert %[[EQ1]], "fuse.add at {{.*}}:[[@LINE+16]]:8: dimension 0 of argument 0 and dimension 0 of argument 1 must be equal (broadcasting assumes it)"
// CHECK-NEXT: %[[EQ2:.+]] = arith.cmpi eq, %[[DA]], %[[DC]] : index
// CHECK-NEXT: cf.assert %[[EQ2]], "fuse.mul at {{.*}}:[[@LINE+15]]:8: dimension 0 of argument 0 and dimension 0 of argument 2 must be equal (broadcasting assumes it)"
// CHECK-NEXT: %[[E1:.+]] = tensor.empty(%[[DA]]) : tensor<?xf32>
// CHECK-NEXT: %[[ADD:.+]] = linalg.generic {{.*}} ins(%[[A]], %[[B]] : {{.*}}) outs(%[[E1]] : tensor<?xf32>)
// CHECK: %[[E2:.+]] = tensor.empty(%[[DA]]) : tensor<?xf32>
// CHECK-NEXT: %[[MUL:.+]] = linalg.generic {{.*}} ins(%[[ADD]], %[[C]] : {{.*}}) outs(%[[E2]] : tensor<?xf32>)
// CHECK-NOT: tensor.dim
// CHECK-NOT: cf.assert
// CHECK: %[[E3:.+]] = tensor.empty(%[[DA]]) : tensor<?xf32>
// CHECK-NEXT: %[[RELU:.+]] = linalg.generic {{.*}} ins(%[[MUL]] : tensor<?xf32>) outs(%[[E3]] : tensor<?xf32>)
// CHECK-NOT: tensor.dim
// CHECK-NOT: cf.assert
// CHECK: %[[E4:.+]] = tensor.empty(%[[DA]]) : tensor<?xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[B]], %[[C]] : {{.*}}) outs(%[[E4]] : tensor<?xf32>) attrs = {fuse.ops = ["sub"]}
func.func @sizes_read_once(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.mul %0, %c : tensor<?xf32>
  %2 = fuse.relu %1 : tensor<?xf32>
  %3 = fuse.sub %b, %c : tensor<?xf32>
  return %2, %3 : tensor<?xf32>, tensor<?xf32>
}

// An operand used twice is one input, read once, and its `?`s need no
// check.
// CHECK-LABEL: func @same_operand_twice
// CHECK-SAME: (%[[A:.+]]: tensor<?x?xf32>)
// CHECK-NOT: cf.assert
// CHECK: linalg.generic {indexing_maps = [#[[$ID2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[A]] : tensor<?x?xf32>)
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[SQ:.+]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[SQ]] : f32
func.func @same_operand_twice(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = fuse.mul %a, %a : tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// A shared size is the one of the first argument, whatever the operand
// order; the check names the dimensions in operand order.
// CHECK-LABEL: func @size_of_first_argument
// CHECK-SAME: (%[[A:.+]]: tensor<?xf32>, %[[B:.+]]: tensor<?xf32>)
// CHECK-DAG: %[[DA:.+]] = tensor.dim %[[A]], %c0{{.*}} : tensor<?xf32>
// CHECK-DAG: %[[DB:.+]] = tensor.dim %[[B]], %c0{{.*}} : tensor<?xf32>
// CHECK: %[[EQ:.+]] = arith.cmpi eq, %[[DB]], %[[DA]] : index
// CHECK-NEXT: cf.assert %[[EQ]], "fuse.sub at {{.*}}:[[@LINE+4]]:8: dimension 0 of argument 1 and dimension 0 of argument 0 must be equal (broadcasting assumes it)"
// CHECK-NEXT: %[[INIT:.+]] = tensor.empty(%[[DA]]) : tensor<?xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[B]], %[[A]] : tensor<?xf32>, tensor<?xf32>) outs(%[[INIT]] : tensor<?xf32>)
func.func @size_of_first_argument(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.sub %b, %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// select checks every dimension it assumes: its condition's `?` against the
// other value's `?`, and a `?` against a static 4.
// CHECK-LABEL: func @select_checks
// CHECK-SAME: (%[[M:.+]]: tensor<?x1xi1>, %[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<?x?xf32>)
// CHECK-DAG: %[[DM:.+]] = tensor.dim %[[M]], %c0{{.*}} : tensor<?x1xi1>
// CHECK-DAG: %[[DY0:.+]] = tensor.dim %[[Y]], %c0{{.*}} : tensor<?x?xf32>
// CHECK-DAG: %[[DY1:.+]] = tensor.dim %[[Y]], %c1{{.*}} : tensor<?x?xf32>
// CHECK: %[[EQ0:.+]] = arith.cmpi eq, %[[DM]], %[[DY0]] : index
// CHECK-NEXT: cf.assert %[[EQ0]], "fuse.select at {{.*}}:[[@LINE+11]]:8: dimension 0 of argument 0 and dimension 0 of argument 2 must be equal (broadcasting assumes it)"
// CHECK-NEXT: %[[C4:.+]] = arith.constant 4 : index
// CHECK-NEXT: %[[EQ1:.+]] = arith.cmpi eq, %[[DY1]], %[[C4]] : index
// CHECK-NEXT: cf.assert %[[EQ1]], "fuse.select at {{.*}}:[[@LINE+8]]:8: dimension 1 of argument 2 must be 4 (broadcasting assumes it)"
// CHECK: cf.assert %{{.+}}, "fuse.select at {{.*}}:[[@LINE+7]]:8: its result, of type tensor<?x4xf32>, would have more than 2^63 - 1 bytes with these argument sizes"
// CHECK-NEXT: %[[INIT:.+]] = tensor.empty(%[[DM]]) : tensor<?x4xf32>
// CHECK-NEXT: linalg.generic {indexing_maps = [#[[$COL]], #[[$INNER]], #[[$ID2]], #[[$ID2]]], {{.*}} ins(%[[M]], %[[X]], %[[Y]] : tensor<?x1xi1>, tensor<4xf32>, tensor<?x?xf32>) outs(%[[INIT]] : tensor<?x4xf32>) attrs = {fuse.ops = ["select"]}
// CHECK-NEXT: ^bb0(%[[C:.+]]: i1, %[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[SEL:.+]] = arith.select %[[C]], %[[A]], %[[B]] : f32
// CHECK-NEXT: linalg.yield %[[SEL]] : f32
func.func @select_checks(%m: tensor<?x1xi1>, %x: tensor<4xf32>, %y: tensor<?x?xf32>) -> tensor<?x4xf32> {
  %0 = fuse.select %m, %x, %y : tensor<?x1xi1>, tensor<4xf32>, tensor<?x?xf32> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// A `?` of a value that no fuse op made is read right after its definition,
// and the check names that op.
// CHECK-LABEL: func @size_of_other_op
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<?xf32>)
// CHECK: %[[DB:.+]] = tensor.dim %[[B]], %c0{{.*}} : tensor<?xf32>
// CHECK: %[[CAST:.+]] = tensor.cast %[[A]] : tensor<4xf32> to tensor<?xf32>
// CHECK-NEXT: %{{.+}} = arith.constant 0 : index
// CHECK-NEXT: %[[DCAST:.+]] = tensor.dim %[[CAST]], %{{.+}} : tensor<?xf32>
// CHECK-NEXT: %[[EQ:.+]] = arith.cmpi eq, %[[DCAST]], %[[DB]] : index
// CHECK-NEXT: cf.assert %[[EQ]], "fuse.add at {{.*}}:[[@LINE+7]]:8: dimension 0 of the result of 'tensor.cast' and dimension 0 of argument 1 must be equal (broadcasting assumes it)"
// CHECK: %[[RELU:.+]] = linalg.generic {{.*}} ins(%[[CAST]] : tensor<?xf32>)
// CHECK: %[[INIT:.+]] = tensor.empty(%[[DB]]) : tensor<?xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[RELU]], %[[B]] : tensor<?xf32>, tensor<?xf32>) outs(%[[INIT]] : tensor<?xf32>)
func.func @size_of_other_op(%a: tensor<4xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %o = tensor.cast %a : tensor<4xf32> to tensor<?xf32>
  %0 = fuse.relu %o : tensor<?xf32>
  %1 = fuse.add %0, %b : tensor<?xf32>
  return %1 : tensor<?xf32>
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

// A 0-d constant is inlined into the body as a scalar arith.constant, and
// the tensor constant disappears.
// CHECK-LABEL: func @scalar_constant_inlined
// CHECK-SAME: (%[[X:.+]]: tensor<?xf32>)
// CHECK-NOT: arith.constant {{.*}} : tensor<f32>
// CHECK: linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[X]] : tensor<?xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[HALF:.+]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[MUL:.+]] = arith.mulf %[[IN]], %[[HALF]] : f32
// CHECK-NEXT: linalg.yield %[[MUL]] : f32
func.func @scalar_constant_inlined(%x: tensor<?xf32>) -> tensor<?xf32> {
  %half = fuse.constant 0.5 : tensor<f32>
  %0 = fuse.mul %x, %half : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// The constant may be the first operand, and an integer.
// CHECK-LABEL: func @scalar_constant_first
// CHECK: linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]]], {{.*}} attrs = {fuse.ops = ["cmp"]}
// CHECK-NEXT: ^bb0(%[[IN:.+]]: i32, %{{.+}}: i1):
// CHECK-NEXT: %[[C:.+]] = arith.constant -7 : i32
// CHECK-NEXT: %[[LE:.+]] = arith.cmpi sle, %[[C]], %[[IN]] : i32
// CHECK-NEXT: linalg.yield %[[LE]] : i1
func.func @scalar_constant_first(%x: tensor<?xi32>) -> tensor<?xi1> {
  %c = fuse.constant -7 : tensor<i32>
  %0 = fuse.cmp le, %c, %x : tensor<i32>, tensor<?xi32> -> tensor<?xi1>
  return %0 : tensor<?xi1>
}

// A splat dense constant is inlined too; the `?` it meets is still checked.
// CHECK-LABEL: func @splat_constant_inlined
// CHECK-SAME: (%[[X:.+]]: tensor<?xf32>)
// CHECK: cf.assert %{{.+}}, "fuse.add at {{.*}}: dimension 0 of argument 0 must be 4 (broadcasting assumes it)"
// CHECK: linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[X]] : tensor<?xf32>)
// CHECK: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: arith.addf %{{.+}}, %[[ONE]] : f32
func.func @splat_constant_inlined(%x: tensor<?xf32>) -> tensor<4xf32> {
  %c = fuse.constant dense<1.0> : tensor<4xf32>
  %0 = fuse.add %x, %c : tensor<?xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// A returned splat constant is a kernel of its own that writes it: a
// generic with no inputs (once, for both results that return it); the
// splat that the add reads is still inlined. A returned constant of several
// values stays an arith.constant tensor.
// CHECK-LABEL: func @splat_constant_returned
// CHECK: %[[D:.+]] = arith.constant dense<[1, 2]> : tensor<2xi32>
// CHECK: linalg.generic {{.*}} ins(%{{.+}} : tensor<?xf32>)
// CHECK: %[[EMPTY:.+]] = tensor.empty() : tensor<2x4xf32>
// CHECK-NEXT: %[[FULL:.+]] = linalg.generic {indexing_maps = [#[[$ID2]]], iterator_types = ["parallel", "parallel"]} outs(%[[EMPTY]] : tensor<2x4xf32>) attrs =  {fuse.ops = ["constant"]} {
// CHECK-NEXT: ^bb0(%{{.+}}: f32):
// CHECK-NEXT: %[[V:.+]] = arith.constant -2.500000e+00 : f32
// CHECK-NEXT: linalg.yield %[[V]] : f32
// CHECK-NEXT: } -> tensor<2x4xf32>
// CHECK-NEXT: return %{{.+}}, %[[FULL]], %[[FULL]], %[[D]] :
func.func @splat_constant_returned(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2xi32>) {
  %c = fuse.constant dense<-2.5> : tensor<2x4xf32>
  %d = fuse.constant dense<[1, 2]> : tensor<2xi32>
  %h = fuse.constant -2.5 : tensor<f32>
  %0 = fuse.add %x, %h : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  return %0, %c, %c, %d : tensor<?xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2xi32>
}

// A dense constant is an arith.constant tensor read as an input, with its
// broadcast map; f16 is computed in f32, a scalar f16 constant included.
// CHECK-LABEL: func @dense_constant_input
// CHECK-SAME: (%[[X:.+]]: tensor<?x2xf16>)
// CHECK: %[[D:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf16>
// CHECK: %[[MUL:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ID2]]], {{.*}} ins(%[[X]] : tensor<?x2xf16>)
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT: %[[HALF:.+]] = arith.constant 5.000000e-01 : f16
// CHECK-NEXT: %[[WX:.+]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT: %[[WHALF:.+]] = arith.extf %[[HALF]] : f16 to f32
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[WX]], %[[WHALF]] : f32
// CHECK-NEXT: %[[T:.+]] = arith.truncf %[[P]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[T]] : f16
// CHECK: linalg.generic {indexing_maps = [#[[$ID2]], #[[$INNER]], #[[$ID2]]], {{.*}} ins(%[[MUL]], %[[D]] : tensor<?x2xf16>, tensor<2xf16>)
// CHECK-NEXT: ^bb0(%[[L:.+]]: f16, %[[R:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT: %[[WL:.+]] = arith.extf %[[L]] : f16 to f32
// CHECK-NEXT: %[[WR:.+]] = arith.extf %[[R]] : f16 to f32
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[WL]], %[[WR]] : f32
// CHECK-NEXT: %[[TS:.+]] = arith.truncf %[[S]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[TS]] : f16
func.func @dense_constant_input(%x: tensor<?x2xf16>) -> tensor<?x2xf16> {
  %h = fuse.constant 0.5 : tensor<f16>
  %d = fuse.constant dense<[1.0, 2.0]> : tensor<2xf16>
  %0 = fuse.mul %x, %h : tensor<?x2xf16>, tensor<f16> -> tensor<?x2xf16>
  %1 = fuse.add %0, %d : tensor<?x2xf16>, tensor<2xf16> -> tensor<?x2xf16>
  return %1 : tensor<?x2xf16>
}

// An i1 splat condition of select is inlined like any other constant.
// CHECK-LABEL: func @bool_constant_inlined
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[Y:.+]]: tensor<4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[Y]] : tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[T:.+]] = arith.constant true
// CHECK-NEXT: %[[S:.+]] = arith.select %[[T]], %[[A]], %[[B]] : f32
func.func @bool_constant_inlined(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %t = fuse.constant true : tensor<i1>
  %0 = fuse.select %t, %x, %y : tensor<i1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// With only constant operands the generic has no inputs at all.
// CHECK-LABEL: func @only_constants
// CHECK-NEXT: %[[INIT:.+]] = tensor.empty() : tensor<f32>
// CHECK-NEXT: linalg.generic {indexing_maps = [#[[$SCALAR0]]], iterator_types = []} outs(%[[INIT]] : tensor<f32>) attrs = {fuse.ops = ["add"]} {
// CHECK-NEXT: ^bb0(%{{.+}}: f32):
// CHECK-NEXT: %[[TWO:.+]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[THREE:.+]] = arith.constant 3.000000e+00 : f32
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[TWO]], %[[THREE]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
func.func @only_constants() -> tensor<f32> {
  %c = fuse.constant 2.0 : tensor<f32>
  %d = fuse.constant 3.0 : tensor<f32>
  %0 = fuse.add %c, %d : tensor<f32>
  return %0 : tensor<f32>
}

// A constant used outside any kernel stays a tensor; unused ones go.
// CHECK-LABEL: func @constant_uses
// CHECK-NEXT: %[[C:.+]] = arith.constant dense<[1, 2]> : tensor<2xi64>
// CHECK-NEXT: return %[[C]] : tensor<2xi64>
func.func @constant_uses() -> tensor<2xi64> {
  %c = fuse.constant dense<[1, 2]> : tensor<2xi64>
  %unused = fuse.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %k = fuse.constant 1.0 : tensor<f32>
  return %c : tensor<2xi64>
}

// The conversion takes fuse ops among any others: an argument of another
// element type (index, complex) is sized too (it crashed).
// CHECK-LABEL: func @other_element_types
// CHECK: linalg.generic {{.*}} ins(%{{.+}} : tensor<?xf32>)
func.func @other_element_types(%x: tensor<?xf32>, %i: tensor<?xindex>, %c: tensor<?xcomplex<f32>>) -> tensor<?xf32> {
  %0 = fuse.relu %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}
