//===- FuzzerUtils.h - what the fuzz targets share --------------*- C++ -*-===//

#ifndef FUSE_FUZZ_FUZZERUTILS_H
#define FUSE_FUZZ_FUZZERUTILS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace fuse::fuzz {

/// Every dialect fuse-opt knows, built once.
const mlir::DialectRegistry &registry();

/// Parses and verifies `size` bytes as a module; diagnostics are dropped.
mlir::OwningOpRef<mlir::ModuleOp> parse(mlir::MLIRContext &context,
                                        const uint8_t *data, size_t size);

/// `module` as text, in the custom or the generic form.
std::string print(mlir::ModuleOp module, bool generic = false);

/// Reports a broken invariant with the program that broke it and aborts, so
/// that libFuzzer saves the input.
[[noreturn]] void fail(llvm::StringRef what, llvm::StringRef program);

} // namespace fuse::fuzz

#endif // FUSE_FUZZ_FUZZERUTILS_H
