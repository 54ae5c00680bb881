//===- Runtime.h - fuse's thin GPU runtime and profiler ---------*- C++ -*-===//
//
// The runtime that JIT-compiled host code calls: the `mgpu*` C ABI that
// MLIR's gpu-to-llvm lowering emits, over the CUDA driver API loaded with
// dlopen (no link-time CUDA dependency), and the profiling hooks that
// fuse-map-to-gpu{profile} places around each kernel launch.
//
// CUDA errors do not unwind through JIT code: the first error is kept
// (lastError()), later calls become no-ops, and the caller reports it after
// the JIT-compiled function returns.
//
// A run belongs to the thread that calls beginRun: its error, its records
// and its stream are that thread's, so runs on several threads at once do
// not see each other's. The driver, the device's context and fuse's own
// stream are the process's.
//
// FUSE_LIBCUDA overrides the driver library (tests use a fake one).
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_RUNTIME_RUNTIME_H
#define FUSE_RUNTIME_RUNTIME_H

#include "fuse/Runtime/HostKernels.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fuse::rt {

/// One kernel launch: which kernel (index into the module's fuse.kernels),
/// the bytes it reads and writes, its time, and (CUDA) grid and block; or
/// the copy of a result that no kernel writes (fuse-own-results), on the
/// device or the host as the kernels run.
struct KernelRecord {
  /// Order among the run's kernels and copies.
  int64_t sequence = 0;
  int64_t id = 0;
  /// The position of the result copied, or -1 for a kernel launch.
  int64_t result = -1;
  int64_t bytes = 0;
  double ms = 0;
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
};

/// One host<->device copy.
struct CopyRecord {
  /// Order among the run's kernels and copies.
  int64_t sequence = 0;
  bool toDevice = true;
  int64_t bytes = 0;
  double ms = 0;
};

enum class Mode { CPU, CUDA };

/// Starts recording a run of the calling thread in `mode` (clears its
/// earlier records). On CUDA, the run's copies and kernels go to `stream`,
/// a CUstream of the caller in device 0's primary context (0: fuse's own
/// stream), behind the work already queued on it.
void beginRun(Mode mode, uint64_t stream = 0);
/// Finishes a run: waits for the device and resolves kernel times.
/// Returns false (see lastError()) if the device reported an error.
bool endRun();
/// Records a host buffer from hostAlloc that the calling thread's run
/// allocated (the JIT's malloc), as mgpuMemAlloc records device memory,
/// until forgetAllocation (its free).
void recordHostAllocation(void *ptr);
/// Forgets `ptr`, which the run frees.
void forgetAllocation(void *ptr);
/// Frees the memory, on the host and on the device, that the calling
/// thread's last run allocated and did not free: for a run that stopped
/// early or failed, its results and intermediates.
void freeRunAllocations();
const std::vector<KernelRecord> &kernelRecords();
const std::vector<CopyRecord> &copyRecords();

/// The calling thread's first CUDA or runtime error since clearError(),
/// empty if none.
const std::string &lastError();
void clearError();
/// Whether the error is the driver's refusal of the kernels' PTX (an older
/// driver than the PTX ISA version needs, say): the program may still run
/// on the CPU target.
bool kernelsRefused();

struct DeviceInfo {
  std::string name;
  int computeMajor = 0;
  int computeMinor = 0;
  size_t totalMemory = 0;
  size_t freeMemory = 0;
};

/// Loads the driver, picks device 0, makes its primary context current and
/// creates the run's stream. Idempotent. False (see lastError()) when there
/// is no driver or no device.
bool initCuda();
DeviceInfo deviceInfo();

/// Whether the loaded driver runs kernels on the host instead of a GPU (the
/// test driver, test/Runtime/FakeCuda): it exports
/// fuseHostKernelsSetCompiler (fuse/Runtime/HostKernels.h). Needs initCuda().
bool driverRunsKernelsOnHost();
/// Gives such a driver the compiler of kernel modules for the host.
void setHostCompiler(FuseHostCompiler compiler);

/// Device memory; errors are recorded, and allocation returns nullptr.
void *deviceAlloc(size_t bytes);
void deviceFree(void *ptr);
/// Copies on the run's stream, timed and recorded as CopyRecords.
bool copyToDevice(void *device, const void *host, size_t bytes);
bool copyToHost(void *host, const void *device, size_t bytes);

/// Device-to-device copy bandwidth in GB/s (bytes read + written per
/// second), measured with a 256 MiB buffer; 0 on error.
double measureCopyBandwidth();

/// Releases the stream, events and context. Called at exit.
void shutdownCuda();

/// Host memory for the CPU target's buffers, through a cache of freed
/// blocks (like PyTorch's caching allocator): a run that repeats gets its
/// buffers back without new page faults. Aligned to 64 bytes. The cache
/// keeps at most FUSE_HOST_CACHE_MB MiB (1024 by default), the least
/// recently freed blocks going first; a request takes the smallest kept
/// block that holds it and is less than twice its size.
void *hostAlloc(size_t bytes);
/// Returns a block from hostAlloc to the cache; other pointers go to free().
void hostFree(void *ptr);
/// Frees every cached block.
void releaseHostCache();
/// The bytes of the blocks the cache keeps now.
size_t hostCacheBytes();
/// FUSE_HOST_CACHE_MB in bytes, if it is set to a number of MiB.
std::optional<size_t> hostCacheLimit();
/// Why FUSE_HOST_CACHE_MB is not a number of MiB; empty when it is one or
/// is not set (the cache then keeps 1 GiB).
std::string hostCacheLimitError();

} // namespace fuse::rt

extern "C" {
// Profiling hooks called by instrumented host code.
void fuse_kernel_begin(int64_t id, int64_t bytes);
void fuse_kernel_end(int64_t id);
void fuse_copy_begin(int64_t result, int64_t bytes);
void fuse_copy_end(int64_t result);
// Called before each host allocation (fuse-name-allocations). Programs run
// by fuse::Executable get the runner's own, which names an allocation that
// fails; this one, for programs compiled ahead of time and loaded with the
// runtime (fuse-gpu-harness, scripts/accuracy --aot), does nothing.
void fuse_allocation(int64_t id);
// Allocates result `index` of `bytes` bytes (fuse-result-allocs, the cpu
// target's host code). Programs run by fuse::Executable get the runner's
// own, which hands over the caller's array (out=); this one, for programs
// compiled ahead of time, returns a fresh block, 64-byte aligned for the
// kernels' vectors, which the caller frees with free().
void *fuse_result_alloc(int64_t index, int64_t bytes);

// The mgpu* ABI of MLIR's GPU lowering (LLVM 22).
void *mgpuModuleLoad(void *data, size_t gpuBlobSize);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);
void *mgpuStreamCreate();
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate();
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream);
void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream);
}

#endif // FUSE_RUNTIME_RUNTIME_H
