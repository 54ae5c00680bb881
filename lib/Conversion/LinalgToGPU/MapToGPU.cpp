//===- MapToGPU.cpp - kernels to gpu.launch ------------------------------===//
//
// Kernels with reductions are RowKernelBuilder's (below): a warp or a thread
// per row.
// Elementwise kernels:
//
// One gpu.launch per bufferized elementwise generic, over the flattened
// iteration space. A thread owns one or two vectors of V lanes, V elements
// of the narrowest operand filling `vector-bytes`; a block's threads cover
// their first vectors, then their second ones, so that each of a warp's
// accesses is contiguous.
//
// Two paths, with the body emitted on each:
//  - the fast path, for a thread whose vectors are all in range in a launch
//    whose positions fit in 32 bits (decided by the total, the same for
//    every thread): i32 positions, one vector load per input and vector,
//    one vector store per result and vector, no branch. A broadcast input
//    is indexed by one division per thread (its first vector's multi-index;
//    the others by adding the stride's digits, which the host computes),
//    and read with vector loads when no vector crosses a row (a launch in
//    which one does takes the generic path; on the CPU, a vector that does
//    gathers it). Loops that every operand reads alike are merged first
//    (collapseLoops), so that rows are as long as they can be.
//  - the generic path, for the thread at the tail and for launches beyond
//    32 bits: the thread's positions one at a time, in 64 bits, those past
//    the end skipped, in a loop that is not unrolled. Its divisions use a
//    double-precision reciprocal from the host, so that no path calls the
//    64-bit division subroutine.
//
//===----------------------------------------------------------------------===//

#include "fuse/Conversion/Passes.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/Utils/Kernel.h"
#include "fuse/Dialect/Fuse/Utils/Profile.h"
#include "fuse/Support/CheckedOptions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace fuse {
#define GEN_PASS_DEF_FUSEMAPTOGPU
#include "fuse/Conversion/Passes.h.inc"
} // namespace fuse

using namespace mlir;
using namespace fuse;

namespace {

/// What `vectorsPerThread` counts for a math function or a division, and
/// the body cost times the vector width up to which a thread takes two
/// vectors. With 128, bodies of up to 32 per lane at 4 lanes (a sigmoid and
/// the sigmoid DAG, bias + gelu, the MLP epilogue) take two vectors and
/// still fit in 32 registers with no spill; the chains of bench/sass.py
/// keep one (with two, they spill).
constexpr int64_t kExpensiveOpCost = 10;
constexpr int64_t kTwoVectorBudget = 128;

/// The most lanes a thread takes: two vectors only when they hold at most
/// this many (one vector of 8 f16 or bf16, as Triton's 1024 elements per
/// block of 128 threads; two of 8 double the fast path's code for little,
/// and an f16 exp over them spills). A math function or division in f64
/// keeps one vector (libdevice's f64 functions hold register pairs: an f64
/// exp over two vectors of 2 spills).
constexpr int64_t kMaxThreadLanes = 8;

/// The most that a GPU thread whose vectors may cross rows holds of its
/// broadcast inputs (rowLaneLoads) to read each vector from the rows it
/// spans: one input that reads the rows on two vectors (bias + gelu), or
/// two that do not (a batch norm's scale and shift per channel). Two rows'
/// biases on two vectors spilled 8 bytes under 32 registers, four inputs
/// 200 (group norm's normalization, whose four do not read the rows, 136),
/// eight on one vector 120. Above it, such a launch takes the generic path
/// (Layout::AcrossRows::Generic), as every launch did before: in a sweep
/// of 480 random broadcast programs, the same ones spilled as before.
constexpr int64_t kTwoRowLaneLoads = 8;

/// The most rows that a cpu target thread's vector reads a broadcast input
/// from, one element each, where the input does not read the rows
/// (KernelBuilder::loadFewRows); across more, it gathers each lane's. A
/// vector of 64 f32 spans at most 4 rows of 21 elements or more (3 of a
/// bias per channel at 7 x 7).
constexpr int64_t kFewRows = 4;

/// The longest rows for which a cpu target launch tiles its broadcast
/// inputs that read the rows (HostSizes::rowTiles): the
/// host copies the input once per launch, and in longer rows few vectors
/// cross a row's end (those gather). A bias over rows of 3 / 49 / 100 f32
/// on one core, ms per 4e6 elements: 2.18 / 2.21 / 1.64 gathered where a
/// vector crosses rows, against 1.56 for a bias of one element.
constexpr int64_t kTiledRowLength = 1024;

/// The most of a launch's elements, as a fraction 1 / kTileShare, that the
/// tiles of inputs that read loops besides the innermost one may hold (a
/// scale per image and channel: a tile row per image); the host fills
/// them element by element for each launch.
constexpr int64_t kTileShare = 64;

/// The elements a cpu target launch of a kernel with reductions reads
/// before it runs on more than the calling thread (emitRowLaunch), and the
/// rows of each of its blocks then.
constexpr int64_t kCPUParallelWork = int64_t(1) << 16;
constexpr int64_t kCPURowsPerBlock = 64;
/// The blocks that such a launch of more work is cut into, at least, when
/// it has as many rows (threads): a softmax of 128 rows of 131072 took two
/// blocks of 64 rows, fewer than fuse-gpu-to-cpu runs in parallel (4), and
/// ran on one core.
constexpr int64_t kCPUBlocks = 64;

/// The most ops of the members' bodies for which a cpu target group of
/// rows over several kept loops has a second, stepped form
/// (RowKernelBuilder::emitGroup), and a reduction with an exact combiner
/// its elements in flight (kExactRowsInFlight): a sum, a max or a mean,
/// with a few ops before them and no math function (a group's body with a
/// pow, emitted twice, made canonicalization take minutes).
constexpr int64_t kSteppedGroupOps = 8;

/// The points that the rest of a cpu target group of a dynamic count (its
/// last, not whole) takes together at a time, for small bodies: a column
/// sum of `N x 31` f32 went one column at a time, 5.7 times as long as one
/// of `N x 32`. Each size more (16, 8, 2, 1) is the body emitted again: a
/// softmax over dimension 0 took twice as long to compile with all five.
constexpr int64_t kRestPoints = 4;

/// The elements of its rows that a cpu target group of rows with an exact
/// combiner (a float max or min, an integer sum) reduces at once, each into
/// accumulators of its own (RowKernelBuilder::emitReductionJammed): their
/// chains of dependent steps overlap. A max over dimension 0 of `256 x
/// 1000` f32 on one core: 28 GB/s with one, 36 with 2, 38 with 4 (which
/// took half as long again to compile).
constexpr int64_t kExactRowsInFlight = 2;

/// The elements of its row that a cpu target thread with one point (fewer
/// columns than a group, the pieces' values of a full reduction) and an
/// exact combiner reduces at once, each into an accumulator of its own: a
/// NaN-propagating float max is a chain of dependent steps about a dozen
/// cycles long per element, one element at a time. A max over dimension 0
/// of `4000000 x 1` f32 on one core: 14.8 ms (0.85 for the sum) one at a
/// time.
constexpr int64_t kExactElementsInFlight = 8;

/// The rows that a cpu target thread whose rows are read in lanes takes
/// (RowKernelBuilder::emitRowsByLength) when they may be at most
/// kRowsInFlightLength long, each member's code for each of them in turn,
/// so that a core overlaps the rows' chains of dependent steps (a max, an
/// exp, a sum of one short row are a chain of hundreds of cycles): all 4 of
/// rows of at most kShortRowLanes elements (one vector each), else 2 at a
/// time. Longer rows go one at a time: passes over several would leave the
/// caches. And the lanes of the vector of a row of a dynamic length that is
/// at most kShortRowLanes. A softmax over rows of 10 / 21 / 100 f32 on one
/// core, ms per 1e7 elements: 73 / 61 / 12.5 one row at a time in 32
/// lanes, each result's rest past the last whole vector element by
/// element; 13.5 / 20 / 11.5 now (bench/RESULTS.md, Dec 5).
constexpr int64_t kRowsInFlight = 4;
constexpr int64_t kLongRowsInFlight = 2;
constexpr int64_t kRowsInFlightLength = 1024;
constexpr int64_t kShortRowLanes = kReductionLanes / 2;

/// How a launch covers the flattened iteration space: thread `t` of block
/// `b` owns `vectors` vectors of `width` lanes; its vector `u` starts at
/// b * perBlock() + u * stride() + t * width. One warp's accesses of a
/// vector are contiguous, and the vectors of a thread one block stride
/// apart, so a thread's loads are all in flight before its first use.
struct Layout {
  int64_t width;
  int64_t vectors;
  int64_t blockSize;
  /// How the fast path reads a broadcast input where a row is not a whole
  /// number of vectors.
  enum class AcrossRows {
    /// Chosen for each vector: a CPU thread's one wide vector stays in its
    /// row for most vectors of long rows (one vector load there, a gather
    /// else, both vector code).
    EachVector,
    /// Each vector from the two rows it may span (loadTwoRows), chosen once
    /// for the launch: a GPU thread's vectors of a few lanes cross rows in
    /// most warps of short rows, where a branch per vector would run both.
    TwoRows,
    /// Not at all: such a launch takes the generic path (a GPU thread that
    /// would hold more than kTwoRowLaneLoads lanes of broadcast inputs).
    Generic,
  };
  AcrossRows acrossRows;
  /// Whether the generic path first tests that the thread has a position
  /// in range: a CPU thread past the end (of the last block: most of a
  /// small launch's 256 threads) would go over its 64 lanes, testing each;
  /// a GPU thread's few lanes are cheaper tested alone (ptxas predicates
  /// them) than behind a branch (5 SASS instructions per kernel).
  bool skipsPastEnd;
  /// Whether the fast path reads and writes an i1 vector as one vector of
  /// its bytes (byteVector), else lane by lane: on the cpu target, where
  /// lanes of i1 went one by one through AVX-512's mask registers (`m & n`
  /// of 4e6 bools: 13 ms, numpy 0.4, and a second to compile).
  bool byteVectors;

  int64_t stride() const { return blockSize * width; }
  int64_t perBlock() const { return vectors * stride(); }
  int64_t lanes() const { return vectors * width; }
  /// Elements from a thread's first position to the end of its last vector.
  int64_t span() const { return (vectors - 1) * stride() + width; }
};

/// Values computed on the host for the kernel's broadcast indexing.
struct HostSizes {
  /// The iteration space's sizes, outermost first.
  SmallVector<Value> sizes;
  /// stride() in the mixed radix of `sizes` (digit 0 unbounded).
  SmallVector<Value> strideDigits;
  /// 1.0 / size as f64, for 64-bit division without a subroutine.
  SmallVector<Value> reciprocals;
  /// 1.0 / size as f32 for the sizes that are not constants, for the
  /// lanes' indices of the fast path (laneIndices); null for the others.
  SmallVector<Value> laneReciprocals;
  /// A cpu target launch's broadcast inputs that read the innermost loop
  /// as their last dimension and not the loop above it (a bias over the
  /// last axis; a scale per image and channel of channel-last images), by
  /// operand number, tiled: a buffer of the input's shape but for its
  /// last dimension, the rows' length + the width - 1, element j of each
  /// row the input's element j mod the length. A vector whose first lane is
  /// at index i of its row is then elements i .. i + width - 1 of the
  /// tile's row, however many rows it spans (of one row of the loop above,
  /// for an input that reads other loops too): one vector load, no gather
  /// (tileRows).
  DenseMap<unsigned, Value> rowTiles;
  /// Whether the tiles hold the rows, an i1 (not for rows of a dynamic
  /// length outside 1 .. kTiledRowLength, nor where tiles would hold more
  /// than 1 / kTileShare of the launch's elements: the tiles' rows are
  /// empty then); null where they always do.
  Value tiled;
};

/// Whether elementwise `op` reads an input broadcast: at a multi-index of
/// its loops, neither at its own position (a flat operand) nor at a
/// constant one (the same element for every thread).
static bool readsBroadcast(linalg::GenericOp op) {
  return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *in) {
    AffineMap map = op.getMatchingIndexingMap(in);
    return !map.isIdentity() && !map.isConstant();
  });
}

/// Whether broadcast `operand` of `op` has the iteration space's innermost
/// loop as its innermost dimension: within a row, its elements are
/// contiguous.
static bool followsRows(linalg::GenericOp op, OpOperand &operand) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  auto last = dyn_cast<AffineDimExpr>(map.getResults().back());
  return last && last.getPosition() == map.getNumDims() - 1;
}

/// Whether `op` reads input `in` at a loop other than its innermost one
/// (a scale per image and channel of channel-last images), not at
/// constants alone.
static bool readsOuterLoops(linalg::GenericOp op, OpOperand &in) {
  int64_t inner = op.getNumLoops() - 1;
  return llvm::any_of(op.getMatchingIndexingMap(&in).getResults(),
                      [&](AffineExpr expr) {
                        auto dim = dyn_cast<AffineDimExpr>(expr);
                        return dim && dim.getPosition() != inner;
                      });
}

/// Emits the body of one launch for `op`.
/// The address of the element of `memref`, an i1 buffer (an element a
/// byte), at `indices` (of index type), for an access of a vector of its
/// bytes: LLVM's vectors of i1 are bit-packed, and memref's accesses take
/// the vector's element type. The cpu target's fast paths read and write
/// an i1 vector so, where its lanes one by one went through AVX-512's mask
/// registers (`m & n` of 4e6 bools: 13 ms, numpy 0.4, and a second to
/// compile).
static Value byteAddress(OpBuilder &b, Location loc, Value memref,
                         ValueRange indices) {
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value linear = meta.getOffset();
  for (auto [index, stride] : llvm::zip(indices, meta.getStrides()))
    linear = arith::AddIOp::create(
        b, loc, linear, arith::MulIOp::create(b, loc, index, stride));
  auto pointerType = LLVM::LLVMPointerType::get(b.getContext());
  Value aligned =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  Value address = arith::IndexCastOp::create(b, loc, b.getI64Type(), aligned);
  Value pointer = LLVM::IntToPtrOp::create(b, loc, pointerType, address);
  Value offset = arith::IndexCastOp::create(b, loc, b.getI64Type(), linear);
  return LLVM::GEPOp::create(b, loc, pointerType, b.getI8Type(), pointer,
                             ValueRange{offset});
}

/// The `width` i1 elements of `memref` from `indices` along its last
/// dimension, read as bytes (byteAddress). Not masked: LLVM's masked
/// intrinsics have no memory effects that bufferization's deallocation can
/// see, so the lanes of a row's end go one by one.
static Value loadBytes(OpBuilder &b, Location loc, Value memref,
                       ValueRange indices, int64_t width) {
  auto type = VectorType::get({width}, b.getI8Type());
  Value zeros = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
  Value bytes = LLVM::LoadOp::create(
      b, loc, type, byteAddress(b, loc, memref, indices), /*alignment=*/1);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, bytes, zeros);
}

/// Writes `value`, a vector of i1, to `memref` from `indices` along its
/// last dimension as bytes (byteAddress).
static void storeBytes(OpBuilder &b, Location loc, Value value, Value memref,
                       ValueRange indices) {
  auto type = VectorType::get(cast<VectorType>(value.getType()).getShape(),
                              b.getI8Type());
  LLVM::StoreOp::create(b, loc, arith::ExtUIOp::create(b, loc, type, value),
                        byteAddress(b, loc, memref, indices),
                        /*alignment=*/1);
}

class KernelBuilder {
public:
  KernelBuilder(linalg::GenericOp op, OpBuilder &b, const HostSizes &host,
                Value total, Layout layout)
      : op(op), b(b), loc(op.getLoc()), host(host), total(total),
        layout(layout), i32(b.getI32Type()), indexType(b.getIndexType()) {}

  /// Emits the code of thread `threadId` of block `blockId` (indices).
  void emit(Value blockId, Value threadId) {
    this->blockId = blockId;
    this->threadId = threadId;
    base = add(mul(blockId, constant(layout.perBlock(), indexType)),
               mul(threadId, constant(layout.width, indexType)));
    for (OpOperand &operand : op->getOpOperands()) {
      if (isFlat(operand))
        flat[operand.getOperandNumber()] = flatten(operand.get());
      else if (isBroadcast(operand) &&
               layout.acrossRows == Layout::AcrossRows::TwoRows)
        views[operand.getOperandNumber()] =
            flatten(operand.get(), /*ownElements=*/true);
    }
    // The fast path: every vector of the thread in range, in a launch whose
    // positions fit in 32 bits. One unsigned compare of the thread's first
    // position, in 32 bits, with a bound that the host computes. The
    // position may wrap in a launch beyond 32 bits (whose bound is 0), so
    // it is computed here without the no-wrap flags of add() and mul().
    Value first = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, castTo(blockId, i32),
                              constant(layout.perBlock(), i32)),
        arith::MulIOp::create(b, loc, castTo(threadId, i32),
                              constant(layout.width, i32)));
    Value fast = cmp(arith::CmpIPredicate::ult, first, fastBound());
    emitPaths(fast);
  }

private:
  /// The i32 bound below which a thread's first position takes the fast
  /// path, computed on the host before the launch (the same for every
  /// thread): total - span + 1 when the launch's positions fit in 32 bits,
  /// a thread's vectors fit at all, and, for a GPU thread that reads
  /// broadcast inputs, rows are at least a vector long; else 0, and every
  /// thread takes the generic path.
  Value fastBound() {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(b.getInsertionBlock()->getParentOp());
    Value span = constant(layout.span(), indexType);
    Value fits =
        cmp(arith::CmpIPredicate::ult, total,
            constant((int64_t(1) << 31) - layout.perBlock(), indexType));
    fits = arith::AndIOp::create(b, loc, fits,
                                 cmp(arith::CmpIPredicate::uge, total, span));
    // A vector of TwoRows spans at most two rows (loadTwoRows); one of
    // Generic none.
    bool broadcasts = llvm::any_of(
        pathInputs(), [&](OpOperand *in) { return isBroadcast(*in); });
    if (broadcasts && staticRowAligned() != std::optional<bool>(true)) {
      if (layout.acrossRows == Layout::AcrossRows::TwoRows)
        fits = arith::AndIOp::create(b, loc, fits,
                                     cmp(arith::CmpIPredicate::uge,
                                         host.sizes.back(),
                                         constant(layout.width, indexType)));
      else if (layout.acrossRows == Layout::AcrossRows::Generic)
        fits = arith::AndIOp::create(b, loc, fits, rowsAligned());
    }
    Value bound =
        select(fits, sub(total, constant(layout.span() - 1, indexType)),
               constant(0, indexType));
    return arith::IndexCastUIOp::create(b, loc, i32, bound);
  }

private:
  //===--------------------------------------------------------------------===//
  // Integer arithmetic in the type of its operands (i32 or index).
  //===--------------------------------------------------------------------===//

  Value constant(int64_t value, Type type) {
    if (type.isIndex())
      return arith::ConstantIndexOp::create(b, loc, value);
    return arith::ConstantIntOp::create(b, loc, type, value);
  }

  /// Positions never wrap: nuw lets LLVM fold constant offsets into
  /// addresses after zero extension.
  Value add(Value lhs, Value rhs) {
    return arith::AddIOp::create(b, loc, lhs, rhs,
                                 arith::IntegerOverflowFlags::nuw);
  }
  Value sub(Value lhs, Value rhs) {
    return arith::SubIOp::create(b, loc, lhs, rhs);
  }
  Value mul(Value lhs, Value rhs) {
    return arith::MulIOp::create(b, loc, lhs, rhs,
                                 arith::IntegerOverflowFlags::nuw);
  }
  Value cmp(arith::CmpIPredicate predicate, Value lhs, Value rhs) {
    return arith::CmpIOp::create(b, loc, predicate, lhs, rhs);
  }
  Value select(Value condition, Value lhs, Value rhs) {
    return arith::SelectOp::create(b, loc, condition, lhs, rhs);
  }

  /// `value` (an index) in `type`, which holds it.
  Value castTo(Value value, Type type) {
    if (value.getType() == type)
      return value;
    return arith::IndexCastUIOp::create(b, loc, type, value);
  }
  Value toIndex(Value value) { return castTo(value, indexType); }

  /// {quotient, remainder} of `value` by `size`, both of `value`'s type. In
  /// 64 bits, through a double-precision reciprocal computed on the host and
  /// one correction step, so that no path calls the 64-bit division
  /// subroutine: positions are below 2^53, where the estimate is off by at
  /// most one.
  std::pair<Value, Value> divmod(Value value, int64_t dim) {
    Type type = value.getType();
    Value size = castTo(host.sizes[dim], type);
    if (!type.isIndex())
      return {arith::DivUIOp::create(b, loc, value, size),
              arith::RemUIOp::create(b, loc, value, size)};
    Type i64 = b.getI64Type(), f64 = b.getF64Type();
    Value value64 = arith::IndexCastUIOp::create(b, loc, i64, value);
    Value size64 = arith::IndexCastUIOp::create(b, loc, i64, size);
    Value estimate = arith::FPToUIOp::create(
        b, loc, i64,
        arith::MulFOp::create(b, loc,
                              arith::UIToFPOp::create(b, loc, f64, value64),
                              host.reciprocals[dim]));
    Value rest = arith::SubIOp::create(
        b, loc, value64, arith::MulIOp::create(b, loc, estimate, size64));
    Value one = arith::ConstantIntOp::create(b, loc, i64, 1);
    Value zero = arith::ConstantIntOp::create(b, loc, i64, 0);
    Value under = cmp(arith::CmpIPredicate::slt, rest, zero);
    Value over = cmp(arith::CmpIPredicate::sge, rest, size64);
    Value quotient = select(
        under, arith::SubIOp::create(b, loc, estimate, one),
        select(over, arith::AddIOp::create(b, loc, estimate, one), estimate));
    Value remainder =
        select(under, arith::AddIOp::create(b, loc, rest, size64),
               select(over, arith::SubIOp::create(b, loc, rest, size64), rest));
    return {arith::IndexCastUIOp::create(b, loc, indexType, quotient),
            arith::IndexCastUIOp::create(b, loc, indexType, remainder)};
  }

  /// The multi-index of flat position `linear`.
  SmallVector<Value> delinearize(Value linear) {
    int64_t rank = host.sizes.size();
    SmallVector<Value> indices(rank);
    for (int64_t d = rank - 1; d > 0; --d)
      std::tie(linear, indices[d]) = divmod(linear, d);
    if (rank)
      indices[0] = linear;
    return indices;
  }

  /// `indices` plus `digits` (mixed radix of the sizes, every digit but
  /// the outermost below its size).
  SmallVector<Value> addDigits(ArrayRef<Value> indices,
                               ArrayRef<Value> digits) {
    SmallVector<Value> sum(indices);
    if (sum.empty())
      return sum;
    Type type = indices.front().getType();
    Value carry;
    for (int64_t d = sum.size() - 1; d > 0; --d) {
      Value size = castTo(host.sizes[d], type);
      Value t = add(sum[d], digits[d]);
      if (carry)
        t = add(t, carry);
      Value wraps = cmp(arith::CmpIPredicate::uge, t, size);
      sum[d] = select(wraps, sub(t, size), t);
      carry = select(wraps, constant(1, type), constant(0, type));
    }
    sum[0] = add(sum[0], digits[0]);
    if (carry)
      sum[0] = add(sum[0], carry);
    return sum;
  }

  //===--------------------------------------------------------------------===//
  // Operands.
  //===--------------------------------------------------------------------===//

  Type elementType(OpOperand &operand) {
    return cast<MemRefType>(operand.get().getType()).getElementType();
  }

  /// Operands read or written at the identity position are accessed through
  /// a flat 1-D view.
  bool isFlat(OpOperand &operand) {
    return op.getMatchingIndexingMap(&operand).isIdentity();
  }

  /// Operands that every thread reads at index 0 (0-d or fully broadcast).
  bool isUniform(OpOperand &operand) {
    return op.getMatchingIndexingMap(&operand).isConstant();
  }

  /// Broadcast operands are read at multi-indices.
  bool isBroadcast(OpOperand &operand) {
    return !isFlat(operand) && !isUniform(operand);
  }

  bool followsRows(OpOperand &operand) { return ::followsRows(op, operand); }

  /// `memref` as a 1-D memref of the iteration space's elements: itself
  /// when it is one, else a view made on the host before the launch
  /// (emit() starts in the launch's body). The kernel takes one pointer
  /// and one size for it, not a descriptor with two values per dimension.
  /// With `ownElements`, of its own elements instead (a broadcast
  /// operand, read at offsetOf).
  Value flatten(Value memref, bool ownElements = false) {
    auto type = cast<MemRefType>(memref.getType());
    if (type.getRank() == 1 && type.getLayout().isIdentity())
      return memref;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(b.getInsertionBlock()->getParentOp());
    Value size = total;
    if (ownElements) {
      size = constant(1, indexType);
      for (int64_t d = 0; d < type.getRank(); ++d)
        size = mul(size, type.isDynamicDim(d)
                             ? memref::DimOp::create(b, loc, memref, d)
                             : constant(type.getDimSize(d), indexType));
    }
    auto flatType =
        MemRefType::get({ShapedType::kDynamic}, type.getElementType());
    return memref::ReinterpretCastOp::create(
        b, loc, flatType, memref, /*offset=*/b.getIndexAttr(0),
        /*sizes=*/ArrayRef<OpFoldResult>{size},
        /*strides=*/ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  }

  /// The indices of `operand` at iteration point `indices`.
  SmallVector<Value> operandIndices(OpOperand &operand,
                                    ArrayRef<Value> indices) {
    SmallVector<Value> at;
    for (AffineExpr expr : op.getMatchingIndexingMap(&operand).getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        at.push_back(toIndex(indices[dim.getPosition()]));
      else
        at.push_back(constant(0, indexType));
    }
    return at;
  }

  Value loadAt(OpOperand &operand, ArrayRef<Value> indices) {
    return memref::LoadOp::create(b, loc, operand.get(),
                                  operandIndices(operand, indices));
  }

  /// Vector accesses are aligned to the vector size, up to
  /// kMaxVectorAlignment: positions of vectors are multiples of the width,
  /// and so are the rows of a broadcast operand read with vectors.
  llvm::MaybeAlign alignment(Type element) {
    return llvm::MaybeAlign(std::min<int64_t>(
        kMaxVectorAlignment, layout.width * storageBytes(element)));
  }

  VectorType vectorType(Type element, int64_t lanes) {
    return VectorType::get({lanes}, element);
  }

  /// One vector of all lanes from the thread's `parts`, one per vector.
  Value concat(ArrayRef<Value> parts) {
    Value whole = parts.front();
    for (Value next : parts.drop_front()) {
      int64_t lanes =
          cast<VectorType>(whole.getType()).getNumElements() + layout.width;
      whole = vector::ShuffleOp::create(
          b, loc, whole, next, llvm::to_vector(llvm::seq<int64_t>(0, lanes)));
    }
    return whole;
  }

  /// Vector `u` of the thread's lanes of `whole`.
  Value part(Value whole, int64_t u) {
    if (layout.vectors == 1)
      return whole;
    return vector::ShuffleOp::create(
        b, loc, whole, whole,
        llvm::to_vector(
            llvm::seq<int64_t>(u * layout.width, (u + 1) * layout.width)));
  }

  Value fromElements(Type element, ArrayRef<Value> elements) {
    return vector::FromElementsOp::create(
        b, loc, vectorType(element, elements.size()), elements);
  }

  //===--------------------------------------------------------------------===//
  // The thread's positions.
  //===--------------------------------------------------------------------===//

  /// The start of each of the thread's vectors, in `type`. In i32 computed
  /// from the block and thread ids, so that LLVM sees 32-bit positions.
  SmallVector<Value> vectorStarts(Type type) {
    Value start = base;
    if (!type.isIndex())
      start = add(mul(castTo(blockId, type), constant(layout.perBlock(), type)),
                  mul(castTo(threadId, type), constant(layout.width, type)));
    SmallVector<Value> starts;
    for (int64_t u = 0; u < layout.vectors; ++u)
      starts.push_back(
          u == 0 ? start : add(start, constant(u * layout.stride(), type)));
    return starts;
  }

  //===--------------------------------------------------------------------===//
  // Loads and stores.
  //===--------------------------------------------------------------------===//

  /// The inputs that are read per path (not uniform), in operand order.
  SmallVector<OpOperand *> pathInputs() {
    SmallVector<OpOperand *> inputs;
    for (OpOperand *operand : op.getDpsInputOperands())
      if (!isUniform(*operand))
        inputs.push_back(operand);
    return inputs;
  }

  /// Whether a row of the iteration space is a whole number of vectors, so
  /// that no vector crosses a row: known, or checked at run time.
  std::optional<bool> staticRowAligned() {
    if (auto size = getConstantIntValue(host.sizes.back()))
      return *size % layout.width == 0;
    return std::nullopt;
  }

  /// Whether a row of the iteration space is a whole number of vectors, as
  /// an i1.
  Value rowsAligned() {
    if (std::optional<bool> known = staticRowAligned())
      return arith::ConstantIntOp::create(b, loc, b.getI1Type(), *known);
    return cmp(arith::CmpIPredicate::eq,
               arith::RemUIOp::create(b, loc, host.sizes.back(),
                                      constant(layout.width, indexType)),
               constant(0, indexType));
  }

  /// The vector of broadcast `operand` at the thread's vector `u` whose
  /// first lane is at `indices`, when no vector crosses a row: one vector
  /// load along the row, or one element for the whole vector.
  /// With `anywhere`, the vector may start anywhere in its row (aligned to
  /// its element only).
  Value loadRowVector(OpOperand &operand, ArrayRef<Value> indices,
                      bool anywhere = false) {
    Type element = elementType(operand);
    if (followsRows(operand) && !element.isInteger(1))
      return vector::LoadOp::create(
          b, loc, vectorType(element, layout.width), operand.get(),
          operandIndices(operand, indices),
          /*nontemporal=*/false,
          anywhere ? llvm::MaybeAlign(storageBytes(element))
                   : alignment(element));
    if (followsRows(operand)) {
      SmallVector<Value> lanes;
      SmallVector<Value> at(indices);
      for (int64_t lane = 0; lane < layout.width; ++lane) {
        lanes.push_back(loadAt(operand, at));
        if (lane + 1 < layout.width)
          at.back() = add(at.back(), constant(1, at.back().getType()));
      }
      return fromElements(element, lanes);
    }
    return vector::BroadcastOp::create(
        b, loc, vectorType(element, layout.width), loadAt(operand, indices));
  }

  /// Each lane's offset in its vector, 0 .. width - 1, as i32 lanes.
  Value laneOffsets() {
    return arith::ConstantOp::create(
        b, loc,
        DenseIntElementsAttr::get(
            VectorType::get({layout.width}, i32),
            llvm::to_vector(llvm::seq<int32_t>(0, layout.width))));
  }

  /// Each lane's multi-index of a vector whose first lane is at `start`
  /// (i32 digits, the fast path's), in vectors of the lanes: each lane's
  /// offset carried through the sizes, the innermost first. A digit plus
  /// the carry is below its size plus the lanes + 2, so its quotient by the
  /// size is at most the lanes + 2: estimated through an f32 reciprocal
  /// (off by at most one at that magnitude) and corrected once, as divmod
  /// does in 64 bits. Below 2^31 (the fast path's positions), the sums are
  /// positive as signed i32.
  SmallVector<Value> laneIndices(ArrayRef<Value> start) {
    Type type = start.front().getType();
    assert(type.isInteger(32) && "the fast path's positions are i32");
    auto lanesType = VectorType::get({layout.width}, type);
    auto floatsType = VectorType::get({layout.width}, b.getF32Type());
    auto splat = [&](Value scalar) -> Value {
      return vector::BroadcastOp::create(
          b, loc, scalar.getType().isF32() ? floatsType : lanesType, scalar);
    };
    Value carry = laneOffsets();
    int64_t rank = start.size();
    SmallVector<Value> indices(rank);
    Value one = splat(constant(1, type));
    for (int64_t d = rank - 1; d > 0; --d) {
      Value sum = add(splat(start[d]), carry);
      Value size = splat(castTo(host.sizes[d], type));
      if (getConstantIntValue(host.sizes[d])) {
        // LLVM divides by a constant with multiplications.
        carry = arith::DivUIOp::create(b, loc, sum, size);
        indices[d] = arith::RemUIOp::create(b, loc, sum, size);
        continue;
      }
      Value estimate = arith::FPToSIOp::create(
          b, loc, lanesType,
          arith::MulFOp::create(
              b, loc, arith::SIToFPOp::create(b, loc, floatsType, sum),
              splat(host.laneReciprocals[d])));
      Value rest = sub(sum, mul(estimate, size));
      Value under =
          cmp(arith::CmpIPredicate::slt, rest, splat(constant(0, type)));
      Value over = cmp(arith::CmpIPredicate::sge, rest, size);
      carry = select(under, sub(estimate, one),
                     select(over, add(estimate, one), estimate));
      indices[d] =
          select(under, add(rest, size), select(over, sub(rest, size), rest));
    }
    indices[0] = add(splat(start[0]), carry);
    return indices;
  }

  /// The row-major offset in broadcast `operand` of its element at
  /// iteration point `indices` (i32 scalars, or vectors of the lanes'). The
  /// operand has no more elements than the iteration space: the offsets of
  /// the fast path's points fit in i32.
  Value offsetOf(OpOperand &operand, ArrayRef<Value> indices) {
    auto type = cast<MemRefType>(operand.get().getType());
    Value offset;
    for (auto [dim, expr] :
         llvm::enumerate(op.getMatchingIndexingMap(&operand).getResults())) {
      auto loop = dyn_cast<AffineDimExpr>(expr);
      if (!loop)
        continue; // a dimension of size 1
      Value index = indices[loop.getPosition()];
      if (!offset) {
        offset = index;
        continue;
      }
      Value size =
          type.isDynamicDim(dim)
              ? castTo(memref::DimOp::create(b, loc, operand.get(), dim), i32)
              : constant(type.getDimSize(dim), i32);
      if (auto lanes = dyn_cast<VectorType>(index.getType()))
        size = vector::BroadcastOp::create(b, loc, lanes, size);
      offset = add(mul(offset, size), index);
    }
    return offset;
  }

  /// Broadcast `operand` at each lane's multi-index (laneIndices): its
  /// elements' offsets in row-major order, gathered.
  Value gatherLanes(OpOperand &operand, ArrayRef<Value> indices) {
    auto type = cast<MemRefType>(operand.get().getType());
    Value offsets = offsetOf(operand, indices);
    SmallVector<Value> zeros(type.getRank(), constant(0, indexType));
    auto resultType = vectorType(type.getElementType(), layout.width);
    Value mask = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(VectorType::get({layout.width}, b.getI1Type()),
                               true));
    Value passThrough = arith::ConstantOp::create(b, loc, resultType,
                                                  b.getZeroAttr(resultType));
    return vector::GatherOp::create(b, loc, resultType, operand.get(), zeros,
                                    offsets, mask, passThrough);
  }

  /// The multi-index of the row after the one of `indices` (i32 digits),
  /// at its first element.
  SmallVector<Value> nextRow(ArrayRef<Value> indices) {
    int64_t rank = indices.size();
    assert(rank >= 2 && "only a space of rank 2 or more reads broadcasts");
    SmallVector<Value> start(indices), digits(rank, constant(0, i32));
    start.back() = digits.back();
    digits[rank - 2] = constant(1, i32);
    return addDigits(start, digits);
  }

  /// The vector of broadcast `operand` whose first lane is at `first` (i32
  /// digits), in rows of at least the vector's width: its lanes from `room`
  /// on (when `room` is below the width) are the first ones of the next
  /// row. An operand that does not read the innermost loop is read once in
  /// each row, and each lane picks one of the two (loadFewRows); one that
  /// reads it is read lane by lane. Loads are in range: the next row is
  /// read only where a lane is in it.
  Value loadTwoRows(OpOperand &operand, ArrayRef<Value> first, Value room) {
    Type element = elementType(operand);
    int64_t rank = first.size();
    if (!op.getMatchingIndexingMap(&operand).isFunctionOfDim(rank - 1))
      return loadFewRows(operand, first, room, /*rows=*/2);
    // Lane l is at offset here + l * step in its row, or there + l * step
    // in the next (`there` may wrap below 0 in i32; the lanes that take it
    // do not).
    Value view = views.lookup(operand.getOperandNumber());
    SmallVector<Value> unit(rank, constant(0, i32));
    unit.back() = constant(1, i32);
    Value step = offsetOf(operand, unit);
    Value here = offsetOf(operand, first);
    Value there = sub(offsetOf(operand, nextRow(first)),
                      arith::MulIOp::create(b, loc, room, step));
    SmallVector<Value> lanes;
    for (int64_t lane = 0; lane < layout.width; ++lane) {
      // room >= 1: the first lane is in the first row.
      Value base = lane ? select(cmp(arith::CmpIPredicate::uge,
                                     constant(lane, i32), room),
                                 there, here)
                        : here;
      Value at = arith::AddIOp::create(
          b, loc, base,
          arith::MulIOp::create(b, loc, constant(lane, i32), step));
      lanes.push_back(memref::LoadOp::create(b, loc, view, toIndex(at)));
    }
    return fromElements(element, lanes);
  }

  /// The most rows that a vector of the thread's width spans in rows of
  /// `length` elements (its first lane last in a row).
  int64_t rowsSpanned(int64_t length) {
    return 1 + (length + layout.width - 2) / length;
  }

  /// The vector of broadcast `operand`, which does not read the innermost
  /// loop, whose first lane is at `first` (i32 digits), in rows of which it
  /// spans at most `rows` (rowsSpanned): its lanes from `room` on are in
  /// the next row, `room` + the row's length on in the one after, ... Each
  /// row's element is read once and the lanes pick theirs (no gather, no
  /// division per lane); a row past the vector's last lane is not read.
  Value loadFewRows(OpOperand &operand, ArrayRef<Value> first, Value room,
                    int64_t rows) {
    auto type = vectorType(elementType(operand), layout.width);
    auto lanesType = VectorType::get({layout.width}, i32);
    Value length = castTo(host.sizes.back(), i32);
    Value value =
        vector::BroadcastOp::create(b, loc, type, loadAt(operand, first));
    SmallVector<Value> at(first);
    Value start = room, spans;
    for (int64_t k = 1; k < rows; ++k) {
      // Past the vector, the start stays: below the width plus a row's
      // length, it does not wrap.
      if (k > 1)
        start =
            select(spans, arith::AddIOp::create(b, loc, start, length), start);
      spans =
          cmp(arith::CmpIPredicate::ult, start, constant(layout.width, i32));
      for (auto [digit, next] : llvm::zip(at, nextRow(at)))
        digit = select(spans, next, digit);
      Value there =
          vector::BroadcastOp::create(b, loc, type, loadAt(operand, at));
      Value inRow = cmp(arith::CmpIPredicate::uge, laneOffsets(),
                        vector::BroadcastOp::create(b, loc, lanesType, start));
      value = select(inRow, there, value);
    }
    return value;
  }

  /// The broadcast inputs `broadcast` (indices into `inputs`) of a cpu
  /// target thread, whose one vector's first lane is at `first` (i32
  /// digits), in rows that are not a whole number of vectors. An input
  /// tiled on the host (HostSizes::rowTiles) is one vector load from its
  /// tile (where the tiles hold the rows, and, for an input that reads
  /// outer loops too, the vector's rows are in one row of the loop above
  /// the innermost). The others load along their row where the vector does not
  /// cross the row's end (most vectors of long rows), else lane by lane; but an
  /// input that does not read the innermost loop (a bias per channel of N x
  /// C x 7 x 7) from each row the vector spans, when that is at most
  /// kFewRows rows (known, or tested once for the whole launch).
  template <typename ByRows, typename ByLanes, typename Branch>
  SmallVector<Value> loadEachVector(ArrayRef<OpOperand *> inputs,
                                    ArrayRef<unsigned> broadcast,
                                    ArrayRef<Value> first, ByRows byRows,
                                    ByLanes byLanes, Branch branch) {
    assert(layout.vectors == 1 && "a thread across rows has one vector");
    Value inner = first.back();
    auto untiled = [&](ArrayRef<unsigned> which) -> SmallVector<Value> {
      if (which.empty())
        return {};
      Value within = cmp(arith::CmpIPredicate::ule,
                         add(inner, constant(layout.width, inner.getType())),
                         castTo(host.sizes.back(), inner.getType()));
      auto byFewRows = [&](int64_t rows) {
        Value room = sub(castTo(host.sizes.back(), i32), inner);
        SmallVector<Value> lanes, loaded;
        for (unsigned i : which) {
          if (!followsRows(*inputs[i])) {
            loaded.push_back(loadFewRows(*inputs[i], first, room, rows));
            continue;
          }
          if (lanes.empty())
            lanes = laneIndices(first);
          loaded.push_back(gatherLanes(*inputs[i], lanes));
        }
        return loaded;
      };
      auto acrossRows = [&]() -> SmallVector<Value> {
        if (llvm::all_of(which,
                         [&](unsigned i) { return followsRows(*inputs[i]); }))
          return byLanes(which);
        if (auto length = getConstantIntValue(host.sizes.back()))
          return rowsSpanned(*length) <= kFewRows
                     ? byFewRows(rowsSpanned(*length))
                     : byLanes(which);
        // The shortest rows that a vector spans at most kFewRows of.
        int64_t shortest = (layout.width - 2) / (kFewRows - 1) + 1;
        assert(rowsSpanned(shortest) <= kFewRows &&
               (shortest == 1 || rowsSpanned(shortest - 1) > kFewRows));
        return branch(
            which,
            cmp(arith::CmpIPredicate::uge, host.sizes.back(),
                constant(shortest, indexType)),
            [&] { return byFewRows(kFewRows); },
            [&] { return byLanes(which); });
      };
      return branch(
          which, within, [&] { return byRows(which, /*anywhere=*/true); },
          acrossRows);
    };
    SmallVector<unsigned> tiled, others;
    for (unsigned i : broadcast)
      (host.rowTiles.count(inputs[i]->getOperandNumber()) ? tiled : others)
          .push_back(i);
    if (tiled.empty())
      return untiled(broadcast);
    // The tiled inputs from their tiles, the others as above, in the order
    // of `broadcast`.
    auto withTiles = [&] {
      SmallVector<Value> rest = untiled(others), loaded;
      auto next = rest.begin();
      for (unsigned i : broadcast) {
        Value tile = host.rowTiles.lookup(inputs[i]->getOperandNumber());
        if (!tile) {
          loaded.push_back(*next++);
          continue;
        }
        Type element = elementType(*inputs[i]);
        loaded.push_back(vector::LoadOp::create(
            b, loc, vectorType(element, layout.width), tile,
            operandIndices(*inputs[i], first), /*nontemporal=*/false,
            llvm::MaybeAlign(storageBytes(element))));
      }
      return loaded;
    };
    // A tile row of an input that reads loops besides the innermost one
    // serves the vectors whose rows are all in one row of the loop above
    // (whose index those inputs do not read): those that do not pass its
    // end.
    Value tiles = host.tiled;
    if (llvm::any_of(tiled, [&](unsigned i) {
          return readsOuterLoops(op, *inputs[i]);
        })) {
      int64_t rank = first.size();
      Value length = castTo(host.sizes.back(), i32);
      Value end = add(add(mul(first[rank - 2], length), inner),
                      constant(layout.width, i32));
      Value inBlock = cmp(arith::CmpIPredicate::ule, end,
                          mul(castTo(host.sizes[rank - 2], i32), length));
      tiles = tiles ? arith::AndIOp::create(b, loc, tiles, inBlock) : inBlock;
    }
    if (!tiles)
      return withTiles();
    return branch(broadcast, tiles, withTiles,
                  [&] { return untiled(broadcast); });
  }

  /// The inputs of a thread whose vectors are all in range, with positions
  /// in `type`.
  SmallVector<Value> loadFull(ArrayRef<OpOperand *> inputs, Type type) {
    SmallVector<Value> starts = vectorStarts(type);
    SmallVector<Value> values(inputs.size());
    SmallVector<unsigned> broadcast;
    for (auto [i, operand] : llvm::enumerate(inputs)) {
      Type element = elementType(*operand);
      Value memref = flat.lookup(operand->getOperandNumber());
      if (isBroadcast(*operand)) {
        broadcast.push_back(i);
      } else if (!element.isInteger(1)) {
        SmallVector<Value> parts;
        for (Value start : starts)
          parts.push_back(vector::LoadOp::create(
              b, loc, vectorType(element, layout.width), memref,
              ValueRange{toIndex(start)}, /*nontemporal=*/false,
              alignment(element)));
        values[i] = concat(parts);
      } else if (layout.byteVectors) {
        SmallVector<Value> parts;
        for (Value start : starts)
          parts.push_back(
              loadBytes(b, loc, memref, toIndex(start), layout.width));
        values[i] = concat(parts);
      } else {
        // i1 is bit-packed in vectors but byte-sized in memory.
        SmallVector<Value> lanes;
        for (Value start : starts)
          for (int64_t lane = 0; lane < layout.width; ++lane)
            lanes.push_back(memref::LoadOp::create(
                b, loc, memref,
                ValueRange{
                    toIndex(lane ? add(start, constant(lane, type)) : start)}));
        values[i] = fromElements(element, lanes);
      }
    }
    if (broadcast.empty())
      return values;

    // Broadcast inputs: the multi-index of the first vector by division,
    // the others by adding the stride's digits.
    SmallVector<SmallVector<Value>> vectorIndices = {delinearize(starts[0])};
    SmallVector<Value> strideDigits;
    for (Value digit : host.strideDigits)
      strideDigits.push_back(castTo(digit, type));
    for (int64_t u = 1; u < layout.vectors; ++u)
      vectorIndices.push_back(addDigits(vectorIndices.back(), strideDigits));

    auto byRows = [&](ArrayRef<unsigned> which, bool anywhere = false) {
      SmallVector<Value> loaded;
      for (unsigned i : which) {
        SmallVector<Value> parts;
        for (ArrayRef<Value> indices : vectorIndices)
          parts.push_back(loadRowVector(*inputs[i], indices, anywhere));
        loaded.push_back(concat(parts));
      }
      return loaded;
    };
    auto byLanes = [&](ArrayRef<unsigned> which) {
      SmallVector<Value> lanes = laneIndices(vectorIndices.front());
      SmallVector<Value> loaded;
      for (unsigned i : which)
        loaded.push_back(gatherLanes(*inputs[i], lanes));
      return loaded;
    };
    auto byTwoRows = [&]() {
      SmallVector<Value> rooms;
      Value rowLength = castTo(host.sizes.back(), i32);
      for (ArrayRef<Value> indices : vectorIndices)
        rooms.push_back(sub(rowLength, indices.back()));
      SmallVector<Value> loaded;
      for (unsigned i : broadcast) {
        SmallVector<Value> parts;
        for (auto [indices, room] : llvm::zip(vectorIndices, rooms))
          parts.push_back(loadTwoRows(*inputs[i], indices, room));
        loaded.push_back(concat(parts));
      }
      return loaded;
    };
    // The loads of inputs `which` in each branch of `condition`, as its
    // results.
    auto branch = [&](ArrayRef<unsigned> which, Value condition, auto thenLoads,
                      auto elseLoads) {
      SmallVector<Type> types;
      for (unsigned i : which)
        types.push_back(vectorType(elementType(*inputs[i]), layout.lanes()));
      auto ifOp = scf::IfOp::create(b, loc, types, condition,
                                    /*addThenBlock=*/true,
                                    /*addElseBlock=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(b, loc, thenLoads());
      b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(b, loc, elseLoads());
      return SmallVector<Value>(ifOp.getResults());
    };
    SmallVector<Value> loaded;
    std::optional<bool> rowAligned = staticRowAligned();
    if ((rowAligned && *rowAligned) ||
        layout.acrossRows == Layout::AcrossRows::Generic) {
      // No vector crosses a row (Generic: on the fast path).
      loaded = byRows(broadcast);
    } else if (layout.acrossRows == Layout::AcrossRows::TwoRows) {
      // Rows not a whole number of vectors (known, or tested once for the
      // whole launch: every thread takes the same branch) read each vector
      // from the two rows it may span. Rows shorter than a vector take the
      // generic path (fastBound): rows known to be so have the row form
      // only, which never runs.
      auto all = [&] { return byRows(broadcast); };
      if (!rowAligned)
        loaded = branch(broadcast, rowsAligned(), all, byTwoRows);
      else if (*getConstantIntValue(host.sizes.back()) < layout.width)
        loaded = all();
      else
        loaded = byTwoRows();
    } else {
      loaded = loadEachVector(inputs, broadcast, vectorIndices.front(), byRows,
                              byLanes, branch);
    }
    for (auto [i, value] : llvm::zip(broadcast, loaded))
      values[i] = value;
    return values;
  }

  /// The generic path: the thread's positions one at a time, in 64 bits,
  /// those past the end skipped. It runs in the threads at the tail of a
  /// launch (those wholly past the end skip every position: a test before
  /// the loop would cost more code than it saves time in one block), and
  /// in every thread of a launch too large for 32-bit positions; the body
  /// is emitted for one element, so that the path adds little code and
  /// holds few registers.
  void emitElementLoop(const DenseMap<Value, Value> &uniform) {
    Block &body = op.getRegion().front();
    auto loop =
        scf::ForOp::create(b, loc, constant(0, i32),
                           constant(layout.lanes(), i32), constant(1, i32));
    // Unrolled, the loop would be the body once per lane again.
    MLIRContext *context = b.getContext();
    loop->setAttr("llvm.loop_annotation",
                  LLVM::LoopAnnotationAttr::get(
                      context, {}, {}, {},
                      LLVM::LoopUnrollAttr::get(context, b.getBoolAttr(true),
                                                {}, {}, {}, {}, {}, {}),
                      {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value k = loop.getInductionVar();
    Value width = constant(layout.width, i32);
    Value position =
        add(base, toIndex(add(mul(arith::DivUIOp::create(b, loc, k, width),
                                  constant(layout.stride(), i32)),
                              arith::RemUIOp::create(b, loc, k, width))));
    auto ifInRange = scf::IfOp::create(
        b, loc, cmp(arith::CmpIPredicate::ult, position, total));
    b.setInsertionPointToStart(&ifInRange.getThenRegion().front());
    // The body computes on one-lane vectors, as the C library's and
    // libdevice's vector lowerings see it on the fast path.
    IRMapping mapping;
    for (auto [argument, scalar] : uniform)
      mapping.map(argument, fromElements(scalar.getType(), {scalar}));
    std::optional<SmallVector<Value>> indices;
    for (OpOperand *operand : pathInputs()) {
      Value value;
      if (isBroadcast(*operand)) {
        if (!indices)
          indices = delinearize(position);
        value = loadAt(*operand, *indices);
      } else {
        value = memref::LoadOp::create(b, loc,
                                       flat.lookup(operand->getOperandNumber()),
                                       ValueRange{position});
      }
      mapping.map(body.getArgument(operand->getOperandNumber()),
                  fromElements(value.getType(), {value}));
    }
    for (Operation &inner : body.without_terminator())
      vectorizeOp(inner, mapping, 1);
    auto yield = cast<linalg::YieldOp>(body.getTerminator());
    for (auto [init, yielded] :
         llvm::zip(op.getDpsInitsMutable(), yield.getOperands()))
      memref::StoreOp::create(b, loc,
                              vector::ExtractOp::create(
                                  b, loc, lookupVector(yielded, mapping, 1), 0),
                              flat.lookup(init.getOperandNumber()),
                              ValueRange{position});
  }

  void storeFull(ArrayRef<std::pair<Value, Value>> results, Type type) {
    SmallVector<Value> starts = vectorStarts(type);
    for (auto [value, memref] : results) {
      Type element = cast<VectorType>(value.getType()).getElementType();
      for (auto [u, start] : llvm::enumerate(starts)) {
        Value vector = part(value, u);
        if (!element.isInteger(1)) {
          vector::StoreOp::create(b, loc, vector, memref,
                                  ValueRange{toIndex(start)},
                                  /*nontemporal=*/false, alignment(element));
          continue;
        }
        if (layout.byteVectors) {
          storeBytes(b, loc, vector, memref, toIndex(start));
          continue;
        }
        for (int64_t lane = 0; lane < layout.width; ++lane) {
          Value scalar = vector::ExtractOp::create(b, loc, vector, lane);
          memref::StoreOp::create(
              b, loc, scalar, memref,
              ValueRange{
                  toIndex(lane ? add(start, constant(lane, type)) : start)});
        }
      }
    }
  }

  /// Loads, computes and stores, on the fast path (every vector of the
  /// thread in range, positions in 32 bits: one straight block) or on the
  /// generic one (element by element).
  void emitPaths(Value fast) {
    Block &body = op.getRegion().front();
    SmallVector<OpOperand *> inputs = pathInputs();
    DenseMap<Value, Value> uniform;
    for (OpOperand *operand : op.getDpsInputOperands())
      if (isUniform(*operand))
        uniform[body.getArgument(operand->getOperandNumber())] =
            loadAt(*operand, {});

    auto ifFast = scf::IfOp::create(b, loc, fast, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifFast.thenBlock());
    IRMapping mapping;
    for (auto [argument, scalar] : uniform)
      mapping.map(
          argument,
          vector::BroadcastOp::create(
              b, loc, vectorType(scalar.getType(), layout.lanes()), scalar));
    for (auto [operand, value] : llvm::zip(inputs, loadFull(inputs, i32)))
      mapping.map(body.getArgument(operand->getOperandNumber()), value);
    for (Operation &inner : body.without_terminator())
      vectorizeOp(inner, mapping, layout.lanes());
    auto yield = cast<linalg::YieldOp>(body.getTerminator());
    SmallVector<std::pair<Value, Value>> results;
    for (auto [init, yielded] :
         llvm::zip(op.getDpsInitsMutable(), yield.getOperands()))
      results.push_back({lookupVector(yielded, mapping, layout.lanes()),
                         flat.lookup(init.getOperandNumber())});
    storeFull(results, i32);

    // The generic path (for a thread with a position in range, when
    // skipsPastEnd).
    b.setInsertionPointToStart(ifFast.elseBlock());
    if (layout.skipsPastEnd) {
      auto ifAny = scf::IfOp::create(
          b, loc, cmp(arith::CmpIPredicate::ult, base, total));
      b.setInsertionPointToStart(&ifAny.getThenRegion().front());
    }
    emitElementLoop(uniform);
  }

  Value lookupVector(Value scalar, IRMapping &mapping, int64_t lanes) {
    if (Value mapped = mapping.lookupOrNull(scalar))
      return mapped;
    // A value from outside the body is the same in every lane.
    Value splat = vector::BroadcastOp::create(
        b, loc, vectorType(scalar.getType(), lanes), scalar);
    mapping.map(scalar, splat);
    return splat;
  }

  void vectorizeOp(Operation &inner, IRMapping &mapping, int64_t lanes) {
    if (auto constant = dyn_cast<arith::ConstantOp>(inner)) {
      auto type = vectorType(constant.getType(), lanes);
      auto value = DenseElementsAttr::get(type, constant.getValue());
      mapping.map(constant.getResult(),
                  arith::ConstantOp::create(b, loc, type, value).getResult());
      return;
    }
    OperationState state(inner.getLoc(), inner.getName());
    for (Value operand : inner.getOperands())
      state.addOperands(lookupVector(operand, mapping, lanes));
    for (Type type : inner.getResultTypes())
      state.addTypes(vectorType(type, lanes));
    state.addAttributes(inner.getAttrs());
    Operation *vectorized = b.create(state);
    mapping.map(inner.getResults(), vectorized->getResults());
  }

  linalg::GenericOp op;
  OpBuilder &b;
  Location loc;
  const HostSizes &host;
  Value total;
  Layout layout;
  Type i32, indexType;
  Value blockId, threadId, base;
  DenseMap<unsigned, Value> flat;
  /// Broadcast operands as 1-D views of their elements (a GPU thread's
  /// loadTwoRows).
  DenseMap<unsigned, Value> views;
};

/// Whether every operand of `op` reads its loops `d` and `d + 1` alike: as
/// its adjacent dimensions, in that order, in row-major memory (of no
/// static size 0: memref.collapse_shape's verifier takes a group of a
/// dynamic size and a static 0 for a static 0; a kernel of such a buffer
/// has no work anyway); or reads neither (broadcast along both).
static bool readsAlike(linalg::GenericOp op, int64_t d) {
  MLIRContext *context = op.getContext();
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    std::optional<unsigned> first =
        map.getResultPosition(getAffineDimExpr(d, context));
    std::optional<unsigned> second =
        map.getResultPosition(getAffineDimExpr(d + 1, context));
    if (!first && !second)
      continue;
    auto type = cast<MemRefType>(operand.get().getType());
    if (!first || !second || *second != *first + 1 ||
        !type.getLayout().isIdentity() || type.getDimSize(*first) == 0 ||
        type.getDimSize(*second) == 0)
      return false;
  }
  return true;
}

/// The views that mergeLoops made, one per buffer and grouping of its
/// dimensions.
using MergedViews = DenseMap<std::pair<Value, Attribute>, Value>;

/// A generic like `op` over its loops merged as `merged` says (the merged
/// loop of each loop, runs of adjacent loops that readsAlike, in order),
/// with `iterators` for the merged loops, reading and writing collapsed
/// views of its operands (memref.collapse_shape, made before it and kept
/// in `views`); `op`'s body and attributes move to it, and `op` is erased.
static linalg::GenericOp mergeLoops(linalg::GenericOp op,
                                    ArrayRef<int64_t> merged,
                                    ArrayRef<utils::IteratorType> iterators,
                                    MergedViews &views, OpBuilder &b) {
  MLIRContext *context = op.getContext();
  int64_t loops = iterators.size();
  Location loc = op.getLoc();
  b.setInsertionPoint(op);
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    // The operand's dimensions grouped as they merge, and what each group
    // reads: a merged loop, or constant 0 (a dimension of size 1).
    SmallVector<ReassociationIndices> groups;
    SmallVector<AffineExpr> results;
    for (auto [position, expr] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (dim && !groups.empty() && position > 0 &&
          isa<AffineDimExpr>(map.getResult(position - 1)) &&
          merged[cast<AffineDimExpr>(map.getResult(position - 1))
                     .getPosition()] == merged[dim.getPosition()]) {
        groups.back().push_back(position);
        continue;
      }
      groups.push_back({static_cast<int64_t>(position)});
      results.push_back(
          dim ? getAffineDimExpr(merged[dim.getPosition()], context) : expr);
    }
    maps.push_back(AffineMap::get(loops, 0, results, context));
    Value view = operand.get();
    if (groups.size() != map.getNumResults()) {
      Attribute key = b.getArrayAttr(llvm::map_to_vector(
          groups, [&](const ReassociationIndices &group) -> Attribute {
            return b.getI64ArrayAttr(group);
          }));
      Value &cached = views[{view, key}];
      if (!cached)
        cached = memref::CollapseShapeOp::create(b, loc, view, groups);
      view = cached;
    }
    operands.push_back(view);
  }
  auto collapsed = linalg::GenericOp::create(
      b, loc, TypeRange{},
      ArrayRef<Value>(operands).take_front(op.getNumDpsInputs()),
      ArrayRef<Value>(operands).drop_front(op.getNumDpsInputs()), maps,
      iterators);
  collapsed.getRegion().takeBody(op.getRegion());
  for (NamedAttribute attr : op->getDiscardableAttrs())
    collapsed->setAttr(attr.getName(), attr.getValue());
  op.erase();
  return collapsed;
}

/// The merged loop of each of `rank` loops when `alike(d)` says whether
/// loops `d` and `d + 1` merge.
static SmallVector<int64_t> mergedLoops(int64_t rank,
                                        function_ref<bool(int64_t)> alike) {
  SmallVector<int64_t> merged(rank, 0);
  for (int64_t d = 1; d < rank; ++d)
    merged[d] = merged[d - 1] + (alike(d - 1) ? 0 : 1);
  return merged;
}

/// Elementwise `op` over the same elements with each run of adjacent loops
/// that every operand reads alike (readsAlike) merged into one loop. A bias
/// per channel of an `N x C x H x W` tensor is then read over `N x C x (H *
/// W)`: rows of `H * W`, which vectors cross less often, and one division
/// fewer per thread. The operands become collapsed views (made on the host
/// before the launch); null when no loops merge, or `op` reads no operand
/// broadcast (a kernel of flat operands is one row already) or its loops'
/// indices.
static linalg::GenericOp collapseLoops(linalg::GenericOp op, OpBuilder &b) {
  if (!readsBroadcast(op) || !op.getBody()->getOps<linalg::IndexOp>().empty())
    return {};
  int64_t rank = op.getNumLoops();
  SmallVector<int64_t> merged =
      mergedLoops(rank, [&](int64_t d) { return readsAlike(op, d); });
  int64_t loops = rank ? merged.back() + 1 : 0;
  if (loops == rank)
    return {};
  MergedViews views;
  linalg::GenericOp collapsed = mergeLoops(
      op, merged,
      SmallVector<utils::IteratorType>(loops, utils::IteratorType::parallel),
      views, b);
  b.setInsertionPoint(collapsed);
  return collapsed;
}

/// The members of a kernel with reductions over `iterators` (those of its
/// reductions; RowKernelBuilder::fits) with each run of adjacent kept loops
/// that every operand of every member reads alike (readsAlike) merged into
/// one loop, in members over the whole space and in those over the kept
/// loops alone: a sum over dimension 0 of `N x H x C` runs as one of `N x
/// (H * C)`, a column sum, whose points (columns) are contiguous, where a
/// cpu target thread stepped through H and C (7.9 ms against 0.85 for `1024
/// x 1024 x 8` f32 on 2 threads). The reduced loops stay as they are (the
/// lowering merged them; which generics a kernel has never decides the order
/// of a reduction), so the rows, their lengths and order are the same. The
/// buffers become collapsed views, added to `views`; `members` as they are
/// when no loops merge or a member reads its loops' indices.
static SmallVector<linalg::GenericOp>
collapseKeptLoops(ArrayRef<linalg::GenericOp> members,
                  ArrayRef<utils::IteratorType> iterators,
                  SmallPtrSetImpl<Operation *> &views, OpBuilder &b) {
  SmallVector<linalg::GenericOp> result(members);
  int64_t rank = iterators.size();
  auto kept = [&](int64_t d) {
    return iterators[d] == utils::IteratorType::parallel;
  };
  if (llvm::any_of(members, [](linalg::GenericOp op) {
        return !op.getBody()->getOps<linalg::IndexOp>().empty();
      }))
    return result;
  // The kept loops; a member over them alone has loop k for keptLoops[k].
  SmallVector<int64_t> keptLoops;
  for (int64_t d = 0; d < rank; ++d)
    if (kept(d))
      keptLoops.push_back(d);
  auto alike = [&](int64_t d) {
    if (!kept(d) || !kept(d + 1))
      return false;
    return llvm::all_of(members, [&](linalg::GenericOp op) {
      return readsAlike(op, op.getNumLoops() == static_cast<unsigned>(rank)
                                ? d
                                : llvm::find(keptLoops, d) - keptLoops.begin());
    });
  };
  SmallVector<int64_t> merged = mergedLoops(rank, alike);
  int64_t loops = rank ? merged.back() + 1 : 0;
  if (loops == rank)
    return result;
  // The same for the kept loops alone.
  SmallVector<int64_t> keptMerged = mergedLoops(
      keptLoops.size(), [&](int64_t k) { return alike(keptLoops[k]); });
  MergedViews made;
  for (linalg::GenericOp &op : result) {
    bool whole = op.getNumLoops() == static_cast<unsigned>(rank);
    ArrayRef<int64_t> map = whole ? ArrayRef<int64_t>(merged) : keptMerged;
    SmallVector<utils::IteratorType> own = op.getIteratorTypesArray();
    SmallVector<utils::IteratorType> mergedIterators(map.back() + 1);
    for (auto [d, iterator] : llvm::enumerate(own))
      mergedIterators[map[d]] = iterator;
    op = mergeLoops(op, map, mergedIterators, made, b);
  }
  for (auto &[key, view] : made)
    views.insert(view.getDefiningOp());
  return result;
}

/// The number of rows of a kernel with reductions of form `form` over
/// loops of `sizes`: the product of the kept loops' sizes.
Value rowCount(OpBuilder &b, Location loc, const RowForm &form,
               ArrayRef<Value> sizes) {
  Value rows = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d : form.kept)
    rows = arith::MulIOp::create(b, loc, rows, sizes[d]);
  return rows;
}

/// The pieces of each of the `rows` rows of `length` elements of a kernel
/// reduced in pieces (RowForm::pieces) on the host: form.pieceCount when
/// it is constant; else rowPieces' at run time: p pieces once the row is
/// longer than p / 2 pieces of pieceLength and p * rows is at most the
/// rows' pieceShare, at most form.pieceCount.
Value emitRowPieces(OpBuilder &b, Location loc, const RowForm &form,
                    Value length, Value rows) {
  if (form.constantPieces())
    return arith::ConstantIndexOp::create(b, loc, form.pieceCount);
  Value pieces = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t p = 2; p <= form.pieceCount; p *= 2) {
    Value more =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, length,
                              arith::ConstantIndexOp::create(
                                  b, loc, p / 2 * pieceLength(form.lanes)));
    if (!form.rows)
      more = arith::AndIOp::create(
          b, loc, more,
          arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ule,
              arith::MulIOp::create(b, loc, rows,
                                    arith::ConstantIndexOp::create(b, loc, p)),
              arith::ConstantIndexOp::create(b, loc, pieceShare(form.lanes))));
    pieces = arith::SelectOp::create(
        b, loc, more, arith::ConstantIndexOp::create(b, loc, p), pieces);
  }
  return pieces;
}

/// Emits the body of one launch for a kernel with reductions: the generics
/// of a `fuse.group` (or one reduction) in program order. Each thread owns
/// one point of the space P of the dimensions the reductions keep (a row,
/// for a reduction over the last dimension) and runs every member there:
///  - a reduction loops over its row (the reduced dimensions R) into an
///    accumulator, starting from the value its output was filled with (the
///    linalg.fill before it, which the kernel absorbs);
///  - a member over P computes scalars from scalars;
///  - a member over P x R is computed where a later member reads it, inside
///    that member's loop over the row (again for each reader: nothing goes
///    through memory), and in a loop of its own when its results are used
///    after the kernel, which stores them.
/// Values that stay in the kernel never reach memory: their buffers lose
/// every use, and canonicalization removes them.
///
/// With `lanes` > 1 (the cpu target: kReductionLanes), a row of one
/// reduced dimension, the innermost, is read `lanes` elements at a time:
/// lane i of an accumulator takes elements i, i + lanes, ... (the last
/// vector masked to the row), and the lanes are combined pairwise (lanes /
/// 2 apart, then lanes / 4, ...). The order depends on nothing but the
/// row: not on the host's vectors, not on the element types around the
/// reduction, so a fused kernel and an eager one give the same bits. Every
/// access along the row is contiguous or the same for the whole row.
class RowKernelBuilder {
public:
  /// What each member sees of the buffers written before it in the kernel.
  struct State {
    /// A buffer written by a reduction or a member over P: its value at
    /// the thread's point of P.
    DenseMap<Value, Value> scalars;
    /// A buffer written by a member over P x R: (member, output) that
    /// computes it where it is read.
    DenseMap<Value, std::pair<unsigned, unsigned>> lazy;
  };

  /// Rows that `form` reads in lanes are read in vectors of
  /// kReductionLanes by a CPU thread (`vectors`) and by a GPU thread that
  /// owns a row (not `form.warps`: accumulators of neither 32 nor 64 bits,
  /// or blocks that are not whole warps): the 32 partial accumulators of the
  /// documented order, which a warp keeps in its lanes.
  RowKernelBuilder(ArrayRef<linalg::GenericOp> members, const RowForm &form,
                   ArrayRef<Value> sizes,
                   const DenseMap<Operation *, Value> &fills,
                   function_ref<bool(OpOperand &)> isLiveOut, bool vectors,
                   OpBuilder &b, Location loc)
      : members(members), sizes(sizes), fills(fills), isLiveOut(isLiveOut),
        b(b), loc(loc), cpuThreads(vectors),
        lanes(form.lanes && (vectors || !form.warps) ? kReductionLanes : 1),
        form(form), kept(this->form.kept), reduced(this->form.reduced) {}

  /// Makes the kernel's rows a warp's each: lane `lane` (below
  /// kReductionLanes) of the warp reads elements lane, lane + 32, ... of the
  /// row, and the warp combines its lanes with shuffles in the cpu target's
  /// order (lane i with lane i + 16, then + 8, ...).
  void useWarp(Value lane) { this->lane = lane; }

  /// Makes the warp keep its row in registers (RowForm::registers), or
  /// loop over it in each pass (`keep` false). Lane l holds elements l +
  /// 32 c of the row for c below the row's length over 32 (a constant
  /// length), or below RowForm::registerLength() / 32, each under a test
  /// against the length (a dynamic one, at most that at run time).
  void keepRow(bool keep) {
    chunks = !keep         ? 0
             : form.length ? llvm::divideCeil(*form.length, kReductionLanes)
                           : form.registerLength() / kReductionLanes;
  }

  /// Makes the thread reduce the part [lower, upper) of its row alone,
  /// from the identity, and store the value of member `k` (a reduction) in
  /// `partials[k]` at (point, `piece`): the first launch of a split kernel
  /// (RowForm::split). Members over the rows are the second launch's.
  void usePiece(Value lower, Value upper, Value piece,
                DenseMap<unsigned, Value> partials) {
    rowLower = lower;
    rowUpper = upper;
    this->piece = piece;
    this->partials = std::move(partials);
  }

  /// Makes the kernel reduce its rows in `count` pieces each, computed on
  /// the host (emitRowPieces): RowForm::pieces in one launch.
  void countPieces(Value count) { pieceCount = count; }

  /// Emits the code of global thread `thread` (an index below the number of
  /// points of P).
  void emit(Value thread) {
    states.clear();
    rowCache.clear();
    rowValues.clear();
    chunkIndices.clear();
    SmallVector<Value> point = pointOf(thread);
    State state;
    for (unsigned k = 0; k < members.size(); ++k) {
      states.push_back(state);
      emitMember(k, point, state);
    }
  }

  /// Emits the code of the rows of group `group` (kRowsInFlight rows from
  /// group * kRowsInFlight, below `points`) for a cpu target thread whose
  /// rows are read in lanes (not in pieces) and may be at most
  /// kRowsInFlightLength long (a constant length, or, for a dynamic one,
  /// chosen at run time). A whole group of such rows runs each member for
  /// all of its rows in turn, or for 2 at a time when they are longer than
  /// kShortRowLanes (emitRowsInFlight); other rows go one after the other.
  ///
  /// A row of at most kShortRowLanes elements is one vector of as many
  /// lanes as its length rounded up to a power of two (at least 4), else
  /// vectors of kReductionLanes. Element i of a short row is in lane i
  /// either way, and the lanes from its length on hold the combiner's
  /// identity, whose combination leaves a value's bits as they are
  /// (combinerIdentity): the kReductionLanes tree's first steps change
  /// nothing, so both give the same bits.
  void emitRowsByLength(Value group, Value points) {
    Value base = arith::MulIOp::create(
        b, loc, group, arith::ConstantIndexOp::create(b, loc, kRowsInFlight));
    Value end = arith::MinUIOp::create(
        b, loc,
        arith::AddIOp::create(
            b, loc, base,
            arith::ConstantIndexOp::create(b, loc, kRowsInFlight)),
        points);
    Value whole = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::SubIOp::create(b, loc, end, base),
        arith::ConstantIndexOp::create(b, loc, kRowsInFlight));
    // Runs `emitRows` with vectors of `width` lanes.
    auto withLanes = [&](int64_t width, function_ref<void()> emitRows) {
      OpBuilder::InsertionGuard guard(b);
      lanes = width;
      emitRows();
      lanes = kReductionLanes;
    };
    // The group's rows in flight, all at once in one vector each, else 2 at
    // a time (a loop over the pairs).
    auto inFlight = [&](int64_t width) {
      withLanes(width, [&] {
        if (rowInOneVector())
          return emitRowsInFlight(pointsFrom(base, kRowsInFlight));
        auto pairs = scf::ForOp::create(
            b, loc, base,
            arith::AddIOp::create(
                b, loc, base,
                arith::ConstantIndexOp::create(b, loc, kRowsInFlight)),
            arith::ConstantIndexOp::create(b, loc, kLongRowsInFlight));
        b.setInsertionPoint(pairs.getBody()->getTerminator());
        emitRowsInFlight(
            pointsFrom(pairs.getInductionVar(), kLongRowsInFlight));
      });
    };
    auto oneByOne = [&](int64_t width) {
      withLanes(width, [&] {
        auto loop = scf::ForOp::create(b, loc, base, end, one());
        b.setInsertionPoint(loop.getBody()->getTerminator());
        emit(loop.getInductionVar());
      });
    };
    // Runs `then` where `condition` holds, else `otherwise`.
    auto branch = [&](Value condition, function_ref<void()> then,
                      function_ref<void()> otherwise) {
      OpBuilder::InsertionGuard guard(b);
      auto ifOp = scf::IfOp::create(b, loc, condition, /*withElseRegion=*/true);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      then();
      b.setInsertionPoint(ifOp.elseBlock()->getTerminator());
      otherwise();
    };
    if (form.length) {
      int64_t width =
          *form.length <= kShortRowLanes
              ? std::clamp<int64_t>(llvm::PowerOf2Ceil(*form.length), 4,
                                    kShortRowLanes)
              : kReductionLanes;
      return branch(
          whole, [&] { inFlight(width); }, [&] { oneByOne(width); });
    }
    Value length = sizes[reduced.back()];
    auto atMost = [&](int64_t bound) {
      return arith::AndIOp::create(
          b, loc, whole,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, length,
                                arith::ConstantIndexOp::create(b, loc, bound)));
    };
    branch(
        atMost(kShortRowLanes), [&] { inFlight(kShortRowLanes); },
        [&] {
          branch(
              atMost(kRowsInFlightLength), [&] { inFlight(kReductionLanes); },
              [&] { oneByOne(kReductionLanes); });
        });
  }

  /// Whether the members' bodies are small enough to be emitted several
  /// times for a point (kSteppedGroupOps); a math function expands to
  /// dozens of ops on the cpu target, of which an exp, a tanh or a log
  /// counts 2: with one, the group's stepped form gives the SLP vectorizer
  /// vector code (`exp(x).sum(0)` of `2 x 8 x 256 x 256`: 2.47 ms with one
  /// form, 0.89 with both, eager 0.72), where a pow's made canonicalization
  /// take minutes.
  bool smallBodies() {
    int64_t bodyOps = 0;
    for (linalg::GenericOp op : members)
      for (Operation &inner : op.getBody()->without_terminator())
        bodyOps += isa<math::ExpOp, math::TanhOp, math::LogOp>(inner) ? 2
                   : isa_and_nonnull<math::MathDialect>(inner.getDialect())
                       ? kSteppedGroupOps + 1
                       : 1;
    return bodyOps <= kSteppedGroupOps;
  }

  /// Emits the code of the points of group `group` (kCPURowGroup from
  /// group * kCPURowGroup, below `points`) for a cpu target thread whose
  /// rows are not read in lanes: a whole group's reductions step through
  /// their rows together, one element of each row at a time, so that each
  /// row keeps its order (the same bits) and LLVM's SLP vectorizer makes
  /// vector code of neighbouring points (a column sum reads the rows of a
  /// matrix in vectors); a last group that is not whole takes its points
  /// one at a time (emit), or together when their number is a constant (a
  /// column sum of an `N x 4` matrix steps along its rows 4 columns at a
  /// time, and computes an exp of them in vectors, not each alone).
  void emitGroup(Value group, Value points) {
    Value base = arith::MulIOp::create(
        b, loc, group, arith::ConstantIndexOp::create(b, loc, kCPURowGroup));
    std::optional<int64_t> count = form.rows;
    bool small = smallBodies();
    // The group's points together, stepping through their rows where they
    // are contiguous.
    auto jammed = [&](int64_t size, Value first) {
      rowsInFlight = small && kept.size() == 1;
      emitJammed(pointsFrom(first, size));
      rowsInFlight = false;
    };
    if (count && *count < kCPURowGroup) {
      // No point at all (columns of 0) has no code.
      if (*count)
        jammed(*count, base);
      return;
    }
    Value whole = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ule,
        arith::AddIOp::create(
            b, loc, base, arith::ConstantIndexOp::create(b, loc, kCPURowGroup)),
        points);
    auto ifWhole = scf::IfOp::create(b, loc, whole, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifWhole.thenBlock()->getTerminator());
    if (kept.size() > 1 && small) {
      // A group within one row of the innermost kept loop (all of them,
      // when its size is a multiple of the group's) steps along it: its
      // points' accesses are contiguous there, which the SLP vectorizer
      // needs to see, where each point's own division hides it. Only for
      // small bodies (kSteppedGroupOps): the group's code is emitted twice,
      // and a group that read a pow made canonicalization take minutes.
      SmallVector<Value> first = pointOf(base);
      Value within = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ule,
          arith::AddIOp::create(
              b, loc, first.back(),
              arith::ConstantIndexOp::create(b, loc, kCPURowGroup)),
          sizes[kept.back()]);
      auto ifWithin =
          scf::IfOp::create(b, loc, within, /*withElseRegion=*/true);
      b.setInsertionPoint(ifWithin.thenBlock()->getTerminator());
      SmallVector<SmallVector<Value>> points;
      for (int64_t w = 0; w < kCPURowGroup; ++w) {
        points.push_back(first);
        points.back().back() = arith::AddIOp::create(
            b, loc, first.back(), arith::ConstantIndexOp::create(b, loc, w));
      }
      rowsInFlight = true;
      emitJammed(points);
      rowsInFlight = false;
      b.setInsertionPoint(ifWithin.elseBlock()->getTerminator());
    }
    jammed(kCPURowGroup, base);
    b.setInsertionPoint(ifWhole.elseBlock()->getTerminator());
    if (count) {
      if (*count % kCPURowGroup)
        jammed(*count % kCPURowGroup, base);
      return;
    }
    // A dynamic count's rest: 4 of its points at a time together, for
    // small bodies (a column sum of 31 columns: 3.9 ms, 5.7 times 32
    // columns', one at a time), then the others one at a time.
    Value first = base;
    if (small) {
      Value four = arith::ConstantIndexOp::create(b, loc, kRestPoints);
      Value rest = arith::SubIOp::create(b, loc, points, base);
      Value end = arith::AddIOp::create(
          b, loc, base,
          arith::MulIOp::create(
              b, loc, arith::DivUIOp::create(b, loc, rest, four), four));
      auto fours = scf::ForOp::create(b, loc, base, end, four);
      {
        OpBuilder::InsertionGuard inside(b);
        b.setInsertionPoint(fours.getBody()->getTerminator());
        jammed(kRestPoints, fours.getInductionVar());
      }
      first = end;
    }
    auto loop = scf::ForOp::create(b, loc, first, points, one());
    b.setInsertionPoint(loop.getBody()->getTerminator());
    emit(loop.getInductionVar());
  }

  /// Whether `op`'s loops fit the kernel's rows (see mapRowKernel).
  static bool fits(linalg::GenericOp op,
                   ArrayRef<utils::IteratorType> iterators) {
    if (op.getNumReductionLoops() > 0)
      return op.getIteratorTypesArray() ==
             SmallVector<utils::IteratorType>(iterators);
    int64_t keptCount = llvm::count(iterators, utils::IteratorType::parallel);
    int64_t loops = op.getNumLoops();
    if (loops != keptCount && loops != static_cast<int64_t>(iterators.size()))
      return false;
    // Results are written at the identity position.
    return llvm::all_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
      return op.getMatchingIndexingMap(&init).isIdentity();
    });
  }

private:
  using Cache = DenseMap<unsigned, SmallVector<Value>>;

  /// Whether emitJammed's reductions with an exact combiner take
  /// kExactRowsInFlight elements at a time: in the form of a group whose
  /// points are contiguous (the one the SLP vectorizer makes vector code
  /// of), when the members' bodies are small (kSteppedGroupOps): the steps
  /// are emitted kExactRowsInFlight + 1 times (a max over dimension 1 of a
  /// 3-D tensor took 0.18 s to compile, 0.45 s with both of a group's
  /// forms and 4 elements in flight, 0.25 s now).
  bool rowsInFlight = false;
  /// Whether a load over the rows prefetches the next group's element
  /// (prefetchAhead): in the steps of the first point of a cpu target
  /// group whose rows are not read in lanes.
  bool prefetchNextGroup = false;

  /// Emits member `k` at `point`, with `state` what the members before it
  /// left there (and `states` theirs before each).
  void emitMember(unsigned k, ArrayRef<Value> point, State &state) {
    linalg::GenericOp op = members[k];
    if (op.getNumReductionLoops() > 0)
      emitReduction(k, point, state);
    else if (piece && !overWholeSpace(op, form))
      return;
    else if (op.getNumLoops() == kept.size())
      emitOverPoint(k, point, state);
    else if (keepsRows(op, reduced))
      emitOverPoint(k, merge(point, SmallVector<Value>(reduced.size(), zero())),
                    state);
    else
      emitOverRow(k, point, state);
  }

  /// emit() for each of `rows` (points of P), each member for every row in
  /// turn: the rows' chains of dependent steps are neighbours in the code,
  /// and a core overlaps them (emitRowsByLength).
  void emitRowsInFlight(ArrayRef<SmallVector<Value>> rows) {
    states.clear();
    SmallVector<SmallVector<State>> rowStates(rows.size());
    SmallVector<State> running(rows.size());
    SmallVector<Cache> rowCaches(rows.size());
    for (unsigned k = 0; k < members.size(); ++k) {
      for (auto [r, point] : llvm::enumerate(rows)) {
        rowStates[r].push_back(running[r]);
        std::swap(states, rowStates[r]);
        std::swap(rowCache, rowCaches[r]);
        emitMember(k, point, running[r]);
        std::swap(rowCache, rowCaches[r]);
        std::swap(states, rowStates[r]);
      }
    }
  }

  /// The points of the `count` threads from global thread `first`.
  SmallVector<SmallVector<Value>> pointsFrom(Value first, int64_t count) {
    SmallVector<SmallVector<Value>> points;
    for (int64_t w = 0; w < count; ++w)
      points.push_back(pointOf(arith::AddIOp::create(
          b, loc, first, arith::ConstantIndexOp::create(b, loc, w))));
    return points;
  }

  /// The point of P of global thread `thread`, outermost first.
  SmallVector<Value> pointOf(Value thread) {
    SmallVector<Value> point(kept.size());
    Value rest = thread;
    for (int64_t k = kept.size() - 1; k >= 0; --k) {
      if (k == 0) {
        point[k] = rest;
        break;
      }
      Value size = sizes[kept[k]];
      point[k] = arith::RemUIOp::create(b, loc, rest, size);
      rest = arith::DivUIOp::create(b, loc, rest, size);
    }
    return point;
  }

  /// emit() for the points of `threads` at once (emitGroup): each member
  /// for each point in turn, but a reduction's rows in one loop.
  void emitJammed(ArrayRef<SmallVector<Value>> points) {
    rowValues.clear();
    chunkIndices.clear();
    // Each point's states (what `states` holds for emit()) and its state
    // after the members so far.
    SmallVector<SmallVector<State>> pointStates(points.size());
    SmallVector<State> running(points.size());
    for (auto [k, member] : llvm::enumerate(members)) {
      linalg::GenericOp op = member;
      for (auto [w, state] : llvm::enumerate(running))
        pointStates[w].push_back(state);
      if (op.getNumReductionLoops() > 0) {
        emitReductionJammed(k, points, pointStates, running);
        continue;
      }
      if (piece && !overWholeSpace(op, form))
        continue;
      bool overPoint = op.getNumLoops() == kept.size();
      if (!overPoint && !keepsRows(op, reduced)) {
        emitOverRowJammed(k, points, pointStates, running);
        continue;
      }
      for (auto [w, point] : llvm::enumerate(points)) {
        std::swap(states, pointStates[w]);
        emitOverPoint(k,
                      overPoint ? point
                                : merge(point, SmallVector<Value>(
                                                   reduced.size(), zero())),
                      running[w]);
        std::swap(states, pointStates[w]);
      }
    }
  }

  /// emitOverRow (element by element) of member `k` at each of `points`:
  /// what is used after the kernel stored in one loop over the rows, an
  /// element of each point's row at a time.
  void emitOverRowJammed(unsigned k, ArrayRef<SmallVector<Value>> points,
                         MutableArrayRef<SmallVector<State>> pointStates,
                         MutableArrayRef<State> running) {
    linalg::GenericOp op = members[k];
    if (llvm::any_of(op.getDpsInitsMutable(),
                     [&](OpOperand &init) { return isLiveOut(init); })) {
      OpBuilder::InsertionGuard guard(b);
      SmallVector<Value> row;
      rowLoops({}, row);
      for (auto [w, point] : llvm::enumerate(points)) {
        std::swap(states, pointStates[w]);
        storeAt(k, merge(point, row), 1);
        std::swap(states, pointStates[w]);
      }
    }
    for (State &state : running)
      defineLazy(k, state);
  }

  /// emitReduction (a thread's accumulator, element by element) of member
  /// `k` at each of `points`, their rows in one loop.
  void emitReductionJammed(unsigned k, ArrayRef<SmallVector<Value>> points,
                           MutableArrayRef<SmallVector<State>> pointStates,
                           MutableArrayRef<State> running) {
    linalg::GenericOp op = members[k];
    OpBuilder::InsertionGuard guard(b);
    unsigned inits = op.getNumDpsInits();
    SmallVector<Value> initial;
    for (ArrayRef<Value> point : points)
      llvm::append_range(initial, initialValues(k, point));
    // The points' steps at the rows `row`, each row's from `acc` (the
    // points' accumulators).
    auto steps = [&](ArrayRef<Value> row, ValueRange acc) {
      SmallVector<Value> next;
      for (auto [w, point] : llvm::enumerate(points)) {
        std::swap(states, pointStates[w]);
        prefetchNextGroup = w == 0 && !form.lanes;
        llvm::append_range(next, reduceStep(k, merge(point, row), 1,
                                            acc.slice(w * inits, inits)));
        prefetchNextGroup = false;
        std::swap(states, pointStates[w]);
      }
      return next;
    };
    SmallVector<Value> results;
    if (Operation *combine = rowsInFlight ? exactCombiner(op) : nullptr) {
      // Fewer points than 4 take more elements each: about
      // kExactElementsInFlight chains in all (a max over the columns of an
      // `N x 2` matrix).
      int64_t elements = std::max<int64_t>(
          kExactRowsInFlight, llvm::PowerOf2Ceil(llvm::divideCeil(
                                  kExactElementsInFlight, points.size())));
      results = inFlight(combine, initial, steps, elements);
    } else {
      SmallVector<Value> row;
      SmallVector<scf::ForOp> loops =
          rowLoops(initial, row, rowLower, rowUpper, 1);
      results = closeLoops(loops, steps(row, loops.back().getRegionIterArgs()));
    }
    for (auto [w, point] : llvm::enumerate(points))
      storeResults(k, point, ArrayRef(results).slice(w * inits, inits),
                   running[w]);
  }

  /// The accumulators `initial` after the steps (`steps(row, acc)`) of the
  /// one reduced loop, whose combiner `combine` gives the same bits in any
  /// order (exactCombiner): kExactRowsInFlight elements at a time into as
  /// many sets of accumulators, whose chains of dependent steps overlap (a
  /// NaN-propagating max is 6 instructions deep on AVX-512); the sets are
  /// combined pairwise, `elements` / 2 apart, then / 4, ... (any order gives
  /// the same bits), before the elements that are left, or after them with
  /// `maskedRest`.
  template <typename Steps>
  SmallVector<Value>
  inFlight(Operation *combine, ArrayRef<Value> initial, Steps steps,
           int64_t elements = kExactRowsInFlight, bool maskedRest = false) {
    assert(llvm::isPowerOf2_64(elements) && "sets combine in halves");
    int64_t count = initial.size();
    auto combineSets = [&](ValueRange sets) {
      SmallVector<Value> all(sets);
      for (int64_t half = elements / 2; half >= 1; half /= 2)
        for (int64_t u = 0; u < half; ++u)
          for (int64_t i = 0; i < count; ++i)
            all[u * count + i] = combineWith(combine, all[u * count + i],
                                             all[(u + half) * count + i]);
      all.resize(count);
      return all;
    };
    Value lower = rowLower ? rowLower : zero();
    Value upper = rowUpper ? rowUpper : sizes[reduced.front()];
    Value step = arith::ConstantIndexOp::create(b, loc, elements);
    Value split = arith::AddIOp::create(
        b, loc, lower,
        arith::MulIOp::create(
            b, loc,
            arith::DivUIOp::create(
                b, loc, arith::SubIOp::create(b, loc, upper, lower), step),
            step));
    SmallVector<Value> sets(initial);
    for (int64_t u = 1; u < elements; ++u)
      sets.append(count, identityOf(combine));
    auto loop = scf::ForOp::create(b, loc, lower, split, step, sets);
    b.setInsertionPointToStart(loop.getBody());
    SmallVector<Value> next;
    for (int64_t u = 0; u < elements; ++u) {
      Value at =
          arith::AddIOp::create(b, loc, loop.getInductionVar(),
                                arith::ConstantIndexOp::create(b, loc, u));
      llvm::append_range(
          next, steps(at, loop.getRegionIterArgs().slice(u * count, count)));
    }
    scf::YieldOp::create(b, loc, next);
    b.setInsertionPointAfter(loop);
    if (maskedRest) {
      // The elements left, fewer than `elements`, each into its set as in
      // the loop: the steps at split + u, read at the row's last element
      // at most, kept where split + u is in the row.
      SmallVector<Value> sets(loop.getResults());
      auto ifAny = scf::IfOp::create(
          b, loc, TypeRange(ValueRange(sets)),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, split,
                                upper),
          /*addThenBlock=*/true, /*addElseBlock=*/true);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(ifAny.thenBlock());
        Value last = arith::SubIOp::create(b, loc, upper, one());
        SmallVector<Value> next;
        for (int64_t u = 0; u < elements; ++u) {
          Value at = arith::AddIOp::create(
              b, loc, split, arith::ConstantIndexOp::create(b, loc, u));
          Value inRow = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                              at, upper);
          ArrayRef<Value> set = ArrayRef(sets).slice(u * count, count);
          Value clamped = arith::MinUIOp::create(b, loc, at, last);
          SmallVector<Value> stepped = steps(clamped, ValueRange(set));
          for (auto [value, previous] : llvm::zip(stepped, set))
            next.push_back(
                arith::SelectOp::create(b, loc, inRow, value, previous));
        }
        scf::YieldOp::create(b, loc, next);
        b.setInsertionPointToStart(ifAny.elseBlock());
        scf::YieldOp::create(b, loc, sets);
      }
      return combineSets(ifAny.getResults());
    }
    SmallVector<Value> combined = combineSets(loop.getResults());
    auto rest = scf::ForOp::create(b, loc, split, upper, one(), combined);
    b.setInsertionPointToStart(rest.getBody());
    scf::YieldOp::create(
        b, loc, steps(rest.getInductionVar(), rest.getRegionIterArgs()));
    b.setInsertionPointAfter(rest);
    return SmallVector<Value>(rest.getResults());
  }

  /// The combiner of reduction `op` when its steps may run in any order
  /// with the same bits (a float max or min, any integer combiner), over
  /// one reduced loop; else null.
  Operation *exactCombiner(linalg::GenericOp op) {
    Operation *combine = reductionCombiner(op);
    if (!combine || reduced.size() != 1 ||
        !op.getRegion().front().getArguments().back().hasOneUse())
      return nullptr;
    bool exact = isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
                     arith::MinNumFOp>(combine) ||
                 combine->getResult(0).getType().isInteger();
    return exact ? combine : nullptr;
  }

  /// The values that the accumulators of reduction `k` at `point` start
  /// from: the identity for a piece, else the output's fill or value.
  SmallVector<Value> initialValues(unsigned k, ArrayRef<Value> point) {
    linalg::GenericOp op = members[k];
    SmallVector<Value> noRow(reduced.size(), zero());
    SmallVector<Value> initial;
    for (OpOperand &init : op.getDpsInitsMutable()) {
      if (piece) {
        initial.push_back(identityOf(reductionCombiner(op)));
        continue;
      }
      Value filled = fills.lookup(op);
      initial.push_back(filled && op.getNumDpsInits() == 1
                            ? filled
                            : memref::LoadOp::create(
                                  b, loc, init.get(),
                                  indicesOf(op.getMatchingIndexingMap(&init),
                                            merge(point, noRow))));
    }
    return initial;
  }

  /// Stores `results`, the values of reduction `k` at `point`: a piece's
  /// in its partial values, else those used after the kernel; and records
  /// them in `state` for the members after it.
  void storeResults(unsigned k, ArrayRef<Value> point, ArrayRef<Value> results,
                    State &state) {
    linalg::GenericOp op = members[k];
    SmallVector<Value> noRow(reduced.size(), zero());
    for (auto [init, result] : llvm::zip(op.getDpsInitsMutable(), results)) {
      if (piece) {
        storeOnce(result, partials.lookup(k), merge(point, {piece}));
      } else if (isLiveOut(init)) {
        storeOnce(result, init, merge(point, noRow));
      }
      define(state, init.get(), result, {});
    }
  }

  /// `combine` (a reduction's combiner) applied to `lhs` and `rhs`.
  Value combineWith(Operation *combine, Value lhs, Value rhs) {
    OperationState state(loc, combine->getName());
    state.addOperands({lhs, rhs});
    state.addTypes(lhs.getType());
    state.addAttributes(combine->getAttrs());
    return b.create(state)->getResult(0);
  }

  /// The identity of `combine` (combinerIdentity): what a partial
  /// accumulator starts from.
  Value identityOf(Operation *combine) {
    Type type = combine->getResult(0).getType();
    return arith::ConstantOp::create(
        b, loc, combinerIdentity(combine->getName(), type));
  }

  Value zero() { return arith::ConstantIndexOp::create(b, loc, 0); }
  Value one() { return arith::ConstantIndexOp::create(b, loc, 1); }

  /// The indices of `map`'s results at loop indices `at`.
  SmallVector<Value> indicesOf(AffineMap map, ArrayRef<Value> at) {
    SmallVector<Value> indices;
    for (AffineExpr expr : map.getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        indices.push_back(at[dim.getPosition()]);
      else
        indices.push_back(zero());
    }
    return indices;
  }

  /// The loop indices of the whole space from the point and a row index.
  SmallVector<Value> merge(ArrayRef<Value> point, ArrayRef<Value> row) {
    SmallVector<Value> at(kept.size() + reduced.size());
    for (auto [k, d] : llvm::enumerate(kept))
      at[d] = point[k];
    for (auto [r, d] : llvm::enumerate(reduced))
      at[d] = row[r];
    return at;
  }

  /// `value` in `width` lanes: itself, or a splat of a scalar.
  Value widen(Value value, int64_t width) {
    if (width == 1 || isa<VectorType>(value.getType()))
      return value;
    return vector::BroadcastOp::create(
        b, loc, VectorType::get({width}, value.getType()), value);
  }

  /// The body of `op` on `args` (its block's arguments), cloned here; with
  /// `width` > 1 each op computes `width` lanes.
  SmallVector<Value> runBody(linalg::GenericOp op, ArrayRef<Value> args,
                             int64_t width) {
    Block &body = op.getRegion().front();
    IRMapping mapping;
    mapping.map(body.getArguments(), args);
    auto lookup = [&](Value value) {
      Value mapped = mapping.lookupOrDefault(value);
      return widen(mapped, width);
    };
    for (Operation &inner : body.without_terminator()) {
      if (width == 1) {
        b.clone(inner, mapping);
        continue;
      }
      if (auto constant = dyn_cast<arith::ConstantOp>(inner)) {
        auto type = VectorType::get({width}, constant.getType());
        mapping.map(constant.getResult(),
                    arith::ConstantOp::create(
                        b, loc, type,
                        DenseElementsAttr::get(type, constant.getValue())));
        continue;
      }
      OperationState state(inner.getLoc(), inner.getName());
      for (Value operand : inner.getOperands())
        state.addOperands(lookup(operand));
      for (Type type : inner.getResultTypes())
        state.addTypes(VectorType::get({width}, type));
      state.addAttributes(inner.getAttrs());
      mapping.map(inner.getResults(), b.create(state)->getResults());
    }
    return llvm::map_to_vector(body.getTerminator()->getOperands(),
                               [&](Value v) { return lookup(v); });
  }

  /// The value of input `operand` of member `k` at its loop indices `at`
  /// (with `width` lanes from there along the innermost dimension).
  Value valueAt(unsigned k, OpOperand &operand, ArrayRef<Value> at,
                int64_t width, Cache &cache) {
    const State &state = states[k];
    Value buffer = operand.get();
    if (Value scalar = state.scalars.lookup(buffer))
      return widen(scalar, width);
    auto lazy = state.lazy.find(buffer);
    if (lazy != state.lazy.end())
      return evaluate(lazy->second.first, at, width,
                      cache)[lazy->second.second];
    AffineMap map =
        linalg::GenericOp(members[k]).getMatchingIndexingMap(&operand);
    if (chunk >= 0 && map.isFunctionOfDim(reduced.back()))
      return valueInRegisters(buffer, map, at);
    SmallVector<Value> indices = indicesOf(map, at);
    Type element = cast<MemRefType>(buffer.getType()).getElementType();
    auto last = map.getNumResults()
                    ? dyn_cast<AffineDimExpr>(map.getResults().back())
                    : nullptr;
    if (width > 1 && last && last.getPosition() + 1 == map.getNumDims() &&
        element.isInteger(1) && cpuThreads && !mask)
      return loadBytes(b, loc, buffer, indices, width);
    if (width > 1 && last && last.getPosition() + 1 == map.getNumDims() &&
        element.isInteger(1)) {
      // i1 is bit-packed in vectors but byte-sized in memory: lane by
      // lane, those past the row not read.
      SmallVector<Value> elements;
      for (int64_t l = 0; l < width; ++l) {
        SmallVector<Value> at(indices);
        at.back() = arith::AddIOp::create(
            b, loc, at.back(), arith::ConstantIndexOp::create(b, loc, l));
        if (!mask) {
          elements.push_back(memref::LoadOp::create(b, loc, buffer, at));
          continue;
        }
        elements.push_back(
            loadOrZero(vector::ExtractOp::create(b, loc, mask, l), buffer, at));
      }
      return vector::FromElementsOp::create(
          b, loc, VectorType::get({width}, element), elements);
    }
    if (width > 1 && last && last.getPosition() + 1 == map.getNumDims()) {
      auto type = VectorType::get({width}, element);
      auto alignment = llvm::MaybeAlign(storageBytes(element));
      if (mask)
        return vector::MaskedLoadOp::create(
            b, loc, type, buffer, indices, mask,
            arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type)),
            alignment);
      return vector::LoadOp::create(b, loc, type, buffer, indices,
                                    /*nontemporal=*/false, alignment);
    }
    if (prefetchNextGroup && last && last.getPosition() == kept.back())
      prefetchAhead(buffer, indices);
    return widen(memref::LoadOp::create(b, loc, buffer, indices), width);
  }

  /// Prefetches the element of `buffer` kCPURowGroup past `indices` along
  /// its last dimension (the last one at most): where a cpu target group of
  /// points reads its columns (prefetchNextGroup), the next group's columns
  /// in the same row. Neighbouring threads take neighbouring groups of the
  /// same rows, 128 bytes of each row apiece (32 f32), so that a row's
  /// lines are read a few at a time, far apart; prefetched one group ahead,
  /// they are in the caches when the next thread reads them. A sum over
  /// dimension 1 of `16 x 1024 x 1024` f32 on one core: 6.1-6.6 -> 5.0-5.2
  /// ms; over dimension 0 of `256 x 256 x 256`, whose rows are 256 KB
  /// apart, no change (two or four groups ahead, or two lines, gained
  /// less).
  void prefetchAhead(Value buffer, ArrayRef<Value> indices) {
    SmallVector<Value> at(indices);
    int64_t d = at.size() - 1;
    Value lastIndex = arith::SubIOp::create(
        b, loc, memref::DimOp::create(b, loc, buffer, d), one());
    at.back() = arith::MinUIOp::create(
        b, loc,
        arith::AddIOp::create(
            b, loc, at.back(),
            arith::ConstantIndexOp::create(b, loc, kCPURowGroup)),
        lastIndex);
    memref::PrefetchOp::create(b, loc, buffer, at, /*isWrite=*/false,
                               /*localityHint=*/3, /*isDataCache=*/true);
  }

  /// The lane's element `chunk` of the row of `buffer` read through `map`
  /// at loop indices `at`, read once for every pass (keepRow): before the
  /// first pass's test of the chunk against the row's length, under a test
  /// of its own (0 past the row).
  Value valueInRegisters(Value buffer, AffineMap map, ArrayRef<Value> at) {
    SmallVector<Value> &values = rowValues[{buffer, map}];
    values.resize(chunks);
    Value &value = values[chunk];
    if (value)
      return value;
    OpBuilder::InsertionGuard guard(b);
    if (chunkTest)
      b.setInsertionPoint(chunkTest);
    SmallVector<Value> indices = indicesOf(map, at);
    if (!chunkTest)
      return value = memref::LoadOp::create(b, loc, buffer, indices);
    return value = loadOrZero(chunkTest.getCondition(), buffer, indices);
  }

  /// `buffer` at `indices` where `inRow` holds, else 0 (nothing read).
  Value loadOrZero(Value inRow, Value buffer, ArrayRef<Value> indices) {
    Type element = cast<MemRefType>(buffer.getType()).getElementType();
    auto load = scf::IfOp::create(b, loc, TypeRange{element}, inRow,
                                  /*addThenBlock=*/true, /*addElseBlock=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(load.thenBlock());
    scf::YieldOp::create(
        b, loc, ValueRange{memref::LoadOp::create(b, loc, buffer, indices)});
    b.setInsertionPointToStart(load.elseBlock());
    scf::YieldOp::create(b, loc,
                         ValueRange{arith::ConstantOp::create(
                             b, loc, cast<TypedAttr>(b.getZeroAttr(element)))});
    return load.getResult(0);
  }

  /// Runs `body` at each of the lane's elements of its row in registers
  /// (keepRow), in order, carrying `carried` from one to the next; returns
  /// the carried values after the row. An element that may be past the row
  /// runs under a test of its index against the length (the carried values
  /// unchanged past it).
  SmallVector<Value> forEachInRegisters(
      ArrayRef<Value> point, ValueRange carried,
      function_ref<SmallVector<Value>(ArrayRef<Value> at, ValueRange carried)>
          body) {
    SmallVector<Value> values(carried);
    Value length = sizes[reduced.back()];
    chunkIndices.resize(chunks);
    for (int64_t c = 0; c < chunks; ++c) {
      auto &[index, inRow] = chunkIndices[c];
      if (!index) {
        index = arith::AddIOp::create(
            b, loc, lane,
            arith::ConstantIndexOp::create(b, loc, c * kReductionLanes));
        if (!form.length || (c + 1) * kReductionLanes > *form.length)
          inRow = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        index, length);
      }
      SmallVector<Value> at = merge(point, {index});
      chunk = c;
      if (!inRow) {
        values = body(at, values);
        continue;
      }
      chunkTest =
          values.empty()
              ? scf::IfOp::create(b, loc, inRow, /*withElseRegion=*/false)
              : scf::IfOp::create(b, loc, ValueRange(values).getTypes(), inRow,
                                  /*addThenBlock=*/true,
                                  /*addElseBlock=*/true);
      {
        OpBuilder::InsertionGuard guard(b);
        if (values.empty()) {
          b.setInsertionPoint(chunkTest.thenBlock()->getTerminator());
          body(at, values);
        } else {
          b.setInsertionPointToStart(chunkTest.thenBlock());
          scf::YieldOp::create(b, loc, body(at, values));
          b.setInsertionPointToStart(chunkTest.elseBlock());
          scf::YieldOp::create(b, loc, values);
        }
      }
      values = SmallVector<Value>(chunkTest.getResults());
      chunkTest = nullptr;
    }
    chunk = -1;
    return values;
  }

  /// The results of member `k` (over P x R) at loop indices `at`, computed
  /// once per loop body.
  ArrayRef<Value> evaluate(unsigned k, ArrayRef<Value> at, int64_t width,
                           Cache &cache) {
    auto it = cache.find(k);
    if (it != cache.end())
      return it->second;
    linalg::GenericOp op = members[k];
    SmallVector<Value> args;
    for (OpOperand *input : op.getDpsInputOperands())
      args.push_back(valueAt(k, *input, at, width, cache));
    for (Value init : op.getDpsInits())
      args.push_back(init); // never read (an elementwise body)
    SmallVector<Value> results = runBody(op, args, width);
    return cache[k] = std::move(results);
  }

  /// Loops over the row from `lower` (the innermost dimension's first
  /// index) in steps of `step` up to `upper` (its bound; the dimension's
  /// size when null), outermost first, carrying `carried`; returns the
  /// loops (their results are the carried values after the row).
  SmallVector<scf::ForOp> rowLoops(ValueRange carried, SmallVector<Value> &row,
                                   Value lower = nullptr, Value upper = nullptr,
                                   int64_t step = 1) {
    SmallVector<scf::ForOp> loops;
    for (int64_t d : reduced) {
      bool innermost = d == reduced.back();
      auto loop = scf::ForOp::create(
          b, loc, innermost && lower ? lower : zero(),
          innermost && upper ? upper : sizes[d],
          innermost ? arith::ConstantIndexOp::create(b, loc, step).getResult()
                    : one(),
          carried);
      if (!carried.empty()) {
        carried = loop.getRegionIterArgs();
        b.setInsertionPointToStart(loop.getBody());
      } else {
        b.setInsertionPoint(loop.getBody()->getTerminator());
      }
      row.push_back(loop.getInductionVar());
      loops.push_back(loop);
    }
    return loops;
  }

  /// Ends `loops` (with iter_args) by yielding `next` from the innermost;
  /// continues after the outermost and returns its results.
  SmallVector<Value> closeLoops(MutableArrayRef<scf::ForOp> loops,
                                ValueRange next) {
    for (int64_t i = loops.size() - 1; i >= 0; --i) {
      b.setInsertionPointToEnd(loops[i].getBody());
      scf::YieldOp::create(b, loc,
                           i + 1 == static_cast<int64_t>(loops.size())
                               ? next
                               : ValueRange(loops[i + 1].getResults()));
    }
    b.setInsertionPointAfter(loops.front());
    return SmallVector<Value>(loops.front().getResults());
  }

  /// The start of the elements past the last whole vector of the row
  /// part [lower, upper) (the whole row when null).
  Value vectorEnd(Value lower = nullptr, Value upper = nullptr) {
    Value size = upper ? upper : sizes[reduced.back()];
    Value length = lower ? arith::SubIOp::create(b, loc, size, lower) : size;
    Value width = arith::ConstantIndexOp::create(b, loc, lanes);
    return arith::SubIOp::create(b, loc, size,
                                 arith::RemUIOp::create(b, loc, length, width));
  }

  /// Stores a value of the row (the same in every lane of a warp): from
  /// lane 0 alone.
  void storeOnce(Value value, OpOperand &init, ArrayRef<Value> at) {
    auto op = cast<linalg::GenericOp>(init.getOwner());
    storeOnce(value, init.get(),
              indicesOf(op.getMatchingIndexingMap(&init), at));
  }

  /// Stores scalar `value` in `buffer` at `indices`, from lane 0 alone in a
  /// warp.
  void storeOnce(Value value, Value buffer, ArrayRef<Value> indices) {
    OpBuilder::InsertionGuard guard(b);
    if (lane) {
      auto first = scf::IfOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                zero()));
      b.setInsertionPointToStart(&first.getThenRegion().front());
    }
    memref::StoreOp::create(b, loc, value, buffer, indices);
  }

  void store(Value value, OpOperand &init, ArrayRef<Value> at) {
    auto op = cast<linalg::GenericOp>(init.getOwner());
    SmallVector<Value> indices =
        indicesOf(op.getMatchingIndexingMap(&init), at);
    auto vectorType = dyn_cast<VectorType>(value.getType());
    if (vectorType && vectorType.getElementType().isInteger(1) && cpuThreads &&
        !mask)
      return storeBytes(b, loc, value, init.get(), indices);
    if (vectorType && vectorType.getElementType().isInteger(1)) {
      // Lane by lane: i1 is a byte in memory (those past the row not
      // written).
      for (int64_t l = 0; l < vectorType.getNumElements(); ++l) {
        OpBuilder::InsertionGuard guard(b);
        if (mask) {
          auto inRow = scf::IfOp::create(
              b, loc, vector::ExtractOp::create(b, loc, mask, l));
          b.setInsertionPoint(inRow.thenBlock()->getTerminator());
        }
        SmallVector<Value> at(indices);
        at.back() = arith::AddIOp::create(
            b, loc, at.back(), arith::ConstantIndexOp::create(b, loc, l));
        memref::StoreOp::create(b, loc,
                                vector::ExtractOp::create(b, loc, value, l),
                                init.get(), at);
      }
      return;
    }
    if (vectorType && mask) {
      vector::MaskedStoreOp::create(
          b, loc, init.get(), indices, mask, value,
          llvm::MaybeAlign(storageBytes(vectorType.getElementType())));
      return;
    }
    if (auto type = vectorType) {
      vector::StoreOp::create(
          b, loc, value, init.get(), indices,
          /*nontemporal=*/false,
          llvm::MaybeAlign(storageBytes(type.getElementType())));
      return;
    }
    memref::StoreOp::create(b, loc, value, init.get(), indices);
  }

  /// Records what member `k` wrote for the members after it.
  void define(State &state, Value buffer, Value scalar,
              std::pair<unsigned, unsigned> lazy) {
    state.scalars.erase(buffer);
    state.lazy.erase(buffer);
    if (scalar)
      state.scalars[buffer] = scalar;
    else
      state.lazy[buffer] = lazy;
  }

  /// The accumulators of reduction `k` after the row part [lower, upper)
  /// of the innermost dimension, `width` lanes at a time, from `initial`.
  SmallVector<Value> accumulate(unsigned k, ArrayRef<Value> point,
                                ValueRange initial, Value lower, Value upper,
                                int64_t width, int64_t step = 0) {
    SmallVector<Value> row;
    SmallVector<scf::ForOp> loops =
        rowLoops(initial, row, lower, upper, step ? step : width);
    return closeLoops(loops, reduceStep(k, merge(point, row), width,
                                        loops.back().getRegionIterArgs()));
  }

  /// One step of reduction `k` at loop indices `at` (`width` lanes): its
  /// body on its inputs there and the accumulators `acc`.
  SmallVector<Value> reduceStep(unsigned k, ArrayRef<Value> at, int64_t width,
                                ValueRange acc) {
    linalg::GenericOp op = members[k];
    Cache local;
    SmallVector<Value> args;
    for (OpOperand *input : op.getDpsInputOperands())
      args.push_back(valueAt(k, *input, at, width, cacheFor(local, width)));
    llvm::append_range(args, acc);
    return runBody(op, args, width);
  }

  /// Lanes of a warp combined: lane i with lane i + 16, i + 8, ... (lane 0
  /// ends with the value), which every lane then gets from lane 0.
  Value combineWarp(Operation *combine, Value partial) {
    for (int64_t offset = kReductionLanes / 2; offset >= 1; offset /= 2)
      partial = combineWith(combine, partial,
                            gpu::ShuffleOp::create(b, loc, partial, offset,
                                                   kReductionLanes,
                                                   gpu::ShuffleMode::DOWN)
                                .getShuffleResult());
    return gpu::ShuffleOp::create(b, loc, partial, 0, kReductionLanes,
                                  gpu::ShuffleMode::IDX)
        .getShuffleResult();
  }

  /// The lanes of vector `acc` combined pairwise, lanes / 2 apart, then
  /// lanes / 4, ... (the warp's order).
  Value combineVector(Operation *combine, Value acc) {
    for (int64_t half = lanes / 2; half >= 1; half /= 2)
      acc = combineWith(
          combine,
          vector::ShuffleOp::create(
              b, loc, acc, acc, llvm::to_vector(llvm::seq<int64_t>(0, half))),
          vector::ShuffleOp::create(
              b, loc, acc, acc,
              llvm::to_vector(llvm::seq<int64_t>(half, 2 * half))));
    return vector::ExtractOp::create(b, loc, acc, 0);
  }

  /// Reduction `k` over the part [lower, upper) of the row at `point` (the
  /// whole row when null), from the identity: in a warp's lanes or a
  /// vector's kReductionLanes apart and then combined (the value in every
  /// lane), or one element after the other.
  Value reduceRange(unsigned k, ArrayRef<Value> point, Value lower,
                    Value upper) {
    linalg::GenericOp op = members[k];
    Operation *combine = reductionCombiner(op);
    if (lane && chunks) {
      Value partial =
          forEachInRegisters(point, identityOf(combine),
                             [&](ArrayRef<Value> at, ValueRange acc) {
                               return reduceStep(k, at, 1, acc);
                             })
              .front();
      return combineWarp(combine, partial);
    }
    if (lane) {
      // Lane `lane` takes elements lane, lane + 32, ... of [lower, upper).
      Value start = lower ? lower : zero();
      upper = upper ? upper : sizes[reduced.back()];
      Value partial = inBlocks(
          combine, blockLevels(combine), start, upper,
          [&](Value from, Value to) {
            return accumulate(k, point, identityOf(combine),
                              arith::AddIOp::create(b, loc, from, lane), to, 1,
                              kReductionLanes)
                .front();
          });
      return combineWarp(combine, partial);
    }
    if (lanes == 1)
      return accumulate(k, point, identityOf(combine), lower, upper, 1).front();
    // Whole vectors into `lanes` partial accumulators from the identity,
    // then the rest as one masked vector (the lanes past it keep their
    // value), then the lanes pairwise; a float sum block by block, each
    // block's rest under a test (most blocks have none).
    lower = lower ? lower : zero();
    upper = upper ? upper : sizes[reduced.back()];
    Value identity = widen(identityOf(combine), lanes);
    int64_t levels = rowInOneVector() ? 0 : blockLevels(combine);
    Value acc = inBlocks(
        combine, levels, lower, upper, [&](Value from, Value to) -> Value {
          Value end = rowInOneVector() ? from : vectorEnd(from, to);
          Value partial =
              rowInOneVector()
                  ? identity
                  : accumulate(k, point, identity, from, end, lanes).front();
          OpBuilder::InsertionGuard guard(b);
          scf::IfOp rest;
          if (levels) {
            rest = scf::IfOp::create(
                b, loc, identity.getType(),
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, end,
                                      to),
                /*withElseRegion=*/true);
            b.setInsertionPointToStart(&rest.getElseRegion().front());
            scf::YieldOp::create(b, loc, partial);
            b.setInsertionPointToStart(&rest.getThenRegion().front());
          }
          mask = maskBelow(arith::SubIOp::create(b, loc, to, end));
          Value last =
              reduceStep(k, merge(point, {end}), lanes, partial).front();
          Value masked = arith::SelectOp::create(b, loc, mask, last, partial);
          mask = nullptr;
          if (!rest)
            return masked;
          scf::YieldOp::create(b, loc, masked);
          return rest.getResult(0);
        });
    return combineVector(combine, acc);
  }

  /// The levels of blocks (blockLength) that reduction `combine` takes the
  /// rows' elements in: a float sum's, as many as the row may be longer
  /// than; 0 for other combinations, which are exact in any order.
  int64_t blockLevels(Operation *combine) const {
    if (!isa<arith::AddFOp>(combine))
      return 0;
    int64_t levels = 0;
    while (levels < kBlockLevels &&
           (!form.length || *form.length > blockLength(levels + 1)))
      ++levels;
    return levels;
  }

  /// The value of [lower, upper) reduced by `combine` in `levels` levels of
  /// blocks (blockLength) from `lower`: each block's value from the
  /// identity (`range` of the block, at the last level), combined into the
  /// value of the blocks before it. `range` alone when `levels` is 0.
  Value inBlocks(Operation *combine, int64_t levels, Value lower, Value upper,
                 function_ref<Value(Value, Value)> range) {
    if (levels == 0)
      return range(lower, upper);
    Value length = arith::ConstantIndexOp::create(b, loc, blockLength(levels));
    Value identity = widen(identityOf(combine), lanes);
    auto blocks =
        scf::ForOp::create(b, loc, lower, upper, length, ValueRange{identity});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(blocks.getBody());
    Value at = blocks.getInductionVar();
    Value value =
        inBlocks(combine, levels - 1, at,
                 arith::MinUIOp::create(
                     b, loc, arith::AddIOp::create(b, loc, at, length), upper),
                 range);
    scf::YieldOp::create(
        b, loc,
        combineWith(combine, blocks.getRegionIterArgs().front(), value));
    return blocks.getResult(0);
  }

  /// The lanes below `count` (an index) of a vector of `lanes`: lane <
  /// count, in arith (the cpu pipeline lowers no vector mask op).
  Value maskBelow(Value count) {
    auto laneType = VectorType::get({lanes}, b.getI64Type());
    Value laneIds = arith::ConstantOp::create(
        b, loc, laneType,
        DenseElementsAttr::get(laneType, ArrayRef<int64_t>(llvm::to_vector(
                                             llvm::seq<int64_t>(0, lanes)))));
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, laneIds,
        widen(arith::IndexCastUIOp::create(b, loc, b.getI64Type(), count),
              lanes));
  }

  void emitReduction(unsigned k, ArrayRef<Value> point, State &state) {
    linalg::GenericOp op = members[k];
    OpBuilder::InsertionGuard guard(b);
    SmallVector<Value> initial = initialValues(k, point);
    Operation *combine = reductionCombiner(op);
    SmallVector<Value> results;
    if (!form.pieces || piece) {
      // The row (or the piece of it that the thread owns): a thread's
      // accumulator starts from the initial value; lanes start from the
      // identity, and the initial value joins the combined lanes at the end
      // (the same bits when it is the identity, as a fill from
      // convert-fuse-to-linalg is).
      Operation *exact = !lane && lanes == 1 && cpuThreads && smallBodies()
                             ? exactCombiner(op)
                             : nullptr;
      if (exact)
        results = inFlight(
            exact, initial,
            [&](ArrayRef<Value> row, ValueRange acc) {
              return reduceStep(k, merge(point, row), 1, acc);
            },
            kExactElementsInFlight, /*maskedRest=*/true);
      else if (!lane && lanes == 1)
        results = accumulate(k, point, initial, rowLower, rowUpper, 1);
      else
        results = {combineWith(combine, initial.front(),
                               reduceRange(k, point, rowLower, rowUpper))};
    } else {
      // The row in pieces (RowForm::pieces), in one launch: each piece
      // reduced from the identity, and the pieces' values reduced as a row
      // of pieceCount elements (value p in lane p mod 32), the order of
      // the split kernel's two launches.
      Value length = sizes[reduced.back()];
      Value pieceLength =
          arith::CeilDivUIOp::create(b, loc, length, pieceCount);
      Value width = arith::ConstantIndexOp::create(b, loc, kReductionLanes);
      Value identity = identityOf(combine);
      Value start = lane        ? identity
                    : lanes > 1 ? widen(identity, lanes)
                                : initial.front();
      // Past the last element, pieces are empty: their identity would
      // leave every accumulator as it is (the same bits), so the loop ends
      // at the first (a row shorter than pieceCount, one element a piece,
      // takes as many steps as it has elements).
      Value filled = arith::CeilDivUIOp::create(
          b, loc, length, arith::MaxUIOp::create(b, loc, pieceLength, one()));
      // The pieces [first, last) into `from`.
      auto piecesFrom = [&](Value first, Value last, Value from) {
        OpBuilder::InsertionGuard guard(b);
        auto loop =
            scf::ForOp::create(b, loc, first, last, one(), ValueRange{from});
        b.setInsertionPointToStart(loop.getBody());
        Value p = loop.getInductionVar();
        Value acc = loop.getRegionIterArgs().front();
        Value lower = arith::MinUIOp::create(
            b, loc, arith::MulIOp::create(b, loc, p, pieceLength), length);
        Value upper = arith::MinUIOp::create(
            b, loc, arith::AddIOp::create(b, loc, lower, pieceLength), length);
        Value value = reduceRange(k, point, lower, upper);
        Value slot = arith::RemUIOp::create(b, loc, p, width);
        Value next;
        if (lane) {
          next = arith::SelectOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                    slot),
              combineWith(combine, acc, value), acc);
        } else if (lanes > 1) {
          OpFoldResult position = slot;
          next = vector::InsertOp::create(
              b, loc,
              combineWith(combine,
                          vector::ExtractOp::create(b, loc, acc, position),
                          value),
              acc, position);
        } else {
          next = combineWith(combine, acc, value);
        }
        scf::YieldOp::create(b, loc, next);
        return loop.getResult(0);
      };
      // The pieces' values in lanes, a float sum's block by block as a
      // row's elements (at most kRowPieces: one level).
      Value reducedPieces =
          inBlocks(combine,
                   (lane || lanes > 1) && blockLevels(combine) &&
                           form.pieceCount > blockLength(1)
                       ? 1
                       : 0,
                   zero(), filled, [&](Value from, Value to) {
                     return piecesFrom(from, to, start);
                   });
      if (lane)
        reducedPieces = combineWarp(combine, reducedPieces);
      else if (lanes > 1)
        reducedPieces = combineVector(combine, reducedPieces);
      results = {lane || lanes > 1
                     ? combineWith(combine, initial.front(), reducedPieces)
                     : reducedPieces};
    }
    storeResults(k, point, results, state);
  }

  /// A member over the rows, at loop indices `at` of the thread's point:
  /// the point itself, or the point with 0 for each kept dimension.
  void emitOverPoint(unsigned k, ArrayRef<Value> at, State &state) {
    linalg::GenericOp op = members[k];
    Cache cache;
    SmallVector<Value> args;
    for (OpOperand *input : op.getDpsInputOperands())
      args.push_back(valueAt(k, *input, at, 1, cache));
    for (Value init : op.getDpsInits())
      args.push_back(init);
    SmallVector<Value> results = runBody(op, args, 1);
    for (auto [init, result] : llvm::zip(op.getDpsInitsMutable(), results)) {
      if (isLiveOut(init))
        storeOnce(result, init, at);
      define(state, init.get(), result, {});
    }
  }

  /// Stores the results of member `k` used after the kernel over the row
  /// part [lower, upper), `width` lanes at a time.
  void storeRow(unsigned k, ArrayRef<Value> point, Value lower, Value upper,
                int64_t width, int64_t step = 0) {
    OpBuilder::InsertionGuard guard(b);
    SmallVector<Value> row;
    rowLoops({}, row, lower, upper, step ? step : width);
    storeAt(k, merge(point, row), width);
  }

  /// Stores the results of member `k` used after the kernel at loop
  /// indices `at` (`width` lanes).
  void storeAt(unsigned k, ArrayRef<Value> at, int64_t width) {
    linalg::GenericOp op = members[k];
    Cache local;
    SmallVector<Value> results(evaluate(k, at, width, cacheFor(local, width)));
    for (auto [init, result] : llvm::zip(op.getDpsInitsMutable(), results))
      if (isLiveOut(init))
        store(result, init, at);
  }

  void emitOverRow(unsigned k, ArrayRef<Value> point, State &state) {
    linalg::GenericOp op = members[k];
    if (llvm::any_of(op.getDpsInitsMutable(),
                     [&](OpOperand &init) { return isLiveOut(init); })) {
      if (lane && chunks) {
        forEachInRegisters(point, {}, [&](ArrayRef<Value> at, ValueRange) {
          storeAt(k, at, 1);
          return SmallVector<Value>();
        });
      } else if (lane) {
        storeRow(k, point, lane, nullptr, 1, kReductionLanes);
      } else if (lanes == 1) {
        storeRow(k, point, nullptr, nullptr, 1);
      } else {
        // Whole vectors, then the rest as one masked vector (a row shorter
        // than a vector is all rest: a softmax over 10 classes).
        if (rowInOneVector()) {
          mask = maskBelow(sizes[reduced.back()]);
          storeAt(k, merge(point, {zero()}), lanes);
          mask = nullptr;
          return defineLazy(k, state);
        }
        Value end = vectorEnd();
        storeRow(k, point, zero(), end, lanes);
        Value size = sizes[reduced.back()];
        OpBuilder::InsertionGuard guard(b);
        auto rest = scf::IfOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, end,
                                  size));
        b.setInsertionPoint(rest.thenBlock()->getTerminator());
        mask = maskBelow(arith::SubIOp::create(b, loc, size, end));
        storeAt(k, merge(point, {end}), lanes);
        mask = nullptr;
      }
    }
    defineLazy(k, state);
  }

  /// Whether the row is known to fit in one vector of `lanes`: fewer than
  /// kReductionLanes are emitRowsByLength's short rows (no loop over whole
  /// vectors).
  bool rowInOneVector() const { return lanes > 1 && lanes < kReductionLanes; }

  /// What evaluate() keeps the members' values at the loop indices of one
  /// step in: `local` (the step's own), or, for a row in one vector, the
  /// row's: every member computed once however many read it (a softmax's
  /// exp, for its sum and its result).
  Cache &cacheFor(Cache &local, int64_t width) {
    return rowInOneVector() && width == lanes ? rowCache : local;
  }

  /// Records that member `k` (over the row) is computed where it is read.
  void defineLazy(unsigned k, State &state) {
    for (auto [i, init] :
         llvm::enumerate(linalg::GenericOp(members[k]).getDpsInits()))
      define(state, init, Value(), {k, static_cast<unsigned>(i)});
  }

  ArrayRef<linalg::GenericOp> members;
  ArrayRef<Value> sizes;
  const DenseMap<Operation *, Value> &fills;
  function_ref<bool(OpOperand &)> isLiveOut;
  OpBuilder &b;
  Location loc;
  /// Whether the kernel is the cpu target's (a thread a loop iteration).
  bool cpuThreads;
  int64_t lanes = 1;
  /// The values of the row's members, when it is in one vector
  /// (cacheFor).
  Cache rowCache;
  /// The lanes of the row in range, while the last vector is computed.
  Value mask;
  /// The thread's lane in its warp, when a warp owns each row.
  Value lane;
  /// The lane's elements of its row in registers (keepRow; 0: a loop over
  /// the row in each pass), the one being emitted (-1 outside), and the
  /// test of its index against the row's length around it, if any.
  int64_t chunks = 0, chunk = -1;
  scf::IfOp chunkTest;
  /// The lane's elements of the rows read, by (buffer, indexing map), one
  /// per chunk (null until read).
  DenseMap<std::pair<Value, AffineMap>, SmallVector<Value>> rowValues;
  /// Each chunk's index in the row and, when it may be past the row's end,
  /// its test against the length (created by the first pass).
  SmallVector<std::pair<Value, Value>> chunkIndices;
  /// The part of the row that the thread reduces (see usePiece); null for
  /// the whole row.
  Value rowLower, rowUpper;
  /// The pieces of each row (countPieces).
  Value pieceCount;
  Value piece;
  DenseMap<unsigned, Value> partials;
  RowForm form;
  /// The kernel's loops (views of the form's).
  ArrayRef<int64_t> kept, reduced;
  SmallVector<State> states;
};

struct FuseMapToGPUPass
    : fuse::CheckedOptions<FuseMapToGPUPass,
                           fuse::impl::FuseMapToGPUBase<FuseMapToGPUPass>> {
  using CheckedOptions::CheckedOptions;

  /// What is wrong with the options, if anything (CheckedOptions).
  std::optional<std::string> optionProblem() const {
    if (blockSize > 0 && blockSize <= fuse::kMaxBlockSize &&
        fuse::isVectorBytes(vectorBytes))
      return std::nullopt;
    return "block-size must be in [1, " + std::to_string(fuse::kMaxBlockSize) +
           "] (a CUDA block has at most " +
           std::to_string(fuse::kMaxBlockSize) +
           " threads) and vector-bytes a power of two in [1, " +
           std::to_string(fuse::kMaxVectorBytes) +
           "]; got block-size=" + std::to_string(blockSize) +
           " vector-bytes=" + std::to_string(vectorBytes);
  }

  void runOnOperation() override {
    if (refusesOptions())
      return;
    // Elementwise generics, reductions and the generics of a kernel with
    // reductions (fuse.group), kernel by kernel in program order.
    auto include = [](linalg::GenericOp op) {
      return op.hasPureBufferSemantics() &&
             (isElementwiseKernel(op) || op.getNumReductionLoops() > 0);
    };
    SmallVector<SmallVector<linalg::GenericOp>> kernels;
    getOperation().walk([&](Block *block) {
      llvm::append_range(kernels, kernelsOf(*block, include));
    });
    // What the mapping below does not take is refused here, where the
    // generic is (it made IR that failed to verify, code that raced, or a
    // kernel name that aborted PTX emission); so is a generic named as a
    // kernel that is neither elementwise nor a reduction (a transposed
    // output), which stayed on the host.
    FuseDialect::KernelAttrHelper kernelAttr(&getContext());
    bool refused = false;
    getOperation().walk([&](linalg::GenericOp op) {
      // Every generic is a kernel's: one on tensors is not bufferized yet,
      // and one that no kernel takes stayed on the host without a word.
      if (!op.hasPureBufferSemantics()) {
        op.emitError("fuse-map-to-gpu maps generics on buffers (memrefs), "
                     "and this one is on tensors: bufferize first "
                     "(one-shot-bufferize, as the gpu stage does)");
        refused = true;
        return;
      }
      bool kernel = include(op);
      std::optional<std::string> why = unmappable(op, kernelAttr);
      if (!why && !kernel)
        why = "it is not elementwise (its output's indexing map is not the "
              "identity, or an input's map is not a projection of the loops, "
              "or its body holds an op that is not elementwise)";
      if (why) {
        op.emitError("fuse-map-to-gpu cannot map this generic to a kernel: ")
            << *why;
        refused = true;
      }
    });
    if (refused)
      return signalPassFailure();
    if (profile)
      declareKernelHooks(getOperation());
    recordOverwrites(kernels);
    // The kernels that an earlier run of the pass mapped keep their names.
    FuseDialect::KernelsAttrHelper kernelsAttr(&getContext());
    SmallVector<Attribute> names;
    if (ArrayAttr mapped = kernelsAttr.getAttr(getOperation()))
      llvm::append_range(names, mapped);
    for (ArrayRef<linalg::GenericOp> members : kernels) {
      StringAttr name = kernelAttr.getAttr(members.front());
      StringAttr kernelName =
          name ? name
               : StringAttr::get(&getContext(),
                                 "kernel_" + std::to_string(names.size()));
      linalg::GenericOp front = members.front();
      if (members.size() == 1 && front.getNumReductionLoops() == 0) {
        mapKernel(front, kernelName, names.size());
        names.push_back(kernelName);
      } else if (failed(mapRowKernel(members, kernelName, names)))
        return signalPassFailure();
    }
    kernelsAttr.setAttr(getOperation(), ArrayAttr::get(&getContext(), names));
  }

  /// `fuse.overwrites` on the module: [result, argument] for each result
  /// that a run may compute straight into an argument's memory, which the
  /// caller gives as the result's output array (`np.add(a, b, out=a)`, an
  /// optimizer updating its parameters, moments and all, in place): the
  /// module's one function is one kernel over the whole space (no
  /// reduction), which writes the result at each element's own position
  /// and reads the argument only there (every thread reads an element
  /// before it writes it, and none reads another's), and nothing else
  /// reads the argument. Else the run computes the result into a buffer of
  /// its own and copies it into the array after (Executable::checkOuts):
  /// 24 bytes an element more for an Adam step in place.
  void recordOverwrites(ArrayRef<SmallVector<linalg::GenericOp>> kernels) {
    MLIRContext *context = &getContext();
    // A run of the pass that maps nothing leaves the earlier run's; one
    // after an earlier run that mapped kernels makes more than one.
    if (kernels.empty())
      return;
    ArrayAttr mapped =
        FuseDialect::KernelsAttrHelper(context).getAttr(getOperation());
    SmallVector<Attribute> pairs;
    // The one function with a body (the profile's hooks are declarations).
    SmallVector<func::FuncOp> bodies;
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal())
        bodies.push_back(func);
    if ((!mapped || mapped.empty()) && kernels.size() == 1 &&
        kernels.front().size() == 1 && bodies.size() == 1 &&
        linalg::GenericOp(kernels.front().front()).getNumReductionLoops() ==
            0) {
      func::FuncOp func = bodies.front();
      linalg::GenericOp op = kernels.front().front();
      Operation *ret = func.getBody().front().getTerminator();
      // The arguments that nothing reads but `op`, at each position's own.
      SmallVector<unsigned> readInPlace;
      for (BlockArgument arg : func.getArguments()) {
        bool read = false, elsewhere = false;
        for (OpOperand &use : arg.getUses()) {
          if (isa<memref::DimOp>(use.getOwner()))
            continue;
          if (use.getOwner() == op.getOperation() && op.isDpsInput(&use) &&
              op.getMatchingIndexingMap(&use).isIdentity())
            read = true;
          else
            elsewhere = true;
        }
        if (read && !elsewhere)
          readInPlace.push_back(arg.getArgNumber());
      }
      for (OpOperand &init : op.getDpsInitsMutable()) {
        if (!op.getMatchingIndexingMap(&init).isIdentity() ||
            op->getParentOp() != func)
          continue;
        for (OpOperand &result : ret->getOpOperands())
          if (result.get() == init.get())
            for (unsigned arg : readInPlace)
              pairs.push_back(DenseI64ArrayAttr::get(
                  context, {result.getOperandNumber(), arg}));
      }
    }
    FuseDialect::OverwritesAttrHelper overwrites(context);
    if (pairs.empty())
      overwrites.removeAttr(getOperation());
    else
      overwrites.setAttr(getOperation(), ArrayAttr::get(context, pairs));
  }

  /// Why fuse-map-to-gpu cannot map `op`, a generic of a kernel, or
  /// std::nullopt: an element type that is not an integer or a float (no
  /// vector of it), an index read in its body, a reduction whose indexing
  /// maps are not projections of its loops (its rows), or a kernel name
  /// that is not a symbol's (a letter or `_`, then letters, digits and `_`).
  static std::optional<std::string>
  unmappable(linalg::GenericOp op, FuseDialect::KernelAttrHelper &kernelAttr) {
    for (Value operand : op->getOperands())
      if (auto memref = dyn_cast<MemRefType>(operand.getType());
          memref && !memref.getElementType().isIntOrFloat()) {
        std::string text;
        llvm::raw_string_ostream(text) << memref.getElementType();
        return "its element type " + text +
               " is not an integer or a float type";
      }
    if (!op.getBody()->getOps<linalg::IndexOp>().empty())
      return std::string("its body reads a loop index (linalg.index)");
    if (op.getNumReductionLoops() > 0 &&
        !llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
          return map.isProjectedPermutation();
        }))
      return std::string("it reduces, and an indexing map is not a "
                         "projection of its loops");
    if (StringAttr name = kernelAttr.getAttr(op)) {
      llvm::StringRef text = name.getValue();
      bool valid = !text.empty() &&
                   (llvm::isAlpha(text.front()) || text.front() == '_') &&
                   llvm::all_of(text, [](char c) {
                     return llvm::isAlnum(c) || c == '_';
                   });
      if (!valid)
        return "its kernel name '" + text.str() +
               "' (fuse.kernel) is not a symbol: a letter or '_', then "
               "letters, digits and '_'";
    }
    return std::nullopt;
  }

  /// Two vectors per thread halve the share of each element in the
  /// thread's fixed work (ids, bounds, addresses) and double the bytes in
  /// flight; a body that costs much more than that work gains little from
  /// it and would double the kernel's code.
  static int64_t vectorsPerThread(linalg::GenericOp op, int64_t width) {
    int64_t cost = 0;
    bool f64Math = false;
    for (Operation &inner : op.getRegion().front().without_terminator()) {
      if (isa<arith::ConstantOp>(inner))
        continue;
      bool expensive =
          isa_and_nonnull<math::MathDialect>(inner.getDialect()) ||
          isa<arith::DivFOp, arith::RemFOp, arith::DivSIOp, arith::DivUIOp,
              arith::RemSIOp, arith::RemUIOp>(inner);
      f64Math |= expensive && llvm::any_of(inner.getOperandTypes(),
                                           [](Type t) { return t.isF64(); });
      // A correctly rounded division (no `afn`: a user's `/`, not a
      // sigmoid's), whose slow path ptxas calls as a subroutine: the
      // registers live across 8 of them spilled 32 bytes on sm_90 and
      // sm_100 (4: none).
      if (auto divide = dyn_cast<arith::DivFOp>(inner))
        f64Math |= !bitEnumContainsAll(divide.getFastmath(),
                                       arith::FastMathFlags::afn);
      cost += expensive ? kExpensiveOpCost : 1;
    }
    if (f64Math || 2 * width > kMaxThreadLanes)
      return 1;
    return cost * width <= kTwoVectorBudget ? 2 : 1;
  }

  /// What a GPU thread's vector that reads from two rows
  /// (KernelBuilder::loadTwoRows) holds of its broadcast inputs, where rows
  /// may not be a whole number of vectors: a lane of each input that reads
  /// the innermost loop (each loaded alone), half as much of one that does
  /// not (two loads, and the lanes' picks).
  static int64_t rowLaneLoads(linalg::GenericOp op, int64_t width) {
    int64_t row = op.getStaticLoopRanges().back();
    if (!ShapedType::isDynamic(row) && row % width == 0)
      return 0;
    int64_t loads = 0;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      if (map.isIdentity() || map.isConstant())
        continue;
      loads += map.isFunctionOfDim(map.getNumDims() - 1)
                   ? width
                   : std::max<int64_t>(1, width / 2);
    }
    return loads;
  }

  static SmallVector<Value> buffersOf(ArrayRef<OpOperand *> operands) {
    return llvm::map_to_vector(
        operands, [](OpOperand *operand) { return operand->get(); });
  }

  /// One launch of `perBlock` positions per block of `blockSize` threads
  /// over `total` positions, when there are any (a launch of 0 blocks would
  /// be an error), bracketed by the profile's calls with the bytes of
  /// `traffic`. The body is left for the caller, without its terminator.
  /// The bytes (a product of the sizes of each buffer: O(rank) ops) are
  /// counted before the test: the greedy rewriter walks the whole `scf.if`
  /// for each op folded inside it, and a rank-R program's R folds there
  /// would walk it R times.
  gpu::LaunchOp launchOver(OpBuilder &b, Location loc, Value total,
                           int64_t perBlock, StringAttr name, int64_t id,
                           ArrayRef<Value> traffic,
                           Value threadsPerBlock = {}) {
    // Bytes the kernel reads and writes (`traffic`: the buffers of
    // trafficOperands, and a split kernel's partial values).
    Value bytes = profile ? bufferBytes(b, loc, traffic) : Value();
    Value grid = arith::CeilDivUIOp::create(
        b, loc, total,
        threadsPerBlock ? threadsPerBlock
                        : arith::ConstantIndexOp::create(b, loc, perBlock));
    Value blockDim = threadsPerBlock
                         ? threadsPerBlock
                         : arith::ConstantIndexOp::create(b, loc, blockSize);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value nonEmpty =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, total, zero);
    auto ifNonEmpty = scf::IfOp::create(b, loc, nonEmpty);
    b.setInsertionPointToStart(&ifNonEmpty.getThenRegion().front());

    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value kernelId = arith::ConstantIntOp::create(b, loc, id, 64);
    if (profile)
      func::CallOp::create(b, loc, kKernelBeginHook, TypeRange{},
                           ValueRange{kernelId, bytes});
    auto launch = gpu::LaunchOp::create(
        b, loc, grid, one, one, blockDim, one, one,
        /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
        /*asyncDependencies=*/{}, /*workgroupAttributions=*/{},
        /*privateAttributions=*/{}, /*clusterSizeX=*/nullptr,
        /*clusterSizeY=*/nullptr, /*clusterSizeZ=*/nullptr,
        FlatSymbolRefAttr::get(b.getContext(), "fuse_kernels"),
        FlatSymbolRefAttr::get(name));
    if (profile) {
      b.setInsertionPointAfter(launch);
      func::CallOp::create(b, loc, kKernelEndHook, TypeRange{},
                           ValueRange{kernelId});
    }
    b.setInsertionPointToStart(&launch.getBody().front());
    return launch;
  }

  /// The size of loop `d` of `op`, read on the host from an operand that
  /// spans it (loopSources).
  static Value loopSize(OpBuilder &b, Location loc, linalg::GenericOp op,
                        int64_t d) {
    auto [operand, k] = loopSources(op, /*outputsFirst=*/false)[d];
    if (!operand)
      return nullptr;
    auto type = cast<MemRefType>(operand->get().getType());
    if (!type.isDynamicDim(k))
      return arith::ConstantIndexOp::create(b, loc, type.getDimSize(k));
    return memref::DimOp::create(b, loc, operand->get(), k);
  }

  /// One launch for a kernel with reductions (RowKernelBuilder): one thread
  /// per point of the kept dimensions.
  LogicalResult mapRowKernel(ArrayRef<linalg::GenericOp> given, StringAttr name,
                             SmallVector<Attribute> &names) {
    auto isReduction = [](linalg::GenericOp op) {
      return op.getNumReductionLoops() > 0;
    };
    auto reduction = llvm::find_if(given, isReduction);
    if (reduction == given.end())
      return linalg::GenericOp(given.front()).emitError("kernel ")
             << name << " of several generics has no reduction";
    SmallVector<utils::IteratorType> iterators =
        linalg::GenericOp(*reduction).getIteratorTypesArray();
    for (linalg::GenericOp op : given)
      if (!RowKernelBuilder::fits(op, iterators))
        return op.emitError("kernel ")
               << name << ": this generic does not iterate over the rows of "
               << "the kernel's reduction";

    OpBuilder b(given.back());
    // The members over their kept loops merged where they can be; what
    // follows sees a buffer through the views this makes of it.
    SmallPtrSet<Operation *, 8> views;
    SmallVector<linalg::GenericOp> members =
        collapseKeptLoops(given, iterators, views, b);
    auto bufferOf = [&](Value value) {
      Operation *def = value.getDefiningOp();
      return def && views.contains(def) ? def->getOperand(0) : value;
    };
    linalg::GenericOp first = *llvm::find_if(members, isReduction);
    iterators = first.getIteratorTypesArray();
    b.setInsertionPoint(members.back());
    Location loc = first.getLoc();
    SmallVector<Value> sizes;
    for (int64_t d = 0, e = iterators.size(); d < e; ++d) {
      sizes.push_back(loopSize(b, loc, first, d));
      if (!sizes.back())
        return first.emitError("kernel ")
               << name << ": no operand gives the size of loop " << d;
    }

    // The fills of the reductions' outputs give the accumulators' initial
    // values; the kernel absorbs them.
    DenseSet<Operation *> inKernel(members.begin(), members.end());
    inKernel.insert(views.begin(), views.end());
    DenseMap<Operation *, Value> fills;
    SmallVector<linalg::FillOp> absorbed;
    for (linalg::GenericOp op : members) {
      if (op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1)
        continue;
      linalg::FillOp fill;
      for (Operation *user : bufferOf(op.getDpsInits().front()).getUsers())
        if (auto candidate = dyn_cast<linalg::FillOp>(user))
          if (candidate->getBlock() == op->getBlock() &&
              candidate->isBeforeInBlock(op) &&
              (!fill || fill->isBeforeInBlock(candidate)))
            fill = candidate;
      if (!fill)
        continue;
      fills[op] = fill.getInputs().front();
      absorbed.push_back(fill);
      inKernel.insert(fill);
    }
    // The kernel runs where its last generic was: a buffer it writes must
    // not be used before that by anything else (its sizes aside); views of
    // it (a memref.cast to the function's result type) only where their
    // own users are.
    Block *block = members.back()->getBlock();
    SmallVector<Value> written;
    for (linalg::GenericOp op : members)
      for (Value init : op.getDpsInits())
        written.push_back(bufferOf(init));
    while (!written.empty()) {
      Value buffer = written.pop_back_val();
      for (Operation *user : buffer.getUsers()) {
        if (inKernel.contains(user) || isa<memref::DimOp>(user))
          continue;
        if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
          if (view.getViewSource() == buffer) {
            written.push_back(view->getResult(0));
            continue;
          }
        }
        Operation *ancestor = block->findAncestorOpInBlock(*user);
        if (ancestor && ancestor->isBeforeInBlock(members.back()))
          return user->emitError("kernel ")
                 << name << " writes a buffer that this op uses before the "
                 << "kernel's last generic";
      }
    }
    // Sizes read on the host (loopSize's memref.dim) do not keep a buffer.
    auto isLiveOut = [&](OpOperand &init) {
      Value buffer = bufferOf(init.get());
      if (isa<BlockArgument>(buffer))
        return true;
      return llvm::any_of(buffer.getUsers(), [&](Operation *user) {
        return !inKernel.contains(user) && !isa<memref::DimOp>(user);
      });
    };

    RowForm form = *rowFormOf(members, blockSize, isLiveOut);
    if (!form.split) {
      emitRowLaunch(b, loc, members, form, sizes, fills, isLiveOut, name,
                    names);
    } else {
      // Split: the first launch writes a partial value per piece of each row
      // for each reduction; then new reductions of those values (a row of
      // pieceCount each, from the outputs' fills) and the members over the
      // rows are one kernel with reductions, the second launch.
      auto pieceName =
          StringAttr::get(&getContext(), name.getValue() + "_pieces");
      SmallVector<linalg::GenericOp> second;
      DenseMap<unsigned, Value> partials;
      DenseMap<Operation *, Value> secondFills;
      int64_t reducedLoop = form.reduced.front();
      Value pieces = emitRowPieces(b, loc, form, sizes[reducedLoop],
                                   rowCount(b, loc, form, sizes));
      // The partial values over the reduction's loops, the pieces in place
      // of the reduced one: neighbouring threads of the first launch store
      // neighbours (the same piece of neighbouring columns, or a warp's
      // pieces of a row), and the second launch has the loops of the first,
      // where every member over the rows fits.
      SmallVector<int64_t> shape = first.getStaticLoopRanges();
      shape[reducedLoop] =
          form.constantPieces() ? form.pieceCount : ShapedType::kDynamic;
      SmallVector<Value> secondSizes(sizes);
      secondSizes[reducedLoop] = pieces;
      SmallVector<Value> dynamicSizes;
      for (auto [extent, size] : llvm::zip(shape, secondSizes))
        if (ShapedType::isDynamic(extent))
          dynamicSizes.push_back(size);
      for (auto [k, member] : llvm::enumerate(members)) {
        linalg::GenericOp op = member;
        if (op.getNumReductionLoops() == 0)
          continue;
        Type element = getElementTypeOrSelf(op.getDpsInits().front());
        partials[k] = memref::AllocOp::create(
            b, loc, MemRefType::get(shape, element), dynamicSizes,
            b.getI64IntegerAttr(kMaxVectorAlignment));
      }
      emitRowLaunch(b, loc, members, form, sizes, fills, isLiveOut, pieceName,
                    names, &partials, pieces);
      b.setInsertionPoint(members.back());

      // The second launch's members, in program order.
      SmallVector<linalg::GenericOp> created;
      for (auto [k, member] : llvm::enumerate(members)) {
        linalg::GenericOp op = member;
        if (op.getNumReductionLoops() == 0) {
          if (!overWholeSpace(op, form))
            second.push_back(op);
          continue;
        }
        Operation *combine = reductionCombiner(op);
        OpOperand &init = op.getDpsInitsMutable()[0];
        // Over the reduction's loops, the pieces reduced: the partial
        // values in order, into the output where the reduction wrote.
        auto reduce = linalg::GenericOp::create(
            b, loc, TypeRange{}, ValueRange{partials[k]},
            ValueRange{init.get()},
            {b.getMultiDimIdentityMap(iterators.size()),
             op.getMatchingIndexingMap(&init)},
            iterators,
            [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
              OperationState state(nestedLoc, combine->getName());
              state.addOperands({args[1], args[0]});
              state.addTypes(args[1].getType());
              state.addAttributes(combine->getAttrs());
              linalg::YieldOp::create(nested, nestedLoc,
                                      nested.create(state)->getResults());
            });
        if (Value filled = fills.lookup(op))
          secondFills[reduce] = filled;
        // Part of the kernel: its output is live out as the reduction's.
        inKernel.insert(reduce);
        created.push_back(reduce);
        second.push_back(reduce);
      }
      // The pieces' values in the order of one launch's pieces: in lanes
      // when the rows are, else one after the other.
      RowForm secondForm = *rowFormOf(second, blockSize, isLiveOut);
      secondForm.pieces = secondForm.split = false;
      secondForm.pieceCount = 0;
      secondForm.lanes = form.lanes;
      secondForm.warps = form.warps;
      // A warp keeps a row of at most piecesRegisterLength() pieces' values
      // in registers, else loops over it in each pass (chosen at run time
      // for a count known then).
      secondForm.rowInputs = form.reductions;
      secondForm.registers = form.piecesInRegisters();
      emitRowLaunch(b, loc, second, secondForm, secondSizes, secondFills,
                    isLiveOut, name, names);
      for (linalg::GenericOp op : llvm::reverse(created))
        op.erase();
    }
    for (linalg::GenericOp op : llvm::reverse(members))
      op.erase();
    for (linalg::FillOp fill : absorbed)
      fill.erase();
    return success();
  }

  /// One launch of the kernel with reductions of `members` (see
  /// RowKernelBuilder), named `name` (appended to `names`, whose size is
  /// its id); with `partials`, the first launch of a split kernel, which
  /// stores each reduction's partial values there, `pieces` of each row
  /// (emitRowPieces).
  void emitRowLaunch(OpBuilder &b, Location loc,
                     ArrayRef<linalg::GenericOp> members, const RowForm &form,
                     ArrayRef<Value> sizes,
                     const DenseMap<Operation *, Value> &fills,
                     function_ref<bool(OpOperand &)> isLiveOut, StringAttr name,
                     SmallVector<Attribute> &names,
                     const DenseMap<unsigned, Value> *partials = nullptr,
                     Value pieces = {}) {
    int64_t id = names.size();
    names.push_back(name);
    OpBuilder::InsertionGuard guard(b);
    // A CPU thread reads its row in vectors. On the GPU a warp owns each
    // row (or piece) when it can, else a thread.
    RowKernelBuilder builder(members, form, sizes, fills, isLiveOut, cpuThreads,
                             b, loc);
    bool warps = !cpuThreads && form.warps;
    Value points = rowCount(b, loc, form, sizes);
    if (form.pieces && !partials) {
      pieces = emitRowPieces(b, loc, form, sizes[form.reduced.back()], points);
      builder.countPieces(pieces);
    }
    // A cpu target thread takes a group of points (emitGroup), of one piece
    // when in pieces.
    bool groups = cpuThreads && form.cpuRowGroups();
    // Or rows in lanes, several at once (emitRowsByLength).
    bool rowsInFlight = cpuThreads && form.lanes && !form.pieces &&
                        (!form.length || *form.length <= kRowsInFlightLength);
    int64_t rowsPerThread = groups         ? kCPURowGroup
                            : rowsInFlight ? kRowsInFlight
                                           : 1;
    Value groupCount =
        rowsPerThread > 1
            ? arith::CeilDivUIOp::create(
                  b, loc, points,
                  arith::ConstantIndexOp::create(b, loc, rowsPerThread))
            : points;
    Value threads = groupCount;
    if (partials)
      threads = arith::MulIOp::create(b, loc, threads, pieces);
    if (warps)
      threads = arith::MulIOp::create(
          b, loc, threads,
          arith::ConstantIndexOp::create(b, loc, kReductionLanes));
    SmallVector<Value> traffic;
    Value length, pieceLength;
    if (partials) {
      // The members over the whole space read, the partial values written.
      SmallVector<linalg::GenericOp> rowMembers;
      for (linalg::GenericOp op : members)
        if (overWholeSpace(op, form))
          rowMembers.push_back(op);
      traffic = buffersOf(
          trafficOperands(rowMembers, [](OpOperand &) { return false; }));
      for (linalg::GenericOp op : rowMembers)
        if (op.getNumReductionLoops() > 0)
          traffic.push_back(partials->lookup(
              std::distance(members.begin(), llvm::find(members, op))));
      // The length of a piece, on the host.
      length = sizes[form.reduced.back()];
      pieceLength = arith::CeilDivUIOp::create(b, loc, length, pieces);
    } else {
      traffic = buffersOf(trafficOperands(members, isLiveOut));
    }
    // On the cpu target, a launch of little work is one block, which runs
    // on the calling thread; more goes at most kCPURowsPerBlock rows to a
    // block, fewer when that makes fewer than kCPUBlocks blocks, so that a
    // few long rows take every core (fuse-gpu-to-cpu runs 4 blocks or more
    // on the OpenMP threads; blocks of 256 rows left fewer than 1024 rows
    // on one).
    Value threadsPerBlock;
    if (cpuThreads) {
      Value work = points;
      for (int64_t d : form.reduced)
        work = arith::MulIOp::create(b, loc, work, sizes[d]);
      Value little = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ult, work,
          arith::ConstantIndexOp::create(b, loc, kCPUParallelWork));
      Value oneRow = arith::ConstantIndexOp::create(b, loc, 1);
      Value shared = arith::MinUIOp::create(
          b, loc,
          arith::CeilDivUIOp::create(
              b, loc, threads,
              arith::ConstantIndexOp::create(b, loc, kCPUBlocks)),
          arith::ConstantIndexOp::create(b, loc,
                                         kCPURowsPerBlock / rowsPerThread));
      threadsPerBlock = arith::SelectOp::create(
          b, loc, little, arith::MaxUIOp::create(b, loc, threads, oneRow),
          arith::MaxUIOp::create(b, loc, shared, oneRow));
    }
    gpu::LaunchOp launch = launchOver(b, loc, threads, blockSize, name, id,
                                      traffic, threadsPerBlock);
    Value thread = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(
            b, loc, launch.getBlockIds().x,
            cpuThreads ? launch.getBlockSize().x
                       : arith::ConstantIndexOp::create(b, loc, blockSize)
                             .getResult()),
        launch.getThreadIds().x);
    auto ifInRange = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, thread,
                              threads));
    b.setInsertionPointToStart(&ifInRange.getThenRegion().front());
    Value row = thread;
    if (warps) {
      Value width = arith::ConstantIndexOp::create(b, loc, kReductionLanes);
      row = arith::DivUIOp::create(b, loc, thread, width);
      builder.useWarp(arith::RemUIOp::create(b, loc, thread, width));
    }
    if (partials) {
      // Piece p of the row: [min(p * length', length), min(that + length',
      // length)), length' = ceil(length / pieceCount).
      // Read in lanes, a warp's (or thread's) piece is contiguous: threads
      // of a row are neighbours. Else neighbouring threads take the same
      // piece of neighbouring rows (columns, for dims = [0]), whose
      // elements are neighbours (a cpu target thread, a group of rows).
      Value piece, point;
      if (form.lanes) {
        piece = arith::RemUIOp::create(b, loc, row, pieces);
        point = arith::DivUIOp::create(b, loc, row, pieces);
      } else {
        piece = arith::DivUIOp::create(b, loc, row, groupCount);
        point = arith::RemUIOp::create(b, loc, row, groupCount);
      }
      row = point;
      Value lower = arith::MinUIOp::create(
          b, loc, arith::MulIOp::create(b, loc, piece, pieceLength), length);
      Value upper = arith::MinUIOp::create(
          b, loc, arith::AddIOp::create(b, loc, lower, pieceLength), length);
      builder.usePiece(lower, upper, piece, *partials);
    }
    if (groups) {
      builder.emitGroup(row, points);
    } else if (rowsInFlight) {
      builder.emitRowsByLength(row, points);
    } else if (!warps || partials || !form.registers) {
      builder.emit(row);
    } else if (form.length) {
      builder.keepRow(true);
      builder.emit(row);
    } else {
      // A dynamic length: the row in registers when it fits.
      Value length = sizes[form.reduced.back()];
      auto fits = scf::IfOp::create(
          b, loc,
          arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ule, length,
              arith::ConstantIndexOp::create(b, loc, form.registerLength())),
          /*withElseRegion=*/true);
      b.setInsertionPoint(fits.thenBlock()->getTerminator());
      builder.keepRow(true);
      builder.emit(row);
      b.setInsertionPoint(fits.elseBlock()->getTerminator());
      builder.keepRow(false);
      builder.emit(row);
    }
    b.setInsertionPointToEnd(&launch.getBody().front());
    gpu::TerminatorOp::create(b, loc);
  }

  /// Makes and fills on the host, before `op`'s launch, the tiles of its
  /// broadcast inputs that read the innermost loop as their last dimension
  /// and not the loop above it (HostSizes::rowTiles), for vectors of
  /// `width` lanes: where rows are not a whole number of vectors (known,
  /// or not known to be) and are at most kTiledRowLength long, and the
  /// tiles of inputs that read other loops too are at most
  /// 1 / kTileShare of the launch's `total` elements (known, or tested
  /// here: HostSizes::tiled). Each row of the input is copied once, then
  /// the tile's rest of the row from the tile itself.
  static void tileRows(OpBuilder &b, Location loc, linalg::GenericOp op,
                       int64_t width, Value total, HostSizes &host) {
    int64_t inner = op.getNumLoops() - 1;
    SmallVector<OpOperand *> inputs;
    bool blocked = false;
    for (OpOperand *in : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(in);
      if (getElementTypeOrSelf(in->get().getType()).isInteger(1) ||
          map.isIdentity() || map.isConstant())
        continue;
      if (!followsRows(op, *in) ||
          llvm::any_of(map.getResults().drop_back(), [&](AffineExpr expr) {
            auto dim = dyn_cast<AffineDimExpr>(expr);
            return dim && dim.getPosition() + 1 >= inner;
          }))
        continue;
      inputs.push_back(in);
      blocked |= readsOuterLoops(op, *in);
    }
    Value length = host.sizes.back();
    std::optional<int64_t> known = getConstantIntValue(length);
    if (inputs.empty() ||
        (known && (*known % width == 0 || *known > kTiledRowLength)))
      return;
    auto index = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(b, loc, value);
    };
    auto cmp = [&](arith::CmpIPredicate predicate, Value lhs, Value rhs) {
      return b.createOrFold<arith::CmpIOp>(loc, predicate, lhs, rhs);
    };
    auto both = [&](Value lhs, Value rhs) -> Value {
      return lhs ? b.createOrFold<arith::AndIOp>(loc, lhs, rhs) : rhs;
    };
    Value rowLength =
        b.createOrFold<arith::AddIOp>(loc, length, index(width - 1));
    Value tiled;
    if (!known)
      tiled =
          both(cmp(arith::CmpIPredicate::ugt, length, index(0)),
               cmp(arith::CmpIPredicate::ule, length, index(kTiledRowLength)));
    // The dimensions of an input's tile: its own, the last one the tile's
    // row.
    auto tileSizes = [&](OpOperand *in) {
      auto type = cast<MemRefType>(in->get().getType());
      SmallVector<Value> sizes;
      for (int64_t d = 0; d + 1 < type.getRank(); ++d)
        sizes.push_back(type.isDynamicDim(d)
                            ? Value(memref::DimOp::create(b, loc, in->get(), d))
                            : index(type.getDimSize(d)));
      sizes.push_back(rowLength);
      return sizes;
    };
    if (blocked) {
      Value elements = index(0);
      for (OpOperand *in : inputs) {
        Value product = index(1);
        for (Value size : tileSizes(in))
          product = b.createOrFold<arith::MulIOp>(loc, product, size);
        elements = b.createOrFold<arith::AddIOp>(loc, elements, product);
      }
      tiled = both(tiled, cmp(arith::CmpIPredicate::ule,
                              b.createOrFold<arith::MulIOp>(loc, elements,
                                                            index(kTileShare)),
                              total));
    }
    if (std::optional<int64_t> always = getConstantIntValue(tiled)) {
      if (!*always)
        return;
      tiled = nullptr;
    }
    host.tiled = tiled;
    for (OpOperand *in : inputs) {
      auto type = cast<MemRefType>(in->get().getType());
      SmallVector<Value> sizes = tileSizes(in);
      if (tiled)
        sizes.back() =
            arith::SelectOp::create(b, loc, tiled, sizes.back(), index(0));
      SmallVector<int64_t> shape;
      SmallVector<Value> dynamicSizes;
      for (Value size : sizes) {
        std::optional<int64_t> constant = getConstantIntValue(size);
        shape.push_back(constant ? *constant : ShapedType::kDynamic);
        if (!constant)
          dynamicSizes.push_back(size);
      }
      Value tile = memref::AllocOp::create(
          b, loc, MemRefType::get(shape, type.getElementType()), dynamicSizes,
          b.getI64IntegerAttr(kMaxVectorAlignment));
      host.rowTiles[in->getOperandNumber()] = tile;
      OpBuilder::InsertionGuard guard(b);
      if (tiled)
        b.setInsertionPointToStart(
            &scf::IfOp::create(b, loc, tiled).getThenRegion().front());
      // A loop over each dimension but the last, then the row.
      SmallVector<Value> at;
      for (Value size : ArrayRef<Value>(sizes).drop_back()) {
        auto loop = scf::ForOp::create(b, loc, index(0), size, index(1));
        b.setInsertionPointToStart(loop.getBody());
        at.push_back(loop.getInductionVar());
      }
      auto row = [&](Value lower, Value upper, auto element) {
        auto loop = scf::ForOp::create(b, loc, lower, upper, index(1));
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(loop.getBody());
        SmallVector<Value> to(at);
        to.push_back(loop.getInductionVar());
        memref::StoreOp::create(b, loc, element(to), tile, to);
      };
      row(index(0), length, [&](ArrayRef<Value> to) -> Value {
        return memref::LoadOp::create(b, loc, in->get(), to);
      });
      row(length, rowLength, [&](ArrayRef<Value> to) -> Value {
        SmallVector<Value> from(to);
        from.back() = arith::SubIOp::create(b, loc, from.back(), length);
        return memref::LoadOp::create(b, loc, tile, from);
      });
    }
  }

  void mapKernel(linalg::GenericOp op, StringAttr name, int64_t id) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    if (linalg::GenericOp collapsed = collapseLoops(op, b))
      op = collapsed;
    Value out = op.getDpsInits().front();
    auto outType = cast<MemRefType>(out.getType());

    HostSizes host;
    Value total = arith::ConstantIndexOp::create(b, loc, 1);
    for (int64_t d = 0; d < outType.getRank(); ++d) {
      Value size = outType.isDynamicDim(d)
                       ? Value(memref::DimOp::create(b, loc, out, d))
                       : Value(arith::ConstantIndexOp::create(
                             b, loc, outType.getDimSize(d)));
      host.sizes.push_back(size);
      total = arith::MulIOp::create(b, loc, total, size);
    }

    // i1 is accessed lane by lane anyway, so it does not narrow the vector
    // unless it is all there is.
    int64_t narrowest = vectorBytes;
    bool onlyI1 = true;
    for (Value operand : op->getOperands()) {
      Type element = getElementTypeOrSelf(operand.getType());
      if (element.isInteger(1))
        continue;
      onlyI1 = false;
      narrowest = std::min(narrowest, storageBytes(element));
    }
    if (onlyI1)
      narrowest = 1;
    Layout layout;
    layout.width = std::max<int64_t>(1, vectorBytes / narrowest);
    layout.blockSize = blockSize;
    // A CPU thread's vector is already four registers wide.
    layout.vectors = cpuThreads ? 1 : vectorsPerThread(op, layout.width);
    layout.skipsPastEnd = cpuThreads;
    layout.byteVectors = cpuThreads;
    layout.acrossRows =
        cpuThreads ? Layout::AcrossRows::EachVector
        : layout.vectors * rowLaneLoads(op, layout.width) <= kTwoRowLaneLoads
            ? Layout::AcrossRows::TwoRows
            : Layout::AcrossRows::Generic;

    // Broadcast inputs are indexed by multi-index: the host computes what
    // the threads share, the stride between a thread's vectors in the
    // radix of the sizes and the sizes' reciprocals.
    if (readsBroadcast(op)) {
      Value rest = arith::ConstantIndexOp::create(b, loc, layout.stride());
      host.strideDigits.resize(host.sizes.size());
      // A size of 0 launches no block; dividing by it would trap on the
      // host, so the digits divide by at least 1.
      Value oneIndex = arith::ConstantIndexOp::create(b, loc, 1);
      for (int64_t d = host.sizes.size() - 1; d > 0; --d) {
        Value size = arith::MaxUIOp::create(b, loc, host.sizes[d], oneIndex);
        host.strideDigits[d] = arith::RemUIOp::create(b, loc, rest, size);
        rest = arith::DivUIOp::create(b, loc, rest, size);
      }
      host.strideDigits[0] = rest;
      Value one = arith::ConstantFloatOp::create(b, loc, b.getF64Type(),
                                                 llvm::APFloat(1.0));
      // The outermost index is the quotient that is left: no division.
      host.reciprocals.push_back(nullptr);
      for (Value size : ArrayRef<Value>(host.sizes).drop_front())
        host.reciprocals.push_back(arith::DivFOp::create(
            b, loc, one,
            arith::UIToFPOp::create(
                b, loc, b.getF64Type(),
                arith::IndexCastUIOp::create(b, loc, b.getI64Type(), size))));
      Value oneF32 = arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                                    llvm::APFloat(1.0f));
      host.laneReciprocals.push_back(nullptr);
      for (Value size : ArrayRef<Value>(host.sizes).drop_front())
        host.laneReciprocals.push_back(
            getConstantIntValue(size)
                ? Value()
                : arith::DivFOp::create(
                      b, loc, oneF32,
                      arith::UIToFPOp::create(
                          b, loc, b.getF32Type(),
                          arith::IndexCastUIOp::create(b, loc, b.getI32Type(),
                                                       size))));
      if (cpuThreads)
        tileRows(b, loc, op, layout.width, total, host);
    }

    gpu::LaunchOp launch = launchOver(b, loc, total, layout.perBlock(), name,
                                      id, buffersOf(trafficOperands(op)));
    b.setInsertionPointToStart(&launch.getBody().front());
    KernelBuilder(op, b, host, total, layout)
        .emit(launch.getBlockIds().x, launch.getThreadIds().x);
    b.setInsertionPointToEnd(&launch.getBody().front());
    gpu::TerminatorOp::create(b, loc);
    op.erase();
  }
};

} // namespace
