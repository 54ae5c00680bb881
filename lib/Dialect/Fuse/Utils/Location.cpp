//===- Location.cpp - locations as compilers print them ------------------===//

#include "fuse/Dialect/Fuse/Utils/Location.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// The file place that `loc` holds, if any: through names, a call site's
/// callee then its caller, the first of a fused location's that has one
/// (an op that fusion made of others is at the op it replaced), an opaque
/// location's fallback.
static std::optional<FileLineColLoc> filePlace(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return file;
  if (auto name = dyn_cast<NameLoc>(loc))
    return filePlace(name.getChildLoc());
  if (auto call = dyn_cast<CallSiteLoc>(loc)) {
    if (std::optional<FileLineColLoc> callee = filePlace(call.getCallee()))
      return callee;
    return filePlace(call.getCaller());
  }
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location part : fused.getLocations())
      if (std::optional<FileLineColLoc> file = filePlace(part))
        return file;
  if (auto opaque = dyn_cast<OpaqueLoc>(loc))
    return filePlace(opaque.getFallbackLocation());
  return std::nullopt;
}

std::string fuse::formatLocation(Location loc) {
  if (std::optional<FileLineColLoc> file = filePlace(loc))
    return (file->getFilename().getValue() + ":" + Twine(file->getLine()) +
            ":" + Twine(file->getColumn()))
        .str();
  std::string text;
  llvm::raw_string_ostream os(text);
  // A name with no place (`loc("x")`) is the name, as MLIR quotes it.
  if (auto name = dyn_cast<NameLoc>(loc)) {
    os << "\"";
    llvm::printEscapedString(name.getName().getValue(), os);
    os << "\"";
    return text;
  }
  os << loc;
  return text;
}

std::string fuse::opAt(llvm::StringRef op, Location loc) {
  return isa<UnknownLoc>(loc) ? op.str()
                              : op.str() + " at " + formatLocation(loc);
}

std::string fuse::symbolText(llvm::StringRef name) {
  bool bare = !name.empty() && (llvm::isAlpha(name[0]) || name[0] == '_') &&
              llvm::all_of(name, [](char c) {
                return llvm::isAlnum(c) || llvm::is_contained("_$.-", c);
              });
  if (bare)
    return ("@" + name).str();
  std::string text = "@\"";
  for (unsigned char c : name) {
    if (c == '"' || c == '\\' || c < 0x20 || c == 0x7f) {
      text += '\\';
      text += llvm::hexdigit(c >> 4);
      text += llvm::hexdigit(c & 15);
    } else {
      text += c;
    }
  }
  return text + "\"";
}

void fuse::printDiagnostic(llvm::raw_ostream &os, Diagnostic &d) {
  auto printOne = [&](Diagnostic &one) {
    if (!isa<UnknownLoc>(one.getLocation()))
      os << formatLocation(one.getLocation()) << ": ";
    switch (one.getSeverity()) {
    case DiagnosticSeverity::Error:
      os << "error: ";
      break;
    case DiagnosticSeverity::Warning:
      os << "warning: ";
      break;
    case DiagnosticSeverity::Note:
      os << "note: ";
      break;
    case DiagnosticSeverity::Remark:
      os << "remark: ";
      break;
    }
    os << one << "\n";
  };
  printOne(d);
  for (Diagnostic &note : d.getNotes())
    printOne(note);
}

/// The longest source line that a diagnostic echoes.
static constexpr size_t kMaxEchoedLine = 500;

/// The length of `place`'s line in `sourceMgr`'s buffer of its file; 0 when
/// the buffer or the line is not there.
static size_t lineLength(llvm::SourceMgr &sourceMgr, FileLineColLoc place) {
  for (unsigned id = 1; id <= sourceMgr.getNumBuffers(); ++id) {
    const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(id);
    if (buffer->getBufferIdentifier() != place.getFilename().getValue())
      continue;
    llvm::SMLoc start =
        sourceMgr.FindLocForLineAndColumn(id, place.getLine(), 1);
    if (!start.isValid())
      return 0;
    llvm::StringRef rest = buffer->getBuffer().drop_front(
        start.getPointer() - buffer->getBufferStart());
    return rest.take_until([](char c) { return c == '\n'; }).size();
  }
  return 0;
}

fuse::SourceLineCapture::SourceLineCapture(llvm::SourceMgr &source,
                                           MLIRContext *context,
                                           llvm::raw_ostream &os)
    : SourceMgrDiagnosticHandler(source, context, os) {
  setHandler([this](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Remark)
      return failure();
    // The parser's advice names a flag of MLIR's tools that fuse-run and
    // the C API do not have.
    if (llvm::StringRef(diag.str())
            .starts_with(
                "operation being parsed with an unregistered dialect")) {
      emitDiagnostic(diag.getLocation(),
                     "an op of a dialect that fuse does not know: fuse "
                     "compiles functions made of fuse ops and func.return",
                     DiagnosticSeverity::Error);
      return success();
    }
    // At no place in a file, `error: ...` or `"name": error: ...` (the
    // handler's is `<unknown>:0: error: loc("name"): ...`); at a line too
    // long to echo, `file:line:col: error: ...` alone.
    std::optional<FileLineColLoc> place = filePlace(diag.getLocation());
    if (!place || lineLength(mgr, *place) > kMaxEchoedLine)
      printDiagnostic(this->os, diag);
    else
      emitDiagnostic(diag);
    return success();
  });
}

void fuse::printUnplacedDiagnostics(MLIRContext *context,
                                    llvm::raw_ostream &os) {
  context->getDiagEngine().registerHandler([&os](Diagnostic &diag) {
    if (filePlace(diag.getLocation()))
      return failure();
    printDiagnostic(os, diag);
    return success();
  });
}

LogicalResult fuse::checkNesting(const llvm::SourceMgr &sourceMgr,
                                 MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  llvm::StringRef text = buffer->getBuffer();
  unsigned depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '/' && text.substr(i).starts_with("//")) {
      i = std::min(text.find('\n', i), text.size());
      continue;
    }
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      continue;
    }
    if (c == '[' || c == '{' || c == '(' || c == '<') {
      if (++depth <= kMaxNesting)
        continue;
      auto [line, column] = sourceMgr.getLineAndColumn(
          llvm::SMLoc::getFromPointer(text.data() + i),
          sourceMgr.getMainFileID());
      return emitError(FileLineColLoc::get(
                 context, buffer->getBufferIdentifier(), line, column))
             << "brackets nested more than " << kMaxNesting
             << " levels deep ('[', '{', '(' and '<'): MLIR's parser recurses "
                "at each level, and a deeper text could overflow its stack; "
                "a fuse program nests a few";
    }
    // `->` is an arrow, not a bracket.
    if ((c == ']' || c == '}' || c == ')' ||
         (c == '>' && i && text[i - 1] != '-')) &&
        depth)
      --depth;
  }
  return success();
}
