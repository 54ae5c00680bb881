//===- CheckProgram.cpp - refuse what the pipelines cannot compile --------===//

#include "fuse-c/Fuse.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "fuse/Dialect/Fuse/Transforms/Passes.h"
#include "fuse/Dialect/Fuse/Utils/Kernel.h"
#include "fuse/Dialect/Fuse/Utils/Location.h"
#include "fuse/Support/DTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

namespace fuse {
#define GEN_PASS_DEF_FUSECHECKPROGRAM
#include "fuse/Dialect/Fuse/Transforms/Passes.h.inc"
} // namespace fuse

using namespace mlir;

namespace {

/// A ranked tensor of one of fuse's element types (DTypes.def).
bool isFuseTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return false;
  return fuse::fromMLIRType(tensor.getElementType()).has_value();
}

/// Why a tensor of `type` is not compiled: an encoding, a rank above
/// FUSE_MAX_RANK (the C API's, numpy 1.x's limit; past it the LLVM lowering
/// of memref descriptors takes time quadratic in the rank), or static sizes
/// of more bytes than an int64 counts, 2^63 - 1 (the report's counts and
/// the kernels' indices would wrap); or nothing.
std::optional<std::string> typeProblem(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return std::nullopt;
  if (std::optional<std::string> problem = fuse::encodingProblem(type))
    return problem;
  if (tensor.getRank() > FUSE_MAX_RANK)
    return "has rank " + std::to_string(tensor.getRank()) +
           "; fuse compiles tensors of rank " + std::to_string(FUSE_MAX_RANK) +
           " at most (numpy 1.x's limit)";
  std::optional<fuse::DType> dtype =
      fuse::fromMLIRType(tensor.getElementType());
  if (!dtype)
    return std::nullopt;
  // The sizes other than 0 too: an empty tensor's index arithmetic still
  // multiplies them.
  int64_t bytes = static_cast<int64_t>(fuse::dtypeSize(*dtype));
  for (int64_t size : tensor.getShape())
    if (!ShapedType::isDynamic(size) && size != 0 &&
        llvm::MulOverflow(bytes, size, bytes)) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "has type " << type;
      if (llvm::is_contained(tensor.getShape(), 0))
        os << ", whose sizes other than 0 make more than 2^63 - 1 bytes (the "
              "most an int64 counts), though it has no element";
      else
        os << ", of more than 2^63 - 1 bytes (the most an int64 counts)";
      return text;
    }
  return std::nullopt;
}

LogicalResult checkSignature(func::FuncOp function) {
  auto check = [&](TypeRange types, StringRef what) -> LogicalResult {
    for (auto [index, type] : llvm::enumerate(types)) {
      // At the argument in the signature; a result has no location of its
      // own.
      Location loc = function.getLoc();
      if (what == "argument" && !function.isExternal())
        loc = function.getArgument(index).getLoc();
      if (!isFuseTensor(type))
        return emitError(loc)
               << fuse::symbolText(function.getSymName()) << " " << what << " "
               << index << " has type " << type
               << "; fuse functions take and return ranked tensors of "
               << fuse::dtypeSpellings();
      if (std::optional<std::string> problem = typeProblem(type))
        return emitError(loc) << fuse::symbolText(function.getSymName()) << " "
                              << what << " " << index << " " << *problem;
    }
    return success();
  };
  // Attributes for the LLVM lowering (`passthrough`, `llvm.noalias`, ...)
  // reached LLVM as they were, and its errors were all a program got. `what`
  // is "" for the function, "argument 0" or "result 0" for the others.
  auto refuseAttrs = [&](Location loc, const llvm::Twine &what,
                         ArrayRef<NamedAttribute> attrs) {
    if (attrs.empty())
      return success();
    InFlightDiagnostic diag = emitError(loc)
                              << fuse::symbolText(function.getSymName());
    if (!what.isTriviallyEmpty())
      diag << " " << what;
    return LogicalResult(
        diag << " has the attribute '" << attrs.begin()->getName().getValue()
             << "': fuse takes no attributes on a function, its arguments or "
                "its results (it makes the compiled function itself)");
  };
  if (failed(refuseAttrs(function.getLoc(), "",
                         llvm::to_vector(function->getDiscardableAttrs()))))
    return failure();
  if (failed(check(function.getArgumentTypes(), "argument")) ||
      failed(check(function.getResultTypes(), "result")))
    return failure();
  // The interface's accessors, which give the attributes as a list (func's
  // own give the ArrayAttr of dictionaries).
  FunctionOpInterface interface = function;
  for (unsigned i = 0; i < function.getNumArguments(); ++i)
    if (failed(refuseAttrs(
            function.isExternal() ? function.getLoc()
                                  : function.getArgument(i).getLoc(),
            "argument " + llvm::Twine(i), interface.getArgAttrs(i))))
      return failure();
  for (unsigned i = 0; i < function.getNumResults(); ++i)
    if (failed(refuseAttrs(function.getLoc(), "result " + llvm::Twine(i),
                           interface.getResultAttrs(i))))
      return failure();
  return success();
}

LogicalResult checkBody(func::FuncOp function) {
  // Parents first: an op with a body (linalg.add, scf.execute_region) is
  // the one the program wrote, where the ops inside it may be implicit
  // (linalg.add's arith.addf, at no location).
  WalkResult walk =
      function.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (isa<func::ReturnOp>(op))
          return WalkResult::advance();
        if (isa_and_nonnull<fuse::FuseDialect>(op->getDialect())) {
          // Another dialect's attribute (`llvm.x`, `foo.y`) would be kept
          // and mean nothing; the op's own are its verifier's.
          for (NamedAttribute attr : op->getDiscardableAttrs()) {
            StringRef name = attr.getName().getValue();
            InFlightDiagnostic diag = op->emitError()
                                      << "'" << op->getName()
                                      << "' has the attribute '" << name << "'";
            if (name.starts_with("fuse."))
              diag << ", which fuse's passes set on the kernels they make, "
                      "not on fuse ops: drop it";
            else
              diag << " of another dialect, which fuse does not read: drop it";
            return WalkResult::interrupt();
          }
          for (auto [index, type] : llvm::enumerate(op->getResultTypes()))
            if (std::optional<std::string> problem = typeProblem(type)) {
              op->emitError() << "'" << op->getName() << "' result " << index
                              << " " << *problem;
              return WalkResult::interrupt();
            }
          return WalkResult::advance();
        }
        InFlightDiagnostic diag =
            op->emitError() << "'" << op->getName()
                            << "' is not a fuse op: fuse compiles functions "
                               "made of fuse ops and func.return";
        if (isa<func::CallOp, func::CallIndirectOp>(op))
          diag << " (calls are not supported; write the callee's ops inline)";
        return WalkResult::interrupt();
      });
  return failure(walk.wasInterrupted());
}

/// Whether `module` is a stage's output (bufferized, outlined or in the LLVM
/// dialect) rather than a program: its errors named ops and types that the
/// lowering made, at the program's own lines.
static Operation *loweredPart(ModuleOp module) {
  Operation *onBuffers = nullptr;
  bool kernels = false;
  for (Operation &op : module.getBody()->getOperations()) {
    Dialect *dialect = op.getDialect();
    // The LLVM dialect (ptx, cpu, cuda) or a constant's buffer (gpu).
    if (dialect &&
        llvm::is_contained({"llvm", "memref"}, dialect->getNamespace()))
      return &op;
    kernels |= isa<gpu::GPUModuleOp, gpu::BinaryOp>(op);
    if (auto function = dyn_cast<func::FuncOp>(op))
      if (!onBuffers && !function.isExternal() &&
          llvm::any_of(function.getFunctionType().getInputs(),
                       llvm::IsaPred<BaseMemRefType>))
        onBuffers = &op;
  }
  // The gpu stage: functions on buffers that launch kernels. (Either alone
  // is a program's mistake, which the checks below name.)
  return kernels ? onBuffers : nullptr;
}

struct CheckProgram : fuse::impl::FuseCheckProgramBase<CheckProgram> {
  void runOnOperation() override {
    if (Operation *lowered = loweredPart(getOperation())) {
      InFlightDiagnostic diag = lowered->emitError();
      if (auto function = dyn_cast<func::FuncOp>(lowered))
        diag << fuse::symbolText(function.getName())
             << " takes buffers (memrefs), ";
      else
        diag << "'" << lowered->getName() << "' is ";
      diag << "a lowering's output: this module is a stage's (gpu or "
              "later), and fuse's pipelines take fuse programs, functions on "
              "tensors; give the program itself, or run the passes that come "
              "next with --pass-pipeline";
      return signalPassFailure();
    }
    bool ok = true;
    for (Operation &op : getOperation().getBody()->getOperations()) {
      auto function = dyn_cast<func::FuncOp>(op);
      if (!function) {
        op.emitError() << "'" << op.getName()
                       << "' is not a function: a fuse program is a module "
                          "of func.func";
        ok = false;
        continue;
      }
      if (function.isExternal())
        continue;
      ok &=
          succeeded(checkSignature(function)) && succeeded(checkBody(function));
    }
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
