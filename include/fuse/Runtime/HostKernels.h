/*===- HostKernels.h - kernels run on the host by a test driver ---*- C -*-===*\
|*                                                                            *|
|* The C interface between fuse and a CUDA driver that runs kernels on the    *|
|* host instead of a GPU: the test driver in test/Runtime/FakeCuda, which     *|
|* emulates the GPU so that every --target=cuda run computes real values      *|
|* without one.                                                               *|
|*                                                                            *|
|* Such a driver receives PTX from cuModuleLoadData*, which it cannot run.    *|
|* fuse compiled that PTX from LLVM IR (fuse-gpu-module-to-ptx), and the      *|
|* process that did keeps the IR, keyed by the PTX text. The driver exports   *|
|* fuseHostKernelsSetCompiler, which fuse's runtime finds with dlsym (a real  *|
|* driver has no such symbol, so nothing changes on a GPU) and calls with     *|
|* fuse's host compiler. When a module is loaded, the driver calls the        *|
|* compiler with the PTX text and a resolver for the instructions it          *|
|* emulates; the compiler finds the IR of exactly that PTX, compiles it for   *|
|* the host with every NVVM intrinsic and inline PTX instruction replaced by  *|
|* the driver's emulation, and returns one host function per kernel.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef FUSE_RUNTIME_HOSTKERNELS_H
#define FUSE_RUNTIME_HOSTKERNELS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One kernel of a host build. `run` runs one GPU thread: the driver sets
/// the thread's ids (read through the resolver's sreg functions) and passes
/// the launch's kernelParams array unchanged.
typedef struct FuseHostKernel {
  const char *name;
  void (*run)(void **params);
} FuseHostKernel;

/// What the emulated GPU provides, by key, or NULL when it does not:
///   - an NVVM intrinsic: its name and LLVM function type, e.g.
///     "llvm.nvvm.fma.rm.f float (float, float, float)"; called with the
///     intrinsic's arguments, returns its result;
///   - inline PTX: "asm " + the assembly text with each run of white space
///     made one space, "|", the constraints; called as
///     `void (uint64_t *outputs, const uint64_t *inputs)` with every operand
///     as its bits, zero-extended;
///   - "fuse.access void (ptr, i64, i64)": called before every load and
///     store of memory that is not the thread's own, with the address, the
///     bytes accessed and the alignment the GPU requires of the access;
///   - the run-time library functions the host code may call for
///     conversions (e.g. "__truncsfbf2").
typedef void *(*FuseHostResolver)(const char *key);

/// Compiles the kernel module whose PTX is `ptx` (NUL-terminated) for the
/// host. On success returns 0 and sets `*kernels` to `*count` kernels that
/// stay valid until the process exits; on failure returns nonzero and writes
/// why into `error` (`errorSize` bytes, NUL-terminated).
typedef int (*FuseHostCompiler)(const char *ptx, FuseHostResolver resolve,
                                const FuseHostKernel **kernels, size_t *count,
                                char *error, size_t errorSize);

/// The driver's entry point, found with dlsym: installs `compiler`.
typedef void (*FuseHostKernelsSetCompiler)(FuseHostCompiler compiler);
#define FUSE_HOST_KERNELS_SET_COMPILER "fuseHostKernelsSetCompiler"

#ifdef __cplusplus
}
#endif

#endif /* FUSE_RUNTIME_HOSTKERNELS_H */
