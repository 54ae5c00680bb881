//===- Runtime.cpp - fuse's thin GPU runtime and profiler ----------------===//
//
// The CUDA driver API is declared here by hand (the few types and entry
// points used), so that the runtime builds without the CUDA toolkit and
// loads libcuda.so.1 only when a GPU run is asked for.
//
//===----------------------------------------------------------------------===//

#include "fuse/Runtime/Runtime.h"
#include "fuse/Runtime/PTXVersions.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <list>
#include <map>
#include <mutex>
#include <unordered_map>

using namespace fuse::rt;

namespace {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUstream = void *;
using CUevent = void *;

constexpr int kJitErrorLogBuffer = 5;
constexpr int kJitErrorLogBufferSize = 6;
constexpr int kJitOptimizationLevel = 7;
constexpr int kAttrComputeMajor = 75;
constexpr int kAttrComputeMinor = 76;

/// The driver entry points fuse uses, resolved with dlsym.
struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxGetCurrent)(CUcontext *);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuMemGetInfo)(size_t *, size_t *);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
};

struct PendingKernel {
  KernelRecord record;
  CUevent start = nullptr;
  CUevent stop = nullptr;
  /// Whether the stop event is recorded (behind the launch, or at the end
  /// of a kernel that launched nothing).
  bool stopped = false;
  std::chrono::steady_clock::time_point cpuStart;
};

/// What the process shares: the driver, the device, its context and fuse's
/// own stream.
struct State {
  std::mutex mutex;
  void *library = nullptr;
  Driver driver{};
  bool initialized = false;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUstream ownStream = nullptr;
  /// Kernel names for errors, by function; a program compiled on one
  /// thread names them while another thread's run reads them.
  std::mutex namesMutex;
  std::unordered_map<CUfunction, std::string> functionNames;
  /// The driver's fuseHostKernelsSetCompiler, if it runs kernels on the
  /// host.
  FuseHostKernelsSetCompiler setHostCompiler = nullptr;
};

State &state() {
  static State *instance = new State();
  return *instance;
}

/// What belongs to the run of the calling thread: its error, its records
/// and its stream. Runs on different threads do not see each other's.
struct Run {
  /// The caller's stream (runOnDevice), or null for fuse's own.
  CUstream stream = nullptr;
  std::string error;
  /// Whether `error` is the driver's refusal of the kernels' PTX.
  bool kernelsRefused = false;
  Mode mode = Mode::CPU;
  std::vector<PendingKernel> pending;
  std::vector<KernelRecord> kernels;
  std::vector<CopyRecord> copies;
  int64_t sequence = 0;
  /// The last kernel launched, named in the error of a fault that a later
  /// call reports (stickyFault).
  CUfunction lastLaunched = nullptr;
  /// What the run allocated and has not freed (freeRunAllocations), and
  /// whether it is device memory.
  std::vector<std::pair<void *, bool>> allocations;
};

Run &run() {
  thread_local Run current;
  return current;
}

/// The stream of the calling thread's run.
CUstream runStream() {
  CUstream stream = run().stream;
  return stream ? stream : state().ownStream;
}

/// The name of a kernel that mgpuModuleGetFunction returned.
std::string functionName(CUfunction function) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.namesMutex);
  auto it = s.functionNames.find(function);
  return it == s.functionNames.end() ? std::string() : it->second;
}

/// Records `message` as the run's error unless one is already there.
void fail(const std::string &message) {
  Run &r = run();
  if (r.error.empty())
    r.error = message;
}

/// Whether `result` is a fault of a running kernel, which a later call
/// reports (the launch itself succeeded) and which leaves the context
/// unusable: CUDA_ERROR_ILLEGAL_ADDRESS, LAUNCH_TIMEOUT, ASSERT, the
/// hardware's stack, instruction, alignment, address space and PC errors,
/// LAUNCH_FAILED.
bool stickyFault(CUresult result) {
  return result == 700 || result == 702 || result == 710 ||
         (result >= 714 && result <= 719);
}

/// Checks a driver result; on failure records "call: NAME: description".
bool check(CUresult result, const char *call) {
  if (result == 0)
    return true;
  State &s = state();
  const char *name = nullptr, *text = nullptr;
  if (s.driver.cuGetErrorName)
    s.driver.cuGetErrorName(result, &name);
  if (s.driver.cuGetErrorString)
    s.driver.cuGetErrorString(result, &text);
  // The driver leaves both null for codes it does not know.
  std::string what = name ? name : "CUDA error " + std::to_string(result);
  if (text)
    what += std::string(" (") + text + ")";
  if (stickyFault(result))
    what += std::string("; a kernel faulted") +
            (run().lastLaunched ? " (the last one launched: " +
                                      functionName(run().lastLaunched) + ")"
                                : "") +
            ", and the error is sticky: this process's CUDA context runs "
            "nothing more, and every later call fails (restart the process)";
  fail(std::string(call) + " failed: " + what);
  return false;
}

template <typename Fn>
bool resolve(void *library, Fn &fn, std::initializer_list<const char *> names) {
  for (const char *name : names)
    if (void *symbol = dlsym(library, name)) {
      fn = reinterpret_cast<Fn>(symbol);
      return true;
    }
  fail(std::string("the CUDA driver has no ") + *names.begin());
  return false;
}

bool loadDriver() {
  State &s = state();
  if (s.library)
    return true;
  const char *path = std::getenv("FUSE_LIBCUDA");
  if (!path || !*path)
    path = "libcuda.so.1";
  s.library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!s.library) {
    const char *why = dlerror();
    fail(std::string("no CUDA driver: cannot load ") + path + " (" +
         (why ? why : "unknown reason") + ")");
    return false;
  }
  Driver &d = s.driver;
  void *l = s.library;
  s.setHostCompiler = reinterpret_cast<FuseHostKernelsSetCompiler>(
      dlsym(l, FUSE_HOST_KERNELS_SET_COMPILER));
  return resolve(l, d.cuInit, {"cuInit"}) &&
         resolve(l, d.cuDriverGetVersion, {"cuDriverGetVersion"}) &&
         resolve(l, d.cuGetErrorName, {"cuGetErrorName"}) &&
         resolve(l, d.cuGetErrorString, {"cuGetErrorString"}) &&
         resolve(l, d.cuDeviceGetCount, {"cuDeviceGetCount"}) &&
         resolve(l, d.cuDeviceGet, {"cuDeviceGet"}) &&
         resolve(l, d.cuDeviceGetName, {"cuDeviceGetName"}) &&
         resolve(l, d.cuDeviceGetAttribute, {"cuDeviceGetAttribute"}) &&
         resolve(l, d.cuDevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"}) &&
         resolve(
             l, d.cuDevicePrimaryCtxRelease,
             {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"}) &&
         resolve(l, d.cuCtxGetCurrent, {"cuCtxGetCurrent"}) &&
         resolve(l, d.cuCtxSetCurrent, {"cuCtxSetCurrent"}) &&
         resolve(l, d.cuMemGetInfo, {"cuMemGetInfo_v2", "cuMemGetInfo"}) &&
         resolve(l, d.cuMemAlloc, {"cuMemAlloc_v2", "cuMemAlloc"}) &&
         resolve(l, d.cuMemFree, {"cuMemFree_v2", "cuMemFree"}) &&
         resolve(l, d.cuMemcpyAsync, {"cuMemcpyAsync"}) &&
         resolve(l, d.cuMemsetD32Async, {"cuMemsetD32Async"}) &&
         resolve(l, d.cuMemsetD16Async, {"cuMemsetD16Async"}) &&
         resolve(l, d.cuStreamCreate, {"cuStreamCreate"}) &&
         resolve(l, d.cuStreamDestroy,
                 {"cuStreamDestroy_v2", "cuStreamDestroy"}) &&
         resolve(l, d.cuStreamSynchronize, {"cuStreamSynchronize"}) &&
         resolve(l, d.cuStreamWaitEvent, {"cuStreamWaitEvent"}) &&
         resolve(l, d.cuEventCreate, {"cuEventCreate"}) &&
         resolve(l, d.cuEventDestroy,
                 {"cuEventDestroy_v2", "cuEventDestroy"}) &&
         resolve(l, d.cuEventRecord, {"cuEventRecord"}) &&
         resolve(l, d.cuEventSynchronize, {"cuEventSynchronize"}) &&
         resolve(l, d.cuEventElapsedTime,
                 {"cuEventElapsedTime_v2", "cuEventElapsedTime"}) &&
         resolve(l, d.cuModuleLoadDataEx, {"cuModuleLoadDataEx"}) &&
         resolve(l, d.cuModuleUnload, {"cuModuleUnload"}) &&
         resolve(l, d.cuModuleGetFunction, {"cuModuleGetFunction"}) &&
         resolve(l, d.cuLaunchKernel, {"cuLaunchKernel"});
}

/// The context this thread had when fuse made its own current, to be put
/// back when fuse is done (restoreCallerContext).
thread_local CUcontext callerContext = nullptr;
thread_local bool switchedContext = false;

/// Makes fuse's context current on this thread if it is not. Checked on
/// every call, not once per thread: another library on the same thread (or
/// a finalizer in Python, on another thread) may have made its own context
/// current since. Needs initCuda().
bool makeContextCurrent() {
  State &s = state();
  CUcontext current = nullptr;
  if (!check(s.driver.cuCtxGetCurrent(&current), "cuCtxGetCurrent"))
    return false;
  if (current == s.context)
    return true;
  if (!check(s.driver.cuCtxSetCurrent(s.context), "cuCtxSetCurrent"))
    return false;
  // A thread without a context keeps fuse's: nothing to put back.
  if (current && !switchedContext) {
    callerContext = current;
    switchedContext = true;
  }
  return true;
}

/// Puts back the context this thread had before fuse's calls, if fuse
/// replaced another one.
void restoreCallerContext() {
  if (!switchedContext)
    return;
  switchedContext = false;
  check(state().driver.cuCtxSetCurrent(callerContext), "cuCtxSetCurrent");
}

/// True when CUDA calls may proceed: initialized, the context current on this
/// thread, and no error so far.
bool ready() {
  State &s = state();
  if (!s.initialized)
    fail("the CUDA runtime was used before initCuda()");
  else
    makeContextCurrent();
  return s.initialized && run().error.empty();
}

/// The operand of a directive of PTX text (`.version 8.0` -> "8.0"), or
/// "unknown".
std::string ptxDirective(const char *ptx, const char *directive) {
  const char *at = std::strstr(ptx, directive);
  if (!at)
    return "unknown";
  at += std::strlen(directive);
  while (*at == ' ' || *at == '\t')
    ++at;
  const char *end = at;
  while (*end && *end != '\n' && *end != '\r' && *end != ' ' && *end != ',')
    ++end;
  return end > at ? std::string(at, end) : "unknown";
}

CUevent newEvent() {
  CUevent event = nullptr;
  if (!check(state().driver.cuEventCreate(&event, 0), "cuEventCreate"))
    return nullptr;
  return event;
}

} // namespace

//===----------------------------------------------------------------------===//
// Runs, records and errors
//===----------------------------------------------------------------------===//

void fuse::rt::beginRun(Mode mode, uint64_t stream) {
  State &s = state();
  Run &r = run();
  r.mode = mode;
  if (mode == Mode::CUDA && stream && ready()) {
    // The caller's stream: the run's work queues behind what its producers
    // queued there, with no host wait. An event recorded on it first says
    // at once whether it is a stream of this context.
    r.stream = reinterpret_cast<CUstream>(static_cast<uintptr_t>(stream));
    if (CUevent probe = newEvent()) {
      check(s.driver.cuEventRecord(probe, runStream()),
            "cuEventRecord (the arguments' stream)");
      s.driver.cuEventDestroy(probe);
    }
  }
  r.sequence = 0;
  r.pending.clear();
  r.kernels.clear();
  r.copies.clear();
  r.allocations.clear();
}

void fuse::rt::recordHostAllocation(void *ptr) {
  if (ptr)
    run().allocations.push_back({ptr, false});
}

void fuse::rt::forgetAllocation(void *ptr) {
  auto &allocations = run().allocations;
  auto it = std::find_if(allocations.begin(), allocations.end(),
                         [&](const auto &entry) { return entry.first == ptr; });
  if (it != allocations.end()) {
    *it = allocations.back();
    allocations.pop_back();
  }
}

void fuse::rt::freeRunAllocations() {
  Run &r = run();
  for (auto [ptr, device] : r.allocations)
    device ? deviceFree(ptr) : hostFree(ptr);
  r.allocations.clear();
}

bool fuse::rt::driverRunsKernelsOnHost() {
  return state().setHostCompiler != nullptr;
}

void fuse::rt::setHostCompiler(FuseHostCompiler compiler) {
  if (FuseHostKernelsSetCompiler set = state().setHostCompiler)
    set(compiler);
}

bool fuse::rt::endRun() {
  State &s = state();
  Run &r = run();
  if (r.mode == Mode::CUDA && s.initialized && makeContextCurrent() &&
      r.error.empty())
    check(s.driver.cuStreamSynchronize(runStream()), "cuStreamSynchronize");
  for (PendingKernel &kernel : r.pending) {
    if (r.mode == Mode::CUDA && kernel.start && kernel.stop && kernel.stopped) {
      float ms = 0;
      if (r.error.empty() &&
          check(s.driver.cuEventElapsedTime(&ms, kernel.start, kernel.stop),
                "cuEventElapsedTime"))
        kernel.record.ms = ms;
    }
    for (CUevent event : {kernel.start, kernel.stop})
      if (event)
        s.driver.cuEventDestroy(event);
    r.kernels.push_back(kernel.record);
  }
  r.pending.clear();
  r.stream = nullptr;
  restoreCallerContext();
  return r.error.empty();
}

const std::vector<KernelRecord> &fuse::rt::kernelRecords() {
  return run().kernels;
}
const std::vector<CopyRecord> &fuse::rt::copyRecords() { return run().copies; }
const std::string &fuse::rt::lastError() { return run().error; }
void fuse::rt::clearError() {
  Run &r = run();
  r.error.clear();
  r.kernelsRefused = false;
}
bool fuse::rt::kernelsRefused() { return run().kernelsRefused; }

/// Starts the record of kernel `id`, or of the copy of result `result`.
static void beginRecord(int64_t id, int64_t result, int64_t bytes) {
  State &s = state();
  Run &r = run();
  PendingKernel kernel;
  kernel.record.sequence = r.sequence++;
  kernel.record.id = id;
  kernel.record.result = result;
  kernel.record.bytes = bytes;
  if (r.mode == Mode::CUDA) {
    if (ready() && (kernel.start = newEvent()) && (kernel.stop = newEvent()))
      check(s.driver.cuEventRecord(kernel.start, runStream()), "cuEventRecord");
  } else {
    kernel.cpuStart = std::chrono::steady_clock::now();
  }
  r.pending.push_back(kernel);
}

/// Ends the record that beginRecord(id, result, ...) started.
static void endRecord(int64_t id, int64_t result) {
  State &s = state();
  Run &r = run();
  if (r.pending.empty() || r.pending.back().record.id != id ||
      r.pending.back().record.result != result) {
    fail("profiling hooks out of order (" +
         (result < 0 ? "kernel " + std::to_string(id)
                     : "copy of result " + std::to_string(result)) +
         ")");
    return;
  }
  PendingKernel &kernel = r.pending.back();
  // On CUDA, mgpuLaunchKernel recorded the stop event right after the
  // launch; a kernel over no element launches nothing, and its stop event
  // goes right behind its start (an event never recorded has no time).
  if (r.mode == Mode::CUDA) {
    if (kernel.stop && !kernel.stopped && ready())
      kernel.stopped = check(s.driver.cuEventRecord(kernel.stop, runStream()),
                             "cuEventRecord");
    return;
  }
  kernel.record.ms = std::chrono::duration<double, std::milli>(
                         std::chrono::steady_clock::now() - kernel.cpuStart)
                         .count();
}

extern "C" void fuse_kernel_begin(int64_t id, int64_t bytes) {
  beginRecord(id, /*result=*/-1, bytes);
}
extern "C" void fuse_kernel_end(int64_t id) { endRecord(id, /*result=*/-1); }
extern "C" void fuse_copy_begin(int64_t result, int64_t bytes) {
  beginRecord(/*id=*/-1, result, bytes);
}
extern "C" void fuse_copy_end(int64_t result) { endRecord(/*id=*/-1, result); }

extern "C" void fuse_allocation(int64_t) {}

extern "C" void *fuse_result_alloc(int64_t, int64_t bytes) {
  size_t size =
      (static_cast<size_t>(std::max<int64_t>(bytes, 1)) + 63) / 64 * 64;
  return std::aligned_alloc(64, size);
}

//===----------------------------------------------------------------------===//
// Device management
//===----------------------------------------------------------------------===//

bool fuse::rt::initCuda() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.initialized)
    return true;
  if (!run().error.empty() || !loadDriver())
    return false;
  Driver &d = s.driver;
  int count = 0;
  if (!check(d.cuInit(0), "cuInit") ||
      !check(d.cuDeviceGetCount(&count), "cuDeviceGetCount"))
    return false;
  if (count == 0) {
    fail("the CUDA driver reports no device");
    return false;
  }
  if (!check(d.cuDeviceGet(&s.device, 0), "cuDeviceGet") ||
      !check(d.cuDevicePrimaryCtxRetain(&s.context, s.device),
             "cuDevicePrimaryCtxRetain"))
    return false;
  if (!makeContextCurrent() ||
      !check(d.cuStreamCreate(&s.ownStream, 0), "cuStreamCreate")) {
    // Leave nothing behind: the caller may go on with the CPU target.
    restoreCallerContext();
    d.cuDevicePrimaryCtxRelease(s.device);
    s.context = nullptr;
    return false;
  }
  s.initialized = true;
  std::atexit(shutdownCuda);
  return true;
}

void fuse::rt::shutdownCuda() {
  State &s = state();
  if (!s.initialized)
    return;
  s.initialized = false;
  makeContextCurrent();
  s.driver.cuStreamDestroy(s.ownStream);
  s.driver.cuDevicePrimaryCtxRelease(s.device);
}

/// The device's compute capability into `major` and `minor`: 0, or the
/// result of the query that failed.
static CUresult computeCapability(State &s, int &major, int &minor) {
  CUresult result =
      s.driver.cuDeviceGetAttribute(&major, kAttrComputeMajor, s.device);
  return result ? result
                : s.driver.cuDeviceGetAttribute(&minor, kAttrComputeMinor,
                                                s.device);
}

DeviceInfo fuse::rt::deviceInfo() {
  State &s = state();
  DeviceInfo info;
  if (!ready())
    return info;
  char name[256] = {0};
  check(s.driver.cuDeviceGetName(name, sizeof(name) - 1, s.device),
        "cuDeviceGetName");
  info.name = name;
  check(computeCapability(s, info.computeMajor, info.computeMinor),
        "cuDeviceGetAttribute");
  check(s.driver.cuMemGetInfo(&info.freeMemory, &info.totalMemory),
        "cuMemGetInfo");
  return info;
}

void *fuse::rt::deviceAlloc(size_t bytes) {
  if (!ready())
    return nullptr;
  CUdeviceptr ptr = 0;
  // cuMemAlloc refuses 0 bytes; an empty tensor still needs an address.
  std::string call = "cuMemAlloc of " + std::to_string(bytes) + " bytes";
  if (!check(state().driver.cuMemAlloc(&ptr, bytes ? bytes : 1), call.c_str()))
    return nullptr;
  return reinterpret_cast<void *>(ptr);
}

void fuse::rt::deviceFree(void *ptr) {
  State &s = state();
  if (!ptr || !s.initialized)
    return;
  // Frees run even after an error, so that nothing leaks.
  makeContextCurrent();
  CUresult result = s.driver.cuMemFree(reinterpret_cast<CUdeviceptr>(ptr));
  check(result, "cuMemFree");
  restoreCallerContext();
}

static bool timedCopy(void *dst, const void *src, size_t bytes, bool toDevice) {
  State &s = state();
  Run &r = run();
  if (!ready())
    return false;
  CopyRecord record;
  record.sequence = r.sequence++;
  record.toDevice = toDevice;
  record.bytes = bytes;
  if (bytes == 0) {
    r.copies.push_back(record);
    return true;
  }
  CUevent start = newEvent(), stop = newEvent();
  bool ok =
      start && stop &&
      check(s.driver.cuEventRecord(start, runStream()), "cuEventRecord") &&
      check(s.driver.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                   reinterpret_cast<CUdeviceptr>(src), bytes,
                                   runStream()),
            toDevice ? "cuMemcpyAsync (host to device)"
                     : "cuMemcpyAsync (device to host)") &&
      check(s.driver.cuEventRecord(stop, runStream()), "cuEventRecord") &&
      check(s.driver.cuEventSynchronize(stop), "cuEventSynchronize");
  float ms = 0;
  ok = ok && check(s.driver.cuEventElapsedTime(&ms, start, stop),
                   "cuEventElapsedTime");
  if (ok)
    record.ms = ms;
  if (start)
    s.driver.cuEventDestroy(start);
  if (stop)
    s.driver.cuEventDestroy(stop);
  r.copies.push_back(record);
  return ok;
}

bool fuse::rt::copyToDevice(void *device, const void *host, size_t bytes) {
  return timedCopy(device, host, bytes, /*toDevice=*/true);
}

bool fuse::rt::copyToHost(void *host, const void *device, size_t bytes) {
  return timedCopy(host, device, bytes, /*toDevice=*/false);
}

double fuse::rt::measureCopyBandwidth() {
  State &s = state();
  constexpr size_t kBytes = size_t(256) << 20;
  void *a = deviceAlloc(kBytes), *b = deviceAlloc(kBytes);
  CUevent start = a && b ? newEvent() : nullptr;
  CUevent stop = start ? newEvent() : nullptr;
  double gbPerSecond = 0;
  if (stop) {
    auto copy = [&] {
      return check(s.driver.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(b),
                                          reinterpret_cast<CUdeviceptr>(a),
                                          kBytes, runStream()),
                   "cuMemcpyAsync (device to device)");
    };
    constexpr int kRepeats = 5;
    bool ok = copy() && check(s.driver.cuEventRecord(start, runStream()),
                              "cuEventRecord");
    for (int i = 0; ok && i < kRepeats; ++i)
      ok = copy();
    float ms = 0;
    if (ok &&
        check(s.driver.cuEventRecord(stop, runStream()), "cuEventRecord") &&
        check(s.driver.cuEventSynchronize(stop), "cuEventSynchronize") &&
        check(s.driver.cuEventElapsedTime(&ms, start, stop),
              "cuEventElapsedTime") &&
        ms > 0)
      gbPerSecond = 2.0 * kBytes * kRepeats / (ms * 1e6);
  }
  if (start)
    s.driver.cuEventDestroy(start);
  if (stop)
    s.driver.cuEventDestroy(stop);
  deviceFree(a);
  deviceFree(b);
  return gbPerSecond;
}

//===----------------------------------------------------------------------===//
// Host memory cache
//===----------------------------------------------------------------------===//

namespace {
/// Freed blocks kept for reuse, the least recently freed first out, up to
/// a total; a request takes the smallest kept block that holds it, if that
/// block is less than twice its size (a run whose sizes change a little
/// reuses its buffers too).
struct HostCache {
  struct Block {
    size_t capacity;
    void *ptr;
  };
  std::mutex mutex;
  /// Live blocks from hostAlloc, with their capacities.
  std::unordered_map<void *, size_t> live;
  /// Freed blocks, the most recently freed first.
  std::list<Block> order;
  /// The same blocks by capacity.
  std::multimap<size_t, std::list<Block>::iterator> byCapacity;
  size_t cachedBytes = 0;
  size_t limit = limitFromEnvironment();

  ~HostCache() { releaseAll(); }

  /// FUSE_HOST_CACHE_MB (0: keep nothing), else 1 GiB; a value that is not
  /// one is refused where runs are made (hostCacheLimitError).
  static size_t limitFromEnvironment() {
    return fuse::rt::hostCacheLimit().value_or(size_t(1) << 30);
  }

  /// `bytes` as hostAlloc allocates it: a multiple of 64, at least 64.
  static size_t capacityFor(size_t bytes) {
    return (std::max<size_t>(bytes, 1) + 63) / 64 * 64;
  }

  void *take(size_t bytes) {
    // Against the capacity a new block would have: a 32-byte result reuses
    // a 64-byte block (compared with 32, it never did, and each call of a
    // program with tiny results kept one more block).
    size_t capacity = capacityFor(bytes);
    auto it = byCapacity.lower_bound(capacity);
    if (it == byCapacity.end() || it->first / 2 >= capacity)
      return nullptr;
    Block block = *it->second;
    order.erase(it->second);
    byCapacity.erase(it);
    cachedBytes -= block.capacity;
    live[block.ptr] = block.capacity;
    return block.ptr;
  }

  void keep(void *ptr, size_t capacity) {
    order.push_front({capacity, ptr});
    byCapacity.emplace(capacity, order.begin());
    cachedBytes += capacity;
    while (cachedBytes > limit) {
      Block oldest = order.back();
      auto range = byCapacity.equal_range(oldest.capacity);
      for (auto it = range.first; it != range.second; ++it)
        if (it->second->ptr == oldest.ptr) {
          byCapacity.erase(it);
          break;
        }
      order.pop_back();
      cachedBytes -= oldest.capacity;
      std::free(oldest.ptr);
    }
  }

  void releaseAll() {
    for (const Block &block : order)
      std::free(block.ptr);
    order.clear();
    byCapacity.clear();
    cachedBytes = 0;
  }
};

HostCache &hostCache() {
  static HostCache cache;
  return cache;
}
} // namespace

/// FUSE_HOST_CACHE_MB's values are below it (2^40 MiB).
constexpr unsigned long long kHostCacheMiBBound = 1ull << 40;

namespace {
/// FUSE_HOST_CACHE_MB as the library read it when it loaded: the limit in
/// bytes (none when unset or not a number), and the error for a value
/// that is not a number.
struct HostCacheSetting {
  std::optional<size_t> limit;
  std::string error;
};

HostCacheSetting readHostCacheSetting() {
  const char *text = std::getenv("FUSE_HOST_CACHE_MB");
  if (!text || !*text)
    return {};
  HostCacheSetting setting;
  setting.error = "FUSE_HOST_CACHE_MB=" + std::string(text) +
                  ": not a number of MiB from 0 (keep no freed buffer) to " +
                  std::to_string(kHostCacheMiBBound - 1);
  // Digits only: strtoull would take "-5" (as a huge number) and " 5".
  for (const char *c = text; *c; ++c)
    if (*c < '0' || *c > '9')
      return setting;
  errno = 0;
  unsigned long long mib = std::strtoull(text, nullptr, 10);
  if (errno || mib >= kHostCacheMiBBound)
    return setting;
  return {static_cast<size_t>(mib) << 20, ""};
}

/// Read once, when the library loads: a later change of the environment
/// changes neither the limit nor whether runs are refused.
const HostCacheSetting hostCacheSetting = readHostCacheSetting();
} // namespace

std::optional<size_t> fuse::rt::hostCacheLimit() {
  return hostCacheSetting.limit;
}

std::string fuse::rt::hostCacheLimitError() { return hostCacheSetting.error; }

void *fuse::rt::hostAlloc(size_t bytes) {
  HostCache &cache = hostCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  if (void *ptr = cache.take(bytes))
    return ptr;
  size_t rounded = HostCache::capacityFor(bytes);
  void *ptr = std::aligned_alloc(64, rounded);
  if (!ptr)
    return nullptr;
  cache.live[ptr] = rounded;
  return ptr;
}

void fuse::rt::hostFree(void *ptr) {
  if (!ptr)
    return;
  HostCache &cache = hostCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  auto it = cache.live.find(ptr);
  if (it == cache.live.end()) {
    std::free(ptr);
    return;
  }
  size_t capacity = it->second;
  cache.live.erase(it);
  cache.keep(ptr, capacity);
}

void fuse::rt::releaseHostCache() {
  HostCache &cache = hostCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  cache.releaseAll();
}

size_t fuse::rt::hostCacheBytes() {
  HostCache &cache = hostCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  return cache.cachedBytes;
}

//===----------------------------------------------------------------------===//
// mgpu* ABI: every kernel and copy of a run goes to the one run stream.
//===----------------------------------------------------------------------===//

extern "C" void *mgpuModuleLoadJIT(void *data, int optLevel) {
  State &s = state();
  if (!ready())
    return nullptr;
  char log[8192] = {0};
  int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSize,
                   kJitOptimizationLevel};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log) - 1),
                    reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  CUmodule module = nullptr;
  CUresult loaded =
      s.driver.cuModuleLoadDataEx(&module, data, 3, options, values);
  if (!check(loaded, "cuModuleLoadDataEx (PTX JIT)")) {
    // The usual cause is a driver older than the PTX ISA version, which
    // the driver's log may not say: give both versions.
    run().kernelsRefused = true;
    int version = 0;
    std::string driver = s.driver.cuDriverGetVersion(&version) == 0
                             ? std::to_string(version / 1000) + "." +
                                   std::to_string(version % 1000 / 10)
                             : "unknown";
    run().error +=
        "; the driver supports CUDA " + driver + ", the PTX is ISA version " +
        ptxDirective(static_cast<const char *>(data), ".version") + " for " +
        ptxDirective(static_cast<const char *>(data), ".target");
    // Or a chip newer than the device: name the device's.
    int major = 0, minor = 0;
    if (computeCapability(s, major, minor) == 0)
      run().error +=
          ", the device is sm_" + std::to_string(major) + std::to_string(minor);
    // What to change: the compiler's options of those names (fuse-run's
    // --ptx-features and --chip, Python's options=).
    constexpr int kUnsupportedPtxVersion = 222;
    if (loaded == kUnsupportedPtxVersion && version > 0) {
      // The newest the driver has (it was always +ptx78, CUDA 11.8's). A
      // chip that needs a newer one refuses it, saying so, when it compiles.
      int newest = newestPtxIsa(version);
      run().error += "; compile for PTX ISA " + std::to_string(newest / 10) +
                     "." + std::to_string(newest % 10) +
                     ", the newest the driver has (the ptx-features option: "
                     "+ptx" +
                     std::to_string(newest) + "), or update the driver";
    }
    if (log[0])
      run().error += "\nPTX JIT log:\n" + std::string(log);
    return nullptr;
  }
  return module;
}

extern "C" void *mgpuModuleLoad(void *data, size_t) {
  return mgpuModuleLoadJIT(data, 4);
}

extern "C" void mgpuModuleUnload(void *module) {
  State &s = state();
  if (module && s.initialized && makeContextCurrent()) {
    check(s.driver.cuModuleUnload(module), "cuModuleUnload");
    restoreCallerContext();
  }
}

extern "C" void *mgpuModuleGetFunction(void *module, const char *name) {
  State &s = state();
  if (!ready())
    return nullptr;
  if (!module) {
    fail(std::string("no GPU module to get kernel ") + name + " from");
    return nullptr;
  }
  CUfunction function = nullptr;
  if (!check(s.driver.cuModuleGetFunction(&function, module, name),
             "cuModuleGetFunction"))
    return nullptr;
  {
    std::lock_guard<std::mutex> lock(s.namesMutex);
    s.functionNames[function] = name;
  }
  return function;
}

extern "C" void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                                 intptr_t gridZ, intptr_t blockX,
                                 intptr_t blockY, intptr_t blockZ, int32_t smem,
                                 void *, void **params, void **extra, size_t) {
  State &s = state();
  if (!ready() || !function)
    return;
  if (gridX > 0x7fffffff || gridY > 65535 || gridZ > 65535) {
    fail("kernel " + functionName(function) + " needs a grid of " +
         std::to_string(gridX) + " blocks, more than the device allows");
    return;
  }
  PendingKernel *profiled =
      run().pending.empty() ? nullptr : &run().pending.back();
  if (profiled) {
    KernelRecord &record = profiled->record;
    record.grid[0] = gridX, record.grid[1] = gridY, record.grid[2] = gridZ;
    record.block[0] = blockX, record.block[1] = blockY,
    record.block[2] = blockZ;
  }
  CUresult launched =
      s.driver.cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY,
                              blockZ, smem, runStream(), params, extra);
  // The kernel's name (under the names' lock) only for an error.
  if (launched != 0) {
    check(launched,
          ("cuLaunchKernel (" + functionName(function) + ")").c_str());
    return;
  }
  run().lastLaunched = function;
  // The kernel's stop event goes right behind it on the stream, so that its
  // time is the kernel's alone, not the host's wait for it as well.
  if (profiled && profiled->stop)
    profiled->stopped = check(
        s.driver.cuEventRecord(profiled->stop, runStream()), "cuEventRecord");
}

extern "C" void *mgpuStreamCreate() { return runStream(); }
extern "C" void mgpuStreamDestroy(void *) {}
/// The host code that gpu-async-region generates waits for each kernel;
/// fuse's need not: every kernel and copy of a run is ordered on the one
/// stream, the host code never reads device memory, a copy to the host
/// waits for its own event, cuMemFree waits for the device, and endRun()
/// synchronizes the stream once per run.
extern "C" void mgpuStreamSynchronize(void *) {}
extern "C" void mgpuStreamWaitEvent(void *, void *event) {
  State &s = state();
  if (ready() && event)
    check(s.driver.cuStreamWaitEvent(runStream(), event, 0),
          "cuStreamWaitEvent");
}
extern "C" void *mgpuEventCreate() { return ready() ? newEvent() : nullptr; }
extern "C" void mgpuEventDestroy(void *event) {
  if (event)
    state().driver.cuEventDestroy(event);
}
extern "C" void mgpuEventSynchronize(void *event) {
  if (ready() && event)
    check(state().driver.cuEventSynchronize(event), "cuEventSynchronize");
}
extern "C" void mgpuEventRecord(void *event, void *) {
  State &s = state();
  if (ready() && event)
    check(s.driver.cuEventRecord(event, runStream()), "cuEventRecord");
}
extern "C" void *mgpuMemAlloc(uint64_t sizeBytes, void *, bool isHostShared) {
  if (isHostShared) {
    fail("host-shared allocations are not supported");
    return nullptr;
  }
  void *ptr = deviceAlloc(sizeBytes);
  if (ptr)
    run().allocations.push_back({ptr, true});
  return ptr;
}
extern "C" void mgpuMemFree(void *ptr, void *) {
  forgetAllocation(ptr);
  deviceFree(ptr);
}
extern "C" void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *) {
  State &s = state();
  if (ready() && sizeBytes)
    check(s.driver.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst),
                                 reinterpret_cast<CUdeviceptr>(src), sizeBytes,
                                 runStream()),
          "cuMemcpyAsync");
}
extern "C" void mgpuMemset32(void *dst, unsigned int value, size_t count,
                             void *) {
  State &s = state();
  if (ready() && count)
    check(s.driver.cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(dst), value,
                                    count, runStream()),
          "cuMemsetD32Async");
}
extern "C" void mgpuMemset16(void *dst, unsigned short value, size_t count,
                             void *) {
  State &s = state();
  if (ready() && count)
    check(s.driver.cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(dst), value,
                                    count, runStream()),
          "cuMemsetD16Async");
}
