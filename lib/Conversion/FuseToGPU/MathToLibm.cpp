//===- MathToLibm.cpp - C library calls for inexact math functions -------===//

#include "fuse/Conversion/Passes.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Transforms/DialectConversion.h"

namespace fuse {
#define GEN_PASS_DEF_FUSEMATHTOLIBM
#include "fuse/Conversion/Passes.h.inc"
} // namespace fuse

using namespace mlir;

namespace {

struct FuseMathToLibmPass : fuse::impl::FuseMathToLibmBase<FuseMathToLibmPass> {
  void runOnOperation() override {
    // Upstream's patterns cover every math op the C library has; only the
    // inexact functions are illegal here, so only they are converted.
    ConversionTarget target(getContext());
    target.addIllegalOp<math::ExpOp, math::LogOp, math::PowFOp, math::SinOp,
                        math::CosOp, math::TanhOp, math::ErfOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(&getContext());
    populateMathToLibmConversionPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
