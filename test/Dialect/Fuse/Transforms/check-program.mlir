// RUN: fuse-opt %s --split-input-file --verify-diagnostics --fuse-check-program
// RUN: sed 's#// expected-#// EXPECTED-#' %s | not fuse-opt --split-input-file --fuse-pipeline=ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE

// What every pipeline that compiles to kernels refuses first, with its
// location and why. The second RUN line (the annotations hidden from the
// parser) checks that the ptx pipeline runs the check: no other error.

// A program of fuse ops passes unchanged; declarations are ignored.
func.func private @declared(memref<4xf32>)
func.func @fine(%a: tensor<?xf32>, %b: tensor<f16>) -> (tensor<?xf32>, tensor<f16>) {
  %c = fuse.add %a, %a : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %c, %b : tensor<?xf32>, tensor<f16>
}

// -----

func.func @arith(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'arith.addf' is not a fuse op: fuse compiles functions made of fuse ops and func.return}}
  %c = arith.addf %a, %a : tensor<?xf32>
  return %c : tensor<?xf32>
}
// PIPELINE: <stdin>:[[# @LINE - 3]]:8: error: 'arith.addf' is not a fuse op

// -----

func.func @callee(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}
func.func @caller(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'func.call' is not a fuse op: fuse compiles functions made of fuse ops and func.return (calls are not supported; write the callee's ops inline)}}
  %c = func.call @callee(%a) : (tensor<?xf32>) -> tensor<?xf32>
  return %c : tensor<?xf32>
}
// PIPELINE: <stdin>:[[# @LINE - 3]]:8: error: 'func.call' is not a fuse op

// -----

// expected-error @+1 {{@memref argument 0 has type 'memref<?xf32>'; fuse functions take and return ranked tensors of f16, bf16, f32, f64, i32, i64 or i1}}
func.func @memref(%a: memref<?xf32>) {
  return
}
// PIPELINE: <stdin>:[[# @LINE - 3]]:19: error: @memref argument 0 has type 'memref<?xf32>'

// -----

// expected-error @+1 {{@unranked result 0 has type 'tensor<*xf32>'}}
func.func @unranked(%a: tensor<4xf32>) -> tensor<*xf32> {
  %c = tensor.cast %a : tensor<4xf32> to tensor<*xf32>
  return %c : tensor<*xf32>
}
// PIPELINE: <stdin>:[[# @LINE - 4]]:1: error: @unranked result 0 has type 'tensor<*xf32>'

// -----

// expected-error @+1 {{@complex argument 0 has type 'tensor<4xcomplex<f32>>'}}
func.func @complex(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  return %a : tensor<4xcomplex<f32>>
}
// PIPELINE: <stdin>:[[# @LINE - 3]]:20: error: @complex argument 0 has type 'tensor<4xcomplex<f32>>'

// -----

// Attributes for the LLVM lowering reached LLVM as they were, whose errors
// (an unlocated "Attributes 'noinline and alwaysinline' are incompatible!")
// were all a program got.
// expected-error @+1 {{@passthrough has the attribute 'passthrough': fuse takes no attributes on a function, its arguments or its results (it makes the compiled function itself)}}
func.func @passthrough(%a: tensor<?xf32>) -> tensor<?xf32> attributes {passthrough = ["noinline"]} {
  %0 = fuse.neg %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}
// PIPELINE: <stdin>:[[# @LINE - 4]]:1: error: @passthrough has the attribute 'passthrough'

// -----

// expected-error @+1 {{@byval argument 0 has the attribute 'llvm.byval'}}
func.func @byval(%a: tensor<?xf32> {llvm.byval = f32}) -> tensor<?xf32> {
  %0 = fuse.neg %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}
// PIPELINE: <stdin>:[[# @LINE - 4]]:18: error: @byval argument 0 has the attribute 'llvm.byval'

// -----

// expected-error @+1 {{@noalias result 0 has the attribute 'llvm.noalias'}}
func.func @noalias(%a: tensor<?xf32>) -> (tensor<?xf32> {llvm.noalias}) {
  %0 = fuse.neg %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}
// PIPELINE: <stdin>:[[# @LINE - 4]]:1: error: @noalias result 0 has the attribute 'llvm.noalias'

// -----

// Another dialect's attribute on a fuse op was kept, meaning nothing.
func.func @foreign_attribute(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'fuse.relu' has the attribute 'foo.x' of another dialect, which fuse does not read: drop it}}
  %0 = fuse.relu %a {foo.x = 1} : tensor<?xf32>
  return %0 : tensor<?xf32>
}
// PIPELINE: <stdin>:[[# @LINE - 3]]:8: error: 'fuse.relu' has the attribute 'foo.x' of another dialect

// -----

// fuse's own discardable attributes are its passes' marks on kernels (it
// said "of another dialect").
func.func @kernel_attribute(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'fuse.relu' has the attribute 'fuse.kernel', which fuse's passes set on the kernels they make, not on fuse ops: drop it}}
  %0 = fuse.relu %a {fuse.kernel = "relu_0"} : tensor<?xf32>
  return %0 : tensor<?xf32>
}
// PIPELINE: <stdin>:[[# @LINE - 3]]:8: error: 'fuse.relu' has the attribute 'fuse.kernel', which fuse's passes set

// -----

// expected-error @+1 {{'gpu.module' is not a function: a fuse program is a module of func.func}}
gpu.module @kernels {
}
// PIPELINE: <stdin>:[[# @LINE - 2]]:1: error: 'gpu.module' is not a function

// -----

// A stage's output given again: one error that says so, not errors that
// name the lowering's ops and types at the program's lines.
// expected-error @+1 {{@lowered takes buffers (memrefs), a lowering's output: this module is a stage's (gpu or later), and fuse's pipelines take fuse programs, functions on tensors; give the program itself, or run the passes that come next with --pass-pipeline}}
func.func @lowered(%a: memref<?xf32>) {
  return
}
gpu.module @fuse_kernels {
}
// PIPELINE: <stdin>:[[# @LINE - 5]]:1: error: @lowered takes buffers (memrefs), a lowering's output

// -----

// expected-error @+1 {{'memref.global' is a lowering's output}}
memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]>
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
// PIPELINE: <stdin>:[[# @LINE - 4]]:1: error: 'memref.global' is a lowering's output

// PIPELINE-NOT: error
// PIPELINE-NOT: .entry
