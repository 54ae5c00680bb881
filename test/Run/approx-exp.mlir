// fuse-opt and fuse-run's --approx-exp (opt-in): the GPU's f32 exp is
// ex2.approx.f32 of x * log2(e), as Triton computes it, instead of
// libdevice's expf (whose own ex2.approx.ftz.f32 is then absent); without
// the flag, libdevice's. On the emulated GPU (which computes ex2.approx
// correctly rounded), the error grows with |x| (the roundings of log2(e)
// and of the product are multiplied by x): within 1.5 |x| + 2 ulp (63 near
// the overflow threshold), against 2 for libdevice's.
// REQUIRES: fakecuda
// RUN: fuse-opt %s --emit=ptx --approx-exp | FileCheck %s --check-prefix=APPROX
// RUN: fuse-opt %s --emit=ptx | FileCheck %s --check-prefix=LIBDEVICE
// APPROX-NOT:    ex2.approx.ftz.f32
// APPROX:        ex2.approx.f32
// APPROX-NOT:    ex2.approx.ftz.f32
// LIBDEVICE:     ex2.approx.ftz.f32
// LIBDEVICE-NOT: ex2.approx.f32

// RUN: %python -c "import numpy as np; np.save('%t.in.npy', np.concatenate([np.linspace(-103.9, 88.72, 200001), np.linspace(-1, 1, 2001)]).astype(np.float32))"
// RUN: env FUSE_LIBCUDA=%fakecuda fuse-run %s --target=cuda --approx-exp \
// RUN:   --input=%t.in.npy --output=%t.approx.npy
// RUN: env FUSE_LIBCUDA=%fakecuda fuse-run %s --target=cuda \
// RUN:   --input=%t.in.npy --output=%t.default.npy
// RUN: %python %S/Inputs/approx_exp_error.py %t.in.npy %t.approx.npy approx \
// RUN:   | FileCheck %s --check-prefix=ERROR
// RUN: %python %S/Inputs/approx_exp_error.py %t.in.npy %t.default.npy default \
// RUN:   | FileCheck %s --check-prefix=ERROR
// ERROR: over the bound: 0; inf where exp overflows: True
func.func @exp(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.exp %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}
