// RUN: fuse-opt %s --emit=ptx | FileCheck %s
// RUN: fuse-opt %s --emit=ptx | FileCheck %s --check-prefix=DIV
// RUN: fuse-opt %s --emit=ptx --block-size=37 | FileCheck %s --check-prefix=SMALL
// RUN: fuse-opt %s --emit=ptx --chip=sm_120 | FileCheck %s --check-prefix=SM120
// RUN: fuse-opt %s --emit=ptx --chip=sm_89 --block-size=32 | FileCheck %s --check-prefix=SM89
// RUN: fuse-opt %s --emit=ptx --chip=sm_120 --block-size=32 | FileCheck %s --check-prefix=SM89
// RUN: fuse-opt %s --emit=ptx --chip=sm_120a --block-size=32 | FileCheck %s --check-prefix=SM89
// RUN: fuse-opt %s --emit=ptx --chip=sm_120a | FileCheck %s --check-prefix=SM120

// Full occupancy asks for what the chip holds: 2048 threads of an sm_90 SM
// in blocks of 37 are 55 blocks, but an SM holds 32 (ptxas ignored 55,
// with a warning); an sm_120 SM holds 1536 threads (6 blocks of 256, not
// 8), an sm_89 or sm_120 one 24 blocks (ptxas ignored 32 on sm_120, with a
// warning); sm_120a is an sm_120.
// SMALL: .minnctapersm 32
// SM120: .minnctapersm 6
// SM89: .minnctapersm 24

// What keeps the kernels lean, in their PTX: two 16-byte vectors per thread
// for cheap bodies, 32-bit positions on the fast path (one mul.wide.u32
// per address), one 32-bit remainder per thread for a broadcast operand and
// vector loads of it, no 64-bit division (its subroutine), and the request
// for full occupancy that caps registers at 32.

// The fast path is chosen with one 32-bit compare of the thread's first
// position with the bound the host computed (the first parameter), before
// any 64-bit compare.
// CHECK-LABEL: .entry fused_add_relu_0(
// CHECK-NEXT:  .param .u32 fused_add_relu_0_param_0,
// CHECK:       .maxntid 256, 1, 1
// CHECK-NEXT:  .minnctapersm 8
// CHECK:       ld.param.b32 [[BOUND:%r[0-9]+]], [fused_add_relu_0_param_0];
// CHECK-NOT:   setp
// CHECK:       setp.{{(ge|lt)}}.u32 [[P:%p[0-9]+]], {{%r[0-9]+}}, [[BOUND]];
// CHECK-NEXT:  @[[P]] bra
// CHECK-NOT:   setp
// CHECK:       mul.wide.u32 {{.*}}, 4;
// CHECK:       ld.global.v4.b32 {{.*}}, [[[A:%rd[0-9]+]]];
// CHECK:       ld.global.v4.b32 {{.*}}, [[[A]]+4096];
// CHECK:       ld.global.v4.b32 {{.*}}, [[[B:%rd[0-9]+]]];
// CHECK:       ld.global.v4.b32 {{.*}}, [[[B]]+4096];
// CHECK:       st.global.v4.b32 [[[O:%rd[0-9]+]]{{(\+4096)?}}],
// CHECK:       st.global.v4.b32 [[[O]]{{(\+4096)?}}],
// CHECK-NOT:   .entry
// CHECK-NOT:   div.u64
// CHECK-NOT:   rem.u64
func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// The bias is read with vector loads (two for x, two for the bias) where
// rows are whole vectors; else (a branch taken alike by every thread of
// the launch) each lane reads it from the row its vector is in, one of
// two. The generic path divides with a double-precision reciprocal.
// CHECK-LABEL: .entry add_1(
// CHECK-NOT:   ld.global.b32
// CHECK-COUNT-2: ld.global.v4.b32
// CHECK-NOT:   ld.global.v4.b32
// CHECK-COUNT-8: ld.global.b32
// CHECK-NOT:   st.global.v4.b32
// CHECK:       st.global.b32
// CHECK-COUNT-2: ld.global.v4.b32
// CHECK-NOT:   ld.global.b32
// CHECK:       st.global.v4.b32
// CHECK:       st.global.v4.b32
// One 32-bit remainder per thread, no other division.
// DIV-LABEL:   .entry add_1(
// DIV-NOT:     {{(rem|div)\.u64}}
// DIV:         rem.u32
// DIV-NOT:     {{(rem|div)\.u(32|64)}}
// DIV:         cvt.rn.f64.u64
// DIV-NOT:     {{(rem|div)\.u(32|64)}}
// DIV:         cvt.rzi.u64.f64
// DIV-NOT:     {{(rem|div)\.u(32|64)}}
// DIV:         {{^}}}
func.func @bias(%x: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = fuse.add %x, %b : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// A sigmoid in a DAG of cheap ops still takes two vectors per input (8
// lanes of f32); its reciprocal is an fma and rcp.approx, with no branch.
// CHECK-LABEL: .entry fused_mul_relu_sigmoid_mul_add_2(
// CHECK:       .minnctapersm 8
// CHECK:       setp.{{(ge|lt)}}.u32
// CHECK-COUNT-4: ld.global.v4.b32
// CHECK-NOT:   setp
// CHECK:       rcp.approx.ftz.f32
// CHECK-NOT:   setp
// CHECK-COUNT-2: st.global.v4.b32
func.func @sigmoid_dag(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %t = fuse.mul %a, %b : tensor<?xf32>
  %r = fuse.relu %t : tensor<?xf32>
  %s = fuse.sigmoid %t : tensor<?xf32>
  %st = fuse.mul %s, %t : tensor<?xf32>
  %o = fuse.add %r, %st : tensor<?xf32>
  return %o : tensor<?xf32>
}

// An exp in f16 takes one vector: two would be 16 lanes of math.
// CHECK-LABEL: .entry exp_3(
// CHECK:       .minnctapersm 8
// CHECK:       setp.{{(ge|lt)}}.u32
// CHECK-NEXT:  @{{%p[0-9]+}} bra
// CHECK-COUNT-1: ld.global.v4.b32
// CHECK-NOT:   ld.global.v4.b32
// CHECK:       st.global.v4.b32
// CHECK-NOT:   st.global.v4.b32
// CHECK:       {{^}}}
func.func @exp_f16(%a: tensor<?xf16>) -> tensor<?xf16> {
  %0 = fuse.exp %a : tensor<?xf16>
  return %0 : tensor<?xf16>
}
