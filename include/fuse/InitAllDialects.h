//===- InitAllDialects.h - register every dialect fuse uses ----*- C++ -*-===//

#ifndef FUSE_INITALLDIALECTS_H
#define FUSE_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace fuse {

/// Adds the fuse dialect, every upstream dialect and their extensions
/// (bufferization and translation interfaces) to `registry`.
void registerAllDialects(mlir::DialectRegistry &registry);

} // namespace fuse

#endif // FUSE_INITALLDIALECTS_H
