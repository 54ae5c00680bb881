//===- FuseToLinalg.cpp - fuse ops to linalg.generic ----------*- C++ -*-===//
//
// Every fuse op becomes one linalg.generic (the eager form). The body of
// an elementwise op's generic is its scalar semantics (ScalarOpInterface,
// lib/Dialect/Fuse/IR/FuseScalar.cpp).
//
//===----------------------------------------------------------------------===//

#include "fuse/Conversion/FuseToLinalg/FuseToLinalg.h"
#include "fuse/Conversion/Passes.h"
#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "fuse/Dialect/Fuse/Utils/Kernel.h"
#include "fuse/Dialect/Fuse/Utils/Location.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <set>

namespace fuse {
#define GEN_PASS_DEF_CONVERTFUSETOLINALG
#include "fuse/Conversion/Passes.h.inc"
} // namespace fuse

using namespace mlir;
using namespace fuse;

//===----------------------------------------------------------------------===//
// Dynamic sizes: union-find over the `?` dimensions of a function
//===----------------------------------------------------------------------===//

namespace {

/// Gives each `?` of each fuse value an SSA size. A `?` of a value that no
/// fuse op produced (a function argument, usually) starts a class; a fuse op
/// unifies the classes that broadcasting lines up. Each class member is read
/// once with tensor.dim right after its value is defined, and an op takes
/// the first member of the class (arguments come first) that dominates it.
/// Every size that broadcasting assumed equal gets a cf.assert as soon as
/// both sizes are known, before any kernel relies on it.
class FunctionSizes : public DynamicSizes {
public:
  explicit FunctionSizes(func::FuncOp func) : dominance(func) {}
  void build(func::FuncOp func);
  SmallVector<Value> get(Value value) const override;
  SmallVector<Value> reducedOperandSizes(Operation *op) const override;

private:
  /// One dimension of a value: a static size, or the class of a `?`.
  struct Dim {
    int64_t size;
    int cls;
  };
  /// A run-time check, caused by `op`, that class `cls` equals class
  /// `other` (when >= 0) or the static size `size`.
  struct Check {
    Operation *op;
    int cls;
    int other;
    int64_t size;
  };

  ArrayRef<Dim> dimsOf(Value value);
  int find(int cls) const {
    while (parent[cls] != cls)
      cls = parent[cls];
    return cls;
  }
  void unite(int a, int b);
  Value sizeOf(int cls);
  /// The size of class `cls` for use at `user`.
  Value sizeAt(int cls, Operation *user);
  std::string describe(int cls) const;
  void materialize();
  /// Asserts before `op` that the bytes of its result (or with
  /// `betweenRuns` of the values a reduction stores between its runs of
  /// dimensions), `staticBytes` times the `dynamic` sizes, fit in 64 bits.
  void checkBytes(Operation *op, ArrayRef<Value> dynamic, int64_t staticBytes,
                  bool betweenRuns = false);

  DominanceInfo dominance;
  DenseMap<Value, SmallVector<Dim>> dims;
  SmallVector<int> parent;
  /// Members of each root class, in class order.
  DenseMap<int, SmallVector<int>> classMembers;
  /// The value and dimension each class was started by.
  SmallVector<std::pair<Value, unsigned>> members;
  SmallVector<Value> sizes;
  SmallVector<Check> checks;
  /// Fuse op results in program order, and their dynamic sizes.
  SmallVector<Value> results;
  DenseMap<Value, SmallVector<Value>> resultSizes;
  /// Reductions in program order, and their operand's dynamic sizes.
  SmallVector<Operation *> reductions;
  DenseMap<Operation *, SmallVector<Value>> operandSizes;
  Operation *lastEntryOp = nullptr;
};

} // namespace

ArrayRef<FunctionSizes::Dim> FunctionSizes::dimsOf(Value value) {
  auto it = dims.find(value);
  if (it != dims.end())
    return it->second;
  SmallVector<Dim> result;
  auto type = cast<RankedTensorType>(value.getType());
  for (auto [d, size] : llvm::enumerate(type.getShape())) {
    if (!ShapedType::isDynamic(size)) {
      result.push_back({size, -1});
      continue;
    }
    int cls = parent.size();
    parent.push_back(cls);
    classMembers[cls].push_back(cls);
    members.push_back({value, static_cast<unsigned>(d)});
    sizes.push_back(Value());
    result.push_back({size, cls});
  }
  return dims[value] = std::move(result);
}

void FunctionSizes::unite(int a, int b) {
  a = find(a);
  b = find(b);
  if (a == b)
    return;
  if (a > b)
    std::swap(a, b);
  parent[b] = a;
  SmallVector<int> moved = classMembers.lookup(b);
  classMembers.erase(b);
  SmallVector<int> &into = classMembers[a];
  into.append(moved.begin(), moved.end());
  llvm::sort(into);
}

void FunctionSizes::build(func::FuncOp func) {
  // Arguments first: the first (argument, dimension) of a class names it.
  for (BlockArgument arg : func.getArguments())
    if (isa<RankedTensorType>(arg.getType()))
      (void)dimsOf(arg);
  func.walk([&](Operation *op) {
    if (!isa_and_nonnull<FuseDialect>(op->getDialect()) ||
        op->getNumResults() != 1)
      return;
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    int64_t rank = resultType.getRank();
    SmallVector<Dim> resultDims;
    if (std::optional<ArrayRef<int64_t>> reduced = reducedDims(op)) {
      // The dimensions not reduced are the operand's; reduced ones are
      // dropped or kept with size 1. No size is assumed equal to another.
      SmallVector<Dim> operandDims(dimsOf(op->getOperand(0)));
      bool keeps = rank == static_cast<int64_t>(operandDims.size());
      for (auto [d, dim] : llvm::enumerate(operandDims)) {
        if (!llvm::is_contained(*reduced, static_cast<int64_t>(d)))
          resultDims.push_back(dim);
        else if (keeps)
          resultDims.push_back({1, -1});
      }
      dims[op->getResult(0)] = std::move(resultDims);
      results.push_back(op->getResult(0));
      reductions.push_back(op);
      return;
    }
    for (int64_t r = 0; r < rank; ++r) {
      int64_t size = resultType.getDimSize(r);
      int first = -1;
      for (Value operand : op->getOperands()) {
        ArrayRef<Dim> operandDims = dimsOf(operand);
        int64_t offset = rank - operandDims.size();
        if (r < offset || operandDims[r - offset].cls < 0)
          continue;
        int cls = operandDims[r - offset].cls;
        if (!ShapedType::isDynamic(size)) {
          checks.push_back({op, cls, -1, size});
        } else if (first < 0) {
          first = cls;
        } else if (find(cls) != find(first)) {
          checks.push_back({op, first, cls, 0});
          unite(first, cls);
        }
      }
      resultDims.push_back({size, ShapedType::isDynamic(size) ? first : -1});
    }
    dims[op->getResult(0)] = std::move(resultDims);
    results.push_back(op->getResult(0));
  });
  materialize();
}

Value FunctionSizes::sizeOf(int cls) {
  if (sizes[cls])
    return sizes[cls];
  auto [value, dim] = members[cls];
  OpBuilder builder(value.getContext());
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (lastEntryOp && lastEntryOp->getBlock() == arg.getOwner())
      builder.setInsertionPointAfter(lastEntryOp);
    else
      builder.setInsertionPointToStart(arg.getOwner());
  } else {
    builder.setInsertionPointAfter(value.getDefiningOp());
  }
  Location loc = value.getLoc();
  Value index = arith::ConstantIndexOp::create(builder, loc, dim);
  auto size = tensor::DimOp::create(builder, loc, value, index);
  if (isa<BlockArgument>(value))
    lastEntryOp = size;
  return sizes[cls] = size;
}

Value FunctionSizes::sizeAt(int cls, Operation *user) {
  for (int member : classMembers.lookup(find(cls))) {
    if (dominance.properlyDominates(members[member].first, user))
      return sizeOf(member);
  }
  // The operand that carries this dimension dominates `user`, and so does a
  // member of its class; reaching here would be a bug in build().
  llvm_unreachable("no member of the size class dominates its user");
}

std::string FunctionSizes::describe(int cls) const {
  auto [value, dim] = members[cls];
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "dimension " << dim << " of ";
  if (auto arg = dyn_cast<BlockArgument>(value))
    os << "argument " << arg.getArgNumber();
  else
    os << "the result of '" << value.getDefiningOp()->getName() << "'";
  return text;
}

void FunctionSizes::materialize() {
  // All sizes first, so that checks placed after the same size stay in
  // program order.
  for (const Check &check : checks) {
    sizeOf(check.cls);
    if (check.other >= 0)
      sizeOf(check.other);
  }
  DenseMap<Operation *, Operation *> lastCheckAfter;
  for (const Check &check : checks) {
    Location loc = check.op->getLoc();
    Value lhs = sizeOf(check.cls);
    Value rhs = check.other >= 0 ? sizeOf(check.other) : Value();
    // Right after both sizes are known, before any kernel can use either.
    Operation *after = lhs.getDefiningOp();
    if (rhs && dominance.properlyDominates(after, rhs.getDefiningOp()))
      after = rhs.getDefiningOp();
    // The entry reads every argument size first, then checks them.
    if (lastEntryOp && after->getBlock() == lastEntryOp->getBlock() &&
        after->isBeforeInBlock(lastEntryOp))
      after = lastEntryOp;
    Operation *&previous = lastCheckAfter[after];
    OpBuilder builder(after->getContext());
    builder.setInsertionPointAfter(previous ? previous : after);
    std::string message = opAt(check.op->getName().getStringRef(), loc) + ": " +
                          describe(check.cls);
    if (rhs) {
      message += " and " + describe(check.other) +
                 " must be equal (broadcasting assumes it)";
    } else {
      rhs = arith::ConstantIndexOp::create(builder, loc, check.size);
      message += " must be " + std::to_string(check.size) +
                 " (broadcasting assumes it)";
    }
    Value equal =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, lhs, rhs);
    previous = cf::AssertOp::create(builder, loc, equal, message);
  }
  // Each result's bytes, where its `?` sizes could make them more than fit
  // in 64 bits: a reduction of an empty operand has as many elements as its
  // kept sizes say (a 2^62 x 0 operand gives 2^62 sums), and the
  // allocation's byte count would wrap. Not checked where an argument
  // bounds them: one whose `?` sizes are the result's and others known not
  // to be 0 (a max or min checked its reduced sizes before), whose static
  // sizes are not 0 and give at least as many bytes. Its buffer exists, so
  // the result's bytes fit. Else checked once per combination of size
  // classes and static bytes, before the first result that has it.
  // The size classes of `shape` (sorted) and its static bytes of `element`.
  auto keyOf = [&](ArrayRef<Dim> shape, Type element) {
    std::pair<SmallVector<int>, int64_t> key{{}, storageBytes(element)};
    for (const Dim &dim : shape) {
      if (dim.cls >= 0)
        key.first.push_back(find(dim.cls));
      else // fuse-check-program refused static bytes that overflow.
        (void)llvm::MulOverflow(key.second, dim.size, key.second);
    }
    llvm::sort(key.first);
    return key;
  };
  auto key = [&](Value value) {
    // A reduction's accumulator (f32 for f16 data) has its result's shape.
    Type element = getElementTypeOrSelf(value.getType());
    Operation *op = value.getDefiningOp();
    if (op && reducedDims(op))
      element = computeElementType(element);
    return keyOf(dims[value], element);
  };
  SmallVector<std::pair<SmallVector<int>, int64_t>> arguments;
  for (auto [index, member] : llvm::enumerate(members))
    if (isa<BlockArgument>(member.first) &&
        (index == 0 || members[index - 1].first != member.first))
      arguments.push_back(key(member.first));
  DenseSet<int> nonzero;
  auto bounded = [&](ArrayRef<int> classes, int64_t bytes) {
    return llvm::any_of(arguments, [&](const auto &argument) {
      if (argument.second < bytes)
        return false;
      // The argument's classes that the result does not have are known not
      // to be 0: both lists are sorted.
      SmallVector<int> extra;
      std::set_difference(argument.first.begin(), argument.first.end(),
                          classes.begin(), classes.end(),
                          std::back_inserter(extra));
      return argument.first.size() == classes.size() + extra.size() &&
             llvm::all_of(extra, [&](int cls) { return nonzero.count(cls); });
    });
  };
  std::set<std::pair<SmallVector<int>, int64_t>> checkedBytes;
  for (Value value : results) {
    SmallVector<Value> &dynamic = resultSizes[value];
    Operation *op = value.getDefiningOp();
    for (const Dim &dim : dims[value])
      if (dim.cls >= 0)
        dynamic.push_back(sizeAt(dim.cls, op));
    // A max or min checks that its reduced sizes are not 0 before it
    // allocates anything.
    if (emptyReductionIsError(op))
      for (const Dim &dim : dims[op->getOperand(0)])
        if (dim.cls >= 0 &&
            !llvm::is_contained(
                llvm::map_range(dims[value],
                                [](const Dim &d) { return d.cls; }),
                dim.cls))
          nonzero.insert(find(dim.cls));
    auto [classes, bytes] = key(value);
    if (dynamic.empty() || bytes == 0 || bounded(classes, bytes) ||
        !checkedBytes.insert({classes, bytes}).second)
      continue;
    checkBytes(op, dynamic, bytes);
  }
  // (Apart from the results' checks, which may come after a reduction.)
  std::set<std::pair<SmallVector<int>, int64_t>> checkedStores;
  for (Operation *op : reductions) {
    SmallVector<Value> &dynamic = operandSizes[op];
    ArrayRef<Dim> operand = dims[op->getOperand(0)];
    for (const Dim &dim : operand)
      if (dim.cls >= 0)
        dynamic.push_back(sizeAt(dim.cls, op));
    // A reduction over runs of dimensions (`dims = [0, 2]`) stores the
    // values of its innermost run between kernels: the operand without
    // that run, in the accumulation type, the largest such value. An empty
    // operand bounds it no more than its result (a 2^62 x 4 x 0 operand
    // gives 2^64 bytes of sums over its last dimension).
    ArrayRef<int64_t> reduced = *reducedDims(op);
    auto joins = [&](int64_t d) {
      return llvm::is_contained(reduced, d) || operand[d].size == 1;
    };
    int64_t d = llvm::max_element(reduced) == reduced.end()
                    ? -1
                    : *llvm::max_element(reduced);
    while (d >= 0 && joins(d))
      --d;
    // Dimensions 0 to d are the value's; one of them reduced is a run.
    if (!llvm::any_of(
            reduced, [&](int64_t r) { return r <= d && operand[r].size != 1; }))
      continue;
    Type element = getElementTypeOrSelf(op->getOperand(0).getType());
    std::pair<SmallVector<int>, int64_t> stored =
        keyOf(operand.take_front(d + 1), computeElementType(element));
    SmallVector<Value> storedSizes;
    for (const Dim &dim : operand.take_front(d + 1))
      if (dim.cls >= 0)
        storedSizes.push_back(sizeAt(dim.cls, op));
    if (storedSizes.empty() || stored.second == 0 ||
        bounded(stored.first, stored.second) ||
        !checkedStores.insert(stored).second)
      continue;
    checkBytes(op, storedSizes, stored.second, /*betweenRuns=*/true);
  }
}

void FunctionSizes::checkBytes(Operation *op, ArrayRef<Value> dynamic,
                               int64_t staticBytes, bool betweenRuns) {
  Location loc = op->getLoc();
  OpBuilder b(op);
  Type i64 = b.getI64Type();
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(b, loc, i64, value);
  };
  Value zero = constant(0);
  Value bytes = constant(staticBytes);
  Value overflow = arith::ConstantIntOp::create(b, loc, false, 1);
  Value empty = overflow;
  for (Value size : dynamic) {
    Value n = arith::IndexCastOp::create(b, loc, i64, size);
    auto product = arith::MulUIExtendedOp::create(b, loc, bytes, n);
    // Sizes and byte counts are signed 64-bit numbers: the product fits
    // when its high half is 0 and its low half is not negative.
    Value high = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                       product.getHigh(), zero);
    Value sign = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                       product.getLow(), zero);
    overflow = arith::OrIOp::create(b, loc, overflow,
                                    arith::OrIOp::create(b, loc, high, sign));
    empty = arith::OrIOp::create(
        b, loc, empty,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, n, zero));
    bytes = product.getLow();
  }
  // A size of 0 anywhere makes the result empty, whatever the others are.
  Value fits = arith::OrIOp::create(
      b, loc, empty,
      arith::XOrIOp::create(b, loc, overflow,
                            arith::ConstantIntOp::create(b, loc, true, 1)));
  std::string message;
  llvm::raw_string_ostream os(message);
  Type type = op->getResult(0).getType();
  Type element = getElementTypeOrSelf(type);
  os << opAt(op->getName().getStringRef(), loc) << ": ";
  if (betweenRuns) {
    os << "its partial results over its innermost reduced dimensions (in "
       << computeElementType(element)
       << "), which it stores before it reduces the others, ";
  } else {
    os << "its result, of type " << type << ", ";
    if (reducedDims(op) && computeElementType(element) != element)
      os << "accumulated in " << computeElementType(element) << ", ";
  }
  os << "would have more than 2^63 - 1 bytes with these argument sizes";
  cf::AssertOp::create(b, loc, fits, message);
}

SmallVector<Value> FunctionSizes::reducedOperandSizes(Operation *op) const {
  return operandSizes.lookup(op);
}

SmallVector<Value> FunctionSizes::get(Value value) const {
  return resultSizes.lookup(value);
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// The indexing map of an operand of type `operand` in an iteration space
/// of shape `result`: leading dimensions it lacks and its stretched size-1
/// dimensions read index 0.
static AffineMap broadcastMap(RankedTensorType operand,
                              RankedTensorType result) {
  MLIRContext *context = operand.getContext();
  int64_t offset = result.getRank() - operand.getRank();
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < operand.getRank(); ++d) {
    bool stretched =
        operand.getDimSize(d) == 1 && result.getDimSize(d + offset) != 1;
    exprs.push_back(stretched ? getAffineConstantExpr(0, context)
                              : getAffineDimExpr(d + offset, context));
  }
  return AffineMap::get(result.getRank(), 0, exprs, context);
}

/// Whether the view between `type` and the tensor whose dimensions are
/// `type`'s grouped by `groups` only inserts or removes dimensions of size
/// 1: at most one dimension of each group is not a static 1.
static bool onlyUnitDims(RankedTensorType type,
                         ArrayRef<ReassociationIndices> groups) {
  return llvm::all_of(groups, [&](const ReassociationIndices &group) {
    return llvm::count_if(
               group, [&](int64_t d) { return type.getDimSize(d) != 1; }) <= 1;
  });
}

/// The source of `expand`, which only inserts dimensions of size 1, and the
/// indexing map that reads it where `map` read the expanded tensor: each
/// group of the expansion keeps the expression of its one dimension that is
/// not a static 1 (of its first when all are).
static std::pair<Value, AffineMap>
readThroughUnitDims(tensor::ExpandShapeOp expand, AffineMap map) {
  RankedTensorType expanded = expand.getResultType();
  SmallVector<AffineExpr> exprs;
  for (const ReassociationIndices &group : expand.getReassociationIndices()) {
    int64_t chosen = group.front();
    for (int64_t d : group)
      if (expanded.getDimSize(d) != 1)
        chosen = d;
    exprs.push_back(map.getResult(chosen));
  }
  return {expand.getSrc(),
          AffineMap::get(map.getNumDims(), 0, exprs, map.getContext())};
}

/// The loops 0..rank-1 as a reduction over the loops [first, end) next to
/// each other takes them: those one loop, each other alone, [[0], ...,
/// [first - 1], [first, ..., end - 1], [end], ..., [rank - 1]].
static SmallVector<ReassociationIndices> runGroups(int64_t first, int64_t end,
                                                   int64_t rank) {
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < first; ++d)
    groups.push_back({d});
  groups.push_back(llvm::to_vector(llvm::seq<int64_t>(first, end)));
  for (int64_t d = end; d < rank; ++d)
    groups.push_back({d});
  return groups;
}

/// The dimensions 0..rank-1 grouped so that each one that `absorbed` names
/// goes with the one before it that it does not (those before the first
/// such one with that one): [[0, 1], [2, 3, 4]] for 1, 3 and 4 absorbed.
/// None when every one is (the view of a 0-d tensor). How a value's size-1
/// dimensions view it as a tensor of its others.
static SmallVector<ReassociationIndices>
absorbingGroups(int64_t rank, llvm::function_ref<bool(int64_t)> absorbed) {
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices leading;
  for (int64_t d = 0; d < rank; ++d) {
    if (!absorbed(d)) {
      groups.push_back(leading);
      leading.clear();
    }
    (groups.empty() ? leading : groups.back()).push_back(d);
  }
  return groups;
}

/// The arith op that combines a reduction's accumulator of `type` with an
/// element: addf/addi for sum and mean, maximumf/maxsi for max,
/// minimumf/minsi for min (NaN propagates). Its identity
/// (combinerIdentity) is where the accumulator starts. None for a
/// reduction not listed here (a new one: docs/extending.md).
static std::optional<OperationName> combinerOf(Operation *op, Type type) {
  bool isFloat = isa<FloatType>(type);
  StringRef name;
  if (isa<ReduceMaxOp>(op))
    name = isFloat ? arith::MaximumFOp::getOperationName()
                   : arith::MaxSIOp::getOperationName();
  else if (isa<ReduceMinOp>(op))
    name = isFloat ? arith::MinimumFOp::getOperationName()
                   : arith::MinSIOp::getOperationName();
  else if (isa<ReduceSumOp, ReduceMeanOp>(op))
    name = isFloat ? arith::AddFOp::getOperationName()
                   : arith::AddIOp::getOperationName();
  else
    return std::nullopt;
  return OperationName(name, op->getContext());
}

namespace {

/// Every elementwise op (ScalarOpInterface): one generic over the result's
/// shape, each operand read through its broadcast, the op's buildScalar its
/// body.
struct ElementwiseLowering : OpInterfaceConversionPattern<ScalarOpInterface> {
  ElementwiseLowering(MLIRContext *context, const DynamicSizes &sizes)
      : OpInterfaceConversionPattern<ScalarOpInterface>(context), sizes(sizes) {
  }

  LogicalResult
  matchAndRewrite(ScalarOpInterface op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value opResult = op->getResult(0);
    auto resultType = cast<RankedTensorType>(opResult.getType());
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    // Per operand: a splat constant folded into the body, or the index of
    // the input it reads (an operand used twice is read once).
    SmallVector<TypedAttr> inlined;
    SmallVector<unsigned> inputOf;
    for (Value operand : operands) {
      DenseElementsAttr constant;
      if (matchPattern(operand, m_Constant(&constant)) && constant.isSplat()) {
        inlined.push_back(constant.getSplatValue<TypedAttr>());
        inputOf.push_back(0);
        continue;
      }
      inlined.push_back({});
      AffineMap map =
          broadcastMap(cast<RankedTensorType>(operand.getType()), resultType);
      // A reduction's result with its dimensions kept is read through the
      // reduction's own tensor, without the size-1 dimensions.
      if (auto expand = operand.getDefiningOp<tensor::ExpandShapeOp>()) {
        std::tie(operand, map) = readThroughUnitDims(expand, map);
      }
      auto *it = llvm::find(inputs, operand);
      inputOf.push_back(it - inputs.begin());
      if (it != inputs.end())
        continue;
      inputs.push_back(operand);
      maps.push_back(map);
    }
    maps.push_back(rewriter.getMultiDimIdentityMap(resultType.getRank()));

    Value init = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                         resultType.getElementType(),
                                         sizes.get(opResult));
    SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps,
        iterators, [&](OpBuilder &b, Location bodyLoc, ValueRange blockArgs) {
          SmallVector<Value> args;
          for (auto [attr, input] : llvm::zip(inlined, inputOf))
            args.push_back(
                attr ? Value(arith::ConstantOp::create(b, bodyLoc, attr))
                     : blockArgs[input]);
          Value result =
              op.buildScalar(b, bodyLoc, args, resultType.getElementType());
          linalg::YieldOp::create(b, bodyLoc, result);
        });
    StringRef name = op->getName().stripDialect();
    FuseDialect::OpsAttrHelper(rewriter.getContext())
        .setAttr(generic, rewriter.getStrArrayAttr({name}));
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }

  const DynamicSizes &sizes;
};

struct ConstantLowering : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto value = dyn_cast<TypedAttr>(op.getValue());
    if (!value)
      return rewriter.notifyMatchFailure(op, "constant value is not typed");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, value);
    return success();
  }
};

/// A reduction as a linalg.generic that reduces over `dims` into a tensor
/// without them, accumulating in f32 for f16/bf16 data, from the identity
/// of its combination; a mean's division by the count and the rounding of
/// f16/bf16 follow in a second generic of the same kernel (`fuse.group`).
/// Kept dimensions are a tensor.expand_shape of the result, which the
/// generics that read it see through (readThroughUnitDims).
template <typename OpTy> struct ReductionLowering : OpConversionPattern<OpTy> {
  ReductionLowering(MLIRContext *context, const DynamicSizes &sizes,
                    int64_t &nextGroup)
      : OpConversionPattern<OpTy>(context), sizes(sizes), nextGroup(nextGroup) {
  }

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    Type element = inputType.getElementType();
    Type accType = computeElementType(element);
    int64_t rank = inputType.getRank();
    ArrayRef<int64_t> dims = op.getDims();
    auto isReduced = [&](int64_t d) { return llvm::is_contained(dims, d); };

    // Every size of the operand: a constant or the dynamic size.
    SmallVector<Value> dynamic = sizes.reducedOperandSizes(op);
    SmallVector<OpFoldResult> operandSizes;
    for (int64_t d = 0, next = 0; d < rank; ++d)
      operandSizes.push_back(
          inputType.isDynamicDim(d)
              ? OpFoldResult(dynamic[next++])
              : OpFoldResult(rewriter.getIndexAttr(inputType.getDimSize(d))));

    // max and min of nothing: checked at run time for dynamic sizes (the
    // verifier refuses a static 0), unless they give their identity.
    StringRef name = op->getName().stripDialect();
    if (emptyReductionIsError(op)) {
      for (int64_t d : dims) {
        if (!inputType.isDynamicDim(d))
          continue;
        Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
        Value nonEmpty =
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                  cast<Value>(operandSizes[d]), zero);
        cf::AssertOp::create(
            rewriter, loc, nonEmpty,
            opAt("fuse." + name.str(), loc) + ": dimension " +
                std::to_string(d) + " of the operand is 0, and an empty " +
                name.str() + " has no value (numpy's error too)");
      }
    }

    // The reduced dimensions next to each other are runs, each reduced in
    // turn, the innermost first, by a generic of its own over the values
    // of the one before (in the accumulation type): `dims = [0, 2, 3]` of
    // an NCHW tensor sums each (n, c)'s H x W, a row read in lanes, then
    // those sums over n (docs/dialect.md, "Reductions"). A run of several
    // dimensions is one loop of their product (a view of the operand,
    // taken up through the elementwise generics before it, see the pass),
    // in row-major order. The innermost ones are a row read in lanes;
    // others (`dims = [0, 1]` of a 3-D tensor, a batch norm's mean over N,
    // H and W) rows that are cut into pieces.
    //
    // A dimension of size 1, reduced or not, holds one element along it:
    // it goes with the dimension before it (the leading ones with the
    // first) in a view of the operand, so that it splits no run (`dims =
    // [0, 2]` of `? x ? x 1` reduces a `? x ?` view over dimension 0, in
    // one stage; `dims = [1, 3]` of `? x ? x 1 x ?` is one run) and leaves
    // no loop of size 1 after a row (`dims = [0]` of `? x 1`, a column of
    // one, is the whole operand's row). The elementwise generics around go
    // over the same space, without their loops of size 1 (the pass).
    SmallVector<int64_t> sorted = llvm::to_vector(dims);
    SmallVector<OpFoldResult> loopSizes(operandSizes);
    auto unit = [&](int64_t d) { return inputType.getDimSize(d) == 1; };
    bool dropsUnits = llvm::any_of(llvm::seq<int64_t>(0, rank), unit) &&
                      !llvm::is_contained(inputType.getShape(), 0);
    // Every reduced dimension of size 1: nothing is reduced, and the
    // result is the operand, an elementwise copy over the operand's own
    // loops (its sum, max, min or mean of one element, exactly, in any
    // element type), viewed without them when they are dropped: the
    // elementwise ops around read it over the same loops, and fuse with it.
    if (llvm::all_of(dims,
                     [&](int64_t d) { return inputType.getDimSize(d) == 1; }) &&
        !llvm::is_contained(inputType.getShape(), 0)) {
      Value empty =
          tensor::EmptyOp::create(rewriter, loc, operandSizes, element);
      auto copy = linalg::GenericOp::create(
          rewriter, loc, TypeRange{empty.getType()}, ValueRange{input},
          ValueRange{empty},
          SmallVector<AffineMap>(2, rewriter.getMultiDimIdentityMap(rank)),
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
            linalg::YieldOp::create(b, bodyLoc, args[0]);
          });
      FuseDialect::OpsAttrHelper(context).setAttr(
          copy, rewriter.getStrArrayAttr({name}));
      // The remarks name the op's own type, not its operand's.
      if (resultType.getRank() != rank)
        FuseDialect::TypeAttrHelper(context).setAttr(copy,
                                                     TypeAttr::get(resultType));
      Value copied = copy.getResult(0);
      if (resultType.getRank() != rank)
        copied =
            tensor::CollapseShapeOp::create(rewriter, loc, resultType, copied,
                                            absorbingGroups(rank, isReduced));
      rewriter.replaceOp(op, copied);
      return success();
    }
    if (dropsUnits) {
      SmallVector<ReassociationIndices> groups = absorbingGroups(rank, unit);
      sorted.clear();
      loopSizes.clear();
      for (auto [g, group] : llvm::enumerate(groups)) {
        int64_t d = *llvm::find_if_not(group, unit);
        if (isReduced(d))
          sorted.push_back(g);
        loopSizes.push_back(operandSizes[d]);
      }
      input = tensor::CollapseShapeOp::create(rewriter, loc, input, groups);
    }
    llvm::sort(sorted);
    SmallVector<std::pair<int64_t, int64_t>> runs;
    for (int64_t d : sorted) {
      if (!runs.empty() && runs.back().second == d)
        ++runs.back().second;
      else
        runs.push_back({d, d + 1});
    }
    std::optional<OperationName> combinerFound = combinerOf(op, accType);
    if (!combinerFound)
      return op->emitOpError(
          "has no combiner: combinerOf (lib/Conversion/FuseToLinalg) says how "
          "each reduction combines its accumulator with an element");
    OperationName combiner = *combinerFound;
    auto opsAttr = rewriter.getStrArrayAttr({name});
    Value result = input;
    SmallVector<OpFoldResult> keptSizes;
    linalg::GenericOp reduce;
    for (auto [first, end] : llvm::reverse(runs)) {
      int64_t loops = loopSizes.size();
      int64_t run = end - first;
      // (Not a tensor with a static 0 among them: memref.collapse_shape
      // would take the group as static once bufferized, its result type
      // not.)
      if (run >= 2 &&
          !llvm::is_contained(
              cast<RankedTensorType>(result.getType()).getShape(), 0)) {
        result = tensor::CollapseShapeOp::create(rewriter, loc, result,
                                                 runGroups(first, end, loops));
        OpFoldResult row = rewriter.getIndexAttr(1);
        for (int64_t d = first; d < end; ++d)
          row = multiplySizes(rewriter, loc, row, loopSizes[d]);
        loopSizes.erase(loopSizes.begin() + first, loopSizes.begin() + end);
        loopSizes.insert(loopSizes.begin() + first, row);
        loops -= run - 1;
        end = first + 1;
      }
      keptSizes.clear();
      SmallVector<AffineExpr> keptExprs;
      SmallVector<utils::IteratorType> iterators;
      for (int64_t d = 0; d < loops; ++d) {
        bool reduced = d >= first && d < end;
        iterators.push_back(reduced ? utils::IteratorType::reduction
                                    : utils::IteratorType::parallel);
        if (reduced)
          continue;
        keptSizes.push_back(loopSizes[d]);
        keptExprs.push_back(rewriter.getAffineDimExpr(d));
      }
      Value empty = tensor::EmptyOp::create(rewriter, loc, keptSizes, accType);
      Value identity = arith::ConstantOp::create(
          rewriter, loc, combinerIdentity(combiner, accType));
      Value init =
          linalg::FillOp::create(rewriter, loc, identity, empty).getResult(0);
      SmallVector<AffineMap> maps = {
          rewriter.getMultiDimIdentityMap(loops),
          AffineMap::get(loops, 0, keptExprs, context)};
      reduce = linalg::GenericOp::create(
          rewriter, loc, TypeRange{init.getType()}, ValueRange{result},
          ValueRange{init}, maps, iterators,
          [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
            Value x = args[0];
            if (x.getType() != accType)
              x = arith::ExtFOp::create(b, bodyLoc, accType, x);
            OperationState state(bodyLoc, combiner);
            state.addOperands({args[1], x});
            state.addTypes(accType);
            linalg::YieldOp::create(b, bodyLoc, b.create(state)->getResult(0));
          });
      FuseDialect::OpsAttrHelper(context).setAttr(reduce, opsAttr);
      result = reduce.getResult(0);
      loopSizes = keptSizes;
    }

    bool mean = isa<ReduceMeanOp>(op);
    if (reduce && (mean || accType != element)) {
      // The epilogue, in the same kernel: divide by the count (a scalar
      // from the host), round to the element type.
      auto keptType = cast<RankedTensorType>(result.getType());
      int64_t keptRank = keptType.getRank();
      Value countFloat;
      if (mean) {
        Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
        for (int64_t d : dims)
          count = arith::MulIOp::create(
              rewriter, loc, count,
              getValueOrCreateConstantIndexOp(rewriter, loc, operandSizes[d]));
        countFloat = arith::UIToFPOp::create(
            rewriter, loc, accType,
            arith::IndexCastUIOp::create(rewriter, loc, rewriter.getI64Type(),
                                         count));
      }
      SmallVector<AffineMap> epilogueMaps(
          2, rewriter.getMultiDimIdentityMap(keptRank));
      Value out = tensor::EmptyOp::create(rewriter, loc, keptSizes, element);
      auto epilogue = linalg::GenericOp::create(
          rewriter, loc, TypeRange{out.getType()}, ValueRange{result},
          ValueRange{out}, epilogueMaps,
          SmallVector<utils::IteratorType>(keptRank,
                                           utils::IteratorType::parallel),
          [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
            Value value = args[0];
            if (mean)
              value = arith::DivFOp::create(b, bodyLoc, value, countFloat);
            if (value.getType() != element)
              value = arith::TruncFOp::create(b, bodyLoc, element, value);
            linalg::YieldOp::create(b, bodyLoc, value);
          });
      // It computes no op of its own: it finishes the reduction.
      FuseDialect::OpsAttrHelper(context).setAttr(epilogue,
                                                  rewriter.getArrayAttr({}));
      auto group = rewriter.getI64IntegerAttr(nextGroup++);
      FuseDialect::GroupAttrHelper(context).setAttr(reduce, group);
      FuseDialect::GroupAttrHelper(context).setAttr(epilogue, group);
      result = epilogue.getResult(0);
    }

    // The result type's dimensions (the operand's: all of them when the
    // reduced ones are kept) from those the reduction made, the kept ones
    // that it did not leave out: each of those groups with the size-1
    // dimensions after it, the first also with those before it (none when
    // there is none: a 0-d tensor expands).
    bool keepsReduced = resultType.getRank() == rank;
    SmallVector<int64_t> resultDims;
    for (int64_t d = 0; d < rank; ++d)
      if (keepsReduced || !isReduced(d))
        resultDims.push_back(d);
    auto made = [&](int64_t d) {
      return !isReduced(d) && !(dropsUnits && unit(d));
    };
    if (static_cast<int64_t>(llvm::count_if(resultDims, made)) !=
        resultType.getRank()) {
      SmallVector<ReassociationIndices> groups =
          absorbingGroups(resultType.getRank(),
                          [&](int64_t r) { return !made(resultDims[r]); });
      SmallVector<OpFoldResult> outputShape;
      for (int64_t d : resultDims)
        outputShape.push_back(made(d) ? operandSizes[d]
                                      : rewriter.getIndexAttr(1));
      result = tensor::ExpandShapeOp::create(rewriter, loc, resultType, result,
                                             groups, outputShape);
    }
    rewriter.replaceOp(op, result);
    return success();
  }

  const DynamicSizes &sizes;
  int64_t &nextGroup;
};

} // namespace

void fuse::populateFuseToLinalgConversionPatterns(RewritePatternSet &patterns,
                                                  const DynamicSizes &sizes,
                                                  int64_t &nextGroup) {
  patterns.add<ElementwiseLowering>(patterns.getContext(), sizes);
  patterns.add<ConstantLowering>(patterns.getContext());
  patterns.add<ReductionLowering<ReduceSumOp>, ReductionLowering<ReduceMaxOp>,
               ReductionLowering<ReduceMinOp>, ReductionLowering<ReduceMeanOp>>(
      patterns.getContext(), sizes, nextGroup);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
/// Whether `op` is an elementwise generic of fuse's lowering that may
/// iterate over a collapsed space: one output, not a part of a kernel with
/// reductions (a mean's division, a rounding to f16, whose generics share
/// the reduction's loops), no operand with a static 0 (see
/// ReductionLowering).
bool collapsible(linalg::GenericOp op) {
  return isElementwiseKernel(op) && op.getNumDpsInits() == 1 &&
         !kernelGroup(op) &&
         llvm::none_of(op->getOperandTypes(), [](Type type) {
           auto shaped = dyn_cast<ShapedType>(type);
           return shaped && llvm::is_contained(shaped.getShape(), 0);
         });
}

/// `replacement`, `op` without its loops of size 1, gets op's attributes
/// (fuse.ops), and the type of the fuse op's result (fuse.type) where it
/// has no such attribute yet.
void keepAttributes(linalg::GenericOp op, Operation *replacement) {
  replacement->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  FuseDialect::TypeAttrHelper type(op.getContext());
  if (!type.isAttrPresent(replacement) && op->getNumResults() == 1)
    type.setAttr(replacement, TypeAttr::get(op->getResult(0).getType()));
}

/// Whether a generic with indexing maps `maps` can iterate over its loops
/// collapsed by `groups`: every map keeps each group together (a broadcast
/// along part of a group does not). Upstream's check takes maps of loop
/// dimensions only: a size-1 dimension read at index 0 (a broadcast,
/// `(d0, d1) -> (0, d1)`) keeps the generic as it is (difftest seed 400903:
/// the check read the constant as a dimension, and the collapse was wrong
/// or right by chance).
bool canCollapse(ArrayRef<AffineMap> maps,
                 ArrayRef<ReassociationIndices> groups) {
  return llvm::all_of(
             maps,
             [](AffineMap map) { return map.isProjectedPermutation(); }) &&
         linalg::areDimSequencesPreserved(maps, groups);
}

/// The outputs of `op`, a generic over other loops than its fuse op's, that
/// are views of a tensor.empty: a tensor.empty of the view's sizes
/// (products of the sizes it collapses), as the fusion passes size an
/// elementwise generic's loops, and a buffer of its own once bufferized
/// (a view of another's would be a returned view, copied: fuse-own-results).
void freshInits(linalg::LinalgOp op, RewriterBase &rewriter) {
  for (OpOperand &init : op.getDpsInitsMutable()) {
    auto view = init.get().getDefiningOp<tensor::CollapseShapeOp>();
    auto empty =
        view ? view.getSrc().getDefiningOp<tensor::EmptyOp>() : nullptr;
    if (!empty)
      continue;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(view);
    SmallVector<OpFoldResult> sizes;
    for (const ReassociationIndices &group : view.getReassociationIndices()) {
      OpFoldResult size = rewriter.getIndexAttr(1);
      for (int64_t d : group)
        size = multiplySizes(rewriter, view.getLoc(), size,
                             empty.getMixedSizes()[d]);
      sizes.push_back(size);
    }
    rewriter.modifyOpInPlace(op, [&] {
      init.set(tensor::EmptyOp::create(rewriter, view.getLoc(), sizes,
                                       empty.getType().getElementType()));
    });
  }
}

/// `op` over its loops collapsed by `groups`, reading collapsed operands,
/// with its attributes (fuse.ops), where every indexing map keeps each
/// group together (a broadcast along part of a group does not); its
/// results, viewed back in their shapes, replace op's.
LogicalResult collapseGeneric(linalg::GenericOp op,
                              ArrayRef<ReassociationIndices> groups,
                              PatternRewriter &rewriter) {
  if (!canCollapse(op.getIndexingMapsArray(), groups))
    return failure();
  FailureOr<linalg::CollapseResult> collapsed =
      linalg::collapseOpIterationDims(op, groups, rewriter);
  if (failed(collapsed))
    return failure();
  linalg::LinalgOp collapsedOp = collapsed->collapsedOp;
  collapsedOp->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  freshInits(collapsedOp, rewriter);
  rewriter.replaceOp(op, collapsed->results);
  return success();
}

/// `op` without its loops of size 1, its results viewed back in their
/// shapes, with its attributes (fuse.ops).
LogicalResult dropUnitLoops(linalg::GenericOp op, RewriterBase &rewriter) {
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::DropUnitDimsResult> dropped =
      linalg::dropUnitDims(rewriter, op, linalg::ControlDropUnitDims());
  if (failed(dropped))
    return failure();
  keepAttributes(op, dropped->resultOp);
  freshInits(cast<linalg::LinalgOp>(dropped->resultOp.getOperation()),
             rewriter);
  rewriter.replaceOp(op, dropped->replacements);
  return success();
}

/// Every elementwise generic of `func` (`collapsible`) without its loops of
/// size 1, unless all of its loops have size 1: a reduction goes over its
/// operand without them (ReductionLowering), and the generics around it
/// over the same space fuse with it, as they do where the dimensions are
/// not there (`x - x.mean(axis=(0, 1), keepdims=True)` of a `1 x N` x as of
/// an `N` one). A generic of a single element keeps its loops: one without
/// loops is recomputed by each reader (ElementwiseFusion).
void dropUnitLoops(func::FuncOp func) {
  SmallVector<linalg::GenericOp> generics;
  func.walk([&](linalg::GenericOp op) {
    SmallVector<int64_t> loops = op.getStaticLoopRanges();
    if (collapsible(op) && llvm::is_contained(loops, 1) &&
        !llvm::all_of(loops, [](int64_t size) { return size == 1; }))
      generics.push_back(op);
  });
  IRRewriter rewriter(func.getContext());
  for (linalg::GenericOp op : generics)
    (void)dropUnitLoops(op, rewriter);
  // What reads such a generic's result viewed back with its size-1
  // dimensions (a `log` of a row sum, read by `x - log(sum)`) reads the
  // result itself, as it reads a reduction's (readThroughUnitDims).
  func.walk([&](linalg::GenericOp op) {
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    bool changed = false;
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto expand = input->get().getDefiningOp<tensor::ExpandShapeOp>();
      if (!expand || !onlyUnitDims(expand.getResultType(),
                                   expand.getReassociationIndices()))
        continue;
      AffineMap &map = maps[input->getOperandNumber()];
      Value source;
      std::tie(source, map) = readThroughUnitDims(expand, map);
      input->set(source);
      changed = true;
    }
    if (changed)
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
  });
}

/// tensor.collapse_shape of the result of an elementwise generic that
/// nothing else reads (only such views of it), where every indexing map keeps
/// each group of collapsed dimensions together (a broadcast along part of a
/// group does not): the generic over the collapsed space, reading collapsed
/// operands, with its attributes (fuse.ops).
struct CollapseElementwiseProducer : OpRewritePattern<tensor::CollapseShapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::CollapseShapeOp collapse,
                                PatternRewriter &rewriter) const override {
    auto producer = collapse.getSrc().getDefiningOp<linalg::GenericOp>();
    if (!producer || !collapsible(producer))
      return failure();
    // Only these views read it (one per operand that reads it: `d * d`),
    // its sizes (which the view back in its shape has), and the function's
    // return, which gets that view (`relu(x)` returned, and averaged over
    // dimensions 2 and 3: one kernel, as over one dimension).
    SmallVector<ReassociationIndices> groups =
        collapse.getReassociationIndices();
    for (Operation *user : collapse.getSrc().getUsers()) {
      if (isa<tensor::DimOp, func::ReturnOp>(user))
        continue;
      auto other = dyn_cast<tensor::CollapseShapeOp>(user);
      if (!other || other.getReassociationIndices() != groups)
        return failure();
    }
    // Where the producer is: before every view of it, not at this one.
    rewriter.setInsertionPoint(producer);
    if (succeeded(collapseGeneric(producer, groups, rewriter)))
      return success();
    // A view that only merges size-1 dimensions into another (a value of
    // the rows with the reduced dimensions kept, read as one of the rows):
    // the producer runs over the rows alone.
    if (onlyUnitDims(collapse.getSrcType(), groups))
      return dropUnitLoops(producer, rewriter);
    return failure();
  }
};

/// A generic of fuse's lowering, with `collapsible`'s conditions, that
/// reads a value of the rows of a reduction over several dimensions next to
/// each other (collapsed into one loop: ReductionLowering), broadcast over
/// those dimensions (`x - mean(x, dims = [1, 2])`, or a batch norm's `x -
/// mean(x, dims = [0, 1, 2])`), or a value that such a generic produced,
/// through the view that expands it back (`c * c` of that `c`): the generic
/// over the reduction's collapsed space, so that it fuses with the
/// reduction. Its results are viewed back in its own shape.
struct CollapseRowConsumer : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!collapsible(op))
      return failure();
    // The groups of loops it goes over collapsed.
    SmallVector<ReassociationIndices> groups;
    // A row value read with size-1 dimensions (its reduced ones kept) is
    // read as a tensor of the rows alone: `rowInput`, at `rowMap`.
    OpOperand *rowInput = nullptr;
    AffineMap rowMap;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      if (auto expand = input->get().getDefiningOp<tensor::ExpandShapeOp>()) {
        // A generic's result collapsed by runs, with a loop beside them or
        // all of its loops in one (the division of a softmax over every
        // element, which an f16 cast after it stored again in a kernel of
        // its own).
        SmallVector<ReassociationIndices> viewed =
            expand.getReassociationIndices();
        if (map.isIdentity() &&
            expand.getSrc().getDefiningOp<linalg::GenericOp>() &&
            !viewed.empty() &&
            llvm::any_of(viewed, [](const ReassociationIndices &group) {
              return group.size() >= 2;
            })) {
          groups = viewed;
          break;
        }
      }
      // A row value, read at its row.
      std::optional<AffineMap> read = rowRead(map, input->get().getType());
      if (!read || !isRowValue(input->get()))
        continue;
      groups = missingRuns(*read);
      if (groups.empty())
        continue;
      if (*read != map) {
        rowInput = input;
        rowMap = *read;
      }
      break;
    }
    // Else an operand that a reduction reads collapsed into its rows, read
    // over the whole space (`exp(x)` beside `x.sum(axis=(1, 2))`): the
    // generic goes over the same collapsed space, so that it fuses with the
    // reduction, which then reads the operand once for both.
    if (groups.empty())
      for (OpOperand *input : op.getDpsInputOperands()) {
        if (!op.getMatchingIndexingMap(input).isIdentity())
          continue;
        for (Operation *user : input->get().getUsers()) {
          auto collapse = dyn_cast<tensor::CollapseShapeOp>(user);
          if (collapse && llvm::any_of(collapse->getUsers(), [](Operation *u) {
                auto reduction = dyn_cast<linalg::GenericOp>(u);
                return reduction && reduction.getNumReductionLoops() > 0;
              })) {
            groups = collapse.getReassociationIndices();
            break;
          }
        }
        if (!groups.empty())
          break;
      }
    if (groups.empty())
      return failure();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    if (rowInput)
      maps[rowInput->getOperandNumber()] = rowMap;
    // Other operands read the same way (a weight per channel of shape
    // `1 x C x 1 x 1` beside an instance norm's statistics) are read as
    // tensors of their other dimensions too.
    SmallVector<OpOperand *> rowReads;
    if (rowInput)
      rowReads.push_back(rowInput);
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap &map = maps[input->getOperandNumber()];
      if (input == rowInput || map.isProjectedPermutation())
        continue;
      if (std::optional<AffineMap> read =
              rowRead(map, input->get().getType())) {
        map = *read;
        rowReads.push_back(input);
      }
    }
    if (!canCollapse(maps, groups) || !usersFollow(op, groups) ||
        !producersFollow(op, groups))
      return failure();
    rewriter.setInsertionPoint(op);
    // An elementwise generic that computes the row value with loops of
    // size 1 (a `log` of a sum with its dimensions kept) runs over the rows
    // alone.
    if (rowInput)
      if (auto producer = rowInput->get().getDefiningOp<linalg::GenericOp>();
          producer && collapsible(producer)) {
        OpBuilder::InsertionGuard guard(rewriter);
        (void)dropUnitLoops(producer, rewriter);
      }
    for (OpOperand *input : rowReads) {
      // Its size-1 dimensions go with the dimension it reads before them
      // (the leading ones with the first; all of them for a 0-d result: the
      // reduction's rows are one).
      AffineMap map = op.getMatchingIndexingMap(input);
      SmallVector<ReassociationIndices> rows =
          absorbingGroups(map.getNumResults(), [&](int64_t r) {
            return !isa<AffineDimExpr>(map.getResult(r));
          });
      Value read = tensor::CollapseShapeOp::create(rewriter, op.getLoc(),
                                                   input->get(), rows);
      rewriter.modifyOpInPlace(op, [&] { input->set(read); });
    }
    if (!rowReads.empty())
      rewriter.modifyOpInPlace(op, [&] {
        op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      });
    return collapseGeneric(op, groups, rewriter);
  }

  /// Whether what reads `op`'s results can read them collapsed by `groups`
  /// too: generics over the same loops that can run collapsed, views of the
  /// same rows (a reduction's operand), the function's results. Else `op`
  /// stays as it is, fused with them (a weight broadcast along part of the
  /// row after `x - mean(x)`): collapsed, it would write its result for
  /// them to read.
  static bool usersFollow(linalg::GenericOp op,
                          ArrayRef<ReassociationIndices> groups) {
    return llvm::all_of(op->getUsers(), [&](Operation *user) {
      if (isa<func::ReturnOp, tensor::DimOp>(user))
        return true;
      if (auto expand = dyn_cast<tensor::ExpandShapeOp>(user))
        return llvm::all_of(expand->getUsers(), [](Operation *viewer) {
          return isa<func::ReturnOp, tensor::DimOp>(viewer);
        });
      if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(user))
        return collapse.getReassociationIndices() ==
               ArrayRef<ReassociationIndices>(groups);
      auto generic = dyn_cast<linalg::GenericOp>(user);
      return generic && generic.getNumLoops() == op.getNumLoops() &&
             runsCollapsed(generic, groups);
    });
  }

  /// Whether `generic` can run over its loops collapsed by `groups`, its
  /// operands that are values of the rows read as tensors of the rows
  /// (rowRead).
  static bool runsCollapsed(linalg::GenericOp generic,
                            ArrayRef<ReassociationIndices> groups) {
    if (!collapsible(generic))
      return false;
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    for (OpOperand &operand : generic->getOpOperands())
      if (std::optional<AffineMap> read = rowRead(
              maps[operand.getOperandNumber()], operand.get().getType()))
        maps[operand.getOperandNumber()] = *read;
    return canCollapse(maps, groups);
  }

  /// Whether the elementwise generics whose results `op` reads over its
  /// whole space can run collapsed by `groups` too. Else `op` stays as it
  /// is, fused with them (`x * y - sum(x)` of an `N x 1` x and a `1 x M`
  /// y: collapsed, the sub would read the product, broadcast along part of
  /// the group, from memory).
  static bool producersFollow(linalg::GenericOp op,
                              ArrayRef<ReassociationIndices> groups) {
    return llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
      auto producer = input->get().getDefiningOp<linalg::GenericOp>();
      AffineMap map = op.getMatchingIndexingMap(input);
      return !producer || !map.isPermutation() ||
             !isElementwiseKernel(producer) || runsCollapsed(producer, groups);
    });
  }

  /// For `map` whose results are loops in their order and zeros, reading
  /// an operand of type `type` whose dimensions at the zeros are size 1 (a
  /// value of the rows, the reduced dimensions kept: (d0, d1, d2) -> (d0,
  /// 0, 0), or (d0, d1, d2, d3) -> (0, 0, 0, d3)), the map without the
  /// zeros ((d0, ..., dn) -> (d0), (d3)): how the operand reads as a tensor
  /// of the rows alone.
  static std::optional<AffineMap> rowRead(AffineMap map, Type type) {
    auto shaped = cast<ShapedType>(type);
    SmallVector<AffineExpr> loops;
    for (auto [r, result] : llvm::enumerate(map.getResults())) {
      if (auto loop = dyn_cast<AffineDimExpr>(result)) {
        if (!loops.empty() && cast<AffineDimExpr>(loops.back()).getPosition() >=
                                  loop.getPosition())
          return std::nullopt;
        loops.push_back(loop);
        continue;
      }
      if (result != getAffineConstantExpr(0, map.getContext()) ||
          shaped.getDimSize(r) != 1)
        return std::nullopt;
    }
    return AffineMap::get(map.getNumDims(), 0, loops, map.getContext());
  }

  /// The loops grouped by the runs of those that `read` (a row read:
  /// rowRead) does not take, each other loop alone, when a run is of two or
  /// more: the runs of a reduction's dimensions that its rows were
  /// collapsed by. Else none.
  static SmallVector<ReassociationIndices> missingRuns(AffineMap read) {
    SmallVector<ReassociationIndices> groups;
    bool collapses = false;
    for (unsigned d = 0; d < read.getNumDims(); ++d) {
      bool missing = !read.isFunctionOfDim(d);
      if (missing && d > 0 && !read.isFunctionOfDim(d - 1)) {
        groups.back().push_back(d);
        collapses = true;
        continue;
      }
      groups.push_back({static_cast<int64_t>(d)});
    }
    if (!collapses)
      groups.clear();
    return groups;
  }

  /// Whether `value` is a reduction's, or computed from one by elementwise
  /// generics (through views).
  static bool isRowValue(Value value) {
    SmallVector<Value> worklist = {value};
    DenseSet<Value> seen;
    while (!worklist.empty()) {
      Value next = worklist.pop_back_val();
      if (!seen.insert(next).second)
        continue;
      Operation *def = next.getDefiningOp();
      if (isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
              def)) {
        worklist.push_back(def->getOperand(0));
        continue;
      }
      auto generic = dyn_cast_or_null<linalg::GenericOp>(def);
      if (!generic)
        continue;
      if (generic.getNumReductionLoops() > 0)
        return true;
      if (isElementwiseKernel(generic))
        llvm::append_range(worklist, generic.getDpsInputs());
    }
    return false;
  }
};

/// A returned constant with one value everywhere (a splat) is written by a
/// kernel of its own, a generic with no inputs, as `torch.full` is: not
/// data of the program that the JIT compiles and each run copies (a
/// `dense<1.0> : tensor<16384x16384xf32>` was 1 GiB of it). The kernel's
/// op is `constant`. Any other returned constant stays data, copied.
void fillReturnedSplats(func::FuncOp func) {
  DenseMap<Value, Value> filled;
  func.walk([&](func::ReturnOp ret) {
    for (OpOperand &operand : ret->getOpOperands()) {
      DenseElementsAttr value;
      if (!matchPattern(operand.get(), m_Constant(&value)) || !value.isSplat())
        continue;
      Value &kernel = filled[operand.get()];
      if (!kernel) {
        auto type = cast<RankedTensorType>(value.getType());
        OpBuilder b(ret);
        Location loc = operand.get().getLoc();
        Value init = tensor::EmptyOp::create(b, loc, type.getShape(),
                                             type.getElementType());
        auto generic = linalg::GenericOp::create(
            b, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
            {b.getMultiDimIdentityMap(type.getRank())},
            SmallVector<utils::IteratorType>(type.getRank(),
                                             utils::IteratorType::parallel),
            [&](OpBuilder &body, Location bodyLoc, ValueRange) {
              Value scalar = arith::ConstantOp::create(
                  body, bodyLoc, value.getSplatValue<TypedAttr>());
              linalg::YieldOp::create(body, bodyLoc, scalar);
            });
        FuseDialect::OpsAttrHelper(b.getContext())
            .setAttr(generic, b.getStrArrayAttr({"constant"}));
        kernel = generic.getResult(0);
      }
      operand.set(kernel);
    }
  });
}

struct ConvertFuseToLinalgPass
    : fuse::impl::ConvertFuseToLinalgBase<ConvertFuseToLinalgPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    // fuse.opaque, on scalars and vectors, is made by the compiler inside
    // kernel bodies; in a program's function it has no sizes to take.
    WalkResult internal =
        func.walk(
            [](OpaqueOp op) {
              if (op->getParentOfType<linalg::GenericOp>())
                return WalkResult::advance();
              op.emitOpError()
                  << "is compiler-internal: fuse-guard-target-math puts it "
                     "in kernel bodies, between a constant and a math "
                     "function; a fuse program does not use it";
              return WalkResult::interrupt();
            });
    if (internal.wasInterrupted())
      return signalPassFailure();
    // An op whose result nothing uses is no kernel and checks no sizes,
    // eager as fused (whose CSE leaves it out first) and as a traced Python
    // function (which has no such op): the report's kernels and size
    // symbols are then those of one program.
    SmallVector<Operation *> fuseOps;
    func.walk([&](Operation *op) {
      if (isa_and_nonnull<FuseDialect>(op->getDialect()))
        fuseOps.push_back(op);
    });
    for (Operation *op : llvm::reverse(fuseOps))
      if (isOpTriviallyDead(op))
        op->erase();
    FunctionSizes sizes(func);
    sizes.build(func);

    ConversionTarget target(getContext());
    target.addIllegalDialect<FuseDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(&getContext());
    int64_t nextGroup = 0;
    populateFuseToLinalgConversionPatterns(patterns, sizes, nextGroup);
    if (failed(applyPartialConversion(func, target, std::move(patterns))))
      return signalPassFailure();
    fillReturnedSplats(func);

    dropUnitLoops(func);

    // A reduction's collapsed operand (several innermost dimensions as one
    // row) goes up through the elementwise generics that compute it and
    // nothing else, which then iterate over the collapsed space: they stay
    // fusable with the reduction, and the views reach the arguments.
    // One generic further up per round, until none moves.
    // The generics that read the reduction's row values broadcast over the
    // row's dimensions, and those that read what they compute, come down
    // into the collapsed space likewise (CollapseRowConsumer).
    RewritePatternSet folds(&getContext());
    folds.add<CollapseElementwiseProducer, CollapseRowConsumer>(&getContext());
    tensor::CollapseShapeOp::getCanonicalizationPatterns(folds, &getContext());
    FrozenRewritePatternSet frozen(std::move(folds));
    for (bool changed = true; changed;) {
      SmallVector<Operation *> ops;
      bool collapsedRows = false;
      func.walk([&](Operation *op) {
        if (isa<tensor::CollapseShapeOp, linalg::GenericOp>(op))
          ops.push_back(op);
        collapsedRows |= isa<tensor::CollapseShapeOp>(op);
      });
      changed = false;
      if (collapsedRows && failed(applyOpPatternsGreedily(
                               ops, frozen, GreedyRewriteConfig(), &changed)))
        return signalPassFailure();
    }

    // The views' sizes that their types fix are constants (upstream's
    // collapse passes the operand's tensor.dim even where the result type
    // is static, which memref.expand_shape's verifier refuses).
    func.walk([](tensor::ExpandShapeOp expand) {
      SmallVector<OpFoldResult> sizes = expand.getMixedOutputShape();
      bool changed = false;
      for (auto [d, size] : llvm::enumerate(sizes))
        if (!expand.getResultType().isDynamicDim(d) && isa<Value>(size)) {
          size = OpBuilder(expand).getIndexAttr(
              expand.getResultType().getDimSize(d));
          changed = true;
        }
      if (!changed)
        return;
      OpBuilder b(expand);
      auto fixed = tensor::ExpandShapeOp::create(
          b, expand.getLoc(), expand.getResultType(), expand.getSrc(),
          expand.getReassociationIndices(), sizes);
      expand.replaceAllUsesWith(fixed.getResult());
      expand.erase();
    });
    // A collapsed generic's results are viewed back in their shapes; the
    // sizes read of those views are the sizes they were made with, and
    // views that nothing else reads go: a kernel's intermediate read only
    // for its sizes is not a result the kernel must write. So are the sizes
    // read of a view that collapses a tensor (the sizes that upstream's
    // linalg::dropUnitDims gives the view back of a generic's result): the
    // product of the tensor's sizes in the group, each a constant or its own
    // tensor.dim, so that fusion and the report see the function's sizes.
    func.walk([](tensor::DimOp dim) {
      std::optional<int64_t> k = dim.getConstantIndex();
      Operation *view = dim.getSource().getDefiningOp();
      if (!k ||
          !isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
              view))
        return;
      OpBuilder b(dim);
      OpFoldResult size;
      if (auto expand = dyn_cast<tensor::ExpandShapeOp>(view)) {
        size = expand.getMixedOutputShape()[*k];
      } else {
        auto collapse = cast<tensor::CollapseShapeOp>(view);
        RankedTensorType source = collapse.getSrcType();
        size = b.getIndexAttr(1);
        SmallVector<ReassociationIndices> groups =
            collapse.getReassociationIndices();
        for (int64_t d : groups[*k])
          size = multiplySizes(
              b, dim.getLoc(), size,
              source.isDynamicDim(d)
                  ? OpFoldResult(tensor::DimOp::create(b, dim.getLoc(),
                                                       collapse.getSrc(), d)
                                     .getResult())
                  : OpFoldResult(b.getIndexAttr(source.getDimSize(d))));
      }
      dim.replaceAllUsesWith(
          getValueOrCreateConstantIndexOp(b, dim.getLoc(), size));
      dim.erase();
    });
    func.walk([](tensor::ExpandShapeOp expand) {
      if (expand.use_empty())
        expand.erase();
    });

    // Constants folded into every kernel that reads them are now unused.
    func.walk([](arith::ConstantOp constant) {
      if (constant.use_empty() && isa<ShapedType>(constant.getType()))
        constant.erase();
    });
  }
};
} // namespace
