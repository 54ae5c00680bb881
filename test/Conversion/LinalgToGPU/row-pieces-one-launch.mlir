// RUN: fuse-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --fuse-map-to-gpu --canonicalize | FileCheck %s
// RUN: fuse-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --fuse-map-to-gpu="cpu-threads=true vector-bytes=16" --canonicalize | FileCheck %s --check-prefix=CPU

// fuse-map-to-gpu's one-launch form of few rows in pieces (RowForm::pieces
// without split): a kernel over few rows of a dynamic length whose sums a
// member over the whole space reads. fuse-reduction-fusion forms no such
// kernel (it keeps the division apart, and the pieces split); the input
// is the linalg form of such a group, written by hand (the fused stage of
// `x / sum(x, 1)` of a 3 x N matrix before it did). A warp per row goes
// over its pieces, each reduced from the identity and combined into lane p
// mod 32, the lanes combined at the end: the order of the split form (and
// of the eager, split sum). The host counts the pieces of a row: N / 1024
// rounded up to a power of two, at most 1024 (4096 shared by 3 rows,
// rounded to a power of two: RowForm::pieceCount).

// CHECK-LABEL: func @pieces(
// CHECK: memref.alloc
// CHECK: %[[N:.+]] = memref.dim %arg0, %c1
// CHECK: %[[LONGER:.+]] = arith.cmpi ugt, %[[N]], %c1024
// CHECK: %[[TWO:.+]] = arith.select %[[LONGER]], %c2, %c1
// CHECK: arith.cmpi ugt, %[[N]], %c524288
// CHECK: %[[COUNT:.+]] = arith.select %{{.+}}, %c1024, %{{.+}}
// CHECK: function(@fused_reduce_sum_div_{{[0-9]+}})
// CHECK: %[[LANE:.+]] = arith.remui %{{.+}}, %c32
// CHECK: %[[LEN:.+]] = arith.ceildivui %[[N]], %[[COUNT]]
// Pieces past the row's end are empty (their identity changes nothing):
// the loop ends at the last one that is not.
// CHECK: %[[STEP:.+]] = arith.maxui %[[LEN]], %c1
// CHECK: %[[FILLED:.+]] = arith.ceildivui %[[N]], %[[STEP]]
// CHECK: %[[ROWSUM:.+]] = scf.for %[[P:.+]] = %c0 to %[[FILLED]] step %c1 iter_args(%[[ACC:.+]] = %cst) -> (f32) {
// CHECK: scf.for
// CHECK-COUNT-5: gpu.shuffle down
// CHECK: %[[V:.+]], %{{.+}} = gpu.shuffle idx
// CHECK: %[[SLOT:.+]] = arith.remui %[[P]], %c32
// CHECK: %[[MINE:.+]] = arith.cmpi eq, %[[LANE]], %[[SLOT]]
// CHECK: %[[SUM:.+]] = arith.addf %[[ACC]], %[[V]]
// CHECK: %[[NEXT:.+]] = arith.select %[[MINE]], %[[SUM]], %[[ACC]]
// CHECK: scf.yield %[[NEXT]]
// CHECK-COUNT-5: gpu.shuffle down %{{.+}}
// CHECK: gpu.shuffle idx
// CHECK: arith.divf

// CPU-LABEL: func @pieces(
// CPU: scf.for %[[P:.+]] = %c0 to %{{.+}} step %c1 iter_args(%[[ACC:.+]] = %{{.+}}) -> (vector<32xf32>) {
// CPU: %[[SLOT:.+]] = arith.remui %[[P]], %c32
// CPU: %[[OLD:.+]] = vector.extract %[[ACC]][%[[SLOT]]]
// CPU: %[[NEW:.+]] = arith.addf %[[OLD]], %{{.+}} : f32
// CPU: vector.insert %[[NEW]], %[[ACC]] [%[[SLOT]]]
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
module {
  func.func @pieces(%arg0: tensor<3x?xf32>) -> tensor<3x?xf32> {
    %cst = arith.constant -0.000000e+00 : f32
    %c1 = arith.constant 1 : index
    %dim = tensor.dim %arg0, %c1 : tensor<3x?xf32>
    %0 = tensor.empty() : tensor<3xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<3xf32>) -> tensor<3xf32>
    %2 = tensor.empty(%dim) : tensor<3x?xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<3x?xf32>) outs(%1 : tensor<3xf32>) attrs =  {fuse.group = 0 : i64, fuse.kernel = "fused_reduce_sum_div_0", fuse.ops = ["reduce_sum"]} {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.addf %out, %in : f32
      linalg.yield %5 : f32
    } -> tensor<3xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %3 : tensor<3x?xf32>, tensor<3xf32>) outs(%2 : tensor<3x?xf32>) attrs =  {fuse.group = 0 : i64, fuse.kernel = "fused_reduce_sum_div_0", fuse.ops = ["div"]} {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %5 = arith.divf %in, %in_0 : f32
      linalg.yield %5 : f32
    } -> tensor<3x?xf32>
    return %4 : tensor<3x?xf32>
  }
}

