//===- SplitAsserts.cpp - end a block after each cf.assert ---------------===//
//
// The LLVM lowering of cf.assert splits the assert's block there, moving
// every later operation of the block into a new one. A program of rank R
// checks R sizes with R asserts in one block, so lowering them moved
// O(R^2) operations. Ending the block after each assert first, from the
// last assert to the first, moves each operation once, and the lowering
// then moves only the branch that ends the block. The canonicalizer merges
// the blocks again.
//
//===----------------------------------------------------------------------===//

#include "fuse/Transforms/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace fuse {
#define GEN_PASS_DEF_FUSESPLITASSERTS
#include "fuse/Transforms/Passes.h.inc"
} // namespace fuse

using namespace mlir;

namespace {

struct FuseSplitAssertsPass
    : fuse::impl::FuseSplitAssertsBase<FuseSplitAssertsPass> {
  void runOnOperation() override {
    SmallVector<cf::AssertOp> asserts;
    getOperation().walk([&](cf::AssertOp op) {
      // Blocks of structured ops' regions (scf.if) cannot be split.
      if (isa<FunctionOpInterface>(op->getParentOp()))
        asserts.push_back(op);
    });
    for (cf::AssertOp op : llvm::reverse(asserts)) {
      Block *block = op->getBlock();
      Operation *next = op->getNextNode();
      if (!next || next == block->getTerminator())
        continue;
      Block *rest = block->splitBlock(next);
      OpBuilder b = OpBuilder::atBlockEnd(block);
      cf::BranchOp::create(b, op.getLoc(), rest);
    }
  }
};

} // namespace
