//===- Report.h - kernels and bytes, fused vs eager -------------*- C++ -*-===//
//
// Compiles a fuse module to its fused and its eager kernels (without
// running anything) and counts, per kernel, the elements it iterates over
// and the bytes it reads and writes: each input once, each output once.
// Counts are polynomials in the function's dynamic sizes (`12*N`), exact
// numbers when every shape is static.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_REPORT_REPORT_H
#define FUSE_REPORT_REPORT_H

#include "fuse/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace fuse {

/// A polynomial with integer coefficients in the dynamic sizes (numbered
/// symbols) of a function.
struct SizeSymbol;

class SizeExpr {
public:
  SizeExpr() = default;
  static SizeExpr constant(int64_t value);
  static SizeExpr symbol(unsigned id);

  SizeExpr operator+(const SizeExpr &other) const;
  SizeExpr operator-(const SizeExpr &other) const;
  SizeExpr operator*(const SizeExpr &other) const;
  bool operator==(const SizeExpr &other) const {
    return terms == other.terms && overflowed == other.overflowed;
  }
  static constexpr llvm::StringLiteral kTooLarge = "more than 2^63";

  void collectSymbols(std::set<unsigned> &symbols) const;
  /// The value when no symbol occurs.
  std::optional<int64_t> asConstant() const;
  /// `other / this` when the two are proportional (e.g. 20*N vs 12*N).
  std::optional<double> ratioTo(const SizeExpr &other) const;
  /// `other / this` as the sizes grow: the ratio of their terms of the
  /// highest degree, when those are proportional (`16*M*N + 4*N` vs `8*M*N
  /// + 4*N`: 0.5); for proportional ones, ratioTo. Terms with a symbol of
  /// `bounded` (a count of pieces, which never grows past a constant) are
  /// left out: `32*N + 8*P` vs `44*N + 8*P` tends to 32/44.
  std::optional<double>
  leadingRatioTo(const SizeExpr &other,
                 const std::set<unsigned> &bounded = {}) const;
  /// E.g. `8*M*N + 4*N`; symbols are written with `names`.
  std::string str(llvm::ArrayRef<std::string> names) const;
  /// The JSON report's form: a number when no symbol occurs, else
  /// `{"terms": [{"coefficient": 8, "symbols": ["M", "N"]}, ...], "text":
  /// "8*M*N + 4*N"}`, the terms in the order of `str` (a symbol repeated
  /// for a power).
  /// One that overflows is `{"text": "more than 2^63", "too_large": true}`.
  /// A size with a symbol that `symbols` defines as pieces (SizeSymbol::
  /// Pieces) says so, to be evaluated alone: `"where": {"P": {"pieces_of":
  /// <the length>, "piece_length": 1024, "at_most": 4096}}`.
  llvm::json::Value toJSON(llvm::ArrayRef<std::string> names,
                           llvm::ArrayRef<SizeSymbol> symbols = {}) const;

private:
  /// The terms, highest degree first, then by symbol order.
  std::vector<std::pair<std::vector<unsigned>, int64_t>> orderedTerms() const;

  /// Adds `coefficient` to `monomial`'s, noting an overflow.
  void add(const std::vector<unsigned> &monomial, int64_t coefficient);

  /// Monomial (sorted symbol ids, repeated for powers) -> coefficient.
  std::map<std::vector<unsigned>, int64_t> terms;
  /// Whether a coefficient went past int64 (bytes of huge static shapes
  /// summed over many kernels): the expression prints as kTooLarge, has
  /// no constant value and no ratio.
  bool overflowed = false;
};

/// How a kernel with reductions takes its rows (RowForm).
struct RowsReport {
  SizeExpr count;
  /// Elements per row.
  SizeExpr length;
  /// Read kReductionLanes at a time (the CPU's vectors, a warp's lanes).
  bool lanes = false;
  /// A warp per row on the GPU (else a thread).
  bool warps = false;
  /// The first launch of a split kernel (RowForm::split): a warp (or
  /// thread) per piece of a row.
  bool pieces = false;
  /// Rows reduced in pieces in one launch (RowForm::pieces, not split).
  bool inPieces = false;
  /// The pieces of each row, when pieces or inPieces (RowForm::pieceCount):
  /// a constant, or for a dynamic length its symbol (SizeSymbol::pieces).
  SizeExpr pieceCount;
  /// A warp's row kept in registers (RowForm::registers), when it is at
  /// most registerLength elements (RowForm::registerLength).
  bool registers = false;
  int64_t registerLength = 0;
  /// A cpu thread takes kCPURowGroup rows at once (RowForm::cpuRowGroups).
  bool cpuGroups = false;

  /// "warp per row, in registers" (or "..., looped"), and how many in
  /// all when there are few rows.
  std::string gpu(llvm::ArrayRef<std::string> names) const;
  /// "thread per row, 32-lane vectors" or "..., element by element".
  std::string cpu(llvm::ArrayRef<std::string> names) const;
};

struct KernelReport {
  std::string name;
  std::vector<std::string> ops;
  /// The ops of the function that this kernel computes, as positions in
  /// its body (0 for the first op), in program order.
  std::vector<unsigned> opPositions;
  /// Of those, the ops whose values the kernel writes to memory (for a
  /// later kernel or as a result), sorted: a kernel may compute an op
  /// again without writing it.
  std::vector<unsigned> storedPositions;
  SizeExpr elements;
  SizeExpr bytesRead;
  SizeExpr bytesWritten;
  /// For a kernel with reductions.
  std::optional<RowsReport> rows;
  /// For the first launch of a split kernel (RowsReport::pieces): the
  /// position of each reduction and the bytes of the partial values it
  /// writes for the next kernel, which combines them.
  std::vector<std::pair<unsigned, SizeExpr>> partialBytes;
};

/// A result that no kernel writes (an argument returned as it is, or viewed,
/// a constant, a value returned twice): fuse-own-results copies it into a
/// buffer of its own, which the program reads and writes in full.
struct CopyReport {
  unsigned result;
  /// "argument 0", "a constant", "result 0 again".
  std::string source;
  /// The result it is a copy of (or of a view of), if any.
  std::optional<unsigned> ofResult;
  SizeExpr bytes;
};

struct VariantReport {
  std::vector<KernelReport> kernels;
  std::vector<CopyReport> copies;
  /// The kernels' bytes and the copies'.
  SizeExpr bytesRead() const;
  SizeExpr bytesWritten() const;
};

/// A dynamic size: dimension `dimension` of argument `argument`, or the
/// pieces of each row of a kernel that reduces rows of a dynamic length,
/// or a dynamic number of rows, in pieces, which the kernel counts at run
/// time (RowForm::pieceCount).
struct SizeSymbol {
  /// The pieces of each row of `length` elements: ceil(length /
  /// pieceLength) rounded up to a power of two, at most `atMost`
  /// (piecesOfLength); with `rows` (a dynamic number of them), at most
  /// `atMost` / `rows` rounded up to a power of two (rowPieces).
  struct Pieces {
    SizeExpr length;
    int64_t pieceLength;
    int64_t atMost;
    std::optional<SizeExpr> rows;
    bool operator==(const Pieces &other) const {
      return length == other.length && pieceLength == other.pieceLength &&
             atMost == other.atMost && rows == other.rows;
    }
  };
  std::string name;
  unsigned argument = 0;
  unsigned dimension = 0;
  std::optional<Pieces> pieces;
  /// "N = argument 0 dimension 1", or "P = pieces per row, N / 1024
  /// rounded up to a power of 2 (at most 4096)", or with rows "(at most
  /// 262144 / M, M rounded up to a power of 2)", symbols written with
  /// `names`.
  std::string describe(llvm::ArrayRef<std::string> names) const;
};

/// A producer/consumer pair that fusion left in different kernels, from the
/// remark of fuse-elementwise-fusion; ops are positions in the function's
/// body.
struct UnfusedPair {
  unsigned producer;
  unsigned consumer;
  /// The remark, e.g. "not fused with its producer 'fuse.sigmoid': ...".
  std::string message;
  /// Why, the part of the message after the producer's name.
  std::string reason;
};

/// What a size of an argument must be: `size` (its type's, or one that
/// the program asserts it equal to), else the value of the symbol
/// `symbol` names (an index into FunctionReport::names), else anything
/// (an argument that no kernel reads).
struct ArgumentDim {
  std::optional<int64_t> size;
  std::optional<unsigned> symbol;
};

struct FunctionReport {
  std::string name;
  /// The types of its arguments, as MLIR prints them (`tensor<?xf32>`).
  std::vector<std::string> arguments;
  /// The sizes that occur in the counts, named N, M, K, ...
  std::vector<SizeSymbol> symbols;
  /// What each argument's sizes must be for a run (the sizes that
  /// broadcasting asserts equal, ArgumentDim), by argument and dimension.
  std::vector<std::vector<ArgumentDim>> shapes;
  /// Symbol names indexed by symbol id, for SizeExpr::str.
  std::vector<std::string> names;
  VariantReport fused;
  VariantReport eager;
  /// The pairs that the fused variant leaves apart, in the fusion pass's
  /// order.
  std::vector<UnfusedPair> unfused;
};

/// Builds the report of every function of `module` (left unchanged).
/// Fusion options (horizontal) come from `options`; errors are emitted as
/// diagnostics.
mlir::FailureOr<std::vector<FunctionReport>>
buildReport(mlir::ModuleOp module, const PipelineOptions &options);

void printReport(llvm::ArrayRef<FunctionReport> reports, llvm::raw_ostream &os);

/// "2 kernels, 20*N bytes (read 12*N, written 8*N)", as the report says it.
std::string summarize(const VariantReport &variant,
                      llvm::ArrayRef<std::string> names);
/// "N elements, 12*N bytes (read 8*N, written 4*N)".
std::string summarize(const KernelReport &kernel,
                      llvm::ArrayRef<std::string> names);
/// "N = argument 0 dimension 0, M = argument 0 dimension 1"; empty when
/// every size is static.
std::string describeSizes(const FunctionReport &report);
llvm::json::Value reportToJSON(llvm::ArrayRef<FunctionReport> reports);

} // namespace fuse

#endif // FUSE_REPORT_REPORT_H
