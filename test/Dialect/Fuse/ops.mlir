// RUN: fuse-opt %s | FileCheck %s
// RUN: fuse-opt %s | fuse-opt | FileCheck %s
// RUN: fuse-opt %s --mlir-print-op-generic | fuse-opt | FileCheck %s

// Round trip of every fuse op and every element type it accepts. The three
// RUN lines check the custom form, its reparse, and the generic form's reparse.

//===----------------------------------------------------------------------===//
// Unary ops on float and integer tensors
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @neg(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>, %[[I32:.+]]: tensor<?x?xi32>, %[[I64:.+]]: tensor<1x2x3x4xi64>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.neg %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.neg %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.neg %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.neg %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_I32:.+]] = fuse.neg %[[I32]] : tensor<?x?xi32>
// CHECK-NEXT: %[[R_I64:.+]] = fuse.neg %[[I64]] : tensor<1x2x3x4xi64>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]], %[[R_I32]], %[[R_I64]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>
func.func @neg(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>, %i32: tensor<?x?xi32>, %i64: tensor<1x2x3x4xi64>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>) {
  %r_f16 = fuse.neg %f16 : tensor<?xf16>
  %r_bf16 = fuse.neg %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.neg %f32 : tensor<f32>
  %r_f64 = fuse.neg %f64 : tensor<4x?x2xf64>
  %r_i32 = fuse.neg %i32 : tensor<?x?xi32>
  %r_i64 = fuse.neg %i64 : tensor<1x2x3x4xi64>
  return %r_f16, %r_bf16, %r_f32, %r_f64, %r_i32, %r_i64 : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>
}

// CHECK-LABEL: func @abs(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>, %[[I32:.+]]: tensor<?x?xi32>, %[[I64:.+]]: tensor<1x2x3x4xi64>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.abs %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.abs %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.abs %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.abs %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_I32:.+]] = fuse.abs %[[I32]] : tensor<?x?xi32>
// CHECK-NEXT: %[[R_I64:.+]] = fuse.abs %[[I64]] : tensor<1x2x3x4xi64>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]], %[[R_I32]], %[[R_I64]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>
func.func @abs(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>, %i32: tensor<?x?xi32>, %i64: tensor<1x2x3x4xi64>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>) {
  %r_f16 = fuse.abs %f16 : tensor<?xf16>
  %r_bf16 = fuse.abs %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.abs %f32 : tensor<f32>
  %r_f64 = fuse.abs %f64 : tensor<4x?x2xf64>
  %r_i32 = fuse.abs %i32 : tensor<?x?xi32>
  %r_i64 = fuse.abs %i64 : tensor<1x2x3x4xi64>
  return %r_f16, %r_bf16, %r_f32, %r_f64, %r_i32, %r_i64 : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>
}

// CHECK-LABEL: func @relu(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>, %[[I32:.+]]: tensor<?x?xi32>, %[[I64:.+]]: tensor<1x2x3x4xi64>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.relu %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.relu %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.relu %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.relu %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_I32:.+]] = fuse.relu %[[I32]] : tensor<?x?xi32>
// CHECK-NEXT: %[[R_I64:.+]] = fuse.relu %[[I64]] : tensor<1x2x3x4xi64>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]], %[[R_I32]], %[[R_I64]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>
func.func @relu(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>, %i32: tensor<?x?xi32>, %i64: tensor<1x2x3x4xi64>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>) {
  %r_f16 = fuse.relu %f16 : tensor<?xf16>
  %r_bf16 = fuse.relu %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.relu %f32 : tensor<f32>
  %r_f64 = fuse.relu %f64 : tensor<4x?x2xf64>
  %r_i32 = fuse.relu %i32 : tensor<?x?xi32>
  %r_i64 = fuse.relu %i64 : tensor<1x2x3x4xi64>
  return %r_f16, %r_bf16, %r_f32, %r_f64, %r_i32, %r_i64 : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>
}

// CHECK-LABEL: func @floor(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>, %[[I32:.+]]: tensor<?x?xi32>, %[[I64:.+]]: tensor<1x2x3x4xi64>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.floor %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.floor %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.floor %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.floor %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_I32:.+]] = fuse.floor %[[I32]] : tensor<?x?xi32>
// CHECK-NEXT: %[[R_I64:.+]] = fuse.floor %[[I64]] : tensor<1x2x3x4xi64>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]], %[[R_I32]], %[[R_I64]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>
func.func @floor(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>, %i32: tensor<?x?xi32>, %i64: tensor<1x2x3x4xi64>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>) {
  %r_f16 = fuse.floor %f16 : tensor<?xf16>
  %r_bf16 = fuse.floor %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.floor %f32 : tensor<f32>
  %r_f64 = fuse.floor %f64 : tensor<4x?x2xf64>
  %r_i32 = fuse.floor %i32 : tensor<?x?xi32>
  %r_i64 = fuse.floor %i64 : tensor<1x2x3x4xi64>
  return %r_f16, %r_bf16, %r_f32, %r_f64, %r_i32, %r_i64 : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>
}

// CHECK-LABEL: func @ceil(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>, %[[I32:.+]]: tensor<?x?xi32>, %[[I64:.+]]: tensor<1x2x3x4xi64>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.ceil %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.ceil %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.ceil %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.ceil %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_I32:.+]] = fuse.ceil %[[I32]] : tensor<?x?xi32>
// CHECK-NEXT: %[[R_I64:.+]] = fuse.ceil %[[I64]] : tensor<1x2x3x4xi64>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]], %[[R_I32]], %[[R_I64]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>
func.func @ceil(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>, %i32: tensor<?x?xi32>, %i64: tensor<1x2x3x4xi64>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>) {
  %r_f16 = fuse.ceil %f16 : tensor<?xf16>
  %r_bf16 = fuse.ceil %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.ceil %f32 : tensor<f32>
  %r_f64 = fuse.ceil %f64 : tensor<4x?x2xf64>
  %r_i32 = fuse.ceil %i32 : tensor<?x?xi32>
  %r_i64 = fuse.ceil %i64 : tensor<1x2x3x4xi64>
  return %r_f16, %r_bf16, %r_f32, %r_f64, %r_i32, %r_i64 : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>
}

//===----------------------------------------------------------------------===//
// Unary ops on float tensors
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @exp(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.exp %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.exp %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.exp %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.exp %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
func.func @exp(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>) {
  %r_f16 = fuse.exp %f16 : tensor<?xf16>
  %r_bf16 = fuse.exp %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.exp %f32 : tensor<f32>
  %r_f64 = fuse.exp %f64 : tensor<4x?x2xf64>
  return %r_f16, %r_bf16, %r_f32, %r_f64 : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
}

// CHECK-LABEL: func @log(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.log %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.log %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.log %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.log %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
func.func @log(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>) {
  %r_f16 = fuse.log %f16 : tensor<?xf16>
  %r_bf16 = fuse.log %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.log %f32 : tensor<f32>
  %r_f64 = fuse.log %f64 : tensor<4x?x2xf64>
  return %r_f16, %r_bf16, %r_f32, %r_f64 : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
}

// CHECK-LABEL: func @expm1(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.expm1 %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.expm1 %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.expm1 %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.expm1 %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
func.func @expm1(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>) {
  %r_f16 = fuse.expm1 %f16 : tensor<?xf16>
  %r_bf16 = fuse.expm1 %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.expm1 %f32 : tensor<f32>
  %r_f64 = fuse.expm1 %f64 : tensor<4x?x2xf64>
  return %r_f16, %r_bf16, %r_f32, %r_f64 : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
}

// CHECK-LABEL: func @log1p(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.log1p %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.log1p %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.log1p %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.log1p %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
func.func @log1p(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>) {
  %r_f16 = fuse.log1p %f16 : tensor<?xf16>
  %r_bf16 = fuse.log1p %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.log1p %f32 : tensor<f32>
  %r_f64 = fuse.log1p %f64 : tensor<4x?x2xf64>
  return %r_f16, %r_bf16, %r_f32, %r_f64 : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
}

// CHECK-LABEL: func @sqrt(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.sqrt %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.sqrt %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.sqrt %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.sqrt %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
func.func @sqrt(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>) {
  %r_f16 = fuse.sqrt %f16 : tensor<?xf16>
  %r_bf16 = fuse.sqrt %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.sqrt %f32 : tensor<f32>
  %r_f64 = fuse.sqrt %f64 : tensor<4x?x2xf64>
  return %r_f16, %r_bf16, %r_f32, %r_f64 : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
}

// CHECK-LABEL: func @rsqrt(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.rsqrt %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.rsqrt %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.rsqrt %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.rsqrt %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
func.func @rsqrt(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>) {
  %r_f16 = fuse.rsqrt %f16 : tensor<?xf16>
  %r_bf16 = fuse.rsqrt %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.rsqrt %f32 : tensor<f32>
  %r_f64 = fuse.rsqrt %f64 : tensor<4x?x2xf64>
  return %r_f16, %r_bf16, %r_f32, %r_f64 : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
}

// CHECK-LABEL: func @tanh(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.tanh %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.tanh %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.tanh %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.tanh %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
func.func @tanh(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>) {
  %r_f16 = fuse.tanh %f16 : tensor<?xf16>
  %r_bf16 = fuse.tanh %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.tanh %f32 : tensor<f32>
  %r_f64 = fuse.tanh %f64 : tensor<4x?x2xf64>
  return %r_f16, %r_bf16, %r_f32, %r_f64 : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
}

// CHECK-LABEL: func @sigmoid(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.sigmoid %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.sigmoid %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.sigmoid %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.sigmoid %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
func.func @sigmoid(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>) {
  %r_f16 = fuse.sigmoid %f16 : tensor<?xf16>
  %r_bf16 = fuse.sigmoid %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.sigmoid %f32 : tensor<f32>
  %r_f64 = fuse.sigmoid %f64 : tensor<4x?x2xf64>
  return %r_f16, %r_bf16, %r_f32, %r_f64 : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
}

// CHECK-LABEL: func @silu(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.silu %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.silu %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.silu %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.silu %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
func.func @silu(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>) {
  %r_f16 = fuse.silu %f16 : tensor<?xf16>
  %r_bf16 = fuse.silu %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.silu %f32 : tensor<f32>
  %r_f64 = fuse.silu %f64 : tensor<4x?x2xf64>
  return %r_f16, %r_bf16, %r_f32, %r_f64 : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
}

// CHECK-LABEL: func @sin(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.sin %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.sin %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.sin %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.sin %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
func.func @sin(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>) {
  %r_f16 = fuse.sin %f16 : tensor<?xf16>
  %r_bf16 = fuse.sin %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.sin %f32 : tensor<f32>
  %r_f64 = fuse.sin %f64 : tensor<4x?x2xf64>
  return %r_f16, %r_bf16, %r_f32, %r_f64 : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
}

// CHECK-LABEL: func @cos(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.cos %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.cos %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.cos %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.cos %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
func.func @cos(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>) {
  %r_f16 = fuse.cos %f16 : tensor<?xf16>
  %r_bf16 = fuse.cos %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.cos %f32 : tensor<f32>
  %r_f64 = fuse.cos %f64 : tensor<4x?x2xf64>
  return %r_f16, %r_bf16, %r_f32, %r_f64 : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
}

// CHECK-LABEL: func @erf(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.erf %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.erf %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.erf %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.erf %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
func.func @erf(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>) {
  %r_f16 = fuse.erf %f16 : tensor<?xf16>
  %r_bf16 = fuse.erf %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.erf %f32 : tensor<f32>
  %r_f64 = fuse.erf %f64 : tensor<4x?x2xf64>
  return %r_f16, %r_bf16, %r_f32, %r_f64 : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
}

// CHECK-LABEL: func @reciprocal(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.reciprocal %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.reciprocal %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.reciprocal %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.reciprocal %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
func.func @reciprocal(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>) {
  %r_f16 = fuse.reciprocal %f16 : tensor<?xf16>
  %r_bf16 = fuse.reciprocal %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.reciprocal %f32 : tensor<f32>
  %r_f64 = fuse.reciprocal %f64 : tensor<4x?x2xf64>
  return %r_f16, %r_bf16, %r_f32, %r_f64 : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
}

// The default approximate = "none" is elided, also when written out.
// CHECK-LABEL: func @gelu(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.gelu %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.gelu %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.gelu %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.gelu %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_NONE:.+]] = fuse.gelu %[[F32]] : tensor<f32>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]], %[[R_NONE]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<f32>
func.func @gelu(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<f32>) {
  %r_f16 = fuse.gelu %f16 : tensor<?xf16>
  %r_bf16 = fuse.gelu %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.gelu %f32 : tensor<f32>
  %r_f64 = fuse.gelu %f64 : tensor<4x?x2xf64>
  %r_none = fuse.gelu %f32 {approximate = "none"} : tensor<f32>
  return %r_f16, %r_bf16, %r_f32, %r_f64, %r_none : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<f32>
}

// CHECK-LABEL: func @gelu_tanh(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.gelu %[[F16]] {approximate = "tanh"} : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.gelu %[[BF16]] {approximate = "tanh"} : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.gelu %[[F32]] {approximate = "tanh"} : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.gelu %[[F64]] {approximate = "tanh"} : tensor<4x?x2xf64>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
func.func @gelu_tanh(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>) {
  %r_f16 = fuse.gelu %f16 {approximate = "tanh"} : tensor<?xf16>
  %r_bf16 = fuse.gelu %bf16 {approximate = "tanh"} : tensor<2x3xbf16>
  %r_f32 = fuse.gelu %f32 {approximate = "tanh"} : tensor<f32>
  %r_f64 = fuse.gelu %f64 {approximate = "tanh"} : tensor<4x?x2xf64>
  return %r_f16, %r_bf16, %r_f32, %r_f64 : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>
}

// Float bounds for float tensors; either bound or both may be omitted.
// Attributes print in alphabetical order.
// CHECK-LABEL: func @clamp_float(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>
// CHECK-NEXT: %[[BOTH_F16:.+]] = fuse.clamp %[[F16]] {max = 6.000000e+00 : f16, min = -1.500000e+00 : f16} : tensor<?xf16>
// CHECK-NEXT: %[[MIN_F16:.+]] = fuse.clamp %[[F16]] {min = -1.500000e+00 : f16} : tensor<?xf16>
// CHECK-NEXT: %[[MAX_F16:.+]] = fuse.clamp %[[F16]] {max = 6.000000e+00 : f16} : tensor<?xf16>
// CHECK-NEXT: %[[NONE_F16:.+]] = fuse.clamp %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[BOTH_BF16:.+]] = fuse.clamp %[[BF16]] {max = 6.000000e+00 : bf16, min = -1.500000e+00 : bf16} : tensor<2x3xbf16>
// CHECK-NEXT: %[[MIN_BF16:.+]] = fuse.clamp %[[BF16]] {min = -1.500000e+00 : bf16} : tensor<2x3xbf16>
// CHECK-NEXT: %[[MAX_BF16:.+]] = fuse.clamp %[[BF16]] {max = 6.000000e+00 : bf16} : tensor<2x3xbf16>
// CHECK-NEXT: %[[NONE_BF16:.+]] = fuse.clamp %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[BOTH_F32:.+]] = fuse.clamp %[[F32]] {max = 6.000000e+00 : f32, min = 0.000000e+00 : f32} : tensor<f32>
// CHECK-NEXT: %[[MIN_F32:.+]] = fuse.clamp %[[F32]] {min = 0.000000e+00 : f32} : tensor<f32>
// CHECK-NEXT: %[[MAX_F32:.+]] = fuse.clamp %[[F32]] {max = 6.000000e+00 : f32} : tensor<f32>
// CHECK-NEXT: %[[NONE_F32:.+]] = fuse.clamp %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[BOTH_F64:.+]] = fuse.clamp %[[F64]] {max = 1.000000e+10 : f64, min = -5.000000e-01 : f64} : tensor<4x?x2xf64>
// CHECK-NEXT: %[[MIN_F64:.+]] = fuse.clamp %[[F64]] {min = -5.000000e-01 : f64} : tensor<4x?x2xf64>
// CHECK-NEXT: %[[MAX_F64:.+]] = fuse.clamp %[[F64]] {max = 1.000000e+10 : f64} : tensor<4x?x2xf64>
// CHECK-NEXT: %[[NONE_F64:.+]] = fuse.clamp %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: return %[[BOTH_F16]], %[[MIN_F16]], %[[MAX_F16]], %[[NONE_F16]], %[[BOTH_BF16]], %[[MIN_BF16]], %[[MAX_BF16]], %[[NONE_BF16]], %[[BOTH_F32]], %[[MIN_F32]], %[[MAX_F32]], %[[NONE_F32]], %[[BOTH_F64]], %[[MIN_F64]], %[[MAX_F64]], %[[NONE_F64]] : tensor<?xf16>, tensor<?xf16>, tensor<?xf16>, tensor<?xf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<4x?x2xf64>, tensor<4x?x2xf64>, tensor<4x?x2xf64>, tensor<4x?x2xf64>
func.func @clamp_float(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>) -> (tensor<?xf16>, tensor<?xf16>, tensor<?xf16>, tensor<?xf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<4x?x2xf64>, tensor<4x?x2xf64>, tensor<4x?x2xf64>, tensor<4x?x2xf64>) {
  %both_f16 = fuse.clamp %f16 {min = -1.5 : f16, max = 6.0 : f16} : tensor<?xf16>
  %min_f16 = fuse.clamp %f16 {min = -1.5 : f16} : tensor<?xf16>
  %max_f16 = fuse.clamp %f16 {max = 6.0 : f16} : tensor<?xf16>
  %none_f16 = fuse.clamp %f16 : tensor<?xf16>
  %both_bf16 = fuse.clamp %bf16 {min = -1.5 : bf16, max = 6.0 : bf16} : tensor<2x3xbf16>
  %min_bf16 = fuse.clamp %bf16 {min = -1.5 : bf16} : tensor<2x3xbf16>
  %max_bf16 = fuse.clamp %bf16 {max = 6.0 : bf16} : tensor<2x3xbf16>
  %none_bf16 = fuse.clamp %bf16 : tensor<2x3xbf16>
  %both_f32 = fuse.clamp %f32 {min = 0.0 : f32, max = 6.0 : f32} : tensor<f32>
  %min_f32 = fuse.clamp %f32 {min = 0.0 : f32} : tensor<f32>
  %max_f32 = fuse.clamp %f32 {max = 6.0 : f32} : tensor<f32>
  %none_f32 = fuse.clamp %f32 : tensor<f32>
  %both_f64 = fuse.clamp %f64 {min = -0.5 : f64, max = 1.0e+10 : f64} : tensor<4x?x2xf64>
  %min_f64 = fuse.clamp %f64 {min = -0.5 : f64} : tensor<4x?x2xf64>
  %max_f64 = fuse.clamp %f64 {max = 1.0e+10 : f64} : tensor<4x?x2xf64>
  %none_f64 = fuse.clamp %f64 : tensor<4x?x2xf64>
  return %both_f16, %min_f16, %max_f16, %none_f16, %both_bf16, %min_bf16, %max_bf16, %none_bf16, %both_f32, %min_f32, %max_f32, %none_f32, %both_f64, %min_f64, %max_f64, %none_f64 : tensor<?xf16>, tensor<?xf16>, tensor<?xf16>, tensor<?xf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<4x?x2xf64>, tensor<4x?x2xf64>, tensor<4x?x2xf64>, tensor<4x?x2xf64>
}

// Integer bounds for integer tensors.
// CHECK-LABEL: func @clamp_int(
// CHECK-SAME: %[[I32:.+]]: tensor<?x?xi32>, %[[I64:.+]]: tensor<1x2x3x4xi64>
// CHECK-NEXT: %[[BOTH_I32:.+]] = fuse.clamp %[[I32]] {max = 100 : i32, min = -1 : i32} : tensor<?x?xi32>
// CHECK-NEXT: %[[MIN_I32:.+]] = fuse.clamp %[[I32]] {min = -1 : i32} : tensor<?x?xi32>
// CHECK-NEXT: %[[MAX_I32:.+]] = fuse.clamp %[[I32]] {max = 100 : i32} : tensor<?x?xi32>
// CHECK-NEXT: %[[NONE_I32:.+]] = fuse.clamp %[[I32]] : tensor<?x?xi32>
// CHECK-NEXT: %[[BOTH_I64:.+]] = fuse.clamp %[[I64]] {max = 9223372036854775807 : i64, min = 0 : i64} : tensor<1x2x3x4xi64>
// CHECK-NEXT: %[[MIN_I64:.+]] = fuse.clamp %[[I64]] {min = 0 : i64} : tensor<1x2x3x4xi64>
// CHECK-NEXT: %[[MAX_I64:.+]] = fuse.clamp %[[I64]] {max = 9223372036854775807 : i64} : tensor<1x2x3x4xi64>
// CHECK-NEXT: %[[NONE_I64:.+]] = fuse.clamp %[[I64]] : tensor<1x2x3x4xi64>
// CHECK-NEXT: return %[[BOTH_I32]], %[[MIN_I32]], %[[MAX_I32]], %[[NONE_I32]], %[[BOTH_I64]], %[[MIN_I64]], %[[MAX_I64]], %[[NONE_I64]] : tensor<?x?xi32>, tensor<?x?xi32>, tensor<?x?xi32>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<1x2x3x4xi64>, tensor<1x2x3x4xi64>, tensor<1x2x3x4xi64>
func.func @clamp_int(%i32: tensor<?x?xi32>, %i64: tensor<1x2x3x4xi64>) -> (tensor<?x?xi32>, tensor<?x?xi32>, tensor<?x?xi32>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<1x2x3x4xi64>, tensor<1x2x3x4xi64>, tensor<1x2x3x4xi64>) {
  %both_i32 = fuse.clamp %i32 {min = -1 : i32, max = 100 : i32} : tensor<?x?xi32>
  %min_i32 = fuse.clamp %i32 {min = -1 : i32} : tensor<?x?xi32>
  %max_i32 = fuse.clamp %i32 {max = 100 : i32} : tensor<?x?xi32>
  %none_i32 = fuse.clamp %i32 : tensor<?x?xi32>
  %both_i64 = fuse.clamp %i64 {min = 0 : i64, max = 9223372036854775807 : i64} : tensor<1x2x3x4xi64>
  %min_i64 = fuse.clamp %i64 {min = 0 : i64} : tensor<1x2x3x4xi64>
  %max_i64 = fuse.clamp %i64 {max = 9223372036854775807 : i64} : tensor<1x2x3x4xi64>
  %none_i64 = fuse.clamp %i64 : tensor<1x2x3x4xi64>
  return %both_i32, %min_i32, %max_i32, %none_i32, %both_i64, %min_i64, %max_i64, %none_i64 : tensor<?x?xi32>, tensor<?x?xi32>, tensor<?x?xi32>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<1x2x3x4xi64>, tensor<1x2x3x4xi64>, tensor<1x2x3x4xi64>
}

// Without alpha the slope is 0.01.
// CHECK-LABEL: func @leaky_relu(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>
// CHECK-NEXT: %[[DEFAULT_F16:.+]] = fuse.leaky_relu %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[ALPHA_F16:.+]] = fuse.leaky_relu %[[F16]] {alpha = 2.500000e-01 : f16} : tensor<?xf16>
// CHECK-NEXT: %[[DEFAULT_BF16:.+]] = fuse.leaky_relu %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[ALPHA_BF16:.+]] = fuse.leaky_relu %[[BF16]] {alpha = 5.000000e-01 : bf16} : tensor<2x3xbf16>
// CHECK-NEXT: %[[DEFAULT_F32:.+]] = fuse.leaky_relu %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[ALPHA_F32:.+]] = fuse.leaky_relu %[[F32]] {alpha = 2.000000e-01 : f32} : tensor<f32>
// CHECK-NEXT: %[[DEFAULT_F64:.+]] = fuse.leaky_relu %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: %[[ALPHA_F64:.+]] = fuse.leaky_relu %[[F64]] {alpha = 1.000000e-03 : f64} : tensor<4x?x2xf64>
// CHECK-NEXT: return %[[DEFAULT_F16]], %[[ALPHA_F16]], %[[DEFAULT_BF16]], %[[ALPHA_BF16]], %[[DEFAULT_F32]], %[[ALPHA_F32]], %[[DEFAULT_F64]], %[[ALPHA_F64]] : tensor<?xf16>, tensor<?xf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<f32>, tensor<f32>, tensor<4x?x2xf64>, tensor<4x?x2xf64>
func.func @leaky_relu(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>) -> (tensor<?xf16>, tensor<?xf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<f32>, tensor<f32>, tensor<4x?x2xf64>, tensor<4x?x2xf64>) {
  %default_f16 = fuse.leaky_relu %f16 : tensor<?xf16>
  %alpha_f16 = fuse.leaky_relu %f16 {alpha = 0.25 : f16} : tensor<?xf16>
  %default_bf16 = fuse.leaky_relu %bf16 : tensor<2x3xbf16>
  %alpha_bf16 = fuse.leaky_relu %bf16 {alpha = 0.5 : bf16} : tensor<2x3xbf16>
  %default_f32 = fuse.leaky_relu %f32 : tensor<f32>
  %alpha_f32 = fuse.leaky_relu %f32 {alpha = 0.2 : f32} : tensor<f32>
  %default_f64 = fuse.leaky_relu %f64 : tensor<4x?x2xf64>
  %alpha_f64 = fuse.leaky_relu %f64 {alpha = 1.0e-03 : f64} : tensor<4x?x2xf64>
  return %default_f16, %alpha_f16, %default_bf16, %alpha_bf16, %default_f32, %alpha_f32, %default_f64, %alpha_f64 : tensor<?xf16>, tensor<?xf16>, tensor<2x3xbf16>, tensor<2x3xbf16>, tensor<f32>, tensor<f32>, tensor<4x?x2xf64>, tensor<4x?x2xf64>
}

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @add(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>, %[[I32:.+]]: tensor<?x?xi32>, %[[I64:.+]]: tensor<1x2x3x4xi64>, %[[M:.+]]: tensor<8x?xf32>, %[[V:.+]]: tensor<?xf32>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.add %[[F16]], %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.add %[[BF16]], %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.add %[[F32]], %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.add %[[F64]], %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_I32:.+]] = fuse.add %[[I32]], %[[I32]] : tensor<?x?xi32>
// CHECK-NEXT: %[[R_I64:.+]] = fuse.add %[[I64]], %[[I64]] : tensor<1x2x3x4xi64>
// CHECK-NEXT: %[[LONG:.+]] = fuse.add %[[M]], %[[V]] : tensor<8x?xf32>, tensor<?xf32> -> tensor<8x?xf32>
// CHECK-NEXT: %[[SWAPPED:.+]] = fuse.add %[[V]], %[[M]] : tensor<?xf32>, tensor<8x?xf32> -> tensor<8x?xf32>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]], %[[R_I32]], %[[R_I64]], %[[LONG]], %[[SWAPPED]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>
func.func @add(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>, %i32: tensor<?x?xi32>, %i64: tensor<1x2x3x4xi64>, %m: tensor<8x?xf32>, %v: tensor<?xf32>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>) {
  %r_f16 = fuse.add %f16, %f16 : tensor<?xf16>
  %r_bf16 = fuse.add %bf16, %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.add %f32, %f32 : tensor<f32>
  %r_f64 = fuse.add %f64, %f64 : tensor<4x?x2xf64>
  %r_i32 = fuse.add %i32, %i32 : tensor<?x?xi32>
  %r_i64 = fuse.add %i64, %i64 : tensor<1x2x3x4xi64>
  %long = fuse.add %m, %v : tensor<8x?xf32>, tensor<?xf32> -> tensor<8x?xf32>
  %swapped = fuse.add %v, %m : tensor<?xf32>, tensor<8x?xf32> -> tensor<8x?xf32>
  return %r_f16, %r_bf16, %r_f32, %r_f64, %r_i32, %r_i64, %long, %swapped : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>
}

// CHECK-LABEL: func @sub(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>, %[[I32:.+]]: tensor<?x?xi32>, %[[I64:.+]]: tensor<1x2x3x4xi64>, %[[M:.+]]: tensor<8x?xf32>, %[[V:.+]]: tensor<?xf32>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.sub %[[F16]], %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.sub %[[BF16]], %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.sub %[[F32]], %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.sub %[[F64]], %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_I32:.+]] = fuse.sub %[[I32]], %[[I32]] : tensor<?x?xi32>
// CHECK-NEXT: %[[R_I64:.+]] = fuse.sub %[[I64]], %[[I64]] : tensor<1x2x3x4xi64>
// CHECK-NEXT: %[[LONG:.+]] = fuse.sub %[[M]], %[[V]] : tensor<8x?xf32>, tensor<?xf32> -> tensor<8x?xf32>
// CHECK-NEXT: %[[SWAPPED:.+]] = fuse.sub %[[V]], %[[M]] : tensor<?xf32>, tensor<8x?xf32> -> tensor<8x?xf32>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]], %[[R_I32]], %[[R_I64]], %[[LONG]], %[[SWAPPED]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>
func.func @sub(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>, %i32: tensor<?x?xi32>, %i64: tensor<1x2x3x4xi64>, %m: tensor<8x?xf32>, %v: tensor<?xf32>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>) {
  %r_f16 = fuse.sub %f16, %f16 : tensor<?xf16>
  %r_bf16 = fuse.sub %bf16, %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.sub %f32, %f32 : tensor<f32>
  %r_f64 = fuse.sub %f64, %f64 : tensor<4x?x2xf64>
  %r_i32 = fuse.sub %i32, %i32 : tensor<?x?xi32>
  %r_i64 = fuse.sub %i64, %i64 : tensor<1x2x3x4xi64>
  %long = fuse.sub %m, %v : tensor<8x?xf32>, tensor<?xf32> -> tensor<8x?xf32>
  %swapped = fuse.sub %v, %m : tensor<?xf32>, tensor<8x?xf32> -> tensor<8x?xf32>
  return %r_f16, %r_bf16, %r_f32, %r_f64, %r_i32, %r_i64, %long, %swapped : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>
}

// CHECK-LABEL: func @mul(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>, %[[I32:.+]]: tensor<?x?xi32>, %[[I64:.+]]: tensor<1x2x3x4xi64>, %[[M:.+]]: tensor<8x?xf32>, %[[V:.+]]: tensor<?xf32>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.mul %[[F16]], %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.mul %[[BF16]], %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.mul %[[F32]], %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.mul %[[F64]], %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_I32:.+]] = fuse.mul %[[I32]], %[[I32]] : tensor<?x?xi32>
// CHECK-NEXT: %[[R_I64:.+]] = fuse.mul %[[I64]], %[[I64]] : tensor<1x2x3x4xi64>
// CHECK-NEXT: %[[LONG:.+]] = fuse.mul %[[M]], %[[V]] : tensor<8x?xf32>, tensor<?xf32> -> tensor<8x?xf32>
// CHECK-NEXT: %[[SWAPPED:.+]] = fuse.mul %[[V]], %[[M]] : tensor<?xf32>, tensor<8x?xf32> -> tensor<8x?xf32>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]], %[[R_I32]], %[[R_I64]], %[[LONG]], %[[SWAPPED]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>
func.func @mul(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>, %i32: tensor<?x?xi32>, %i64: tensor<1x2x3x4xi64>, %m: tensor<8x?xf32>, %v: tensor<?xf32>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>) {
  %r_f16 = fuse.mul %f16, %f16 : tensor<?xf16>
  %r_bf16 = fuse.mul %bf16, %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.mul %f32, %f32 : tensor<f32>
  %r_f64 = fuse.mul %f64, %f64 : tensor<4x?x2xf64>
  %r_i32 = fuse.mul %i32, %i32 : tensor<?x?xi32>
  %r_i64 = fuse.mul %i64, %i64 : tensor<1x2x3x4xi64>
  %long = fuse.mul %m, %v : tensor<8x?xf32>, tensor<?xf32> -> tensor<8x?xf32>
  %swapped = fuse.mul %v, %m : tensor<?xf32>, tensor<8x?xf32> -> tensor<8x?xf32>
  return %r_f16, %r_bf16, %r_f32, %r_f64, %r_i32, %r_i64, %long, %swapped : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>
}

// CHECK-LABEL: func @div(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>, %[[I32:.+]]: tensor<?x?xi32>, %[[I64:.+]]: tensor<1x2x3x4xi64>, %[[M:.+]]: tensor<8x?xf32>, %[[V:.+]]: tensor<?xf32>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.div %[[F16]], %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.div %[[BF16]], %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.div %[[F32]], %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.div %[[F64]], %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_I32:.+]] = fuse.div %[[I32]], %[[I32]] : tensor<?x?xi32>
// CHECK-NEXT: %[[R_I64:.+]] = fuse.div %[[I64]], %[[I64]] : tensor<1x2x3x4xi64>
// CHECK-NEXT: %[[LONG:.+]] = fuse.div %[[M]], %[[V]] : tensor<8x?xf32>, tensor<?xf32> -> tensor<8x?xf32>
// CHECK-NEXT: %[[SWAPPED:.+]] = fuse.div %[[V]], %[[M]] : tensor<?xf32>, tensor<8x?xf32> -> tensor<8x?xf32>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]], %[[R_I32]], %[[R_I64]], %[[LONG]], %[[SWAPPED]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>
func.func @div(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>, %i32: tensor<?x?xi32>, %i64: tensor<1x2x3x4xi64>, %m: tensor<8x?xf32>, %v: tensor<?xf32>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>) {
  %r_f16 = fuse.div %f16, %f16 : tensor<?xf16>
  %r_bf16 = fuse.div %bf16, %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.div %f32, %f32 : tensor<f32>
  %r_f64 = fuse.div %f64, %f64 : tensor<4x?x2xf64>
  %r_i32 = fuse.div %i32, %i32 : tensor<?x?xi32>
  %r_i64 = fuse.div %i64, %i64 : tensor<1x2x3x4xi64>
  %long = fuse.div %m, %v : tensor<8x?xf32>, tensor<?xf32> -> tensor<8x?xf32>
  %swapped = fuse.div %v, %m : tensor<?xf32>, tensor<8x?xf32> -> tensor<8x?xf32>
  return %r_f16, %r_bf16, %r_f32, %r_f64, %r_i32, %r_i64, %long, %swapped : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>
}

// CHECK-LABEL: func @max(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>, %[[I32:.+]]: tensor<?x?xi32>, %[[I64:.+]]: tensor<1x2x3x4xi64>, %[[M:.+]]: tensor<8x?xf32>, %[[V:.+]]: tensor<?xf32>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.max %[[F16]], %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.max %[[BF16]], %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.max %[[F32]], %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.max %[[F64]], %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_I32:.+]] = fuse.max %[[I32]], %[[I32]] : tensor<?x?xi32>
// CHECK-NEXT: %[[R_I64:.+]] = fuse.max %[[I64]], %[[I64]] : tensor<1x2x3x4xi64>
// CHECK-NEXT: %[[LONG:.+]] = fuse.max %[[M]], %[[V]] : tensor<8x?xf32>, tensor<?xf32> -> tensor<8x?xf32>
// CHECK-NEXT: %[[SWAPPED:.+]] = fuse.max %[[V]], %[[M]] : tensor<?xf32>, tensor<8x?xf32> -> tensor<8x?xf32>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]], %[[R_I32]], %[[R_I64]], %[[LONG]], %[[SWAPPED]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>
func.func @max(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>, %i32: tensor<?x?xi32>, %i64: tensor<1x2x3x4xi64>, %m: tensor<8x?xf32>, %v: tensor<?xf32>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>) {
  %r_f16 = fuse.max %f16, %f16 : tensor<?xf16>
  %r_bf16 = fuse.max %bf16, %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.max %f32, %f32 : tensor<f32>
  %r_f64 = fuse.max %f64, %f64 : tensor<4x?x2xf64>
  %r_i32 = fuse.max %i32, %i32 : tensor<?x?xi32>
  %r_i64 = fuse.max %i64, %i64 : tensor<1x2x3x4xi64>
  %long = fuse.max %m, %v : tensor<8x?xf32>, tensor<?xf32> -> tensor<8x?xf32>
  %swapped = fuse.max %v, %m : tensor<?xf32>, tensor<8x?xf32> -> tensor<8x?xf32>
  return %r_f16, %r_bf16, %r_f32, %r_f64, %r_i32, %r_i64, %long, %swapped : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>
}

// CHECK-LABEL: func @min(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>, %[[I32:.+]]: tensor<?x?xi32>, %[[I64:.+]]: tensor<1x2x3x4xi64>, %[[M:.+]]: tensor<8x?xf32>, %[[V:.+]]: tensor<?xf32>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.min %[[F16]], %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.min %[[BF16]], %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.min %[[F32]], %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.min %[[F64]], %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_I32:.+]] = fuse.min %[[I32]], %[[I32]] : tensor<?x?xi32>
// CHECK-NEXT: %[[R_I64:.+]] = fuse.min %[[I64]], %[[I64]] : tensor<1x2x3x4xi64>
// CHECK-NEXT: %[[LONG:.+]] = fuse.min %[[M]], %[[V]] : tensor<8x?xf32>, tensor<?xf32> -> tensor<8x?xf32>
// CHECK-NEXT: %[[SWAPPED:.+]] = fuse.min %[[V]], %[[M]] : tensor<?xf32>, tensor<8x?xf32> -> tensor<8x?xf32>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]], %[[R_I32]], %[[R_I64]], %[[LONG]], %[[SWAPPED]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>
func.func @min(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>, %i32: tensor<?x?xi32>, %i64: tensor<1x2x3x4xi64>, %m: tensor<8x?xf32>, %v: tensor<?xf32>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>) {
  %r_f16 = fuse.min %f16, %f16 : tensor<?xf16>
  %r_bf16 = fuse.min %bf16, %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.min %f32, %f32 : tensor<f32>
  %r_f64 = fuse.min %f64, %f64 : tensor<4x?x2xf64>
  %r_i32 = fuse.min %i32, %i32 : tensor<?x?xi32>
  %r_i64 = fuse.min %i64, %i64 : tensor<1x2x3x4xi64>
  %long = fuse.min %m, %v : tensor<8x?xf32>, tensor<?xf32> -> tensor<8x?xf32>
  %swapped = fuse.min %v, %m : tensor<?xf32>, tensor<8x?xf32> -> tensor<8x?xf32>
  return %r_f16, %r_bf16, %r_f32, %r_f64, %r_i32, %r_i64, %long, %swapped : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>
}

// CHECK-LABEL: func @pow(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>, %[[I32:.+]]: tensor<?x?xi32>, %[[I64:.+]]: tensor<1x2x3x4xi64>, %[[M:.+]]: tensor<8x?xf32>, %[[V:.+]]: tensor<?xf32>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.pow %[[F16]], %[[F16]] : tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.pow %[[BF16]], %[[BF16]] : tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.pow %[[F32]], %[[F32]] : tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.pow %[[F64]], %[[F64]] : tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_I32:.+]] = fuse.pow %[[I32]], %[[I32]] : tensor<?x?xi32>
// CHECK-NEXT: %[[R_I64:.+]] = fuse.pow %[[I64]], %[[I64]] : tensor<1x2x3x4xi64>
// CHECK-NEXT: %[[LONG:.+]] = fuse.pow %[[M]], %[[V]] : tensor<8x?xf32>, tensor<?xf32> -> tensor<8x?xf32>
// CHECK-NEXT: %[[SWAPPED:.+]] = fuse.pow %[[V]], %[[M]] : tensor<?xf32>, tensor<8x?xf32> -> tensor<8x?xf32>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]], %[[R_I32]], %[[R_I64]], %[[LONG]], %[[SWAPPED]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>
func.func @pow(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>, %i32: tensor<?x?xi32>, %i64: tensor<1x2x3x4xi64>, %m: tensor<8x?xf32>, %v: tensor<?xf32>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>) {
  %r_f16 = fuse.pow %f16, %f16 : tensor<?xf16>
  %r_bf16 = fuse.pow %bf16, %bf16 : tensor<2x3xbf16>
  %r_f32 = fuse.pow %f32, %f32 : tensor<f32>
  %r_f64 = fuse.pow %f64, %f64 : tensor<4x?x2xf64>
  %r_i32 = fuse.pow %i32, %i32 : tensor<?x?xi32>
  %r_i64 = fuse.pow %i64, %i64 : tensor<1x2x3x4xi64>
  %long = fuse.pow %m, %v : tensor<8x?xf32>, tensor<?xf32> -> tensor<8x?xf32>
  %swapped = fuse.pow %v, %m : tensor<?xf32>, tensor<8x?xf32> -> tensor<8x?xf32>
  return %r_f16, %r_bf16, %r_f32, %r_f64, %r_i32, %r_i64, %long, %swapped : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<8x?xf32>, tensor<8x?xf32>
}

// The long form with three equal types prints in the short form.
// CHECK-LABEL: func @binary_long_form_of_equal_types(
// CHECK-SAME: %[[A:.+]]: tensor<?xf32>, %[[B:.+]]: tensor<2x3xi64>
// CHECK-NEXT: %[[R0:.+]] = fuse.add %[[A]], %[[A]] : tensor<?xf32>
// CHECK-NEXT: %[[R1:.+]] = fuse.pow %[[B]], %[[B]] : tensor<2x3xi64>
// CHECK-NEXT: return %[[R0]], %[[R1]] : tensor<?xf32>, tensor<2x3xi64>
func.func @binary_long_form_of_equal_types(%a: tensor<?xf32>, %b: tensor<2x3xi64>) -> (tensor<?xf32>, tensor<2x3xi64>) {
  %r0 = fuse.add %a, %a : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  %r1 = fuse.pow %b, %b : tensor<2x3xi64>, tensor<2x3xi64> -> tensor<2x3xi64>
  return %r0, %r1 : tensor<?xf32>, tensor<2x3xi64>
}

// Ranks 0 to 4 with static, dynamic and stretched dimensions.
// CHECK-LABEL: func @binary_ranks(
// CHECK-SAME: %[[S:.+]]: tensor<f32>, %[[V:.+]]: tensor<?xf32>, %[[M:.+]]: tensor<3x1xf32>, %[[T:.+]]: tensor<1x?x5xf32>, %[[Q:.+]]: tensor<2x1x?x5xf32>
// CHECK-NEXT: %[[R0:.+]] = fuse.add %[[S]], %[[S]] : tensor<f32>
// CHECK-NEXT: %[[R1:.+]] = fuse.sub %[[S]], %[[V]] : tensor<f32>, tensor<?xf32> -> tensor<?xf32>
// CHECK-NEXT: %[[R2:.+]] = fuse.mul %[[V]], %[[M]] : tensor<?xf32>, tensor<3x1xf32> -> tensor<3x?xf32>
// CHECK-NEXT: %[[R3:.+]] = fuse.div %[[M]], %[[T]] : tensor<3x1xf32>, tensor<1x?x5xf32> -> tensor<1x3x5xf32>
// CHECK-NEXT: %[[R4:.+]] = fuse.max %[[T]], %[[Q]] : tensor<1x?x5xf32>, tensor<2x1x?x5xf32> -> tensor<2x1x?x5xf32>
// CHECK-NEXT: %[[R5:.+]] = fuse.min %[[Q]], %[[S]] : tensor<2x1x?x5xf32>, tensor<f32> -> tensor<2x1x?x5xf32>
// CHECK-NEXT: return %[[R0]], %[[R1]], %[[R2]], %[[R3]], %[[R4]], %[[R5]] : tensor<f32>, tensor<?xf32>, tensor<3x?xf32>, tensor<1x3x5xf32>, tensor<2x1x?x5xf32>, tensor<2x1x?x5xf32>
func.func @binary_ranks(%s: tensor<f32>, %v: tensor<?xf32>, %m: tensor<3x1xf32>, %t: tensor<1x?x5xf32>, %q: tensor<2x1x?x5xf32>) -> (tensor<f32>, tensor<?xf32>, tensor<3x?xf32>, tensor<1x3x5xf32>, tensor<2x1x?x5xf32>, tensor<2x1x?x5xf32>) {
  %r0 = fuse.add %s, %s : tensor<f32>
  %r1 = fuse.sub %s, %v : tensor<f32>, tensor<?xf32> -> tensor<?xf32>
  %r2 = fuse.mul %v, %m : tensor<?xf32>, tensor<3x1xf32> -> tensor<3x?xf32>
  %r3 = fuse.div %m, %t : tensor<3x1xf32>, tensor<1x?x5xf32> -> tensor<1x3x5xf32>
  %r4 = fuse.max %t, %q : tensor<1x?x5xf32>, tensor<2x1x?x5xf32> -> tensor<2x1x?x5xf32>
  %r5 = fuse.min %q, %s : tensor<2x1x?x5xf32>, tensor<f32> -> tensor<2x1x?x5xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5 : tensor<f32>, tensor<?xf32>, tensor<3x?xf32>, tensor<1x3x5xf32>, tensor<2x1x?x5xf32>, tensor<2x1x?x5xf32>
}

//===----------------------------------------------------------------------===//
// Comparison and selection
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @cmp_predicates(
// CHECK-SAME: %[[A:.+]]: tensor<?xf32>, %[[B:.+]]: tensor<?xf32>
// CHECK-NEXT: %[[EQ:.+]] = fuse.cmp eq, %[[A]], %[[B]] : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
// CHECK-NEXT: %[[NE:.+]] = fuse.cmp ne, %[[A]], %[[B]] : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
// CHECK-NEXT: %[[LT:.+]] = fuse.cmp lt, %[[A]], %[[B]] : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
// CHECK-NEXT: %[[LE:.+]] = fuse.cmp le, %[[A]], %[[B]] : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
// CHECK-NEXT: %[[GT:.+]] = fuse.cmp gt, %[[A]], %[[B]] : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
// CHECK-NEXT: %[[GE:.+]] = fuse.cmp ge, %[[A]], %[[B]] : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
// CHECK-NEXT: return %[[EQ]], %[[NE]], %[[LT]], %[[LE]], %[[GT]], %[[GE]] : tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>
func.func @cmp_predicates(%a: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>) {
  %eq = fuse.cmp eq, %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
  %ne = fuse.cmp ne, %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
  %lt = fuse.cmp lt, %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
  %le = fuse.cmp le, %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
  %gt = fuse.cmp gt, %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
  %ge = fuse.cmp ge, %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
  return %eq, %ne, %lt, %le, %gt, %ge : tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>, tensor<?xi1>
}

// CHECK-LABEL: func @cmp_types(
// CHECK-SAME: %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>, %[[I32:.+]]: tensor<?x?xi32>, %[[I64:.+]]: tensor<1x2x3x4xi64>, %[[I1:.+]]: tensor<3xi1>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.cmp lt, %[[F16]], %[[F16]] : tensor<?xf16>, tensor<?xf16> -> tensor<?xi1>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.cmp lt, %[[BF16]], %[[BF16]] : tensor<2x3xbf16>, tensor<2x3xbf16> -> tensor<2x3xi1>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.cmp lt, %[[F32]], %[[F32]] : tensor<f32>, tensor<f32> -> tensor<i1>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.cmp lt, %[[F64]], %[[F64]] : tensor<4x?x2xf64>, tensor<4x?x2xf64> -> tensor<4x?x2xi1>
// CHECK-NEXT: %[[R_I32:.+]] = fuse.cmp lt, %[[I32]], %[[I32]] : tensor<?x?xi32>, tensor<?x?xi32> -> tensor<?x?xi1>
// CHECK-NEXT: %[[R_I64:.+]] = fuse.cmp lt, %[[I64]], %[[I64]] : tensor<1x2x3x4xi64>, tensor<1x2x3x4xi64> -> tensor<1x2x3x4xi1>
// CHECK-NEXT: %[[R_I1:.+]] = fuse.cmp lt, %[[I1]], %[[I1]] : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]], %[[R_I32]], %[[R_I64]], %[[R_I1]] : tensor<?xi1>, tensor<2x3xi1>, tensor<i1>, tensor<4x?x2xi1>, tensor<?x?xi1>, tensor<1x2x3x4xi1>, tensor<3xi1>
func.func @cmp_types(%f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>, %i32: tensor<?x?xi32>, %i64: tensor<1x2x3x4xi64>, %i1: tensor<3xi1>) -> (tensor<?xi1>, tensor<2x3xi1>, tensor<i1>, tensor<4x?x2xi1>, tensor<?x?xi1>, tensor<1x2x3x4xi1>, tensor<3xi1>) {
  %r_f16 = fuse.cmp lt, %f16, %f16 : tensor<?xf16>, tensor<?xf16> -> tensor<?xi1>
  %r_bf16 = fuse.cmp lt, %bf16, %bf16 : tensor<2x3xbf16>, tensor<2x3xbf16> -> tensor<2x3xi1>
  %r_f32 = fuse.cmp lt, %f32, %f32 : tensor<f32>, tensor<f32> -> tensor<i1>
  %r_f64 = fuse.cmp lt, %f64, %f64 : tensor<4x?x2xf64>, tensor<4x?x2xf64> -> tensor<4x?x2xi1>
  %r_i32 = fuse.cmp lt, %i32, %i32 : tensor<?x?xi32>, tensor<?x?xi32> -> tensor<?x?xi1>
  %r_i64 = fuse.cmp lt, %i64, %i64 : tensor<1x2x3x4xi64>, tensor<1x2x3x4xi64> -> tensor<1x2x3x4xi1>
  %r_i1 = fuse.cmp lt, %i1, %i1 : tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  return %r_f16, %r_bf16, %r_f32, %r_f64, %r_i32, %r_i64, %r_i1 : tensor<?xi1>, tensor<2x3xi1>, tensor<i1>, tensor<4x?x2xi1>, tensor<?x?xi1>, tensor<1x2x3x4xi1>, tensor<3xi1>
}

// CHECK-LABEL: func @cmp_broadcast(
// CHECK-SAME: %[[A:.+]]: tensor<4x?xi32>, %[[B:.+]]: tensor<?x1xi32>, %[[S:.+]]: tensor<i64>, %[[V:.+]]: tensor<3xi64>
// CHECK-NEXT: %[[R0:.+]] = fuse.cmp ge, %[[A]], %[[B]] : tensor<4x?xi32>, tensor<?x1xi32> -> tensor<4x?xi1>
// CHECK-NEXT: %[[R1:.+]] = fuse.cmp ne, %[[S]], %[[V]] : tensor<i64>, tensor<3xi64> -> tensor<3xi1>
// CHECK-NEXT: return %[[R0]], %[[R1]] : tensor<4x?xi1>, tensor<3xi1>
func.func @cmp_broadcast(%a: tensor<4x?xi32>, %b: tensor<?x1xi32>, %s: tensor<i64>, %v: tensor<3xi64>) -> (tensor<4x?xi1>, tensor<3xi1>) {
  %r0 = fuse.cmp ge, %a, %b : tensor<4x?xi32>, tensor<?x1xi32> -> tensor<4x?xi1>
  %r1 = fuse.cmp ne, %s, %v : tensor<i64>, tensor<3xi64> -> tensor<3xi1>
  return %r0, %r1 : tensor<4x?xi1>, tensor<3xi1>
}

// A 0-d condition broadcasts against every shape.
// CHECK-LABEL: func @select_types(
// CHECK-SAME: %[[C:.+]]: tensor<i1>, %[[F16:.+]]: tensor<?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<f32>, %[[F64:.+]]: tensor<4x?x2xf64>, %[[I32:.+]]: tensor<?x?xi32>, %[[I64:.+]]: tensor<1x2x3x4xi64>, %[[I1:.+]]: tensor<3xi1>
// CHECK-NEXT: %[[R_F16:.+]] = fuse.select %[[C]], %[[F16]], %[[F16]] : tensor<i1>, tensor<?xf16>, tensor<?xf16> -> tensor<?xf16>
// CHECK-NEXT: %[[R_BF16:.+]] = fuse.select %[[C]], %[[BF16]], %[[BF16]] : tensor<i1>, tensor<2x3xbf16>, tensor<2x3xbf16> -> tensor<2x3xbf16>
// CHECK-NEXT: %[[R_F32:.+]] = fuse.select %[[C]], %[[F32]], %[[F32]] : tensor<i1>, tensor<f32>, tensor<f32> -> tensor<f32>
// CHECK-NEXT: %[[R_F64:.+]] = fuse.select %[[C]], %[[F64]], %[[F64]] : tensor<i1>, tensor<4x?x2xf64>, tensor<4x?x2xf64> -> tensor<4x?x2xf64>
// CHECK-NEXT: %[[R_I32:.+]] = fuse.select %[[C]], %[[I32]], %[[I32]] : tensor<i1>, tensor<?x?xi32>, tensor<?x?xi32> -> tensor<?x?xi32>
// CHECK-NEXT: %[[R_I64:.+]] = fuse.select %[[C]], %[[I64]], %[[I64]] : tensor<i1>, tensor<1x2x3x4xi64>, tensor<1x2x3x4xi64> -> tensor<1x2x3x4xi64>
// CHECK-NEXT: %[[R_I1:.+]] = fuse.select %[[C]], %[[I1]], %[[I1]] : tensor<i1>, tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
// CHECK-NEXT: return %[[R_F16]], %[[R_BF16]], %[[R_F32]], %[[R_F64]], %[[R_I32]], %[[R_I64]], %[[R_I1]] : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<3xi1>
func.func @select_types(%c: tensor<i1>, %f16: tensor<?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<f32>, %f64: tensor<4x?x2xf64>, %i32: tensor<?x?xi32>, %i64: tensor<1x2x3x4xi64>, %i1: tensor<3xi1>) -> (tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<3xi1>) {
  %r_f16 = fuse.select %c, %f16, %f16 : tensor<i1>, tensor<?xf16>, tensor<?xf16> -> tensor<?xf16>
  %r_bf16 = fuse.select %c, %bf16, %bf16 : tensor<i1>, tensor<2x3xbf16>, tensor<2x3xbf16> -> tensor<2x3xbf16>
  %r_f32 = fuse.select %c, %f32, %f32 : tensor<i1>, tensor<f32>, tensor<f32> -> tensor<f32>
  %r_f64 = fuse.select %c, %f64, %f64 : tensor<i1>, tensor<4x?x2xf64>, tensor<4x?x2xf64> -> tensor<4x?x2xf64>
  %r_i32 = fuse.select %c, %i32, %i32 : tensor<i1>, tensor<?x?xi32>, tensor<?x?xi32> -> tensor<?x?xi32>
  %r_i64 = fuse.select %c, %i64, %i64 : tensor<i1>, tensor<1x2x3x4xi64>, tensor<1x2x3x4xi64> -> tensor<1x2x3x4xi64>
  %r_i1 = fuse.select %c, %i1, %i1 : tensor<i1>, tensor<3xi1>, tensor<3xi1> -> tensor<3xi1>
  return %r_f16, %r_bf16, %r_f32, %r_f64, %r_i32, %r_i64, %r_i1 : tensor<?xf16>, tensor<2x3xbf16>, tensor<f32>, tensor<4x?x2xf64>, tensor<?x?xi32>, tensor<1x2x3x4xi64>, tensor<3xi1>
}

// The condition and both values broadcast together.
// CHECK-LABEL: func @select_broadcast(
// CHECK-SAME: %[[C:.+]]: tensor<?x1x1xi1>, %[[T:.+]]: tensor<4x1xf16>, %[[F:.+]]: tensor<5xf16>, %[[D:.+]]: tensor<?xi1>, %[[S:.+]]: tensor<bf16>, %[[U:.+]]: tensor<bf16>
// CHECK-NEXT: %[[R0:.+]] = fuse.select %[[C]], %[[T]], %[[F]] : tensor<?x1x1xi1>, tensor<4x1xf16>, tensor<5xf16> -> tensor<?x4x5xf16>
// CHECK-NEXT: %[[R1:.+]] = fuse.select %[[D]], %[[S]], %[[U]] : tensor<?xi1>, tensor<bf16>, tensor<bf16> -> tensor<?xbf16>
// CHECK-NEXT: return %[[R0]], %[[R1]] : tensor<?x4x5xf16>, tensor<?xbf16>
func.func @select_broadcast(%c: tensor<?x1x1xi1>, %t: tensor<4x1xf16>, %f: tensor<5xf16>, %d: tensor<?xi1>, %s: tensor<bf16>, %u: tensor<bf16>) -> (tensor<?x4x5xf16>, tensor<?xbf16>) {
  %r0 = fuse.select %c, %t, %f : tensor<?x1x1xi1>, tensor<4x1xf16>, tensor<5xf16> -> tensor<?x4x5xf16>
  %r1 = fuse.select %d, %s, %u : tensor<?xi1>, tensor<bf16>, tensor<bf16> -> tensor<?xbf16>
  return %r0, %r1 : tensor<?x4x5xf16>, tensor<?xbf16>
}

//===----------------------------------------------------------------------===//
// Casts: every pair of element types
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @cast_from_f16(
// CHECK-SAME: %[[X:.+]]: tensor<2x?xf16>
// CHECK-NEXT: %[[TO_F16:.+]] = fuse.cast %[[X]] : tensor<2x?xf16> to tensor<2x?xf16>
// CHECK-NEXT: %[[TO_BF16:.+]] = fuse.cast %[[X]] : tensor<2x?xf16> to tensor<2x?xbf16>
// CHECK-NEXT: %[[TO_F32:.+]] = fuse.cast %[[X]] : tensor<2x?xf16> to tensor<2x?xf32>
// CHECK-NEXT: %[[TO_F64:.+]] = fuse.cast %[[X]] : tensor<2x?xf16> to tensor<2x?xf64>
// CHECK-NEXT: %[[TO_I32:.+]] = fuse.cast %[[X]] : tensor<2x?xf16> to tensor<2x?xi32>
// CHECK-NEXT: %[[TO_I64:.+]] = fuse.cast %[[X]] : tensor<2x?xf16> to tensor<2x?xi64>
// CHECK-NEXT: %[[TO_I1:.+]] = fuse.cast %[[X]] : tensor<2x?xf16> to tensor<2x?xi1>
// CHECK-NEXT: return %[[TO_F16]], %[[TO_BF16]], %[[TO_F32]], %[[TO_F64]], %[[TO_I32]], %[[TO_I64]], %[[TO_I1]] : tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>
func.func @cast_from_f16(%x: tensor<2x?xf16>) -> (tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>) {
  %to_f16 = fuse.cast %x : tensor<2x?xf16> to tensor<2x?xf16>
  %to_bf16 = fuse.cast %x : tensor<2x?xf16> to tensor<2x?xbf16>
  %to_f32 = fuse.cast %x : tensor<2x?xf16> to tensor<2x?xf32>
  %to_f64 = fuse.cast %x : tensor<2x?xf16> to tensor<2x?xf64>
  %to_i32 = fuse.cast %x : tensor<2x?xf16> to tensor<2x?xi32>
  %to_i64 = fuse.cast %x : tensor<2x?xf16> to tensor<2x?xi64>
  %to_i1 = fuse.cast %x : tensor<2x?xf16> to tensor<2x?xi1>
  return %to_f16, %to_bf16, %to_f32, %to_f64, %to_i32, %to_i64, %to_i1 : tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>
}

// CHECK-LABEL: func @cast_from_bf16(
// CHECK-SAME: %[[X:.+]]: tensor<2x?xbf16>
// CHECK-NEXT: %[[TO_F16:.+]] = fuse.cast %[[X]] : tensor<2x?xbf16> to tensor<2x?xf16>
// CHECK-NEXT: %[[TO_BF16:.+]] = fuse.cast %[[X]] : tensor<2x?xbf16> to tensor<2x?xbf16>
// CHECK-NEXT: %[[TO_F32:.+]] = fuse.cast %[[X]] : tensor<2x?xbf16> to tensor<2x?xf32>
// CHECK-NEXT: %[[TO_F64:.+]] = fuse.cast %[[X]] : tensor<2x?xbf16> to tensor<2x?xf64>
// CHECK-NEXT: %[[TO_I32:.+]] = fuse.cast %[[X]] : tensor<2x?xbf16> to tensor<2x?xi32>
// CHECK-NEXT: %[[TO_I64:.+]] = fuse.cast %[[X]] : tensor<2x?xbf16> to tensor<2x?xi64>
// CHECK-NEXT: %[[TO_I1:.+]] = fuse.cast %[[X]] : tensor<2x?xbf16> to tensor<2x?xi1>
// CHECK-NEXT: return %[[TO_F16]], %[[TO_BF16]], %[[TO_F32]], %[[TO_F64]], %[[TO_I32]], %[[TO_I64]], %[[TO_I1]] : tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>
func.func @cast_from_bf16(%x: tensor<2x?xbf16>) -> (tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>) {
  %to_f16 = fuse.cast %x : tensor<2x?xbf16> to tensor<2x?xf16>
  %to_bf16 = fuse.cast %x : tensor<2x?xbf16> to tensor<2x?xbf16>
  %to_f32 = fuse.cast %x : tensor<2x?xbf16> to tensor<2x?xf32>
  %to_f64 = fuse.cast %x : tensor<2x?xbf16> to tensor<2x?xf64>
  %to_i32 = fuse.cast %x : tensor<2x?xbf16> to tensor<2x?xi32>
  %to_i64 = fuse.cast %x : tensor<2x?xbf16> to tensor<2x?xi64>
  %to_i1 = fuse.cast %x : tensor<2x?xbf16> to tensor<2x?xi1>
  return %to_f16, %to_bf16, %to_f32, %to_f64, %to_i32, %to_i64, %to_i1 : tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>
}

// CHECK-LABEL: func @cast_from_f32(
// CHECK-SAME: %[[X:.+]]: tensor<2x?xf32>
// CHECK-NEXT: %[[TO_F16:.+]] = fuse.cast %[[X]] : tensor<2x?xf32> to tensor<2x?xf16>
// CHECK-NEXT: %[[TO_BF16:.+]] = fuse.cast %[[X]] : tensor<2x?xf32> to tensor<2x?xbf16>
// CHECK-NEXT: %[[TO_F32:.+]] = fuse.cast %[[X]] : tensor<2x?xf32> to tensor<2x?xf32>
// CHECK-NEXT: %[[TO_F64:.+]] = fuse.cast %[[X]] : tensor<2x?xf32> to tensor<2x?xf64>
// CHECK-NEXT: %[[TO_I32:.+]] = fuse.cast %[[X]] : tensor<2x?xf32> to tensor<2x?xi32>
// CHECK-NEXT: %[[TO_I64:.+]] = fuse.cast %[[X]] : tensor<2x?xf32> to tensor<2x?xi64>
// CHECK-NEXT: %[[TO_I1:.+]] = fuse.cast %[[X]] : tensor<2x?xf32> to tensor<2x?xi1>
// CHECK-NEXT: return %[[TO_F16]], %[[TO_BF16]], %[[TO_F32]], %[[TO_F64]], %[[TO_I32]], %[[TO_I64]], %[[TO_I1]] : tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>
func.func @cast_from_f32(%x: tensor<2x?xf32>) -> (tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>) {
  %to_f16 = fuse.cast %x : tensor<2x?xf32> to tensor<2x?xf16>
  %to_bf16 = fuse.cast %x : tensor<2x?xf32> to tensor<2x?xbf16>
  %to_f32 = fuse.cast %x : tensor<2x?xf32> to tensor<2x?xf32>
  %to_f64 = fuse.cast %x : tensor<2x?xf32> to tensor<2x?xf64>
  %to_i32 = fuse.cast %x : tensor<2x?xf32> to tensor<2x?xi32>
  %to_i64 = fuse.cast %x : tensor<2x?xf32> to tensor<2x?xi64>
  %to_i1 = fuse.cast %x : tensor<2x?xf32> to tensor<2x?xi1>
  return %to_f16, %to_bf16, %to_f32, %to_f64, %to_i32, %to_i64, %to_i1 : tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>
}

// CHECK-LABEL: func @cast_from_f64(
// CHECK-SAME: %[[X:.+]]: tensor<2x?xf64>
// CHECK-NEXT: %[[TO_F16:.+]] = fuse.cast %[[X]] : tensor<2x?xf64> to tensor<2x?xf16>
// CHECK-NEXT: %[[TO_BF16:.+]] = fuse.cast %[[X]] : tensor<2x?xf64> to tensor<2x?xbf16>
// CHECK-NEXT: %[[TO_F32:.+]] = fuse.cast %[[X]] : tensor<2x?xf64> to tensor<2x?xf32>
// CHECK-NEXT: %[[TO_F64:.+]] = fuse.cast %[[X]] : tensor<2x?xf64> to tensor<2x?xf64>
// CHECK-NEXT: %[[TO_I32:.+]] = fuse.cast %[[X]] : tensor<2x?xf64> to tensor<2x?xi32>
// CHECK-NEXT: %[[TO_I64:.+]] = fuse.cast %[[X]] : tensor<2x?xf64> to tensor<2x?xi64>
// CHECK-NEXT: %[[TO_I1:.+]] = fuse.cast %[[X]] : tensor<2x?xf64> to tensor<2x?xi1>
// CHECK-NEXT: return %[[TO_F16]], %[[TO_BF16]], %[[TO_F32]], %[[TO_F64]], %[[TO_I32]], %[[TO_I64]], %[[TO_I1]] : tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>
func.func @cast_from_f64(%x: tensor<2x?xf64>) -> (tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>) {
  %to_f16 = fuse.cast %x : tensor<2x?xf64> to tensor<2x?xf16>
  %to_bf16 = fuse.cast %x : tensor<2x?xf64> to tensor<2x?xbf16>
  %to_f32 = fuse.cast %x : tensor<2x?xf64> to tensor<2x?xf32>
  %to_f64 = fuse.cast %x : tensor<2x?xf64> to tensor<2x?xf64>
  %to_i32 = fuse.cast %x : tensor<2x?xf64> to tensor<2x?xi32>
  %to_i64 = fuse.cast %x : tensor<2x?xf64> to tensor<2x?xi64>
  %to_i1 = fuse.cast %x : tensor<2x?xf64> to tensor<2x?xi1>
  return %to_f16, %to_bf16, %to_f32, %to_f64, %to_i32, %to_i64, %to_i1 : tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>
}

// CHECK-LABEL: func @cast_from_i32(
// CHECK-SAME: %[[X:.+]]: tensor<2x?xi32>
// CHECK-NEXT: %[[TO_F16:.+]] = fuse.cast %[[X]] : tensor<2x?xi32> to tensor<2x?xf16>
// CHECK-NEXT: %[[TO_BF16:.+]] = fuse.cast %[[X]] : tensor<2x?xi32> to tensor<2x?xbf16>
// CHECK-NEXT: %[[TO_F32:.+]] = fuse.cast %[[X]] : tensor<2x?xi32> to tensor<2x?xf32>
// CHECK-NEXT: %[[TO_F64:.+]] = fuse.cast %[[X]] : tensor<2x?xi32> to tensor<2x?xf64>
// CHECK-NEXT: %[[TO_I32:.+]] = fuse.cast %[[X]] : tensor<2x?xi32> to tensor<2x?xi32>
// CHECK-NEXT: %[[TO_I64:.+]] = fuse.cast %[[X]] : tensor<2x?xi32> to tensor<2x?xi64>
// CHECK-NEXT: %[[TO_I1:.+]] = fuse.cast %[[X]] : tensor<2x?xi32> to tensor<2x?xi1>
// CHECK-NEXT: return %[[TO_F16]], %[[TO_BF16]], %[[TO_F32]], %[[TO_F64]], %[[TO_I32]], %[[TO_I64]], %[[TO_I1]] : tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>
func.func @cast_from_i32(%x: tensor<2x?xi32>) -> (tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>) {
  %to_f16 = fuse.cast %x : tensor<2x?xi32> to tensor<2x?xf16>
  %to_bf16 = fuse.cast %x : tensor<2x?xi32> to tensor<2x?xbf16>
  %to_f32 = fuse.cast %x : tensor<2x?xi32> to tensor<2x?xf32>
  %to_f64 = fuse.cast %x : tensor<2x?xi32> to tensor<2x?xf64>
  %to_i32 = fuse.cast %x : tensor<2x?xi32> to tensor<2x?xi32>
  %to_i64 = fuse.cast %x : tensor<2x?xi32> to tensor<2x?xi64>
  %to_i1 = fuse.cast %x : tensor<2x?xi32> to tensor<2x?xi1>
  return %to_f16, %to_bf16, %to_f32, %to_f64, %to_i32, %to_i64, %to_i1 : tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>
}

// CHECK-LABEL: func @cast_from_i64(
// CHECK-SAME: %[[X:.+]]: tensor<2x?xi64>
// CHECK-NEXT: %[[TO_F16:.+]] = fuse.cast %[[X]] : tensor<2x?xi64> to tensor<2x?xf16>
// CHECK-NEXT: %[[TO_BF16:.+]] = fuse.cast %[[X]] : tensor<2x?xi64> to tensor<2x?xbf16>
// CHECK-NEXT: %[[TO_F32:.+]] = fuse.cast %[[X]] : tensor<2x?xi64> to tensor<2x?xf32>
// CHECK-NEXT: %[[TO_F64:.+]] = fuse.cast %[[X]] : tensor<2x?xi64> to tensor<2x?xf64>
// CHECK-NEXT: %[[TO_I32:.+]] = fuse.cast %[[X]] : tensor<2x?xi64> to tensor<2x?xi32>
// CHECK-NEXT: %[[TO_I64:.+]] = fuse.cast %[[X]] : tensor<2x?xi64> to tensor<2x?xi64>
// CHECK-NEXT: %[[TO_I1:.+]] = fuse.cast %[[X]] : tensor<2x?xi64> to tensor<2x?xi1>
// CHECK-NEXT: return %[[TO_F16]], %[[TO_BF16]], %[[TO_F32]], %[[TO_F64]], %[[TO_I32]], %[[TO_I64]], %[[TO_I1]] : tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>
func.func @cast_from_i64(%x: tensor<2x?xi64>) -> (tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>) {
  %to_f16 = fuse.cast %x : tensor<2x?xi64> to tensor<2x?xf16>
  %to_bf16 = fuse.cast %x : tensor<2x?xi64> to tensor<2x?xbf16>
  %to_f32 = fuse.cast %x : tensor<2x?xi64> to tensor<2x?xf32>
  %to_f64 = fuse.cast %x : tensor<2x?xi64> to tensor<2x?xf64>
  %to_i32 = fuse.cast %x : tensor<2x?xi64> to tensor<2x?xi32>
  %to_i64 = fuse.cast %x : tensor<2x?xi64> to tensor<2x?xi64>
  %to_i1 = fuse.cast %x : tensor<2x?xi64> to tensor<2x?xi1>
  return %to_f16, %to_bf16, %to_f32, %to_f64, %to_i32, %to_i64, %to_i1 : tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>
}

// CHECK-LABEL: func @cast_from_i1(
// CHECK-SAME: %[[X:.+]]: tensor<2x?xi1>
// CHECK-NEXT: %[[TO_F16:.+]] = fuse.cast %[[X]] : tensor<2x?xi1> to tensor<2x?xf16>
// CHECK-NEXT: %[[TO_BF16:.+]] = fuse.cast %[[X]] : tensor<2x?xi1> to tensor<2x?xbf16>
// CHECK-NEXT: %[[TO_F32:.+]] = fuse.cast %[[X]] : tensor<2x?xi1> to tensor<2x?xf32>
// CHECK-NEXT: %[[TO_F64:.+]] = fuse.cast %[[X]] : tensor<2x?xi1> to tensor<2x?xf64>
// CHECK-NEXT: %[[TO_I32:.+]] = fuse.cast %[[X]] : tensor<2x?xi1> to tensor<2x?xi32>
// CHECK-NEXT: %[[TO_I64:.+]] = fuse.cast %[[X]] : tensor<2x?xi1> to tensor<2x?xi64>
// CHECK-NEXT: %[[TO_I1:.+]] = fuse.cast %[[X]] : tensor<2x?xi1> to tensor<2x?xi1>
// CHECK-NEXT: return %[[TO_F16]], %[[TO_BF16]], %[[TO_F32]], %[[TO_F64]], %[[TO_I32]], %[[TO_I64]], %[[TO_I1]] : tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>
func.func @cast_from_i1(%x: tensor<2x?xi1>) -> (tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>) {
  %to_f16 = fuse.cast %x : tensor<2x?xi1> to tensor<2x?xf16>
  %to_bf16 = fuse.cast %x : tensor<2x?xi1> to tensor<2x?xbf16>
  %to_f32 = fuse.cast %x : tensor<2x?xi1> to tensor<2x?xf32>
  %to_f64 = fuse.cast %x : tensor<2x?xi1> to tensor<2x?xf64>
  %to_i32 = fuse.cast %x : tensor<2x?xi1> to tensor<2x?xi32>
  %to_i64 = fuse.cast %x : tensor<2x?xi1> to tensor<2x?xi64>
  %to_i1 = fuse.cast %x : tensor<2x?xi1> to tensor<2x?xi1>
  return %to_f16, %to_bf16, %to_f32, %to_f64, %to_i32, %to_i64, %to_i1 : tensor<2x?xf16>, tensor<2x?xbf16>, tensor<2x?xf32>, tensor<2x?xf64>, tensor<2x?xi32>, tensor<2x?xi64>, tensor<2x?xi1>
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

// A 0-d float constant prints the shortest decimal that reads back
// to the same value, always with a '.' (3 prints as 3.0).
// CHECK-LABEL: func @constant_f16(
// CHECK-NEXT: %[[C0:.+]] = fuse.constant 0.5 : tensor<f16>
// CHECK-NEXT: %[[C1:.+]] = fuse.constant -0.0001 : tensor<f16>
// CHECK-NEXT: %[[C2:.+]] = fuse.constant nan : tensor<f16>
// CHECK-NEXT: %[[C3:.+]] = fuse.constant inf : tensor<f16>
// CHECK-NEXT: %[[C4:.+]] = fuse.constant -inf : tensor<f16>
// CHECK-NEXT: %[[C5:.+]] = fuse.constant 3.0 : tensor<f16>
// CHECK-NEXT: %[[C6:.+]] = fuse.constant -0.0 : tensor<f16>
// CHECK-NEXT: %[[C7:.+]] = fuse.constant 0.1 : tensor<f16>
// CHECK-NEXT: %[[C8:.+]] = fuse.constant 2.5e+03 : tensor<f16>
// CHECK-NEXT: return %[[C0]], %[[C1]], %[[C2]], %[[C3]], %[[C4]], %[[C5]], %[[C6]], %[[C7]], %[[C8]] : tensor<f16>, tensor<f16>, tensor<f16>, tensor<f16>, tensor<f16>, tensor<f16>, tensor<f16>, tensor<f16>, tensor<f16>
func.func @constant_f16() -> (tensor<f16>, tensor<f16>, tensor<f16>, tensor<f16>, tensor<f16>, tensor<f16>, tensor<f16>, tensor<f16>, tensor<f16>) {
  %c0 = fuse.constant 0.5 : tensor<f16>
  %c1 = fuse.constant -1.0e-04 : tensor<f16>
  %c2 = fuse.constant nan : tensor<f16>
  %c3 = fuse.constant inf : tensor<f16>
  %c4 = fuse.constant -inf : tensor<f16>
  %c5 = fuse.constant 3 : tensor<f16>
  %c6 = fuse.constant -0.0 : tensor<f16>
  %c7 = fuse.constant 0.1 : tensor<f16>
  %c8 = fuse.constant 2.5e+03 : tensor<f16>
  return %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8 : tensor<f16>, tensor<f16>, tensor<f16>, tensor<f16>, tensor<f16>, tensor<f16>, tensor<f16>, tensor<f16>, tensor<f16>
}

// A decimal literal is rounded once, from its text, to the element type:
// 1.000488281250000000001 is just above the tie between 1.0 and 1.0009765625
// in f16 (through a double it was the tie, and 1.0); 1.00048828125, the
// tie, is 1.0 (to even); the same just above bf16's tie between 1.0 and
// 1.0078125.
// CHECK-LABEL: func @constant_rounded_once(
// CHECK-NEXT: fuse.constant 1.001 : tensor<f16>
// CHECK-NEXT: fuse.constant 1.0 : tensor<f16>
// CHECK-NEXT: fuse.constant 1.01 : tensor<bf16>
func.func @constant_rounded_once() -> (tensor<f16>, tensor<f16>, tensor<bf16>) {
  %c0 = fuse.constant 1.000488281250000000001 : tensor<f16>
  %c1 = fuse.constant 1.00048828125 : tensor<f16>
  %c2 = fuse.constant 1.00390625000000000000001 : tensor<bf16>
  return %c0, %c1, %c2 : tensor<f16>, tensor<f16>, tensor<bf16>
}

// CHECK-LABEL: func @constant_bf16(
// CHECK-NEXT: %[[C0:.+]] = fuse.constant 0.5 : tensor<bf16>
// CHECK-NEXT: %[[C1:.+]] = fuse.constant -1.0e-08 : tensor<bf16>
// CHECK-NEXT: %[[C2:.+]] = fuse.constant nan : tensor<bf16>
// CHECK-NEXT: %[[C3:.+]] = fuse.constant inf : tensor<bf16>
// CHECK-NEXT: %[[C4:.+]] = fuse.constant -inf : tensor<bf16>
// CHECK-NEXT: %[[C5:.+]] = fuse.constant 3.0 : tensor<bf16>
// CHECK-NEXT: %[[C6:.+]] = fuse.constant -0.0 : tensor<bf16>
// CHECK-NEXT: %[[C7:.+]] = fuse.constant 0.1 : tensor<bf16>
// CHECK-NEXT: %[[C8:.+]] = fuse.constant 2.5e+03 : tensor<bf16>
// CHECK-NEXT: return %[[C0]], %[[C1]], %[[C2]], %[[C3]], %[[C4]], %[[C5]], %[[C6]], %[[C7]], %[[C8]] : tensor<bf16>, tensor<bf16>, tensor<bf16>, tensor<bf16>, tensor<bf16>, tensor<bf16>, tensor<bf16>, tensor<bf16>, tensor<bf16>
func.func @constant_bf16() -> (tensor<bf16>, tensor<bf16>, tensor<bf16>, tensor<bf16>, tensor<bf16>, tensor<bf16>, tensor<bf16>, tensor<bf16>, tensor<bf16>) {
  %c0 = fuse.constant 0.5 : tensor<bf16>
  %c1 = fuse.constant -1.0e-08 : tensor<bf16>
  %c2 = fuse.constant nan : tensor<bf16>
  %c3 = fuse.constant inf : tensor<bf16>
  %c4 = fuse.constant -inf : tensor<bf16>
  %c5 = fuse.constant 3 : tensor<bf16>
  %c6 = fuse.constant -0.0 : tensor<bf16>
  %c7 = fuse.constant 0.1 : tensor<bf16>
  %c8 = fuse.constant 2.5e+03 : tensor<bf16>
  return %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8 : tensor<bf16>, tensor<bf16>, tensor<bf16>, tensor<bf16>, tensor<bf16>, tensor<bf16>, tensor<bf16>, tensor<bf16>, tensor<bf16>
}

// CHECK-LABEL: func @constant_f32(
// CHECK-NEXT: %[[C0:.+]] = fuse.constant 0.5 : tensor<f32>
// CHECK-NEXT: %[[C1:.+]] = fuse.constant -1.0e-08 : tensor<f32>
// CHECK-NEXT: %[[C2:.+]] = fuse.constant nan : tensor<f32>
// CHECK-NEXT: %[[C3:.+]] = fuse.constant inf : tensor<f32>
// CHECK-NEXT: %[[C4:.+]] = fuse.constant -inf : tensor<f32>
// CHECK-NEXT: %[[C5:.+]] = fuse.constant 3.0 : tensor<f32>
// CHECK-NEXT: %[[C6:.+]] = fuse.constant -0.0 : tensor<f32>
// CHECK-NEXT: %[[C7:.+]] = fuse.constant 0.1 : tensor<f32>
// CHECK-NEXT: %[[C8:.+]] = fuse.constant 2.5e+03 : tensor<f32>
// CHECK-NEXT: return %[[C0]], %[[C1]], %[[C2]], %[[C3]], %[[C4]], %[[C5]], %[[C6]], %[[C7]], %[[C8]] : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
func.func @constant_f32() -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) {
  %c0 = fuse.constant 0.5 : tensor<f32>
  %c1 = fuse.constant -1.0e-08 : tensor<f32>
  %c2 = fuse.constant nan : tensor<f32>
  %c3 = fuse.constant inf : tensor<f32>
  %c4 = fuse.constant -inf : tensor<f32>
  %c5 = fuse.constant 3 : tensor<f32>
  %c6 = fuse.constant -0.0 : tensor<f32>
  %c7 = fuse.constant 0.1 : tensor<f32>
  %c8 = fuse.constant 2.5e+03 : tensor<f32>
  return %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
}

// CHECK-LABEL: func @constant_f64(
// CHECK-NEXT: %[[C0:.+]] = fuse.constant 0.5 : tensor<f64>
// CHECK-NEXT: %[[C1:.+]] = fuse.constant -1.0e-08 : tensor<f64>
// CHECK-NEXT: %[[C2:.+]] = fuse.constant nan : tensor<f64>
// CHECK-NEXT: %[[C3:.+]] = fuse.constant inf : tensor<f64>
// CHECK-NEXT: %[[C4:.+]] = fuse.constant -inf : tensor<f64>
// CHECK-NEXT: %[[C5:.+]] = fuse.constant 3.0 : tensor<f64>
// CHECK-NEXT: %[[C6:.+]] = fuse.constant -0.0 : tensor<f64>
// CHECK-NEXT: %[[C7:.+]] = fuse.constant 0.1 : tensor<f64>
// CHECK-NEXT: %[[C8:.+]] = fuse.constant 2.5e+03 : tensor<f64>
// CHECK-NEXT: return %[[C0]], %[[C1]], %[[C2]], %[[C3]], %[[C4]], %[[C5]], %[[C6]], %[[C7]], %[[C8]] : tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>
func.func @constant_f64() -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>) {
  %c0 = fuse.constant 0.5 : tensor<f64>
  %c1 = fuse.constant -1.0e-08 : tensor<f64>
  %c2 = fuse.constant nan : tensor<f64>
  %c3 = fuse.constant inf : tensor<f64>
  %c4 = fuse.constant -inf : tensor<f64>
  %c5 = fuse.constant 3 : tensor<f64>
  %c6 = fuse.constant -0.0 : tensor<f64>
  %c7 = fuse.constant 0.1 : tensor<f64>
  %c8 = fuse.constant 2.5e+03 : tensor<f64>
  return %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8 : tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>
}

// A NaN prints as `nan`/`-nan` when it is the one those read as, else as its
// bits (a payload), so that a round trip through the printed form keeps them.
// CHECK-LABEL: func @constant_nan_bits(
// CHECK-NEXT: fuse.constant -nan : tensor<f32>
// CHECK-NEXT: fuse.constant 0x7FC00001 : tensor<f32>
// CHECK-NEXT: fuse.constant 0xFFC00001 : tensor<f32>
// CHECK-NEXT: fuse.constant 0x7F800001 : tensor<f32>
// CHECK-NEXT: fuse.constant 0x7E01 : tensor<f16>
// CHECK-NEXT: fuse.constant 0x7FC1 : tensor<bf16>
// CHECK-NEXT: fuse.constant 0x7FF8000000000001 : tensor<f64>
// CHECK-NEXT: fuse.constant nan : tensor<f64>
func.func @constant_nan_bits() -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f16>, tensor<bf16>, tensor<f64>, tensor<f64>) {
  %c0 = fuse.constant -nan : tensor<f32>
  %c1 = fuse.constant 0x7FC00001 : tensor<f32>
  %c2 = fuse.constant 0xFFC00001 : tensor<f32>
  %c3 = fuse.constant 0x7F800001 : tensor<f32>
  %c4 = fuse.constant 0x7E01 : tensor<f16>
  %c5 = fuse.constant 0x7FC1 : tensor<bf16>
  %c6 = fuse.constant 0x7FF8000000000001 : tensor<f64>
  %c7 = fuse.constant 0x7FF8000000000000 : tensor<f64>
  return %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f16>, tensor<bf16>, tensor<f64>, tensor<f64>
}

// Values round to nearest in the element type (overflow gives inf, underflow
// 0); the printed form reads back to the same value.
// CHECK-LABEL: func @constant_float_rounding(
// CHECK-NEXT: %[[C0:.+]] = fuse.constant 6.55e+04 : tensor<f16>
// CHECK-NEXT: %[[C1:.+]] = fuse.constant 1.0e+30 : tensor<f32>
// CHECK-NEXT: %[[C2:.+]] = fuse.constant 16777216.0 : tensor<f32>
// CHECK-NEXT: %[[C3:.+]] = fuse.constant -0.0 : tensor<f16>
// CHECK-NEXT: %[[C4:.+]] = fuse.constant inf : tensor<f16>
// CHECK-NEXT: %[[C5:.+]] = fuse.constant 0.1 : tensor<bf16>
// CHECK-NEXT: return %[[C0]], %[[C1]], %[[C2]], %[[C3]], %[[C4]], %[[C5]] : tensor<f16>, tensor<f32>, tensor<f32>, tensor<f16>, tensor<f16>, tensor<bf16>
func.func @constant_float_rounding() -> (tensor<f16>, tensor<f32>, tensor<f32>, tensor<f16>, tensor<f16>, tensor<bf16>) {
  %c0 = fuse.constant 65504.0 : tensor<f16>
  %c1 = fuse.constant 1.0e+30 : tensor<f32>
  %c2 = fuse.constant 16777217 : tensor<f32>
  %c3 = fuse.constant -1.0e-08 : tensor<f16>
  %c4 = fuse.constant 1.0e+10 : tensor<f16>
  %c5 = fuse.constant 0.1 : tensor<bf16>
  return %c0, %c1, %c2, %c3, %c4, %c5 : tensor<f16>, tensor<f32>, tensor<f32>, tensor<f16>, tensor<f16>, tensor<bf16>
}

// CHECK-LABEL: func @constant_int(
// CHECK-NEXT: %[[C0:.+]] = fuse.constant -7 : tensor<i32>
// CHECK-NEXT: %[[C1:.+]] = fuse.constant -7 : tensor<i64>
// CHECK-NEXT: %[[C2:.+]] = fuse.constant 0 : tensor<i32>
// CHECK-NEXT: %[[C3:.+]] = fuse.constant 2147483647 : tensor<i32>
// CHECK-NEXT: %[[C4:.+]] = fuse.constant -2147483648 : tensor<i32>
// CHECK-NEXT: %[[C5:.+]] = fuse.constant -9223372036854775808 : tensor<i64>
// CHECK-NEXT: %[[C6:.+]] = fuse.constant 9223372036854775807 : tensor<i64>
// CHECK-NEXT: return %[[C0]], %[[C1]], %[[C2]], %[[C3]], %[[C4]], %[[C5]], %[[C6]] : tensor<i32>, tensor<i64>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i64>, tensor<i64>
func.func @constant_int() -> (tensor<i32>, tensor<i64>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i64>, tensor<i64>) {
  %c0 = fuse.constant -7 : tensor<i32>
  %c1 = fuse.constant -7 : tensor<i64>
  %c2 = fuse.constant 0 : tensor<i32>
  %c3 = fuse.constant 2147483647 : tensor<i32>
  %c4 = fuse.constant -2147483648 : tensor<i32>
  %c5 = fuse.constant -9223372036854775808 : tensor<i64>
  %c6 = fuse.constant 9223372036854775807 : tensor<i64>
  return %c0, %c1, %c2, %c3, %c4, %c5, %c6 : tensor<i32>, tensor<i64>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i64>, tensor<i64>
}

// i1 scalars print as true and false; 1 and 0 are accepted too.
// CHECK-LABEL: func @constant_i1(
// CHECK-NEXT: %[[C0:.+]] = fuse.constant true : tensor<i1>
// CHECK-NEXT: %[[C1:.+]] = fuse.constant false : tensor<i1>
// CHECK-NEXT: %[[C2:.+]] = fuse.constant true : tensor<i1>
// CHECK-NEXT: %[[C3:.+]] = fuse.constant false : tensor<i1>
// CHECK-NEXT: return %[[C0]], %[[C1]], %[[C2]], %[[C3]] : tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>
func.func @constant_i1() -> (tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>) {
  %c0 = fuse.constant true : tensor<i1>
  %c1 = fuse.constant false : tensor<i1>
  %c2 = fuse.constant 1 : tensor<i1>
  %c3 = fuse.constant 0 : tensor<i1>
  return %c0, %c1, %c2, %c3 : tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>
}

// Other shapes use dense<...>; a 0-d dense value prints as a scalar.
// CHECK-LABEL: func @constant_dense(
// CHECK-NEXT: %[[C0:.+]] = fuse.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %[[C1:.+]] = fuse.constant dense<5.000000e-01> : tensor<4x4xf16>
// CHECK-NEXT: %[[C2:.+]] = fuse.constant dense<{{\[\[}}1.000000e+00, -2.000000e+00, 3.000000e+00]]> : tensor<1x3xbf16>
// CHECK-NEXT: %[[C3:.+]] = fuse.constant dense<[0x7FF8000000000000, 0x7FF0000000000000]> : tensor<2xf64>
// CHECK-NEXT: %[[C4:.+]] = fuse.constant dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>
// CHECK-NEXT: %[[C5:.+]] = fuse.constant dense<-1> : tensor<2x3x4xi64>
// CHECK-NEXT: %[[C6:.+]] = fuse.constant dense<[true, false, true]> : tensor<3xi1>
// CHECK-NEXT: %[[C7:.+]] = fuse.constant 1.5 : tensor<f32>
// CHECK-NEXT: %[[C8:.+]] = fuse.constant dense<> : tensor<0xf32>
// CHECK-NEXT: return %[[C0]], %[[C1]], %[[C2]], %[[C3]], %[[C4]], %[[C5]], %[[C6]], %[[C7]], %[[C8]] : tensor<2xf32>, tensor<4x4xf16>, tensor<1x3xbf16>, tensor<2xf64>, tensor<2x2xi32>, tensor<2x3x4xi64>, tensor<3xi1>, tensor<f32>, tensor<0xf32>
func.func @constant_dense() -> (tensor<2xf32>, tensor<4x4xf16>, tensor<1x3xbf16>, tensor<2xf64>, tensor<2x2xi32>, tensor<2x3x4xi64>, tensor<3xi1>, tensor<f32>, tensor<0xf32>) {
  %c0 = fuse.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %c1 = fuse.constant dense<0.5> : tensor<4x4xf16>
  %c2 = fuse.constant dense<[[1.0, -2.0, 3.0]]> : tensor<1x3xbf16>
  %c3 = fuse.constant dense<[0x7FF8000000000000, 0x7FF0000000000000]> : tensor<2xf64>
  %c4 = fuse.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %c5 = fuse.constant dense<-1> : tensor<2x3x4xi64>
  %c6 = fuse.constant dense<[true, false, true]> : tensor<3xi1>
  %c7 = fuse.constant dense<1.5> : tensor<f32>
  %c8 = fuse.constant dense<[]> : tensor<0xf32>
  return %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8 : tensor<2xf32>, tensor<4x4xf16>, tensor<1x3xbf16>, tensor<2xf64>, tensor<2x2xi32>, tensor<2x3x4xi64>, tensor<3xi1>, tensor<f32>, tensor<0xf32>
}

//===----------------------------------------------------------------------===//
// A program
//===----------------------------------------------------------------------===//

// A function with several results; values flow between ops.
// CHECK-LABEL: func @several_results(
// CHECK-SAME: %[[X:.+]]: tensor<?x8xf16>, %[[BIAS:.+]]: tensor<8xf16>
// CHECK-NEXT: %[[X32:.+]] = fuse.cast %[[X]] : tensor<?x8xf16> to tensor<?x8xf32>
// CHECK-NEXT: %[[B32:.+]] = fuse.cast %[[BIAS]] : tensor<8xf16> to tensor<8xf32>
// CHECK-NEXT: %[[SUM:.+]] = fuse.add %[[X32]], %[[B32]] : tensor<?x8xf32>, tensor<8xf32> -> tensor<?x8xf32>
// CHECK-NEXT: %[[ZERO:.+]] = fuse.constant 0.0 : tensor<f32>
// CHECK-NEXT: %[[POS:.+]] = fuse.cmp gt, %[[SUM]], %[[ZERO]] : tensor<?x8xf32>, tensor<f32> -> tensor<?x8xi1>
// CHECK-NEXT: %[[ACT:.+]] = fuse.gelu %[[SUM]] {approximate = "tanh"} : tensor<?x8xf32>
// CHECK-NEXT: %[[OUT:.+]] = fuse.select %[[POS]], %[[ACT]], %[[ZERO]] : tensor<?x8xi1>, tensor<?x8xf32>, tensor<f32> -> tensor<?x8xf32>
// CHECK-NEXT: %[[HALF:.+]] = fuse.cast %[[OUT]] : tensor<?x8xf32> to tensor<?x8xf16>
// CHECK-NEXT: return %[[HALF]], %[[POS]], %[[SUM]] : tensor<?x8xf16>, tensor<?x8xi1>, tensor<?x8xf32>
func.func @several_results(%x: tensor<?x8xf16>, %bias: tensor<8xf16>) -> (tensor<?x8xf16>, tensor<?x8xi1>, tensor<?x8xf32>) {
  %x32 = fuse.cast %x : tensor<?x8xf16> to tensor<?x8xf32>
  %b32 = fuse.cast %bias : tensor<8xf16> to tensor<8xf32>
  %sum = fuse.add %x32, %b32 : tensor<?x8xf32>, tensor<8xf32> -> tensor<?x8xf32>
  %zero = fuse.constant 0.0 : tensor<f32>
  %pos = fuse.cmp gt, %sum, %zero : tensor<?x8xf32>, tensor<f32> -> tensor<?x8xi1>
  %act = fuse.gelu %sum {approximate = "tanh"} : tensor<?x8xf32>
  %out = fuse.select %pos, %act, %zero : tensor<?x8xi1>, tensor<?x8xf32>, tensor<f32> -> tensor<?x8xf32>
  %half = fuse.cast %out : tensor<?x8xf32> to tensor<?x8xf16>
  return %half, %pos, %sum : tensor<?x8xf16>, tensor<?x8xi1>, tensor<?x8xf32>
}

// CHECK-LABEL: func @hardswish(
// CHECK-NEXT: %[[R:.+]] = fuse.hardswish %{{.+}} : tensor<?x4xbf16>
// CHECK-NEXT: return %[[R]]
func.func @hardswish(%x: tensor<?x4xbf16>) -> tensor<?x4xbf16> {
  %0 = fuse.hardswish %x : tensor<?x4xbf16>
  return %0 : tensor<?x4xbf16>
}

//===----------------------------------------------------------------------===//
// Reductions: dimensions kept (size 1) or dropped
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func @reductions(
// CHECK-SAME: %[[F16:.+]]: tensor<?x?xf16>, %[[BF16:.+]]: tensor<2x3xbf16>, %[[F32:.+]]: tensor<4x?x2xf32>, %[[F64:.+]]: tensor<?xf64>, %[[I32:.+]]: tensor<?x?xi32>, %[[I64:.+]]: tensor<3x?xi64>
// CHECK-NEXT: fuse.reduce_sum %[[F16]] {dims = array<i64: 1>} : tensor<?x?xf16> -> tensor<?x1xf16>
// CHECK-NEXT: fuse.reduce_max %[[BF16]] {dims = array<i64: 0, 1>} : tensor<2x3xbf16> -> tensor<bf16>
// CHECK-NEXT: fuse.reduce_min %[[F32]] {dims = array<i64: 2, 0>} : tensor<4x?x2xf32> -> tensor<1x?x1xf32>
// CHECK-NEXT: fuse.reduce_mean %[[F64]] {dims = array<i64: 0>} : tensor<?xf64> -> tensor<f64>
// CHECK-NEXT: fuse.reduce_sum %[[I32]] {dims = array<i64: 0>} : tensor<?x?xi32> -> tensor<?xi32>
// CHECK-NEXT: fuse.reduce_max %[[I64]] {dims = array<i64: 1>} : tensor<3x?xi64> -> tensor<3x1xi64>
// CHECK-NEXT: fuse.reduce_mean %[[BF16]] {dims = array<i64: 1>} : tensor<2x3xbf16> -> tensor<2xbf16>
// CHECK-NEXT: fuse.reduce_min %[[I64]] {dims = array<i64: 0, 1>} : tensor<3x?xi64> -> tensor<1x1xi64>
// CHECK-NEXT: fuse.reduce_max %[[F32]] {dims = array<i64: 1>, identity_if_empty} : tensor<4x?x2xf32> -> tensor<4x2xf32>
// CHECK-NEXT: %[[ZERO:.+]] = fuse.constant dense<> : tensor<3x0xi32>
// CHECK-NEXT: fuse.reduce_min %[[ZERO]] {dims = array<i64: 1>, identity_if_empty} : tensor<3x0xi32> -> tensor<3xi32>
func.func @reductions(%f16: tensor<?x?xf16>, %bf16: tensor<2x3xbf16>, %f32: tensor<4x?x2xf32>, %f64: tensor<?xf64>, %i32: tensor<?x?xi32>, %i64: tensor<3x?xi64>) -> (tensor<?x1xf16>, tensor<bf16>, tensor<1x?x1xf32>, tensor<f64>, tensor<?xi32>, tensor<3x1xi64>, tensor<2xbf16>, tensor<1x1xi64>, tensor<4x2xf32>, tensor<3xi32>) {
  %0 = fuse.reduce_sum %f16 {dims = array<i64: 1>} : tensor<?x?xf16> -> tensor<?x1xf16>
  %1 = fuse.reduce_max %bf16 {dims = array<i64: 0, 1>} : tensor<2x3xbf16> -> tensor<bf16>
  %2 = fuse.reduce_min %f32 {dims = array<i64: 2, 0>} : tensor<4x?x2xf32> -> tensor<1x?x1xf32>
  %3 = fuse.reduce_mean %f64 {dims = array<i64: 0>} : tensor<?xf64> -> tensor<f64>
  %4 = fuse.reduce_sum %i32 {dims = array<i64: 0>} : tensor<?x?xi32> -> tensor<?xi32>
  %5 = fuse.reduce_max %i64 {dims = array<i64: 1>} : tensor<3x?xi64> -> tensor<3x1xi64>
  %6 = fuse.reduce_mean %bf16 {dims = array<i64: 1>} : tensor<2x3xbf16> -> tensor<2xbf16>
  %7 = fuse.reduce_min %i64 {dims = array<i64: 0, 1>} : tensor<3x?xi64> -> tensor<1x1xi64>
  // With identity_if_empty, a static size 0 is valid: the result is the
  // identity (+inf, the largest integer for min).
  %8 = fuse.reduce_max %f32 {dims = array<i64: 1>, identity_if_empty} : tensor<4x?x2xf32> -> tensor<4x2xf32>
  %zero = fuse.constant dense<> : tensor<3x0xi32>
  %9 = fuse.reduce_min %zero {dims = array<i64: 1>, identity_if_empty} : tensor<3x0xi32> -> tensor<3xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<?x1xf16>, tensor<bf16>, tensor<1x?x1xf32>, tensor<f64>, tensor<?xi32>, tensor<3x1xi64>, tensor<2xbf16>, tensor<1x1xi64>, tensor<4x2xf32>, tensor<3xi32>
}
