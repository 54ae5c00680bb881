// RUN: fuse-opt %s --split-input-file --verify-diagnostics --emit=ptx -o /dev/null
// RUN: fuse-opt %s --split-input-file --verify-diagnostics --fuse-report -o /dev/null
// RUN: sed 's#// expected-#// EXPECTED-#' %s | not fuse-opt --split-input-file --fuse-report 2>&1 | FileCheck %s
// RUN: sed 's#// expected-#// EXPECTED-#' %s | not fuse-opt --split-input-file --emit=ptx 2>&1 | FileCheck %s
// RUN: fuse-translate %s --split-input-file --verify-diagnostics --fuse-to-ptx -o /dev/null
// RUN: sed 's#// expected-#// EXPECTED-#' %s | not fuse-translate --split-input-file --fuse-to-ptx 2>&1 | FileCheck %s

// --emit and --fuse-report take --verify-diagnostics as the passes do
// (they printed the expected error as an error, exit status 1), and with
// --split-input-file an error is at the file's line (it was "within split
// at <stdin>:14 offset :3:8"), in fuse-translate's translations too.
func.func @fine(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.exp %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @integer_exp(%a: tensor<?xi32>) -> tensor<?xi32> {
  // expected-error @+1 {{'fuse.exp' op operand #0 must be ranked tensor of 16-bit float}}
  %0 = fuse.exp %a : tensor<?xi32>
  return %0 : tensor<?xi32>
}
// CHECK: <stdin>:[[# @LINE - 3]]:8: error: 'fuse.exp' op operand #0 must be ranked tensor of 16-bit float
