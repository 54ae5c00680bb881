//===- FuzzerUtils.cpp - what the fuzz targets share ----------------------===//

#include "FuzzerUtils.h"

#include "fuse/InitAllDialects.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

const DialectRegistry &fuse::fuzz::registry() {
  static const DialectRegistry *registry = [] {
    auto *result = new DialectRegistry();
    fuse::registerAllDialects(*result);
    return result;
  }();
  return *registry;
}

OwningOpRef<ModuleOp> fuse::fuzz::parse(MLIRContext &context,
                                        const uint8_t *data, size_t size) {
  ScopedDiagnosticHandler drop(&context,
                               [](Diagnostic &) { return success(); });
  // The lexer relies on a NUL after the text, as the tools' input files
  // have (std::string provides it).
  std::string text(reinterpret_cast<const char *>(data), size);
  return parseSourceString<ModuleOp>(text, &context, "fuzz-input");
}

std::string fuse::fuzz::print(ModuleOp module, bool generic) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().printGenericOpForm(generic));
  return text;
}

void fuse::fuzz::fail(llvm::StringRef what, llvm::StringRef program) {
  llvm::errs() << "fuzz: " << what << ":\n" << program << "\n";
  abort();
}
