//===- FuseDialect.cpp - fuse dialect ------------------------*- C++ -*-===//

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace fuse;

#include "fuse/Dialect/Fuse/IR/FuseOpsDialect.cpp.inc"

/// numpy's and PyTorch's names of fuse's ops.
static constexpr std::pair<llvm::StringLiteral, llvm::StringLiteral>
    kOtherNames[] = {
        {"maximum", "max"},      {"minimum", "min"},
        {"multiply", "mul"},     {"subtract", "sub"},
        {"divide", "div"},       {"true_divide", "div"},
        {"negative", "neg"},     {"absolute", "abs"},
        {"power", "pow"},        {"where", "select"},
        {"clip", "clamp"},       {"sum", "reduce_sum"},
        {"mean", "reduce_mean"}, {"amax", "reduce_max"},
        {"amin", "reduce_min"},  {"astype", "cast"},
        {"less", "cmp"},         {"greater", "cmp"},
        {"equal", "cmp"},        {"not_equal", "cmp"},
        {"less_equal", "cmp"},   {"greater_equal", "cmp"},
        {"lt", "cmp"},           {"gt", "cmp"},
        {"eq", "cmp"},           {"ne", "cmp"},
        {"le", "cmp"},           {"ge", "cmp"},
};

/// The op of this dialect that `written` (an unknown op's name, without
/// `fuse.`) means: numpy's or PyTorch's name of it, or the closest name, a
/// typo's distance away (`sigmoidd`, `Relu`); empty when none is.
static StringRef meantOp(MLIRContext *context, Dialect *dialect,
                         StringRef written) {
  std::string lower = written.lower();
  for (auto [other, op] : kOtherNames)
    if (lower == other)
      return op;
  StringRef meant;
  unsigned best = std::max<size_t>(2, written.size() / 4) + 1;
  for (RegisteredOperationName op : context->getRegisteredOperations()) {
    if (&op.getDialect() != dialect)
      continue;
    StringRef known =
        op.getStringRef().drop_front(dialect->getNamespace().size() + 1);
    unsigned distance = StringRef(lower).edit_distance(known);
    if (distance < best) {
      best = distance;
      meant = known;
    }
  }
  return meant;
}

void FuseDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "fuse/Dialect/Fuse/IR/FuseOps.cpp.inc"
      >();
  // The parser's error for an unknown op of this dialect ("custom op
  // 'fuse.maximum' is unknown") says which op was meant. The dialect loads
  // when the parser first meets `fuse.`, after the tools have registered
  // their handlers that print, so this one sees the diagnostic first; it
  // adds to it and lets them print it.
  MLIRContext *context = getContext();
  context->getDiagEngine().registerHandler([context](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return failure();
    std::string message = diag.str();
    StringRef text = message;
    if (!text.consume_front("custom op 'fuse.") ||
        !text.contains("' is unknown"))
      return failure();
    StringRef written = text.take_until([](char c) { return c == '\''; });
    auto *fuse = context->getLoadedDialect<FuseDialect>();
    StringRef meant = fuse ? meantOp(context, fuse, written) : StringRef();
    if (!meant.empty())
      diag << "; did you mean 'fuse." << meant << "'?";
    diag << " (docs/dialect.md lists fuse's ops)";
    return failure();
  });
}

Operation *FuseDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, elements);
}
