//===- ElementwiseFusion.cpp - one kernel per elementwise region ---------===//
//
// Groups elementwise generics into kernels (vertical fusion along identity
// reads, then horizontal fusion of groups over the same iteration space),
// refusing merges that would create a cycle, and rewrites each group as one
// multi-result generic.
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/Utils/Kernel.h"
#include "fuse/Transforms/Passes.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/RegionUtils.h"

namespace fuse {
#define GEN_PASS_DEF_FUSEELEMENTWISEFUSION
#include "fuse/Transforms/Passes.h.inc"
} // namespace fuse

using namespace mlir;
using namespace fuse;

namespace {

/// The groups over its iteration space that a group tries to merge with
/// horizontally (the latest).
constexpr int64_t kHorizontalTries = 8;

/// The most ops of a kernel's body, a math function (isTargetMath)
/// counting kMathOpWeight (its code on the cpu target: exp about 25, erf
/// about 40): LLVM takes time superlinear in the size of the kernel's
/// one block of vector code (a chain of 400 gelus, 16.6 s to compile where
/// 100 took 1.4); a longer chain is several kernels, each storing its last
/// value for the next (4 bytes an element more per f32 kernel, against
/// thousands of operations an element).
constexpr int64_t kMaxBodyWeight = 4096;
constexpr int64_t kMathOpWeight = 32;

/// The weight of `op`'s body toward kMaxBodyWeight.
static int64_t bodyWeight(linalg::GenericOp op) {
  int64_t weight = 0;
  for (Operation &inner : op.getBody()->without_terminator())
    weight += isTargetMath(&inner) ? kMathOpWeight : 1;
  return weight;
}

/// Why a producer/consumer pair stays apart.
enum class Reason { Broadcast, OneValue, Reshaped, Cycle, Buffers, Size };

struct Unfused {
  linalg::GenericOp consumer;
  linalg::GenericOp producer;
  unsigned operand;
  Reason reason;
};

/// Whether `op` computes fuse ops (convert-fuse-to-linalg names them in
/// `fuse.ops`): a linalg.generic written by hand among fuse ops is left as
/// it is, not computed inside a fuse kernel named after the fuse ops only.
static bool computesFuseOps(linalg::GenericOp op) {
  return static_cast<bool>(
      FuseDialect::OpsAttrHelper(op.getContext()).getAttr(op));
}

/// Candidate kernels of one block and their grouping (union-find).
class Grouping {
public:
  /// `skipGroups`: the generics of a fuse.group are no candidates.
  Grouping(Block &block, bool skipGroups) {
    for (Operation &op : block) {
      auto generic = dyn_cast<linalg::GenericOp>(op);
      if (!generic || !generic.hasPureTensorSemantics() ||
          !computesFuseOps(generic) || !isElementwiseKernel(generic) ||
          (skipGroups && kernelGroup(generic)))
        continue;
      index[generic] = ops.size();
      members[ops.size()].push_back(ops.size());
      span.push_back({ops.size(), ops.size()});
      ops.push_back(generic);
      parent.push_back(parent.size());
    }
    for (unsigned i = 0; i < ops.size(); ++i) {
      bufferBound.push_back(buffers(members[i]));
      weight.push_back(bodyWeight(ops[i]));
    }
    if (!ops.empty())
      this->block = &block;
  }

  unsigned find(unsigned i) const {
    while (parent[i] != i)
      i = parent[i];
    return i;
  }

  std::optional<unsigned> indexOf(Operation *op) const {
    auto it = index.find(op);
    if (it == index.end())
      return std::nullopt;
    return it->second;
  }

  /// Merges the groups of `a` and `b` unless a path leaves one group and
  /// re-enters the other through an op outside both (a cycle once merged),
  /// or the kernel's buffers would take more than kMaxKernelParamBytes, or
  /// its body more than kMaxBodyWeight; says why not.
  std::optional<Reason> tryMerge(unsigned a, unsigned b) {
    a = find(a);
    b = find(b);
    if (a == b)
      return std::nullopt;
    // The members' sum bounds the body (a value two members read is
    // computed once).
    if (weight[a] + weight[b] > kMaxBodyWeight)
      return Reason::Size;
    // The sum of the groups' counts bounds the merged group's: counted
    // again only past the limit, a chain of n ops counts O(n / limit)
    // times.
    unsigned bound = bufferBound[a] + bufferBound[b];
    if (bound > kMaxKernelParamBytes) {
      SmallVector<unsigned> both(members[a]);
      both.append(members[b]);
      bound = buffers(both);
      if (bound > kMaxKernelParamBytes)
        return Reason::Buffers;
    }
    if (reaches(a, b) || reaches(b, a))
      return Reason::Cycle;
    if (a > b)
      std::swap(a, b);
    bufferBound[a] = bound;
    weight[a] += weight[b];
    parent[b] = a;
    span[a] = {std::min(span[a].first, span[b].first),
               std::max(span[a].second, span[b].second)};
    SmallVector<unsigned> moved = std::move(members[b]);
    members.erase(b);
    members[a].append(moved.begin(), moved.end());
    return std::nullopt;
  }

  /// Groups in program order of their first op, each in program order.
  SmallVector<SmallVector<linalg::GenericOp>> groups() {
    DenseMap<unsigned, unsigned> slot;
    SmallVector<SmallVector<linalg::GenericOp>> result;
    for (unsigned i = 0; i < ops.size(); ++i) {
      auto [it, inserted] = slot.try_emplace(find(i), result.size());
      if (inserted)
        result.emplace_back();
      result[it->second].push_back(ops[i]);
    }
    return result;
  }

  ArrayRef<linalg::GenericOp> candidates() const { return ops; }

private:
  /// The parameter bytes of the buffers of a kernel of the ops `group`: the
  /// values they read that no op of the group defines, and their results
  /// used outside it (kernelParamBytes).
  unsigned buffers(ArrayRef<unsigned> group) const {
    return kernelParamBytes(
        llvm::map_to_vector(group,
                            [&](unsigned i) -> Operation * { return ops[i]; }),
        /*rows=*/false);
  }

  /// True when some op outside both groups depends on group `from` and
  /// group `to` depends on it. A group is one kernel: reaching any of its
  /// ops continues from all of them. The search starts from the smaller
  /// group, forward along uses from `from` or backward along operands from
  /// `to`, and skips the ops that cannot lie on such a path (see `bound`):
  /// a chain of n ops then fuses in about n searches of a few ops each.
  bool reaches(unsigned from, unsigned to) {
    bool forward = members[from].size() <= members[to].size();
    unsigned source = forward ? from : to;
    unsigned target = forward ? to : from;
    Operation *limit = ops[bound(target, forward)];
    auto outOfRange = [&](Operation *op) {
      return forward ? limit->isBeforeInBlock(op) : op->isBeforeInBlock(limit);
    };
    SmallVector<Operation *> worklist;
    DenseSet<Operation *> seen;
    DenseSet<unsigned> expanded;
    auto push = [&](Operation *op) {
      if (!outOfRange(op) && seen.insert(op).second)
        worklist.push_back(op);
    };
    // Direct edges between the two groups are what fusion absorbs.
    for (unsigned i : members[source])
      forEachNeighbor(ops[i], forward, [&](Operation *op) {
        std::optional<unsigned> group = groupOf(op);
        if (group != source && group != target)
          push(op);
      });
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      std::optional<unsigned> group = groupOf(op);
      if (group == target)
        return true;
      if (group == source)
        continue;
      if (!group) {
        forEachNeighbor(op, forward, push);
        continue;
      }
      if (expanded.insert(*group).second)
        for (unsigned member : members[*group])
          forEachNeighbor(ops[member], forward, push);
    }
    return false;
  }

  /// Uses come after definitions, so a path moves forward in the block
  /// except where it crosses a group (from one member to another). A
  /// forward search for `target` can skip every op after the returned
  /// candidate: `target`'s last op, pushed past each group that spans it.
  /// Backward, symmetrically, every op before it.
  unsigned bound(unsigned target, bool forward) {
    unsigned limit = forward ? span[target].second : span[target].first;
    for (bool moved = true; moved;) {
      moved = false;
      for (auto &entry : members) {
        auto [first, last] = span[entry.first];
        if (forward && first < limit && last > limit) {
          limit = last;
          moved = true;
        } else if (!forward && last > limit && first < limit) {
          limit = first;
          moved = true;
        }
      }
    }
    return limit;
  }

  std::optional<unsigned> groupOf(Operation *op) const {
    std::optional<unsigned> i = indexOf(op);
    return i ? std::optional<unsigned>(find(*i)) : std::nullopt;
  }

  /// Calls `fn` with each op of the block that uses a result of `op`
  /// (forward) or defines a value `op` uses, in its regions too (backward).
  template <typename Fn>
  void forEachNeighbor(Operation *op, bool forward, Fn &&fn) {
    if (forward) {
      for (Operation *user : op->getUsers())
        if (Operation *ancestor = block->findAncestorOpInBlock(*user))
          fn(ancestor);
      return;
    }
    auto visit = [&](Value value) {
      if (Operation *def = value.getDefiningOp())
        if (Operation *ancestor = block->findAncestorOpInBlock(*def))
          fn(ancestor);
    };
    for (Value value : op->getOperands())
      visit(value);
    if (op->getNumRegions() == 0)
      return;
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(op->getRegions(), above);
    for (Value value : above)
      visit(value);
  }

  Block *block = nullptr;
  SmallVector<linalg::GenericOp> ops;
  DenseMap<Operation *, unsigned> index;
  /// At each group's root: at least the group's buffers (see tryMerge).
  SmallVector<unsigned> bufferBound;
  /// At each group's root: at least the weight of its body (bodyWeight).
  SmallVector<int64_t> weight;
  SmallVector<unsigned> parent;
  /// Members of each root, by candidate index.
  DenseMap<unsigned, SmallVector<unsigned>> members;
  /// The first and last member of each root, by candidate index.
  SmallVector<std::pair<unsigned, unsigned>> span;
};

/// The iteration space of an elementwise generic, as its first init's
/// tensor.empty sizes (static sizes and SSA dynamic sizes); none when the
/// init is not a tensor.empty.
std::optional<SmallVector<OpFoldResult>> iterationSpace(linalg::GenericOp op) {
  auto empty = op.getDpsInits().front().getDefiningOp<tensor::EmptyOp>();
  if (!empty)
    return std::nullopt;
  return empty.getMixedSizes();
}

/// Rewrites `group` (in program order) as one generic.
void fuseGroup(ArrayRef<linalg::GenericOp> group) {
  DenseSet<Operation *> members;
  for (linalg::GenericOp op : group)
    members.insert(op);

  // Each distinct (value, map) read from outside is one input.
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  DenseMap<std::pair<Value, AffineMap>, unsigned> inputIndex;
  for (linalg::GenericOp op : group) {
    for (OpOperand *operand : op.getDpsInputOperands()) {
      Operation *def = operand->get().getDefiningOp();
      if (def && members.contains(def))
        continue;
      auto key =
          std::make_pair(operand->get(), op.getMatchingIndexingMap(operand));
      if (inputIndex.try_emplace(key, inputs.size()).second) {
        inputs.push_back(key.first);
        maps.push_back(key.second);
      }
    }
  }

  // A result leaves the kernel when anything outside it uses it.
  SmallVector<OpResult> outputs;
  SmallVector<Value> inits;
  for (linalg::GenericOp op : group) {
    for (OpResult result : op->getResults()) {
      if (llvm::all_of(result.getUsers(),
                       [&](Operation *user) { return members.contains(user); }))
        continue;
      outputs.push_back(result);
      inits.push_back(op.getDpsInits()[result.getResultNumber()]);
      maps.push_back(op.getMatchingIndexingMap(
          op.getDpsInitOperand(result.getResultNumber())));
    }
  }

  linalg::GenericOp last = group.back();
  if (outputs.empty()) {
    for (linalg::GenericOp op : llvm::reverse(group))
      op.erase();
    return;
  }

  OpBuilder builder(last);
  SmallVector<Location> locs;
  // The fused ops' names; a generic with an empty list (a mean's division)
  // is a kernel's too, and so is what it fuses into.
  SmallVector<Attribute> names;
  bool named = false;
  FuseDialect::OpsAttrHelper ops(last.getContext());
  for (linalg::GenericOp op : group) {
    locs.push_back(op.getLoc());
    if (ArrayAttr opNames = ops.getAttr(op)) {
      llvm::append_range(names, opNames);
      named = true;
    }
  }
  SmallVector<Type> resultTypes;
  for (OpResult result : outputs)
    resultTypes.push_back(result.getType());
  SmallVector<utils::IteratorType> iterators = last.getIteratorTypesArray();

  auto fused = linalg::GenericOp::create(
      builder, builder.getFusedLoc(locs), resultTypes, inputs, inits, maps,
      iterators, [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
        IRMapping mapping;
        DenseMap<Value, Value> computed;
        for (linalg::GenericOp op : group) {
          Block &body = op.getRegion().front();
          for (OpOperand *operand : op.getDpsInputOperands()) {
            Value arg = body.getArgument(operand->getOperandNumber());
            auto it = computed.find(operand->get());
            if (it != computed.end()) {
              mapping.map(arg, it->second);
              continue;
            }
            auto key = std::make_pair(operand->get(),
                                      op.getMatchingIndexingMap(operand));
            mapping.map(arg, args[inputIndex.lookup(key)]);
          }
          for (Operation &inner : body.without_terminator())
            b.clone(inner, mapping);
          auto yield = cast<linalg::YieldOp>(body.getTerminator());
          for (OpResult result : op->getResults())
            computed[result] = mapping.lookupOrDefault(
                yield.getOperand(result.getResultNumber()));
        }
        SmallVector<Value> yielded;
        for (OpResult result : outputs)
          yielded.push_back(computed.lookup(result));
        linalg::YieldOp::create(b, bodyLoc, yielded);
      });
  if (named)
    ops.setAttr(fused, builder.getArrayAttr(names));
  for (auto [result, replacement] : llvm::zip(outputs, fused.getResults()))
    result.replaceAllUsesWith(replacement);
  for (linalg::GenericOp op : llvm::reverse(group))
    op.erase();
}

/// The most ops (besides constants) that a generic may have to be computed
/// again at every element of a generic that reads it broadcast
/// (inlineScalarProducers): a learning rate's `1 - beta`, a `sqrt(d)`.
constexpr unsigned kMaxInlinedScalarOps = 16;

/// The ops of a generic's body but its constants, and its first math
/// function (isTargetMath), if any: what decides whether its readers
/// compute it again.
struct BodyCost {
  unsigned ops = 0;
  Operation *math = nullptr;
};
static BodyCost bodyCost(linalg::GenericOp op) {
  BodyCost cost;
  for (Operation &inner : op.getBody()->without_terminator()) {
    cost.ops += !isa<arith::ConstantOp>(inner);
    if (!cost.math && isTargetMath(&inner))
      cost.math = &inner;
  }
  return cost;
}

/// Whether `value` is the program's own: an argument or a constant, or one
/// reshaped (convert-fuse-to-linalg collapses an argument's static sizes of
/// 1 away: a `B x 1 x 1 x T` attention mask).
static bool isProgramInput(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (isa<arith::ConstantOp>(def))
      return true;
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def))
      value = collapse.getSrc();
    else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def))
      value = expand.getSrc();
    else
      return false;
  }
  return isa<BlockArgument>(value);
}

/// Which generics of a block the readers that read them broadcast compute
/// again at each of their elements (inlineScalarProducers), and why not the
/// others. They do when a generic takes few ops (kMaxInlinedScalarOps),
/// none a math function (isTargetMath: Adam's `b ** t` at every element of
/// a 2e6 element update took 22x the update's time on the cpu target; a
/// kernel of one element computes it once), and it computes one value (no
/// loops: a rank-0 result of rank-0 inputs), or only converts (`fuse.ops`
/// all `cast`: an f16 bias or weight read as f32, which is fewer bytes to
/// read than its f32 copy, and no launch), or reads only the program's
/// arguments and constants, or cheap ops of them computed again too (a
/// chain: ALiBi's `(j - i) * slope`), and no more bytes an element over
/// all its loops than it writes (a causal mask `i >= j` of two index
/// vectors, read by every head's scores, is not a kernel of its own and a
/// T x T mask written and read back: the readers read the vectors,
/// broadcast as the mask was, and compare). Each generic is judged from
/// its inputs' judgements, in program order (no recursion along a chain).
class Recomputation {
public:
  explicit Recomputation(Block &block) {
    for (auto generic : block.getOps<linalg::GenericOp>())
      add(generic);
  }

  /// Why the readers of `op`'s result that read it broadcast do not compute
  /// it again, or std::nullopt when they do.
  std::optional<std::string> whyNot(linalg::GenericOp op) {
    if (!infos.count(op))
      add(op);
    return infos.find(op)->second.why;
  }

  /// `op`, made after the others (judged from theirs), in place of
  /// `replaced`, which is erased.
  void replace(Operation *replaced, linalg::GenericOp op) {
    infos.erase(replaced);
    add(op);
  }

private:
  struct Info {
    std::optional<std::string> why;
    /// The generics computed again with it: itself and the chain it reads,
    /// each once (a diamond's top too), by their judgements' numbers (an op
    /// of a chain may be erased since: a reader that computes it now), with
    /// their ops; and their ops in all.
    SmallVector<std::pair<unsigned, unsigned>> chain;
    unsigned ops = 0;
    /// The values that it reads, through the chain, at a permutation of its
    /// loops (not broadcast), each once: their element bytes are what
    /// computing one element again reads that the elements around it do
    /// not share.
    /// (By their values' addresses, with their element bytes: a value may
    /// be erased since, with its op.)
    SmallVector<std::pair<const void *, unsigned>> fullInputs;
  };

  void add(linalg::GenericOp op) {
    // Judged before the map grows (judge reads it).
    Info info = judge(op);
    infos[op] = std::move(info);
  }

  /// The number of the next judgement.
  unsigned judged = 0;

  /// The judgement of the generic that computes `input` when its readers
  /// compute it again (judged before: it comes first), else null.
  const Info *chained(Value input) const {
    auto producer = input.getDefiningOp<linalg::GenericOp>();
    if (!producer || !computesFuseOps(producer))
      return nullptr;
    auto it = infos.find(producer);
    return it == infos.end() || it->second.why ? nullptr : &it->second;
  }

  Info judge(linalg::GenericOp op) {
    Info info;
    if (op->getNumResults() != 1 || !op.hasPureTensorSemantics() ||
        !isElementwiseKernel(op) ||
        !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity()) {
      info.why = "it is not one elementwise result";
      return info;
    }
    BodyCost cost = bodyCost(op);
    if (cost.math) {
      info.why = "it has a math function ('" +
                 cost.math->getName().stripDialect().str() + "')";
      return info;
    }
    info.ops = cost.ops;
    info.chain.push_back({judged++, info.ops});
    auto tooMany = [&] {
      return "it takes " + std::to_string(info.ops) + " operations (at most " +
             std::to_string(kMaxInlinedScalarOps) + ")";
    };
    // One value (no loops, or loops of static size 1, as a 1 x 1 array's):
    // a chain of them folds into its last, one at a time.
    if (llvm::all_of(op.getStaticLoopRanges(),
                     [](int64_t size) { return size == 1; })) {
      if (info.ops > kMaxInlinedScalarOps)
        info.why = tooMany();
      return info;
    }
    bool ofProgram = true;
    for (OpOperand *input : op.getDpsInputOperands()) {
      bool full = op.getMatchingIndexingMap(input).isPermutation();
      if (const Info *chain = chained(input->get())) {
        for (auto member : chain->chain)
          if (!llvm::is_contained(info.chain, member)) {
            info.chain.push_back(member);
            info.ops += member.second;
          }
        if (full)
          for (auto value : chain->fullInputs)
            if (!llvm::is_contained(info.fullInputs, value))
              info.fullInputs.push_back(value);
        if (info.ops > kMaxInlinedScalarOps)
          break;
        continue;
      }
      ofProgram &= isProgramInput(input->get());
      std::pair<const void *, unsigned> value = {
          input->get().getAsOpaquePointer(),
          llvm::divideCeil(
              getElementTypeOrSelf(input->get()).getIntOrFloatBitWidth(), 8)};
      if (full && !llvm::is_contained(info.fullInputs, value))
        info.fullInputs.push_back(value);
    }
    if (info.ops > kMaxInlinedScalarOps) {
      info.why = tooMany();
      return info;
    }
    ArrayAttr names = FuseDialect::OpsAttrHelper(op.getContext()).getAttr(op);
    bool converts = names && !names.empty() &&
                    llvm::all_of(names.getAsValueRange<StringAttr>(),
                                 [](StringRef name) { return name == "cast"; });
    unsigned bits =
        getElementTypeOrSelf(op->getResult(0)).getIntOrFloatBitWidth();
    int64_t written = llvm::divideCeil(bits, 8), read = 0;
    for (auto [value, bytes] : info.fullInputs)
      read += bytes;
    auto readsMore = [&] {
      return "it reads " + std::to_string(read) +
             " bytes an element over all its loops to write " +
             std::to_string(written);
    };
    if (converts) {
      // Not a cast to fewer bits of a value that a generic computes: fused
      // with that generic, it writes the narrow value, which the readers
      // read (`fuse.cast` to f16 of `x * 2`, read broadcast: 2 bytes an
      // element, not the product's 4 and 4 more to write it). Unless that
      // generic is computed again in the readers too, from no more bytes
      // than the cast writes (an f16 attention mask made from a bool one).
      auto narrowed = [&](Value input) {
        return input.getDefiningOp<linalg::GenericOp>() &&
               getElementTypeOrSelf(input).getIntOrFloatBitWidth() > bits;
      };
      if (llvm::any_of(op.getDpsInputs(), [&](Value input) {
            return narrowed(input) && !chained(input);
          }))
        info.why = "it converts a value that a kernel computes to fewer "
                   "bits, which that kernel writes";
      else if (llvm::any_of(op.getDpsInputs(), narrowed) && read > written)
        info.why = readsMore();
      return info;
    }
    // A value that a kernel computes is better computed once with it (a
    // mean's division of a row's sum, once a row inside the reduction's
    // kernel, not at each element of the rows that read it).
    if (!ofProgram)
      info.why = "it reads a value that a kernel computes, and is computed "
                 "once with it";
    else if (read > written)
      info.why = readsMore();
    return info;
  }

  DenseMap<Operation *, Info> infos;
};

/// The fuse ops a generic computes (`names`, its fuse.ops) and where
/// (`locations`, the op it replaces first), for the generics that
/// inlineScalarProducers makes.
struct Computed {
  SmallVector<Attribute> names;
  SmallVector<Location> locations;
};

/// `consumer` with its input `operand`, the result of `producer`
/// (Recomputation says nothing against it), computed inside it instead: the
/// producer's inputs become the consumer's (read as the result was), and its
/// body runs first in the consumer's. The result computes `computed` (its fuse
/// ops' names and locations). The caller erases the producer once unused.
linalg::GenericOp inlineScalarProducer(linalg::GenericOp consumer,
                                       OpOperand *operand,
                                       linalg::GenericOp producer,
                                       const Computed &computed) {
  Value scalar = operand->get();
  AffineMap everywhere = consumer.getMatchingIndexingMap(operand);
  // Each distinct (value, map) is one input; every read of the producer's
  // result (all at `everywhere`, a rank-0 value) becomes its value.
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  DenseMap<std::pair<Value, AffineMap>, unsigned> inputIndex;
  auto input = [&](Value value, AffineMap map) {
    auto [it, added] =
        inputIndex.try_emplace(std::make_pair(value, map), inputs.size());
    if (added) {
      inputs.push_back(value);
      maps.push_back(map);
    }
    return it->second;
  };
  SmallVector<unsigned> consumerArgs, producerArgs;
  for (OpOperand *in : consumer.getDpsInputOperands())
    consumerArgs.push_back(
        in->get() == scalar
            ? ~0u
            : input(in->get(), consumer.getMatchingIndexingMap(in)));
  // Read at each element as the producer read them for the element of its
  // result that the consumer reads (a rank-0 input, element 0 of a size-1
  // one, a bias's element of the column).
  for (OpOperand *in : producer.getDpsInputOperands())
    producerArgs.push_back(input(
        in->get(), producer.getMatchingIndexingMap(in).compose(everywhere)));
  for (OpOperand &init : consumer.getDpsInitsMutable())
    maps.push_back(consumer.getMatchingIndexingMap(&init));

  OpBuilder builder(consumer);
  auto fused = linalg::GenericOp::create(
      builder, builder.getFusedLoc(computed.locations),
      consumer->getResultTypes(), inputs, consumer.getDpsInits(), maps,
      consumer.getIteratorTypesArray(),
      [&](OpBuilder &b, Location loc, ValueRange args) {
        IRMapping mapping;
        Block &scalarBody = producer.getRegion().front();
        for (auto [i, arg] : llvm::enumerate(producerArgs))
          mapping.map(scalarBody.getArgument(i), args[arg]);
        for (Operation &inner : scalarBody.without_terminator())
          b.clone(inner, mapping);
        Value value = mapping.lookupOrDefault(
            cast<linalg::YieldOp>(scalarBody.getTerminator()).getOperand(0));
        Block &body = consumer.getRegion().front();
        for (auto [i, arg] : llvm::enumerate(consumerArgs))
          mapping.map(body.getArgument(i), arg == ~0u ? value : args[arg]);
        for (unsigned i = 0; i < consumer.getNumDpsInits(); ++i)
          mapping.map(body.getArgument(consumer.getNumDpsInputs() + i),
                      args[inputs.size() + i]);
        for (Operation &inner : body.without_terminator())
          b.clone(inner, mapping);
        SmallVector<Value> yielded;
        for (Value result : body.getTerminator()->getOperands())
          yielded.push_back(mapping.lookupOrDefault(result));
        linalg::YieldOp::create(b, loc, yielded);
      });
  // The producer's ops once, however many of the consumer's values
  // computed them before (`t * t + t` reads t twice).
  IRRewriter rewriter(fused.getContext());
  DominanceInfo dominance;
  eliminateCommonSubExpressions(rewriter, dominance, fused);
  fused->setDiscardableAttrs(consumer->getDiscardableAttrDictionary());
  FuseDialect::OpsAttrHelper ops(consumer.getContext());
  if (!computed.names.empty())
    ops.setAttr(fused, builder.getArrayAttr(computed.names));
  consumer->replaceAllUsesWith(fused->getResults());
  consumer.erase();
  return fused;
}

/// Computes each generic that Recomputation takes inside the elementwise
/// generics that read it broadcast, in program order (so that a chain of
/// them folds into its last): a value that a learning rate or a `1 - beta`
/// gives the whole array is not a kernel launch of one element and a round
/// trip through memory, nor is an f16 bias converted to f32. Each element
/// computes it again, in a handful of ops.
void inlineScalarProducers(Block &block) {
  SmallVector<linalg::GenericOp> generics(block.getOps<linalg::GenericOp>());
  FuseDialect::OpsAttrHelper ops(block.getParentOp()->getContext());
  // The generics of the block as it was (`sources`, in program order: their
  // fuse.ops and locations) that each generic computes: itself, or for one
  // made here, those it was made of, each once however many of its
  // producers computed it (a diamond's top, which both sides read).
  SmallVector<std::pair<ArrayAttr, Location>> sources;
  DenseMap<Operation *, SmallVector<unsigned>> madeOf;
  for (linalg::GenericOp generic : generics) {
    madeOf[generic] = {static_cast<unsigned>(sources.size())};
    sources.emplace_back(ops.getAttr(generic), generic.getLoc());
  }
  llvm::SetVector<Operation *> inlined;
  Recomputation recompute(block);
  for (linalg::GenericOp consumer : generics) {
    if (!consumer.hasPureTensorSemantics() || !computesFuseOps(consumer) ||
        !isElementwiseKernel(consumer))
      continue;
    for (bool again = true; again;) {
      again = false;
      for (OpOperand *operand : consumer.getDpsInputOperands()) {
        auto producer = operand->get().getDefiningOp<linalg::GenericOp>();
        if (!producer || producer->getBlock() != &block ||
            !computesFuseOps(producer) || recompute.whyNot(producer) ||
            (producer.getNumLoops() != 0 &&
             consumer.getMatchingIndexingMap(operand).isIdentity()))
          continue;
        // Each source of either once, in program order; the consumer's own
        // location (the last) first: the op the result replaces, which
        // remarks and the report name it by.
        SmallVector<unsigned> both = madeOf.lookup(consumer);
        llvm::append_range(both, madeOf.lookup(producer));
        llvm::sort(both);
        both.erase(llvm::unique(both), both.end());
        Computed computed;
        computed.locations.push_back(sources[both.back()].second);
        for (unsigned source : both) {
          auto [names, location] = sources[source];
          if (names)
            llvm::append_range(computed.names, names);
          if (source != both.back())
            computed.locations.push_back(location);
        }
        // The consumer is erased: a later op may have its address.
        madeOf.erase(consumer);
        Operation *replaced = consumer;
        consumer = inlineScalarProducer(consumer, operand, producer, computed);
        recompute.replace(replaced, consumer);
        madeOf[consumer] = std::move(both);
        inlined.insert(producer);
        again = true;
        break;
      }
    }
  }
  // Later producers first: a chain's first is used by the next until then.
  for (Operation *producer : llvm::reverse(inlined))
    if (producer->use_empty())
      producer->erase();
}

/// The type of the fuse op's result that `value` is: the one fuse.type
/// names on a generic over other loops, else its own.
Type opResultType(Value value) {
  Operation *def = value.getDefiningOp();
  if (def && def->getNumResults() == 1)
    if (TypeAttr type =
            FuseDialect::TypeAttrHelper(value.getContext()).getAttr(def))
      return type.getValue();
  return value.getType();
}

/// Where a remark about `pair` goes: the first op of the consumer's body
/// that reads the producer's result, in a generic made of several ops (a
/// chain of one-value adds computed inside a mul: the add that reads the
/// value, not the mul); else the consumer's op.
Location readerLoc(Unfused pair) {
  Block &body = pair.consumer.getRegion().front();
  Operation *first = nullptr;
  for (Operation *user : body.getArgument(pair.operand).getUsers())
    if (!first || user->isBeforeInBlock(first))
      first = user;
  if (first && !isa<linalg::YieldOp>(first) &&
      isa<FileLineColLoc, NameLoc>(first->getLoc()))
    return first->getLoc();
  return pair.consumer.getLoc();
}

std::string remarkText(Unfused pair, Recomputation &recompute) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "not fused with its producer " << describeOps(pair.producer) << ": ";
  if (pair.reason == Reason::OneValue) {
    // Why Recomputation left it apart: its ops, or a math function.
    BodyCost cost = bodyCost(pair.producer);
    os << "that op computes one value, ";
    if (cost.math)
      os << "with a math function ('" << cost.math->getName().stripDialect()
         << "')";
    else
      os << "in " << cost.ops << " operations";
    os << ", and a one-value producer is computed again inside the ops that "
          "read it only when it takes at most "
       << kMaxInlinedScalarOps
       << " operations and no math function (exp, log, tanh, pow, ...): it "
          "is a kernel of one element, whose value this op reads";
  } else if (pair.reason == Reason::Broadcast) {
    os << "this op reads that result broadcast from "
       << opResultType(pair.consumer->getOperand(pair.operand)) << " to "
       << opResultType(pair.consumer->getResult(0))
       << ", so the two iterate over different spaces";
    if (std::optional<std::string> why = recompute.whyNot(pair.producer))
      os << ", and that op is not computed again at each of this op's "
            "elements: "
         << *why;
  } else if (pair.reason == Reason::Reshaped)
    os << "that op iterates over a reduction's rows with their dimensions "
          "collapsed into one, and this op (or one fused with it) reads an "
          "operand broadcast along only some of those dimensions, so the two "
          "iterate over different spaces";
  else if (pair.reason == Reason::Cycle)
    os << "fusing them would create a cycle through an op outside the "
          "kernel";
  else if (pair.reason == Reason::Size)
    os << "the kernel's body would have more than " << kMaxBodyWeight
       << " operations (a math function counting " << kMathOpWeight
       << "), whose machine code takes time superlinear in its size to "
          "compile; this op starts a kernel of its own, which reads that "
          "op's value";
  else
    os << tooManyBuffersReason();
  return text;
}

/// Drops the results of `op` that nobody reads, what only they computed
/// and the operands only that read, and the names of the ops only they
/// computed (fuse.ops): a kernel that fuse-reduction-fusion left reading a
/// copy of some of a member's values elsewhere (copyLiveOut) computes the
/// others no more. A name goes when no operation of its op's location is
/// left in the body, and only when the generic's locations are its names'
/// (one each, in order).
void dropDeadResults(linalg::GenericOp op) {
  if (llvm::none_of(op->getResults(),
                    [](OpResult result) { return result.use_empty(); }))
    return;
  auto bodyLocations = [](linalg::GenericOp generic) {
    DenseSet<Location> locations;
    generic.getBody()->walk([&](Operation *inner) {
      if (!isa<linalg::YieldOp>(inner))
        locations.insert(inner->getLoc());
    });
    return locations;
  };
  DenseSet<Location> before = bodyLocations(op);
  IRRewriter rewriter(op.getContext());
  rewriter.setInsertionPoint(op);
  FailureOr<linalg::GenericOp> pruned =
      linalg::deduplicateOperandsAndRemoveDeadResults(rewriter, op, true);
  if (failed(pruned))
    return;
  op = *pruned;
  for (Operation &inner :
       llvm::make_early_inc_range(llvm::reverse(*op.getBody())))
    if (isOpTriviallyDead(&inner))
      rewriter.eraseOp(&inner);
  if (FailureOr<linalg::GenericOp> inputs =
          linalg::deduplicateOperandsAndRemoveDeadResults(rewriter, op, true);
      succeeded(inputs))
    op = *inputs;

  FuseDialect::OpsAttrHelper ops(op.getContext());
  ArrayAttr names = ops.getAttr(op);
  SmallVector<Location> locations = {op.getLoc()};
  if (auto fused = dyn_cast<FusedLoc>(op.getLoc()))
    locations.assign(fused.getLocations().begin(), fused.getLocations().end());
  if (!names || names.size() != locations.size())
    return;
  DenseSet<Location> after = bodyLocations(op);
  SmallVector<Attribute> keptNames;
  SmallVector<Location> keptLocations;
  for (auto [name, location] : llvm::zip(names, locations)) {
    if (before.contains(location) && !after.contains(location))
      continue;
    keptNames.push_back(name);
    keptLocations.push_back(location);
  }
  if (keptNames.size() == names.size() || keptNames.empty())
    return;
  ops.setAttr(op, rewriter.getArrayAttr(keptNames));
  op->setLoc(rewriter.getFusedLoc(keptLocations));
}

struct FuseElementwiseFusionPass
    : fuse::impl::FuseElementwiseFusionBase<FuseElementwiseFusionPass> {
  using Base::Base;

  void runOnOperation() override {
    for (Block &block : getOperation().getBody())
      runOnBlock(block);
    // The fuse ops' types were for the remarks above.
    FuseDialect::TypeAttrHelper type(&getContext());
    getOperation().walk([&](linalg::GenericOp op) { type.removeAttr(op); });
  }

  void runOnBlock(Block &block) {
    // A kernel whose results nobody uses computes nothing worth a launch
    // (or a place in a fused kernel's name), and neither do the tensors
    // that only feed one: the tensor.expand_shape of a reduction's kept
    // dimensions, its linalg.fill, its tensor.empty. Left for the
    // canonicalizer, a dead reduction would join a group (reduction
    // fusion) and leave it without a reduction when it is removed.
    for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
      if (isa<linalg::GenericOp, linalg::FillOp, tensor::ExpandShapeOp,
              tensor::CollapseShapeOp, tensor::EmptyOp>(op) &&
          isOpTriviallyDead(&op))
        op.erase();
    for (auto generic : llvm::to_vector(block.getOps<linalg::GenericOp>()))
      dropDeadResults(generic);
    if (!skipGroups)
      inlineScalarProducers(block);
    Grouping grouping(block, skipGroups);
    if (grouping.candidates().empty())
      return;

    // Vertical: a consumer reading a producer's result at the identity
    // position iterates over the producer's space.
    SmallVector<Unfused> unfused;
    for (linalg::GenericOp consumer : grouping.candidates()) {
      for (OpOperand *operand : consumer.getDpsInputOperands()) {
        Operation *def = operand->get().getDefiningOp();
        // A producer over a reduction's collapsed rows, read in its own
        // shape (convert-fuse-to-linalg).
        if (auto expand = dyn_cast_or_null<tensor::ExpandShapeOp>(def))
          if (auto producerOp =
                  expand.getSrc().getDefiningOp<linalg::GenericOp>();
              producerOp && grouping.indexOf(producerOp)) {
            unfused.push_back({consumer, producerOp,
                               operand->getOperandNumber(), Reason::Reshaped});
            continue;
          }
        std::optional<unsigned> producer =
            def ? grouping.indexOf(def) : std::nullopt;
        if (!producer)
          continue;
        auto producerOp = cast<linalg::GenericOp>(def);
        unsigned number = operand->getOperandNumber();
        if (!consumer.getMatchingIndexingMap(operand).isIdentity()) {
          // A one-value result (no loops) read everywhere, which
          // inlineScalarProducers left apart.
          bool oneValue =
              producerOp.getNumLoops() == 0 && producerOp->getNumResults() == 1;
          unfused.push_back({consumer, producerOp, number,
                             oneValue ? Reason::OneValue : Reason::Broadcast});
          continue;
        }
        if (std::optional<Reason> reason =
                grouping.tryMerge(*producer, *grouping.indexOf(consumer)))
          unfused.push_back({consumer, producerOp, number, *reason});
      }
    }

    // Horizontal: groups over the same iteration space share one kernel.
    // A group tries the kHorizontalTries latest groups of its space, the
    // latest first: in a chain whose groups each depend on all before them
    // (`x = x + x.mean(-1, keepdims=True)`, a reduction between each two),
    // trying all of them took time cubic in the chain's length (3 s for 300
    // steps).
    //
    // Before fuse-reduction-fusion, a group that reads a reduction's result
    // or gives one its operand waits: that pass takes it into the
    // reduction's kernel, and the run after it (`skip-groups`) merges what
    // is left. Merged now, the per-row ops of two reductions over as many
    // rows (two layer norms of one batch, of other widths; a row mean
    // beside a column mean of a square matrix) were one generic, which at
    // most one of the two kernels could take.
    auto reduces = [](Operation *op) {
      auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
      return generic && generic.getNumReductionLoops() > 0;
    };
    auto besideReduction = [&](ArrayRef<linalg::GenericOp> group) {
      return llvm::any_of(group, [&](linalg::GenericOp op) {
        return llvm::any_of(op.getDpsInputs(),
                            [&](Value input) {
                              return reduces(input.getDefiningOp());
                            }) ||
               llvm::any_of(op->getUsers(), reduces);
      });
    };
    bool reductions = llvm::any_of(block.getOperations(),
                                   [&](Operation &op) { return reduces(&op); });
    if (horizontal) {
      SmallVector<std::pair<SmallVector<OpFoldResult>, SmallVector<unsigned>>>
          spaces;
      for (auto &group : grouping.groups()) {
        if (!skipGroups && reductions && besideReduction(group))
          continue;
        std::optional<SmallVector<OpFoldResult>> space =
            iterationSpace(group.front());
        if (!space)
          continue;
        unsigned self = *grouping.indexOf(group.front());
        auto same = llvm::find_if(
            spaces, [&](const auto &entry) { return entry.first == *space; });
        if (same == spaces.end()) {
          spaces.push_back({*space, {self}});
          continue;
        }
        SmallVector<unsigned> &roots = same->second;
        if (llvm::none_of(
                llvm::reverse(ArrayRef(roots).take_back(kHorizontalTries)),
                [&](unsigned root) { return !grouping.tryMerge(root, self); }))
          roots.push_back(self);
      }
    }

    // With reductions in the block, fuse-reduction-fusion may still join a
    // pair: it emits the remarks of the pairs it leaves apart too.
    bool deferred = reductions;
    SmallVector<Attribute> records;
    UnfusedRemarks emitted;
    std::optional<Recomputation> recompute;
    if (remarks && !unfused.empty())
      recompute.emplace(block);
    if (remarks)
      for (Unfused pair : unfused) {
        if (grouping.find(*grouping.indexOf(pair.consumer)) ==
            grouping.find(*grouping.indexOf(pair.producer)))
          continue;
        Location consumerLoc = readerLoc(pair);
        if (!deferred) {
          emitted.add(consumerLoc, pair.producer.getLoc(),
                      remarkText(pair, *recompute));
          continue;
        }
        Builder b(&getContext());
        records.push_back(b.getDictionaryAttr(
            {b.getNamedAttr("consumer", LocationAttr(consumerLoc)),
             b.getNamedAttr("producer", LocationAttr(pair.producer.getLoc())),
             b.getNamedAttr("message",
                            b.getStringAttr(remarkText(pair, *recompute)))}));
      }
    if (!records.empty()) {
      FuseDialect::UnfusedAttrHelper helper(&getContext());
      func::FuncOp func = getOperation();
      if (ArrayAttr previous = helper.getAttr(func))
        records.insert(records.begin(), previous.begin(), previous.end());
      helper.setAttr(func, ArrayAttr::get(&getContext(), records));
    }
    emitted.emit();

    bool changed = false;
    for (auto &group : grouping.groups()) {
      if (group.size() < 2)
        continue;
      fuseGroup(group);
      changed = true;
    }
    // Horizontal merges can place a kernel after users of its results.
    if (changed && !sortTopologically(&block)) {
      getOperation().emitError("fusion created a dependency cycle; please "
                               "report this program");
      signalPassFailure();
    }
  }
};

} // namespace
