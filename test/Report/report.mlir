// RUN: fuse-opt %s --fuse-report | FileCheck %s --match-full-lines
// RUN: fuse-opt %s --fuse-report --fuse-horizontal=false | FileCheck %s --match-full-lines --check-prefix=NOHORIZ

// Kernels and bytes of each function, fused vs eager. Every number below was
// counted by hand before the tool ran: a kernel reads each distinct input once
// in full and writes each result once; scalar and splat constants are folded
// in and read nothing. Kernels are numbered across the module, so a function
// inserted here renumbers the ones after it. A kernel of one op keeps the op's
// name (exp_7) even with fusion on: nothing was fused into it.

// c = relu(a + b).
// fused: reads a,b (8*N), writes c (4*N).
// eager: add reads a,b (8*N), writes the sum (4*N); relu reads it (4*N),
//        writes c (4*N). 12*N vs 20*N.
// CHECK-LABEL: @add_relu  N = argument 0 dimension 0
// CHECK-NEXT:   fused: 1 kernel, 12*N bytes (read 8*N, written 4*N)
// CHECK-NEXT:     kernel            ops       elements  read  written
// CHECK-NEXT:     fused_add_relu_0  add relu  N         8*N   4*N
// CHECK-NEXT:   eager: 2 kernels, 20*N bytes (read 12*N, written 8*N)
// CHECK-NEXT:     kernel  ops   elements  read  written
// CHECK-NEXT:     add_0   add   N         8*N   4*N
// CHECK-NEXT:     relu_1  relu  N         4*N   4*N
// CHECK-NEXT:   fused vs eager: 1 vs 2 kernels, 12*N vs 20*N bytes (0.60x the traffic)
func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// Five unary ops in a row.
// fused: reads x (4*N), writes the last result (4*N).
// eager: each of the 5 kernels reads 4*N and writes 4*N: 20*N + 20*N.
// CHECK-LABEL: @unary_chain  N = argument 0 dimension 0
// CHECK-NEXT:   fused: 1 kernel, 8*N bytes (read 4*N, written 4*N)
// CHECK-NEXT:     kernel                            ops                       elements  read  written
// CHECK-NEXT:     fused_neg_exp_tanh_abs_sigmoid_1  neg exp tanh abs sigmoid  N         4*N   4*N
// CHECK-NEXT:   eager: 5 kernels, 40*N bytes (read 20*N, written 20*N)
// CHECK-NEXT:     kernel     ops      elements  read  written
// CHECK-NEXT:     neg_2      neg      N         4*N   4*N
// CHECK-NEXT:     exp_3      exp      N         4*N   4*N
// CHECK-NEXT:     tanh_4     tanh     N         4*N   4*N
// CHECK-NEXT:     abs_5      abs      N         4*N   4*N
// CHECK-NEXT:     sigmoid_6  sigmoid  N         4*N   4*N
// CHECK-NEXT:   fused vs eager: 1 vs 5 kernels, 8*N vs 40*N bytes (0.20x the traffic)
func.func @unary_chain(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.neg %x : tensor<?xf32>
  %1 = fuse.exp %0 : tensor<?xf32>
  %2 = fuse.tanh %1 : tensor<?xf32>
  %3 = fuse.abs %2 : tensor<?xf32>
  %4 = fuse.sigmoid %3 : tensor<?xf32>
  return %4 : tensor<?xf32>
}

// %s feeds mul (twice) and sub; it is recomputed inside the kernel, not
// written.
// fused: reads a,b (8*N), writes t (4*N).
// eager: add reads a,b (8*N) writes s (4*N); mul reads s once (4*N) writes r
//        (4*N); sub reads r,s (8*N) writes t (4*N). Read 20*N, written 12*N.
// CHECK-LABEL: @producer_used_twice  N = argument 0 dimension 0
// CHECK-NEXT:   fused: 1 kernel, 12*N bytes (read 8*N, written 4*N)
// CHECK-NEXT:     kernel               ops          elements  read  written
// CHECK-NEXT:     fused_add_mul_sub_2  add mul sub  N         8*N   4*N
// CHECK-NEXT:   eager: 3 kernels, 32*N bytes (read 20*N, written 12*N)
// CHECK-NEXT:     kernel  ops  elements  read  written
// CHECK-NEXT:     add_7   add  N         8*N   4*N
// CHECK-NEXT:     mul_8   mul  N         4*N   4*N
// CHECK-NEXT:     sub_9   sub  N         8*N   4*N
// CHECK-NEXT:   fused vs eager: 1 vs 3 kernels, 12*N vs 32*N bytes (0.38x the traffic)
func.func @producer_used_twice(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %s = fuse.add %a, %b : tensor<?xf32>
  %r = fuse.mul %s, %s : tensor<?xf32>
  %t = fuse.sub %r, %s : tensor<?xf32>
  return %t : tensor<?xf32>
}

// Two results of one region come out of one kernel.
// fused: reads a,b (8*N), writes relu and exp (8*N).
// eager: add 8*N/4*N, relu 4*N/4*N, exp 4*N/4*N: read 16*N, written 12*N.
// One connected region, so still one kernel without horizontal fusion.
// CHECK-LABEL: @two_outputs  N = argument 0 dimension 0
// CHECK-NEXT:   fused: 1 kernel, 16*N bytes (read 8*N, written 8*N)
// CHECK-NEXT:     kernel                ops           elements  read  written
// CHECK-NEXT:     fused_add_relu_exp_3  add relu exp  N         8*N   8*N
// CHECK-NEXT:   eager: 3 kernels, 28*N bytes (read 16*N, written 12*N)
// CHECK-NEXT:     kernel   ops   elements  read  written
// CHECK-NEXT:     add_10   add   N         8*N   4*N
// CHECK-NEXT:     relu_11  relu  N         4*N   4*N
// CHECK-NEXT:     exp_12   exp   N         4*N   4*N
// CHECK-NEXT:   fused vs eager: 1 vs 3 kernels, 16*N vs 28*N bytes (0.57x the traffic)
// NOHORIZ-LABEL: @two_outputs  N = argument 0 dimension 0
// NOHORIZ-NEXT:   fused: 1 kernel, 16*N bytes (read 8*N, written 8*N)
// NOHORIZ-NEXT:     kernel                ops           elements  read  written
// NOHORIZ-NEXT:     fused_add_relu_exp_3  add relu exp  N         8*N   8*N
// NOHORIZ-NEXT:   eager: 3 kernels, 28*N bytes (read 16*N, written 12*N)
// NOHORIZ-NEXT:     kernel   ops   elements  read  written
// NOHORIZ-NEXT:     add_10   add   N         8*N   4*N
// NOHORIZ-NEXT:     relu_11  relu  N         4*N   4*N
// NOHORIZ-NEXT:     exp_12   exp   N         4*N   4*N
// NOHORIZ-NEXT:   fused vs eager: 1 vs 3 kernels, 16*N vs 28*N bytes (0.57x the traffic)
func.func @two_outputs(%a: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %s = fuse.add %a, %b : tensor<?xf32>
  %r = fuse.relu %s : tensor<?xf32>
  %e = fuse.exp %s : tensor<?xf32>
  return %r, %e : tensor<?xf32>, tensor<?xf32>
}

// An intermediate that is also a function result is written.
// fused: reads a,b (8*N), writes s and r (8*N).
// eager: add 8*N/4*N, relu 4*N/4*N.
// CHECK-LABEL: @intermediate_result  N = argument 0 dimension 0
// CHECK-NEXT:   fused: 1 kernel, 16*N bytes (read 8*N, written 8*N)
// CHECK-NEXT:     kernel            ops       elements  read  written
// CHECK-NEXT:     fused_add_relu_4  add relu  N         8*N   8*N
// CHECK-NEXT:   eager: 2 kernels, 20*N bytes (read 12*N, written 8*N)
// CHECK-NEXT:     kernel   ops   elements  read  written
// CHECK-NEXT:     add_13   add   N         8*N   4*N
// CHECK-NEXT:     relu_14  relu  N         4*N   4*N
// CHECK-NEXT:   fused vs eager: 1 vs 2 kernels, 16*N vs 20*N bytes (0.80x the traffic)
func.func @intermediate_result(%a: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %s = fuse.add %a, %b : tensor<?xf32>
  %r = fuse.relu %s : tensor<?xf32>
  return %s, %r : tensor<?xf32>, tensor<?xf32>
}

// Three independent ops over one iteration space: horizontal fusion makes one
// kernel that reads a, b and c once each.
// fused: reads a,b,c (12*N), writes three results (12*N).
// eager: three kernels, each reads two inputs (8*N) and writes 4*N.
// Without horizontal fusion the fused variant is the three eager kernels.
// CHECK-LABEL: @horizontal  N = argument 0 dimension 0
// CHECK-NEXT:   fused: 1 kernel, 24*N bytes (read 12*N, written 12*N)
// CHECK-NEXT:     kernel               ops          elements  read  written
// CHECK-NEXT:     fused_add_sub_mul_5  add sub mul  N         12*N  12*N
// CHECK-NEXT:   eager: 3 kernels, 36*N bytes (read 24*N, written 12*N)
// CHECK-NEXT:     kernel  ops  elements  read  written
// CHECK-NEXT:     add_15  add  N         8*N   4*N
// CHECK-NEXT:     sub_16  sub  N         8*N   4*N
// CHECK-NEXT:     mul_17  mul  N         8*N   4*N
// CHECK-NEXT:   fused vs eager: 1 vs 3 kernels, 24*N vs 36*N bytes (0.67x the traffic)
// NOHORIZ-LABEL: @horizontal  N = argument 0 dimension 0
// NOHORIZ-NEXT:   fused: 3 kernels, 36*N bytes (read 24*N, written 12*N)
// NOHORIZ-NEXT:     kernel       ops  elements  read  written
// NOHORIZ-NEXT:     add_5  add  N         8*N   4*N
// NOHORIZ-NEXT:     sub_6  sub  N         8*N   4*N
// NOHORIZ-NEXT:     mul_7  mul  N         8*N   4*N
// NOHORIZ-NEXT:   eager: 3 kernels, 36*N bytes (read 24*N, written 12*N)
// NOHORIZ-NEXT:     kernel  ops  elements  read  written
// NOHORIZ-NEXT:     add_15  add  N         8*N   4*N
// NOHORIZ-NEXT:     sub_16  sub  N         8*N   4*N
// NOHORIZ-NEXT:     mul_17  mul  N         8*N   4*N
// NOHORIZ-NEXT:   fused vs eager: 3 vs 3 kernels, 36*N vs 36*N bytes (1.00x the traffic)
func.func @horizontal(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.sub %a, %c : tensor<?xf32>
  %2 = fuse.mul %b, %c : tensor<?xf32>
  return %0, %1, %2 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}

// A bias of shape [M] broadcast over the rows of x [N,M]; the bias's `?` is
// the same size as x's second dimension.
// fused: reads x (4*N*M) and the bias once (4*M), writes N*M floats.
// eager: add reads x and bias (4*N*M + 4*M), writes 4*N*M; relu 4*N*M/4*N*M.
// CHECK-LABEL: @bias_relu  N = argument 0 dimension 0, M = argument 0 dimension 1
// CHECK-NEXT:   fused: 1 kernel, 8*N*M + 4*M bytes (read 4*N*M + 4*M, written 4*N*M)
// CHECK-NEXT:     kernel            ops       elements  read         written
// CHECK-NEXT:     fused_add_relu_6  add relu  N*M       4*N*M + 4*M  4*N*M
// CHECK-NEXT:   eager: 2 kernels, 16*N*M + 4*M bytes (read 8*N*M + 4*M, written 8*N*M)
// CHECK-NEXT:     kernel   ops   elements  read         written
// CHECK-NEXT:     add_18   add   N*M       4*N*M + 4*M  4*N*M
// CHECK-NEXT:     relu_19  relu  N*M       4*N*M        4*N*M
// CHECK-NEXT:   fused vs eager: 1 vs 2 kernels, 8*N*M + 4*M vs 16*N*M + 4*M bytes (0.50x the traffic as the sizes grow)
func.func @bias_relu(%x: tensor<?x?xf32>, %bias: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = fuse.add %x, %bias : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %1 = fuse.relu %0 : tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}

// exp on [N] consumed with a broadcast in [M,N]: a different iteration space,
// so two kernels, and exp's result is written and read back. N is v's size
// (argument 0), M is x's first dimension (argument 1).
// fused: exp reads v (4*N) writes 4*N; mul+relu reads x (4*N*M) and the exp
//        result (4*N), writes 4*N*M.
// eager: the same plus relu's own kernel (4*N*M/4*N*M).
// CHECK-LABEL: @broadcast_boundary  N = argument 0 dimension 0, M = argument 1 dimension 0
// CHECK-NEXT:   fused: 2 kernels, 8*N*M + 12*N bytes (read 4*N*M + 8*N, written 4*N*M + 4*N)
// CHECK-NEXT:     kernel            ops       elements  read         written
// CHECK-NEXT:     exp_7       exp       N         4*N          4*N
// CHECK-NEXT:     fused_mul_relu_8  mul relu  N*M       4*N*M + 4*N  4*N*M
// CHECK-NEXT:   eager: 3 kernels, 16*N*M + 12*N bytes (read 8*N*M + 8*N, written 8*N*M + 4*N)
// CHECK-NEXT:     kernel   ops   elements  read         written
// CHECK-NEXT:     exp_20   exp   N         4*N          4*N
// CHECK-NEXT:     mul_21   mul   N*M       4*N*M + 4*N  4*N*M
// CHECK-NEXT:     relu_22  relu  N*M       4*N*M        4*N*M
// CHECK-NEXT:   fused vs eager: 2 vs 3 kernels, 8*N*M + 12*N vs 16*N*M + 12*N bytes (0.50x the traffic as the sizes grow)
func.func @broadcast_boundary(%v: tensor<?xf32>, %x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = fuse.exp %v : tensor<?xf32>
  %1 = fuse.mul %x, %0 : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %2 = fuse.relu %1 : tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}

// f16 in, computed in f32, f16 out.
// fused: reads h (2*N) and x (4*N), writes the f16 result (2*N).
// eager: cast reads 2*N writes 4*N; add reads 8*N writes 4*N; cast reads 4*N
//        writes 2*N. Read 14*N, written 10*N.
// CHECK-LABEL: @mixed_dtypes  N = argument 0 dimension 0
// CHECK-NEXT:   fused: 1 kernel, 8*N bytes (read 6*N, written 2*N)
// CHECK-NEXT:     kernel                 ops            elements  read  written
// CHECK-NEXT:     fused_cast_add_cast_9  cast add cast  N         6*N   2*N
// CHECK-NEXT:   eager: 3 kernels, 24*N bytes (read 14*N, written 10*N)
// CHECK-NEXT:     kernel   ops   elements  read  written
// CHECK-NEXT:     cast_23  cast  N         2*N   4*N
// CHECK-NEXT:     add_24   add   N         8*N   4*N
// CHECK-NEXT:     cast_25  cast  N         4*N   2*N
// CHECK-NEXT:   fused vs eager: 1 vs 3 kernels, 8*N vs 24*N bytes (0.33x the traffic)
func.func @mixed_dtypes(%h: tensor<?xf16>, %x: tensor<?xf32>) -> tensor<?xf16> {
  %0 = fuse.cast %h : tensor<?xf16> to tensor<?xf32>
  %1 = fuse.add %0, %x : tensor<?xf32>
  %2 = fuse.cast %1 : tensor<?xf32> to tensor<?xf16>
  return %2 : tensor<?xf16>
}

// An i1 mask (1 byte per element) feeding select, and returned too.
// fused: reads a,b (8*N), writes the select result (4*N) and the mask (N).
// eager: cmp reads a,b (8*N) writes the mask (N); select reads the mask, a
//        and b (N + 8*N) writes 4*N. Read 17*N, written 5*N.
// CHECK-LABEL: @cmp_select  N = argument 0 dimension 0
// CHECK-NEXT:   fused: 1 kernel, 13*N bytes (read 8*N, written 5*N)
// CHECK-NEXT:     kernel               ops         elements  read  written
// CHECK-NEXT:     fused_cmp_select_10  cmp select  N         8*N   5*N
// CHECK-NEXT:   eager: 2 kernels, 22*N bytes (read 17*N, written 5*N)
// CHECK-NEXT:     kernel     ops     elements  read  written
// CHECK-NEXT:     cmp_26     cmp     N         8*N   N
// CHECK-NEXT:     select_27  select  N         9*N   4*N
// CHECK-NEXT:   fused vs eager: 1 vs 2 kernels, 13*N vs 22*N bytes (0.59x the traffic)
func.func @cmp_select(%a: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi1>) {
  %m = fuse.cmp gt, %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
  %0 = fuse.select %m, %a, %b : tensor<?xi1>, tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %0, %m : tensor<?xf32>, tensor<?xi1>
}

// Static shapes give numbers. 64*4096 = 262144 elements, 1048576 bytes of f32;
// the bias is 4096 floats, 16384 bytes.
// fused: reads x,y (2097152) and the bias (16384), writes 1048576.
// eager: mul reads 2097152 writes 1048576; add reads 1048576 + 16384 =
//        1064960 writes 1048576; tanh reads 1048576 writes 1048576.
//        Read 4210688, written 3145728.
// CHECK-LABEL: @static_shapes
// CHECK-NEXT:   fused: 1 kernel, 3162112 bytes (read 2113536, written 1048576)
// CHECK-NEXT:     kernel                 ops           elements  read     written
// CHECK-NEXT:     fused_mul_add_tanh_11  mul add tanh  262144    2113536  1048576
// CHECK-NEXT:   eager: 3 kernels, 7356416 bytes (read 4210688, written 3145728)
// CHECK-NEXT:     kernel   ops   elements  read     written
// CHECK-NEXT:     mul_28   mul   262144    2097152  1048576
// CHECK-NEXT:     add_29   add   262144    1064960  1048576
// CHECK-NEXT:     tanh_30  tanh  262144    1048576  1048576
// CHECK-NEXT:   fused vs eager: 1 vs 3 kernels, 3162112 vs 7356416 bytes (0.43x the traffic)
func.func @static_shapes(%x: tensor<64x4096xf32>, %y: tensor<64x4096xf32>, %bias: tensor<4096xf32>) -> tensor<64x4096xf32> {
  %0 = fuse.mul %x, %y : tensor<64x4096xf32>
  %1 = fuse.add %0, %bias : tensor<64x4096xf32>, tensor<4096xf32> -> tensor<64x4096xf32>
  %2 = fuse.tanh %1 : tensor<64x4096xf32>
  return %2 : tensor<64x4096xf32>
}

// A non-splat constant is read like an input: 4 floats, 16 bytes.
// x is [N,4]: 4*N elements, 16*N bytes.
// fused: reads x (16*N) and the constant (16), writes 16*N.
// eager: mul reads 16*N + 16 writes 16*N; relu reads 16*N writes 16*N.
// CHECK-LABEL: @dense_constant  N = argument 0 dimension 0
// CHECK-NEXT:   fused: 1 kernel, 32*N + 16 bytes (read 16*N + 16, written 16*N)
// CHECK-NEXT:     kernel             ops       elements  read       written
// CHECK-NEXT:     fused_mul_relu_12  mul relu  4*N       16*N + 16  16*N
// CHECK-NEXT:   eager: 2 kernels, 64*N + 16 bytes (read 32*N + 16, written 32*N)
// CHECK-NEXT:     kernel   ops   elements  read       written
// CHECK-NEXT:     mul_31   mul   4*N       16*N + 16  16*N
// CHECK-NEXT:     relu_32  relu  4*N       16*N       16*N
// CHECK-NEXT:   fused vs eager: 1 vs 2 kernels, 32*N + 16 vs 64*N + 16 bytes (0.50x the traffic as the sizes grow)
func.func @dense_constant(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c = fuse.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = fuse.mul %x, %c : tensor<?x4xf32>, tensor<4xf32> -> tensor<?x4xf32>
  %1 = fuse.relu %0 : tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// A 0-d constant is folded into the kernel and reads nothing.
// fused: reads x (4*N), writes 4*N.
// eager: mul reads x only (4*N) writes 4*N; exp 4*N/4*N.
// CHECK-LABEL: @scalar_constant  N = argument 0 dimension 0
// CHECK-NEXT:   fused: 1 kernel, 8*N bytes (read 4*N, written 4*N)
// CHECK-NEXT:     kernel            ops      elements  read  written
// CHECK-NEXT:     fused_mul_exp_13  mul exp  N         4*N   4*N
// CHECK-NEXT:   eager: 2 kernels, 16*N bytes (read 8*N, written 8*N)
// CHECK-NEXT:     kernel  ops  elements  read  written
// CHECK-NEXT:     mul_33  mul  N         4*N   4*N
// CHECK-NEXT:     exp_34  exp  N         4*N   4*N
// CHECK-NEXT:   fused vs eager: 1 vs 2 kernels, 8*N vs 16*N bytes (0.50x the traffic)
func.func @scalar_constant(%x: tensor<?xf32>) -> tensor<?xf32> {
  %two = fuse.constant 2.0 : tensor<f32>
  %0 = fuse.mul %x, %two : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %1 = fuse.exp %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// A splat dense<...> constant reads nothing either. x is [N,4].
// fused: reads x (16*N), writes 16*N.
// eager: add 16*N/16*N, sigmoid 16*N/16*N.
// CHECK-LABEL: @splat_constant  N = argument 0 dimension 0
// CHECK-NEXT:   fused: 1 kernel, 32*N bytes (read 16*N, written 16*N)
// CHECK-NEXT:     kernel                ops          elements  read  written
// CHECK-NEXT:     fused_add_sigmoid_14  add sigmoid  4*N       16*N  16*N
// CHECK-NEXT:   eager: 2 kernels, 64*N bytes (read 32*N, written 32*N)
// CHECK-NEXT:     kernel      ops      elements  read  written
// CHECK-NEXT:     add_35      add      4*N       16*N  16*N
// CHECK-NEXT:     sigmoid_36  sigmoid  4*N       16*N  16*N
// CHECK-NEXT:   fused vs eager: 1 vs 2 kernels, 32*N vs 64*N bytes (0.50x the traffic)
func.func @splat_constant(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c = fuse.constant dense<0.5> : tensor<4xf32>
  %0 = fuse.add %x, %c : tensor<?x4xf32>, tensor<4xf32> -> tensor<?x4xf32>
  %1 = fuse.sigmoid %0 : tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// f64: 8 bytes per element.
// fused: reads a,b (16*N), writes 8*N.
// eager: div 16*N/8*N, log 8*N/8*N.
// CHECK-LABEL: @f64_div_log  N = argument 0 dimension 0
// CHECK-NEXT:   fused: 1 kernel, 24*N bytes (read 16*N, written 8*N)
// CHECK-NEXT:     kernel            ops      elements  read  written
// CHECK-NEXT:     fused_div_log_15  div log  N         16*N  8*N
// CHECK-NEXT:   eager: 2 kernels, 40*N bytes (read 24*N, written 16*N)
// CHECK-NEXT:     kernel  ops  elements  read  written
// CHECK-NEXT:     div_37  div  N         16*N  8*N
// CHECK-NEXT:     log_38  log  N         8*N   8*N
// CHECK-NEXT:   fused vs eager: 1 vs 2 kernels, 24*N vs 40*N bytes (0.60x the traffic)
func.func @f64_div_log(%a: tensor<?xf64>, %b: tensor<?xf64>) -> tensor<?xf64> {
  %0 = fuse.div %a, %b : tensor<?xf64>
  %1 = fuse.log %0 : tensor<?xf64>
  return %1 : tensor<?xf64>
}

// i64: 8 bytes per element.
// fused: reads a,b (16*N), writes 8*N.
// eager: max 16*N/8*N, clamp 8*N/8*N.
// CHECK-LABEL: @i64_max_clamp  N = argument 0 dimension 0
// CHECK-NEXT:   fused: 1 kernel, 24*N bytes (read 16*N, written 8*N)
// CHECK-NEXT:     kernel              ops        elements  read  written
// CHECK-NEXT:     fused_max_clamp_16  max clamp  N         16*N  8*N
// CHECK-NEXT:   eager: 2 kernels, 40*N bytes (read 24*N, written 16*N)
// CHECK-NEXT:     kernel    ops    elements  read  written
// CHECK-NEXT:     max_39    max    N         16*N  8*N
// CHECK-NEXT:     clamp_40  clamp  N         8*N   8*N
// CHECK-NEXT:   fused vs eager: 1 vs 2 kernels, 24*N vs 40*N bytes (0.60x the traffic)
func.func @i64_max_clamp(%a: tensor<?xi64>, %b: tensor<?xi64>) -> tensor<?xi64> {
  %0 = fuse.max %a, %b : tensor<?xi64>
  %1 = fuse.clamp %0 {max = 255 : i64} : tensor<?xi64>
  return %1 : tensor<?xi64>
}

// Only sizes that occur in a kernel are named: %u is unused, so N is the
// size of %x (argument 1).
// fused: reads x (4*N), writes 4*N. eager: the same, one kernel.
// CHECK-LABEL: @unused_size  N = argument 1 dimension 0
// CHECK-NEXT:   fused: 1 kernel, 8*N bytes (read 4*N, written 4*N)
// CHECK-NEXT:     kernel        ops  elements  read  written
// CHECK-NEXT:     neg_17  neg  N         4*N   4*N
// CHECK-NEXT:   eager: 1 kernel, 8*N bytes (read 4*N, written 4*N)
// CHECK-NEXT:     kernel  ops  elements  read  written
// CHECK-NEXT:     neg_41  neg  N         4*N   4*N
// CHECK-NEXT:   fused vs eager: 1 vs 1 kernel, 8*N vs 8*N bytes (1.00x the traffic)
func.func @unused_size(%u: tensor<?x?xf32>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.neg %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// The bias comes first: its size (argument 0) is x's second dimension, so that
// size is N, and x's rows (argument 1 dimension 0) are M.
// fused: reads x (4*N*M) and the bias (4*N), writes 4*N*M.
// eager: add reads 4*N*M + 4*N writes 4*N*M; relu 4*N*M/4*N*M.
// CHECK-LABEL: @bias_first  N = argument 0 dimension 0, M = argument 1 dimension 0
// CHECK-NEXT:   fused: 1 kernel, 8*N*M + 4*N bytes (read 4*N*M + 4*N, written 4*N*M)
// CHECK-NEXT:     kernel             ops       elements  read         written
// CHECK-NEXT:     fused_add_relu_18  add relu  N*M       4*N*M + 4*N  4*N*M
// CHECK-NEXT:   eager: 2 kernels, 16*N*M + 4*N bytes (read 8*N*M + 4*N, written 8*N*M)
// CHECK-NEXT:     kernel   ops   elements  read         written
// CHECK-NEXT:     add_42   add   N*M       4*N*M + 4*N  4*N*M
// CHECK-NEXT:     relu_43  relu  N*M       4*N*M        4*N*M
// CHECK-NEXT:   fused vs eager: 1 vs 2 kernels, 8*N*M + 4*N vs 16*N*M + 4*N bytes (0.50x the traffic as the sizes grow)
func.func @bias_first(%bias: tensor<?xf32>, %x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = fuse.add %x, %bias : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %1 = fuse.relu %0 : tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}

// An op whose result nothing uses is left out, with its size check, eager
// as fused: y keeps a size of its own (M), and the kernels their numbers.
// fused and eager: exp reads and writes 4*N, sin 4*M.
// CHECK-LABEL: @unused_op  N = argument 0 dimension 0, M = argument 1 dimension 0
// CHECK-NEXT:   fused: 2 kernels, 8*N + 8*M bytes (read 4*N + 4*M, written 4*N + 4*M)
// CHECK-NEXT:     kernel  ops  elements  read  written
// CHECK-NEXT:     exp_19  exp  N         4*N   4*N
// CHECK-NEXT:     sin_20  sin  M         4*M   4*M
// CHECK-NEXT:   eager: 2 kernels, 8*N + 8*M bytes (read 4*N + 4*M, written 4*N + 4*M)
// CHECK-NEXT:     kernel  ops  elements  read  written
// CHECK-NEXT:     exp_44  exp  N         4*N   4*N
// CHECK-NEXT:     sin_45  sin  M         4*M   4*M
// CHECK-NEXT:   fused vs eager: 2 vs 2 kernels, 8*N + 8*M vs 8*N + 8*M bytes (1.00x the traffic)
func.func @unused_op(%x: tensor<?xf32>, %y: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %a = fuse.exp %x : tensor<?xf32>
  %s = fuse.add %x, %y : tensor<?xf32>
  %b = fuse.sin %y : tensor<?xf32>
  return %a, %b : tensor<?xf32>, tensor<?xf32>
}

// A name that is no identifier is written as MLIR writes it, quoted and
// escaped (a newline in it broke the report's lines).
// CHECK-LABEL: @"a\22b\0A c"  N = argument 0 dimension 0
// CHECK-NEXT:   fused: 1 kernel, 8*N bytes (read 4*N, written 4*N)
func.func @"a\"b\n c"(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.neg %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// A reduction's `?` result that an add checks against a static 3: its
// operand is a cast of the argument to `3 x ?`, whose `?` is the
// argument's (the report could not size the kernel).
// CHECK-LABEL: @cast_operand  N = argument 0 dimension 1, P = pieces per row, N / 1024 rounded up to a power of 2 (at most 1024)
// CHECK-NEXT:   fused: 3 kernels, 12*N + 24*P + 48 bytes (read 12*N + 12*P + 24, written 12*P + 24)
// CHECK-NEXT:     kernel ops elements read written
// CHECK-NEXT:     reduce_sum_{{[0-9]+}}_pieces reduce_sum 3*N 12*N 12*P
func.func @cast_operand(%x: tensor<?x?xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %0 = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  %1 = fuse.add %0, %y : tensor<?xf32>, tensor<3xf32> -> tensor<3xf32>
  return %1 : tensor<3xf32>
}
