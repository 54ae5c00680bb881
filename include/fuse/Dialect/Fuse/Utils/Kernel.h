//===- Kernel.h - what makes a generic an elementwise kernel ---*- C++ -*-===//

#ifndef FUSE_DIALECT_FUSE_UTILS_KERNEL_H
#define FUSE_DIALECT_FUSE_UTILS_KERNEL_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace fuse {

/// True for a generic that fusion and GPU mapping handle: every loop is
/// parallel, results are written at the identity position, each input is
/// read at the identity position or broadcast (a map result is a loop
/// dimension or the constant 0), the body is scalar arith/math without
/// linalg.index, and it never reads the initial value of its outputs.
bool isElementwiseKernel(mlir::linalg::GenericOp op);

} // namespace fuse

#endif // FUSE_DIALECT_FUSE_UTILS_KERNEL_H
