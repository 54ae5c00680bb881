// A result that no kernel writes is copied into a buffer of its own
// (fuse-own-results): an argument returned as it is or viewed (a reduction
// over dimensions of size 1 only), a constant, a value returned twice. The
// report counts each copy's bytes, read and written, with no kernel; the
// compiled program has one memcpy per copy, and the profile a row per
// copied result with the report's bytes (it had none: its total was less
// than the report's), on both targets.
// RUN: fuse-opt %s --fuse-report | FileCheck %s
// RUN: fuse-opt %s --fuse-report=json | FileCheck %s --check-prefix=JSON
// RUN: fuse-opt %s --fuse-pipeline=cpu | FileCheck %s --check-prefix=MEMCPY
// RUN: fuse-run %s --entry=@twice --target=cpu --input rand:1000 --profile --repeat 2 | FileCheck %s --check-prefix=PROFILE
// RUN: env FUSE_LIBCUDA=%fakecuda fuse-run %s --entry=@twice --target=cuda --input rand:1000 --profile --repeat 2 | FileCheck %s --check-prefixes=PROFILE,PROFILE-CUDA
// RUN: fuse-run %s --entry=@returned --target=cpu --input rand:1000 --input rand:1000 --profile --trace=%t.json | FileCheck %s --check-prefix=PROFILE-ARG
// RUN: FileCheck %s --input-file=%t.json --check-prefix=TRACE

// PROFILE:      Name Calls  Total ms  Mean ms  Bytes/call
// PROFILE-NEXT: ----
// PROFILE-NEXT: exp_1 1 {{.+}} 8.00 KB
// PROFILE-NEXT: [result 1 copied] 1 {{.+}} 8.00 KB
// PROFILE-NEXT: [result 2 copied] 1 {{.+}} 32 B
// PROFILE-CUDA-NEXT: [memcpy host->device]
// PROFILE-CUDA-NEXT: [memcpy device->host]
// PROFILE-NEXT: kernels per run: 1 (fused), 1 profiled run
// A copy of no byte has no row, as a launch over no element is not made.
// RUN: fuse-run %s --entry=@twice --target=cpu --input rand:0 --profile | FileCheck %s --check-prefix=ZERO-SIZE
// ZERO-SIZE:      ----
// ZERO-SIZE-NEXT: [result 2 copied] 1 {{.+}} 32 B
// ZERO-SIZE-NEXT: kernels per run: 0 (fused; exp_1 has no element and is not launched)
// PROFILE-ARG:      add_0 1 {{.+}} 12.00 KB
// PROFILE-ARG-NEXT: [result 1 copied] 1 {{.+}} 8.00 KB
// PROFILE-ARG-NEXT: kernels per run: 1 (fused)
// TRACE:      "cat": "kernel",
// TRACE:      "name": "add_0",
// TRACE:      "bytes": 8000,
// TRACE:      "cat": "copy",
// TRACE:      "name": "[result 1 copied]",
// TRACE-NEXT: "ph": "X",
// TRACE-NEXT: "pid": 0,
// TRACE-NEXT: "tid": 0,

// CHECK-LABEL: @returned  N = argument 0 dimension 0
// CHECK-NEXT:    fused: 1 kernel, 20*N bytes (read 12*N, written 8*N)
// CHECK-NEXT:      kernel  ops  elements  read  written
// CHECK-NEXT:      add_0   add  N         8*N   4*N
// CHECK-NEXT:      result 1 is argument 0, copied (no kernel): 4*N read, 4*N written
// CHECK:         fused vs eager: 1 vs 1 kernel, 20*N vs 20*N bytes
// JSON:      "copies": [
// JSON-NEXT:   {
// JSON-NEXT:     "bytes_read": {
// JSON:          "text": "4*N"
// JSON:        "result": 1,
// JSON-NEXT:   "source": "argument 0"
// MEMCPY-LABEL: llvm.func @returned(
// MEMCPY-COUNT-1: "llvm.intr.memcpy"
// MEMCPY-NOT: "llvm.intr.memcpy"
// MEMCPY-LABEL: llvm.func @unit_only(
func.func @returned(%x: tensor<?xf32>, %y: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %0 = fuse.add %x, %y : tensor<?xf32>
  return %0, %x : tensor<?xf32>, tensor<?xf32>
}

// CHECK-LABEL: @unit_only  N = argument 0 dimension 0
// CHECK-NEXT:    fused: 0 kernels, 8*N bytes (read 4*N, written 4*N)
// CHECK-NEXT:      result 0 is argument 0, copied (no kernel): 4*N read, 4*N written
// MEMCPY-COUNT-1: "llvm.intr.memcpy"
// MEMCPY-NOT: "llvm.intr.memcpy"
// MEMCPY-LABEL: llvm.func @twice(
func.func @unit_only(%x: tensor<?x1xf32>) -> tensor<?xf32> {
  %0 = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x1xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// CHECK-LABEL: @twice  N = argument 0 dimension 0
// CHECK-NEXT:    fused: 1 kernel, 16*N + 32 bytes (read 8*N + 16, written 8*N + 16)
// CHECK-NEXT:      kernel  ops  elements  read  written
// CHECK-NEXT:      exp_1   exp  N         4*N   4*N
// CHECK-NEXT:      result 1 is result 0 again, copied (no kernel): 4*N read, 4*N written
// CHECK-NEXT:      result 2 is a constant, copied (no kernel): 16 read, 16 written
// MEMCPY-COUNT-2: "llvm.intr.memcpy"
// MEMCPY-NOT: "llvm.intr.memcpy"
func.func @twice(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<4xf32>) {
  %0 = fuse.exp %x : tensor<?xf32>
  %c = fuse.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  return %0, %0, %c : tensor<?xf32>, tensor<?xf32>, tensor<4xf32>
}

// A view of a kernel's result returned beside that result (a reduction
// over its dimension of size 1) is the same buffer. Eager, one of the two is
// copied (the view), which the profile timed and the report did not count;
// fused, the reduction is a copy in the kernel, which writes both results
// (the report's 8*N written, and no memcpy).
// RUN: fuse-run %s --entry=@view_returned_too --target=cpu --input rand:5x1 --profile --fusion=off | FileCheck %s --check-prefix=PROFILE-VIEW
// RUN: fuse-opt %s --fuse-pipeline=cpu --fusion=off | FileCheck %s --check-prefix=MEMCPY-EAGER
// CHECK-LABEL: @view_returned_too  N = argument 0 dimension 0
// CHECK-NEXT:    fused: 1 kernel, 12*N bytes (read 4*N, written 8*N)
// CHECK-NEXT:      kernel                   ops              elements  read  written
// CHECK-NEXT:      fused_relu_reduce_sum_2  relu reduce_sum  N         4*N   8*N
// CHECK-NEXT:    eager: 1 kernel, 16*N bytes (read 8*N, written 8*N)
// CHECK-NEXT:      kernel  ops   elements  read  written
// CHECK-NEXT:      relu_2  relu  N         4*N   4*N
// CHECK-NEXT:      result 0 is a view of result 1, copied (no kernel): 4*N read, 4*N written
// PROFILE-VIEW:      relu_2 {{.+}} 40 B
// PROFILE-VIEW-NEXT: [result 0 copied] {{.+}} 40 B
// PROFILE-VIEW-NEXT: kernels per run: 1 (eager)
// MEMCPY-LABEL: llvm.func @view_returned_too(
// MEMCPY-NOT: "llvm.intr.memcpy"
// MEMCPY: llvm.return
// MEMCPY-EAGER-LABEL: llvm.func @view_returned_too(
// MEMCPY-EAGER-COUNT-1: "llvm.intr.memcpy"
// MEMCPY-EAGER-NOT: "llvm.intr.memcpy"
// MEMCPY-EAGER: llvm.return
func.func @view_returned_too(%a: tensor<?x1xf32>) -> (tensor<?xf32>, tensor<?x1xf32>) {
  %r = fuse.relu %a : tensor<?x1xf32>
  %s = fuse.reduce_sum %r {dims = array<i64: 1>} : tensor<?x1xf32> -> tensor<?xf32>
  return %s, %r : tensor<?xf32>, tensor<?x1xf32>
}

// A kernel's output of the broadcast shape (`? x 8`) returned as the
// result type's `? x ?` is that buffer, cast: not a copy (it was copied,
// which the profile timed and the report did not count).
// RUN: fuse-run %s --entry=@cast_returned --target=cpu --input rand:100x8 --input rand:8 --profile | FileCheck %s --check-prefix=PROFILE-CAST
// CHECK-LABEL: @cast_returned  N = argument 0 dimension 0
// CHECK-NEXT:    fused: 1 kernel, 96*N + 32 bytes (read 32*N + 32, written 64*N)
// CHECK-NEXT:      kernel  ops  elements  read  written
// CHECK-NEXT:      fused_neg_add_3  neg add  8*N  32*N + 32  64*N
// CHECK-NEXT:    eager:
// PROFILE-CAST:      fused_neg_add_3 {{.+}} 9.63 KB
// PROFILE-CAST-NEXT: kernels per run: 1 (fused)
// MEMCPY-LABEL: llvm.func @cast_returned(
// MEMCPY-NOT: "llvm.intr.memcpy"
// MEMCPY: llvm.return
func.func @cast_returned(%a: tensor<?x?xf32>, %b: tensor<8xf32>) -> (tensor<?x?xf32>, tensor<?x8xf32>) {
  %0 = fuse.neg %a : tensor<?x?xf32>
  %1 = fuse.add %0, %b : tensor<?x?xf32>, tensor<8xf32> -> tensor<?x8xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?x8xf32>
}

// A returned splat constant is no data to copy: a kernel of its own writes
// it (a generic with no inputs, op `constant`), once for both results that
// return it; the second is a copy of the first. A 1 GiB
// `dense<1.0> : tensor<16384x16384xf32>` was 1 GiB of program data for the
// JIT to compile (27 s, 4.2 GB of memory) and each run to copy.
// A dense constant of several values is still data, copied (@twice).
// RUN: fuse-opt %s --fuse-pipeline=fused | FileCheck %s --check-prefix=SPLAT-IR
// RUN: fuse-run %s --entry=@splat --target=cpu --input fill:1:2x3 | FileCheck %s --check-prefix=FILLED
// CHECK-LABEL: @splat
// CHECK-NEXT:    fused: 2 kernels, 12*N + 34 bytes (read 6*N + 14, written 6*N + 20)
// CHECK-NEXT:      kernel      ops       elements  read  written
// CHECK-NEXT:      add_4       add       3*N       6*N   6*N
// CHECK-NEXT:      constant_5  constant  3         0     6
// CHECK-NEXT:      result 2 is result 1 again, copied (no kernel): 6 read, 6 written
// CHECK-NEXT:      result 3 is a constant, copied (no kernel): 8 read, 8 written
// SPLAT-IR-LABEL: func.func @splat(
// SPLAT-IR:         %[[VALUE:.+]] = arith.constant 2.500000e+00 : bf16
// SPLAT-IR:         %[[SPLAT:.+]] = linalg.generic {indexing_maps = [#{{.+}}], iterator_types = ["parallel"]} outs(%{{.+}} : tensor<3xbf16>) attrs =  {fuse.kernel = "constant_{{[0-9]+}}", fuse.ops = ["constant"]} {
// SPLAT-IR-NEXT:    ^bb0(%{{.+}}: bf16):
// SPLAT-IR-NEXT:      linalg.yield %[[VALUE]] : bf16
// SPLAT-IR:         return %{{.+}}, %[[SPLAT]], %[[SPLAT]], %{{.+}} :
// FILLED:      result 0: bfloat16 [2x3] = [3.5, 3.5, 3.5, 3.5, 3.5, 3.5]
// FILLED-NEXT: result 1: bfloat16 [3] = [2.5, 2.5, 2.5]
// FILLED-NEXT: result 2: bfloat16 [3] = [2.5, 2.5, 2.5]
// FILLED-NEXT: result 3: int32 [2] = [7, -7]
func.func @splat(%a: tensor<?x3xbf16>) -> (tensor<?x3xbf16>, tensor<3xbf16>, tensor<3xbf16>, tensor<2xi32>) {
  %c = fuse.constant dense<2.5> : tensor<3xbf16>
  %r = fuse.add %a, %c : tensor<?x3xbf16>, tensor<3xbf16> -> tensor<?x3xbf16>
  %d = fuse.constant dense<[7, -7]> : tensor<2xi32>
  return %r, %c, %c, %d : tensor<?x3xbf16>, tensor<3xbf16>, tensor<3xbf16>, tensor<2xi32>
}
