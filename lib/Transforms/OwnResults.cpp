//===- OwnResults.cpp - every returned buffer freshly allocated ----------===//

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/Utils/Kernel.h"
#include "fuse/Dialect/Fuse/Utils/Profile.h"
#include "fuse/Transforms/Passes.h"

namespace fuse {
#define GEN_PASS_DEF_FUSEOWNRESULTS
#include "fuse/Transforms/Passes.h.inc"
} // namespace fuse

using namespace mlir;

namespace {

struct FuseOwnResultsPass : fuse::impl::FuseOwnResultsBase<FuseOwnResultsPass> {
  using FuseOwnResultsBase::FuseOwnResultsBase;

  void runOnOperation() override {
    bool copies = false;
    WalkResult walk = getOperation().walk([&](func::ReturnOp ret) {
      DenseSet<Value> returned;
      OpBuilder b(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Value value = operand.get();
        auto type = dyn_cast<MemRefType>(value.getType());
        if (!type)
          continue;
        // A result is a buffer of its own, which memref.alloc makes with
        // the identity layout only (bufferization's
        // function-boundary-type-conversion=identity-layout-map).
        if (!type.getLayout().isIdentity()) {
          ret.emitOpError() << "returns result " << operand.getOperandNumber()
                            << " as " << type
                            << ", with a layout; fuse-own-results gives each "
                               "result a buffer of its own, of the identity "
                               "layout (bufferize with "
                               "function-boundary-type-conversion=identity-"
                               "layout-map)";
          return WalkResult::interrupt();
        }
        // A cast of an allocation (static sizes to the result type's
        // dynamic ones: a kernel's output of the broadcast shape, `? x 8`,
        // returned as `? x ?`) is that buffer, with its sizes in the
        // descriptor; the allocation is the result's.
        Value buffer = value;
        while (auto cast = buffer.getDefiningOp<memref::CastOp>())
          buffer = cast.getSource();
        auto alloc = buffer.getDefiningOp<memref::AllocOp>();
        if (!alloc || !alloc.getType().getLayout().isIdentity())
          alloc = {};
        if (!alloc || !returned.insert(alloc.getResult()).second) {
          SmallVector<Value> sizes;
          for (int64_t d = 0; d < type.getRank(); ++d)
            if (type.isDynamicDim(d))
              sizes.push_back(memref::DimOp::create(b, ret.getLoc(), value, d));
          alloc = memref::AllocOp::create(b, ret.getLoc(), type, sizes,
                                          b.getI64IntegerAttr(64));
          memref::CopyOp::create(b, ret.getLoc(), value, alloc);
          operand.set(alloc);
        }
        fuse::FuseDialect::ResultAttrHelper(b.getContext())
            .setAttr(alloc, b.getI64IntegerAttr(operand.getOperandNumber()));
        if (profile)
          copies |= bracketCopies(alloc, operand.getOperandNumber());
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    if (copies)
      fuse::declareCopyHooks(getOperation());
  }

  /// Brackets each copy into result `result`'s buffer `alloc` with the
  /// profile's calls: the copies above, and those of the buffers that
  /// bufferization's deallocation cloned (a returned argument or constant).
  /// Returns whether there was one.
  static bool bracketCopies(memref::AllocOp alloc, int64_t result) {
    bool any = false;
    for (Operation *user : alloc->getUsers()) {
      auto copy = dyn_cast<memref::CopyOp>(user);
      if (!copy || copy.getTarget() != alloc.getResult())
        continue;
      any = true;
      OpBuilder b(copy);
      Location loc = copy.getLoc();
      Value position = arith::ConstantIntOp::create(b, loc, result, 64);
      // Read and written: twice the buffer's bytes.
      Value bytes =
          fuse::bufferBytes(b, loc, {copy.getSource(), copy.getTarget()});
      func::CallOp::create(b, loc, fuse::kCopyBeginHook, TypeRange{},
                           ValueRange{position, bytes});
      b.setInsertionPointAfter(copy);
      func::CallOp::create(b, loc, fuse::kCopyEndHook, TypeRange{},
                           ValueRange{position});
    }
    return any;
  }
};

} // namespace
