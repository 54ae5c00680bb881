// RUN: fuse-opt %s --fuse-pipeline=fused --fuse-remarks --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: fuse-opt %s --fuse-report | FileCheck %s
// RUN: fuse-opt %s --emit=ptx -o %t.ptx
// RUN: %if ptxas %{ %{ptxas} -arch=sm_90 %t.ptx -o %t.cubin %}

// Reduction fusion keeps a kernel's buffers within 2560 bytes of
// parameters too (kMaxKernelParamBytes; test/Transforms/kernel-buffers.mlir
// for elementwise fusion); a kernel with reductions takes each buffer with
// its rank, 56 bytes at rank 2. A row sum broadcast into 40 products, each
// of its own input and returned: one kernel would take x, 40 inputs and 40
// results, 81 buffers and 4536 bytes, which ptxas refuses (more than 4352).
// The reduction takes 22 products (x, 22 inputs, 22 results and the sum,
// which the other kernel reads, within the 2560 bytes) and leaves 18,
// which elementwise fusion then makes
// one kernel, with a remark for each (before fuse-reduction-fusion, the
// products beside the reduction are not merged: the pass takes them one
// by one).
// CHECK-LABEL: @epilogue
// CHECK-NEXT:    fused: 2 kernels
// CHECK-NEXT:      kernel ops
// CHECK-NEXT:      fused_reduce_sum_mul_mul_mul_mul_plus18_0 reduce_sum mul
// CHECK-NEXT:      fused_mul_mul_mul_mul_mul_plus13_1 mul
// REMARK-COUNT-18: remark: not fused with its producer 'fuse.reduce_sum': its buffers would take more than 2560 bytes of the kernel's parameters
// REMARK-NOT: remark:
func.func @epilogue(%x: tensor<8x16xf32>, %a0: tensor<8x16xf32>, %a1: tensor<8x16xf32>, %a2: tensor<8x16xf32>, %a3: tensor<8x16xf32>, %a4: tensor<8x16xf32>, %a5: tensor<8x16xf32>, %a6: tensor<8x16xf32>, %a7: tensor<8x16xf32>, %a8: tensor<8x16xf32>, %a9: tensor<8x16xf32>, %a10: tensor<8x16xf32>, %a11: tensor<8x16xf32>, %a12: tensor<8x16xf32>, %a13: tensor<8x16xf32>, %a14: tensor<8x16xf32>, %a15: tensor<8x16xf32>, %a16: tensor<8x16xf32>, %a17: tensor<8x16xf32>, %a18: tensor<8x16xf32>, %a19: tensor<8x16xf32>, %a20: tensor<8x16xf32>, %a21: tensor<8x16xf32>, %a22: tensor<8x16xf32>, %a23: tensor<8x16xf32>, %a24: tensor<8x16xf32>, %a25: tensor<8x16xf32>, %a26: tensor<8x16xf32>, %a27: tensor<8x16xf32>, %a28: tensor<8x16xf32>, %a29: tensor<8x16xf32>, %a30: tensor<8x16xf32>, %a31: tensor<8x16xf32>, %a32: tensor<8x16xf32>, %a33: tensor<8x16xf32>, %a34: tensor<8x16xf32>, %a35: tensor<8x16xf32>, %a36: tensor<8x16xf32>, %a37: tensor<8x16xf32>, %a38: tensor<8x16xf32>, %a39: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<8x16xf32> -> tensor<8x1xf32>
  %o0 = fuse.mul %a0, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o1 = fuse.mul %a1, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o2 = fuse.mul %a2, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o3 = fuse.mul %a3, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o4 = fuse.mul %a4, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o5 = fuse.mul %a5, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o6 = fuse.mul %a6, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o7 = fuse.mul %a7, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o8 = fuse.mul %a8, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o9 = fuse.mul %a9, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o10 = fuse.mul %a10, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o11 = fuse.mul %a11, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o12 = fuse.mul %a12, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o13 = fuse.mul %a13, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o14 = fuse.mul %a14, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o15 = fuse.mul %a15, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o16 = fuse.mul %a16, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o17 = fuse.mul %a17, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o18 = fuse.mul %a18, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o19 = fuse.mul %a19, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o20 = fuse.mul %a20, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o21 = fuse.mul %a21, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o22 = fuse.mul %a22, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o23 = fuse.mul %a23, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o24 = fuse.mul %a24, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o25 = fuse.mul %a25, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o26 = fuse.mul %a26, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o27 = fuse.mul %a27, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o28 = fuse.mul %a28, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o29 = fuse.mul %a29, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o30 = fuse.mul %a30, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o31 = fuse.mul %a31, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o32 = fuse.mul %a32, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o33 = fuse.mul %a33, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o34 = fuse.mul %a34, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o35 = fuse.mul %a35, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o36 = fuse.mul %a36, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o37 = fuse.mul %a37, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o38 = fuse.mul %a38, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  %o39 = fuse.mul %a39, %s : tensor<8x16xf32>, tensor<8x1xf32> -> tensor<8x16xf32>
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o8, %o9, %o10, %o11, %o12, %o13, %o14, %o15, %o16, %o17, %o18, %o19, %o20, %o21, %o22, %o23, %o24, %o25, %o26, %o27, %o28, %o29, %o30, %o31, %o32, %o33, %o34, %o35, %o36, %o37, %o38, %o39 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}
