//===- NameKernels.cpp - name kernels after their ops --------------------===//

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Transforms/Passes.h"

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
    : fuse::impl::FuseNameKernelsBase<FuseNameKernelsPass> {
  void runOnOperation() override {
    unsigned counter = 0;
    FuseDialect::OpsAttrHelper ops(&getContext());
    FuseDialect::KernelAttrHelper kernel(&getContext());
    getOperation().walk([&](linalg::GenericOp op) {
      ArrayAttr names = ops.getAttr(op);
      if (!names || names.empty())
        return;
      std::string name = names.size() > 1 ? "fused_" : "";
      for (size_t i = 0; i < std::min(names.size(), kMaxNamedOps); ++i)
        name += cast<StringAttr>(names[i]).getValue().str() + "_";
      if (names.size() > kMaxNamedOps)
        name += "plus" + std::to_string(names.size() - kMaxNamedOps) + "_";
      name += std::to_string(counter++);
      kernel.setAttr(op, StringAttr::get(&getContext(), name));
    });
  }
};

} // namespace
