// RUN: not fuse-opt %s --fuse-pipeline=fused 2>&1 | FileCheck %s
// RUN: not fuse-opt %s --fuse-pipeline=linalg 2>&1 | FileCheck %s

// The tensor stages lower the fuse ops of the top-level module's functions
// among any other ops; a fuse op in a nested module was left as it was,
// and the stage succeeded. The stages that compile to kernels refuse the
// nested module itself (check-program.mlir).
// CHECK: nested-module.mlir:[[# @LINE + 5]]:12: error: 'fuse.relu' is not in a function of the top-level module: fuse lowers those only
// CHECK: nested-module.mlir:[[# @LINE + 2]]:3: note: in this nested module
module {
  module @inner {
    func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {
      %0 = fuse.relu %a : tensor<?xf32>
      return %0 : tensor<?xf32>
    }
  }
}
