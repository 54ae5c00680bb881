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
#include "llvm/Support/Error.h"
#include "llvm/Support/LogicalResult.h"

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

/// The CUDA toolkit that has libdevice: $CUDA_HOME, $CUDA_PATH,
/// /usr/local/cuda, or the parent of the folder of `ptxas` on $PATH; empty
/// when none of them has nvvm/libdevice/libdevice.10.bc.
std::string findCUDAToolkit();

/// libdevice inside `toolkit`.
std::string libdevicePath(llvm::StringRef toolkit);

struct PipelineOptions {
  /// Off gives the eager form: one kernel per op.
  bool fusion = true;
  /// Merge independent kernels over the same iteration space.
  bool horizontal = true;
  /// Remarks for producer/consumer pairs left unfused.
  bool remarks = false;
  int64_t blockSize = 256;
  int64_t vectorBytes = 16;
  /// Bytes of a vector register of the CPU that the cpu target compiles for
  /// (AVX-512: 64, AVX2: 32, SSE: 16); see kernelVectorBytes. The runner
  /// sets it from that CPU; stages printed by fuse-opt use the default.
  int64_t cpuRegisterBytes = 64;
  std::string chip = "sm_90";
  /// PTX features; "auto" is +ptx80 for sm_90 (which needs PTX ISA 8.0
  /// features) and LLVM's default for other chips.
  std::string features = "auto";
  /// LLVM optimization level of the kernels. 2, not 3: on every example
  /// and a 1000-op chain the PTX is the same byte for byte, and O3 takes a
  /// third longer.
  unsigned optLevel = 2;
  /// GPU: f32 exp as ex2.approx.f32 of x * log2(e), as Triton computes it
  /// (fuse-math-to-libdevice's approx-exp): opt-in, less accurate than
  /// libdevice's expf for large |x| (docs/accuracy.md).
  bool approxExp = false;
  /// CUDA toolkit whose libdevice provides the math functions of kernels
  /// (exp, erf, pow, ...); empty for none. Unset, findCUDAToolkit() looks
  /// for one when the kernels' lowering is built (cudaToolkitOf), so that
  /// what never compiles kernels never searches the disk.
  std::optional<std::string> cudaToolkit;
};

/// `options.cudaToolkit`, or the one findCUDAToolkit() finds when unset.
std::string cudaToolkitOf(const PipelineOptions &options);

/// How a front end spells each option of PipelineOptions, for the errors of
/// checkPipelineOptions. The defaults are the flags of fuse-opt and fuse-run.
struct PipelineOptionNames {
  llvm::StringRef blockSize = "--block-size";
  llvm::StringRef vectorBytes = "vector-bytes";
  llvm::StringRef chip = "--chip";
  llvm::StringRef features = "--ptx-features";
  llvm::StringRef optLevel = "--opt-level";
  llvm::StringRef cudaToolkit = "--cuda-toolkit";
};

/// Checks every option against what the pipelines and LLVM's NVPTX back end
/// take, so that a front end refuses bad options before anything runs. The
/// error names the option as `names` spells it, its value, and what it
/// takes. Every front end calls it: fuse-opt, fuse-run, the C API and the
/// `fuse-lower` pipeline.
llvm::Error checkPipelineOptions(const PipelineOptions &options,
                                 const PipelineOptionNames &names = {});

/// The GPU architectures LLVM's NVPTX back end knows (sm_20, ..., sm_90a,
/// sm_100, ...), oldest first.
std::vector<std::string> nvptxChips();

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
/// `options.vectorBytes` on the GPU; on the CPU at least four of its vector
/// registers (`options.cpuRegisterBytes`). Accesses are aligned to at most
/// kMaxVectorAlignment bytes either way.
int64_t kernelVectorBytes(Target target, const PipelineOptions &options);

/// Adds the passes that take a module of fuse functions to `stage`.
void buildPipeline(mlir::OpPassManager &pm, Stage stage,
                   const PipelineOptions &options);

/// The PTX text of every gpu.binary in `module` (after the ptx stage), each
/// preceded by a `// gpu.module @name` line.
std::string collectPTX(mlir::ModuleOp module);

/// Registers `fuse-lower{stage=... fusion=...}` for --pass-pipeline.
void registerPipelines();

} // namespace fuse

#endif // FUSE_PIPELINES_PIPELINES_H
