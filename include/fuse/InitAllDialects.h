//===- InitAllDialects.h - register every dialect fuse uses ----*- C++ -*-===//

#ifndef FUSE_INITALLDIALECTS_H
#define FUSE_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace fuse {

/// Adds the fuse dialect, every upstream dialect and their extensions
/// (bufferization and translation interfaces) to `registry`.
/// The fuse dialect and the upstream dialects, interfaces and LLVM IR
/// translations that fuse's pipelines use.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Translations to LLVM IR of what the pipelines produce: builtin, LLVM,
/// NVVM and GPU (kernels and their launches).
void registerLLVMIRTranslations(mlir::DialectRegistry &registry);

} // namespace fuse

#endif // FUSE_INITALLDIALECTS_H
