// RUN: fuse-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the fuse dialect: verifiers, the constant parser
// and the ODS type constraints.

//===----------------------------------------------------------------------===//
// Broadcasting
//===----------------------------------------------------------------------===//

func.func @broadcast_conflict(%a: tensor<3x4xf32>, %b: tensor<5xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'fuse.add' op operands are not broadcast-compatible: tensor<3x4xf32> vs tensor<5xf32> (dimension 1: 4 vs 5)}}
  %0 = fuse.add %a, %b : tensor<3x4xf32>, tensor<5xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// The conflict names the dimension of the broadcast result.
func.func @broadcast_conflict_outer(%a: tensor<2x?x4xi64>, %b: tensor<3x1x4xi64>) -> tensor<2x?x4xi64> {
  // expected-error @+1 {{'fuse.pow' op operands are not broadcast-compatible: tensor<2x?x4xi64> vs tensor<3x1x4xi64> (dimension 0: 2 vs 3)}}
  %0 = fuse.pow %a, %b : tensor<2x?x4xi64>, tensor<3x1x4xi64> -> tensor<2x?x4xi64>
  return %0 : tensor<2x?x4xi64>
}

// -----

func.func @mixed_element_types(%a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuse.mul' op operand element types differ: f32 vs f16; insert a fuse.cast to convert one of them}}
  %0 = fuse.mul %a, %b : tensor<4xf32>, tensor<4xf16> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @mixed_int_widths(%a: tensor<4xi32>, %b: tensor<i64>) -> tensor<4xi32> {
  // expected-error @+1 {{'fuse.sub' op operand element types differ: i32 vs i64; insert a fuse.cast to convert one of them}}
  %0 = fuse.sub %a, %b : tensor<4xi32>, tensor<i64> -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @result_shape(%a: tensor<4xf32>, %b: tensor<3x1xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuse.div' op declared result type tensor<4xf32> does not match the inferred type tensor<3x4xf32>}}
  %0 = fuse.div %a, %b : tensor<4xf32>, tensor<3x1xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A static size beats `?`: the result is tensor<4xf32>, not tensor<?xf32>.
func.func @result_dynamic(%a: tensor<?xf32>, %b: tensor<4xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'fuse.max' op declared result type tensor<?xf32> does not match the inferred type tensor<4xf32>}}
  %0 = fuse.max %a, %b : tensor<?xf32>, tensor<4xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @result_element_type(%a: tensor<4xf32>, %b: tensor<f32>) -> tensor<4xf16> {
  // expected-error @+1 {{'fuse.min' op declared result type tensor<4xf16> does not match the inferred type tensor<4xf32>}}
  %0 = fuse.min %a, %b : tensor<4xf32>, tensor<f32> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @binary_missing_result_type(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected '->'}}
  %0 = fuse.add %a, %a : tensor<4xf32>, tensor<4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

func.func @cmp_mixed_types(%a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{'fuse.cmp' op operand element types differ: f32 vs i32; insert a fuse.cast to convert one of them}}
  %0 = fuse.cmp lt, %a, %b : tensor<4xf32>, tensor<4xi32> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @cmp_broadcast_conflict(%a: tensor<2x3xi64>, %b: tensor<2xi64>) -> tensor<2x3xi1> {
  // expected-error @+1 {{'fuse.cmp' op operands are not broadcast-compatible: tensor<2x3xi64> vs tensor<2xi64> (dimension 1: 3 vs 2)}}
  %0 = fuse.cmp eq, %a, %b : tensor<2x3xi64>, tensor<2xi64> -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

func.func @cmp_result_shape(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<?xi1> {
  // expected-error @+1 {{'fuse.cmp' op declared result type tensor<?xi1> does not match the inferred type tensor<4xi1>}}
  %0 = fuse.cmp le, %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<?xi1>
  return %0 : tensor<?xi1>
}

// -----

func.func @cmp_result_not_i1(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuse.cmp' op result #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = "fuse.cmp"(%a, %b) <{predicate = 2 : i32}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @cmp_unknown_predicate(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, lt, le, gt, ge]}}
  %0 = fuse.cmp lte, %a, %b : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @cmp_predicate_out_of_range(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{invalid properties {predicate = 6 : i32} for op fuse.cmp}}
  %0 = "fuse.cmp"(%a, %b) <{predicate = 6 : i32}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

//===----------------------------------------------------------------------===//
// Selection
//===----------------------------------------------------------------------===//

func.func @select_condition_conflict(%c: tensor<3xi1>, %a: tensor<4xf32>, %b: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuse.select' op operands are not broadcast-compatible: tensor<3xi1> vs tensor<4xf32> (dimension 0: 3 vs 4)}}
  %0 = fuse.select %c, %a, %b : tensor<3xi1>, tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_value_conflict(%c: tensor<i1>, %a: tensor<2x4xf32>, %b: tensor<3x1xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'fuse.select' op operands are not broadcast-compatible: tensor<2x4xf32> vs tensor<3x1xf32> (dimension 0: 2 vs 3)}}
  %0 = fuse.select %c, %a, %b : tensor<i1>, tensor<2x4xf32>, tensor<3x1xf32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @select_mixed_types(%c: tensor<4xi1>, %a: tensor<4xbf16>, %b: tensor<f16>) -> tensor<4xbf16> {
  // expected-error @+1 {{'fuse.select' op operand element types differ: bf16 vs f16; insert a fuse.cast to convert one of them}}
  %0 = fuse.select %c, %a, %b : tensor<4xi1>, tensor<4xbf16>, tensor<f16> -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

func.func @select_result_shape(%c: tensor<2x1xi1>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuse.select' op declared result type tensor<4xf32> does not match the inferred type tensor<2x4xf32>}}
  %0 = fuse.select %c, %a, %b : tensor<2x1xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_condition_not_i1(%c: tensor<4xf32>, %a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuse.select' op operand #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = "fuse.select"(%c, %a, %b) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Unary ops with attributes
//===----------------------------------------------------------------------===//

func.func @gelu_bad_approximate(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuse.gelu' op approximate must be "none" or "tanh", got "fast"}}
  %0 = fuse.gelu %a {approximate = "fast"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @gelu_approximate_not_string(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuse.gelu' op attribute 'approximate' failed to satisfy constraint: string attribute}}
  %0 = fuse.gelu %a {approximate = 1 : i32} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clamp_int_bound_on_float(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuse.clamp' op 'min' must be a float attribute for tensor<4xf32>, got 0 : i32}}
  %0 = fuse.clamp %a {min = 0 : i32} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clamp_float_bound_on_int(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'fuse.clamp' op 'max' must be an integer attribute for tensor<4xi32>, got 6.000000e+00 : f32}}
  %0 = fuse.clamp %a {min = 0 : i32, max = 6.0 : f32} : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @clamp_string_bound(%a: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error @+1 {{'fuse.clamp' op 'min' must be an integer attribute for tensor<4xi64>, got "0"}}
  %0 = fuse.clamp %a {min = "0"} : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @clamp_untyped_bound(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'fuse.clamp' op attribute 'max' failed to satisfy constraint: TypedAttr instance}}
  %0 = fuse.clamp %a {max = [6.0]} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An unsigned bound is read as unsigned (`200 : ui8` was -56), and a wider
// one whole (an i128 bound was cut to its low 64 bits, silently).
func.func @clamp_unsigned_bound_too_large(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'fuse.clamp' op 'min' value 4294967295 does not fit in i32: fuse's integers are signed, from -2147483648 to 2147483647}}
  %0 = fuse.clamp %a {min = 4294967295 : ui32} : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @clamp_wide_bound(%a: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error @+1 {{'fuse.clamp' op 'min' value 1267650600228229401496703205376 does not fit in i64: fuse's integers are signed, from -9223372036854775808 to 9223372036854775807}}
  %0 = fuse.clamp %a {min = 1267650600228229401496703205376 : i128, max = 10 : i64} : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @clamp_on_i1(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'fuse.clamp' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi1>'}}
  %0 = fuse.clamp %a : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @leaky_relu_int_alpha(%a: tensor<4xf16>) -> tensor<4xf16> {
  // expected-error @+1 {{'fuse.leaky_relu' op 'alpha' must be a float attribute for tensor<4xf16>, got 1 : i32}}
  %0 = fuse.leaky_relu %a {alpha = 1 : i32} : tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @leaky_relu_on_int(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'fuse.leaky_relu' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = fuse.leaky_relu %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

//===----------------------------------------------------------------------===//
// Element types accepted by each op family
//===----------------------------------------------------------------------===//

func.func @float_op_on_int(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'fuse.exp' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = fuse.exp %a : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @gelu_on_int(%a: tensor<?xi64>) -> tensor<?xi64> {
  // expected-error @+1 {{'fuse.gelu' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<?xi64>'}}
  %0 = fuse.gelu %a : tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

func.func @unary_on_i1(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'fuse.neg' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi1>'}}
  %0 = fuse.neg %a : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @binary_on_i1(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'fuse.add' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi1>'}}
  %0 = fuse.add %a, %a : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @i8(%a: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error @+1 {{'fuse.mul' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi8>'}}
  %0 = fuse.mul %a, %a : tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @unsigned(%a: tensor<4xui32>) -> tensor<4xui32> {
  // expected-error @+1 {{'fuse.abs' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xui32>'}}
  %0 = fuse.abs %a : tensor<4xui32>
  return %0 : tensor<4xui32>
}

// -----

func.func @complex(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'fuse.neg' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xcomplex<f32>>'}}
  %0 = fuse.neg %a : tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @unranked(%a: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'fuse.sub' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<*xf32>'}}
  %0 = fuse.sub %a, %a : tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @memref(%a: memref<4xf32>) -> memref<4xf32> {
  // expected-error @+1 {{'fuse.div' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'memref<4xf32>'}}
  %0 = fuse.div %a, %a : memref<4xf32>
  return %0 : memref<4xf32>
}

// -----

// Other kinds of type: the verifier says what the op takes (the parser of
// RankedTensorType said "invalid kind of type specified: expected
// builtin.tensor").
func.func @unranked_unary(%a: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'fuse.relu' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<*xf32>'}}
  %0 = fuse.relu %a : tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @vector_cmp(%a: vector<4xf32>) -> vector<4xi1> {
  // expected-error @+1 {{'fuse.cmp' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer or 1-bit signless integer values, but got 'vector<4xf32>'}}
  %0 = fuse.cmp eq, %a, %a : vector<4xf32>, vector<4xf32> -> vector<4xi1>
  return %0 : vector<4xi1>
}

// -----

func.func @unary_changes_type(%a: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'fuse.floor' op requires the same type for all operands and results}}
  %0 = "fuse.floor"(%a) : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @unary_result_dynamic(%a: tensor<4xf32>) -> tensor<?xf32> {
  // expected-error @+2 {{'fuse.sqrt' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<?xf32>'}}
  // expected-error @+1 {{'fuse.sqrt' op failed to infer returned types}}
  %0 = "fuse.sqrt"(%a) : (tensor<4xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

// Static and dynamic sizes are compatible for the Elementwise trait but not
// equal.
func.func @cast_changes_shape(%a: tensor<4xf32>) -> tensor<?xf16> {
  // expected-error @+1 {{'fuse.cast' op cannot change the shape: tensor<4xf32> to tensor<?xf16>; fuse.cast converts the element type only}}
  %0 = fuse.cast %a : tensor<4xf32> to tensor<?xf16>
  return %0 : tensor<?xf16>
}

// -----

func.func @cast_changes_rank(%a: tensor<2x3xi32>) -> tensor<6xi64> {
  // expected-error @+1 {{'fuse.cast' op cannot change the shape: tensor<2x3xi32> to tensor<6xi64>; fuse.cast converts the element type only}}
  %0 = fuse.cast %a : tensor<2x3xi32> to tensor<6xi64>
  return %0 : tensor<6xi64>
}

// -----

func.func @cast_to_i8(%a: tensor<4xi32>) -> tensor<4xi8> {
  // expected-error @+1 {{'fuse.cast' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer or 1-bit signless integer values, but got 'tensor<4xi8>'}}
  %0 = fuse.cast %a : tensor<4xi32> to tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

func.func @scalar_with_shape() -> tensor<2xf32> {
  // expected-error @+1 {{a scalar constant needs a 0-d tensor type, got tensor<2xf32>; write dense<...> for other shapes}}
  %0 = fuse.constant 0.5 : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @scalar_not_tensor() -> f32 {
  // expected-error @+1 {{a scalar constant needs a 0-d tensor type, got f32; write tensor<f32>}}
  %0 = fuse.constant 0.5 : f32
  return %0 : f32
}

// -----

func.func @true_for_float() -> tensor<f32> {
  // expected-error @+1 {{'true' is not a value of f32}}
  %0 = fuse.constant true : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @false_for_int() -> tensor<i32> {
  // expected-error @+1 {{'false' is not a value of i32}}
  %0 = fuse.constant false : tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @negative_true() -> tensor<i1> {
  // expected-error @+1 {{'true' is not a value of i1}}
  %0 = fuse.constant -true : tensor<i1>
  return %0 : tensor<i1>
}

// -----

func.func @i32_too_large() -> tensor<i32> {
  // expected-error @+1 {{2147483648 does not fit in i32: fuse's integers are signed, from -2147483648 to 2147483647}}
  %0 = fuse.constant 2147483648 : tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @i32_too_small() -> tensor<i32> {
  // expected-error @+1 {{-2147483649 does not fit in i32: fuse's integers are signed}}
  %0 = fuse.constant -2147483649 : tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @i64_too_large() -> tensor<i64> {
  // expected-error @+1 {{9223372036854775808 does not fit in i64: fuse's integers are signed, from -9223372036854775808 to 9223372036854775807}}
  %0 = fuse.constant 9223372036854775808 : tensor<i64>
  return %0 : tensor<i64>
}

// -----

// MLIR reads a signless integer literal in either sign's range (4294967295
// : i32 is the bits of -1); fuse's integers are signed, so a dense
// constant's or an attribute's literal past the signed range is an error at
// the literal, not a silent -1.
func.func @dense_i32_past_signed_range() -> tensor<2xi32> {
  // expected-error @+1 {{4294967295 does not fit in i32: fuse's integers are signed, from -2147483648 to 2147483647}}
  %0 = fuse.constant dense<[4294967295, 7]> : tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @dense_splat_i32_past_signed_range() -> tensor<3xi32> {
  // expected-error @+1 {{3000000000 does not fit in i32}}
  %0 = fuse.constant dense<3000000000> : tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @dense_i64_past_signed_range() -> tensor<2x2xi64> {
  // expected-error @+1 {{9223372036854775808 does not fit in i64}}
  %0 = fuse.constant dense<[[1, 2], [-9223372036854775808, 9223372036854775808]]> : tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}

// -----

func.func @clamp_bound_past_signed_range(%x: tensor<3xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{4294967295 does not fit in i32: fuse's integers are signed}}
  %0 = fuse.clamp %x {min = -2147483648 : i32, max = 4294967295 : i32} : tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// A negative literal past its type, and a dense i1 other than 0 and 1, in
// fuse's words too (MLIR refused them first: "integer constant out of range
// for attribute", "... for type").
func.func @clamp_negative_bound_past_range(%x: tensor<3xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{-129 does not fit in i8: fuse's integers are signed, from -128 to 127}}
  %0 = fuse.clamp %x {min = -129 : i8} : tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @dense_negative_past_range() -> tensor<2xi32> {
  // expected-error @+1 {{-2147483649 does not fit in i32: fuse's integers are signed}}
  %0 = fuse.constant dense<[1, -2147483649]> : tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @dense_i1_two() -> tensor<2xi1> {
  // expected-error @+1 {{2 is not a value of i1: it takes true, false, 1 and 0}}
  %0 = fuse.constant dense<2> : tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @i1_out_of_range() -> tensor<i1> {
  // expected-error @+1 {{value does not fit in i1}}
  %0 = fuse.constant 2 : tensor<i1>
  return %0 : tensor<i1>
}

// -----

func.func @i1_minus_one() -> tensor<i1> {
  // expected-error @+1 {{value does not fit in i1}}
  %0 = fuse.constant -1 : tensor<i1>
  return %0 : tensor<i1>
}

// -----

func.func @float_for_int() -> tensor<i64> {
  // expected-error @+1 {{expected an integer value for i64}}
  %0 = fuse.constant 1.5 : tensor<i64>
  return %0 : tensor<i64>
}

// -----

func.func @nan_for_int() -> tensor<i32> {
  // expected-error @+1 {{expected an integer value for i32}}
  %0 = fuse.constant nan : tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @not_a_number() -> tensor<f32> {
  // expected-error @+1 {{expected floating point literal}}
  %0 = fuse.constant pi : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @scalar_i8() -> tensor<i8> {
  // expected-error @+1 {{'fuse.constant' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer or 1-bit signless integer values, but got 'tensor<i8>'}}
  %0 = fuse.constant 1 : tensor<i8>
  return %0 : tensor<i8>
}

// -----

func.func @dense_i8() -> tensor<2xi8> {
  // expected-error @+1 {{'fuse.constant' op result #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer or 1-bit signless integer values, but got 'tensor<2xi8>'}}
  %0 = fuse.constant dense<[1, 2]> : tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

func.func @dense_dynamic() -> tensor<?xf32> {
  // expected-error @+1 {{elements literal type must have static shape}}
  %0 = fuse.constant dense<1.0> : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @value_type_mismatch() -> tensor<3xf32> {
  // expected-error @+1 {{'fuse.constant' op value type tensor<2xf32> does not match the result type tensor<3xf32>}}
  %0 = "fuse.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @value_dynamic_result() -> tensor<?xf32> {
  // expected-error @+1 {{'fuse.constant' op value type tensor<2xf32> does not match the result type tensor<?xf32>}}
  %0 = "fuse.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @value_not_elements() -> tensor<f32> {
  // expected-error @+1 {{invalid properties {value = 1.000000e+00 : f32} for op fuse.constant}}
  %0 = "fuse.constant"() <{value = 1.0 : f32}> : () -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @constant_not_dense() -> tensor<4xf32> {
  // expected-error @+1 {{'fuse.constant' op value must be a dense<...> attribute}}
  %0 = "fuse.constant"() <{value = sparse<[[1]], [2.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @constant_double_minus() -> tensor<i32> {
  // expected-error @+1 {{expected a number after '-'}}
  %0 = fuse.constant --5 : tensor<i32>
  return %0 : tensor<i32>
}

// -----

// MLIR reads `1e-5` as the integer 1 and the word `e`.
func.func @constant_exponent_without_point() -> tensor<f32> {
  // expected-error @+1 {{a float literal needs a '.' before its exponent: write -1.0e-5}}
  %0 = fuse.constant -1e-5 : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @constant_exponent_without_point_upper() -> tensor<f32> {
  // expected-error @+1 {{a float literal needs a '.' before its exponent: write 25.0E+3}}
  %0 = fuse.constant 25E+3 : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// An i1 literal is 0 or 1, in a dense literal too (MLIR read -1 as true).
func.func @dense_i1_negative() -> tensor<2xi1> {
  // expected-error @+1 {{-1 is not a value of i1: it takes true, false, 1 and 0}}
  %0 = fuse.constant dense<-1> : tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

// The same in a dense literal (it said "expected ']'").
func.func @dense_exponent_without_point() -> tensor<2xf32> {
  // expected-error @+1 {{a float literal needs a '.' before its exponent: write 1.0e-5}}
  %0 = fuse.constant dense<[1.0, 1e-5]> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @constant_index() -> tensor<index> {
  // expected-error @+1 {{unsupported element type index for a constant}}
  %0 = fuse.constant 1 : tensor<index>
  return %0 : tensor<index>
}

// -----

func.func @constant_too_large_positive() -> tensor<i32> {
  // expected-error @+1 {{2147483648 does not fit in i32: fuse's integers are signed}}
  %0 = fuse.constant 2147483648 : tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @constant_hex_too_wide() -> tensor<f16> {
  // expected-error @+1 {{hexadecimal bit pattern does not fit in f16}}
  %0 = fuse.constant 0x7FC00000 : tensor<f16>
  return %0 : tensor<f16>
}

// -----

func.func @clamp_bool_bound(%a: tensor<3xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{'fuse.clamp' op 'min' must be an integer attribute for tensor<3xi32>, got true}}
  %0 = fuse.clamp %a {min = true} : tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @clamp_bound_out_of_range(%a: tensor<3xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{'fuse.clamp' op 'max' value 9999999999 does not fit in i32}}
  %0 = fuse.clamp %a {max = 9999999999 : i64} : tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @reduce_no_dims(%a: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'fuse.reduce_sum' op needs at least one dimension in 'dims'}}
  %0 = fuse.reduce_sum %a {dims = array<i64>} : tensor<3x4xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// `dims` written as a list, not an array of i64: the message shows how.
func.func @reduce_dims_list(%a: tensor<3x4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{attribute 'dims' failed to satisfy constraint: the dimensions to reduce, written as `array<i64: ...>` (as in {dims = array<i64: 1>})}}
  %0 = fuse.reduce_sum %a {dims = [1]} : tensor<3x4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @reduce_dim_out_of_range(%a: tensor<3x4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'fuse.reduce_max' op dimension 2 in 'dims' is out of range for tensor<3x4xf32> (rank 2: 0 to 1)}}
  %0 = fuse.reduce_max %a {dims = array<i64: 2>} : tensor<3x4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @reduce_negative_dim(%a: tensor<3x4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'fuse.reduce_min' op dimension -1 in 'dims' is negative: fuse counts dimensions from 0, so numpy's -1 is 1 for tensor<3x4xf32>}}
  %0 = fuse.reduce_min %a {dims = array<i64: -1>} : tensor<3x4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @reduce_0d(%a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'fuse.reduce_sum' op cannot reduce tensor<f32>: a 0-d tensor has no dimension}}
  %0 = fuse.reduce_sum %a {dims = array<i64: 0>} : tensor<f32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reduce_repeated_dim(%a: tensor<3x4xf32>) -> tensor<f32> {
  // expected-error @+1 {{'fuse.reduce_sum' op dimension 1 is twice in 'dims'}}
  %0 = fuse.reduce_sum %a {dims = array<i64: 1, 0, 1>} : tensor<3x4xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reduce_wrong_shape(%a: tensor<3x?xf32>) -> tensor<1x?xf32> {
  // expected-error @+1 {{'fuse.reduce_sum' op declared result type tensor<1x?xf32> does not match the reduction of tensor<3x?xf32> over the dims: expected tensor<3x1xf32> (dims kept) or tensor<3xf32> (dims dropped)}}
  %0 = fuse.reduce_sum %a {dims = array<i64: 1>} : tensor<3x?xf32> -> tensor<1x?xf32>
  return %0 : tensor<1x?xf32>
}

// -----

func.func @reduce_wrong_element(%a: tensor<3x4xf16>) -> tensor<3xf32> {
  // expected-error @+1 {{'fuse.reduce_sum' op result element type f32 differs from the operand's, f16}}
  %0 = fuse.reduce_sum %a {dims = array<i64: 1>} : tensor<3x4xf16> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @reduce_mean_integer(%a: tensor<3x4xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{'fuse.reduce_mean' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<3x4xi32>'}}
  %0 = fuse.reduce_mean %a {dims = array<i64: 1>} : tensor<3x4xi32> -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @reduce_bool(%a: tensor<3x4xi1>) -> tensor<3xi1> {
  // expected-error @+1 {{'fuse.reduce_max' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<3x4xi1>'}}
  %0 = fuse.reduce_max %a {dims = array<i64: 1>} : tensor<3x4xi1> -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

func.func @reduce_max_empty(%a: tensor<3x0xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'fuse.reduce_max' op reduces dimension 1 of size 0, which has no maximum}}
  %0 = fuse.reduce_max %a {dims = array<i64: 1>} : tensor<3x0xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @reduce_missing_dims(%a: tensor<3x4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'fuse.reduce_sum' op requires attribute 'dims'}}
  %0 = fuse.reduce_sum %a : tensor<3x4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @reduce_misspelled_attribute(%a: tensor<3x4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'fuse.reduce_sum' op has no attribute 'keepdims' (it takes 'dims')}}
  %0 = fuse.reduce_sum %a {dims = array<i64: 1>, keepdims = true} : tensor<3x4xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// A tensor with an encoding: the lowering to linalg would drop it (the
// fused stage made an invalid linalg.generic; a reduction kept it).
func.func @unary_encoding(%a: tensor<?xf32, "enc">) -> tensor<?xf32, "enc"> {
  // expected-error @+1 {{'fuse.relu' op operand 0 has type tensor<?xf32, "enc">, with an encoding ("enc"); fuse compiles tensors without one}}
  %0 = fuse.relu %a : tensor<?xf32, "enc">
  return %0 : tensor<?xf32, "enc">
}

// -----

func.func @reduce_encoding(%a: tensor<3x4xf32>) -> tensor<3xf32, "enc"> {
  // expected-error @+1 {{'fuse.reduce_sum' op result 0 has type tensor<3xf32, "enc">, with an encoding ("enc"); fuse compiles tensors without one}}
  %0 = fuse.reduce_sum %a {dims = array<i64: 1>} : tensor<3x4xf32> -> tensor<3xf32, "enc">
  return %0 : tensor<3xf32, "enc">
}

// -----

// The generic form's function type in the custom form: said, where the
// types then failed to match ("use of value '%a' expects different type
// than prior uses").
func.func @binary_function_type(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{expected `lhs-type, rhs-type -> result-type`, or one type when all three are equal, not a function type (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32> (the generic form's, with the op's name in quotes)}}
  %0 = fuse.add %a, %a : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// One type for operands of other types: the parser's error says which types,
// a note what the op's form meant by the one it was given.
// expected-note @+1 {{prior use here}}
func.func @binary_short_form_other_shapes(%a: tensor<4xf32>, %b: tensor<3xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{use of value '%b' expects different type than prior uses: 'tensor<4xf32>' vs 'tensor<3xf32>'}}
  // expected-note @+1 {{the short form's one type is both operands' and the result's; operands of other types take `lhs-type, rhs-type -> result-type`}}
  %0 = fuse.add %a, %b : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-note @+1 {{prior use here}}
func.func @unary_other_type(%a: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+2 {{use of value '%a' expects different type than prior uses: 'tensor<4xf32>' vs 'tensor<4xf16>'}}
  // expected-note @+1 {{a unary op's one type is its operand's, which is its result's; fuse.cast changes an element type (`fuse.cast %x : A to B`)}}
  %0 = fuse.exp %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-note @+1 {{prior use here}}
func.func @cast_other_type(%a: tensor<4xf16>) -> tensor<4xf64> {
  // expected-error @+2 {{use of value '%a' expects different type than prior uses: 'tensor<4xf32>' vs 'tensor<4xf16>'}}
  // expected-note @+1 {{the type before `to` is the operand's (`fuse.cast %x : A to B` converts x of type A to B)}}
  %0 = fuse.cast %a : tensor<4xf32> to tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @unary_function_type(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{expected one type, the operand's, which is the result's, not a function type (tensor<?xf32>) -> tensor<?xf32>}}
  %0 = fuse.exp %a : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A cast without `to` is said at its type (the error was at the next
// token, the next line's return).
func.func @cast_without_to(%a: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{expected 'to' and the result type after tensor<4xf32> (`fuse.cast %x : A to B`)}}
  %0 = fuse.cast %a : tensor<4xf32>
  return %0 : tensor<4xf16>
}
