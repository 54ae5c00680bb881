//===- Runner.h - compile a fuse function and run it ------------*- C++ -*-===//
//
// What fuse-run does, as a library: JIT-compile one function of a fuse
// module for the CPU or CUDA target and call it on host arrays. Inputs go
// to the device once and results come back once; the runtime records each
// kernel launch and copy (fuse/Runtime/Runtime.h).
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_RUN_RUNNER_H
#define FUSE_RUN_RUNNER_H

#include "fuse/Pipelines/Pipelines.h"
#include "fuse/Runtime/Npy.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace fuse {

/// A tensor type of a function's signature: `?` sizes are ShapedType's
/// kDynamic.
struct TensorSpec {
  std::vector<int64_t> shape;
  DType dtype;
  /// E.g. `tensor<?x4xf32>`.
  std::string str() const;
};

struct RunOptions {
  Target target = Target::CPU;
  PipelineOptions pipeline;
  /// The function to run; empty picks the module's only public function.
  std::string entry;
};

class Executable {
public:
  /// Compiles `options.entry` of `module` (left unchanged). Compile errors
  /// carry the MLIR diagnostics.
  static llvm::Expected<std::unique_ptr<Executable>>
  compile(mlir::ModuleOp module, const RunOptions &options);
  ~Executable();

  const std::string &name() const { return entryName; }
  const std::vector<TensorSpec> &inputs() const { return inputSpecs; }
  const std::vector<TensorSpec> &results() const { return resultSpecs; }
  /// Kernel names, indexed by rt::KernelRecord::id.
  const std::vector<std::string> &kernelNames() const { return kernels; }
  Target target() const { return runTarget; }

  /// An array the caller holds: row-major data of `dtype` and `shape`.
  struct Operand {
    void *data = nullptr;
    DType dtype = DType::F32;
    std::vector<int64_t> shape;
  };

  /// Runs the function once on host arrays (read in place on the CPU
  /// target, copied to the device once on the cuda target). The runtime's
  /// records describe the run.
  llvm::Expected<std::vector<HostArray>>
  run(llvm::ArrayRef<const HostArray *> inputs);
  llvm::Expected<std::vector<HostArray>> run(llvm::ArrayRef<Operand> inputs);
  /// Runs the function (cuda target) on arrays already in device memory,
  /// with no host copies, after synchronizing `stream` (a CUstream of the
  /// library that produced them; 0: none). Returns the results in device
  /// memory the caller owns (freeResult).
  llvm::Expected<std::vector<Operand>>
  runOnDevice(llvm::ArrayRef<Operand> inputs, uint64_t stream);
  /// Frees a result buffer of runOnDevice.
  void freeResult(void *data) const;

private:
  Executable() = default;
  /// Checks `operands` against the signature: count, dtypes, ranks, static
  /// sizes. Errors name the argument, what was expected and what was given.
  llvm::Error checkOperands(llvm::ArrayRef<Operand> operands) const;
  /// Whether `data` is aligned for the kernels' vector loads and stores.
  bool isAligned(const void *data) const;
  /// Calls the function on `operands` (their memory is the target's) and
  /// ends the run; the results' buffers belong to the caller.
  llvm::Expected<std::vector<Operand>> invoke(llvm::ArrayRef<Operand> operands);

  std::unique_ptr<mlir::ExecutionEngine> engine;
  void (*entry)(void **) = nullptr;
  std::string entryName;
  std::vector<TensorSpec> inputSpecs;
  std::vector<TensorSpec> resultSpecs;
  std::vector<std::string> kernels;
  Target runTarget = Target::CPU;
  /// The kernels' vector size in bytes: the alignment they assume.
  int64_t vectorBytes = 16;
};

/// The element type of `dtype` in `context`, and back.
mlir::Type toMLIRType(DType dtype, mlir::MLIRContext *context);
std::optional<DType> fromMLIRType(mlir::Type type);

} // namespace fuse

#endif // FUSE_RUN_RUNNER_H
