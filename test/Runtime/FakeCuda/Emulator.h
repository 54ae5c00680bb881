//===- Emulator.h - the fake driver's GPU, on the host ----------*- C++ -*-===//
//
// What the fake CUDA driver runs kernels with: the instructions of the GPU
// that LLVM IR does not express (NVVM intrinsics, libdevice's inline PTX),
// the memory checks of a GPU, and the grid. fuse compiles each kernel module
// for the host against these (fuse/Runtime/HostKernels.h).
//
//===----------------------------------------------------------------------===//

#ifndef FAKECUDA_EMULATOR_H
#define FAKECUDA_EMULATOR_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace fakecuda {

/// The FuseHostResolver of the emulated GPU.
void *resolveEmulated(const char *key);

/// The device allocation [begin, end) that holds all of [address, address +
/// bytes); false if none does. Defined by the driver (FakeCuda.cpp); called
/// from kernels while a launch holds the driver's lock, when allocations
/// cannot change.
bool findAllocation(uint64_t address, size_t bytes, uint64_t &begin,
                    uint64_t &end);

/// A fault of a kernel, as the GPU reports it: the CUDA error, and (for the
/// log) which access of which thread.
struct Fault {
  int code = 0;
  std::string what;
};

/// Runs `kernel` (one GPU thread, FuseHostKernel::run) over the grid, with
/// the launch's kernelParams; with `warps` (a kernel with warp shuffles)
/// each warp's threads interleaved as fibers. Returns the first fault;
/// code 0 if none.
Fault runGrid(void (*kernel)(void **), const unsigned grid[3],
              const unsigned block[3], void **params, bool warps);

} // namespace fakecuda

#endif // FAKECUDA_EMULATOR_H
