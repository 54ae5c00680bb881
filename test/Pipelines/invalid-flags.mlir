// Flags fuse-opt rejects, each with a message that says what it takes.

// RUN: not fuse-opt %s --fuse-pipeline=bogus 2>&1 | FileCheck %s --check-prefix=STAGE
// STAGE: fuse-opt: error: unknown stage 'bogus' for --fuse-pipeline; expected one of linalg, fused, gpu, nvvm, ptx

// --fusion and --fuse-remarks only mean something with a pipeline.
// The error names the flags given (it named all ten, as if each applied to
// every one of those three).
// RUN: not fuse-opt %s --fusion=off 2>&1 | FileCheck %s --check-prefix=NO-PIPELINE
// RUN: not fuse-opt %s --fuse-remarks --chip=sm_80 2>&1 | FileCheck %s --check-prefix=NO-PIPELINE-TWO
// NO-PIPELINE: fuse-opt: error: --fusion shapes what --fuse-pipeline=STAGE, --fuse-report or --emit compiles (each refuses the flags it does not use), and none of them is given
// NO-PIPELINE-NOT: module
// NO-PIPELINE-TWO: fuse-opt: error: --fuse-remarks and --chip shape what --fuse-pipeline=STAGE, --fuse-report or --emit compiles

// RUN: not fuse-opt %s --fuse-pipeline=fused --fusion=maybe 2>&1 | FileCheck %s --check-prefix=FUSION-VALUE
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(fuse-lower{fusion=maybe})' 2>&1 | FileCheck %s --check-prefix=FUSION-VALUE-LOWER
// FUSION-VALUE: for the --fusion option: 'maybe' is not on, off, true or false
// FUSION-VALUE-LOWER: error: fuse-lower: fusion=maybe: takes on, off, true, false, 1 or 0

// fuse-lower's text (and the C API's options): unknown, repeated and
// malformed options are errors that say which.
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(fuse-lower{bogus=1})' 2>&1 | FileCheck %s --check-prefix=UNKNOWN-LOWER
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(fuse-lower{fusion=off fusion=on})' 2>&1 | FileCheck %s --check-prefix=TWICE-LOWER
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(fuse-lower{block-size=abc})' 2>&1 | FileCheck %s --check-prefix=INTEGER-LOWER
// UNKNOWN-LOWER: error: fuse-lower: no option 'bogus'; the options are stage, fusion, horizontal, remarks, block-size, vector-bytes, chip, features, opt-level, approx-exp, cuda-toolkit (docs/passes.md)
// TWICE-LOWER: error: fuse-lower: 'fusion' is given twice
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(fuse-lower{stage=gpu stage=linalg})' 2>&1 | FileCheck %s --check-prefix=TWICE-STAGE
// TWICE-STAGE: error: fuse-lower: 'stage' is given twice
// fuse-lower's passes are the module's: nested in functions it is an
// error (it was LLVM's fatal error, or nothing done with exit status 0).
// RUN: not fuse-opt %s --pass-pipeline='func.func(fuse-lower)' 2>&1 | FileCheck %s --check-prefix=NESTED-LOWER
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(func.func(fuse-lower{stage=linalg}))' 2>&1 | FileCheck %s --check-prefix=NESTED-LOWER
// NESTED-LOWER: error: fuse-lower: runs on the module, not in 'func.func': builtin.module(fuse-lower{...})
// INTEGER-LOWER: error: fuse-lower: block-size=abc: takes a decimal integer that fits its type

// Option values are checked before anything runs (checkPipelineOptions):
// one line that names the option, the value and what it takes, exit status
// 1, and no IR.
// RUN: not fuse-opt %s --emit=ptx --opt-level=4 2>&1 | FileCheck %s --check-prefix=OPT-LEVEL --implicit-check-not=func
// RUN: not fuse-run %s --target=cpu --opt-level=4 --dump-ptx=%t.ptx 2>&1 | FileCheck %s --check-prefix=OPT-LEVEL-EXEC
// OPT-LEVEL: fuse-opt: error: --opt-level=4 is out of range: LLVM's optimization levels are 0 to 3
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(fuse-lower{opt-level=4})' 2>&1 | FileCheck %s --check-prefix=OPT-LEVEL-LOWER --implicit-check-not=func
// OPT-LEVEL-EXEC: fuse-run: error: --opt-level=4 is out of range: LLVM's optimization levels are 0 to 3
// OPT-LEVEL-LOWER: error: fuse-lower: opt-level=4 is out of range: LLVM's optimization levels are 0 to 3

// RUN: not fuse-opt %s --emit=ptx --vector-bytes=0 2>&1 | FileCheck %s --check-prefix=VECTOR-BYTES --implicit-check-not=func
// RUN: not fuse-run %s --target=cpu --vector-bytes=0 --dump-ptx=%t.ptx 2>&1 | FileCheck %s --check-prefix=VECTOR-BYTES-EXEC
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(fuse-lower{vector-bytes=0})' 2>&1 | FileCheck %s --check-prefix=VECTOR-BYTES-LOWER --implicit-check-not=func
// VECTOR-BYTES: fuse-opt: error: --vector-bytes=0 is out of range: a thread's vector access is a power of two from 1 to 256 bytes
// VECTOR-BYTES-EXEC: fuse-run: error: --vector-bytes=0 is out of range: a thread's vector access is a power of two from 1 to 256 bytes
// VECTOR-BYTES-LOWER: error: fuse-lower: vector-bytes=0 is out of range: a thread's vector access is a power of two from 1 to 256 bytes
// Not a power of two (its vectors would have a lane count and an alignment
// LLVM cannot give them), or wider than 256 bytes (a thread's code grows with
// its lanes): refused too.
// RUN: not fuse-run %s --target=cpu --vector-bytes=600 --dump-ptx=%t.ptx 2>&1 | FileCheck %s --check-prefix=VECTOR-BYTES-ODD
// RUN: not fuse-opt %s --emit=ptx --vector-bytes=24 2>&1 | FileCheck %s --check-prefix=VECTOR-BYTES-24
// RUN: not fuse-opt %s --emit=ptx --vector-bytes=512 2>&1 | FileCheck %s --check-prefix=VECTOR-BYTES-WIDE
// VECTOR-BYTES-ODD: fuse-run: error: --vector-bytes=600 is out of range: a thread's vector access is a power of two from 1 to 256 bytes
// VECTOR-BYTES-24: fuse-opt: error: --vector-bytes=24 is out of range: a thread's vector access is a power of two from 1 to 256 bytes
// VECTOR-BYTES-WIDE: fuse-opt: error: --vector-bytes=512 is out of range: a thread's vector access is a power of two from 1 to 256 bytes

// RUN: not fuse-opt %s --emit=ptx --block-size=-5 2>&1 | FileCheck %s --check-prefix=BLOCK-SIZE --implicit-check-not=func
// RUN: not fuse-opt %s --fuse-pipeline=gpu --block-size=-5 2>&1 | FileCheck %s --check-prefix=BLOCK-SIZE --implicit-check-not=func
// RUN: not fuse-opt %s --fuse-report --block-size=0 2>&1 | FileCheck %s --check-prefix=BLOCK-SIZE-0 --implicit-check-not=add_relu
// RUN: not fuse-opt %s --fuse-pipeline=gpu --block-size=1025 2>&1 | FileCheck %s --check-prefix=BLOCK-SIZE-LARGE --implicit-check-not=func
// RUN: not fuse-run %s --target=cpu --block-size=-5 2>&1 | FileCheck %s --check-prefix=BLOCK-SIZE-EXEC
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(fuse-lower{stage=gpu block-size=-5})' 2>&1 | FileCheck %s --check-prefix=BLOCK-SIZE-LOWER --implicit-check-not=func
// BLOCK-SIZE: fuse-opt: error: --block-size=-5 is out of range: a CUDA block has 1 to 1024 threads
// BLOCK-SIZE-0: fuse-opt: error: --block-size=0 is out of range: a CUDA block has 1 to 1024 threads
// BLOCK-SIZE-LARGE: fuse-opt: error: --block-size=1025 is out of range: a CUDA block has 1 to 1024 threads
// BLOCK-SIZE-EXEC: fuse-run: error: --block-size=-5 is out of range: a CUDA block has 1 to 1024 threads
// BLOCK-SIZE-LOWER: error: fuse-lower: block-size=-5 is out of range: a CUDA block has 1 to 1024 threads

// An integer flag is read in decimal, as fuse-lower's options are: a leading
// 0 is not octal (LLVM's own parser made --block-size=0100 64 threads), and
// 0x is refused.
// RUN: fuse-opt %s --emit=ptx --block-size=0100 | FileCheck %s --check-prefix=DECIMAL
// RUN: not fuse-opt %s --emit=ptx --block-size=0x40 2>&1 | FileCheck %s --check-prefix=HEX --implicit-check-not=.version
// RUN: not fuse-run %s --target=cpu --seed=0x10 --input rand:4 --input rand:4 2>&1 | FileCheck %s --check-prefix=HEX-SEED --implicit-check-not=result
// RUN: not fuse-run %s --target=cpu --threads=0b1 --input rand:4 --input rand:4 2>&1 | FileCheck %s --check-prefix=HEX-THREADS --implicit-check-not=result
// RUN: fuse-run %s --target=cpu --repeat=010 --profile --input rand:4 --input rand:4 | FileCheck %s --check-prefix=DECIMAL-REPEAT
// DECIMAL: .maxntid 100, 1, 1
// HEX: fuse-opt: for the --block-size option: '0x40' is not a decimal integer that fits its type
// HEX-SEED: fuse-run: for the --seed option: '0x10' is not a decimal integer that fits its type
// HEX-THREADS: fuse-run: for the --threads option: '0b1' is not a decimal integer that fits its type
// DECIMAL-REPEAT: fused_add_relu_0 9

// An unknown chip is refused, with the chips LLVM's NVPTX back end knows
// (its processor table, oldest first), instead of LLVM's warning and PTX for
// the oldest chip. The stages that never reach LLVM check it too.
// RUN: not fuse-opt %s --emit=ptx --chip=sm_bogus 2>&1 | FileCheck %s --check-prefix=CHIP --implicit-check-not=warning --implicit-check-not=.version
// RUN: not fuse-opt %s --fuse-pipeline=linalg --chip=sm_bogus 2>&1 | FileCheck %s --check-prefix=CHIP --implicit-check-not=func
// RUN: not fuse-run %s --target=cpu --chip=sm_bogus 2>&1 | FileCheck %s --check-prefix=CHIP-UNUSED
// CHIP-UNUSED: fuse-run: error: --chip shapes only the GPU's kernels, and the run is on the CPU
// RUN: not fuse-run %s --target=cpu --chip=sm_bogus --dump-ptx=%t.ptx 2>&1 | FileCheck %s --check-prefix=CHIP-EXEC
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(fuse-lower{chip=sm_bogus})' 2>&1 | FileCheck %s --check-prefix=CHIP-LOWER --implicit-check-not=.version
// CHIP: fuse-opt: error: --chip=sm_bogus is not a GPU architecture that LLVM's NVPTX back end knows; it knows sm_20, sm_21, sm_30, {{.*}}, sm_89, sm_90, sm_90a, sm_100, sm_100a, {{.*}}{{$}}
// CHIP-EXEC: fuse-run: error: --chip=sm_bogus is not a GPU architecture that LLVM's NVPTX back end knows; it knows sm_20, {{.*}}, sm_90, sm_90a, sm_100, {{.*}}{{$}}
// CHIP-LOWER: error: fuse-lower: chip=sm_bogus is not a GPU architecture that LLVM's NVPTX back end knows; it knows sm_20, {{.*}}, sm_90, {{.*}}{{$}}
// The C API's error for it (from Python): test/Python/target-errors.test.

// PTX features are +NAME or -NAME with a name of LLVM's NVPTX feature table.
// RUN: not fuse-opt %s --emit=ptx --ptx-features=+bogus 2>&1 | FileCheck %s --check-prefix=FEATURE --implicit-check-not=warning --implicit-check-not=.version
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(fuse-lower{features=+ptx80,+bogus})' 2>&1 | FileCheck %s --check-prefix=FEATURE-LOWER
// RUN: not fuse-opt %s --emit=ptx --ptx-features=ptx80 2>&1 | FileCheck %s --check-prefix=FEATURE-SIGN
// FEATURE: fuse-opt: error: --ptx-features=+bogus: '+bogus' is not a feature of LLVM's NVPTX back end, which knows ptx32, ptx40, {{.*}}, ptx80, {{.*}}
// A chip among the features was ignored (LLVM lists them as features).
// RUN: not fuse-opt %s --emit=ptx --ptx-features=+sm_80 --chip=sm_90 2>&1 | FileCheck %s --check-prefix=FEATURE-CHIP
// FEATURE-CHIP: fuse-opt: error: --ptx-features=+sm_80: '+sm_80' names a GPU architecture, not a PTX feature: --chip chooses the architecture
// FEATURE-LOWER: error: fuse-lower: features=+ptx80,+bogus: '+bogus' is not a feature
// FEATURE-SIGN: fuse-opt: error: --ptx-features=ptx80: 'ptx80' needs a + (enable) or a - (disable) in front

// A PTX version older than the chip needs, refused before anything runs
// (the linalg stage would never reach LLVM, whose own check is a fatal
// error): Pipelines/ptx-minimum.test checks every chip.
// RUN: not fuse-opt %s --fuse-pipeline=linalg --ptx-features=+ptx60 2>&1 | FileCheck %s --check-prefix=PTX-VERSION --implicit-check-not=func
// PTX-VERSION: fuse-opt: error: --ptx-features=+ptx60 asks for PTX 6.0, older than --chip=sm_90 takes: LLVM emits PTX 7.8 (+ptx78) or later for it

// RUN: not fuse-opt %s --fuse-report=xml 2>&1 | FileCheck %s --check-prefix=REPORT
// REPORT: fuse-opt: error: --fuse-report takes text, json, dot or html, not 'xml'
// An empty value of a flag whose value may be left out is refused (it
// read as the flag alone: the text report, fusion on).
// RUN: not fuse-opt %s --fuse-report= 2>&1 | FileCheck %s --check-prefix=EMPTY-FORM
// EMPTY-FORM: fuse-opt: error: --fuse-report= has no value: give --fuse-report alone, or a value after the =
// RUN: not fuse-opt %s --emit=ptx --approx-exp= 2>&1 | FileCheck %s --check-prefix=EMPTY-SWITCH
// EMPTY-SWITCH: fuse-opt: error: --approx-exp= has no value: give --approx-exp alone, or a value after the =
// RUN: not fuse-translate %s --fuse-to-ptx --fusion= 2>&1 | FileCheck %s --check-prefix=EMPTY-TRANSLATE
// EMPTY-TRANSLATE: fuse-translate: error: --fusion= has no value: give --fusion alone, or a value after the =
// RUN: not fuse-run %s --fusion= 2>&1 | FileCheck %s --check-prefix=EMPTY-RUNNER
// EMPTY-RUNNER: fuse-run: error: --fusion= has no value: give --fusion alone, or a value after the =
// fuse-run's own switches take on and off as the pipeline's flags do
// (--check=off was "invalid value for boolean argument! Try 0 or 1").
// RUN: fuse-run %fuse_src_root/examples/add_relu.mlir --target=cpu --check=off --profile=off --input fill:1:2 --input fill:1:2 2>&1 | FileCheck %s --check-prefix=SWITCH-OFF --implicit-check-not=check: --implicit-check-not=Calls
// SWITCH-OFF: result 0: float32 [2] = [2, 2]
// RUN: not fuse-run %fuse_src_root/examples/add_relu.mlir --target=cpu --check=maybe 2>&1 | FileCheck %s --check-prefix=SWITCH-BAD
// SWITCH-BAD: fuse-run: for the --check option: 'maybe' is not on, off, true or false

// RUN: not fuse-opt %s --emit=llvm 2>&1 | FileCheck %s --check-prefix=EMIT
// EMIT: fuse-opt: error: --emit takes ptx, not 'llvm'

// RUN: not fuse-opt %s --emit=ptx --cuda-toolkit=%t.none 2>&1 | FileCheck %s --check-prefix=TOOLKIT
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(fuse-lower{cuda-toolkit=%t.none})' 2>&1 | FileCheck %s --check-prefix=TOOLKIT-LOWER
// TOOLKIT: fuse-opt: error: --cuda-toolkit={{.*}}.none has no nvvm/libdevice/libdevice.10.bc
// TOOLKIT-LOWER: error: fuse-lower: cuda-toolkit={{.*}}.none has no nvvm/libdevice/libdevice.10.bc

// Passes named on the command line with --emit or --fuse-report never ran
// (exit 0, the usual output); --pass-pipeline replaced --fuse-pipeline's
// stage (the program printed unlowered). Both are refused; passes named as
// flags run after a stage.
// RUN: not fuse-opt %s --emit=ptx --fuse-check-program 2>&1 | FileCheck %s --check-prefix=NAMED-EMIT --implicit-check-not=.version
// RUN: not fuse-opt %s --fuse-report --convert-fuse-to-linalg 2>&1 | FileCheck %s --check-prefix=NAMED --implicit-check-not=add_relu
// RUN: not fuse-opt %s --fuse-report --pass-pipeline='builtin.module(cse)' 2>&1 | FileCheck %s --check-prefix=NAMED --implicit-check-not=add_relu
// RUN: not fuse-opt %s --fuse-pipeline=fused --pass-pipeline='builtin.module(cse)' 2>&1 | FileCheck %s --check-prefix=STAGE-PIPELINE --implicit-check-not=func
// RUN: fuse-opt %s --fuse-pipeline=fused --cse | FileCheck %s --check-prefix=STAGE-PASSES
// NAMED: fuse-opt: error: --fuse-report runs its own pipeline; the passes named on the command line would not run: name them with --fuse-pipeline=STAGE (they run after it) or alone
// NAMED-EMIT: fuse-opt: error: --emit runs its own pipeline; the passes named
// The error names the one of --emit and --fuse-report given (it named both).
// RUN: not fuse-opt %s --emit=ptx --fuse-pipeline=ptx 2>&1 | FileCheck %s --check-prefix=EMIT-STAGE
// EMIT-STAGE: fuse-opt: error: --emit compiles the whole program itself; drop --fuse-pipeline
// STAGE-PIPELINE: fuse-opt: error: --pass-pipeline replaces the whole pipeline, --fuse-pipeline's stage too; name the passes to run after the stage as flags (--fuse-pipeline=fused --cse)
// STAGE-PASSES: linalg.generic

// The pipelines' own passes' options, run by hand, are checked as the
// others' (blocks-per-sm=-5 gave nvvm.minctasm = 1; any chip was taken).
// RUN: not fuse-opt %s --fuse-pipeline=gpu --fuse-full-occupancy=blocks-per-sm=-5 2>&1 | FileCheck %s --check-prefix=BLOCKS-PER-SM
// RUN: not fuse-opt %s --fuse-pipeline=gpu --fuse-full-occupancy=blocks-per-sm=0 2>&1 | FileCheck %s --check-prefix=BLOCKS-PER-SM-0
// RUN: not fuse-opt %s --fuse-pipeline=gpu --fuse-check-warp-shuffles=chip=bogus 2>&1 | FileCheck %s --check-prefix=SHUFFLE-CHIP
// BLOCKS-PER-SM: fuse-opt: error: fuse-full-occupancy: blocks-per-sm=-5 is not a number of blocks; give 1 or more
// BLOCKS-PER-SM-0: fuse-opt: error: fuse-full-occupancy: blocks-per-sm=0 is not a number of blocks
// SHUFFLE-CHIP: fuse-opt: error: fuse-check-warp-shuffles: chip=bogus is not a GPU architecture that LLVM's NVPTX back end knows; it knows sm_20, sm_21, sm_30,

// Every chip LLVM knows is taken.
// RUN: fuse-opt %s --emit=ptx --chip=sm_20 | FileCheck %s --check-prefix=OLDEST
// RUN: fuse-opt %s --emit=ptx --chip=sm_121f | FileCheck %s --check-prefix=NEWEST
// OLDEST: .target sm_20
// NEWEST: .target sm_121f

func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// The fusion options do nothing to the eager form (--fusion=off), and are
// refused with it as fuse-lower's options too (they were ignored).
// RUN: not fuse-opt %s --fuse-pipeline=gpu --fusion=off --fuse-horizontal=off 2>&1 | FileCheck %s --check-prefix=EAGER-HORIZONTAL
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(fuse-lower{stage=gpu fusion=off remarks=on})' 2>&1 | FileCheck %s --check-prefix=EAGER-REMARKS-LOWER
// EAGER-HORIZONTAL: fuse-opt: error: --fuse-horizontal=off keeps independent kernels apart, and with --fusion=off nothing is fused: drop one of them
// EAGER-REMARKS-LOWER: error: fuse-lower: remarks says why fusion left producer/consumer pairs apart, and with fusion=off nothing is fused: drop one of them

// fuse-lower as a pass after the stage lowered the stage's output again,
// and said that its arguments were memrefs.
// RUN: not fuse-opt %s --fuse-pipeline=gpu --fuse-lower=stage=gpu 2>&1 | FileCheck %s --check-prefix=STAGE-AND-LOWER
// RUN: not fuse-opt %s --fuse-lower=stage=ptx --emit=ptx 2>&1 | FileCheck %s --check-prefix=LOWER-AND-PTX
// LOWER-AND-PTX: fuse-opt: error: --emit runs its own pipeline; the passes named on the command line would not run
// STAGE-AND-LOWER: fuse-opt: error: --fuse-lower lowers the program as --fuse-pipeline does, and would lower its output again: give one of them

// A flag of one value given twice was the last one, without a word.
// RUN: not fuse-opt %s --fuse-pipeline=gpu --fuse-pipeline=linalg 2>&1 | FileCheck %s --check-prefix=TWICE-STAGE-FLAG
// RUN: not fuse-opt %s --fuse-report=text --fuse-report=json 2>&1 | FileCheck %s --check-prefix=TWICE-REPORT
// RUN: not fuse-run %s --target=cpu --entry=add_relu --entry=@add_relu 2>&1 | FileCheck %s --check-prefix=TWICE-ENTRY
// TWICE-STAGE-FLAG: fuse-opt: error: --fuse-pipeline is given more than once: give it once
// TWICE-REPORT: fuse-opt: error: --fuse-report is given more than once: give it once
// TWICE-ENTRY: fuse-run: error: --entry is given more than once: give it once
// RUN: not fuse-opt %s -o %t.a -o %t.b 2>&1 | FileCheck %s --check-prefix=TWICE-OUTPUT
// TWICE-OUTPUT: fuse-opt: error: -o is given more than once: give it once
// An empty --entry= named no function and was taken as absent; @@name was
// taken as name.
// RUN: not fuse-run %s --target=cpu --entry= 2>&1 | FileCheck %s --check-prefix=EMPTY-ENTRY
// RUN: not fuse-run %s --target=cpu --entry=@@add_relu --input rand:2 --input rand:2 2>&1 | FileCheck %s --check-prefix=DOUBLE-AT
// EMPTY-ENTRY: fuse-run: error: --entry='' names no function: give its name, as --entry=NAME or --entry=@NAME
// DOUBLE-AT: fuse-run: error: no function @"@add_relu" with a body in the program (it has @add_relu)

// mlir-opt's flags for the pass manager and the printed IR do nothing to
// the report and the PTX, which run their own pipeline.
// RUN: not fuse-opt %s --fuse-report --mlir-timing 2>&1 | FileCheck %s --check-prefix=IR-FLAG-REPORT
// RUN: not fuse-opt %s --emit=ptx --mlir-print-ir-after-all 2>&1 | FileCheck %s --check-prefix=IR-FLAG-PTX
// IR-FLAG-REPORT: fuse-opt: error: --mlir-timing is a flag of mlir-opt's pass manager or IR printer, and --fuse-report compiles with its own pass manager and prints no IR, so it would do nothing (even given its default value): use it with --fuse-pipeline=STAGE
// IR-FLAG-PTX: fuse-opt: error: --mlir-print-ir-after-all is a flag of mlir-opt's pass manager or IR printer, and --emit compiles
// RUN: not fuse-opt %s --fuse-report --log-actions-to=%t.log 2>&1 | FileCheck %s --check-prefix=IR-FLAG-LOG
// IR-FLAG-LOG: fuse-opt: error: --log-actions-to is a flag of mlir-opt's
// --dump-pass-pipeline printed an empty pass manager before the error.
// RUN: not fuse-opt %s --emit=ptx --dump-pass-pipeline 2>&1 | FileCheck %s --check-prefix=IR-FLAG-DUMP
// IR-FLAG-DUMP-NOT: Pass Manager
// IR-FLAG-DUMP: fuse-opt: error: --dump-pass-pipeline is a flag of mlir-opt's
// fuse-translate's translations too (it printed the PTX and took no notice);
// nothing is written.
// RUN: not fuse-translate %s --fuse-to-ptx --mlir-print-debuginfo -o %t.ptx 2>&1 | FileCheck %s --check-prefix=IR-FLAG-TRANSLATE
// RUN: not test -e %t.ptx
// RUN: not fuse-translate %s --fuse-report --mlir-print-op-generic 2>&1 | FileCheck %s --check-prefix=IR-FLAG-TRANSLATE-REPORT
// IR-FLAG-TRANSLATE: fuse-translate: error: --mlir-print-debuginfo is a flag of MLIR's IR printer or pass manager, and the translations compile with their own pass manager and print no IR, so it would do nothing (even given its default value): use it with fuse-opt --fuse-pipeline=STAGE
// IR-FLAG-TRANSLATE-REPORT: fuse-translate: error: --mlir-print-op-generic is a flag of MLIR's

// An option that the stage asked for does not use would be ignored without
// a word: the error names it and the stages it shapes. A value that is the
// default asks for nothing.
// RUN: not fuse-opt %s --fuse-pipeline=linalg --chip=sm_80 2>&1 | FileCheck %s --check-prefix=UNUSED-LINALG
// RUN: not fuse-opt %s --fuse-pipeline=fused --block-size=128 2>&1 | FileCheck %s --check-prefix=UNUSED-FUSED
// RUN: not fuse-opt %s --fuse-pipeline=cpu --ptx-features=+ptx80 2>&1 | FileCheck %s --check-prefix=UNUSED-CPU
// RUN: not fuse-opt %s --fuse-report --vector-bytes=4 2>&1 | FileCheck %s --check-prefix=UNUSED-REPORT
// RUN: not fuse-translate %s --fuse-report-json --opt-level=3 2>&1 | FileCheck %s --check-prefix=UNUSED-TRANSLATE
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(fuse-lower{stage=gpu approx-exp=on})' 2>&1 | FileCheck %s --check-prefix=UNUSED-LOWER
// RUN: fuse-opt %s --fuse-pipeline=fused --block-size=256 --approx-exp=off | FileCheck %s --check-prefix=DEFAULTS
// RUN: fuse-opt %s --pass-pipeline='builtin.module(fuse-lower{stage=fused chip=sm_90 block-size=256})' | FileCheck %s --check-prefix=DEFAULTS
// RUN: fuse-opt %s --fuse-report=json --fusion=on --fuse-remarks=off | FileCheck %s --check-prefix=DEFAULTS-REPORT
// DEFAULTS-REPORT: "name": "fused_add_relu_0"
// RUN: fuse-opt %s --fuse-pipeline=gpu --block-size=128 --fuse-horizontal=off | FileCheck %s --check-prefix=USED-GPU
// UNUSED-LINALG: fuse-opt: error: --chip has no effect on --fuse-pipeline=linalg: it shapes only the nvvm, ptx and cuda stages
// UNUSED-FUSED: fuse-opt: error: --block-size has no effect on --fuse-pipeline=fused: it shapes only the gpu, nvvm, ptx, cpu and cuda stages
// UNUSED-CPU: fuse-opt: error: --ptx-features has no effect on --fuse-pipeline=cpu: it shapes only the nvvm, ptx and cuda stages
// UNUSED-REPORT: fuse-opt: error: --vector-bytes has no effect on the report: it shapes only the gpu, nvvm, ptx and cuda stages
// UNUSED-TRANSLATE: fuse-translate: error: --opt-level has no effect on the report: it shapes only the nvvm, ptx and cuda stages
// UNUSED-LOWER: error: fuse-lower: approx-exp has no effect on stage=gpu: it shapes only the nvvm, ptx and cuda stages
// DEFAULTS: fuse.kernel = "fused_add_relu_0"
// USED-GPU: gpu.launch_func @fuse_kernels::@fused_add_relu_0 blocks in ({{.+}}) threads in (%c128, %c1, %c1)
