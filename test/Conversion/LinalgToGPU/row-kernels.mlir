// RUN: fuse-opt %s --fuse-pipeline=fused --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --fuse-map-to-gpu --canonicalize | FileCheck %s
// RUN: fuse-opt %s --fuse-pipeline=fused --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --fuse-map-to-gpu="cpu-threads=true vector-bytes=16" --canonicalize | FileCheck %s --check-prefix=CPU

// A kernel with reductions (here softmax, one fuse.group) is one launch
// with a warp per row: 32 threads per row, lane l taking elements l,
// l + 32, ... (contiguous across the warp). Each reduction accumulates in
// a register from its fill's value, the lanes combine with shuffles (lane
// i with i + 16, then 8, 4, 2, 1) and lane 0's value goes to every lane;
// exp(x - max) is computed again where each member reads it; only the
// result is stored: no buffer for the max, the exps or the sum.
// A row of at most 1024 elements stays in registers: each lane reads its
// elements once (l + 32 c for c < 32, each tested against the length),
// in the first pass, and the later passes use them. A longer row loops
// over the row in each pass, reading it again.

// CHECK-LABEL: func @softmax(
// CHECK-SAME: %[[X:.+]]: memref<?x?xf32>) -> memref<?x?xf32>
// CHECK-DAG: %[[ZERO:.+]] = arith.constant -0.000000e+00 : f32
// CHECK-DAG: %[[NEG_INF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[OUT:.+]] = memref.alloc(%{{.+}}, %{{.+}}) {alignment = 64 : i64} : memref<?x?xf32>
// CHECK-NOT: memref.alloc
// CHECK: %[[ROWS:.+]] = memref.dim %[[X]], %c0
// CHECK: %[[COLS:.+]] = memref.dim %[[X]], %c1
// CHECK: %[[THREADS:.+]] = arith.muli %[[ROWS]], %c32
// CHECK: %[[GRID:.+]] = arith.ceildivui %[[THREADS]], %c256
// CHECK: gpu.launch blocks(%[[B:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[GRID]], %{{.+}} = %c1{{.*}}) threads(%[[T:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %c256, {{.*}}) module(@fuse_kernels) function(@fused_reduce_max_sub_exp_reduce_sum_div_0)
// CHECK: %[[BASE:.+]] = arith.muli %[[B]], %c256
// CHECK: %[[THREAD:.+]] = arith.addi %[[BASE]], %[[T]]
// CHECK: %[[IN:.+]] = arith.cmpi ult, %[[THREAD]], %[[THREADS]]
// CHECK: scf.if %[[IN]] {
// CHECK: %[[ROW:.+]] = arith.divui %[[THREAD]], %c32
// CHECK: %[[LANE:.+]] = arith.remui %[[THREAD]], %c32
// CHECK: %[[FITS:.+]] = arith.cmpi ule, %[[COLS]], %c1024
// CHECK: scf.if %[[FITS]] {
// First pass: element l (max(-inf, x) folded to x), then l + 32, ...
// CHECK-NEXT: %[[IN0:.+]] = arith.cmpi ult, %[[LANE]], %[[COLS]]
// CHECK-NEXT: %[[E0:.+]]:2 = scf.if %[[IN0]] -> (f32, f32) {
// CHECK-NEXT: %[[V0:.+]] = memref.load %[[X]][%[[ROW]], %[[LANE]]]
// CHECK-NEXT: scf.yield %[[V0]], %[[V0]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %{{.+}}, %[[NEG_INF]]
// CHECK: %[[J1:.+]] = arith.addi %[[LANE]], %c32
// CHECK-NEXT: %[[IN1:.+]] = arith.cmpi ult, %[[J1]], %[[COLS]]
// CHECK-NEXT: %[[E1:.+]]:2 = scf.if %[[IN1]] -> (f32, f32) {
// CHECK-NEXT: %[[V1:.+]] = memref.load %[[X]][%[[ROW]], %[[J1]]]
// CHECK-NEXT: %[[M1:.+]] = arith.maximumf %[[E0]]#1, %[[V1]] : f32
// CHECK-NEXT: scf.yield %[[V1]], %[[M1]]
// CHECK-COUNT-14: memref.load %[[X]]
// CHECK: gpu.shuffle  down %{{.+}}, %c16_i32, %c32_i32 : f32
// CHECK: %[[MAX:.+]], %{{.+}} = gpu.shuffle  idx %{{.+}}, %c0_i32, %c32_i32 : f32
// Second pass: no load, the elements of the first.
// CHECK-NOT: memref.load
// CHECK: scf.if %[[IN0]] -> (f32) {
// CHECK-NEXT: %[[D0:.+]] = arith.subf %[[E0]]#0, %[[MAX]]
// CHECK-NEXT: math.exp %[[D0]]
// CHECK-NOT: memref.load
// CHECK: %[[SUM:.+]], %{{.+}} = gpu.shuffle  idx %{{.+}}, %c0_i32, %c32_i32 : f32
// Third pass: the result stored, element by element.
// CHECK-NOT: memref.load
// CHECK: scf.if %[[IN0]] {
// CHECK-NEXT: %[[D0:.+]] = arith.subf %[[E0]]#0, %[[MAX]]
// CHECK-NEXT: %[[X0:.+]] = math.exp %[[D0]]
// CHECK-NEXT: %[[R0:.+]] = arith.divf %[[X0]], %[[SUM]]
// CHECK-NEXT: memref.store %[[R0]], %[[OUT]][%[[ROW]], %[[LANE]]]
// CHECK-NOT: memref.load
// CHECK-COUNT-15: memref.store
// CHECK-NOT: memref.load
// CHECK: } else {
// CHECK-NEXT: %[[PART:.+]] = scf.for %[[J:.+]] = %[[LANE]] to %[[COLS]] step %c32 iter_args(%[[ACC:.+]] = %[[NEG_INF]]) -> (f32) {
// CHECK-NEXT: %[[V:.+]] = memref.load %[[X]][%[[ROW]], %[[J]]]
// CHECK-NEXT: %[[M:.+]] = arith.maximumf %[[ACC]], %[[V]] : f32
// CHECK-NEXT: scf.yield %[[M]]
// CHECK: %[[S16:.+]], %{{.+}} = gpu.shuffle  down %[[PART]], %c16_i32, %c32_i32 : f32
// CHECK-NEXT: %[[M16:.+]] = arith.maximumf %[[PART]], %[[S16]] : f32
// CHECK-NEXT: %[[S8:.+]], %{{.+}} = gpu.shuffle  down %[[M16]], %c8_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  down %{{.+}}, %c1_i32, %c32_i32 : f32
// CHECK-NEXT: %[[M1:.+]] = arith.maximumf
// CHECK-NEXT: %[[MAX:.+]], %{{.+}} = gpu.shuffle  idx %[[M1]], %c0_i32, %c32_i32 : f32
// The sum (a float sum) takes the row in blocks of 1048576, 32768 and
// 1024 elements, each from the identity, the lane's 32 elements of a block
// of 1024 in turn (the max is exact in any order: one loop).
// CHECK: %[[B3:.+]] = scf.for %[[L3:.+]] = %c0 to %[[COLS]] step %c1048576 iter_args(%[[A3:.+]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT: %[[N3:.+]] = arith.addi %[[L3]], %c1048576
// CHECK-NEXT: %[[E3:.+]] = arith.minui %[[N3]], %[[COLS]]
// CHECK-NEXT: %[[B2:.+]] = scf.for %[[L2:.+]] = %[[L3]] to %[[E3]] step %c32768 iter_args(%[[A2:.+]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT: %[[N2:.+]] = arith.addi %[[L2]], %c32768
// CHECK-NEXT: %[[E2:.+]] = arith.minui %[[N2]], %[[E3]]
// CHECK-NEXT: %[[B1:.+]] = scf.for %[[L1:.+]] = %[[L2]] to %[[E2]] step %c1024 iter_args(%[[A1:.+]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT: %[[N1:.+]] = arith.addi %[[L1]], %c1024
// CHECK-NEXT: %[[E1:.+]] = arith.minui %[[N1]], %[[E2]]
// CHECK-NEXT: %[[FIRST:.+]] = arith.addi %[[L1]], %[[LANE]]
// CHECK-NEXT: %[[SUMPART:.+]] = scf.for %[[J:.+]] = %[[FIRST]] to %[[E1]] step %c32 iter_args(%[[ACC:.+]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT: %[[V:.+]] = memref.load %[[X]][%[[ROW]], %[[J]]]
// CHECK-NEXT: %[[D:.+]] = arith.subf %[[V]], %[[MAX]]
// CHECK-NEXT: %[[E:.+]] = math.exp %[[D]]
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[ACC]], %[[E]]
// CHECK-NEXT: scf.yield %[[S]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[T1:.+]] = arith.addf %[[A1]], %[[SUMPART]]
// CHECK-NEXT: scf.yield %[[T1]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[T2:.+]] = arith.addf %[[A2]], %[[B1]]
// CHECK-NEXT: scf.yield %[[T2]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[T3:.+]] = arith.addf %[[A3]], %[[B2]]
// CHECK-NEXT: scf.yield %[[T3]]
// CHECK-NEXT: }
// CHECK-NEXT: gpu.shuffle  down %[[B3]], %c16_i32, %c32_i32 : f32
// CHECK: %[[SUM:.+]], %{{.+}} = gpu.shuffle  idx %{{.+}}, %c0_i32, %c32_i32 : f32
// CHECK: scf.for %[[J:.+]] = %[[LANE]] to %[[COLS]] step %c32 {
// CHECK-NEXT: %[[V:.+]] = memref.load %[[X]][%[[ROW]], %[[J]]]
// CHECK-NEXT: %[[D:.+]] = arith.subf %[[V]], %[[MAX]]
// CHECK-NEXT: %[[E:.+]] = math.exp %[[D]]
// CHECK-NEXT: %[[R:.+]] = arith.divf %[[E]], %[[SUM]]
// CHECK-NEXT: memref.store %[[R]], %[[OUT]][%[[ROW]], %[[J]]]
// CHECK-NOT: linalg.
// CHECK: return %[[OUT]]

// On the cpu target a thread takes 4 rows. Rows of at most 16 elements
// (tested at run time, with the group whole) are one masked vector of 16
// lanes each: no loop; each member runs for the 4 rows in turn, and the
// exp is computed once per row for both the sum and the result. Rows of up
// to 1024 go 2 at a time in 32 lanes; longer rows (and the last group) one
// at a time. A row in 32 lanes: lane i accumulates elements i, i + 32, ...;
// the last vector is masked to the row (lanes past it keep their value);
// the lanes combine pairwise, 16 apart, then 8, 4, 2, 1; the result's
// rest past the last whole vector is one masked store.
// CPU-LABEL: func @softmax(
// CPU-SAME: %[[X:.+]]: memref<?x?xf32>)
// CPU: %[[GROUPS:.+]] = arith.ceildivui %{{.+}}, %c4
// CPU: gpu.launch
// CPU: %[[BASE:.+]] = arith.muli %{{.+}}, %c4
// CPU: %[[WHOLE:.+]] = arith.cmpi eq, %{{.+}}, %c4
// CPU: %[[SHORT:.+]] = arith.cmpi ule, %[[COLS:.+]], %c16
// CPU: %[[BOTH:.+]] = arith.andi %[[WHOLE]], %[[SHORT]]
// CPU: scf.if %[[BOTH]] {
// CPU-NOT: scf.for
// CPU: %[[MASK16:.+]] = arith.cmpi ugt, %{{.+}}, %{{.+}} : vector<16xi64>
// CPU: vector.maskedload %[[X]][%[[BASE]], %c0], %[[MASK16]]
// CPU: arith.maximumf %{{.+}}, %{{.+}} : vector<8xf32>
// CPU-COUNT-3: vector.maskedload %[[X]]
// CPU-COUNT-4: math.exp %{{.+}} : vector<16xf32>
// CPU-NOT: math.exp
// CPU-COUNT-4: vector.maskedstore
// CPU-NOT: math.exp
// CPU: } else {
// CPU: %[[UPTO1024:.+]] = arith.cmpi ule, %[[COLS]], %c1024
// CPU: %[[MID:.+]] = arith.andi %[[WHOLE]], %[[UPTO1024]]
// CPU: scf.if %[[MID]] {
// CPU: scf.for %[[PAIR:.+]] = %[[BASE]] to %{{.+}} step %c2 {
// CPU: scf.for {{.*}} step %c32 iter_args({{.*}}) -> (vector<32xf32>) {
// CPU: vector.load %[[X]][%[[PAIR]],
// CPU: scf.for {{.*}} step %c32 iter_args({{.*}}) -> (vector<32xf32>) {
// CPU: } else {
// CPU: scf.for %[[ROW:.+]] = %[[BASE]] to %{{.+}} step %c1 {
// CPU: %[[REM:.+]] = arith.remui %[[COLS]], %c32
// CPU: %[[END:.+]] = arith.subi %[[COLS]], %[[REM]]
// CPU: %[[VMAX:.+]] = scf.for %[[J:.+]] = %c0 to %[[END]] step %c32 iter_args(%[[ACC:.+]] = %{{.+}}) -> (vector<32xf32>) {
// CPU-NEXT: %[[V:.+]] = vector.load %[[X]][%[[ROW]], %[[J]]] {alignment = 4 : i64} : memref<?x?xf32>, vector<32xf32>
// CPU-NEXT: %[[M:.+]] = arith.maximumf %[[ACC]], %[[V]] : vector<32xf32>
// CPU-NEXT: scf.yield %[[M]]
// CPU: %[[COUNT:.+]] = arith.subi %[[COLS]], %[[END]]
// CPU: %[[COUNT64:.+]] = arith.index_castui %[[COUNT]] : index to i64
// CPU: %[[SPLAT:.+]] = vector.broadcast %[[COUNT64]] : i64 to vector<32xi64>
// CPU: %[[MASK:.+]] = arith.cmpi ugt, %[[SPLAT]], %{{.+}} : vector<32xi64>
// CPU: %[[LAST:.+]] = vector.maskedload %[[X]][%[[ROW]], %[[END]]], %[[MASK]], %{{.+}} {alignment = 4 : i64}
// CPU: %[[NEXT:.+]] = arith.maximumf %[[VMAX]], %[[LAST]] : vector<32xf32>
// CPU: %[[LANES:.+]] = arith.select %[[MASK]], %[[NEXT]], %[[VMAX]]
// CPU: %[[LOW:.+]] = vector.shuffle %[[LANES]], %[[LANES]] [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
// CPU: %[[HIGH:.+]] = vector.shuffle %[[LANES]], %[[LANES]] [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]
// CPU: arith.maximumf %[[LOW]], %[[HIGH]] : vector<16xf32>
// CPU: arith.maximumf %{{.+}}, %{{.+}} : vector<8xf32>
// CPU: arith.maximumf %{{.+}}, %{{.+}} : vector<4xf32>
// CPU: arith.maximumf %{{.+}}, %{{.+}} : vector<2xf32>
// CPU: %[[ONE:.+]] = arith.maximumf %{{.+}}, %{{.+}} : vector<1xf32>
// CPU: %[[MAX:.+]] = vector.extract %[[ONE]][0]
// CPU: scf.for {{.*}} step %c32 iter_args({{.*}}) -> (vector<32xf32>) {
// CPU: math.exp %{{.+}} : vector<32xf32>
// CPU: arith.addf %{{.+}}, %{{.+}} : vector<32xf32>
// CPU: vector.maskedload
// CPU: %[[STORED:.+]] = arith.subi %[[COLS]], %{{.+}} : index
// CPU: scf.for %[[K:.+]] = %c0 to %[[STORED]] step %c32 {
// CPU: arith.divf %{{.+}}, %{{.+}} : vector<32xf32>
// CPU: vector.store %{{.+}}, %{{.+}}[%[[ROW]], %[[K]]]
// CPU: %[[REST:.+]] = arith.cmpi ult, %[[STORED]], %[[COLS]]
// CPU: scf.if %[[REST]] {
// CPU: %[[TAIL:.+]] = arith.cmpi ugt, %{{.+}}, %{{.+}} : vector<32xi64>
// CPU: vector.maskedload %[[X]][%[[ROW]], %[[STORED]]], %[[TAIL]]
// CPU: arith.divf %{{.+}}, %{{.+}} : vector<32xf32>
// CPU: vector.maskedstore %{{.+}}[%[[ROW]], %[[STORED]]], %[[TAIL]]
// CPU-NOT: memref.store
// CPU: gpu.terminator
func.func @softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %d = fuse.sub %x, %m : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %e = fuse.exp %d : tensor<?x?xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %r = fuse.div %e, %s : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// A 64-bit accumulator takes a warp per row as a 32-bit one does: its
// shuffles are of f64 (each becomes two of 32 bits before convert-gpu-to-
// nvvm); the row in registers up to 512 elements (each takes two), else
// looped. A thread per row with the 32 partial accumulators in a vector
// took 140 to 255 registers.
// CHECK-LABEL: func @sum_f64(
// CHECK: gpu.launch
// CHECK-COUNT-5: gpu.shuffle  down %{{.+}}, %c{{[0-9]+}}_i32, %c32_i32 : f64
// CHECK: gpu.shuffle  idx %{{.+}}, %c0_i32, %c32_i32 : f64
// CHECK: memref.store
// CHECK: scf.for %{{.+}} step %c32 iter_args(%{{.+}} = %{{.+}}) -> (f64) {
// CHECK-COUNT-5: gpu.shuffle  down %{{.+}}, %c{{[0-9]+}}_i32, %c32_i32 : f64
// CHECK: gpu.shuffle  idx %{{.+}}, %c0_i32, %c32_i32 : f64
// CPU-LABEL: func @sum_f64(
// CPU: vector<32xf64>
func.func @sum_f64(%x: tensor<?x?xf64>) -> tensor<?xf64> {
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?xf64> -> tensor<?xf64>
  return %s : tensor<?xf64>
}

// A constant number of rows below 132 (here one: a full reduction) is
// split (RowForm::split): the host counts the pieces of the row, P = n /
// 1024 rounded up to a power of two, at most 4096; the first launch gives
// each of the P pieces of ceil(n / P) elements a warp, which reduces its
// piece from the identity (the square computed in its loop) and stores the
// value in a buffer of P; the second reduces that buffer as a row, a warp
// (in registers up to 1024), and stores the sum.

// CHECK-LABEL: func @sum_squares(
// CHECK-SAME: %[[X:.+]]: memref<?xf32>) -> memref<f32>
// CHECK: %[[N:.+]] = memref.dim %[[X]], %c0
// CHECK: %[[SUM:.+]] = memref.alloc() {alignment = 64 : i64} : memref<f32>
// CHECK: %[[LONGER:.+]] = arith.cmpi ugt, %[[N]], %c1024
// CHECK: arith.select %[[LONGER]], %c2, %c1
// CHECK: arith.cmpi ugt, %[[N]], %c2097152
// CHECK: %[[P:.+]] = arith.select %{{.+}}, %c4096, %{{.+}}
// CHECK: %[[PIECES:.+]] = memref.alloc(%[[P]]) {alignment = 16 : i64} : memref<?xf32>
// CHECK: %[[THREADS:.+]] = arith.muli %[[P]], %c32
// CHECK: %[[LEN:.+]] = arith.ceildivui %[[N]], %[[P]]
// CHECK: gpu.launch {{.*}} function(@fused_mul_reduce_sum_{{[0-9]+}}_pieces)
// CHECK: arith.cmpi ult, %[[THREAD:.+]], %[[THREADS]]
// CHECK: %[[WARP:.+]] = arith.divui %[[THREAD]], %c32
// CHECK: %[[LANE:.+]] = arith.remui %[[THREAD]], %c32
// CHECK: %[[PIECE:.+]] = arith.remui %[[WARP]], %[[P]]
// CHECK: %[[START:.+]] = arith.muli %[[PIECE]], %[[LEN]]
// CHECK: %[[LO:.+]] = arith.minui %[[START]], %[[N]]
// CHECK: %[[END:.+]] = arith.addi %[[LO]], %[[LEN]]
// CHECK: %[[HI:.+]] = arith.minui %[[END]], %[[N]]
// CHECK: scf.for %{{.+}} = %[[LO]] to %[[HI]] step %c1048576
// CHECK: scf.for %{{.+}} step %c32768
// CHECK: scf.for %[[BLOCK:.+]] = %{{.+}} step %c1024
// CHECK: %[[FIRST:.+]] = arith.addi %[[BLOCK]], %[[LANE]]
// CHECK: scf.for %[[J:.+]] = %[[FIRST]] to %{{.+}} step %c32 iter_args(%{{.+}} = %cst) -> (f32) {
// CHECK: memref.load %[[X]][%[[J]]]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-COUNT-5: gpu.shuffle down
// CHECK: %[[PART:.+]], %{{.+}} = gpu.shuffle idx
// CHECK: scf.if
// CHECK-NEXT: memref.store %[[PART]], %[[PIECES]][%[[PIECE]]] : memref<?xf32>
// CHECK: gpu.launch blocks({{.*}}) in (%{{.+}} = %c1, {{.*}} function(@fused_mul_reduce_sum_{{[0-9]+}})
// CHECK: arith.cmpi ule, %[[P]], %c1024
// CHECK: memref.load %[[PIECES]]
// CHECK: } else {
// CHECK: scf.for %{{.+}} = %c0 to %[[P]] step %c1048576
// CHECK: scf.for %[[BLOCK:.+]] = %{{.+}} step %c1024
// CHECK: %[[FIRST:.+]] = arith.addi %[[BLOCK]], %[[LANE2:[0-9]+]] : index
// CHECK: scf.for %[[K:.+]] = %[[FIRST]] to %{{.+}} step %c32
// CHECK-NEXT: memref.load %[[PIECES]][%[[K]]]
// CHECK-COUNT-5: gpu.shuffle down
// CHECK: %[[TOTAL:.+]], %{{.+}} = gpu.shuffle idx
// CHECK: memref.store %[[TOTAL]], %[[SUM]][] : memref<f32>

// CPU-LABEL: func @sum_squares(
// CPU: function(@fused_mul_reduce_sum_{{[0-9]+}}_pieces)
// CPU: vector.load
// CPU: vector.maskedload
// CPU: memref.store %{{.+}}, %{{.+}}[%{{.+}}] : memref<?xf32>
// CPU: function(@fused_mul_reduce_sum_{{[0-9]+}})
func.func @sum_squares(%x: tensor<?xf32>) -> tensor<f32> {
  %sq = fuse.mul %x, %x : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  %s = fuse.reduce_sum %sq {dims = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// The one-launch form of few rows in pieces: row-pieces-one-launch.mlir.

// Columns (dims = [0] of an N x 4 matrix): 4 rows not read in lanes, split
// too, in at most 262144 / 4 = 65536 pieces each (a thread per piece). The
// partial sums take the place of the reduced dimension (pieces x 4):
// neighbouring threads on neighbouring columns of the same piece (column =
// thread mod 4, piece = thread / 4) sum their pieces one element after the
// other and store neighbours; then a thread per column sums its pieces one
// after the other, neighbouring threads reading neighbours.

// CHECK-LABEL: func @columns(
// CHECK-SAME: %[[X:.+]]: memref<?x4xf32>) -> memref<4xf32>
// CHECK: %[[P:.+]] = arith.select %{{.+}}, %c65536, %{{.+}}
// CHECK: %[[PIECES:.+]] = memref.alloc(%[[P]]) {alignment = 16 : i64} : memref<?x4xf32>
// CHECK: function(@reduce_sum_{{[0-9]+}}_pieces)
// CHECK: %[[PIECE:.+]] = arith.divui %[[THREAD:.+]], %c4
// CHECK: %[[COLUMN:.+]] = arith.remui %[[THREAD]], %c4
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %c1 iter_args
// CHECK-NEXT: memref.load %[[X]][%[[I]], %[[COLUMN]]]
// CHECK: memref.store %{{.+}}, %[[PIECES]][%[[PIECE]], %[[COLUMN]]]
// CHECK: function(@reduce_sum_{{[0-9]+}})
// CHECK: scf.for %[[Q:.+]] = %c0 to %[[P]] step %c1 iter_args
// CHECK-NEXT: memref.load %[[PIECES]][%[[Q]], %{{.+}}]
func.func @columns(%x: tensor<?x4xf32>) -> tensor<4xf32> {
  %s = fuse.reduce_sum %x {dims = array<i64: 0>} : tensor<?x4xf32> -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// On the cpu target a thread takes a piece of 32 neighbouring columns at
// once (a group; the columns, a dynamic number, are in pieces): their sums
// step through the piece's rows together, each column's order unchanged
// (the same bits), in one loop with 32 accumulators, which LLVM's SLP
// vectorizer makes vector code; a last group that is not whole takes its
// columns 4 at a time together, then the rest (fewer than 4) one at a
// time. Fewer columns than a group, a constant number, are one group
// (@few_column_max, below). A launch that reads fewer than 65536 elements is one block
// (the calling thread's); more go 64 rows (2 groups) to a block at most,
// fewer when that makes fewer than 64 blocks (a few groups of long
// columns took two blocks or one, and one core), whose blocks the OpenMP
// threads share.
// CPU-LABEL: func @column_sums(
// CPU: %[[GROUPS:.+]] = arith.ceildivui %{{.+}}, %c32
// CPU: %[[THREADS:.+]] = arith.muli %[[GROUPS]], %{{.+}} :
// CPU: %[[WORK:.+]] = arith.muli
// CPU: %[[LITTLE:.+]] = arith.cmpi ult, %[[WORK]], %c65536
// CPU: %[[SHARE:.+]] = arith.ceildivui %[[THREADS]], %c64
// CPU: %[[AT_MOST:.+]] = arith.minui %[[SHARE]], %c2
// CPU: %[[ALL:.+]] = arith.maxui %[[THREADS]], %c1
// CPU: %[[SOME:.+]] = arith.maxui %[[AT_MOST]], %c1
// CPU: %[[PER:.+]] = arith.select %[[LITTLE]], %[[ALL]], %[[SOME]]
// CPU: %[[GRID:.+]] = arith.ceildivui %[[THREADS]], %[[PER]]
// CPU: gpu.launch blocks({{.*}}) in (%{{.+}} = %[[GRID]], {{.*}}) threads({{.*}}) in (%{{.+}} = %[[PER]], {{.*}} function(@reduce_sum_{{[0-9]+}}_pieces)
// CPU: arith.cmpi ult, %[[THREAD:.+]], %[[THREADS]]
// CPU: %[[GROUP:.+]] = arith.remui %[[THREAD]], %[[GROUPS]]
// CPU: %[[BASE:.+]] = arith.muli %[[GROUP]], %c32
// CPU: %[[END:.+]] = arith.addi %[[BASE]], %c32
// CPU: %[[WHOLE:.+]] = arith.cmpi ule, %[[END]], %[[POINTS:.+]] :
// CPU: scf.if %[[WHOLE]] {
// CPU: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c1 iter_args({{(%[^,]+ = %cst, ){31}()}}%{{.+}} = %cst) -> ({{(f32, ){31}()}}f32) {
// CPU-COUNT-32: arith.addf
// CPU: scf.yield
// CPU-COUNT-32: memref.store
// CPU: } else {
// CPU: %[[REST:.+]] = arith.subi %[[POINTS]], %[[BASE]]
// CPU: %[[FOURS:.+]] = arith.divui %[[REST]], %c4
// CPU: %[[SPAN:.+]] = arith.muli %[[FOURS]], %c4
// CPU: %[[SPLIT:.+]] = arith.addi %[[BASE]], %[[SPAN]]
// CPU: scf.for %[[F:.+]] = %[[BASE]] to %[[SPLIT]] step %c4 {
// CPU: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c1 iter_args({{(%[^,]+ = %cst, ){3}()}}%{{.+}} = %cst) -> ({{(f32, ){3}()}}f32) {
// CPU-COUNT-4: arith.addf
// CPU: scf.yield
// CPU-COUNT-4: memref.store
// CPU: scf.for %[[W:.+]] = %[[SPLIT]] to %[[POINTS]] step %c1 {
// CPU: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c1 iter_args(%{{.+}} = %cst) -> (f32) {
// CPU: function(@reduce_sum_{{[0-9]+}})
func.func @column_sums(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %s = fuse.reduce_sum %x {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<?xf32>
  return %s : tensor<?xf32>
}

// An exact combiner (a float max: the same bits in any order) takes 2
// elements of the rows at a time into 2 sets of the group's 32
// accumulators, whose chains of dependent steps overlap (a NaN-propagating
// max is 6 instructions deep on AVX-512); the sets are combined, then the
// element left goes alone. A float sum (@column_sums) keeps its one set
// and its order.
// CPU-LABEL: func @column_max(
// CPU-SAME: %[[X:.+]]: memref<?x?xf32>)
// CPU: function(@reduce_max_{{[0-9]+}}_pieces)
// CPU: scf.if %{{.+}} {
// CPU: %[[COUNT:.+]] = arith.subi %[[UPPER:.+]], %[[LOWER:.+]] : index
// CPU: %[[TWOS:.+]] = arith.divui %[[COUNT]], %c2 : index
// CPU: %[[SPAN:.+]] = arith.muli %[[TWOS]], %c2 : index
// CPU: %[[SPLIT:.+]] = arith.addi %[[LOWER]], %[[SPAN]] : index
// CPU: %[[SETS:.+]]:64 = scf.for %[[I:.+]] = %[[LOWER]] to %[[SPLIT]] step %c2 iter_args({{(%[^,]+ = %cst, ){63}()}}%{{.+}} = %cst) -> ({{(f32, ){63}()}}f32) {
// CPU: memref.prefetch %[[X]][%[[I]], %{{.+}}], read, locality<3>, data : memref<?x?xf32>
// CPU-NEXT: memref.load %[[X]][%[[I]], %{{.+}}]
// CPU-NEXT: arith.maximumf
// CPU-COUNT-63: arith.maximumf
// CPU: scf.yield
// CPU-NEXT: }
// CPU-NEXT: arith.maximumf %[[SETS]]#0, %[[SETS]]#32 : f32
// CPU-COUNT-31: arith.maximumf
// CPU: scf.for %{{.+}} = %[[SPLIT]] to %[[UPPER]] step %c1 iter_args(
// CPU-COUNT-32: arith.maximumf
// CPU: scf.yield
// CPU-COUNT-32: memref.store
// CPU: } else {
func.func @column_max(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %s = fuse.reduce_max %x {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<?xf32>
  return %s : tensor<?xf32>
}

// No column at all: a group of no point, with no code (it crashed), and
// launches over nothing, which canonicalization drops.
// CPU-LABEL: func @no_column_max(
// CPU-NOT: math.exp
// CPU: return %{{.+}} : memref<0xf32>
func.func @no_column_max(%x: tensor<?x0xf32>) -> tensor<0xf32> {
  %e = fuse.exp %x : tensor<?x0xf32>
  %s = fuse.reduce_max %e {dims = array<i64: 0>} : tensor<?x0xf32> -> tensor<0xf32>
  return %s : tensor<0xf32>
}

// Fewer columns than a group, a constant count: a thread per piece takes
// them all together, a row at a time (the SLP vectorizer's vector loads,
// where each column's own thread read its elements alone), and a max 4
// elements of each at a time, about 8 chains in all (fewer points take
// more elements each).
// CPU-LABEL: func @few_column_max(
// CPU-SAME: %[[X:.+]]: memref<?x3xf32>)
// CPU: function(@reduce_max_{{[0-9]+}}_pieces)
// CPU-NOT: arith.remui
// CPU: scf.for %{{.+}} step %c4 iter_args({{(%[^,]+ = %cst, ){11}()}}%{{.+}} = %cst) -> ({{(f32, ){11}()}}f32) {
// CPU-COUNT-12: arith.maximumf
// CPU: scf.yield
// CPU: function(@reduce_max_{{[0-9]+}})
func.func @few_column_max(%x: tensor<?x3xf32>) -> tensor<3xf32> {
  %s = fuse.reduce_max %x {dims = array<i64: 0>} : tensor<?x3xf32> -> tensor<3xf32>
  return %s : tensor<3xf32>
}

// The last group of a dynamic count of columns that is not whole takes
// them one at a time: 8 elements at a time into 8 accumulators, then the
// rest, fewer than 8, in one step of each (read at the piece's last element at
// most, kept where in the piece), and combines the 8 pairwise: 4 apart,
// then 2, then 1. A max one element at a time was a chain of a dozen
// cycles per element.
// CPU-LABEL: func @column_max_rest(
// CPU-SAME: %[[X:.+]]: memref<?x?xf32>)
// CPU: function(@reduce_max_{{[0-9]+}}_pieces)
// CPU: %[[SPAN:.+]] = arith.muli %{{.+}}, %c8 : index
// CPU-NEXT: %[[SPLIT:.+]] = arith.addi %[[LOWER:.+]], %[[SPAN]] : index
// CPU-NEXT: %[[SETS:.+]]:8 = scf.for %[[I:.+]] = %[[LOWER]] to %[[SPLIT]] step %c8 iter_args({{(%[^,]+ = %cst, ){7}()}}%{{.+}} = %cst) -> ({{(f32, ){7}()}}f32) {
// CPU-COUNT-8: arith.maximumf
// CPU: scf.yield
// CPU-NEXT: }
// CPU-NEXT: %[[ANY:.+]] = arith.cmpi ult, %[[SPLIT]], %[[UPPER:.+]] : index
// CPU-NEXT: %[[REST:.+]]:8 = scf.if %[[ANY]] -> ({{(f32, ){7}()}}f32) {
// CPU-NEXT: %[[LAST:.+]] = arith.subi %[[UPPER]], %c1 : index
// CPU-NEXT: %[[IN:.+]] = arith.cmpi ult, %[[SPLIT]], %[[UPPER]] : index
// CPU-NEXT: %[[AT:.+]] = arith.minui %[[SPLIT]], %[[LAST]] : index
// CPU-NEXT: %[[V:.+]] = memref.load %[[X]][%[[AT]], %{{.+}}] : memref<?x?xf32>
// CPU-NEXT: %[[M:.+]] = arith.maximumf %[[SETS]]#0, %[[V]] : f32
// CPU-NEXT: arith.select %[[IN]], %[[M]], %[[SETS]]#0 : f32
// CPU-COUNT-7: arith.select
// CPU: } else {
// CPU-NEXT: scf.yield %[[SETS]]#0, %[[SETS]]#1,
// CPU: %[[A0:.+]] = arith.maximumf %[[REST]]#0, %[[REST]]#4 : f32
// CPU-NEXT: %[[A1:.+]] = arith.maximumf %[[REST]]#1, %[[REST]]#5 : f32
// CPU-NEXT: %[[A2:.+]] = arith.maximumf %[[REST]]#2, %[[REST]]#6 : f32
// CPU-NEXT: %[[A3:.+]] = arith.maximumf %[[REST]]#3, %[[REST]]#7 : f32
// CPU-NEXT: %[[B0:.+]] = arith.maximumf %[[A0]], %[[A2]] : f32
// CPU-NEXT: %[[B1:.+]] = arith.maximumf %[[A1]], %[[A3]] : f32
// CPU-NEXT: arith.maximumf %[[B0]], %[[B1]] : f32
func.func @column_max_rest(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %s = fuse.reduce_max %x {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<?xf32>
  return %s : tensor<?xf32>
}

// Over two kept loops that do not merge (a sum over dimension 1 of `A x B
// x C`), a group within one row of the innermost kept loop (C) steps along
// it: the 32
// points share the first one's division and their loads are contiguous
// (the SLP vectorizer's vector loads; each point's own division hid that,
// and the sums were scalar code). A group across a row's end takes the
// points' divisions one by one. At each row, the group's first point
// prefetches the next group's first element (32 columns on, the row's last
// at most): neighbouring threads take neighbouring groups of the same rows.
// CPU-LABEL: func @sum_middle(
// CPU-SAME: %[[X:.+]]: memref<?x?x?xf32>)
// CPU: function(@reduce_sum_{{[0-9]+}}_pieces)
// CPU: %[[BASE:.+]] = arith.muli %{{.+}}, %c32
// CPU: scf.if %{{.+}} {
// CPU: %[[FIRST:.+]] = arith.remui %[[BASE]], %[[C:.+]] :
// CPU: %[[END:.+]] = arith.addi %[[FIRST]], %c32
// CPU: %[[WITHIN:.+]] = arith.cmpi ule, %[[END]], %[[C]]
// CPU: scf.if %[[WITHIN]] {
// CPU-NOT: arith.remui
// CPU: %[[NEXT:.+]] = arith.addi %[[FIRST]], %c1
// CPU-NOT: arith.remui
// CPU: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %c1 iter_args({{(%[^,]+ = %cst, ){31}()}}%{{.+}} = %cst) -> ({{(f32, ){31}()}}f32) {
// CPU-NEXT: %[[LAST:.+]] = memref.dim %[[X]], %c2 : memref<?x?x?xf32>
// CPU-NEXT: %[[LASTINDEX:.+]] = arith.subi %[[LAST]], %c1 : index
// CPU-NEXT: %[[AHEAD:.+]] = arith.addi %[[FIRST]], %c32 : index
// CPU-NEXT: %[[AT:.+]] = arith.minui %[[AHEAD]], %[[LASTINDEX]] : index
// CPU-NEXT: memref.prefetch %[[X]][%[[ROW:.+]], %[[I]], %[[AT]]], read, locality<3>, data : memref<?x?x?xf32>
// CPU-NEXT: memref.load %[[X]][%[[ROW]], %[[I]], %[[FIRST]]]
// CPU-NEXT: arith.addf
// CPU-NEXT: memref.load %[[X]][%{{.+}}, %[[I]], %[[NEXT]]]
// CPU: } else {
// CPU-COUNT-32: arith.remui
// CPU: } else {
func.func @sum_middle(%x: tensor<?x?x?xf32>) -> tensor<?x?xf32> {
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?x?xf32> -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}

// A math function in the group expands to dozens of ops per point on the
// cpu target: with a pow, the group keeps one form, the points' divisions
// one by one (the stepped form, a second copy of the group's code, made a
// group with a pow take minutes to canonicalize). An exp, a tanh or a log
// counts 2 ops (kSteppedGroupOps): an exp before the sum takes both forms,
// and the SLP vectorizer's vector code (`exp(x).sum(0)` of `2 x 8 x 256 x
// 256` on the cpu target: 2.47 ms with one form, 0.89 with both; eager,
// an exp kernel and a sum, 0.72).
// CPU-LABEL: func @pow_middle(
// CPU: function(@fused_pow_reduce_sum_{{[0-9]+}}_pieces)
// CPU: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c1 iter_args({{(%[^,]+ = %cst, ){31}()}}%{{.+}} = %cst) -> ({{(f32, ){31}()}}f32) {
// CPU-NOT: iter_args({{(%[^,]+ = %cst, ){31}()}}
// CPU: function(@fused_pow_reduce_sum_{{[0-9]+}})
func.func @pow_middle(%x: tensor<?x?x?xf32>) -> tensor<?x?xf32> {
  %e = fuse.pow %x, %x : tensor<?x?x?xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<?x?x?xf32> -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}
// CPU-LABEL: func @exp_middle(
// CPU: function(@fused_exp_reduce_sum_{{[0-9]+}}_pieces)
// CPU: scf.if %{{.+}} {
// CPU: scf.if %{{.+}} {
// CPU: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c1 iter_args({{(%[^,]+ = %cst, ){31}()}}%{{.+}} = %cst) -> ({{(f32, ){31}()}}f32) {
// CPU: } else {
// CPU: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c1 iter_args({{(%[^,]+ = %cst, ){31}()}}%{{.+}} = %cst) -> ({{(f32, ){31}()}}f32) {
// CPU: function(@fused_exp_reduce_sum_{{[0-9]+}})
func.func @exp_middle(%x: tensor<?x?x?xf32>) -> tensor<?x?xf32> {
  %e = fuse.exp %x : tensor<?x?x?xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<?x?x?xf32> -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}

// Kept loops next to each other that every member reads alike merge into
// one (a sum over dimension 0 of `A x B x C` is one over dimension 0 of `A
// x (B * C)`: a column sum, whose groups of points are contiguous), in the
// members over the kept loops alone too (a mean's division, over `B * C`);
// the reduced loop stays as it is. A member that reads the kept loops
// unlike the others (a weight per `B`, broadcast along C) keeps them apart.
// CPU-LABEL: func @mean_outer(
// CPU-SAME: %[[X:.+]]: memref<?x?x?xf32>)
// CPU-DAG: %[[IN:.+]] = memref.collapse_shape %[[X]] {{\[}}[0], [1, 2]] : memref<?x?x?xf32> into memref<?x?xf32>
// CPU-DAG: %[[OUT:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0, 1]] : memref<?x?xf32> into memref<?xf32>
// CPU: function(@reduce_mean_{{[0-9]+}}_pieces)
// CPU-NOT: memref<?x?x?xf32>
// CPU: memref.load %[[IN]][%{{.+}}, %{{.+}}] : memref<?x?xf32>
// CPU: function(@reduce_mean_{{[0-9]+}})
// CPU: arith.divf
// CPU: memref.store %{{.+}}, %[[OUT]][%{{.+}}] : memref<?xf32>
// CPU-LABEL: func @weighted_sum_outer(
// CPU-NOT: memref.collapse_shape
// CPU: function(@fused_mul_reduce_sum_{{[0-9]+}}_pieces)
func.func @mean_outer(%x: tensor<?x?x?xf32>) -> tensor<?x?xf32> {
  %s = fuse.reduce_mean %x {dims = array<i64: 0>} : tensor<?x?x?xf32> -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}
func.func @weighted_sum_outer(%x: tensor<?x?x?xf32>, %w: tensor<?x1xf32>) -> tensor<?x?xf32> {
  %m = fuse.mul %x, %w : tensor<?x?x?xf32>, tensor<?x1xf32> -> tensor<?x?x?xf32>
  %s = fuse.reduce_sum %m {dims = array<i64: 0>} : tensor<?x?x?xf32> -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}

// A constant length of at most 16: a vector of as many lanes as the length
// rounded up to a power of two (at least 4), the mask a constant, no test
// of the length at run time; a whole group of 4 rows each in turn, the
// last group one row at a time, the same code.
// CPU-LABEL: func @short_rows(
// CPU-SAME: %[[X:.+]]: memref<?x3xf32>)
// CPU-DAG: %[[MASK:.+]] = arith.constant dense<[true, true, true, false]> : vector<4xi1>
// CPU: gpu.launch
// CPU: %[[BASE:.+]] = arith.muli %{{.+}}, %c4
// CPU-NOT: %c16
// CPU: %[[WHOLE:.+]] = arith.cmpi eq, %{{.+}}, %c4
// CPU-NEXT: scf.if %[[WHOLE]] {
// CPU-NOT: scf.for
// CPU: vector.maskedload %[[X]][%[[BASE]], %c0], %[[MASK]], %{{.+}} : memref<?x3xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CPU: arith.addf %{{.+}}, %{{.+}} : vector<2xf32>
// CPU: memref.store
// CPU-COUNT-3: vector.maskedload %[[X]]
// CPU: } else {
// CPU-NEXT: scf.for %[[ROW:.+]] = %[[BASE]] to %{{.+}} step %c1 {
// CPU-NEXT: vector.maskedload %[[X]][%[[ROW]], %c0], %[[MASK]]
func.func @short_rows(%x: tensor<?x3xf32>) -> tensor<?x1xf32> {
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x3xf32> -> tensor<?x1xf32>
  return %s : tensor<?x1xf32>
}

// A constant length up to 1024 is in registers with no test of the length
// at run time: 100 elements are 4 per lane, the first 3 in the row for
// every lane, the last (l + 96) tested against 100; each read once.
// CHECK-LABEL: func @registers_100(
// CHECK-SAME: %[[X:.+]]: memref<?x100xf32>)
// CHECK: gpu.launch
// CHECK: %[[LANE:.+]] = arith.remui %{{.+}}, %c32
// CHECK-NOT: %c1024
// CHECK-NEXT: %[[V0:.+]] = memref.load %[[X]][%[[ROW:.+]], %[[LANE]]]
// CHECK-NEXT: %[[J1:.+]] = arith.addi %[[LANE]], %c32
// CHECK-NEXT: %[[V1:.+]] = memref.load %[[X]][%[[ROW]], %[[J1]]]
// CHECK-NEXT: %[[S1:.+]] = arith.addf %[[V0]], %[[V1]]
// CHECK-NEXT: %[[J2:.+]] = arith.addi %[[LANE]], %c64
// CHECK-NEXT: %[[V2:.+]] = memref.load %[[X]][%[[ROW]], %[[J2]]]
// CHECK-NEXT: %[[S2:.+]] = arith.addf %[[S1]], %[[V2]]
// CHECK-NEXT: %[[J3:.+]] = arith.addi %[[LANE]], %c96
// CHECK-NEXT: %[[IN3:.+]] = arith.cmpi ult, %[[J3]], %c100
// CHECK-NEXT: %[[E3:.+]]:2 = scf.if %[[IN3]] -> (f32, f32) {
// CHECK-NEXT: %[[V3:.+]] = memref.load %[[X]][%[[ROW]], %[[J3]]]
// CHECK-NEXT: %[[S3:.+]] = arith.addf %[[S2]], %[[V3]]
// CHECK-NEXT: scf.yield %[[V3]], %[[S3]]
// CHECK: %[[SUM:.+]], %{{.+}} = gpu.shuffle  idx
// CHECK-NOT: memref.load
// CHECK: %[[Y0:.+]] = arith.divf %[[V0]], %[[SUM]]
// CHECK-NEXT: memref.store %[[Y0]], %{{.+}}[%[[ROW]], %[[LANE]]]
// CHECK-NOT: memref.load
// CHECK: scf.if %[[IN3]] {
// CHECK-NEXT: %[[Y3:.+]] = arith.divf %[[E3]]#0, %[[SUM]]
// CHECK-NEXT: memref.store %[[Y3]], %{{.+}}[%[[ROW]], %[[J3]]]
// CHECK-NOT: memref.load
// CHECK: return
func.func @registers_100(%x: tensor<?x100xf32>) -> tensor<?x100xf32> {
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x100xf32> -> tensor<?x1xf32>
  %y = fuse.div %x, %s : tensor<?x100xf32>, tensor<?x1xf32> -> tensor<?x100xf32>
  return %y : tensor<?x100xf32>
}

// A constant length above 1024 loops in each pass, with no test either;
// the sum takes it in two blocks of 1024 (one level: no longer block).
// CHECK-LABEL: func @looped_2048(
// CHECK-NOT: arith.cmpi {{[a-z]+}} %{{.+}}, %c1024
// CHECK-NOT: %c32768
// CHECK: scf.for %[[BLOCK:.+]] = %c0 to %c2048 step %c1024 iter_args(
// CHECK-NEXT: %[[NEXT:.+]] = arith.addi %[[BLOCK]], %c1024
// CHECK-NEXT: %[[END:.+]] = arith.minui %[[NEXT]], %c2048
// CHECK-NEXT: %[[FIRST:.+]] = arith.addi %[[BLOCK]], %[[LANE:.+]] : index
// CHECK-NEXT: scf.for %{{.+}} = %[[FIRST]] to %[[END]] step %c32 iter_args(
// CHECK: memref.load
// CHECK: scf.for %{{.+}} = %[[LANE]] to %c2048 step %c32 {
// CHECK: memref.load
// CHECK: return
func.func @looped_2048(%x: tensor<?x2048xf32>) -> tensor<?x2048xf32> {
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x2048xf32> -> tensor<?x1xf32>
  %y = fuse.div %x, %s : tensor<?x2048xf32>, tensor<?x1xf32> -> tensor<?x2048xf32>
  return %y : tensor<?x2048xf32>
}

// Two inputs that the reduction reads share the registers: a constant
// length of 1000 loops (above 512 each), and a dynamic one is in registers
// up to 512.
// CHECK-LABEL: func @looped_two_inputs(
// CHECK: scf.for %{{.+}} = %{{.+}} to %c1000 step %c32 iter_args(
// CHECK-LABEL: func @registers_two_inputs(
// CHECK: arith.cmpi ule, %{{.+}}, %c512
func.func @looped_two_inputs(%x: tensor<?x1000xf32>, %z: tensor<?x1000xf32>) -> tensor<?x1xf32> {
  %p = fuse.mul %x, %z : tensor<?x1000xf32>
  %s = fuse.reduce_sum %p {dims = array<i64: 1>} : tensor<?x1000xf32> -> tensor<?x1xf32>
  return %s : tensor<?x1xf32>
}
func.func @registers_two_inputs(%x: tensor<?x?xf32>, %z: tensor<?x?xf32>) -> tensor<?x1xf32> {
  %p = fuse.mul %x, %z : tensor<?x?xf32>
  %s = fuse.reduce_sum %p {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  return %s : tensor<?x1xf32>
}
