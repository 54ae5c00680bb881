//===- Pipelines.h - named fuse pipelines -----------------------*- C++ -*-===//
//
// The stages a program goes through, each a prefix of the next:
//
//   linalg  one linalg.generic per op (the eager form)
//   fused   kernels fused (unless fusion is off) and named
//   gpu     bufferized, one vectorized gpu.launch per kernel, outlined
//   nvvm    kernels lowered to the LLVM and NVVM dialects
//   ptx     the gpu.module serialized to PTX, host code lowered to LLVM
//
// and the two executables fuse-run JIT-compiles (see buildExecutablePipeline):
//
//   cpu     kernels as host loops, all in the LLVM dialect
//   cuda    like ptx, with device buffers and profiling hooks
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_PIPELINES_PIPELINES_H
#define FUSE_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/LogicalResult.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
class OpPassManager;
} // namespace mlir

namespace fuse {

enum class Stage { Linalg, Fused, GPU, NVVM, PTX, CPU, CUDA };

/// Parses a stage name (linalg, fused, gpu, nvvm, ptx, cpu, cuda).
std::optional<Stage> parseStage(llvm::StringRef name);

/// The stage names, in pipeline order, for help texts and errors.
llvm::StringRef stageNames();

/// `stage`'s name, as parseStage reads it.
llvm::StringRef stageName(Stage stage);

/// The CUDA toolkit that has libdevice: $CUDA_HOME, $CUDA_PATH,
/// /usr/local/cuda, or the parent of the folder of `ptxas` on $PATH; empty
/// when none of them has nvvm/libdevice/libdevice.10.bc.
std::string findCUDAToolkit();

/// libdevice inside `toolkit`.
std::string libdevicePath(llvm::StringRef toolkit);

/// Every option of the pipelines, as PipelineOptions.def lists them (with
/// each one's default and meaning).
struct PipelineOptions {
#define FUSE_PIPELINE_OPTION(TYPE, NAME, KEY, FLAG, VALUE, DEFAULT, GPU, HELP) \
  TYPE NAME = DEFAULT;
#include "fuse/Pipelines/PipelineOptions.def"

  /// Bytes of a vector register of the CPU that the cpu target compiles for
  /// (AVX-512: 64, AVX2: 32, SSE: 16); see kernelVectorBytes. Not an option:
  /// the runner sets it from that CPU; stages printed by fuse-opt use the
  /// default.
  int64_t cpuRegisterBytes = 64;

  /// The number of the first kernel (fuse-name-kernels' `first`). Not an
  /// option: a function compiled alone is numbered as in its module
  /// (kernelsBefore).
  int64_t firstKernel = 0;
};

/// Names each option of PipelineOptions (PipelineOptions.def).
enum class PipelineOption {
#define FUSE_PIPELINE_OPTION(TYPE, NAME, KEY, FLAG, VALUE, DEFAULT, GPU, HELP) \
  NAME,
#include "fuse/Pipelines/PipelineOptions.def"
};

/// How a front end spells an option: `--block-size` (the flags of fuse-opt,
/// fuse-translate and fuse-run) or `block-size` (the `fuse-lower` pipeline's
/// options and the C API's).
enum class OptionSpelling { Flag, Key };

/// `option` as `spelling` writes it.
llvm::StringRef optionName(PipelineOption option, OptionSpelling spelling);

/// Whether `option` shapes only the GPU's kernels (the PTX), so that a run
/// on the CPU does not use it (PipelineOptions.def's GPU column).
bool gpuOnly(PipelineOption option);

/// Whether `option` can change what `stage` gives: linalg takes none, fused
/// the fusion options, gpu also the mapping to threads (block and vector
/// sizes), nvvm and ptx every option; cpu those that are not gpuOnly, cuda
/// every option.
bool stageUses(Stage stage, PipelineOption option);

/// Refuses an option of `given` that `stage` does not use (stageUses), which
/// would be silently ignored: the error names it as `spelling` writes it,
/// `what` ran ("--fuse-pipeline=linalg", "the report") and the stages that
/// use it.
llvm::Error checkStageUses(Stage stage, llvm::ArrayRef<PipelineOption> given,
                           llvm::StringRef what,
                           OptionSpelling spelling = OptionSpelling::Flag);

/// The options of `given` whose value in `options` is not the default,
/// in the order of PipelineOptions.def: those a front end was asked for
/// (`--approx-exp=off` asks for nothing).
std::vector<PipelineOption>
changedOptions(const PipelineOptions &options,
               llvm::ArrayRef<PipelineOption> given);

/// `options.cudaToolkit`, or the one findCUDAToolkit() finds when unset.
std::string cudaToolkitOf(const PipelineOptions &options);

/// Checks every option against what the pipelines and LLVM's NVPTX back end
/// take, so that a front end refuses bad options before anything runs. The
/// error names the option as `spelling` writes it, its value, and what it
/// takes. Every front end calls it: fuse-opt, fuse-translate, fuse-run, the
/// C API and the `fuse-lower` pipeline.
llvm::Error
checkPipelineOptions(const PipelineOptions &options,
                     OptionSpelling spelling = OptionSpelling::Flag);

/// A caller's own option among PipelineOptions (fuse-lower's `stage`):
/// given each key that is not one of them, with its value, it says whether
/// it took it, or why the value is bad.
using ExtraOption = llvm::function_ref<llvm::Expected<bool>(
    llvm::StringRef key, llvm::StringRef value)>;

/// Parses options written as pass options are (`fusion=off
/// block-size=128`, a value with spaces in {...}; empty: the defaults), as
/// `fuse-lower` and the C API take them, and checks them
/// (checkPipelineOptions). The error names the unknown, repeated or bad
/// option, and the options there are. `given`, when not null, gets the
/// options the text gave; `extra` takes the caller's own, whose keys
/// `extraKeys` the error lists first.
llvm::Expected<PipelineOptions>
parsePipelineOptions(llvm::StringRef text,
                     std::vector<PipelineOption> *given = nullptr,
                     ExtraOption extra = nullptr,
                     llvm::ArrayRef<llvm::StringRef> extraKeys = {});

/// Every option's key, in the order of PipelineOptions.def.
std::vector<llvm::StringRef> optionKeys();

/// `items` in prose, as errors list them: `a`, `a and b`, `a, b and c`.
std::string joinInProse(llvm::ArrayRef<llvm::StringRef> items);

/// `n` and `word`, plural unless n is 1: "1 kernel", "3 kernels".
std::string plural(size_t n, llvm::StringRef word);

/// The options of PipelineOptions as command-line flags of a tool
/// (`--FLAG` of PipelineOptions.def), bound once for fuse-opt,
/// fuse-translate and fuse-run. Make it in main(), before the command line
/// is parsed; it lives as long as the flags.
class PipelineFlags {
public:
  explicit PipelineFlags(llvm::cl::OptionCategory &category);
  ~PipelineFlags();

  /// The options the command line gave, the defaults for the rest.
  PipelineOptions options() const;

  /// Whether the command line gave `option`.
  bool given(PipelineOption option) const;

  /// The flags the command line gave, as `--flag`, in the order of
  /// PipelineOptions.def; with `onlyGPU`, those of them that shape only the
  /// GPU's kernels (gpuOnly) and give another value than the default.
  std::vector<llvm::StringRef> givenFlags(bool onlyGPU = false) const;

  /// The options the command line gave another value than the default,
  /// in the order of PipelineOptions.def.
  std::vector<PipelineOption> changedOptions() const;

  /// Every flag, as `--flag`, in the order of PipelineOptions.def.
  static std::vector<llvm::StringRef> allFlags();

private:
  struct Flags;
  std::unique_ptr<Flags> flags;
};

enum class Target { CPU, CUDA };

/// Adds the passes that take a module of fuse functions all the way to the
/// LLVM dialect, ready for the JIT, with profiling hooks around each kernel
/// launch (see fuse-map-to-gpu). CPU: kernels run as host loops. CUDA:
/// kernels are PTX in a gpu.binary, buffers live in device memory and the
/// host calls the runtime's mgpu* functions.
void buildExecutablePipeline(mlir::OpPassManager &pm, Target target,
                             const PipelineOptions &options);

/// The PTX features `options` asks for, with "auto" resolved for the chip.
std::string ptxFeatures(const PipelineOptions &options);

/// The bytes of one vector access of a kernel thread on `target`:
/// `options.vectorBytes` on the GPU; on the CPU four of its vector
/// registers (`options.cpuRegisterBytes`), whatever `vectorBytes`. Accesses are
/// aligned to at most kMaxVectorAlignment bytes either way.
int64_t kernelVectorBytes(Target target, const PipelineOptions &options);

/// Adds the passes that take a module of fuse functions to `stage`. Like
/// buildExecutablePipeline's, the pipeline ends with a check that fails it
/// when a pass emitted an error and went on.
void buildPipeline(mlir::OpPassManager &pm, Stage stage,
                   const PipelineOptions &options);

/// Why a program's PTX is empty: "no kernel, so no PTX: ..." (whether it
/// `hasFunctions`).
std::string noPTXReason(bool hasFunctions);

/// Lowers `module` to the ptx stage (buildPipeline) and returns the PTX text
/// of every gpu.binary, each preceded by a `// gpu.module @name` line: empty
/// when no function needs a kernel (say why with noPTXReason).
mlir::FailureOr<std::string> compilePTX(mlir::ModuleOp module,
                                        const PipelineOptions &options);

/// The number of kernels that the functions before `entry` in `module`
/// compile to with `options` (0 when one of them does not compile): the
/// first kernel number of `entry` compiled alone (PipelineOptions::
/// firstKernel), so that its kernels have the names that the report and
/// fuse-opt give them in the whole module.
int64_t kernelsBefore(mlir::ModuleOp module, llvm::StringRef entry,
                      const PipelineOptions &options);

/// Registers `fuse-lower{stage=... fusion=...}` for --pass-pipeline.
void registerPipelines();

} // namespace fuse

#endif // FUSE_PIPELINES_PIPELINES_H
