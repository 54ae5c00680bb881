//===- OwnResults.cpp - every returned buffer freshly allocated ----------===//

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/Utils/Kernel.h"
#include "fuse/Transforms/Passes.h"

namespace fuse {
#define GEN_PASS_DEF_FUSEOWNRESULTS
#include "fuse/Transforms/Passes.h.inc"
} // namespace fuse

using namespace mlir;

namespace {

struct FuseOwnResultsPass : fuse::impl::FuseOwnResultsBase<FuseOwnResultsPass> {
  void runOnOperation() override {
    getOperation().walk([](func::ReturnOp ret) {
      DenseSet<Value> returned;
      OpBuilder b(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Value value = operand.get();
        auto type = dyn_cast<MemRefType>(value.getType());
        if (!type)
          continue;
        auto alloc = value.getDefiningOp<memref::AllocOp>();
        if (!alloc || !returned.insert(value).second) {
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
      }
    });
  }
};

} // namespace
