//===- GPUToCPU.cpp - gpu.launch as host loops ---------------------------===//
//
// Each gpu.launch becomes a call to a function of its own that loops over
// blocks and threads around the unchanged body. The function is private,
// has internal linkage and is never inlined: LLVM's optimizer works on one
// function at a time, and some of its passes (jump threading's SSA updates,
// GVN) take time that grows faster than the function, so a host function
// into which a thousand kernels were inlined took minutes to compile where
// a thousand small functions take seconds. Internal linkage lets LLVM
// still propagate the constant arguments of the one call (block size,
// grid y and z) into the kernel. With parallel-blocks, the blocks of a
// large launch run on OpenMP threads.
//
//===----------------------------------------------------------------------===//

#include "fuse/Conversion/Passes.h"
#include "fuse/Support/CheckedOptions.h"

#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/RegionUtils.h"

namespace fuse {
#define GEN_PASS_DEF_FUSEGPUTOCPU
#include "fuse/Conversion/Passes.h.inc"
} // namespace fuse

using namespace mlir;

namespace {

/// Replaces `launch` by a call to a new function in `symbols` that loops
/// over blocks (outer; an scf.parallel when `parallel`) and threads (inner)
/// around the launch's body.
LogicalResult outlineLaunch(gpu::LaunchOp launch, SymbolTable &symbols,
                            bool parallel) {
  Region &body = launch.getBody();
  if (!body.hasOneBlock())
    return launch.emitOpError("has a multi-block body; fuse-gpu-to-cpu runs "
                              "single-block kernels only");
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty())
    return launch.emitOpError("is async; fuse-gpu-to-cpu runs synchronous "
                              "launches only");
  if (!launch.getWorkgroupAttributions().empty() ||
      !launch.getPrivateAttributions().empty() ||
      launch.getDynamicSharedMemorySize())
    return launch.emitOpError(
        "has workgroup or private memory; fuse-gpu-to-cpu runs launches "
        "without (fuse-map-to-gpu makes none)");
  // The ids and sizes asked of the GPU are the launch's own: its region's
  // arguments, which the loops bind. Any other GPU op has no value here.
  gpu::KernelDim3 blockIds = launch.getBlockIds();
  gpu::KernelDim3 threadIds = launch.getThreadIds();
  gpu::KernelDim3 gridArgs = launch.getGridSize();
  gpu::KernelDim3 blockArgs = launch.getBlockSize();
  auto pick = [](gpu::KernelDim3 values, gpu::Dimension dimension) {
    return dimension == gpu::Dimension::x   ? values.x
           : dimension == gpu::Dimension::y ? values.y
                                            : values.z;
  };
  WalkResult unknown = body.walk([&](Operation *op) {
    Value same;
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
      same = pick(threadIds, id.getDimension());
    else if (auto id = dyn_cast<gpu::BlockIdOp>(op))
      same = pick(blockIds, id.getDimension());
    else if (auto size = dyn_cast<gpu::BlockDimOp>(op))
      same = pick(blockArgs, size.getDimension());
    else if (auto size = dyn_cast<gpu::GridDimOp>(op))
      same = pick(gridArgs, size.getDimension());
    else if (isa<gpu::GPUDialect>(op->getDialect()) &&
             !isa<gpu::TerminatorOp, gpu::YieldOp, gpu::ShuffleOp,
                  gpu::BarrierOp, gpu::SubgroupReduceOp, gpu::AllReduceOp>(
                 op)) {
      op->emitOpError("has no meaning in fuse-gpu-to-cpu's loops, which bind "
                      "the launch's block and thread ids and sizes only");
      return WalkResult::interrupt();
    }
    if (same) {
      op->getResult(0).replaceAllUsesWith(same);
      op->erase();
    }
    return WalkResult::advance();
  });
  if (unknown.wasInterrupted())
    return failure();
  // The threads run one after the other: an op by which they exchange
  // values or wait for each other (a warp's shuffle, a barrier, shared
  // memory) has no meaning there (fuse-map-to-gpu{cpu-threads} maps
  // kernels without them).
  WalkResult collective = body.walk([&](Operation *op) {
    if (isa<gpu::ShuffleOp, gpu::BarrierOp, gpu::SubgroupReduceOp,
            gpu::AllReduceOp>(op)) {
      op->emitOpError("exchanges values between threads or waits for them; "
                      "fuse-gpu-to-cpu runs a launch's threads one after the "
                      "other, so it takes kernels without it "
                      "(fuse-map-to-gpu{cpu-threads})");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (collective.wasInterrupted())
    return failure();
  // Constants move into the kernel, where they fold; everything else that
  // the body uses from above becomes an argument.
  if (failed(sinkOperationsIntoLaunchOp(launch, [](Operation *op) {
        return op->hasTrait<OpTrait::ConstantLike>();
      })))
    return failure();
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(body, captured);

  // The kernel's arguments: the grid and block sizes that are not
  // constants, then the captured values.
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  SmallVector<Value> bounds = {grid.x,  grid.y,  grid.z,
                               block.x, block.y, block.z};
  auto isConstant = [](Value value) {
    Operation *def = value.getDefiningOp();
    return def && def->hasTrait<OpTrait::ConstantLike>();
  };
  SmallVector<Value> operands;
  llvm::copy_if(bounds, std::back_inserter(operands),
                [&](Value bound) { return !isConstant(bound); });
  operands.append(captured.begin(), captured.end());

  Location loc = launch.getLoc();
  MLIRContext *context = launch.getContext();
  auto host = launch->getParentOfType<func::FuncOp>();
  OpBuilder b(context);
  auto kernel = func::FuncOp::create(
      b, loc, launch.getFunction().value_or("kernel"),
      b.getFunctionType(ValueRange(operands).getTypes(), {}));
  kernel.setPrivate();
  // Both become attributes of the llvm.func in convert-func-to-llvm.
  kernel->setAttr("llvm.linkage",
                  LLVM::LinkageAttr::get(context, LLVM::Linkage::Internal));
  kernel->setAttr("passthrough", b.getStrArrayAttr({"noinline"}));
  // Renames the kernel if another symbol has its name.
  symbols.insert(kernel, host ? Block::iterator(host) : Block::iterator());

  Block *entry = kernel.addEntryBlock();
  IRMapping mapping;
  mapping.map(operands, entry->getArguments());
  b.setInsertionPointToStart(entry);
  for (Value bound : bounds)
    if (!mapping.contains(bound))
      b.clone(*bound.getDefiningOp(), mapping);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> ivs;
  for (auto [i, bound] : llvm::enumerate(bounds)) {
    Value upper = mapping.lookup(bound);
    if (i == 0 && parallel) {
      auto loop = scf::ParallelOp::create(b, loc, ValueRange{zero},
                                          ValueRange{upper}, ValueRange{one});
      ivs.push_back(loop.getInductionVars().front());
      b.setInsertionPointToStart(loop.getBody());
      continue;
    }
    auto loop = scf::ForOp::create(b, loc, zero, upper, one);
    ivs.push_back(loop.getInductionVar());
    b.setInsertionPointToStart(loop.getBody());
  }
  mapping.map(blockIds.x, ivs[0]);
  mapping.map(blockIds.y, ivs[1]);
  mapping.map(blockIds.z, ivs[2]);
  mapping.map(threadIds.x, ivs[3]);
  mapping.map(threadIds.y, ivs[4]);
  mapping.map(threadIds.z, ivs[5]);
  mapping.map(gridArgs.x, mapping.lookup(grid.x));
  mapping.map(gridArgs.y, mapping.lookup(grid.y));
  mapping.map(gridArgs.z, mapping.lookup(grid.z));
  mapping.map(blockArgs.x, mapping.lookup(block.x));
  mapping.map(blockArgs.y, mapping.lookup(block.y));
  mapping.map(blockArgs.z, mapping.lookup(block.z));
  for (Operation &op : body.front().without_terminator())
    b.clone(op, mapping);
  b.setInsertionPointToEnd(entry);
  func::ReturnOp::create(b, loc);

  b.setInsertionPoint(launch);
  func::CallOp::create(b, loc, kernel, operands);
  launch.erase();
  return success();
}

struct FuseGPUToCPUPass
    : fuse::CheckedOptions<FuseGPUToCPUPass,
                           fuse::impl::FuseGPUToCPUBase<FuseGPUToCPUPass>> {
  using CheckedOptions::CheckedOptions;

  /// What is wrong with the options, if anything (CheckedOptions).
  std::optional<std::string> optionProblem() const {
    if (parallelBlocks < 0)
      return "fuse-gpu-to-cpu: parallel-blocks=" +
             std::to_string(parallelBlocks) +
             " is negative: it is the fewest blocks that a launch runs on "
             "OpenMP threads, or 0 for none";
    return std::nullopt;
  }

  void runOnOperation() override {
    SymbolTable symbols(getOperation());
    if (refusesOptions())
      return;
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk([&](gpu::LaunchOp op) { launches.push_back(op); });
    // Launches already outlined (gpu-kernel-outlining, the gpu stage) are
    // not this pass's input: it left them as they were, with no word.
    if (launches.empty()) {
      WalkResult outlined = getOperation().walk([](gpu::LaunchFuncOp op) {
        op.emitOpError("is an outlined launch; fuse-gpu-to-cpu runs "
                       "gpu.launch ops, before gpu-kernel-outlining (as in "
                       "the cpu stage)");
        return WalkResult::interrupt();
      });
      if (outlined.wasInterrupted())
        return signalPassFailure();
    }
    for (gpu::LaunchOp launch : launches)
      if (failed(outlineLaunch(launch, symbols, parallelBlocks > 0)))
        return signalPassFailure();
    if (parallelBlocks <= 0)
      return;
    OpPassManager openmp(ModuleOp::getOperationName());
    openmp.addPass(createConvertSCFToOpenMPPass());
    if (failed(runPipeline(openmp, getOperation())))
      return signalPassFailure();
    // A launch of fewer blocks runs on the calling thread: the `if` clause
    // compares the loop's trip count (from 0 by 1) with parallel-blocks.
    getOperation().walk([&](omp::ParallelOp region) {
      omp::LoopNestOp nest;
      region.walk([&](omp::LoopNestOp op) { nest = op; });
      if (!nest)
        return;
      OpBuilder b(region);
      Value upper = nest.getLoopUpperBounds().front();
      Value enough = arith::CmpIOp::create(
          b, region.getLoc(), arith::CmpIPredicate::sge, upper,
          arith::ConstantOp::create(
              b, region.getLoc(), upper.getType(),
              b.getIntegerAttr(upper.getType(), parallelBlocks)));
      region.getIfExprMutable().assign(enough);
    });
  }
};

} // namespace
