//===- Kernel.h - what makes a generic an elementwise kernel ---*- C++ -*-===//

#ifndef FUSE_DIALECT_FUSE_UTILS_KERNEL_H
#define FUSE_DIALECT_FUSE_UTILS_KERNEL_H

#include "fuse/Support/DTypes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace fuse {

/// True for a generic that fusion and GPU mapping handle: every loop is
/// parallel, results are written at the identity position, each input is
/// read at the identity position or broadcast (a map result is a loop
/// dimension or the constant 0), the body is scalar arith/math without
/// linalg.index, and it never reads the initial value of its outputs.
bool isElementwiseKernel(mlir::linalg::GenericOp op);

/// The alignment a kernel assumes of its vector accesses at most: every
/// buffer is allocated 16-byte aligned (the CUDA driver's allocations, the
/// runtime's host cache, numpy's arrays of more than one element), so a
/// wider vector is read with 16-byte-aligned accesses.
inline constexpr int64_t kMaxVectorAlignment = 16;

/// What fusion lets one kernel's buffers (inputs read from outside and
/// results used outside) take of its parameters. A GPU kernel takes a
/// buffer as a memref descriptor: 5 words (40 bytes) for one that an
/// elementwise kernel reads or writes at its own position (a 1-D view), 3 +
/// 2 x rank words for one read through a broadcast or by a kernel with
/// reductions. PTX before ISA 8.1 allows 4352 bytes of parameters (ptxas
/// refuses more): 64 buffers of 40 bytes take 2560, leaving room for the
/// loop sizes and divisors of broadcast indexing (two words per dimension).
inline constexpr unsigned kMaxKernelBuffers = 64;
inline constexpr unsigned kBufferParamBytes = 40;
inline constexpr unsigned kMaxKernelParamBytes =
    kMaxKernelBuffers * kBufferParamBytes;

/// The parameter bytes of the buffers of one kernel made of `ops` (generics
/// on tensors): the values they read that none of them produces, and their
/// results that an op outside reads, as above; `rows`: a kernel with
/// reductions, whose buffers keep their rank. What kMaxKernelParamBytes
/// bounds.
unsigned kernelParamBytes(llvm::ArrayRef<mlir::Operation *> ops, bool rows);

/// Why a fusion pass left two generics apart when the kernel's buffers
/// would take more than kMaxKernelParamBytes (the end of its remark).
std::string tooManyBuffersReason();

/// The DType of an MLIR element type, if it is one of fuse's (its spelling
/// is one of DTypes.def's): what fuse-check-program accepts and the runner
/// runs.
std::optional<DType> fromMLIRType(mlir::Type type);

/// Bytes one element of `type` (or of its element type, for a shaped type)
/// occupies in memory; i1 is stored as a byte.
int64_t storageBytes(mlir::Type type);

/// The operands of a kernel whose bytes one run of it moves, each counted
/// once in full: every distinct input that no earlier member of the kernel
/// wrote (read once, however often the bodies use it) and every output
/// that `isLiveOut` says is used after the kernel (written once, also when
/// it overwrites an input in place). A kernel is one generic or the
/// generics of a `fuse.group` in program order, whose values passed from
/// one to the next stay on chip. The report's bytes and the profile's
/// (fuse-map-to-gpu's `bytes` of each launch) both follow it.
llvm::SmallVector<mlir::OpOperand *>
trafficOperands(llvm::ArrayRef<mlir::linalg::GenericOp> members,
                llvm::function_ref<bool(mlir::OpOperand &)> isLiveOut);

/// trafficOperands of a kernel of one generic, every output used after it.
llvm::SmallVector<mlir::OpOperand *>
trafficOperands(mlir::linalg::GenericOp op);

/// The fuse ops a generic computes, as remarks name a producer:
/// `'fuse.add+relu'`, or `linalg.generic` for one that came from none.
std::string describeOps(mlir::linalg::GenericOp op);

/// The identity of a reduction's combining op `combiner` (arith.addf,
/// addi, maximumf, minimumf, maxsi, minsi) in `type`, what an accumulator
/// starts from: -0.0 or 0 for a sum (x + -0.0 is x, -0.0 included), -inf or
/// the smallest integer for max, +inf or the largest for min; null for any
/// other op.
mlir::TypedAttr combinerIdentity(mlir::OperationName combiner, mlir::Type type);

/// The lanes that take a row of a kernel with reductions apart, whatever
/// the host's vectors and the element types: a GPU warp's threads, or the
/// CPU target's partial accumulators (32 f32 lanes are two AVX-512
/// registers or four AVX2 ones). Lane i takes elements i, i + 32, ... of
/// the row (a float sum's in blocks: kBlockLevels); the lanes are combined
/// pairwise, 16 apart, then 8, ...
inline constexpr int64_t kReductionLanes = 32;

/// The levels of blocks that a float sum's lanes take a row in: blocks of
/// blockLength(1) = 1024 elements from the start of the row (or of the
/// piece), 32 of them a block of the next level (32768), 32 of those one
/// of the last (1048576). Each lane sums its 32 elements of a block of
/// 1024 from the identity, in increasing order; the values of the blocks
/// of a block of the next level likewise, and so on, the last level's
/// into the lane's partial. A lane's sums then take at most 32 additions
/// in a row at each level and n / 1048576 at the last, not n / 32: for two
/// rows of 5e6 elements of 0.1 summed in a `? x ?` program, the error of
/// the mean went from 20114 ulp to 10 (docs/accuracy.md). Rows of at most 1024
/// elements are summed as one block, from the identity, the same bits.
inline constexpr int64_t kBlockLevels = 3;

/// The elements of a block of level `level` (kBlockLevels): 32^(level + 1).
inline constexpr int64_t blockLength(int64_t level) {
  return kReductionLanes << (5 * level);
}
static_assert(blockLength(1) == 1024 && blockLength(3) == 1048576);

/// The rows a cpu target thread takes at once when a kernel's rows are not
/// read in lanes (RowForm::lanes false: columns, a middle dimension), when
/// there are not fewer: their reductions step through the rows together,
/// one element of each at a time (each row's order unchanged), which
/// LLVM's SLP vectorizer makes vector code over neighbouring rows.
inline constexpr int64_t kCPURowGroup = kReductionLanes;

/// The op of a reduction generic (one output) that combines its
/// accumulator with an element: the yielded value, one of the ops that
/// combinerIdentity knows, applied to the accumulator; null otherwise.
mlir::Operation *reductionCombiner(mlir::linalg::GenericOp op);

/// The elements of its rows a warp keeps in registers (RowForm::registers):
/// 32 per lane, shared by the inputs that the passes read again
/// (RowForm::registerLength). On an H200, rows of 1024 in registers were
/// 1.2x faster than rows of 512 in registers and 1024 looped (softmax,
/// layer norm, RMS norm, log-softmax: bench/RESULTS.md, Dec 4).
inline constexpr int64_t kRowInRegisters = 1024;

/// The 32-bit registers that an element of `type` (a tensor's, or a scalar)
/// takes: 2 for 64 bits, else 1.
int64_t registersPerElement(mlir::Type type);

/// How fuse-map-to-gpu takes the rows of a kernel with reductions; the
/// report says it. A row is the kernel's reduced loops at one point of its
/// kept ones.
struct RowForm {
  /// The kernel's loops (those of its reductions), outermost first.
  llvm::SmallVector<int64_t> kept, reduced;
  /// The rows are read kReductionLanes at a time (CPU vectors, GPU warp
  /// lanes): one reduced loop, the innermost; every access along it
  /// contiguous or the same for the whole row; every reduction a known
  /// combination. Else one element at a time. What the generics around a
  /// reduction are never decides it: the order of a sum would differ
  /// between its fused and eager kernels.
  bool lanes = false;
  /// On the GPU, a warp owns each row (else a thread): lanes, every
  /// accumulator of 32 or 64 bits (a shuffle moves 32; one of 64 bits is
  /// two), and blocks of whole warps. A thread per row with 32-lane vectors
  /// took 140 to 255 registers for 64-bit rows (an f64 sum spilled 900
  /// bytes, an i64 pow beside a reduction made 500 KB of PTX).
  bool warps = false;
  /// The number of rows, when it is a constant.
  std::optional<int64_t> rows;
  /// The length of a row, when it is a constant (one reduced loop).
  std::optional<int64_t> length;
  /// On the GPU, a warp keeps its row in registers (warps, not in pieces):
  /// each lane reads its elements of every input along the row once, and
  /// every pass over the row (each reduction, each member stored over the
  /// row) uses them, the passes unrolled. For rows of at most
  /// registerLength() elements: a constant length, or, for a dynamic one,
  /// chosen at run time. Longer rows loop over the row in each pass,
  /// reading it again (from the caches, mostly).
  bool registers = false;
  /// The inputs along the row that the reductions read (directly or
  /// through members), each (buffer, indexing map) once: what a warp keeps
  /// in registers between the passes, counted in 32-bit registers per
  /// element (registersPerElement: an f64 input counts twice). Inputs that
  /// only the members stored over the row read are read in the last pass
  /// alone.
  int64_t rowInputs = 1;
  /// The reductions among the members (each one partial buffer of a split
  /// kernel's pieces), counted as rowInputs.
  int64_t reductions = 1;
  /// The longest row kept in registers when `inputs` inputs are held:
  /// kRowInRegisters shared by them, whole warps of elements.
  static int64_t registerLengthFor(int64_t inputs) {
    return std::max<int64_t>(kReductionLanes,
                             kRowInRegisters / std::max<int64_t>(1, inputs) /
                                 kReductionLanes * kReductionLanes);
  }
  int64_t registerLength() const { return registerLengthFor(rowInputs); }
  /// The second launch of a split kernel keeps each reduction's pieces.
  int64_t piecesRegisterLength() const { return registerLengthFor(reductions); }
  /// The order of a reduction over one loop that reducesInPieces (a full
  /// reduction of a vector, a sum over the rows of a 3 x N matrix, over the
  /// columns of an N x 4 or an N x M one): each row is cut into pieceCount
  /// pieces of ceil(length / pieceCount) elements, each piece reduced from
  /// the identity as a row, and the pieceCount values reduced as a row of
  /// that length (in lanes when the rows are), then combined with the
  /// initial value. It depends on the reduction alone (its rows), so that
  /// fused and eager kernels agree.
  bool pieces = false;
  /// The pieces of each row (rowPieces), when pieces: for a dynamic length
  /// or number of rows, the most, and the kernel counts them at run time by
  /// the same rule (the report's symbol for them, SizeSymbol::Pieces).
  int64_t pieceCount = 0;
  /// Whether pieceCount is the count itself, not the most.
  bool constantPieces() const { return length && rows; }
  /// Whether the launch that reduces the pieces' values of a split kernel
  /// keeps each row of them in registers (as `registers`), else loops: for
  /// a count known at run time only, when it is at most
  /// piecesRegisterLength().
  bool piecesInRegisters() const {
    return warps && (!length || pieceCount <= piecesRegisterLength());
  }
  /// Pieces in two launches: the first gives each piece a warp (or thread)
  /// of its own and stores the pieces' values; the second reduces them
  /// and runs the members over the rows. When no member over the whole
  /// space reads a reduction's value or is used after the kernel (else the
  /// pieces are one launch, a warp or thread per row): a full reduction
  /// takes the whole GPU.
  bool split = false;

  /// Whether a cpu target thread takes kCPURowGroup rows at once (all of
  /// them when there are fewer, a constant count): rows not read in lanes,
  /// not the pieces of one launch (a thread per row going over its pieces).
  bool cpuRowGroups() const { return !lanes && (!pieces || split); }
};

/// Fewer rows than an H100's or H200's 132 SMs would leave SMs without
/// work, a warp or thread per row.
inline constexpr int64_t kFewRows = 132;

/// The pieces of all rows of a kernel reduced in pieces (RowForm::pieces,
/// rowPieces) whose rows are read in lanes: 4096 warps (131072 threads)
/// for a full reduction.
inline constexpr int64_t kRowPieces = 4096;

/// The pieces of all rows of a kernel reduced in pieces whose rows are not
/// read in lanes (columns: a thread per piece): about as many threads as
/// an H200 keeps resident (132 SMs x 2048). On an H200, the column sums,
/// softmaxes and batch norm of bench/gpu_programs at 1e8 elements took
/// 3-21% less time with 262144 than with 131072, 2-21% more with 524288
/// and up to 60% more with 1048576 (more partial values; bench/RESULTS.md,
/// Dec 4).
inline constexpr int64_t kStridedPieces = 262144;

/// The longest row of a constant length that a reduction over few rows
/// read in lanes still gives one warp: 32 elements per lane, about as long
/// as a second launch takes to start.
inline constexpr int64_t kShortRow = 1024;

/// The longest row of a constant length not read in lanes that a thread
/// takes alone, and the length of its pieces: as many elements as a lane
/// takes of a warp's kShortRow. On an H200, the same programs at 1e6
/// elements (976 x 1024, 1024 x 976) took 2.4-3.8x less time than with
/// pieces of kShortRow, and about as long as with pieces of 128
/// (bench/RESULTS.md, Dec 4).
inline constexpr int64_t kShortColumn = kShortRow / kReductionLanes;

/// The pieces that the rows of a kernel share: kRowPieces for rows read
/// in lanes, else kStridedPieces.
inline int64_t pieceShare(bool lanes) {
  return lanes ? kRowPieces : kStridedPieces;
}

/// The longest row without pieces, and the length of a piece: kShortRow for
/// rows read in lanes, else kShortColumn.
inline int64_t pieceLength(bool lanes) {
  return lanes ? kShortRow : kShortColumn;
}

/// The pieces of each row of `length` elements (`lanes` as RowForm::lanes)
/// when `atMost` rows' pieces may be: the power of two that gives pieces
/// of about pieceLength elements, ceil(length / pieceLength) rounded up (1
/// for rows up to 1024 elements read in lanes, 2 for 2048, 4 for 2049), at
/// most `atMost`. More pieces would only write and read more partial
/// values. A kernel over rows of a dynamic length computes it at run time
/// (fuse-map-to-gpu), the report names it (SizeSymbol::Pieces).
inline int64_t piecesOfLength(int64_t length, int64_t atMost, bool lanes) {
  int64_t pieces = 1;
  while (pieces < atMost && pieces * pieceLength(lanes) < length)
    pieces *= 2;
  return pieces;
}

/// The pieces of each of `rows` rows of `length` elements (nullopt: a
/// dynamic length, the most) reduced in pieces (RowForm::pieces): the
/// pieceShare shared by the rows, `share / r` with `r` the rows rounded up
/// to a power of two (from 4096 for one row read in lanes to 16 for 131),
/// for a length no more than piecesOfLength gives. For a power of two `p`,
/// `p <= share / r` is `p * rows <= share`: how a kernel with a dynamic
/// number of rows counts them at run time.
inline int64_t rowPieces(int64_t rows, std::optional<int64_t> length,
                         bool lanes) {
  int64_t pieces = pieceShare(lanes) /
                   static_cast<int64_t>(llvm::PowerOf2Ceil(
                       static_cast<uint64_t>(std::max<int64_t>(rows, 1))));
  return length ? piecesOfLength(*length, pieces, lanes) : pieces;
}

/// Whether a reduction over one loop with `rows` rows (nullopt: a dynamic
/// number) of `length` elements (nullopt: a dynamic length), `lanes` as
/// RowForm::lanes, is reduced in pieces (RowForm::pieces): not short rows
/// (a constant length up to pieceLength);
/// rows read in lanes when they are few (a constant below kFewRows);
/// other rows (columns, a thread each) when they could have two pieces
/// each: a dynamic number, or at most half of kStridedPieces.
inline bool reducesInPieces(std::optional<int64_t> rows,
                            std::optional<int64_t> length, bool lanes) {
  if (length && *length <= pieceLength(lanes))
    return false;
  if (lanes)
    return rows && *rows < kFewRows;
  return !rows || rowPieces(*rows, std::nullopt, lanes) > 1;
}

/// The RowForm of the kernel of `members` (in program order) launched in
/// blocks of `blockSize` threads, whose outputs `isLiveOut` are used after
/// it; nullopt when no member is a reduction.
std::optional<RowForm>
rowFormOf(llvm::ArrayRef<mlir::linalg::GenericOp> members, int64_t blockSize,
          llvm::function_ref<bool(mlir::OpOperand &)> isLiveOut);

/// Whether `op`, a member of a kernel with reductions, computes values of
/// the rows with the reduced loops `reduced` kept: its outputs span all of
/// its loops and have size 1 there (`var + eps` over `tensor<?x1xf32>`);
/// false for a reduction.
bool keepsRows(mlir::linalg::GenericOp op, llvm::ArrayRef<int64_t> reduced);

/// Whether `op`, a member of a kernel with reductions of form `form`,
/// iterates over the whole space, rows included: a reduction, or a member
/// over all of the kernel's loops that does not keep the rows (keepsRows).
/// The other members compute values of the rows.
bool overWholeSpace(mlir::linalg::GenericOp op, const RowForm &form);

/// A fusion pass's remark about a producer/consumer pair it left apart:
/// `message` at `consumer`, and a note "producer is here" at `producer`.
void emitUnfusedRemark(mlir::Location consumer, mlir::Location producer,
                       llvm::StringRef message);

/// A fusion pass's remarks about the pairs it left apart, emitted together
/// (emit): each once (two generics of one op, a copy and its original, may
/// give one pair twice), in the order of their consumers in the source,
/// which is not the order in which the pass meets them.
class UnfusedRemarks {
public:
  void add(mlir::Location consumer, mlir::Location producer,
           std::string message);
  /// Emits the remarks added (emitUnfusedRemark) and forgets them.
  void emit();

private:
  struct Remark {
    mlir::Location consumer, producer;
    std::string message;
  };
  llvm::SmallVector<Remark> remarks;
};

/// For each loop of `op`, an operand whose indexing map spans it and the
/// position in the operand's shape, or a null operand for a loop that none
/// spans. `outputsFirst`: outputs before inputs (on tensors, an elementwise
/// generic's output is the tensor.empty of its iteration space); else
/// inputs first (on buffers, what the kernel reads anyway, not a buffer
/// that a kernel with reductions may keep in registers).
llvm::SmallVector<std::pair<mlir::OpOperand *, unsigned>>
loopSources(mlir::linalg::GenericOp op, bool outputsFirst);

/// The `fuse.group` of `op`, if it is a part of a kernel of several
/// generics.
std::optional<int64_t> kernelGroup(mlir::Operation *op);

/// The kernels of `block` in program order: each generic that is one, and
/// the generics of each `fuse.group` (adjacent in the block), for every
/// generic that `include` accepts.
llvm::SmallVector<llvm::SmallVector<mlir::linalg::GenericOp>>
kernelsOf(mlir::Block &block,
          llvm::function_ref<bool(mlir::linalg::GenericOp)> include);

/// True for the math functions that are not correctly rounded (exp, expm1,
/// log, log1p, powf, sin, cos, tanh, erf): each target computes them its
/// own way (fuse-math-to-libm on the CPU, libdevice on the GPU), so the
/// value of one on a constant belongs to the target, and only the target's
/// code may compute it. Nothing folds them at compile time (fuse-canonicalize).
bool isTargetMath(mlir::Operation *op);

/// The runtime function that the cpu target calls for the allocation of a
/// function's result (`fuse.result`, see fuse-result-allocs) instead of
/// malloc: `void *fuse_result_alloc(int64_t index, int64_t bytes)`, which
/// returns the caller's buffer for the result when it gave one (`out=`).
inline constexpr llvm::StringLiteral kResultAllocFunction = "fuse_result_alloc";

/// Dimension `k` of `tensor` and those that a cf.assert of an arith.cmpi eq
/// of their tensor.dim says are equal to it, and those equal to them (the
/// sizes that broadcasting assumed equal: convert-fuse-to-linalg checks
/// them before any kernel runs): the function's arguments first, in their
/// order, then the others. The first is the size that fusion and the
/// report take for all of them: a reduction of `y` and the ops over
/// `y - max(y) + x` go over one space whichever of `x` and `y` comes first
/// among the arguments.
llvm::SmallVector<std::pair<mlir::Value, int64_t>> equalDims(mlir::Value tensor,
                                                             int64_t k);

/// The values that a cf.assert of an arith.cmpi eq says equal to dimension
/// `k` of `tensor` (read by a tensor.dim): other sizes, and constants (a
/// `?` that broadcasting takes for a static size).
llvm::SmallVector<mlir::Value> assertedEqual(mlir::Value tensor, int64_t k);

/// `lhs * rhs` of two sizes (index): a constant when both are, the other
/// one when one is 1, else an arith.muli.
mlir::OpFoldResult multiplySizes(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::OpFoldResult lhs,
                                 mlir::OpFoldResult rhs);

} // namespace fuse

#endif // FUSE_DIALECT_FUSE_UTILS_KERNEL_H
