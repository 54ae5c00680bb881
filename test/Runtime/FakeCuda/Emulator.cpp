//===- Emulator.cpp - the fake driver's GPU, on the host ------------------===//
//
// The GPU that the fake CUDA driver emulates, for the host builds of kernel
// modules (fuse/Runtime/HostKernels.h). Three parts:
//
// Instructions. Each NVVM intrinsic and each inline PTX block that appears
// in fuse's kernels (the examples, every op on every type, libdevice's
// functions that they call) is defined here by its PTX ISA definition:
// rounding modes, saturation, conversions, the carry chains of libdevice's
// multi-word arithmetic instruction by instruction, and `.ftz`: a
// subnormal input of an .ftz instruction reads as a zero of its sign, and a
// subnormal result is written as one. The approximate instructions
// (ex2.approx, rcp.approx, rsqrt.approx) return the correctly rounded
// value: on a GPU they may differ from it by up to their documented error,
// which only a run on a GPU measures. Everything else in a kernel is LLVM
// IR, compiled for the host with IEEE semantics (no contraction, no
// flushing), as NVPTX compiles it (add.rn, mul.rn, div.rn, sqrt.rn, ...).
// An intrinsic or inline PTX not listed here is refused when the module is
// loaded, with its name.
//
// Memory. fuse's host build calls `access` before every load and store of
// device memory, with the alignment the GPU requires of the access (16
// bytes for a 128-bit vector access). A misaligned access faults with
// CUDA_ERROR_MISALIGNED_ADDRESS and one outside every allocation with
// CUDA_ERROR_ILLEGAL_ADDRESS, as on a GPU: the thread stops, the rest of
// the grid is not run, and the driver reports the error from the next
// synchronizing call.
//
// The grid. Blocks are independent and run on several host threads (up to
// FAKE_CUDA_THREADS, default the host's cores, at most 8; small grids on
// the launching thread alone). The threads of a block run one after
// another on one host thread, each to completion, which is exact for
// kernels without synchronization: fuse's elementwise kernels have none.
// A kernel with warp shuffles (shfl.sync: fuse's row reductions) runs each
// warp's threads as fibers (ucontext) instead: a shuffle stores the lane's
// value and switches to the next lane until every lane of the warp has
// arrived; the last computes every lane's result, and the lanes go on, as
// the warp's shfl.sync does. A barrier (bar.sync) is not in the table, so
// a kernel with one is refused at load instead of computing wrong values.
//
//===----------------------------------------------------------------------===//

#include "Emulator.h"

#include <algorithm>
#include <atomic>
#include <cfenv>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <ucontext.h>
#include <vector>
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FAKECUDA_ASAN 1
#include <sanitizer/common_interface_defs.h>
#endif
#endif
#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#pragma STDC FENV_ACCESS ON
#pragma STDC FP_CONTRACT OFF

using namespace fakecuda;

namespace {

constexpr int kErrorIllegalAddress = 700;
constexpr int kErrorMisalignedAddress = 716;

void faultInWarp();

/// The GPU thread a host thread is running, and where it stops on a fault.
struct ThreadState {
  unsigned tid[3] = {0, 0, 0};
  unsigned ntid[3] = {1, 1, 1};
  unsigned ctaid[3] = {0, 0, 0};
  unsigned nctaid[3] = {1, 1, 1};
  std::jmp_buf *stop = nullptr;
  Fault fault;
  /// The allocation of the last access, checked first.
  uint64_t lastBegin = 0, lastEnd = 0;
};

thread_local ThreadState self;

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

[[noreturn]] void fault(int code, const char *kind, uint64_t address,
                        uint64_t bytes) {
  char text[256];
  std::snprintf(text, sizeof(text),
                "%s %llu-byte access at 0x%llx by thread (%u,%u,%u) of block "
                "(%u,%u,%u)",
                kind, static_cast<unsigned long long>(bytes),
                static_cast<unsigned long long>(address), self.tid[0],
                self.tid[1], self.tid[2], self.ctaid[0], self.ctaid[1],
                self.ctaid[2]);
  self.fault.code = code;
  self.fault.what = text;
  faultInWarp();
  std::longjmp(*self.stop, 1);
}

void access(void *pointer, uint64_t bytes, uint64_t alignment) {
  auto address = reinterpret_cast<uint64_t>(pointer);
  if (alignment > 1 && address % alignment)
    fault(kErrorMisalignedAddress, "misaligned", address, bytes);
  if (address >= self.lastBegin && address + bytes <= self.lastEnd)
    return;
  if (!findAllocation(address, bytes, self.lastBegin, self.lastEnd))
    fault(kErrorIllegalAddress, "out-of-bounds", address, bytes);
}

//===----------------------------------------------------------------------===//
// Warps as fibers
//===----------------------------------------------------------------------===//

constexpr unsigned kWarpLanes = 32;
constexpr size_t kLaneStackBytes = 256 * 1024;

/// The threads of one warp, run as fibers by a scheduler on the host
/// thread's own stack.
struct Warp {
  ucontext_t scheduler;
  ucontext_t lanes[kWarpLanes];
  std::vector<char> stacks = std::vector<char>(kWarpLanes * kLaneStackBytes);
  unsigned count = 0, current = 0, arrived = 0;
  uint64_t generation = 0;
  bool done[kWarpLanes];
  unsigned tid[kWarpLanes][3];
  uint32_t slots[kWarpLanes], results[kWarpLanes];
  void (*kernel)(void **) = nullptr;
  void **params = nullptr;
  bool faulted = false;
#ifdef FAKECUDA_ASAN
  const void *schedulerBottom = nullptr;
  size_t schedulerSize = 0;
#endif
};

/// The warp the host thread is running, while it runs one.
thread_local Warp *warp = nullptr;

void runThread(void (*kernel)(void **), void **params);

/// Switches from the running lane to the scheduler (`dying`: for good).
void toScheduler(bool dying) {
  Warp &w = *warp;
#ifdef FAKECUDA_ASAN
  void *fake = nullptr;
  __sanitizer_start_switch_fiber(dying ? nullptr : &fake, w.schedulerBottom,
                                 w.schedulerSize);
  swapcontext(&w.lanes[w.current], &w.scheduler);
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#else
  (void)dying;
  swapcontext(&w.lanes[w.current], &w.scheduler);
#endif
}

/// The body of a lane's fiber: the GPU thread, then back for good.
void laneMain() {
#ifdef FAKECUDA_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &warp->schedulerBottom,
                                  &warp->schedulerSize);
#endif
  runThread(warp->kernel, warp->params);
  warp->done[warp->current] = true;
  toScheduler(/*dying=*/true);
}

/// A fault in a lane: the scheduler stops the warp, from its own stack.
void faultInWarp() {
  if (!warp)
    return;
  warp->faulted = true;
  toScheduler(/*dying=*/true);
}

/// Runs lanes [0, count) of `w` (ids in w.tid) to the end; false on a
/// fault (self.fault says which).
bool runWarp(Warp &w) {
  for (unsigned l = 0; l < w.count; ++l) {
    w.done[l] = false;
    getcontext(&w.lanes[l]);
    w.lanes[l].uc_stack.ss_sp = w.stacks.data() + l * kLaneStackBytes;
    w.lanes[l].uc_stack.ss_size = kLaneStackBytes;
    w.lanes[l].uc_link = nullptr;
    makecontext(&w.lanes[l], laneMain, 0);
  }
  w.arrived = 0;
  w.faulted = false;
  warp = &w;
  for (unsigned left = w.count; left && !w.faulted;) {
    for (unsigned l = 0; l < w.count && !w.faulted; ++l) {
      if (w.done[l])
        continue;
      w.current = l;
      std::copy(w.tid[l], w.tid[l] + 3, self.tid);
#ifdef FAKECUDA_ASAN
      void *fake = nullptr;
      __sanitizer_start_switch_fiber(&fake, w.lanes[l].uc_stack.ss_sp,
                                     kLaneStackBytes);
      swapcontext(&w.scheduler, &w.lanes[l]);
      __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#else
      swapcontext(&w.scheduler, &w.lanes[l]);
#endif
      if (w.done[l])
        --left;
    }
  }
  warp = nullptr;
  return !w.faulted;
}

/// shfl.sync with a full mask over the whole warp (clamp 31), as fuse's
/// kernels use it: the lane offers `bits` and gets the value of lane
/// source(lane) (its own when that is not a lane of the warp).
template <typename Source> uint32_t shuffle(uint32_t bits, Source source) {
  if (!warp) {
    std::fprintf(stderr, "fake driver: a warp shuffle in a kernel that was "
                         "not run as warps\n");
    std::abort();
  }
  Warp &w = *warp;
  unsigned lane = w.current;
  w.slots[lane] = bits;
  uint64_t generation = w.generation;
  unsigned live = 0;
  for (unsigned l = 0; l < w.count; ++l)
    live += !w.done[l];
  if (++w.arrived == live) {
    for (unsigned l = 0; l < w.count; ++l) {
      unsigned from = source(l);
      w.results[l] =
          from < w.count && !w.done[from] ? w.slots[from] : w.slots[l];
    }
    w.arrived = 0;
    ++w.generation;
  } else {
    while (w.generation == generation)
      toScheduler(/*dying=*/false);
  }
  return w.results[lane];
}

float bitsAsFloat(uint32_t b);
uint32_t floatBits(float f);

float shflDownF32(unsigned, float value, unsigned offset, unsigned) {
  return bitsAsFloat(
      shuffle(floatBits(value), [&](unsigned l) { return l + offset; }));
}
unsigned shflDownI32(unsigned, unsigned value, unsigned offset, unsigned) {
  return shuffle(value, [&](unsigned l) { return l + offset; });
}
float shflIdxF32(unsigned, float value, unsigned index, unsigned) {
  return bitsAsFloat(
      shuffle(floatBits(value), [&](unsigned) { return index % kWarpLanes; }));
}
unsigned shflIdxI32(unsigned, unsigned value, unsigned index, unsigned) {
  return shuffle(value, [&](unsigned) { return index % kWarpLanes; });
}

//===----------------------------------------------------------------------===//
// Special registers
//===----------------------------------------------------------------------===//

unsigned tidX() { return self.tid[0]; }
unsigned tidY() { return self.tid[1]; }
unsigned tidZ() { return self.tid[2]; }
unsigned ntidX() { return self.ntid[0]; }
unsigned ntidY() { return self.ntid[1]; }
unsigned ntidZ() { return self.ntid[2]; }
unsigned ctaidX() { return self.ctaid[0]; }
unsigned ctaidY() { return self.ctaid[1]; }
unsigned ctaidZ() { return self.ctaid[2]; }
unsigned nctaidX() { return self.nctaid[0]; }
unsigned nctaidY() { return self.nctaid[1]; }
unsigned nctaidZ() { return self.nctaid[2]; }
unsigned warpSize() { return 32; }
unsigned laneId() {
  return (self.tid[0] +
          self.ntid[0] * (self.tid[1] + self.ntid[1] * self.tid[2])) %
         32;
}

//===----------------------------------------------------------------------===//
// Floating point
//===----------------------------------------------------------------------===//

/// .ftz: a subnormal reads and writes as a zero of its sign.
float ftz(float x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}
double ftz(double x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0, x) : x;
}

/// The approximate instructions, correctly rounded (see the file comment).
float ex2ApproxFtz(float x) { return ftz(float(std::exp2(double(ftz(x))))); }
float ex2Approx(float x) { return float(std::exp2(double(x))); }
float rcpApproxFtz(float x) { return ftz(float(1.0 / double(ftz(x)))); }
double rcpApproxFtzD(double x) { return ftz(1.0 / ftz(x)); }
float rsqrtApprox(float x) { return float(1.0 / std::sqrt(double(x))); }
double rsqrtApproxD(double x) {
  return double(1.0L / std::sqrt(static_cast<long double>(x)));
}

float sqrtRn(float x) { return std::sqrt(x); }
double sqrtRnD(double x) { return std::sqrt(x); }
float addRn(float a, float b) { return a + b; }
float mulRn(float a, float b) { return a * b; }
double addRnD(double a, double b) { return a + b; }
double mulRnD(double a, double b) { return a * b; }
float fabsF(float x) { return std::fabs(x); }
double fabsD(double x) { return std::fabs(x); }

/// fma.rm.f32: one rounding, toward negative infinity.
float fmaRm(float a, float b, float c) {
  int mode = std::fegetround();
  std::fesetround(FE_DOWNWARD);
  volatile float result = std::fma(a, b, c);
  std::fesetround(mode);
  return result;
}
float fmaRmFtz(float a, float b, float c) {
  return ftz(fmaRm(ftz(a), ftz(b), ftz(c)));
}
/// add.rz.f32: one rounding, toward zero (libdevice's log1pf).
float addRz(float a, float b) {
  int mode = std::fegetround();
  std::fesetround(FE_TOWARDZERO);
  volatile float result = a + b;
  std::fesetround(mode);
  return result;
}
float addRzFtz(float a, float b) { return ftz(addRz(ftz(a), ftz(b))); }

/// fma.rn.f32: one rounding, to nearest even; .ftz: subnormals as zeros.
/// libdevice's functions call these (and fabs.ftz, rsqrt.approx.ftz)
/// unoptimized, at --opt-level=0.
float fmaRn(float a, float b, float c) { return std::fma(a, b, c); }
float fmaRnFtz(float a, float b, float c) {
  return ftz(std::fma(ftz(a), ftz(b), ftz(c)));
}
float fabsFtz(float x) { return ftz(std::fabs(ftz(x))); }
float rsqrtApproxFtz(float x) { return ftz(rsqrtApprox(ftz(x))); }
double fmaRnD(double a, double b, double c) { return std::fma(a, b, c); }
float sqrtRnFtz(float x) { return ftz(std::sqrt(ftz(x))); }
float addRnFtz(float a, float b) { return ftz(ftz(a) + ftz(b)); }
float mulRnFtz(float a, float b) { return ftz(ftz(a) * ftz(b)); }
/// cvt.rzi/cvt.rmi: toward zero and toward negative infinity.
float truncF(float x) { return std::trunc(x); }
double truncD(double x) { return std::trunc(x); }
float floorF(float x) { return std::floor(x); }
double floorD(double x) { return std::floor(x); }
float ceilF(float x) { return std::ceil(x); }
double ceilD(double x) { return std::ceil(x); }
float floorFtz(float x) { return ftz(std::floor(ftz(x))); }

/// cvt.sat.f32.f32: clamps to [0, 1]; NaN gives +0.
float saturate(float x) {
  if (std::isnan(x))
    return 0.0f;
  return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}
float saturateFtz(float x) { return ftz(saturate(ftz(x))); }

/// cvt.rni.f32.f32: the nearest integer, ties to even.
float roundF(float x) { return std::nearbyint(x); }

/// cvt.rni.s32.f32/f64: ties to even, clamped to the range; NaN gives 0.
template <typename T> int toIntRn(T x) {
  if (std::isnan(x))
    return 0;
  T rounded = std::nearbyint(x);
  if (rounded <= T(-2147483648.0))
    return -2147483647 - 1;
  if (rounded >= T(2147483647.0))
    return 2147483647;
  return static_cast<int>(rounded);
}
int f2iRn(float x) { return toIntRn(x); }
int f2iRnFtz(float x) { return toIntRn(ftz(x)); }
int d2iRn(double x) { return toIntRn(x); }

uint64_t bits(double x) {
  uint64_t b;
  std::memcpy(&b, &x, 8);
  return b;
}
double lohiI2d(int lo, int hi) {
  uint64_t b = uint64_t(uint32_t(hi)) << 32 | uint32_t(lo);
  double x;
  std::memcpy(&x, &b, 8);
  return x;
}
int d2iHi(double x) { return int(uint32_t(bits(x) >> 32)); }
int d2iLo(double x) { return int(uint32_t(bits(x))); }

//===----------------------------------------------------------------------===//
// libdevice's inline PTX: each block transcribed instruction by instruction
// over a condition code register, as the PTX ISA defines the carry chain.
//===----------------------------------------------------------------------===//

struct CC {
  uint32_t cf = 0;
  uint32_t add(uint32_t a, uint32_t b, bool carryIn, bool carryOut) {
    uint64_t sum = uint64_t(a) + b + (carryIn ? cf : 0);
    if (carryOut)
      cf = uint32_t(sum >> 32);
    return uint32_t(sum);
  }
  /// sub.cc/subc: a - (b + CC.CF), the borrow out in CC.CF.
  uint32_t sub(uint32_t a, uint32_t b, bool borrowIn, bool borrowOut) {
    uint64_t subtrahend = uint64_t(b) + (borrowIn ? cf : 0);
    if (borrowOut)
      cf = uint64_t(a) < subtrahend;
    return uint32_t(uint64_t(a) - subtrahend);
  }
};
uint32_t lo(uint32_t a, uint32_t b) { return uint32_t(uint64_t(a) * b); }
uint32_t hi(uint32_t a, uint32_t b) { return uint32_t(uint64_t(a) * b >> 32); }
uint32_t low(uint64_t x) { return uint32_t(x); }
uint32_t high(uint64_t x) { return uint32_t(x >> 32); }
uint64_t join(uint32_t l, uint32_t h) { return uint64_t(h) << 32 | l; }

void rcpApproxFtzAsm(uint64_t *out, const uint64_t *in) {
  float x, r;
  uint32_t b = uint32_t(in[0]);
  std::memcpy(&x, &b, 4);
  r = rcpApproxFtz(x);
  std::memcpy(&b, &r, 4);
  out[0] = b;
}

// { mad.lo.cc.u32 $0, $2, $3, $4; madc.hi.u32 $1, $2, $3, 0; }
void madWide32(uint64_t *out, const uint64_t *in) {
  CC cc;
  uint32_t a = uint32_t(in[0]), b = uint32_t(in[1]), c = uint32_t(in[2]);
  out[0] = cc.add(lo(a, b), c, false, true);
  out[1] = cc.add(hi(a, b), 0, true, false);
}

// 64 x 64 + 64 -> 128 bits: $0, $1 = $2 * $3 + $4.
void madWide64(uint64_t *out, const uint64_t *in) {
  CC cc;
  uint32_t alo = low(in[0]), ahi = high(in[0]), blo = low(in[1]),
           bhi = high(in[1]), clo = low(in[2]), chi = high(in[2]);
  uint32_t r0 = cc.add(lo(alo, blo), clo, false, true); // mad.lo.cc
  uint32_t r1 = cc.add(hi(alo, blo), chi, true, true);  // madc.hi.cc
  uint32_t r2 = cc.add(hi(alo, bhi), 0, true, false);   // madc.hi
  r1 = cc.add(lo(alo, bhi), r1, false, true);           // mad.lo.cc
  r2 = cc.add(hi(ahi, blo), r2, true, true);            // madc.hi.cc
  uint32_t r3 = cc.add(hi(ahi, bhi), 0, true, false);   // madc.hi
  r1 = cc.add(lo(ahi, blo), r1, false, true);           // mad.lo.cc
  r2 = cc.add(lo(ahi, bhi), r2, true, true);            // madc.lo.cc
  r3 = cc.add(r3, 0, true, false);                      // addc
  out[0] = join(r0, r1);
  out[1] = join(r2, r3);
}

// 64 x 64 -> 128 bits: $0, $1 = $2 * $3.
void mulWide64(uint64_t *out, const uint64_t *in) {
  CC cc;
  uint32_t alo = low(in[0]), ahi = high(in[0]), blo = low(in[1]),
           bhi = high(in[1]);
  uint32_t r0 = lo(alo, blo);                         // mul.lo
  uint32_t r1 = hi(alo, blo);                         // mul.hi
  r1 = cc.add(lo(alo, bhi), r1, false, true);         // mad.lo.cc
  uint32_t r2 = cc.add(hi(alo, bhi), 0, true, false); // madc.hi
  r1 = cc.add(lo(ahi, blo), r1, false, true);         // mad.lo.cc
  r2 = cc.add(hi(ahi, blo), r2, true, true);          // madc.hi.cc
  uint32_t r3 = cc.add(hi(ahi, bhi), 0, true, false); // madc.hi
  r2 = cc.add(lo(ahi, bhi), r2, false, true);         // mad.lo.cc
  r3 = cc.add(r3, 0, true, false);                    // addc
  out[0] = join(r0, r1);
  out[1] = join(r2, r3);
}

// 128-bit add and subtract: $0, $1 = ($2, $3) +/- ($4, $5).
void add128(uint64_t *out, const uint64_t *in) {
  CC cc;
  uint32_t r0 = cc.add(low(in[0]), low(in[2]), false, true);
  uint32_t r1 = cc.add(high(in[0]), high(in[2]), true, true);
  uint32_t r2 = cc.add(low(in[1]), low(in[3]), true, true);
  uint32_t r3 = cc.add(high(in[1]), high(in[3]), true, false);
  out[0] = join(r0, r1);
  out[1] = join(r2, r3);
}
void sub128(uint64_t *out, const uint64_t *in) {
  CC cc;
  uint32_t r0 = cc.sub(low(in[0]), low(in[2]), false, true);
  uint32_t r1 = cc.sub(high(in[0]), high(in[2]), true, true);
  uint32_t r2 = cc.sub(low(in[1]), low(in[3]), true, true);
  uint32_t r3 = cc.sub(high(in[1]), high(in[3]), true, false);
  out[0] = join(r0, r1);
  out[1] = join(r2, r3);
}

//===----------------------------------------------------------------------===//
// Conversions the host code may call (compiler-rt's, which a process that
// did not load it lacks). bf16 and f16 results are returned in the low bits
// of a float register, as the x86-64 ABI returns them.
//===----------------------------------------------------------------------===//

float bitsAsFloat(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
uint32_t floatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

/// f32 -> bf16, to nearest even; a NaN stays a quiet NaN.
uint16_t toBF16(float x) {
  uint32_t b = floatBits(x);
  if (std::isnan(x))
    return uint16_t(b >> 16 | 0x40);
  b += 0x7fff + (b >> 16 & 1);
  return uint16_t(b >> 16);
}

/// f64 -> f32 rounded to odd: exact when no bit is lost, else the nearest
/// float toward zero with its last bit set. Rounding that once more to a
/// narrower format gives the correctly rounded result.
float toFloatOdd(double x) {
  int mode = std::fegetround();
  std::fesetround(FE_TOWARDZERO);
  volatile float f = float(x);
  std::fesetround(mode);
  if (!std::isnan(x) && double(f) != x)
    return bitsAsFloat(floatBits(f) | 1);
  return f;
}

float truncSFBF2(float x) { return bitsAsFloat(toBF16(x)); }
float truncDFBF2(double x) { return bitsAsFloat(toBF16(toFloatOdd(x))); }
_Float16 truncSFHF2(float x) { return static_cast<_Float16>(x); }
_Float16 truncDFHF2(double x) { return static_cast<_Float16>(toFloatOdd(x)); }
float extendHFSF2(_Float16 x) { return static_cast<float>(x); }

struct Entry {
  const char *key;
  void *address;
};

#define FN(f) reinterpret_cast<void *>(&f)

const Entry kTable[] = {
    {"fuse.access void (ptr, i64, i64)", FN(access)},
    {"llvm.nvvm.read.ptx.sreg.tid.x i32 ()", FN(tidX)},
    {"llvm.nvvm.shfl.sync.down.f32 float (i32, float, i32, i32)",
     FN(shflDownF32)},
    {"llvm.nvvm.shfl.sync.down.i32 i32 (i32, i32, i32, i32)", FN(shflDownI32)},
    {"llvm.nvvm.shfl.sync.idx.f32 float (i32, float, i32, i32)",
     FN(shflIdxF32)},
    {"llvm.nvvm.shfl.sync.idx.i32 i32 (i32, i32, i32, i32)", FN(shflIdxI32)},
    {"llvm.nvvm.read.ptx.sreg.tid.y i32 ()", FN(tidY)},
    {"llvm.nvvm.read.ptx.sreg.tid.z i32 ()", FN(tidZ)},
    {"llvm.nvvm.read.ptx.sreg.ntid.x i32 ()", FN(ntidX)},
    {"llvm.nvvm.read.ptx.sreg.ntid.y i32 ()", FN(ntidY)},
    {"llvm.nvvm.read.ptx.sreg.ntid.z i32 ()", FN(ntidZ)},
    {"llvm.nvvm.read.ptx.sreg.ctaid.x i32 ()", FN(ctaidX)},
    {"llvm.nvvm.read.ptx.sreg.ctaid.y i32 ()", FN(ctaidY)},
    {"llvm.nvvm.read.ptx.sreg.ctaid.z i32 ()", FN(ctaidZ)},
    {"llvm.nvvm.read.ptx.sreg.nctaid.x i32 ()", FN(nctaidX)},
    {"llvm.nvvm.read.ptx.sreg.nctaid.y i32 ()", FN(nctaidY)},
    {"llvm.nvvm.read.ptx.sreg.nctaid.z i32 ()", FN(nctaidZ)},
    {"llvm.nvvm.read.ptx.sreg.warpsize i32 ()", FN(warpSize)},
    {"llvm.nvvm.read.ptx.sreg.laneid i32 ()", FN(laneId)},
    {"llvm.nvvm.ex2.approx.ftz.f32 float (float)", FN(ex2ApproxFtz)},
    {"llvm.nvvm.ex2.approx.f32 float (float)", FN(ex2Approx)},
    {"llvm.nvvm.rcp.approx.ftz.d double (double)", FN(rcpApproxFtzD)},
    {"llvm.nvvm.rcp.approx.ftz.f float (float)", FN(rcpApproxFtz)},
    {"llvm.nvvm.rsqrt.approx.f float (float)", FN(rsqrtApprox)},
    {"llvm.nvvm.rsqrt.approx.d double (double)", FN(rsqrtApproxD)},
    {"llvm.nvvm.sqrt.rn.f float (float)", FN(sqrtRn)},
    {"llvm.nvvm.sqrt.rn.d double (double)", FN(sqrtRnD)},
    {"llvm.nvvm.add.rn.f float (float, float)", FN(addRn)},
    {"llvm.nvvm.mul.rn.f float (float, float)", FN(mulRn)},
    {"llvm.nvvm.add.rn.d double (double, double)", FN(addRnD)},
    {"llvm.nvvm.mul.rn.d double (double, double)", FN(mulRnD)},
    {"llvm.nvvm.add.rz.f float (float, float)", FN(addRz)},
    {"llvm.nvvm.add.rz.ftz.f float (float, float)", FN(addRzFtz)},
    {"llvm.nvvm.fma.rm.f float (float, float, float)", FN(fmaRm)},
    {"llvm.nvvm.fma.rm.ftz.f float (float, float, float)", FN(fmaRmFtz)},
    {"llvm.nvvm.fma.rn.f float (float, float, float)", FN(fmaRn)},
    {"llvm.nvvm.fma.rn.ftz.f float (float, float, float)", FN(fmaRnFtz)},
    {"llvm.nvvm.fabs.ftz.f32 float (float)", FN(fabsFtz)},
    {"llvm.nvvm.rsqrt.approx.ftz.f float (float)", FN(rsqrtApproxFtz)},
    {"llvm.nvvm.fabs.f32 float (float)", FN(fabsF)},
    {"llvm.nvvm.fabs.f64 double (double)", FN(fabsD)},
    {"llvm.nvvm.saturate.f float (float)", FN(saturate)},
    {"llvm.nvvm.saturate.ftz.f float (float)", FN(saturateFtz)},
    {"llvm.nvvm.round.f float (float)", FN(roundF)},
    {"llvm.nvvm.f2i.rn i32 (float)", FN(f2iRn)},
    {"llvm.nvvm.f2i.rn.ftz i32 (float)", FN(f2iRnFtz)},
    {"llvm.nvvm.fma.rn.d double (double, double, double)", FN(fmaRnD)},
    {"llvm.nvvm.sqrt.rn.ftz.f float (float)", FN(sqrtRnFtz)},
    {"llvm.nvvm.add.rn.ftz.f float (float, float)", FN(addRnFtz)},
    {"llvm.nvvm.mul.rn.ftz.f float (float, float)", FN(mulRnFtz)},
    {"llvm.nvvm.trunc.f float (float)", FN(truncF)},
    {"llvm.nvvm.trunc.d double (double)", FN(truncD)},
    {"llvm.nvvm.floor.f float (float)", FN(floorF)},
    {"llvm.nvvm.floor.d double (double)", FN(floorD)},
    {"llvm.nvvm.ceil.f float (float)", FN(ceilF)},
    {"llvm.nvvm.ceil.d double (double)", FN(ceilD)},
    {"llvm.nvvm.floor.ftz.f float (float)", FN(floorFtz)},
    {"llvm.nvvm.d2i.rn i32 (double)", FN(d2iRn)},
    {"llvm.nvvm.lohi.i2d double (i32, i32)", FN(lohiI2d)},
    {"llvm.nvvm.d2i.hi i32 (double)", FN(d2iHi)},
    {"llvm.nvvm.d2i.lo i32 (double)", FN(d2iLo)},
    {"asm rcp.approx.ftz.f32 $0,$1;|=f,f", FN(rcpApproxFtzAsm)},
    {"asm { mad.lo.cc.u32 $0, $2, $3, $4; madc.hi.u32 $1, $2, $3, 0; "
     "}|=r,=r,r,r,r",
     FN(madWide32)},
    {"asm { .reg .u32 r0, r1, r2, r3, alo, ahi, blo, bhi, clo, chi; mov.b64 "
     "{alo,ahi}, $2; mov.b64 {blo,bhi}, $3; mov.b64 {clo,chi}, $4; "
     "mad.lo.cc.u32 r0, alo, blo, clo; madc.hi.cc.u32 r1, alo, blo, chi; "
     "madc.hi.u32 r2, alo, bhi, 0; mad.lo.cc.u32 r1, alo, bhi, r1; "
     "madc.hi.cc.u32 r2, ahi, blo, r2; madc.hi.u32 r3, ahi, bhi, 0; "
     "mad.lo.cc.u32 r1, ahi, blo, r1; madc.lo.cc.u32 r2, ahi, bhi, r2; "
     "addc.u32 r3, r3, 0; mov.b64 $0, {r0,r1}; mov.b64 $1, {r2,r3}; "
     "}|=l,=l,l,l,l",
     FN(madWide64)},
    {"asm { .reg .u32 r0, r1, r2, r3, alo, ahi, blo, bhi; mov.b64 {alo,ahi}, "
     "$2; mov.b64 {blo,bhi}, $3; mul.lo.u32 r0, alo, blo; mul.hi.u32 r1, "
     "alo, blo; mad.lo.cc.u32 r1, alo, bhi, r1; madc.hi.u32 r2, alo, bhi, 0; "
     "mad.lo.cc.u32 r1, ahi, blo, r1; madc.hi.cc.u32 r2, ahi, blo, r2; "
     "madc.hi.u32 r3, ahi, bhi, 0; mad.lo.cc.u32 r2, ahi, bhi, r2; addc.u32 "
     "r3, r3, 0; mov.b64 $0, {r0,r1}; mov.b64 $1, {r2,r3}; }|=l,=l,l,l",
     FN(mulWide64)},
    {"asm { .reg .u32 r0, r1, r2, r3, a0, a1, a2, a3, b0, b1, b2, b3; "
     "mov.b64 {a0,a1}, $2; mov.b64 {a2,a3}, $3; mov.b64 {b0,b1}, $4; mov.b64 "
     "{b2,b3}, $5; add.cc.u32 r0, a0, b0; addc.cc.u32 r1, a1, b1; "
     "addc.cc.u32 r2, a2, b2; addc.u32 r3, a3, b3; mov.b64 $0, {r0,r1}; "
     "mov.b64 $1, {r2,r3}; }|=l,=l,l,l,l,l",
     FN(add128)},
    {"asm { .reg .u32 r0, r1, r2, r3, a0, a1, a2, a3, b0, b1, b2, b3; "
     "mov.b64 {a0,a1}, $2; mov.b64 {a2,a3}, $3; mov.b64 {b0,b1}, $4; mov.b64 "
     "{b2,b3}, $5; sub.cc.u32 r0, a0, b0; subc.cc.u32 r1, a1, b1; "
     "subc.cc.u32 r2, a2, b2; subc.u32 r3, a3, b3; mov.b64 $0, {r0,r1}; "
     "mov.b64 $1, {r2,r3}; }|=l,=l,l,l,l,l",
     FN(sub128)},
    {"__truncsfbf2", FN(truncSFBF2)},
    {"__truncdfbf2", FN(truncDFBF2)},
    {"__truncsfhf2", FN(truncSFHF2)},
    {"__truncdfhf2", FN(truncDFHF2)},
    {"__extendhfsf2", FN(extendHFSF2)},
};

#undef FN

/// Runs one GPU thread. The kernel is JIT-compiled code without the type
/// signature that UBSan's -fsanitize=function looks for in front of a
/// function: the check would read the bytes before it, which may not be
/// mapped (the sanitizer build).
__attribute__((no_sanitize("function"))) void runThread(void (*kernel)(void **),
                                                        void **params) {
  kernel(params);
}

/// Host threads for a launch of `threads` GPU threads in `blocks` blocks.
unsigned workersFor(uint64_t blocks, uint64_t threads) {
  static const unsigned configured = [] {
    if (const char *value = std::getenv("FAKE_CUDA_THREADS"))
      return std::max(1, std::atoi(value));
    return int(std::min(8u, std::max(1u, std::thread::hardware_concurrency())));
  }();
  // Starting a host thread costs about as much as running a few thousand
  // GPU threads of an elementwise kernel.
  uint64_t useful = threads / 16384 + 1;
  return unsigned(std::min<uint64_t>({configured, blocks, useful}));
}

} // namespace

void *fakecuda::resolveEmulated(const char *key) {
  for (const Entry &entry : kTable)
    if (std::strcmp(entry.key, key) == 0)
      return entry.address;
  return nullptr;
}

Fault fakecuda::runGrid(void (*kernel)(void **), const unsigned grid[3],
                        const unsigned block[3], void **params, bool warps) {
  uint64_t blocks = uint64_t(grid[0]) * grid[1] * grid[2];
  uint64_t perBlock = uint64_t(block[0]) * block[1] * block[2];
  std::atomic<uint64_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex faultMutex;
  Fault first;

  auto work = [&] {
#if defined(__SSE__)
    // The GPU neither flushes subnormals nor reads them as zero (outside
    // .ftz instructions); round to nearest.
    unsigned savedCsr = _mm_getcsr();
    _mm_setcsr(0x1f80);
#endif
    std::jmp_buf stop;
    // A host thread's warp and its lanes' stacks (8 MiB), made once.
    static thread_local std::unique_ptr<Warp> lanes;
    if (warps && !lanes)
      lanes = std::make_unique<Warp>();
    self = ThreadState();
    std::copy(block, block + 3, self.ntid);
    std::copy(grid, grid + 3, self.nctaid);
    self.stop = &stop;
    if (setjmp(stop) == 0) {
      for (uint64_t b; !failed && (b = next++) < blocks;) {
        self.ctaid[0] = unsigned(b % grid[0]);
        self.ctaid[1] = unsigned(b / grid[0] % grid[1]);
        self.ctaid[2] = unsigned(b / grid[0] / grid[1]);
        for (uint64_t t = 0; t < perBlock && !warps; ++t) {
          self.tid[0] = unsigned(t % block[0]);
          self.tid[1] = unsigned(t / block[0] % block[1]);
          self.tid[2] = unsigned(t / block[0] / block[1]);
          runThread(kernel, params);
        }
        // Warps of consecutive thread ids, as on the GPU.
        for (uint64_t first = 0; warps && first < perBlock;
             first += kWarpLanes) {
          Warp &w = *lanes;
          w.kernel = kernel;
          w.params = params;
          w.count = unsigned(std::min<uint64_t>(kWarpLanes, perBlock - first));
          for (unsigned l = 0; l < w.count; ++l) {
            uint64_t t = first + l;
            w.tid[l][0] = unsigned(t % block[0]);
            w.tid[l][1] = unsigned(t / block[0] % block[1]);
            w.tid[l][2] = unsigned(t / block[0] / block[1]);
          }
          if (!runWarp(w))
            std::longjmp(stop, 1);
        }
      }
    } else {
      failed = true;
      std::lock_guard<std::mutex> lock(faultMutex);
      if (!first.code)
        first = self.fault;
    }
    self = ThreadState();
#if defined(__SSE__)
    _mm_setcsr(savedCsr);
#endif
  };

  unsigned workers = workersFor(blocks, blocks * perBlock);
  std::vector<std::thread> threads;
  for (unsigned i = 1; i < workers; ++i)
    threads.emplace_back(work);
  work();
  for (std::thread &thread : threads)
    thread.join();
  return first;
}
