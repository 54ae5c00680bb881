//===- TargetMath.cpp - no folding of the target's math -------------------===//
//
// The inexact math functions (fuse::isTargetMath) are the target's to
// compute, on constants too: fuse-canonicalize is upstream's canonicalizer
// with folding done by a pattern that skips them, and
// fuse-guard-target-math hides their constant operands behind fuse.opaque
// from every later fold.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "fuse/Dialect/Fuse/Transforms/Passes.h"
#include "fuse/Dialect/Fuse/Utils/Kernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace fuse {
#define GEN_PASS_DEF_FUSECANONICALIZE
#define GEN_PASS_DEF_FUSEGUARDTARGETMATH
#include "fuse/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace fuse

using namespace mlir;

namespace {

/// What the greedy driver's folding does, for every op but a constant and
/// the target's math: fold in place, or replace the op by the values and
/// constants it folds to.
struct FoldExceptTargetMath : RewritePattern {
  explicit FoldExceptTargetMath(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/100, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (op->hasTrait<OpTrait::ConstantLike>() || fuse::isTargetMath(op))
      return failure();
    SmallVector<OpFoldResult> folded;
    rewriter.startOpModification(op);
    if (failed(op->fold(folded))) {
      rewriter.cancelOpModification(op);
      return failure();
    }
    if (folded.empty()) {
      rewriter.finalizeOpModification(op);
      return success();
    }
    rewriter.cancelOpModification(op);
    SmallVector<Value> values;
    SmallVector<Operation *> constants;
    for (auto [result, value] : llvm::zip(op->getResults(), folded)) {
      if (auto replacement = dyn_cast<Value>(value)) {
        values.push_back(replacement);
        continue;
      }
      Operation *constant = op->getDialect()
                                ? op->getDialect()->materializeConstant(
                                      rewriter, cast<Attribute>(value),
                                      result.getType(), op->getLoc())
                                : nullptr;
      if (!constant) {
        // Leave the IR as it was.
        for (Operation *made : constants)
          rewriter.eraseOp(made);
        return failure();
      }
      constants.push_back(constant);
      values.push_back(constant->getResult(0));
    }
    rewriter.replaceOp(op, values);
    return success();
  }
};

/// A tensor.collapse_shape of a tensor with a static 0 (nothing to read):
/// an empty tensor of its result's sizes. Bufferized, the view would be a
/// memref.collapse_shape whose group upstream takes as static (0) while
/// its result type keeps the collapse's dynamic size, which the verifier
/// refuses; a tensor whose shape became static 0 after the collapse was
/// made (a size that broadcasting equated to 0) gets there.
struct CollapseOfNothing : OpRewritePattern<tensor::CollapseShapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::CollapseShapeOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType source = op.getSrcType();
    if (!llvm::is_contained(source.getShape(), 0))
      return failure();
    RankedTensorType result = op.getResultType();
    SmallVector<Value> sizes;
    for (auto [d, group] : llvm::enumerate(op.getReassociationIndices())) {
      if (!result.isDynamicDim(d))
        continue;
      bool empty = llvm::any_of(
          group, [&](int64_t k) { return source.getDimSize(k) == 0; });
      Value size =
          arith::ConstantIndexOp::create(rewriter, op.getLoc(), empty ? 0 : 1);
      for (int64_t k : group)
        if (!empty)
          size = arith::MulIOp::create(
              rewriter, op.getLoc(), size,
              tensor::DimOp::create(rewriter, op.getLoc(), op.getSrc(), k));
      sizes.push_back(size);
    }
    rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, result, sizes);
    return success();
  }
};

struct FuseCanonicalizePass
    : fuse::impl::FuseCanonicalizeBase<FuseCanonicalizePass> {
  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet owned(context);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(owned);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(owned, context);
    owned.add<FoldExceptTargetMath, CollapseOfNothing>(context);
    patterns = std::make_shared<FrozenRewritePatternSet>(std::move(owned));
    return success();
  }

  void runOnOperation() override {
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true)
        .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Normal)
        .enableFolding(false);
    // Like upstream's canonicalizer, a pass that did not converge is not
    // an error.
    (void)applyPatternsGreedily(getOperation(), *patterns, config);
  }

  std::shared_ptr<const FrozenRewritePatternSet> patterns;
};

struct FuseGuardTargetMathPass
    : fuse::impl::FuseGuardTargetMathBase<FuseGuardTargetMathPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      if (!fuse::isTargetMath(op))
        return;
      OpBuilder b(op);
      for (OpOperand &operand : op->getOpOperands())
        if (matchPattern(operand.get(), m_Constant()))
          operand.set(fuse::OpaqueOp::create(b, op->getLoc(), operand.get()));
    });
  }
};

} // namespace
