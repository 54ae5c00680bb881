//===- FuseOps.h - fuse dialect operations ----------------------*- C++ -*-===//

#ifndef FUSE_DIALECT_FUSE_IR_FUSEOPS_H
#define FUSE_DIALECT_FUSE_IR_FUSEOPS_H

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace fuse {

/// The broadcast of `operands` (ranked tensors) with `elementType`, or with
/// the first operand's element type when `elementType` is null. Returns null
/// when the shapes do not broadcast.
mlir::RankedTensorType inferBroadcastType(mlir::TypeRange operands,
                                          mlir::Type elementType);

/// Verifies an op with broadcasting operands: equal element types of the data
/// operands, broadcast-compatible shapes, and the declared result type.
mlir::LogicalResult verifyBroadcastOperands(mlir::Operation *op);

/// Verifies that every attribute of `op` without a dialect prefix is one the
/// op defines.
mlir::LogicalResult verifyKnownAttributes(mlir::Operation *op);

/// Why a tensor of `type` is refused for its encoding ("has type T, with
/// an encoding (E); fuse compiles tensors without one"), or std::nullopt:
/// the lowering to linalg drops an encoding. The fuse ops' verifier and
/// the check of a program's signature (fuse-check-program) say it.
std::optional<std::string> encodingProblem(mlir::Type type);

/// Verifies that no operand or result of `op` is a tensor with an encoding.
mlir::LogicalResult verifyPlainTensors(mlir::Operation *op);

namespace OpTrait {
template <typename ConcreteType>
class PlainTensors
    : public mlir::OpTrait::TraitBase<ConcreteType, PlainTensors> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyPlainTensors(op);
  }
};

template <typename ConcreteType>
class KnownAttributes
    : public mlir::OpTrait::TraitBase<ConcreteType, KnownAttributes> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyKnownAttributes(op);
  }
};

template <typename ConcreteType>
class BroadcastOperands
    : public mlir::OpTrait::TraitBase<ConcreteType, BroadcastOperands> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyBroadcastOperands(op);
  }
};

/// A reduction over the dimensions of its `dims` attribute
/// (fuse.reduce_sum, reduce_max, reduce_min, reduce_mean).
template <typename ConcreteType>
class Reduction : public mlir::OpTrait::TraitBase<ConcreteType, Reduction> {};
} // namespace OpTrait

/// The dimensions a reduction reduces, or std::nullopt for other ops.
std::optional<llvm::ArrayRef<int64_t>> reducedDims(mlir::Operation *op);

/// Whether `op` is a reduction with no value when a reduced dimension is
/// empty: a reduce_max or reduce_min without `identity_if_empty`.
bool emptyReductionIsError(mlir::Operation *op);

/// An integer attribute's value as its type reads it (`200 : ui8` is 200,
/// not -56), if an int64_t holds it.
std::optional<int64_t> integerAttrValue(mlir::IntegerAttr attr);

} // namespace fuse

#include "fuse/Dialect/Fuse/IR/FuseEnums.h.inc"

#define GET_OP_CLASSES
#include "fuse/Dialect/Fuse/IR/FuseOps.h.inc"

#endif // FUSE_DIALECT_FUSE_IR_FUSEOPS_H
