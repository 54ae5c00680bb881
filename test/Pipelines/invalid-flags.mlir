// Flags fuse-opt rejects, each with a message that says what it takes.

// RUN: not fuse-opt %s --fuse-pipeline=bogus 2>&1 | FileCheck %s --check-prefix=STAGE
// STAGE: fuse-opt: unknown stage 'bogus' for --fuse-pipeline; expected one of linalg, fused, gpu, nvvm, ptx

// --fusion and --fuse-remarks only mean something with a pipeline.
// RUN: not fuse-opt %s --fusion=off 2>&1 | FileCheck %s --check-prefix=NO-PIPELINE
// RUN: not fuse-opt %s --fuse-remarks 2>&1 | FileCheck %s --check-prefix=NO-PIPELINE
// NO-PIPELINE: fuse-opt: --fusion, --fuse-horizontal, --fuse-remarks, --block-size, --chip, --ptx-features, --opt-level and --cuda-toolkit apply to --fuse-pipeline, --fuse-report or --emit
// NO-PIPELINE-NOT: module

// RUN: not fuse-opt %s --fuse-pipeline=fused --fusion=maybe 2>&1 | FileCheck %s --check-prefix=FUSION-VALUE
// FUSION-VALUE: for the --fusion option: Cannot find option named 'maybe'!

// RUN: not fuse-opt %s --emit=ptx --opt-level=4 2>&1 | FileCheck %s --check-prefix=OPT-LEVEL
// OPT-LEVEL: fuse-opt: --opt-level takes 0 to 3, not 4

// RUN: not fuse-opt %s --fuse-report=xml 2>&1 | FileCheck %s --check-prefix=REPORT
// REPORT: fuse-opt: --fuse-report takes text or json, not 'xml'

// RUN: not fuse-opt %s --emit=llvm 2>&1 | FileCheck %s --check-prefix=EMIT
// EMIT: fuse-opt: --emit takes ptx, not 'llvm'

// RUN: not fuse-opt %s --emit=ptx --cuda-toolkit=%t.none 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// TOOLKIT: fuse-opt: --cuda-toolkit={{.*}}.none has no nvvm/libdevice/libdevice.10.bc

func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}
