//===- Broadcast.cpp - numpy broadcasting of shapes ---------------------===//

#include "fuse/Dialect/Fuse/Utils/Broadcast.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"

using mlir::ShapedType;

std::optional<llvm::SmallVector<int64_t>>
fuse::broadcastShapes(llvm::ArrayRef<int64_t> lhs, llvm::ArrayRef<int64_t> rhs,
                      BroadcastConflict *conflict) {
  size_t rank = std::max(lhs.size(), rhs.size());
  llvm::SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Walk from the innermost dimension; a missing dimension acts as 1.
    size_t li = lhs.size() - 1 - i, ri = rhs.size() - 1 - i;
    int64_t l = i < lhs.size() ? lhs[li] : 1;
    int64_t r = i < rhs.size() ? rhs[ri] : 1;
    int64_t &out = result[rank - 1 - i];
    if (l == 1)
      out = r;
    else if (r == 1)
      out = l;
    else if (ShapedType::isDynamic(l))
      out = r;
    else if (ShapedType::isDynamic(r) || l == r)
      out = l;
    else {
      if (conflict)
        *conflict = {static_cast<unsigned>(rank - 1 - i), l, r};
      return std::nullopt;
    }
  }
  return result;
}

bool fuse::isBroadcastDim(llvm::ArrayRef<int64_t> operand,
                          llvm::ArrayRef<int64_t> result, unsigned resultDim) {
  size_t leading = result.size() - operand.size();
  if (resultDim < leading)
    return true;
  return operand[resultDim - leading] == 1 && result[resultDim] != 1;
}
