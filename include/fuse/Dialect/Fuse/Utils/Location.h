//===- Location.h - locations as compilers print them ----------*- C++ -*-===//

#ifndef FUSE_DIALECT_FUSE_UTILS_LOCATION_H
#define FUSE_DIALECT_FUSE_UTILS_LOCATION_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class raw_ostream;
class SourceMgr;
} // namespace llvm

#include <string>

namespace fuse {

/// `file:line:col` of a file location (through name locations); MLIR's own
/// form for any other location.
std::string formatLocation(mlir::Location loc);

/// `op at file:line:col`, as run-time errors name an op; `op` alone when
/// `loc` says no place.
std::string opAt(llvm::StringRef op, mlir::Location loc);

/// `@name`, a function as messages and reports name it: as MLIR writes a
/// symbol, quoted unless it is an identifier (`@"my fn"`), but with the
/// characters of other scripts as they are (`@"функция"`, not MLIR's
/// `@"\D1\84..."`); a quote, a backslash and a control character escaped
/// (`@"a\0A"`: a newline in it broke a report's lines).
std::string symbolText(llvm::StringRef name);

/// `d` and then each of its notes, one per line, as compilers print them:
/// "file:line:col: remark: message" (no location when it is unknown).
void printDiagnostic(llvm::raw_ostream &os, mlir::Diagnostic &d);

/// From now on for `context`'s whole life, prints each diagnostic that has
/// no place in a file to `os` as printDiagnostic does (`"fn": error: ...`,
/// where MLIR's handlers print `<unknown>:0: error: loc("fn"): ...`); the
/// others go on to the handlers registered before. For a tool whose context
/// and handlers MLIR's drivers own (fuse-opt's passes).
void printUnplacedDiagnostics(mlir::MLIRContext *context,
                              llvm::raw_ostream &os);

/// The most levels of brackets (`[`, `{`, `(`, `<`) that a program's text
/// may nest: MLIR's parser recurses at each level, and 8000 levels of `[`
/// overflowed a thread's 8 MB stack (a crash, in fuse-lsp-server too). A
/// fuse program nests a few.
inline constexpr unsigned kMaxNesting = 256;

/// Refuses the main buffer of `sourceMgr` when its brackets, outside string
/// literals and comments, nest deeper than kMaxNesting: an error at the
/// first bracket past it, through `context`'s diagnostics. Called before
/// MLIR's parser, which would overflow its stack.
mlir::LogicalResult checkNesting(const llvm::SourceMgr &sourceMgr,
                                 mlir::MLIRContext *context);

/// Prints the errors, warnings and notes emitted while it lives to `os` with
/// their source lines and carets, as fuse-opt prints them (a line longer than
/// a screenful is not echoed: a 200 KB line of brackets was); remarks go on
/// to the handler registered before it.
class SourceLineCapture : public mlir::SourceMgrDiagnosticHandler {
public:
  SourceLineCapture(llvm::SourceMgr &source, mlir::MLIRContext *context,
                    llvm::raw_ostream &os);
};

} // namespace fuse

#endif // FUSE_DIALECT_FUSE_UTILS_LOCATION_H
