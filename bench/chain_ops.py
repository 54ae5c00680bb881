"""The ops of the benchmarks' long elementwise chains (compile_time.py's,
sass.py's and gpu_torch.py's): the chain cycles through these (op, other
operand); unary ops have none. No op follows itself, so no folding
(relu(relu(x)), neg(neg(x))) shortens the chain.

Stands alone (no bench/common.py): scripts/gpu-check copies it into the
bundle for gpu_torch.py.
"""

CYCLE = [("add", "%y"), ("relu", None), ("mul", "%x"), ("tanh", None),
         ("sub", "%y"), ("abs", None), ("max", "%x"), ("neg", None),
         ("exp", None), ("sigmoid", None)]
