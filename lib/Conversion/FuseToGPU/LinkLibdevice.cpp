//===- LinkLibdevice.cpp - link libdevice where kernels call it -----------===//

#include "fuse/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace fuse {
#define GEN_PASS_DEF_FUSELINKLIBDEVICE
#include "fuse/Conversion/Passes.h.inc"
} // namespace fuse

using namespace mlir;

namespace {

bool callsLibdevice(gpu::GPUModuleOp module) {
  return llvm::any_of(module.getOps<LLVM::LLVMFuncOp>(), [](auto function) {
    return function.isExternal() && function.getName().starts_with("__nv_");
  });
}

struct LinkLibdevice : public fuse::impl::FuseLinkLibdeviceBase<LinkLibdevice> {
  using Base::Base;

  void runOnOperation() override {
    if (path.empty())
      return;
    MLIRContext *context = &getContext();
    auto file = StringAttr::get(context, path);
    getOperation().walk([&](gpu::GPUModuleOp module) {
      ArrayAttr targets = module.getTargetsAttr();
      if (!targets || !callsLibdevice(module))
        return;
      SmallVector<Attribute> linked;
      for (Attribute target : targets) {
        auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target);
        if (nvvm) {
          SmallVector<Attribute> files;
          if (ArrayAttr link = nvvm.getLink())
            llvm::append_range(files, link.getValue());
          if (!llvm::is_contained(files, file))
            files.push_back(file);
          target = NVVM::NVVMTargetAttr::get(
              context, nvvm.getO(), nvvm.getTriple(), nvvm.getChip(),
              nvvm.getFeatures(), nvvm.getFlags(),
              ArrayAttr::get(context, files), nvvm.getVerifyTarget());
        }
        linked.push_back(target);
      }
      module.setTargetsAttr(ArrayAttr::get(context, linked));
    });
  }
};

} // namespace
