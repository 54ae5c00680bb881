// RUN: fuse-opt %s --fuse-pipeline=fused --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --fuse-map-to-gpu | FileCheck %s
// RUN: fuse-opt %s --fuse-pipeline=fused --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --fuse-map-to-gpu=block-size=128 | FileCheck %s --check-prefix=BLOCK

// One thread owns 4 x f32: vector loads and stores when the vector fits,
// an element loop for the tail, no launch for an empty tensor.

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
// CHECK:             %[[FULL:.+]] = arith.cmpi ule, %[[END]], %[[N]] : index
// CHECK:             scf.if %[[FULL]] {
// CHECK:               %[[VA:.+]] = vector.load %[[FA]][%[[START]]] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK:               %[[VB:.+]] = vector.load %[[FB]][%[[START]]] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK:               %[[SUM:.+]] = arith.addf %[[VA]], %[[VB]] : vector<4xf32>
// CHECK:               %[[RELU:.+]] = arith.maximumf %[[SUM]], %{{.+}} : vector<4xf32>
// CHECK:               vector.store %[[RELU]], %[[FOUT]][%[[START]]] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK:             } else {
// CHECK:               %[[INRANGE:.+]] = arith.cmpi ult, %[[START]], %[[N]] : index
// CHECK:               scf.if %[[INRANGE]] {
// CHECK:                 scf.for %[[I:.+]] = %[[START]] to %[[N]] step
// CHECK:                   memref.load %[[FA]][%[[I]]] : memref<?xf32>
// CHECK:                   memref.load %[[FB]][%[[I]]] : memref<?xf32>
// CHECK:                   arith.addf {{.*}} : f32
// CHECK:                   arith.maximumf {{.*}} : f32
// CHECK:                   memref.store {{.*}}, %[[FOUT]][%[[I]]] : memref<?xf32>
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
// CHECK:           scf.if
// CHECK:             %[[X:.+]] = vector.load {{.*}} : memref<?xf32>, vector<4xf32>
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

// A 0-d kernel has one element: the vector never fits, the tail loop runs
// once.

// CHECK-LABEL: func @scalar
// CHECK:         gpu.launch
// CHECK:           scf.for
// CHECK:             math.tanh {{.*}} : f32
func.func @scalar(%a: tensor<f32>) -> tensor<f32> {
  %0 = fuse.tanh %a : tensor<f32>
  return %0 : tensor<f32>
}
