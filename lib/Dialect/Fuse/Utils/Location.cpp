//===- Location.cpp - locations as compilers print them ------------------===//

#include "fuse/Dialect/Fuse/Utils/Location.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::string fuse::formatLocation(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  // A name with no place (`loc("x")`) is the name, as MLIR quotes it.
  if (auto name = dyn_cast<NameLoc>(loc))
    return isa<UnknownLoc>(name.getChildLoc())
               ? "\"" + name.getName().str() + "\""
               : formatLocation(name.getChildLoc());
  // The op's own place, as MLIR's diagnostics give it first.
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    return formatLocation(call.getCallee());
  // An op that fusion made of others (a one-value producer computed inside
  // its reader) is at the first: the op it replaced.
  if (auto fused = dyn_cast<FusedLoc>(loc))
    if (!fused.getLocations().empty())
      return formatLocation(fused.getLocations().front());
  if (auto opaque = dyn_cast<OpaqueLoc>(loc))
    return formatLocation(opaque.getFallbackLocation());
  std::string text;
  llvm::raw_string_ostream os(text);
  os << loc;
  return text;
}

std::string fuse::opAt(llvm::StringRef op, Location loc) {
  std::string place = formatLocation(loc);
  return place == "loc(unknown)" ? op.str() : op.str() + " at " + place;
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
