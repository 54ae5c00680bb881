"""target="auto" when the GPU is there but its driver refuses the kernels'
PTX (a driver older than the PTX ISA version): the program runs on the CPU
and `target_note` says why, in the words of fuse-run's line; target="cuda"
fails with the driver's and the PTX's versions.

The fake CUDA driver (test/Runtime/FakeCuda) plays a CUDA 11.8 driver
(FAKE_CUDA_DRIVER_VERSION), which refuses the ISA 8.0 PTX of sm_90 kernels,
in a process of its own: the CUDA runtime's state is per process.
"""

import json
import os

import pytest

from test_device import run_on_fake_driver

SCRIPT = r"""
import json
import numpy as np
import fuse

text = open(PROGRAM).read()
a = np.array([1.5, -1.5, 0.25, 2.0], np.float32)
b = np.array([-0.25, 0.25, -1.0, 0.5], np.float32)
seen = {}
program = fuse.compile(text, target="auto")
(c,) = program(a, b)
seen["compile"] = [program.target, program.target_note, c.tolist()]
jitted = fuse.jit(lambda x, y: fuse.relu(x + y))
d = jitted(a, b)
seen["jit"] = [jitted.program.target, jitted.program.target_note, d.tolist()]
try:
    fuse.compile(text, target="cuda")
    seen["cuda"] = "compiled"
except Exception as error:
    seen["cuda"] = [type(error).__name__, str(error)]
# The refusal leaves nothing behind: auto again, then the CPU target.
program = fuse.compile(text, target="auto")
seen["again"] = [program.target, program(a, b)[0].tolist()]
seen["cpu"] = fuse.compile(text, target="cpu")(a, b)[0].tolist()
print(json.dumps(seen))
"""

REFUSED = ("cuModuleLoadDataEx (PTX JIT) failed: CUDA_ERROR_UNSUPPORTED_PTX_VERSION "
           "(the provided PTX was compiled with an unsupported toolchain.); the driver "
           "supports CUDA 11.8, the PTX is ISA version 8.0 for sm_90, the device is sm_90; "
           "compile for PTX ISA 7.8, the newest the driver has (the ptx-features option: "
           "+ptx78), or update the driver")


@pytest.fixture(scope="module")
def old_driver(tmp_path_factory):
    program = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "examples", "add_relu.mlir")
    stdout, log = run_on_fake_driver(tmp_path_factory, "olddriver",
                                     ["-c", f"PROGRAM = {program!r}\n" + SCRIPT], timeout=300,
                                     FAKE_CUDA_DRIVER_VERSION="11080")
    return json.loads(stdout.splitlines()[-1]), log.read_text().splitlines()


def test_auto_falls_back_to_the_cpu_and_says_why(old_driver):
    seen, _ = old_driver
    target, note, values = seen["compile"]
    assert target == "cpu"
    assert note == f"the GPU cannot load the kernels ({REFUSED}); running on the CPU target"
    assert values == [1.25, 0.0, 0.0, 2.5]


def test_jit_falls_back_too(old_driver):
    seen, _ = old_driver
    target, note, values = seen["jit"]
    assert target == "cpu"
    assert note.startswith("the GPU cannot load the kernels (") and "CUDA 11.8" in note
    assert values == [1.25, 0.0, 0.0, 2.5]


def test_cuda_target_gives_both_versions(old_driver):
    seen, _ = old_driver
    kind, message = seen["cuda"]
    assert kind == "FuseError"
    assert REFUSED in message


def test_nothing_left_behind(old_driver):
    seen, log = old_driver
    assert seen["again"] == ["cpu", [1.25, 0.0, 0.0, 2.5]]
    assert seen["cpu"] == [1.25, 0.0, 0.0, 2.5]
    # The refused modules ran nothing and left nothing allocated.
    assert not [line for line in log if line.startswith("cuLaunchKernel")]
    assert "leaks: 0" in log
