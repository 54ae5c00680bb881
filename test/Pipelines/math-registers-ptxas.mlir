// REQUIRES: ptxas
// RUN: fuse-opt %s --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=OCC < %t.ptx
// RUN: %{ptxas} -arch=sm_90 -v %t.ptx -o %t.cubin > %t.log 2>&1
// RUN: FileCheck %s < %t.log
// RUN: FileCheck %s --check-prefix=SPILL < %t.log

// The kernels whose math is long: sin and cos (their range reduction) in
// every type, and the f64 math functions (register pairs). Each asks for
// half occupancy, 4 blocks of 256 threads per SM on sm_90, so that ptxas
// may give it 64 registers, and none spills. An f64 body without a math
// function (hardswish, a division) keeps full occupancy: it takes one
// vector per thread, and 32 registers suffice; so does a correctly
// rounded f32 or f16 division, whose slow path ptxas calls as a subroutine
// (with two vectors, 8 divisions spilled 32 bytes on sm_90). Each function
// multiplies the result by a second input, as a fused kernel would.
// CHECK-COUNT-17: Compiling entry function
// CHECK-NOT: Compiling entry function
// SPILL-NOT: error
// SPILL-NOT: {{[1-9][0-9]*}} bytes spill
// SPILL-NOT: Used {{(6[5-9]|[7-9][0-9]|[0-9]{3,})}} registers

// OCC-LABEL: .entry fused_sin_mul_
// OCC:       .minnctapersm 4
func.func @sin_f32(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.sin %a : tensor<?xf32>
  %1 = fuse.mul %0, %b : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// OCC-LABEL: .entry fused_cos_mul_
// OCC:       .minnctapersm 4
func.func @cos_f32(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.cos %a : tensor<?xf32>
  %1 = fuse.mul %0, %b : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// OCC-LABEL: .entry fused_sin_mul_
// OCC:       .minnctapersm 4
func.func @sin_f16(%a: tensor<?xf16>, %b: tensor<?xf16>) -> tensor<?xf16> {
  %0 = fuse.sin %a : tensor<?xf16>
  %1 = fuse.mul %0, %b : tensor<?xf16>
  return %1 : tensor<?xf16>
}

// OCC-LABEL: .entry fused_cos_mul_
// OCC:       .minnctapersm 4
func.func @cos_f16(%a: tensor<?xf16>, %b: tensor<?xf16>) -> tensor<?xf16> {
  %0 = fuse.cos %a : tensor<?xf16>
  %1 = fuse.mul %0, %b : tensor<?xf16>
  return %1 : tensor<?xf16>
}

// OCC-LABEL: .entry fused_sin_mul_
// OCC:       .minnctapersm 4
func.func @sin_bf16(%a: tensor<?xbf16>, %b: tensor<?xbf16>) -> tensor<?xbf16> {
  %0 = fuse.sin %a : tensor<?xbf16>
  %1 = fuse.mul %0, %b : tensor<?xbf16>
  return %1 : tensor<?xbf16>
}

// OCC-LABEL: .entry fused_cos_mul_
// OCC:       .minnctapersm 4
func.func @cos_bf16(%a: tensor<?xbf16>, %b: tensor<?xbf16>) -> tensor<?xbf16> {
  %0 = fuse.cos %a : tensor<?xbf16>
  %1 = fuse.mul %0, %b : tensor<?xbf16>
  return %1 : tensor<?xbf16>
}

// OCC-LABEL: .entry fused_exp_mul_
// OCC:       .minnctapersm 4
func.func @exp_f64(%a: tensor<?xf64>, %b: tensor<?xf64>) -> tensor<?xf64> {
  %0 = fuse.exp %a : tensor<?xf64>
  %1 = fuse.mul %0, %b : tensor<?xf64>
  return %1 : tensor<?xf64>
}

// OCC-LABEL: .entry fused_sigmoid_mul_
// OCC:       .minnctapersm 4
func.func @sigmoid_f64(%a: tensor<?xf64>, %b: tensor<?xf64>) -> tensor<?xf64> {
  %0 = fuse.sigmoid %a : tensor<?xf64>
  %1 = fuse.mul %0, %b : tensor<?xf64>
  return %1 : tensor<?xf64>
}

// OCC-LABEL: .entry fused_silu_mul_
// OCC:       .minnctapersm 4
func.func @silu_f64(%a: tensor<?xf64>, %b: tensor<?xf64>) -> tensor<?xf64> {
  %0 = fuse.silu %a : tensor<?xf64>
  %1 = fuse.mul %0, %b : tensor<?xf64>
  return %1 : tensor<?xf64>
}

// OCC-LABEL: .entry fused_sin_mul_
// OCC:       .minnctapersm 4
func.func @sin_f64(%a: tensor<?xf64>, %b: tensor<?xf64>) -> tensor<?xf64> {
  %0 = fuse.sin %a : tensor<?xf64>
  %1 = fuse.mul %0, %b : tensor<?xf64>
  return %1 : tensor<?xf64>
}

// OCC-LABEL: .entry fused_cos_mul_
// OCC:       .minnctapersm 4
func.func @cos_f64(%a: tensor<?xf64>, %b: tensor<?xf64>) -> tensor<?xf64> {
  %0 = fuse.cos %a : tensor<?xf64>
  %1 = fuse.mul %0, %b : tensor<?xf64>
  return %1 : tensor<?xf64>
}

// OCC-LABEL: .entry fused_gelu_mul_
// OCC:       .minnctapersm 4
func.func @gelu_f64(%a: tensor<?xf64>, %b: tensor<?xf64>) -> tensor<?xf64> {
  %0 = fuse.gelu %a : tensor<?xf64>
  %1 = fuse.mul %0, %b : tensor<?xf64>
  return %1 : tensor<?xf64>
}

// OCC-LABEL: .entry fused_pow_mul_
// OCC:       .minnctapersm 4
func.func @pow_f64(%a: tensor<?xf64>, %b: tensor<?xf64>) -> tensor<?xf64> {
  %0 = fuse.pow %a, %b : tensor<?xf64>
  %1 = fuse.mul %0, %b : tensor<?xf64>
  return %1 : tensor<?xf64>
}

// OCC-LABEL: .entry fused_hardswish_mul_
// OCC:       .minnctapersm 8
func.func @hardswish_f64(%a: tensor<?xf64>, %b: tensor<?xf64>) -> tensor<?xf64> {
  %0 = fuse.hardswish %a : tensor<?xf64>
  %1 = fuse.mul %0, %b : tensor<?xf64>
  return %1 : tensor<?xf64>
}

// OCC-LABEL: .entry fused_div_mul_
// OCC:       .minnctapersm 8
func.func @div_f64(%a: tensor<?xf64>, %b: tensor<?xf64>) -> tensor<?xf64> {
  %0 = fuse.div %a, %b : tensor<?xf64>
  %1 = fuse.mul %0, %b : tensor<?xf64>
  return %1 : tensor<?xf64>
}

// One vector per thread: no second one, 16 bytes (or 4096) further.
// OCC-LABEL: .entry fused_div_mul_
// OCC:       .minnctapersm 8
// OCC-NOT:   {{(ld|st)}}.global.v4.b32 {{.*}}+{{[0-9]+}}]
// OCC:       div.rn.f32
// OCC-NOT:   {{(ld|st)}}.global.v4.b32 {{.*}}+{{[0-9]+}}]
// OCC:       {{^}}}
func.func @div_f32(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.div %a, %b : tensor<?xf32>
  %1 = fuse.mul %0, %b : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// OCC-LABEL: .entry fused_div_mul_
// OCC:       .minnctapersm 8
func.func @div_f16(%a: tensor<?xf16>, %b: tensor<?xf16>) -> tensor<?xf16> {
  %0 = fuse.div %a, %b : tensor<?xf16>
  %1 = fuse.mul %0, %b : tensor<?xf16>
  return %1 : tensor<?xf16>
}
