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

struct FuseCanonicalizePass
    : fuse::impl::FuseCanonicalizeBase<FuseCanonicalizePass> {
  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet owned(context);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(owned);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(owned, context);
    owned.add<FoldExceptTargetMath>(context);
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
