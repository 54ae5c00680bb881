// RUN: fuse-opt %s --allow-unregistered-dialect --fuse-pipeline=fused -split-input-file | FileCheck %s

// Programs that once crashed or failed; each must lower to valid IR.

// An unregistered op feeding a fuse op.
// CHECK-LABEL: func @opaque
// CHECK: %[[O:.+]] = "test.opaque"
// CHECK: linalg.generic {{.*}} ins(%[[O]] : tensor<4xf32>) {{.*}}fuse.kernel = "relu_0"
func.func @opaque(%a: tensor<4xf32>) -> tensor<4xf32> {
  %o = "test.opaque"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = fuse.relu %o : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// {relu, add} and {neg, exp} would feed each other through the inserts:
// neg and exp stay apart.
// CHECK-LABEL: func @group_cycle
// CHECK-DAG: fuse.ops = ["neg"]
// CHECK-DAG: fuse.ops = ["relu", "add"]
// CHECK-DAG: fuse.ops = ["exp"]
func.func @group_cycle(%arg: tensor<4xf32>, %f: f32, %i: index) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = fuse.relu %arg : tensor<4xf32>
  %x2 = fuse.neg %arg : tensor<4xf32>
  %o2 = tensor.insert %f into %x2[%i] : tensor<4xf32>
  %b = fuse.add %a, %o2 : tensor<4xf32>
  %o1 = tensor.insert %f into %a[%i] : tensor<4xf32>
  %x1 = fuse.exp %o1 : tensor<4xf32>
  return %b, %x1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// A kernel of constants only (its yield is defined outside its body after
// canonicalization) merged horizontally with another.
// CHECK-LABEL: func @constant_kernel
// CHECK: fuse.ops = ["add", "exp"]
func.func @constant_kernel(%y: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %c2 = fuse.constant 2.0 : tensor<f32>
  %c3 = fuse.constant 3.0 : tensor<f32>
  %s = fuse.add %c2, %c3 : tensor<f32>
  %t = fuse.exp %y : tensor<f32>
  return %s, %t : tensor<f32>, tensor<f32>
}

// -----

// Sizes assumed equal are checked before the first kernel that relies on
// them, not at the op that unified them.
// CHECK-LABEL: func @early_check
// CHECK: cf.assert
// CHECK-NOT: cf.assert
// CHECK: linalg.generic
func.func @early_check(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.relu %a : tensor<?xf32>
  %1 = fuse.neg %b : tensor<?xf32>
  %2 = fuse.add %0, %1 : tensor<?xf32>
  return %2 : tensor<?xf32>
}

// -----

// A size known only inside a region is not used outside it.
// CHECK-LABEL: func @nested
// CHECK: scf.if
// CHECK: fuse.ops = ["relu"]
func.func @nested(%n: index, %m: index, %c: i1) -> (tensor<?xf32>, tensor<?xf32>) {
  %t = tensor.empty(%n) : tensor<?xf32>
  %r = scf.if %c -> (tensor<?xf32>) {
    %u = tensor.empty(%m) : tensor<?xf32>
    %x = fuse.add %u, %t : tensor<?xf32>
    scf.yield %x : tensor<?xf32>
  } else {
    scf.yield %t : tensor<?xf32>
  }
  %y = fuse.relu %t : tensor<?xf32>
  return %r, %y : tensor<?xf32>, tensor<?xf32>
}

// -----

// A dead softmax over a live producer (difftest seed 400305): the dead
// chain, with the tensor.expand_shape of its kept dimension, is erased
// before fusion. Left to the canonicalizer, its reductions joined the
// producer's group and were removed after it, leaving a group without a
// reduction, which fuse-map-to-gpu refused. (The cast of the constant is
// computed inside the kernel that reads it.)
// CHECK-LABEL: func @dead_softmax
// CHECK-NOT: fuse.group
// CHECK-NOT: "reduction"
// CHECK: fuse.kernel = "fused_cast_cast_mul_gelu_cmp_0"
// CHECK-NOT: fuse.group
// CHECK-NOT: "reduction"
// CHECK: return
func.func @dead_softmax(%a: tensor<16xf16>) -> tensor<16xi1> {
  %x = fuse.cast %a : tensor<16xf16> to tensor<16xbf16>
  %c = fuse.constant 3 : tensor<i32>
  %k = fuse.cast %c : tensor<i32> to tensor<bf16>
  %m = fuse.mul %x, %k : tensor<16xbf16>, tensor<bf16> -> tensor<16xbf16>
  %g = fuse.gelu %m {approximate = "tanh"} : tensor<16xbf16>
  %r = fuse.cmp le, %m, %g : tensor<16xbf16>, tensor<16xbf16> -> tensor<16xi1>
  %mx = fuse.reduce_max %m {dims = array<i64: 0>} : tensor<16xbf16> -> tensor<1xbf16>
  %d = fuse.sub %m, %mx : tensor<16xbf16>, tensor<1xbf16> -> tensor<16xbf16>
  %e = fuse.exp %d : tensor<16xbf16>
  %s = fuse.reduce_sum %e {dims = array<i64: 0>} : tensor<16xbf16> -> tensor<1xbf16>
  %y = fuse.div %e, %s : tensor<16xbf16>, tensor<1xbf16> -> tensor<16xbf16>
  return %r : tensor<16xi1>
}

// -----

// A std (with ddof), a sum and a softmax of one f16 matrix: a group made
// before moved a member of a later one after the later one's others, and
// moving that group's members together walked past the end of the block.
// CHECK-LABEL: func @groups_moved
// CHECK-DAG: fuse.kernel = "reduce_sum_0"
// CHECK-DAG: fuse.kernel = "fused_cast_cmp_cmp_select_cast_plus3_1"
// CHECK-DAG: fuse.kernel = "fused_cast_sub_exp_reduce_sum_sub_plus8_2"
// CHECK-DAG: fuse.kernel = "fused_cast_sub_exp_div_cast_3"
func.func @groups_moved(%x: tensor<?x?xf16>) -> (tensor<f16>, tensor<f16>, tensor<?x?xf16>) {
  %0 = fuse.reduce_sum %x {dims = array<i64: 0, 1>} : tensor<?x?xf16> -> tensor<f16>
  %1 = fuse.cast %x : tensor<?x?xf16> to tensor<?x?xf32>
  %2 = fuse.reduce_mean %1 {dims = array<i64: 0, 1>} : tensor<?x?xf32> -> tensor<1x1xf32>
  %3 = fuse.sub %1, %2 : tensor<?x?xf32>, tensor<1x1xf32> -> tensor<?x?xf32>
  %4 = fuse.mul %3, %3 : tensor<?x?xf32>
  %5 = fuse.cmp eq, %1, %1 : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xi1>
  %6 = fuse.cmp ne, %1, %1 : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xi1>
  %7 = fuse.constant true : tensor<i1>
  %8 = fuse.select %5, %7, %6 : tensor<?x?xi1>, tensor<i1>, tensor<?x?xi1> -> tensor<?x?xi1>
  %9 = fuse.cast %8 : tensor<?x?xi1> to tensor<?x?xi64>
  %10 = fuse.reduce_sum %9 {dims = array<i64: 0, 1>} : tensor<?x?xi64> -> tensor<i64>
  %11 = fuse.cast %10 : tensor<i64> to tensor<f32>
  %12 = fuse.reduce_sum %4 {dims = array<i64: 0, 1>} : tensor<?x?xf32> -> tensor<f32>
  %13 = fuse.constant 1.0 : tensor<f32>
  %14 = fuse.sub %11, %13 : tensor<f32>
  %15 = fuse.constant 0.0 : tensor<f32>
  %16 = fuse.max %14, %15 : tensor<f32>
  %17 = fuse.div %12, %16 : tensor<f32>
  %18 = fuse.sqrt %17 : tensor<f32>
  %19 = fuse.cast %18 : tensor<f32> to tensor<f16>
  %20 = fuse.reduce_max %1 {dims = array<i64: 0, 1>} : tensor<?x?xf32> -> tensor<1x1xf32>
  %21 = fuse.sub %1, %20 : tensor<?x?xf32>, tensor<1x1xf32> -> tensor<?x?xf32>
  %22 = fuse.exp %21 : tensor<?x?xf32>
  %23 = fuse.reduce_sum %22 {dims = array<i64: 0, 1>} : tensor<?x?xf32> -> tensor<1x1xf32>
  %24 = fuse.div %22, %23 : tensor<?x?xf32>, tensor<1x1xf32> -> tensor<?x?xf32>
  %25 = fuse.cast %24 : tensor<?x?xf32> to tensor<?x?xf16>
  return %0, %19, %25 : tensor<f16>, tensor<f16>, tensor<?x?xf16>
}
