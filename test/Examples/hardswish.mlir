// The worked example of docs/extending.md: a new elementwise op, from ODS to
// numbers. Round trip, lowering, fusion with its neighbours, and values.
// RUN: fuse-opt %s | fuse-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: fuse-opt %s --convert-fuse-to-linalg | FileCheck %s --check-prefix=LINALG
// RUN: fuse-opt %s --fuse-pipeline=fused | FileCheck %s --check-prefix=FUSED
// RUN: fuse-run %s --target=cpu --input fill:-4:1 --input fill:-1.5:1 --input fill:0:1 --input fill:1:1 --input fill:4:1 | FileCheck %s --check-prefix=VALUES

// ROUNDTRIP: fuse.hardswish %{{.+}} : tensor<?xf32>

// LINALG: linalg.generic {{.*}}fuse.ops = ["hardswish"]
// LINALG: %[[SHIFTED:.+]] = arith.addf %{{.+}}, %{{.+}} : f32
// LINALG: %[[LOW:.+]] = arith.maximumf %[[SHIFTED]], %{{.+}} : f32
// LINALG: %[[RELU6:.+]] = arith.minimumf %[[LOW]], %{{.+}} : f32
// LINALG: %[[PROD:.+]] = arith.mulf %{{.+}}, %[[RELU6]] : f32
// LINALG: arith.divf %[[PROD]], %{{.+}} : f32

// FUSED: fuse.kernel = "fused_hardswish_add_0"

// hardswish(x) = x * min(max(x + 3, 0), 6) / 6 at -4, -1.5, 0, 1, 4 is
// 0, -0.375, 0, 0.666667, 4; plus 1:
// VALUES: result 0: float32 [1] = [1]
// VALUES: result 1: float32 [1] = [0.625]
// VALUES: result 2: float32 [1] = [1]
// VALUES: result 3: float32 [1] = [1.66667]
// VALUES: result 4: float32 [1] = [5]
func.func @hardswish_plus_one(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?xf32>, %d: tensor<?xf32>, %e: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %one = fuse.constant 1.0 : tensor<f32>
  %0 = fuse.hardswish %a : tensor<?xf32>
  %1 = fuse.add %0, %one : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %2 = fuse.hardswish %b : tensor<?xf32>
  %3 = fuse.add %2, %one : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %4 = fuse.hardswish %c : tensor<?xf32>
  %5 = fuse.add %4, %one : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %6 = fuse.hardswish %d : tensor<?xf32>
  %7 = fuse.add %6, %one : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  %8 = fuse.hardswish %e : tensor<?xf32>
  %9 = fuse.add %8, %one : tensor<?xf32>, tensor<f32> -> tensor<?xf32>
  return %1, %3, %5, %7, %9 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
