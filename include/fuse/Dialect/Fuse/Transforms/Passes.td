//===- Passes.td - fuse transformation passes --------------*- tablegen -*-===//

#ifndef FUSE_DIALECT_FUSE_TRANSFORMS_PASSES_TD
#define FUSE_DIALECT_FUSE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseFoldReluRelu : Pass<"fuse-fold-relu-relu", "mlir::func::FuncOp"> {
  let summary = "Fold relu(relu(x)) into relu(x)";
  let description = [{
    relu is idempotent, so a relu of a relu is replaced by the inner relu.
    Runs on the fuse dialect, before lowering; a small example of a pass.
  }];
}

def FuseCheckProgram : Pass<"fuse-check-program", "mlir::ModuleOp"> {
  let summary = "Refuse what the fuse pipelines cannot compile, with a reason";
  let description = [{
    The first pass of every pipeline that compiles to kernels (the gpu,
    nvvm, ptx, cpu and cuda stages) and of the report. A fuse program is a
    module of `func.func`s whose bodies hold fuse ops and `func.return`
    only, and whose
    arguments and results are ranked tensors of f16, bf16, f32, f64, i32,
    i64 or i1. Anything else (another dialect's op, a call, a memref
    argument, an op outside a function) fails here with an error at its
    location that says why, instead of later in an upstream pass or not at
    all. Function declarations (no body) are ignored.
  }];
}

def FuseCanonicalize : Pass<"fuse-canonicalize"> {
  let summary = "Canonicalize, leaving the inexact math of constants to the target";
  let description = [{
    Upstream's canonicalizer (every loaded dialect's and op's
    canonicalization patterns, top-down, normal region simplification), with
    one difference: the inexact math functions (exp, log, powf, sin, cos,
    tanh, erf) are never folded. Upstream folds `math.erf` of a constant with
    the compiler host's C library, and the target computes it with its own
    (libdevice on the GPU), so a constant that fusion moved into a kernel
    would give another value than the same op in a kernel of its own
    (eager). fuse's pipelines canonicalize with this pass until
    `fuse-guard-target-math` has put its guards in. Every other op folds as
    usual.
  }];
}

def FuseGuardTargetMath : Pass<"fuse-guard-target-math"> {
  let summary = "Keep constants away from the inexact math until the target "
                "lowers it";
  let description = [{
    Puts a `fuse.opaque` between every constant and the inexact math
    function (exp, log, powf, sin, cos, tanh, erf) that uses it, so that no
    later folding, upstream's included, computes the function on the
    compiler host: the target does (`fuse-math-to-libdevice`,
    `fuse-math-to-libm`, which remove the guards). Runs once kernels are
    formed, after `fuse-canonicalize` has folded what it may; with it,
    fused and eager kernels give the same bits on every target.

    Example:

    ```mlir
    %r = math.erf %cst : f32
    // becomes
    %guarded = fuse.opaque %cst : f32
    %r = math.erf %guarded : f32
    ```
  }];
  let dependentDialects = ["fuse::FuseDialect"];
}

#endif // FUSE_DIALECT_FUSE_TRANSFORMS_PASSES_TD
