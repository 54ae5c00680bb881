// A program that does not verify, or that is not a fuse program, gives the
// usual located error and exit status 1, and no report, graph or page:
// nothing on standard output, no file for -o. (The parts of a split file
// each get their report in the text form; a graph or a page is one
// document, of the whole file.)
// RUN: not fuse-opt %s -split-input-file --fuse-report 2>%t.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s < %t.err
// RUN: not fuse-opt %s --fuse-report=dot 2>%t.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=WHOLE < %t.err
// RUN: rm -f %t.html
// RUN: not fuse-opt %s --fuse-report=html -o %t.html 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: not test -e %t.html

// The only output is the separator of the two parts.
// OUT-NOT: digraph
// OUT-NOT: <html
// OUT-NOT: kernel

func.func @bad(%a: tensor<4xf32>, %b: tensor<5xf32>) -> tensor<4xf32> {
  // CHECK: graph-errors.mlir:[[@LINE+2]]:8: error: 'fuse.add' op operands are not broadcast-compatible: tensor<4xf32> vs tensor<5xf32> (dimension 0: 4 vs 5)
  // WHOLE: graph-errors.mlir:[[@LINE+1]]:8: error: 'fuse.add' op operands are not broadcast-compatible: tensor<4xf32> vs tensor<5xf32> (dimension 0: 4 vs 5)
  %0 = fuse.add %a, %b : tensor<4xf32>, tensor<5xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @mixed(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  // CHECK: error: 'arith.mulf' is not a fuse op: fuse compiles functions made of fuse ops and func.return
  %1 = arith.mulf %0, %b : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// Flags: the report's forms are listed, and --fusion picks the variant of
// the graph only.
// RUN: not fuse-opt %s --fuse-report=svg 2>&1 | FileCheck %s --check-prefix=FORM
// RUN: not fuse-opt %s --fuse-report=html --fusion=off 2>&1 | FileCheck %s --check-prefix=FUSION
// RUN: not fuse-opt %s --fuse-report=dot --fuse-remarks 2>&1 | FileCheck %s --check-prefix=REMARKS
// FORM: fuse-opt: error: --fuse-report takes text, json, dot or html, not 'svg'
// FUSION: fuse-opt: error: --fuse-report shows fused and eager side by side; --fusion applies only to its dot form (--fuse-report=dot; fuse-translate: --fuse-report-dot), which draws one of the two
// REMARKS: fuse-opt: error: --fuse-report shows fused and eager side by side, and --fuse-remarks does not apply to it (the html form (--fuse-report=html; fuse-translate: --fuse-report-html) has the remarks of both)
