//===- FuseScalar.cpp - what each elementwise op computes ----------------===//
//
// The scalar semantics of every elementwise fuse op (ScalarOpInterface),
// as docs/dialect.md states them: one buildScalar per op, on the elements
// of its operands (the ops that are one math or arith op get theirs from
// their ODS family: Fuse_UnaryMathOp, Fuse_ArithBinaryOp).
// convert-fuse-to-linalg makes each op a linalg.generic whose body is built
// here.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/IR/FuseScalar.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace fuse;

#include "fuse/Dialect/Fuse/IR/FuseInterfaces.cpp.inc"

Type fuse::computeElementType(Type element) {
  if (element.isF16() || element.isBF16())
    return Float32Type::get(element.getContext());
  return element;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static Value floatConstant(OpBuilder &b, Location loc, Type type,
                           double value) {
  return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, value));
}

static Value intConstant(OpBuilder &b, Location loc, Type type, int64_t value) {
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, value));
}

static bool isFloat(Value value) { return isa<FloatType>(value.getType()); }

static Value zeroOf(OpBuilder &b, Location loc, Type type) {
  return isa<FloatType>(type) ? floatConstant(b, loc, type, 0.0)
                              : intConstant(b, loc, type, 0);
}

Value fuse::inComputeType(OpBuilder &b, Location loc, ValueRange args,
                          Type resultElement,
                          function_ref<Value(ValueRange)> compute) {
  Type data = args.front().getType();
  Type wide = computeElementType(data);
  if (wide == data)
    return compute(args);
  SmallVector<Value> extended;
  for (Value arg : args)
    extended.push_back(arith::ExtFOp::create(b, loc, wide, arg));
  Value result = compute(extended);
  if (result.getType() == resultElement)
    return result;
  return arith::TruncFOp::create(b, loc, resultElement, result);
}

/// Integer power by squaring over every bit of the exponent, so that it
/// vectorizes (no loop). Negative exponents give 1 for base 1, +-1 for base
/// -1 and 0 otherwise.
static Value integerPow(OpBuilder &b, Location loc, Value base, Value exp) {
  Type type = base.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  Value zero = intConstant(b, loc, type, 0), one = intConstant(b, loc, type, 1);
  Value minusOne = intConstant(b, loc, type, -1);
  Value result = one, square = base, rest = exp;
  for (unsigned bit = 0; bit + 1 < width; ++bit) {
    Value low = arith::AndIOp::create(b, loc, rest, one);
    Value isSet =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, low, zero);
    Value product = arith::MulIOp::create(b, loc, result, square);
    result = arith::SelectOp::create(b, loc, isSet, product, result);
    square = arith::MulIOp::create(b, loc, square, square);
    rest = arith::ShRUIOp::create(b, loc, rest, one);
  }
  Value odd =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                            arith::AndIOp::create(b, loc, exp, one), zero);
  Value baseIsOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, base, one);
  Value baseIsMinusOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, base, minusOne);
  Value signOfMinusOne = arith::SelectOp::create(b, loc, odd, minusOne, one);
  Value negative = arith::SelectOp::create(
      b, loc, baseIsOne, one,
      arith::SelectOp::create(b, loc, baseIsMinusOne, signOfMinusOne, zero));
  Value expNegative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, exp, zero);
  return arith::SelectOp::create(b, loc, expNegative, negative, result);
}

/// Integer division truncating toward zero; x / 0 is 0 and INT_MIN / -1
/// wraps, instead of the undefined behaviour of the hardware instruction.
static Value integerDiv(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  Type type = lhs.getType();
  Value zero = intConstant(b, loc, type, 0), one = intConstant(b, loc, type, 1);
  Value minusOne = intConstant(b, loc, type, -1);
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, zero);
  Value isMinusOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, minusOne);
  Value unsafe = arith::OrIOp::create(b, loc, isZero, isMinusOne);
  Value divisor = arith::SelectOp::create(b, loc, unsafe, one, rhs);
  Value quotient = arith::DivSIOp::create(b, loc, lhs, divisor);
  Value negated = arith::SubIOp::create(b, loc, zero, lhs);
  Value special = arith::SelectOp::create(b, loc, isZero, zero, negated);
  return arith::SelectOp::create(b, loc, unsafe, special, quotient);
}

/// 1 / (1 + e^-x). In f32 the division is marked `afn`: the GPU may
/// compute it with its approximate reciprocal (within 1 ulp over the whole
/// range, subnormal results kept; fuse-math-to-libdevice), which has no
/// slow path; the CPU's code divides either way
/// (test/Pipelines/gpu-sigmoid.mlir).
static Value sigmoid(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  Value one = floatConstant(b, loc, type, 1.0);
  Value expNeg = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  auto flags =
      type.isF32() ? arith::FastMathFlags::afn : arith::FastMathFlags::none;
  return arith::DivFOp::create(
      b, loc, one, arith::AddFOp::create(b, loc, one, expNeg), flags);
}

/// A scalar bound attribute of clamp as a constant of `type`.
static Value boundConstant(OpBuilder &b, Location loc, Type type,
                           Attribute attr) {
  if (auto f = dyn_cast<FloatAttr>(attr))
    return floatConstant(b, loc, type, f.getValueAsDouble());
  // The verifier checked that it fits the element type.
  return intConstant(b, loc, type, *integerAttrValue(cast<IntegerAttr>(attr)));
}

static arith::CmpFPredicate floatPredicate(CmpPredicate p) {
  switch (p) {
  case CmpPredicate::eq:
    return arith::CmpFPredicate::OEQ;
  case CmpPredicate::ne:
    return arith::CmpFPredicate::UNE;
  case CmpPredicate::lt:
    return arith::CmpFPredicate::OLT;
  case CmpPredicate::le:
    return arith::CmpFPredicate::OLE;
  case CmpPredicate::gt:
    return arith::CmpFPredicate::OGT;
  case CmpPredicate::ge:
    return arith::CmpFPredicate::OGE;
  }
  llvm_unreachable("unknown predicate");
}

static arith::CmpIPredicate intPredicate(CmpPredicate p, bool isUnsigned) {
  switch (p) {
  case CmpPredicate::eq:
    return arith::CmpIPredicate::eq;
  case CmpPredicate::ne:
    return arith::CmpIPredicate::ne;
  case CmpPredicate::lt:
    return isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
  case CmpPredicate::le:
    return isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
  case CmpPredicate::gt:
    return isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
  case CmpPredicate::ge:
    return isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
  }
  llvm_unreachable("unknown predicate");
}

//===----------------------------------------------------------------------===//
// Unary ops
//===----------------------------------------------------------------------===//

Value NegOp::buildScalar(OpBuilder &b, Location loc, ValueRange args,
                         Type resultElement) {
  return inComputeType(b, loc, args, resultElement, [&](ValueRange x) {
    if (isFloat(x[0]))
      return Value(arith::NegFOp::create(b, loc, x[0]));
    return Value(
        arith::SubIOp::create(b, loc, zeroOf(b, loc, x[0].getType()), x[0]));
  });
}

Value AbsOp::buildScalar(OpBuilder &b, Location loc, ValueRange args,
                         Type resultElement) {
  return inComputeType(b, loc, args, resultElement, [&](ValueRange x) {
    if (isFloat(x[0]))
      return Value(math::AbsFOp::create(b, loc, x[0]));
    return Value(math::AbsIOp::create(b, loc, x[0]));
  });
}

/// max(x, 0), NaN propagating.
Value ReluOp::buildScalar(OpBuilder &b, Location loc, ValueRange args,
                          Type resultElement) {
  return inComputeType(b, loc, args, resultElement, [&](ValueRange x) {
    Value zero = zeroOf(b, loc, x[0].getType());
    if (isFloat(x[0]))
      return Value(arith::MaximumFOp::create(b, loc, x[0], zero));
    return Value(arith::MaxSIOp::create(b, loc, x[0], zero));
  });
}

/// Integers are unchanged.
Value FloorOp::buildScalar(OpBuilder &b, Location loc, ValueRange args,
                           Type resultElement) {
  return inComputeType(b, loc, args, resultElement, [&](ValueRange x) {
    return isFloat(x[0]) ? Value(math::FloorOp::create(b, loc, x[0])) : x[0];
  });
}

/// Integers are unchanged.
Value CeilOp::buildScalar(OpBuilder &b, Location loc, ValueRange args,
                          Type resultElement) {
  return inComputeType(b, loc, args, resultElement, [&](ValueRange x) {
    return isFloat(x[0]) ? Value(math::CeilOp::create(b, loc, x[0])) : x[0];
  });
}

Value SigmoidOp::buildScalar(OpBuilder &b, Location loc, ValueRange args,
                             Type resultElement) {
  return inComputeType(b, loc, args, resultElement,
                       [&](ValueRange x) { return sigmoid(b, loc, x[0]); });
}

/// x * sigmoid(x).
Value SiluOp::buildScalar(OpBuilder &b, Location loc, ValueRange args,
                          Type resultElement) {
  return inComputeType(b, loc, args, resultElement, [&](ValueRange x) {
    return Value(arith::MulFOp::create(b, loc, x[0], sigmoid(b, loc, x[0])));
  });
}

Value ReciprocalOp::buildScalar(OpBuilder &b, Location loc, ValueRange args,
                                Type resultElement) {
  return inComputeType(b, loc, args, resultElement, [&](ValueRange x) {
    return Value(arith::DivFOp::create(
        b, loc, floatConstant(b, loc, x[0].getType(), 1.0), x[0]));
  });
}

/// x * relu6(x + 3) / 6, NaN propagating like torch.nn.Hardswish.
Value HardswishOp::buildScalar(OpBuilder &b, Location loc, ValueRange args,
                               Type resultElement) {
  return inComputeType(b, loc, args, resultElement, [&](ValueRange x) {
    Type type = x[0].getType();
    Value shifted =
        arith::AddFOp::create(b, loc, x[0], floatConstant(b, loc, type, 3.0));
    Value relu6 = arith::MinimumFOp::create(
        b, loc,
        arith::MaximumFOp::create(b, loc, shifted, zeroOf(b, loc, type)),
        floatConstant(b, loc, type, 6.0));
    return Value(arith::DivFOp::create(
        b, loc, arith::MulFOp::create(b, loc, x[0], relu6),
        floatConstant(b, loc, type, 6.0)));
  });
}

/// approximate = "none": x * 0.5 * (1 + erf(x / sqrt(2)));
/// "tanh": 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))).
Value GeluOp::buildScalar(OpBuilder &b, Location loc, ValueRange args,
                          Type resultElement) {
  return inComputeType(b, loc, args, resultElement, [&](ValueRange xs) {
    Value x = xs[0];
    Type type = x.getType();
    Value half = floatConstant(b, loc, type, 0.5);
    Value one = floatConstant(b, loc, type, 1.0);
    Value inner;
    if (getApproximate() == "tanh") {
      Value cube =
          arith::MulFOp::create(b, loc, x, arith::MulFOp::create(b, loc, x, x));
      Value poly = arith::AddFOp::create(
          b, loc, x,
          arith::MulFOp::create(b, loc, floatConstant(b, loc, type, 0.044715),
                                cube));
      Value scaled = arith::MulFOp::create(
          b, loc, floatConstant(b, loc, type, std::sqrt(2.0 / M_PI)), poly);
      inner = math::TanhOp::create(b, loc, scaled);
    } else {
      inner = math::ErfOp::create(
          b, loc,
          arith::MulFOp::create(b, loc, x,
                                floatConstant(b, loc, type, M_SQRT1_2)));
    }
    Value halfX = arith::MulFOp::create(b, loc, x, half);
    return Value(arith::MulFOp::create(
        b, loc, halfX, arith::AddFOp::create(b, loc, one, inner)));
  });
}

/// min(max(x, min), max), either bound absent; NaN stays NaN.
Value ClampOp::buildScalar(OpBuilder &b, Location loc, ValueRange args,
                           Type resultElement) {
  return inComputeType(b, loc, args, resultElement, [&](ValueRange x) {
    Value result = x[0];
    Type type = result.getType();
    if (Attribute min = getMinAttr()) {
      Value bound = boundConstant(b, loc, type, min);
      result = isFloat(result)
                   ? Value(arith::MaximumFOp::create(b, loc, result, bound))
                   : Value(arith::MaxSIOp::create(b, loc, result, bound));
    }
    if (Attribute max = getMaxAttr()) {
      Value bound = boundConstant(b, loc, type, max);
      result = isFloat(result)
                   ? Value(arith::MinimumFOp::create(b, loc, result, bound))
                   : Value(arith::MinSIOp::create(b, loc, result, bound));
    }
    return result;
  });
}

/// x if x > 0 else alpha * x (NaN: alpha * NaN), as PyTorch: a negative
/// alpha gives -0 for +0 and +0 for -0.
Value LeakyReluOp::buildScalar(OpBuilder &b, Location loc, ValueRange args,
                               Type resultElement) {
  return inComputeType(b, loc, args, resultElement, [&](ValueRange xs) {
    Value x = xs[0];
    Type type = x.getType();
    Value alpha = floatConstant(b, loc, type, getAlphaValue());
    Value positive = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x,
                                           zeroOf(b, loc, type));
    return Value(arith::SelectOp::create(
        b, loc, positive, x, arith::MulFOp::create(b, loc, alpha, x)));
  });
}

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

/// Integers: truncating toward zero, x / 0 = 0 (integerDiv).
Value DivOp::buildScalar(OpBuilder &b, Location loc, ValueRange args,
                         Type resultElement) {
  return inComputeType(b, loc, args, resultElement, [&](ValueRange x) {
    if (isFloat(x[0]))
      return Value(arith::DivFOp::create(b, loc, x[0], x[1]));
    return integerDiv(b, loc, x[0], x[1]);
  });
}

/// pow(x, `exponent`) for the constant exponents that arithmetic computes
/// as an exact pow would round it (specials included), else null: 0 is 1
/// (pow(NaN, 0) too), 1 is x, 2 is x * x and -1 is 1 / x, each correctly
/// rounded in `x`'s type (the compute type), as numpy's `x ** 2`; 0.5 is
/// sqrt(x) + 0, correctly rounded, with pow's +0 for -0 and +inf for -inf
/// (sqrt gives -0 and NaN); 3, 4, -2 and -0.5 are products, a reciprocal
/// and that square root in f64 (exact products of an f32 or narrower x,
/// rounded once or twice), within pow's bound. The target's pow took 5 to
/// 13 times as long (`x ** -1` on the cpu target, 1e6 f32: 2.1 ms, 1 / x
/// 0.2).
static Value powByConstant(OpBuilder &b, Location loc, Value x,
                           double exponent) {
  Type type = x.getType();
  auto root = [&](Value v) {
    Type vType = v.getType();
    Value inf = floatConstant(b, loc, vType, INFINITY);
    Value sqrt = arith::AddFOp::create(b, loc, math::SqrtOp::create(b, loc, v),
                                       floatConstant(b, loc, vType, 0.0));
    Value minusInf =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, v,
                              floatConstant(b, loc, vType, -INFINITY));
    return Value(arith::SelectOp::create(b, loc, minusInf, inf, sqrt));
  };
  auto mul = [&](Value l, Value r) {
    return Value(arith::MulFOp::create(b, loc, l, r));
  };
  auto reciprocal = [&](Value v) {
    return Value(arith::DivFOp::create(
        b, loc, floatConstant(b, loc, v.getType(), 1.0), v));
  };
  if (exponent == 0)
    return floatConstant(b, loc, type, 1.0);
  if (exponent == 1)
    return x;
  if (exponent == 2)
    return mul(x, x);
  if (exponent == -1)
    return reciprocal(x);
  if (exponent == 0.5)
    return root(x);
  if (exponent != 3 && exponent != 4 && exponent != -2 && exponent != -0.5)
    return {};
  Type wide = b.getF64Type();
  Value v = type == wide ? x : Value(arith::ExtFOp::create(b, loc, wide, x));
  // -2 of an f64 is the square of the reciprocal: x * x overflows above
  // 2^512, where x^-2 is a subnormal number.
  Value result = exponent == 3   ? mul(mul(v, v), v)
                 : exponent == 4 ? mul(mul(v, v), mul(v, v))
                 : exponent == -2
                     ? (type == wide ? mul(reciprocal(v), reciprocal(v))
                                     : reciprocal(mul(v, v)))
                     : reciprocal(root(v));
  return type == wide ? result
                      : Value(arith::TruncFOp::create(b, loc, type, result));
}

/// Floats: a constant exponent of 0, +-1, 2, 3, 4, -2 or +-0.5 by
/// arithmetic (powByConstant), and no call of the target's pow; other
/// exponents math.powf. Integers: by squaring (integerPow).
Value PowOp::buildScalar(OpBuilder &b, Location loc, ValueRange args,
                         Type resultElement) {
  FloatAttr exponent;
  bool constant = matchPattern(args[1], m_Constant(&exponent));
  return inComputeType(b, loc, args, resultElement, [&](ValueRange x) {
    if (isFloat(x[0]) && constant)
      if (Value value =
              powByConstant(b, loc, x[0], exponent.getValueAsDouble()))
        return value;
    if (isFloat(x[0]))
      return Value(math::PowFOp::create(b, loc, x[0], x[1]));
    return integerPow(b, loc, x[0], x[1]);
  });
}

//===----------------------------------------------------------------------===//
// Comparison, selection, casts
//===----------------------------------------------------------------------===//

/// Floats: ordered, except `ne`; i1 compares unsigned (false < true).
Value CmpOp::buildScalar(OpBuilder &b, Location loc, ValueRange args,
                         Type resultElement) {
  return inComputeType(b, loc, args, resultElement, [&](ValueRange x) {
    Type type = x[0].getType();
    if (isFloat(x[0]))
      return Value(arith::CmpFOp::create(b, loc, floatPredicate(getPredicate()),
                                         x[0], x[1]));
    return Value(arith::CmpIOp::create(
        b, loc, intPredicate(getPredicate(), type.isInteger(1)), x[0], x[1]));
  });
}

/// In the data's own type: nothing to compute.
Value SelectOp::buildScalar(OpBuilder &b, Location loc, ValueRange args,
                            Type resultElement) {
  return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
}

/// Directly from the source to the result type, as docs/dialect.md says.
Value CastOp::buildScalar(OpBuilder &b, Location loc, ValueRange args,
                          Type resultElement) {
  Value value = args[0];
  Type from = value.getType(), to = resultElement;
  if (from == to)
    return value;
  if (to.isInteger(1)) {
    if (isa<FloatType>(from))
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, value,
                                   floatConstant(b, loc, from, 0.0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value,
                                 intConstant(b, loc, from, 0));
  }
  if (from.isInteger(1)) {
    if (isa<FloatType>(to))
      return arith::UIToFPOp::create(b, loc, to, value);
    return arith::ExtUIOp::create(b, loc, to, value);
  }
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
  if (fromFloat && toFloat) {
    unsigned fromWidth = from.getIntOrFloatBitWidth();
    unsigned toWidth = to.getIntOrFloatBitWidth();
    if (fromWidth == toWidth) // f16 <-> bf16 goes through f32
      value = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
    if (value.getType().getIntOrFloatBitWidth() < toWidth)
      return arith::ExtFOp::create(b, loc, to, value);
    return arith::TruncFOp::create(b, loc, to, value);
  }
  if (fromFloat) {
    // Saturating: NaN gives 0, a value past the type's range its smallest
    // or largest value. fptosi alone is poison there, which LLVM folds to
    // whatever it likes where it sees the value (a constant).
    unsigned bits = to.getIntOrFloatBitWidth();
    // 2^(bits - 1), or inf in a type without it (f16), where only -inf is
    // below the range.
    APFloat bound = APFloat::getOne(cast<FloatType>(from).getFloatSemantics());
    bound = scalbn(bound, bits - 1, APFloat::rmNearestTiesToEven);
    auto boundConstant = [&](bool negative) {
      APFloat value = bound;
      if (negative)
        value.changeSign();
      return arith::ConstantOp::create(b, loc, from,
                                       b.getFloatAttr(from, value));
    };
    Value isNaN =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, value, value);
    Value above = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE,
                                        value, boundConstant(false));
    Value below =
        arith::CmpFOp::create(b, loc,
                              bound.isInfinity() ? arith::CmpFPredicate::OLE
                                                 : arith::CmpFPredicate::OLT,
                              value, boundConstant(true));
    Value outside = arith::OrIOp::create(
        b, loc, isNaN, arith::OrIOp::create(b, loc, above, below));
    Value result = arith::FPToSIOp::create(
        b, loc, to,
        arith::SelectOp::create(b, loc, outside,
                                floatConstant(b, loc, from, 0.0), value));
    APInt largest = APInt::getSignedMaxValue(bits);
    result = arith::SelectOp::create(
        b, loc, above,
        arith::ConstantOp::create(b, loc, to, b.getIntegerAttr(to, largest)),
        result);
    return arith::SelectOp::create(
        b, loc, below,
        arith::ConstantOp::create(
            b, loc, to, b.getIntegerAttr(to, APInt::getSignedMinValue(bits))),
        result);
  }
  if (toFloat) {
    if (!to.isBF16())
      return arith::SIToFPOp::create(b, loc, to, value);
    // To bf16 through f32 (two roundings), as PyTorch does, the second one
    // to nearest even on the bits: upstream's canonicalizer makes
    // truncf(sitofp x) one sitofp (one rounding, where a constant folds
    // and in PTX's cvt.rn.bf16.s32).
    Type i32 = b.getI32Type();
    Value bits = arith::BitcastOp::create(
        b, loc, i32, arith::SIToFPOp::create(b, loc, b.getF32Type(), value));
    Value sixteen = intConstant(b, loc, i32, 16);
    Value odd = arith::AndIOp::create(
        b, loc, arith::ShRUIOp::create(b, loc, bits, sixteen),
        intConstant(b, loc, i32, 1));
    Value rounded = arith::AddIOp::create(
        b, loc, bits,
        arith::AddIOp::create(b, loc, odd, intConstant(b, loc, i32, 0x7FFF)));
    return arith::BitcastOp::create(
        b, loc, to,
        arith::TruncIOp::create(
            b, loc, b.getI16Type(),
            arith::ShRUIOp::create(b, loc, rounded, sixteen)));
  }
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return arith::ExtSIOp::create(b, loc, to, value);
  return arith::TruncIOp::create(b, loc, to, value);
}
