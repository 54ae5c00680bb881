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

/// Marks an exp or log that SubnormalSafe has wrapped, for upstream's
/// approximation to take.
constexpr llvm::StringLiteral kWrappedAttr = "fuse.wrapped";

/// Upstream's f32 exp flushes results below the smallest normal number to
/// zero, and its log reads a subnormal input as the smallest normal one:
/// the numerics contract keeps subnormals. Where an element of the operand
/// is in that range (exp: x < -87, near the subnormal results; log:
/// x < 2^-126), the op is computed from a normal one, in a branch that
/// vectors of ordinary values never take:
///   exp(x) = exp(x / 2)^2   (the square rounds once into the subnormals;
///                            the error stays within two ulp of exp's)
///   log(x) = log(x * 2^24) - 24 ln 2   (the product is exact; ln 2 is
///                            split so that the first subtraction is exact)
template <typename OpTy> struct SubnormalSafe : OpRewritePattern<OpTy> {
  SubnormalSafe(MLIRContext *context)
      : OpRewritePattern<OpTy>(context, /*benefit=*/3) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32() || op->hasAttr(kWrappedAttr))
      return failure();
    constexpr bool isExp = std::is_same_v<OpTy, math::ExpOp>;
    Location loc = op.getLoc();
    Value x = op.getOperand();
    auto constant = [&](float value) -> Value {
      Attribute attr = rewriter.getF32FloatAttr(value);
      if (auto vector = dyn_cast<VectorType>(type))
        attr = DenseElementsAttr::get(vector, attr);
      return arith::ConstantOp::create(rewriter, loc, type,
                                       cast<TypedAttr>(attr));
    };
    auto wrapped = [&](Value operand) -> Value {
      auto inner = OpTy::create(rewriter, loc, operand);
      inner->setAttr(kWrappedAttr, rewriter.getUnitAttr());
      return inner;
    };
    // exp: below ln(2^-126) = -87.34 the result is subnormal. log: below 2^-126
    // (zero, negative numbers and NaN take the fast branch's answer:
    // -inf, NaN, NaN either way).
    Value small =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT, x,
                              constant(isExp ? -87.0f : 0x1p-126f));
    Value any = small;
    if (isa<VectorType>(type))
      any = vector::ReductionOp::create(rewriter, loc,
                                        vector::CombiningKind::OR, small);
    auto branch = scf::IfOp::create(
        rewriter, loc, any,
        [&](OpBuilder &, Location) {
          Value fixed;
          if (isExp) {
            Value half = wrapped(
                arith::MulFOp::create(rewriter, loc, x, constant(0.5f)));
            fixed = arith::MulFOp::create(rewriter, loc, half, half);
          } else {
            Value scaled = wrapped(
                arith::MulFOp::create(rewriter, loc, x, constant(0x1p24f)));
            // 24 * ln 2 = hi + lo, hi = 24 * 0x1.62e4p-1 (exact, 2^-16
            // grid), lo its rest.
            Value hi = arith::SubFOp::create(rewriter, loc, scaled,
                                             constant(16.635498046875f));
            fixed = arith::SubFOp::create(rewriter, loc, hi,
                                          constant(3.4286564e-05f));
          }
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
      patterns
          .add<SubnormalSafe<math::ExpOp>, SubnormalSafe<math::LogOp>, ErfSign>(
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
