// RUN: fuse-opt %s --convert-fuse-to-linalg | FileCheck %s

// Each reduction becomes a linalg.generic that reduces into a tensor
// without the reduced dimensions, from the identity of its combination
// (max: -inf, min: +inf, sum and mean: -0.0 or 0), accumulating f16/bf16
// in f32. A mean's division and the rounding to f16/bf16 are a second
// generic of the same kernel (fuse.group). Kept dimensions are a
// tensor.expand_shape, which elementwise generics read through. Several
// reduced dimensions next to each other are one loop: the operand is
// collapsed (and so are the elementwise generics that compute it, and
// those that read the result broadcast over them).

// CHECK-DAG: #[[$ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROWS:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[$ID1:.+]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[$COLS:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$ALL:.+]] = affine_map<(d0) -> ()>
// CHECK-DAG: #[[$ID3:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$FIRST2:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$OUTER:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>

// A dynamic size that max reduces is checked at run time: max of nothing
// is an error.
// CHECK-LABEL: func @max_rows
// CHECK: %[[ROWS:.+]] = tensor.dim %[[X:.+]], %c0
// CHECK: %[[COLS:.+]] = tensor.dim %[[X]], %c1
// CHECK: %[[NONEMPTY:.+]] = arith.cmpi ne, %[[COLS]], %{{.+}} : index
// CHECK: cf.assert %[[NONEMPTY]], "fuse.reduce_max at {{.*}}reductions.mlir:{{[0-9]+}}:8: dimension 1 of the operand is 0, and an empty reduce_max has no value (numpy's error too)"
// CHECK: %[[EMPTY:.+]] = tensor.empty(%[[ROWS]]) : tensor<?xf32>
// CHECK: %[[NEG_INF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[NEG_INF]] : f32) outs(%[[EMPTY]] : tensor<?xf32>)
// CHECK: %[[MAX:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROWS]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<?x?xf32>) outs(%[[INIT]] : tensor<?xf32>) attrs = {fuse.ops = ["reduce_max"]}
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK-NEXT: %[[NEXT:.+]] = arith.maximumf %[[ACC]], %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[NEXT]] : f32
// CHECK: %[[KEPT:.+]] = tensor.expand_shape %[[MAX]] {{\[}}[0, 1]] output_shape [%[[ROWS]], 1] : tensor<?xf32> into tensor<?x1xf32>
// CHECK: return %[[KEPT]]
func.func @max_rows(%x: tensor<?x?xf32>) -> tensor<?x1xf32> {
  %0 = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  return %0 : tensor<?x1xf32>
}

// With identity_if_empty, emptiness is not checked: the accumulator's
// start, -inf for max and +inf for min, is the result of an empty row.
// CHECK-LABEL: func @max_rows_identity_if_empty
// CHECK-NOT: has no value
// CHECK: %[[NEG_INF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NEG_INF]] : f32)
// CHECK: arith.maximumf
// CHECK-NOT: has no value
// CHECK: %[[POS_INF:.+]] = arith.constant 0x7F800000 : f32
// CHECK: linalg.fill ins(%[[POS_INF]] : f32)
// CHECK: arith.minimumf
// CHECK-NOT: has no value
// CHECK: return
func.func @max_rows_identity_if_empty(%x: tensor<?x?xf32>) -> (tensor<?x1xf32>, tensor<?xf32>) {
  %0 = fuse.reduce_max %x {dims = array<i64: 1>, identity_if_empty} : tensor<?x?xf32> -> tensor<?x1xf32>
  %1 = fuse.reduce_min %x {dims = array<i64: 1>, identity_if_empty} : tensor<?x?xf32> -> tensor<?xf32>
  return %0, %1 : tensor<?x1xf32>, tensor<?xf32>
}

// f16 is summed in f32 from -0.0; the division by the count (from the
// host) and the rounding to f16 follow in the same kernel.
// CHECK-LABEL: func @mean_f16
// CHECK: %[[N:.+]] = tensor.dim %[[X:.+]], %c1 : tensor<4x?xf16>
// CHECK: %[[ZERO:.+]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<4xf32>)
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4x?xf16>) outs(%[[INIT]] : tensor<4xf32>) attrs = {fuse.group = 0 : i64, fuse.ops = ["reduce_mean"]}
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f16, %[[ACC:.+]]: f32):
// CHECK-NEXT: %[[WIDE:.+]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT: %[[NEXT:.+]] = arith.addf %[[ACC]], %[[WIDE]] : f32
// CHECK: %[[COUNT:.+]] = arith.muli %{{.+}}, %[[N]] : index
// CHECK: %[[COUNT64:.+]] = arith.index_castui %[[COUNT]] : index to i64
// CHECK: %[[COUNTF:.+]] = arith.uitofp %[[COUNT64]] : i64 to f32
// CHECK: %[[MEAN:.+]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[SUM]] : tensor<4xf32>) outs(%{{.+}} : tensor<4xf16>) attrs = {fuse.group = 0 : i64, fuse.ops = []}
// CHECK-NEXT: ^bb0(%[[S:.+]]: f32, %{{.+}}: f16):
// CHECK-NEXT: %[[DIV:.+]] = arith.divf %[[S]], %[[COUNTF]] : f32
// CHECK-NEXT: %[[HALF:.+]] = arith.truncf %[[DIV]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[HALF]] : f16
// CHECK: return %[[MEAN]]
func.func @mean_f16(%x: tensor<4x?xf16>) -> tensor<4xf16> {
  %0 = fuse.reduce_mean %x {dims = array<i64: 1>} : tensor<4x?xf16> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// A leading dimension: the reduced loop comes first. Integers sum from 0.
// CHECK-LABEL: func @sum_columns
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : i32) outs(%{{.+}} : tensor<8xi32>)
// CHECK: linalg.generic {indexing_maps = [#[[$ID2]], #[[$COLS]]], iterator_types = ["reduction", "parallel"]} ins(%{{.+}} : tensor<?x8xi32>) outs(%[[INIT]] : tensor<8xi32>)
// CHECK: arith.addi
func.func @sum_columns(%x: tensor<?x8xi32>) -> tensor<8xi32> {
  %0 = fuse.reduce_sum %x {dims = array<i64: 0>} : tensor<?x8xi32> -> tensor<8xi32>
  return %0 : tensor<8xi32>
}

// Every dimension, kept: one row of 6, a 0-d reduction expanded to 1x1;
// no run-time check for static sizes.
// CHECK-LABEL: func @min_all_kept
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf64>)
// CHECK-NOT: cf.assert
// CHECK: %[[ROW:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<2x3xf64> into tensor<6xf64>
// CHECK: %[[INF:.+]] = arith.constant 0x7FF0000000000000 : f64
// CHECK: %[[MIN:.+]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ALL]]], iterator_types = ["reduction"]} ins(%[[ROW]] : tensor<6xf64>)
// CHECK: arith.minimumf
// CHECK: tensor.expand_shape %[[MIN]] [] output_shape [1, 1] : tensor<f64> into tensor<1x1xf64>
func.func @min_all_kept(%x: tensor<2x3xf64>) -> tensor<1x1xf64> {
  %0 = fuse.reduce_min %x {dims = array<i64: 0, 1>} : tensor<2x3xf64> -> tensor<1x1xf64>
  return %0 : tensor<1x1xf64>
}

// Leading reduced dimensions next to each other are one loop of their
// product too (row-major), before the kept one: a batch norm's mean over
// N, H and W of an NHWC tensor is one reduced loop, whose rows (the
// channels' columns) are cut into pieces like a sum over dimension 0.
// CHECK-LABEL: func @leading_run
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x?x4xf32>)
// CHECK: %[[ROWS:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1, 2], [3]] : tensor<?x?x?x4xf32> into tensor<?x4xf32>
// CHECK: %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$COLS]]], iterator_types = ["reduction", "parallel"]} ins(%[[ROWS]] : tensor<?x4xf32>)
// CHECK: tensor.expand_shape %{{.+}} {{\[}}[0, 1, 2, 3]] output_shape [1, 1, 1, 4] : tensor<4xf32> into tensor<1x1x1x4xf32>
func.func @leading_run(%x: tensor<?x?x?x4xf32>) -> tensor<1x1x1x4xf32> {
  %0 = fuse.reduce_mean %x {dims = array<i64: 2, 0, 1>} : tensor<?x?x?x4xf32> -> tensor<1x1x1x4xf32>
  return %0 : tensor<1x1x1x4xf32>
}

// A run in the middle: the loops before and after it stay.
// CHECK-LABEL: func @middle_run
// CHECK: %[[ROWS:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2], [3]] : tensor<3x?x?x5xf32> into tensor<3x?x5xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$ID3]], #[[$OUTER]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[ROWS]] : tensor<3x?x5xf32>)
func.func @middle_run(%x: tensor<3x?x?x5xf32>) -> tensor<3x5xf32> {
  %0 = fuse.reduce_max %x {dims = array<i64: 1, 2>} : tensor<3x?x?x5xf32> -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// Reduced dimensions that are not next to each other are reduced a run
// at a time, the innermost first (each row of 5, in lanes), then the
// first dimension over those sums (in f32); the kept dimension between
// them takes both in the view of the result.
// CHECK-LABEL: func @middle_kept
// CHECK: %[[N:.+]] = tensor.dim %{{.+}}, %c1 : tensor<2x?x5xf32>
// CHECK: %[[ROWS:.+]] = linalg.generic {indexing_maps = [#[[$ID3]], #[[$FIRST2]]], iterator_types = ["parallel", "parallel", "reduction"]} {{.*}} outs(%{{.+}} : tensor<2x?xf32>) attrs = {fuse.ops = ["reduce_sum"]}
// CHECK: %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$COLS]]], iterator_types = ["reduction", "parallel"]} ins(%[[ROWS]] : tensor<2x?xf32>) {{.*}} attrs = {fuse.ops = ["reduce_sum"]}
// CHECK: tensor.expand_shape %[[SUM]] {{\[}}[0, 1, 2]] output_shape [1, %[[N]], 1] : tensor<?xf32> into tensor<1x?x1xf32>
func.func @middle_kept(%x: tensor<2x?x5xf32>) -> tensor<1x?x1xf32> {
  %0 = fuse.reduce_sum %x {dims = array<i64: 0, 2>} : tensor<2x?x5xf32> -> tensor<1x?x1xf32>
  return %0 : tensor<1x?x1xf32>
}

// An elementwise op reads a kept-dimension result through the reduction's
// own tensor, broadcast over the row.
// CHECK-LABEL: func @broadcast_back
// CHECK: %[[MAX:.+]] = linalg.generic {{.*}}fuse.ops = ["reduce_max"]
// CHECK: linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROWS]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[X:.+]], %[[MAX]] : tensor<?x?xf32>, tensor<?xf32>)
// CHECK-SAME: fuse.ops = ["sub"]
func.func @broadcast_back(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %d = fuse.sub %x, %m : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  return %d : tensor<?x?xf32>
}

// A sum over every element of x * x: the row is x collapsed, and the
// multiplication, which only the sum reads, goes over the collapsed space
// too (its output an empty tensor of the product of the sizes), so the two
// fuse. The exp + bias before the second sum reads the bias broadcast
// along the row's inner dimension: it keeps its two dimensions, and the
// sum reads its result collapsed.
// CHECK-LABEL: func @all_of_a_product
// CHECK-SAME: (%[[X:.+]]: tensor<?x?xf32>, %[[B:.+]]: tensor<?xf32>)
// CHECK-DAG: %[[N:.+]] = tensor.dim %[[X]], %c0
// CHECK-DAG: %[[M:.+]] = tensor.dim %[[X]], %c1
// CHECK: %[[XROW:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
// CHECK: %[[NM:.+]] = arith.muli %[[N]], %[[M]] : index
// CHECK: %[[OUT:.+]] = tensor.empty(%[[NM]]) : tensor<?xf32>
// CHECK: %[[SQ:.+]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[XROW]] : tensor<?xf32>) outs(%[[OUT]] : tensor<?xf32>) attrs = {fuse.ops = ["mul"]}
// CHECK: linalg.generic {indexing_maps = [#[[$ID1]], #[[$ALL]]], iterator_types = ["reduction"]} ins(%[[SQ]] : tensor<?xf32>) {{.*}} attrs = {fuse.ops = ["reduce_sum"]}
// CHECK: %[[BIASED:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$COLS]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} {{.*}} attrs = {fuse.ops = ["add"]}
// CHECK: %[[BROW:.+]] = tensor.collapse_shape %[[BIASED]] {{\[}}[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$ID1]], #[[$ALL]]], iterator_types = ["reduction"]} ins(%[[BROW]] : tensor<?xf32>)
func.func @all_of_a_product(%x: tensor<?x?xf32>, %b: tensor<?xf32>) -> (tensor<f32>, tensor<f32>) {
  %sq = fuse.mul %x, %x : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  %s = fuse.reduce_sum %sq {dims = array<i64: 0, 1>} : tensor<?x?xf32> -> tensor<f32>
  %e = fuse.exp %x : tensor<?x?xf32>
  %eb = fuse.add %e, %b : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %t = fuse.reduce_sum %eb {dims = array<i64: 1, 0>} : tensor<?x?xf32> -> tensor<f32>
  return %s, %t : tensor<f32>, tensor<f32>
}

// Two reductions of one producer over all of it: the producer is collapsed
// once, where it was (before both), and both read its collapsed result.
// CHECK-LABEL: func @two_of_one_producer
// CHECK: %[[ROW:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1]] : tensor<5x7xf32> into tensor<35xf32>
// CHECK: %[[CAST:.+]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[ROW]] : tensor<35xf32>) {{.*}} attrs = {fuse.ops = ["cast"]}
// CHECK: linalg.generic {{.*}} ins(%[[CAST]] : tensor<35xbf16>) {{.*}}fuse.ops = ["reduce_sum"]
// CHECK: linalg.generic {{.*}} ins(%[[CAST]] : tensor<35xbf16>) {{.*}}fuse.ops = ["reduce_max"]
func.func @two_of_one_producer(%x: tensor<5x7xf32>) -> (tensor<bf16>, tensor<bf16>) {
  %b = fuse.cast %x : tensor<5x7xf32> to tensor<5x7xbf16>
  %s = fuse.reduce_sum %b {dims = array<i64: 0, 1>} : tensor<5x7xbf16> -> tensor<bf16>
  %m = fuse.reduce_max %b {dims = array<i64: 0, 1>} : tensor<5x7xbf16> -> tensor<bf16>
  return %s, %m : tensor<bf16>, tensor<bf16>
}

// A producer that is part of a kernel with reductions (the rounding of an
// f16 max to f16) is not collapsed: the minimum over everything reads it
// collapsed (test/Fuzz/difftest.py seed 380638).
// CHECK-LABEL: func @min_of_a_max
// CHECK: %[[ROUNDED:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} {{.*}} attrs = {fuse.group = {{[0-9]+}} : i64, fuse.ops = []}
// CHECK: tensor.collapse_shape %[[ROUNDED]] {{\[}}[0, 1]]
func.func @min_of_a_max(%x: tensor<?x?x?xf16>) -> tensor<f16> {
  %m = fuse.reduce_max %x {dims = array<i64: 2>} : tensor<?x?x?xf16> -> tensor<?x?x1xf16>
  %n = fuse.reduce_min %m {dims = array<i64: 0, 1, 2>} : tensor<?x?x1xf16> -> tensor<f16>
  return %n : tensor<f16>
}

// A producer that reads a size-1 dimension at index 0 (`a` of 1 x 3
// broadcast over the rows: the map (d0, d1) -> (0, d1)) keeps its two
// dimensions: the mean reads its result collapsed (difftest seed 400903:
// upstream's check read the constant as a dimension, and the generic was
// collapsed with `a` read as 3 elements of a row of 9, now and then).
// CHECK-LABEL: func @broadcast_size_one
// CHECK: %[[DIV:.+]] = linalg.generic {indexing_maps = [#[[$ROW0:.+]], #[[$ID2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%{{.+}}, %{{.+}} : tensor<1x3xf32>, tensor<3x3xf32>) outs(%{{.+}} : tensor<3x3xf32>) attrs = {fuse.ops = ["div"]}
// CHECK: %[[ROW:.+]] = tensor.collapse_shape %[[DIV]] {{\[}}[0, 1]] : tensor<3x3xf32> into tensor<9xf32>
// CHECK: linalg.generic {{.*}} ins(%[[ROW]] : tensor<9xf32>) {{.*}}fuse.ops = ["reduce_mean"]
func.func @broadcast_size_one(%a: tensor<1x3xf32>, %x: tensor<3x3xf32>) -> tensor<f32> {
  %d = fuse.div %a, %x : tensor<1x3xf32>, tensor<3x3xf32> -> tensor<3x3xf32>
  %m = fuse.reduce_mean %d {dims = array<i64: 0, 1>} : tensor<3x3xf32> -> tensor<f32>
  return %m : tensor<f32>
}

// The ops after a reduction over several innermost dimensions come down
// into its collapsed space: `log` of the sum runs over the rows alone (its
// size-1 dimensions dropped), the sub that reads it broadcast over the row
// and the mul that reads the sub's result go over (rows, row), and the
// result is viewed back in its shape.
// CHECK-LABEL: func @center_then_square
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x?xf32>)
// CHECK: %[[ROW:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0], [1, 2]] : tensor<?x?x?xf32> into tensor<?x?xf32>
// CHECK: %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROWS]]], iterator_types = ["parallel", "reduction"]} ins(%[[ROW]] : tensor<?x?xf32>)
// CHECK: %[[LOG:.+]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[SUM]] : tensor<?xf32>) {{.*}} attrs = {fuse.ops = ["log"], fuse.type = tensor<?x1x1xf32>}
// CHECK: %[[SUB:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROWS]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%{{.+}}, %[[LOG]] : tensor<?x?xf32>, tensor<?xf32>) {{.*}} attrs = {fuse.ops = ["sub"]}
// CHECK: %[[MUL:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[SUB]] : tensor<?x?xf32>) {{.*}} attrs = {fuse.ops = ["mul"]}
// CHECK: %[[OUT:.+]] = tensor.expand_shape %[[MUL]] {{\[}}[0], [1, 2]] output_shape [%{{.+}}, %{{.+}}, %{{.+}}] : tensor<?x?xf32> into tensor<?x?x?xf32>
// CHECK: return %[[OUT]]
func.func @center_then_square(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %s = fuse.reduce_sum %x {dims = array<i64: 1, 2>} : tensor<?x?x?xf32> -> tensor<?x1x1xf32>
  %l = fuse.log %s : tensor<?x1x1xf32>
  %c = fuse.sub %x, %l : tensor<?x?x?xf32>, tensor<?x1x1xf32> -> tensor<?x?x?xf32>
  %q = fuse.mul %c, %c : tensor<?x?x?xf32>
  return %q : tensor<?x?x?xf32>
}

// The same for a run that is not innermost: a batch norm of an NHWC
// tensor (over N, H and W, the columns of their product). The sub that
// reads the mean, the mul that reads the sub's result twice, the scaling
// by `rsqrt` of the variance (which runs over the columns alone) and by
// a weight per channel all go over (N*H*W, C), so that they fuse with
// the reductions (docs/passes.md); the result is viewed back.
// CHECK-LABEL: func @leading_consumers
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x?x?xf32>, %[[G:.+]]: tensor<?xf32>)
// CHECK: %[[MEAN:.+]] = linalg.generic {{.*}}fuse.group = 0 : i64, fuse.ops = []}
// CHECK: %[[XC:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1, 2], [3]] : tensor<?x?x?x?xf32> into tensor<?x?xf32>
// CHECK: %[[SUB:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$COLS]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[XC]], %[[MEAN]] : tensor<?x?xf32>, tensor<?xf32>) {{.*}} attrs = {fuse.ops = ["sub"]}
// CHECK: %[[SQ:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[SUB]] : tensor<?x?xf32>) {{.*}} attrs = {fuse.ops = ["mul"]}
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[SQ]] : tensor<?x?xf32>)
// CHECK: %[[VAR:.+]] = linalg.generic {{.*}}fuse.group = 1 : i64, fuse.ops = []}
// CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[VAR]] : tensor<?xf32>) {{.*}} attrs = {fuse.ops = ["rsqrt"], fuse.type = tensor<1x1x1x?xf32>}
// CHECK: %[[Y:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$COLS]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[SUB]], %[[R]] : tensor<?x?xf32>, tensor<?xf32>) {{.*}} attrs = {fuse.ops = ["mul"]}
// CHECK: %[[Z:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$COLS]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[Y]], %[[G]] : tensor<?x?xf32>, tensor<?xf32>) {{.*}} attrs = {fuse.ops = ["mul"]}
// CHECK: %[[OUT:.+]] = tensor.expand_shape %[[Z]] {{\[}}[0, 1, 2], [3]] output_shape [%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] : tensor<?x?xf32> into tensor<?x?x?x?xf32>
// CHECK: return %[[OUT]]
func.func @leading_consumers(%x: tensor<?x?x?x?xf32>, %g: tensor<?xf32>) -> tensor<?x?x?x?xf32> {
  %m = fuse.reduce_mean %x {dims = array<i64: 0, 1, 2>} : tensor<?x?x?x?xf32> -> tensor<1x1x1x?xf32>
  %d = fuse.sub %x, %m : tensor<?x?x?x?xf32>, tensor<1x1x1x?xf32> -> tensor<?x?x?x?xf32>
  %sq = fuse.mul %d, %d : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32> -> tensor<?x?x?x?xf32>
  %v = fuse.reduce_mean %sq {dims = array<i64: 0, 1, 2>} : tensor<?x?x?x?xf32> -> tensor<1x1x1x?xf32>
  %r = fuse.rsqrt %v : tensor<1x1x1x?xf32>
  %y = fuse.mul %d, %r : tensor<?x?x?x?xf32>, tensor<1x1x1x?xf32> -> tensor<?x?x?x?xf32>
  %z = fuse.mul %y, %g : tensor<?x?x?x?xf32>, tensor<?xf32> -> tensor<?x?x?x?xf32>
  return %z : tensor<?x?x?x?xf32>
}

// And for a run in the middle: `exp(x - max)` over dimensions 1 and 2 of
// four goes over (3, H*W, 5).
// CHECK-LABEL: func @middle_consumers
// CHECK: %[[MAX:.+]] = linalg.generic {indexing_maps = [#[[$ID3]], #[[$OUTER]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK: %[[XC:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2], [3]] : tensor<3x?x?x5xf32> into tensor<3x?x5xf32>
// CHECK: %[[SUB:.+]] = linalg.generic {indexing_maps = [#[[$ID3]], #[[$OUTER]], #[[$ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[XC]], %[[MAX]] : tensor<3x?x5xf32>, tensor<3x5xf32>) {{.*}} attrs = {fuse.ops = ["sub"]}
// CHECK: %[[EXP:.+]] = linalg.generic {indexing_maps = [#[[$ID3]], #[[$ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[SUB]] : tensor<3x?x5xf32>) {{.*}} attrs = {fuse.ops = ["exp"]}
// CHECK: tensor.expand_shape %[[EXP]] {{\[}}[0], [1, 2], [3]]
func.func @middle_consumers(%x: tensor<3x?x?x5xf32>) -> tensor<3x?x?x5xf32> {
  %m = fuse.reduce_max %x {dims = array<i64: 1, 2>} : tensor<3x?x?x5xf32> -> tensor<3x1x1x5xf32>
  %c = fuse.sub %x, %m : tensor<3x?x?x5xf32>, tensor<3x1x1x5xf32> -> tensor<3x?x?x5xf32>
  %e = fuse.exp %c : tensor<3x?x?x5xf32>
  return %e : tensor<3x?x?x5xf32>
}

// An NCHW batch norm's mean (over N, H and W: two runs) reduces each
// (n, c)'s H x W as one row first, then those sums over n; the sub that
// reads the mean goes over (N, C, H*W), the first stage's space.
// CHECK-LABEL: func @nchw_consumers
// CHECK: %[[XC:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : tensor<?x?x?x?xf32> into tensor<?x?x?xf32>
// CHECK: %[[ROWS:.+]] = linalg.generic {indexing_maps = [#[[$ID3]], #[[$FIRST2]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[XC]] : tensor<?x?x?xf32>) {{.*}} attrs = {fuse.ops = ["reduce_mean"]}
// CHECK: %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$COLS]]], iterator_types = ["reduction", "parallel"]} ins(%[[ROWS]] : tensor<?x?xf32>) {{.*}} attrs = {fuse.group = [[G:[0-9]+]] : i64, fuse.ops = ["reduce_mean"]}
// CHECK: %[[MEAN:.+]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<?xf32>) {{.*}} attrs = {fuse.group = [[G]] : i64, fuse.ops = []}
// CHECK: %[[XC2:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]]
// CHECK: %[[SUB:.+]] = linalg.generic {indexing_maps = [#[[$ID3]], #[[$MIDDLE:.+]], #[[$ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[XC2]], %[[MEAN]] : tensor<?x?x?xf32>, tensor<?xf32>) {{.*}} attrs = {fuse.ops = ["sub"]}
// CHECK: tensor.expand_shape %[[SUB]] {{\[}}[0], [1], [2, 3]]
func.func @nchw_consumers(%x: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %m = fuse.reduce_mean %x {dims = array<i64: 0, 2, 3>} : tensor<?x?x?x?xf32> -> tensor<1x?x1x1xf32>
  %d = fuse.sub %x, %m : tensor<?x?x?x?xf32>, tensor<1x?x1x1xf32> -> tensor<?x?x?x?xf32>
  return %d : tensor<?x?x?x?xf32>
}

// A reduced dimension of size 1 goes with the dimension before it (the
// first ones with the one after them) in a view: `dims = [0, 2]` of
// `? x ? x 1` is one stage over the columns of a `? x ?` view, and `dims =
// [0, 2]` of `1 x ? x ?` one over its rows.
// CHECK-LABEL: func @unit_reduced
// CHECK: %[[V:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2]] : tensor<?x?x1xf32> into tensor<?x?xf32>
// CHECK: %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$COLS]]], iterator_types = ["reduction", "parallel"]} ins(%[[V]] : tensor<?x?xf32>)
// CHECK-NOT: linalg.generic
// CHECK: tensor.expand_shape %[[SUM]] {{\[}}[0, 1, 2]]
func.func @unit_reduced(%x: tensor<?x?x1xf32>) -> tensor<1x?x1xf32> {
  %m = fuse.reduce_sum %x {dims = array<i64: 0, 2>} : tensor<?x?x1xf32> -> tensor<1x?x1xf32>
  return %m : tensor<1x?x1xf32>
}
// CHECK-LABEL: func @unit_leading
// CHECK: %[[V:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1], [2]] : tensor<1x?x?xf32> into tensor<?x?xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROWS]]], iterator_types = ["parallel", "reduction"]} ins(%[[V]] : tensor<?x?xf32>)
// CHECK-NOT: linalg.generic
func.func @unit_leading(%x: tensor<1x?x?xf32>) -> tensor<?xf32> {
  %m = fuse.reduce_max %x {dims = array<i64: 0, 2>} : tensor<1x?x?xf32> -> tensor<?xf32>
  return %m : tensor<?xf32>
}

// Every dimension of size 1, reduced or kept, goes with the one before it
// (the leading ones with the first): the maximum of a column (`dims = [0]`
// of `? x 1`) is one row, reduced as a whole tensor's is, its value viewed
// back as the result (kept or dropped dimensions alike); `dims = [2]` of
// `1 x ? x ? x 1` reduces the rows of a `? x ?` view, and so does `dims =
// [2]` of `? x 1 x ?` (a softmax over its rows), over the same loops as the
// elementwise ops around, which go without their loops of size 1 too.
// CHECK-LABEL: func @unit_kept
// CHECK: %[[V:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1]] : tensor<?x1xf32> into tensor<?xf32>
// CHECK: %[[MAX:.+]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ALL]]], iterator_types = ["reduction"]} ins(%[[V]] : tensor<?xf32>)
// CHECK: %[[R:.+]] = tensor.expand_shape %[[MAX]] [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK: %[[V2:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1]] : tensor<?x1xf32> into tensor<?xf32>
// CHECK: %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ALL]]], iterator_types = ["reduction"]} ins(%[[V2]] : tensor<?xf32>)
// CHECK: %[[K:.+]] = tensor.expand_shape %[[SUM]] [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
// CHECK: %[[V3:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1], [2, 3]] : tensor<1x?x?x1xf32> into tensor<?x?xf32>
// CHECK: %[[ROWS:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROWS]]], iterator_types = ["parallel", "reduction"]} ins(%[[V3]] : tensor<?x?xf32>)
// CHECK: %[[RV:.+]] = tensor.expand_shape %[[ROWS]] {{\[}}[0, 1, 2]] output_shape [1, %{{.+}}, 1] : tensor<?xf32> into tensor<1x?x1xf32>
// CHECK: %[[V4:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1], [2]] : tensor<?x1x?xf32> into tensor<?x?xf32>
// CHECK: %[[SOFT:.+]] = linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROWS]]], iterator_types = ["parallel", "reduction"]} ins(%[[V4]] : tensor<?x?xf32>)
// CHECK: %[[T:.+]] = tensor.expand_shape %[[SOFT]] {{\[}}[0, 1, 2]] output_shape [%{{.+}}, 1, 1] : tensor<?xf32> into tensor<?x1x1xf32>
// CHECK: return %[[R]], %[[K]], %[[RV]], %[[T]]
func.func @unit_kept(%x: tensor<?x1xf32>, %y: tensor<1x?x?x1xf32>, %z: tensor<?x1x?xf32>) -> (tensor<1xf32>, tensor<1x1xf32>, tensor<1x?x1xf32>, tensor<?x1x1xf32>) {
  %m = fuse.reduce_max %x {dims = array<i64: 0>} : tensor<?x1xf32> -> tensor<1xf32>
  %s = fuse.reduce_sum %x {dims = array<i64: 0>} : tensor<?x1xf32> -> tensor<1x1xf32>
  %r = fuse.reduce_sum %y {dims = array<i64: 2>} : tensor<1x?x?x1xf32> -> tensor<1x?x1xf32>
  %t = fuse.reduce_max %z {dims = array<i64: 2>} : tensor<?x1x?xf32> -> tensor<?x1x1xf32>
  return %m, %s, %r, %t : tensor<1xf32>, tensor<1x1xf32>, tensor<1x?x1xf32>, tensor<?x1x1xf32>
}

// A weight per channel beside an instance norm's statistics (`C x 1 x 1`,
// constant over the reduced H and W) is read as a tensor of the channels:
// the mul goes over the reduction's collapsed space with the sub, one
// kernel (it was a second one, reading the sub's result back).
// CHECK-LABEL: func @instance_norm_weight
// CHECK-SAME: (%{{.+}}: tensor<?x?x?x?xf32>, %[[W:.+]]: tensor<?x1x1xf32>)
// CHECK: %[[SUB:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]} {{.*}}fuse.ops = ["sub"]
// CHECK: %[[WC:.+]] = tensor.collapse_shape %[[W]] {{\[}}[0, 1, 2]] : tensor<?x1x1xf32> into tensor<?xf32>
// CHECK: %[[MUL:.+]] = linalg.generic {indexing_maps = [#[[$ID3]], #[[$MIDDLE]], #[[$ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[SUB]], %[[WC]] : tensor<?x?x?xf32>, tensor<?xf32>) {{.*}}fuse.ops = ["mul"]
// CHECK: tensor.expand_shape %[[MUL]] {{\[}}[0], [1], [2, 3]]
func.func @instance_norm_weight(%x: tensor<?x?x?x?xf32>, %w: tensor<?x1x1xf32>) -> tensor<?x?x?x?xf32> {
  %m = fuse.reduce_mean %x {dims = array<i64: 2, 3>} : tensor<?x?x?x?xf32> -> tensor<?x?x1x1xf32>
  %c = fuse.sub %x, %m : tensor<?x?x?x?xf32>, tensor<?x?x1x1xf32> -> tensor<?x?x?x?xf32>
  %y = fuse.mul %c, %w : tensor<?x?x?x?xf32>, tensor<?x1x1xf32> -> tensor<?x?x?x?xf32>
  return %y : tensor<?x?x?x?xf32>
}

// A reduced dimension of size 1 goes with the one before it, as every
// dimension of size 1 does: `dims = [1, 2]` of `? x 1 x ?` reduces the rows
// of the view [[0, 1], [2]], over the same loops as the elementwise ops
// that read its value, which go without their loops of size 1 (once the
// reduction's view alone went with a reduced neighbour, [[0], [1, 2]]).
// CHECK-LABEL: func @unit_in_run
// CHECK: tensor.collapse_shape %{{.+}} {{\[}}[0, 1], [2]] : tensor<?x1x?xf32> into tensor<?x?xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$ID2]], #[[$ROWS]]], iterator_types = ["parallel", "reduction"]}
func.func @unit_in_run(%x: tensor<?x1x?xf32>) -> tensor<?x1x1xf32> {
  %m = fuse.reduce_max %x {dims = array<i64: 1, 2>} : tensor<?x1x?xf32> -> tensor<?x1x1xf32>
  return %m : tensor<?x1x1xf32>
}

// When every reduced dimension has size 1 nothing is reduced: the result is
// an elementwise copy of the operand over its own loops (no accumulation
// type, no division for a mean), which goes without its loops of size 1
// and fuses like any other elementwise op (the ops of a softmax over rows
// of one read it over the same loops); the result is a view of the copy.
// CHECK-LABEL: func @unit_only
// CHECK: %[[V:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1]] : tensor<?x1xf16> into tensor<?xf16>
// CHECK: %[[COPY:.+]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[V]] : tensor<?xf16>) outs(%{{.+}} : tensor<?xf16>) attrs =  {fuse.ops = ["reduce_mean"], fuse.type = tensor<?x1xf16>} {
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT: linalg.yield %[[IN]] : f16
// CHECK: %[[Y:.+]] = tensor.expand_shape %[[COPY]] {{\[}}[0, 1]]
// CHECK: return %[[Y]]
// CHECK-NOT: linalg.generic
// CHECK-LABEL: func @unit_all
// CHECK: %[[V:.+]] = tensor.collapse_shape %{{.+}} [] : tensor<1x1xi32> into tensor<i32>
// CHECK: linalg.generic {indexing_maps = [#[[$SCALAR:.+]], #[[$SCALAR]]], iterator_types = []} ins(%[[V]] : tensor<i32>)
// CHECK-NOT: linalg.generic
func.func @unit_only(%x: tensor<?x1xf16>) -> tensor<?x1xf16> {
  %m = fuse.reduce_mean %x {dims = array<i64: 1>} : tensor<?x1xf16> -> tensor<?x1xf16>
  return %m : tensor<?x1xf16>
}
func.func @unit_all(%x: tensor<1x1xi32>) -> tensor<i32> {
  %m = fuse.reduce_max %x {dims = array<i64: 0, 1>} : tensor<1x1xi32> -> tensor<i32>
  return %m : tensor<i32>
}

// A consumer of a whole reduction stays over its own loops when a product
// that it reads, broadcast along part of them, cannot run collapsed: the
// mul and the sub fuse (collapsed, the sub read the product from memory).
// CHECK-LABEL: func @broadcast_producer
// CHECK: %[[MUL:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.+}}, %{{.+}} : tensor<?x1x?xf32>, tensor<1x?x1xf32>)
// CHECK-NOT: tensor.collapse_shape
// CHECK: linalg.generic {indexing_maps = [#[[$ID3]], #{{.+}}, #[[$ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[MUL]], %{{.+}} : tensor<?x?x?xf32>, tensor<f32>)
func.func @broadcast_producer(%x: tensor<?x1x?xf32>, %y: tensor<1x?x1xf32>) -> tensor<?x?x?xf32> {
  %c = fuse.reduce_mean %x {dims = array<i64: 0, 1, 2>} : tensor<?x1x?xf32> -> tensor<f32>
  %d = fuse.mul %x, %y : tensor<?x1x?xf32>, tensor<1x?x1xf32> -> tensor<?x?x?xf32>
  %e = fuse.sub %d, %c : tensor<?x?x?xf32>, tensor<f32> -> tensor<?x?x?xf32>
  return %e : tensor<?x?x?xf32>
}

// A weight broadcast along one of the row's two dimensions keeps the mul
// that reads it over three dimensions, and the sub whose result it reads
// too (collapsed, the sub would write its result for the mul to read).
// CHECK-LABEL: func @inner_weight
// CHECK: %[[MAX:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: %[[SUB:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.+}}, %[[MAX]] : tensor<?x?x?xf32>, tensor<?xf32>) {{.*}} attrs = {fuse.ops = ["sub"]}
// CHECK: linalg.generic {indexing_maps = [#[[$ID3]], #{{.+}}, #[[$ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[SUB]], %{{.+}} : tensor<?x?x?xf32>, tensor<?xf32>) {{.*}} attrs = {fuse.ops = ["mul"]}
func.func @inner_weight(%x: tensor<?x?x?xf32>, %w: tensor<?xf32>) -> tensor<?x?x?xf32> {
  %m = fuse.reduce_max %x {dims = array<i64: 1, 2>} : tensor<?x?x?xf32> -> tensor<?x1x1xf32>
  %c = fuse.sub %x, %m : tensor<?x?x?xf32>, tensor<?x1x1xf32> -> tensor<?x?x?xf32>
  %y = fuse.mul %c, %w : tensor<?x?x?xf32>, tensor<?xf32> -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}

// The bytes of a result whose `?` sizes no argument has in the same
// combination are checked before it is computed: an operand with a 0 among
// its reduced sizes allows any kept sizes (2^62 x 0 gives 2^62 sums), and
// the allocation's byte count would wrap. f16 data is summed in f32, so the
// check counts 4 bytes per element. A 0 among the sizes makes any product
// fit.
// CHECK-LABEL: func @bytes_checked
// CHECK-DAG: %[[D0:.+]] = tensor.dim %[[X:.+]], %c0 : tensor<?x?x?xf16>
// CHECK-DAG: %[[D1:.+]] = tensor.dim %[[X]], %c1 : tensor<?x?x?xf16>
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK-DAG: %[[FOUR:.+]] = arith.constant 4 : i64
// CHECK: %[[N0:.+]] = arith.index_cast %[[D0]] : index to i64
// CHECK-NEXT: %[[LOW0:.+]], %[[HIGH0:.+]] = arith.mului_extended %[[FOUR]], %[[N0]] : i64
// CHECK-NEXT: %[[WIDE0:.+]] = arith.cmpi ne, %[[HIGH0]], %[[ZERO]] : i64
// CHECK-NEXT: %[[SIGN0:.+]] = arith.cmpi slt, %[[LOW0]], %[[ZERO]] : i64
// CHECK: %[[N1:.+]] = arith.index_cast %[[D1]] : index to i64
// CHECK-NEXT: %[[LOW1:.+]], %[[HIGH1:.+]] = arith.mului_extended %[[LOW0]], %[[N1]] : i64
// CHECK: %[[EMPTY1:.+]] = arith.cmpi eq, %[[N1]], %[[ZERO]] : i64
// CHECK: cf.assert %{{.+}}, "fuse.reduce_sum at {{.*}}reductions.mlir:[[@LINE+3]]:8: its result, of type tensor<?x?xf16>, accumulated in f32, would have more than 2^63 - 1 bytes with these argument sizes"
// CHECK-NEXT: tensor.empty(%[[D0]], %[[D1]]) : tensor<?x?xf32>
func.func @bytes_checked(%x: tensor<?x?x?xf16>) -> tensor<?x?xf16> {
  %0 = fuse.reduce_sum %x {dims = array<i64: 2>} : tensor<?x?x?xf16> -> tensor<?x?xf16>
  return %0 : tensor<?x?xf16>
}

// Not where an argument has the result's `?` sizes and at least its static
// bytes: that argument's buffer exists.
// CHECK-LABEL: func @bytes_of_an_argument
// CHECK-NOT: mului_extended
// CHECK: return
func.func @bytes_of_an_argument(%x: tensor<?x?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  %1 = fuse.add %0, %y : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// Nor after a max has checked that the rows are not empty: the sums of
// softmax then have no more elements than its argument.
// CHECK-LABEL: func @bytes_after_a_max
// CHECK-NOT: mului_extended
// CHECK: return
func.func @bytes_after_a_max(%x: tensor<?x?xf32>) -> tensor<?x1xf32> {
  %0 = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %1 = fuse.sub %x, %0 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %2 = fuse.reduce_sum %1 {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  return %2 : tensor<?x1xf32>
}

// A sum before the max is checked: its rows may be empty.
// CHECK-LABEL: func @bytes_before_a_max
// CHECK: mului_extended
// CHECK: "fuse.reduce_sum at {{.*}}: its result, of type tensor<?xf32>, would have more than 2^63 - 1 bytes
// CHECK-NOT: mului_extended
// CHECK: return
func.func @bytes_before_a_max(%x: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %0 = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  %1 = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  %2 = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  return %0, %2 : tensor<?xf32>, tensor<?xf32>
}
