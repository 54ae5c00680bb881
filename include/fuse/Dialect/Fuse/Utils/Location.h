//===- Location.h - locations as compilers print them ----------*- C++ -*-===//

#ifndef FUSE_DIALECT_FUSE_UTILS_LOCATION_H
#define FUSE_DIALECT_FUSE_UTILS_LOCATION_H

#include "mlir/IR/Location.h"

#include <string>

namespace fuse {

/// `file:line:col` of a file location (through name locations); MLIR's own
/// form for any other location.
std::string formatLocation(mlir::Location loc);

} // namespace fuse

#endif // FUSE_DIALECT_FUSE_UTILS_LOCATION_H
