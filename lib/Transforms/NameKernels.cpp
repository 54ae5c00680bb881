//===- NameKernels.cpp - name kernels after their ops --------------------===//

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/Utils/Kernel.h"
#include "fuse/Support/CheckedOptions.h"
#include "fuse/Transforms/Passes.h"

#include <limits>

namespace fuse {
#define GEN_PASS_DEF_FUSENAMEKERNELS
#include "fuse/Transforms/Passes.h.inc"
} // namespace fuse

using namespace mlir;
using namespace fuse;

namespace {

/// Ops listed in a kernel name before the rest is summarized as `plusN`.
constexpr size_t kMaxNamedOps = 5;

struct FuseNameKernelsPass
    : fuse::CheckedOptions<FuseNameKernelsPass, fuse::impl::FuseNameKernelsBase<
                                                    FuseNameKernelsPass>> {
  using CheckedOptions::CheckedOptions;

  /// What is wrong with the options, if anything (CheckedOptions).
  std::optional<std::string> optionProblem() const {
    if (first < 0)
      return "fuse-name-kernels: first=" + std::to_string(first) +
             " is negative; kernels are numbered from 0 or more";
    return std::nullopt;
  }

  void runOnOperation() override {
    if (refusesOptions())
      return;
    int64_t counter = first;
    bool overflowed = false;
    FuseDialect::OpsAttrHelper ops(&getContext());
    FuseDialect::KernelAttrHelper kernel(&getContext());
    getOperation().walk([&](Block *block) {
      auto named = [&](linalg::GenericOp op) { return !!ops.getAttr(op); };
      for (ArrayRef<linalg::GenericOp> members : kernelsOf(*block, named)) {
        // The ops of every member in order (a member that finishes a
        // reduction, a mean's division, has none of its own).
        SmallVector<StringRef> names;
        for (linalg::GenericOp op : members)
          for (Attribute name : ops.getAttr(op))
            names.push_back(cast<StringAttr>(name).getValue());
        // A generic that only finishes a reduction fusion put elsewhere
        // (none does today) still gets a name.
        if (names.empty())
          names.push_back("kernel");
        std::string name = names.size() > 1 ? "fused_" : "";
        for (size_t i = 0; i < std::min(names.size(), kMaxNamedOps); ++i)
          name += names[i].str() + "_";
        if (names.size() > kMaxNamedOps)
          name += "plus" + std::to_string(names.size() - kMaxNamedOps) + "_";
        if (counter == std::numeric_limits<int64_t>::max()) {
          getOperation().emitError("fuse-name-kernels: first=")
              << first.getValue() << " leaves no number for every kernel";
          overflowed = true;
          return;
        }
        name += std::to_string(counter++);
        for (linalg::GenericOp op : members)
          kernel.setAttr(op, StringAttr::get(&getContext(), name));
      }
    });
    if (overflowed)
      signalPassFailure();
  }
};

} // namespace
