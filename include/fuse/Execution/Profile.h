//===- Profile.h - what one run of an Executable did ------------*- C++ -*-===//
//
// The profile of a run: its kernel launches and host<->device copies, with
// bytes and times, as Executable::run measured them. One module formats it
// for everyone: the per-kernel table of `fuse-run --profile`, the Chrome
// trace of `--trace`, and the JSON that the C API gives Python.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_EXECUTION_PROFILE_H
#define FUSE_EXECUTION_PROFILE_H

#include "fuse/Pipelines/Pipelines.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace fuse {

/// One kernel launch, one copy between the host and the device, or one
/// copy of a result that no kernel writes (an argument, a constant, a
/// result returned twice: the report's "result R is ..., copied"), where
/// the kernels run.
struct ProfileEvent {
  enum class Kind { Kernel, CopyToDevice, CopyToHost, ResultCopy };
  Kind kind = Kind::Kernel;
  /// The kernel's index in the program's kernels (-1 for a copy).
  int64_t kernel = -1;
  /// The result a ResultCopy copies (-1 for the others).
  int64_t result = -1;
  /// The kernel's name (the Executable's own string: a run makes no copy
  /// of it), `memcpy host->device` / `memcpy device->host`, or `[result R
  /// copied]`. Valid while the Executable lives.
  llvm::StringRef name;
  /// Bytes the kernel reads and writes (the report's count), or copies.
  int64_t bytes = 0;
  double ms = 0;
};

/// The events of one run, in the order they happened.
struct RunProfile {
  std::vector<ProfileEvent> events;

  size_t kernelLaunches() const;
  /// `[{"name": ..., "bytes": ..., "ms": ...}, ...]`, one per launch and
  /// one per copy of a result that no kernel writes (`[result R copied]`).
  llvm::json::Value kernelsJSON() const;
};

/// Several runs of one program, summed per kernel and laid end to end.
class ProfileSummary {
public:
  /// `traced`: keep every event for chromeTrace (a run of a 1-kernel
  /// program adds about 13 KB); else only the sums of table.
  explicit ProfileSummary(bool traced) : traced(traced) {}
  /// Adds run number `run` (counted from 0 by the caller).
  void add(const RunProfile &profile, unsigned run);
  /// The table of `fuse-run --profile`: per kernel (in the program's order),
  /// per copied result and per copy direction, calls, total and mean ms,
  /// bytes per call, GB/s and % of `copyBandwidth` (GB/s; 0: unknown, shown
  /// as `-`).
  std::string table(double copyBandwidth) const;
  /// A Chrome trace (Perfetto, chrome://tracing): kernels and copies of
  /// results on thread 0, copies between host and device on thread 1, each
  /// event after the one before it; empty unless `traced`.
  llvm::json::Value chromeTrace() const;
  /// Kernel launches of the last run added.
  size_t launchesPerRun() const { return lastLaunches; }

private:
  struct Stats {
    std::string name;
    int64_t calls = 0;
    double ms = 0;
    int64_t bytes = 0;
  };
  std::map<int64_t, Stats> kernels;
  std::map<int64_t, Stats> resultCopies;
  Stats toDevice{"[memcpy host->device]"}, toHost{"[memcpy device->host]"};
  bool traced;
  llvm::json::Array trace;
  double clockUs = 0;
  size_t lastLaunches = 0;
};

/// The bandwidth that `% copy BW` compares with, in GB/s (bytes read +
/// written per second): the GPU's device-to-device copy (cuda target), or
/// the host's memcpy on `threads` threads, each copying its share (cpu
/// target, as many threads as its kernels run on). 0 when it cannot be
/// measured.
double measureCopyBandwidth(Target target, int threads);

} // namespace fuse

#endif // FUSE_EXECUTION_PROFILE_H
