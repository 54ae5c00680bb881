//===- Profile.h - the profiling hooks of compiled programs ----*- C++ -*-===//
//
// A program compiled to run (fuse-run, the C API) calls the runtime around
// each kernel launch and each copy of a result that no kernel writes, with
// the bytes it moves: the profile's rows (fuse/Execution/Profile.h).
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_UTILS_PROFILE_H
#define FUSE_DIALECT_FUSE_UTILS_PROFILE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace fuse {

/// `fuse_kernel_begin(id, bytes)` and `fuse_kernel_end(id)` bracket the
/// launch of kernel `id` (an index into the module's `fuse.kernels`);
/// `fuse_copy_begin(result, bytes)` and `fuse_copy_end(result)` the copy
/// of result `result` that fuse-own-results makes. All are i64.
inline constexpr llvm::StringLiteral kKernelBeginHook = "fuse_kernel_begin";
inline constexpr llvm::StringLiteral kKernelEndHook = "fuse_kernel_end";
inline constexpr llvm::StringLiteral kCopyBeginHook = "fuse_copy_begin";
inline constexpr llvm::StringLiteral kCopyEndHook = "fuse_copy_end";

/// `fuse_allocation(id)` comes right before a host allocation: it is the
/// allocation of the module's `fuse.allocations[id]` (fuse-name-allocations),
/// which an error of the allocation names. The id is an i64.
inline constexpr llvm::StringLiteral kAllocationHook = "fuse_allocation";

/// Declares the kernel hooks in `module`, unless they are declared.
void declareKernelHooks(mlir::ModuleOp module);
/// Declares the copy hooks in `module`, unless they are declared.
void declareCopyHooks(mlir::ModuleOp module);

/// The bytes of `buffers` (memrefs), each in full, as an i64 computed from
/// their sizes: what a kernel that reads or writes them moves.
mlir::Value bufferBytes(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::ArrayRef<mlir::Value> buffers);

} // namespace fuse

#endif // FUSE_DIALECT_FUSE_UTILS_PROFILE_H
