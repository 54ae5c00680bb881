//===- Profile.cpp - what one run of an Executable did --------------------===//

#include "fuse/Execution/Profile.h"
#include "fuse/Runtime/Runtime.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <thread>

using namespace fuse;

size_t RunProfile::kernelLaunches() const {
  return llvm::count_if(events, [](const ProfileEvent &event) {
    return event.kind == ProfileEvent::Kind::Kernel;
  });
}

llvm::json::Value RunProfile::kernelsJSON() const {
  llvm::json::Array kernels;
  // The rows of fuse-run --profile's table but the host-device copies: the
  // kernels and the copies of results that no kernel writes, whose bytes
  // the report counts too.
  for (const ProfileEvent &event : events)
    if (event.kind == ProfileEvent::Kind::Kernel ||
        event.kind == ProfileEvent::Kind::ResultCopy)
      kernels.push_back(llvm::json::Object{{"name", event.name.str()},
                                           {"bytes", event.bytes},
                                           {"ms", event.ms}});
  return kernels;
}

void ProfileSummary::add(const RunProfile &profile, unsigned run) {
  lastLaunches = profile.kernelLaunches();
  for (const ProfileEvent &event : profile.events) {
    bool kernel = event.kind == ProfileEvent::Kind::Kernel;
    bool resultCopy = event.kind == ProfileEvent::Kind::ResultCopy;
    Stats &stats = kernel       ? kernels[event.kernel]
                   : resultCopy ? resultCopies[event.result]
                   : event.kind == ProfileEvent::Kind::CopyToDevice ? toDevice
                                                                    : toHost;
    if (kernel || resultCopy)
      stats.name = event.name.str();
    stats.calls++;
    stats.ms += event.ms;
    stats.bytes += event.bytes;
    if (!traced)
      continue;
    // The durations are measured; the start times follow from them.
    trace.push_back(llvm::json::Object{
        {"name", event.name.str()},
        {"cat", kernel ? "kernel" : "copy"},
        {"ph", "X"},
        {"ts", clockUs},
        {"dur", event.ms * 1000},
        {"pid", 0},
        {"tid", kernel || resultCopy ? 0 : 1},
        {"args", llvm::json::Object{{"bytes", event.bytes}, {"run", run}}}});
    clockUs += event.ms * 1000;
  }
}

/// Bytes in decimal units with two decimals ("1.00 MB" for 999,999: the
/// unit is chosen after rounding, which printed "1000.00 KB"), whole bytes
/// below 1000 ("999 B").
static std::string formatBytes(double bytes) {
  const char *units[] = {"B", "KB", "MB", "GB", "TB"};
  if (bytes < 999.5)
    return llvm::formatv("{0:F0} B", bytes).str();
  int unit = 0;
  while (bytes >= 999.995 && unit < 4) {
    bytes /= 1000;
    ++unit;
  }
  return llvm::formatv("{0:F2} {1}", bytes, units[unit]).str();
}

/// Milliseconds with three decimals, or three significant digits when
/// that shows fewer (0.000180 for a kernel of 180 ns, which printed 0.000
/// beside its GB/s); up to 6 decimals, a nanosecond.
static std::string formatMs(double ms) {
  int decimals = 3;
  if (ms > 0 && ms < 0.1)
    decimals = std::min(6, 2 - static_cast<int>(std::floor(std::log10(ms))));
  return llvm::formatv("{0}", llvm::format("%.*f", decimals, ms)).str();
}

std::string ProfileSummary::table(double copyBandwidth) const {
  std::vector<std::vector<std::string>> rows = {{"Name", "Calls", "Total ms",
                                                 "Mean ms", "Bytes/call",
                                                 "GB/s", "% copy BW"}};
  auto row = [&](const Stats &stats) {
    double gbps = stats.ms > 0 ? stats.bytes / (stats.ms * 1e6) : 0;
    rows.push_back(
        {stats.name, std::to_string(stats.calls), formatMs(stats.ms),
         formatMs(stats.calls ? stats.ms / stats.calls : 0),
         formatBytes(stats.calls ? double(stats.bytes) / stats.calls : 0),
         llvm::formatv("{0:F1}", gbps).str(),
         copyBandwidth > 0
             ? llvm::formatv("{0:F1}%", 100 * gbps / copyBandwidth).str()
             : std::string("-")});
  };
  for (const auto &[id, stats] : kernels)
    row(stats);
  for (const auto &[result, stats] : resultCopies)
    row(stats);
  for (const Stats *copies : {&toDevice, &toHost})
    if (copies->calls)
      row(*copies);
  std::vector<size_t> widths(rows.front().size(), 0);
  for (const auto &r : rows)
    for (size_t i = 0; i < r.size(); ++i)
      widths[i] = std::max(widths[i], r[i].size());
  std::string text;
  for (auto [n, r] : llvm::enumerate(rows)) {
    std::string line;
    for (size_t i = 0; i < r.size(); ++i) {
      std::string pad(widths[i] - r[i].size(), ' ');
      line += i == 0 ? r[i] + pad : "  " + pad + r[i];
    }
    text += line + "\n";
    if (n == 0)
      text += std::string(line.size(), '-') + "\n";
  }
  return text;
}

llvm::json::Value ProfileSummary::chromeTrace() const {
  return llvm::json::Object{{"traceEvents", llvm::json::Array(trace)},
                            {"displayTimeUnit", "ms"}};
}

/// The host's memcpy bandwidth on `threads` threads, each copying its share.
static double measureHostCopyBandwidth(int threads) {
  constexpr size_t kBytes = size_t(64) << 20;
  std::vector<char> a(kBytes, 1), b(kBytes, 2);
  size_t share = (kBytes / threads + 63) & ~size_t(63);
  double best = 0;
  for (int i = 0; i < 3; ++i) {
    a[i] = static_cast<char>(i);
    auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
      size_t begin = std::min(kBytes, t * share);
      size_t end = std::min(kBytes, begin + share);
      workers.emplace_back([&, begin, end] {
        std::memcpy(b.data() + begin, a.data() + begin, end - begin);
      });
    }
    for (std::thread &worker : workers)
      worker.join();
    double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    // Read the copy back so that it cannot be optimized away.
    volatile char sink = b[i];
    (void)sink;
    best = std::max(best, 2.0 * kBytes / (s * 1e9));
  }
  return best;
}

double fuse::measureCopyBandwidth(Target target, int threads) {
  return target == Target::CUDA
             ? rt::measureCopyBandwidth()
             : measureHostCopyBandwidth(std::max(1, threads));
}
