// fuse-translate prints a program as PTX or as the report; fuse-opt's
// --emit=ptx and --fuse-report[=FORM] are the same translations, with the
// same flags (PipelineOptions.def).

// RUN: fuse-translate %s --fuse-to-ptx -o %t.translate.ptx
// RUN: fuse-opt %s --emit=ptx -o %t.opt.ptx
// RUN: diff %t.translate.ptx %t.opt.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.translate.ptx
// PTX: // gpu.module @fuse_kernels
// PTX: .target sm_90
// PTX: .entry fused_add_relu_0(

// RUN: fuse-translate %s --fuse-to-ptx --fusion=off --chip=sm_80 | FileCheck %s --check-prefix=PTX-EAGER
// PTX-EAGER: .target sm_80
// PTX-EAGER: .entry add_0(
// PTX-EAGER: .entry relu_1(

// RUN: fuse-translate %s --fuse-report | FileCheck %s --check-prefix=REPORT
// REPORT: @add_relu  N = argument 0 dimension 0
// REPORT-NEXT:   fused: 1 kernel, 12*N bytes (read 8*N, written 4*N)

// RUN: fuse-translate %s --fuse-report-json -o %t.translate.json
// RUN: fuse-opt %s --fuse-report=json -o %t.opt.json
// RUN: diff %t.translate.json %t.opt.json
// RUN: fuse-translate %s --fuse-report-dot --fusion=off -o %t.translate.dot
// RUN: fuse-opt %s --fuse-report=dot --fusion=off -o %t.opt.dot
// RUN: diff %t.translate.dot %t.opt.dot
// RUN: FileCheck %s --check-prefix=DOT < %t.translate.dot
// DOT: label="add_0
// RUN: fuse-translate %s --fuse-report-html | FileCheck %s --check-prefix=HTML
// HTML: <title>fuse report: {{.*}}translations.mlir</title>

// Each part of a split file is translated on its own (mlir-translate joins
// the outputs with nothing in between unless told).
// RUN: fuse-translate %S/Inputs/two-programs.mlir --split-input-file --output-split-marker='// -----' --fuse-report | FileCheck %s --check-prefix=SPLIT
// SPLIT: @first
// SPLIT: // -----
// SPLIT: @second
// A json, dot or html report is one document, which parts printed one
// after the other are not (two pages in one file, JSON values one after
// the other): refused, once, by both tools.
// RUN: not fuse-translate %S/Inputs/two-programs.mlir --split-input-file --fuse-report-html 2>&1 | FileCheck %s --check-prefix=SPLIT-DOCUMENT --implicit-check-not=error --implicit-check-not=html
// RUN: not fuse-translate %S/Inputs/two-programs.mlir --split-input-file --fuse-report-json 2>&1 | FileCheck %s --check-prefix=SPLIT-DOCUMENT --implicit-check-not=error --implicit-check-not=functions
// RUN: not fuse-opt %S/Inputs/two-programs.mlir --split-input-file --fuse-report=dot 2>&1 | FileCheck %s --check-prefix=SPLIT-DOCUMENT --implicit-check-not=error --implicit-check-not=digraph
// SPLIT-DOCUMENT: {{^fuse-(translate|opt)}}: error: --split-input-file prints a report per part, one after the other, and a json, dot or html report is one document: report each part on its own, or use the text form

// Bad flags are refused as fuse-opt refuses them, with no output.
// RUN: not fuse-translate %s --fuse-report --fuse-remarks 2>&1 | FileCheck %s --check-prefix=REMARKS --implicit-check-not=kernel
// REMARKS: fuse-translate: error: --fuse-report shows fused and eager side by side, and --fuse-remarks does not apply to it (the html form (--fuse-report=html; fuse-translate: --fuse-report-html) has the remarks of both)
// RUN: not fuse-translate %s --fuse-to-ptx --block-size=-5 2>&1 | FileCheck %s --check-prefix=BLOCK-SIZE --implicit-check-not=.entry
// BLOCK-SIZE: fuse-translate: error: --block-size=-5 is out of range: a CUDA block has 1 to 1024 threads

// One translation: two were applied one after the other (the report read
// as MLIR), and none was said five times.
// RUN: not fuse-translate %s --fuse-report --fuse-to-ptx 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: fuse-translate: error: give one translation: --fuse-to-ptx, --fuse-report, --fuse-report-json, --fuse-report-dot, --fuse-report-html
// RUN: not fuse-translate %s 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: fuse-translate: error: no translation given: --fuse-to-ptx, --fuse-report, --fuse-report-json, --fuse-report-dot, --fuse-report-html
// NONE-NOT: fuse-translate
// fuse-opt's spellings of a translation, or of a stage, are named as
// fuse-opt's (the unknown flag was not said, only that none was given).
// A flag of one value given twice is refused, as fuse-opt refuses it (the
// last one was taken).
// RUN: not fuse-translate %s --fuse-to-ptx --chip=sm_80 --chip=sm_90 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: fuse-translate: error: --chip is given more than once: give it once
// RUN: not fuse-translate %s --fuse-pipeline=gpu 2>&1 | FileCheck %s --check-prefix=OPT-FLAG -DFLAG=--fuse-pipeline=gpu
// RUN: not fuse-translate %s --fuse-report=json 2>&1 | FileCheck %s --check-prefix=OPT-FLAG -DFLAG=--fuse-report=json
// RUN: not fuse-translate %s --emit=ptx 2>&1 | FileCheck %s --check-prefix=OPT-FLAG -DFLAG=--emit=ptx
// OPT-FLAG: fuse-translate: error: no translation given: --fuse-to-ptx, {{.*}}, --fuse-report-html ([[FLAG]] is fuse-opt's; fuse-translate takes a translation as a flag of its own)

// A program the pipeline refuses: the error points at the op.
// RUN: not fuse-translate %S/Inputs/not-fuse.mlir --fuse-to-ptx 2>&1 | FileCheck %s --check-prefix=NOT-FUSE
// NOT-FUSE: not-fuse.mlir:{{[0-9]+}}:{{[0-9]+}}: error:
// NOT-FUSE-NOT: "func.func"

func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}
