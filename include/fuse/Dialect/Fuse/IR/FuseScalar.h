//===- FuseScalar.h - building blocks of the ops' scalar semantics -*- C++
//-*-===//
//
// What the elementwise ops' buildScalar (ScalarOpInterface) share: the
// compute type rule, and the one-op forms that ODS families define for
// their ops (Fuse_UnaryMathOp, Fuse_ArithBinaryOp in FuseOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_IR_FUSESCALAR_H
#define FUSE_DIALECT_FUSE_IR_FUSESCALAR_H

#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace fuse {

/// `compute` applied to `args` in their compute type (computeElementType):
/// f16 and bf16 extended to f32, the result rounded once to
/// `resultElement`.
mlir::Value
inComputeType(mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange args,
              mlir::Type resultElement,
              llvm::function_ref<mlir::Value(mlir::ValueRange)> compute);

/// A unary math function (floats only): `MathOp` in the compute type.
template <typename MathOp>
mlir::Value unaryMath(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::ValueRange args, mlir::Type resultElement) {
  return inComputeType(b, loc, args, resultElement, [&](mlir::ValueRange x) {
    return mlir::Value(MathOp::create(b, loc, x[0]));
  });
}

/// A binary op: `FloatOp` on floats, `IntOp` on integers.
template <typename FloatOp, typename IntOp>
mlir::Value binaryArith(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::ValueRange args, mlir::Type resultElement) {
  return inComputeType(b, loc, args, resultElement, [&](mlir::ValueRange x) {
    if (llvm::isa<mlir::FloatType>(x[0].getType()))
      return mlir::Value(FloatOp::create(b, loc, x[0], x[1]));
    return mlir::Value(IntOp::create(b, loc, x[0], x[1]));
  });
}

} // namespace fuse

#endif // FUSE_DIALECT_FUSE_IR_FUSESCALAR_H
