//===- NameAllocations.cpp - what each host allocation is for -------------===//
//
// A call of fuse_allocation(id) before each host allocation, and the
// module's fuse.allocations, so that an allocation that fails says what it
// was for: a result, or the value of which op.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/Utils/Location.h"
#include "fuse/Dialect/Fuse/Utils/Profile.h"
#include "fuse/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace fuse {
#define GEN_PASS_DEF_FUSENAMEALLOCATIONS
#include "fuse/Transforms/Passes.h.inc"
} // namespace fuse

using namespace mlir;

namespace {

struct FuseNameAllocationsPass
    : fuse::impl::FuseNameAllocationsBase<FuseNameAllocationsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    fuse::FuseDialect::ResultAttrHelper result(context);
    SmallVector<memref::AllocOp> allocs;
    for (auto func : module.getOps<func::FuncOp>())
      func.walk([&](memref::AllocOp alloc) {
        if (!alloc->getParentOfType<gpu::LaunchOp>())
          allocs.push_back(alloc);
      });
    if (allocs.empty())
      return;
    OpBuilder b(context);
    b.setInsertionPointToStart(module.getBody());
    if (!module.lookupSymbol(fuse::kAllocationHook)) {
      auto hook =
          func::FuncOp::create(b, module.getLoc(), fuse::kAllocationHook,
                               b.getFunctionType({b.getI64Type()}, {}));
      hook.setPrivate();
    }
    SmallVector<Attribute> names;
    for (memref::AllocOp alloc : allocs) {
      std::string name;
      if (IntegerAttr index = result.getAttr(alloc))
        name = "result " + std::to_string(index.getInt());
      else if (isa<UnknownLoc>(alloc.getLoc()))
        name = "a value stored between kernels";
      else
        name = "the value at " + fuse::formatLocation(alloc.getLoc()) +
               ", stored between kernels";
      b.setInsertionPoint(alloc);
      Value id = arith::ConstantIntOp::create(b, alloc.getLoc(),
                                              int64_t(names.size()), 64);
      func::CallOp::create(b, alloc.getLoc(), fuse::kAllocationHook,
                           TypeRange{}, ValueRange{id});
      names.push_back(b.getStringAttr(name));
    }
    fuse::FuseDialect::AllocationsAttrHelper(context).setAttr(
        module, b.getArrayAttr(names));
  }
};

} // namespace
