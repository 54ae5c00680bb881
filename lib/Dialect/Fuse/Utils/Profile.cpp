//===- Profile.cpp - the profiling hooks of compiled programs -------------===//

#include "fuse/Dialect/Fuse/Utils/Profile.h"
#include "fuse/Dialect/Fuse/Utils/Kernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

/// Declares `begin(i64, i64)` and `end(i64)` in `module`, unless they are.
static void declareHooks(ModuleOp module, StringRef begin, StringRef end) {
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  Type i64 = b.getI64Type();
  auto declare = [&](StringRef name, TypeRange inputs) {
    if (module.lookupSymbol(name))
      return;
    auto func = func::FuncOp::create(b, module.getLoc(), name,
                                     b.getFunctionType(inputs, {}));
    func.setPrivate();
  };
  declare(begin, {i64, i64});
  declare(end, {i64});
}

void fuse::declareKernelHooks(ModuleOp module) {
  declareHooks(module, kKernelBeginHook, kKernelEndHook);
}

void fuse::declareCopyHooks(ModuleOp module) {
  declareHooks(module, kCopyBeginHook, kCopyEndHook);
}

Value fuse::bufferBytes(OpBuilder &b, Location loc, ArrayRef<Value> buffers) {
  Value total = arith::ConstantIntOp::create(b, loc, 0, 64);
  for (Value buffer : buffers) {
    auto type = cast<MemRefType>(buffer.getType());
    Value size = arith::ConstantIndexOp::create(
        b, loc, storageBytes(type.getElementType()));
    for (int64_t d = 0; d < type.getRank(); ++d)
      size = arith::MulIOp::create(b, loc, size,
                                   memref::DimOp::create(b, loc, buffer, d));
    total = arith::AddIOp::create(
        b, loc, total,
        arith::IndexCastUIOp::create(b, loc, b.getI64Type(), size));
  }
  return total;
}
