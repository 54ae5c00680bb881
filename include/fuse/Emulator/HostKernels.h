//===- HostKernels.h - kernel modules compiled for the host -----*- C++ -*-===//
//
// fuse's half of include/fuse/Runtime/HostKernels.h: the record of the LLVM
// IR behind each PTX module this process generated, and the compiler that
// turns that IR into host code for a CUDA driver that runs kernels on the
// host (the test driver, test/Runtime/FakeCuda).
//
// Recording is off unless such a driver is loaded: fuse-opt and runs on a
// real GPU keep nothing.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_EMULATOR_HOSTKERNELS_H
#define FUSE_EMULATOR_HOSTKERNELS_H

#include "fuse/Runtime/HostKernels.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace fuse::hostkernels {

/// Whether fuse-gpu-module-to-ptx records the IR of each module it compiles.
bool isRecording();
/// Starts recording, for the rest of the process.
void startRecording();

/// Records `module`, the NVVM IR that NVPTX code generation receives (after
/// libdevice linking and optimization), as the source of `ptx`. Keyed by
/// the PTX text (a hash of it, checked against the whole text).
void record(llvm::StringRef ptx, const llvm::Module &module);

/// The bitcode recorded for exactly `ptx`, if any.
std::optional<std::string> find(llvm::StringRef ptx);

/// The key of `ptx` in the record, as the error messages show it.
std::string keyOf(llvm::StringRef ptx);

/// When the loaded CUDA driver runs kernels on the host, starts recording
/// and gives the driver the host compiler; otherwise does nothing. Called
/// before compiling for the cuda target.
void enableIfDriverRunsKernelsOnHost();

/// The host compiler (FuseHostCompiler).
int compile(const char *ptx, FuseHostResolver resolve,
            const FuseHostKernel **kernels, size_t *count, char *error,
            size_t errorSize);

} // namespace fuse::hostkernels

#endif // FUSE_EMULATOR_HOSTKERNELS_H
