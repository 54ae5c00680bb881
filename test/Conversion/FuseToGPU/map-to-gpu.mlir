// RUN: fuse-opt %s --fuse-pipeline=fused --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --fuse-map-to-gpu | FileCheck %s
// RUN: fuse-opt %s --fuse-pipeline=fused --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --fuse-map-to-gpu=block-size=128 | FileCheck %s --check-prefix=BLOCK

// One thread owns 4 x f32: vector loads and stores when the vector fits;
// the thread at the tail runs the same code on its lanes clamped to the last
// element (they recompute and rewrite it); no launch for an empty tensor.

// CHECK-LABEL: func @add_relu
// CHECK-SAME:    (%[[A:.+]]: memref<?xf32>, %[[B:.+]]: memref<?xf32>)
// CHECK:         %[[OUT:.+]] = memref.alloc
// CHECK:         %[[N:.+]] = arith.muli %{{.+}}, %{{.+}} : index
// CHECK:         %[[C4:.+]] = arith.constant 4 : index
// CHECK:         %[[THREADS:.+]] = arith.ceildivui %[[N]], %[[C4]] : index
// CHECK:         %[[C256:.+]] = arith.constant 256 : index
// CHECK:         %[[GRID:.+]] = arith.ceildivui %[[THREADS]], %[[C256]] : index
// CHECK:         %[[NONEMPTY:.+]] = arith.cmpi ugt, %[[N]]
// CHECK:         scf.if %[[NONEMPTY]] {
// CHECK:           gpu.launch blocks(%[[BX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[GRID]], {{.*}} threads(%[[TX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C256]], {{.*}} module(@fuse_kernels) function(@fused_add_relu_0)
// CHECK:             %[[T0:.+]] = arith.muli %[[BX]], %[[C256]] : index
// CHECK:             %[[T:.+]] = arith.addi %[[T0]], %[[TX]] : index
// CHECK:             %[[START:.+]] = arith.muli %[[T]], %{{.+}} : index
// CHECK:             %[[END:.+]] = arith.addi %[[START]], %{{.+}} : index
// CHECK:             %[[FA:.+]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [%[[N]]], strides: [1]
// CHECK:             %[[FB:.+]] = memref.reinterpret_cast %[[B]]
// CHECK:             %[[FOUT:.+]] = memref.reinterpret_cast %[[OUT]]
// CHECK:             %[[INRANGE:.+]] = arith.cmpi ult, %[[START]], %[[N]] : index
// CHECK:             scf.if %[[INRANGE]] {
// CHECK:               %[[FULL:.+]] = arith.cmpi ule, %[[END]], %[[N]] : index
// CHECK:               %[[VA:.+]] = scf.if %[[FULL]] -> (vector<4xf32>) {
// CHECK:                 %[[LA:.+]] = vector.load %[[FA]][%[[START]]] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK:                 scf.yield %[[LA]] : vector<4xf32>
// CHECK:               } else {
// CHECK:                 %[[LAST:.+]] = arith.subi %[[N]], %{{.+}} : index
// CHECK:                 %[[S0:.+]] = arith.addi %[[START]], %{{.+}} : index
// CHECK:                 %[[P0:.+]] = arith.minui %[[S0]], %[[LAST]] : index
// CHECK:                 %[[P1:.+]] = arith.minui %{{.+}}, %[[LAST]] : index
// CHECK:                 %[[P2:.+]] = arith.minui %{{.+}}, %[[LAST]] : index
// CHECK:                 %[[P3:.+]] = arith.minui %{{.+}}, %[[LAST]] : index
// CHECK:                 %[[E0:.+]] = memref.load %[[FA]][%[[P0]]] : memref<?xf32>
// CHECK:                 %[[E1:.+]] = memref.load %[[FA]][%[[P1]]] : memref<?xf32>
// CHECK:                 %[[E2:.+]] = memref.load %[[FA]][%[[P2]]] : memref<?xf32>
// CHECK:                 %[[E3:.+]] = memref.load %[[FA]][%[[P3]]] : memref<?xf32>
// CHECK:                 %[[GA:.+]] = vector.from_elements %[[E0]], %[[E1]], %[[E2]], %[[E3]] : vector<4xf32>
// CHECK:                 scf.yield %[[GA]] : vector<4xf32>
// CHECK:               }
// CHECK:               %[[VB:.+]] = scf.if %[[FULL]] -> (vector<4xf32>) {
// CHECK:                 vector.load %[[FB]][%[[START]]] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK:               } else {
// CHECK-COUNT-4:         memref.load %[[FB]]
// CHECK:               }
// CHECK:               %[[SUM:.+]] = arith.addf %[[VA]], %[[VB]] : vector<4xf32>
// CHECK:               %[[RELU:.+]] = arith.maximumf %[[SUM]], %{{.+}} : vector<4xf32>
// CHECK:               scf.if %[[FULL]] {
// CHECK:                 vector.store %[[RELU]], %[[FOUT]][%[[START]]] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK:               } else {
// CHECK:                 %[[Q0:.+]] = arith.minui %{{.+}}, %{{.+}} : index
// CHECK-COUNT-3:         arith.minui
// CHECK:                 %[[R0:.+]] = vector.extract %[[RELU]][0] : f32 from vector<4xf32>
// CHECK:                 memref.store %[[R0]], %[[FOUT]][%[[Q0]]] : memref<?xf32>
// CHECK:                 vector.extract %[[RELU]][3] : f32 from vector<4xf32>
// CHECK:               }
// CHECK-NOT:           scf.for
// CHECK:           gpu.terminator
// BLOCK-LABEL: func @add_relu
// BLOCK:         arith.constant 128 : index
// BLOCK:         gpu.launch
func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// A 16-byte vector is 8 x f16, 8 x bf16 and 2 x f64.

// CHECK-LABEL: func @widths
// CHECK:         vector.load {{.*}} : memref<?xf16>, vector<8xf16>
// CHECK:         vector.store {{.*}} : memref<?xf16>, vector<8xf16>
// CHECK:         vector.load {{.*}} : memref<?xbf16>, vector<8xbf16>
// CHECK:         vector.store {{.*}} : memref<?xbf16>, vector<8xbf16>
// CHECK:         vector.load {{.*}} : memref<?xf64>, vector<2xf64>
// CHECK:         vector.store {{.*}} : memref<?xf64>, vector<2xf64>
func.func @widths(%h: tensor<?xf16>, %g: tensor<?xbf16>, %d: tensor<?xf64>) -> (tensor<?xf16>, tensor<?xbf16>, tensor<?xf64>) {
  %0 = fuse.exp %h : tensor<?xf16>
  %1 = fuse.exp %g : tensor<?xbf16>
  %2 = fuse.exp %d : tensor<?xf64>
  return %0, %1, %2 : tensor<?xf16>, tensor<?xbf16>, tensor<?xf64>
}

// A broadcast operand is gathered lane by lane (row-major position of each
// lane); the full-shape operand keeps its vector load.

// CHECK-LABEL: func @bias
// CHECK:         gpu.launch
// CHECK:             %[[X:.+]] = scf.if %{{.+}} -> (vector<4xf32>) {
// CHECK:               vector.load {{.*}} : memref<?xf32>, vector<4xf32>
// CHECK:             } else {
// CHECK-COUNT-4:         memref.load
// CHECK:               vector.from_elements
// CHECK:             }
// CHECK-COUNT-4:     memref.load %{{.+}}[%{{.+}}] : memref<?xf32>
// CHECK:             %[[BIAS:.+]] = vector.from_elements {{.*}} : vector<4xf32>
// CHECK:             arith.addf %[[X]], %[[BIAS]] : vector<4xf32>
func.func @bias(%x: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = fuse.add %x, %b : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// i1 is byte-sized in memory but bit-packed in vectors: it is loaded and
// stored lane by lane, and does not narrow the vector of the f32 operands.

// CHECK-LABEL: func @compare
// CHECK:         vector.load {{.*}} vector<4xf32>
// CHECK:         vector.load {{.*}} vector<4xf32>
// CHECK:         %[[M:.+]] = arith.cmpf olt, {{.*}} : vector<4xf32>
// CHECK:         vector.extract %[[M]][0] : i1 from vector<4xi1>
// CHECK:         memref.store {{.*}} : memref<?xi1>
// CHECK:         vector.extract %[[M]][3] : i1 from vector<4xi1>
func.func @compare(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xi1> {
  %0 = fuse.cmp lt, %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
  return %0 : tensor<?xi1>
}

// A 0-d kernel has one element: the vector never fits, and every lane is
// clamped to element 0.

// CHECK-LABEL: func @scalar
// CHECK:         gpu.launch
// CHECK:           math.tanh {{.*}} : vector<4xf32>
// CHECK:           } else {
// CHECK:             %[[LAST:.+]] = arith.subi %{{.+}}, %{{.+}} : index
// CHECK:             %[[P:.+]] = arith.minui %{{.+}}, %[[LAST]] : index
// CHECK:             memref.store %{{.+}}, %{{.+}}[%[[P]]] : memref<?xf32>
// CHECK-NOT:       scf.for
func.func @scalar(%a: tensor<f32>) -> tensor<f32> {
  %0 = fuse.tanh %a : tensor<f32>
  return %0 : tensor<f32>
}
