// RUN: fuse-opt %s --fuse-pipeline=fused --fuse-remarks -split-input-file -verify-diagnostics
// RUN: fuse-opt %s --fuse-report -split-input-file | FileCheck %s
// RUN: fuse-opt %s --emit=ptx -o %t.ptx
// RUN: %if ptxas %{ %{ptxas} -arch=sm_90 %t.ptx -o %t.cubin %}

// Fusion gives a kernel's buffers (inputs read from outside and results
// used outside) at most 2560 bytes of parameters (kMaxKernelParamBytes): 64
// buffers of 40 bytes, each a 1-D view; PTX before ISA 8.1 holds 4352 bytes
// (ptxas refused a kernel of 100 independent adds merged into one, 8056
// bytes), the rest is for loop sizes and broadcast divisors.

// 40 independent adds over one space: 41 inputs and 40 results, 81 buffers,
// so horizontal fusion makes two kernels (the first of 31 adds: 32 inputs
// and 31 results; one more add would make 65).
// CHECK-LABEL: @horizontal
// CHECK-NEXT:    fused: 2 kernels
func.func @horizontal(%a0: tensor<?xf32>, %a1: tensor<?xf32>, %a2: tensor<?xf32>, %a3: tensor<?xf32>, %a4: tensor<?xf32>, %a5: tensor<?xf32>, %a6: tensor<?xf32>, %a7: tensor<?xf32>, %a8: tensor<?xf32>, %a9: tensor<?xf32>, %a10: tensor<?xf32>, %a11: tensor<?xf32>, %a12: tensor<?xf32>, %a13: tensor<?xf32>, %a14: tensor<?xf32>, %a15: tensor<?xf32>, %a16: tensor<?xf32>, %a17: tensor<?xf32>, %a18: tensor<?xf32>, %a19: tensor<?xf32>, %a20: tensor<?xf32>, %a21: tensor<?xf32>, %a22: tensor<?xf32>, %a23: tensor<?xf32>, %a24: tensor<?xf32>, %a25: tensor<?xf32>, %a26: tensor<?xf32>, %a27: tensor<?xf32>, %a28: tensor<?xf32>, %a29: tensor<?xf32>, %a30: tensor<?xf32>, %a31: tensor<?xf32>, %a32: tensor<?xf32>, %a33: tensor<?xf32>, %a34: tensor<?xf32>, %a35: tensor<?xf32>, %a36: tensor<?xf32>, %a37: tensor<?xf32>, %a38: tensor<?xf32>, %a39: tensor<?xf32>, %a40: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %r0 = fuse.add %a0, %a1 : tensor<?xf32>
  %r1 = fuse.add %a1, %a2 : tensor<?xf32>
  %r2 = fuse.add %a2, %a3 : tensor<?xf32>
  %r3 = fuse.add %a3, %a4 : tensor<?xf32>
  %r4 = fuse.add %a4, %a5 : tensor<?xf32>
  %r5 = fuse.add %a5, %a6 : tensor<?xf32>
  %r6 = fuse.add %a6, %a7 : tensor<?xf32>
  %r7 = fuse.add %a7, %a8 : tensor<?xf32>
  %r8 = fuse.add %a8, %a9 : tensor<?xf32>
  %r9 = fuse.add %a9, %a10 : tensor<?xf32>
  %r10 = fuse.add %a10, %a11 : tensor<?xf32>
  %r11 = fuse.add %a11, %a12 : tensor<?xf32>
  %r12 = fuse.add %a12, %a13 : tensor<?xf32>
  %r13 = fuse.add %a13, %a14 : tensor<?xf32>
  %r14 = fuse.add %a14, %a15 : tensor<?xf32>
  %r15 = fuse.add %a15, %a16 : tensor<?xf32>
  %r16 = fuse.add %a16, %a17 : tensor<?xf32>
  %r17 = fuse.add %a17, %a18 : tensor<?xf32>
  %r18 = fuse.add %a18, %a19 : tensor<?xf32>
  %r19 = fuse.add %a19, %a20 : tensor<?xf32>
  %r20 = fuse.add %a20, %a21 : tensor<?xf32>
  %r21 = fuse.add %a21, %a22 : tensor<?xf32>
  %r22 = fuse.add %a22, %a23 : tensor<?xf32>
  %r23 = fuse.add %a23, %a24 : tensor<?xf32>
  %r24 = fuse.add %a24, %a25 : tensor<?xf32>
  %r25 = fuse.add %a25, %a26 : tensor<?xf32>
  %r26 = fuse.add %a26, %a27 : tensor<?xf32>
  %r27 = fuse.add %a27, %a28 : tensor<?xf32>
  %r28 = fuse.add %a28, %a29 : tensor<?xf32>
  %r29 = fuse.add %a29, %a30 : tensor<?xf32>
  %r30 = fuse.add %a30, %a31 : tensor<?xf32>
  %r31 = fuse.add %a31, %a32 : tensor<?xf32>
  %r32 = fuse.add %a32, %a33 : tensor<?xf32>
  %r33 = fuse.add %a33, %a34 : tensor<?xf32>
  %r34 = fuse.add %a34, %a35 : tensor<?xf32>
  %r35 = fuse.add %a35, %a36 : tensor<?xf32>
  %r36 = fuse.add %a36, %a37 : tensor<?xf32>
  %r37 = fuse.add %a37, %a38 : tensor<?xf32>
  %r38 = fuse.add %a38, %a39 : tensor<?xf32>
  %r39 = fuse.add %a39, %a40 : tensor<?xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19, %r20, %r21, %r22, %r23, %r24, %r25, %r26, %r27, %r28, %r29, %r30, %r31, %r32, %r33, %r34, %r35, %r36, %r37, %r38, %r39 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}

// -----

// A chain adding 70 inputs: the first kernel takes 64 inputs and stops
// where a 65th would join; the rest is a second kernel.
// CHECK-LABEL: @chain
// CHECK-NEXT:    fused: 2 kernels
func.func @chain(%a0: tensor<?xf32>, %a1: tensor<?xf32>, %a2: tensor<?xf32>, %a3: tensor<?xf32>, %a4: tensor<?xf32>, %a5: tensor<?xf32>, %a6: tensor<?xf32>, %a7: tensor<?xf32>, %a8: tensor<?xf32>, %a9: tensor<?xf32>, %a10: tensor<?xf32>, %a11: tensor<?xf32>, %a12: tensor<?xf32>, %a13: tensor<?xf32>, %a14: tensor<?xf32>, %a15: tensor<?xf32>, %a16: tensor<?xf32>, %a17: tensor<?xf32>, %a18: tensor<?xf32>, %a19: tensor<?xf32>, %a20: tensor<?xf32>, %a21: tensor<?xf32>, %a22: tensor<?xf32>, %a23: tensor<?xf32>, %a24: tensor<?xf32>, %a25: tensor<?xf32>, %a26: tensor<?xf32>, %a27: tensor<?xf32>, %a28: tensor<?xf32>, %a29: tensor<?xf32>, %a30: tensor<?xf32>, %a31: tensor<?xf32>, %a32: tensor<?xf32>, %a33: tensor<?xf32>, %a34: tensor<?xf32>, %a35: tensor<?xf32>, %a36: tensor<?xf32>, %a37: tensor<?xf32>, %a38: tensor<?xf32>, %a39: tensor<?xf32>, %a40: tensor<?xf32>, %a41: tensor<?xf32>, %a42: tensor<?xf32>, %a43: tensor<?xf32>, %a44: tensor<?xf32>, %a45: tensor<?xf32>, %a46: tensor<?xf32>, %a47: tensor<?xf32>, %a48: tensor<?xf32>, %a49: tensor<?xf32>, %a50: tensor<?xf32>, %a51: tensor<?xf32>, %a52: tensor<?xf32>, %a53: tensor<?xf32>, %a54: tensor<?xf32>, %a55: tensor<?xf32>, %a56: tensor<?xf32>, %a57: tensor<?xf32>, %a58: tensor<?xf32>, %a59: tensor<?xf32>, %a60: tensor<?xf32>, %a61: tensor<?xf32>, %a62: tensor<?xf32>, %a63: tensor<?xf32>, %a64: tensor<?xf32>, %a65: tensor<?xf32>, %a66: tensor<?xf32>, %a67: tensor<?xf32>, %a68: tensor<?xf32>, %a69: tensor<?xf32>) -> tensor<?xf32> {
  %s1 = fuse.add %a0, %a1 : tensor<?xf32>
  %s2 = fuse.add %s1, %a2 : tensor<?xf32>
  %s3 = fuse.add %s2, %a3 : tensor<?xf32>
  %s4 = fuse.add %s3, %a4 : tensor<?xf32>
  %s5 = fuse.add %s4, %a5 : tensor<?xf32>
  %s6 = fuse.add %s5, %a6 : tensor<?xf32>
  %s7 = fuse.add %s6, %a7 : tensor<?xf32>
  %s8 = fuse.add %s7, %a8 : tensor<?xf32>
  %s9 = fuse.add %s8, %a9 : tensor<?xf32>
  %s10 = fuse.add %s9, %a10 : tensor<?xf32>
  %s11 = fuse.add %s10, %a11 : tensor<?xf32>
  %s12 = fuse.add %s11, %a12 : tensor<?xf32>
  %s13 = fuse.add %s12, %a13 : tensor<?xf32>
  %s14 = fuse.add %s13, %a14 : tensor<?xf32>
  %s15 = fuse.add %s14, %a15 : tensor<?xf32>
  %s16 = fuse.add %s15, %a16 : tensor<?xf32>
  %s17 = fuse.add %s16, %a17 : tensor<?xf32>
  %s18 = fuse.add %s17, %a18 : tensor<?xf32>
  %s19 = fuse.add %s18, %a19 : tensor<?xf32>
  %s20 = fuse.add %s19, %a20 : tensor<?xf32>
  %s21 = fuse.add %s20, %a21 : tensor<?xf32>
  %s22 = fuse.add %s21, %a22 : tensor<?xf32>
  %s23 = fuse.add %s22, %a23 : tensor<?xf32>
  %s24 = fuse.add %s23, %a24 : tensor<?xf32>
  %s25 = fuse.add %s24, %a25 : tensor<?xf32>
  %s26 = fuse.add %s25, %a26 : tensor<?xf32>
  %s27 = fuse.add %s26, %a27 : tensor<?xf32>
  %s28 = fuse.add %s27, %a28 : tensor<?xf32>
  %s29 = fuse.add %s28, %a29 : tensor<?xf32>
  %s30 = fuse.add %s29, %a30 : tensor<?xf32>
  %s31 = fuse.add %s30, %a31 : tensor<?xf32>
  %s32 = fuse.add %s31, %a32 : tensor<?xf32>
  %s33 = fuse.add %s32, %a33 : tensor<?xf32>
  %s34 = fuse.add %s33, %a34 : tensor<?xf32>
  %s35 = fuse.add %s34, %a35 : tensor<?xf32>
  %s36 = fuse.add %s35, %a36 : tensor<?xf32>
  %s37 = fuse.add %s36, %a37 : tensor<?xf32>
  %s38 = fuse.add %s37, %a38 : tensor<?xf32>
  %s39 = fuse.add %s38, %a39 : tensor<?xf32>
  %s40 = fuse.add %s39, %a40 : tensor<?xf32>
  %s41 = fuse.add %s40, %a41 : tensor<?xf32>
  %s42 = fuse.add %s41, %a42 : tensor<?xf32>
  %s43 = fuse.add %s42, %a43 : tensor<?xf32>
  %s44 = fuse.add %s43, %a44 : tensor<?xf32>
  %s45 = fuse.add %s44, %a45 : tensor<?xf32>
  %s46 = fuse.add %s45, %a46 : tensor<?xf32>
  %s47 = fuse.add %s46, %a47 : tensor<?xf32>
  %s48 = fuse.add %s47, %a48 : tensor<?xf32>
  %s49 = fuse.add %s48, %a49 : tensor<?xf32>
  %s50 = fuse.add %s49, %a50 : tensor<?xf32>
  %s51 = fuse.add %s50, %a51 : tensor<?xf32>
  %s52 = fuse.add %s51, %a52 : tensor<?xf32>
  %s53 = fuse.add %s52, %a53 : tensor<?xf32>
  %s54 = fuse.add %s53, %a54 : tensor<?xf32>
  %s55 = fuse.add %s54, %a55 : tensor<?xf32>
  %s56 = fuse.add %s55, %a56 : tensor<?xf32>
  %s57 = fuse.add %s56, %a57 : tensor<?xf32>
  %s58 = fuse.add %s57, %a58 : tensor<?xf32>
  %s59 = fuse.add %s58, %a59 : tensor<?xf32>
  %s60 = fuse.add %s59, %a60 : tensor<?xf32>
  %s61 = fuse.add %s60, %a61 : tensor<?xf32>
  // expected-note @+1 {{producer is here}}
  %s62 = fuse.add %s61, %a62 : tensor<?xf32>
  // expected-remark @+1 {{not fused with its producer 'fuse.add': its buffers would take more than 2560 bytes of the kernel's parameters (64 buffers, fewer read through a broadcast), more than a GPU kernel's parameters hold with its sizes}}
  %s63 = fuse.add %s62, %a63 : tensor<?xf32>
  %s64 = fuse.add %s63, %a64 : tensor<?xf32>
  %s65 = fuse.add %s64, %a65 : tensor<?xf32>
  %s66 = fuse.add %s65, %a66 : tensor<?xf32>
  %s67 = fuse.add %s66, %a67 : tensor<?xf32>
  %s68 = fuse.add %s67, %a68 : tensor<?xf32>
  %s69 = fuse.add %s68, %a69 : tensor<?xf32>
  return %s69 : tensor<?xf32>
}

// -----

// Buffers read through a broadcast keep their rank in the kernel's
// parameters (3 + 2 x 4 words, 88 bytes here, and loop sizes and divisors
// besides): a chain adding 63 of them to a rank-4 tensor made one kernel of
// 5488 bytes of parameters, which ptxas refused. Bounded by bytes, the
// chain is three kernels (28 broadcast inputs, the first input and the
// result take 2544 of 2560 bytes).
// CHECK-LABEL: @broadcast_chain
// CHECK-NEXT:    fused: 3 kernels
func.func @broadcast_chain(%x0: tensor<?x?x?x?xf32>, %x1: tensor<1x?x?x1xf32>, %x2: tensor<1x?x?x1xf32>, %x3: tensor<1x?x?x1xf32>, %x4: tensor<1x?x?x1xf32>, %x5: tensor<1x?x?x1xf32>, %x6: tensor<1x?x?x1xf32>, %x7: tensor<1x?x?x1xf32>, %x8: tensor<1x?x?x1xf32>, %x9: tensor<1x?x?x1xf32>, %x10: tensor<1x?x?x1xf32>, %x11: tensor<1x?x?x1xf32>, %x12: tensor<1x?x?x1xf32>, %x13: tensor<1x?x?x1xf32>, %x14: tensor<1x?x?x1xf32>, %x15: tensor<1x?x?x1xf32>, %x16: tensor<1x?x?x1xf32>, %x17: tensor<1x?x?x1xf32>, %x18: tensor<1x?x?x1xf32>, %x19: tensor<1x?x?x1xf32>, %x20: tensor<1x?x?x1xf32>, %x21: tensor<1x?x?x1xf32>, %x22: tensor<1x?x?x1xf32>, %x23: tensor<1x?x?x1xf32>, %x24: tensor<1x?x?x1xf32>, %x25: tensor<1x?x?x1xf32>, %x26: tensor<1x?x?x1xf32>, %x27: tensor<1x?x?x1xf32>, %x28: tensor<1x?x?x1xf32>, %x29: tensor<1x?x?x1xf32>, %x30: tensor<1x?x?x1xf32>, %x31: tensor<1x?x?x1xf32>, %x32: tensor<1x?x?x1xf32>, %x33: tensor<1x?x?x1xf32>, %x34: tensor<1x?x?x1xf32>, %x35: tensor<1x?x?x1xf32>, %x36: tensor<1x?x?x1xf32>, %x37: tensor<1x?x?x1xf32>, %x38: tensor<1x?x?x1xf32>, %x39: tensor<1x?x?x1xf32>, %x40: tensor<1x?x?x1xf32>, %x41: tensor<1x?x?x1xf32>, %x42: tensor<1x?x?x1xf32>, %x43: tensor<1x?x?x1xf32>, %x44: tensor<1x?x?x1xf32>, %x45: tensor<1x?x?x1xf32>, %x46: tensor<1x?x?x1xf32>, %x47: tensor<1x?x?x1xf32>, %x48: tensor<1x?x?x1xf32>, %x49: tensor<1x?x?x1xf32>, %x50: tensor<1x?x?x1xf32>, %x51: tensor<1x?x?x1xf32>, %x52: tensor<1x?x?x1xf32>, %x53: tensor<1x?x?x1xf32>, %x54: tensor<1x?x?x1xf32>, %x55: tensor<1x?x?x1xf32>, %x56: tensor<1x?x?x1xf32>, %x57: tensor<1x?x?x1xf32>, %x58: tensor<1x?x?x1xf32>, %x59: tensor<1x?x?x1xf32>, %x60: tensor<1x?x?x1xf32>, %x61: tensor<1x?x?x1xf32>, %x62: tensor<1x?x?x1xf32>, %x63: tensor<1x?x?x1xf32>) -> tensor<?x?x?x?xf32> {
  %a0 = fuse.add %x0, %x1 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a1 = fuse.add %a0, %x2 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a2 = fuse.add %a1, %x3 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a3 = fuse.add %a2, %x4 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a4 = fuse.add %a3, %x5 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a5 = fuse.add %a4, %x6 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a6 = fuse.add %a5, %x7 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a7 = fuse.add %a6, %x8 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a8 = fuse.add %a7, %x9 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a9 = fuse.add %a8, %x10 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a10 = fuse.add %a9, %x11 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a11 = fuse.add %a10, %x12 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a12 = fuse.add %a11, %x13 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a13 = fuse.add %a12, %x14 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a14 = fuse.add %a13, %x15 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a15 = fuse.add %a14, %x16 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a16 = fuse.add %a15, %x17 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a17 = fuse.add %a16, %x18 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a18 = fuse.add %a17, %x19 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a19 = fuse.add %a18, %x20 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a20 = fuse.add %a19, %x21 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a21 = fuse.add %a20, %x22 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a22 = fuse.add %a21, %x23 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a23 = fuse.add %a22, %x24 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a24 = fuse.add %a23, %x25 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a25 = fuse.add %a24, %x26 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a26 = fuse.add %a25, %x27 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  // expected-note @+1 {{producer is here}}
  %a27 = fuse.add %a26, %x28 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  // expected-remark @+1 {{not fused with its producer 'fuse.add': its buffers would take more than 2560 bytes of the kernel's parameters}}
  %a28 = fuse.add %a27, %x29 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a29 = fuse.add %a28, %x30 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a30 = fuse.add %a29, %x31 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a31 = fuse.add %a30, %x32 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a32 = fuse.add %a31, %x33 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a33 = fuse.add %a32, %x34 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a34 = fuse.add %a33, %x35 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a35 = fuse.add %a34, %x36 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a36 = fuse.add %a35, %x37 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a37 = fuse.add %a36, %x38 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a38 = fuse.add %a37, %x39 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a39 = fuse.add %a38, %x40 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a40 = fuse.add %a39, %x41 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a41 = fuse.add %a40, %x42 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a42 = fuse.add %a41, %x43 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a43 = fuse.add %a42, %x44 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a44 = fuse.add %a43, %x45 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a45 = fuse.add %a44, %x46 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a46 = fuse.add %a45, %x47 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a47 = fuse.add %a46, %x48 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a48 = fuse.add %a47, %x49 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a49 = fuse.add %a48, %x50 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a50 = fuse.add %a49, %x51 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a51 = fuse.add %a50, %x52 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a52 = fuse.add %a51, %x53 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a53 = fuse.add %a52, %x54 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a54 = fuse.add %a53, %x55 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  // expected-note @+1 {{producer is here}}
  %a55 = fuse.add %a54, %x56 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  // expected-remark @+1 {{not fused with its producer 'fuse.add': its buffers would take more than 2560 bytes of the kernel's parameters}}
  %a56 = fuse.add %a55, %x57 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a57 = fuse.add %a56, %x58 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a58 = fuse.add %a57, %x59 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a59 = fuse.add %a58, %x60 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a60 = fuse.add %a59, %x61 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a61 = fuse.add %a60, %x62 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  %a62 = fuse.add %a61, %x63 : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  return %a62 : tensor<?x?x?x?xf32>
}
