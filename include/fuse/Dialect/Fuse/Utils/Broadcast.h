//===- Broadcast.h - numpy broadcasting of shapes -------------*- C++ -*-===//
//
// Shape rules shared by the verifiers, the lowering and the report. Sizes use
// mlir::ShapedType::kDynamic for `?`.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_DIALECT_FUSE_UTILS_BROADCAST_H
#define FUSE_DIALECT_FUSE_UTILS_BROADCAST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>

namespace fuse {

/// The first dimension at which two shapes cannot be broadcast: its index in
/// the broadcast result and the two sizes met there.
struct BroadcastConflict {
  unsigned resultDim = 0;
  int64_t lhsSize = 0;
  int64_t rhsSize = 0;
};

/// Broadcasts two shapes like numpy, aligning them from the right. A static 1
/// stretches to the other size. `?` against `?` gives `?` (assumed equal and
/// checked at run time); `?` against a static size N != 1 gives N (checked at
/// run time too). Returns std::nullopt on two different static sizes, neither
/// of them 1, and describes the conflict in `conflict` when given.
std::optional<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs,
                BroadcastConflict *conflict = nullptr);

/// True when `operand` is stretched along result dimension `resultDim` (the
/// operand lacks the dimension or has a static 1 where the result does not).
bool isBroadcastDim(llvm::ArrayRef<int64_t> operand,
                    llvm::ArrayRef<int64_t> result, unsigned resultDim);

} // namespace fuse

#endif // FUSE_DIALECT_FUSE_UTILS_BROADCAST_H
