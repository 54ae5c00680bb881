// RUN: fuse-opt %s --fuse-pipeline=fused --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --fuse-map-to-gpu | FileCheck %s
// RUN: fuse-opt %s --fuse-pipeline=fused --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --fuse-map-to-gpu=block-size=128 | FileCheck %s --check-prefix=BLOCK
// RUN: fuse-opt %s --fuse-pipeline=fused --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --fuse-map-to-gpu=cpu-threads=true | FileCheck %s --check-prefix=CPU
// RUN: fuse-opt %s --fuse-pipeline=fused --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --fuse-map-to-gpu="cpu-threads=true vector-bytes=256" --canonicalize | FileCheck %s --check-prefix=CPU64
// Mapped again, the module keeps the kernels' names that the launches'
// profiling hooks index (they were emptied).
// RUN: fuse-opt %s --fuse-pipeline=fused --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --fuse-map-to-gpu --fuse-map-to-gpu | FileCheck %s --check-prefix=TWICE
// TWICE: module attributes {fuse.kernels = ["fused_add_relu_0", "exp_1",

// A cheap body: each thread owns two vectors of 4 x f32, one block stride
// (256 threads x 4) apart, so a block covers 2048 elements. A thread whose
// two vectors are in range, in a launch whose positions fit in 32 bits,
// takes the fast path: i32 positions, two vector loads per input and two
// vector stores, no branch. The host decides it for the launch: the bound
// below which a thread's first position is fast is N - 1027 when N is below
// 2^31 - 2048 (and at least the 1028 elements of a thread's span), else 0;
// each thread compares its first position, in 32 bits, with it. Any other
// thread (the one at the tail, or every thread of a launch beyond 32 bits)
// takes the generic path: its positions one at a time in 64 bits, those
// past the end skipped (every one, in a thread wholly past the end), in a
// loop (of an i32 counter) that LLVM must not unroll. No launch for an
// empty tensor.

// CHECK-LABEL: func @add_relu
// CHECK-SAME:    (%[[A:.+]]: memref<?xf32>, %[[B:.+]]: memref<?xf32>)
// CHECK:         %[[OUT:.+]] = memref.alloc
// CHECK:         %[[N:.+]] = arith.muli %{{.+}}, %{{.+}} : index
// CHECK:         %[[C2048:.+]] = arith.constant 2048 : index
// CHECK:         %[[GRID:.+]] = arith.ceildivui %[[N]], %[[C2048]] : index
// CHECK:         %[[C256:.+]] = arith.constant 256 : index
// CHECK:         %[[NONEMPTY:.+]] = arith.cmpi ugt, %[[N]]
// CHECK:         scf.if %[[NONEMPTY]] {
// CHECK:           %[[C1028:.+]] = arith.constant 1028 : index
// CHECK:           %[[LIMIT:.+]] = arith.constant 2147481600 : index
// CHECK:           %[[SMALL:.+]] = arith.cmpi ult, %[[N]], %[[LIMIT]] : index
// CHECK:           %[[SPANS:.+]] = arith.cmpi uge, %[[N]], %[[C1028]] : index
// CHECK:           %[[FITS:.+]] = arith.andi %[[SMALL]], %[[SPANS]] : i1
// CHECK:           %[[C1027:.+]] = arith.constant 1027 : index
// CHECK:           %[[LAST:.+]] = arith.subi %[[N]], %[[C1027]] : index
// CHECK:           %[[BOUND:.+]] = arith.select %[[FITS]], %[[LAST]], %{{.+}} : index
// CHECK:           %[[BOUND32:.+]] = arith.index_castui %[[BOUND]] : index to i32
// CHECK-NOT:       memref.reinterpret_cast
// CHECK:           gpu.launch blocks(%[[BX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[GRID]], {{.*}} threads(%[[TX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C256]], {{.*}} module(@fuse_kernels) function(@fused_add_relu_0)
// CHECK:             %[[B0:.+]] = arith.muli %[[BX]], %{{.+}} overflow<nuw> : index
// CHECK:             %[[T0:.+]] = arith.muli %[[TX]], %{{.+}} overflow<nuw> : index
// CHECK:             %[[BASE:.+]] = arith.addi %[[B0]], %[[T0]] overflow<nuw> : index
// CHECK:             %[[BXW:.+]] = arith.index_castui %[[BX]] : index to i32
// CHECK:             %[[FB:.+]] = arith.muli %[[BXW]], %{{.+}} : i32
// CHECK:             %[[FT:.+]] = arith.muli %{{.+}}, %{{.+}} : i32
// CHECK:             %[[FIRST:.+]] = arith.addi %[[FB]], %[[FT]] : i32
// CHECK:             %[[FAST:.+]] = arith.cmpi ult, %[[FIRST]], %[[BOUND32]] : i32
// CHECK:             scf.if %[[FAST]] {
// CHECK:               %[[BX32:.+]] = arith.index_castui %[[BX]] : index to i32
// CHECK:               %[[S0:.+]] = arith.addi %{{.+}}, %{{.+}} overflow<nuw> : i32
// CHECK:               %[[C1024:.+]] = arith.constant 1024 : i32
// CHECK:               %[[S1:.+]] = arith.addi %[[S0]], %[[C1024]] overflow<nuw> : i32
// CHECK:               %[[I0:.+]] = arith.index_castui %[[S0]] : i32 to index
// CHECK:               %[[VA0:.+]] = vector.load %[[A]][%[[I0]]] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK:               %[[I1:.+]] = arith.index_castui %[[S1]] : i32 to index
// CHECK:               %[[VA1:.+]] = vector.load %[[A]][%[[I1]]] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK:               %[[VA:.+]] = vector.shuffle %[[VA0]], %[[VA1]] [0, 1, 2, 3, 4, 5, 6, 7]
// CHECK:               vector.load %[[B]]
// CHECK:               vector.load %[[B]]
// CHECK:               %[[VB:.+]] = vector.shuffle
// CHECK:               %[[SUM:.+]] = arith.addf %[[VA]], %[[VB]] : vector<8xf32>
// CHECK:               %[[RELU:.+]] = arith.maximumf %[[SUM]], %{{.+}} : vector<8xf32>
// CHECK:               %[[R0:.+]] = vector.shuffle %[[RELU]], %[[RELU]] [0, 1, 2, 3]
// CHECK:               vector.store %[[R0]], %[[OUT]][%{{.+}}] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK:               %[[R1:.+]] = vector.shuffle %[[RELU]], %[[RELU]] [4, 5, 6, 7]
// CHECK:               vector.store %[[R1]], %[[OUT]][%{{.+}}] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK-NOT:           scf.if
// CHECK:             } else {
// CHECK-NOT:           arith.cmpi
// CHECK:               %[[C8:.+]] = arith.constant 8 : i32
// CHECK:               scf.for %[[K:.+]] = %{{.+}} to %[[C8]] step %{{.+}} : i32 {
// CHECK:                 %[[P:.+]] = arith.addi %[[BASE]], %{{.+}} overflow<nuw> : index
// CHECK:                 %[[IN:.+]] = arith.cmpi ult, %[[P]], %[[N]] : index
// CHECK:                 scf.if %[[IN]] {
// CHECK:                   memref.load %[[A]][%[[P]]] : memref<?xf32>
// CHECK:                   memref.load %[[B]][%[[P]]] : memref<?xf32>
// CHECK:                   arith.addf {{.*}} : vector<1xf32>
// CHECK:                   memref.store %{{.+}}, %[[OUT]][%[[P]]] : memref<?xf32>
// CHECK:                 }
// CHECK:               } {llvm.loop_annotation = #{{.+}}}
// CHECK:           gpu.terminator
// On the cpu target (whose threads take 64 lanes on the host), the generic
// path first tests that the thread has a position in range: past the end
// (most threads of a small launch) there is nothing to do. A GPU thread's
// few lanes are tested alone (above).
// CPU-LABEL: func @add_relu
// CPU:         gpu.launch
// CPU:           %[[BASE:.+]] = arith.addi %{{.+}}, %{{.+}} overflow<nuw> : index
// CPU:           } else {
// CPU-NEXT:        %[[ANY:.+]] = arith.cmpi ult, %[[BASE]], %{{.+}} : index
// CPU-NEXT:        scf.if %[[ANY]] {
// CPU:               scf.for
// BLOCK-LABEL: func @add_relu
// BLOCK:         arith.constant 1024 : index
// BLOCK:         arith.constant 128 : index
// BLOCK:         gpu.launch
// BLOCK:           arith.constant 512 : i32
func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// A 16-byte vector is 8 x f16, 8 x bf16 and 2 x f64. A thread takes at
// most 8 lanes: one vector of f16 or bf16. A math function in f64 (whose
// math functions hold register pairs) keeps one vector too.

// CHECK-LABEL: func @widths
// CHECK:         arith.ceildivui %{{.+}}, %c2048
// CHECK:         vector.load {{.*}} : memref<?xf16>, vector<8xf16>
// CHECK-NOT:     vector.load
// CHECK:         vector.store {{.*}} : memref<?xf16>, vector<8xf16>
// CHECK:         arith.ceildivui %{{.+}}, %c2048
// CHECK:         vector.load {{.*}} : memref<?xbf16>, vector<8xbf16>
// CHECK:         vector.store {{.*}} : memref<?xbf16>, vector<8xbf16>
// CHECK:         arith.ceildivui %{{.+}}, %c512
// CHECK:         vector.load {{.*}} : memref<?xf64>, vector<2xf64>
// CHECK-NOT:     vector.load
// CHECK:         math.exp {{.*}} : vector<2xf64>
// CHECK:         vector.store {{.*}} : memref<?xf64>, vector<2xf64>
// CHECK-NOT:     vector.store
func.func @widths(%h: tensor<?xf16>, %g: tensor<?xbf16>, %d: tensor<?xf64>) -> (tensor<?xf16>, tensor<?xbf16>, tensor<?xf64>) {
  %0 = fuse.exp %h : tensor<?xf16>
  %1 = fuse.exp %g : tensor<?xbf16>
  %2 = fuse.exp %d : tensor<?xf64>
  return %0, %1, %2 : tensor<?xf16>, tensor<?xbf16>, tensor<?xf64>
}

// A broadcast operand: the host computes the stride between a thread's
// vectors in the radix of the sizes (1024 mod the row length, or mod 1
// when the row is empty and no block runs) and the reciprocal of the row
// length. On the fast path the thread divides once, in 32 bits, for its
// first vector and steps to the second. Where the row length is a
// multiple of 4 (tested once per launch: every thread takes the same
// branch), no vector crosses a row and the bias is read with vector loads;
// else each vector reads from the two rows it may span, lane by lane: a
// lane at or past the room left in the first row takes the next row's
// offset (rows were sent to the generic path, 4x the instructions per
// element). Rows shorter than a vector take the generic path: the host
// folds the test into the fast path's bound. On the generic path the
// division is by the reciprocal in f64: no 64-bit division subroutine.

// CHECK-LABEL: func @bias
// CHECK:         %[[DIVISOR:.+]] = arith.maxui %[[COLS:[^,]+]], %c1{{.*}} : index
// CHECK:         %[[STEP:.+]] = arith.remui %c1024{{.*}}, %[[DIVISOR]] : index
// CHECK:         %[[RCP:.+]] = arith.divf %{{.+}}, %{{.+}} : f64
// CHECK:         %[[FITS:.+]] = arith.andi
// CHECK:         %[[LONG:.+]] = arith.cmpi uge, %[[COLS]], %c4{{.*}} : index
// CHECK:         %[[FASTROWS:.+]] = arith.andi %[[FITS]], %[[LONG]] : i1
// CHECK:         %[[BOUND:.+]] = arith.select %[[FASTROWS]]
// CHECK:         gpu.launch
// CHECK:           %[[FAST:.+]] = arith.cmpi ult, %{{.+}}, %{{.+}} : i32
// CHECK:           scf.if %[[FAST]] {
// CHECK-NOT:         memref.load
// CHECK:             vector.load {{.*}} : memref<?xf32>, vector<4xf32>
// CHECK:             vector.load {{.*}} : memref<?xf32>, vector<4xf32>
// CHECK:             %[[COLS32:.+]] = arith.index_castui %[[COLS]] : index to i32
// CHECK:             %[[COL0:.+]] = arith.remui %{{.+}}, %[[COLS32]] : i32
// CHECK-NOT:         arith.remui {{.*}} : i32
// CHECK:             %[[STEP32:.+]] = arith.index_castui %[[STEP]] : index to i32
// CHECK:             %[[COL1_:.+]] = arith.addi %[[COL0]], %[[STEP32]] overflow<nuw> : i32
// CHECK:             %[[WRAP:.+]] = arith.cmpi uge, %[[COL1_]], %{{.+}} : i32
// CHECK:             %[[COL1:.+]] = arith.select %[[WRAP]]
// CHECK:             %[[REM:.+]] = arith.remui %[[COLS]], %c4{{.*}} : index
// CHECK:             %[[ALIGNED:.+]] = arith.cmpi eq, %[[REM]], %c0{{.*}} : index
// CHECK:             scf.if %[[ALIGNED]] -> (vector<8xf32>) {
// CHECK-NOT:           memref.load
// CHECK:               vector.load %{{.+}}[%{{.+}}] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK:               vector.load %{{.+}}[%{{.+}}] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK-NOT:           memref.load
// CHECK:             } else {
// CHECK:               %[[ROW:.+]] = arith.index_castui %[[COLS]] : index to i32
// CHECK:               %[[ROOM0:.+]] = arith.subi %[[ROW]], %[[COL0]] : i32
// CHECK:               %[[ROOM1:.+]] = arith.subi %[[ROW]], %[[COL1]] : i32
// CHECK-NOT:           vector.load
// CHECK:               memref.load %[[B:[a-z0-9_]+]][%{{.+}}] : memref<?xf32>
// CHECK:               %[[CROSSED:.+]] = arith.cmpi uge, %c1_i32{{.*}}, %[[ROOM0]] : i32
// CHECK:               %[[BASE:.+]] = arith.select %[[CROSSED]], %{{.+}}, %[[COL0]] : i32
// CHECK:               %[[AT:.+]] = arith.addi %[[BASE]], %{{.+}} : i32
// CHECK:               %[[ATI:.+]] = arith.index_castui %[[AT]] : i32 to index
// CHECK:               memref.load %[[B]][%[[ATI]]] : memref<?xf32>
// CHECK-COUNT-2:       memref.load %[[B]]
// CHECK:               vector.from_elements {{.*}} : vector<4xf32>
// CHECK:               memref.load %[[B]]
// CHECK:               arith.cmpi uge, %{{.+}}, %[[ROOM1]] : i32
// CHECK-COUNT-3:       memref.load %[[B]]
// CHECK:               vector.from_elements {{.*}} : vector<4xf32>
// CHECK-NOT:           vector.load
// CHECK:             }
// CHECK:             arith.addf {{.*}} : vector<8xf32>
// CHECK:           } else {
// CHECK:             scf.for
// CHECK:               arith.uitofp {{.*}} : i64 to f64
// CHECK:               arith.mulf %{{.+}}, %[[RCP]] : f64
// CHECK:               arith.fptoui
// CHECK:             } {llvm.loop_annotation

// The cpu target's threads (one vector each, four CPU registers wide) keep
// the fast path for rows of any length. A bias that reads the innermost
// loop alone is tiled on the host for rows of 1 to 1024 (tested there, for
// a dynamic length): a buffer of the row and then its first width - 1
// elements again, the row copied once and the rest from the tile itself.
// A thread's vector is then one vector load from the tile at its column,
// however many rows it spans. Longer rows keep the bias in one vector
// load where the thread's vector stays in its row (at any column: aligned
// to its element), gathered in a branch where it crosses a row's end.
// Each lane's column and row come from the vector's first in vector code:
// a carry from the lanes' offsets, divided by the row's length through an
// f32 reciprocal and corrected once.
// CPU-LABEL: func @bias
// CPU-SAME:      (%[[X:.+]]: memref<?x?xf32>, %[[B:.+]]: memref<?xf32>)
// CPU:           %[[OUT:.+]] = memref.alloc(
// CPU:           %[[LENGTH:.+]] = memref.dim %[[OUT]], %c1{{.*}} : memref<?x?xf32>
// CPU:           %[[ROWLENGTH:.+]] = arith.addi %[[LENGTH]], %c3 : index
// CPU:           %[[SOME:.+]] = arith.cmpi ugt, %[[LENGTH]], %c0{{.*}} : index
// CPU:           %[[SHORT:.+]] = arith.cmpi ule, %[[LENGTH]], %c1024{{.*}} : index
// CPU:           %[[TILED:.+]] = arith.andi %[[SOME]], %[[SHORT]] : i1
// CPU:           %[[SIZE:.+]] = arith.select %[[TILED]], %[[ROWLENGTH]], %c0{{.*}} : index
// CPU:           %[[TILE:.+]] = memref.alloc(%[[SIZE]]) {alignment = 16 : i64} : memref<?xf32>
// CPU:           scf.if %[[TILED]] {
// CPU:             scf.for %[[J:.+]] = %c0{{.*}} to %[[LENGTH]] step %c1{{.*}} {
// CPU-NEXT:          %[[V:.+]] = memref.load %[[B]][%[[J]]] : memref<?xf32>
// CPU-NEXT:          memref.store %[[V]], %[[TILE]][%[[J]]] : memref<?xf32>
// CPU-NEXT:        }
// CPU:             scf.for %[[K:.+]] = %[[LENGTH]] to %[[ROWLENGTH]] step %c1{{.*}} {
// CPU-NEXT:          %[[FROM:.+]] = arith.subi %[[K]], %[[LENGTH]] : index
// CPU-NEXT:          %[[W:.+]] = memref.load %[[TILE]][%[[FROM]]] : memref<?xf32>
// CPU-NEXT:          memref.store %[[W]], %[[TILE]][%[[K]]] : memref<?xf32>
// CPU-NEXT:        }
// CPU-NEXT:      }
// CPU:         gpu.launch
// CPU:           %[[FAST:.+]] = arith.cmpi ult, %{{.+}}, %{{.+}} : i32
// CPU-NEXT:      scf.if %[[FAST]] {
// CPU:             %[[COLUMN:.+]] = arith.remui %{{.+}}, %[[WIDTH:.+]] : i32
// CPU:             scf.if %[[TILED]] -> (vector<4xf32>) {
// CPU-NEXT:          %[[AT:.+]] = arith.index_castui %[[COLUMN]] : i32 to index
// CPU-NEXT:          vector.load %[[TILE]][%[[AT]]] {alignment = 4 : i64} : memref<?xf32>, vector<4xf32>
// CPU:             } else {
// CPU:             %[[END:.+]] = arith.addi %[[COLUMN]], %c4_i32{{.*}} : i32
// CPU:             %[[ROW:.+]] = arith.index_castui %{{.+}} : index to i32
// CPU:             %[[WITHIN:.+]] = arith.cmpi ule, %[[END]], %[[ROW]] : i32
// CPU:             scf.if %[[WITHIN]] -> (vector<4xf32>) {
// CPU:               vector.load %[[B]][%{{.+}}] {alignment = 4 : i64} : memref<?xf32>, vector<4xf32>
// CPU:             } else {
// CPU-NEXT:          %[[LANES:.+]] = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
// CPU-NOT:           memref.load
// CPU:               %[[SUM:.+]] = arith.addi %{{.+}}, %[[LANES]] overflow<nuw> : vector<4xi32>
// CPU:               arith.sitofp %[[SUM]] : vector<4xi32> to vector<4xf32>
// CPU:               %[[EST:.+]] = arith.fptosi %{{.+}} : vector<4xf32> to vector<4xi32>
// CPU:               %[[REST:.+]] = arith.subi %[[SUM]], %{{.+}} : vector<4xi32>
// CPU:               %[[UNDER:.+]] = arith.cmpi slt, %[[REST]], %{{.+}} : vector<4xi32>
// CPU:               %[[OVER:.+]] = arith.cmpi sge, %[[REST]], %{{.+}} : vector<4xi32>
// CPU-NOT:           memref.load
// CPU:               arith.select %[[UNDER]], %{{.+}}, %{{.+}} : vector<4xi1>, vector<4xi32>
// CPU:               %[[COLS:.+]] = arith.select %[[UNDER]], %{{.+}}, %{{.+}} : vector<4xi1>, vector<4xi32>
// CPU-NOT:           memref.load
// CPU:               vector.gather %[[B]][%c0{{.*}}] [%[[COLS]]], %{{.+}}, %{{.+}} : memref<?xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CPU-NOT:           memref.load
// CPU:             }
// CPU:             arith.addf {{.*}} : vector<4xf32>
func.func @bias(%x: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = fuse.add %x, %b : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// Rows of a known length of at most 1024 that are not a whole number of
// vectors: the bias always from its tile (3 + 63 elements for 64 lanes),
// with no test on the host or in the kernel, no gather and no division per
// lane; a channel-last image's mean per channel.
// CPU64-LABEL: func @bias_rows_of_3(
// CPU64-SAME:    %[[B:.+]]: memref<3xf32>)
// CPU64:         %[[TILE:.+]] = memref.alloc() {alignment = 16 : i64} : memref<66xf32>
// CPU64:         scf.for
// CPU64:         scf.for
// CPU64:         gpu.launch
// CPU64-NOT:       scf.if %{{.+}} -> (vector<64xf32>)
// CPU64-NOT:       vector.gather
// CPU64:           %[[COLUMN:.+]] = arith.remui %{{.+}}, %c3_i32 : i32
// CPU64-NOT:       scf.if %{{.+}} -> (vector<64xf32>)
// CPU64:           %[[AT:.+]] = arith.index_castui %[[COLUMN]] : i32 to index
// CPU64-NEXT:      %[[BIAS:.+]] = vector.load %[[TILE]][%[[AT]]] {alignment = 4 : i64} : memref<66xf32>, vector<64xf32>
// CPU64-NOT:       scf.if %{{.+}} -> (vector<64xf32>)
// CPU64-NOT:       vector.gather
// CPU64:           arith.addf %{{.+}}, %[[BIAS]] : vector<64xf32>
func.func @bias_rows_of_3(%x: tensor<?x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  %0 = fuse.add %x, %b : tensor<?x3xf32>, tensor<3xf32> -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// A scale per image and channel of channel-last images (`N x HW x C`,
// read at `N x 1 x C`) has a tile row per image, made when the tiles hold
// at most 1 / 64 of the launch's elements (here 4 x 1 x 66 against
// 4 x 2048 x 3): a vector reads it where its rows are in one image (the
// position in the image, then the vector's end, at most the image's
// elements), else as before.
// CPU64-LABEL: func @scale_per_image(
// CPU64-SAME:    %[[S:.+]]: memref<4x1x3xf32>)
// CPU64:         %[[TILE:.+]] = memref.alloc() {alignment = 16 : i64} : memref<4x1x66xf32>
// CPU64:         gpu.launch
// CPU64:           %[[COLUMN:.+]] = arith.remui %{{.+}}, %c3_i32 : i32
// CPU64:           %[[IMAGEROW:.+]] = arith.remui %{{.+}}, %c2048_i32 : i32
// CPU64:           %[[AT:.+]] = arith.muli %[[IMAGEROW]], %c3_i32 overflow<nuw> : i32
// CPU64:           %[[FROM:.+]] = arith.addi %[[AT]], %[[COLUMN]] overflow<nuw> : i32
// CPU64:           %[[END:.+]] = arith.addi %[[FROM]], %c64_i32 overflow<nuw> : i32
// CPU64:           %[[INIMAGE:.+]] = arith.cmpi ule, %[[END]], %c6144_i32 : i32
// CPU64:           scf.if %[[INIMAGE]] -> (vector<64xf32>) {
// CPU64:             vector.load %[[TILE]][%{{.+}}, %c0, %{{.+}}] {alignment = 4 : i64} : memref<4x1x66xf32>, vector<64xf32>
// CPU64:           } else {
// CPU64:             vector.gather
func.func @scale_per_image(%x: tensor<4x2048x3xf32>, %s: tensor<4x1x3xf32>) -> tensor<4x2048x3xf32> {
  %0 = fuse.mul %x, %s : tensor<4x2048x3xf32>, tensor<4x1x3xf32> -> tensor<4x2048x3xf32>
  return %0 : tensor<4x2048x3xf32>
}

// Rows known to be longer than 1024 have no tile; rows of a whole number
// of vectors need none.
// CPU64-LABEL: func @bias_rows_of_1500(
// CPU64-NOT:     memref.alloc{{.*}}alignment = 16
// CPU64:         gpu.launch
// CPU64:           vector.gather
// CPU64-LABEL: func @bias_rows_of_128(
// CPU64-NOT:     memref.alloc{{.*}}alignment = 16
// CPU64-NOT:     vector.gather
func.func @bias_rows_of_1500(%x: tensor<?x1500xf32>, %b: tensor<1500xf32>) -> tensor<?x1500xf32> {
  %0 = fuse.add %x, %b : tensor<?x1500xf32>, tensor<1500xf32> -> tensor<?x1500xf32>
  return %0 : tensor<?x1500xf32>
}
func.func @bias_rows_of_128(%x: tensor<?x128xf32>, %b: tensor<128xf32>) -> tensor<?x128xf32> {
  %0 = fuse.add %x, %b : tensor<?x128xf32>, tensor<128xf32> -> tensor<?x128xf32>
  return %0 : tensor<?x128xf32>
}

// Adjacent loops that every operand reads alike (as adjacent dimensions,
// or not at all) are one loop: a bias per channel of `N x C x H x W` runs
// over `N x C x (H * W)`, with rows of `H * W` and one division fewer per
// thread. The views are made on the host; the bias, which reads neither H
// nor W, is read as it is.
// CHECK-LABEL: func @channel_bias
// CHECK-SAME:    (%[[X:.+]]: memref<?x?x?x?xf32>, %[[B:.+]]: memref<1x?x1x1xf32>)
// CHECK-NOT:     memref.collapse_shape %[[B]]
// CHECK:         memref.collapse_shape %[[X]] {{\[}}[0], [1], [2, 3]] : memref<?x?x?x?xf32> into memref<?x?x?xf32>
// CHECK:         %[[OUT:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : memref<?x?x?x?xf32> into memref<?x?x?xf32>
// CHECK-NOT:     memref.collapse_shape
// CHECK:         %[[ROW:.+]] = memref.dim %[[OUT]], %c2{{.*}} : memref<?x?x?xf32>
// CHECK:         arith.cmpi uge, %[[ROW]], %c4{{.*}} : index
// CHECK:         gpu.launch
// CHECK:           arith.remui %[[ROW]], %c4{{.*}} : index
// CHECK:           memref.load %[[B]][%c0{{.*}}, %{{.+}}, %c0{{.*}}, %c0{{.*}}] : memref<1x?x1x1xf32>
// CHECK:         } else {
// A bias that does not read the innermost loop is read once in each of a
// vector's two rows (the second at the first's where no lane crosses,
// which stays in range), and each lane picks.
// CHECK:           %[[HERE:.+]] = memref.load %[[B]][%c0{{.*}}, %{{.+}}, %c0{{.*}}, %c0{{.*}}] : memref<1x?x1x1xf32>
// CHECK:           %[[FIRST:.+]] = vector.broadcast %[[HERE]] : f32 to vector<4xf32>
// CHECK:           %[[CROSSES:.+]] = arith.cmpi ult, %[[ROOM:.+]], %c4_i32{{.*}} : i32
// CHECK:           arith.select %[[CROSSES]], %{{.+}}, %{{.+}} : i32
// CHECK:           %[[THERE:.+]] = memref.load %[[B]][%c0{{.*}}, %{{.+}}, %c0{{.*}}, %c0{{.*}}] : memref<1x?x1x1xf32>
// CHECK:           %[[NEXT:.+]] = vector.broadcast %[[THERE]] : f32 to vector<4xf32>
// CHECK:           %[[ROOMS:.+]] = vector.broadcast %[[ROOM]] : i32 to vector<4xi32>
// CHECK:           %[[LANES:.+]] = arith.cmpi uge, %cst{{.*}}, %[[ROOMS]] : vector<4xi32>
// CHECK:           arith.select %[[LANES]], %[[NEXT]], %[[FIRST]] : vector<4xi1>, vector<4xf32>
// A cpu target thread's vector of 64 f32 that crosses a row reads a bias
// per channel (which does not read the rows) from each row it spans, at
// most 4 for rows of 21 or more (tested once for the launch): one element
// each, the lanes picking theirs by their offset; shorter rows gather.
// CPU64-LABEL: func @channel_bias(
// CPU64: gpu.launch
// CPU64: %[[WITHIN:.+]] = arith.cmpi ule, %{{.+}}, %{{.+}} : i32
// CPU64: scf.if %[[WITHIN]] -> (vector<64xf32>) {
// CPU64: memref.load
// CPU64: vector.broadcast %{{.+}} : f32 to vector<64xf32>
// CPU64: } else {
// CPU64: %[[LONG:.+]] = arith.cmpi uge, %{{.+}}, %c21 : index
// CPU64: scf.if %[[LONG]] -> (vector<64xf32>) {
// CPU64-NOT: vector.gather
// CPU64: memref.load %{{.+}} : memref<1x?x1x1xf32>
// CPU64-COUNT-3: arith.select %{{.+}}, %{{.+}}, %{{.+}} : vector<64xi1>, vector<64xf32>
// CPU64-NOT: vector.gather
// CPU64: } else {
// CPU64: vector.gather
func.func @channel_bias(%x: tensor<?x?x?x?xf32>, %b: tensor<1x?x1x1xf32>) -> tensor<?x?x?x?xf32> {
  %0 = fuse.add %x, %b : tensor<?x?x?x?xf32>, tensor<1x?x1x1xf32> -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// Rows of 49 (7 x 7): a vector spans at most 3, no test of the length.
// CPU64-LABEL: func @channel_bias_7x7(
// CPU64: scf.if %{{.+}} -> (vector<64xf32>) {
// CPU64: } else {
// CPU64-NOT: scf.if
// CPU64-NOT: vector.gather
// CPU64-COUNT-2: arith.select %{{.+}}, %{{.+}}, %{{.+}} : vector<64xi1>, vector<64xf32>
// CPU64-NOT: arith.select %{{.+}}, %{{.+}}, %{{.+}} : vector<64xi1>, vector<64xf32>
// CPU64: scf.yield
// CPU64-NEXT: }
// CPU64-NEXT: arith.addf %{{.+}}, %{{.+}} : vector<64xf32>
func.func @channel_bias_7x7(%x: tensor<?x?x7x7xf32>, %b: tensor<1x?x1x1xf32>) -> tensor<?x?x7x7xf32> {
  %0 = fuse.add %x, %b : tensor<?x?x7x7xf32>, tensor<1x?x1x1xf32> -> tensor<?x?x7x7xf32>
  return %0 : tensor<?x?x7x7xf32>
}

// A scale of `A x 1 x C` reads the first and last loops of `A x B x C`
// but not the middle one: no two loops are read alike, and none merge.
// On the cpu target, a vector that crosses a row gathers the scale at
// offsets a * C + c, from each lane's indices.
// CHECK-LABEL: func @apart
// CHECK-NOT:     memref.collapse_shape
// CHECK:         gpu.launch
// CPU-LABEL:   func @apart
// CPU:           gpu.launch
// CPU:             %[[C:.+]] = memref.dim %[[S:.+]], %c2{{.*}} : memref<?x1x?xf32>
// CPU:             %[[C32:.+]] = arith.index_castui %[[C]] : index to i32
// CPU:             %[[SIZE:.+]] = vector.broadcast %[[C32]] : i32 to vector<4xi32>
// CPU:             %[[ROWS:.+]] = arith.muli %{{.+}}, %[[SIZE]] overflow<nuw> : vector<4xi32>
// CPU:             %[[AT:.+]] = arith.addi %[[ROWS]], %{{.+}} overflow<nuw> : vector<4xi32>
// CPU:             vector.gather %[[S]][%c0{{.*}}, %c0{{.*}}, %c0{{.*}}] [%[[AT]]]
func.func @apart(%x: tensor<?x?x?xf32>, %s: tensor<?x1x?xf32>) -> tensor<?x?x?xf32> {
  %0 = fuse.mul %x, %s : tensor<?x?x?xf32>, tensor<?x1x?xf32> -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// Operands of another rank are read and written through 1-D views made on
// the host: the kernel takes 1-D memrefs, whatever the rank, and no memref
// of rank 3.

// CHECK-LABEL: func @rank3
// CHECK:         memref.reinterpret_cast %{{.+}} to offset: [0], sizes: [%{{.+}}], strides: [1] : memref<?x?x?xf32> to memref<?xf32>
// CHECK:         memref.reinterpret_cast %{{.+}} to offset: [0], sizes: [%{{.+}}], strides: [1] : memref<?x?x?xf32> to memref<?xf32>
// CHECK:         memref.reinterpret_cast %{{.+}} to offset: [0], sizes: [%{{.+}}], strides: [1] : memref<?x?x?xf32> to memref<?xf32>
// CHECK:         gpu.launch
// CHECK-NOT:       memref<?x?x?xf32>
// CHECK:           gpu.terminator
func.func @rank3(%x: tensor<?x?x?xf32>, %y: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = fuse.mul %x, %y : tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// Rows of a static length that is a multiple of the width need no check.

// CHECK-LABEL: func @static_rows
// CHECK:         gpu.launch
// CHECK-NOT:       scf.if %{{.+}} -> (vector<8xf32>)
// CHECK:           vector.load %{{.+}}[%{{.+}}] {alignment = 16 : i64} : memref<768xf32>, vector<4xf32>
// CHECK:           vector.load %{{.+}}[%{{.+}}] {alignment = 16 : i64} : memref<768xf32>, vector<4xf32>
func.func @static_rows(%x: tensor<?x768xf32>, %b: tensor<768xf32>) -> tensor<?x768xf32> {
  %0 = fuse.add %x, %b : tensor<?x768xf32>, tensor<768xf32> -> tensor<?x768xf32>
  return %0 : tensor<?x768xf32>
}

// Rows of a static length that is not a multiple of the width, but at
// least a vector: every vector reads from its two rows, with no branch.
// Rows shorter than a vector: the fast path's bound is 0 (the host's test
// is constant false), and every thread takes the generic path.

// CHECK-LABEL: func @rows_of_49
// CHECK:         arith.cmpi uge, %c49{{.*}}, %c4{{.*}} : index
// CHECK:         gpu.launch
// CHECK-NOT:       scf.if %{{.+}} -> (vector<8xf32>)
// CHECK-NOT:       vector.load %{{.+}} : memref<49xf32>
// CHECK-COUNT-4:   memref.load %{{.+}}[%{{.+}}] : memref<49xf32>
// CHECK:           vector.from_elements
// CHECK-COUNT-4:   memref.load %{{.+}}[%{{.+}}] : memref<49xf32>
// CHECK:           vector.from_elements
// CHECK:           arith.addf {{.*}} : vector<8xf32>
// CHECK:         } else {
func.func @rows_of_49(%x: tensor<?x49xf32>, %b: tensor<49xf32>) -> tensor<?x49xf32> {
  %0 = fuse.add %x, %b : tensor<?x49xf32>, tensor<49xf32> -> tensor<?x49xf32>
  return %0 : tensor<?x49xf32>
}

// CHECK-LABEL: func @rows_of_3
// CHECK:         %[[LONG:.+]] = arith.cmpi uge, %c3{{.*}}, %c4{{.*}} : index
// CHECK:         %[[FAST:.+]] = arith.andi %{{.+}}, %[[LONG]] : i1
// CHECK:         arith.select %[[FAST]], %{{.+}}, %c0{{.*}} : index
func.func @rows_of_3(%x: tensor<?x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  %0 = fuse.add %x, %b : tensor<?x3xf32>, tensor<3xf32> -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// A vector that may cross a row holds a lane of each broadcast input: at
// most 8 such lanes per thread (kTwoRowLaneLoads: more spilled under 32
// registers). Beyond that (five inputs, 40 lanes on two vectors), such a
// launch takes the generic path, as the host tests, and the fast path has
// no load of a single lane.

// CHECK-LABEL: func @five_rows
// CHECK:         %[[ROW:.+]] = memref.dim %alloc, %c1{{.*}} : memref<?x?xf32>
// CHECK:         arith.ceildivui %{{.+}}, %c2048{{.*}} : index
// CHECK:         %[[REM:.+]] = arith.remui %[[ROW]], %c4{{.*}} : index
// CHECK:         %[[ALIGNED:.+]] = arith.cmpi eq, %[[REM]], %c0{{.*}} : index
// CHECK:         arith.andi %{{.+}}, %[[ALIGNED]] : i1
// CHECK:         gpu.launch
// CHECK:           scf.if
// CHECK-NOT:         memref.load
// CHECK:           } else {
func.func @five_rows(%x: tensor<?x?xf32>, %a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?xf32>, %d: tensor<?xf32>, %e: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = fuse.add %x, %a : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %1 = fuse.mul %0, %b : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %2 = fuse.add %1, %c : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %3 = fuse.mul %2, %d : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %4 = fuse.add %3, %e : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %4 : tensor<?x?xf32>
}

// i1 is byte-sized in memory but bit-packed in vectors: on the GPU it is
// loaded and stored lane by lane, and does not narrow the vector of the f32
// operands. The cpu target's fast path writes the vector's lanes as one
// vector of bytes, through a pointer to the buffer's (lane by lane they
// went one by one through AVX-512's mask registers: 30 times as slow).
// CPU64-LABEL: func @compare
// CPU64:         %[[M:.+]] = arith.cmpf olt, {{.*}} : vector<64xf32>
// CPU64:         %[[BYTES:.+]] = arith.extui %[[M]] : vector<64xi1> to vector<64xi8>
// CPU64-NEXT:    %[[BASE:.+]] = memref.extract_aligned_pointer_as_index %{{.+}} : memref<?xi1> -> index
// CPU64-NEXT:    %[[INT:.+]] = arith.index_cast %[[BASE]] : index to i64
// CPU64-NEXT:    %[[PTR:.+]] = llvm.inttoptr %[[INT]] : i64 to !llvm.ptr
// CPU64:         %[[AT:.+]] = llvm.getelementptr %[[PTR]][%{{.+}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CPU64-NEXT:    llvm.store %[[BYTES]], %[[AT]] {alignment = 1 : i64} : vector<64xi8>, !llvm.ptr

// CHECK-LABEL: func @compare
// CHECK:         vector.load {{.*}} vector<4xf32>
// CHECK:         vector.load {{.*}} vector<4xf32>
// CHECK:         %[[M:.+]] = arith.cmpf olt, {{.*}} : vector<8xf32>
// CHECK:         vector.extract %{{.+}}[0] : i1 from vector<4xi1>
// CHECK:         memref.store {{.*}} : memref<?xi1>
// CHECK:         vector.extract %{{.+}}[3] : i1 from vector<4xi1>
func.func @compare(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xi1> {
  %0 = fuse.cmp lt, %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
  return %0 : tensor<?xi1>
}

// An i1 input on the cpu target's fast path: a vector of its bytes, each
// compared with 0.
// CPU64-LABEL: func @mask_select
// CPU64:         %[[AT:.+]] = llvm.getelementptr %{{.+}}[%{{.+}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CPU64-NEXT:    %[[BYTES:.+]] = llvm.load %[[AT]] {alignment = 1 : i64} : !llvm.ptr -> vector<64xi8>
// CPU64-NEXT:    %[[M:.+]] = arith.cmpi ne, %[[BYTES]], %{{.+}} : vector<64xi8>
// CPU64:         arith.select %[[M]], %{{.+}}, %{{.+}} : vector<64xi1>, vector<64xf32>
func.func @mask_select(%m: tensor<?xi1>, %a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.select %m, %a, %b : tensor<?xi1>, tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// A 0-d kernel has one element: it is never on the fast path, and the
// generic path computes element 0 once.

// CHECK-LABEL: func @scalar
// CHECK:         gpu.launch
// CHECK:           scf.for
// CHECK:             scf.if
// CHECK:               math.tanh {{.*}} : vector<1xf32>
// CHECK:               memref.store %{{.+}}, %{{.+}}[%{{.+}}] : memref<?xf32>
func.func @scalar(%a: tensor<f32>) -> tensor<f32> {
  %0 = fuse.tanh %a : tensor<f32>
  return %0 : tensor<f32>
}
