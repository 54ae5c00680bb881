//===- ReductionFusion.cpp - reductions with their neighbours ------------===//
//
// Groups each reduction generic with the generics around it that run over
// the same rows, into one kernel (`fuse.group`): elementwise generics over
// the reduction's whole iteration space (before it, a prologue; after it,
// reading its result broadcast over the row), elementwise generics over the
// rows (the kept dimensions: a mean's division, an rsqrt of a variance) and
// other reductions over the same rows. fuse-map-to-gpu runs a group as one
// kernel whose threads each own a row; values passed inside it never reach
// memory (RowKernelBuilder).
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/Utils/Kernel.h"
#include "fuse/Dialect/Fuse/Utils/Location.h"
#include "fuse/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace fuse {
#define GEN_PASS_DEF_FUSEREDUCTIONFUSION
#include "fuse/Transforms/Passes.h.inc"
} // namespace fuse

using namespace mlir;
using namespace fuse;

namespace {

/// The most reductions of a kernel on one path, each reading a value that
/// the one before went into: two layer norms of three (the mean, the mean
/// of the distances from it, the variance), or a softmax (its max and sum)
/// of a layer norm. A thread goes over its row once per reduction and
/// computes again what the reduction reads, so that a kernel of L levels
/// computes the first level's ops L times: a chain of 20 layer norms (`312
/// x 4096` f32) in one kernel took 24 ms on the cpu target (eager 8.8), and
/// its compile time grew as the cube of its length. With 4 (and layer norms
/// of two levels), 10 kernels of 2 took 3.7 ms; with 2, 20 kernels took 2.6
/// ms there, but 33 ms against 26 for 10 layers at `4096 x 4096`, past the
/// caches. With 6 and layer norms of three, 10 kernels of 2 take as long as
/// they did (5.1 ms and 43 ms on a loaded host, 5.3 and 43 before), and 6
/// log-softmaxes or 6 centerings in 2 or 1 kernels no longer than in 3 or
/// 2.
constexpr int64_t kMaxReductionLevels = 6;

/// A size as a product: a constant and dynamic factors, so that the row of
/// several reduced dimensions (a tensor.collapse_shape of the operand:
/// their product) compares equal to the same product anywhere. A factor is
/// a tensor's dimension (its tensor.dim, however many there are of it) or
/// another SSA value (convert-fuse-to-linalg gives every size of one class
/// one value).
struct Size {
  using Factor = std::pair<const void *, int64_t>;
  int64_t constant = 1;
  SmallVector<Factor> factors;

  bool operator==(const Size &other) const {
    return constant == other.constant && factors == other.factors;
  }
  bool isOne() const { return constant == 1 && factors.empty(); }

  Size &operator*=(const Size &other) {
    constant *= other.constant;
    llvm::append_range(factors, other.factors);
    llvm::sort(factors);
    return *this;
  }

  /// Dimension `k` of `tensor`, or the first of those that the program
  /// asserts equal to it (fuse::equalDims): one size.
  static Size dim(Value tensor, int64_t k) {
    Size result;
    auto [first, d] = equalDims(tensor, k).front();
    result.factors.push_back({first.getAsOpaquePointer(), d});
    return result;
  }

  /// `size` split at its arith.muli.
  static Size of(OpFoldResult size) {
    Size result;
    if (std::optional<int64_t> constant = getConstantIntValue(size)) {
      result.constant = *constant;
      return result;
    }
    auto value = cast<Value>(size);
    if (auto mul = value.getDefiningOp<arith::MulIOp>()) {
      result = of(mul.getLhs());
      result *= of(mul.getRhs());
      return result;
    }
    if (auto dim = value.getDefiningOp<tensor::DimOp>())
      if (std::optional<int64_t> k = dim.getConstantIndex())
        return Size::dim(dim.getSource(), *k);
    result.factors.push_back({value.getAsOpaquePointer(), -1});
    return result;
  }
};

bool sameSizes(ArrayRef<Size> a, ArrayRef<Size> b) {
  return a.size() == b.size() && llvm::equal(a, b);
}

/// Size `k` of `tensor`: a constant, the size its producer's init was
/// created with, a tensor.dim of a function argument, or the product of
/// the sizes a tensor.collapse_shape groups.
std::optional<Size> dimOf(Value tensor, int64_t k) {
  auto type = cast<RankedTensorType>(tensor.getType());
  Builder b(tensor.getContext());
  if (!type.isDynamicDim(k))
    return Size::of(b.getIndexAttr(type.getDimSize(k)));
  if (auto result = dyn_cast<OpResult>(tensor)) {
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(result.getOwner()))
      return dimOf(linalgOp.getDpsInits()[result.getResultNumber()], k);
    if (auto empty = dyn_cast<tensor::EmptyOp>(result.getOwner()))
      return Size::of(empty.getMixedSizes()[k]);
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(result.getOwner())) {
      Size product;
      SmallVector<ReassociationIndices> groups =
          collapse.getReassociationIndices();
      for (int64_t d : groups[k]) {
        std::optional<Size> size = dimOf(collapse.getSrc(), d);
        if (!size)
          return std::nullopt;
        product *= *size;
      }
      return product;
    }
    return std::nullopt;
  }
  for (Operation *user : tensor.getUsers())
    if (auto dim = dyn_cast<tensor::DimOp>(user))
      if (dim.getConstantIndex() == k)
        return Size::of(dim.getResult());
  return std::nullopt;
}

/// The sizes of `op`'s loops (loopSources).
std::optional<SmallVector<Size>> loopSizes(linalg::GenericOp op) {
  SmallVector<Size> sizes;
  for (auto [operand, k] : loopSources(op, /*outputsFirst=*/true)) {
    if (!operand || !isa<RankedTensorType>(operand->get().getType()))
      return std::nullopt;
    std::optional<Size> size = dimOf(operand->get(), k);
    if (!size)
      return std::nullopt;
    sizes.push_back(*size);
  }
  return sizes;
}

/// Whether `map` reads the kept loops of `iterators`, in order, and nothing
/// else: how a generic over the whole space reads a value of the rows.
bool readsRows(AffineMap map, ArrayRef<utils::IteratorType> iterators) {
  SmallVector<AffineExpr> kept;
  for (auto [d, iterator] : llvm::enumerate(iterators))
    if (iterator == utils::IteratorType::parallel)
      kept.push_back(getAffineDimExpr(d, map.getContext()));
  return map.getNumDims() == iterators.size() &&
         map.getResults() == ArrayRef<AffineExpr>(kept);
}

/// Whether `map` reads, at the kept loops of `iterators`, a tensor of the
/// rows with the reduced dimensions kept (size 1, read at 0).
bool readsKeptRows(AffineMap map, ArrayRef<utils::IteratorType> iterators) {
  if (map.getNumDims() != iterators.size() ||
      map.getNumResults() != iterators.size())
    return false;
  for (auto [d, iterator] : llvm::enumerate(iterators)) {
    AffineExpr expr = map.getResult(d);
    if (iterator == utils::IteratorType::parallel
            ? expr != getAffineDimExpr(d, map.getContext())
            : expr != getAffineConstantExpr(0, map.getContext()))
      return false;
  }
  return true;
}

/// The rows of a reduction: which loops it reduces, and the sizes of all of
/// them and of the kept ones.
struct Rows {
  SmallVector<utils::IteratorType> iterators;
  SmallVector<Size> sizes;
  SmallVector<Size> keptSizes;
  /// Few rows: a constant number below kFewRows, over one reduced loop,
  /// longer than a piece (pieceLength) or of a dynamic length, which the
  /// kernel reduces in pieces (RowForm::pieces, reducesInPieces). Its
  /// kernel takes only what lets it reduce them in a launch of their own, a
  /// warp (or thread) per piece (RowForm::split): a kernel that also went
  /// over the whole space after the reduction would do so with a warp per
  /// row, a few warps for the whole GPU.
  bool few = false;
  /// Strided rows: the innermost loop is kept (a reduction over dimension
  /// 0 of a matrix: its rows are the columns), or the reduced loops are
  /// several (not collapsed into one: `dims = [0, 2]`), so that a kernel
  /// takes the rows a thread per row (or per piece of a row, `pieces`),
  /// each thread going down its row in every pass. A kernel that also went
  /// over the whole space after the reduction would do so with those
  /// threads alone, one per row, where a kernel of its own has a thread per
  /// element (an H200 ran a softmax over dimension 0 of 1024 x 97656 in
  /// 1.2 ms as one kernel, 0.96 ms as five, 0.54 ms as the three this
  /// makes: bench/RESULTS.md, Dec 4). Its kernel takes what comes before
  /// the reduction and what runs over the rows, as for few rows, and, when
  /// not in pieces, stores what the program returns of them.
  bool strided = false;

  /// The kernel reduces its rows in pieces (RowForm::pieces,
  /// reducesInPieces): few rows, or strided rows over one reduced loop
  /// that are not too many (a dynamic number, or at most half of
  /// kStridedPieces). A value over the whole space that the program
  /// returns is then computed again by a copy (copyLiveOut), not stored by
  /// the kernel, which takes its pieces in a launch of their own.
  bool pieces = false;

  /// Whether the kernel takes no member over the whole space after its
  /// reductions (few rows, strided rows).
  bool endsAtRows() const { return few || strided; }

  /// How `op` would run in a kernel over these rows: a reduction over
  /// them, an elementwise generic over the whole space, over the rows, or
  /// over the rows with the reduced dimensions kept (size 1: `rsqrt` of a
  /// variance computed with keepdims).
  enum class Kind { Reduction, Whole, Row, KeptRow, None };
  Kind kindOf(linalg::GenericOp op) const {
    std::optional<SmallVector<Size>> loops = loopSizes(op);
    if (!loops)
      return Kind::None;
    if (op.getNumReductionLoops() > 0)
      return op.getIteratorTypesArray() == iterators &&
                     sameSizes(*loops, sizes) && op.getNumDpsInits() == 1 &&
                     readsRows(op.getIndexingMapsArray().back(), iterators)
                 ? Kind::Reduction
                 : Kind::None;
    if (!isElementwiseKernel(op))
      return Kind::None;

    if (sameSizes(*loops, sizes))
      return Kind::Whole;
    if (sameSizes(*loops, keptSizes))
      return Kind::Row;
    if (loops->size() != sizes.size())
      return Kind::None;
    for (auto [loop, size, iterator] : llvm::zip(*loops, sizes, iterators))
      if (iterator == utils::IteratorType::parallel ? !(loop == size)
                                                    : !loop.isOne())
        return Kind::None;
    return Kind::KeptRow;
  }
};

/// Why a generic next to a reduction's kernel stayed out of it.
enum class Reason {
  Space,
  SpaceProducer,
  Stages,
  Uncollapsed,
  UncollapsedProducer,
  Position,
  Cycle,
  Buffers,
  FewRows,
  Strided,
  Levels,
  Recomputed,
  Copies,
  Stored
};

/// A producer/consumer pair that stayed apart, one of them in a kernel with
/// a reduction.
struct Unfused {
  linalg::GenericOp producer;
  linalg::GenericOp consumer;
  Reason reason;
  /// For Reason::Cycle: the last op outside the kernel on the path that
  /// leaves it and comes back; for Reason::Stages: the reduction.
  Operation *through = nullptr;
};

/// Where a remark about `op` goes: a generic that elementwise fusion made
/// of several ops is named by the first of them, as one op (what the report
/// takes).
Location opLoc(linalg::GenericOp op) {
  if (auto fused = dyn_cast<FusedLoc>(op.getLoc()))
    if (!fused.getLocations().empty())
      return fused.getLocations().front();
  return op.getLoc();
}

/// `location` and, for a generic that elementwise fusion made of several
/// ops, each of theirs.
SmallVector<Location> locationsOf(Location location) {
  SmallVector<Location> locations = {location};
  if (auto fused = dyn_cast<FusedLoc>(location))
    llvm::append_range(locations, fused.getLocations());
  return locations;
}

/// `op`'s location and those of the ops it was made of (above).
SmallVector<Location> locationsOf(Operation *op) {
  return locationsOf(op->getLoc());
}

/// Where a remark about `consumer` reading a result of `producer` goes: the
/// first op of the consumer's body that reads it, past the producer's own
/// ops computed there again (a mean's division), in a generic that
/// elementwise fusion made of several ops (`d - sum(x)` after `d = y * z`
/// is about the sub); else opLoc.
Location readerLoc(linalg::GenericOp consumer, linalg::GenericOp producer) {
  SmallVector<Location> locations = locationsOf(producer);
  DenseSet<Location> own(locations.begin(), locations.end());
  Block &body = consumer.getRegion().front();
  SmallVector<Value> worklist;
  for (OpOperand *input : consumer.getDpsInputOperands()) {
    Value value = input->get();
    if (auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>())
      value = collapse.getSrc();
    else if (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>())
      value = expand.getSrc();
    if (value.getDefiningOp() == producer)
      worklist.push_back(body.getArgument(input->getOperandNumber()));
  }
  Operation *first = nullptr;
  DenseSet<Operation *> seen;
  while (!worklist.empty())
    for (Operation *user : worklist.pop_back_val().getUsers()) {
      if (!seen.insert(user).second)
        continue;
      if (own.contains(user->getLoc()))
        llvm::append_range(worklist, user->getResults());
      else if (!first || user->isBeforeInBlock(first))
        first = user;
    }
  if (first && isa<FileLineColLoc, NameLoc>(first->getLoc()))
    return first->getLoc();
  return opLoc(consumer);
}

Value throughViews(Value value);

/// Where the note of a remark about `consumer` reading a result of
/// `producer` goes: the op of the producer's body that computes the first
/// result it reads (`rsqrt` of a generic that elementwise fusion made of a
/// mean's division, an add and an rsqrt); else opLoc.
Location producedLoc(linalg::GenericOp consumer, linalg::GenericOp producer) {
  for (OpOperand *input : consumer.getDpsInputOperands()) {
    auto result = dyn_cast<OpResult>(throughViews(input->get()));
    if (!result || result.getOwner() != producer)
      continue;
    Value yielded = producer.getBody()->getTerminator()->getOperand(
        result.getResultNumber());
    if (Operation *def = yielded.getDefiningOp();
        def && def->getBlock() == producer.getBody() &&
        !isa<FusedLoc, UnknownLoc>(def->getLoc()))
      return def->getLoc();
    break;
  }
  return opLoc(producer);
}

/// What a remark about `pair` says.
std::string remarkText(const Unfused &pair) {
  linalg::GenericOp producer = pair.producer;
  std::string text =
      "not fused with its producer " + describeOps(producer) + ": ";
  switch (pair.reason) {
  case Reason::Space:
    text += "the two iterate over different spaces: that op is in a "
            "reduction's kernel, which takes the generics over its whole "
            "space or over its rows, and this op iterates over neither";
    break;
  case Reason::SpaceProducer:
    text += "the two iterate over different spaces: this op is in a "
            "reduction's kernel, which takes the generics over its whole "
            "space or over its rows, and that op iterates over neither";
    break;
  case Reason::Stages:
    text += "that op is in the kernel of a reduction over dimensions that "
            "are not adjacent";
    if (auto reduction = dyn_cast_or_null<linalg::GenericOp>(pair.through))
      text += " (" + describeOps(reduction) + " at " +
              formatLocation(opLoc(reduction)) + ")";
    text += ", which runs as two reductions in kernels of their own (the "
            "innermost dimensions first, then the others); this op "
            "iterates over the whole space, and the last reduction's kernel "
            "goes over the rows alone";
    break;
  case Reason::Uncollapsed:
    text += "the reduction reads its rows with their dimensions collapsed "
            "into one, and this op iterates over them uncollapsed (an op "
            "that reads its result reads an operand broadcast along only "
            "some of those dimensions)";
    break;
  case Reason::UncollapsedProducer:
    text += "the reduction reads its rows with their dimensions collapsed "
            "into one, and that op iterates over them uncollapsed (it, or an "
            "op that reads its result, reads an operand broadcast along "
            "only some of those dimensions)";
    break;
  case Reason::Position:
    text += "this op reads that result at other positions than its own "
            "row, which the kernel's thread does not have";
    break;
  case Reason::Cycle:
    text += "fusing them would create a cycle of kernels";
    if (Operation *through = pair.through) {
      auto generic = dyn_cast<linalg::GenericOp>(through);
      text += " through " +
              (generic ? describeOps(generic)
                       : "'" + through->getName().getStringRef().str() + "'") +
              " at " +
              formatLocation(generic ? opLoc(generic) : through->getLoc()) +
              ", which is in neither's kernel: a value would leave the "
              "kernel for it and come back";
    } else {
      text += " through an op outside the kernel";
    }
    break;
  case Reason::Buffers:
    text += tooManyBuffersReason();
    break;
  case Reason::FewRows:
    text += "this op reads, over the whole space, a value computed from a "
            "reduction over few rows (fewer than " +
            std::to_string(kFewRows) +
            "): the whole machine (every SM of the GPU, every core of the "
            "CPU) reduces them in pieces in a kernel of its own, where a "
            "kernel that also went over the whole space after it would have "
            "one warp or thread per row; both targets run the same kernels";
    break;
  case Reason::Strided:
    text += "this op reads, over the whole space, a value computed from a "
            "reduction whose rows are strided (it keeps the innermost "
            "dimension, or reduces dimensions that are not adjacent): the "
            "reduction's kernel takes a thread per row (or per piece of a "
            "row), and this op, over the whole space, is left to another "
            "kernel; both targets run the same kernels";
    break;
  case Reason::Recomputed:
    text += "this reduction reads a math function (exp, log, tanh, ...) "
            "that reads a value of a reduction two levels below it in that "
            "kernel: the thread goes over its row once per reduction and "
            "computes again all that the reduction reads, so that the "
            "function would be computed again in each pass from there on "
            "(a chain of softmaxes); it starts another kernel";
    break;
  case Reason::Copies:
    text += "that op computes again, from a copy of their ops, values of a "
            "kernel that reduces its rows in a launch of their own (which "
            "stores no value over the whole space); this kernel, which ends "
            "at its rows too, would compute it again in turn, so that each "
            "kernel of a chain (of softmaxes over a leading axis) would "
            "compute all those before it: that op's value is stored "
            "instead";
    break;
  case Reason::Stored:
    text += "this op's kernel reduces its rows in pieces, in a launch of "
            "their own, and stores no value over the whole space; that op's "
            "value, which the function returns or an op reads broadcast, is "
            "stored by a kernel of its own, and this op reads it rather than "
            "computing it again from several operands or with a math function";
    break;
  case Reason::Levels:
    text += "this op reads a value computed from " +
            std::to_string(kMaxReductionLevels) +
            " reductions one after the other, the most a kernel takes (a "
            "thread goes over its row once per reduction and computes again "
            "all that the reduction reads, so that a longer chain, of layer "
            "norms say, would take time quadratic in its length): it starts "
            "another kernel, with the reduction that reads it";
    break;
  }
  return text;
}

/// Whether result `r` of `op` is computed with a math function
/// (isTargetMath) in its body; `inputs` gets the operand numbers of the
/// inputs that it reads (a generic that elementwise fusion made of several
/// ops yields values that need not read all of them).
bool resultComputesMath(linalg::GenericOp op, unsigned r,
                        SmallVectorImpl<unsigned> *inputs = nullptr) {
  Block *body = op.getBody();
  SmallVector<Value> worklist = {body->getTerminator()->getOperand(r)};
  DenseSet<Value> seen;
  bool math = false;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    if (auto argument = dyn_cast<BlockArgument>(value)) {
      if (argument.getOwner() == body && inputs &&
          argument.getArgNumber() < op.getNumDpsInputs())
        inputs->push_back(argument.getArgNumber());
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (def->getBlock() != body)
      continue;
    math |= isTargetMath(def);
    llvm::append_range(worklist, def->getOperands());
  }
  return math;
}

/// `value`, or the source of the tensor.collapse_shape that makes it (a
/// reduction's rows, read collapsed).
Value uncollapsed(Value value) {
  if (auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>())
    return collapse.getSrc();
  return value;
}

/// `value` read through the collapse and expand views of it.
Value throughViews(Value value) {
  while (isa_and_nonnull<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(
      value.getDefiningOp()))
    value = value.getDefiningOp()->getOperand(0);
  return value;
}

/// The ops that read `op`'s results, a collapse or expand view of one
/// standing for its readers.
SmallVector<Operation *> readersThroughViews(Operation *op) {
  SmallVector<Operation *> readers;
  for (Operation *user : op->getUsers()) {
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(user))
      llvm::append_range(readers, user->getUsers());
    else
      readers.push_back(user);
  }
  return readers;
}

/// Whether `op` is one of the two reductions that convert-fuse-to-linalg
/// makes of a reduction over dimensions that are not adjacent (`dims = [0,
/// 2]`: over 2, then over 0), which have the op's location.
bool isStage(linalg::GenericOp op) {
  auto sameOp = [&](Operation *other) {
    auto generic = dyn_cast_or_null<linalg::GenericOp>(other);
    return generic && generic != op && generic.getNumReductionLoops() > 0 &&
           opLoc(generic) == opLoc(op);
  };
  return op.getNumReductionLoops() > 0 &&
         (llvm::any_of(op.getDpsInputs(),
                       [&](Value input) {
                         return sameOp(throughViews(input).getDefiningOp());
                       }) ||
          llvm::any_of(readersThroughViews(op), sameOp));
}

/// Whether `consumer` reads a result of `producer`, directly or through a
/// tensor.collapse_shape (a reduction's rows).
bool readsResultOf(Operation *consumer, Operation *producer) {
  return llvm::any_of(consumer->getOperands(), [&](Value operand) {
    return uncollapsed(operand).getDefiningOp() == producer;
  });
}

class ReductionGrouping {
public:
  explicit ReductionGrouping(Block &block) : block(block) {}

  /// The pairs next to a reduction's kernel that ended up in different
  /// kernels (after run()), each once.
  SmallVector<Unfused> unfused() const {
    SmallVector<Unfused> pairs;
    auto add = [&](const Unfused &pair) {
      if (llvm::none_of(pairs, [&](const Unfused &seen) {
            return seen.producer == pair.producer &&
                   seen.consumer == pair.consumer;
          }))
        pairs.push_back(pair);
    };
    for (const Unfused &pair : rejected) {
      std::optional<unsigned> producer = kernelOf(pair.producer);
      if (producer && producer == kernelOf(pair.consumer))
        continue;
      // Two stages of one reduction (over dimensions not next to each
      // other: convert-fuse-to-linalg): one op, no pair to remark on.
      if (opLoc(pair.producer) == opLoc(pair.consumer))
        continue;
      // The consumer reads a copy of the producer now (copyLiveOut), which
      // its kernel computes again: a remark only for a reduction that
      // starts a kernel past the levels of the producer's.
      if (pair.reason != Reason::Levels &&
          !readsResultOf(pair.consumer, pair.producer)) {
        // When no use of the producer is left, all of it moved there: its
        // copy, over the uncollapsed space, is apart from the members the
        // producer read for the same reason (`x - max(x)` over dims 1 and
        // 2, read uncollapsed by an op beside a weight per channel, is a
        // copy in the reader's kernel).
        if (producer && pair.producer->use_empty() &&
            pair.reason == Reason::Uncollapsed)
          for (Value input : linalg::GenericOp(pair.producer).getDpsInputs()) {
            auto def = uncollapsed(input).getDefiningOp<linalg::GenericOp>();
            if (def && kernelOf(def) == producer)
              for (linalg::GenericOp copy : readersApart(def, pair.producer))
                add({def, copy, pair.reason});
          }
        continue;
      }
      // A copy (of a member of the producer's kernel) reading the producer:
      // the program's pair is in one kernel.
      if (Operation *original = originals.lookup(pair.consumer);
          original && producer && kernelOf(original) == producer)
        continue;
      // The consumer's op computed in the producer's kernel too, by a copy
      // (copyLiveOut: a column sum's kernel kept `exp(x) + min` and gave
      // its other readers a copy, which the row kernel of the min took):
      // the program's pair is in one kernel.
      if (producer &&
          llvm::any_of(copies.lookup(pair.consumer), [&](Operation *copy) {
            return kernelOf(copy) == producer;
          }))
        continue;
      add(pair);
    }
    return pairs;
  }

  /// The kernel (group) of `op` after run(), if it is in one.
  std::optional<unsigned> kernelOf(Operation *op) const {
    auto it = groupOf.find(op);
    if (it == groupOf.end())
      return std::nullopt;
    return it->second;
  }

  /// The generics outside `def`'s kernel that read its result (directly or
  /// through a view) and compute `original` again: its copies.
  SmallVector<linalg::GenericOp>
  readersApart(linalg::GenericOp def, linalg::GenericOp original) const {
    std::optional<unsigned> kernel = kernelOf(def);
    SmallVector<linalg::GenericOp> copies;
    for (Operation *user : readersThroughViews(def))
      if (auto generic = dyn_cast<linalg::GenericOp>(user);
          generic && generic != original &&
          !(kernel && kernelOf(generic) == kernel) &&
          llvm::is_contained(locationsOf(generic), original->getLoc()))
        copies.push_back(generic);
    return copies;
  }

  /// Groups every reduction of the block with its neighbours; returns the
  /// groups of more than one generic, each in program order. The kernels
  /// that end at their rows (few or strided rows) are formed first: such a
  /// kernel takes the prologue it shares with a kernel over rows read in
  /// lanes, which computes it again from a copy (copyLiveOut), where the
  /// other order stores it for the first to read (a layer norm's backward
  /// pass stored `dy * xhat` for its column sum).
  SmallVector<SmallVector<linalg::GenericOp>> run() {
    SmallVector<SmallVector<linalg::GenericOp>> groups;
    for (bool endsAtRows : {true, false})
      for (auto op : llvm::to_vector(block.getOps<linalg::GenericOp>())) {
        if (grouped.contains(op) || op.getNumReductionLoops() == 0 ||
            !op.hasPureTensorSemantics())
          continue;
        std::optional<Rows> rows = rowsOf(op);
        if (!rows || rows->endsAtRows() != endsAtRows)
          continue;
        SmallVector<linalg::GenericOp> group = grow(op, *rows);
        if (group.size() > 1)
          groups.push_back(std::move(group));
      }
    return groups;
  }

private:
  static std::optional<Rows> rowsOf(linalg::GenericOp op) {
    std::optional<SmallVector<Size>> sizes = loopSizes(op);
    if (!sizes)
      return std::nullopt;
    Rows rows;
    rows.iterators = op.getIteratorTypesArray();
    rows.sizes = *sizes;
    for (auto [size, iterator] : llvm::zip(*sizes, rows.iterators))
      if (iterator == utils::IteratorType::parallel)
        rows.keptSizes.push_back(size);
    if (rows.kindOf(op) != Rows::Kind::Reduction)
      return std::nullopt;
    // The number of rows and their length, when they are constants.
    std::optional<int64_t> kept = 1;
    for (const Size &size : rows.keptSizes) {
      if (!size.factors.empty())
        kept = std::nullopt;
      else if (kept)
        kept = std::min(*kept * size.constant, kStridedPieces + 1);
    }
    Size length;
    for (auto [size, iterator] : llvm::zip(*sizes, rows.iterators))
      if (iterator == utils::IteratorType::reduction)
        length *= size;
    std::optional<int64_t> constantLength;
    if (length.factors.empty())
      constantLength = length.constant;
    bool lanes = rows.iterators.back() == utils::IteratorType::reduction;
    bool pieces = op.getNumReductionLoops() == 1 && reductionCombiner(op) &&
                  reducesInPieces(kept, constantLength, lanes);
    rows.few = pieces && kept && *kept < kFewRows;
    rows.strided = !lanes || op.getNumReductionLoops() > 1;
    rows.pieces = pieces;
    return rows;
  }

  /// The group of `seed`: its neighbours that run over its rows, and
  /// theirs, as long as every value passed inside is read where the kernel
  /// has it and no path leaves the group and comes back.
  SmallVector<linalg::GenericOp> grow(linalg::GenericOp seed,
                                      const Rows &rows) {
    llvm::SetVector<Operation *> members;
    members.insert(seed);
    kinds[seed] = Rows::Kind::Reduction;
    // A bound on the parameter bytes of the group's buffers
    // (kernelParamBytes): each member adds at most its own, and the group is
    // counted again only past kMaxKernelParamBytes, so that a long chain
    // around a reduction grows in linear time.
    unsigned bufferBound = kernelParamBytes(seed.getOperation(), true);
    SmallVector<linalg::GenericOp> worklist = {seed};
    while (!worklist.empty()) {
      linalg::GenericOp op = worklist.pop_back_val();
      SmallVector<Operation *> neighbours;
      for (Value input : op.getDpsInputs()) {
        // A producer read collapsed (the reduction's rows) iterates over
        // the uncollapsed space: a neighbour that stays apart (a remark).
        if (Operation *def = uncollapsed(input).getDefiningOp())
          neighbours.push_back(def);
      }
      // A reader of the rows expanded back (`x - max` over dimensions 1 and
      // 2, read by an op over the three): a neighbour that stays apart.
      DenseSet<Operation *> readsExpanded;
      for (Operation *user : op->getUsers()) {
        if (!isa<tensor::ExpandShapeOp>(user)) {
          neighbours.push_back(user);
          continue;
        }
        for (Operation *reader : user->getUsers()) {
          neighbours.push_back(reader);
          readsExpanded.insert(reader);
        }
      }
      // The other reductions of an operand that a member reads over the
      // whole space, and the elementwise generics that read it there (in a
      // kernel that does not end at its rows, which writes no value over
      // the whole space): over the same rows, the kernel reads it once for
      // all of them (x.sum(1) and x.max(1) of one x; a layer norm's
      // backward pass, `dy.sum(0)` beside `(dy * xhat).sum(0)`; x.sum(1)
      // beside exp(x)).
      Rows::Kind kind = kinds.lookup(op);
      if (kind == Rows::Kind::Reduction || kind == Rows::Kind::Whole)
        for (OpOperand *input : op.getDpsInputOperands()) {
          if (!op.getMatchingIndexingMap(input).isIdentity())
            continue;
          for (OpOperand &use : input->get().getUses()) {
            auto sibling = dyn_cast<linalg::GenericOp>(use.getOwner());
            if (!sibling || sibling == op)
              continue;
            if (sibling.getNumReductionLoops() > 0 ||
                (!rows.endsAtRows() && isElementwiseKernel(sibling) &&
                 sibling.isDpsInput(&use) &&
                 sibling.getMatchingIndexingMap(&use).isIdentity()))
              neighbours.push_back(sibling);
          }
        }
      for (Operation *neighbour : neighbours) {
        auto candidate = dyn_cast<linalg::GenericOp>(neighbour);
        if (!candidate || members.contains(candidate) ||
            !candidate.hasPureTensorSemantics())
          continue;
        // The pair as producer and consumer, for a remark.
        bool produces = readsResultOf(op, candidate);
        auto reject = [&](Reason reason, Operation *through = nullptr) {
          rejected.push_back({produces ? candidate : op,
                              produces ? op : candidate, reason, through});
        };
        Rows::Kind kind = rows.kindOf(candidate);
        if (grouped.contains(candidate) || kind == Rows::Kind::None ||
            readsExpanded.contains(candidate)) {
          // More loops than a reduction over collapsed rows has, over the
          // space it collapsed: not more, where that space has a dimension
          // of size 1 (`x - max(x)` over `? x ? x 1` read broadcast to
          // `? x ? x ?` iterates over neither the rows nor the space).
          SmallVector<int64_t> loops = candidate.getStaticLoopRanges();
          bool uncollapsed =
              candidate.getNumLoops() > seed.getNumLoops() &&
              llvm::any_of(seed.getDpsInputs(), [&](Value input) {
                auto collapse = input.getDefiningOp<tensor::CollapseShapeOp>();
                if (!collapse)
                  return false;
                ArrayRef<int64_t> space = collapse.getSrcType().getShape();
                return loops.size() == space.size() &&
                       llvm::all_of(llvm::zip(loops, space), [](auto sizes) {
                         return std::get<1>(sizes) != 1 ||
                                std::get<0>(sizes) == 1;
                       });
              });
          bool stages = !uncollapsed && !produces && isStage(seed);
          reject(uncollapsed ? (produces ? Reason::UncollapsedProducer
                                         : Reason::Uncollapsed)
                 : produces  ? Reason::SpaceProducer
                 : stages    ? Reason::Stages
                             : Reason::Space,
                 stages ? seed.getOperation() : nullptr);
          continue;
        }
        kinds[candidate] = kind;
        if (!readsFit(candidate, members, rows)) {
          reject(Reason::Position);
          continue;
        }
        if (rows.endsAtRows() && !leavesSplit(candidate, members)) {
          reject(rows.few ? Reason::FewRows : Reason::Strided);
          continue;
        }
        if (rows.endsAtRows() && readsCopies(candidate)) {
          reject(Reason::Copies);
          continue;
        }
        if (Operation *through = cycleThrough(members, candidate)) {
          reject(Reason::Cycle, through);
          continue;
        }
        if (std::optional<Reason> deep = tooDeep(members, candidate)) {
          reject(*deep);
          continue;
        }
        unsigned bound =
            bufferBound + kernelParamBytes(candidate.getOperation(), true);
        if (bound > kMaxKernelParamBytes) {
          SmallVector<Operation *> grown(members.getArrayRef());
          grown.push_back(candidate);
          bound = kernelParamBytes(grown, true);
          if (bound > kMaxKernelParamBytes) {
            reject(Reason::Buffers);
            continue;
          }
        }
        bufferBound = bound;
        members.insert(candidate);
        worklist.push_back(candidate);
      }
    }
    // A reduction alone is no kernel yet: a later one may take it (a
    // sibling found through a member over the whole space).
    if (members.size() == 1)
      return {seed};
    if (rows.endsAtRows())
      copyLiveOut(members, /*returned=*/rows.pieces);
    else
      copyLiveOut(members, /*returned=*/false, /*cheap=*/true);
    SmallVector<linalg::GenericOp> group;
    for (Operation &op : block)
      if (members.contains(&op))
        group.push_back(cast<linalg::GenericOp>(op));
    for (linalg::GenericOp op : group) {
      grouped.insert(op);
      groupOf[op] = groups;
    }
    ++groups;
    return group;
  }

  /// Whether `op` is, or reads, a copy (copyLiveOut) that another kernel
  /// ending at its rows made: a kernel ending at its rows stores no value
  /// over the whole space, so that one taking `op` would make copies of
  /// it in turn, and each kernel of a chain (of softmaxes over a leading
  /// axis) would compute all those before it. `op` stays out, and its
  /// value is stored. A copy of what reads only the function's arguments
  /// (an f16 input's cast to f32) starts no chain: it is taken (an f16
  /// softmax over every element stored its exp, 26 bytes per element
  /// instead of 16). Nor does a copy that reads over the whole space only
  /// arguments, and besides them values of the rows, with no math function
  /// (x - max(x) of a variance over axis 0, whose squares the last mean's
  /// kernel computes from x, not from 4 stored bytes an element).
  bool readsCopies(linalg::GenericOp op) const {
    auto chains = [&](Operation *producer) {
      auto copy = dyn_cast_or_null<linalg::GenericOp>(producer);
      return copy && copied.contains(copy) && !readsArgumentsOnly(copy) &&
             !readsArgumentsAndRows(copy);
    };
    if (chains(op))
      return true;
    return llvm::any_of(op.getDpsInputs(), [&](Value input) {
      return chains(throughViews(input).getDefiningOp());
    });
  }

  /// Whether `value` is a function's argument or a constant (through
  /// views).
  static bool isArgumentOrConstant(Value value) {
    value = throughViews(value);
    return isa<BlockArgument>(value) || matchPattern(value, m_Constant());
  }

  /// Whether `op` reads nothing but the function's arguments and constants
  /// (through views).
  static bool readsArgumentsOnly(linalg::GenericOp op) {
    return llvm::all_of(op.getDpsInputs(), isArgumentOrConstant);
  }

  /// Whether `op` reads over the whole space (at its own position) only
  /// the function's arguments and constants, and other values only
  /// broadcast (a reduction's, over the rows), with no math function
  /// (isTargetMath) in its body: a few ops an element.
  static bool readsArgumentsAndRows(linalg::GenericOp op) {
    for (OpOperand *input : op.getDpsInputOperands())
      if (op.getMatchingIndexingMap(input).isIdentity() &&
          !isArgumentOrConstant(input->get()))
        return false;
    return !op.getBody()
                ->walk([](Operation *inner) {
                  return isTargetMath(inner) ? WalkResult::interrupt()
                                             : WalkResult::advance();
                })
                .wasInterrupted();
  }

  /// Why `members` and `candidate` would compute too much again in one
  /// kernel, whose thread goes over its row once per reduction and computes
  /// again all that the reduction reads: more than kMaxReductionLevels
  /// reductions on one path, each reading a value that the one before went
  /// into (Levels); or a reduction reading a math function (isTargetMath)
  /// that reads a value of a reduction two levels below it (Recomputed: in
  /// a chain of softmaxes, the second one's max reads the first one's exp,
  /// which its sum, the second max and sum and the output would compute
  /// five times in all, where eager computes it once; 4 softmaxes of
  /// `512 x 2048`, 2 kernels of 2, ran 2x slower than eager on the cpu
  /// target). A softmax's sum reads its exp one level above it.
  std::optional<Reason> tooDeep(const llvm::SetVector<Operation *> &members,
                                linalg::GenericOp candidate) const {
    // An op that neither reduces nor reads a member (a prologue's) is of
    // level 0 and changes no other's.
    auto readsMember = [&](Value input) {
      return members.contains(uncollapsed(input).getDefiningOp());
    };
    if (candidate.getNumReductionLoops() == 0 &&
        llvm::none_of(candidate.getDpsInputs(), readsMember))
      return std::nullopt;
    SmallVector<Operation *> ops(members.begin(), members.end());
    ops.push_back(candidate);
    if (llvm::count_if(ops, [](Operation *op) {
          return cast<linalg::GenericOp>(op).getNumReductionLoops() > 0;
        }) < 2)
      return std::nullopt;
    llvm::sort(
        ops, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    constexpr int64_t kNone = std::numeric_limits<int64_t>::max();
    // Each op's level (the most reductions on a path to it), and for each
    // result the lowest level of a math function over the whole space, of
    // level 1 or more, that it computes again (through members, up to a
    // reduction).
    DenseMap<Operation *, std::pair<int64_t, SmallVector<int64_t>>> seen;
    auto read = [&](Value input) -> std::optional<std::pair<int64_t, int64_t>> {
      input = uncollapsed(input);
      auto it = seen.find(input.getDefiningOp());
      if (it == seen.end())
        return std::nullopt;
      return std::make_pair(
          it->second.first,
          it->second.second[cast<OpResult>(input).getResultNumber()]);
    };
    std::optional<Reason> why;
    for (Operation *op : ops) {
      auto generic = cast<linalg::GenericOp>(op);
      bool reduces = generic.getNumReductionLoops() > 0;
      int64_t below = 0, math = kNone;
      for (Value input : generic.getDpsInputs())
        if (auto levels = read(input)) {
          below = std::max(below, levels->first);
          math = std::min(math, levels->second);
        }
      int64_t level = below + (reduces ? 1 : 0);
      if (level > kMaxReductionLevels)
        return Reason::Levels;
      if (reduces && math != kNone && level - math >= 2)
        why = Reason::Recomputed;
      SmallVector<int64_t> perResult(op->getNumResults(), kNone);
      if (!reduces)
        for (unsigned r = 0; r < op->getNumResults(); ++r) {
          SmallVector<unsigned> inputs;
          bool computes = resultComputesMath(generic, r, &inputs);
          for (unsigned i : inputs)
            if (auto levels = read(generic.getDpsInputs()[i]))
              perResult[r] = std::min(perResult[r], levels->second);
          if (computes && below >= 1 && kinds.lookup(op) == Rows::Kind::Whole)
            perResult[r] = std::min(perResult[r], below);
        }
      seen[op] = {level, std::move(perResult)};
    }
    return why;
  }

  /// Whether every value passed between `candidate` and the members is read
  /// where the kernel has it: a value over the whole space at the same
  /// position, a value of the rows at the reader's row.
  bool readsFit(linalg::GenericOp candidate,
                const llvm::SetVector<Operation *> &members, const Rows &rows) {
    auto fits = [&](linalg::GenericOp producer, linalg::GenericOp consumer,
                    OpOperand &operand) {
      using Kind = Rows::Kind;
      Kind from = kinds.lookup(producer);
      Kind to = kinds.lookup(consumer);
      AffineMap map = consumer.getMatchingIndexingMap(&operand);
      switch (from) {
      case Kind::Whole:
        return (to == Kind::Whole || to == Kind::Reduction) && map.isIdentity();
      case Kind::KeptRow:
        if (to == Kind::KeptRow)
          return map.isIdentity();
        return to != Kind::Row && readsKeptRows(map, rows.iterators);
      case Kind::Reduction:
      case Kind::Row:
        if (to == Kind::Row)
          return map.isIdentity();
        return readsRows(map, rows.iterators);
      case Kind::None:
        break;
      }
      return false;
    };
    auto check = [&](linalg::GenericOp consumer, auto isProducer) {
      for (OpOperand *operand : consumer.getDpsInputOperands()) {
        auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
        if (producer && isProducer(producer) &&
            !fits(producer, consumer, *operand))
          return false;
      }
      return true;
    };
    if (!check(candidate, [&](linalg::GenericOp producer) {
          return members.contains(producer);
        }))
      return false;
    for (Operation *member : members)
      if (!check(cast<linalg::GenericOp>(member),
                 [&](linalg::GenericOp producer) {
                   return producer == candidate;
                 }))
        return false;
    return true;
  }

  /// For a kernel that ends at its rows (Rows::endsAtRows): whether
  /// `candidate` lets the kernel reduce them in a launch of their own. Not
  /// when a member over the whole space (or a reduction) reads a value that
  /// a reduction went into (a reduction's, or one over the rows).
  bool leavesSplit(linalg::GenericOp candidate,
                   const llvm::SetVector<Operation *> &members) {
    using Kind = Rows::Kind;
    auto overSpace = [&](Operation *op) {
      Kind kind = kinds.lookup(op);
      return kind == Kind::Whole || kind == Kind::Reduction;
    };
    return llvm::none_of(members, [&](Operation *member) {
      return (overSpace(candidate) && kinds.lookup(member) != Kind::Whole &&
              readsResultOf(candidate, member)) ||
             (overSpace(member) && kinds.lookup(candidate) != Kind::Whole &&
              readsResultOf(member, candidate));
    });
  }

  /// For `members`, a kernel that ends at its rows: gives each member over the
  /// whole space (other than a reduction) whose results are also used
  /// outside it a copy for those uses, reading copies of the members it
  /// reads, so that the kernel stores none of its values over the whole
  /// space and reduces its rows in a launch of their own. The copies are
  /// elementwise generics of no group, which fuse-elementwise-fusion, run
  /// again (`skip-groups`), fuses with what reads them: a softmax of a
  /// vector computes `exp(x - max)` in the sum's kernel and again in the
  /// division's, instead of storing it there and reading it twice.
  /// With `returned` false (strided rows not in pieces, one launch that may
  /// store over the whole space), a value that the function returns is
  /// stored by the kernel: only the ops that read it get the copy.
  /// With `cheap` (a kernel that may store over the whole space), only a
  /// member whose copy reads one operand over the whole space from outside
  /// the kernel, or none, gets one, for the kernels that read it (not for
  /// what the function returns, through a view or not): reading it again costs
  /// no more than storing the member's value and reading that (an NCHW batch
  /// norm's `x - mean`, which the variance's kernel computes and the scaling's
  /// kernel reads, is computed again there from `x`).
  void copyLiveOut(const llvm::SetVector<Operation *> &members, bool returned,
                   bool cheap = false) {
    auto isWhole = [&](Operation *op) {
      return op && members.contains(op) &&
             kinds.lookup(op) == Rows::Kind::Whole;
    };
    // The operands over the whole space that the copy of `member` reads
    // from outside the kernel; 2 (not cheap) for a copy that would compute
    // again a copy of another kernel's value (each kernel of a chain of
    // layer norms would compute all those before it), unless that copy
    // starts no chain (readsArgumentsAndRows: `x - rowmax(x)` read by a
    // column sum's kernel and by an op after it, which computes it again
    // too, where the row max's kernel stored it for that op). A copy that
    // computes a math function (copiesMath: a softmax's exp, which the reading
    // kernel would compute again in each of its passes over a row) is not
    // cheap either.
    auto wholeInputs = [&](Operation *member) {
      llvm::SetVector<Value> inputs;
      SmallVector<Operation *> worklist = {member};
      DenseSet<Operation *> seen;
      while (!worklist.empty()) {
        auto op = cast<linalg::GenericOp>(worklist.pop_back_val());
        if (!seen.insert(op).second)
          continue;
        if (copied.contains(op) && !readsArgumentsAndRows(op))
          return size_t(2);
        for (OpOperand *input : op.getDpsInputOperands()) {
          Operation *def = input->get().getDefiningOp();
          if (isWhole(def))
            worklist.push_back(def);
          else if (!members.contains(def) &&
                   op.getMatchingIndexingMap(input).isIdentity())
            inputs.insert(input->get());
        }
      }
      return inputs.size();
    };
    // A cheap copy goes to generics that read it element for element (which
    // fuse-elementwise-fusion fuses with it), also through a view back in
    // the whole space (a group norm's `x - mean` read uncollapsed, by a
    // product with a weight per channel: expandCopies). Not to one that
    // reads it broadcast: fused with none, the copy would be a kernel of its
    // own that computes again what the kernel stores anyway for other uses
    // (`x - max(x)` returned, and times a weight over a new dimension).
    // Nor to a member of a kernel formed before (one that ends at its
    // rows), which fuse-elementwise-fusion leaves alone (`skip-groups`): the
    // copy would be a kernel of its own that stores what this kernel can
    // (`x * x` of `x * x / rowsum`, a column max's operand).
    auto readInPlace = [&](OpOperand &use) {
      auto generic = dyn_cast<linalg::GenericOp>(use.getOwner());
      return generic && !grouped.contains(generic) &&
             generic.getMatchingIndexingMap(&use).isIdentity();
    };
    auto readByGenerics = [&](OpOperand &use) {
      return readInPlace(use) ||
             (isa<tensor::ExpandShapeOp>(use.getOwner()) &&
              llvm::all_of(use.getOwner()->getResult(0).getUses(),
                           readInPlace));
    };
    auto outside = [&](OpOperand &use) {
      return !members.contains(block.findAncestorOpInBlock(*use.getOwner())) &&
             (returned || !use.getOwner()->hasTrait<OpTrait::ReturnLike>()) &&
             (!cheap || readByGenerics(use));
    };
    // Whether the results of `member` used outside are computed with a
    // math function, in it or in the members it reads (not cheap either).
    auto copiesMath = [&](Operation *member) {
      SmallVector<std::pair<linalg::GenericOp, unsigned>> worklist;
      for (OpResult result : member->getResults())
        if (llvm::any_of(result.getUses(), outside))
          worklist.push_back(
              {cast<linalg::GenericOp>(member), result.getResultNumber()});
      DenseSet<std::pair<Operation *, unsigned>> seen;
      while (!worklist.empty()) {
        auto [op, r] = worklist.pop_back_val();
        if (!seen.insert({op, r}).second)
          continue;
        SmallVector<unsigned> inputs;
        if (resultComputesMath(op, r, &inputs))
          return true;
        for (unsigned i : inputs) {
          Value input = op.getDpsInputs()[i];
          if (Operation *def = input.getDefiningOp(); isWhole(def))
            worklist.push_back({cast<linalg::GenericOp>(def),
                                cast<OpResult>(input).getResultNumber()});
        }
      }
      return false;
    };
    DenseMap<Operation *, Operation *> copyOf;
    SmallVector<Operation *> made;
    std::function<Operation *(Operation *)> copy =
        [&](Operation *member) -> Operation * {
      if (Operation *done = copyOf.lookup(member))
        return done;
      IRMapping mapping;
      for (Value input : cast<linalg::GenericOp>(member).getDpsInputs())
        if (Operation *def = input.getDefiningOp(); isWhole(def))
          mapping.map(input, copy(def)->getResult(
                                 cast<OpResult>(input).getResultNumber()));
      OpBuilder builder(member->getContext());
      builder.setInsertionPointAfter(member);
      // Inits of their own: a tensor.empty shared by two kernels would be
      // one buffer for both (and merging inits is what makes bufferization
      // quadratic, see fuse-canonicalize), also through a view of it (a
      // generic over a reduction's collapsed space writes a collapsed
      // tensor.empty: a chain of `y - sum(y)` over a `1 x ?` tensor).
      std::function<Value(Value)> fresh = [&](Value init) -> Value {
        Operation *def = init.getDefiningOp();
        if (isa_and_nonnull<tensor::EmptyOp>(def))
          return builder.clone(*def)->getResult(0);
        if (!isa_and_nonnull<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(
                def))
          return Value();
        Value source = fresh(def->getOperand(0));
        if (!source)
          return Value();
        IRMapping view;
        view.map(def->getOperand(0), source);
        return builder.clone(*def, view)->getResult(0);
      };
      for (Value init : cast<linalg::GenericOp>(member).getDpsInits())
        if (Value own = fresh(init))
          mapping.map(init, own);
      Operation *clone = builder.clone(*member, mapping);
      copied.insert(clone);
      originals[clone] = member;
      copies[member].push_back(clone);
      copyOf[member] = clone;
      made.push_back(clone);
      return clone;
    };
    for (Operation *member : members) {
      if (!isWhole(member) || llvm::none_of(member->getUses(), outside))
        continue;
      if (cheap && (wholeInputs(member) > 1 || copiesMath(member))) {
        splitTails(cast<linalg::GenericOp>(member), outside);
        continue;
      }
      // A value that the copy stores anyway (the function returns it, or
      // an op reads it broadcast, which fuses with no copy), computed from
      // more than one operand over the whole space or with a math function:
      // the kernel reads it too, one operand for several (`y = a + b`
      // returned with its sum in pieces read a and b twice: 20 bytes an
      // element, not eager's 16), or one for one and no math function
      // computed twice.
      bool readStored =
          returned && !cheap &&
          llvm::any_of(member->getUses(),
                       [&](OpOperand &use) {
                         return outside(use) && !readByGenerics(use);
                       }) &&
          (wholeInputs(member) > 1 || copiesMath(member));
      Operation *clone = copy(member);
      for (auto [result, copyResult] :
           llvm::zip(member->getResults(), clone->getResults()))
        result.replaceUsesWithIf(copyResult, [&](OpOperand &use) {
          return use.getOwner() != clone && (readStored || outside(use)) &&
                 !copied.contains(use.getOwner());
        });
      if (!readStored)
        continue;
      // The members that read it now read the copy, which is apart.
      for (Operation *reader : readersThroughViews(clone))
        if (members.contains(reader))
          rejected.push_back({cast<linalg::GenericOp>(clone),
                              cast<linalg::GenericOp>(reader), Reason::Stored});
    }
    if (cheap)
      expandCopies(made);
  }

  /// For `member`, over the whole space, of a kernel that stores values
  /// over the whole space: each result that only generics outside the
  /// kernel read (`outside`), which the member computes from another of its
  /// results that the kernel stores anyway (read outside too) with ops
  /// that nothing else of the member needs, and constants, is computed by
  /// a generic of its own from that stored result instead (a tail), which
  /// fuses with its readers: the kernel no longer stores it for them to
  /// read back. A chain of `x' = tanh(x) + (x - mean(x))` split into kernels
  /// by their levels stored the last x and its tanh, which the next kernel
  /// read (24 bytes an element for 3 links, 16 now); the tanh is computed
  /// once, in the next kernel.
  void splitTails(linalg::GenericOp member,
                  llvm::function_ref<bool(OpOperand &)> outside) {
    Block *body = member.getBody();
    Operation *yield = body->getTerminator();
    auto readOutsideOnly = [&](OpResult result) {
      return !result.use_empty() &&
             llvm::all_of(result.getUses(), [&](OpOperand &use) {
               return outside(use) && isa<linalg::GenericOp>(use.getOwner());
             });
    };
    auto isStored = [&](OpResult result) {
      return llvm::any_of(result.getUses(), outside);
    };
    for (OpResult result : member->getResults()) {
      if (!readOutsideOnly(result))
        continue;
      unsigned r = result.getResultNumber();
      Value out = yield->getOperand(r);
      Operation *last = out.getDefiningOp();
      if (!last || last->getBlock() != body)
        continue;
      // The ops that compute it, from one other stored result (`from`) and
      // constants; each used by these ops only (and the yield, once).
      llvm::SetVector<Operation *> tail;
      std::optional<unsigned> from;
      bool fits = true;
      SmallVector<Operation *> worklist = {last};
      while (fits && !worklist.empty()) {
        Operation *op = worklist.pop_back_val();
        if (!tail.insert(op))
          continue;
        for (Value operand : op->getOperands()) {
          Operation *def = operand.getDefiningOp();
          if (def && def->getBlock() == body && isa<arith::ConstantOp>(def))
            continue;
          std::optional<unsigned> stored;
          for (OpOperand &use : yield->getOpOperands())
            if (use.get() == operand && use.getOperandNumber() != r &&
                isStored(member->getResult(use.getOperandNumber())))
              stored = use.getOperandNumber();
          if (stored) {
            // One stored value (which several results may yield).
            if (from && yield->getOperand(*from) != operand)
              fits = false;
            from = from ? from : stored;
            continue;
          }
          if (!def || def->getBlock() != body) {
            fits = false;
            break;
          }
          worklist.push_back(def);
        }
      }
      if (!fits || !from)
        continue;
      for (Operation *op : tail)
        for (OpOperand &use : op->getUses())
          if (!tail.contains(use.getOwner()) &&
              !(use.getOwner() == yield && use.getOperandNumber() == r))
            fits = false;
      auto init = member.getDpsInits()[r].getDefiningOp<tensor::EmptyOp>();
      if (!fits || !init)
        continue;
      // The tail, in the member's order, over its space.
      SmallVector<Operation *> ordered(tail.begin(), tail.end());
      llvm::sort(ordered, [](Operation *a, Operation *b) {
        return a->isBeforeInBlock(b);
      });
      Value stored = yield->getOperand(*from);
      OpBuilder builder(member.getContext());
      builder.setInsertionPointAfter(member);
      Value fresh = builder.clone(*init)->getResult(0);
      SmallVector<AffineMap> maps = {
          member.getMatchingIndexingMap(member.getDpsInitOperand(*from)),
          member.getMatchingIndexingMap(member.getDpsInitOperand(r))};
      auto split = linalg::GenericOp::create(
          builder, member.getLoc(), TypeRange{result.getType()},
          ValueRange{member->getResult(*from)}, ValueRange{fresh}, maps,
          member.getIteratorTypesArray(),
          [&](OpBuilder &b, Location loc, ValueRange args) {
            IRMapping mapping;
            mapping.map(stored, args[0]);
            for (Operation &inner : body->without_terminator())
              if (isa<arith::ConstantOp>(inner))
                b.clone(inner, mapping);
            for (Operation *op : ordered)
              b.clone(*op, mapping);
            linalg::YieldOp::create(b, loc, mapping.lookup(out));
          });
      FuseDialect::OpsAttrHelper ops(member.getContext());
      ops.setAttr(split, tailNames(member, ordered));
      result.replaceAllUsesWith(split->getResult(0));
    }
  }

  /// The fuse ops of `member`'s `tail` (their names, which elementwise
  /// fusion keeps one per location in its order, as dropDeadResults reads
  /// them); none when they cannot be told apart.
  static ArrayAttr tailNames(linalg::GenericOp member,
                             ArrayRef<Operation *> tail) {
    MLIRContext *context = member.getContext();
    FuseDialect::OpsAttrHelper ops(context);
    ArrayAttr names = ops.getAttr(member);
    SmallVector<Location> locations = {member.getLoc()};
    if (auto fused = dyn_cast<FusedLoc>(member.getLoc()))
      locations.assign(fused.getLocations().begin(),
                       fused.getLocations().end());
    SmallVector<Attribute> kept;
    if (names && names.size() == locations.size())
      for (auto [name, location] : llvm::zip(names, locations))
        if (llvm::any_of(tail, [&, location = location](Operation *op) {
              return op->getLoc() == location;
            }))
          kept.push_back(name);
    return ArrayAttr::get(context, kept);
  }

  /// The copies in `made` that views read back in the whole space, over
  /// the whole space themselves, with the copies they read (upstream's
  /// reshape propagation by expansion), so that fuse-elementwise-fusion
  /// (`skip-groups`) fuses them with their readers.
  void expandCopies(ArrayRef<Operation *> made) {
    if (llvm::none_of(made, [](Operation *copy) {
          return llvm::any_of(copy->getUsers(), [](Operation *user) {
            return isa<tensor::ExpandShapeOp>(user);
          });
        }))
      return;
    MLIRContext *context = block.getParentOp()->getContext();
    RewritePatternSet patterns(context);
    // Not through a view that leaves out dimensions of size 1 (the
    // operand of a reduction over `? x 1 x ? x ?`): the copy would get
    // their loops back, which no generic around it has
    // (convert-fuse-to-linalg takes them away).
    auto leavesOutUnitDims = [](Operation *producer) {
      auto collapse = dyn_cast_or_null<tensor::CollapseShapeOp>(producer);
      return collapse &&
             llvm::is_contained(collapse.getSrcType().getShape(), int64_t(1));
    };
    linalg::populateFoldReshapeOpsByExpansionPatterns(
        patterns, [&](OpOperand *operand) {
          Operation *producer = operand->get().getDefiningOp();
          if (leavesOutUnitDims(producer))
            return false;
          return copied.contains(operand->getOwner()) ||
                 (producer && copied.contains(producer));
        });
    // The generics that the expansion makes of copies are copies, with
    // their attributes (fuse.ops).
    struct Listener : RewriterBase::Listener {
      DenseSet<Operation *> &copied;
      explicit Listener(DenseSet<Operation *> &copied) : copied(copied) {}
      void notifyOperationReplaced(Operation *op,
                                   ValueRange replacements) override {
        if (!copied.contains(op))
          return;
        for (Value value : replacements) {
          if (auto generic =
                  throughViews(value).getDefiningOp<linalg::GenericOp>()) {
            generic->setDiscardableAttrs(op->getDiscardableAttrDictionary());
            copied.insert(generic);
          }
        }
      }
      void notifyOperationErased(Operation *op) override { copied.erase(op); }
    } listener(copied);
    SmallVector<Operation *> roots;
    for (Operation *copy : made)
      llvm::append_range(roots, copy->getUsers());
    llvm::append_range(roots, made);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    config.setListener(&listener);
    (void)applyOpPatternsGreedily(roots, std::move(patterns), config);
    // The view back of the view of an expanded copy is the copy (the same
    // sizes, which upstream's folder cannot see when they are dynamic).
    for (auto expand :
         llvm::make_early_inc_range(block.getOps<tensor::ExpandShapeOp>())) {
      auto collapse = expand.getSrc().getDefiningOp<tensor::CollapseShapeOp>();
      if (!collapse || !copied.contains(collapse.getSrc().getDefiningOp()) ||
          collapse.getSrcType() != expand.getResultType() ||
          collapse.getReassociationIndices() !=
              expand.getReassociationIndices())
        continue;
      expand.replaceAllUsesWith(collapse.getSrc());
      expand.erase();
    }
  }

  /// An op outside `members` and `candidate` on a path that leaves them
  /// and comes back (the last generic of such a path), or null: taking
  /// `candidate` would make a cycle of kernels through it.
  Operation *cycleThrough(const llvm::SetVector<Operation *> &members,
                          Operation *candidate) {
    auto inside = [&](Operation *op) {
      return op == candidate || members.contains(op);
    };
    // Each op reached, with the last generic on its path (a view between
    // generics names no op of the program).
    SmallVector<std::pair<Operation *, Operation *>> worklist;
    DenseSet<Operation *> seen;
    auto step = [&](Operation *user, Operation *last) {
      return std::make_pair(user, isa<linalg::GenericOp>(user) ? user : last);
    };
    auto pushUsers = [&](Operation *op) {
      for (Operation *user : op->getUsers()) {
        user = block.findAncestorOpInBlock(*user);
        if (user && !inside(user) && seen.insert(user).second)
          worklist.push_back(step(user, user));
      }
    };
    pushUsers(candidate);
    for (Operation *member : members)
      pushUsers(member);
    while (!worklist.empty()) {
      auto [op, last] = worklist.pop_back_val();
      for (Operation *user : op->getUsers()) {
        user = block.findAncestorOpInBlock(*user);
        if (!user)
          continue;
        // The op before the path comes back (a column sum between a
        // value and its reader: the value's own op, first on the path,
        // said nothing).
        if (inside(user))
          return last;
        if (seen.insert(user).second)
          worklist.push_back(step(user, last));
      }
    }
    return nullptr;
  }

  Block &block;
  DenseSet<Operation *> grouped;
  DenseMap<Operation *, unsigned> groupOf;
  unsigned groups = 0;
  DenseMap<Operation *, Rows::Kind> kinds;
  SmallVector<Unfused> rejected;

public:
  /// The copies that copyLiveOut made.
  DenseSet<Operation *> copied;
  /// The member that each copy is of.
  DenseMap<Operation *, Operation *> originals;
  /// The copies of each member that copyLiveOut copied (originals'
  /// inverse).
  DenseMap<Operation *, SmallVector<Operation *>> copies;
};

/// Whether `op` or an op in its regions uses a value that `from` contains.
bool usesAny(Operation *op, const DenseSet<Operation *> &from) {
  WalkResult walk = op->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      if (Operation *def = operand.getDefiningOp())
        if (from.contains(def))
          return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// Moves the members of `group` next to its last one, and the ops between
/// them that depend on a member after it: a group runs as one kernel where
/// its last generic was. The order is the block's now: a group made before
/// may have moved a member of this one after its others.
void makeAdjacent(ArrayRef<linalg::GenericOp> ops) {
  SmallVector<Operation *> group(ops.begin(), ops.end());
  llvm::sort(group,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  Operation *last = group.back();
  DenseSet<Operation *> members(group.begin(), group.end());
  DenseSet<Operation *> after = members;
  SmallVector<Operation *> dependents;
  for (Operation *op = group.front()->getNextNode(); op != last;
       op = op->getNextNode()) {
    if (members.contains(op))
      continue;
    if (usesAny(op, after)) {
      after.insert(op);
      dependents.push_back(op);
    }
  }
  for (Operation *op : ArrayRef(group).drop_back())
    op->moveBefore(last);
  Operation *position = last;
  for (Operation *op : dependents) {
    op->moveAfter(position);
    position = op;
  }
}

/// Makes the views of one tensor as the same rows one value (the
/// tensor.collapse_shape of a reduction's operand, and those of the
/// generics that convert-fuse-to-linalg collapsed after it, one each), so
/// that a kernel reads that tensor as one buffer.
void mergeCollapses(Block &block) {
  DenseMap<std::pair<Value, Attribute>, tensor::CollapseShapeOp> first;
  for (auto collapse :
       llvm::make_early_inc_range(block.getOps<tensor::CollapseShapeOp>())) {
    auto [it, inserted] = first.try_emplace(
        {collapse.getSrc(), collapse.getReassociationAttr()}, collapse);
    if (!inserted && it->second.getType() == collapse.getType()) {
      collapse.replaceAllUsesWith(it->second.getResult());
      collapse.erase();
    }
  }
}

struct FuseReductionFusionPass
    : fuse::impl::FuseReductionFusionBase<FuseReductionFusionPass> {
  using Base::Base;

  void runOnOperation() override {
    FuseDialect::GroupAttrHelper groupAttr(&getContext());
    int64_t next = 0;
    for (Block &block : getOperation().getBody()) {
      // The groups convert-fuse-to-linalg made (a mean's division) are
      // formed again here, with everything else that fits.
      for (auto op : block.getOps<linalg::GenericOp>())
        if (groupAttr.isAttrPresent(op))
          groupAttr.removeAttr(op);
      mergeCollapses(block);
      ReductionGrouping grouping(block);
      for (ArrayRef<linalg::GenericOp> group : grouping.run()) {
        makeAdjacent(group);
        IntegerAttr id =
            IntegerAttr::get(IntegerType::get(&getContext(), 64), next++);
        for (linalg::GenericOp op : group)
          groupAttr.setAttr(op, id);
      }
      if (remarks)
        for (Unfused pair : grouping.unfused()) {
          // A reduction past the levels of its producer's kernel starts a
          // kernel that computes that producer again (`x - mean` before the
          // next mean): the pair apart is that producer and the reduction
          // it reads, whose kernel stores its value.
          if (pair.reason == Reason::Levels &&
              pair.producer.getNumReductionLoops() == 0)
            for (OpOperand *input : pair.producer.getDpsInputOperands()) {
              auto rows =
                  throughViews(input->get()).getDefiningOp<linalg::GenericOp>();
              if (rows &&
                  !pair.producer.getMatchingIndexingMap(input).isIdentity() &&
                  grouping.kernelOf(rows) &&
                  grouping.kernelOf(rows) != grouping.kernelOf(pair.consumer)) {
                pair = {rows, pair.producer, pair.reason};
                break;
              }
            }
          Location reader = readerLoc(pair.consumer, pair.producer);
          pending.add(reader, producedLoc(pair.consumer, pair.producer),
                      remarkText(pair));
          for (Location producer : locationsOf(pair.producer))
            remarked.insert({reader, producer});
        }
      copied.insert(grouping.copied.begin(), grouping.copied.end());
    }
    emitElementwiseRemarks();
    pending.emit();
  }

  /// The remarks of this pass and fuse-elementwise-fusion's, emitted in
  /// source order at the end.
  UnfusedRemarks pending;

  /// The copies that the groups over few rows made (copyLiveOut).
  DenseSet<Operation *> copied;
  /// The (consumer, producer) locations of this pass's remarks, one for
  /// each op fused into the producer: an elementwise remark about the same
  /// pair would say it again.
  DenseSet<std::pair<Location, Location>> remarked;

  /// Emits fuse-elementwise-fusion's remarks (`fuse.unfused`) for the pairs
  /// that are in different kernels now.
  void emitElementwiseRemarks() {
    FuseDialect::UnfusedAttrHelper helper(&getContext());
    func::FuncOp func = getOperation();
    ArrayAttr records = helper.getAttr(func);
    if (!records)
      return;
    helper.removeAttr(func);
    if (!remarks)
      return;
    // The kernel of each fused op's location: its generic's group, or the
    // generic itself.
    FuseDialect::GroupAttrHelper groupAttr(&getContext());
    // A copy that copyLiveOut made is fused with what reads it later
    // (fuse-elementwise-fusion, `skip-groups`): its producer's pairs get no
    // remark.
    DenseMap<Location, const void *> kernelOf;
    DenseSet<Location> copiedLocations;
    // The kernels that a copy taken into a group computes its op in too (a
    // column sum's kernel kept `exp(x) + min`, whose copy the min's row
    // kernel took, beside the exp: one kernel).
    DenseMap<Location, const void *> copyKernelOf;
    func.walk([&](linalg::GenericOp op) {
      IntegerAttr group = groupAttr.getAttr(op);
      if (copied.contains(op)) {
        for (Location location : locationsOf(op)) {
          copiedLocations.insert(location);
          if (group)
            copyKernelOf[location] = group.getAsOpaquePointer();
        }
        return;
      }
      const void *kernel = op.getOperation();
      if (group)
        kernel = group.getAsOpaquePointer();
      for (Location location : locationsOf(op))
        kernelOf[location] = kernel;
    });
    for (auto record : records.getAsRange<DictionaryAttr>()) {
      Location consumer = cast<LocationAttr>(record.get("consumer"));
      Location producer = cast<LocationAttr>(record.get("producer"));
      // A generic that a later fusion made of the pair's (with a one-value
      // producer inside) has other fused locations: by their ops'.
      auto kernelAt = [&](Location location) -> const void * {
        for (Location each : locationsOf(location))
          if (const void *kernel = kernelOf.lookup(each))
            return kernel;
        return nullptr;
      };
      // A producer that elementwise fusion made of several ops is copied
      // when its first op is (the op the remark names: `x - mean` with the
      // mean's division).
      auto isCopied = [&](Location location) {
        if (auto fused = dyn_cast<FusedLoc>(location);
            fused && !fused.getLocations().empty())
          location = fused.getLocations().front();
        return copiedLocations.contains(location);
      };
      const void *kernel = kernelAt(consumer);
      const void *copyKernel = nullptr;
      for (Location each : locationsOf(consumer))
        if ((copyKernel = copyKernelOf.lookup(each)))
          break;
      if ((kernel && kernel == kernelAt(producer)) ||
          (copyKernel && copyKernel == kernelAt(producer)) ||
          isCopied(producer) || remarked.contains({consumer, producer}))
        continue;
      pending.add(consumer, producer,
                  cast<StringAttr>(record.get("message")).getValue().str());
    }
  }
};

} // namespace
