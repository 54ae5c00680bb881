//===- FuseDialect.cpp - fuse dialect ------------------------*- C++ -*-===//

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace fuse;

#include "fuse/Dialect/Fuse/IR/FuseOpsDialect.cpp.inc"

void FuseDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "fuse/Dialect/Fuse/IR/FuseOps.cpp.inc"
      >();
}

Operation *FuseDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}
