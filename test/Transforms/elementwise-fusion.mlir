// RUN: fuse-opt %s --convert-fuse-to-linalg --fuse-elementwise-fusion | FileCheck %s
// RUN: fuse-opt %s --convert-fuse-to-linalg "--fuse-elementwise-fusion=horizontal=false" | FileCheck %s --check-prefix=VERTICAL

// Elementwise fusion on the eager lowering of fuse programs: each connected
// elementwise region over one iteration space becomes one linalg.generic.
// Remarks are tested in elementwise-fusion-remarks.mlir.

// CHECK-DAG: #[[$ID1:.+]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[$ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$INNER:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$SCALAR0:.+]] = affine_map<() -> ()>
// CHECK-DAG: #[[$SCALAR1:.+]] = affine_map<(d0) -> ()>
// CHECK-DAG: #[[$ELEMENT0:.+]] = affine_map<(d0) -> (0)>

// A chain is one kernel that names both ops, in order.
// CHECK-LABEL: func @chain
// CHECK-SAME: (%[[A:.+]]: tensor<?xf32>, %[[B:.+]]: tensor<?xf32>)
// CHECK-DAG: %[[DA:.+]] = tensor.dim %[[A]], %c0{{.*}} : tensor<?xf32>
// CHECK-DAG: %[[DB:.+]] = tensor.dim %[[B]], %c0{{.*}} : tensor<?xf32>
// CHECK: cf.assert
// CHECK-NOT: linalg.generic
// CHECK: %[[K:.+]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[A]], %[[B]] : tensor<?xf32>, tensor<?xf32>) outs(%{{.+}} : tensor<?xf32>) attrs = {fuse.ops = ["add", "relu"]} {
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[SUM:.+]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[RELU:.+]] = arith.maximumf %[[SUM]], %[[ZERO]] : f32
// CHECK-NEXT: linalg.yield %[[RELU]] : f32
// CHECK-NEXT: } -> tensor<?xf32>
// CHECK-NEXT: return %[[K]] : tensor<?xf32>
// VERTICAL-LABEL: func @chain
// VERTICAL: linalg.generic {{.*}} attrs = {fuse.ops = ["add", "relu"]}
// VERTICAL-NOT: linalg.generic
// VERTICAL: return
func.func @chain(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// A producer with two consumers is fused into both: computed once in the
// kernel, which yields both consumers' results.
// CHECK-LABEL: func @two_consumers
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>)
// CHECK: %[[K:.+]]:2 = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[A]] : tensor<4xf32>) outs(%{{.+}}, %{{.+}} : tensor<4xf32>, tensor<4xf32>) attrs = {fuse.ops = ["exp", "neg", "abs"]} {
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[E:.+]] = math.exp %[[X]] : f32
// CHECK-NEXT: %[[N:.+]] = arith.negf %[[E]] : f32
// CHECK-NEXT: %[[ABS:.+]] = math.absf %[[E]] : f32
// CHECK-NEXT: linalg.yield %[[N]], %[[ABS]] : f32, f32
// CHECK-NEXT: } -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: return %[[K]]#0, %[[K]]#1 : tensor<4xf32>, tensor<4xf32>
func.func @two_consumers(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = fuse.exp %a : tensor<4xf32>
  %1 = fuse.neg %0 : tensor<4xf32>
  %2 = fuse.abs %0 : tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}

// A diamond joins again: one result, the shared value computed once.
// CHECK-LABEL: func @diamond
// CHECK: %[[K:.+]] = linalg.generic {{.*}} attrs = {fuse.ops = ["exp", "neg", "abs", "add"]} {
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[E:.+]] = math.exp %[[X]] : f32
// CHECK-NEXT: %[[N:.+]] = arith.negf %[[E]] : f32
// CHECK-NEXT: %[[ABS:.+]] = math.absf %[[E]] : f32
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[N]], %[[ABS]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK-NEXT: } -> tensor<4xf32>
// CHECK-NEXT: return %[[K]] : tensor<4xf32>
func.func @diamond(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.exp %a : tensor<4xf32>
  %1 = fuse.neg %0 : tensor<4xf32>
  %2 = fuse.abs %0 : tensor<4xf32>
  %3 = fuse.add %1, %2 : tensor<4xf32>
  return %3 : tensor<4xf32>
}

// A value of the region that is also returned makes a multi-result kernel;
// values used only inside the kernel are not written.
// CHECK-LABEL: func @multi_result
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>)
// CHECK: %[[K:.+]]:2 = linalg.generic {{.*}} ins(%[[A]] : tensor<4xf32>) outs(%{{.+}}, %{{.+}} : tensor<4xf32>, tensor<4xf32>) attrs = {fuse.ops = ["exp", "neg", "abs"]} {
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[E:.+]] = math.exp %[[X]] : f32
// CHECK-NEXT: %[[N:.+]] = arith.negf %[[E]] : f32
// CHECK-NEXT: %[[ABS:.+]] = math.absf %[[N]] : f32
// CHECK-NEXT: linalg.yield %[[E]], %[[ABS]] : f32, f32
// CHECK-NEXT: } -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: return %[[K]]#0, %[[K]]#1 : tensor<4xf32>, tensor<4xf32>
func.func @multi_result(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = fuse.exp %a : tensor<4xf32>
  %1 = fuse.neg %0 : tensor<4xf32>
  %2 = fuse.abs %1 : tensor<4xf32>
  return %0, %2 : tensor<4xf32>, tensor<4xf32>
}

// Each distinct input is read once, however many ops read it.
// CHECK-LABEL: func @inputs_read_once
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<4xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[A]], %[[B]] : tensor<4xf32>, tensor<4xf32>) outs(%{{.+}} : tensor<4xf32>) attrs = {fuse.ops = ["add", "mul", "sub"]} {
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[S]], %[[X]] : f32
// CHECK-NEXT: %[[D:.+]] = arith.subf %[[M]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[D]] : f32
func.func @inputs_read_once(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.add %a, %b : tensor<4xf32>
  %1 = fuse.mul %0, %a : tensor<4xf32>
  %2 = fuse.sub %1, %b : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// Inlined constants travel with their op's body.
// CHECK-LABEL: func @inlined_constants
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[X]] : tensor<4xf32>) {{.*}} attrs = {fuse.ops = ["mul", "add"]} {
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[TWO:.+]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[IN]], %[[TWO]] : f32
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[M]], %[[ONE]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
func.func @inlined_constants(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = fuse.constant 2.0 : tensor<f32>
  %one = fuse.constant dense<1.0> : tensor<4xf32>
  %0 = fuse.mul %x, %two : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %1 = fuse.add %0, %one : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// An i1 value between cmp and select stays inside the kernel.
// CHECK-LABEL: func @cmp_select
// CHECK-SAME: (%[[A:.+]]: tensor<?xf32>, %[[B:.+]]: tensor<?xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<?xf32>, tensor<?xf32>) outs(%{{.+}} : tensor<?xf32>) attrs = {fuse.ops = ["cmp", "select"]} {
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[GT:.+]] = arith.cmpf ogt, %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[MAX:.+]] = arith.select %[[GT]], %[[X]], %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[MAX]] : f32
func.func @cmp_select(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.cmp gt, %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
  %1 = fuse.select %0, %a, %b : tensor<?xi1>, tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %1 : tensor<?xf32>
}

// A fused f16 chain still rounds to f16 after every op, as eager does.
// CHECK-LABEL: func @half_chain
// CHECK: linalg.generic {{.*}} attrs = {fuse.ops = ["exp", "neg"]} {
// CHECK-NEXT: ^bb0(%[[X:.+]]: f16, %{{.+}}: f16):
// CHECK-NEXT: %[[W:.+]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT: %[[E:.+]] = math.exp %[[W]] : f32
// CHECK-NEXT: %[[E16:.+]] = arith.truncf %[[E]] : f32 to f16
// CHECK-NEXT: %[[W2:.+]] = arith.extf %[[E16]] : f16 to f32
// CHECK-NEXT: %[[N:.+]] = arith.negf %[[W2]] : f32
// CHECK-NEXT: %[[N16:.+]] = arith.truncf %[[N]] : f32 to f16
// CHECK-NEXT: linalg.yield %[[N16]] : f16
func.func @half_chain(%a: tensor<4xf16>) -> tensor<4xf16> {
  %0 = fuse.exp %a : tensor<4xf16>
  %1 = fuse.neg %0 : tensor<4xf16>
  return %1 : tensor<4xf16>
}

//===----------------------------------------------------------------------===//
// Horizontal fusion
//===----------------------------------------------------------------------===//

// Independent ops over the same static space share a kernel; not with
// horizontal=false.
// CHECK-LABEL: func @horizontal
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<4xf32>)
// CHECK: %[[K:.+]]:2 = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]], #[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[A]], %[[B]] : tensor<4xf32>, tensor<4xf32>) outs(%{{.+}}, %{{.+}} : tensor<4xf32>, tensor<4xf32>) attrs = {fuse.ops = ["exp", "neg"]} {
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[E:.+]] = math.exp %[[X]] : f32
// CHECK-NEXT: %[[N:.+]] = arith.negf %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[E]], %[[N]] : f32, f32
// CHECK-NEXT: } -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT: return %[[K]]#0, %[[K]]#1 : tensor<4xf32>, tensor<4xf32>
// VERTICAL-LABEL: func @horizontal
// VERTICAL: %[[E:.+]] = linalg.generic {{.*}} attrs = {fuse.ops = ["exp"]}
// VERTICAL: %[[N:.+]] = linalg.generic {{.*}} attrs = {fuse.ops = ["neg"]}
// VERTICAL: return %[[E]], %[[N]] : tensor<4xf32>, tensor<4xf32>
func.func @horizontal(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = fuse.exp %a : tensor<4xf32>
  %1 = fuse.neg %b : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// 0-d spaces are one space too.
// CHECK-LABEL: func @horizontal_0d
// CHECK: linalg.generic {indexing_maps = [#[[$SCALAR0]], #[[$SCALAR0]], #[[$SCALAR0]], #[[$SCALAR0]]], iterator_types = []} {{.*}} attrs = {fuse.ops = ["relu", "exp"]}
// CHECK-NOT: linalg.generic
func.func @horizontal_0d(%a: tensor<f32>, %b: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %0 = fuse.relu %a : tensor<f32>
  %1 = fuse.exp %b : tensor<f32>
  return %0, %1 : tensor<f32>, tensor<f32>
}

// A one-value (0-d) producer read broadcast is computed inside its reader,
// a chain of them too, its names first: `1 - b` is no kernel of one
// element. One that is also returned stays a kernel as well.
// CHECK-LABEL: func @scalar_producers
// CHECK-SAME: (%[[X:.+]]: tensor<?xf32>, %[[B:.+]]: tensor<f64>, %[[D:.+]]: tensor<f32>)
// CHECK: %[[S:.+]] = linalg.generic {indexing_maps = [#[[$SCALAR0]], #[[$SCALAR0]]], iterator_types = []} ins(%[[D]] : tensor<f32>) {{.*}} attrs = {fuse.ops = ["sqrt"]}
// CHECK: %[[K:.+]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$SCALAR1]], #[[$SCALAR1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[X]], %[[B]], %[[D]] : tensor<?xf32>, tensor<f64>, tensor<f32>) {{.*}} attrs = {fuse.ops = ["sub", "cast", "mul", "sqrt", "div"]} {
// CHECK-NEXT: ^bb0(%[[VX:.+]]: f32, %[[VB:.+]]: f64, %[[VD:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: %[[SUB:.+]] = arith.subf %[[ONE]], %[[VB]] : f64
// CHECK-NEXT: %[[CAST:.+]] = arith.truncf %[[SUB]] : f64 to f32
// CHECK-NEXT: %[[MUL:.+]] = arith.mulf %[[CAST]], %[[VX]] : f32
// CHECK-NEXT: %[[SQRT:.+]] = math.sqrt %[[VD]] : f32
// CHECK-NEXT: %[[DIV:.+]] = arith.divf %[[MUL]], %[[SQRT]] : f32
// CHECK-NEXT: linalg.yield %[[DIV]] : f32
// CHECK: return %[[K]], %[[S]]
func.func @scalar_producers(%x: tensor<?xf32>, %b: tensor<f64>, %d: tensor<f32>) -> (tensor<?xf32>, tensor<f32>) {
  %one = fuse.constant 1.0 : tensor<f64>
  %0 = fuse.sub %one, %b : tensor<f64>
  %1 = fuse.cast %0 : tensor<f64> to tensor<f32>
  %2 = fuse.mul %1, %x : tensor<f32>, tensor<?xf32> -> tensor<?xf32>
  %s = fuse.sqrt %d : tensor<f32>
  %3 = fuse.div %2, %s : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  return %3, %s : tensor<?xf32>, tensor<f32>
}

// A one-value producer with a math function (isTargetMath: Adam's bias
// correction `1 - b ** t`) is a kernel of one element that computes it
// once, not a pow at every element of its reader (which computes `1 - p`).
// CHECK-LABEL: func @scalar_math_producer
// CHECK-SAME: (%[[X:.+]]: tensor<?xf32>, %[[B:.+]]: tensor<f64>, %[[T:.+]]: tensor<f64>)
// CHECK: %[[P:.+]] = linalg.generic {indexing_maps = [#[[$SCALAR0]], #[[$SCALAR0]], #[[$SCALAR0]]], iterator_types = []} ins(%[[B]], %[[T]] : tensor<f64>, tensor<f64>) {{.*}} attrs = {fuse.ops = ["pow"]}
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[P]] : tensor<?xf32>, tensor<f64>) {{.*}} attrs = {fuse.ops = ["sub", "cast", "mul"]}
// CHECK-NOT: math.powf
// CHECK: return
func.func @scalar_math_producer(%x: tensor<?xf32>, %b: tensor<f64>, %t: tensor<f64>) -> tensor<?xf32> {
  %one = fuse.constant 1.0 : tensor<f64>
  %p = fuse.pow %b, %t : tensor<f64>
  %0 = fuse.sub %one, %p : tensor<f64>
  %1 = fuse.cast %0 : tensor<f64> to tensor<f32>
  %2 = fuse.mul %1, %x : tensor<f32>, tensor<?xf32> -> tensor<?xf32>
  return %2 : tensor<?xf32>
}

// Dynamic spaces are the same when their sizes are the same SSA values:
// the add checked that the two `?` are equal, so relu(a) and exp(b) join it.
// CHECK-LABEL: func @horizontal_same_dynamic_size
// CHECK-SAME: (%[[A:.+]]: tensor<?xf32>, %[[B:.+]]: tensor<?xf32>)
// CHECK: %[[K:.+]]:3 = linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<?xf32>, tensor<?xf32>) {{.*}} attrs = {fuse.ops = ["add", "relu", "exp"]} {
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %{{.+}}: f32, %{{.+}}: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[R:.+]] = arith.maximumf %[[X]], %[[ZERO]] : f32
// CHECK-NEXT: %[[E:.+]] = math.exp %[[Y]] : f32
// CHECK-NEXT: linalg.yield %[[S]], %[[R]], %[[E]] : f32, f32, f32
// VERTICAL-LABEL: func @horizontal_same_dynamic_size
// VERTICAL-COUNT-3: linalg.generic
// VERTICAL-NOT: linalg.generic
// VERTICAL: return
func.func @horizontal_same_dynamic_size(%a: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %s = fuse.add %a, %b : tensor<?xf32>
  %0 = fuse.relu %a : tensor<?xf32>
  %1 = fuse.exp %b : tensor<?xf32>
  return %s, %0, %1 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}

// Two `?` never checked equal are different spaces.
// CHECK-LABEL: func @different_dynamic_sizes
// CHECK: linalg.generic {{.*}} attrs = {fuse.ops = ["relu"]}
// CHECK: linalg.generic {{.*}} attrs = {fuse.ops = ["exp"]}
func.func @different_dynamic_sizes(%a: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %0 = fuse.relu %a : tensor<?xf32>
  %1 = fuse.exp %b : tensor<?xf32>
  return %0, %1 : tensor<?xf32>, tensor<?xf32>
}

//===----------------------------------------------------------------------===//
// What stays apart
//===----------------------------------------------------------------------===//

// A consumer that broadcasts its producer's result iterates over another
// space: two kernels, the producer's result read through the broadcast map.
// CHECK-LABEL: func @broadcast_consumer
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>, %[[M:.+]]: tensor<3x4xf32>)
// CHECK: %[[E:.+]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]]], {{.*}} ins(%[[A]] : tensor<4xf32>) {{.*}} attrs = {fuse.ops = ["exp"]}
// CHECK: linalg.generic {indexing_maps = [#[[$ID2]], #[[$INNER]], #[[$ID2]]], {{.*}} ins(%[[M]], %[[E]] : tensor<3x4xf32>, tensor<4xf32>) {{.*}} attrs = {fuse.ops = ["add", "relu"]}
// CHECK-NOT: linalg.generic
func.func @broadcast_consumer(%a: tensor<4xf32>, %m: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = fuse.exp %a : tensor<4xf32>
  %1 = fuse.add %m, %0 : tensor<3x4xf32>, tensor<4xf32> -> tensor<3x4xf32>
  %2 = fuse.relu %1 : tensor<3x4xf32>
  return %2 : tensor<3x4xf32>
}

// exp feeds add through tensor.insert too: fusing them would put the
// insert both before and after the kernel, so they stay apart.
// CHECK-LABEL: func @cycle_through_other_op
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>, %[[F:.+]]: f32, %[[I:.+]]: index)
// CHECK: %[[E:.+]] = linalg.generic {{.*}} ins(%[[A]] : tensor<4xf32>) {{.*}} attrs = {fuse.ops = ["exp"]}
// CHECK: %[[INS:.+]] = tensor.insert %[[F]] into %[[E]][%[[I]]] : tensor<4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[E]], %[[INS]] : tensor<4xf32>, tensor<4xf32>) {{.*}} attrs = {fuse.ops = ["add"]}
func.func @cycle_through_other_op(%a: tensor<4xf32>, %f: f32, %i: index) -> tensor<4xf32> {
  %0 = fuse.exp %a : tensor<4xf32>
  %o = tensor.insert %f into %0[%i] : tensor<4xf32>
  %1 = fuse.add %0, %o : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// Horizontal fusion refuses the same cycle: neg(a) would join exp's kernel
// were it not for the insert between them.
// CHECK-LABEL: func @horizontal_cycle
// CHECK: %[[E:.+]] = linalg.generic {{.*}} attrs = {fuse.ops = ["exp"]}
// CHECK: %[[INS:.+]] = tensor.insert %{{.+}} into %[[E]]
// CHECK: linalg.generic {{.*}} ins(%[[INS]] : tensor<4xf32>) {{.*}} attrs = {fuse.ops = ["neg"]}
func.func @horizontal_cycle(%a: tensor<4xf32>, %f: f32, %i: index) -> tensor<4xf32> {
  %0 = fuse.exp %a : tensor<4xf32>
  %o = tensor.insert %f into %0[%i] : tensor<4xf32>
  %1 = fuse.neg %o : tensor<4xf32>
  return %1 : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// Order: the kernel is built where its last op was, then the block is
// re-sorted so that every value is defined before its uses.
//===----------------------------------------------------------------------===//

// The insert reads exp's result before neg: after fusion it follows the
// kernel.
// CHECK-LABEL: func @resort_vertical
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>, %[[F:.+]]: f32, %[[I:.+]]: index)
// CHECK: %[[K:.+]]:2 = linalg.generic {{.*}} ins(%[[A]] : tensor<4xf32>) {{.*}} attrs = {fuse.ops = ["exp", "neg"]}
// CHECK: %[[INS:.+]] = tensor.insert %[[F]] into %[[K]]#0[%[[I]]] : tensor<4xf32>
// CHECK-NEXT: return %[[K]]#1, %[[INS]] : tensor<4xf32>, tensor<4xf32>
func.func @resort_vertical(%a: tensor<4xf32>, %f: f32, %i: index) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = fuse.exp %a : tensor<4xf32>
  %o = tensor.insert %f into %0[%i] : tensor<4xf32>
  %1 = fuse.neg %0 : tensor<4xf32>
  return %1, %o : tensor<4xf32>, tensor<4xf32>
}

// exp(a) joins neg(a) horizontally, after the 3x4 kernel that reads exp's
// result: the merged kernel moves before it.
// CHECK-LABEL: func @resort_horizontal
// CHECK-SAME: (%[[A:.+]]: tensor<4xf32>, %[[M:.+]]: tensor<3x4xf32>)
// CHECK: %[[K:.+]]:2 = linalg.generic {{.*}} ins(%[[A]] : tensor<4xf32>) {{.*}} attrs = {fuse.ops = ["exp", "neg"]} {
// CHECK-NEXT: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[E:.+]] = math.exp %[[X]] : f32
// CHECK-NEXT: %[[N:.+]] = arith.negf %[[X]] : f32
// CHECK-NEXT: linalg.yield %[[E]], %[[N]] : f32, f32
// CHECK: %[[BIG:.+]] = linalg.generic {{.*}} ins(%[[M]], %[[K]]#0 : tensor<3x4xf32>, tensor<4xf32>) {{.*}} attrs = {fuse.ops = ["add", "relu"]}
// CHECK: return %[[K]]#0, %[[BIG]], %[[K]]#1 : tensor<4xf32>, tensor<3x4xf32>, tensor<4xf32>
// VERTICAL-LABEL: func @resort_horizontal
// VERTICAL: linalg.generic {{.*}} attrs = {fuse.ops = ["exp"]}
// VERTICAL: linalg.generic {{.*}} attrs = {fuse.ops = ["add", "relu"]}
// VERTICAL: linalg.generic {{.*}} attrs = {fuse.ops = ["neg"]}
func.func @resort_horizontal(%a: tensor<4xf32>, %m: tensor<3x4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>, tensor<4xf32>) {
  %0 = fuse.exp %a : tensor<4xf32>
  %1 = fuse.add %m, %0 : tensor<3x4xf32>, tensor<4xf32> -> tensor<3x4xf32>
  %2 = fuse.relu %1 : tensor<3x4xf32>
  %3 = fuse.neg %a : tensor<4xf32>
  return %0, %2, %3 : tensor<4xf32>, tensor<3x4xf32>, tensor<4xf32>
}

// A one-value producer that reads element 0 of a size-1 tensor: its reader
// reads that element at every position.
// CHECK-LABEL: func @scalar_producer_of_element_zero
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[S:.+]]: tensor<1xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$ID1]], #[[$ELEMENT0]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[X]], %[[S]] : tensor<4xf32>, tensor<1xf32>)
// CHECK-NEXT: ^bb0(%[[VX:.+]]: f32, %[[VS:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[NEG:.+]] = arith.negf %[[VS]] : f32
// CHECK-NEXT: arith.mulf %[[VX]], %[[NEG]] : f32
// CHECK-NOT: linalg.generic
func.func @scalar_producer_of_element_zero(%x: tensor<4xf32>, %s: tensor<1xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<f32>
  %m = linalg.generic {indexing_maps = [affine_map<() -> (0)>, affine_map<() -> ()>], iterator_types = []} ins(%s : tensor<1xf32>) outs(%e : tensor<f32>) attrs = {fuse.ops = ["neg"]} {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<f32>
  %e2 = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x, %m : tensor<4xf32>, tensor<f32>) outs(%e2 : tensor<4xf32>) attrs = {fuse.ops = ["mul"]} {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// A one-value producer read twice (t * t + t) is computed once, with its
// input read once and its name once.
// CHECK-LABEL: func @shared_scalar_producers
// CHECK-SAME: (%[[X:.+]]: tensor<?xf32>, %[[S:.+]]: tensor<f32>)
// CHECK: linalg.generic {indexing_maps = [#[[$ID1]], #[[$SCALAR1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[X]], %[[S]] : tensor<?xf32>, tensor<f32>) {{.*}} attrs = {fuse.ops = ["mul", "add", "mul", "add", "mul"]} {
// CHECK-NEXT: ^bb0(%[[VX:.+]]: f32, %[[VS:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[M0:.+]] = arith.mulf %[[VS]], %[[VS]] : f32
// CHECK-NEXT: %[[A0:.+]] = arith.addf %[[M0]], %[[VS]] : f32
// CHECK-NEXT: %[[M1:.+]] = arith.mulf %[[A0]], %[[A0]] : f32
// CHECK-NEXT: %[[A1:.+]] = arith.addf %[[M1]], %[[A0]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[VX]], %[[A1]] : f32
// CHECK-NEXT: linalg.yield %[[R]] : f32
func.func @shared_scalar_producers(%x: tensor<?xf32>, %s: tensor<f32>) -> tensor<?xf32> {
  %0 = fuse.mul %s, %s : tensor<f32>
  %1 = fuse.add %0, %s : tensor<f32>
  %2 = fuse.mul %1, %1 : tensor<f32>
  %3 = fuse.add %2, %1 : tensor<f32>
  %4 = fuse.mul %x, %3 : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  return %4 : tensor<?xf32>
}

// A chain of one-value diamonds (both sides read the level before): each
// op named once, in program order, as the body computes each once; the
// names had doubled with each level (the left side's, then the right
// side's with the level before again).
// CHECK-LABEL: func @scalar_diamonds
// CHECK: linalg.generic {{.*}} attrs = {fuse.ops = ["neg", "abs", "add", "neg", "abs", "add", "neg", "abs", "add", "mul"]} {
// CHECK-COUNT-3: math.absf
// CHECK-NOT: math.absf
// CHECK: linalg.yield
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @scalar_diamonds(%s: tensor<f32>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %a0 = fuse.neg %s : tensor<f32>
  %b0 = fuse.abs %s : tensor<f32>
  %s1 = fuse.add %a0, %b0 : tensor<f32>
  %a1 = fuse.neg %s1 : tensor<f32>
  %b1 = fuse.abs %s1 : tensor<f32>
  %s2 = fuse.add %a1, %b1 : tensor<f32>
  %a2 = fuse.neg %s2 : tensor<f32>
  %b2 = fuse.abs %s2 : tensor<f32>
  %s3 = fuse.add %a2, %b2 : tensor<f32>
  %y = fuse.mul %x, %s3 : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  return %y : tensor<?xf32>
}

// A producer that only converts (an f16 bias read as f32) is computed again
// by each consumer that reads it broadcast: its f16 input is read, at the
// producer's map composed with the consumer's, and it is no kernel of its
// own. Another op over the bias (exp) stays one: recomputed per row, it
// would cost more than it saves.
// CHECK-LABEL: func @broadcast_cast
// CHECK-SAME: (%[[X:.+]]: tensor<?x?xf32>, %[[B:.+]]: tensor<?xf16>)
// CHECK: %[[E:.+]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%[[B]] : tensor<?xf16>) {{.*}} attrs = {fuse.ops = ["exp"]}
// CHECK: linalg.generic {indexing_maps = [#[[$ID2]], #[[$INNER]], #[[$INNER]], #[[$ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[B]], %[[E]] : tensor<?x?xf32>, tensor<?xf16>, tensor<?xf16>) {{.*}} attrs = {fuse.ops = ["cast", "add", "cast", "mul"]} {
// CHECK-NEXT: ^bb0(%[[VX:.+]]: f32, %[[VB:.+]]: f16, %[[VE:.+]]: f16, %{{.+}}: f32):
// CHECK-NEXT: %[[C:.+]] = arith.extf %[[VB]] : f16 to f32
// CHECK-NEXT: %[[A:.+]] = arith.addf %[[VX]], %[[C]] : f32
// CHECK-NEXT: %[[CE:.+]] = arith.extf %[[VE]] : f16 to f32
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[A]], %[[CE]] : f32
// CHECK-NEXT: linalg.yield %[[M]] : f32
// CHECK-NOT: linalg.generic
func.func @broadcast_cast(%x: tensor<?x?xf32>, %b: tensor<?xf16>) -> tensor<?x?xf32> {
  %c = fuse.cast %b : tensor<?xf16> to tensor<?xf32>
  %y = fuse.add %x, %c : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %e = fuse.exp %b : tensor<?xf16>
  %ce = fuse.cast %e : tensor<?xf16> to tensor<?xf32>
  %z = fuse.mul %y, %ce : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %z : tensor<?x?xf32>
}

// A linalg.generic written by hand (no fuse.ops) stays as it is between
// the fuse ops' kernels: it was computed inside the relu's kernel, whose
// name and fuse.ops listed the relu only.
// CHECK-LABEL: func @handwritten_generic
// CHECK: linalg.generic {{.*}} attrs = {fuse.ops = ["relu"]}
// CHECK: %[[HAND:.+]] = linalg.generic {indexing_maps = [#[[$ID1]], #[[$ID1]]], iterator_types = ["parallel"]} ins(%{{.+}} : tensor<?xf32>) outs(%{{.+}} : tensor<?xf32>) {
// CHECK-NEXT: ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: arith.mulf %[[IN]], %[[IN]] : f32
// CHECK: linalg.generic {{.*}} ins(%[[HAND]] : tensor<?xf32>) {{.*}} attrs = {fuse.ops = ["neg"]}
func.func @handwritten_generic(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.relu %a : tensor<?xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%0 : tensor<?xf32>) outs(%a : tensor<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %2 = arith.mulf %in, %in : f32
    linalg.yield %2 : f32
  } -> tensor<?xf32>
  %3 = fuse.neg %1 : tensor<?xf32>
  return %3 : tensor<?xf32>
}
