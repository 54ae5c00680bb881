// A program that launches no kernel has no PTX: --emit=ptx prints nothing
// but the split markers, says why in a remark on stderr, and succeeds (the
// program is valid).
// RUN: fuse-opt %s --emit=ptx -split-input-file 2>%t.err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=NOTE < %t.err

// OUT: // {{-+}}
// OUT-NEXT: // {{-+}}
// OUT-NOT: {{.}}

// NOTE: :[[@LINE+2]]:1: remark: no kernel, so no PTX: no function computes anything on the GPU (returning an argument or a constant needs no kernel)
// NOTE-NEXT: func.func @identity
func.func @identity(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}

// -----

// NOTE: :{{[0-9]+}}:1: remark: no kernel, so no PTX: no function computes anything on the GPU (returning an argument or a constant needs no kernel)
// NOTE-NEXT: func.func @constant
func.func @constant() -> tensor<3xf32> {
  %0 = fuse.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// An empty module.
// NOTE: remark: no kernel, so no PTX: the program has no function
// NOTE-NOT: remark
