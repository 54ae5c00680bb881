//===- CheckedOptions.h - passes that refuse bad options early --*- C++ -*-===//
//
// A pass whose options have a range says what is wrong with them once,
// in optionProblem(), and CheckedOptions refuses them where they are given:
// in a textual pipeline (an error of the pipeline's text, before anything
// runs: it came when the pass ran, at line 0, with the module printed) and
// when the pass runs (options set in C++).
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_SUPPORT_CHECKEDOPTIONS_H
#define FUSE_SUPPORT_CHECKEDOPTIONS_H

#include "mlir/Pass/Pass.h"

#include <optional>
#include <string>

namespace fuse {

/// Derive pass `PassT` from CheckedOptions<PassT, its generated base> and
/// give it `std::optional<std::string> optionProblem() const`; begin its
/// runOnOperation with `if (refusesOptions()) return;`.
template <typename PassT, typename BaseT> class CheckedOptions : public BaseT {
public:
  using BaseT::BaseT;

  mlir::LogicalResult
  initializeOptions(llvm::StringRef options,
                    llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)>
                        errorHandler) override {
    if (mlir::failed(BaseT::initializeOptions(options, errorHandler)))
      return mlir::failure();
    if (std::optional<std::string> problem = self().optionProblem())
      return errorHandler(*problem);
    return mlir::success();
  }

protected:
  /// Whether the options are refused: the error is emitted and the pass
  /// failed.
  bool refusesOptions() {
    std::optional<std::string> problem = self().optionProblem();
    if (!problem)
      return false;
    this->getOperation()->emitError(*problem);
    this->signalPassFailure();
    return true;
  }

private:
  const PassT &self() const { return static_cast<const PassT &>(*this); }
};

} // namespace fuse

#endif // FUSE_SUPPORT_CHECKEDOPTIONS_H
