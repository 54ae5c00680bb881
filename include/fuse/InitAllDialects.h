//===- InitAllDialects.h - register every dialect fuse uses ----*- C++ -*-===//

#ifndef FUSE_INITALLDIALECTS_H
#define FUSE_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace fuse {

/// Adds to `registry` the fuse dialect and the upstream dialects that fuse's
/// pipelines use (not every upstream dialect), with the external interface
/// models those pipelines need: bufferization, buffer deallocation, value
/// bounds, tiling, convert-to-llvm and the NVVM target, and the LLVM IR
/// translations (registerLLVMIRTranslations).
void registerAllDialects(mlir::DialectRegistry &registry);

/// Translations to LLVM IR of what the pipelines produce: builtin, LLVM,
/// NVVM and GPU (kernels and their launches).
void registerLLVMIRTranslations(mlir::DialectRegistry &registry);

} // namespace fuse

#endif // FUSE_INITALLDIALECTS_H
