// RUN: fuse-opt %s --fuse-pipeline=gpu | FileCheck %s --check-prefix=PIPELINE
// RUN: fuse-run %s --target=cpu --input rand:1x1x0 --input rand:1x1x1 --input rand:1x0 --check | FileCheck %s --check-prefix=EXEC

// Found by test/Fuzz/difftest.py (seed 380150, minimized):
// the sum's operand, 1 x ? x ?, is collapsed to one row, and becomes
// 1 x ? x 0 once the select's broadcast equates its last size with 0.
// PIPELINE-LABEL: func @prog
// PIPELINE-NOT: memref.collapse_shape
// PIPELINE: gpu.launch_func
// EXEC: check: result 0 matches eager (0 elements)
func.func @prog(%a1: tensor<1x?x?xf32>, %a2: tensor<1x1x1xf32>, %a3: tensor<?x0xf32>) -> tensor<1x?x0xf32> {
  %v3 = fuse.sub %a1, %a2 : tensor<1x?x?xf32>, tensor<1x1x1xf32> -> tensor<1x?x?xf32>
  %v4 = fuse.reduce_sum %v3 {dims = array<i64: 0, 1, 2>} : tensor<1x?x?xf32> -> tensor<1x1x1xf32>
  %v5 = fuse.div %v3, %v4 : tensor<1x?x?xf32>, tensor<1x1x1xf32> -> tensor<1x?x?xf32>
  %c = fuse.cmp ne, %v5, %v3 : tensor<1x?x?xf32>, tensor<1x?x?xf32> -> tensor<1x?x?xi1>
  %v9 = fuse.select %c, %v3, %a3 : tensor<1x?x?xi1>, tensor<1x?x?xf32>, tensor<?x0xf32> -> tensor<1x?x0xf32>
  return %v9 : tensor<1x?x0xf32>
}
