//===- GPUToCPU.cpp - gpu.launch as host loops ---------------------------===//

#include "fuse/Conversion/Passes.h"

#include "mlir/IR/IRMapping.h"

namespace fuse {
#define GEN_PASS_DEF_FUSEGPUTOCPU
#include "fuse/Conversion/Passes.h.inc"
} // namespace fuse

using namespace mlir;

namespace {

/// Replaces `launch` by loops over blocks (outer) and threads (inner).
LogicalResult lowerLaunch(gpu::LaunchOp launch) {
  Region &body = launch.getBody();
  if (!body.hasOneBlock())
    return launch.emitOpError("has a multi-block body; fuse-gpu-to-cpu runs "
                              "single-block kernels only");
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty())
    return launch.emitOpError("is async; fuse-gpu-to-cpu runs synchronous "
                              "launches only");
  OpBuilder b(launch);
  Location loc = launch.getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  IRMapping mapping;
  SmallVector<Value> bounds = {grid.x,  grid.y,  grid.z,
                               block.x, block.y, block.z};
  SmallVector<Value> ivs;
  for (Value bound : bounds) {
    auto loop = scf::ForOp::create(b, loc, zero, bound, one);
    ivs.push_back(loop.getInductionVar());
    b.setInsertionPointToStart(loop.getBody());
  }
  gpu::KernelDim3 blockIds = launch.getBlockIds();
  gpu::KernelDim3 threadIds = launch.getThreadIds();
  gpu::KernelDim3 gridArgs = launch.getGridSize();
  gpu::KernelDim3 blockArgs = launch.getBlockSize();
  mapping.map(blockIds.x, ivs[0]);
  mapping.map(blockIds.y, ivs[1]);
  mapping.map(blockIds.z, ivs[2]);
  mapping.map(threadIds.x, ivs[3]);
  mapping.map(threadIds.y, ivs[4]);
  mapping.map(threadIds.z, ivs[5]);
  mapping.map(gridArgs.x, grid.x);
  mapping.map(gridArgs.y, grid.y);
  mapping.map(gridArgs.z, grid.z);
  mapping.map(blockArgs.x, block.x);
  mapping.map(blockArgs.y, block.y);
  mapping.map(blockArgs.z, block.z);
  for (Operation &op : body.front().without_terminator())
    b.clone(op, mapping);
  launch.erase();
  return success();
}

struct FuseGPUToCPUPass : fuse::impl::FuseGPUToCPUBase<FuseGPUToCPUPass> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk([&](gpu::LaunchOp op) { launches.push_back(op); });
    for (gpu::LaunchOp launch : launches)
      if (failed(lowerLaunch(launch)))
        return signalPassFailure();
  }
};

} // namespace
