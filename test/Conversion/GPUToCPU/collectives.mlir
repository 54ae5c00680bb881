// RUN: fuse-opt %s --fuse-gpu-to-cpu --split-input-file --verify-diagnostics > /dev/null
// RUN: not fuse-opt %s --fuse-gpu-to-cpu=parallel-blocks=-5 --split-input-file 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: fuse-opt: error: fuse-gpu-to-cpu: parallel-blocks=-5 is negative: it is the fewest blocks that a launch runs on OpenMP threads, or 0 for none

// A launch whose threads exchange values (a warp's shuffle) or wait for
// each other (a barrier) is refused: the host runs its threads one after
// the other (it ran the shuffle in a loop and lowered it no further).
// fuse-map-to-gpu{cpu-threads} maps kernels without them.
func.func @shuffle(%a: memref<32xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %width = arith.constant 32 : i32
  %offset = arith.constant 16 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<32xf32>
    // expected-error @+1 {{'gpu.shuffle' op exchanges values between threads or waits for them; fuse-gpu-to-cpu runs a launch's threads one after the other, so it takes kernels without it (fuse-map-to-gpu{cpu-threads})}}
    %s, %ok = gpu.shuffle down %v, %offset, %width : f32
    %r = arith.addf %v, %s : f32
    memref.store %r, %a[%tx] : memref<32xf32>
    gpu.terminator
  }
  return
}

// -----

// Workgroup and private memory: none on the host (the pass left the
// attribution's uses unlinked, invalid IR).
func.func @workgroup(%a: memref<?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'gpu.launch' op has workgroup or private memory; fuse-gpu-to-cpu runs launches without (fuse-map-to-gpu makes none)}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%w : memref<1xf32, #gpu.address_space<workgroup>>) {
    %c0 = arith.constant 0 : index
    %v = memref.load %a[%bx] : memref<?xf32>
    memref.store %v, %w[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

// A GPU op that is not an id or a size of the launch has no value on the
// host (it was left in the host function).
func.func @lane(%a: memref<?xi32>, %n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'gpu.lane_id' op has no meaning in fuse-gpu-to-cpu's loops, which bind the launch's block and thread ids and sizes only}}
    %l = gpu.lane_id
    %i = arith.index_cast %l : index to i32
    memref.store %i, %a[%bx] : memref<?xi32>
    gpu.terminator
  }
  return
}

// -----

// Launches already outlined are the gpu stage's, not this pass's input
// (it returned them as they were).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @outlined() {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op is an outlined launch; fuse-gpu-to-cpu runs gpu.launch ops, before gpu-kernel-outlining (as in the cpu stage)}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
