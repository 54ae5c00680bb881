//===- FuseInterfaces.td - fuse op interfaces ------------*- tablegen -*-===//

#ifndef FUSE_DIALECT_FUSE_IR_FUSEINTERFACES_TD
#define FUSE_DIALECT_FUSE_IR_FUSEINTERFACES_TD

include "mlir/IR/OpBase.td"

def Fuse_ScalarOpInterface : OpInterface<"ScalarOpInterface"> {
  let cppNamespace = "::fuse";
  let description = [{
    The scalar semantics of an elementwise fuse op: what it computes at one
    element, as arith and math ops. convert-fuse-to-linalg builds each
    generic's body with it. Every op of the elementwise families (unary,
    binary, cmp, select, cast) implements it, next to the others in
    lib/Dialect/Fuse/IR/FuseScalar.cpp, in the words of docs/dialect.md.
  }];
  let methods = [
    InterfaceMethod<[{
      The op's value at one element, built with `b` at `loc`, from its
      operands' elements `args` (scalars of the operands' element types,
      in operand order), as a scalar of `resultElement`. f16 and bf16 data
      is computed in f32 and rounded once at the end (computeElementType),
      as PyTorch does.
    }], "::mlir::Value", "buildScalar",
    (ins "::mlir::OpBuilder &":$b, "::mlir::Location":$loc,
         "::mlir::ValueRange":$args, "::mlir::Type":$resultElement)>
  ];
}

#endif // FUSE_DIALECT_FUSE_IR_FUSEINTERFACES_TD
