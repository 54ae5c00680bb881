//===- FoldReluRelu.cpp - relu(relu(x)) -> relu(x) -----------------------===//

#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "fuse/Dialect/Fuse/Transforms/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace fuse {
#define GEN_PASS_DEF_FUSEFOLDRELURELU
#include "fuse/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace fuse

using namespace mlir;
using namespace fuse;

namespace {

struct FoldReluOfRelu : OpRewritePattern<ReluOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReluOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<ReluOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "operand is not a relu");
    rewriter.replaceOp(op, inner.getResult());
    return success();
  }
};

struct FuseFoldReluReluPass
    : fuse::impl::FuseFoldReluReluBase<FuseFoldReluReluPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldReluOfRelu>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
