//===- fuse-gpu-harness.cpp - run AOT-compiled programs, GPU vs CPU ------===//
//
// The GPU check runs on a machine without LLVM/MLIR, so programs are
// compiled ahead of time here (`fuse-opt --fuse-pipeline=cuda|cpu`, then
// mlir-translate and clang) into two shared objects per program. This
// harness, which needs only the runtime, loads both, runs the CPU build as
// the reference and the CUDA build on the device, compares every result and
// prints one table row per size: kernels, time, GB/s, % of copy bandwidth.
// Its flags are kUsage's (--help prints them).
//
//===----------------------------------------------------------------------===//

#include "fuse/Runtime/Runtime.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

/// fuse's element types (DTypes.def, without the LLVM helpers of DTypes.h).
enum class Kind {
#define FUSE_DTYPE(ENUM, C, MLIR, NUMPY, BYTES, NPY) ENUM,
#include "fuse/Support/DTypes.def"
};

struct TypeInfo {
  std::string name;
  Kind kind;
  size_t bytes;
};

/// A bad command line: the reason, the usage, exit status 2.
[[noreturn]] void badCommandLine(const std::string &reason);

TypeInfo typeOf(const std::string &name) {
  static const TypeInfo kTypes[] = {
#define FUSE_DTYPE(ENUM, C, MLIR, NUMPY, BYTES, NPY) {MLIR, Kind::ENUM, BYTES},
#include "fuse/Support/DTypes.def"
  };
  for (const TypeInfo &type : kTypes)
    if (type.name == name)
      return type;
  badCommandLine("unknown type '" + name + "'");
}

/// `text` as an integer in [low, high], all of it, or a bad command line
/// naming `what` (a negative size went on to the kernels, and crashed).
int64_t parseInteger(const std::string &what, const std::string &text,
                     int64_t low, int64_t high) {
  char *end = nullptr;
  errno = 0;
  long long value = text.empty() ? 0 : std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || value < low ||
      value > high)
    badCommandLine(what + " '" + text + "' is not an integer from " +
                   std::to_string(low) + " to " + std::to_string(high));
  return value;
}

/// `text` as a finite number of at least 0, all of it.
double parseTolerance(const std::string &what, const std::string &text) {
  char *end = nullptr;
  double value = text.empty() ? 0 : std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value) || value < 0)
    badCommandLine(what + " '" + text + "' is not a finite number >= 0");
  return value;
}

double halfToDouble(uint16_t bits) {
  int sign = bits >> 15, exponent = (bits >> 10) & 31, mantissa = bits & 1023;
  double value = exponent == 0    ? std::ldexp(mantissa, -24)
                 : exponent == 31 ? (mantissa ? NAN : INFINITY)
                                  : std::ldexp(mantissa + 1024, exponent - 25);
  return sign ? -value : value;
}

double load(Kind kind, const char *data, int64_t i) {
  switch (kind) {
  case Kind::F32:
    return reinterpret_cast<const float *>(data)[i];
  case Kind::F64:
    return reinterpret_cast<const double *>(data)[i];
  case Kind::I32:
    return reinterpret_cast<const int32_t *>(data)[i];
  case Kind::I64:
    return static_cast<double>(reinterpret_cast<const int64_t *>(data)[i]);
  case Kind::Bool:
    return data[i] != 0;
  case Kind::BF16:
  case Kind::F16: {
    uint16_t bits;
    std::memcpy(&bits, data + 2 * i, 2);
    if (kind == Kind::F16)
      return halfToDouble(bits);
    uint32_t wide = uint32_t(bits) << 16;
    float f;
    std::memcpy(&f, &wide, 4);
    return f;
  }
  }
  return 0;
}

/// Runs body(begin, end) over [0, n) in chunks on every core.
template <typename Body> void parallelFor(int64_t n, Body body) {
  int64_t workers = std::max(1u, std::thread::hardware_concurrency());
  workers = std::min<int64_t>(workers, n / 65536 + 1);
  std::vector<std::thread> threads;
  for (int64_t w = 1; w < workers; ++w)
    threads.emplace_back(body, n * w / workers, n * (w + 1) / workers);
  body(0, n / workers);
  for (std::thread &thread : threads)
    thread.join();
}

/// Random bits of element `i` of the input with seed `seed` (splitmix64):
/// the same values whatever the number of threads.
uint64_t randomBits(uint64_t seed, int64_t i) {
  uint64_t z = seed + 0x9e3779b97f4a7c15ULL * uint64_t(i + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// Uniform in [-1, 1) for floats (multiples of 2^-23, exact in f32 and
/// f64), -100..100 for integers; f16/bf16 get k/64 in [-1, 1], exact in
/// both formats.
void fillRandom(const TypeInfo &type, char *data, int64_t n, uint64_t seed) {
  parallelFor(n, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      uint64_t bits = randomBits(seed, i);
      float unit = float(int64_t(bits >> 40) - (int64_t(1) << 23)) * 0x1p-23f;
      switch (type.kind) {
      case Kind::F32:
        reinterpret_cast<float *>(data)[i] = unit;
        break;
      case Kind::F64:
        reinterpret_cast<double *>(data)[i] = unit;
        break;
      case Kind::I32:
        reinterpret_cast<int32_t *>(data)[i] = int32_t(bits % 201) - 100;
        break;
      case Kind::I64:
        reinterpret_cast<int64_t *>(data)[i] = int64_t(bits % 201) - 100;
        break;
      case Kind::Bool:
        data[i] = bits & 1;
        break;
      case Kind::BF16:
      case Kind::F16: {
        float f = float(int(bits % 129) - 64) / 64.0f;
        uint32_t word;
        std::memcpy(&word, &f, 4);
        uint16_t half;
        if (type.kind == Kind::BF16) {
          half = word >> 16;
        } else {
          int exponent = int((word >> 23) & 255) - 127 + 15;
          half = f == 0 ? 0
                        : uint16_t(((word >> 16) & 0x8000) | (exponent << 10) |
                                   ((word >> 13) & 1023));
        }
        std::memcpy(data + 2 * i, &half, 2);
        break;
      }
      }
    }
  });
}

/// Elements of `got` off `want` by more than atol + rtol |want| (NaN equal
/// to NaN), and the largest difference.
struct Comparison {
  int64_t mismatches = 0;
  double maxError = 0;
};

Comparison compare(Kind kind, const char *got, const char *want, int64_t n,
                   double rtol, double atol) {
  std::vector<Comparison> parts(std::thread::hardware_concurrency() + 1);
  std::atomic<size_t> nextPart{0};
  parallelFor(n, [&](int64_t begin, int64_t end) {
    Comparison &part = parts[nextPart++];
    for (int64_t i = begin; i < end; ++i) {
      double a = load(kind, got, i), b = load(kind, want, i);
      if (a == b || (std::isnan(a) && std::isnan(b)))
        continue;
      double error = std::fabs(a - b);
      // A NaN on one side only is a mismatch (and the largest error).
      if (std::isnan(error))
        error = INFINITY;
      part.maxError = std::max(part.maxError, error);
      if (!(error <= atol + rtol * std::fabs(b)))
        ++part.mismatches;
    }
  });
  Comparison total;
  for (const Comparison &part : parts) {
    total.mismatches += part.mismatches;
    total.maxError = std::max(total.maxError, part.maxError);
  }
  return total;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

struct Tensor {
  TypeInfo type;
  std::vector<int64_t> shape;
  int64_t elements() const {
    int64_t n = 1;
    for (int64_t s : shape)
      n *= s;
    return n;
  }
};

/// The most elements of one argument (2^40): a size past it is a typing
/// error on any GPU this harness runs on.
constexpr int64_t kMaxElements = int64_t(1) << 40;

/// SHAPE of --arg at size `n` (kUsage), or a bad command line.
std::vector<int64_t> parseShape(const std::string &text, int64_t n) {
  std::vector<int64_t> shape;
  size_t start = 0;
  int64_t elements = 1;
  while (true) {
    size_t end = text.find(',', start);
    std::string part = text.substr(start, end - start);
    int64_t size;
    if (part == "N")
      size = n;
    else if (part == "R")
      size = std::max<int64_t>(1, n / 1024);
    else if (part.size() > 1 && part[0] == 'R')
      size = std::max<int64_t>(1, n / parseInteger("--arg's row length",
                                                   part.substr(1), 1,
                                                   kMaxElements));
    else
      size = parseInteger("--arg's size", part, 0, kMaxElements);
    shape.push_back(size);
    if (size != 0 && elements > kMaxElements / size)
      badCommandLine("--arg of shape " + text + " at size " +
                     std::to_string(n) + " has more than 2^40 elements");
    elements *= size;
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  return shape;
}

using Entry = void (*)(void *, ...);

void *openProgram(const std::string &path, const std::string &entry,
                  void **function) {
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    std::fprintf(stderr, "fuse-gpu-harness: %s\n", dlerror());
    std::exit(2);
  }
  *function = dlsym(handle, ("_mlir_ciface_" + entry).c_str());
  if (!*function) {
    std::fprintf(stderr, "fuse-gpu-harness: no _mlir_ciface_%s in %s\n",
                 entry.c_str(), path.c_str());
    std::exit(2);
  }
  return handle;
}

/// Memref descriptors as int64 words: pointers, offset, sizes, strides.
std::vector<int64_t> descriptor(void *data, const std::vector<int64_t> &shape) {
  size_t rank = shape.size();
  std::vector<int64_t> words(3 + 2 * rank);
  words[0] = words[1] = reinterpret_cast<int64_t>(data);
  int64_t stride = 1;
  for (size_t d = rank; d-- > 0;) {
    words[3 + d] = shape[d];
    words[3 + rank + d] = stride;
    stride *= shape[d];
  }
  return words;
}

/// The most arguments `call` passes.
constexpr size_t kMaxArguments = 16;

using Caller = void (*)(void *, void *, void *const *);

template <size_t... I>
void callWith(void *function, void *results, void *const *p,
              std::index_sequence<I...>) {
  reinterpret_cast<void (*)(void *, ...)>(function)(results, p[I]...);
}

/// Calls `function(results, p[0], ..., p[N - 1])`.
template <size_t N>
void callWith(void *function, void *results, void *const *p) {
  callWith(function, results, p, std::make_index_sequence<N>());
}

template <size_t... N>
constexpr std::array<Caller, sizeof...(N)> callers(std::index_sequence<N...>) {
  return {&callWith<N>...};
}

/// Calls `function(results, &desc0, &desc1, ...)`: the C interface of a
/// function returning memrefs takes a pointer to them first.
void call(void *function, std::vector<int64_t> &results,
          std::vector<std::vector<int64_t>> &args) {
  static constexpr std::array<Caller, kMaxArguments + 1> kCallers =
      callers(std::make_index_sequence<kMaxArguments + 1>());
  std::vector<void *> p;
  for (auto &a : args)
    p.push_back(a.data());
  kCallers[p.size()](function, results.data(), p.data());
}

/// Where a program's failed check of its sizes (a cf.assert: puts of the
/// message, then abort()) returns to: POSIX lets a SIGABRT handler that
/// does not return keep the process, and glibc's abort() holds no lock
/// while the handler runs.
sigjmp_buf *checkFailed = nullptr;

void onAbort(int) {
  if (checkFailed)
    siglongjmp(*checkFailed, 1);
}

/// call(), or false when the program refused its arguments' sizes (its
/// message printed): the row says so, where the process aborted.
bool callChecked(void *function, std::vector<int64_t> &results,
                 std::vector<std::vector<int64_t>> &args) {
  struct sigaction action = {}, previous;
  action.sa_handler = onAbort;
  sigemptyset(&action.sa_mask);
  sigaction(SIGABRT, &action, &previous);
  sigjmp_buf here;
  checkFailed = &here;
  bool called = sigsetjmp(here, 1) == 0;
  if (called)
    call(function, results, args);
  checkFailed = nullptr;
  sigaction(SIGABRT, &previous, nullptr);
  return called;
}

/// The flags, as --help prints them.
constexpr const char *kUsage =
    R"(usage: fuse-gpu-harness --name NAME --cpu P.cpu.so --cuda P.cuda.so
           --entry FUNCTION --arg TYPE:SHAPE ... --result TYPE[:RANK] ...
           --sizes N,N,... [--repeat 20] [--rtol 1e-5] [--atol 1e-6]
           [--json FILE]

Runs FUNCTION of two shared objects compiled ahead of time from one fuse
program (scripts/gpu-check writes them and this command line): the CPU build
as the reference, the CUDA build on the device; compares every result and
prints one row per size: kernels, time, GB/s, % of copy bandwidth.

--arg and --result are the function's arguments and results, every one, in
order: the shared objects do not say what the function takes, and a list
that differs from it is undefined behaviour (a crash, or wrong numbers);
sizes that the program's own checks refuse (broadcasting's) fail the row.
A SHAPE is comma-separated sizes where N is the size, R is N / 1024 and Rk
is N / k (rows of k: R10,10 is N / 10 rows of 10), each at least 1, and
a number is that size; a size (of --sizes too) is from 0 to 2^40, as is an
argument's number of elements, and a function takes at most 16 arguments. A
result is TYPE, of the highest rank of the inputs, or TYPE:RANK (f32:0, a
scalar: a full reduction). TYPE is f16, bf16, f32, f64, i1, i32 or i64.
--json appends one JSON object per size to FILE (the row's numbers, and the
host's seconds for the inputs, the CPU reference and the comparison).
Exit status: 0 when every result matched, 1 otherwise, 2 for a bad command
line.
)";

void badCommandLine(const std::string &reason) {
  std::fprintf(stderr, "fuse-gpu-harness: %s\n%s", reason.c_str(), kUsage);
  std::exit(2);
}

} // namespace

int main(int argc, char **argv) {
  std::string name, cpuPath, cudaPath, entry, jsonPath;
  std::vector<std::string> argSpecs, resultTypes;
  std::vector<int64_t> sizes;
  int repeat = 20;
  double rtol = 1e-5, atol = 1e-6;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 ||
        std::strcmp(argv[i], "-h") == 0) {
      std::fputs(kUsage, stdout);
      return 0;
    }
  static const char *const flags[] = {
      "--name",  "--cpu",    "--cuda", "--entry", "--arg", "--result",
      "--sizes", "--repeat", "--rtol", "--atol",  "--json"};
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    // An unknown flag is named as one, even last (it was "has no value").
    if (std::find(std::begin(flags), std::end(flags), flag) == std::end(flags))
      badCommandLine("unknown flag " + flag);
    if (i + 1 == argc)
      badCommandLine(flag + " has no value");
    std::string value = argv[++i];
    if (flag == "--name")
      name = value;
    else if (flag == "--cpu")
      cpuPath = value;
    else if (flag == "--cuda")
      cudaPath = value;
    else if (flag == "--entry")
      entry = value;
    else if (flag == "--arg")
      argSpecs.push_back(value);
    else if (flag == "--result")
      resultTypes.push_back(value);
    else if (flag == "--sizes") {
      size_t start = 0;
      while (start <= value.size()) {
        size_t end = value.find(',', start);
        sizes.push_back(parseInteger(
            "--sizes", value.substr(start, end - start), 0, kMaxElements));
        if (end == std::string::npos)
          break;
        start = end + 1;
      }
    } else if (flag == "--repeat")
      repeat = parseInteger("--repeat", value, 1, 1000000);
    else if (flag == "--rtol")
      rtol = parseTolerance("--rtol", value);
    else if (flag == "--atol")
      atol = parseTolerance("--atol", value);
    else if (flag == "--json")
      jsonPath = value;
    else
      badCommandLine("unknown flag " + flag);
  }
  // Every spec is checked before the device is asked for: without one, a
  // bad command line was "GPU unavailable".
  if (argSpecs.size() > kMaxArguments)
    badCommandLine(std::to_string(argSpecs.size()) + " --arg, more than the " +
                   std::to_string(kMaxArguments) + " it can pass");
  std::vector<std::pair<TypeInfo, std::string>> args;
  for (const std::string &spec : argSpecs) {
    size_t colon = spec.find(':');
    if (colon == std::string::npos)
      badCommandLine("--arg " + spec + " is not TYPE:SHAPE");
    args.emplace_back(typeOf(spec.substr(0, colon)), spec.substr(colon + 1));
    for (int64_t n : sizes)
      parseShape(args.back().second, n);
  }
  std::vector<TypeInfo> results;
  std::vector<int64_t> resultRanks;
  for (const std::string &r : resultTypes) {
    size_t colon = r.find(':');
    results.push_back(typeOf(r.substr(0, colon)));
    resultRanks.push_back(
        colon == std::string::npos
            ? -1
            : parseInteger("--result's rank", r.substr(colon + 1), 0, 32));
  }
  if (name.empty() || cpuPath.empty() || cudaPath.empty() || entry.empty() ||
      resultTypes.empty() || sizes.empty()) {
    std::fprintf(stderr,
                 "fuse-gpu-harness: --name, --cpu, --cuda, --entry, --result "
                 "and --sizes are required\n%s",
                 kUsage);
    return 2;
  }
  if (!fuse::rt::initCuda()) {
    std::printf("%-16s  GPU unavailable: %s\n", name.c_str(),
                fuse::rt::lastError().c_str());
    return 1;
  }
  double copyBandwidth = fuse::rt::measureCopyBandwidth();
  void *cpuFn = nullptr, *cudaFn = nullptr;
  openProgram(cpuPath, entry, &cpuFn);
  openProgram(cudaPath, entry, &cudaFn);

  int status = 0;
  for (int64_t n : sizes) {
    auto started = std::chrono::steady_clock::now();
    std::vector<Tensor> inputs;
    std::vector<std::vector<char>> host;
    std::vector<void *> device;
    for (const auto &[type, shape] : args) {
      Tensor t{type, parseShape(shape, n)};
      host.emplace_back(t.elements() * t.type.bytes + 64);
      fillRandom(t.type, host.back().data(), t.elements(),
                 uint64_t(n) * 1000003 + inputs.size());
      void *d = fuse::rt::deviceAlloc(t.elements() * t.type.bytes);
      fuse::rt::copyToDevice(d, host.back().data(),
                             t.elements() * t.type.bytes);
      device.push_back(d);
      inputs.push_back(t);
    }
    size_t resultWords = 0;

    // CPU reference.
    std::vector<std::vector<int64_t>> cpuArgs, gpuArgs;
    for (size_t i = 0; i < inputs.size(); ++i) {
      cpuArgs.push_back(descriptor(host[i].data(), inputs[i].shape));
      gpuArgs.push_back(descriptor(device[i], inputs[i].shape));
    }
    // Ranks of the results are those of the broadcast of the inputs: the
    // highest input rank.
    size_t inputRank = 0;
    for (const Tensor &t : inputs)
      inputRank = std::max(inputRank, t.shape.size());
    // Result r's descriptor: 3 + 2 * rank words from resultAt[r].
    std::vector<size_t> ranks, resultAt;
    for (int64_t r : resultRanks) {
      ranks.push_back(r < 0 ? inputRank : static_cast<size_t>(r));
      resultAt.push_back(resultWords);
      resultWords += 3 + 2 * ranks.back();
    }
    std::vector<int64_t> cpuResults(resultWords), gpuResults(resultWords);
    double inputSeconds = secondsSince(started);
    started = std::chrono::steady_clock::now();
    fuse::rt::beginRun(fuse::rt::Mode::CPU);
    bool checked = callChecked(cpuFn, cpuResults, cpuArgs);
    fuse::rt::endRun();
    double referenceSeconds = secondsSince(started);
    if (!checked) {
      std::fflush(stdout);
      std::printf("%-16s %10lld  the program refused these sizes (its message "
                  "is above): see --arg\n",
                  name.c_str(), static_cast<long long>(n));
      for (void *d : device)
        fuse::rt::deviceFree(d);
      status = 1;
      continue;
    }

    // GPU: one warm-up, then `repeat` timed runs.
    double kernelMs = 0;
    int64_t bytes = 0;
    size_t launches = 0;
    for (int run = 0; run <= repeat; ++run) {
      if (run > 0)
        for (size_t r = 0; r < results.size(); ++r)
          fuse::rt::deviceFree(
              reinterpret_cast<void *>(gpuResults[resultAt[r]]));
      fuse::rt::beginRun(fuse::rt::Mode::CUDA);
      call(cudaFn, gpuResults, gpuArgs);
      fuse::rt::endRun();
      if (run == 0)
        continue;
      // The copies of results that no kernel writes are timed with them.
      const std::vector<fuse::rt::KernelRecord> &records =
          fuse::rt::kernelRecords();
      launches = std::count_if(
          records.begin(), records.end(),
          [](const fuse::rt::KernelRecord &k) { return k.result < 0; });
      for (const fuse::rt::KernelRecord &k : fuse::rt::kernelRecords()) {
        kernelMs += k.ms;
        bytes += k.bytes;
      }
    }
    kernelMs /= repeat;
    bytes /= repeat;

    // Compare.
    started = std::chrono::steady_clock::now();
    // The program's size, for the table: its largest input or result.
    int64_t mismatches = 0, programElements = 0;
    for (const Tensor &t : inputs)
      programElements = std::max(programElements, t.elements());
    double maxError = 0;
    // A GPU run that failed wrote nothing to compare (its results may not
    // even be allocated): the row says why, with no error or mismatches.
    bool ran = fuse::rt::lastError().empty();
    for (size_t r = 0; r < results.size(); ++r) {
      int64_t *c = cpuResults.data() + resultAt[r];
      int64_t *g = gpuResults.data() + resultAt[r];
      int64_t elements = 1;
      for (size_t d = 0; d < ranks[r]; ++d)
        elements *= c[3 + d];
      programElements = std::max(programElements, elements);
      if (ran) {
        std::vector<char> back(elements * results[r].bytes + 64);
        fuse::rt::copyToHost(back.data(), reinterpret_cast<void *>(g[1]),
                             elements * results[r].bytes);
        Comparison result =
            compare(results[r].kind, back.data(),
                    reinterpret_cast<const char *>(c[1]), elements, rtol, atol);
        mismatches += result.mismatches;
        maxError = std::max(maxError, result.maxError);
      }
      // (The runtime's fuse_result_alloc allocated it.)
      std::free(reinterpret_cast<void *>(c[0]));
      if (g[0])
        fuse::rt::deviceFree(reinterpret_cast<void *>(g[0]));
    }
    if (!ran)
      maxError = NAN;
    for (void *d : device)
      fuse::rt::deviceFree(d);
    double compareSeconds = secondsSince(started);
    double gbps = kernelMs > 0 ? bytes / (kernelMs * 1e6) : 0;
    bool ok = mismatches == 0 && fuse::rt::lastError().empty();
    std::string verdict = ok ? "ok"
                             : (fuse::rt::lastError().empty()
                                    ? "MISMATCH " + std::to_string(mismatches)
                                    : fuse::rt::lastError().substr(
                                          0, fuse::rt::lastError().find('\n')));
    char errorText[32] = "-";
    if (ran)
      std::snprintf(errorText, sizeof(errorText), "%.2e", maxError);
    std::printf("%-16s %10lld  %7zu  %10.4f  %9.1f  %8.1f%%  %10s  %s\n",
                name.c_str(), static_cast<long long>(n), launches, kernelMs,
                gbps, copyBandwidth > 0 ? 100 * gbps / copyBandwidth : 0.0,
                errorText, verdict.c_str());
    // The error's other lines (the PTX JIT's log: why the driver refused a
    // module, which the row's line alone did not say), under the row.
    const std::string &error = fuse::rt::lastError();
    for (size_t line = error.find('\n'); line != std::string::npos;) {
      size_t end = error.find('\n', line + 1);
      std::printf("%-16s   %s\n", "",
                  error.substr(line + 1, end - line - 1).c_str());
      line = end;
    }
    std::fflush(stdout);
    if (!jsonPath.empty()) {
      if (FILE *json = std::fopen(jsonPath.c_str(), "a")) {
        std::string quoted;
        for (char ch : verdict)
          if (ch == '"' || ch == '\\')
            quoted += std::string("\\") + ch;
          else if (static_cast<unsigned char>(ch) >= 0x20)
            quoted += ch;
        char error[32] = "null"; // JSON has no infinity
        if (std::isfinite(maxError))
          std::snprintf(error, sizeof(error), "%.6g", maxError);
        std::fprintf(
            json,
            "{\"name\": \"%s\", \"size\": %lld, \"elements\": %lld, "
            "\"kernels\": %zu, "
            "\"kernel_ms\": %.6g, \"bytes\": %lld, \"gbps\": %.6g, "
            "\"copy_gbps\": %.6g, \"max_error\": %s, \"mismatches\": %s, "
            "\"ok\": %s, \"status\": \"%s\", \"host_s\": {\"inputs\": %.3f, "
            "\"reference\": %.3f, \"compare\": %.3f}}\n",
            name.c_str(), static_cast<long long>(n),
            static_cast<long long>(programElements), launches, kernelMs,
            static_cast<long long>(bytes), gbps, copyBandwidth, error,
            ran ? std::to_string(mismatches).c_str() : "null",
            ok ? "true" : "false", quoted.c_str(), inputSeconds,
            referenceSeconds, compareSeconds);
        std::fclose(json);
      }
    }
    if (!ok)
      status = 1;
    fuse::rt::clearError();
    // What failed one size (a module the driver cannot load, a lost
    // context) fails the next ones too, each with a later error in place of
    // the cause.
    if (!ran) {
      std::printf("%-16s the sizes after %lld are not run: the GPU run "
                  "failed\n",
                  name.c_str(), static_cast<long long>(n));
      break;
    }
  }
  return status;
}
