//===- ResultAllocs.cpp - results allocated by the runtime ----------------===//
//
// The allocation of each result of a cpu-target function calls the
// runtime's fuse_result_alloc, which can hand the kernels the caller's own
// array (out=) instead of a fresh buffer.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/Utils/Kernel.h"
#include "fuse/Transforms/Passes.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/DialectConversion.h"

namespace fuse {
#define GEN_PASS_DEF_FUSERESULTALLOCS
#include "fuse/Transforms/Passes.h.inc"
} // namespace fuse

using namespace mlir;

namespace {

struct ResultAllocLowering : ConvertOpToLLVMPattern<memref::AllocOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(memref::AllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IntegerAttr index =
        fuse::FuseDialect::ResultAttrHelper(getContext()).getAttr(op);
    MemRefType type = op.getType();
    if (!index || !isConvertibleAndHasIdentityMaps(type))
      return failure();
    Location loc = op.getLoc();
    SmallVector<Value, 4> sizes, strides;
    Value bytes;
    getMemRefDescriptorSizes(loc, type, adaptor.getDynamicSizes(), rewriter,
                             sizes, strides, bytes);
    Type i64 = rewriter.getI64Type();
    Type ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
    auto module = op->getParentOfType<ModuleOp>();
    FailureOr<LLVM::LLVMFuncOp> callee = LLVM::lookupOrCreateFn(
        rewriter, module, fuse::kResultAllocFunction, {i64, i64}, ptr);
    if (failed(callee))
      return failure();
    Value position = LLVM::ConstantOp::create(rewriter, loc, i64,
                                              index.getValue().getSExtValue());
    Value data = LLVM::CallOp::create(rewriter, loc, *callee,
                                      ValueRange{position, bytes})
                     .getResult();
    rewriter.replaceOp(op, {createMemRefDescriptor(loc, type, data, data, sizes,
                                                   strides, rewriter)});
    return success();
  }
};

struct FuseResultAllocsPass
    : fuse::impl::FuseResultAllocsBase<FuseResultAllocsPass> {
  void runOnOperation() override {
    LLVMTypeConverter converter(&getContext());
    RewritePatternSet patterns(&getContext());
    patterns.add<ResultAllocLowering>(converter);
    ConversionTarget target(getContext());
    target.addLegalDialect<LLVM::LLVMDialect>();
    fuse::FuseDialect::ResultAttrHelper result(&getContext());
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      return !isa<memref::AllocOp>(op) || !result.isAttrPresent(op);
    });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
