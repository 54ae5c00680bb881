//===- ExpandAllocs.cpp - buffers allocated in their viewed shapes --------===//

#include "fuse/Transforms/Passes.h"

#include "fuse/Dialect/Fuse/Utils/Kernel.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dominance.h"

namespace fuse {
#define GEN_PASS_DEF_FUSEEXPANDALLOCS
#include "fuse/Transforms/Passes.h.inc"
} // namespace fuse

using namespace mlir;

namespace {

/// Whether `buffer`, a memref.alloc, has the sizes `sizes`: the same
/// values for its dynamic ones.
bool sameSizes(Value buffer, ArrayRef<OpFoldResult> sizes) {
  auto alloc = buffer.getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return false;
  MemRefType type = alloc.getType();
  auto dynamic = alloc.getDynamicSizes().begin();
  for (auto [d, size] : llvm::enumerate(sizes)) {
    if (!type.isDynamicDim(d))
      continue;
    if (dyn_cast<Value>(size) != *dynamic++)
      return false;
  }
  return true;
}

/// `expand` of a contiguous buffer (identity layouts) that stays a view:
/// the same view as a memref.reinterpret_cast at offset 0 with row-major
/// strides. LLVM 22's expand-strided-metadata crashes on a memref.expand_shape
/// of a 1-D buffer of dynamic size into dynamic sizes (`memref<?xf64>` into
/// `memref<?x?xf64>`: a null stride in its expand_shape folder); it folds a
/// reinterpret_cast.
void viewAsReinterpretCast(memref::ExpandShapeOp expand) {
  MemRefType type = expand.getResultType();
  if (!expand.getSrcType().getLayout().isIdentity() ||
      !type.getLayout().isIdentity())
    return;
  OpBuilder b(expand);
  Location loc = expand.getLoc();
  SmallVector<OpFoldResult> sizes = expand.getMixedOutputShape();
  SmallVector<OpFoldResult> strides(sizes.size());
  OpFoldResult stride = b.getIndexAttr(1);
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    strides[d] = stride;
    if (d == 0)
      break;
    stride = fuse::multiplySizes(b, loc, stride, sizes[d]);
  }
  Value view = memref::ReinterpretCastOp::create(
      b, loc, type, expand.getSrc(), b.getIndexAttr(0), sizes, strides);
  expand.replaceAllUsesWith(view);
  expand.erase();
}

struct FuseExpandAllocsPass
    : fuse::impl::FuseExpandAllocsBase<FuseExpandAllocsPass> {
  void runOnOperation() override {
    DominanceInfo dominance(getOperation());
    SmallVector<memref::ExpandShapeOp> expands;
    getOperation().walk(
        [&](memref::ExpandShapeOp expand) { expands.push_back(expand); });
    for (memref::ExpandShapeOp expand : expands) {
      MemRefType type = expand.getResultType();
      // A second view of a buffer expanded already, with the same sizes:
      // that buffer.
      if (auto collapse =
              expand.getSrc().getDefiningOp<memref::CollapseShapeOp>();
          collapse && collapse.getSrcType() == type &&
          collapse.getReassociationIndices() ==
              expand.getReassociationIndices() &&
          sameSizes(collapse.getSrc(), expand.getMixedOutputShape())) {
        expand.replaceAllUsesWith(collapse.getSrc());
        expand.erase();
        continue;
      }
      // A static buffer may be viewed with dynamic sizes (memref.cast).
      Value source = expand.getSrc();
      if (auto cast = source.getDefiningOp<memref::CastOp>())
        source = cast.getSource();
      auto alloc = source.getDefiningOp<memref::AllocOp>();
      // A contiguous buffer of its own, whose expanded sizes are known
      // where it is allocated.
      if (!alloc || !alloc.getType().getLayout().isIdentity() ||
          !type.getLayout().isIdentity() ||
          !alloc.getSymbolOperands().empty()) {
        viewAsReinterpretCast(expand);
        continue;
      }
      SmallVector<Value> sizes;
      for (auto [d, size] : llvm::enumerate(expand.getMixedOutputShape()))
        if (type.isDynamicDim(d))
          sizes.push_back(cast<Value>(size));
      if (!llvm::all_of(sizes, [&](Value size) {
            return dominance.properlyDominates(size, alloc);
          })) {
        viewAsReinterpretCast(expand);
        continue;
      }
      OpBuilder b(alloc);
      auto expanded = memref::AllocOp::create(b, alloc.getLoc(), type, sizes,
                                              alloc.getAlignmentAttr());
      expanded->setDiscardableAttrs(alloc->getDiscardableAttrDictionary());
      Value collapsed = memref::CollapseShapeOp::create(
          b, alloc.getLoc(), expanded, expand.getReassociationIndices());
      if (collapsed.getType() != alloc.getType())
        collapsed = memref::CastOp::create(b, alloc.getLoc(), alloc.getType(),
                                           collapsed);
      expand.replaceAllUsesWith(expanded.getResult());
      expand.erase();
      alloc.replaceAllUsesWith(collapsed);
      alloc.erase();
    }
  }
};

} // namespace
