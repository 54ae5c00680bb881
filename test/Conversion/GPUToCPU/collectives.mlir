// RUN: fuse-opt %s --fuse-gpu-to-cpu --split-input-file --verify-diagnostics > /dev/null

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
