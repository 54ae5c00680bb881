//===- FuseDialect.td - fuse dialect definition ------------*- tablegen -*-===//
//
// The `fuse` dialect: elementwise tensor programs with numpy broadcasting.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_IR_FUSEDIALECT_TD
#define FUSE_DIALECT_FUSE_IR_FUSEDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Fuse_Dialect : Dialect {
  let name = "fuse";
  let summary = "Elementwise tensor programs with numpy broadcasting";
  let description = [{
    The `fuse` dialect describes elementwise tensor programs: unary and binary
    arithmetic, comparisons, selection, casts and constants over ranked
    tensors with static or dynamic dimensions, and reductions (sum, max, min,
    mean) over some of their dimensions. Binary operations broadcast their
    operands like numpy. Every elementwise op computes each result element
    from the operand elements at the same (broadcast) position, so any
    connected group of them over one iteration space can be fused into one
    kernel; a reduction fuses with the elementwise ops before and after it
    over the same rows.
  }];
  let cppNamespace = "::fuse";
  let hasConstantMaterializer = 1;
  // The attributes fuse's passes put on other dialects' ops, each a
  // contract between passes (FuseDialect::<Name>AttrHelper):
  //  - `fuse.ops` on a linalg.generic: the fuse ops it computes, in order
  //    (convert-fuse-to-linalg, fuse-elementwise-fusion);
  //  - `fuse.group` on a linalg.generic: the kernel it is a part of, when a
  //    kernel is several generics (a reduction with the generics before and
  //    after it that run in the same pass over its rows;
  //    convert-fuse-to-linalg, fuse-reduction-fusion); the generics of one
  //    group are adjacent in their block;
  //  - `fuse.kernel` on a linalg.generic: its kernel's name
  //    (fuse-name-kernels, one name for a group), which the launch and
  //    gpu.func take;
  //  - `fuse.kernels` on the module: the kernels' names in launch order
  //    (fuse-map-to-gpu), which profile records index;
  //  - `fuse.overwrites` on the module: [result, argument] pairs, each a
  //    result that a run may compute straight into the memory of that
  //    argument when the caller gives it as the result's output array (an
  //    optimizer's in-place update; fuse-map-to-gpu), which
  //    Executable::checkOuts takes;
  //  - `fuse.result` on a memref.alloc: the function result it is
  //    (fuse-own-results, for fuse-result-allocs);
  //  - `fuse.allocations` on the module: what each host allocation is for,
  //    indexed by the id of its `fuse_allocation` call
  //    (fuse-name-allocations), which errors of a failed allocation name;
  //  - `fuse.unfused` on a func.func: the remarks of fuse-elementwise-
  //    fusion about pairs it left apart in a function with reductions, each
  //    {consumer, producer, message}, which fuse-reduction-fusion emits for
  //    the pairs that it does not join either;
  //  - `fuse.type` on a linalg.generic whose result type is not its fuse
  //    op's (convert-fuse-to-linalg took its loops of size 1 away, or it
  //    copies the operand of a reduction over dimensions of size 1 only,
  //    which it drops): the fuse op's, which the remarks of
  //    fuse-elementwise-fusion name; that pass drops it.
  let discardableAttrs = (ins
    "::mlir::ArrayAttr":$allocations,
    "::mlir::ArrayAttr":$ops,
    "::mlir::IntegerAttr":$group,
    "::mlir::StringAttr":$kernel,
    "::mlir::ArrayAttr":$kernels,
    "::mlir::ArrayAttr":$overwrites,
    "::mlir::IntegerAttr":$result,
    "::mlir::ArrayAttr":$unfused,
    "::mlir::TypeAttr":$type
  );
}

//===----------------------------------------------------------------------===//
// Types accepted by fuse ops.
//===----------------------------------------------------------------------===//

def Fuse_Float : AnyTypeOf<[F16, BF16, F32, F64]>;
def Fuse_Int : AnyTypeOf<[I32, I64]>;
def Fuse_Element : AnyTypeOf<[F16, BF16, F32, F64, I32, I64, I1]>;

// Ranked tensors whose C++ type is ShapedType: the parser then takes an
// unranked tensor or a vector, and the verifier says what the op takes
// ("must be ranked tensor of ... values, but got 'tensor<*xf32>'"), where
// RankedTensorType's parser said "invalid kind of type specified: expected
// builtin.tensor".
class Fuse_RankedTensorOf<list<Type> allowedTypes>
    : ShapedContainerType<allowedTypes, IsRankedTensorTypePred,
                          "ranked tensor", "::mlir::ShapedType">;

def Fuse_Tensor : Fuse_RankedTensorOf<[F16, BF16, F32, F64, I32, I64, I1]>;
def Fuse_FloatTensor : Fuse_RankedTensorOf<[F16, BF16, F32, F64]>;
def Fuse_NumericTensor : Fuse_RankedTensorOf<[F16, BF16, F32, F64, I32, I64]>;
def Fuse_BoolTensor : Fuse_RankedTensorOf<[I1]>;

//===----------------------------------------------------------------------===//
// Attributes.
//===----------------------------------------------------------------------===//

def Fuse_CmpPredicate : I32EnumAttr<"CmpPredicate", "comparison predicate", [
  I32EnumAttrCase<"eq", 0>, I32EnumAttrCase<"ne", 1>,
  I32EnumAttrCase<"lt", 2>, I32EnumAttrCase<"le", 3>,
  I32EnumAttrCase<"gt", 4>, I32EnumAttrCase<"ge", 5>]> {
  let cppNamespace = "::fuse";
}

#endif // FUSE_DIALECT_FUSE_IR_FUSEDIALECT_TD
