// The driver calls fuse-run makes for add_relu on the fake CUDA driver
// (FakeCuda/FakeCuda.cpp), which logs one line per call. Each input goes to
// the device once and the result comes back once; the launches are the
// kernels of the report (test/Examples/examples-report.test). 10^6 f32 are
// 4000000 bytes; a thread handles 4 elements in blocks of 256, so the grid is
// ceil(10^6 / 4 / 256) = 977.
// REQUIRES: fakecuda

// Fused: one kernel.
// RUN: rm -f %t.fused.log
// RUN: env FUSE_LIBCUDA=%fakecuda FAKE_CUDA_LOG=%t.fused.log fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --input fill:1.5:1000000 --input fill:-0.25:1000000 | FileCheck %s --check-prefix=RESULT
// RUN: FileCheck %s --input-file=%t.fused.log --check-prefix=FUSED --implicit-check-not=cuMemAlloc --implicit-check-not=cuMemcpy --implicit-check-not=cuMemFree --implicit-check-not=cuModule --implicit-check-not=cuLaunchKernel --implicit-check-not=CUDA_ERROR

// The fake runs the kernels (on the host): relu(1.5 - 0.25) everywhere.
// test/Runtime/cuda-values.test compares results with numpy.
// RESULT: result 0: float32 [1000000] = [1.25, 1.25, 1.25, 1.25, 1.25, 1.25, 1.25, 1.25, ...]  sum = 1250000

// FUSED:      cuInit
// FUSED-NEXT: cuDeviceGetCount 1
// FUSED-NEXT: cuDeviceGet 0
// FUSED-NEXT: cuDevicePrimaryCtxRetain 0
// FUSED-NEXT: cuCtxSetCurrent
// FUSED-NEXT: cuStreamCreate
// The chip comes from the device: compute capability 9.0.
// FUSED-NEXT: cuDeviceGetName 0
// FUSED-NEXT: cuDeviceGetAttribute 75
// FUSED-NEXT: cuDeviceGetAttribute 76
// FUSED:      cuModuleLoadDataEx entries=fused_add_relu_0{{$}}
// FUSED:      cuMemAlloc_v2 4000000
// FUSED:      cuMemcpyAsync 4000000 HtoD
// FUSED:      cuMemAlloc_v2 4000000
// FUSED:      cuMemcpyAsync 4000000 HtoD
// FUSED:      cuMemAlloc_v2 4000000
// FUSED:      cuModuleGetFunction fused_add_relu_0
// FUSED:      cuLaunchKernel fused_add_relu_0 grid=489,1,1 block=256,1,1
// FUSED:      cuStreamSynchronize{{$}}
// The inputs are freed as soon as the run ends, the result once it is back.
// FUSED:      cuMemFree_v2 4000000
// FUSED:      cuMemFree_v2 4000000
// FUSED:      cuMemcpyAsync 4000000 DtoH
// FUSED:      cuMemFree_v2 4000000
// FUSED:      cuModuleUnload
// FUSED:      cuStreamDestroy_v2
// FUSED-NEXT: cuDevicePrimaryCtxRelease_v2 0
// FUSED-NEXT: leaks: 0
// FUSED-NEXT: unreleased: modules=0 streams=0 events=0 contexts=0

// Eager: add_0 then relu_1, each writing its own buffer, as eager PyTorch
// does.
// RUN: rm -f %t.eager.log
// RUN: env FUSE_LIBCUDA=%fakecuda FAKE_CUDA_LOG=%t.eager.log fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --fusion=off --input fill:1.5:1000000 --input fill:-0.25:1000000 | FileCheck %s --check-prefix=RESULT
// RUN: FileCheck %s --input-file=%t.eager.log --check-prefix=EAGER --implicit-check-not=cuMemAlloc --implicit-check-not=cuMemcpy --implicit-check-not=cuMemFree --implicit-check-not=cuModule --implicit-check-not=cuLaunchKernel --implicit-check-not=CUDA_ERROR
// RUN: FileCheck %s --input-file=%t.eager.log --check-prefix=EVENTS --implicit-check-not=cuStreamSynchronize --implicit-check-not=cuLaunchKernel

// EAGER:      cuInit
// EAGER:      cuModuleLoadDataEx entries=add_0,relu_1{{$}}
// EAGER:      cuMemAlloc_v2 4000000
// EAGER:      cuMemcpyAsync 4000000 HtoD
// EAGER:      cuMemAlloc_v2 4000000
// EAGER:      cuMemcpyAsync 4000000 HtoD
// The sum gets its own buffer, freed right after relu_1 has read it.
// EAGER:      cuMemAlloc_v2 4000000
// EAGER:      cuModuleGetFunction add_0
// EAGER:      cuLaunchKernel add_0 grid=489,1,1 block=256,1,1
// EAGER:      cuMemAlloc_v2 4000000
// EAGER:      cuModuleGetFunction relu_1
// EAGER:      cuLaunchKernel relu_1 grid=489,1,1 block=256,1,1
// EAGER:      cuMemFree_v2 4000000
// EAGER:      cuMemFree_v2 4000000
// EAGER:      cuMemFree_v2 4000000
// EAGER:      cuMemcpyAsync 4000000 DtoH
// EAGER:      cuMemFree_v2 4000000
// EAGER:      cuModuleUnload
// EAGER:      cuStreamDestroy_v2
// EAGER-NEXT: cuDevicePrimaryCtxRelease_v2 0
// EAGER-NEXT: leaks: 0
// EAGER-NEXT: unreleased: modules=0 streams=0 events=0 contexts=0

// Kernel times: each kernel's start event is recorded right before its
// launch and its stop event right after it, with no wait for the kernel in
// between (a wait would add a round trip to the host to the time). The
// stream is synchronized once, when the run ends, and only then are the
// times read.
// EVENTS:      cuMemcpyAsync 4000000 HtoD
// EVENTS:      cuMemcpyAsync 4000000 HtoD
// EVENTS:      cuMemAlloc_v2 4000000
// EVENTS-NEXT: cuEventCreate [[START0:e[0-9]+]]
// EVENTS-NEXT: cuEventCreate [[STOP0:e[0-9]+]]
// EVENTS-NEXT: cuEventRecord [[START0]]
// EVENTS-NEXT: cuModuleGetFunction add_0
// EVENTS-NEXT: cuLaunchKernel add_0 grid=489,1,1 block=256,1,1
// EVENTS-NEXT: cuEventRecord [[STOP0]]
// EVENTS-NEXT: cuMemAlloc_v2 4000000
// EVENTS-NEXT: cuEventCreate [[START1:e[0-9]+]]
// EVENTS-NEXT: cuEventCreate [[STOP1:e[0-9]+]]
// EVENTS-NEXT: cuEventRecord [[START1]]
// EVENTS-NEXT: cuModuleGetFunction relu_1
// EVENTS-NEXT: cuLaunchKernel relu_1 grid=489,1,1 block=256,1,1
// EVENTS-NEXT: cuEventRecord [[STOP1]]
// EVENTS-NEXT: cuMemFree_v2 4000000
// EVENTS-NEXT: cuStreamSynchronize{{$}}
// EVENTS-NEXT: cuEventElapsedTime_v2 [[START0]] [[STOP0]]
// EVENTS:      cuEventElapsedTime_v2 [[START1]] [[STOP1]]

// --profile: the fake's events all measure 0.25 ms. fused_add_relu_0 moves
// 12*N bytes = 12 MB, 48 GB/s; a copy moves 4 MB, 16 GB/s. The copy bandwidth
// is 5 device-to-device copies of 256 MiB, read and written, in 0.25 ms:
// 2 * 2^28 * 5 / 0.25e6 = 10737.4 GB/s, so the kernel is at 0.4% of it.
// RUN: env FUSE_LIBCUDA=%fakecuda fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --profile --input rand:1000000 --input rand:1000000 | FileCheck %s --check-prefix=PROFILE

// PROFILE:      result 0: float32 [1000000]
// PROFILE-NEXT: Name Calls Total ms Mean ms Bytes/call GB/s % copy BW
// PROFILE-NEXT: ---
// PROFILE-NEXT: fused_add_relu_0 1 0.250 0.250 12.00 MB 48.0 0.4%
// PROFILE-NEXT: [memcpy host->device] 2 0.500 0.250 4.00 MB 16.0 0.1%
// PROFILE-NEXT: [memcpy device->host] 1 0.250 0.250 4.00 MB 16.0 0.1%
// PROFILE-NEXT: kernels per run: 1 (fused), 1 profiled run, copy bandwidth 10737.4 GB/s

// Eager with --repeat 3: the warm-up run is left out, two runs are profiled;
// add_0 moves 12*N bytes and relu_1 8*N.
// RUN: env FUSE_LIBCUDA=%fakecuda fuse-run %fuse_src_root/examples/add_relu.mlir --target=cuda --fusion=off --repeat 3 --profile --input rand:1000000 --input rand:1000000 | FileCheck %s --check-prefix=PROFILE-EAGER

// PROFILE-EAGER:      Name Calls Total ms Mean ms Bytes/call GB/s % copy BW
// PROFILE-EAGER-NEXT: ---
// PROFILE-EAGER-NEXT: add_0 2 0.500 0.250 12.00 MB 48.0 0.4%
// PROFILE-EAGER-NEXT: relu_1 2 0.500 0.250 8.00 MB 32.0 0.3%
// PROFILE-EAGER-NEXT: [memcpy host->device] 4 1.000 0.250 4.00 MB 16.0 0.1%
// PROFILE-EAGER-NEXT: [memcpy device->host] 2 0.500 0.250 4.00 MB 16.0 0.1%
// PROFILE-EAGER-NEXT: kernels per run: 2 (eager), 2 profiled runs, copy bandwidth 10737.4 GB/s
