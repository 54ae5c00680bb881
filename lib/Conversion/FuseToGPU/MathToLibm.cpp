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
struct ExpF32 : OpRewritePattern<math::ExpOp> {
  ExpF32(MLIRContext *context)
      : OpRewritePattern<math::ExpOp>(context, /*benefit=*/3) {}

  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
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

/// Marks a log or erf that SubnormalSafeLog or ErfSign has wrapped, for
/// upstream's approximation to take.
constexpr llvm::StringLiteral kWrappedAttr = "fuse.wrapped";

/// Upstream's f32 log reads a subnormal input as the smallest normal one:
/// the numerics contract keeps subnormals. Where an element of the operand
/// is below 2^-126, the op is computed from a normal one, in a branch that
/// vectors of ordinary values never take:
///   log(x) = log(x * 2^24) - 24 ln 2   (the product is exact; ln 2 is
///                                        split so that the first
///                                        subtraction is exact)
struct SubnormalSafeLog : OpRewritePattern<math::LogOp> {
  SubnormalSafeLog(MLIRContext *context)
      : OpRewritePattern<math::LogOp>(context, /*benefit=*/3) {}

  LogicalResult matchAndRewrite(math::LogOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32() || op->hasAttr(kWrappedAttr))
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
    Value any = small;
    if (isa<VectorType>(type))
      any = vector::ReductionOp::create(rewriter, loc,
                                        vector::CombiningKind::OR, small);
    auto branch = scf::IfOp::create(
        rewriter, loc, any,
        [&](OpBuilder &, Location) {
          Value scaled =
              wrapped(arith::MulFOp::create(rewriter, loc, x, c.f32(0x1p24f)));
          // 24 * ln 2 = hi + lo, hi = 24 * 0x1.62e4p-1 (exact, 2^-16 grid),
          // lo its rest.
          Value hi = arith::SubFOp::create(rewriter, loc, scaled,
                                           c.f32(16.635498046875f));
          Value fixed =
              arith::SubFOp::create(rewriter, loc, hi, c.f32(3.4286564e-05f));
          Value plain = wrapped(x);
          scf::YieldOp::create(rewriter, loc,
                               ValueRange{arith::SelectOp::create(
                                   rewriter, loc, small, fixed, plain)});
        },
        [&](OpBuilder &, Location) {
          scf::YieldOp::create(rewriter, loc, ValueRange{wrapped(x)});
        });
    rewriter.replaceOp(op, branch.getResults());
    return success();
  }
};

/// Upstream's f32 erf gives +0 for -0; erf is odd, so its sign is the
/// operand's.
struct ErfSign : OpRewritePattern<math::ErfOp> {
  ErfSign(MLIRContext *context)
      : OpRewritePattern<math::ErfOp>(context, /*benefit=*/3) {}

  LogicalResult matchAndRewrite(math::ErfOp op,
                                PatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(op.getType()).isF32() ||
        op->hasAttr(kWrappedAttr))
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
      patterns.add<ExpF32, SubnormalSafeLog, ErfSign>(&getContext());
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
