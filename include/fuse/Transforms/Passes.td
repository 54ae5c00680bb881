//===- Passes.td - fuse's passes on linalg and memref ------*- tablegen -*-===//
//
// The passes that keep the program's form: first on the linalg.generic
// kernels that convert-fuse-to-linalg creates (fusion, names), which read
// and write the fuse dialect's discardable attributes (fuse.ops, fuse.kernel)
// but no fuse op; then on the bufferized host code around the kernels
// (results, sizes, asserts, device memory).
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_TRANSFORMS_PASSES_TD
#define FUSE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseElementwiseFusion
    : Pass<"fuse-elementwise-fusion", "mlir::func::FuncOp"> {
  let summary = "Fuse every connected elementwise region into one generic";
  let description = [{
    Groups the elementwise `linalg.generic`s (on tensors) of a function into
    kernels and rewrites each group as ONE generic:

    - a producer is fused into every consumer that reads its result over the
      same iteration space, however many there are: its value is computed
      inside the kernel and only written to memory when something outside
      the kernel also needs it (a function result, another kernel);
    - a group with several outside uses yields several results (a
      multi-result kernel), and each distinct input is read once per element;
    - with `horizontal` (the default), independent groups over the same
      iteration space are merged too, as torch.compile does: each group
      with one of the 8 latest groups before it over its space (the latest
      first), so that compile time stays linear in a long chain.

    A one-value producer (0-d: `1 - beta`, `sqrt(d)`, a cast of a scalar
    argument) of at most 16 ops and no math function (exp, log, pow, sin,
    cos, tanh, erf: Adam's `b ** t`, which a kernel of one element computes
    once) is computed inside each elementwise consumer that reads it
    broadcast, at every element, rather than be a kernel of one element; it stays a kernel of its own too when something
    else uses it. Any other consumer that broadcasts a producer's result
    iterates over a different space, so the two stay apart; so do merges
    that would create a cycle
    through an op outside the kernel. With `remarks`, each producer/consumer
    pair that was not fused gets a remark at the consumer saying why, with a
    note at the producer; in a function with reductions the remarks go to
    the function's `fuse.unfused` instead, and fuse-reduction-fusion emits
    those of the pairs it does not join either.
  }];
  let options = [
    Option<"horizontal", "horizontal", "bool", /*default=*/"true",
           "Also merge independent groups over the same iteration space">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for each producer/consumer pair left unfused">,
    Option<"skipGroups", "skip-groups", "bool", /*default=*/"false",
           "Leave the generics of a fuse.group (a kernel with reductions) "
           "alone: run after fuse-reduction-fusion, it fuses the copies "
           "that a kernel over few rows made with what reads them">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def FuseReductionFusion
    : Pass<"fuse-reduction-fusion", "mlir::func::FuncOp"> {
  let summary = "Fuse each reduction with the generics over its rows";
  let description = [{
    Groups each reduction `linalg.generic` (on tensors) with the generics
    around it that run over the same rows into one kernel, marked by a
    shared `fuse.group`:

    - elementwise generics over the reduction's whole iteration space: the
      ones it reads (a prologue: `exp(x - max)` before a sum) and the ones
      that read its result broadcast over the row (`e / sum`);
    - elementwise generics over the rows, the dimensions it keeps (a mean's
      division by the count, `rsqrt(var + eps)`);
    - other reductions over the same rows (softmax's max and sum, layer
      norm's mean and variance), at most 4 on a path, each reading a value
      the one before went into, and none reading a math function (exp,
      log, tanh, ...) that reads a value of a reduction two levels below
      it: each of the kernel's passes over a row computes again what it
      reads, so that a chain of layer norms or of softmaxes in one kernel
      took time quadratic in its length.

    A value passed inside a group must be read where the kernel has it: a
    value over the whole space at the same position, a value of the rows at
    the reader's row. A generic that would close a cycle through an op
    outside the group stays out. The members are made adjacent (ops between
    them that depend on one move after the group). fuse-map-to-gpu runs each
    group as one launch whose threads each own a row, and values passed
    inside it never reach memory: softmax written as reduce_max, sub, exp,
    reduce_sum, div reads its input once and writes its result once.

    A reduction over few rows (reduced in pieces) or over strided rows (the
    innermost loop kept, or reduced loops that are not adjacent: a thread
    per row) takes no generic over the whole space that reads its result:
    that generic is left to another kernel (one of its own with a thread
    per element, or another reduction's), and what the group would store
    for it is copied instead, computed again where it is read.

    With `remarks`, each producer/consumer pair next to a reduction's kernel
    that stays apart gets a remark at the consumer saying why (different
    spaces, a read at other positions than the row, a cycle, few rows or
    strided rows), with a note at the producer; so does each pair of fuse-elementwise-fusion's
    remarks in `fuse.unfused` that is in two kernels after this pass.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for each pair next to a reduction left unfused">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def FuseNameKernels : Pass<"fuse-name-kernels", "mlir::ModuleOp"> {
  let summary = "Name every kernel after the ops it computes";
  let description = [{
    Sets `fuse.kernel` on every generic that came from fuse ops (the same
    name on the generics of one `fuse.group`, after all their ops), numbering
    kernels in program order across the module: `fused_add_relu_0` for a
    kernel of several ops, `add_1` for a kernel of one op (eager mode). Names
    list at most five ops; a longer kernel ends in `_plusN` for the N ops not
    listed (`fused_add_mul_exp_tanh_sub_plus3_2`). The same program always
    gets the same names.
  }];
  let options = [
    Option<"first", "first", "int64_t", /*default=*/"0",
           "The number of the first kernel: a function compiled alone "
           "(fuse-run --entry) is numbered after the kernels of the "
           "functions before it, as in its module">,
  ];
}

//===----------------------------------------------------------------------===//
// The bufferized host code
//===----------------------------------------------------------------------===//

def FuseExpandAllocs : Pass<"fuse-expand-allocs", "mlir::func::FuncOp"> {
  let summary = "Allocate buffers in the shapes they are viewed in";
  let description = [{
    A kernel over a reduction's rows of several dimensions (collapsed into
    one, `tensor.collapse_shape`) writes a buffer of the collapsed shape,
    which the program then reads or returns in its own shape
    (`memref.expand_shape`). Each `memref.expand_shape` of a `memref.alloc`
    becomes an allocation of the expanded shape, which what read the old
    one reads through a `memref.collapse_shape` (a view of a contiguous
    buffer): a result is then a fresh allocation, not a view that
    `fuse-own-results` would copy, and the host code has no
    `memref.expand_shape` of several dynamic sizes in one group, on which
    upstream's `expand-strided-metadata` crashes (LLVM 22). Any other
    `memref.expand_shape` of a contiguous buffer becomes the same view as a
    `memref.reinterpret_cast` at offset 0 with row-major strides.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def FuseOwnResults : Pass<"fuse-own-results", "mlir::ModuleOp"> {
  let summary = "Make every returned buffer a fresh allocation";
  let description = [{
    After bufferization a function may return one of its arguments, a
    constant (`memref.get_global`) or the same buffer twice. The runtime
    owns and frees every result, so such results are copied into a new
    buffer; results that are already fresh allocations are left alone,
    also through a `memref.cast` (a buffer of static sizes returned as the
    result type's dynamic ones). Each result's allocation then gets `fuse.result = i`, its position
    among the results (fuse-result-allocs). With `profile`, each copy is
    bracketed by `fuse_copy_begin(i, bytes)` and `fuse_copy_end(i)`, the
    bytes it reads and writes: a row of the profile, as the report's
    "result i is ..., copied".
  }];
  let options = [
    Option<"profile", "profile", "bool", /*default=*/"false",
           "Bracket each copy with the profile's calls">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect"];
}

def FuseNameAllocations : Pass<"fuse-name-allocations", "mlir::ModuleOp"> {
  let summary = "Say before each host allocation what it is for";
  let description = [{
    Puts a call of `fuse_allocation(id)` (an i64) before each
    `memref.alloc` of a host function, and on the module
    `fuse.allocations`, the description of each in the order of their ids:
    `result 0` for an allocation that fuse-own-results marked
    `fuse.result = 0`, else `the value at file:line:col, stored between
    kernels` (the location of the op whose value it holds). An
    allocation that fails (out of memory, host or device) names what it was
    for. Runs after fuse-own-results, before the launches are lowered.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect"];
}

def FuseBufferSizes : Pass<"fuse-buffer-sizes", "mlir::func::FuncOp"> {
  let summary = "Read the sizes of tensor arguments from their buffers";
  let description = [{
    Replaces each `tensor.dim` of a tensor argument of the function by a
    `memref.dim` of one `bufferization.to_buffer ... read_only` of the
    argument, which bufferization turns into the argument's buffer. Runs
    right before `one-shot-bufferize`; the bufferized code is the same.

    Bufferization's analysis looks at every use of a tensor for each of
    the tensor's uses: an argument of rank R read with R `tensor.dim`s made
    it quadratic in the rank. The argument now has one use.
  }];
  let dependentDialects = [
    "mlir::bufferization::BufferizationDialect",
    "mlir::memref::MemRefDialect",
  ];
}

def FuseResultAllocs : Pass<"fuse-result-allocs", "mlir::ModuleOp"> {
  let summary = "Allocate each result with the runtime's fuse_result_alloc";
  let description = [{
    For the cpu target: each `memref.alloc` marked `fuse.result = i` by
    fuse-own-results becomes, in the LLVM dialect, a call of the runtime's
    `fuse_result_alloc(i, bytes)` (and the memref descriptor around its
    pointer) instead of `malloc`. The runtime returns the caller's own
    array for result `i` when the call gave one (`out=` in Python,
    Executable::run's `outs`), so that the kernels write into it directly,
    and a buffer of its host cache otherwise. Other allocations are left to
    the usual lowering; uses of the converted ones go through
    `unrealized_conversion_cast`s that the end of the pipeline removes.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def FuseLowerAsserts : Pass<"fuse-lower-asserts", "mlir::ModuleOp"> {
  let summary = "Lower the cf.assert of each function to puts and abort";
  let description = [{
    Replaces every `cf.assert` that is directly in a function with a
    `cf.cond_br` to the rest of its block or to a new block that calls
    `puts` with the message (a private `llvm.mlir.global` named
    `assert_msg`, made unique) and then `abort`: the code of upstream's
    lowering of `cf.assert` to the LLVM dialect, which the JIT's `puts` and
    `abort` turn into an error. Asserts in the regions of structured ops
    (`scf.if`) are left to that lowering. Runs right before the host code
    is lowered to the LLVM dialect; the canonicalizer merges the blocks
    again.

    Upstream's lowering looks each message's global and the functions up
    by scanning the module and moves every later operation of the
    assert's block; with one assert per checked dimension, a program of
    rank R took O(R^2) time both ways. Here one symbol table serves the
    module, and the asserts of a block are lowered from the last to the
    first, so that each operation moves once.
  }];
  let dependentDialects = ["mlir::cf::ControlFlowDialect",
                           "mlir::LLVM::LLVMDialect"];
}

def FuseHostToDevice : Pass<"fuse-host-to-device", "mlir::func::FuncOp"> {
  let summary = "Keep every buffer a kernel touches in device memory";
  let description = [{
    For the cuda target: host-side `memref.alloc`/`memref.dealloc`/
    `memref.copy` become `gpu.alloc`/`gpu.dealloc`/`gpu.memcpy`, and a
    constant (`memref.get_global`) read by
    a kernel is copied to a device buffer once per call. Function arguments
    are expected in device memory already (the runtime copies inputs up once
    and results down once).
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

#endif // FUSE_TRANSFORMS_PASSES_TD
