//===- Passes.td - fuse conversion passes ------------------*- tablegen -*-===//
//
// The passes that turn one form of the program into another: fuse ops into
// linalg (FuseToLinalg/), linalg kernels into gpu.launch (LinalgToGPU/),
// gpu.launch into host loops for the cpu target (GPUToCPU/), and math ops
// into calls of the C library or libdevice (MathToLibm/).
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_CONVERSION_PASSES_TD
#define FUSE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertFuseToLinalg : Pass<"convert-fuse-to-linalg", "mlir::func::FuncOp"> {
  let summary = "Lower every fuse op to one linalg.generic (the eager form)";
  let description = [{
    Each fuse op becomes one `linalg.generic` over its result's iteration
    space: one kernel per op, which is what eager execution runs. Operands
    broadcast through their indexing maps; dynamic sizes are `tensor.dim`s of
    the function arguments created once at the function entry, where
    `cf.assert`s also check at run time the sizes that broadcasting assumed
    equal. Scalar (0-d and splat) constants are inlined into the kernels that
    use them. f16 and bf16 are computed in f32 and rounded once per op.

    Each generic records its source ops in `fuse.ops` (e.g. `["add"]`), which
    fusion concatenates and kernel naming reads.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::cf::ControlFlowDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect",
    "mlir::tensor::TensorDialect",
  ];
}

def FuseMapToGPU : Pass<"fuse-map-to-gpu", "mlir::ModuleOp"> {
  let summary = "Map bufferized kernels to gpu.launch ops: elementwise ones vectorized, reductions a warp per row";
  let description = [{
    Every elementwise `linalg.generic` on memrefs becomes one `gpu.launch`
    over a 1-D grid of the flattened iteration space. Each thread owns one
    vector of `vector-bytes` bytes of the narrowest operand (4 x f32, 8 x
    f16/bf16, 2 x f64), or two, one block stride apart, when the body is
    cheap. A thread whose vectors are all in range, in a launch whose
    positions fit in 32 bits, takes the fast path: 32-bit positions, vector
    loads and stores, broadcast inputs indexed by one division per thread
    and read with vector loads when no vector crosses a row (when one
    does, the launch takes the generic path, so that the fast path has no
    branch). Any other
    thread (the one at the tail, every thread of a launch too large for 32
    bits) computes its elements one at a time in 64 bits, so every size is
    correct, 0 included (the launch is skipped). With `cpu-threads` (the
    cpu pipeline's, whose threads are iterations of a loop, each over four
    CPU vector registers) a thread takes one vector and keeps the fast
    path across rows: a broadcast input that reads the innermost loop as
    its last dimension and not the loop above it, in rows of up to 1024,
    is one vector load from a tile of its rows repeated that the host makes
    before the launch (where the vector's rows are in one row of the loop
    above, for an input that reads outer loops too); any other is one vector
    load where the vector stays in its row, else read from each row the
    vector spans (one that does not read the innermost loop, up to 4 rows)
    or gathered. The
    grid is computed from
    the dynamic sizes. The launch is named after the kernel (`fuse.kernel`),
    so that outlining gives `gpu.func @fused_add_relu_0`. The module gets
    `fuse.kernels`, the kernel names in launch order.

    A kernel with reductions (a reduction generic, or the generics of a
    `fuse.group`: fuse-reduction-fusion) is one launch with a warp per
    point of the dimensions the reductions keep (a row), or a thread when
    an accumulator has 64 bits or the row cannot be read 32 lanes at a time.
    The warp's lanes take elements 32 apart and combine their accumulators
    with shuffles (lane i with lane i + 16, then + 8, ...); values of the
    row are stored by lane 0. The members run in order: a reduction loops over its row into an accumulator
    that starts from the value of the linalg.fill before it (absorbed); a
    generic over the rows computes scalars; a generic over the whole space
    is computed where a later member reads it and, when its results are used
    after the kernel, in a loop of its own that stores them. Values passed
    inside the kernel stay in registers. With `cpu-threads`, a row of one
    reduced dimension (the innermost) is read in vectors of `vector-bytes`
    of the narrowest element: lane i accumulates elements i, i + lanes, ...,
    the lanes combine pairwise, the rest of the row is one masked vector
    (a row of up to 16 is one vector, of its length rounded up to a power
    of two and at least 4 lanes, and rows of up to 1024 go several at
    once, each member for each row in turn); rows not read in lanes (a reduction over a leading or middle
    dimension) go 32 to a thread, their reductions stepping through the
    rows together, one element of each at a time (each row's order kept),
    which LLVM vectorizes across the rows. A cpu launch of a kernel with
    reductions that reads fewer than 65536 elements is one block (run by
    the calling thread); more go 64 rows to a block at most, fewer when
    that makes fewer than 64 blocks, so that a few long rows take every
    core.

    With `profile`, each launch is bracketed by calls to the runtime,
    `fuse_kernel_begin(id, bytes)` and `fuse_kernel_end(id)`, where `id`
    indexes `fuse.kernels` and `bytes` is what the kernel reads and writes.
    A module mapped before keeps its `fuse.kernels`, to which new kernels
    are added.

    A generic that the pass cannot map is an error at it, before anything
    is mapped: an element type that is not an integer or a float, a body
    that reads a loop index (`linalg.index`), a reduction whose indexing
    maps are not projections of its loops, a `fuse.kernel` that is not a
    symbol's name, or a generic named as a kernel that is neither
    elementwise nor a reduction (a transposed output).
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block">,
    Option<"vectorBytes", "vector-bytes", "int64_t", /*default=*/"16",
           "Bytes each thread loads per input with one vector access">,
    Option<"profile", "profile", "bool", /*default=*/"false",
           "Call the runtime's profiling hooks around each launch">,
    Option<"cpuThreads", "cpu-threads", "bool", /*default=*/"false",
           "Threads for the cpu target (loop iterations over wide vectors): "
           "one vector each; where the thread's vector crosses a row, a "
           "broadcast input is read from a tile of its rows made on the "
           "host (one that reads the innermost loop, but not the loop "
           "above it), from each row the vector spans (one that does not "
           "read the innermost loop), or gathered; "
           "32 rows a thread when rows are not read in lanes">,
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::func::FuncDialect",
    "mlir::gpu::GPUDialect",
    "mlir::LLVM::LLVMDialect",
    "mlir::memref::MemRefDialect",
    "mlir::scf::SCFDialect",
    "mlir::vector::VectorDialect",
  ];
}

def FuseGPUToCPU : Pass<"fuse-gpu-to-cpu", "mlir::ModuleOp"> {
  let summary = "Run gpu.launch bodies as host loops over blocks and threads";
  let description = [{
    Replaces each `gpu.launch` by a call to a new private function, named
    after the kernel, that runs nested `scf.for` loops over its grid and
    block sizes around the unchanged body, with the block and thread ids
    bound to the loop variables. The CPU then executes exactly the kernel
    the GPU would: same indexing, vector width, tails and bounds guards.

    Constants used by the body move into the function; every other value
    it uses from above is an argument. The function has internal linkage
    and LLVM's `noinline`, so that LLVM optimizes each kernel on its own and
    compile time grows linearly in the number of kernels.

    With `parallel-blocks` N > 0 the loop over the blocks is an
    `scf.parallel`, converted here to OpenMP (`convert-scf-to-openmp`:
    `omp.parallel` around an `omp.wsloop`, static schedule) whose `if`
    clause runs a launch of fewer than N blocks on the calling thread alone:
    the blocks of a large launch run on LLVM's OpenMP runtime's threads
    (`omp_set_num_threads`, set by the runner from `--threads` /
    `FUSE_NUM_THREADS`), and small ones pay no fork. Blocks are
    independent (fuse's kernels have no barrier), so any split of them
    computes the same bits. So a launch whose threads exchange values or
    wait for each other (`gpu.shuffle`, `gpu.barrier`, the reductions of a
    subgroup or block) is refused: fuse-map-to-gpu's `cpu-threads` kernels
    have none.
  }];
  let options = [
    Option<"parallelBlocks", "parallel-blocks", "int64_t", /*default=*/"0",
           "Run launches of at least this many blocks on OpenMP threads "
           "(0: every launch on the calling thread)">,
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::func::FuncDialect",
    "mlir::LLVM::LLVMDialect",
    "mlir::omp::OpenMPDialect",
    "mlir::scf::SCFDialect",
  ];
}

def FuseMathToLibm : Pass<"fuse-math-to-libm", "mlir::ModuleOp"> {
  let summary = "Call the C library for the math functions that are not "
                "correctly rounded";
  let description = [{
    Lowers `math.exp`, `math.log`, `math.powf`, `math.sin`, `math.cos`,
    `math.tanh` and `math.erf` (scalars and vectors, element by element) to
    calls of the C library's functions (`expf`, `exp`, ...), and leaves every
    other math op alone: `sqrt`, `floor`, `ceil`, `absf` and the like become
    LLVM intrinsics, which are exact. Run before `convert-math-to-llvm`, for
    the cpu target.

    LLVM folds its `llvm.exp`, `llvm.sin`, ... intrinsics on constant
    operands with the host's double-precision functions, and those results
    can differ in the last bit from the C library's `expf` that the same
    intrinsic calls at run time. A fused kernel shows the optimizer constants
    that an eager kernel loads from memory, so a fused and an eager run could
    differ. As calls, the functions are never folded: the JIT marks every
    call to the C library `nobuiltin` (see Executable.cpp), and this pass does
    not fold them either (upstream's dialect conversion would, with the
    compiler host's functions).

    With `polynomials` (the cpu target's pipeline sets it), every f32
    function is straight-line vector code, no call, the same bits on every
    host (`fma` is fused everywhere): `log`, `tanh` and `erf` are upstream's
    polynomial approximations (`populateMathPolynomialApproximationPatterns`),
    `exp` is fuse's own (upstream's flushes subnormal results to zero), and
    `sin`, `cos` and `powf` are computed in f64 and rounded once. Rare lanes
    (subnormal operands of `log`, `sin` and `cos` beyond 2^20, inf or NaN
    operands of `powf`) take the C library in a branch that ordinary vectors
    skip, one lane at a time in a loop (one call in the code, whatever the
    vector's width). Every f64 function is straight-line code too
    (fdlibm's algorithms), with rare lanes in the C library, in a branch:
    `sin` and `cos` beyond 2^19 pi, `powf` with inf or NaN operands, 0^0
    or an exponent beyond 2^31. Conversions between f32 and bf16 are
    integer arithmetic on the whole vector, the bits of LLVM's own
    expansion (rounded to nearest even; a NaN keeps its sign and the top
    of its payload, made quiet), which x86 without AVX512-BF16 did lane by
    lane.
    docs/accuracy.md has the measured error of each.
  }];
  let options = [
    Option<"polynomials", "polynomials", "bool", /*default=*/"false",
           "Compute every f32 function, and f64 exp, log, tanh, sin and "
           "cos, as "
           "straight-line vector code instead of calls">,
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::func::FuncDialect",
    "mlir::scf::SCFDialect",
    "mlir::vector::VectorDialect",
  ];
}

def FuseMathToLibdevice
    : Pass<"fuse-math-to-libdevice", "mlir::gpu::GPUModuleOp"> {
  let summary = "Call libdevice for the math functions that are not "
                "correctly rounded, without folding them";
  let description = [{
    Lowers `math.exp`, `math.log`, `math.powf`, `math.sin`, `math.cos`,
    `math.tanh` and `math.erf` in a kernel module to calls of libdevice
    (`__nv_expf`, ...) with upstream's patterns, as
    `convert-gpu-to-nvvm` does, but first and without folding: upstream's
    conversion folds `math.erf` of a constant with the compiler host's C
    library, which can differ in the last bit from what libdevice computes
    on the GPU, so a constant that fusion moved into a kernel would make
    fused and eager differ. LLVM does not fold libdevice's approximate
    instructions (`ex2.approx`, ...), so the GPU computes the value.

    First, sigmoid's f32 reciprocal (an `afn` division of 1 by 1 plus an
    exp, whose denominator is at least 1) becomes `rcp.approx.ftz.f32` of
    the denominator scaled by 1/4 above 2^126, scaled back: the value of
    `rcp.approx.f32` (within 1 ulp, subnormal results kept) without its
    scaling of small inputs. An exp that only the sum reads is libdevice's
    `expf` computed with the quarter: its product by 2^j and the fma by
    1/4 are one fma by 2^(j - 2), with j in [-124, 128] (ten instructions
    where the two took eleven).

    With `approx-exp` (opt-in: fuse-opt and fuse-run's `--approx-exp`),
    f32 `exp` is what Triton and Inductor compute instead, `ex2.approx.f32`
    of x * log2(e): about 8 instructions fewer per element than libdevice's
    `expf`, and less accurate for large |x| (the product's rounding is
    multiplied by x; docs/accuracy.md gives the error).
  }];
  let options = [
    Option<"approxExp", "approx-exp", "bool", /*default=*/"false",
           "f32 exp as ex2.approx.f32 of x * log2(e) (Triton's form)">,
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::LLVM::LLVMDialect",
    "mlir::vector::VectorDialect",
  ];
}

#endif // FUSE_CONVERSION_PASSES_TD
