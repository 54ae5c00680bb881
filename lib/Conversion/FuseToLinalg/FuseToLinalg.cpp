//===- FuseToLinalg.cpp - fuse ops to linalg.generic ----------*- C++ -*-===//
//
// Every fuse op becomes one linalg.generic (the eager form). The scalar
// semantics of each op, written down in docs/dialect.md, live in
// buildScalar() below.
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
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

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
    std::string message = check.op->getName().getStringRef().str() + " at " +
                          formatLocation(loc) + ": " + describe(check.cls);
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
  for (Value value : results) {
    SmallVector<Value> &dynamic = resultSizes[value];
    for (const Dim &dim : dims[value])
      if (dim.cls >= 0)
        dynamic.push_back(sizeAt(dim.cls, value.getDefiningOp()));
  }
  for (Operation *op : reductions) {
    SmallVector<Value> &dynamic = operandSizes[op];
    for (const Dim &dim : dims[op->getOperand(0)])
      if (dim.cls >= 0)
        dynamic.push_back(sizeAt(dim.cls, op));
  }
}

SmallVector<Value> FunctionSizes::reducedOperandSizes(Operation *op) const {
  return operandSizes.lookup(op);
}

SmallVector<Value> FunctionSizes::get(Value value) const {
  return resultSizes.lookup(value);
}

//===----------------------------------------------------------------------===//
// Scalar semantics of each op
//===----------------------------------------------------------------------===//

static Value floatConstant(OpBuilder &b, Location loc, Type type,
                           double value) {
  return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, value));
}

static Value intConstant(OpBuilder &b, Location loc, Type type, int64_t value) {
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, value));
}

static bool isHalf(Type type) { return type.isF16() || type.isBF16(); }

/// Element type conversion with the semantics of fuse.cast.
static Value convertScalar(OpBuilder &b, Location loc, Value value, Type to) {
  Type from = value.getType();
  if (from == to)
    return value;
  if (to.isInteger(1)) {
    if (isa<FloatType>(from))
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, value,
                                   floatConstant(b, loc, from, 0.0));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value,
                                 intConstant(b, loc, from, 0));
  }
  if (from.isInteger(1)) {
    if (isa<FloatType>(to))
      return arith::UIToFPOp::create(b, loc, to, value);
    return arith::ExtUIOp::create(b, loc, to, value);
  }
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
  if (fromFloat && toFloat) {
    unsigned fromWidth = from.getIntOrFloatBitWidth();
    unsigned toWidth = to.getIntOrFloatBitWidth();
    if (fromWidth == toWidth) // f16 <-> bf16 goes through f32
      value = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
    if (value.getType().getIntOrFloatBitWidth() < toWidth)
      return arith::ExtFOp::create(b, loc, to, value);
    return arith::TruncFOp::create(b, loc, to, value);
  }
  if (fromFloat)
    return arith::FPToSIOp::create(b, loc, to, value);
  if (toFloat)
    return arith::SIToFPOp::create(b, loc, to, value);
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return arith::ExtSIOp::create(b, loc, to, value);
  return arith::TruncIOp::create(b, loc, to, value);
}

/// Integer power by squaring over every bit of the exponent, so that it
/// vectorizes (no loop). Negative exponents give 1 for base 1, +-1 for base
/// -1 and 0 otherwise.
static Value integerPow(OpBuilder &b, Location loc, Value base, Value exp) {
  Type type = base.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  Value zero = intConstant(b, loc, type, 0), one = intConstant(b, loc, type, 1);
  Value minusOne = intConstant(b, loc, type, -1);
  Value result = one, square = base, rest = exp;
  for (unsigned bit = 0; bit + 1 < width; ++bit) {
    Value low = arith::AndIOp::create(b, loc, rest, one);
    Value isSet =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, low, zero);
    Value product = arith::MulIOp::create(b, loc, result, square);
    result = arith::SelectOp::create(b, loc, isSet, product, result);
    square = arith::MulIOp::create(b, loc, square, square);
    rest = arith::ShRUIOp::create(b, loc, rest, one);
  }
  Value odd =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                            arith::AndIOp::create(b, loc, exp, one), zero);
  Value baseIsOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, base, one);
  Value baseIsMinusOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, base, minusOne);
  Value signOfMinusOne = arith::SelectOp::create(b, loc, odd, minusOne, one);
  Value negative = arith::SelectOp::create(
      b, loc, baseIsOne, one,
      arith::SelectOp::create(b, loc, baseIsMinusOne, signOfMinusOne, zero));
  Value expNegative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, exp, zero);
  return arith::SelectOp::create(b, loc, expNegative, negative, result);
}

/// Integer division truncating toward zero; x / 0 is 0 and INT_MIN / -1
/// wraps, instead of the undefined behaviour of the hardware instruction.
static Value integerDiv(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  Type type = lhs.getType();
  Value zero = intConstant(b, loc, type, 0), one = intConstant(b, loc, type, 1);
  Value minusOne = intConstant(b, loc, type, -1);
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, zero);
  Value isMinusOne =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, minusOne);
  Value unsafe = arith::OrIOp::create(b, loc, isZero, isMinusOne);
  Value divisor = arith::SelectOp::create(b, loc, unsafe, one, rhs);
  Value quotient = arith::DivSIOp::create(b, loc, lhs, divisor);
  Value negated = arith::SubIOp::create(b, loc, zero, lhs);
  Value special = arith::SelectOp::create(b, loc, isZero, zero, negated);
  return arith::SelectOp::create(b, loc, unsafe, special, quotient);
}

/// 1 / (1 + e^-x). In f32 the division is marked `afn`: the GPU may
/// compute it with its approximate reciprocal (within 1 ulp over the whole
/// range, subnormal results kept; fuse-math-to-libdevice), which has no
/// slow path; the CPU's code divides either way
/// (test/Pipelines/gpu-sigmoid.mlir).
static Value sigmoid(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  Value one = floatConstant(b, loc, type, 1.0);
  Value expNeg = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  auto flags =
      type.isF32() ? arith::FastMathFlags::afn : arith::FastMathFlags::none;
  return arith::DivFOp::create(
      b, loc, one, arith::AddFOp::create(b, loc, one, expNeg), flags);
}

static Value gelu(OpBuilder &b, Location loc, Value x, bool tanhForm) {
  Type type = x.getType();
  Value half = floatConstant(b, loc, type, 0.5);
  Value one = floatConstant(b, loc, type, 1.0);
  Value inner;
  if (tanhForm) {
    // 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))
    Value cube =
        arith::MulFOp::create(b, loc, x, arith::MulFOp::create(b, loc, x, x));
    Value poly = arith::AddFOp::create(
        b, loc, x,
        arith::MulFOp::create(b, loc, floatConstant(b, loc, type, 0.044715),
                              cube));
    Value scaled = arith::MulFOp::create(
        b, loc, floatConstant(b, loc, type, std::sqrt(2.0 / M_PI)), poly);
    inner = math::TanhOp::create(b, loc, scaled);
  } else {
    // x * 0.5 * (1 + erf(x / sqrt(2)))
    inner = math::ErfOp::create(
        b, loc,
        arith::MulFOp::create(b, loc, x,
                              floatConstant(b, loc, type, M_SQRT1_2)));
  }
  Value halfX = arith::MulFOp::create(b, loc, x, half);
  return arith::MulFOp::create(b, loc, halfX,
                               arith::AddFOp::create(b, loc, one, inner));
}

/// A scalar bound attribute of clamp as a constant of `type`.
static Value boundConstant(OpBuilder &b, Location loc, Type type,
                           Attribute attr) {
  if (auto f = dyn_cast<FloatAttr>(attr))
    return floatConstant(b, loc, type, f.getValueAsDouble());
  return intConstant(b, loc, type, cast<IntegerAttr>(attr).getInt());
}

static arith::CmpFPredicate floatPredicate(CmpPredicate p) {
  switch (p) {
  case CmpPredicate::eq:
    return arith::CmpFPredicate::OEQ;
  case CmpPredicate::ne:
    return arith::CmpFPredicate::UNE;
  case CmpPredicate::lt:
    return arith::CmpFPredicate::OLT;
  case CmpPredicate::le:
    return arith::CmpFPredicate::OLE;
  case CmpPredicate::gt:
    return arith::CmpFPredicate::OGT;
  case CmpPredicate::ge:
    return arith::CmpFPredicate::OGE;
  }
  llvm_unreachable("unknown predicate");
}

static arith::CmpIPredicate intPredicate(CmpPredicate p, bool isUnsigned) {
  switch (p) {
  case CmpPredicate::eq:
    return arith::CmpIPredicate::eq;
  case CmpPredicate::ne:
    return arith::CmpIPredicate::ne;
  case CmpPredicate::lt:
    return isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
  case CmpPredicate::le:
    return isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
  case CmpPredicate::gt:
    return isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
  case CmpPredicate::ge:
    return isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
  }
  llvm_unreachable("unknown predicate");
}

/// The scalar computation of `op` on `args` (already of the compute type:
/// f32 for f16/bf16 data, the element type otherwise).
static Value buildComputation(Operation *op, OpBuilder &b, Location loc,
                              ValueRange args) {
  Value x = args.front();
  Type type = x.getType();
  bool isFloat = isa<FloatType>(type);
  auto zero = [&]() {
    return isFloat ? floatConstant(b, loc, type, 0.0)
                   : intConstant(b, loc, type, 0);
  };
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case<NegOp>([&](auto) -> Value {
        if (isFloat)
          return arith::NegFOp::create(b, loc, x);
        return arith::SubIOp::create(b, loc, zero(), x);
      })
      .Case<AbsOp>([&](auto) -> Value {
        if (isFloat)
          return math::AbsFOp::create(b, loc, x);
        return math::AbsIOp::create(b, loc, x);
      })
      .Case<ReluOp>([&](auto) -> Value {
        if (isFloat)
          return arith::MaximumFOp::create(b, loc, x, zero());
        return arith::MaxSIOp::create(b, loc, x, zero());
      })
      .Case<FloorOp>([&](auto) -> Value {
        return isFloat ? Value(math::FloorOp::create(b, loc, x)) : x;
      })
      .Case<CeilOp>([&](auto) -> Value {
        return isFloat ? Value(math::CeilOp::create(b, loc, x)) : x;
      })
      .Case<ExpOp>([&](auto) { return math::ExpOp::create(b, loc, x); })
      .Case<LogOp>([&](auto) { return math::LogOp::create(b, loc, x); })
      .Case<SqrtOp>([&](auto) { return math::SqrtOp::create(b, loc, x); })
      .Case<RsqrtOp>([&](auto) { return math::RsqrtOp::create(b, loc, x); })
      .Case<TanhOp>([&](auto) { return math::TanhOp::create(b, loc, x); })
      .Case<SinOp>([&](auto) { return math::SinOp::create(b, loc, x); })
      .Case<CosOp>([&](auto) { return math::CosOp::create(b, loc, x); })
      .Case<ErfOp>([&](auto) { return math::ErfOp::create(b, loc, x); })
      .Case<SigmoidOp>([&](auto) { return sigmoid(b, loc, x); })
      .Case<SiluOp>([&](auto) -> Value {
        return arith::MulFOp::create(b, loc, x, sigmoid(b, loc, x));
      })
      .Case<ReciprocalOp>([&](auto) -> Value {
        return arith::DivFOp::create(b, loc, floatConstant(b, loc, type, 1.0),
                                     x);
      })
      .Case<HardswishOp>([&](auto) -> Value {
        // x * relu6(x + 3) / 6, NaN propagating like torch.nn.Hardswish.
        Value shifted =
            arith::AddFOp::create(b, loc, x, floatConstant(b, loc, type, 3.0));
        Value relu6 = arith::MinimumFOp::create(
            b, loc, arith::MaximumFOp::create(b, loc, shifted, zero()),
            floatConstant(b, loc, type, 6.0));
        return arith::DivFOp::create(b, loc,
                                     arith::MulFOp::create(b, loc, x, relu6),
                                     floatConstant(b, loc, type, 6.0));
      })
      .Case<GeluOp>([&](GeluOp gop) {
        return gelu(b, loc, x, gop.getApproximate() == "tanh");
      })
      .Case<ClampOp>([&](ClampOp cop) {
        Value result = x;
        if (Attribute min = cop.getMinAttr()) {
          Value bound = boundConstant(b, loc, type, min);
          result = isFloat
                       ? Value(arith::MaximumFOp::create(b, loc, result, bound))
                       : Value(arith::MaxSIOp::create(b, loc, result, bound));
        }
        if (Attribute max = cop.getMaxAttr()) {
          Value bound = boundConstant(b, loc, type, max);
          result = isFloat
                       ? Value(arith::MinimumFOp::create(b, loc, result, bound))
                       : Value(arith::MinSIOp::create(b, loc, result, bound));
        }
        return result;
      })
      .Case<LeakyReluOp>([&](LeakyReluOp lop) -> Value {
        Value alpha = floatConstant(b, loc, type, lop.getAlphaValue());
        Value nonNegative =
            arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, x, zero());
        return arith::SelectOp::create(b, loc, nonNegative, x,
                                       arith::MulFOp::create(b, loc, alpha, x));
      })
      .Case<AddOp>([&](auto) -> Value {
        if (isFloat)
          return arith::AddFOp::create(b, loc, x, args[1]);
        return arith::AddIOp::create(b, loc, x, args[1]);
      })
      .Case<SubOp>([&](auto) -> Value {
        if (isFloat)
          return arith::SubFOp::create(b, loc, x, args[1]);
        return arith::SubIOp::create(b, loc, x, args[1]);
      })
      .Case<MulOp>([&](auto) -> Value {
        if (isFloat)
          return arith::MulFOp::create(b, loc, x, args[1]);
        return arith::MulIOp::create(b, loc, x, args[1]);
      })
      .Case<DivOp>([&](auto) -> Value {
        if (isFloat)
          return arith::DivFOp::create(b, loc, x, args[1]);
        return integerDiv(b, loc, x, args[1]);
      })
      .Case<MaxOp>([&](auto) -> Value {
        if (isFloat)
          return arith::MaximumFOp::create(b, loc, x, args[1]);
        return arith::MaxSIOp::create(b, loc, x, args[1]);
      })
      .Case<MinOp>([&](auto) -> Value {
        if (isFloat)
          return arith::MinimumFOp::create(b, loc, x, args[1]);
        return arith::MinSIOp::create(b, loc, x, args[1]);
      })
      .Case<PowOp>([&](auto) -> Value {
        if (isFloat)
          return math::PowFOp::create(b, loc, x, args[1]);
        return integerPow(b, loc, x, args[1]);
      })
      .Case<CmpOp>([&](CmpOp cop) -> Value {
        if (isFloat)
          return arith::CmpFOp::create(
              b, loc, floatPredicate(cop.getPredicate()), x, args[1]);
        return arith::CmpIOp::create(
            b, loc, intPredicate(cop.getPredicate(), type.isInteger(1)), x,
            args[1]);
      })
      .Default([](Operation *) -> Value {
        llvm_unreachable("op without a scalar lowering");
      });
}

/// The scalar body of `op`: f16/bf16 data is computed in f32 and rounded
/// once at the end, as PyTorch does; casts convert directly.
static Value buildScalar(Operation *op, OpBuilder &b, Location loc,
                         ValueRange args, Type resultElement) {
  if (isa<CastOp>(op))
    return convertScalar(b, loc, args[0], resultElement);
  if (isa<SelectOp>(op))
    return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
  Type dataType = args[0].getType();
  if (!isHalf(dataType))
    return buildComputation(op, b, loc, args);
  SmallVector<Value> wide;
  for (Value arg : args)
    wide.push_back(arith::ExtFOp::create(b, loc, b.getF32Type(), arg));
  Value result = buildComputation(op, b, loc, wide);
  if (result.getType() == resultElement)
    return result;
  return arith::TruncFOp::create(b, loc, resultElement, result);
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

/// The arith op that combines a reduction's accumulator of `type` with an
/// element: addf/addi for sum and mean, maximumf/maxsi for max,
/// minimumf/minsi for min (NaN propagates). Its identity
/// (combinerIdentity) is where the accumulator starts.
static OperationName combinerOf(Operation *op, Type type) {
  bool isFloat = isa<FloatType>(type);
  StringRef name =
      isa<ReduceMaxOp>(op)   ? (isFloat ? arith::MaximumFOp::getOperationName()
                                        : arith::MaxSIOp::getOperationName())
      : isa<ReduceMinOp>(op) ? (isFloat ? arith::MinimumFOp::getOperationName()
                                        : arith::MinSIOp::getOperationName())
                             : (isFloat ? arith::AddFOp::getOperationName()
                                        : arith::AddIOp::getOperationName());
  return OperationName(name, op->getContext());
}

namespace {

template <typename OpTy>
struct ElementwiseLowering : OpConversionPattern<OpTy> {
  ElementwiseLowering(MLIRContext *context, const DynamicSizes &sizes)
      : OpConversionPattern<OpTy>(context), sizes(sizes) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    // Per operand: a splat constant folded into the body, or the index of
    // the input it reads (an operand used twice is read once).
    SmallVector<TypedAttr> inlined;
    SmallVector<unsigned> inputOf;
    for (Value operand : adaptor.getOperands()) {
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
                                         sizes.get(op.getResult()));
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
              buildScalar(op, b, bodyLoc, args, resultType.getElementType());
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

/// a * b, a constant when both are.
static OpFoldResult multiply(OpBuilder &b, Location loc, OpFoldResult lhs,
                             OpFoldResult rhs) {
  std::optional<int64_t> x = getConstantIntValue(lhs),
                         y = getConstantIntValue(rhs);
  if (x && y)
    return b.getIndexAttr(*x * *y);
  if (x == 1)
    return rhs;
  if (y == 1)
    return lhs;
  return arith::MulIOp::create(b, loc,
                               getValueOrCreateConstantIndexOp(b, loc, lhs),
                               getValueOrCreateConstantIndexOp(b, loc, rhs))
      .getResult();
}

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
    RankedTensorType resultType = op.getType();
    Type element = inputType.getElementType();
    Type accType = isHalf(element) ? rewriter.getF32Type() : element;
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
    // verifier refuses a static 0).
    StringRef name = op->getName().stripDialect();
    if (isa<ReduceMaxOp, ReduceMinOp>(op)) {
      for (int64_t d : dims) {
        if (!inputType.isDynamicDim(d))
          continue;
        Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
        Value nonEmpty =
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne,
                                  cast<Value>(operandSizes[d]), zero);
        cf::AssertOp::create(
            rewriter, loc, nonEmpty,
            "fuse." + name.str() + " at " + formatLocation(loc) +
                ": dimension " + std::to_string(d) +
                " of the operand is 0, and an empty " + name.str() +
                " has no value (numpy's error too)");
      }
    }

    // Several reduced dimensions, the innermost ones: one row of their
    // product (a view of the operand, taken up through the elementwise
    // generics before it, see the pass), so that the row is read in lanes
    // (docs/dialect.md, "Reductions").
    int64_t loops = rank;
    SmallVector<OpFoldResult> loopSizes(operandSizes);
    bool collapsed = false;
    auto reducesLoop = [&](int64_t d) {
      return collapsed ? d == loops - 1 : isReduced(d);
    };
    // (Not a tensor with a static 0 among them: memref.collapse_shape would
    // take the group as static once bufferized, its result type not.)
    int64_t trailing = dims.size();
    if (trailing >= 2 &&
        llvm::all_of(llvm::seq<int64_t>(rank - trailing, rank), isReduced) &&
        !llvm::is_contained(inputType.getShape(), 0)) {
      SmallVector<ReassociationIndices> groups;
      for (int64_t d = 0; d < rank - trailing; ++d)
        groups.push_back({d});
      groups.push_back(
          llvm::to_vector(llvm::seq<int64_t>(rank - trailing, rank)));
      input = tensor::CollapseShapeOp::create(rewriter, loc, input, groups);
      loops = rank - trailing + 1;
      loopSizes.resize(loops - 1);
      OpFoldResult row = rewriter.getIndexAttr(1);
      for (int64_t d = rank - trailing; d < rank; ++d)
        row = multiply(rewriter, loc, row, operandSizes[d]);
      loopSizes.push_back(row);
      collapsed = true;
    }

    SmallVector<OpFoldResult> keptSizes;
    SmallVector<AffineExpr> keptExprs;
    SmallVector<utils::IteratorType> iterators;
    for (int64_t d = 0; d < loops; ++d) {
      iterators.push_back(reducesLoop(d) ? utils::IteratorType::reduction
                                         : utils::IteratorType::parallel);
      if (reducesLoop(d))
        continue;
      keptSizes.push_back(loopSizes[d]);
      keptExprs.push_back(rewriter.getAffineDimExpr(d));
    }
    Value empty = tensor::EmptyOp::create(rewriter, loc, keptSizes, accType);
    OperationName combiner = combinerOf(op, accType);
    Value identity = arith::ConstantOp::create(
        rewriter, loc, combinerIdentity(combiner, accType));
    Value init =
        linalg::FillOp::create(rewriter, loc, identity, empty).getResult(0);
    SmallVector<AffineMap> maps = {
        rewriter.getMultiDimIdentityMap(loops),
        AffineMap::get(loops, 0, keptExprs, context)};
    auto opsAttr = rewriter.getStrArrayAttr({name});
    auto reduce = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()}, ValueRange{input},
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
    Value result = reduce.getResult(0);

    bool mean = isa<ReduceMeanOp>(op);
    if (mean || accType != element) {
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

    if (resultType.getRank() == rank && rank > 0) {
      // Keep the reduced dimensions: each kept one groups with the reduced
      // ones after it, the first kept one also with those before it.
      SmallVector<ReassociationIndices> groups;
      for (int64_t d = 0; d < rank; ++d) {
        if (!isReduced(d) || groups.empty())
          groups.emplace_back();
        groups.back().push_back(d);
      }
      // Leading reduced dimensions belong to the first kept one.
      if (groups.size() > 1 && llvm::all_of(groups.front(), isReduced)) {
        ReassociationIndices leading = groups.front();
        groups.erase(groups.begin());
        groups.front().insert(groups.front().begin(), leading.begin(),
                              leading.end());
      }
      if (llvm::all_of(groups.front(), isReduced))
        groups.clear(); // everything reduced: a 0-d tensor expands
      SmallVector<OpFoldResult> outputShape;
      for (int64_t d = 0; d < rank; ++d)
        outputShape.push_back(isReduced(d) ? rewriter.getIndexAttr(1)
                                           : operandSizes[d]);
      result = tensor::ExpandShapeOp::create(rewriter, loc, resultType, result,
                                             groups, outputShape);
    }
    rewriter.replaceOp(op, result);
    return success();
  }

  const DynamicSizes &sizes;
  int64_t &nextGroup;
};

template <typename... OpTys>
void addElementwise(RewritePatternSet &patterns, const DynamicSizes &sizes) {
  (patterns.add<ElementwiseLowering<OpTys>>(patterns.getContext(), sizes), ...);
}

} // namespace

void fuse::populateFuseToLinalgConversionPatterns(RewritePatternSet &patterns,
                                                  const DynamicSizes &sizes,
                                                  int64_t &nextGroup) {
  addElementwise<NegOp, AbsOp, ReluOp, FloorOp, CeilOp, ExpOp, LogOp, SqrtOp,
                 RsqrtOp, TanhOp, SigmoidOp, SiluOp, SinOp, CosOp, ErfOp,
                 ReciprocalOp, HardswishOp, GeluOp, ClampOp, LeakyReluOp, AddOp,
                 SubOp, MulOp, DivOp, MaxOp, MinOp, PowOp, CmpOp, SelectOp,
                 CastOp>(patterns, sizes);
  patterns.add<ConstantLowering>(patterns.getContext());
  patterns.add<ReductionLowering<ReduceSumOp>, ReductionLowering<ReduceMaxOp>,
               ReductionLowering<ReduceMinOp>, ReductionLowering<ReduceMeanOp>>(
      patterns.getContext(), sizes, nextGroup);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
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
    // Not a part of a kernel with reductions (a mean's division, a
    // rounding to f16), whose generics share the reduction's loops.
    if (!producer || !isElementwiseKernel(producer) ||
        producer.getNumDpsInits() != 1 || kernelGroup(producer))
      return failure();
    // No operand with a static 0 (see ReductionLowering).
    if (llvm::any_of(producer->getOperandTypes(), [](Type type) {
          auto shaped = dyn_cast<ShapedType>(type);
          return shaped && llvm::is_contained(shaped.getShape(), 0);
        }))
      return failure();
    // Only these views read it (one per operand that reads it: `d * d`).
    SmallVector<ReassociationIndices> groups =
        collapse.getReassociationIndices();
    for (Operation *user : collapse.getSrc().getUsers()) {
      auto other = dyn_cast<tensor::CollapseShapeOp>(user);
      if (!other || other.getReassociationIndices() != groups)
        return failure();
    }
    if (!linalg::areDimSequencesPreserved(producer.getIndexingMapsArray(),
                                          groups))
      return failure();
    // Where the producer is: before every view of it, not at this one.
    rewriter.setInsertionPoint(producer);
    FailureOr<linalg::CollapseResult> collapsed =
        linalg::collapseOpIterationDims(producer, groups, rewriter);
    if (failed(collapsed))
      return failure();
    linalg::LinalgOp op = collapsed->collapsedOp;
    op->setDiscardableAttrs(producer->getDiscardableAttrDictionary());
    // Its output: a tensor.empty of the collapsed sizes (products), as the
    // fusion passes size an elementwise generic's loops.
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
          size =
              multiply(rewriter, view.getLoc(), size, empty.getMixedSizes()[d]);
        sizes.push_back(size);
      }
      rewriter.modifyOpInPlace(op, [&] {
        init.set(tensor::EmptyOp::create(rewriter, view.getLoc(), sizes,
                                         empty.getType().getElementType()));
      });
    }
    rewriter.replaceOp(producer, collapsed->results);
    return success();
  }
};

struct ConvertFuseToLinalgPass
    : fuse::impl::ConvertFuseToLinalgBase<ConvertFuseToLinalgPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
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

    // A reduction's collapsed operand (several innermost dimensions as one
    // row) goes up through the elementwise generics that compute it and
    // nothing else, which then iterate over the collapsed space: they stay
    // fusable with the reduction, and the views reach the arguments.
    // One generic further up per round, until none moves.
    RewritePatternSet folds(&getContext());
    folds.add<CollapseElementwiseProducer>(&getContext());
    tensor::CollapseShapeOp::getCanonicalizationPatterns(folds, &getContext());
    FrozenRewritePatternSet frozen(std::move(folds));
    for (bool changed = true; changed;) {
      SmallVector<Operation *> collapses;
      func.walk([&](tensor::CollapseShapeOp op) { collapses.push_back(op); });
      changed = false;
      if (!collapses.empty() &&
          failed(applyOpPatternsGreedily(collapses, frozen,
                                         GreedyRewriteConfig(), &changed)))
        return signalPassFailure();
    }

    // Constants folded into every kernel that reads them are now unused.
    func.walk([](arith::ConstantOp constant) {
      if (constant.use_empty() && isa<ShapedType>(constant.getType()))
        constant.erase();
    });
  }
};
} // namespace
