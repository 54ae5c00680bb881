//===- fuse-gpu-harness.cpp - run AOT-compiled programs, GPU vs CPU ------===//
//
// The GPU check runs on a machine without LLVM/MLIR, so programs are
// compiled ahead of time here (`fuse-opt --fuse-pipeline=cuda|cpu`, then
// mlir-translate and clang) into two shared objects per program. This
// harness, which needs only the runtime, loads both, runs the CPU build as
// the reference and the CUDA build on the device, compares every result and
// prints one table row per size: kernels, time, GB/s, % of copy bandwidth.
//
//   fuse-gpu-harness --name add_relu --cpu p.cpu.so --cuda p.cuda.so
//       --entry add_relu --arg f32:N --arg f32:N --result f32
//       --sizes 1000,1000000 [--repeat 20] [--rtol 1e-5] [--atol 1e-6]
//
// A shape is comma-separated sizes where N is the size and R is N / 1024.
// Exit status: 0 when every result matched, 1 otherwise.
//
//===----------------------------------------------------------------------===//

#include "fuse/Runtime/Runtime.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <random>
#include <string>
#include <vector>

namespace {

struct TypeInfo {
  std::string name;
  size_t bytes;
};

TypeInfo typeOf(const std::string &name) {
  if (name == "f16" || name == "bf16")
    return {name, 2};
  if (name == "f32" || name == "i32")
    return {name, 4};
  if (name == "f64" || name == "i64")
    return {name, 8};
  if (name == "i1")
    return {name, 1};
  std::fprintf(stderr, "fuse-gpu-harness: unknown type %s\n", name.c_str());
  std::exit(2);
}

double load(const TypeInfo &type, const char *data, int64_t i) {
  if (type.name == "f32")
    return reinterpret_cast<const float *>(data)[i];
  if (type.name == "f64")
    return reinterpret_cast<const double *>(data)[i];
  if (type.name == "i32")
    return reinterpret_cast<const int32_t *>(data)[i];
  if (type.name == "i64")
    return static_cast<double>(reinterpret_cast<const int64_t *>(data)[i]);
  if (type.name == "i1")
    return data[i] != 0;
  uint16_t bits;
  std::memcpy(&bits, data + 2 * i, 2);
  if (type.name == "bf16") {
    uint32_t wide = uint32_t(bits) << 16;
    float f;
    std::memcpy(&f, &wide, 4);
    return f;
  }
  // f16
  int sign = bits >> 15, exponent = (bits >> 10) & 31, mantissa = bits & 1023;
  double value = exponent == 0    ? std::ldexp(mantissa, -24)
                 : exponent == 31 ? (mantissa ? NAN : INFINITY)
                                  : std::ldexp(mantissa + 1024, exponent - 25);
  return sign ? -value : value;
}

void fillRandom(const TypeInfo &type, char *data, int64_t n,
                std::mt19937_64 &rng) {
  std::uniform_real_distribution<float> real(-1.0f, 1.0f);
  for (int64_t i = 0; i < n; ++i) {
    if (type.name == "f32") {
      reinterpret_cast<float *>(data)[i] = real(rng);
    } else if (type.name == "f64") {
      reinterpret_cast<double *>(data)[i] = real(rng);
    } else if (type.name == "i32") {
      reinterpret_cast<int32_t *>(data)[i] = int32_t(rng() % 201) - 100;
    } else if (type.name == "i64") {
      reinterpret_cast<int64_t *>(data)[i] = int64_t(rng() % 201) - 100;
    } else if (type.name == "i1") {
      data[i] = rng() & 1;
    } else {
      // f16/bf16: small exact values (k/64 in [-1, 1]) fit both formats.
      float f = float(int(rng() % 129) - 64) / 64.0f;
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      uint16_t half;
      if (type.name == "bf16") {
        half = bits >> 16;
      } else {
        int exponent = int((bits >> 23) & 255) - 127 + 15;
        half = f == 0 ? 0
                      : uint16_t(((bits >> 16) & 0x8000) | (exponent << 10) |
                                 ((bits >> 13) & 1023));
      }
      std::memcpy(data + 2 * i, &half, 2);
    }
  }
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

std::vector<int64_t> parseShape(const std::string &text, int64_t n) {
  std::vector<int64_t> shape;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(',', start);
    std::string part = text.substr(start, end - start);
    if (part == "N")
      shape.push_back(n);
    else if (part == "R")
      shape.push_back(std::max<int64_t>(1, n / 1024));
    else
      shape.push_back(std::atoll(part.c_str()));
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

/// Calls `function(results, &desc0, &desc1, ...)`: the C interface of a
/// function returning memrefs takes a pointer to them first.
void call(void *function, std::vector<int64_t> &results,
          std::vector<std::vector<int64_t>> &args) {
  std::vector<void *> p;
  for (auto &a : args)
    p.push_back(a.data());
  auto *f = reinterpret_cast<void (*)(void *, ...)>(function);
  switch (p.size()) {
  case 1:
    return f(results.data(), p[0]);
  case 2:
    return f(results.data(), p[0], p[1]);
  case 3:
    return f(results.data(), p[0], p[1], p[2]);
  case 4:
    return f(results.data(), p[0], p[1], p[2], p[3]);
  case 5:
    return f(results.data(), p[0], p[1], p[2], p[3], p[4]);
  case 6:
    return f(results.data(), p[0], p[1], p[2], p[3], p[4], p[5]);
  default:
    std::fprintf(stderr, "fuse-gpu-harness: 1 to 6 arguments supported\n");
    std::exit(2);
  }
}

} // namespace

int main(int argc, char **argv) {
  std::string name, cpuPath, cudaPath, entry;
  std::vector<std::string> argSpecs, resultTypes, sizes;
  int repeat = 20;
  double rtol = 1e-5, atol = 1e-6;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i], value = argv[i + 1];
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
        sizes.push_back(value.substr(start, end - start));
        if (end == std::string::npos)
          break;
        start = end + 1;
      }
    } else if (flag == "--repeat")
      repeat = std::atoi(value.c_str());
    else if (flag == "--rtol")
      rtol = std::atof(value.c_str());
    else if (flag == "--atol")
      atol = std::atof(value.c_str());
    else {
      std::fprintf(stderr, "fuse-gpu-harness: unknown flag %s\n", flag.c_str());
      return 2;
    }
  }
  if (name.empty() || cpuPath.empty() || cudaPath.empty() || entry.empty() ||
      resultTypes.empty() || sizes.empty()) {
    std::fprintf(stderr, "usage: see the header of fuse-gpu-harness.cpp\n");
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
  for (const std::string &sizeText : sizes) {
    int64_t n = std::atoll(sizeText.c_str());
    std::mt19937_64 rng(n);
    std::vector<Tensor> inputs;
    std::vector<std::vector<char>> host;
    std::vector<void *> device;
    for (const std::string &spec : argSpecs) {
      size_t colon = spec.find(':');
      Tensor t{typeOf(spec.substr(0, colon)),
               parseShape(spec.substr(colon + 1), n)};
      host.emplace_back(t.elements() * t.type.bytes + 64);
      fillRandom(t.type, host.back().data(), t.elements(), rng);
      void *d = fuse::rt::deviceAlloc(t.elements() * t.type.bytes);
      fuse::rt::copyToDevice(d, host.back().data(),
                             t.elements() * t.type.bytes);
      device.push_back(d);
      inputs.push_back(t);
    }
    size_t resultWords = 0;
    std::vector<TypeInfo> results;
    for (const std::string &r : resultTypes)
      results.push_back(typeOf(r));

    // CPU reference.
    std::vector<std::vector<int64_t>> cpuArgs, gpuArgs;
    for (size_t i = 0; i < inputs.size(); ++i) {
      cpuArgs.push_back(descriptor(host[i].data(), inputs[i].shape));
      gpuArgs.push_back(descriptor(device[i], inputs[i].shape));
    }
    // Ranks of the results are those of the broadcast of the inputs: the
    // highest input rank.
    size_t rank = 0;
    for (const Tensor &t : inputs)
      rank = std::max(rank, t.shape.size());
    resultWords = results.size() * (3 + 2 * rank);
    std::vector<int64_t> cpuResults(resultWords), gpuResults(resultWords);
    fuse::rt::beginRun(fuse::rt::Mode::CPU);
    call(cpuFn, cpuResults, cpuArgs);
    fuse::rt::endRun();

    // GPU: one warm-up, then `repeat` timed runs.
    double kernelMs = 0;
    int64_t bytes = 0;
    size_t launches = 0;
    for (int run = 0; run <= repeat; ++run) {
      if (run > 0)
        for (size_t r = 0; r < results.size(); ++r)
          fuse::rt::deviceFree(
              reinterpret_cast<void *>(gpuResults[r * (3 + 2 * rank)]));
      fuse::rt::beginRun(fuse::rt::Mode::CUDA);
      call(cudaFn, gpuResults, gpuArgs);
      fuse::rt::endRun();
      if (run == 0)
        continue;
      launches = fuse::rt::kernelRecords().size();
      for (const fuse::rt::KernelRecord &k : fuse::rt::kernelRecords()) {
        kernelMs += k.ms;
        bytes += k.bytes;
      }
    }
    kernelMs /= repeat;
    bytes /= repeat;

    // Compare.
    int64_t mismatches = 0;
    double maxError = 0;
    for (size_t r = 0; r < results.size(); ++r) {
      int64_t *c = cpuResults.data() + r * (3 + 2 * rank);
      int64_t *g = gpuResults.data() + r * (3 + 2 * rank);
      int64_t elements = 1;
      for (size_t d = 0; d < rank; ++d)
        elements *= c[3 + d];
      std::vector<char> back(elements * results[r].bytes + 64);
      fuse::rt::copyToHost(back.data(), reinterpret_cast<void *>(g[1]),
                           elements * results[r].bytes);
      const char *ref = reinterpret_cast<const char *>(c[1]);
      for (int64_t i = 0; i < elements; ++i) {
        double a = load(results[r], back.data(), i);
        double b = load(results[r], ref, i);
        if (std::isnan(a) && std::isnan(b))
          continue;
        double error = std::fabs(a - b);
        maxError = std::max(maxError, error);
        if (error > atol + rtol * std::fabs(b))
          ++mismatches;
      }
      std::free(reinterpret_cast<void *>(c[0]));
      fuse::rt::deviceFree(reinterpret_cast<void *>(g[0]));
    }
    for (void *d : device)
      fuse::rt::deviceFree(d);
    double gbps = kernelMs > 0 ? bytes / (kernelMs * 1e6) : 0;
    bool ok = mismatches == 0 && fuse::rt::lastError().empty();
    std::printf("%-16s %10lld  %7zu  %10.4f  %9.1f  %8.1f%%  %10.2e  %s\n",
                name.c_str(), static_cast<long long>(n), launches, kernelMs,
                gbps, copyBandwidth > 0 ? 100 * gbps / copyBandwidth : 0.0,
                maxError,
                ok ? "ok"
                   : (fuse::rt::lastError().empty()
                          ? ("MISMATCH " + std::to_string(mismatches)).c_str()
                          : fuse::rt::lastError().c_str()));
    if (!ok)
      status = 1;
    fuse::rt::clearError();
  }
  return status;
}
