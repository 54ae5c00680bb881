//===- Pipelines.cpp - named fuse pipelines --------------------*- C++ -*-===//

#include "fuse/Pipelines/Pipelines.h"

#include "fuse/Conversion/Passes.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/Transforms/Passes.h"
#include "fuse/Dialect/Fuse/Utils/Kernel.h"
#include "fuse/Support/CheckedOptions.h"
#include "fuse/Support/Tool.h"
#include "fuse/Target/PTX/Passes.h"
#include "fuse/Target/PTX/Target.h"
#include "fuse/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/RequestCWrappers.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

#include <atomic>
#include <cstdlib>
#include <set>
#include <tuple>

using namespace mlir;

namespace {
/// The stages, in pipeline order: each one's name and what it gives.
struct StageName {
  fuse::Stage stage;
  llvm::StringLiteral name, meaning;
};
constexpr StageName kStages[] = {
    {fuse::Stage::Linalg, "linalg", "one generic per op"},
    {fuse::Stage::Fused, "fused", "fused, named kernels"},
    {fuse::Stage::GPU, "gpu", "gpu.launch, outlined"},
    {fuse::Stage::NVVM, "nvvm", "kernels in LLVM/NVVM"},
    {fuse::Stage::PTX, "ptx", "PTX, host code in LLVM"},
    {fuse::Stage::CPU, "cpu", "what fuse-run runs on the CPU"},
    {fuse::Stage::CUDA, "cuda", "what fuse-run runs on the GPU"},
};
} // namespace

llvm::StringRef fuse::stageName(Stage stage) {
  for (const StageName &known : kStages)
    if (known.stage == stage)
      return known.name;
  llvm_unreachable("every stage has a name");
}

std::optional<fuse::Stage> fuse::parseStage(llvm::StringRef name) {
  for (const StageName &known : kStages)
    if (known.name == name)
      return known.stage;
  return std::nullopt;
}

bool fuse::stageUses(Stage stage, PipelineOption option) {
  if (stage == Stage::CUDA)
    return true;
  if (stage == Stage::CPU)
    return !gpuOnly(option);
  // The first of linalg ... ptx whose output the option shapes: fusion
  // makes the fused stage, the mapping to threads the gpu stage, and the
  // NVVM target attribute (chip, features, opt-level, libdevice) and the
  // math lowering the nvvm stage.
  Stage first = Stage::NVVM;
  switch (option) {
  case PipelineOption::fusion:
  case PipelineOption::horizontal:
  case PipelineOption::remarks:
    first = Stage::Fused;
    break;
  case PipelineOption::blockSize:
  case PipelineOption::vectorBytes:
    first = Stage::GPU;
    break;
  default:
    break;
  }
  return static_cast<int>(stage) >= static_cast<int>(first);
}

llvm::Error fuse::checkStageUses(Stage stage,
                                 llvm::ArrayRef<PipelineOption> given,
                                 llvm::StringRef what,
                                 OptionSpelling spelling) {
  for (PipelineOption option : given) {
    if (stageUses(stage, option))
      continue;
    SmallVector<llvm::StringRef> users;
    for (const StageName &known : kStages)
      if (stageUses(known.stage, option))
        users.push_back(known.name);
    return llvm::createStringError(
        optionName(option, spelling) + " has no effect on " + what +
        ": it shapes only the " + joinInProse(users) + " stages");
  }
  return llvm::Error::success();
}

llvm::StringRef fuse::stageNames() {
  static const std::string names = llvm::join(
      llvm::map_range(kStages, [](const StageName &s) { return s.name; }),
      ", ");
  return names;
}

std::string fuse::libdevicePath(llvm::StringRef toolkit) {
  return (toolkit + "/nvvm/libdevice/libdevice.10.bc").str();
}

std::string fuse::cudaToolkitOf(const PipelineOptions &options) {
  return options.cudaToolkit ? *options.cudaToolkit : findCUDAToolkit();
}

std::string fuse::findCUDAToolkit() {
  SmallVector<std::string> candidates;
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *value = std::getenv(var))
      candidates.push_back(value);
  candidates.push_back("/usr/local/cuda");
  if (llvm::ErrorOr<std::string> ptxas = llvm::sys::findProgramByName("ptxas"))
    candidates.push_back(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(*ptxas))
            .str());
  for (const std::string &candidate : candidates)
    if (!candidate.empty() && llvm::sys::fs::exists(libdevicePath(candidate)))
      return candidate;
  return "";
}

llvm::StringRef fuse::optionName(PipelineOption option,
                                 OptionSpelling spelling) {
  switch (option) {
#define FUSE_PIPELINE_OPTION(TYPE, NAME, KEY, FLAG, VALUE, DEFAULT, GPU, HELP) \
  case PipelineOption::NAME:                                                   \
    return spelling == OptionSpelling::Flag ? "--" FLAG : KEY;
#include "fuse/Pipelines/PipelineOptions.def"
  }
  llvm_unreachable("every option has a name");
}

bool fuse::gpuOnly(PipelineOption option) {
  switch (option) {
#define FUSE_PIPELINE_OPTION(TYPE, NAME, KEY, FLAG, VALUE, DEFAULT, GPU, HELP) \
  case PipelineOption::NAME:                                                   \
    return GPU;
#include "fuse/Pipelines/PipelineOptions.def"
  }
  llvm_unreachable("every option is in the list");
}

llvm::Error fuse::checkPipelineOptions(const PipelineOptions &options,
                                       OptionSpelling spelling) {
  auto error = [](const llvm::Twine &message) {
    return llvm::createStringError(message.str());
  };
  struct Names {
    llvm::StringRef blockSize, vectorBytes, chip, features, optLevel,
        cudaToolkit;
  } names{optionName(PipelineOption::blockSize, spelling),
          optionName(PipelineOption::vectorBytes, spelling),
          optionName(PipelineOption::chip, spelling),
          optionName(PipelineOption::features, spelling),
          optionName(PipelineOption::optLevel, spelling),
          optionName(PipelineOption::cudaToolkit, spelling)};
  // The fusion options do nothing to the eager form, and would be ignored.
  llvm::StringRef fusion = optionName(PipelineOption::fusion, spelling);
  if (!options.fusion && options.remarks)
    return error(optionName(PipelineOption::remarks, spelling) +
                 " says why fusion left producer/consumer pairs apart, and "
                 "with " +
                 fusion + "=off nothing is fused: drop one of them");
  if (!options.fusion && !options.horizontal)
    return error(optionName(PipelineOption::horizontal, spelling) +
                 "=off keeps independent kernels apart, and with " + fusion +
                 "=off nothing is fused: drop one of them");
  if (options.blockSize < 1 || options.blockSize > kMaxBlockSize)
    return error(names.blockSize + "=" + llvm::Twine(options.blockSize) +
                 " is out of range: a CUDA block has 1 to " +
                 llvm::Twine(kMaxBlockSize) + " threads");
  if (!isVectorBytes(options.vectorBytes))
    return error(names.vectorBytes + "=" + llvm::Twine(options.vectorBytes) +
                 " is out of range: a thread's vector access is a power of "
                 "two from 1 to " +
                 llvm::Twine(kMaxVectorBytes) + " bytes");
  if (options.optLevel > 3)
    return error(names.optLevel + "=" + llvm::Twine(options.optLevel) +
                 " is out of range: LLVM's optimization levels are 0 to 3");
  // findCUDAToolkit finds only toolkits with libdevice; a given one must
  // have it too.
  if (options.cudaToolkit && !options.cudaToolkit->empty() &&
      !llvm::sys::fs::exists(libdevicePath(*options.cudaToolkit)))
    return error(names.cudaToolkit + "=" + *options.cudaToolkit +
                 " has no nvvm/libdevice/libdevice.10.bc");
  return fuse::checkPTXTarget(options.chip, options.features, names.chip,
                              names.features);
}

static void addCleanup(OpPassManager &pm) {
  pm.addPass(fuse::createFuseCanonicalize());
  pm.addPass(createCSEPass());
}

/// fuse -> named kernels (linalg.generic on tensors).
static void addKernelPasses(OpPassManager &pm,
                            const fuse::PipelineOptions &options) {
  // Fused, an op that the program computes twice from the same operands
  // (`x.mean(0)` written twice) is computed once; eager computes each op
  // as it is written.
  if (options.fusion)
    pm.addNestedPass<func::FuncOp>(createCSEPass());
  pm.addNestedPass<func::FuncOp>(fuse::createConvertFuseToLinalg());
  if (options.fusion) {
    fuse::FuseElementwiseFusionOptions fusion;
    fusion.horizontal = options.horizontal;
    fusion.remarks = options.remarks;
    pm.addNestedPass<func::FuncOp>(fuse::createFuseElementwiseFusion(fusion));
    fuse::FuseReductionFusionOptions reductions;
    reductions.remarks = options.remarks;
    pm.addNestedPass<func::FuncOp>(fuse::createFuseReductionFusion(reductions));
    fuse::FuseElementwiseFusionOptions copies;
    copies.horizontal = options.horizontal;
    copies.skipGroups = true;
    pm.addNestedPass<func::FuncOp>(fuse::createFuseElementwiseFusion(copies));
  }
  // No CSE here: merging the kernels' tensor.empty inits into one makes
  // bufferization's analysis quadratic in the number of kernels.
  pm.addPass(fuse::createFuseCanonicalize());
  // Named after canonicalization, which removes the ops that need no
  // kernel (a cast to the same type, a reduction over dimensions of size
  // 1): the kernels are numbered without gaps.
  fuse::FuseNameKernelsOptions naming;
  naming.first = options.firstKernel;
  pm.addPass(fuse::createFuseNameKernels(naming));
}

/// Named kernels -> one gpu.launch each, on buffers.
static void addLaunchPasses(OpPassManager &pm,
                            const fuse::PipelineOptions &options, bool profile,
                            fuse::Target target) {
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // From here on, upstream passes fold too (buffer deallocation's).
  pm.addPass(fuse::createFuseGuardTargetMath());
  pm.addNestedPass<func::FuncOp>(fuse::createFuseBufferSizes());
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  fuse::FuseMapToGPUOptions mapping;
  mapping.blockSize = options.blockSize;
  mapping.vectorBytes = fuse::kernelVectorBytes(target, options);
  mapping.profile = profile;
  mapping.cpuThreads = target == fuse::Target::CPU;
  pm.addPass(fuse::createFuseMapToGPU(mapping));
  pm.addNestedPass<func::FuncOp>(fuse::createFuseExpandAllocs());
}

int64_t fuse::kernelVectorBytes(Target target, const PipelineOptions &options) {
  // A CPU thread (one loop iteration) takes four vector registers of
  // contiguous bytes per access (AVX-512: 64 f32 lanes), still with 16-byte
  // alignment. LLVM splits each op into four independent instructions:
  // long chains of math are bound by latency, not by issue, and four
  // chains in flight run them about 1.6 times as fast as one. Every lane
  // computes the same bits whatever the width.
  return target == Target::CPU ? 4 * options.cpuRegisterBytes
                               : options.vectorBytes;
}

std::string fuse::ptxFeatures(const PipelineOptions &options) {
  if (options.features != "auto")
    return options.features;
  // LLVM picks the PTX version for the chip, except that sm_90 kernels need
  // PTX ISA 8.0 features (newer chips reject +ptx80), and that warp
  // shuffles need a newer version than LLVM's choice for sm_30 to sm_62.
  if (llvm::StringRef(options.chip).starts_with("sm_90"))
    return "+ptx80";
  std::optional<unsigned> oldest = fuse::minPTXVersion(options.chip);
  if (oldest && *oldest < fuse::kShufflePTXVersion &&
      fuse::hasWarpShuffles(options.chip))
    return "+ptx" + std::to_string(fuse::kShufflePTXVersion);
  return "";
}

/// Threads one SM of `chip` holds at once (the CUDA programming guide's
/// table of compute capabilities).
static int64_t threadsPerSM(llvm::StringRef chip) {
  // sm_90a, sm_120f: the family's.
  chip = chip.rtrim("af");
  return llvm::StringSwitch<int64_t>(chip)
      .Cases({"sm_86", "sm_87", "sm_89", "sm_120", "sm_121"}, 1536)
      .Case("sm_75", 1024)
      .Default(2048);
}

/// Blocks one SM of `chip` holds at once (the same table, and what ptxas
/// of CUDA 13 takes): ptxas ignores a `.minnctapersm` above it, with a
/// warning (`--block-size=37` asked for 55 on sm_90, which holds 32; 32 on
/// sm_120, which holds 24).
static int64_t blocksPerSM(llvm::StringRef chip) {
  if (chip.starts_with("sm_3"))
    return 16;
  chip = chip.rtrim("af");
  return llvm::StringSwitch<int64_t>(chip)
      .Cases({"sm_75", "sm_86", "sm_87"}, 16)
      .Cases({"sm_89", "sm_110", "sm_120", "sm_121"}, 24)
      .Default(32);
}

namespace {
/// Tells ptxas that every kernel must run at full occupancy
/// (`nvvm.minctasm`, PTX's `.minnctapersm`): as many blocks per SM as the
/// SM has threads for, which caps registers at 64K / threads per SM (32 on
/// sm_90). Without it ptxas takes up to 64 registers for a kernel with
/// math functions and the SM runs a quarter fewer threads. A kernel with
/// reductions that a warp per row takes (its lanes combined with
/// gpu.shuffle) keeps its row in registers (RowForm::registers) and asks
/// for half: 64 registers, with 32 rows in flight on each SM (a row of
/// 1024 spills a few bytes: fewer rows in flight were slower on an H200). So
/// does a kernel with an f64 math function (libdevice's f64 functions hold
/// register pairs: exp, pow, gelu spilled under 32 registers), with sin or
/// cos (their range reduction: 43 registers for one vector of f32), with a
/// 64-bit integer division or remainder (ptxas expands each into a long
/// sequence: 20 bytes spilled beside a broadcast operand's index), or with
/// more than kManyIntegerProducts multiplications of 32-bit integers or
/// narrower (an i32 pow, 31 squarings and products per element, spilled 4
/// bytes; other kernels have at most 8, their index arithmetic's; an i64
/// pow fits 32 registers, and spilled when given 64). Every op on every
/// type is checked against its budget in
/// test/Pipelines/every-op-registers-ptxas.test.
struct FullOccupancyPass
    : fuse::CheckedOptions<
          FullOccupancyPass,
          PassWrapper<FullOccupancyPass, OperationPass<gpu::GPUModuleOp>>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FullOccupancyPass)

  FullOccupancyPass() = default;
  FullOccupancyPass(const FullOccupancyPass &other) : CheckedOptions(other) {}
  FullOccupancyPass(int64_t blocks) { blocksPerSM = blocks; }
  StringRef getArgument() const override { return "fuse-full-occupancy"; }
  StringRef getDescription() const override {
    return "Ask for full occupancy in every kernel";
  }

  /// What is wrong with the options, if anything (CheckedOptions).
  std::optional<std::string> optionProblem() const {
    if (blocksPerSM < 1)
      return "fuse-full-occupancy: blocks-per-sm=" +
             std::to_string(blocksPerSM) +
             " is not a number of blocks; give 1 or more";
    return std::nullopt;
  }

  void runOnOperation() override {
    if (refusesOptions())
      return;
    Builder b(&getContext());
    getOperation().walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel())
        return;
      bool half = false, none = false;
      int64_t integerProducts = 0;
      func.walk([&](Operation *op) {
        half |= needsHalf(op);
        none |= holdsRowLanes(op);
        if (auto product = dyn_cast<arith::MulIOp>(op)) {
          Type element = getElementTypeOrSelf(product.getType());
          integerProducts +=
              !element.isIndex() && element.getIntOrFloatBitWidth() <= 32;
        }
      });
      half |= integerProducts > kManyIntegerProducts;
      func->setAttr(
          "nvvm.minctasm",
          b.getI32IntegerAttr(none   ? 1
                              : half ? std::max<int64_t>(1, blocksPerSM / 2)
                                     : blocksPerSM.getValue()));
    });
  }

  /// A thread that owns a row read in lanes holds the 32 partial
  /// accumulators of each reduction (vectors of kReductionLanes, 64 or 32
  /// registers each): held to full occupancy's 32 registers it spilled.
  /// (So does an elementwise kernel with --vector-bytes of 128 or more.)
  static bool holdsRowLanes(Operation *op) {
    return llvm::any_of(op->getResultTypes(), [](Type type) {
      auto vector = dyn_cast<VectorType>(type);
      return vector && vector.getNumElements() >= fuse::kReductionLanes &&
             vector.getElementType().isIntOrFloat() &&
             vector.getElementType().getIntOrFloatBitWidth() >= 32;
    });
  }

  static constexpr int64_t kManyIntegerProducts = 32;

  static bool needsHalf(Operation *op) {
    if (isa<gpu::ShuffleOp, math::SinOp, math::CosOp>(op))
      return true;
    auto hasOperandOf = [&](auto isType) {
      return llvm::any_of(op->getOperandTypes(), [&](Type type) {
        return isType(getElementTypeOrSelf(type));
      });
    };
    if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
            arith::FloorDivSIOp, arith::CeilDivSIOp, arith::CeilDivUIOp>(op))
      return hasOperandOf([](Type t) { return t.isInteger(64); });
    return isa_and_nonnull<math::MathDialect>(op->getDialect()) &&
           hasOperandOf([](Type t) { return t.isF64(); });
  }

  Option<int64_t> blocksPerSM{
      *this, "blocks-per-sm",
      llvm::cl::desc("Blocks per SM at full occupancy (8 of 256 threads on "
                     "sm_90); half that for the kernels that need more "
                     "registers, 1 for those whose warps take rows"),
      llvm::cl::init(8)};
};

/// Refuses kernels that combine a row's lanes with warp shuffles (the
/// reductions a warp per row takes) on a chip without them, at the
/// reduction's location: the nvvm dialect's own error named
/// nvvm.shfl.sync, an op that the program does not have.
struct WarpShuffleCheckPass
    : fuse::CheckedOptions<
          WarpShuffleCheckPass,
          PassWrapper<WarpShuffleCheckPass, OperationPass<gpu::GPUModuleOp>>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(WarpShuffleCheckPass)

  WarpShuffleCheckPass() = default;
  WarpShuffleCheckPass(const WarpShuffleCheckPass &other)
      : CheckedOptions(other) {}
  WarpShuffleCheckPass(std::string name) { chip = std::move(name); }
  StringRef getArgument() const override { return "fuse-check-warp-shuffles"; }
  StringRef getDescription() const override {
    return "Refuse warp shuffles on a chip without them";
  }

  /// What is wrong with the options, if anything (CheckedOptions): a chip
  /// that LLVM's NVPTX back end does not know (it refused nothing).
  std::optional<std::string> optionProblem() const {
    std::vector<std::string> chips = fuse::nvptxChips();
    if (llvm::is_contained(chips, chip.getValue()))
      return std::nullopt;
    return "fuse-check-warp-shuffles: chip=" + chip.getValue() +
           " is not a GPU architecture that LLVM's NVPTX back end knows; it "
           "knows " +
           llvm::join(chips, ", ");
  }

  void runOnOperation() override {
    if (refusesOptions())
      return;
    // The pipelines add it for a chip without shuffles; run by hand for one
    // with them, it has nothing to refuse.
    if (fuse::hasWarpShuffles(chip))
      return;
    // One error per reduction, not per shuffle (five per combined row).
    llvm::DenseSet<Location> seen;
    getOperation().walk([&](gpu::ShuffleOp shuffle) {
      if (!seen.insert(shuffle.getLoc()).second)
        return;
      shuffle.emitError()
          << "this reduction's kernel combines the lanes of a row with warp "
             "shuffles (shfl.sync), which "
          << chip << " does not have: choose sm_30 or a later chip";
      signalPassFailure();
    });
  }

  Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("The chip the kernels are for (default sm_20, which "
                     "has no warp shuffles); on one with them (sm_30 and "
                     "later) the pass refuses nothing"),
      llvm::cl::init("sm_20")};
};

/// Splits each warp shuffle of a 64-bit value (an f64 or i64 row's
/// accumulator, which a warp per row takes) into two of 32 bits, what
/// shfl.sync moves: upstream's rewrite (populateGpuShufflePatterns), which
/// convert-gpu-to-nvvm does not apply.
struct WideShufflesPass
    : PassWrapper<WideShufflesPass, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(WideShufflesPass)

  StringRef getArgument() const override { return "fuse-split-wide-shuffles"; }
  StringRef getDescription() const override {
    return "Split 64-bit warp shuffles into two of 32 bits";
  }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateGpuShufflePatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

/// Moves the loop annotations that convert-scf-to-cf puts on a loop's
/// latch (`llvm.loop_annotation`, which convert-gpu-to-nvvm keeps as a
/// plain attribute of the llvm.br) into the branch's own `loop_annotation`,
/// which becomes LLVM's loop metadata.
struct LoopAnnotationsPass
    : PassWrapper<LoopAnnotationsPass, OperationPass<gpu::GPUModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LoopAnnotationsPass)

  StringRef getArgument() const override { return "fuse-loop-annotations"; }
  StringRef getDescription() const override {
    return "Attach loop annotations to the latches of kernel loops";
  }
  void runOnOperation() override {
    getOperation().walk([](LLVM::BrOp branch) {
      if (auto annotation = branch->getAttrOfType<LLVM::LoopAnnotationAttr>(
              "llvm.loop_annotation")) {
        branch->removeAttr("llvm.loop_annotation");
        branch.setLoopAnnotationAttr(annotation);
      }
    });
  }
};
} // namespace

/// Outlined kernels -> LLVM/NVVM dialect inside the gpu.module.
static void addKernelLowering(OpPassManager &pm,
                              const fuse::PipelineOptions &options) {
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = ptxFeatures(options);
  target.optLevel = options.optLevel;
  std::string toolkit = fuse::cudaToolkitOf(options);
  if (!toolkit.empty())
    target.linkLibs.push_back(fuse::libdevicePath(toolkit));
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  if (!fuse::hasWarpShuffles(options.chip))
    kernels.addPass(std::make_unique<WarpShuffleCheckPass>(options.chip));
  kernels.addPass(std::make_unique<FullOccupancyPass>(
      std::clamp<int64_t>(threadsPerSM(options.chip) / options.blockSize, 1,
                          blocksPerSM(options.chip))));
  kernels.addPass(createSCFToControlFlowPass());
  fuse::FuseMathToLibdeviceOptions math;
  math.approxExp = options.approxExp;
  kernels.addPass(fuse::createFuseMathToLibdevice(math));
  kernels.addPass(std::make_unique<WideShufflesPass>());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(std::make_unique<LoopAnnotationsPass>());
  kernels.addPass(fuse::createFuseCanonicalize());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
}

namespace {
/// memref's expand-strided-metadata, without the pattern driver's
/// simplification of regions: after convert-scf-to-cf a cpu-target kernel
/// is a control-flow graph (a column reduction with a sin in its epilogue:
/// hundreds of blocks, a branch for each lane's rare case; with a log, when
/// log had one, 369), whose simplification between rewrites did not finish
/// in minutes.
struct ExpandStridedMetadataPass
    : PassWrapper<ExpandStridedMetadataPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ExpandStridedMetadataPass)

  StringRef getArgument() const override {
    return "fuse-expand-strided-metadata";
  }
  StringRef getDescription() const override {
    return "Expand memref metadata operations, leaving regions as they are";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<affine::AffineDialect, arith::ArithDialect,
                    memref::MemRefDialect>();
  }
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    memref::populateExpandStridedMetadataPatterns(patterns);
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace

/// Host functions -> llvm.func, before the ops in them. Converted together
/// with those ops, each use of a memref argument looked up the argument's
/// expanded descriptor (two values per dimension), and a program of rank R
/// reads R sizes of each argument; converted first, the uses see one
/// value. fuse-lower-asserts keeps the lowering of the size checks linear
/// in the rank too.
static void addHostFunctionLowering(OpPassManager &pm) {
  // Views on the host (a reduction's result with its dimensions kept, a
  // tensor.expand_shape) become memref.reinterpret_cast, which the LLVM
  // conversion knows.
  pm.addPass(std::make_unique<ExpandStridedMetadataPass>());
  pm.addPass(createLowerAffinePass());
  pm.addPass(fuse::createFuseLowerAsserts());
  pm.addPass(createConvertFuncToLLVMPass());
}

/// Host code with gpu.launch_func -> LLVM dialect; gpu.module -> PTX.
static void addHostLowering(OpPassManager &pm) {
  pm.addPass(createSCFToControlFlowPass());
  addHostFunctionLowering(pm);
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(fuse::createFuseGPUModuleToPTX());
  pm.addPass(createReconcileUnrealizedCastsPass());
  addCleanup(pm);
}

namespace {
/// The last pass of every pipeline of buildPipeline: it fails when an error
/// was emitted by a pass that went on (an upstream conversion that leaves
/// an op it could not convert: a function named `malloc` in the host code
/// of the ptx stage, whose tools printed the module with exit status 0).
/// Its handler is registered when the pipeline is initialized, before any
/// pass runs, after the tool's own (which prints the diagnostic).
struct ErrorCheckPass
    : public PassWrapper<ErrorCheckPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ErrorCheckPass)
  ErrorCheckPass() = default;
  // A clone registers a handler of its own.
  ErrorCheckPass(const ErrorCheckPass &) : PassWrapper() {}
  ~ErrorCheckPass() override {
    if (context)
      context->getDiagEngine().eraseHandler(handler);
  }
  llvm::StringRef getArgument() const final { return "fuse-error-check"; }
  llvm::StringRef getDescription() const final {
    return "Fail when a pass before it emitted an error and went on";
  }
  LogicalResult initialize(MLIRContext *initialized) override {
    if (!context) {
      context = initialized;
      handler = context->getDiagEngine().registerHandler(
          [this](Diagnostic &diagnostic) {
            if (diagnostic.getSeverity() == DiagnosticSeverity::Error)
              seen = true;
            return failure(); // not handled: the tool's handler prints it
          });
    }
    return success();
  }
  void runOnOperation() override {
    if (seen.exchange(false))
      signalPassFailure();
  }
  std::atomic<bool> seen = false;
  MLIRContext *context = nullptr;
  DiagnosticEngine::HandlerID handler = 0;
};
/// The tensor stages (linalg, fused) rewrite fuse ops among any others, in
/// the functions of the top-level module: a fuse op elsewhere (in a nested
/// module) was left as it was, with no word. It is an error, as in the
/// stages that compile to kernels (fuse-check-program).
struct NestedFuseOpsCheck
    : public PassWrapper<NestedFuseOpsCheck, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(NestedFuseOpsCheck)
  llvm::StringRef getArgument() const final { return "fuse-nested-ops-check"; }
  llvm::StringRef getDescription() const final {
    return "Refuse fuse ops outside the functions of the top-level module";
  }
  void runOnOperation() override {
    ModuleOp top = getOperation();
    WalkResult walk = top.walk([&](Operation *op) {
      if (!isa_and_nonnull<fuse::FuseDialect>(op->getDialect()))
        return WalkResult::advance();
      auto func = op->getParentOfType<func::FuncOp>();
      if (func && func->getParentOp() == top.getOperation())
        return WalkResult::advance();
      InFlightDiagnostic diag = op->emitError()
                                << "'" << op->getName()
                                << "' is not in a function of the top-level "
                                   "module: fuse lowers those only";
      if (auto nested = op->getParentOfType<ModuleOp>(); nested != top)
        diag.attachNote(nested.getLoc()) << "in this nested module";
      return WalkResult::interrupt();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace

std::string fuse::noPTXReason(bool hasFunctions) {
  return std::string("no kernel, so no PTX: ") +
         (hasFunctions ? "no function computes anything on the GPU "
                         "(returning an argument or a constant needs no "
                         "kernel)"
                       : "the program has no function");
}

namespace fuse {
/// buildPipeline's and buildExecutablePipeline's passes, without the
/// ErrorCheckPass that ends each pipeline (once, though the first adds the
/// second's passes).
void addStagePasses(OpPassManager &pm, Stage stage,
                    const PipelineOptions &options);
void addExecutablePasses(OpPassManager &pm, Target target,
                         const PipelineOptions &options);
} // namespace fuse

void fuse::buildPipeline(OpPassManager &pm, Stage stage,
                         const PipelineOptions &options) {
  addStagePasses(pm, stage, options);
  pm.addPass(std::make_unique<ErrorCheckPass>());
}

void fuse::addStagePasses(OpPassManager &pm, Stage stage,
                          const PipelineOptions &options) {
  if (stage == Stage::CPU || stage == Stage::CUDA)
    return addExecutablePasses(
        pm, stage == Stage::CPU ? Target::CPU : Target::CUDA, options);
  // The tensor stages rewrite fuse ops among any others; compiling to
  // kernels needs a whole fuse program.
  if (stage == Stage::Linalg || stage == Stage::Fused)
    pm.addPass(std::make_unique<NestedFuseOpsCheck>());
  if (stage == Stage::Linalg) {
    pm.addNestedPass<func::FuncOp>(createConvertFuseToLinalg());
    return addCleanup(pm);
  }
  if (stage != Stage::Fused)
    pm.addPass(createFuseCheckProgram());
  addKernelPasses(pm, options);
  if (stage == Stage::Fused)
    return;
  addLaunchPasses(pm, options, /*profile=*/false, Target::CUDA);
  pm.addNestedPass<func::FuncOp>(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  addCleanup(pm);
  if (stage == Stage::GPU)
    return;
  addKernelLowering(pm, options);
  if (stage == Stage::NVVM)
    return;
  addHostLowering(pm);
}

int64_t fuse::kernelsBefore(ModuleOp module, llvm::StringRef entry,
                            const PipelineOptions &options) {
  // Most programs have one function: nothing to compile before it.
  for (func::FuncOp func : module.getOps<func::FuncOp>()) {
    if (func.getSymName() == entry)
      return 0;
    if (!func.isExternal())
      break;
  }
  OwningOpRef<ModuleOp> before = module.clone();
  bool reached = false;
  for (func::FuncOp func :
       llvm::make_early_inc_range(before->getOps<func::FuncOp>())) {
    reached |= func.getSymName() == entry;
    if (reached || func.isExternal())
      func.erase();
  }
  if (before->getOps<func::FuncOp>().empty())
    return 0;
  // Their errors are not the entry's: the entry's kernels are then
  // numbered from 0.
  ScopedDiagnosticHandler quiet(module.getContext(),
                                [](Diagnostic &) { return success(); });
  PipelineOptions naming = options;
  naming.firstKernel = 0;
  PassManager pm(module.getContext());
  buildPipeline(pm, Stage::Fused, naming);
  if (failed(pm.run(*before)))
    return 0;
  llvm::StringSet<> names;
  FuseDialect::KernelAttrHelper kernel(module.getContext());
  before->walk([&](linalg::GenericOp op) {
    if (StringAttr name = kernel.getAttr(op))
      names.insert(name.getValue());
  });
  return names.size();
}

void fuse::buildExecutablePipeline(OpPassManager &pm, Target target,
                                   const PipelineOptions &options) {
  addExecutablePasses(pm, target, options);
  pm.addPass(std::make_unique<ErrorCheckPass>());
}

void fuse::addExecutablePasses(OpPassManager &pm, Target target,
                               const PipelineOptions &options) {
  // Callers (the JIT, an AOT harness) call `_mlir_ciface_<name>`.
  pm.addPass(fuse::createFuseCheckProgram());
  pm.addNestedPass<func::FuncOp>(LLVM::createLLVMRequestCWrappersPass());
  addKernelPasses(pm, options);
  addLaunchPasses(pm, options, /*profile=*/true, target);
  // Eager intermediates are freed once their last kernel has run: the
  // deallocation pipeline frees them at the end of the function, and
  // optimize-allocation-liveness moves each free up to right after the
  // buffer's last use, so that a chain of kernels holds two intermediates
  // at a time, not all of them. The caller owns and frees every result.
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addNestedPass<func::FuncOp>(
      bufferization::createOptimizeAllocationLivenessPass());
  // The copies of results that no kernel writes are rows of the profile.
  FuseOwnResultsOptions own;
  own.profile = true;
  pm.addPass(createFuseOwnResults(own));
  // An allocation that fails says what it was for.
  pm.addPass(createFuseNameAllocations());
  if (target == Target::CPU) {
    // A launch of 4 blocks or more (more than 49152 f32 elements with AVX-512's
    // registers) runs on all the OpenMP threads.
    FuseGPUToCPUOptions cpu;
    cpu.parallelBlocks = 4;
    pm.addPass(createFuseGPUToCPU(cpu));
    addCleanup(pm);
    // The C library for the functions that are not correctly rounded (exp,
    // tanh, ...), which LLVM must not fold (fuse-math-to-libm); LLVM
    // intrinsics for the exact rest (sqrt, floor, absf, ...); rsqrt is
    // 1 / sqrt.
    math::MathExpandOpsPassOptions expand;
    expand.opMnemonics = {"rsqrt"};
    pm.addPass(math::createMathExpandOpsPass(expand));
    FuseMathToLibmOptions math;
    math.polynomials = true;
    pm.addPass(createFuseMathToLibm(math));
    pm.addPass(createConvertMathToLLVMPass());
    pm.addPass(createSCFToControlFlowPass());
    // Results come from the runtime: the caller's own arrays with out=.
    pm.addPass(createFuseResultAllocs());
    addHostFunctionLowering(pm);
    pm.addPass(createConvertToLLVMPass());
    pm.addPass(createReconcileUnrealizedCastsPass());
    return;
  }
  pm.addNestedPass<func::FuncOp>(createFuseHostToDevice());
  pm.addNestedPass<func::FuncOp>(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  addCleanup(pm);
  addKernelLowering(pm, options);
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
  addHostLowering(pm);
}

FailureOr<std::string> fuse::compilePTX(ModuleOp module,
                                        const PipelineOptions &options) {
  PassManager pm(module.getContext());
  buildPipeline(pm, Stage::PTX, options);
  if (failed(pm.run(module)))
    return failure();
  std::string text;
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects()) {
      text += "// gpu.module @" + binary.getName().str() + "\n";
      text += cast<gpu::ObjectAttr>(attr).getObject().getValue().str();
    }
  });
  return text;
}

namespace {

/// How an option of PipelineOptions.def of type T is read: as a T with
/// LLVM's parser (booleans also as on/off, integers in decimal), and
/// std::optional<std::string> as a string, set only when given. An int64_t
/// is read as a long long, whose LLVM parser can be extended.
template <typename T> struct OptionTraits {
  using Value = T;
  using Parser = llvm::cl::parser<T>;
};
template <> struct OptionTraits<int64_t> {
  using Value = long long;
  using Parser = fuse::DecimalParser<long long>;
};
template <> struct OptionTraits<unsigned> {
  using Value = unsigned;
  using Parser = fuse::DecimalParser<unsigned>;
};
template <> struct OptionTraits<bool> {
  using Value = bool;
  using Parser = fuse::OnOffParser;
};
template <> struct OptionTraits<std::optional<std::string>> {
  using Value = std::string;
  using Parser = llvm::cl::parser<std::string>;
};

/// An option's initial value; llvm::cl::init keeps a reference to it, which
/// lives to the end of the option's construction.
template <typename T> auto initOf(const T &value) {
  return llvm::cl::init(value);
}
auto initOf(std::nullopt_t) {
  static const std::string none;
  return llvm::cl::init(none);
}

template <typename T, typename Option>
void assignOption(T &field, const Option &option, bool given) {
  field = option.getValue();
}
template <typename Option>
void assignOption(std::optional<std::string> &field, const Option &option,
                  bool given) {
  if (given)
    field = option.getValue();
}

/// The `fuse-lower` pipeline's options, the stage and PipelineOptions, for
/// its help (`fuse-opt --help`); registerPipelines parses them with
/// parsePipelineOptions.
struct LowerOptions : PassPipelineOptions<LowerOptions> {
  LowerOptions() {
    for (const StageName &known : kStages)
      stage.getParser().addLiteralOption(known.name, known.stage,
                                         known.meaning);
  }

  Option<fuse::Stage> stage{*this, "stage",
                            llvm::cl::desc("The stage to lower to"),
                            llvm::cl::init(fuse::Stage::PTX)};
#define FUSE_PIPELINE_OPTION(TYPE, NAME, KEY, FLAG, VALUE, DEFAULT, GPU, HELP) \
  Option<OptionTraits<TYPE>::Value, OptionTraits<TYPE>::Parser> NAME{          \
      *this, KEY, llvm::cl::desc(HELP), llvm::cl::value_desc(VALUE),           \
      initOf(DEFAULT)};
#include "fuse/Pipelines/PipelineOptions.def"
};
} // namespace

/// One value of an option written as `key=value`: a boolean (on, off,
/// true, false, 1, 0; the key alone is true), an integer or a string.
static llvm::Error parseValue(llvm::StringRef key, llvm::StringRef text,
                              bool present, bool &value) {
  std::optional<bool> parsed = fuse::parseOnOff(present ? text : "");
  if (!parsed || (present && text.empty()))
    return llvm::createStringError(key + "=" + text +
                                   ": takes on, off, true, false, 1 or 0");
  value = *parsed;
  return llvm::Error::success();
}

template <typename Integer>
static std::enable_if_t<std::is_integral_v<Integer>, llvm::Error>
parseValue(llvm::StringRef key, llvm::StringRef text, bool present,
           Integer &value) {
  if (!present || text.getAsInteger(10, value))
    return llvm::createStringError(
        key + "=" + text + ": takes a decimal integer that fits its type");
  return llvm::Error::success();
}

/// A string, or std::optional<std::string> set when given.
template <typename Text>
static std::enable_if_t<std::is_assignable_v<Text &, std::string>, llvm::Error>
parseValue(llvm::StringRef key, llvm::StringRef text, bool present,
           Text &value) {
  value = text.str();
  return llvm::Error::success();
}

llvm::Expected<fuse::PipelineOptions> fuse::parsePipelineOptions(
    llvm::StringRef text, std::vector<PipelineOption> *given, ExtraOption extra,
    llvm::ArrayRef<llvm::StringRef> extraKeys) {
  PipelineOptions options;
  std::vector<PipelineOption> seen;
  llvm::StringRef rest = text.ltrim();
  while (!rest.empty()) {
    // key[=value], the value up to white space (a space, a tab, a line
    // break), or in {...}, '...' or "..." (as pass options are written).
    size_t keyEnd = rest.find_first_of("= \t\n\v\f\r");
    llvm::StringRef key = rest.take_front(keyEnd);
    rest = rest.drop_front(key.size());
    bool present = rest.consume_front("=");
    llvm::StringRef value;
    if (present) {
      char open = rest.empty() ? 0 : rest.front();
      char close = open == '{' ? '}' : open;
      if (open == '{' || open == '\'' || open == '"') {
        size_t end = rest.find(close, 1);
        if (end == llvm::StringRef::npos)
          return llvm::createStringError(key + "=" + rest + ": no closing " +
                                         llvm::Twine(close));
        value = rest.slice(1, end);
        rest = rest.drop_front(end + 1);
      } else {
        value = rest.take_until(llvm::isSpace);
        rest = rest.drop_front(value.size());
      }
    }
    rest = rest.ltrim();
    std::optional<PipelineOption> option;
    llvm::Error error = [&]() -> llvm::Error {
#define FUSE_PIPELINE_OPTION(TYPE, NAME, KEY, FLAG, VALUE, DEFAULT, GPU, HELP) \
  if (key == KEY) {                                                            \
    option = PipelineOption::NAME;                                             \
    return parseValue(KEY, value, present, options.NAME);                      \
  }
#include "fuse/Pipelines/PipelineOptions.def"
      return llvm::Error::success();
    }();
    if (error)
      return std::move(error);
    if (!option && extra) {
      llvm::Expected<bool> taken = extra(key, value);
      if (!taken)
        return taken.takeError();
      if (*taken)
        continue;
    }
    if (!option) {
      std::vector<llvm::StringRef> keys(extraKeys);
      llvm::append_range(keys, optionKeys());
      return llvm::createStringError(
          "no option '" + key + "'; the options are " + llvm::join(keys, ", ") +
          " (docs/passes.md)");
    }
    if (llvm::is_contained(seen, *option))
      return llvm::createStringError("'" + key + "' is given twice");
    seen.push_back(*option);
  }
  if (llvm::Error error = checkPipelineOptions(options, OptionSpelling::Key))
    return std::move(error);
  if (given)
    *given = std::move(seen);
  return options;
}

std::vector<llvm::StringRef> fuse::optionKeys() {
  return {
#define FUSE_PIPELINE_OPTION(TYPE, NAME, KEY, FLAG, VALUE, DEFAULT, GPU, HELP) \
  KEY,
#include "fuse/Pipelines/PipelineOptions.def"
  };
}

struct fuse::PipelineFlags::Flags {
  explicit Flags(llvm::cl::OptionCategory &category)
      : category(category)
#define FUSE_PIPELINE_OPTION(TYPE, NAME, KEY, FLAG, VALUE, DEFAULT, GPU, HELP) \
  , NAME(FLAG, llvm::cl::desc(HELP), llvm::cl::value_desc(VALUE),              \
         initOf(DEFAULT), llvm::cl::cat(category))
#include "fuse/Pipelines/PipelineOptions.def"
  {
  }

  /// Where --help lists the flags.
  llvm::cl::OptionCategory &category;
#define FUSE_PIPELINE_OPTION(TYPE, NAME, KEY, FLAG, VALUE, DEFAULT, GPU, HELP) \
  llvm::cl::opt<OptionTraits<TYPE>::Value, false, OptionTraits<TYPE>::Parser>  \
      NAME;
#include "fuse/Pipelines/PipelineOptions.def"
};

fuse::PipelineFlags::PipelineFlags(llvm::cl::OptionCategory &category)
    : flags(std::make_unique<Flags>(category)) {}

fuse::PipelineFlags::~PipelineFlags() = default;

fuse::PipelineOptions fuse::PipelineFlags::options() const {
  PipelineOptions options;
#define FUSE_PIPELINE_OPTION(TYPE, NAME, KEY, FLAG, VALUE, DEFAULT, GPU, HELP) \
  assignOption(options.NAME, flags->NAME, flags->NAME.getNumOccurrences() > 0);
#include "fuse/Pipelines/PipelineOptions.def"
  return options;
}

bool fuse::PipelineFlags::given(PipelineOption option) const {
  switch (option) {
#define FUSE_PIPELINE_OPTION(TYPE, NAME, KEY, FLAG, VALUE, DEFAULT, GPU, HELP) \
  case PipelineOption::NAME:                                                   \
    return flags->NAME.getNumOccurrences() > 0;
#include "fuse/Pipelines/PipelineOptions.def"
  }
  llvm_unreachable("every option is a flag");
}

std::vector<llvm::StringRef>
fuse::PipelineFlags::givenFlags(bool onlyGPU) const {
  std::vector<llvm::StringRef> given;
  // A GPU flag that says its default (`--approx-exp=off`) asks for nothing
  // that a run on the CPU leaves out.
  PipelineOptions asked = options(), defaults;
#define FUSE_PIPELINE_OPTION(TYPE, NAME, KEY, FLAG, VALUE, DEFAULT, GPU, HELP) \
  if (flags->NAME.getNumOccurrences() &&                                       \
      (onlyGPU ? GPU && !(asked.NAME == defaults.NAME) : true))                \
    given.push_back("--" FLAG);
#include "fuse/Pipelines/PipelineOptions.def"
  return given;
}

std::vector<fuse::PipelineOption>
fuse::changedOptions(const PipelineOptions &options,
                     llvm::ArrayRef<PipelineOption> given) {
  std::vector<PipelineOption> changed;
  PipelineOptions defaults;
#define FUSE_PIPELINE_OPTION(TYPE, NAME, KEY, FLAG, VALUE, DEFAULT, GPU, HELP) \
  if (llvm::is_contained(given, PipelineOption::NAME) &&                       \
      !(options.NAME == defaults.NAME))                                        \
    changed.push_back(PipelineOption::NAME);
#include "fuse/Pipelines/PipelineOptions.def"
  return changed;
}

std::vector<fuse::PipelineOption> fuse::PipelineFlags::changedOptions() const {
  std::vector<PipelineOption> given;
#define FUSE_PIPELINE_OPTION(TYPE, NAME, KEY, FLAG, VALUE, DEFAULT, GPU, HELP) \
  if (flags->NAME.getNumOccurrences())                                         \
    given.push_back(PipelineOption::NAME);
#include "fuse/Pipelines/PipelineOptions.def"
  return fuse::changedOptions(options(), given);
}

std::string fuse::joinInProse(llvm::ArrayRef<llvm::StringRef> items) {
  if (items.size() < 2)
    return llvm::join(items, "");
  return llvm::join(items.drop_back(), ", ") + " and " + items.back().str();
}

std::string fuse::plural(size_t n, llvm::StringRef word) {
  return std::to_string(n) + " " + word.str() + (n == 1 ? "" : "s");
}

std::vector<llvm::StringRef> fuse::PipelineFlags::allFlags() {
  return {
#define FUSE_PIPELINE_OPTION(TYPE, NAME, KEY, FLAG, VALUE, DEFAULT, GPU, HELP) \
  "--" FLAG,
#include "fuse/Pipelines/PipelineOptions.def"
  };
}

void fuse::registerPipelines() {
  // The pipelines' own passes, by name: for --mlir-print-ir-after=NAME,
  // --pass-pipeline of what --dump-pass-pipeline prints, and crash
  // reproducers.
  PassRegistration<FullOccupancyPass>();
  PassRegistration<WarpShuffleCheckPass>();
  PassRegistration<LoopAnnotationsPass>();
  PassRegistration<WideShufflesPass>();
  PassRegistration<ExpandStridedMetadataPass>();
  PassRegistration<ErrorCheckPass>();
  PassRegistration<NestedFuseOpsCheck>();
  // As PassPipelineRegistration<LowerOptions>, but parsed by
  // parsePipelineOptions: a bad option is an error of the pipeline's text
  // that says which, before anything runs.
  static const std::string description =
      ("Lower fuse programs to a stage: " + stageNames()).str();
  registerPassPipeline(
      "fuse-lower", description,
      [](OpPassManager &pm, llvm::StringRef text,
         llvm::function_ref<LogicalResult(const llvm::Twine &)> errorHandler)
          -> LogicalResult {
        // Its passes are on the module and nest in it (a pass manager on
        // functions could not hold them: LLVM's fatal error).
        if (pm.getOpAnchorName() != ModuleOp::getOperationName())
          return errorHandler("fuse-lower: runs on the module, not in '" +
                              pm.getOpAnchorName() +
                              "': builtin.module(fuse-lower{...})");
        // stage=... is fuse-lower's own; the rest are PipelineOptions.
        Stage stage = Stage::PTX;
        bool stageGiven = false;
        auto takeStage = [&](llvm::StringRef key,
                             llvm::StringRef value) -> llvm::Expected<bool> {
          if (key != "stage")
            return false;
          if (stageGiven)
            return llvm::createStringError("'stage' is given twice");
          stageGiven = true;
          std::optional<Stage> parsed = parseStage(value);
          if (!parsed)
            return llvm::createStringError("stage=" + value +
                                           ": the stages are " + stageNames());
          stage = *parsed;
          return true;
        };
        std::vector<PipelineOption> given;
        llvm::Expected<PipelineOptions> options =
            parsePipelineOptions(text, &given, takeStage, {"stage"});
        if (!options)
          return errorHandler("fuse-lower: " +
                              llvm::toString(options.takeError()));
        if (llvm::Error error = checkStageUses(
                stage, changedOptions(*options, given),
                "stage=" + stageName(stage).str(), OptionSpelling::Key))
          return errorHandler("fuse-lower: " +
                              llvm::toString(std::move(error)));
        buildPipeline(pm, stage, *options);
        return success();
      },
      [](llvm::function_ref<void(const mlir::detail::PassOptions &)> handler) {
        handler(LowerOptions());
      });
}
