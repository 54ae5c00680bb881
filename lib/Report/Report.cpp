//===- Report.cpp - kernels and bytes, fused vs eager ----------*- C++ -*-===//

#include "fuse/Report/Report.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"

#include "fuse/Dialect/Fuse/Transforms/Passes.h"
#include "fuse/Dialect/Fuse/Utils/Kernel.h"
#include "fuse/Dialect/Fuse/Utils/Location.h"
#include "fuse/Pipelines/Pipelines.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <set>

using namespace mlir;
using namespace fuse;

//===----------------------------------------------------------------------===//
// SizeExpr
//===----------------------------------------------------------------------===//

SizeExpr SizeExpr::constant(int64_t value) {
  SizeExpr expr;
  if (value != 0)
    expr.terms[{}] = value;
  return expr;
}

SizeExpr SizeExpr::symbol(unsigned id) {
  SizeExpr expr;
  expr.terms[{id}] = 1;
  return expr;
}

void SizeExpr::add(const std::vector<unsigned> &monomial, int64_t coefficient) {
  int64_t &sum = terms[monomial];
  overflowed |= llvm::AddOverflow(sum, coefficient, sum);
  if (sum == 0)
    terms.erase(monomial);
}

SizeExpr SizeExpr::operator+(const SizeExpr &other) const {
  SizeExpr sum = *this;
  sum.overflowed |= other.overflowed;
  for (const auto &[monomial, coefficient] : other.terms)
    sum.add(monomial, coefficient);
  return sum;
}

SizeExpr SizeExpr::operator-(const SizeExpr &other) const {
  return *this + other * constant(-1);
}

SizeExpr SizeExpr::operator*(const SizeExpr &other) const {
  SizeExpr product;
  product.overflowed = overflowed || other.overflowed;
  for (const auto &[lhs, a] : terms) {
    for (const auto &[rhs, b] : other.terms) {
      std::vector<unsigned> monomial = lhs;
      monomial.insert(monomial.end(), rhs.begin(), rhs.end());
      std::sort(monomial.begin(), monomial.end());
      int64_t term;
      product.overflowed |= llvm::MulOverflow(a, b, term);
      product.add(monomial, term);
    }
  }
  return product;
}

void SizeExpr::collectSymbols(std::set<unsigned> &symbols) const {
  for (const auto &term : terms)
    symbols.insert(term.first.begin(), term.first.end());
}

std::optional<int64_t> SizeExpr::asConstant() const {
  if (overflowed)
    return std::nullopt;
  if (terms.empty())
    return 0;
  if (terms.size() == 1 && terms.begin()->first.empty())
    return terms.begin()->second;
  return std::nullopt;
}

std::optional<double> SizeExpr::ratioTo(const SizeExpr &other) const {
  if (overflowed || other.overflowed || terms.empty() ||
      terms.size() != other.terms.size())
    return std::nullopt;
  std::optional<double> ratio;
  for (const auto &[monomial, coefficient] : terms) {
    auto it = other.terms.find(monomial);
    if (it == other.terms.end())
      return std::nullopt;
    double r = static_cast<double>(it->second) / coefficient;
    if (ratio && *ratio != r)
      return std::nullopt;
    ratio = r;
  }
  return ratio;
}

std::optional<double>
SizeExpr::leadingRatioTo(const SizeExpr &other,
                         const std::set<unsigned> &bounded) const {
  if (overflowed || other.overflowed || terms.empty() || other.terms.empty())
    return std::nullopt;
  auto grows = [&](const std::vector<unsigned> &monomial) {
    return llvm::none_of(
        monomial, [&](unsigned symbol) { return bounded.count(symbol); });
  };
  auto leading = [&](const SizeExpr &expr) {
    size_t degree = 0;
    for (const auto &[monomial, coefficient] : expr.terms)
      if (grows(monomial))
        degree = std::max(degree, monomial.size());
    SizeExpr top;
    for (const auto &[monomial, coefficient] : expr.terms)
      if (monomial.size() == degree && grows(monomial))
        top.terms[monomial] = coefficient;
    return top;
  };
  return leading(*this).ratioTo(leading(other));
}

std::vector<std::pair<std::vector<unsigned>, int64_t>>
SizeExpr::orderedTerms() const {
  // Highest degree first; within a degree, by symbol order.
  std::vector<std::pair<std::vector<unsigned>, int64_t>> ordered(terms.begin(),
                                                                 terms.end());
  std::sort(ordered.begin(), ordered.end(), [](const auto &a, const auto &b) {
    if (a.first.size() != b.first.size())
      return a.first.size() > b.first.size();
    return a.first < b.first;
  });
  return ordered;
}

std::string SizeExpr::str(ArrayRef<std::string> names) const {
  if (overflowed)
    return kTooLarge.str();
  if (terms.empty())
    return "0";
  std::string text;
  for (auto [i, term] : llvm::enumerate(orderedTerms())) {
    auto [monomial, coefficient] = term;
    if (i)
      text += coefficient < 0 ? " - " : " + ";
    else if (coefficient < 0)
      text += "-";
    int64_t magnitude = coefficient < 0 ? -coefficient : coefficient;
    std::string factors;
    for (unsigned id : monomial)
      factors += (factors.empty() ? "" : "*") + names[id];
    if (factors.empty())
      text += std::to_string(magnitude);
    else if (magnitude == 1)
      text += factors;
    else
      text += std::to_string(magnitude) + "*" + factors;
  }
  return text;
}

/// A symbol of pieces' definition in the JSON report: `{"pieces_of": <the
/// length>, "piece_length": 1024, "at_most": 4096}`, and `"rows": <the
/// number of rows>` for a dynamic one.
static llvm::json::Object piecesToJSON(const SizeSymbol::Pieces &pieces,
                                       ArrayRef<std::string> names) {
  llvm::json::Object object{{"pieces_of", pieces.length.toJSON(names)},
                            {"piece_length", pieces.pieceLength},
                            {"at_most", pieces.atMost}};
  if (pieces.rows)
    object["rows"] = pieces.rows->toJSON(names);
  return object;
}

llvm::json::Value SizeExpr::toJSON(ArrayRef<std::string> names,
                                   ArrayRef<SizeSymbol> symbols) const {
  if (overflowed)
    return llvm::json::Object{{"text", kTooLarge}, {"too_large", true}};
  if (std::optional<int64_t> value = asConstant())
    return *value;
  llvm::json::Array list;
  llvm::json::Object where;
  for (auto [monomial, coefficient] : orderedTerms()) {
    llvm::json::Array factors;
    for (unsigned id : monomial) {
      factors.push_back(names[id]);
      const SizeSymbol *symbol = llvm::find_if(
          symbols, [&](const SizeSymbol &s) { return s.name == names[id]; });
      if (symbol != symbols.end() && symbol->pieces)
        where[names[id]] = piecesToJSON(*symbol->pieces, names);
    }
    list.push_back(llvm::json::Object{{"coefficient", coefficient},
                                      {"symbols", std::move(factors)}});
  }
  llvm::json::Object object{{"terms", std::move(list)}, {"text", str(names)}};
  if (!where.empty())
    object["where"] = std::move(where);
  return object;
}

std::string SizeSymbol::describe(ArrayRef<std::string> names) const {
  if (!pieces)
    return name + " = argument " + std::to_string(argument) + " dimension " +
           std::to_string(dimension);
  std::string most = std::to_string(pieces->atMost);
  if (pieces->rows) {
    // A product of sizes in parentheses: 262144 / (N*K), not (262144 / N)*K.
    std::string rows = pieces->rows->str(names);
    if (!pieces->rows->asConstant() &&
        rows.find_first_of("*+- ") != std::string::npos)
      rows = "(" + rows + ")";
    most +=
        " / " + rows + ", with " + rows + " first rounded up to a power of 2";
  }
  return name + " = pieces per row, " + pieces->length.str(names) + " / " +
         std::to_string(pieces->pieceLength) +
         " rounded up to a power of 2 (at most " + most + ")";
}

SizeExpr VariantReport::bytesRead() const {
  SizeExpr total;
  for (const KernelReport &kernel : kernels)
    total = total + kernel.bytesRead;
  for (const CopyReport &copy : copies)
    total = total + copy.bytes;
  return total;
}

SizeExpr VariantReport::bytesWritten() const {
  SizeExpr total;
  for (const KernelReport &kernel : kernels)
    total = total + kernel.bytesWritten;
  for (const CopyReport &copy : copies)
    total = total + copy.bytes;
  return total;
}

//===----------------------------------------------------------------------===//
// Counting
//===----------------------------------------------------------------------===//

namespace {

/// Symbols of a function's dynamic sizes, keyed by (argument, dimension)
/// and numbered in that order.
class Symbols {
public:
  explicit Symbols(func::FuncOp func) {
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
      if (auto shaped = dyn_cast<ShapedType>(type))
        for (int64_t d = 0; d < shaped.getRank(); ++d)
          if (shaped.isDynamicDim(d))
            get(i, d);
  }

  unsigned get(unsigned argument, unsigned dimension) {
    auto [it, inserted] = ids.try_emplace({argument, dimension},
                                          static_cast<unsigned>(keys.size()));
    if (inserted) {
      keys.push_back({argument, dimension});
      pieces.emplace_back();
    }
    return it->second;
  }

  /// The pieces of each of `rows` rows of `length` elements of a kernel
  /// of form `form` (RowForm::pieces, pieceCount): a constant when the
  /// kernel's is, else a symbol.
  SizeExpr piecesOf(const SizeExpr &length, const SizeExpr &rows,
                    const RowForm &form) {
    if (form.constantPieces())
      return SizeExpr::constant(form.pieceCount);
    SizeSymbol::Pieces defined{
        length, pieceLength(form.lanes), form.pieceCount, {}};
    if (!form.rows) {
      defined.rows = rows;
      defined.atMost = pieceShare(form.lanes);
    }
    for (auto [id, known] : llvm::enumerate(pieces))
      if (known == defined)
        return SizeExpr::symbol(id);
    keys.push_back({});
    pieces.push_back(defined);
    return SizeExpr::symbol(keys.size() - 1);
  }

  /// Names the symbols in `used` (and those that pieces' lengths use) N, M,
  /// K, ... in order, and the pieces P, P2, ...; `names` is indexed by
  /// symbol id.
  std::vector<SizeSymbol> name(std::set<unsigned> used,
                               std::vector<std::string> &names) const {
    static const char *letters[] = {"N", "M", "K", "L", "Q", "R", "S", "T"};
    for (unsigned id : std::set<unsigned>(used)) {
      if (!pieces[id])
        continue;
      pieces[id]->length.collectSymbols(used);
      if (pieces[id]->rows)
        pieces[id]->rows->collectSymbols(used);
    }
    std::vector<SizeSymbol> symbols;
    names.assign(keys.size(), "?");
    unsigned sizes = 0, counts = 0;
    for (unsigned id : used) {
      if (pieces[id])
        continue;
      names[id] = sizes < 8 ? letters[sizes] : "D" + std::to_string(sizes);
      ++sizes;
      symbols.push_back({names[id], keys[id].first, keys[id].second, {}});
    }
    for (unsigned id : used) {
      if (!pieces[id])
        continue;
      names[id] = "P" + (counts++ ? std::to_string(counts) : "");
      symbols.push_back({names[id], 0, 0, pieces[id]});
    }
    return symbols;
  }

private:
  std::map<std::pair<unsigned, unsigned>, unsigned> ids;
  std::vector<std::pair<unsigned, unsigned>> keys;
  /// By symbol id: the definition of a symbol of pieces (piecesOf).
  std::vector<std::optional<SizeSymbol::Pieces>> pieces;
};

/// The size a dynamic extent stands for: a tensor.dim of a function
/// argument with a constant index, as convert-fuse-to-linalg creates them.
FailureOr<SizeExpr> sizeOf(OpFoldResult extent, Symbols &symbols) {
  if (std::optional<int64_t> value = getConstantIntValue(extent))
    return SizeExpr::constant(*value);
  if (auto mul = cast<Value>(extent).getDefiningOp<arith::MulIOp>()) {
    // A collapsed size (convert-fuse-to-linalg).
    FailureOr<SizeExpr> lhs = sizeOf(mul.getLhs(), symbols);
    FailureOr<SizeExpr> rhs = sizeOf(mul.getRhs(), symbols);
    if (failed(lhs) || failed(rhs))
      return failure();
    return *lhs * *rhs;
  }
  auto dim = cast<Value>(extent).getDefiningOp<tensor::DimOp>();
  auto arg = dim ? dyn_cast<BlockArgument>(dim.getSource()) : BlockArgument();
  std::optional<int64_t> index = dim ? dim.getConstantIndex() : std::nullopt;
  if (!arg || !index)
    return failure();
  return SizeExpr::symbol(symbols.get(arg.getArgNumber(), *index));
}

/// Tags the location of every op of every function with the op's position,
/// so that kernels and remarks of the lowered clones can be traced back to
/// the ops they come from. A tag is an OpaqueLoc around the op's location,
/// which diagnostics print as that location.
class OpTags {
public:
  /// Tags the ops of `module` (a clone of the program).
  void tag(ModuleOp module) {
    for (func::FuncOp func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      for (auto [position, op] :
           llvm::enumerate(func.getBody().front().without_terminator())) {
        op.setLoc(OpaqueLoc::get(static_cast<uintptr_t>(ops.size()), typeID,
                                 op.getLoc()));
        ops.push_back(
            {func.getSymName().str(), static_cast<unsigned>(position)});
      }
    }
  }

  /// The function and position of each tagged op that `loc` names.
  std::vector<std::pair<std::string, unsigned>> find(Location loc) const {
    std::vector<std::pair<std::string, unsigned>> found;
    loc->walk([&](Location inner) {
      if (auto opaque = dyn_cast<OpaqueLoc>(inner))
        if (opaque.getUnderlyingTypeID() == TypeID(typeID) &&
            opaque.getUnderlyingLocation() < ops.size())
          found.push_back(ops[opaque.getUnderlyingLocation()]);
      return WalkResult::advance();
    });
    return found;
  }

  /// The sorted positions of the ops of one function that `loc` names.
  std::vector<unsigned> positions(Location loc) const {
    std::set<unsigned> unique;
    for (auto &[function, position] : find(loc))
      unique.insert(position);
    return {unique.begin(), unique.end()};
  }

private:
  SelfOwningTypeID typeID;
  std::vector<std::pair<std::string, unsigned>> ops;
};

/// What dimension `k` of `func`'s argument `arg` must be: its type's size,
/// a constant that the program asserts it (or a size asserted equal to it)
/// equal to, or the symbol of the first argument's size asserted equal to
/// it when that symbol is one of the report's.
static ArgumentDim argumentDim(func::FuncOp func, unsigned arg, int64_t k,
                               Symbols &symbols,
                               llvm::ArrayRef<std::string> names) {
  Value value = func.getArgument(arg);
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.isDynamicDim(k))
    return {type.getDimSize(k), std::nullopt};
  SmallVector<std::pair<Value, int64_t>> equal = equalDims(value, k);
  for (auto [tensor, d] : equal) {
    auto shaped = cast<RankedTensorType>(tensor.getType());
    if (!shaped.isDynamicDim(d))
      return {shaped.getDimSize(d), std::nullopt};
    for (Value other : assertedEqual(tensor, d))
      if (std::optional<int64_t> constant = getConstantIntValue(other))
        return {*constant, std::nullopt};
  }
  auto first = cast<BlockArgument>(equal.front().first);
  unsigned id = symbols.get(first.getArgNumber(), equal.front().second);
  if (id < names.size() && names[id] != "?")
    return {std::nullopt, id};
  return {};
}

/// Size `k` of `tensor`: a constant, a symbol for a function argument's
/// size, or the size its producer's init (a tensor.empty, maybe filled)
/// was created with.
FailureOr<SizeExpr> dimOf(Value tensor, int64_t k, Symbols &symbols) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(k))
    return SizeExpr::constant(type.getDimSize(k));
  if (auto arg = dyn_cast<BlockArgument>(tensor)) {
    // The first argument's dimension that the program asserts equal to it.
    auto [first, d] = equalDims(arg, k).front();
    arg = cast<BlockArgument>(first);
    return SizeExpr::symbol(symbols.get(arg.getArgNumber(), d));
  }
  auto result = cast<OpResult>(tensor);
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(result.getOwner()))
    return dimOf(linalgOp.getDpsInits()[result.getResultNumber()], k, symbols);
  if (auto empty = dyn_cast<tensor::EmptyOp>(result.getOwner()))
    return sizeOf(empty.getMixedSizes()[k], symbols);
  // A cast refines sizes that a run-time check made static (a reduction's
  // `? x ?` operand read as `3 x ?` for an add with a `3`): the others are
  // its source's.
  if (auto cast = dyn_cast<tensor::CastOp>(result.getOwner()))
    return dimOf(cast.getSource(), k, symbols);
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(result.getOwner())) {
    // The product of the dimensions it groups.
    SizeExpr size = SizeExpr::constant(1);
    SmallVector<ReassociationIndices> groups =
        collapse.getReassociationIndices();
    for (int64_t d : groups[k]) {
      FailureOr<SizeExpr> part = dimOf(collapse.getSrc(), d, symbols);
      if (failed(part))
        return failure();
      size = size * *part;
    }
    return size;
  }
  return failure();
}

/// The sizes of `op`'s loops (loopSources).
FailureOr<SmallVector<SizeExpr>> loopSizes(linalg::GenericOp op,
                                           Symbols &symbols) {
  SmallVector<SizeExpr> sizes;
  for (auto [operand, k] : loopSources(op, /*outputsFirst=*/true)) {
    if (!operand)
      return failure();
    FailureOr<SizeExpr> size = dimOf(operand->get(), k, symbols);
    if (failed(size))
      return failure();
    sizes.push_back(*size);
  }
  return sizes;
}

FailureOr<VariantReport> countKernels(func::FuncOp func, Symbols &symbols,
                                      const OpTags &tags, int64_t blockSize) {
  VariantReport report;
  MLIRContext *ctx = func.getContext();
  FuseDialect::KernelAttrHelper kernelAttr(ctx);
  SmallVector<SmallVector<linalg::GenericOp>> kernels;
  func.walk([&](Block *block) {
    llvm::append_range(kernels, kernelsOf(*block, [&](linalg::GenericOp op) {
                         return kernelAttr.isAttrPresent(op);
                       }));
  });
  for (ArrayRef<linalg::GenericOp> members : kernels) {
    linalg::GenericOp front = members.front();
    StringAttr name = kernelAttr.getAttr(front);
    // Each member's loops; a kernel's elements are those of its widest
    // member (a reduction's or an elementwise generic's over the whole
    // space, not a mean's division over the rows).
    DenseMap<Operation *, SmallVector<SizeExpr>> loops;
    linalg::GenericOp widest = front;
    for (linalg::GenericOp op : members) {
      FailureOr<SmallVector<SizeExpr>> sizes = loopSizes(op, symbols);
      if (failed(sizes)) {
        op.emitError("report: cannot size kernel ") << name;
        return failure();
      }
      loops[op] = std::move(*sizes);
      if (op.getNumLoops() > widest.getNumLoops())
        widest = op;
    }
    auto isLiveOut = [&](OpOperand &init) {
      auto op = cast<linalg::GenericOp>(init.getOwner());
      return llvm::any_of(
          op.getTiedOpResult(&init).getUsers(), [&](Operation *user) {
            return llvm::none_of(members, [&](linalg::GenericOp member) {
              return member.getOperation() == user;
            });
          });
    };
    // The ops of `named` in program order; the positions of `placed`.
    auto describe = [&](KernelReport &kernel, ArrayRef<linalg::GenericOp> named,
                        ArrayRef<linalg::GenericOp> placed) {
      std::set<unsigned> positions;
      for (linalg::GenericOp op : placed)
        for (unsigned position : tags.positions(op.getLoc()))
          positions.insert(position);
      kernel.opPositions.assign(positions.begin(), positions.end());
      for (linalg::GenericOp op : named)
        if (ArrayAttr ops = FuseDialect::OpsAttrHelper(ctx).getAttr(op))
          for (Attribute opName : ops)
            kernel.ops.push_back(cast<StringAttr>(opName).getValue().str());
    };
    // The bytes of `operand` (of a member): the elements of the loops its
    // map spans (all of them for an output, the kept ones for a
    // reduction's), each buffer in full.
    auto bytesOf = [&](OpOperand *operand) {
      auto op = cast<linalg::GenericOp>(operand->getOwner());
      SizeExpr elements = SizeExpr::constant(1);
      for (AffineExpr expr : op.getMatchingIndexingMap(operand).getResults())
        if (auto d = dyn_cast<AffineDimExpr>(expr))
          elements = elements * loops[op][d.getPosition()];
      return elements *
             SizeExpr::constant(storageBytes(operand->get().getType()));
    };
    // The positions of the ops whose values the `placed` members write
    // out: each live-out result's yielded value's op.
    auto stored = [&](KernelReport &kernel,
                      ArrayRef<linalg::GenericOp> placed) {
      std::set<unsigned> positions;
      for (linalg::GenericOp op : placed) {
        Operation *yield = op.getBody()->getTerminator();
        for (OpOperand &init : op.getDpsInitsMutable()) {
          if (!isLiveOut(init))
            continue;
          Value value =
              yield->getOperand(op.getTiedOpResult(&init).getResultNumber());
          if (Operation *def = value.getDefiningOp())
            for (unsigned position : tags.positions(def->getLoc()))
              positions.insert(position);
        }
      }
      kernel.storedPositions.assign(positions.begin(), positions.end());
    };
    SmallVector<OpOperand *> traffic = trafficOperands(members, isLiveOut);
    std::optional<RowForm> form = rowFormOf(members, blockSize, isLiveOut);
    std::optional<RowsReport> rows;
    linalg::GenericOp reduction;
    if (form) {
      reduction = *llvm::find_if(members, [](linalg::GenericOp op) {
        return op.getNumReductionLoops() > 0;
      });
      rows.emplace();
      rows->count = rows->length = SizeExpr::constant(1);
      rows->lanes = form->lanes;
      rows->warps = form->warps;
      rows->inPieces = form->pieces && !form->split;
      rows->registers = form->registers;
      rows->registerLength = form->registerLength();
      rows->cpuGroups = form->cpuRowGroups();
      for (int64_t d : form->kept)
        rows->count = rows->count * loops[reduction][d];
      for (int64_t d : form->reduced)
        rows->length = rows->length * loops[reduction][d];
      if (form->pieces)
        rows->pieceCount = symbols.piecesOf(rows->length, rows->count, *form);
    }
    if (!form || !form->split) {
      KernelReport kernel;
      kernel.name = name.getValue().str();
      describe(kernel, members, members);
      stored(kernel, members);
      kernel.rows = rows;
      kernel.elements = SizeExpr::constant(1);
      for (const SizeExpr &loop : loops[widest])
        kernel.elements = kernel.elements * loop;
      for (OpOperand *operand : traffic) {
        if (cast<linalg::GenericOp>(operand->getOwner()).isDpsInput(operand))
          kernel.bytesRead = kernel.bytesRead + bytesOf(operand);
        else
          kernel.bytesWritten = kernel.bytesWritten + bytesOf(operand);
      }
      report.kernels.push_back(std::move(kernel));
      continue;
    }

    // Split (RowForm::split): the members over the whole space and the
    // reductions' partial values, then those values, the members over the
    // rows and the outputs.
    SmallVector<linalg::GenericOp> overWhole, overRows, reductions;
    for (linalg::GenericOp op : members) {
      if (op.getNumReductionLoops() > 0)
        reductions.push_back(op);
      else
        (overWholeSpace(op, *form) ? overWhole : overRows).push_back(op);
    }
    KernelReport pieces;
    SizeExpr partialBytes;
    for (linalg::GenericOp op : reductions) {
      SizeExpr bytes =
          rows->count * rows->pieceCount *
          SizeExpr::constant(storageBytes(op.getDpsInits().front().getType()));
      partialBytes = partialBytes + bytes;
      for (unsigned position : tags.positions(op.getLoc()))
        pieces.partialBytes.push_back({position, bytes});
    }
    pieces.name = name.getValue().str() + "_pieces";
    SmallVector<linalg::GenericOp> firstNamed;
    for (linalg::GenericOp op : members)
      if (!llvm::is_contained(overRows, op))
        firstNamed.push_back(op);
    // The reductions are both launches' ops: the first reduces the pieces,
    // the second combines them.
    describe(pieces, firstNamed, firstNamed);
    pieces.elements = rows->count * rows->length;
    pieces.rows = *rows;
    pieces.rows->pieces = true;
    pieces.bytesWritten = partialBytes;
    KernelReport finish;
    finish.name = name.getValue().str();
    SmallVector<linalg::GenericOp> secondNamed;
    for (linalg::GenericOp op : members)
      if (!llvm::is_contained(overWhole, op))
        secondNamed.push_back(op);
    describe(finish, secondNamed, secondNamed);
    stored(finish, secondNamed);
    finish.elements = rows->count * rows->pieceCount;
    finish.rows = *rows;
    finish.rows->length = rows->pieceCount;
    finish.rows->pieceCount = SizeExpr();
    finish.rows->inPieces = false;
    finish.rows->registers = form->piecesInRegisters();
    finish.rows->registerLength = form->piecesRegisterLength();
    finish.bytesRead = partialBytes;
    for (OpOperand *operand : traffic) {
      auto op = cast<linalg::GenericOp>(operand->getOwner());
      if (!op.isDpsInput(operand))
        finish.bytesWritten = finish.bytesWritten + bytesOf(operand);
      else if (llvm::is_contained(overRows, op))
        finish.bytesRead = finish.bytesRead + bytesOf(operand);
      else
        pieces.bytesRead = pieces.bytesRead + bytesOf(operand);
    }
    report.kernels.push_back(std::move(pieces));
    report.kernels.push_back(std::move(finish));
  }
  // A kernel over no position (its elements, or a kernel with reductions'
  // rows: a row of length 0 still writes its empty reduction) does not
  // launch: with static sizes that say so, it moves no byte (a static 0 x 5
  // beside a 5 counted the 5's 20 bytes). Dynamic sizes of 0 are the
  // evaluator's (launched_at in python/fuse/_sizes.py).
  for (KernelReport &kernel : report.kernels) {
    std::optional<int64_t> positions =
        (kernel.rows ? kernel.rows->count : kernel.elements).asConstant();
    if (positions == 0) {
      kernel.bytesRead = kernel.bytesWritten = SizeExpr::constant(0);
      kernel.partialBytes.clear();
    }
  }
  // The results that fuse-own-results copies (CopyReport): a buffer that
  // no kernel of this program allocated, one returned before, or a view of
  // a kernel's result that is returned itself too (a reduction over
  // dimensions of size 1 of it): one buffer is not two results. The buffer
  // of a kernel's result returned in several shapes is the result's first
  // view that only expands it (fuse-expand-allocs allocates it in that
  // shape), else the result itself: the others are its views.
  auto ret = cast<func::ReturnOp>(func.getBody().back().getTerminator());
  DenseMap<Value, unsigned> returned;
  for (auto [i, operand] : llvm::enumerate(ret.getOperands()))
    returned.try_emplace(operand, i);
  auto sourceOf = [](Value value, bool *expandsOnly = nullptr) {
    if (expandsOnly)
      *expandsOnly =
          isa_and_nonnull<tensor::ExpandShapeOp>(value.getDefiningOp());
    while (isa_and_nonnull<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
                           tensor::CastOp>(value.getDefiningOp())) {
      if (expandsOnly && isa<tensor::CollapseShapeOp>(value.getDefiningOp()))
        *expandsOnly = false;
      value = value.getDefiningOp()->getOperand(0);
    }
    return value;
  };
  DenseMap<Value, unsigned> bufferOf;
  for (auto [i, operand] : llvm::enumerate(ret.getOperands())) {
    bool expandsOnly = false;
    Value source = sourceOf(operand, &expandsOnly);
    if (expandsOnly)
      bufferOf.try_emplace(source, i);
  }
  for (auto [i, operand] : llvm::enumerate(ret.getOperands()))
    if (operand == sourceOf(operand))
      bufferOf.try_emplace(operand, i);
  for (auto [i, operand] : llvm::enumerate(ret.getOperands())) {
    Value source = sourceOf(operand);
    std::string what;
    std::optional<unsigned> ofResult;
    if (auto arg = dyn_cast<BlockArgument>(source)) {
      what = "argument " + std::to_string(arg.getArgNumber());
    } else if (source.getDefiningOp<arith::ConstantOp>()) {
      what = "a constant";
    } else if (unsigned first = returned.lookup(operand); first < i) {
      what = "result " + std::to_string(first) + " again";
      ofResult = first;
    } else if (auto buffer = bufferOf.find(source);
               buffer != bufferOf.end() &&
               ret.getOperand(buffer->second) != operand) {
      what = "a view of result " + std::to_string(buffer->second);
      ofResult = buffer->second;
    }
    if (what.empty())
      continue;
    auto type = cast<RankedTensorType>(source.getType());
    SizeExpr bytes = SizeExpr::constant(storageBytes(type.getElementType()));
    for (int64_t k = 0; k < type.getRank(); ++k) {
      FailureOr<SizeExpr> size = dimOf(source, k, symbols);
      if (failed(size)) {
        ret.emitError("report: cannot size result ") << i;
        return failure();
      }
      bytes = bytes * *size;
    }
    report.copies.push_back({static_cast<unsigned>(i), what, ofResult, bytes});
  }
  return report;
}

/// Lowers a clone of `module` to its named kernels.
FailureOr<OwningOpRef<ModuleOp>> lowerClone(ModuleOp module,
                                            PipelineOptions options) {
  OwningOpRef<ModuleOp> clone = module.clone();
  PassManager pm(module.getContext());
  buildPipeline(pm, Stage::Fused, options);
  if (failed(pm.run(*clone)))
    return failure();
  return clone;
}

} // namespace

/// Takes a remark of fuse-elementwise-fusion about tagged ops as a pair it
/// left unfused, by function; leaves other diagnostics to the next handler.
static LogicalResult
takeUnfused(Diagnostic &diag, const OpTags &tags,
            std::map<std::string, std::vector<UnfusedPair>> &unfused) {
  if (diag.getSeverity() != DiagnosticSeverity::Remark)
    return failure();
  // A generic that computes a one-value producer inside it is at the op
  // it replaced first (fuse-elementwise-fusion), then the producer's.
  auto consumer = tags.find(diag.getLocation());
  if (consumer.empty())
    return failure();
  // The note at the producer; another op's, since a context that prints the
  // op on diagnostics adds a note at the consumer first.
  std::vector<std::pair<std::string, unsigned>> producer;
  for (Diagnostic &note : diag.getNotes()) {
    producer = tags.find(note.getLocation());
    if (!producer.empty() && producer[0] != consumer[0])
      break;
    producer.clear();
  }
  if (producer.empty())
    return failure();
  std::string message = diag.str();
  // "not fused with its producer 'fuse.sigmoid': <reason>"
  size_t colon = message.find("': ");
  std::string reason =
      colon == std::string::npos ? message : message.substr(colon + 3);
  unfused[consumer[0].first].push_back(
      {producer[0].second, consumer[0].second, message, reason});
  return success();
}

FailureOr<std::vector<FunctionReport>>
fuse::buildReport(ModuleOp module, const PipelineOptions &options) {
  PipelineOptions fusedOptions = options, eagerOptions = options;
  fusedOptions.fusion = true;
  fusedOptions.remarks = true;
  eagerOptions.fusion = false;
  // Only whole fuse programs have kernels to size; the check reports once.
  PassManager check(module.getContext());
  check.addPass(createFuseCheckProgram());
  if (failed(check.run(module)))
    return failure();
  OwningOpRef<ModuleOp> tagged = module.clone();
  OpTags tags;
  tags.tag(*tagged);
  std::map<std::string, std::vector<UnfusedPair>> unfused;
  FailureOr<OwningOpRef<ModuleOp>> fused = [&] {
    ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &diag) {
      return takeUnfused(diag, tags, unfused);
    });
    return lowerClone(*tagged, fusedOptions);
  }();
  if (failed(fused))
    return failure();
  FailureOr<OwningOpRef<ModuleOp>> eager = lowerClone(*tagged, eagerOptions);
  if (failed(eager))
    return failure();

  std::vector<FunctionReport> reports;
  for (func::FuncOp func : (*fused)->getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    auto eagerFunc = (*eager)->lookupSymbol<func::FuncOp>(func.getSymName());
    Symbols symbols(func);
    FailureOr<VariantReport> fusedKernels =
        countKernels(func, symbols, tags, options.blockSize);
    FailureOr<VariantReport> eagerKernels =
        countKernels(eagerFunc, symbols, tags, options.blockSize);
    if (failed(fusedKernels) || failed(eagerKernels))
      return failure();
    FunctionReport report;
    report.name = func.getSymName().str();
    for (Type type : func.getArgumentTypes()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << type;
      report.arguments.push_back(text);
    }
    std::set<unsigned> used;
    for (const VariantReport *variant : {&*fusedKernels, &*eagerKernels})
      for (const KernelReport &kernel : variant->kernels) {
        for (const SizeExpr *expr :
             {&kernel.elements, &kernel.bytesRead, &kernel.bytesWritten})
          expr->collectSymbols(used);
        // A row's length is printed even where a 0 empties every count.
        if (kernel.rows)
          for (const SizeExpr *expr :
               {&kernel.rows->count, &kernel.rows->length,
                &kernel.rows->pieceCount})
            expr->collectSymbols(used);
      }
    for (const VariantReport *variant : {&*fusedKernels, &*eagerKernels})
      for (const CopyReport &copy : variant->copies)
        copy.bytes.collectSymbols(used);
    report.symbols = symbols.name(used, report.names);
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
      std::vector<ArgumentDim> &shape = report.shapes.emplace_back();
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        for (int64_t k = 0; k < tensor.getRank(); ++k)
          shape.push_back(argumentDim(func, i, k, symbols, report.names));
    }
    report.fused = std::move(*fusedKernels);
    report.eager = std::move(*eagerKernels);
    report.unfused = std::move(unfused[report.name]);
    reports.push_back(std::move(report));
  }
  return reports;
}

//===----------------------------------------------------------------------===//
// Output
//===----------------------------------------------------------------------===//

static std::string opList(const KernelReport &kernel) {
  return llvm::join(kernel.ops, " ");
}

/// Prints rows with left-aligned columns two spaces apart.
static void printTable(llvm::raw_ostream &os, llvm::StringRef indent,
                       const std::vector<std::vector<std::string>> &rows) {
  std::vector<size_t> widths;
  for (const auto &row : rows)
    for (auto [i, cell] : llvm::enumerate(row)) {
      widths.resize(std::max(widths.size(), i + 1));
      widths[i] = std::max(widths[i], cell.size());
    }
  for (const auto &row : rows) {
    std::string line = indent.str();
    for (auto [i, cell] : llvm::enumerate(row))
      line += i + 1 == row.size()
                  ? cell
                  : cell + std::string(widths[i] + 2 - cell.size(), ' ');
    os << line << "\n";
  }
}

std::string fuse::summarize(const VariantReport &variant,
                            llvm::ArrayRef<std::string> names) {
  SizeExpr read = variant.bytesRead(), written = variant.bytesWritten();
  return plural(variant.kernels.size(), "kernel") + ", " +
         (read + written).str(names) + " bytes (read " + read.str(names) +
         ", written " + written.str(names) + ")";
}

std::string fuse::summarize(const KernelReport &kernel,
                            llvm::ArrayRef<std::string> names) {
  return kernel.elements.str(names) + " elements, " +
         (kernel.bytesRead + kernel.bytesWritten).str(names) + " bytes (read " +
         kernel.bytesRead.str(names) + ", written " +
         kernel.bytesWritten.str(names) + ")";
}

std::string fuse::RowsReport::gpu(ArrayRef<std::string> names) const {
  // A thread that reads its row in lanes keeps 32 partials (as the CPU).
  std::string vectors = !warps && lanes ? ", 32-lane vectors" : "";
  if (pieces)
    return std::string(warps ? "warp" : "thread") + " per piece" + vectors +
           ", " + pieceCount.str(names) + " pieces per row";
  std::string text = (warps ? "warp per row" : "thread per row") + vectors;
  if (inPieces)
    text += " in " + pieceCount.str(names) + " pieces";
  else if (registers && length.asConstant())
    text += ", in registers";
  else if (registers)
    text += ", in registers up to " + std::to_string(registerLength) +
            ", else looped";
  else if (warps)
    text += ", looped";
  // Few rows leave SMs without work (kFewRows).
  std::optional<int64_t> rows = count.asConstant();
  if (rows && *rows < kFewRows)
    text += " (" + plural(*rows, warps ? "warp" : "thread") + " in all)";
  return text;
}

std::string fuse::RowsReport::cpu(ArrayRef<std::string> names) const {
  // Fewer rows than a group (a constant count) are one group.
  std::optional<int64_t> rows = count.asConstant();
  bool oneGroup = cpuGroups && rows && *rows < kCPURowGroup;
  std::string group = std::to_string(kCPURowGroup) + " rows";
  if (pieces)
    return lanes ? "thread per piece, " + std::to_string(kReductionLanes) +
                       "-lane vectors"
           : oneGroup  ? "thread per piece of all rows, element by element"
           : cpuGroups ? "thread per piece of " + group + ", element by element"
                       : "thread per piece, element by element";
  std::string text = oneGroup    ? "one thread for all rows"
                     : cpuGroups ? "thread per " + group
                                 : "thread per row";
  if (inPieces)
    text += " in " + pieceCount.str(names) + " pieces";
  return text + (lanes
                     ? ", " + std::to_string(kReductionLanes) + "-lane vectors"
                     : ", element by element");
}

std::string fuse::describeSizes(const FunctionReport &report) {
  std::string text;
  for (auto [i, symbol] : llvm::enumerate(report.symbols))
    text += (i ? ", " : "") + symbol.describe(report.names);
  return text;
}

/// How a variant's kernels with reductions take their rows.
static void printRows(llvm::raw_ostream &os, const VariantReport &variant,
                      llvm::ArrayRef<std::string> names) {
  std::vector<std::vector<std::string>> rows = {
      {"kernel with reductions", "rows", "length", "GPU", "CPU"}};
  for (const KernelReport &kernel : variant.kernels)
    if (const std::optional<RowsReport> &form = kernel.rows)
      rows.push_back({kernel.name, form->count.str(names),
                      form->length.str(names), form->gpu(names),
                      form->cpu(names)});
  if (rows.size() > 1)
    printTable(os, "    ", rows);
}

/// A variant's summary, its kernels (no table when it has none), with
/// `rows` the table of its kernels with reductions, then its copies.
static void printVariant(llvm::raw_ostream &os, llvm::StringRef label,
                         const VariantReport &variant,
                         llvm::ArrayRef<std::string> names, bool rows) {
  os << "  " << label << ": " << summarize(variant, names) << "\n";
  std::vector<std::vector<std::string>> table = {
      {"kernel", "ops", "elements", "read", "written"}};
  for (const KernelReport &kernel : variant.kernels)
    table.push_back({kernel.name, opList(kernel), kernel.elements.str(names),
                     kernel.bytesRead.str(names),
                     kernel.bytesWritten.str(names)});
  if (table.size() > 1)
    printTable(os, "    ", table);
  if (rows)
    printRows(os, variant, names);
  for (const CopyReport &copy : variant.copies)
    os << "    result " << copy.result << " is " << copy.source
       << ", copied (no kernel): " << copy.bytes.str(names) << " read, "
       << copy.bytes.str(names) << " written\n";
}

void fuse::printReport(llvm::ArrayRef<FunctionReport> reports,
                       llvm::raw_ostream &os) {
  for (auto [i, report] : llvm::enumerate(reports)) {
    if (i)
      os << "\n";
    os << symbolText(report.name);
    if (!report.symbols.empty())
      os << "  " << describeSizes(report);
    os << "\n";
    // The rows of the fused kernels alone: the eager ones' are in the JSON.
    printVariant(os, "fused", report.fused, report.names, /*rows=*/true);
    printVariant(os, "eager", report.eager, report.names, /*rows=*/false);
    SizeExpr fusedBytes =
        report.fused.bytesRead() + report.fused.bytesWritten();
    SizeExpr eagerBytes =
        report.eager.bytesRead() + report.eager.bytesWritten();
    os << "  fused vs eager: " << report.fused.kernels.size() << " vs "
       << plural(report.eager.kernels.size(), "kernel") << ", "
       << fusedBytes.str(report.names) << " vs " << eagerBytes.str(report.names)
       << " bytes";
    // Two decimals, or two significant digits below 0.01 (a chain of
    // thousands of ops: 0.00047x, not 0.00x). Sizes that are not
    // proportional (a bias of M beside N x M) have the ratio of their
    // largest terms, which the sizes tend to; counts of pieces are bounded.
    std::optional<double> ratio = eagerBytes.ratioTo(fusedBytes);
    bool exact = ratio.has_value();
    if (!exact) {
      // Symbol ids index `names`, not `symbols`.
      std::set<unsigned> pieces;
      for (const SizeSymbol &symbol : report.symbols)
        if (symbol.pieces)
          pieces.insert(llvm::find(report.names, symbol.name) -
                        report.names.begin());
      ratio = eagerBytes.leadingRatioTo(fusedBytes, pieces);
    }
    if (ratio)
      os << " ("
         << (*ratio < 0.01
                 ? llvm::formatv("{0}", llvm::format("%.2g", *ratio)).str()
                 // Half away from zero, in decimal: 0.125 is 0.13, which
                 // printf's F2 of the binary value made 0.12.
                 : llvm::formatv("{0:F2}", std::round(*ratio * 100) / 100)
                       .str())
         << "x the traffic" << (exact ? "" : " as the sizes grow") << ")";
    os << "\n";
  }
}

static llvm::json::Object variantToJSON(const VariantReport &variant,
                                        const FunctionReport &report) {
  llvm::ArrayRef<std::string> names = report.names;
  llvm::ArrayRef<SizeSymbol> symbols = report.symbols;
  llvm::json::Array kernels;
  for (const KernelReport &kernel : variant.kernels) {
    llvm::json::Array ops;
    for (const std::string &op : kernel.ops)
      ops.push_back(op);
    llvm::json::Object object{
        {"name", kernel.name},
        {"ops", std::move(ops)},
        {"elements", kernel.elements.toJSON(names, symbols)},
        {"bytes_read", kernel.bytesRead.toJSON(names, symbols)},
        {"bytes_written", kernel.bytesWritten.toJSON(names, symbols)},
        {"bytes",
         (kernel.bytesRead + kernel.bytesWritten).toJSON(names, symbols)},
    };
    if (const std::optional<RowsReport> &rows = kernel.rows)
      object["rows"] = llvm::json::Object{
          {"count", rows->count.toJSON(names, symbols)},
          {"length", rows->length.toJSON(names, symbols)},
          {"gpu", rows->gpu(names)},
          {"cpu", rows->cpu(names)},
      };
    kernels.push_back(std::move(object));
  }
  llvm::json::Array copies;
  for (const CopyReport &copy : variant.copies)
    copies.push_back(llvm::json::Object{
        {"result", static_cast<int64_t>(copy.result)},
        {"source", copy.source},
        {"bytes_read", copy.bytes.toJSON(names, symbols)},
        {"bytes_written", copy.bytes.toJSON(names, symbols)},
    });
  SizeExpr read = variant.bytesRead(), written = variant.bytesWritten();
  return llvm::json::Object{
      {"kernel_count", static_cast<int64_t>(variant.kernels.size())},
      {"bytes_read", read.toJSON(names, symbols)},
      {"bytes_written", written.toJSON(names, symbols)},
      {"bytes", (read + written).toJSON(names, symbols)},
      {"kernels", std::move(kernels)},
      {"copies", std::move(copies)},
  };
}

llvm::json::Value fuse::reportToJSON(llvm::ArrayRef<FunctionReport> reports) {
  llvm::json::Array functions;
  for (const FunctionReport &report : reports) {
    llvm::json::Array sizes;
    for (const SizeSymbol &symbol : report.symbols) {
      llvm::json::Object size =
          symbol.pieces
              ? piecesToJSON(*symbol.pieces, report.names)
              : llvm::json::Object{
                    {"argument", static_cast<int64_t>(symbol.argument)},
                    {"dimension", static_cast<int64_t>(symbol.dimension)}};
      size["name"] = symbol.name;
      sizes.push_back(std::move(size));
    }
    llvm::json::Array arguments, shapes;
    for (const std::string &type : report.arguments)
      arguments.push_back(type);
    for (const std::vector<ArgumentDim> &shape : report.shapes) {
      llvm::json::Array dims;
      for (const ArgumentDim &dim : shape)
        dims.push_back(dim.size ? llvm::json::Value(*dim.size)
                       : dim.symbol
                           ? llvm::json::Value(report.names[*dim.symbol])
                           : llvm::json::Value(nullptr));
      shapes.push_back(std::move(dims));
    }
    functions.push_back(llvm::json::Object{
        {"name", report.name},
        {"arguments", std::move(arguments)},
        {"sizes", std::move(sizes)},
        {"shapes", std::move(shapes)},
        {"fused", variantToJSON(report.fused, report)},
        {"eager", variantToJSON(report.eager, report)},
    });
  }
  return llvm::json::Object{{"functions", std::move(functions)}};
}
