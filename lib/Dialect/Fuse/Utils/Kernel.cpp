//===- Kernel.cpp - what makes a generic an elementwise kernel -----------===//

#include "fuse/Dialect/Fuse/Utils/Kernel.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

bool fuse::isElementwiseKernel(linalg::GenericOp op) {
  if (op.getNumLoops() != op.getNumParallelLoops() || op.getNumDpsInits() == 0)
    return false;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    if (!op.getMatchingIndexingMap(&init).isIdentity() ||
        op.payloadUsesValueFromOperand(&init))
      return false;
  }
  for (OpOperand *input : op.getDpsInputOperands()) {
    for (AffineExpr expr : op.getMatchingIndexingMap(input).getResults()) {
      auto constant = dyn_cast<AffineConstantExpr>(expr);
      if (!isa<AffineDimExpr>(expr) && !(constant && constant.getValue() == 0))
        return false;
    }
  }
  for (Operation &inner : op.getRegion().front()) {
    if (isa<linalg::YieldOp, arith::ConstantOp>(inner))
      continue;
    if (!OpTrait::hasElementwiseMappableTraits(&inner) ||
        inner.getNumRegions() != 0)
      return false;
    for (Type type : inner.getResultTypes())
      if (!type.isIntOrFloat())
        return false;
  }
  return true;
}

SmallVector<OpOperand *>
fuse::trafficOperands(ArrayRef<linalg::GenericOp> members,
                      function_ref<bool(OpOperand &)> isLiveOut) {
  SmallVector<OpOperand *> operands;
  // What a member reads from memory: not written by an earlier member (a
  // result on tensors, a buffer on memrefs), not read before.
  llvm::SmallDenseSet<Value> onChip, read;
  for (linalg::GenericOp op : members) {
    for (OpOperand *input : op.getDpsInputOperands())
      if (!onChip.contains(input->get()) && read.insert(input->get()).second)
        operands.push_back(input);
    for (OpOperand &init : op.getDpsInitsMutable()) {
      if (isLiveOut(init))
        operands.push_back(&init);
      onChip.insert(op.hasPureTensorSemantics()
                        ? Value(op.getTiedOpResult(&init))
                        : init.get());
    }
  }
  return operands;
}

SmallVector<OpOperand *> fuse::trafficOperands(linalg::GenericOp op) {
  return trafficOperands({op}, [](OpOperand &) { return true; });
}

std::string fuse::describeOps(linalg::GenericOp op) {
  ArrayAttr names = FuseDialect::OpsAttrHelper(op.getContext()).getAttr(op);
  // A generic of no op of its own finishes the op whose generic it reads
  // (a mean's division, the rounding of an f16 sum).
  if (names && names.empty())
    for (Value input : op.getDpsInputs())
      if (auto producer = input.getDefiningOp<linalg::GenericOp>())
        return describeOps(producer);
  if (!names || names.empty())
    return "linalg.generic";
  std::string text = "'fuse.";
  for (auto [i, name] : llvm::enumerate(names))
    text += (i ? "+" : "") + cast<StringAttr>(name).getValue().str();
  return text + "'";
}

TypedAttr fuse::combinerIdentity(OperationName combiner, Type type) {
  Builder b(type.getContext());
  StringRef name = combiner.getStringRef();
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    if (name == arith::AddFOp::getOperationName())
      return b.getFloatAttr(type, APFloat::getZero(semantics, true));
    if (name == arith::MaximumFOp::getOperationName())
      return b.getFloatAttr(type, APFloat::getInf(semantics, true));
    if (name == arith::MinimumFOp::getOperationName())
      return b.getFloatAttr(type, APFloat::getInf(semantics, false));
    return {};
  }
  unsigned width = type.getIntOrFloatBitWidth();
  if (name == arith::AddIOp::getOperationName())
    return b.getIntegerAttr(type, 0);
  if (name == arith::MaxSIOp::getOperationName())
    return b.getIntegerAttr(type, APInt::getSignedMinValue(width));
  if (name == arith::MinSIOp::getOperationName())
    return b.getIntegerAttr(type, APInt::getSignedMaxValue(width));
  return {};
}

Operation *fuse::reductionCombiner(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1)
    return nullptr;
  Block &body = op.getRegion().front();
  Value yielded = body.getTerminator()->getOperand(0);
  Operation *def = yielded.getDefiningOp();
  if (!def || !combinerIdentity(def->getName(), yielded.getType()))
    return nullptr;
  Value acc = body.getArguments().back();
  return def->getOperand(0) == acc || def->getOperand(1) == acc ? def : nullptr;
}

bool fuse::keepsRows(linalg::GenericOp op, ArrayRef<int64_t> reduced) {
  return llvm::all_of(op.getDpsInits(), [&](Value init) {
    auto type = cast<ShapedType>(init.getType());
    return type.getRank() == op.getNumLoops() &&
           llvm::all_of(reduced,
                        [&](int64_t d) { return type.getDimSize(d) == 1; });
  });
}

bool fuse::overWholeSpace(linalg::GenericOp op, const RowForm &form) {
  return op.getNumLoops() == form.kept.size() + form.reduced.size() &&
         !keepsRows(op, form.reduced);
}

std::optional<fuse::RowForm>
fuse::rowFormOf(ArrayRef<linalg::GenericOp> members, int64_t blockSize,
                function_ref<bool(OpOperand &)> isLiveOut) {
  auto reduction = llvm::find_if(members, [](linalg::GenericOp op) {
    return op.getNumReductionLoops() > 0;
  });
  if (reduction == members.end())
    return std::nullopt;
  RowForm form;
  for (auto [d, iterator] :
       llvm::enumerate(linalg::GenericOp(*reduction).getIteratorTypesArray()))
    (iterator == utils::IteratorType::reduction ? form.reduced : form.kept)
        .push_back(d);
  int64_t innermost = form.kept.size() + form.reduced.size() - 1;
  // Every reduction a combination whose identity is known.
  bool known = llvm::all_of(members, [](linalg::GenericOp op) {
    return op.getNumReductionLoops() == 0 || reductionCombiner(op);
  });
  form.lanes =
      known && form.reduced.size() == 1 && form.reduced.front() == innermost;
  for (linalg::GenericOp op : members) {
    if (op.getNumLoops() != static_cast<unsigned>(innermost + 1))
      continue;
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      for (auto [k, expr] : llvm::enumerate(map.getResults()))
        if (auto dim = dyn_cast<AffineDimExpr>(expr))
          if (dim.getPosition() == innermost && k + 1 != map.getNumResults())
            form.lanes = false;
    }
  }
  form.warps = form.lanes && blockSize % kReductionLanes == 0 &&
               llvm::all_of(members, [](linalg::GenericOp op) {
                 return op.getNumReductionLoops() == 0 ||
                        llvm::all_of(op.getDpsInits(), [](Value init) {
                          unsigned width = getElementTypeOrSelf(init.getType())
                                               .getIntOrFloatBitWidth();
                          return width == 32 || width == 64;
                        });
               });

  SmallVector<int64_t> ranges =
      linalg::GenericOp(*reduction).getStaticLoopRanges();
  int64_t rows = 1;
  for (int64_t d : form.kept)
    rows = ShapedType::isDynamic(ranges[d]) || rows < 0 ? -1 : rows * ranges[d];
  if (rows >= 0)
    form.rows = rows;
  if (form.reduced.size() == 1 &&
      !ShapedType::isDynamic(ranges[form.reduced.front()]))
    form.length = ranges[form.reduced.front()];
  form.pieces = form.reduced.size() == 1 && known &&
                reducesInPieces(form.rows, form.length, form.lanes);
  if (form.pieces)
    form.pieceCount = rowPieces(form.rows.value_or(1), form.length, form.lanes);
  form.split = form.pieces;
  // A value through views (of a buffer) and reshapes (of a tensor).
  auto sourceOf = [](Value input) {
    while (Operation *def = input.getDefiningOp()) {
      if (auto view = dyn_cast<ViewLikeOpInterface>(def))
        input = view.getViewSource();
      else if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(def))
        input = def->getOperand(0);
      else
        break;
    }
    return input;
  };
  // What each member defines: results on tensors, buffers on memrefs.
  auto definedBy = [](linalg::GenericOp op, OpOperand &init) {
    return op.hasPureTensorSemantics() ? Value(op.getTiedOpResult(&init))
                                       : init.get();
  };
  // The inputs along the row that the reductions read, through the members
  // that they read.
  llvm::DenseMap<Value, linalg::GenericOp> producers;
  for (linalg::GenericOp op : members)
    for (OpOperand &init : op.getDpsInitsMutable())
      producers[definedBy(op, init)] = op;
  llvm::SmallDenseSet<std::pair<Value, AffineMap>> rowInputs;
  llvm::SmallPtrSet<Operation *, 8> visited;
  std::function<void(linalg::GenericOp)> readAlongRow =
      [&](linalg::GenericOp op) {
        if (!visited.insert(op).second)
          return;
        for (OpOperand *input : op.getDpsInputOperands()) {
          Value source = sourceOf(input->get());
          if (auto producer = producers.find(source);
              producer != producers.end()) {
            readAlongRow(producer->second);
            continue;
          }
          AffineMap map = op.getMatchingIndexingMap(input);
          if (op.getNumLoops() == static_cast<unsigned>(innermost + 1) &&
              map.isFunctionOfDim(innermost))
            rowInputs.insert({source, map});
        }
      };
  form.reductions = 0;
  for (linalg::GenericOp op : members) {
    if (op.getNumReductionLoops() == 0)
      continue;
    for (Value init : op.getDpsInits())
      form.reductions += registersPerElement(init.getType());
    readAlongRow(op);
  }
  // In 32-bit registers: a 64-bit element takes two (a row of 1024 f64
  // spilled 300 bytes of a layer norm's 64 registers).
  form.rowInputs = 0;
  for (auto [source, map] : rowInputs)
    form.rowInputs += registersPerElement(source.getType());
  form.rowInputs = std::max<int64_t>(1, form.rowInputs);
  form.registers = form.warps && !form.pieces &&
                   (!form.length || *form.length <= form.registerLength());
  // What the members define that a reduction's value went into, and the
  // values of the members over the whole space other than reductions
  // (which the first launch recomputes where it reads them).
  llvm::SmallDenseSet<Value> fromReduction, overRowValues, pointValues;
  auto readsAny = [&](linalg::GenericOp op,
                      const llvm::SmallDenseSet<Value> &values) {
    return llvm::any_of(op.getDpsInputs(), [&](Value input) {
      return values.contains(sourceOf(input));
    });
  };
  for (linalg::GenericOp op : members) {
    bool reduction = op.getNumReductionLoops() > 0;
    bool overRow = overWholeSpace(op, form);
    bool reads = readsAny(op, fromReduction);
    bool liveOut = llvm::any_of(op.getDpsInitsMutable(), isLiveOut);
    if ((overRow &&
         (reads || readsAny(op, pointValues) || (!reduction && liveOut))) ||
        (!overRow && readsAny(op, overRowValues)))
      form.split = false;
    for (OpOperand &init : op.getDpsInitsMutable()) {
      Value value = definedBy(op, init);
      if (reads || reduction)
        fromReduction.insert(value);
      if (overRow && !reduction)
        overRowValues.insert(value);
      if (!overRow)
        pointValues.insert(value);
    }
  }
  return form;
}

unsigned fuse::kernelParamBytes(ArrayRef<Operation *> ops, bool rows) {
  // A descriptor's words: pointers, offset, sizes and strides.
  auto descriptor = [](Value value) -> unsigned {
    auto type = dyn_cast<ShapedType>(value.getType());
    return 8 * (3 + 2 * (type && type.hasRank() ? type.getRank() : 1));
  };
  DenseSet<Operation *> inside(ops.begin(), ops.end());
  // A value read both at the kernel's position and through a broadcast may
  // be passed twice.
  DenseSet<Value> flatReads, fullReads;
  unsigned bytes = 0;
  for (Operation *op : ops) {
    auto generic = cast<linalg::GenericOp>(op);
    for (OpOperand *input : generic.getDpsInputOperands()) {
      Value value = input->get();
      if (inside.contains(value.getDefiningOp()))
        continue;
      bool flat = !rows && generic.getMatchingIndexingMap(input).isIdentity();
      if ((flat ? flatReads : fullReads).insert(value).second)
        bytes += flat ? kBufferParamBytes : descriptor(value);
    }
    for (OpResult result : op->getResults())
      if (llvm::any_of(result.getUsers(),
                       [&](Operation *user) { return !inside.contains(user); }))
        bytes += rows ? descriptor(result) : kBufferParamBytes;
  }
  return bytes;
}

std::string fuse::tooManyBuffersReason() {
  return "its buffers would take more than " +
         std::to_string(kMaxKernelParamBytes) +
         " bytes of the kernel's parameters (" +
         std::to_string(kMaxKernelBuffers) +
         " buffers, fewer read through a broadcast), more than a GPU "
         "kernel's parameters hold with its sizes";
}

void fuse::emitUnfusedRemark(Location consumer, Location producer,
                             StringRef message) {
  mlir::emitRemark(consumer, message).attachNote(producer)
      << "producer is here";
}

int64_t fuse::registersPerElement(Type type) {
  return getElementTypeOrSelf(type).getIntOrFloatBitWidth() > 32 ? 2 : 1;
}

void fuse::UnfusedRemarks::add(Location consumer, Location producer,
                               std::string message) {
  remarks.push_back({consumer, producer, std::move(message)});
}

void fuse::UnfusedRemarks::emit() {
  // The place of a location in the source: its file, line and column (of
  // the first file location inside a name or fused location); those
  // without one last.
  auto place = [](Location loc) {
    auto file = loc->findInstanceOf<FileLineColLoc>();
    return std::make_tuple(!file, file ? file.getFilename().getValue() : "",
                           file ? file.getLine() : 0,
                           file ? file.getColumn() : 0);
  };
  // In the order added where two are at one place.
  auto order = llvm::to_vector(llvm::seq<unsigned>(0, remarks.size()));
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return std::make_pair(place(remarks[a].consumer), a) <
           std::make_pair(place(remarks[b].consumer), b);
  });
  DenseSet<std::tuple<Location, Location, StringRef>> seen;
  for (unsigned i : order) {
    const Remark &remark = remarks[i];
    if (seen.insert({remark.consumer, remark.producer, remark.message}).second)
      emitUnfusedRemark(remark.consumer, remark.producer, remark.message);
  }
  remarks.clear();
}

SmallVector<std::pair<OpOperand *, unsigned>>
fuse::loopSources(linalg::GenericOp op, bool outputsFirst) {
  SmallVector<std::pair<OpOperand *, unsigned>> sources(op.getNumLoops(),
                                                        {nullptr, 0});
  SmallVector<OpOperand *> operands = op.getDpsInputOperands();
  for (OpOperand &init : op.getDpsInitsMutable())
    operands.insert(outputsFirst ? operands.begin() : operands.end(), &init);
  for (OpOperand *operand : operands)
    for (auto [k, expr] :
         llvm::enumerate(op.getMatchingIndexingMap(operand).getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        if (!sources[dim.getPosition()].first)
          sources[dim.getPosition()] = {operand, static_cast<unsigned>(k)};
  return sources;
}

std::optional<int64_t> fuse::kernelGroup(Operation *op) {
  if (IntegerAttr group =
          FuseDialect::GroupAttrHelper(op->getContext()).getAttr(op))
    return group.getInt();
  return std::nullopt;
}

SmallVector<SmallVector<linalg::GenericOp>>
fuse::kernelsOf(Block &block, function_ref<bool(linalg::GenericOp)> include) {
  SmallVector<SmallVector<linalg::GenericOp>> kernels;
  std::optional<int64_t> open;
  for (auto op : block.getOps<linalg::GenericOp>()) {
    if (!include(op))
      continue;
    std::optional<int64_t> group = kernelGroup(op);
    if (!group || group != open)
      kernels.emplace_back();
    kernels.back().push_back(op);
    open = group;
  }
  return kernels;
}

std::optional<fuse::DType> fuse::fromMLIRType(Type type) {
  std::string text;
  llvm::raw_string_ostream(text) << type;
  return dtypeFromSpelling(text);
}

int64_t fuse::storageBytes(Type type) {
  // The linalg and fused stages convert fuse ops among any others, whose
  // tensors may hold other types (index, complex: it crashed on them).
  Type element = getElementTypeOrSelf(type);
  if (auto complex = dyn_cast<ComplexType>(element))
    return 2 * storageBytes(complex.getElementType());
  if (element.isIndex())
    return 8;
  if (!element.isIntOrFloat())
    return 1;
  return std::max<int64_t>(1, element.getIntOrFloatBitWidth() / 8);
}

bool fuse::isTargetMath(Operation *op) {
  return isa<math::ExpOp, math::ExpM1Op, math::LogOp, math::Log1pOp,
             math::PowFOp, math::SinOp, math::CosOp, math::TanhOp, math::ErfOp>(
      op);
}

OpFoldResult fuse::multiplySizes(OpBuilder &b, Location loc, OpFoldResult lhs,
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

SmallVector<Value> fuse::assertedEqual(Value tensor, int64_t k) {
  SmallVector<Value> equal;
  for (Operation *user : tensor.getUsers()) {
    auto dimOp = dyn_cast<tensor::DimOp>(user);
    if (!dimOp || dimOp.getConstantIndex() != k)
      continue;
    for (Operation *compare : dimOp->getUsers()) {
      auto cmp = dyn_cast<arith::CmpIOp>(compare);
      if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::eq ||
          llvm::none_of(cmp->getUsers(), [](Operation *assert) {
            return isa<cf::AssertOp>(assert);
          }))
        continue;
      equal.push_back(cmp.getLhs() == dimOp.getResult() ? cmp.getRhs()
                                                        : cmp.getLhs());
    }
  }
  return equal;
}

SmallVector<std::pair<Value, int64_t>> fuse::equalDims(Value tensor,
                                                       int64_t k) {
  SmallVector<std::pair<Value, int64_t>> found = {{tensor, k}};
  for (size_t next = 0; next < found.size(); ++next) {
    auto [value, d] = found[next];
    for (Value other : assertedEqual(value, d)) {
      auto otherDim = other.getDefiningOp<tensor::DimOp>();
      std::optional<int64_t> index =
          otherDim ? otherDim.getConstantIndex() : std::nullopt;
      if (!index)
        continue;
      std::pair<Value, int64_t> equal = {otherDim.getSource(), *index};
      if (!llvm::is_contained(found, equal))
        found.push_back(equal);
    }
  }
  auto key = [](const std::pair<Value, int64_t> &dim) {
    auto arg = dyn_cast<BlockArgument>(dim.first);
    return std::make_tuple(arg ? 0 : 1, arg ? arg.getArgNumber() : 0,
                           dim.first.getAsOpaquePointer(), dim.second);
  };
  llvm::sort(found,
             [&](const auto &a, const auto &b) { return key(a) < key(b); });
  return found;
}
