// CUDA errors on the fake driver (FakeCuda/FakeCuda.cpp): each run fails
// with the driver's error name and description, does not crash, and leaves
// nothing allocated (`leaks: 0` in the fake's log). FAKE_CUDA_FAIL=SYMBOL:N
// makes the N-th call of SYMBOL fail.
// REQUIRES: fakecuda

// No driver: --target=cuda fails; --target=auto (the default) says so in one
// line and runs on the CPU. relu(1.5 - 0.25) = 1.25, relu(-1.5 + 0.25) = 0.
// RUN: not env FUSE_LIBCUDA=%t.nonexistent fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --input rand:8 --input rand:8 2>&1 | FileCheck %s --check-prefix=NODRIVER
// RUN: env FUSE_LIBCUDA=%t.nonexistent fuse-run %fuse_src_root/examples/add_relu.mlir --target=auto --input fill:1.5:4 --input fill:-0.25:4 2>&1 | FileCheck %s --check-prefix=FALLBACK
// RUN: env FUSE_LIBCUDA=%t.nonexistent fuse-run %fuse_src_root/examples/add_relu.mlir --input fill:-1.5:4 --input fill:0.25:4 2>&1 | FileCheck %s --check-prefix=FALLBACK-NEG

// NODRIVER: fuse-run: error: no CUDA driver: cannot load {{.*}}nonexistent
// FALLBACK:      fuse-run: no usable GPU (no CUDA driver: cannot load {{.*}}nonexistent {{.*}}); running on the CPU target
// FALLBACK-NEXT: result 0: float32 [4] = [1.25, 1.25, 1.25, 1.25]  sum = 5
// FALLBACK-NEG:      fuse-run: no usable GPU (no CUDA driver: cannot load {{.*}}nonexistent {{.*}}); running on the CPU target
// FALLBACK-NEG-NEXT: result 0: float32 [4] = [0, 0, 0, 0]  sum = 0

// A library that is not a CUDA driver.
// RUN: not env FUSE_LIBCUDA=libm.so.6 fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --input rand:8 --input rand:8 2>&1 | FileCheck %s --check-prefix=NOTCUDA
// NOTCUDA: fuse-run: error: the CUDA driver has no cuInit

// No device: the driver counts none, or (as a real driver on a machine
// without a GPU) cuInit fails. --target=auto falls back to the CPU.
// RUN: rm -f %t.nodevice.log
// RUN: not env FUSE_LIBCUDA=%fakecuda FAKE_CUDA_DEVICES=0 FAKE_CUDA_LOG=%t.nodevice.log fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --input rand:8 --input rand:8 2>&1 | FileCheck %s --check-prefix=NODEVICE
// RUN: FileCheck %s --input-file=%t.nodevice.log --check-prefix=NODEVICE-LOG
// RUN: env FUSE_LIBCUDA=%fakecuda FAKE_CUDA_DEVICES=0 fuse-run %fuse_src_root/examples/add_relu.mlir --input fill:1.5:4 --input fill:-0.25:4 2>&1 | FileCheck %s --check-prefix=NODEVICE-AUTO
// RUN: not env FUSE_LIBCUDA=%fakecuda FAKE_CUDA_FAIL=cuInit:1:100 fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --input rand:8 --input rand:8 2>&1 | FileCheck %s --check-prefix=NOINIT

// NODEVICE: fuse-run: error: the CUDA driver reports no device
// NODEVICE-LOG:      cuInit
// NODEVICE-LOG-NEXT: cuDeviceGetCount 0
// NODEVICE-LOG-NEXT: leaks: 0
// NODEVICE-LOG-NEXT: unreleased: modules=0 streams=0 events=0 contexts=0
// NODEVICE-AUTO:      fuse-run: no usable GPU (the CUDA driver reports no device); running on the CPU target
// NODEVICE-AUTO-NEXT: result 0: float32 [4] = [1.25, 1.25, 1.25, 1.25]  sum = 5
// NOINIT: fuse-run: error: cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)

// Out of memory on the first allocation (input 0): nothing to free.
// RUN: rm -f %t.oom1.log
// RUN: not env FUSE_LIBCUDA=%fakecuda FAKE_CUDA_FAIL=cuMemAlloc_v2:1 FAKE_CUDA_LOG=%t.oom1.log fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --input rand:1000000 --input rand:1000000 2>&1 | FileCheck %s --check-prefix=OOM
// RUN: FileCheck %s --input-file=%t.oom1.log --check-prefix=OOM1-LOG --implicit-check-not=cuMemAlloc --implicit-check-not=cuMemcpy --implicit-check-not=cuMemFree --implicit-check-not=cuLaunchKernel

// OOM: fuse-run: error: cuMemAlloc of 4000000 bytes failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)
// OOM1-LOG:      cuMemAlloc_v2 4000000 -> CUDA_ERROR_OUT_OF_MEMORY (injected)
// OOM1-LOG:      cuModuleUnload
// OOM1-LOG:      leaks: 0
// OOM1-LOG-NEXT: unreleased: modules=0 streams=0 events=0 contexts=0

// Out of memory on the third allocation (the result, in JIT-compiled code):
// no launch, and both inputs are freed.
// RUN: rm -f %t.oom3.log
// RUN: not env FUSE_LIBCUDA=%fakecuda FAKE_CUDA_FAIL=cuMemAlloc_v2:3 FAKE_CUDA_LOG=%t.oom3.log fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --input rand:1000000 --input rand:1000000 2>&1 | FileCheck %s --check-prefix=OOM
// RUN: FileCheck %s --input-file=%t.oom3.log --check-prefix=OOM3-LOG --implicit-check-not=cuMemAlloc --implicit-check-not=cuMemcpy --implicit-check-not=cuMemFree --implicit-check-not=cuLaunchKernel

// OOM3-LOG:      cuMemAlloc_v2 4000000
// OOM3-LOG:      cuMemcpyAsync 4000000 HtoD
// OOM3-LOG:      cuMemAlloc_v2 4000000
// OOM3-LOG:      cuMemcpyAsync 4000000 HtoD
// OOM3-LOG:      cuMemAlloc_v2 4000000 -> CUDA_ERROR_OUT_OF_MEMORY (injected)
// OOM3-LOG:      cuMemFree_v2 4000000
// OOM3-LOG:      cuMemFree_v2 4000000
// OOM3-LOG:      cuModuleUnload
// OOM3-LOG:      leaks: 0
// OOM3-LOG-NEXT: unreleased: modules=0 streams=0 events=0 contexts=0

// The PTX JIT fails: the message carries the JIT's log, and nothing runs.
// RUN: rm -f %t.jit.log
// RUN: not env FUSE_LIBCUDA=%fakecuda FAKE_CUDA_FAIL=cuModuleLoadDataEx FAKE_CUDA_LOG=%t.jit.log fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --input rand:1000 --input rand:1000 2>&1 | FileCheck %s --check-prefix=JIT
// RUN: FileCheck %s --input-file=%t.jit.log --check-prefix=JIT-LOG --implicit-check-not=cuMemAlloc --implicit-check-not=cuModule --implicit-check-not=cuLaunchKernel

// JIT:      fuse-run: error: cuModuleLoadDataEx (PTX JIT) failed: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed); the driver supports CUDA 13.0, the PTX is ISA version 8.0 for sm_90, the device is sm_90
// JIT-NEXT: PTX JIT log:
// JIT-NEXT: ptxas fatal: fake JIT failure
// JIT-LOG:      cuModuleLoadDataEx -> CUDA_ERROR_INVALID_PTX (injected)
// JIT-LOG:      leaks: 0
// JIT-LOG-NEXT: unreleased: modules=0 streams=0 events=0 contexts=0

// A driver older than the PTX ISA version (CUDA 11.8 compiles PTX ISA 7.8 at
// most; sm_90's kernels are 8.0): the error gives both versions, and
// --target=auto says why in one line and runs on the CPU.
// RUN: rm -f %t.old.log
// RUN: not env FUSE_LIBCUDA=%fakecuda FAKE_CUDA_DRIVER_VERSION=11080 fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --input fill:1.5:4 --input fill:-0.25:4 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: env FUSE_LIBCUDA=%fakecuda FAKE_CUDA_DRIVER_VERSION=11080 FAKE_CUDA_LOG=%t.old.log fuse-run %fuse_src_root/examples/add_relu.mlir --input fill:1.5:4 --input fill:-0.25:4 2>&1 | FileCheck %s --check-prefix=OLD-AUTO
// RUN: FileCheck %s --input-file=%t.old.log --check-prefix=OLD-LOG --implicit-check-not=cuLaunchKernel --implicit-check-not=cuMemAlloc

// OLD:      fuse-run: error: cuModuleLoadDataEx (PTX JIT) failed: CUDA_ERROR_UNSUPPORTED_PTX_VERSION (the provided PTX was compiled with an unsupported toolchain.); the driver supports CUDA 11.8, the PTX is ISA version 8.0 for sm_90, the device is sm_90; compile for PTX ISA 7.8, the newest the driver has (the ptx-features option: +ptx78), or update the driver
// OLD-NEXT: PTX JIT log:
// OLD-NEXT: ptxas application ptx input, line {{[0-9]+}}; fatal   : Unsupported .version 8.0; current version is '7.8'
// OLD-AUTO:      fuse-run: the GPU cannot load the kernels (cuModuleLoadDataEx (PTX JIT) failed: CUDA_ERROR_UNSUPPORTED_PTX_VERSION (the provided PTX was compiled with an unsupported toolchain.); the driver supports CUDA 11.8, the PTX is ISA version 8.0 for sm_90, the device is sm_90; compile for PTX ISA 7.8, the newest the driver has (the ptx-features option: +ptx78), or update the driver); running on the CPU target
// OLD-AUTO-NEXT: result 0: float32 [4] = [1.25, 1.25, 1.25, 1.25]  sum = 5
// The version named is the driver's newest (it was +ptx78 whatever the
// driver); CUDA 9.0 takes PTX ISA 6.0 at most (the fake driver took 7.0).
// RUN: not env FUSE_LIBCUDA=%fakecuda FAKE_CUDA_DRIVER_VERSION=9000 fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --chip=sm_75 --input fill:1.5:4 --input fill:-0.25:4 2>&1 | FileCheck %s --check-prefix=OLDER
// OLDER: the driver supports CUDA 9.0, the PTX is ISA version 6.3 for sm_75, the device is sm_90; compile for PTX ISA 6.0, the newest the driver has (the ptx-features option: +ptx60), or update the driver
// OLD-LOG:      cuModuleLoadDataEx -> CUDA_ERROR_UNSUPPORTED_PTX_VERSION
// OLD-LOG:      cuDriverGetVersion 11080
// OLD-LOG:      leaks: 0
// OLD-LOG-NEXT: unreleased: modules=0 streams=0 events=0 contexts=0

// PTX for a chip newer than the device (sm_100 on the sm_90 the fake
// driver emulates): the JIT has no binary for it, as the real driver says,
// and the error names both chips.
// RUN: not env FUSE_LIBCUDA=%fakecuda fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --chip=sm_100 --input fill:1.5:4 --input fill:-0.25:4 2>&1 | FileCheck %s --check-prefix=NEWER
// NEWER:      fuse-run: error: cuModuleLoadDataEx (PTX JIT) failed: CUDA_ERROR_NO_BINARY_FOR_GPU (no kernel image is available for execution on the device); the driver supports CUDA 13.0, the PTX is ISA version {{[0-9.]+}} for sm_100, the device is sm_90
// NEWER-NEXT: PTX JIT log:
// NEWER-NEXT: ptxas application ptx input, line {{[0-9]+}}; fatal   : SM version specified by .target is higher than default SM version assumed

// The launch fails: the message names the kernel, no result is copied back,
// and every buffer is freed. Eager, the second launch (relu_1) fails.
// RUN: rm -f %t.launch.log
// RUN: not env FUSE_LIBCUDA=%fakecuda FAKE_CUDA_FAIL=cuLaunchKernel FAKE_CUDA_LOG=%t.launch.log fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --input rand:1000 --input rand:1000 2>&1 | FileCheck %s --check-prefix=LAUNCH
// RUN: FileCheck %s --input-file=%t.launch.log --check-prefix=LAUNCH-LOG --implicit-check-not=cuMemFree --implicit-check-not=DtoH
// RUN: not env FUSE_LIBCUDA=%fakecuda FAKE_CUDA_FAIL=cuLaunchKernel:2 fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --fusion=off --input rand:1000 --input rand:1000 2>&1 | FileCheck %s --check-prefix=LAUNCH-EAGER

// LAUNCH: fuse-run: error: cuLaunchKernel (fused_add_relu_0) failed: CUDA_ERROR_LAUNCH_FAILED (unspecified launch failure)
// LAUNCH-LOG:      cuLaunchKernel fused_add_relu_0 grid=1,1,1 block=256,1,1 -> CUDA_ERROR_LAUNCH_FAILED (injected)
// LAUNCH-LOG:      cuMemFree_v2 4000
// LAUNCH-LOG:      cuMemFree_v2 4000
// LAUNCH-LOG:      cuMemFree_v2 4000
// LAUNCH-LOG:      leaks: 0
// LAUNCH-LOG-NEXT: unreleased: modules=0 streams=0 events=0 contexts=0
// LAUNCH-EAGER: fuse-run: error: cuLaunchKernel (relu_1) failed: CUDA_ERROR_LAUNCH_FAILED (unspecified launch failure)

// The module has no such kernel: cuModuleGetFunction fails, nothing is
// launched.
// RUN: rm -f %t.function.log
// RUN: not env FUSE_LIBCUDA=%fakecuda FAKE_CUDA_FAIL=cuModuleGetFunction:1:500 FAKE_CUDA_LOG=%t.function.log fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --input rand:1000 --input rand:1000 2>&1 | FileCheck %s --check-prefix=FUNCTION
// RUN: FileCheck %s --input-file=%t.function.log --check-prefix=FUNCTION-LOG --implicit-check-not=cuLaunchKernel --implicit-check-not=cuMemFree

// FUNCTION: fuse-run: error: cuModuleGetFunction failed: CUDA_ERROR_NOT_FOUND (named symbol not found)
// FUNCTION-LOG:      cuModuleGetFunction fused_add_relu_0 -> CUDA_ERROR_NOT_FOUND (injected)
// FUNCTION-LOG:      cuMemFree_v2 4000
// FUNCTION-LOG:      cuMemFree_v2 4000
// FUNCTION-LOG:      cuMemFree_v2 4000
// FUNCTION-LOG:      leaks: 0
// FUNCTION-LOG-NEXT: unreleased: modules=0 streams=0 events=0 contexts=0

// Regressions: an error code the driver cannot name, a failing device query,
// a failing stop event, a context set-up failure, a failing copy timing and
// a failing free: each is reported, exits non-zero, and leaves nothing held.
// RUN: env FUSE_LIBCUDA=%fakecuda FAKE_CUDA_LOG=%t.r1.log FAKE_CUDA_FAIL=cuLaunchKernel:1:12345 not fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --input rand:1000 --input rand:1000 2>&1 | FileCheck %s --check-prefix=UNNAMED
// UNNAMED: fuse-run: error: cuLaunchKernel (fused_add_relu_0) failed: CUDA error 12345
// RUN: env FUSE_LIBCUDA=%fakecuda FAKE_CUDA_FAIL=cuDeviceGetAttribute:1 not fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --input rand:1000 --input rand:1000 2>&1 | FileCheck %s --check-prefix=ATTR
// ATTR: fuse-run: error: cuDeviceGetAttribute failed: CUDA_ERROR_UNKNOWN
// RUN: env FUSE_LIBCUDA=%fakecuda FAKE_CUDA_LOG=%t.r3.log FAKE_CUDA_FAIL=cuEventCreate:6 not fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --input rand:1000 --input rand:1000
// RUN: FileCheck %s --check-prefix=RELEASED --input-file=%t.r3.log
// RUN: env FUSE_LIBCUDA=%fakecuda FAKE_CUDA_LOG=%t.r4.log FAKE_CUDA_FAIL=cuCtxSetCurrent:1 fuse-run %fuse_src_root/examples/add_relu.mlir --target=auto --input rand:1000 --input rand:1000
// RUN: FileCheck %s --check-prefix=RELEASED --input-file=%t.r4.log
// RELEASED: unreleased: modules=0 streams=0 events=0 contexts=0
// RUN: env FUSE_LIBCUDA=%fakecuda FAKE_CUDA_FAIL=cuEventElapsedTime_v2:4 not fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --input rand:1000 --input rand:1000 2>&1 | FileCheck %s --check-prefix=TIMING
// TIMING: fuse-run: error: cuEventElapsedTime failed
// RUN: env FUSE_LIBCUDA=%fakecuda FAKE_CUDA_FAIL=cuMemFree_v2:3 not fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --input rand:1000 --input rand:1000 2>&1 | FileCheck %s --check-prefix=FREE
// FREE: fuse-run: error: cuMemFree failed
