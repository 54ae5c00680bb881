// sigmoid's f32 reciprocal is the GPU's approximate one (within 1 ulp over
// the whole range, subnormal results kept, no slow-path subroutine as
// `rcp.rn.f32` has): its denominator 1 + e^-x is at least 1, so
// `rcp.approx.ftz.f32` of a quarter of it, fma(e^-x, 1/4, 1/4), which is
// in [1/4, 2^126], reads and writes normal numbers only; the product by 1/4
// gives `rcp.approx.f32`'s value, with no test and no scaling of small
// inputs. f64's stays `rcp.rn.f64`; silu shares sigmoid's. A division the
// program writes stays `div.rn`. The exp that only the sum reads is
// libdevice's `expf` (2^j from the bits of j, times `ex2.approx.ftz` of the
// rest) with its last product and the quarter in one fma: 2^(j - 2) from
// the bits, for j in [-124, 128] (k = j + 124 in [0, 252], from the
// saturated y log2(e) / 252 + 124 / 252).
// REQUIRES: ptxas
// RUN: fuse-opt %s --emit=ptx --fusion=off | FileCheck %s
// RUN: fuse-opt %s --emit=ptx --fusion=off -o %t.ptx
// RUN: %{ptxas} -arch=sm_90 %t.ptx -o %t.cubin

// The CPU target divides (`afn` changes nothing in LLVM's x86 code): no
// reciprocal estimate, whose bits differ between CPUs, for any of them.
// RUN: fuse-run %s --target=cpu --dump-asm=- --cpu=sapphirerapids | \
// RUN:   FileCheck %s --check-prefix=CPU --implicit-check-not=rcp
// RUN: fuse-run %s --target=cpu --dump-asm=- --cpu=znver4 | \
// RUN:   FileCheck %s --check-prefix=CPU --implicit-check-not=rcp
// RUN: fuse-run %s --target=cpu --dump-asm=- --cpu=x86-64 | \
// RUN:   FileCheck %s --check-prefix=CPU --implicit-check-not=rcp
// CPU: divps

// CHECK-LABEL: .entry sigmoid_0(
// CHECK-NOT:   rcp.rn.f32
// CHECK-NOT:   0f7E800000
// CHECK:       fma.rn.f32 [[T:%r[0-9]+]], [[X:%r[0-9]+]], 0fBBBB989D, 0f3EFBEFBF;
// CHECK:       cvt.sat.f32.f32 [[SAT:%r[0-9]+]], [[T]];
// CHECK:       mov.b32 [[MAGIC:%r[0-9]+]], 0f4B400001;
// CHECK:       mov.b32 [[K252:%r[0-9]+]], 0f437C0000;
// CHECK:       fma.rm.f32 [[BIASED:%r[0-9]+]], [[SAT]], [[K252]], [[MAGIC]];
// CHECK:       shl.b32 [[SCALE:%r[0-9]+]], [[BIASED]], 23;
// CHECK:       add.rn.f32 [[J:%r[0-9]+]], [[BIASED]], 0fCB40007D;
// CHECK:       neg.f32 [[NEGJ:%r[0-9]+]], [[J]];
// CHECK:       fma.rn.f32 [[F:%r[0-9]+]], [[X]], 0fBFB8AA3B, [[NEGJ]];
// CHECK:       fma.rn.f32 [[F2:%r[0-9]+]], [[X]], 0fB2A57060, [[F]];
// CHECK:       ex2.approx.ftz.f32 [[POW:%r[0-9]+]], [[F2]];
// CHECK:       fma.rn.f32 [[QUARTER:%r[0-9]+]], [[SCALE]], [[POW]], 0f3E800000;
// CHECK:       rcp.approx.ftz.f32 [[RCP:%r[0-9]+]], [[QUARTER]];
// CHECK:       mul.rn.f32 %r{{[0-9]+}}, [[RCP]], 0f3E800000;
// CHECK-NOT:   rcp.rn.f32
// CHECK-LABEL: .entry sigmoid_1(
// CHECK:       rcp.rn.f64
// CHECK-LABEL: .entry silu_2(
// CHECK:       rcp.approx.ftz.f32
// CHECK-LABEL: .entry div_3(
// CHECK:       div.rn.f32
func.func @sigmoid(%x: tensor<?xf32>, %d: tensor<?xf64>)
    -> (tensor<?xf32>, tensor<?xf64>, tensor<?xf32>, tensor<?xf32>) {
  %0 = fuse.sigmoid %x : tensor<?xf32>
  %1 = fuse.sigmoid %d : tensor<?xf64>
  %2 = fuse.silu %x : tensor<?xf32>
  %3 = fuse.div %x, %0 : tensor<?xf32>
  return %0, %1, %2, %3 : tensor<?xf32>, tensor<?xf64>, tensor<?xf32>,
      tensor<?xf32>
}
