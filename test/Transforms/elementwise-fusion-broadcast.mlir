// RUN: fuse-opt %s --convert-fuse-to-linalg --fuse-elementwise-fusion -split-input-file | FileCheck %s
// RUN: fuse-opt %s --convert-fuse-to-linalg "--fuse-elementwise-fusion=remarks=true" -split-input-file -verify-diagnostics
// RUN: fuse-opt %s --fuse-report -split-input-file | FileCheck %s --check-prefix=REPORT
// The same values as eager, bit for bit, on both targets.
// REQUIRES: fakecuda
// RUN: fuse-run %s --entry=masked_softmax --target=cpu --input rand:3x37x45 --input rand:37x1 --input rand:45 --check | FileCheck %s --check-prefix=SAME
// RUN: env FUSE_LIBCUDA=%fakecuda fuse-run %s --entry=masked_softmax --target=cuda --input rand:3x37x45 --input rand:37x1 --input rand:45 --check | FileCheck %s --check-prefix=SAME
// RUN: env FUSE_LIBCUDA=%fakecuda fuse-run %s --entry=also_returned --target=cuda --input rand:5x1000 --input rand:1000 --check | FileCheck %s --check-prefix=SAME
// SAME: check: result 0 matches eager

// A cheap producer of the program's arguments read broadcast is computed
// again inside its readers, when it reads no more bytes an element over all
// its loops than it writes: a causal mask of two index vectors, read by
// every head's scores, was a kernel of its own and a T x T array written
// and read back (2 kernels; 1 with the softmax).

// CHECK-DAG: #[[$ALL:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$ROW:.+]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG: #[[$COLUMN:.+]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func @causal_mask
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x?xf32>, %[[I:.+]]: tensor<?x1xi32>, %[[J:.+]]: tensor<?xi32>)
// CHECK-NOT: linalg.generic
// CHECK: linalg.generic {indexing_maps = [#[[$ALL]], #[[$ROW]], #[[$COLUMN]], #[[$ALL]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[X]], %[[I]], %[[J]] : tensor<?x?x?xf32>, tensor<?x1xi32>, tensor<?xi32>) outs(%{{.+}} : tensor<?x?x?xf32>) attrs = {fuse.ops = ["cmp", "select"]} {
// CHECK-NEXT: ^bb0(%[[XV:.+]]: f32, %[[IV:.+]]: i32, %[[JV:.+]]: i32, %{{.+}}: f32):
// CHECK-NEXT: %[[M:.+]] = arith.cmpi sge, %[[IV]], %[[JV]] : i32
// CHECK: arith.select %[[M]], %[[XV]], %{{.+}} : f32
// CHECK: return
// REPORT-LABEL: @causal_mask
// REPORT: fused: 1 kernel, 8*N*M*K + 4*M + 4*K bytes
// REPORT-NEXT: kernel
// REPORT-NEXT: fused_cmp_select_0
func.func @causal_mask(%x: tensor<?x?x?xf32>, %i: tensor<?x1xi32>, %j: tensor<?xi32>) -> tensor<?x?x?xf32> {
  %m = fuse.cmp ge, %i, %j : tensor<?x1xi32>, tensor<?xi32> -> tensor<?x?xi1>
  %ninf = fuse.constant dense<0xFF800000> : tensor<f32>
  %y = fuse.select %m, %x, %ninf : tensor<?x?xi1>, tensor<?x?x?xf32>, tensor<f32> -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}

// -----

// The softmax of masked scores is one kernel.
// REPORT-LABEL: @masked_softmax
// REPORT: fused: 1 kernel
// REPORT-NEXT: kernel
// REPORT-NEXT: fused_cmp_select_reduce_max_sub_exp_plus2_0
func.func @masked_softmax(%x: tensor<?x?x?xf32>, %i: tensor<?x1xi32>, %j: tensor<?xi32>) -> tensor<?x?x?xf32> {
  %m = fuse.cmp ge, %i, %j : tensor<?x1xi32>, tensor<?xi32> -> tensor<?x?xi1>
  %ninf = fuse.constant dense<0xFF800000> : tensor<f32>
  %y = fuse.select %m, %x, %ninf : tensor<?x?xi1>, tensor<?x?x?xf32>, tensor<f32> -> tensor<?x?x?xf32>
  %mx = fuse.reduce_max %y {dims = array<i64: 2>} : tensor<?x?x?xf32> -> tensor<?x?x1xf32>
  %d = fuse.sub %y, %mx : tensor<?x?x?xf32>, tensor<?x?x1xf32> -> tensor<?x?x?xf32>
  %e = fuse.exp %d : tensor<?x?x?xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 2>} : tensor<?x?x?xf32> -> tensor<?x?x1xf32>
  %r = fuse.div %e, %s : tensor<?x?x?xf32>, tensor<?x?x1xf32> -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

// -----

// Of an argument with static sizes of 1 (a B x 1 x 1 x T padding mask,
// which the lowering reads through a collapse_shape) and of a chain of such
// ops (ALiBi's (j - i) * slope): each was a kernel of its own, and its
// remark said that it read a value a kernel computes.
// REPORT-LABEL: @padding_mask
// REPORT: fused: 1 kernel, 8*N*M*K*L + 4*N*L bytes
// REPORT-LABEL: @alibi
// REPORT: fused: 1 kernel, 8*N*M*K + 4*M + 4*K bytes
// REPORT-NEXT: kernel
// REPORT-NEXT: fused_sub_mul_add_{{[0-9]+}}
// RUN: fuse-run %s --entry=padding_mask --target=cpu --input rand:2x3x5x7 --input rand:2x1x1x7 --check | FileCheck %s --check-prefix=SAME
// RUN: env FUSE_LIBCUDA=%fakecuda fuse-run %s --entry=alibi --target=cuda --input rand:3x5x7 --input rand:5x1 --input rand:7 --check | FileCheck %s --check-prefix=SAME
func.func @padding_mask(%s: tensor<?x?x?x?xf32>, %m: tensor<?x1x1x?xf32>) -> tensor<?x?x?x?xf32> {
  %c = fuse.constant -10000.0 : tensor<f32>
  %p = fuse.mul %m, %c : tensor<?x1x1x?xf32>, tensor<f32> -> tensor<?x1x1x?xf32>
  %y = fuse.add %s, %p : tensor<?x?x?x?xf32>, tensor<?x1x1x?xf32> -> tensor<?x?x?x?xf32>
  return %y : tensor<?x?x?x?xf32>
}
func.func @alibi(%s: tensor<?x?x?xf32>, %i: tensor<?x1xf32>, %j: tensor<?xf32>) -> tensor<?x?x?xf32> {
  %d = fuse.sub %j, %i : tensor<?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %slope = fuse.constant 0.125 : tensor<f32>
  %b = fuse.mul %d, %slope : tensor<?x?xf32>, tensor<f32> -> tensor<?x?xf32>
  %y = fuse.add %s, %b : tensor<?x?x?xf32>, tensor<?x?xf32> -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}

// -----

// A diamond's ops are counted once (10 here; each path's were added, 29),
// a narrowing cast of a chain that is computed again is computed again too
// (an f16 padding mask made from a bool one; it was "a value that a kernel
// computes"), and a producer of arrays of one element (1 x 1, as a traced
// Python array of shape (1, 1) is) is one value, as a 0-d one (it was a
// kernel of one element, "8 bytes an element to write 4").
// REPORT-LABEL: @diamond
// REPORT: fused: 1 kernel
// REPORT-LABEL: @f16_padding_mask
// REPORT: fused: 1 kernel
// REPORT-LABEL: @one_element
// REPORT: fused: 1 kernel
// RUN: fuse-run %s --entry=diamond --target=cpu --input rand:2x5x7 --input rand:5x1 --input rand:7 --check | FileCheck %s --check-prefix=SAME
// RUN: env FUSE_LIBCUDA=%fakecuda fuse-run %s --entry=f16_padding_mask --target=cuda --input rand:2x3x4x9 --input rand:2x1x1x9 --check | FileCheck %s --check-prefix=SAME
// RUN: fuse-run %s --entry=one_element --target=cpu --input rand:5x9 --input rand:1x1 --input rand:1x1 --check | FileCheck %s --check-prefix=SAME
func.func @diamond(%s: tensor<?x?x?xf32>, %i: tensor<?x1xf32>, %j: tensor<?xf32>) -> tensor<?x?x?xf32> {
  %v0 = fuse.sub %j, %i : tensor<?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %a1 = fuse.add %v0, %j : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %b1 = fuse.mul %v0, %i : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %v1 = fuse.max %a1, %b1 : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  %a2 = fuse.add %v1, %j : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %b2 = fuse.mul %v1, %i : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %v2 = fuse.max %a2, %b2 : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  %a3 = fuse.add %v2, %j : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %b3 = fuse.mul %v2, %i : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %v3 = fuse.max %a3, %b3 : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  %y = fuse.add %s, %v3 : tensor<?x?x?xf32>, tensor<?x?xf32> -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}
func.func @f16_padding_mask(%s: tensor<?x?x?x?xf16>, %mask: tensor<?x1x1x?xi1>) -> tensor<?x?x?x?xf16> {
  %mf = fuse.cast %mask : tensor<?x1x1x?xi1> to tensor<?x1x1x?xf32>
  %one = fuse.constant 1.0 : tensor<f32>
  %inv = fuse.sub %one, %mf : tensor<f32>, tensor<?x1x1x?xf32> -> tensor<?x1x1x?xf32>
  %big = fuse.constant -65504.0 : tensor<f32>
  %ext = fuse.mul %inv, %big : tensor<?x1x1x?xf32>, tensor<f32> -> tensor<?x1x1x?xf32>
  %ext16 = fuse.cast %ext : tensor<?x1x1x?xf32> to tensor<?x1x1x?xf16>
  %t = fuse.add %s, %ext16 : tensor<?x?x?x?xf16>, tensor<?x1x1x?xf16> -> tensor<?x?x?x?xf16>
  return %t : tensor<?x?x?x?xf16>
}
func.func @one_element(%x: tensor<?x?xf32>, %a: tensor<1x1xf32>, %b: tensor<1x1xf32>) -> tensor<?x?xf32> {
  %s = fuse.add %a, %b : tensor<1x1xf32>
  %y = fuse.mul %x, %s : tensor<?x?xf32>, tensor<1x1xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

// A chain is bounded as one producer: 17 ops in all are a kernel of their
// own.
func.func @long_chain(%x: tensor<?x?xf32>, %a: tensor<?xf32>) -> tensor<?x?xf32> {
  %c = fuse.constant 1.0 : tensor<f32>
  %0 = fuse.add %a, %c : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %1 = fuse.add %0, %c : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %2 = fuse.add %1, %c : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %3 = fuse.add %2, %c : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %4 = fuse.add %3, %c : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %5 = fuse.add %4, %c : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %6 = fuse.add %5, %c : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %7 = fuse.add %6, %c : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %8 = fuse.add %7, %c : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %9 = fuse.add %8, %c : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %10 = fuse.add %9, %c : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %11 = fuse.add %10, %c : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %12 = fuse.add %11, %c : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %13 = fuse.add %12, %c : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %14 = fuse.add %13, %c : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %15 = fuse.add %14, %c : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  // expected-note @+1 {{producer is here}}
  %16 = fuse.add %15, %c : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  // expected-remark @+1 {{that op is not computed again at each of this op's elements: it takes 17 operations (at most 16)}}
  %y = fuse.mul %x, %16 : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

// Returned as well, the producer stays a kernel of its own, and the reader
// computes it again (it reads the argument in place of the copy).
// CHECK-LABEL: func @also_returned
// CHECK-SAME: (%[[X:.+]]: tensor<?x?xf32>, %[[B:.+]]: tensor<?xf32>)
// CHECK: %[[N:.+]] = linalg.generic {{.*}} ins(%[[B]] : tensor<?xf32>) {{.*}} attrs = {fuse.ops = ["neg"]}
// CHECK: %[[Y:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[B]] : tensor<?x?xf32>, tensor<?xf32>) {{.*}} attrs = {fuse.ops = ["neg", "add"]}
// CHECK: return %[[Y]], %[[N]]
func.func @also_returned(%x: tensor<?x?xf32>, %b: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?xf32>) {
  %n = fuse.neg %b : tensor<?xf32>
  %y = fuse.add %x, %n : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %y, %n : tensor<?x?xf32>, tensor<?xf32>
}

// -----

// Not when it would read more bytes at each element than the value it
// writes (two f32 rows for one), nor with a math function, nor when it
// reads a value that a kernel computes (computed once with it: a mean's
// division, once a row).
func.func @reads_more(%x: tensor<?x?xf32>, %a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  // expected-note @+1 {{producer is here}}
  %s = fuse.add %a, %b : tensor<?xf32>
  // expected-remark @+1 {{not fused with its producer 'fuse.add': this op reads that result broadcast from tensor<?xf32> to tensor<?x?xf32>, so the two iterate over different spaces, and that op is not computed again at each of this op's elements: it reads 8 bytes an element over all its loops to write 4}}
  %y = fuse.mul %x, %s : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

func.func @math(%x: tensor<?x?xf32>, %a: tensor<?xf32>) -> tensor<?x?xf32> {
  // expected-note @+1 {{producer is here}}
  %s = fuse.exp %a : tensor<?xf32>
  // expected-remark @+1 {{that op is not computed again at each of this op's elements: it has a math function ('exp')}}
  %y = fuse.mul %x, %s : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

func.func @computed(%x: tensor<?x?xf32>, %a: tensor<?xf32>) -> tensor<?x?xf32> {
  %e = fuse.exp %a : tensor<?xf32>
  // expected-note @+1 {{producer is here}}
  %s = fuse.neg %e : tensor<?xf32>
  // expected-remark @+1 {{that op is not computed again at each of this op's elements: it reads a value that a kernel computes, and is computed once with it}}
  %y = fuse.mul %x, %s : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

// A reader that computes a producer is a new op, in place of the reader:
// a chain judged before kept the erased one and read it (a crash, found by
// difftest with these two programs).
// REPORT-LABEL: @erased_reader
// REPORT: fused: 1 kernel
// REPORT-LABEL: @erased_reader_cast
// REPORT: fused: 1 kernel
// RUN: fuse-run %s --entry=erased_reader --target=cpu --input fill:2.5 --input rand:1x9 --check | FileCheck %s --check-prefix=SAME
// RUN: fuse-run %s --entry=erased_reader_cast --target=cpu --input fill:3 --input rand:9 --check | FileCheck %s --check-prefix=SAME
func.func @erased_reader(%a0: tensor<f32>, %a1: tensor<1x?xi32>) -> tensor<1x?xf32> {
  %v1 = fuse.cast %a0 : tensor<f32> to tensor<i32>
  %v2 = fuse.abs %v1 : tensor<i32>
  %v3 = fuse.sqrt %a0 : tensor<f32>
  %v5 = fuse.add %v2, %a1 : tensor<i32>, tensor<1x?xi32> -> tensor<1x?xi32>
  %v6 = fuse.cast %v5 : tensor<1x?xi32> to tensor<1x?xf32>
  %v7 = fuse.sub %v3, %v6 : tensor<f32>, tensor<1x?xf32> -> tensor<1x?xf32>
  return %v7 : tensor<1x?xf32>
}
func.func @erased_reader_cast(%a0: tensor<i64>, %a1: tensor<?xi32>) -> tensor<?xi32> {
  %v1 = fuse.cast %a0 : tensor<i64> to tensor<bf16>
  %v3 = fuse.cast %a1 : tensor<?xi32> to tensor<?xbf16>
  %v4 = fuse.add %v1, %v3 : tensor<bf16>, tensor<?xbf16> -> tensor<?xbf16>
  %v5 = fuse.cast %v4 : tensor<?xbf16> to tensor<?xf64>
  %v6 = fuse.constant 0 : tensor<i32>
  %v7 = fuse.clamp %v6 {max = 0 : i32} : tensor<i32>
  %v8 = fuse.cast %v5 : tensor<?xf64> to tensor<?xi32>
  %v9 = fuse.mul %v8, %v7 : tensor<?xi32>, tensor<i32> -> tensor<?xi32>
  return %v9 : tensor<?xi32>
}
