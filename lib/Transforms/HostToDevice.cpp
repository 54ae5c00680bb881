//===- HostToDevice.cpp - kernel buffers in device memory ----------------===//

#include "fuse/Transforms/Passes.h"

namespace fuse {
#define GEN_PASS_DEF_FUSEHOSTTODEVICE
#include "fuse/Transforms/Passes.h.inc"
} // namespace fuse

using namespace mlir;

namespace {

struct FuseHostToDevicePass
    : fuse::impl::FuseHostToDeviceBase<FuseHostToDevicePass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    WalkResult strided = getOperation().walk([&](Operation *op) {
      if (isa<memref::AllocOp, memref::DeallocOp, memref::CopyOp,
              memref::GetGlobalOp>(op))
        ops.push_back(op);
      // gpu.memcpy copies a buffer's bytes in order: a copy from or into a
      // view with a layout (every other row, an offset) is no such copy.
      auto copy = dyn_cast<memref::CopyOp>(op);
      if (!copy)
        return WalkResult::advance();
      for (Value side : {copy.getSource(), copy.getTarget()}) {
        auto type = cast<MemRefType>(side.getType());
        if (type.getLayout().isIdentity())
          continue;
        copy.emitOpError() << "copies " << type
                           << ", a view with a layout; fuse-host-to-device "
                              "makes each copy a gpu.memcpy of whole buffers "
                              "(identity layouts), as the pipelines' are";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (strided.wasInterrupted())
      return signalPassFailure();
    for (Operation *op : ops) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        auto device = gpu::AllocOp::create(
            b, loc, alloc.getType(), /*asyncToken=*/Type(),
            /*asyncDependencies=*/ValueRange(), alloc.getDynamicSizes(),
            alloc.getSymbolOperands(), /*hostShared=*/false);
        alloc.replaceAllUsesWith(device.getMemref());
        alloc.erase();
      } else if (auto copy = dyn_cast<memref::CopyOp>(op)) {
        gpu::MemcpyOp::create(b, loc, /*asyncToken=*/Type(), ValueRange(),
                              copy.getTarget(), copy.getSource());
        copy.erase();
      } else if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        gpu::DeallocOp::create(b, loc, /*asyncToken=*/Type(), ValueRange(),
                               dealloc.getMemref());
        dealloc.erase();
      } else {
        // A constant tensor lives in host memory: give kernels a copy.
        auto global = cast<memref::GetGlobalOp>(op);
        b.setInsertionPointAfter(global);
        auto device = gpu::AllocOp::create(b, loc, global.getType(), Type(),
                                           ValueRange(), ValueRange(),
                                           ValueRange(), /*hostShared=*/false);
        auto copy =
            gpu::MemcpyOp::create(b, loc, /*asyncToken=*/Type(), ValueRange(),
                                  device.getMemref(), global.getResult());
        global.getResult().replaceAllUsesExcept(device.getMemref(), copy);
        // The copy lives for the call: freed before each return.
        getOperation().walk([&](func::ReturnOp ret) {
          OpBuilder atReturn(ret);
          gpu::DeallocOp::create(atReturn, loc, Type(), ValueRange(),
                                 device.getMemref());
        });
      }
    }
  }
};

} // namespace
