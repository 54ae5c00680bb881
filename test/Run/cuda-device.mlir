// REQUIRES: cuda-device
// On a real GPU: the fused and eager kernels give the same numbers as the
// CPU target, and the profile shows the fused kernel.
// RUN: fuse-run %s --target=cuda --input rand:1000003 --input rand:1000003 --seed 3 --output %t.gpu.npy --check | FileCheck %s --check-prefix=CHECK
// RUN: fuse-run %s --target=cpu --input rand:1000003 --input rand:1000003 --seed 3 --output %t.cpu.npy
// RUN: %python -c "import numpy as n, sys; a, b = n.load('%t.gpu.npy'), n.load('%t.cpu.npy'); sys.exit(0 if n.array_equal(a, b) else 1)"
// RUN: fuse-run %s --target=cuda --input rand:1000000 --input rand:1000000 --profile | FileCheck %s --check-prefix=PROFILE
// CHECK: check: result 0 matches eager (1000003 elements)
// PROFILE: fused_add_relu_0
// PROFILE: [memcpy host->device]
// PROFILE: kernels per run: 1 (fused)
func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}
