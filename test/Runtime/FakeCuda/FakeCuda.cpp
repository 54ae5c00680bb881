//===- FakeCuda.cpp - a fake CUDA driver for the runtime tests ------------===//
//
// A stand-in for libcuda.so.1 that fuse's runtime loads through
// FUSE_LIBCUDA, so that the CUDA path of fuse-run is tested on machines
// without a GPU. It exports every driver entry point the runtime resolves,
// with the driver's C ABI declared by hand (no CUDA headers):
//
// - one device, "Fake GPU", compute capability 9.0, 80 GiB;
// - device memory is host memory, so copies and memsets really move data;
//   host memory registered with cuMemHostRegister is device memory at the
//   same address (unified addressing), which lets tests pass numpy buffers
//   as GPU arrays;
//   new allocations are filled with 0xff bytes (NaN, -1, true), so that an
//   element a kernel fails to write shows;
// - cuModuleLoadDataEx accepts NUL-terminated PTX text, records its
//   `.entry` names, and gets the module's host build from the process's
//   host compiler (fuse/Runtime/HostKernels.h): fuse's runtime installs it
//   through fuseHostKernelsSetCompiler, which a real driver does not have.
//   The build is keyed by the PTX text: a module whose PTX the process did
//   not compile (missing or stale), or whose kernels differ from the PTX's
//   `.entry` names, fails to load with CUDA_ERROR_NO_BINARY_FOR_GPU and the
//   reason in the JIT error log; cuModuleGetFunction finds only the entries;
// - cuLaunchKernel runs the kernel's host build over the grid, with the
//   launch's parameter buffer, on the emulated GPU of Emulator.cpp. A fault
//   (a misaligned or out-of-bounds access) is reported as a GPU reports it:
//   the launch succeeds, and every later call that needs the context fails
//   with CUDA_ERROR_MISALIGNED_ADDRESS or CUDA_ERROR_ILLEGAL_ADDRESS (the
//   context is lost); the log line of the launch says which access;
// - the default-stream handles CU_STREAM_LEGACY (0x1) and
//   CU_STREAM_PER_THREAD (0x2) are valid streams, as in the driver; the log
//   names them (`cuStreamSynchronize legacy`);
// - every event pair measures 0.25 ms.
//
// Handles are checked as the driver checks them (unknown or destroyed
// handles, calls before cuInit or without a current context, copies past
// the end of an allocation), so that misuse by the runtime shows up as an
// error instead of passing silently.
//
// Environment:
//   FAKE_CUDA_LOG=FILE   appends one line per call, e.g.
//                        `cuMemAlloc_v2 4000000`,
//                        `cuLaunchKernel k grid=977,1,1 block=256,1,1`; a
//                        failed call ends with ` -> CUDA_ERROR_NAME`. At exit:
//                        `leaks: N` (allocations never freed) and
//                        `unreleased: modules=M streams=S events=E contexts=C`.
//   FAKE_CUDA_FAIL=SYMBOL[:N[:CODE]][,...]
//                        the N-th call (default 1st) of SYMBOL fails with
//                        CODE, by default CUDA_ERROR_OUT_OF_MEMORY for
//                        cuMemAlloc_v2, CUDA_ERROR_INVALID_PTX (with a JIT
//                        log) for cuModuleLoadDataEx, CUDA_ERROR_LAUNCH_FAILED
//                        for cuLaunchKernel and CUDA_ERROR_UNKNOWN otherwise.
//   FAKE_CUDA_DEVICES=N  the number of devices cuDeviceGetCount reports.
//   FAKE_CUDA_MISALIGN=B every allocation starts B bytes past a 256-byte
//                        boundary instead of on one, so that kernels meet
//                        data less aligned than they assume.
//   FAKE_CUDA_THREADS=N  host threads that run the blocks of a launch.
//   FAKE_CUDA_DRIVER_VERSION=V
//                        the CUDA version of the driver (cuDriverGetVersion,
//                        1000 * major + 10 * minor; default 13000). PTX of a
//                        newer ISA version than it supports fails to load
//                        with CUDA_ERROR_UNSUPPORTED_PTX_VERSION, as with a
//                        real driver.
//
//===----------------------------------------------------------------------===//

#include "Emulator.h"

#include "fuse/Runtime/HostKernels.h"
#include "fuse/Runtime/PTXVersions.h"

#include <algorithm>
#include <cctype>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = void *;
using CUmodule = void *;
using CUfunction = void *;
using CUstream = void *;
using CUevent = void *;

enum : CUresult {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_DEINITIALIZED = 4,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_IMAGE = 200,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  CUDA_ERROR_MISALIGNED_ADDRESS = 716,
  CUDA_ERROR_CONTEXT_IS_DESTROYED = 709,
  CUDA_ERROR_LAUNCH_FAILED = 719,
  CUDA_ERROR_UNKNOWN = 999,
};

struct ErrorInfo {
  CUresult code;
  const char *name;
  const char *text;
};

// Names and descriptions as the driver's cuGetErrorName/cuGetErrorString
// give them.
constexpr ErrorInfo kErrors[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED",
     "initialization error"},
    {CUDA_ERROR_DEINITIALIZED, "CUDA_ERROR_DEINITIALIZED",
     "driver shutting down"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE",
     "no CUDA-capable device is detected"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE",
     "invalid device ordinal"},
    {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE",
     "device kernel image is invalid"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT",
     "invalid device context"},
    {CUDA_ERROR_NO_BINARY_FOR_GPU, "CUDA_ERROR_NO_BINARY_FOR_GPU",
     "no kernel image is available for execution on the device"},
    {CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX",
     "a PTX JIT compilation failed"},
    {CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
     "the provided PTX was compiled with an unsupported toolchain."},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE",
     "invalid resource handle"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered"},
    {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
     "too many resources requested for launch"},
    {CUDA_ERROR_MISALIGNED_ADDRESS, "CUDA_ERROR_MISALIGNED_ADDRESS",
     "misaligned address"},
    {CUDA_ERROR_CONTEXT_IS_DESTROYED, "CUDA_ERROR_CONTEXT_IS_DESTROYED",
     "context is destroyed"},
    {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED",
     "unspecified launch failure"},
    {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

const ErrorInfo *findError(CUresult code) {
  for (const ErrorInfo &info : kErrors)
    if (info.code == code)
      return &info;
  return nullptr;
}

constexpr const char *kDeviceName = "Fake GPU";
constexpr size_t kTotalMemory = size_t(80) << 30;
constexpr float kElapsedMs = 0.25f;
constexpr const char *kJitFailureLog = "ptxas fatal: fake JIT failure";

// CUjit_option values.
constexpr int kJitInfoLogBuffer = 3;
constexpr int kJitInfoLogBufferSize = 4;
constexpr int kJitErrorLogBuffer = 5;
constexpr int kJitErrorLogBufferSize = 6;

struct Module {
  std::vector<std::string> entries;
  // Whether its kernels exchange values within warps (shfl.sync): they run
  // with each warp's threads interleaved.
  bool warps = false;
  // The host build's kernels, by entry.
  std::map<std::string, void (*)(void **)> kernels;
  // One function object per entry; CUfunction points at its name.
  std::vector<std::unique_ptr<std::string>> functions;
};

struct Event {
  bool recorded = false;
  // Shown in the log as eN, N counting from 1 in the order of creation.
  long id = 0;
};

struct Stream {};

/// A planned failure: the `call`-th call of `symbol` returns `code`.
struct Injection {
  std::string symbol;
  long call = 1;
  CUresult code = CUDA_ERROR_UNKNOWN;
};

struct State {
  std::recursive_mutex mutex;
  FILE *log = nullptr;
  bool logOpened = false;
  bool initialized = false;
  int deviceCount = 1;
  int primaryRetains = 0;
  // Contexts made with cuCtxCreate (the primary context is &State), by
  // number: c1, c2, ...
  std::map<void *, long> createdContexts;
  long contextsCreated = 0;
  size_t allocatedBytes = 0;
  // Device allocations by address, with their sizes.
  std::map<CUdeviceptr, size_t> allocations;
  // Host memory registered with cuMemHostRegister, which kernels may access
  // at its host address (unified addressing), newest last.
  std::vector<std::pair<CUdeviceptr, size_t>> registered;
  std::set<Module *> modules;
  std::set<Stream *> streams;
  std::set<Event *> events;
  std::vector<Injection> injections;
  std::map<std::string, long> calls;
  long eventsCreated = 0;
  // Compiles kernel modules for the host; installed by the process.
  FuseHostCompiler hostCompiler = nullptr;
  // A kernel fault loses the context: every later call that needs it fails.
  CUresult lost = CUDA_SUCCESS;
  size_t misalign = 0;
  // cuDriverGetVersion's answer: 1000 * major + 10 * minor.
  int driverVersion = 13000;
};

// Deliberately leaked: calls may come from other libraries' exit handlers.
State &state() {
  static State *instance = new State();
  return *instance;
}

CUresult defaultInjectedError(const std::string &symbol) {
  if (symbol == "cuMemAlloc_v2")
    return CUDA_ERROR_OUT_OF_MEMORY;
  if (symbol == "cuModuleLoadDataEx")
    return CUDA_ERROR_INVALID_PTX;
  if (symbol == "cuLaunchKernel")
    return CUDA_ERROR_LAUNCH_FAILED;
  return CUDA_ERROR_UNKNOWN;
}

/// Parses FAKE_CUDA_FAIL and FAKE_CUDA_DEVICES; runs once, at load.
void readEnvironment(State &s) {
  if (const char *devices = std::getenv("FAKE_CUDA_DEVICES"))
    s.deviceCount = std::atoi(devices);
  if (const char *version = std::getenv("FAKE_CUDA_DRIVER_VERSION"))
    s.driverVersion = std::atoi(version);
  if (const char *misalign = std::getenv("FAKE_CUDA_MISALIGN"))
    s.misalign = std::strtoul(misalign, nullptr, 10) % 256;
  const char *spec = std::getenv("FAKE_CUDA_FAIL");
  if (!spec)
    return;
  std::string text = spec;
  size_t begin = 0;
  while (begin <= text.size()) {
    size_t end = text.find(',', begin);
    if (end == std::string::npos)
      end = text.size();
    std::string item = text.substr(begin, end - begin);
    begin = end + 1;
    if (item.empty())
      continue;
    Injection injection;
    size_t colon = item.find(':');
    injection.symbol = item.substr(0, colon);
    injection.code = defaultInjectedError(injection.symbol);
    if (colon != std::string::npos) {
      std::string rest = item.substr(colon + 1);
      size_t second = rest.find(':');
      injection.call = std::atol(rest.substr(0, second).c_str());
      if (second != std::string::npos)
        injection.code = std::atoi(rest.substr(second + 1).c_str());
    }
    s.injections.push_back(injection);
  }
}

void logLine(const char *format, ...) __attribute__((format(printf, 1, 2)));

void logLine(const char *format, ...) {
  State &s = state();
  if (!s.logOpened) {
    s.logOpened = true;
    if (const char *path = std::getenv("FAKE_CUDA_LOG"))
      s.log = std::fopen(path, "a");
  }
  if (!s.log)
    return;
  va_list args;
  va_start(args, format);
  std::vfprintf(s.log, format, args);
  va_end(args);
  std::fputc('\n', s.log);
  // Flushed per line: the log must survive a crash of the caller.
  std::fflush(s.log);
}

/// The context current on this thread, as in the driver.
thread_local CUcontext currentContext = nullptr;

/// How the log shows the context of a call made in a context other than
/// the primary one: " (in cN)".
std::string contextSuffix() {
  auto it = state().createdContexts.find(currentContext);
  if (it == state().createdContexts.end())
    return "";
  return " (in c" + std::to_string(it->second) + ")";
}

/// One driver call: counts it, decides whether it is an injected failure,
/// and logs it with its result when it ends.
class Call {
public:
  Call(const char *symbol, std::string details = "")
      : lock(state().mutex), symbol(symbol), details(std::move(details)) {
    State &s = state();
    long n = ++s.calls[symbol];
    for (const Injection &injection : s.injections)
      if (injection.symbol == symbol && injection.call == n) {
        injected = injection.code;
        break;
      }
  }
  Call(const Call &) = delete;
  Call &operator=(const Call &) = delete;

  /// The injected failure for this call, CUDA_SUCCESS if none.
  CUresult injectedError() const { return injected; }
  void setDetails(std::string text) { details = std::move(text); }

  /// Logs the call and returns `result`.
  CUresult done(CUresult result) {
    std::string line = symbol;
    if (!details.empty())
      line += " " + details;
    if (result != CUDA_SUCCESS) {
      const ErrorInfo *info = findError(result);
      line += " -> ";
      line += info ? info->name : std::to_string(result);
      if (injected != CUDA_SUCCESS && result == injected)
        line += " (injected)";
    }
    line += contextSuffix();
    logLine("%s", line.c_str());
    return result;
  }

private:
  std::lock_guard<std::recursive_mutex> lock;
  const char *symbol;
  std::string details;
  CUresult injected = CUDA_SUCCESS;
};

/// The error of a call that needs cuInit and a current, live context.
CUresult contextError() {
  State &s = state();
  if (!s.initialized)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (!currentContext)
    return CUDA_ERROR_INVALID_CONTEXT;
  if (currentContext == &s && s.primaryRetains == 0)
    return CUDA_ERROR_CONTEXT_IS_DESTROYED;
  return s.lost;
}

/// True if [ptr, ptr + bytes) lies inside one device allocation.
bool isDeviceRange(CUdeviceptr ptr, size_t bytes) {
  State &s = state();
  auto it = s.allocations.upper_bound(ptr);
  if (it == s.allocations.begin())
    return false;
  --it;
  return ptr >= it->first && ptr - it->first + bytes <= it->second;
}

} // namespace

bool fakecuda::findAllocation(uint64_t address, size_t bytes, uint64_t &begin,
                              uint64_t &end) {
  State &s = state();
  auto it = s.allocations.upper_bound(address);
  if (it != s.allocations.begin()) {
    --it;
    if (address >= it->first && address - it->first + bytes <= it->second) {
      begin = it->first;
      end = it->first + it->second;
      return true;
    }
  }
  for (auto range = s.registered.rbegin(); range != s.registered.rend();
       ++range)
    if (address >= range->first &&
        address - range->first + bytes <= range->second) {
      begin = range->first;
      end = range->first + range->second;
      return true;
    }
  return false;
}

namespace {

/// True if any byte of [ptr, ptr + bytes) is device memory.
bool touchesDevice(CUdeviceptr ptr, size_t bytes) {
  State &s = state();
  auto it = s.allocations.upper_bound(ptr);
  if (it != s.allocations.begin()) {
    auto before = std::prev(it);
    if (ptr < before->first + before->second)
      return true;
  }
  return it != s.allocations.end() && it->first < ptr + bytes;
}

// The handles of the default streams, which the driver accepts wherever a
// stream goes, in any context (CU_STREAM_LEGACY, CU_STREAM_PER_THREAD).
// Libraries hand them to each other, e.g. through __cuda_array_interface__.
constexpr uintptr_t kStreamLegacy = 0x1;
constexpr uintptr_t kStreamPerThread = 0x2;

bool validStream(CUstream stream) {
  auto handle = reinterpret_cast<uintptr_t>(stream);
  return !stream || handle == kStreamLegacy || handle == kStreamPerThread ||
         state().streams.count(static_cast<Stream *>(stream));
}

/// How the log shows a stream: the default-stream handles by name, others
/// (null, created, invalid) not at all.
std::string streamName(CUstream stream) {
  auto handle = reinterpret_cast<uintptr_t>(stream);
  if (handle == kStreamLegacy)
    return "legacy";
  if (handle == kStreamPerThread)
    return "per-thread";
  return "";
}

bool validEvent(CUevent event) {
  return event && state().events.count(static_cast<Event *>(event));
}

/// How the log shows an event: eN for a live one, nothing for others.
std::string eventName(CUevent event) {
  if (!validEvent(event))
    return "";
  return "e" + std::to_string(static_cast<Event *>(event)->id);
}

/// Where a copy goes: "HtoD", "DtoH", "DtoD" or "HtoH", or nullptr when one
/// side is partly device memory (out of bounds of its allocation).
const char *copyKind(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  bool dstDevice = isDeviceRange(dst, bytes);
  bool srcDevice = isDeviceRange(src, bytes);
  if ((!dstDevice && touchesDevice(dst, bytes)) ||
      (!srcDevice && touchesDevice(src, bytes)))
    return nullptr;
  if (dstDevice)
    return srcDevice ? "DtoD" : "HtoD";
  return srcDevice ? "DtoH" : "HtoH";
}

void writeJitLog(unsigned numOptions, int *options, void **values,
                 const char *text) {
  if (!options || !values)
    return;
  char *buffer = nullptr;
  size_t size = 0;
  int sizeIndex = -1;
  for (unsigned i = 0; i < numOptions; ++i) {
    if (options[i] == kJitErrorLogBuffer)
      buffer = static_cast<char *>(values[i]);
    else if (options[i] == kJitErrorLogBufferSize) {
      size = reinterpret_cast<size_t>(values[i]);
      sizeIndex = i;
    }
  }
  if (!buffer || size == 0)
    return;
  std::snprintf(buffer, size, "%s", text);
  // The driver writes back how many bytes of the log it filled.
  values[sizeIndex] = reinterpret_cast<void *>(std::strlen(buffer) + 1);
}

/// The `.entry` names of NUL-terminated PTX text; false if `image` is not
/// printable text (a cubin, say) or declares no entry.
bool parsePtx(const char *image, std::vector<std::string> &entries,
              std::string &why) {
  constexpr size_t kMaxBytes = size_t(256) << 20;
  size_t length = 0;
  for (; length < kMaxBytes && image[length]; ++length) {
    unsigned char c = image[length];
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') {
      why = "ptxas fatal: the image is not PTX text (byte " +
            std::to_string(c) + " at offset " + std::to_string(length) + ")";
      return false;
    }
  }
  if (length == kMaxBytes) {
    why = "ptxas fatal: the image has no terminating NUL";
    return false;
  }
  std::string text(image, length);
  for (size_t at = text.find(".entry"); at != std::string::npos;
       at = text.find(".entry", at + 1)) {
    size_t begin = at + 6;
    while (begin < text.size() && (text[begin] == ' ' || text[begin] == '\t'))
      ++begin;
    size_t end = begin;
    while (end < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[end])) ||
            text[end] == '_' || text[end] == '$' || text[end] == '.'))
      ++end;
    if (end > begin)
      entries.push_back(text.substr(begin, end - begin));
  }
  if (entries.empty()) {
    why = "ptxas fatal: no .entry in the PTX";
    return false;
  }
  return true;
}

/// The ISA version of PTX text (`.version 8.0` -> 80), 0 if it has none.
int ptxIsa(const std::string &text) {
  size_t at = text.find(".version");
  if (at == std::string::npos)
    return 0;
  unsigned major = 0, minor = 0;
  if (std::sscanf(text.c_str() + at, ".version %u.%u", &major, &minor) != 2)
    return 0;
  return int(10 * major + minor);
}

/// The SM of the PTX's `.target sm_NN` (`sm_90a` is 90), or 0.
int ptxTarget(const std::string &text) {
  size_t at = text.find(".target");
  unsigned sm = 0;
  if (at == std::string::npos ||
      std::sscanf(text.c_str() + at, ".target sm_%u", &sm) != 1)
    return 0;
  return int(sm);
}

std::string dims(unsigned x, unsigned y, unsigned z) {
  return std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z);
}

/// Loads the environment at dlopen and reports leaks at exit. A destructor
/// function (not a static object) so that it runs after every atexit
/// handler, the runtime's shutdown included.
__attribute__((constructor)) void onLoad() { readEnvironment(state()); }

__attribute__((destructor)) void onUnload() {
  State &s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mutex);
  logLine("leaks: %zu", s.allocations.size());
  logLine("unreleased: modules=%zu streams=%zu events=%zu contexts=%d",
          s.modules.size(), s.streams.size(), s.events.size(),
          s.primaryRetains);
  if (s.log)
    std::fclose(s.log);
  s.log = nullptr;
}

} // namespace

#define FAKE_CUDA_API extern "C" __attribute__((visibility("default")))

//===----------------------------------------------------------------------===//
// Initialization, errors and devices
//===----------------------------------------------------------------------===//

FAKE_CUDA_API CUresult cuInit(unsigned flags) {
  Call call("cuInit");
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (flags != 0)
    return call.done(CUDA_ERROR_INVALID_VALUE);
  state().initialized = true;
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuDriverGetVersion(int *version) {
  Call call("cuDriverGetVersion");
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (!version)
    return call.done(CUDA_ERROR_INVALID_VALUE);
  *version = state().driverVersion;
  call.setDetails(std::to_string(*version));
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuGetErrorName(CUresult error, const char **name) {
  Call call("cuGetErrorName", std::to_string(error));
  if (CUresult injected = call.injectedError())
    return call.done(injected);
  if (!name)
    return call.done(CUDA_ERROR_INVALID_VALUE);
  const ErrorInfo *info = findError(error);
  // As the driver: an unknown code gives NULL and CUDA_ERROR_INVALID_VALUE.
  *name = info ? info->name : nullptr;
  return call.done(info ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE);
}

FAKE_CUDA_API CUresult cuGetErrorString(CUresult error, const char **text) {
  Call call("cuGetErrorString", std::to_string(error));
  if (CUresult injected = call.injectedError())
    return call.done(injected);
  if (!text)
    return call.done(CUDA_ERROR_INVALID_VALUE);
  const ErrorInfo *info = findError(error);
  *text = info ? info->text : nullptr;
  return call.done(info ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE);
}

FAKE_CUDA_API CUresult cuDeviceGetCount(int *count) {
  Call call("cuDeviceGetCount");
  if (CUresult error = call.injectedError())
    return call.done(error);
  State &s = state();
  if (!s.initialized)
    return call.done(CUDA_ERROR_NOT_INITIALIZED);
  if (!count)
    return call.done(CUDA_ERROR_INVALID_VALUE);
  *count = s.deviceCount;
  call.setDetails(std::to_string(s.deviceCount));
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  Call call("cuDeviceGet", std::to_string(ordinal));
  if (CUresult error = call.injectedError())
    return call.done(error);
  State &s = state();
  if (!s.initialized)
    return call.done(CUDA_ERROR_NOT_INITIALIZED);
  if (!device)
    return call.done(CUDA_ERROR_INVALID_VALUE);
  if (ordinal < 0 || ordinal >= s.deviceCount)
    return call.done(CUDA_ERROR_INVALID_DEVICE);
  *device = ordinal;
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuDeviceGetName(char *name, int length,
                                       CUdevice device) {
  Call call("cuDeviceGetName", std::to_string(device));
  if (CUresult error = call.injectedError())
    return call.done(error);
  State &s = state();
  if (!s.initialized)
    return call.done(CUDA_ERROR_NOT_INITIALIZED);
  if (!name || length <= 0)
    return call.done(CUDA_ERROR_INVALID_VALUE);
  if (device < 0 || device >= s.deviceCount)
    return call.done(CUDA_ERROR_INVALID_DEVICE);
  std::snprintf(name, length, "%s", kDeviceName);
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuDeviceGetAttribute(int *value, int attribute,
                                            CUdevice device) {
  Call call("cuDeviceGetAttribute", std::to_string(attribute));
  if (CUresult error = call.injectedError())
    return call.done(error);
  State &s = state();
  if (!s.initialized)
    return call.done(CUDA_ERROR_NOT_INITIALIZED);
  if (!value)
    return call.done(CUDA_ERROR_INVALID_VALUE);
  if (device < 0 || device >= s.deviceCount)
    return call.done(CUDA_ERROR_INVALID_DEVICE);
  // CUdevice_attribute values of an H100-like device; others read as 0.
  switch (attribute) {
  case 1: // MAX_THREADS_PER_BLOCK
  case 2: // MAX_BLOCK_DIM_X
  case 3: // MAX_BLOCK_DIM_Y
    *value = 1024;
    break;
  case 4: // MAX_BLOCK_DIM_Z
    *value = 64;
    break;
  case 5: // MAX_GRID_DIM_X
    *value = 0x7fffffff;
    break;
  case 6: // MAX_GRID_DIM_Y
  case 7: // MAX_GRID_DIM_Z
    *value = 65535;
    break;
  case 10: // WARP_SIZE
    *value = 32;
    break;
  case 16: // MULTIPROCESSOR_COUNT
    *value = 132;
    break;
  case 75: // COMPUTE_CAPABILITY_MAJOR
    *value = 9;
    break;
  case 76: // COMPUTE_CAPABILITY_MINOR
    *value = 0;
    break;
  default:
    *value = 0;
    break;
  }
  return call.done(CUDA_SUCCESS);
}

//===----------------------------------------------------------------------===//
// Contexts and memory
//===----------------------------------------------------------------------===//

FAKE_CUDA_API CUresult cuDevicePrimaryCtxRetain(CUcontext *context,
                                                CUdevice device) {
  Call call("cuDevicePrimaryCtxRetain", std::to_string(device));
  if (CUresult error = call.injectedError())
    return call.done(error);
  State &s = state();
  if (!s.initialized)
    return call.done(CUDA_ERROR_NOT_INITIALIZED);
  if (!context)
    return call.done(CUDA_ERROR_INVALID_VALUE);
  if (device < 0 || device >= s.deviceCount)
    return call.done(CUDA_ERROR_INVALID_DEVICE);
  ++s.primaryRetains;
  *context = &s;
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device) {
  Call call("cuDevicePrimaryCtxRelease_v2", std::to_string(device));
  if (CUresult error = call.injectedError())
    return call.done(error);
  State &s = state();
  if (!s.initialized)
    return call.done(CUDA_ERROR_NOT_INITIALIZED);
  if (device < 0 || device >= s.deviceCount)
    return call.done(CUDA_ERROR_INVALID_DEVICE);
  if (s.primaryRetains == 0)
    return call.done(CUDA_ERROR_INVALID_CONTEXT);
  --s.primaryRetains;
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuCtxSetCurrent(CUcontext context) {
  Call call("cuCtxSetCurrent");
  if (CUresult error = call.injectedError())
    return call.done(error);
  State &s = state();
  if (!s.initialized)
    return call.done(CUDA_ERROR_NOT_INITIALIZED);
  if (context && (context == &s ? s.primaryRetains == 0
                                : !s.createdContexts.count(context)))
    return call.done(CUDA_ERROR_INVALID_CONTEXT);
  currentContext = context;
  return call.done(CUDA_SUCCESS);
}

/// Not logged: fuse asks before every call.
FAKE_CUDA_API CUresult cuCtxGetCurrent(CUcontext *context) {
  State &s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mutex);
  if (!s.initialized)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (!context)
    return CUDA_ERROR_INVALID_VALUE;
  *context = currentContext;
  return CUDA_SUCCESS;
}

/// Another context of the device, as another library may make: created
/// current on this thread. Calls made in it are logged with " (in cN)".
FAKE_CUDA_API CUresult cuCtxCreate_v2(CUcontext *context, unsigned flags,
                                      CUdevice device) {
  Call call("cuCtxCreate_v2");
  if (CUresult error = call.injectedError())
    return call.done(error);
  State &s = state();
  if (!s.initialized)
    return call.done(CUDA_ERROR_NOT_INITIALIZED);
  if (!context || device < 0 || device >= s.deviceCount)
    return call.done(CUDA_ERROR_INVALID_VALUE);
  (void)flags;
  void *created = new char;
  s.createdContexts[created] = ++s.contextsCreated;
  *context = created;
  currentContext = created;
  call.setDetails("c" + std::to_string(s.contextsCreated));
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuCtxDestroy_v2(CUcontext context) {
  Call call("cuCtxDestroy_v2");
  if (CUresult error = call.injectedError())
    return call.done(error);
  State &s = state();
  if (!s.createdContexts.erase(context))
    return call.done(CUDA_ERROR_INVALID_CONTEXT);
  if (currentContext == context)
    currentContext = nullptr;
  delete static_cast<char *>(context);
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuMemGetInfo_v2(size_t *freeBytes, size_t *totalBytes) {
  Call call("cuMemGetInfo_v2");
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (CUresult error = contextError())
    return call.done(error);
  if (!freeBytes || !totalBytes)
    return call.done(CUDA_ERROR_INVALID_VALUE);
  *totalBytes = kTotalMemory;
  *freeBytes = kTotalMemory - state().allocatedBytes;
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t bytes) {
  Call call("cuMemAlloc_v2", std::to_string(bytes));
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (CUresult error = contextError())
    return call.done(error);
  State &s = state();
  if (!ptr || bytes == 0)
    return call.done(CUDA_ERROR_INVALID_VALUE);
  if (bytes > kTotalMemory - s.allocatedBytes)
    return call.done(CUDA_ERROR_OUT_OF_MEMORY);
  // 256-byte aligned as the driver's (plus FAKE_CUDA_MISALIGN), and not
  // zeroed: filled with 0xff, so that elements no kernel wrote show.
  size_t rounded = (bytes + s.misalign + 255) / 256 * 256;
  void *memory = std::aligned_alloc(256, rounded);
  if (!memory)
    return call.done(CUDA_ERROR_OUT_OF_MEMORY);
  std::memset(memory, 0xff, rounded);
  *ptr = reinterpret_cast<CUdeviceptr>(memory) + s.misalign;
  s.allocations[*ptr] = bytes;
  s.allocatedBytes += bytes;
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuMemFree_v2(CUdeviceptr ptr) {
  Call call("cuMemFree_v2");
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (CUresult error = contextError())
    return call.done(error);
  State &s = state();
  auto it = s.allocations.find(ptr);
  if (it == s.allocations.end())
    return call.done(CUDA_ERROR_INVALID_VALUE);
  call.setDetails(std::to_string(it->second));
  s.allocatedBytes -= it->second;
  s.allocations.erase(it);
  std::free(reinterpret_cast<void *>(ptr - s.misalign));
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src,
                                     size_t bytes, CUstream stream) {
  Call call("cuMemcpyAsync", std::to_string(bytes));
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (CUresult error = contextError())
    return call.done(error);
  if (!validStream(stream))
    return call.done(CUDA_ERROR_INVALID_HANDLE);
  if (bytes == 0)
    return call.done(CUDA_SUCCESS);
  const char *kind = copyKind(dst, src, bytes);
  if (!dst || !src || !kind)
    return call.done(CUDA_ERROR_INVALID_VALUE);
  call.setDetails(std::to_string(bytes) + " " + kind);
  std::memmove(reinterpret_cast<void *>(dst),
               reinterpret_cast<const void *>(src), bytes);
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuMemHostRegister_v2(void *ptr, size_t bytes,
                                            unsigned flags) {
  Call call("cuMemHostRegister_v2", std::to_string(bytes));
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (CUresult error = contextError())
    return call.done(error);
  if (!ptr || bytes == 0 || flags > 0xf)
    return call.done(CUDA_ERROR_INVALID_VALUE);
  state().registered.emplace_back(reinterpret_cast<CUdeviceptr>(ptr), bytes);
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuMemHostUnregister(void *ptr) {
  Call call("cuMemHostUnregister");
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (CUresult error = contextError())
    return call.done(error);
  auto &registered = state().registered;
  for (auto it = registered.rbegin(); it != registered.rend(); ++it)
    if (it->first == reinterpret_cast<CUdeviceptr>(ptr)) {
      registered.erase(std::next(it).base());
      return call.done(CUDA_SUCCESS);
    }
  return call.done(CUDA_ERROR_INVALID_VALUE);
}

namespace {

template <typename T>
CUresult memsetAsync(const char *symbol, CUdeviceptr dst, T value, size_t count,
                     CUstream stream) {
  Call call(symbol, std::to_string(count));
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (CUresult error = contextError())
    return call.done(error);
  if (!validStream(stream))
    return call.done(CUDA_ERROR_INVALID_HANDLE);
  if (count == 0)
    return call.done(CUDA_SUCCESS);
  if (dst % sizeof(T) || !isDeviceRange(dst, count * sizeof(T)))
    return call.done(CUDA_ERROR_INVALID_VALUE);
  T *data = reinterpret_cast<T *>(dst);
  for (size_t i = 0; i < count; ++i)
    data[i] = value;
  return call.done(CUDA_SUCCESS);
}

} // namespace

FAKE_CUDA_API CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value,
                                        size_t count, CUstream stream) {
  return memsetAsync<unsigned>("cuMemsetD32Async", dst, value, count, stream);
}

FAKE_CUDA_API CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value,
                                        size_t count, CUstream stream) {
  return memsetAsync<unsigned short>("cuMemsetD16Async", dst, value, count,
                                     stream);
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

FAKE_CUDA_API CUresult cuStreamCreate(CUstream *stream, unsigned flags) {
  Call call("cuStreamCreate");
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (CUresult error = contextError())
    return call.done(error);
  if (!stream || flags > 1)
    return call.done(CUDA_ERROR_INVALID_VALUE);
  auto *created = new Stream();
  state().streams.insert(created);
  *stream = created;
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuStreamDestroy_v2(CUstream stream) {
  Call call("cuStreamDestroy_v2");
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (CUresult error = contextError())
    return call.done(error);
  State &s = state();
  auto *object = static_cast<Stream *>(stream);
  if (!stream || !s.streams.erase(object))
    return call.done(CUDA_ERROR_INVALID_HANDLE);
  delete object;
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuStreamSynchronize(CUstream stream) {
  Call call("cuStreamSynchronize", streamName(stream));
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (CUresult error = contextError())
    return call.done(error);
  if (!validStream(stream))
    return call.done(CUDA_ERROR_INVALID_HANDLE);
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuStreamWaitEvent(CUstream stream, CUevent event,
                                         unsigned flags) {
  Call call("cuStreamWaitEvent");
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (CUresult error = contextError())
    return call.done(error);
  if (!validStream(stream) || !validEvent(event))
    return call.done(CUDA_ERROR_INVALID_HANDLE);
  if (flags > 1)
    return call.done(CUDA_ERROR_INVALID_VALUE);
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuEventCreate(CUevent *event, unsigned flags) {
  Call call("cuEventCreate");
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (CUresult error = contextError())
    return call.done(error);
  if (!event)
    return call.done(CUDA_ERROR_INVALID_VALUE);
  (void)flags;
  auto *created = new Event();
  created->id = ++state().eventsCreated;
  state().events.insert(created);
  *event = created;
  call.setDetails(eventName(created));
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuEventDestroy_v2(CUevent event) {
  Call call("cuEventDestroy_v2", eventName(event));
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (CUresult error = contextError())
    return call.done(error);
  State &s = state();
  auto *object = static_cast<Event *>(event);
  if (!event || !s.events.erase(object))
    return call.done(CUDA_ERROR_INVALID_HANDLE);
  delete object;
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuEventRecord(CUevent event, CUstream stream) {
  Call call("cuEventRecord", eventName(event));
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (CUresult error = contextError())
    return call.done(error);
  if (!validEvent(event) || !validStream(stream))
    return call.done(CUDA_ERROR_INVALID_HANDLE);
  static_cast<Event *>(event)->recorded = true;
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuEventSynchronize(CUevent event) {
  Call call("cuEventSynchronize", eventName(event));
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (CUresult error = contextError())
    return call.done(error);
  if (!validEvent(event))
    return call.done(CUDA_ERROR_INVALID_HANDLE);
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuEventElapsedTime_v2(float *ms, CUevent start,
                                             CUevent end) {
  Call call("cuEventElapsedTime_v2", eventName(start) + " " + eventName(end));
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (CUresult error = contextError())
    return call.done(error);
  if (!ms)
    return call.done(CUDA_ERROR_INVALID_VALUE);
  if (!validEvent(start) || !validEvent(end))
    return call.done(CUDA_ERROR_INVALID_HANDLE);
  // As the driver: both events must have been recorded.
  if (!static_cast<Event *>(start)->recorded ||
      !static_cast<Event *>(end)->recorded)
    return call.done(CUDA_ERROR_INVALID_HANDLE);
  *ms = kElapsedMs;
  return call.done(CUDA_SUCCESS);
}

//===----------------------------------------------------------------------===//
// Modules and launches
//===----------------------------------------------------------------------===//

FAKE_CUDA_API CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                                          unsigned numOptions, int *options,
                                          void **values) {
  Call call("cuModuleLoadDataEx");
  if (CUresult error = call.injectedError()) {
    writeJitLog(numOptions, options, values, kJitFailureLog);
    return call.done(error);
  }
  if (CUresult error = contextError())
    return call.done(error);
  if (!module || !image || (numOptions && (!options || !values)))
    return call.done(CUDA_ERROR_INVALID_VALUE);
  std::vector<std::string> entries;
  std::string why;
  if (!parsePtx(static_cast<const char *>(image), entries, why)) {
    call.setDetails("(" + why + ")");
    writeJitLog(numOptions, options, values, why.c_str());
    return call.done(CUDA_ERROR_INVALID_PTX);
  }
  // ptxas's fatal error at the line of `directive`, in the JIT log.
  std::string text = static_cast<const char *>(image);
  auto refuse = [&](const char *directive, const std::string &what,
                    CUresult result) {
    long line =
        1 + std::count(text.begin(), text.begin() + text.find(directive), '\n');
    std::string why = "ptxas application ptx input, line " +
                      std::to_string(line) + "; fatal   : " + what;
    writeJitLog(numOptions, options, values, why.c_str());
    return call.done(result);
  };
  int isa = ptxIsa(text);
  int newest = fuse::rt::newestPtxIsa(state().driverVersion);
  if (isa > newest) {
    char what[96];
    std::snprintf(what, sizeof(what),
                  "Unsupported .version %d.%d; current version is '%d.%d'",
                  isa / 10, isa % 10, newest / 10, newest % 10);
    return refuse(".version", what, CUDA_ERROR_UNSUPPORTED_PTX_VERSION);
  }
  // PTX for a newer SM than the device's (sm_90) has no binary for it, as
  // the real driver's JIT says.
  if (ptxTarget(text) > 90)
    return refuse(".target",
                  "SM version specified by .target is higher than default SM "
                  "version assumed",
                  CUDA_ERROR_NO_BINARY_FOR_GPU);
  // The kernels run from the host build of exactly this PTX.
  std::map<std::string, void (*)(void **)> kernels;
  {
    State &s = state();
    const FuseHostKernel *built = nullptr;
    size_t count = 0;
    char error[4096] = {0};
    std::string why;
    if (!s.hostCompiler)
      why = "fake driver: no host compiler: the process did not install one "
            "with fuseHostKernelsSetCompiler, so the kernels cannot run";
    else if (s.hostCompiler(static_cast<const char *>(image),
                            &fakecuda::resolveEmulated, &built, &count, error,
                            sizeof(error)))
      why = std::string("fake driver: no host build: ") + error;
    for (size_t i = 0; why.empty() && i < count; ++i)
      kernels[built[i].name] = built[i].run;
    std::set<std::string> names(entries.begin(), entries.end());
    if (why.empty() &&
        (kernels.size() != names.size() ||
         !std::equal(names.begin(), names.end(), kernels.begin(),
                     [](auto &a, auto &b) { return a == b.first; })))
      why = "fake driver: stale host build: its kernels are not the PTX's "
            "entries";
    if (!why.empty()) {
      call.setDetails("(" + why.substr(0, why.find('\n')) + ")");
      writeJitLog(numOptions, options, values, why.c_str());
      return call.done(CUDA_ERROR_NO_BINARY_FOR_GPU);
    }
  }
  writeJitLog(numOptions, options, values, "");
  // The info log, when asked for, is empty as well.
  for (unsigned i = 0; i < numOptions; ++i)
    if (options[i] == kJitInfoLogBuffer)
      for (unsigned j = 0; j < numOptions; ++j)
        if (options[j] == kJitInfoLogBufferSize &&
            reinterpret_cast<size_t>(values[j]) > 0)
          static_cast<char *>(values[i])[0] = '\0';
  std::string names;
  for (const std::string &entry : entries)
    names += (names.empty() ? "" : ",") + entry;
  call.setDetails("entries=" + names);
  auto *loaded = new Module();
  loaded->entries = std::move(entries);
  loaded->kernels = std::move(kernels);
  loaded->warps =
      std::strstr(static_cast<const char *>(image), "shfl.sync") != nullptr;
  state().modules.insert(loaded);
  *module = loaded;
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuModuleUnload(CUmodule module) {
  Call call("cuModuleUnload");
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (CUresult error = contextError())
    return call.done(error);
  State &s = state();
  auto *object = static_cast<Module *>(module);
  if (!module || !s.modules.erase(object))
    return call.done(CUDA_ERROR_INVALID_HANDLE);
  delete object;
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API CUresult cuModuleGetFunction(CUfunction *function,
                                           CUmodule module, const char *name) {
  Call call("cuModuleGetFunction", name ? name : "(null)");
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (CUresult error = contextError())
    return call.done(error);
  if (!function || !name)
    return call.done(CUDA_ERROR_INVALID_VALUE);
  auto *object = static_cast<Module *>(module);
  if (!module || !state().modules.count(object))
    return call.done(CUDA_ERROR_INVALID_HANDLE);
  for (const std::string &entry : object->entries)
    if (entry == name) {
      for (const std::unique_ptr<std::string> &existing : object->functions)
        if (*existing == name) {
          *function = existing.get();
          return call.done(CUDA_SUCCESS);
        }
      object->functions.push_back(std::make_unique<std::string>(name));
      *function = object->functions.back().get();
      return call.done(CUDA_SUCCESS);
    }
  return call.done(CUDA_ERROR_NOT_FOUND);
}

namespace {

/// The kernel name behind `function`, or nullptr if no live module has it;
/// `*module` is its module.
const std::string *findFunction(CUfunction function, Module **module) {
  for (Module *candidate : state().modules)
    for (const std::unique_ptr<std::string> &name : candidate->functions)
      if (name.get() == function) {
        *module = candidate;
        return name.get();
      }
  return nullptr;
}

} // namespace

FAKE_CUDA_API CUresult cuLaunchKernel(CUfunction function, unsigned gridX,
                                      unsigned gridY, unsigned gridZ,
                                      unsigned blockX, unsigned blockY,
                                      unsigned blockZ, unsigned sharedBytes,
                                      CUstream stream, void **params,
                                      void **extra) {
  const std::string *name = nullptr;
  Module *module = nullptr;
  {
    std::lock_guard<std::recursive_mutex> lock(state().mutex);
    name = findFunction(function, &module);
  }
  Call call("cuLaunchKernel",
            (name ? *name : std::string("(unknown function)")) +
                " grid=" + dims(gridX, gridY, gridZ) +
                " block=" + dims(blockX, blockY, blockZ));
  if (CUresult error = call.injectedError())
    return call.done(error);
  if (CUresult error = contextError())
    return call.done(error);
  if (!name || !validStream(stream))
    return call.done(CUDA_ERROR_INVALID_HANDLE);
  // The limits of a compute capability 9.0 device.
  if (gridX == 0 || gridY == 0 || gridZ == 0 || blockX == 0 || blockY == 0 ||
      blockZ == 0 || gridX > 0x7fffffffu || gridY > 65535 || gridZ > 65535 ||
      blockX > 1024 || blockY > 1024 || blockZ > 64 || (params && extra))
    return call.done(CUDA_ERROR_INVALID_VALUE);
  if (uint64_t(blockX) * blockY * blockZ > 1024 || sharedBytes > 48 * 1024)
    return call.done(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
  if (!params)
    return call.done(CUDA_ERROR_INVALID_VALUE);
  // Runs the grid now: the stream is ordered, so running the kernel before
  // the calls that follow it is what the GPU does, as far as they can see.
  const unsigned grid[3] = {gridX, gridY, gridZ};
  const unsigned block[3] = {blockX, blockY, blockZ};
  fakecuda::Fault fault = fakecuda::runGrid(module->kernels.at(*name), grid,
                                            block, params, module->warps);
  if (fault.code) {
    // As on a GPU: the launch succeeds and the context is lost.
    state().lost = fault.code;
    const ErrorInfo *info = findError(fault.code);
    call.setDetails(*name + " grid=" + dims(gridX, gridY, gridZ) +
                    " block=" + dims(blockX, blockY, blockZ) +
                    " (fault: " + info->name + ", " + fault.what + ")");
  }
  return call.done(CUDA_SUCCESS);
}

FAKE_CUDA_API void fuseHostKernelsSetCompiler(FuseHostCompiler compiler) {
  std::lock_guard<std::recursive_mutex> lock(state().mutex);
  state().hostCompiler = compiler;
}
