//===- BufferSizes.cpp - argument sizes read from their buffers ----------===//
//
// One-shot bufferization's analysis looks at every use of a tensor for each
// of its tensor operands. A function argument of rank R read with one
// tensor.dim per dynamic dimension has R uses, so the analysis took time
// quadratic in the rank. Reading the sizes with memref.dim from one
// bufferization.to_buffer of the argument gives the tensor one use; after
// bufferization the memref.dims read the argument's buffer, as they would
// have.
//
//===----------------------------------------------------------------------===//

#include "fuse/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"

namespace fuse {
#define GEN_PASS_DEF_FUSEBUFFERSIZES
#include "fuse/Transforms/Passes.h.inc"
} // namespace fuse

using namespace mlir;

namespace {

struct FuseBufferSizesPass
    : fuse::impl::FuseBufferSizesBase<FuseBufferSizesPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    Block &entry = func.front();
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    for (BlockArgument arg : entry.getArguments()) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type || type.getEncoding())
        continue;
      SmallVector<tensor::DimOp> dims;
      for (Operation *user : arg.getUsers())
        if (auto dim = dyn_cast<tensor::DimOp>(user))
          dims.push_back(dim);
      if (dims.empty())
        continue;
      // The buffer of an argument has the identity layout
      // (function-boundary-type-conversion=identity-layout-map); only its
      // sizes are read.
      Location loc = arg.getLoc();
      auto bufferType = MemRefType::get(type.getShape(), type.getElementType());
      Value buffer = bufferization::ToBufferOp::create(b, loc, bufferType, arg,
                                                       /*readOnly=*/true);
      for (tensor::DimOp dim : dims) {
        OpBuilder at(dim);
        dim.replaceAllUsesWith(
            memref::DimOp::create(at, dim.getLoc(), buffer, dim.getIndex())
                .getResult());
        dim.erase();
      }
    }
  }
};

} // namespace
