//===- MathToLibm.cpp - library calls for inexact math functions ---------===//
//
// The math functions that are not correctly rounded (fuse::isTargetMath)
// become calls of the target's library, never folded on the compiler host:
// the C library's on the CPU, libdevice's in GPU kernels.
//
//===----------------------------------------------------------------------===//

#include "fuse/Conversion/Passes.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "fuse/Dialect/Fuse/Utils/Kernel.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/bit.h"

namespace fuse {
#define GEN_PASS_DEF_FUSEMATHTOLIBDEVICE
#define GEN_PASS_DEF_FUSEMATHTOLIBM
#include "fuse/Conversion/Passes.h.inc"
} // namespace fuse

using namespace mlir;

/// fptosi of an integral-valued float (an exponent), a NaN taken as 0:
/// LLVM makes fptosi of NaN poison, and folds that through the rest of a
/// lane whose NaN it can see (a NaN constant before exp); the lane's result
/// is NaN through its other operands.
static Value exponentToInt(OpBuilder &b, Location loc, Type intType, Value k) {
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, k, k);
  Value zero = arith::ConstantOp::create(
      b, loc, k.getType(), cast<TypedAttr>(b.getZeroAttr(k.getType())));
  return arith::FPToSIOp::create(
      b, loc, intType, arith::SelectOp::create(b, loc, isNaN, zero, k));
}

namespace {

/// Converts only the target math ops with `patterns`, never folding, and
/// then removes the guards of fuse-guard-target-math: nothing is left to
/// fold on the compiler host.
LogicalResult convertTargetMath(Operation *root, RewritePatternSet &&patterns) {
  ConversionTarget target(*root->getContext());
  target.markUnknownOpDynamicallyLegal(
      [](Operation *op) { return !fuse::isTargetMath(op); });
  ConversionConfig config;
  config.foldingMode = DialectConversionFoldingMode::Never;
  if (failed(applyPartialConversion(root, target, std::move(patterns), config)))
    return failure();
  root->walk([](fuse::OpaqueOp guard) {
    guard.replaceAllUsesWith(guard.getInput());
    guard.erase();
  });
  return success();
}

/// Builds f32 constants and i32 constants of the shape of `like` (a scalar
/// or a vector).
struct ShapedConstants {
  OpBuilder &builder;
  Location loc;
  Type floatType, intType;

  ShapedConstants(OpBuilder &builder, Location loc, Type like)
      : builder(builder), loc(loc), floatType(like), intType(integer(32)) {}
  /// The integer type of `width` bits of the shape of `like`.
  Type integer(unsigned width) const {
    Type element = builder.getIntegerType(width);
    if (auto vector = dyn_cast<VectorType>(floatType))
      return vector.clone(element);
    return element;
  }
  Value f32(float value) {
    return get(floatType, builder.getF32FloatAttr(value));
  }
  Value i32(int32_t value) {
    return get(intType, builder.getI32IntegerAttr(value));
  }

private:
  Value get(Type type, TypedAttr scalar) {
    Attribute attr = scalar;
    if (auto vector = dyn_cast<VectorType>(type))
      attr = DenseElementsAttr::get(vector, scalar);
    return arith::ConstantOp::create(builder, loc, type, cast<TypedAttr>(attr));
  }
};

/// Marks an op that a pattern below wrapped for upstream's approximation
/// (log, erf) or the C library's call (the rare lanes of sin, cos, pow) to
/// take.
constexpr llvm::StringLiteral kWrappedAttr = "fuse.wrapped";

/// A pattern of fuse's for one math op of one float type: benefit 3, over
/// upstream's approximations (2) and the C library's calls (1).
template <typename OpTy> struct MathPattern : OpRewritePattern<OpTy> {
  MathPattern(MLIRContext *context)
      : OpRewritePattern<OpTy>(context, /*benefit=*/3) {}

  /// Whether the pattern rewrites `op`: its element type is `element` and
  /// no pattern wrapped it.
  static bool takes(OpTy op, Type element) {
    return getElementTypeOrSelf(op.getType()) == element &&
           !op->hasAttr(kWrappedAttr);
  }
};

/// f32 exp as straight-line code that keeps subnormal results (upstream's
/// approximation flushes them to zero). Cody and Waite's reduction and
/// Cephes' polynomial, as upstream's, with a scale that cannot underflow
/// early:
///   x = k ln 2 + r, |r| <= ln 2 / 2, k = floor(x log2(e) + 1/2)
///   exp(x) = p(r) * 2^k1 * 2^k2,  k1 = floor(k / 2), k2 = k - k1
/// x is clamped to [-104, 88.8] (below -104 the result rounds to 0, above
/// 88.8 it is inf) so that k is in [-150, 128] and both factors are normal
/// numbers: the first product is exact and the second rounds once, into the
/// subnormals where the result is one. NaN passes the clamps.
struct ExpF32 : MathPattern<math::ExpOp> {
  using MathPattern::MathPattern;

  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!takes(op, rewriter.getF32Type()))
      return failure();
    Location loc = op.getLoc();
    ShapedConstants c(rewriter, loc, type);
    auto select = [&](arith::CmpFPredicate predicate, Value x, Value bound) {
      Value beyond = arith::CmpFOp::create(rewriter, loc, predicate, x, bound);
      return arith::SelectOp::create(rewriter, loc, beyond, bound, x);
    };
    auto fma = [&](Value a, Value b, Value addend) -> Value {
      return math::FmaOp::create(rewriter, loc, a, b, addend);
    };
    Value x =
        select(arith::CmpFPredicate::OLT, op.getOperand(), c.f32(-104.0f));
    x = select(arith::CmpFPredicate::OGT, x, c.f32(88.8f));
    Value k = math::FloorOp::create(
        rewriter, loc, fma(x, c.f32(1.44269504088896341f), c.f32(0.5f)));
    // ln 2 = 0.693359375 - 2.12194440e-4; the first part has 9 bits, so
    // k times it is exact.
    Value r = fma(k, c.f32(-0.693359375f), x);
    r = fma(k, c.f32(2.12194440e-4f), r);
    Value p = c.f32(1.9875691500e-4f);
    for (float coefficient :
         {1.3981999507e-3f, 8.3334519073e-3f, 4.1665795894e-2f,
          1.6666665459e-1f, 5.0000001201e-1f})
      p = fma(p, r, c.f32(coefficient));
    Value r2 = arith::MulFOp::create(rewriter, loc, r, r);
    Value y = arith::AddFOp::create(rewriter, loc, fma(p, r2, r), c.f32(1.0f));
    Value k2i = exponentToInt(rewriter, loc, c.intType, k);
    Value k1i = arith::ShRSIOp::create(rewriter, loc, k2i, c.i32(1));
    k2i = arith::SubIOp::create(rewriter, loc, k2i, k1i);
    auto powerOfTwo = [&](Value exponent) -> Value {
      Value biased = arith::AddIOp::create(rewriter, loc, exponent, c.i32(127));
      Value bits = arith::ShLIOp::create(rewriter, loc, biased, c.i32(23));
      return arith::BitcastOp::create(rewriter, loc, type, bits);
    };
    Value scaled = arith::MulFOp::create(rewriter, loc, y, powerOfTwo(k1i));
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, scaled, powerOfTwo(k2i));
    return success();
  }
};

/// Replaces `op` by `fast`, or, where a lane of `rare` is set, by
/// `slow()` (which merges the rare lanes into `fast`), built in a branch
/// that vectors without such lanes skip.
static void replaceWithRareLanes(PatternRewriter &rewriter, Operation *op,
                                 Value rare, Value fast,
                                 llvm::function_ref<Value()> slow) {
  Location loc = op->getLoc();
  Value any = rare;
  if (isa<VectorType>(rare.getType()))
    any = vector::ReductionOp::create(rewriter, loc, vector::CombiningKind::OR,
                                      rare);
  auto branch = scf::IfOp::create(
      rewriter, loc, any,
      [&](OpBuilder &, Location) {
        scf::YieldOp::create(rewriter, loc, ValueRange{slow()});
      },
      [&](OpBuilder &, Location) {
        scf::YieldOp::create(rewriter, loc, ValueRange{fast});
      });
  rewriter.replaceOp(op, branch.getResults());
}

/// `fast` with the lanes where `rare` is set computed by the C library: `op`
/// on those lanes' operands, marked wrapped for the call, in a loop over
/// the lanes (one call in the code, whatever the vector's width).
static Value libraryLanes(PatternRewriter &rewriter, Operation *op, Value rare,
                          Value fast) {
  Location loc = op->getLoc();
  auto call = [&](OpBuilder &b, ValueRange operands, Type type) -> Value {
    OperationState state(loc, op->getName(), operands, TypeRange{type},
                         op->getAttrs());
    Operation *library = b.create(state);
    library->setAttr(kWrappedAttr, b.getUnitAttr());
    return library->getResult(0);
  };
  auto vector = dyn_cast<VectorType>(fast.getType());
  if (!vector)
    return arith::SelectOp::create(
        rewriter, loc, rare, call(rewriter, op->getOperands(), fast.getType()),
        fast);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value lanes =
      arith::ConstantIndexOp::create(rewriter, loc, vector.getNumElements());
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  auto loop = scf::ForOp::create(
      rewriter, loc, zero, lanes, one, ValueRange{fast},
      [&](OpBuilder &b, Location, Value lane, ValueRange merged) {
        SmallVector<OpFoldResult> at = {lane};
        Value flag = vector::ExtractOp::create(b, loc, rare, at);
        auto pick = scf::IfOp::create(
            b, loc, flag,
            [&](OpBuilder &b, Location) {
              SmallVector<Value> operands;
              for (Value operand : op->getOperands())
                operands.push_back(
                    vector::ExtractOp::create(b, loc, operand, at));
              Value value = call(b, operands, vector.getElementType());
              scf::YieldOp::create(b, loc,
                                   ValueRange{vector::InsertOp::create(
                                       b, loc, value, merged.front(), at)});
            },
            [&](OpBuilder &b, Location) {
              scf::YieldOp::create(b, loc, merged.front());
            });
        scf::YieldOp::create(b, loc, pick.getResults());
      });
  return loop.getResult(0);
}

/// Replaces `op` by `fast`, except in the lanes where `rare` is set, which
/// the C library computes (libraryLanes) in a branch that vectors without
/// such lanes skip.
static void replaceWithLibraryLanes(PatternRewriter &rewriter, Operation *op,
                                    Value rare, Value fast) {
  replaceWithRareLanes(rewriter, op, rare, fast,
                       [&] { return libraryLanes(rewriter, op, rare, fast); });
}

/// Arithmetic on f64 values (scalars or vectors, like `like`) and the i64
/// values of the same shape, for the f64 functions below.
struct F64Builder {
  OpBuilder &b;
  Location loc;
  Type type, intType;

  F64Builder(OpBuilder &b, Location loc, Type like)
      : b(b), loc(loc), type(b.getF64Type()), intType(b.getI64Type()) {
    if (auto vector = dyn_cast<VectorType>(like)) {
      type = vector.clone(type);
      intType = vector.clone(intType);
    }
  }
  Value splat(Type of, TypedAttr attr) {
    if (auto vector = dyn_cast<VectorType>(of))
      attr = DenseElementsAttr::get(vector, attr);
    return arith::ConstantOp::create(b, loc, of, attr);
  }
  Value c(double v) { return splat(type, b.getF64FloatAttr(v)); }
  Value ci(int64_t v) { return splat(intType, b.getI64IntegerAttr(v)); }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value fma(Value x, Value y, Value z) {
    return math::FmaOp::create(b, loc, x, y, z);
  }
  Value cmp(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value select(Value c, Value x, Value y) {
    return arith::SelectOp::create(b, loc, c, x, y);
  }
  Value bits(Value x) { return arith::BitcastOp::create(b, loc, intType, x); }
  Value fromBits(Value x) { return arith::BitcastOp::create(b, loc, type, x); }
  /// x with the low 32 bits of its significand cleared (fdlibm's
  /// SET_LOW_WORD(x, 0)): 21 significant bits, so that products of two
  /// such values are exact.
  Value high(Value x) {
    return fromBits(arith::AndIOp::create(b, loc, bits(x),
                                          ci(int64_t(0xFFFFFFFF00000000ull))));
  }
  /// 2^e for an i64 e of a normal exponent.
  Value powerOfTwo(Value e) {
    return fromBits(arith::ShLIOp::create(
        b, loc, arith::AddIOp::create(b, loc, e, ci(1023)), ci(52)));
  }
  /// y 2^k for an i64 k in [-2044, 2046], in two normal factors: the first
  /// product is exact for y near 1 and the second rounds once, into the
  /// subnormals or to 0 or inf where the result is one.
  Value scaleByPowerOfTwo(Value y, Value k) {
    Value k1 = arith::ShRSIOp::create(b, loc, k, ci(1));
    Value k2 = arith::SubIOp::create(b, loc, k, k1);
    return mul(mul(y, powerOfTwo(k1)), powerOfTwo(k2));
  }
  /// Horner's rule: coefficients from the highest power down.
  Value horner(Value x, llvm::ArrayRef<double> coefficients) {
    Value p = c(coefficients.front());
    for (double k : coefficients.drop_front())
      p = fma(p, x, c(k));
    return p;
  }
};

/// exp(r) - 1 for |r| <= ln(2)/2 in f64: r + r^2 (1/2! + r/3! + ... +
/// r^11/13!), to about 2^-60 of the result; with `plus`, plus + exp(r) - 1
/// rounded once (where plus + r is exact).
static Value expm1Reduced(F64Builder &f, Value r, Value plus = {}) {
  Value q =
      f.horner(r, {1.0 / 6227020800.0, 1.0 / 479001600.0, 1.0 / 39916800.0,
                   1.0 / 3628800.0, 1.0 / 362880.0, 1.0 / 40320.0, 1.0 / 5040.0,
                   1.0 / 720.0, 1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0, 0.5});
  return f.fma(f.mul(r, r), q, plus ? f.add(plus, r) : r);
}

/// x = k ln 2 + r with |r| <= ln(2)/2 (k as an f64 integer): Cody and
/// Waite's reduction with fdlibm's split of ln 2 (k ln2_hi is exact for
/// |k| < 2^20).
static std::pair<Value, Value> reduceByLn2(F64Builder &f, Value x) {
  Value k = math::RoundEvenOp::create(f.b, f.loc,
                                      f.mul(x, f.c(1.4426950408889634074)));
  Value r = f.fma(k, f.c(-6.93147180369123816490e-01), x);
  r = f.fma(k, f.c(-1.90821492927058770002e-10), r);
  return {k, r};
}

/// log x in f64 for a finite x > 0 (other lanes get garbage), fdlibm's
/// algorithm: x = 2^e m with m in [sqrt(1/2), sqrt(2)), f = m - 1,
/// s = f / (2 + f),
///   log x = e ln2_hi - ((f^2/2 - (s (f^2/2 + R(s^2)) + e ln2_lo)) - f)
/// with fdlibm's minimax R. A subnormal x is scaled by 2^54 first (a
/// select, no branch).
static Value logFinite(F64Builder &f, Value x) {
  OpBuilder &b = f.b;
  Location loc = f.loc;
  using P = arith::CmpFPredicate;
  Value tiny = f.cmp(P::OLT, x, f.c(0x1p-1022));
  Value scaled = f.select(tiny, f.mul(x, f.c(0x1p54)), x);
  Value bits = f.bits(scaled);
  Value e = arith::SubIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, f.ci(52)), f.ci(1023));
  Value ef = arith::SIToFPOp::create(b, loc, f.type, e);
  ef = f.select(tiny, f.sub(ef, f.c(54.0)), ef);
  Value m = f.fromBits(arith::OrIOp::create(
      b, loc, arith::AndIOp::create(b, loc, bits, f.ci((int64_t(1) << 52) - 1)),
      f.ci(int64_t(1023) << 52)));
  Value high = f.cmp(P::OGT, m, f.c(1.4142135623730951));
  m = f.select(high, f.mul(m, f.c(0.5)), m);
  ef = f.select(high, f.add(ef, f.c(1.0)), ef);
  Value fm = f.sub(m, f.c(1.0));
  Value hfsq = f.mul(f.mul(fm, fm), f.c(0.5));
  Value s = f.div(fm, f.add(fm, f.c(2.0)));
  Value z = f.mul(s, s);
  Value w = f.mul(z, z);
  Value t1 =
      f.mul(w, f.horner(w, {1.531383769920937332e-01, 2.222219843214978396e-01,
                            3.999999999940941908e-01}));
  Value t2 = f.mul(
      z, f.horner(w, {1.479819860511658591e-01, 1.818357216161805012e-01,
                      2.857142874366239149e-01, 6.666666666666735130e-01}));
  Value inner = f.add(f.mul(s, f.add(hfsq, f.add(t2, t1))),
                      f.mul(ef, f.c(1.90821492927058770002e-10)));
  return f.sub(f.mul(ef, f.c(6.93147180369123816490e-01)),
               f.sub(f.sub(hfsq, inner), fm));
}

/// sin x (or cos x) from sin r and cos r, x = n pi/2 + r: +-sin r or +-cos r
/// by the quadrant q = n mod 4, computed in floating point (exact for
/// |n| < 2^53; no integer conversion of n, which is garbage in the lanes
/// that take the C library).
static Value byQuadrant(F64Builder &f, Value n, Value sinR, Value cosR,
                        bool isSin) {
  using P = arith::CmpFPredicate;
  Value q = f.fma(math::FloorOp::create(f.b, f.loc, f.mul(n, f.c(0.25))),
                  f.c(-4.0), n);
  auto equal = [&](double k) { return f.cmp(P::OEQ, q, f.c(k)); };
  Value odd = arith::OrIOp::create(f.b, f.loc, equal(1.0), equal(3.0));
  Value negative =
      isSin ? f.cmp(P::OGE, q, f.c(2.0))
            : arith::OrIOp::create(f.b, f.loc, equal(1.0), equal(2.0));
  Value value = isSin ? f.select(odd, cosR, sinR) : f.select(odd, sinR, cosR);
  return f.select(negative, arith::NegFOp::create(f.b, f.loc, value), value);
}

/// f32 sin and cos as straight-line vector code, computed in f64 and rounded
/// once (upstream's approximations reduce the argument in f32, which loses
/// the result near multiples of pi/2):
///   x = k pi/2 + r, |r| <= pi/4, k = round(x 2/pi), pi/2 = C1 + C2
///   sin x, cos x = +-sin r or +-cos r by the quadrant k mod 4
/// with r = (x - k C1) - k C2 by fused multiply-adds and Taylor polynomials
/// of r to 1e-11, far below an f32 ulp. For |x| <= 2^20 the reduction is
/// exact to about 2^-100 (k C1 is exact in the fma, k < 2^20). Larger
/// arguments, inf and NaN are rare: a branch that vectors of ordinary
/// values never take computes those lanes with the C library.
template <typename OpTy> struct SinCosF32 : MathPattern<OpTy> {
  using MathPattern<OpTy>::MathPattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!this->takes(op, rewriter.getF32Type()))
      return failure();
    constexpr bool isSin = std::is_same_v<OpTy, math::SinOp>;
    Location loc = op.getLoc();
    Value x = op.getOperand();
    F64Builder f(rewriter, loc, type);
    Value xd = arith::ExtFOp::create(rewriter, loc, f.type, x);
    Value k = math::RoundEvenOp::create(rewriter, loc,
                                        f.mul(xd, f.c(0.63661977236758134308)));
    Value r = f.fma(k, f.c(-1.5707963267948966), xd);
    r = f.fma(k, f.c(-6.123233995736766e-17), r);
    Value r2 = f.mul(r, r);
    // sin r = r + r^3 (-1/3! + r^2 (1/5! - ...)), to r^13.
    Value s =
        f.horner(r2, {1.0 / 6227020800.0, -1.0 / 39916800.0, 1.0 / 362880.0,
                      -1.0 / 5040.0, 1.0 / 120.0, -1.0 / 6.0});
    s = f.fma(f.mul(s, r2), r, r);
    // cos r = 1 - r^2 / 2 + r^4 (1/4! - ...), to r^14.
    Value c =
        f.horner(r2, {-1.0 / 87178291200.0, 1.0 / 479001600.0, -1.0 / 3628800.0,
                      1.0 / 40320.0, -1.0 / 720.0, 1.0 / 24.0, -0.5, 1.0});
    Value result = byQuadrant(f, k, s, c, isSin);
    Value fast = arith::TruncFOp::create(rewriter, loc, type, result);
    ShapedConstants narrow(rewriter, loc, type);
    if (isSin) {
      // sin(-0) = -0 (the reduction gives +0).
      Value zero = arith::CmpFOp::create(
          rewriter, loc, arith::CmpFPredicate::OEQ, x, narrow.f32(0.0f));
      fast = arith::SelectOp::create(rewriter, loc, zero, x, fast);
    }

    // Lanes beyond 2^20, inf and NaN: the C library.
    Value magnitude = math::AbsFOp::create(rewriter, loc, x);
    Value outside =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UGT,
                              magnitude, narrow.f32(0x1p20f));
    replaceWithLibraryLanes(rewriter, op, outside, fast);
    return success();
  }
};

/// Upstream's f32 log reads a subnormal input as the smallest normal one:
/// the numerics contract keeps subnormals. Where an element of the operand
/// is below 2^-126, the log is of a normal one, in straight-line code (a
/// branch per scalar made the 32 lanes of a column reduction's epilogue a
/// control-flow graph of hundreds of blocks, neither vectorized nor quick
/// to compile):
///   log(x) = log(x * 2^24) - 24 ln 2   (the product is exact; ln 2 is
///                                        split so that the first
///                                        subtraction is exact)
struct SubnormalSafeLog : MathPattern<math::LogOp> {
  using MathPattern::MathPattern;

  LogicalResult matchAndRewrite(math::LogOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!takes(op, rewriter.getF32Type()))
      return failure();
    Location loc = op.getLoc();
    Value x = op.getOperand();
    ShapedConstants c(rewriter, loc, type);
    // Zero, negative numbers and NaN are small too: -inf, NaN and NaN less
    // 24 ln 2 are the same.
    Value small = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OLT, x, c.f32(0x1p-126f));
    Value operand = arith::SelectOp::create(
        rewriter, loc, small,
        arith::MulFOp::create(rewriter, loc, x, c.f32(0x1p24f)), x);
    auto log = math::LogOp::create(rewriter, loc, operand);
    log->setAttr(kWrappedAttr, rewriter.getUnitAttr());
    // 24 * ln 2 = hi + lo, hi = 24 * 0x1.62e4p-1 (exact, 2^-16 grid), lo
    // its rest.
    Value hi =
        arith::SubFOp::create(rewriter, loc, log, c.f32(16.635498046875f));
    Value fixed =
        arith::SubFOp::create(rewriter, loc, hi, c.f32(3.4286564e-05f));
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, small, fixed, log);
    return success();
  }
};

/// x^y by C's rules (Annex F) for f64 operands (scalars or vectors):
/// `power(use)` computes |x|^y in the lanes where `use` is set (x finite
/// and not 0, y finite, `bounded`) and any value elsewhere; this adds the
/// sign (negative for a negative x, -0 included, and an odd integer y),
/// 0^y, and NaN for a negative x and a y that is not an integer. Returns
/// the result and the lanes it does not cover (x or y inf or NaN, 0^0,
/// lanes not `bounded`), which the C library computes.
static std::pair<Value, Value>
powByCases(F64Builder &f, Value x, Value y, Value bounded,
           llvm::function_ref<Value(Value)> power) {
  OpBuilder &b = f.b;
  Location loc = f.loc;
  auto all = [&](std::initializer_list<Value> conditions) {
    Value result = *conditions.begin();
    for (Value c : llvm::drop_begin(conditions))
      result = arith::AndIOp::create(b, loc, result, c);
    return result;
  };
  auto any = [&](std::initializer_list<Value> conditions) {
    Value result = *conditions.begin();
    for (Value c : llvm::drop_begin(conditions))
      result = arith::OrIOp::create(b, loc, result, c);
    return result;
  };
  auto notOf = [&](Value condition) -> Value {
    Value yes =
        f.splat(condition.getType(), b.getIntegerAttr(b.getI1Type(), 1));
    return arith::XOrIOp::create(b, loc, condition, yes);
  };
  using P = arith::CmpFPredicate;
  Value ax = math::AbsFOp::create(b, loc, x);
  Value inf = f.c(std::numeric_limits<double>::infinity());
  Value zero = f.c(0.0);
  Value yInteger = f.cmp(P::OEQ, math::FloorOp::create(b, loc, y), y);
  Value halfY = f.mul(y, f.c(0.5));
  Value yOdd = all(
      {yInteger, f.cmp(P::ONE, math::FloorOp::create(b, loc, halfY), halfY)});
  Value xFinite = f.cmp(P::OLT, ax, inf);
  Value yFinite = f.cmp(P::OLT, math::AbsFOp::create(b, loc, y), inf);
  Value xZero = f.cmp(P::OEQ, x, zero);
  Value noReal = all({f.cmp(P::OLT, x, zero), notOf(yInteger)});
  Value covered = all({xFinite, yFinite,
                       any({all({f.cmp(P::OGT, x, zero), bounded}),
                            all({f.cmp(P::OLT, x, zero), yInteger, bounded}),
                            noReal, all({xZero, f.cmp(P::ONE, y, zero)})})});
  Value magnitude =
      f.select(xZero, f.select(f.cmp(P::OGT, y, zero), zero, inf),
               power(all({covered, notOf(xZero), notOf(noReal)})));
  Value xSign = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                      f.bits(x), f.ci(0));
  Value result = f.select(all({xSign, yOdd}),
                          arith::NegFOp::create(b, loc, magnitude), magnitude);
  result =
      f.select(noReal, f.c(std::numeric_limits<double>::quiet_NaN()), result);
  return {result, notOf(covered)};
}

/// f32 pow in f64, rounded once: |x|^y = exp(y log |x|) with logFinite,
/// reduceByLn2 and expm1Reduced, and the special cases of powByCases.
/// f64 holds every f32 exactly (subnormals as normal numbers) and the
/// product t = y log |x| to about 1e-15 of itself, so the rounding to f32
/// is the only one that matters, and it also gives f32's overflow to inf
/// and subnormal results (t is within +-150, so 2^k is a normal f64).
/// Lanes with |t| > 150 take the C library.
struct PowF32 : MathPattern<math::PowFOp> {
  using MathPattern::MathPattern;

  LogicalResult matchAndRewrite(math::PowFOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!takes(op, rewriter.getF32Type()))
      return failure();
    F64Builder f(rewriter, op.getLoc(), type);
    Location loc = f.loc;
    Value x = arith::ExtFOp::create(rewriter, loc, f.type, op.getLhs());
    Value y = arith::ExtFOp::create(rewriter, loc, f.type, op.getRhs());
    Value t = f.mul(y, logFinite(f, math::AbsFOp::create(rewriter, loc, x)));
    Value bounded = f.cmp(arith::CmpFPredicate::OLE,
                          math::AbsFOp::create(rewriter, loc, t), f.c(150.0));
    auto [result, outside] = powByCases(f, x, y, bounded, [&](Value use) {
      // exp t, with t = 0 in the lanes that do not use it.
      auto [k, r] = reduceByLn2(f, f.select(use, t, f.c(0.0)));
      Value ki = exponentToInt(rewriter, loc, f.intType, k);
      return f.mul(f.add(expm1Reduced(f, r), f.c(1.0)), f.powerOfTwo(ki));
    });
    Value fast = arith::TruncFOp::create(rewriter, loc, type, result);
    replaceWithLibraryLanes(rewriter, op, outside, fast);
    return success();
  }
};

/// log2 of a finite a > 0 as t1 + t2, t1 with 21 significant bits (so that
/// y t1 splits exactly), to about 2^-70 of the result: fdlibm's e_pow.
/// a = 2^n m with m in [sqrt(3)/2, sqrt(3)) and b = 1 below sqrt(3/2), 1.5
/// above; s = (m - b) / (m + b) in two pieces, and
///   log2 m = log2 b + 2/(3 ln 2) (3 s + s^3 + s^5 L(s^2)),
/// with the leading terms carried as high and low parts. A subnormal a is
/// scaled by 2^53 first (a select).
static std::pair<Value, Value> log2Parts(F64Builder &f, Value a) {
  OpBuilder &b = f.b;
  Location loc = f.loc;
  using P = arith::CmpFPredicate;
  auto constant = [&](uint64_t bits) {
    return f.c(llvm::bit_cast<double>(bits));
  };
  Value tiny = f.cmp(P::OLT, a, f.c(0x1p-1022));
  Value scaled = f.select(tiny, f.mul(a, f.c(0x1p53)), a);
  Value bits = f.bits(scaled);
  Value n = arith::SIToFPOp::create(
      b, loc, f.type,
      arith::SubIOp::create(
          b, loc, arith::ShRUIOp::create(b, loc, bits, f.ci(52)), f.ci(1023)));
  n = f.select(tiny, f.sub(n, f.c(53.0)), n);
  Value m = f.fromBits(arith::OrIOp::create(
      b, loc, arith::AndIOp::create(b, loc, bits, f.ci((int64_t(1) << 52) - 1)),
      f.ci(int64_t(1023) << 52)));
  // fdlibm's bounds: high words 0x3FF3988E (sqrt(3/2)) and 0x3FFBB67A
  // (sqrt(3)).
  Value upper = f.cmp(P::OGE, m, constant(0x3FFBB67A00000000ull));
  Value middle = arith::AndIOp::create(
      b, loc, f.cmp(P::OGE, m, constant(0x3FF3988F00000000ull)),
      f.cmp(P::OLT, m, constant(0x3FFBB67A00000000ull)));
  m = f.select(upper, f.mul(m, f.c(0.5)), m);
  n = f.select(upper, f.add(n, f.c(1.0)), n);
  Value base = f.select(middle, f.c(1.5), f.c(1.0));
  // log2(1.5) = dpHigh + dpLow.
  Value dpHigh = f.select(middle, f.c(5.84962487220764160156e-01), f.c(0.0));
  Value dpLow = f.select(middle, f.c(1.35003920212974897128e-08), f.c(0.0));

  // s = sHigh + sLow = (m - b) / (m + b); m + b = tHigh + tLow exactly.
  Value u = f.sub(m, base);
  Value v = f.div(f.c(1.0), f.add(m, base));
  Value s = f.mul(u, v);
  Value sHigh = f.high(s);
  Value tHigh = f.high(f.add(m, base));
  Value tLow = f.sub(m, f.sub(tHigh, base));
  Value sLow =
      f.mul(v, f.sub(f.sub(u, f.mul(sHigh, tHigh)), f.mul(sHigh, tLow)));
  // 3 s + s^3 + s^5 L(s^2) = (sHigh + sLow) (3 + s^2 + r) in parts.
  Value s2 = f.mul(s, s);
  Value r = f.mul(
      f.mul(s2, s2),
      f.horner(s2, {2.06975017800338417784e-01, 2.30660745775561754067e-01,
                    2.72728123808534006489e-01, 3.33333329818377432918e-01,
                    4.28571428578550184252e-01, 5.99999999999994648725e-01}));
  r = f.add(r, f.mul(sLow, f.add(sHigh, s)));
  Value sh2 = f.mul(sHigh, sHigh);
  tHigh = f.high(f.add(f.add(f.c(3.0), sh2), r));
  tLow = f.sub(r, f.sub(f.sub(tHigh, f.c(3.0)), sh2));
  u = f.mul(sHigh, tHigh);
  v = f.add(f.mul(sLow, tHigh), f.mul(tLow, s));
  Value pHigh = f.high(f.add(u, v));
  Value pLow = f.sub(v, f.sub(pHigh, u));
  // Times 2/(3 ln 2) = cpHigh + cpLow.
  Value cp = f.c(9.61796693925975554329e-01);
  Value zHigh = f.mul(f.c(9.61796700954437255859e-01), pHigh);
  Value zLow = f.add(
      f.add(f.mul(f.c(-7.02846165095275826516e-09), pHigh), f.mul(pLow, cp)),
      dpLow);
  Value t1 = f.high(f.add(f.add(f.add(zHigh, zLow), dpHigh), n));
  Value t2 = f.sub(zLow, f.sub(f.sub(f.sub(t1, n), dpHigh), zHigh));
  return {t1, t2};
}

/// f64 pow as straight-line code, fdlibm's e_pow: log2 |x| = t1 + t2
/// (log2Parts), y log2 |x| = pHigh + pLow with y split like t1 (pHigh
/// exact), = n + f with n an integer and |f| <= 1/2, and
///   |x|^y = 2^n exp(f ln 2)
/// by fdlibm's exp kernel with f ln 2 in two parts, the scale in two steps
/// (scaleByPowerOfTwo: subnormal results rounded once). y log2 |x| beyond
/// +-1100 is clamped there (the result is inf or 0 either way). Lanes with
/// |y| > 2^31 (where fdlibm takes another path) take the C library, as do
/// the other cases powByCases leaves out.
struct PowF64 : MathPattern<math::PowFOp> {
  using MathPattern::MathPattern;

  LogicalResult matchAndRewrite(math::PowFOp op,
                                PatternRewriter &rewriter) const override {
    if (!takes(op, rewriter.getF64Type()))
      return failure();
    F64Builder f(rewriter, op.getLoc(), op.getType());
    Location loc = f.loc;
    using P = arith::CmpFPredicate;
    Value x = op.getLhs(), y = op.getRhs();
    Value bounded =
        f.cmp(P::OLE, math::AbsFOp::create(rewriter, loc, y), f.c(0x1p31));
    auto [result, outside] = powByCases(f, x, y, bounded, [&](Value use) {
      Value a = f.select(use, math::AbsFOp::create(rewriter, loc, x), f.c(1.0));
      Value ys = f.select(use, y, f.c(0.0));
      auto [t1, t2] = log2Parts(f, a);
      Value y1 = f.high(ys);
      Value pLow = f.add(f.mul(f.sub(ys, y1), t1), f.mul(ys, t2));
      Value pHigh = f.mul(y1, t1);
      Value z = f.add(pLow, pHigh);
      Value limit = f.c(1100.0);
      Value over = f.cmp(P::OGT, z, limit);
      Value under = f.cmp(P::OLT, z, f.c(-1100.0));
      pHigh = f.select(over, limit, f.select(under, f.c(-1100.0), pHigh));
      pLow = f.select(arith::OrIOp::create(rewriter, loc, over, under),
                      f.c(0.0), pLow);
      Value n = math::RoundEvenOp::create(rewriter, loc, pHigh);
      pHigh = f.sub(pHigh, n);
      // f ln 2 = z + w, with ln 2 = lg2High + lg2Low, lg2High of 21 bits.
      Value lg2 = f.c(6.93147180559945286227e-01);
      Value t = f.high(f.add(pLow, pHigh));
      Value u = f.mul(t, f.c(6.93147182464599609375e-01));
      Value v = f.add(f.mul(f.sub(pLow, f.sub(t, pHigh)), lg2),
                      f.mul(t, f.c(-1.90465429995776804525e-09)));
      z = f.add(u, v);
      Value w = f.sub(v, f.sub(z, u));
      // exp(z + w) by fdlibm's rational form.
      Value zz = f.mul(z, z);
      Value c = f.sub(z, f.mul(zz, f.horner(zz, {4.13813679705723846039e-08,
                                                 -1.65339022054652515390e-06,
                                                 6.61375632143793436117e-05,
                                                 -2.77777777770155933842e-03,
                                                 1.66666666666666019037e-01})));
      Value r =
          f.sub(f.div(f.mul(z, c), f.sub(c, f.c(2.0))), f.add(w, f.mul(z, w)));
      Value e = f.sub(f.c(1.0), f.sub(r, z));
      Value ni = exponentToInt(rewriter, loc, f.intType, n);
      return f.scaleByPowerOfTwo(e, ni);
    });
    replaceWithLibraryLanes(rewriter, op, outside, result);
    return success();
  }
};

/// f64 exp as straight-line code, subnormal results kept: as ExpF32, with
/// x clamped to [-746, 709.8] (below, the result rounds to 0; above, it is
/// inf), exp(r) = 1 + expm1Reduced(r), and the scale 2^k applied as two
/// normal factors. Measured within 1 ulp (docs/accuracy.md).
static Value expF64(F64Builder &f, Value x) {
  using P = arith::CmpFPredicate;
  Value low = f.c(-746.0), high = f.c(709.8);
  x = f.select(f.cmp(P::OLT, x, low), low, x);
  x = f.select(f.cmp(P::OGT, x, high), high, x);
  auto [k, r] = reduceByLn2(f, x);
  Value y = f.add(expm1Reduced(f, r), f.c(1.0));
  Value ki = exponentToInt(f.b, f.loc, f.intType, k);
  return f.scaleByPowerOfTwo(y, ki);
}

struct ExpF64 : MathPattern<math::ExpOp> {
  using MathPattern::MathPattern;

  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    if (!takes(op, rewriter.getF64Type()))
      return failure();
    F64Builder f(rewriter, op.getLoc(), op.getType());
    rewriter.replaceOp(op, expF64(f, op.getOperand()));
    return success();
  }
};

/// f64 log as straight-line code (logFinite); 0, negative numbers, inf and
/// NaN are selected at the end.
struct LogF64 : MathPattern<math::LogOp> {
  using MathPattern::MathPattern;

  LogicalResult matchAndRewrite(math::LogOp op,
                                PatternRewriter &rewriter) const override {
    if (!takes(op, rewriter.getF64Type()))
      return failure();
    F64Builder f(rewriter, op.getLoc(), op.getType());
    using P = arith::CmpFPredicate;
    Value x = op.getOperand();
    Value result = logFinite(f, x);
    double inf = std::numeric_limits<double>::infinity();
    result = f.select(f.cmp(P::OEQ, x, f.c(0.0)), f.c(-inf), result);
    result = f.select(f.cmp(P::OEQ, x, f.c(inf)), x, result);
    // Negative numbers and NaN: NaN.
    result = f.select(f.cmp(P::UGE, x, f.c(0.0)), result,
                      f.c(std::numeric_limits<double>::quiet_NaN()));
    rewriter.replaceOp(op, f.select(f.cmp(P::UNO, x, x), x, result));
    return success();
  }
};

/// f64 tanh as straight-line code, fdlibm's formulas on a = |x| with one
/// expm1 (k of at most 64, so 2^k (1 + e) - 1 = (2^k - 1) + 2^k e rounds
/// once):
///   a >= 1: t = expm1(2a), tanh = 1 - 2 / (t + 2)
///   a <  1: t = expm1(-2a), tanh = -t / (t + 2)
/// with the operand's sign, x itself below 2^-28 (-0 too) and +-1 above 22.
struct TanhF64 : MathPattern<math::TanhOp> {
  using MathPattern::MathPattern;

  LogicalResult matchAndRewrite(math::TanhOp op,
                                PatternRewriter &rewriter) const override {
    if (!takes(op, rewriter.getF64Type()))
      return failure();
    F64Builder f(rewriter, op.getLoc(), op.getType());
    using P = arith::CmpFPredicate;
    Value x = op.getOperand();
    Value a = math::AbsFOp::create(rewriter, f.loc, x);
    Value large = f.cmp(P::OGE, a, f.c(1.0));
    // expm1(y), y = +-2a in [-2, 44] (a clamped to 22).
    Value ac = f.select(f.cmp(P::OGT, a, f.c(22.0)), f.c(22.0), a);
    Value y = f.mul(ac, f.select(large, f.c(2.0), f.c(-2.0)));
    auto [k, r] = reduceByLn2(f, y);
    Value e = expm1Reduced(f, r);
    Value ki = exponentToInt(rewriter, f.loc, f.intType, k);
    Value scale = f.powerOfTwo(ki);
    Value t = f.add(f.sub(scale, f.c(1.0)), f.mul(scale, e));
    Value q = f.div(
        f.select(large, f.c(2.0), arith::NegFOp::create(rewriter, f.loc, t)),
        f.add(t, f.c(2.0)));
    Value z = f.select(large, f.sub(f.c(1.0), q), q);
    z = f.select(f.cmp(P::OGT, a, f.c(22.0)), f.c(1.0), z);
    Value signed_ = math::CopySignOp::create(rewriter, f.loc, z, x);
    // Below 2^-28 (and NaN): x itself.
    rewriter.replaceOp(op,
                       f.select(f.cmp(P::ULT, a, f.c(0x1p-28)), x, signed_));
    return success();
  }
};

/// e^x - 1 in f64 as straight-line code: x clamped to [-40, 709.8] (below,
/// the result rounds to -1; above, it is inf), x = k ln 2 + r and
/// e = expm1Reduced(r), and 2^k (1 + e) - 1 as
///   k <= 0: (2^k - 1) + 2^k e        (2^k - 1 exact; one rounding)
///   k >= 1: ((1 - 2^-k) + e) 2^k     (1 - 2^-k exact up to k = 53, and
///                                     added to r inside e's last step: one
///                                     rounding where the other form
///                                     cancels; two normal factors)
/// and x itself below 2^-54 (-0 too). NaN passes the clamps (k is 0 there).
static Value expm1F64(F64Builder &f, Value x) {
  using P = arith::CmpFPredicate;
  OpBuilder &b = f.b;
  Location loc = f.loc;
  Value low = f.c(-40.0), high = f.c(709.8);
  Value xc = f.select(f.cmp(P::OLT, x, low), low, x);
  xc = f.select(f.cmp(P::OGT, xc, high), high, xc);
  auto [k, r] = reduceByLn2(f, xc);
  Value e = expm1Reduced(f, r);
  Value ki = exponentToInt(b, loc, f.intType, k);
  Value positive = f.cmp(P::OGE, k, f.c(1.0));
  // k in [-58, 0] for the first form, [-60, -1] for 2^-k of the second:
  // normal numbers either way.
  Value scale = f.powerOfTwo(
      arith::SelectOp::create(b, loc, positive, f.ci(0), ki).getResult());
  Value below = f.add(f.sub(scale, f.c(1.0)), f.mul(scale, e));
  Value inverse = f.powerOfTwo(arith::SubIOp::create(
      b, loc, f.ci(0),
      arith::MinSIOp::create(
          b, loc, arith::MaxSIOp::create(b, loc, ki, f.ci(1)), f.ci(60))));
  Value above =
      f.scaleByPowerOfTwo(expm1Reduced(f, r, f.sub(f.c(1.0), inverse)), ki);
  Value result = f.select(positive, above, below);
  Value a = math::AbsFOp::create(b, loc, x);
  return f.select(f.cmp(P::OLT, a, f.c(0x1p-54)), x, result);
}

/// ln(1 + x) in f64 as straight-line code: u = 1 + x rounded, and
///   log1p(x) = log u + (x - (u - 1)) / u
/// where x - (u - 1), the rounding error of u, is exact (u - 1 is: by
/// Sterbenz's lemma for u in [1/2, 2], and 1 + x is exact below it); the
/// correction, at most half an ulp of u over u, rounds at 2^-53 of itself,
/// far below an ulp of the result.
/// x itself below 2^-54 (-0 too), -inf at -1, NaN below -1 and for NaN,
/// inf at inf.
static Value log1pF64(F64Builder &f, Value x) {
  using P = arith::CmpFPredicate;
  double inf = std::numeric_limits<double>::infinity();
  Value one = f.c(1.0);
  Value u = f.add(x, one);
  // log u for u > 0 finite; u = 1 in the other lanes, whose results are
  // selected below.
  Value ordinary = f.cmp(P::OGT, u, f.c(0.0));
  ordinary =
      arith::AndIOp::create(f.b, f.loc, ordinary, f.cmp(P::OLT, u, f.c(inf)));
  Value us = f.select(ordinary, u, one);
  Value correction = f.div(f.sub(x, f.sub(us, one)), us);
  Value result = f.add(logFinite(f, us), correction);
  result = f.select(f.cmp(P::OEQ, x, f.c(-1.0)), f.c(-inf), result);
  result = f.select(f.cmp(P::OEQ, x, f.c(inf)), x, result);
  // Below -1 and NaN: NaN.
  result = f.select(f.cmp(P::UGE, x, f.c(-1.0)), result,
                    f.c(std::numeric_limits<double>::quiet_NaN()));
  Value a = math::AbsFOp::create(f.b, f.loc, x);
  result = f.select(f.cmp(P::OLT, a, f.c(0x1p-54)), x, result);
  return f.select(f.cmp(P::UNO, x, x), x, result);
}

/// expm1 and log1p (`compute`, one of the two above) of f64 and of f32,
/// computed in f64 and rounded once more for f32 (within 2^-52 of the f64
/// result before the rounding: wrong only where f32's halfway point is
/// that close).
template <typename OpTy, Value (*compute)(F64Builder &, Value)>
struct InF64 : MathPattern<OpTy> {
  using MathPattern<OpTy>::MathPattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    bool f32 = this->takes(op, rewriter.getF32Type());
    if (!f32 && !this->takes(op, rewriter.getF64Type()))
      return failure();
    F64Builder f(rewriter, op.getLoc(), type);
    Value x = op.getOperand();
    if (f32)
      x = arith::ExtFOp::create(rewriter, f.loc, f.type, x);
    Value result = compute(f, x);
    if (f32)
      result = arith::TruncFOp::create(rewriter, f.loc, type, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// f64 sin and cos as straight-line code for |x| < 2^19 pi (n < 2^20),
/// fdlibm's algorithm:
///   x = n pi/2 + (y0 + y1): its medium-range reduction with 33-bit pieces
///   of pi/2, all three steps always taken (so no branch on cancellation)
///   sin, cos = +-__kernel_sin(y0, y1) or +-__kernel_cos(y0, y1) by n mod 4
/// Larger arguments, inf and NaN take the C library in a branch that
/// ordinary vectors skip.
template <typename OpTy> struct SinCosF64 : MathPattern<OpTy> {
  using MathPattern<OpTy>::MathPattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!this->takes(op, rewriter.getF64Type()))
      return failure();
    constexpr bool isSin = std::is_same_v<OpTy, math::SinOp>;
    F64Builder f(rewriter, op.getLoc(), type);
    Location loc = f.loc;
    using P = arith::CmpFPredicate;
    Value x = op.getOperand();
    Value n = math::RoundEvenOp::create(
        rewriter, loc, f.mul(x, f.c(6.36619772367581382433e-01)));
    // r = x - n pio2_1 is exact; then two more pieces, each with the
    // rounding error of its subtraction carried in w.
    Value r = f.sub(x, f.mul(n, f.c(1.57079632673412561417e+00)));
    Value w;
    for (auto [piece, tail] :
         {std::pair{6.07710050630396597660e-11, 2.02226624879595063154e-21},
          std::pair{2.02226624871116645580e-21, 8.47842766036889956997e-32}}) {
      Value t = r;
      w = f.mul(n, f.c(piece));
      r = f.sub(t, w);
      w = f.sub(f.mul(n, f.c(tail)), f.sub(f.sub(t, r), w));
    }
    Value y0 = f.sub(r, w);
    Value y1 = f.sub(f.sub(r, y0), w);

    // __kernel_sin(y0, y1).
    Value z = f.mul(y0, y0);
    Value v = f.mul(z, y0);
    Value sr =
        f.horner(z, {1.58969099521155010221e-10, -2.50507602534068634195e-08,
                     2.75573137070700676789e-06, -1.98412698298579493134e-04,
                     8.33333333332248946124e-03});
    Value sinY = f.sub(
        y0, f.sub(f.sub(f.mul(z, f.sub(f.mul(f.c(0.5), y1), f.mul(v, sr))), y1),
                  f.mul(v, f.c(-1.66666666666666324348e-01))));
    // __kernel_cos(y0, y1).
    Value cr = f.mul(
        z,
        f.horner(z, {-1.13596475577881948265e-11, 2.08757232129817482790e-09,
                     -2.75573143513906633035e-07, 2.48015872894767294178e-05,
                     -1.38888888888741095749e-03, 4.16666666666666019037e-02}));
    Value ay = math::AbsFOp::create(rewriter, loc, y0);
    // qx: 0 below 0.3, 0.28125 above 0.78125, else |y0| / 4 cut to its
    // high 32 bits.
    Value quarter = f.fromBits(
        arith::AndIOp::create(rewriter, loc, f.bits(f.mul(ay, f.c(0.25))),
                              f.ci(int64_t(0xFFFFFFFF00000000ull))));
    Value qx = f.select(
        f.cmp(P::OLT, ay, f.c(0.3)), f.c(0.0),
        f.select(f.cmp(P::OGT, ay, f.c(0.78125)), f.c(0.28125), quarter));
    Value hz = f.sub(f.mul(f.c(0.5), z), qx);
    Value cosY = f.sub(f.sub(f.c(1.0), qx),
                       f.sub(hz, f.sub(f.mul(z, cr), f.mul(y0, y1))));

    Value fast = byQuadrant(f, n, sinY, cosY, isSin);
    if (isSin) // sin(-0) = -0.
      fast = f.select(f.cmp(P::OEQ, x, f.c(0.0)), x, fast);

    Value outside = f.cmp(P::UGT, math::AbsFOp::create(rewriter, loc, x),
                          f.c(0x1p19 * 3.14159265358979311600e+00));
    replaceWithLibraryLanes(rewriter, op, outside, fast);
    return success();
  }
};

/// f64 erf as straight-line code, fdlibm's s_erf: its rational
/// approximations on |x| < 0.84375 (x + x R(x^2)), [0.84375, 1.25)
/// (erx + P(s)/Q(s), s = |x| - 1) and [1.25, 6) (1 - erfc x, erfc x =
/// exp(-z^2 - 0.5625) exp((z - x)(z + x) + R(1/x^2)/S(1/x^2)) / x with z
/// = x cut to 21 bits; R and S from one of two sets of coefficients, the
/// other above 1/0.35), and +-1 from 6 on, with the operand's sign. All
/// ranges are computed and one is selected per lane; NaN takes the first.
struct ErfF64 : MathPattern<math::ErfOp> {
  using MathPattern::MathPattern;

  LogicalResult matchAndRewrite(math::ErfOp op,
                                PatternRewriter &rewriter) const override {
    if (!takes(op, rewriter.getF64Type()))
      return failure();
    F64Builder f(rewriter, op.getLoc(), op.getType());
    Location loc = f.loc;
    using P = arith::CmpFPredicate;
    Value x = op.getOperand();
    Value a = math::AbsFOp::create(rewriter, loc, x);

    // |x| < 0.84375 (below 2^-28, x + x 2/sqrt(pi) - x, computed on x 2^64
    // so that a subnormal result rounds once).
    Value x2 = f.mul(x, x);
    Value ratio = f.div(
        f.horner(x2, {-2.37630166566501626084e-05, -5.77027029648944159157e-03,
                      -2.84817495755985104766e-02, -3.25042107247001499370e-01,
                      1.28379167095512558561e-01}),
        f.horner(x2, {-3.96022827877536812320e-06, 1.32494738004321644526e-04,
                      5.08130628187576562776e-03, 6.50222499887672944485e-02,
                      3.97917223959155352819e-01, 1.0}));
    Value scaled = f.mul(x, f.c(0x1p64));
    Value tinyX = f.mul(f.fma(scaled, f.c(1.28379167095512558561e-01), scaled),
                        f.c(0x1p-64));
    Value small = f.select(f.cmp(P::OLT, a, f.c(0x1p-28)), tinyX,
                           f.add(x, f.mul(x, ratio)));

    // [0.84375, 1.25).
    Value s = f.sub(a, f.c(1.0));
    Value middle = f.add(
        f.c(8.45062911510467529297e-01),
        f.div(
            f.horner(s,
                     {-2.16637559486879084300e-03, 3.54783043256182359371e-02,
                      -1.10894694282396677476e-01, 3.18346619901161753674e-01,
                      -3.72207876035701323847e-01, 4.14856118683748331666e-01,
                      -2.36211856075265944077e-03}),
            f.horner(s, {1.19844998467991074170e-02, 1.36370839120290507362e-02,
                         1.26171219808761642112e-01, 7.18286544141962662868e-02,
                         5.40397917702171048937e-01, 1.06420880400844228286e-01,
                         1.0})));

    // [1.25, 6): the coefficients of [1.25, 1/0.35) or [1/0.35, 6), the
    // second set padded with a leading 0.
    Value near = f.cmp(P::OLT, a, f.c(1.0 / 0.35));
    auto pick = [&](llvm::ArrayRef<double> first, llvm::ArrayRef<double> second,
                    Value at) {
      Value p = f.select(near, f.c(first[0]), f.c(second[0]));
      for (auto [k1, k2] : llvm::drop_begin(llvm::zip_equal(first, second)))
        p = f.fma(p, at, f.select(near, f.c(k1), f.c(k2)));
      return p;
    };
    Value ac = f.select(f.cmp(P::OGE, a, f.c(1.25)), a, f.c(1.25));
    Value w = f.div(f.c(1.0), f.mul(ac, ac));
    Value rs = f.div(
        pick({-9.81432934416914548592e+00, -8.12874355063065934246e+01,
              -1.84605092906711035994e+02, -1.62396669462573470355e+02,
              -6.23753324503260060396e+01, -1.05586262253232909814e+01,
              -6.93858572707181764372e-01, -9.86494403484714822705e-03},
             {0.0, -4.83519191608651397019e+02, -1.02509513161107724954e+03,
              -6.37566443368389627722e+02, -1.60636384855821916062e+02,
              -1.77579549177547519889e+01, -7.99283237680523006574e-01,
              -9.86494292470009928597e-03},
             w),
        pick({-6.04244152148580987438e-02, 6.57024977031928170135e+00,
              1.08635005541779435134e+02, 4.29008140027567833386e+02,
              6.45387271733267880336e+02, 4.34565877475229228821e+02,
              1.37657754143519042600e+02, 1.96512716674392571292e+01, 1.0},
             {0.0, -2.24409524465858183362e+01, 4.74528541206955367215e+02,
              2.55305040643316442583e+03, 3.19985821950859553908e+03,
              1.53672958608443695994e+03, 3.25792512996573918826e+02,
              3.03380607434824582924e+01, 1.0},
             w));
    Value z = f.high(ac);
    Value erfc =
        f.div(f.mul(expF64(f, f.sub(f.c(-0.5625), f.mul(z, z))),
                    expF64(f, f.add(f.mul(f.sub(z, ac), f.add(z, ac)), rs))),
              ac);
    Value large = f.select(
        f.cmp(P::OLT, a, f.c(1.25)), middle,
        f.select(f.cmp(P::OLT, a, f.c(6.0)), f.sub(f.c(1.0), erfc), f.c(1.0)));
    large = math::CopySignOp::create(rewriter, loc, large, x);
    rewriter.replaceOp(op,
                       f.select(f.cmp(P::ULT, a, f.c(0.84375)), small, large));
    return success();
  }
};

/// Upstream's f32 erf gives +0 for -0; erf is odd, so its sign is the
/// operand's.
struct ErfSign : MathPattern<math::ErfOp> {
  using MathPattern::MathPattern;

  LogicalResult matchAndRewrite(math::ErfOp op,
                                PatternRewriter &rewriter) const override {
    if (!takes(op, rewriter.getF32Type()))
      return failure();
    auto inner = math::ErfOp::create(rewriter, op.getLoc(), op.getOperand());
    inner->setAttr(kWrappedAttr, rewriter.getUnitAttr());
    rewriter.replaceOpWithNewOp<math::CopySignOp>(op, inner, op.getOperand());
    return success();
  }
};

/// The functions whose f32 form the cpu target computes with upstream's
/// polynomial approximations (fuse-math-to-libm's `polynomials`).
bool isApproximated(StringRef name) {
  return llvm::is_contained(
      {math::ExpOp::getOperationName(), math::LogOp::getOperationName(),
       math::TanhOp::getOperationName(), math::ErfOp::getOperationName()},
      name);
}

/// f32 to bf16 as integer arithmetic, the bits LLVM's own expansion gives
/// (TargetLowering::expandFP_ROUND: rounded to nearest even; a NaN keeps
/// its sign and payload's top bits, made quiet). x86 without AVX512-BF16
/// (which the cpu target does not use: the same code on every host)
/// expands a vector's conversion lane by lane: a pow of 128 bf16 lanes was
/// thousands of instructions in one block, seconds in LLVM's scheduler.
struct TruncF32ToBF16 : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getIn();
    if (!getElementTypeOrSelf(x).isF32() ||
        !getElementTypeOrSelf(op.getType()).isBF16())
      return failure();
    Location loc = op.getLoc();
    ShapedConstants c(rewriter, loc, x.getType());
    auto constant = [&](int32_t value) { return c.i32(value); };
    Value bits = arith::BitcastOp::create(rewriter, loc, c.intType, x);
    Value nan =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNO, x, x);
    Value quiet = arith::OrIOp::create(rewriter, loc, bits, constant(0x400000));
    Value lsb = arith::AndIOp::create(
        rewriter, loc,
        arith::ShRUIOp::create(rewriter, loc, bits, constant(16)), constant(1));
    Value rounded = arith::AddIOp::create(
        rewriter, loc, bits,
        arith::AddIOp::create(rewriter, loc, constant(0x7fff), lsb));
    Value chosen = arith::SelectOp::create(rewriter, loc, nan, quiet, rounded);
    Value high = arith::ShRUIOp::create(rewriter, loc, chosen, constant(16));
    Value half = arith::TruncIOp::create(rewriter, loc, c.integer(16), high);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), half);
    return success();
  }
};

/// bf16 to f32: the bits shifted into the top half (exact; a NaN as it
/// is), as LLVM's expansion, without its lane-by-lane vectors.
struct ExtBF16ToF32 : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getIn();
    if (!getElementTypeOrSelf(x).isBF16() ||
        !getElementTypeOrSelf(op.getType()).isF32())
      return failure();
    Location loc = op.getLoc();
    ShapedConstants c(rewriter, loc, x.getType());
    Value half = arith::BitcastOp::create(rewriter, loc, c.integer(16), x);
    Value wide = arith::ExtUIOp::create(rewriter, loc, c.intType, half);
    Value shifted = arith::ShLIOp::create(rewriter, loc, wide, c.i32(16));
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), shifted);
    return success();
  }
};

struct FuseMathToLibmPass : fuse::impl::FuseMathToLibmBase<FuseMathToLibmPass> {
  using FuseMathToLibmBase::FuseMathToLibmBase;

  void runOnOperation() override {
    if (polynomials) {
      RewritePatternSet conversions(&getContext());
      conversions.add<TruncF32ToBF16, ExtBF16ToF32>(&getContext());
      if (failed(applyPatternsGreedily(getOperation(), std::move(conversions))))
        return signalPassFailure();
    }
    // Upstream's patterns cover every math op the C library has; only the
    // inexact functions are converted. The approximations match f32 only
    // and win over the calls.
    RewritePatternSet patterns(&getContext());
    if (polynomials) {
      patterns
          .add<ExpF32, SubnormalSafeLog, ErfSign, SinCosF32<math::SinOp>,
               SinCosF32<math::CosOp>, PowF32, ExpF64, LogF64, TanhF64,
               SinCosF64<math::SinOp>, SinCosF64<math::CosOp>, PowF64, ErfF64,
               InF64<math::ExpM1Op, expm1F64>, InF64<math::Log1pOp, log1pF64>>(
              &getContext());
      populateMathPolynomialApproximationPatterns(patterns, isApproximated,
                                                  /*benefit=*/2);
    }
    populateMathToLibmConversionPatterns(patterns);
    if (failed(convertTargetMath(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

/// `intrinsic`, an NVVM intrinsic of f32 operands and result (which LLVM
/// does not fold), of `xs` (of one type), lane by lane for vectors.
static Value callF32Intrinsic(OpBuilder &b, Location loc, StringRef intrinsic,
                              ValueRange xs) {
  auto call = [&](ValueRange lanes) -> Value {
    return LLVM::CallIntrinsicOp::create(b, loc, b.getF32Type(),
                                         b.getStringAttr(intrinsic), lanes)
        .getResult(0);
  };
  auto vector = dyn_cast<VectorType>(xs.front().getType());
  if (!vector)
    return call(xs);
  Value result = ShapedConstants(b, loc, vector).f32(0.0f);
  for (int64_t lane = 0; lane < vector.getNumElements(); ++lane) {
    SmallVector<int64_t> at = {lane};
    SmallVector<Value> elements;
    for (Value x : xs)
      elements.push_back(vector::ExtractOp::create(b, loc, x, at));
    result = vector::InsertOp::create(b, loc, call(elements), result, at);
  }
  return result;
}

/// f32 exp as Triton computes it (fuse-math-to-libdevice's `approx-exp`):
/// the GPU's approximate 2^x, `ex2.approx.f32` (subnormal results kept), of
/// x log2(e), lane by lane for a vector. LLVM does not fold the intrinsic,
/// so the GPU computes it for constants too.
struct ApproxExpF32 : OpRewritePattern<math::ExpOp> {
  ApproxExpF32(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return failure();
    Location loc = op.getLoc();
    ShapedConstants c(rewriter, loc, type);
    Value scaled = arith::MulFOp::create(rewriter, loc, op.getOperand(),
                                         c.f32(1.44269504088896341f));
    rewriter.replaceOp(op, callF32Intrinsic(rewriter, loc,
                                            "llvm.nvvm.ex2.approx.f32",
                                            ValueRange{scaled}));
    return success();
  }
};

/// d / 4 = (1 + e^y) / 4 in f32 for sigmoid's reciprocal, where the exp is
/// read by the sum alone: libdevice's `expf` (2^j exactly, from the bits of
/// j, times 2^f, f = y log2(e) - j in [0, 1), by `ex2.approx.ftz`), with
/// the last product and the quarter in one fma,
///   d / 4 = fma(2^(j - 2), 2^f, 1/4)
/// and j in [-124, 128] (libdevice's: [-126, 126]), so that 2^(j - 2) is a
/// normal number that its bits make. Where e^y is in libdevice's range
/// the fma rounds the same value once, as the product by 2^j (exact) and
/// the fma by 1/4 did; a smaller j bound only makes e^y < 2^-124 smaller
/// again (d / 4 is 1/4 either way), and a larger one keeps d / 4 finite up
/// to 2^128 where e^y overflowed above 2^128: the reciprocal is then below
/// 2^-126, 0 once flushed, as 1 / inf was. NaN and infinities propagate:
/// the saturation takes NaN to 0, f is NaN or +-inf. Ten instructions where
/// the exp and the fma took eleven.
static Value sigmoidQuarterDenominator(OpBuilder &b, Location loc, Value y) {
  ShapedConstants c(b, loc, y.getType());
  // libdevice's constants: log2(e) in two parts, and 1.5 * 2^23, whose
  // last bits take an integer k in [0, 252] added by an fma rounding down.
  const float log2e = llvm::bit_cast<float>(0x3FB8AA3Bu);
  const float log2eLow = llvm::bit_cast<float>(0x32A57060u);
  const float magic = 12582912.0f;
  auto fma = [&](Value x, Value y, Value z) -> Value {
    return math::FmaOp::create(b, loc, x, y, z);
  };
  // k = floor(252 * saturate(y log2(e) / 252 + 124 / 252)), j = k - 124.
  Value t = callF32Intrinsic(
      b, loc, "llvm.nvvm.saturate.f",
      ValueRange{fma(y, c.f32(log2e / 252.0f), c.f32(124.0f / 252.0f))});
  Value biased =
      callF32Intrinsic(b, loc, "llvm.nvvm.fma.rm.f",
                       ValueRange{t, c.f32(252.0f), c.f32(magic + 1.0f)});
  // The low bits of biased are 1 + k: the exponent field of 2^(j - 2).
  Type intType = c.i32(0).getType();
  Value scale = arith::BitcastOp::create(
      b, loc, y.getType(),
      arith::ShLIOp::create(b, loc,
                            arith::BitcastOp::create(b, loc, intType, biased),
                            c.i32(23)));
  Value j = arith::SubFOp::create(b, loc, biased, c.f32(magic + 125.0f));
  Value f = fma(y, c.f32(log2e), arith::NegFOp::create(b, loc, j));
  f = fma(y, c.f32(log2eLow), f);
  Value power =
      callF32Intrinsic(b, loc, "llvm.nvvm.ex2.approx.ftz.f32", ValueRange{f});
  return fma(scale, power, c.f32(0.25f));
}

/// sigmoid's reciprocal 1 / (1 + e^y) in f32 (an `afn` division of 1 by 1
/// plus an exp): its denominator d is at least 1 (or NaN), so the GPU's
/// approximate reciprocal of d / 4 = fma(e^y, 1/4, 1/4), which is in
/// [1/4, 2^126] (or inf, or NaN), is in [2^-126, 4] (or 0, or NaN):
///   1/d = rcp.approx.ftz(fma(e^y, 1/4, 1/4)) / 4
/// The fma rounds 1 + e^y once, as the sum does, then scales it exactly; the
/// ftz form reads and writes normal numbers only, and the last product
/// rounds a subnormal result once: the value of rcp.approx.f32 (within
/// 1 ulp), in three instructions where it takes seven. An exp that the sum
/// alone reads is computed with d / 4 (sigmoidQuarterDenominator), unless
/// exps are Triton's (`approxExp`).
static void rewriteSigmoidReciprocals(gpu::GPUModuleOp module, bool approxExp) {
  SmallVector<std::pair<arith::DivFOp, Value>> divisions;
  auto isOne = [](Value v) { return matchPattern(v, m_OneFloat()); };
  module.walk([&](arith::DivFOp div) {
    auto sum = div.getRhs().getDefiningOp<arith::AddFOp>();
    if (!bitEnumContainsAll(div.getFastmath(), arith::FastMathFlags::afn) ||
        !getElementTypeOrSelf(div.getType()).isF32() || !isOne(div.getLhs()) ||
        !sum)
      return;
    auto isExp = [](Value v) { return v.getDefiningOp<math::ExpOp>(); };
    if (isOne(sum.getLhs()) && isExp(sum.getRhs()))
      divisions.push_back({div, sum.getRhs()});
    else if (isOne(sum.getRhs()) && isExp(sum.getLhs()))
      divisions.push_back({div, sum.getLhs()});
  });
  for (auto [div, exp] : divisions) {
    OpBuilder b(div);
    Location loc = div.getLoc();
    ShapedConstants c(b, loc, div.getType());
    Value quarter = c.f32(0.25f);
    auto expOp = exp.getDefiningOp<math::ExpOp>();
    Operation *sum = *exp.getUsers().begin();
    bool own = !approxExp && exp.hasOneUse() && sum->hasOneUse();
    Value scaled = own ? sigmoidQuarterDenominator(b, loc, expOp.getOperand())
                       : math::FmaOp::create(b, loc, exp, quarter, quarter);
    Value reciprocal = callF32Intrinsic(b, loc, "llvm.nvvm.rcp.approx.ftz.f",
                                        ValueRange{scaled});
    div.replaceAllUsesWith(
        arith::MulFOp::create(b, loc, reciprocal, quarter).getResult());
    div.erase();
    if (own) {
      sum->erase();
      expOp.erase();
    }
  }
}

struct FuseMathToLibdevicePass
    : fuse::impl::FuseMathToLibdeviceBase<FuseMathToLibdevicePass> {
  using FuseMathToLibdeviceBase::FuseMathToLibdeviceBase;

  void runOnOperation() override {
    rewriteSigmoidReciprocals(getOperation(), approxExp);
    // The type converter of convert-gpu-to-nvvm's defaults (64-bit index);
    // kernel math is on floats and vectors of floats, which it keeps.
    LLVMTypeConverter converter(&getContext());
    RewritePatternSet patterns(&getContext());
    if (approxExp)
      patterns.add<ApproxExpF32>(&getContext());
    populateLibDeviceConversionPatterns(converter, patterns, /*benefit=*/1);
    if (failed(convertTargetMath(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
