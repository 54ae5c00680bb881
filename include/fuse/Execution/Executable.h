//===- Executable.h - compile a fuse function and run it --------*- C++ -*-===//
//
// What fuse-run does, as a library: JIT-compile one function of a fuse
// module for the CPU or CUDA target and call it on host arrays. Inputs go
// to the device once and results come back once; each run's kernel launches
// and copies are its profile (fuse/Execution/Profile.h). Only this library
// talks to the runtime (fuse/Runtime/Runtime.h).
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_EXECUTION_EXECUTABLE_H
#define FUSE_EXECUTION_EXECUTABLE_H

#include "fuse-c/Fuse.h"
#include "fuse/Execution/Profile.h"
#include "fuse/Pipelines/Pipelines.h"
#include "fuse/Support/Npy.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace fuse {

/// The highest rank of the tensors a function takes and returns, as numpy
/// 1.x allows (FUSE_MAX_RANK of the C API), which fuse-check-program checks.
inline constexpr size_t kMaxRank = FUSE_MAX_RANK;

/// A tensor type of a function's signature: `?` sizes are ShapedType's
/// kDynamic.
struct TensorSpec {
  std::vector<int64_t> shape;
  DType dtype;
  /// E.g. `tensor<?x4xf32>`.
  std::string str() const;
  /// Why an array of `dtype` and `shape` cannot be this tensor (`expected
  /// float32 data, got float64`, a rank or a static size that differs), or
  /// std::nullopt.
  std::optional<std::string> mismatch(DType dtype,
                                      llvm::ArrayRef<int64_t> shape) const;
};

/// The function that `entry` names: `second` and `@second` name the same
/// one (`@@second` none), and `@"my fn"` and `my fn` too, as messages write
/// a name (symbolText).
std::string namedEntry(llvm::StringRef entry);

struct RunOptions {
  Target target = Target::CPU;
  PipelineOptions pipeline;
  /// The function to run, with or without its `@` (namedEntry); empty picks
  /// the module's only public function.
  std::string entry;
  /// How the front end's user names the function to run (`--entry` in
  /// fuse-run, `entry=` in Python), for the error when the program has
  /// several.
  std::string entryOption = "the entry option";
  /// The CPU the cpu target compiles for (an LLVM CPU name such as
  /// `znver4`); empty is the host. Code for another CPU can be assembled
  /// (Executable::assemble), not run.
  std::string cpu;
  /// Threads the cpu target's kernels run on (OpenMP); 0 is the
  /// environment's FUSE_NUM_THREADS, else every core of the host.
  int threads = 0;
  /// The program's source, when the front end has it: compile errors then
  /// show their source line and a caret, as fuse-opt's do (the handler
  /// adds to it the files that locations name).
  llvm::SourceMgr *source = nullptr;
};

/// What a front end asks to run on: a target, or the GPU when one is usable.
enum class TargetRequest { CPU, CUDA, Auto };

/// The target a run takes for `request`: the CPU; the GPU once CUDA has
/// started (an error that says why when it cannot and `request` is CUDA);
/// for Auto, the GPU when CUDA starts, else the CPU, with `note` saying why
/// ("no usable GPU (...); running on the CPU target"; empty otherwise). The
/// one choice of fuse-run and the C API.
llvm::Expected<Target> chooseTarget(TargetRequest request, std::string &note);

/// The started GPU's architecture, such as "sm_90".
llvm::Expected<std::string> deviceChip();

/// The most threads a cpu-target run takes: far more than any host has
/// cores, and few enough that the OpenMP runtime can start them (it aborts
/// the process when it cannot).
inline constexpr int kMaxCPUThreads = 1024;

/// The threads a cpu-target run of `options` uses: `options.threads`, else
/// FUSE_NUM_THREADS, else the host's cores; 1 for a cuda-target run (the
/// host only launches, and FUSE_NUM_THREADS is not read). An error for a
/// FUSE_NUM_THREADS that is not a positive integer, a negative count, or
/// one above kMaxCPUThreads.
llvm::Expected<int> cpuThreads(const RunOptions &options);

/// The x86 features the cpu target never uses, whatever the CPU has: each
/// brings instructions that would change a result that docs/accuracy.md
/// calls exact. AVX512_BF16 and AVX-NE-CONVERT round f32 to bf16 with
/// subnormals flushed to zero; AVX512_FP16 computes f16 natively, where
/// fuse rounds each op's f32 result to f16 (the same for the ops LLVM
/// narrows today, but not a promise the contract can make for every host).
/// LLVM also drops the features that imply these (AVX10).
llvm::ArrayRef<llvm::StringRef> excludedCPUFeatures();

/// The code generator of the cpu target for `cpu` (empty: the host's CPU
/// and features), less excludedCPUFeatures().
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
cpuTargetMachine(llvm::StringRef cpu);

/// The bytes of a vector register of `machine`'s CPU that its code uses:
/// 64 with AVX-512 (cpuTargetMachine does not prefer 256 bits), 32 with
/// AVX, else 16.
int64_t cpuRegisterBytes(const llvm::TargetMachine &machine);

class Executable {
public:
  /// Compiles `options.entry` of `module` (left unchanged). Compile errors
  /// carry the MLIR diagnostics, each as `file:line:col: error: ...`
  /// (printDiagnostic), notes included.
  static llvm::Expected<std::unique_ptr<Executable>>
  compile(mlir::ModuleOp module, const RunOptions &options);
  /// The machine code that compile() would run for the cpu target, as
  /// assembly (AT&T syntax), for `options.cpu` (which need not be the
  /// host's): what the numerics contract is checked against.
  static llvm::Expected<std::string> assemble(mlir::ModuleOp module,
                                              const RunOptions &options);
  ~Executable();

  const std::string &name() const { return entryName; }
  /// The threads the cpu target's kernels run on (cpuThreads).
  int threads() const { return threadCount; }
  const std::vector<TensorSpec> &inputs() const { return inputSpecs; }
  const std::vector<TensorSpec> &results() const { return resultSpecs; }
  /// Checks the number of arrays a run is given against the signature:
  /// `numInputs` inputs, and `numOuts` output arrays (0: none, or one per
  /// result). The C API checks them before it reads the caller's arrays.
  llvm::Error checkCounts(size_t numInputs, size_t numOuts) const;
  /// Kernel names, in the program's order (ProfileEvent::kernel).
  const std::vector<std::string> &kernelNames() const { return kernels; }
  Target target() const { return runTarget; }
  /// Whether the cuda target's driver emulates the GPU on the host (fuse's
  /// test driver): the profile's times are the driver's, not measured.
  bool emulatedGPU() const;

  /// An array the caller holds: row-major data of `dtype` and `shape`.
  struct Operand {
    void *data = nullptr;
    DType dtype = DType::F32;
    std::vector<int64_t> shape;
  };

  /// Runs the function once on host arrays (read in place on the CPU
  /// target, copied to the device once on the cuda target). profile()
  /// then describes the run.
  ///
  /// `outs`, empty or one per result (a null `data` for none), are the
  /// caller's arrays for the results: of the result's dtype and shape, not
  /// overlapping each other. The CPU target's kernels write into them
  /// directly (except into one over an input's memory or not aligned like
  /// the kernels' vectors: the result is copied into it after the run) and
  /// the cuda target copies each result into its array; the result
  /// returned for an array is a view of it that frees nothing.
  llvm::Expected<std::vector<HostArray>>
  run(llvm::ArrayRef<const HostArray *> inputs);
  llvm::Expected<std::vector<HostArray>> run(llvm::ArrayRef<Operand> inputs,
                                             llvm::ArrayRef<Operand> outs = {});
  /// Runs the function (cuda target) on arrays already in device memory,
  /// with no host copies, on `stream` (a CUstream of the library that
  /// produced them, behind its work; 0: fuse's own stream), and waits for
  /// it. Returns the results in device memory the caller owns (freeResult).
  llvm::Expected<std::vector<Operand>>
  runOnDevice(llvm::ArrayRef<Operand> inputs, uint64_t stream);
  /// Frees a result buffer of runOnDevice.
  void freeResult(void *data) const { freeBuffer(runTarget, data); }
  /// Frees a result buffer of `target` that a run returned (on the cuda
  /// target, device memory).
  static void freeBuffer(Target target, void *data);
  /// What the last run (run or runOnDevice) did, failed runs included:
  /// its kernel launches and copies. A call refused before it runs (bad
  /// arguments) leaves it as it was.
  const RunProfile &profile() const { return lastProfile; }

private:
  Executable() = default;
  /// What compile() and assemble() both start from.
  struct Lowered {
    /// The entry's signature, kernels and options; no code yet.
    std::unique_ptr<Executable> executable;
    /// A copy of the program holding only the entry, in the LLVM dialect.
    mlir::OwningOpRef<mlir::ModuleOp> module;
    /// The machine of `options.cpu` that the host code (and the cpu
    /// target's kernels) is compiled for.
    std::unique_ptr<llvm::TargetMachine> machine;
  };
  /// Chooses the entry, records its signature in a new Executable and
  /// lowers a copy of `module` holding only the entry through the
  /// executable pipeline of `options.target` for the CPU `options.cpu`.
  static llvm::Expected<Lowered> lower(mlir::ModuleOp module,
                                       const RunOptions &options);
  /// Checks `operands` against the signature: count, dtypes, ranks, static
  /// sizes. Errors name the argument, what was expected and what was given.
  llvm::Error checkOperands(llvm::ArrayRef<Operand> operands) const;
  /// Whether `data` is aligned for the kernels' vector loads and stores.
  bool isAligned(const void *data) const;
  /// Calls the function on `operands` (their memory is the target's) and
  /// ends the run; the results' buffers belong to the caller.
  /// Calls the entry; `outs` as in run() (the CPU target's kernels write
  /// into them).
  llvm::Expected<std::vector<Operand>>
  invoke(llvm::ArrayRef<Operand> operands, llvm::ArrayRef<Operand> outs = {});
  /// Checks the caller's arrays for the results of run(); returns those
  /// that the CPU target's kernels write into directly, a null `data` for
  /// the others.
  llvm::Expected<std::vector<Operand>>
  checkOuts(llvm::ArrayRef<Operand> inputs, llvm::ArrayRef<Operand> outs) const;

  std::unique_ptr<mlir::ExecutionEngine> engine;
  void (*entry)(void **) = nullptr;
  std::string entryName;
  std::vector<TensorSpec> inputSpecs;
  std::vector<TensorSpec> resultSpecs;
  std::vector<std::string> kernels;
  /// What each host allocation is for (the module's fuse.allocations),
  /// which an error of a failed allocation names.
  std::vector<std::string> allocations;
  /// (result, argument): the results that a run may compute straight into
  /// the argument's array when the caller gives that array as the result's
  /// output (the module's fuse.overwrites; checkOuts).
  std::vector<std::pair<unsigned, unsigned>> overwrites;
  /// The profile's names of the copies of results that no kernel writes,
  /// `[result R copied]`, by result (each made at its first copy).
  std::map<int64_t, std::string> copyNames;
  /// `[result R copied into its array]`, by result: the copy after a run
  /// into a caller's array that the kernels could not write (checkOuts).
  std::map<int64_t, std::string> outCopyNames;
  Target runTarget = Target::CPU;
  /// The alignment the kernels assume of their operands' data.
  int64_t vectorBytes = 16;
  /// OpenMP threads of the cpu target's launches (cpuThreads).
  int threadCount = 1;
  RunProfile lastProfile;
  /// Reads the runtime's records of the run that just ended into
  /// lastProfile.
  void recordProfile();
};

/// Executable::compile, except that for an Auto request whose GPU driver
/// refuses the kernels' PTX (too new for it, say) it compiles `module` again
/// for the CPU, with `note` saying why ("the GPU cannot load the kernels
/// (...); running on the CPU target").
llvm::Expected<std::unique_ptr<Executable>>
compileForRequest(mlir::ModuleOp module, RunOptions options,
                  TargetRequest request, std::string &note);

} // namespace fuse

#endif // FUSE_EXECUTION_EXECUTABLE_H
