// RUN: fuse-opt %s --fuse-report | FileCheck %s --match-full-lines
// RUN: fuse-opt %s --fuse-report --block-size=48 | FileCheck %s --check-prefix=BLOCK48
// RUN: fuse-opt %s --fuse-report=json | FileCheck %s --check-prefix=JSON

// How each kernel with reductions takes its rows, the same choice as
// fuse-map-to-gpu's (test/Conversion/LinalgToGPU/row-kernels.mlir): a warp
// per row on the GPU when the row is one innermost dimension read in 32
// lanes and every accumulator has 32 bits; else a thread per row. The CPU
// reads such rows in 32-lane vectors. A constant number of rows below 132
// (the SMs of an H100 or H200) says how few warps or threads that is, and
// such rows read in lanes are reduced in 4096 pieces. A warp keeps a row
// of up to 512 elements in registers (else loops over it in each pass).

// CHECK-LABEL: @softmax  N = argument 0 dimension 0, M = argument 0 dimension 1
// CHECK:         kernel with reductions                     rows  length  GPU                                                CPU
// CHECK-NEXT:    fused_reduce_max_sub_exp_reduce_sum_div_0  N     M       warp per row, in registers up to 1024, else looped  thread per row, 32-lane vectors
// CHECK-NEXT:  eager: 5 kernels, {{.*}}
// BLOCK48-LABEL: @softmax
// BLOCK48:         fused_reduce_max_sub_exp_reduce_sum_div_0  N     M       thread per row, 32-lane vectors  thread per row, 32-lane vectors
// JSON:        "name": "fused_reduce_max_sub_exp_reduce_sum_div_0",
// JSON:        "rows": {
// JSON-NEXT:     "count": {
// JSON-NEXT:       "terms": [
// JSON-NEXT:         {
// JSON-NEXT:           "coefficient": 1,
// JSON-NEXT:           "symbols": [
// JSON-NEXT:             "N"
// JSON-NEXT:           ]
// JSON-NEXT:         }
// JSON-NEXT:       ],
// JSON-NEXT:       "text": "N"
// JSON-NEXT:     },
// JSON-NEXT:     "cpu": "thread per row, 32-lane vectors",
// JSON-NEXT:     "gpu": "warp per row, in registers up to 1024, else looped",
// JSON-NEXT:     "length": {
// JSON-NEXT:       "terms": [
// JSON-NEXT:         {
// JSON-NEXT:           "coefficient": 1,
// JSON-NEXT:           "symbols": [
// JSON-NEXT:             "M"
// JSON-NEXT:           ]
// JSON-NEXT:         }
// JSON-NEXT:       ],
// JSON-NEXT:       "text": "M"
// JSON-NEXT:     }
// JSON-NEXT:   }
func.func @softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %max = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %shifted = fuse.sub %x, %max : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %e = fuse.exp %shifted : tensor<?x?xf32>
  %sum = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %y = fuse.div %e, %sum : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// A full reduction of a vector is one row, split (RowForm::split): a first
// kernel gives each of the P pieces of the row a warp and writes P f32
// partial sums (4*P bytes), a second reduces them as a row of P. The
// pieces of a row of a dynamic length are counted at run time, a symbol
// of the report: N / 1024 rounded up to a power of 2, at most 4096 for one
// row. An f64 sum has 64-bit accumulators, a warp per row as well (each
// shuffle two of 32 bits), which keeps rows of up to 512 in registers (its
// elements take two each); over both dimensions of a matrix it is one row
// of M*K (the innermost dimensions collapsed), split too (P2 f64 partial
// sums). A reduction over the
// leading dimension is read element by element (each of the 4 columns a
// row), split as well (a thread per piece of about 32 elements, at most
// 262144 / 4 = 65536 pieces per column), as is an f16 sum over a middle
// dimension, whose rows (Q*S, not a constant) share the 262144 pieces at
// run time (P4; a cpu thread takes a piece of 32 of its rows at once, one
// element of each at a time).
// CHECK-LABEL: @forms  N = argument 0 dimension 0, M = argument 1 dimension 0, K = argument 1 dimension 1, L = argument 2 dimension 0, Q = argument 3 dimension 0, R = argument 3 dimension 1, S = argument 3 dimension 2, P = pieces per row, N / 1024 rounded up to a power of 2 (at most 4096), P2 = pieces per row, M*K / 1024 rounded up to a power of 2 (at most 4096), P3 = pieces per row, L / 32 rounded up to a power of 2 (at most 65536), P4 = pieces per row, R / 32 rounded up to a power of 2 (at most 262144 / (Q*S), with (Q*S) first rounded up to a power of 2)
// CHECK-NEXT:    fused: 9 kernels, {{.*}}
// CHECK-NEXT:      kernel               ops         elements  read      written
// CHECK-NEXT:      reduce_sum_1_pieces  reduce_sum  N         4*N       4*P
// CHECK-NEXT:      reduce_sum_1         reduce_sum  P         4*P       4
// CHECK-NEXT:      reduce_sum_2         reduce_sum  M*K       8*M*K     8*M
// CHECK-NEXT:      reduce_sum_3_pieces  reduce_sum  M*K       8*M*K     8*P2
// CHECK-NEXT:      reduce_sum_3         reduce_sum  P2        8*P2      8
// CHECK-NEXT:      reduce_max_4_pieces  reduce_max  4*L       16*L      16*P3
// CHECK-NEXT:      reduce_max_4         reduce_max  4*P3      16*P3     16
// CHECK-NEXT:      reduce_sum_5_pieces  reduce_sum  Q*R*S     2*Q*R*S   4*Q*S*P4
// CHECK-NEXT:      reduce_sum_5         reduce_sum  Q*S*P4    4*Q*S*P4  2*Q*S
// CHECK:         kernel with reductions  rows  length  GPU                                                                 CPU
// CHECK-NEXT:    reduce_sum_1_pieces     1     N       warp per piece, P pieces per row                                    thread per piece, 32-lane vectors
// CHECK-NEXT:    reduce_sum_1            1     P       warp per row, in registers up to 1024, else looped (1 warp in all)  thread per row, 32-lane vectors
// CHECK-NEXT:    reduce_sum_2            M     K       warp per row, in registers up to 512, else looped                   thread per row, 32-lane vectors
// CHECK-NEXT:    reduce_sum_3_pieces     1     M*K     warp per piece, P2 pieces per row                                   thread per piece, 32-lane vectors
// CHECK-NEXT:    reduce_sum_3            1     P2      warp per row, in registers up to 512, else looped (1 warp in all)   thread per row, 32-lane vectors
// CHECK-NEXT:    reduce_max_4_pieces     4     L       thread per piece, P3 pieces per row                                 thread per piece of all rows, element by element
// CHECK-NEXT:    reduce_max_4            4     P3      thread per row (4 threads in all)                                   one thread for all rows, element by element
// CHECK-NEXT:    reduce_sum_5_pieces     Q*S   R       thread per piece, P4 pieces per row                                 thread per piece of 32 rows, element by element
// CHECK-NEXT:    reduce_sum_5            Q*S   P4      thread per row                                                      thread per 32 rows, element by element
// CHECK-NEXT:  eager: 9 kernels, {{.*}}
func.func @forms(%x: tensor<?xf32>, %y: tensor<?x?xf64>, %z: tensor<?x4xf32>, %w: tensor<?x?x?xf16>)
    -> (tensor<f32>, tensor<?xf64>, tensor<f64>, tensor<4xf32>, tensor<?x?xf16>) {
  %s = fuse.reduce_sum %x {dims = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  %r = fuse.reduce_sum %y {dims = array<i64: 1>} : tensor<?x?xf64> -> tensor<?xf64>
  %t = fuse.reduce_sum %y {dims = array<i64: 0, 1>} : tensor<?x?xf64> -> tensor<f64>
  %u = fuse.reduce_max %z {dims = array<i64: 0>} : tensor<?x4xf32> -> tensor<4xf32>
  %v = fuse.reduce_sum %w {dims = array<i64: 1>} : tensor<?x?x?xf16> -> tensor<?x?xf16>
  return %s, %r, %t, %u, %v : tensor<f32>, tensor<?xf64>, tensor<f64>, tensor<4xf32>, tensor<?x?xf16>
}

// Split with a prologue and an epilogue: the square is computed in the
// first kernel (x read once, 12*N bytes; 3 rows share the 4096 pieces, at
// most 1024 each: 3 x P partial sums written, 12*P), the second reads the
// partial sums and writes the 3 sums (12). An
// f16 mean accumulates in f32 (P2 x 4 bytes of partial sums); its
// division and rounding to f16 run in the second kernel, which writes 2
// bytes. Eager, the square is a kernel of its own and the sum is split
// the same way (the same bits).
// CHECK-LABEL: @split  N = argument 0 dimension 1, M = argument 1 dimension 0, P = pieces per row, N / 1024 rounded up to a power of 2 (at most 1024), P2 = pieces per row, M / 1024 rounded up to a power of 2 (at most 4096)
// CHECK-NEXT:    fused: 4 kernels, 12*N + 2*M + 24*P + 8*P2 + 14 bytes (read 12*N + 2*M + 12*P + 4*P2, written 12*P + 4*P2 + 14)
// CHECK-NEXT:      kernel                         ops             elements  read  written
// CHECK-NEXT:      fused_mul_reduce_sum_6_pieces  mul reduce_sum  3*N       12*N  12*P
// CHECK-NEXT:      fused_mul_reduce_sum_6         reduce_sum      3*P       12*P  12
// CHECK-NEXT:      reduce_mean_7_pieces           reduce_mean     M         2*M   4*P2
// CHECK-NEXT:      reduce_mean_7                  reduce_mean     P2        4*P2  2
// CHECK-NEXT:      kernel with reductions         rows  length  GPU                                                                 CPU
// CHECK-NEXT:      fused_mul_reduce_sum_6_pieces  3     N       warp per piece, P pieces per row                                    thread per piece, 32-lane vectors
// CHECK-NEXT:      fused_mul_reduce_sum_6         3     P       warp per row, in registers up to 1024, else looped (3 warps in all)  thread per row, 32-lane vectors
// CHECK-NEXT:      reduce_mean_7_pieces           1     M       warp per piece, P2 pieces per row                                   thread per piece, 32-lane vectors
// CHECK-NEXT:      reduce_mean_7                  1     P2      warp per row, in registers up to 1024, else looped (1 warp in all)   thread per row, 32-lane vectors
// CHECK-NEXT:    eager: 5 kernels, 36*N + 2*M + 24*P + 8*P2 + 14 bytes (read 24*N + 2*M + 12*P + 4*P2, written 12*N + 12*P + 4*P2 + 14)
func.func @split(%x: tensor<3x?xf32>, %v: tensor<?xf16>) -> (tensor<3xf32>, tensor<f16>) {
  %sq = fuse.mul %x, %x : tensor<3x?xf32>, tensor<3x?xf32> -> tensor<3x?xf32>
  %s = fuse.reduce_sum %sq {dims = array<i64: 1>} : tensor<3x?xf32> -> tensor<3xf32>
  %m = fuse.reduce_mean %v {dims = array<i64: 0>} : tensor<?xf16> -> tensor<f16>
  return %s, %m : tensor<3xf32>, tensor<f16>
}

// Few rows of a dynamic length: what reads the sum over the whole space
// stays out of its kernel (a remark says why), so that the whole GPU
// reduces the rows in pieces, split in two launches, and the division is
// a kernel of its own; not one kernel with a warp per row (3 warps for
// the whole GPU).
// CHECK-LABEL: @pieces  N = argument 0 dimension 1, P = pieces per row, N / 1024 rounded up to a power of 2 (at most 1024)
// CHECK-NEXT:    fused: 3 kernels, 36*N + 24*P + 24 bytes (read 24*N + 12*P + 12, written 12*N + 12*P + 12)
// CHECK-NEXT:      kernel               ops         elements  read       written
// CHECK-NEXT:      reduce_sum_8_pieces  reduce_sum  3*N       12*N       12*P
// CHECK-NEXT:      reduce_sum_8         reduce_sum  3*P       12*P       12
// CHECK-NEXT:      div_9                div         3*N       12*N + 12  12*N
// CHECK-NEXT:      kernel with reductions  rows  length  GPU                                                                 CPU
// CHECK-NEXT:      reduce_sum_8_pieces     3     N       warp per piece, P pieces per row                                    thread per piece, 32-lane vectors
// CHECK-NEXT:      reduce_sum_8            3     P       warp per row, in registers up to 1024, else looped (3 warps in all)  thread per row, 32-lane vectors
// CHECK-NEXT:    eager: 3 kernels, 36*N + 24*P + 24 bytes (read 24*N + 12*P + 12, written 12*N + 12*P + 12)
func.func @pieces(%x: tensor<3x?xf32>) -> (tensor<3x?xf32>, tensor<3x1xf32>) {
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<3x?xf32> -> tensor<3x1xf32>
  %y = fuse.div %x, %s : tensor<3x?xf32>, tensor<3x1xf32> -> tensor<3x?xf32>
  return %y, %s : tensor<3x?xf32>, tensor<3x1xf32>
}

// The softmax of a vector of a dynamic length: each reduction in pieces
// over the whole GPU; sub and exp in the sum's kernel, and again (a copy)
// in the division's instead of being stored by one and read by two: 16
// bytes per element. The counts of pieces are bounded (4096): the ratio
// is that of the N terms.
// CHECK-LABEL: @vector_softmax  N = argument 0 dimension 0, P = pieces per row, N / 1024 rounded up to a power of 2 (at most 4096)
// CHECK-NEXT:    fused: 5 kernels, 16*N + 16*P + 20 bytes (read 12*N + 8*P + 12, written 4*N + 8*P + 8)
// CHECK-NEXT:      kernel                              ops                 elements  read     written
// CHECK-NEXT:      reduce_max_10_pieces                reduce_max          N         4*N      4*P
// CHECK-NEXT:      reduce_max_10                       reduce_max          P         4*P      4
// CHECK-NEXT:      fused_sub_exp_reduce_sum_11_pieces  sub exp reduce_sum  N         4*N + 4  4*P
// CHECK-NEXT:      fused_sub_exp_reduce_sum_11         reduce_sum          P         4*P      4
// CHECK-NEXT:      fused_sub_exp_div_12                sub exp div         N         4*N + 8  4*N
// CHECK:         fused vs eager: 5 vs 7 kernels, 16*N + 16*P + 20 vs 32*N + 16*P + 16 bytes (0.50x the traffic as the sizes grow)
func.func @vector_softmax(%x: tensor<?xf32>) -> tensor<?xf32> {
  %m = fuse.reduce_max %x {dims = array<i64: 0>} : tensor<?xf32> -> tensor<1xf32>
  %d = fuse.sub %x, %m : tensor<?xf32>, tensor<1xf32> -> tensor<?xf32>
  %e = fuse.exp %d : tensor<?xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 0>} : tensor<?xf32> -> tensor<1xf32>
  %y = fuse.div %e, %s : tensor<?xf32>, tensor<1xf32> -> tensor<?xf32>
  return %y : tensor<?xf32>
}

// A prologue whose result is also returned is computed in the kernel of
// the reduction over few rows, and again by a copy that stores it.
// CHECK-LABEL: @pieces_prologue  N = argument 0 dimension 0, P = pieces per row, N / 1024 rounded up to a power of 2 (at most 4096)
// CHECK-NEXT:    fused: 3 kernels, 12*N + 8*P + 4 bytes (read 8*N + 4*P, written 4*N + 4*P + 4)
// CHECK-NEXT:      kernel                          ops             elements  read  written
// CHECK-NEXT:      mul_13                          mul             N         4*N   4*N
// CHECK-NEXT:      fused_mul_reduce_sum_14_pieces  mul reduce_sum  N         4*N   4*P
func.func @pieces_prologue(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<f32>) {
  %sq = fuse.mul %x, %x : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  %s = fuse.reduce_sum %sq {dims = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  return %sq, %s : tensor<?xf32>, tensor<f32>
}

// Few rows of a constant length of at most 1024 elements are no pieces:
// a warp per row, in one kernel with what reads their sums (fused and
// eager alike).
// CHECK-LABEL: @short_pieces
// CHECK-NEXT:    fused: 1 kernel, 2412 bytes (read 1200, written 1212)
// CHECK:           kernel with reductions   rows  length  GPU                                          CPU
// CHECK-NEXT:      fused_reduce_sum_div_15  3     100     warp per row, in registers (3 warps in all)  thread per row, 32-lane vectors
// CHECK-NEXT:    eager: 2 kernels, 3624 bytes (read 2412, written 1212)
func.func @short_pieces(%x: tensor<3x100xf32>) -> (tensor<3x100xf32>, tensor<3x1xf32>) {
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<3x100xf32> -> tensor<3x1xf32>
  %y = fuse.div %x, %s : tensor<3x100xf32>, tensor<3x1xf32> -> tensor<3x100xf32>
  return %y, %s : tensor<3x100xf32>, tensor<3x1xf32>
}

// A warp keeps a row of at most 1024 elements in registers between its
// passes (512 of each of two inputs, ...): with a constant length the
// report says which (a dynamic length is tested at run time: "in registers
// up to 1024, else looped").
// CHECK-LABEL: @row_lengths  N = argument 0 dimension 0, M = argument 1 dimension 0
// CHECK:         kernel with reductions   rows  length  GPU                         CPU
// CHECK-NEXT:    fused_reduce_sum_div_16  N     100     warp per row, in registers  thread per row, 32-lane vectors
// CHECK-NEXT:    fused_reduce_max_sub_17  M     2000    warp per row, looped        thread per row, 32-lane vectors
// CHECK-NEXT:  eager: 4 kernels, {{.*}}
func.func @row_lengths(%x: tensor<?x100xf32>, %z: tensor<?x2000xf32>) -> (tensor<?x100xf32>, tensor<?x2000xf32>) {
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x100xf32> -> tensor<?x1xf32>
  %y = fuse.div %x, %s : tensor<?x100xf32>, tensor<?x1xf32> -> tensor<?x100xf32>
  %m = fuse.reduce_max %z {dims = array<i64: 1>} : tensor<?x2000xf32> -> tensor<?x1xf32>
  %w = fuse.sub %z, %m : tensor<?x2000xf32>, tensor<?x1xf32> -> tensor<?x2000xf32>
  return %y, %w : tensor<?x100xf32>, tensor<?x2000xf32>
}

// Two means over the same rows (of x and of x * x): their divisions are
// one generic of the kernel (horizontal fusion), which keeps both in
// registers. It was left without a name, and the report counted its
// results as written and read back (4*N*M + 20*N bytes).
// CHECK-LABEL: @two_means  N = argument 0 dimension 0, M = argument 0 dimension 1
// CHECK-NEXT:    fused: 1 kernel, 4*N*M + 4*N bytes (read 4*N*M, written 4*N)
// CHECK-NEXT:      kernel                                    ops                              elements  read   written
// CHECK-NEXT:      fused_reduce_mean_mul_reduce_mean_sub_{{[0-9]+}}  reduce_mean mul reduce_mean sub  N*M       4*N*M  4*N
func.func @two_means(%x: tensor<?x?xf32>) -> tensor<?x1xf32> {
  %m = fuse.reduce_mean %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %sq = fuse.mul %x, %x : tensor<?x?xf32>
  %m2 = fuse.reduce_mean %sq {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %v = fuse.sub %m2, %m : tensor<?x1xf32>
  return %v : tensor<?x1xf32>
}

// Two reductions of x over its rows, which no op joins: one kernel reads x
// once for both (it was two kernels and 8*N*M + 8*N bytes).
// CHECK-LABEL: @sibling_reductions  N = argument 0 dimension 0, M = argument 0 dimension 1
// CHECK-NEXT:    fused: 1 kernel, 4*N*M + 8*N bytes (read 4*N*M, written 8*N)
func.func @sibling_reductions(%x: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %a = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  %c = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  return %a, %c : tensor<?xf32>, tensor<?xf32>
}

// No rows: every count is 0, and the row's length still has a name (it was
// a bare `?`).
// CHECK-LABEL: @no_rows  N = argument 0 dimension 1, P = pieces per row, N / 1024 rounded up to a power of 2 (at most 4096)
// CHECK:         reduce_sum_{{[0-9]+}}_pieces    0     N       warp per piece, P pieces per row                                    thread per piece, 32-lane vectors
func.func @no_rows(%x: tensor<0x?xf16>) -> tensor<0xf16> {
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<0x?xf16> -> tensor<0xf16>
  return %s : tensor<0xf16>
}
