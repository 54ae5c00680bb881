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
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

namespace fuse {
#define GEN_PASS_DEF_FUSEMATHTOLIBDEVICE
#define GEN_PASS_DEF_FUSEMATHTOLIBM
#include "fuse/Conversion/Passes.h.inc"
} // namespace fuse

using namespace mlir;

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
      : builder(builder), loc(loc), floatType(like),
        intType(builder.getI32Type()) {
    if (auto vector = dyn_cast<VectorType>(like))
      intType = vector.clone(intType);
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
    Value k2i = arith::FPToSIOp::create(rewriter, loc, c.intType, k);
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
  /// 2^e for an i64 e of a normal exponent.
  Value powerOfTwo(Value e) {
    return fromBits(arith::ShLIOp::create(
        b, loc, arith::AddIOp::create(b, loc, e, ci(1023)), ci(52)));
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
/// r^11/13!), to about 2^-60 of the result.
static Value expm1Reduced(F64Builder &f, Value r) {
  Value q =
      f.horner(r, {1.0 / 6227020800.0, 1.0 / 479001600.0, 1.0 / 39916800.0,
                   1.0 / 3628800.0, 1.0 / 362880.0, 1.0 / 40320.0, 1.0 / 5040.0,
                   1.0 / 720.0, 1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0, 0.5});
  return f.fma(f.mul(r, r), q, r);
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
/// is below 2^-126, the op is computed from a normal one, in a branch that
/// vectors of ordinary values never take:
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
    auto wrapped = [&](Value operand) -> Value {
      auto inner = math::LogOp::create(rewriter, loc, operand);
      inner->setAttr(kWrappedAttr, rewriter.getUnitAttr());
      return inner;
    };
    // Zero, negative numbers and NaN take the fast branch's answer: -inf,
    // NaN, NaN either way.
    Value small = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OLT, x, c.f32(0x1p-126f));
    Value plain = wrapped(x);
    replaceWithRareLanes(rewriter, op, small, plain, [&]() -> Value {
      Value scaled =
          wrapped(arith::MulFOp::create(rewriter, loc, x, c.f32(0x1p24f)));
      // 24 * ln 2 = hi + lo, hi = 24 * 0x1.62e4p-1 (exact, 2^-16 grid), lo
      // its rest.
      Value hi =
          arith::SubFOp::create(rewriter, loc, scaled, c.f32(16.635498046875f));
      Value fixed =
          arith::SubFOp::create(rewriter, loc, hi, c.f32(3.4286564e-05f));
      return arith::SelectOp::create(rewriter, loc, small, fixed, plain);
    });
    return success();
  }
};

/// f32 pow in f64, rounded once: x^y = exp(y log |x|), negated for a
/// negative x and an odd integer y (C's rules, Annex F), with logFinite,
/// reduceByLn2 and expm1Reduced. f64 holds every f32 exactly (subnormals
/// as normal numbers) and the product t = y log |x| to about 1e-15 of
/// itself, so the rounding to f32 is the only one that matters, and it
/// also gives f32's overflow to inf and subnormal results (t is within
/// +-150, so 2^k is a normal f64). A negative x with a y that is not an
/// integer gives NaN. Lanes the formula does not cover (x or y inf or NaN,
/// 0^0, |t| > 150) take the C library in a branch that ordinary vectors
/// skip.
struct PowF32 : MathPattern<math::PowFOp> {
  using MathPattern::MathPattern;

  LogicalResult matchAndRewrite(math::PowFOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!takes(op, rewriter.getF32Type()))
      return failure();
    F64Builder f(rewriter, op.getLoc(), type);
    Location loc = f.loc;
    auto all = [&](std::initializer_list<Value> conditions) {
      Value result = *conditions.begin();
      for (Value c : llvm::drop_begin(conditions))
        result = arith::AndIOp::create(rewriter, loc, result, c);
      return result;
    };
    auto any = [&](std::initializer_list<Value> conditions) {
      Value result = *conditions.begin();
      for (Value c : llvm::drop_begin(conditions))
        result = arith::OrIOp::create(rewriter, loc, result, c);
      return result;
    };
    auto notOf = [&](Value condition) -> Value {
      Value yes = f.splat(condition.getType(),
                          rewriter.getIntegerAttr(rewriter.getI1Type(), 1));
      return arith::XOrIOp::create(rewriter, loc, condition, yes);
    };
    using P = arith::CmpFPredicate;

    Value x = arith::ExtFOp::create(rewriter, loc, f.type, op.getLhs());
    Value y = arith::ExtFOp::create(rewriter, loc, f.type, op.getRhs());
    Value ax = math::AbsFOp::create(rewriter, loc, x);
    Value inf = f.c(std::numeric_limits<double>::infinity());
    Value zero = f.c(0.0);
    Value t = f.mul(y, logFinite(f, ax));

    // Which lanes the formula covers.
    Value yInteger = f.cmp(P::OEQ, math::FloorOp::create(rewriter, loc, y), y);
    Value halfY = f.mul(y, f.c(0.5));
    Value yOdd = all(
        {yInteger,
         f.cmp(P::ONE, math::FloorOp::create(rewriter, loc, halfY), halfY)});
    Value xFinite = f.cmp(P::OLT, ax, inf);
    Value yFinite = f.cmp(P::OLT, math::AbsFOp::create(rewriter, loc, y), inf);
    Value xZero = f.cmp(P::OEQ, x, zero);
    // A negative base and an exponent that is not an integer: NaN.
    Value noReal = all({f.cmp(P::OLT, x, zero), notOf(yInteger)});
    Value tSmall =
        f.cmp(P::OLE, math::AbsFOp::create(rewriter, loc, t), f.c(150.0));
    Value covered = all({xFinite, yFinite,
                         any({all({f.cmp(P::OGT, x, zero), tSmall}),
                              all({f.cmp(P::OLT, x, zero), yInteger, tSmall}),
                              noReal, all({xZero, f.cmp(P::ONE, y, zero)})})});

    // exp t, with t = 0 in the lanes that do not use it.
    Value tc = f.select(all({covered, notOf(xZero)}), t, zero);
    auto [k, r] = reduceByLn2(f, tc);
    Value ki = arith::FPToSIOp::create(rewriter, loc, f.intType, k);
    Value power = f.mul(f.add(expm1Reduced(f, r), f.c(1.0)), f.powerOfTwo(ki));
    Value magnitude =
        f.select(xZero, f.select(f.cmp(P::OGT, y, zero), zero, inf), power);
    // The sign: negative for a negative x (-0 included) and an odd y.
    Value xSign = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::slt, f.bits(x), f.ci(0));
    Value result =
        f.select(all({xSign, yOdd}),
                 arith::NegFOp::create(rewriter, loc, magnitude), magnitude);
    result =
        f.select(noReal, f.c(std::numeric_limits<double>::quiet_NaN()), result);
    Value fast = arith::TruncFOp::create(rewriter, loc, type, result);
    Value outside = notOf(covered);
    replaceWithLibraryLanes(rewriter, op, outside, fast);
    return success();
  }
};

/// f64 exp as straight-line code, subnormal results kept: as ExpF32, with
/// x clamped to [-746, 709.8] (below, the result rounds to 0; above, it is
/// inf), exp(r) = 1 + expm1Reduced(r), and the scale 2^k applied as two
/// normal factors. Measured within 1 ulp (docs/accuracy.md).
struct ExpF64 : MathPattern<math::ExpOp> {
  using MathPattern::MathPattern;

  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    if (!takes(op, rewriter.getF64Type()))
      return failure();
    F64Builder f(rewriter, op.getLoc(), op.getType());
    using P = arith::CmpFPredicate;
    Value x = op.getOperand();
    Value low = f.c(-746.0), high = f.c(709.8);
    x = f.select(f.cmp(P::OLT, x, low), low, x);
    x = f.select(f.cmp(P::OGT, x, high), high, x);
    auto [k, r] = reduceByLn2(f, x);
    Value y = f.add(expm1Reduced(f, r), f.c(1.0));
    Value ki = arith::FPToSIOp::create(rewriter, f.loc, f.intType, k);
    Value k1 = arith::ShRSIOp::create(rewriter, f.loc, ki, f.ci(1));
    Value k2 = arith::SubIOp::create(rewriter, f.loc, ki, k1);
    rewriter.replaceOp(op, f.mul(f.mul(y, f.powerOfTwo(k1)), f.powerOfTwo(k2)));
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
    Value ki = arith::FPToSIOp::create(rewriter, f.loc, f.intType, k);
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

struct FuseMathToLibmPass : fuse::impl::FuseMathToLibmBase<FuseMathToLibmPass> {
  using FuseMathToLibmBase::FuseMathToLibmBase;

  void runOnOperation() override {
    // Upstream's patterns cover every math op the C library has; only the
    // inexact functions are converted. The approximations match f32 only
    // and win over the calls.
    RewritePatternSet patterns(&getContext());
    if (polynomials) {
      patterns.add<ExpF32, SubnormalSafeLog, ErfSign, SinCosF32<math::SinOp>,
                   SinCosF32<math::CosOp>, PowF32, ExpF64, LogF64, TanhF64,
                   SinCosF64<math::SinOp>, SinCosF64<math::CosOp>>(
          &getContext());
      populateMathPolynomialApproximationPatterns(patterns, isApproximated,
                                                  /*benefit=*/2);
    }
    populateMathToLibmConversionPatterns(patterns);
    if (failed(convertTargetMath(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

struct FuseMathToLibdevicePass
    : fuse::impl::FuseMathToLibdeviceBase<FuseMathToLibdevicePass> {
  void runOnOperation() override {
    // The type converter of convert-gpu-to-nvvm's defaults (64-bit index);
    // kernel math is on floats and vectors of floats, which it keeps.
    LLVMTypeConverter converter(&getContext());
    RewritePatternSet patterns(&getContext());
    populateLibDeviceConversionPatterns(converter, patterns, /*benefit=*/1);
    if (failed(convertTargetMath(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
