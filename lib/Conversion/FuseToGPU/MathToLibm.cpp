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

struct FuseMathToLibmPass : fuse::impl::FuseMathToLibmBase<FuseMathToLibmPass> {
  void runOnOperation() override {
    // Upstream's patterns cover every math op the C library has; only the
    // inexact functions are converted.
    RewritePatternSet patterns(&getContext());
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
