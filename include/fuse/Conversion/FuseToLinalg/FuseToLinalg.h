//===- FuseToLinalg.h - fuse to linalg conversion ---------------*- C++ -*-===//

#ifndef FUSE_CONVERSION_FUSETOLINALG_FUSETOLINALG_H
#define FUSE_CONVERSION_FUSETOLINALG_FUSETOLINALG_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace fuse {

/// Where the dynamic sizes of fuse values come from: one SSA index value
/// per size, created by the pass before the patterns run.
class DynamicSizes {
public:
  virtual ~DynamicSizes() = default;
  /// The dynamic sizes of `value` in order, one per `?` in its type.
  virtual llvm::SmallVector<mlir::Value> get(mlir::Value value) const = 0;
  /// The dynamic sizes of the operand of reduction `op`, in order, as
  /// values that `op` may use.
  virtual llvm::SmallVector<mlir::Value>
  reducedOperandSizes(mlir::Operation *op) const = 0;
};

/// Patterns lowering every fuse op to one linalg.generic (constants to
/// arith.constant); a reduction that divides (mean) or rounds (f16, bf16)
/// after it reduces becomes two, one kernel (`fuse.group`) numbered from
/// `nextGroup`. `sizes` and `nextGroup` must outlive the patterns.
void populateFuseToLinalgConversionPatterns(mlir::RewritePatternSet &patterns,
                                            const DynamicSizes &sizes,
                                            int64_t &nextGroup);

} // namespace fuse

#endif // FUSE_CONVERSION_FUSETOLINALG_FUSETOLINALG_H
