// The GPU kernels compute the ops that docs/accuracy.md calls exact with
// correctly rounded instructions that keep subnormals (no `.approx`, no
// `.ftz`): sqrt is `sqrt.rn` (libdevice's __nv_sqrtf would be
// `sqrt.approx.f32`), division `div.rn`, reciprocal `rcp.rn`, casts round
// to nearest even. The approximate instructions appear only inside
// libdevice's transcendental functions and in f32 sigmoid's reciprocal
// (gpu-sigmoid.mlir; see docs/accuracy.md).
// REQUIRES: ptxas
// RUN: fuse-opt %s --emit=ptx --fusion=off | FileCheck %s \
// RUN:   --implicit-check-not=sqrt.approx --implicit-check-not=.ftz
// RUN: fuse-opt %s --emit=ptx --fusion=off -o %t.ptx
// RUN: %{ptxas} -arch=sm_90 %t.ptx -o %t.cubin

// CHECK-LABEL: .entry sqrt_0(
// CHECK:       sqrt.rn.f32
// CHECK-LABEL: .entry sqrt_1(
// CHECK:       sqrt.rn.f64
// CHECK-LABEL: .entry div_2(
// CHECK:       div.rn.f32
// CHECK-LABEL: .entry reciprocal_3(
// CHECK:       rcp.rn.f32
// CHECK-LABEL: .entry cast_4(
// CHECK:       cvt.rn.bf16x2.f32
// CHECK-LABEL: .entry cast_5(
// CHECK:       cvt.rn.f16x2.f32
// CHECK-LABEL: .entry sqrt_6(
// CHECK:       sqrt.rn.f32
func.func @exact(%x: tensor<?xf32>, %d: tensor<?xf64>, %h: tensor<?xf16>)
    -> (tensor<?xf32>, tensor<?xf64>, tensor<?xf32>, tensor<?xf32>,
        tensor<?xbf16>, tensor<?xf16>, tensor<?xf16>) {
  %0 = fuse.sqrt %x : tensor<?xf32>
  %1 = fuse.sqrt %d : tensor<?xf64>
  %2 = fuse.div %x, %0 : tensor<?xf32>
  %3 = fuse.reciprocal %x : tensor<?xf32>
  %4 = fuse.cast %x : tensor<?xf32> to tensor<?xbf16>
  %5 = fuse.cast %x : tensor<?xf32> to tensor<?xf16>
  %6 = fuse.sqrt %h : tensor<?xf16>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<?xf32>, tensor<?xf64>,
      tensor<?xf32>, tensor<?xf32>, tensor<?xbf16>, tensor<?xf16>,
      tensor<?xf16>
}
