// RUN: fuse-opt %s --emit=ptx | FileCheck %s
// RUN: fuse-opt %s --emit=ptx --fusion=off | FileCheck %s --check-prefix=EAGER

// Every kernel lands in one gpu.module; each thread moves 16 bytes per
// operand with one vector access.

// CHECK: // gpu.module @fuse_kernels
// CHECK: .target sm_90

// CHECK-LABEL: .entry fused_add_relu_0(
// CHECK-DAG:     ld.global.v4.b32
// CHECK-DAG:     ld.global.v4.b32
// CHECK-DAG:     add.rn.f32
// CHECK-DAG:     max.NaN.f32
// CHECK-DAG:     st.global.v4.b32
// EAGER-LABEL: .entry add_0(
// EAGER-DAG:     ld.global.v4.b32
// EAGER-DAG:     st.global.v4.b32
// EAGER-LABEL: .entry relu_1(
// EAGER-DAG:     ld.global.v4.b32
// EAGER-DAG:     st.global.v4.b32
func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// CHECK-LABEL: .entry fused_mul_add_1(
// CHECK-DAG:     ld.global.v4.b32
// CHECK-DAG:     ld.global.v4.b32
// CHECK-DAG:     st.global.v4.b32
func.func @half(%a: tensor<?xf16>, %b: tensor<?xf16>) -> tensor<?xf16> {
  %0 = fuse.mul %a, %b : tensor<?xf16>
  %1 = fuse.add %0, %a : tensor<?xf16>
  return %1 : tensor<?xf16>
}

// CHECK-LABEL: .entry fused_sub_tanh_2(
// CHECK-DAG:     ld.global.v4.b32
// CHECK-DAG:     ld.global.v4.b32
// CHECK-DAG:     st.global.v4.b32
func.func @brain(%a: tensor<?x?xbf16>, %b: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %0 = fuse.sub %a, %b : tensor<?x?xbf16>
  %1 = fuse.tanh %0 : tensor<?x?xbf16>
  return %1 : tensor<?x?xbf16>
}
