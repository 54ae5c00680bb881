//===- FuseOps.td - fuse dialect operations ----------------*- tablegen -*-===//
//
// Operations of the `fuse` dialect. Adding an elementwise op is a few lines:
// pick the family class (unary float, unary numeric, binary), give the
// mnemonic and the formula, and write its buildScalar (ScalarOpInterface)
// in lib/Dialect/Fuse/IR/FuseScalar.cpp, or, for an op that is one math or
// arith op, name it in a Fuse_UnaryMathOp or Fuse_ArithBinaryOp line.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_IR_FUSEOPS_TD
#define FUSE_DIALECT_FUSE_IR_FUSEOPS_TD

include "fuse/Dialect/Fuse/IR/FuseDialect.td"
include "fuse/Dialect/Fuse/IR/FuseInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// Verifies numpy broadcasting of the operands against the declared result
// type, and equal element types of the data operands.
def Fuse_BroadcastOperands : NativeOpTrait<"BroadcastOperands"> {
  let cppNamespace = "::fuse::OpTrait";
}

// Rejects attributes an op does not define (a misspelled `min` must not be
// ignored). Attributes with a dialect prefix (`foo.bar`) are left alone.
def Fuse_KnownAttributes : NativeOpTrait<"KnownAttributes"> {
  let cppNamespace = "::fuse::OpTrait";
}

// The reduced dimensions: what the verifier's message asks for when `dims`
// is not an array of i64 (`[1]`, `array<i32: 1>`).
def Fuse_DimsAttr : DenseArrayAttrBase<"DenseI64ArrayAttr", "int64_t", "i64"> {
  let summary = "the dimensions to reduce, written as `array<i64: ...>` "
                "(as in {dims = array<i64: 1>})";
}

// A reduction over the dimensions of its `dims` attribute (reducedDims()).
def Fuse_Reduction : NativeOpTrait<"Reduction"> {
  let cppNamespace = "::fuse::OpTrait";
}

// Rejects tensors with an encoding, which the lowering to linalg would
// drop (an upstream verifier then found the types apart).
def Fuse_PlainTensors : NativeOpTrait<"PlainTensors"> {
  let cppNamespace = "::fuse::OpTrait";
}

class Fuse_Op<string mnemonic, list<Trait> traits = []>
    : Op<Fuse_Dialect, mnemonic,
         !listconcat(traits, [Fuse_KnownAttributes, Fuse_PlainTensors])>;

// An elementwise op: its scalar semantics (buildScalar) are in
// lib/Dialect/Fuse/IR/FuseScalar.cpp.
def Fuse_ScalarOp : DeclareOpInterfaceMethods<Fuse_ScalarOpInterface>;

//===----------------------------------------------------------------------===//
// Unary operations: the result type is the operand type.
//===----------------------------------------------------------------------===//

class Fuse_UnaryOp<string mnemonic, TypeConstraint tensorType, string formula,
                   list<Trait> traits = []>
    : Fuse_Op<mnemonic, !listconcat(traits, [Pure, Elementwise,
                                             SameOperandsAndResultType,
                                             Fuse_ScalarOp])> {
  let summary = "elementwise " # formula;
  let description = "Computes `" # formula # "` for every element of the "
    # "operand. The result has the operand's type.\n\n"
    # "Example:\n\n```mlir\n%r = fuse." # mnemonic
    # " %x : tensor<?x4xf32>\n```\n";
  let arguments = (ins tensorType:$input);
  let results = (outs tensorType:$result);
  let assemblyFormat =
      "$input attr-dict `:` custom<UnaryType>(ref($input), type($result))";
}

class Fuse_UnaryFloatOp<string mnemonic, string formula>
    : Fuse_UnaryOp<mnemonic, Fuse_FloatTensor, formula>;
class Fuse_UnaryNumericOp<string mnemonic, string formula,
                          list<Trait> traits = []>
    : Fuse_UnaryOp<mnemonic, Fuse_NumericTensor, formula, traits>;

// A float op that is one math dialect op `mathOp` (in the compute type).
class Fuse_UnaryMathOp<string mnemonic, string formula, string mathOp>
    : Fuse_UnaryFloatOp<mnemonic, formula> {
  let extraClassDefinition = [{
    ::mlir::Value $cppClass::buildScalar(::mlir::OpBuilder &b,
        ::mlir::Location loc, ::mlir::ValueRange args,
        ::mlir::Type resultElement) {
      return ::fuse::unaryMath<::mlir::math::}] # mathOp # [{>(
          b, loc, args, resultElement);
    }
  }];
}

def Fuse_NegOp : Fuse_UnaryNumericOp<"neg", "-x">;
def Fuse_AbsOp : Fuse_UnaryNumericOp<"abs", "|x|">;
// f(f(x)) = f(x): the folder (--canonicalize) keeps one (Idempotent).
def Fuse_ReluOp : Fuse_UnaryNumericOp<"relu", "max(x, 0) (NaN stays NaN)",
                                      [Idempotent]>;
def Fuse_FloorOp : Fuse_UnaryNumericOp<"floor", "floor(x) (integers unchanged)",
                                       [Idempotent]>;
def Fuse_CeilOp : Fuse_UnaryNumericOp<"ceil", "ceil(x) (integers unchanged)",
                                      [Idempotent]>;
def Fuse_ExpOp : Fuse_UnaryMathOp<"exp", "e^x", "ExpOp">;
def Fuse_LogOp : Fuse_UnaryMathOp<"log", "ln(x)", "LogOp">;
def Fuse_Expm1Op : Fuse_UnaryMathOp<"expm1", "e^x - 1 (exact near 0)", "ExpM1Op">;
def Fuse_Log1pOp : Fuse_UnaryMathOp<"log1p", "ln(1 + x) (exact near 0)", "Log1pOp">;
def Fuse_SqrtOp : Fuse_UnaryMathOp<"sqrt", "sqrt(x)", "SqrtOp">;
def Fuse_RsqrtOp : Fuse_UnaryMathOp<"rsqrt", "1 / sqrt(x)", "RsqrtOp">;
def Fuse_TanhOp : Fuse_UnaryMathOp<"tanh", "tanh(x)", "TanhOp">;
def Fuse_SigmoidOp : Fuse_UnaryFloatOp<"sigmoid", "1 / (1 + e^-x)">;
def Fuse_SiluOp : Fuse_UnaryFloatOp<"silu", "x / (1 + e^-x)">;
def Fuse_SinOp : Fuse_UnaryMathOp<"sin", "sin(x)", "SinOp">;
def Fuse_CosOp : Fuse_UnaryMathOp<"cos", "cos(x)", "CosOp">;
def Fuse_ErfOp : Fuse_UnaryMathOp<"erf", "erf(x)", "ErfOp">;
def Fuse_ReciprocalOp : Fuse_UnaryFloatOp<"reciprocal", "1 / x">;
def Fuse_HardswishOp : Fuse_UnaryFloatOp<"hardswish",
                                         "x * min(max(x + 3, 0), 6) / 6">;

def Fuse_GeluOp : Fuse_UnaryOp<"gelu", Fuse_FloatTensor,
                               "gelu(x) (exact or tanh approximation)"> {
  let description = [{
    Gaussian error linear unit, as `torch.nn.functional.gelu`:
    `approximate = "none"` (the default) computes `x * 0.5 * (1 + erf(x / sqrt(2)))`,
    `approximate = "tanh"` computes
    `0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))`.

    Example:

    ```mlir
    %r = fuse.gelu %x {approximate = "tanh"} : tensor<?x4xf32>
    ```
  }];
  let arguments = (ins Fuse_FloatTensor:$input,
                       DefaultValuedStrAttr<StrAttr, "none">:$approximate);
  let hasVerifier = 1;
}

def Fuse_ClampOp : Fuse_UnaryOp<"clamp", Fuse_NumericTensor,
                                "min(max(x, min), max)"> {
  let description = [{
    Clamps every element into `[min, max]`; either bound may be omitted. The
    bounds are float attributes for float tensors and integer attributes for
    integer tensors. NaN stays NaN, as in `torch.clamp`.

    Example:

    ```mlir
    %r = fuse.clamp %x {min = 0.0 : f32, max = 6.0 : f32} : tensor<?x4xf32>
    ```
  }];
  let arguments = (ins Fuse_NumericTensor:$input,
                       OptionalAttr<TypedAttrInterface>:$min,
                       OptionalAttr<TypedAttrInterface>:$max);
  // The unary ops' format, with the bounds' integer literals checked as
  // signed (MLIR reads `4294967295 : i32` as the bits of -1).
  let assemblyFormat = ?;
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Fuse_LeakyReluOp : Fuse_UnaryOp<"leaky_relu", Fuse_FloatTensor,
                                    "x if x > 0 else alpha * x"> {
  let description = [{
    Leaky rectified linear unit with negative slope `alpha` (default 0.01).

    Example:

    ```mlir
    %r = fuse.leaky_relu %x {alpha = 0.01 : f32} : tensor<?x4xf32>
    ```
  }];
  let arguments = (ins Fuse_FloatTensor:$input,
                       OptionalAttr<TypedAttrInterface>:$alpha);
  let extraClassDeclaration = [{
    /// The negative slope, 0.01 when the attribute is absent.
    double getAlphaValue();
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Binary operations with numpy broadcasting.
//===----------------------------------------------------------------------===//

class Fuse_BinaryOp<string mnemonic, string formula>
    : Fuse_Op<mnemonic, [Pure, Fuse_BroadcastOperands, Fuse_ScalarOp]> {
  let summary = "elementwise " # formula # " with broadcasting";
  let description = "Computes `" # formula # "` elementwise after numpy "
    # "broadcasting of the operands. Both operands have the same element "
    # "type; the result shape is the broadcast shape. When all three types "
    # "are equal the short form lists one type.\n\n"
    # "Example:\n\n```mlir\n%r = fuse." # mnemonic
    # " %a, %b : tensor<8x?xf32>, tensor<?xf32> -> tensor<8x?xf32>\n"
    # "%s = fuse." # mnemonic # " %a, %a : tensor<8x?xf32>\n```\n";
  let arguments = (ins Fuse_NumericTensor:$lhs, Fuse_NumericTensor:$rhs);
  let results = (outs Fuse_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:`
      custom<BroadcastTypes>(ref($lhs), ref($rhs), type($lhs), type($rhs),
                             type($result))
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$lhs, "::mlir::Value":$rhs), [{
      build($_builder, $_state,
            ::fuse::inferBroadcastType({lhs.getType(), rhs.getType()},
                                       ::mlir::Type()),
            lhs, rhs);
    }]>
  ];
}

// A binary op that is one arith op: `floatOp` on floats, `intOp` on
// integers (in the compute type).
class Fuse_ArithBinaryOp<string mnemonic, string formula, string floatOp,
                         string intOp>
    : Fuse_BinaryOp<mnemonic, formula> {
  let extraClassDefinition = [{
    ::mlir::Value $cppClass::buildScalar(::mlir::OpBuilder &b,
        ::mlir::Location loc, ::mlir::ValueRange args,
        ::mlir::Type resultElement) {
      return ::fuse::binaryArith<::mlir::arith::}] # floatOp
        # [{, ::mlir::arith::}] # intOp # [{>(b, loc, args, resultElement);
    }
  }];
}

def Fuse_AddOp : Fuse_ArithBinaryOp<"add", "lhs + rhs", "AddFOp", "AddIOp">;
def Fuse_SubOp : Fuse_ArithBinaryOp<"sub", "lhs - rhs", "SubFOp", "SubIOp">;
def Fuse_MulOp : Fuse_ArithBinaryOp<"mul", "lhs * rhs", "MulFOp", "MulIOp">;
def Fuse_DivOp : Fuse_BinaryOp<"div",
    "lhs / rhs (integers: truncated toward zero)">;
def Fuse_MaxOp : Fuse_ArithBinaryOp<"max", "max(lhs, rhs) (NaN propagates)",
                                    "MaximumFOp", "MaxSIOp">;
def Fuse_MinOp : Fuse_ArithBinaryOp<"min", "min(lhs, rhs) (NaN propagates)",
                                    "MinimumFOp", "MinSIOp">;
def Fuse_PowOp : Fuse_BinaryOp<"pow", "lhs ^ rhs">;

//===----------------------------------------------------------------------===//
// Reductions.
//===----------------------------------------------------------------------===//

class Fuse_ReduceOp<string mnemonic, TypeConstraint tensorType, string formula,
                    string empty, dag extraArguments = (ins)>
    : Fuse_Op<mnemonic, [Pure, Fuse_Reduction]> {
  let summary = formula # " over the dimensions `dims`";
  let description = "Reduces the operand over the dimensions listed in `dims` "
    # "(each in [0, rank), none twice) with " # formula # ", as numpy's "
    # "reductions do. The result type says whether the reduced dimensions "
    # "are kept with size 1 (the operand's rank, numpy's `keepdims=True`) "
    # "or dropped (the rank minus the number of dims); the other dimensions "
    # "are the operand's. f16 and bf16 data is accumulated in f32 and "
    # "rounded once. " # empty # "\n\n"
    # "Example:\n\n```mlir\n%r = fuse." # mnemonic
    # " %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>\n"
    # "%s = fuse." # mnemonic
    # " %x {dims = array<i64: 0, 1>} : tensor<?x?xf32> -> tensor<f32>\n```\n";
  let arguments = !con((ins tensorType:$input, Fuse_DimsAttr:$dims),
                       extraArguments);
  let results = (outs tensorType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether the result keeps the reduced dimensions (with size 1).
    bool keepsDims() {
      return getType().getRank() == getInput().getType().getRank();
    }
  }];
}

def Fuse_ReduceSumOp : Fuse_ReduceOp<"reduce_sum", Fuse_NumericTensor,
    "the sum",
    "An empty reduction gives 0; integer sums wrap around.">;
def Fuse_ReduceMaxOp : Fuse_ReduceOp<"reduce_max", Fuse_NumericTensor,
    "the maximum (NaN propagates)",
    "An empty reduction is an error (numpy's), unless the op has the unit "
    # "attribute `identity_if_empty`: then it gives -inf (the smallest "
    # "integer for integer types), as numpy's `initial=-inf` (a softmax "
    # "over an empty axis is empty, and its maximum is never read).",
    (ins UnitAttr:$identity_if_empty)>;
def Fuse_ReduceMinOp : Fuse_ReduceOp<"reduce_min", Fuse_NumericTensor,
    "the minimum (NaN propagates)",
    "An empty reduction is an error (numpy's), unless the op has the unit "
    # "attribute `identity_if_empty`: then it gives +inf (the largest "
    # "integer for integer types), as numpy's `initial=inf`.",
    (ins UnitAttr:$identity_if_empty)>;
def Fuse_ReduceMeanOp : Fuse_ReduceOp<"reduce_mean", Fuse_FloatTensor,
    "the mean (the sum divided by the number of elements reduced)",
    "An empty reduction gives NaN.">;

//===----------------------------------------------------------------------===//
// Comparison and selection.
//===----------------------------------------------------------------------===//

def Fuse_CmpOp : Fuse_Op<"cmp", [Pure, Fuse_BroadcastOperands,
                                 Fuse_ScalarOp]> {
  let summary = "elementwise comparison with broadcasting";
  let description = [{
    Compares the operands elementwise after broadcasting and yields `i1`.
    Predicates: `eq ne lt le gt ge`. Float comparisons are ordered, except
    `ne`, which is true when either side is NaN (as in PyTorch).

    Example:

    ```mlir
    %m = fuse.cmp lt, %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
    ```
  }];
  let arguments = (ins Fuse_CmpPredicate:$predicate, Fuse_Tensor:$lhs,
                       Fuse_Tensor:$rhs);
  let results = (outs Fuse_BoolTensor:$result);
  let assemblyFormat = [{
    $predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)
      `->` type($result)
  }];
}

def Fuse_SelectOp : Fuse_Op<"select", [Pure, Fuse_BroadcastOperands,
                                       Fuse_ScalarOp]> {
  let summary = "elementwise selection with three-way broadcasting";
  let description = [{
    Yields `true_value` where `cond` is true and `false_value` elsewhere,
    after broadcasting all three operands together (`torch.where`).

    Example:

    ```mlir
    %r = fuse.select %m, %a, %b : tensor<?xi1>, tensor<?xf32>, tensor<f32> -> tensor<?xf32>
    ```
  }];
  let arguments = (ins Fuse_BoolTensor:$cond, Fuse_Tensor:$true_value,
                       Fuse_Tensor:$false_value);
  let results = (outs Fuse_Tensor:$result);
  let assemblyFormat = [{
    $cond `,` $true_value `,` $false_value attr-dict `:` type($cond) `,`
      type($true_value) `,` type($false_value) `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Casts and constants.
//===----------------------------------------------------------------------===//

def Fuse_CastOp : Fuse_Op<"cast", [Pure, Fuse_ScalarOp]> {
  let summary = "elementwise element type conversion";
  let description = [{
    Converts every element to the result's element type; the shape does not
    change. Float to float rounds to nearest; float to integer truncates
    toward zero; integer to float rounds to nearest; integer to integer
    sign-extends or truncates; any type to `i1` is `x != 0`; `i1` to any
    type gives 0 or 1.

    Example:

    ```mlir
    %h = fuse.cast %x : tensor<?xf32> to tensor<?xf16>
    ```
  }];
  let arguments = (ins Fuse_Tensor:$input);
  let results = (outs Fuse_Tensor:$result);
  let assemblyFormat =
      "$input attr-dict `:` custom<CastTypes>(ref($input), type($input), "
      "type($result))";
  let hasVerifier = 1;
}

def Fuse_ConstantOp : Fuse_Op<"constant", [Pure, ConstantLike]> {
  let summary = "constant tensor";
  let description = [{
    A constant tensor of static shape. A 0-d constant is written as a bare
    scalar and broadcasts against any shape; other constants use `dense<>`.
    Float scalars may be `nan`, `inf` or `-inf`; `i1` scalars `true`/`false`.

    Example:

    ```mlir
    %c = fuse.constant 0.5 : tensor<f32>
    %d = fuse.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Fuse_Tensor:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasFolder = 1;
  let builders = [
    OpBuilder<(ins "::mlir::ElementsAttr":$value), [{
      build($_builder, $_state, value.getType(), value);
    }]>
  ];
}

//===----------------------------------------------------------------------===//
// Compiler-internal operations: the pipelines make and remove them; fuse
// programs do not use them.
//===----------------------------------------------------------------------===//

def Fuse_OpaqueOp : Fuse_Op<"opaque", [Pure, ElementwiseMappable,
                                       SameOperandsAndResultType]> {
  let summary = "its operand, which folding does not see through (internal)";
  let description = [{
    Returns its operand. Compile-time folding does not look through it:
    `fuse-guard-target-math` puts one between a constant and an inexact math
    function (exp, log, powf, sin, cos, tanh, erf) in a kernel body, so that
    the target computes the function's value (libdevice on the GPU, the C
    library on the CPU) and a fused kernel gives the value that the same op
    gives in a kernel of its own (eager). The target's math lowering removes
    it. Compiler-internal, on scalars and vectors of floats: a fuse program
    does not use it.

    Example:

    ```mlir
    %guarded = fuse.opaque %cst : f32
    %r = math.erf %guarded : f32
    ```
  }];
  let arguments = (ins AnyTypeOf<[AnyFloat, VectorOfAnyRankOf<[AnyFloat]>]>:$input);
  let results = (outs AnyTypeOf<[AnyFloat, VectorOfAnyRankOf<[AnyFloat]>]>:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

#endif // FUSE_DIALECT_FUSE_IR_FUSEOPS_TD
