//===- GPUModuleToPTX.cpp - gpu.module -> gpu.binary with PTX -------------===//

#include "fuse/Emulator/HostKernels.h"
#include "fuse/Target/PTX/Passes.h"
#include "fuse/Target/PTX/Target.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Target/LLVM/ModuleToObject.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/Cloning.h"

namespace fuse {
#define GEN_PASS_DEF_FUSEGPUMODULETOPTX
#include "fuse/Target/PTX/Passes.h.inc"
} // namespace fuse

using namespace mlir;

namespace {

/// The functions a kernel module calls but does not define (libdevice's
/// `__nv_*`), LLVM intrinsics aside.
static SmallVector<llvm::Function *> undefinedFunctions(llvm::Module &module) {
  SmallVector<llvm::Function *> functions;
  for (llvm::Function &function : module)
    if (function.isDeclaration() && !function.isIntrinsic() &&
        !function.use_empty())
      functions.push_back(&function);
  return functions;
}

/// LLVM IR -> (libdevice) -> optimized LLVM IR -> PTX, for one gpu.module.
class PTXSerializer : public LLVM::ModuleToObject {
public:
  PTXSerializer(gpu::GPUModuleOp module, NVVM::NVVMTargetAttr target)
      : ModuleToObject(*module, target.getTriple(), target.getChip(),
                       target.getFeatures(), target.getO()),
        target(target) {}

protected:
  /// fuse's sqrt is correctly rounded on both targets (docs/accuracy.md,
  /// "The numerics contract"), as CUDA's sqrtf is under nvcc's default
  /// -prec-sqrt=true. libdevice's `__nv_sqrtf` is `sqrt.approx.f32` unless
  /// `__nvvm_reflect("__CUDA_PREC_SQRT")` answers 1, which LLVM does only
  /// under a process-wide option: call `__nv_fsqrt_rn` (`sqrt.rn.f32`)
  /// instead.
  void handleModulePreLink(llvm::Module &module) override {
    llvm::Function *approximate = module.getFunction("__nv_sqrtf");
    if (!approximate)
      return;
    llvm::FunctionCallee exact = module.getOrInsertFunction(
        "__nv_fsqrt_rn", approximate->getFunctionType());
    approximate->replaceAllUsesWith(exact.getCallee());
    approximate->eraseFromParent();
  }

  std::optional<SmallVector<std::unique_ptr<llvm::Module>>>
  loadBitcodeFiles(llvm::Module &module) override {
    SmallVector<std::unique_ptr<llvm::Module>> libraries;
    if (undefinedFunctions(module).empty() || !target.getLink())
      return libraries;
    if (failed(loadBitcodeFilesFromList(module.getContext(),
                                        target.getLink().getValue(), libraries,
                                        /*failureOnError=*/true)))
      return std::nullopt;
    return libraries;
  }

  FailureOr<SmallVector<char, 0>>
  moduleToObject(llvm::Module &module) override {
    // Checked after linking and optimization (which resolves libdevice's
    // own __nvvm_reflect calls): code generation would leave the call as an
    // `.extern .func` that the driver cannot resolve when it loads the PTX.
    SmallVector<llvm::Function *> undefined = undefinedFunctions(module);
    if (!undefined.empty())
      return getOperation().emitError("kernel calls ")
             << undefined.front()->getName()
             << ", which no library linked into the kernels defines";
    FailureOr<llvm::TargetMachine *> machine = getOrCreateTargetMachine();
    if (failed(machine))
      return getOperation().emitError("LLVM has no target for ")
             << triple << " (" << chip << ")";
    // Code generation changes the module: a driver that runs kernels on
    // the host gets the IR as NVPTX received it.
    std::unique_ptr<llvm::Module> received =
        fuse::hostkernels::isRecording() ? llvm::CloneModule(module) : nullptr;
    FailureOr<SmallString<0>> ptx = translateModuleToISA(
        module, **machine, [&] { return getOperation().emitError(); });
    if (failed(ptx))
      return failure();
    if (received)
      fuse::hostkernels::record(*ptx, *received);
    return SmallVector<char, 0>(ptx->begin(), ptx->end());
  }

private:
  NVVM::NVVMTargetAttr target;
};

/// Kernels that call a function they do not define need a library to link:
/// says so at the first such call, the source op that needs it.
static LogicalResult checkLibraries(gpu::GPUModuleOp module,
                                    NVVM::NVVMTargetAttr target) {
  if (target.getLink() && !target.getLink().empty())
    return success();
  WalkResult walk = module.walk([&](LLVM::CallOp call) {
    std::optional<StringRef> callee = call.getCallee();
    if (!callee)
      return WalkResult::advance();
    auto function = module.lookupSymbol<LLVM::LLVMFuncOp>(*callee);
    if (!function || !function.isExternal())
      return WalkResult::advance();
    if (callee->starts_with("__nv_"))
      call.emitError("kernel calls ")
          << *callee
          << " from libdevice, which was not found or not asked for: "
             "install the CUDA toolkit, or name it with CUDA_HOME or "
             "--cuda-toolkit=DIR (an empty --cuda-toolkit= links none)";
    else
      call.emitError("kernel calls ")
          << *callee << ", which no library linked into the kernels defines";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

struct FuseGPUModuleToPTXPass
    : fuse::impl::FuseGPUModuleToPTXBase<FuseGPUModuleToPTXPass> {
  void runOnOperation() override {
    static llvm::once_flag initialized;
    llvm::call_once(initialized, [] {
      LLVMInitializeNVPTXTarget();
      LLVMInitializeNVPTXTargetInfo();
      LLVMInitializeNVPTXTargetMC();
      LLVMInitializeNVPTXAsmPrinter();
    });
    for (auto module : llvm::make_early_inc_range(
             getOperation().getBody()->getOps<gpu::GPUModuleOp>()))
      if (failed(compile(module)))
        return signalPassFailure();
  }

  LogicalResult compile(gpu::GPUModuleOp module) {
    ArrayAttr targets = module.getTargetsAttr();
    if (!targets || targets.empty())
      return module.emitError("gpu.module has no target: run "
                              "nvvm-attach-target first");
    SmallVector<Attribute> objects;
    for (Attribute attribute : targets) {
      auto target = dyn_cast<NVVM::NVVMTargetAttr>(attribute);
      if (!target)
        return module.emitError("fuse-gpu-module-to-ptx compiles "
                                "#nvvm.target modules only, not ")
               << attribute;
      // LLVM's own checks of these are fatal errors (an abort).
      if (llvm::Error error = fuse::checkPTXTarget(
              target.getChip(), target.getFeatures(), "chip", "features"))
        return module.emitError("#nvvm.target's ")
               << llvm::toString(std::move(error));
      if (failed(checkLibraries(module, target)))
        return failure();
      std::optional<SmallVector<char, 0>> ptx =
          PTXSerializer(module, target).run();
      if (!ptx)
        return failure();
      Builder b(module.getContext());
      objects.push_back(gpu::ObjectAttr::get(
          target, gpu::CompilationTarget::Assembly,
          b.getStringAttr(StringRef(ptx->data(), ptx->size())),
          b.getDictionaryAttr(
              b.getNamedAttr("O", b.getI32IntegerAttr(target.getO())))));
    }
    OpBuilder builder(module);
    gpu::BinaryOp::create(builder, module.getLoc(), module.getName(),
                          module.getOffloadingHandlerAttr(),
                          builder.getArrayAttr(objects));
    module.erase();
    return success();
  }
};

} // namespace
