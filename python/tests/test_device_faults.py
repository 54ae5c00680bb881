"""A GPU array whose __cuda_array_interface__ claims more memory than its
producer owns: the kernel reads past the end, the GPU faults with
CUDA_ERROR_ILLEGAL_ADDRESS, and fuse raises it as a FuseError from the call
(never a wrong answer or a crash); the context is lost, so later GPU calls
in the process fail with the same error.

The fake CUDA driver (test/Runtime/FakeCuda) faults on any access outside
its allocations and registered host memory, as a GPU does, in a process of
its own: the CUDA runtime's state is per process.
"""

import json

import pytest

from test_device import run_on_fake_driver

SCRIPT = r"""
import ctypes, json, os
import numpy as np
import fuse
import gpu_fakes
from gpu_fakes import CaiArray

driver = ctypes.CDLL(os.environ["FUSE_LIBCUDA"])
f = fuse.jit(lambda a, b: a + b, target="cuda")
seen = {"host": f(np.ones(4, np.float32), np.ones(4, np.float32)).tolist()}
primary = ctypes.c_void_p()
assert driver.cuDevicePrimaryCtxRetain(ctypes.byref(primary), 0) == 0
assert driver.cuCtxSetCurrent(primary) == 0
gpu_fakes._register = lambda array: driver.cuMemHostRegister_v2(
    ctypes.c_void_p(array.ctypes.data), ctypes.c_size_t(array.nbytes), 0)
# 1024 floats registered; the interfaces claim a million.
a, b = CaiArray(np.ones(1024, np.float32)), CaiArray(np.ones(1024, np.float32))
for array in (a, b):
    array.__cuda_array_interface__["shape"] = (1 << 20,)
for step in ("fault", "after"):
    try:
        f(a, b)
        seen[step] = "ran"
    except fuse.FuseError as error:
        seen[step] = str(error)
# target="auto" after the fault: the device answers nothing, so no usable
# GPU (the compile failed with the device query's error).
g = fuse.jit(lambda a: a * 2, target="auto")
seen["auto"] = g(np.ones(3, np.float32)).tolist()
seen["auto_note"] = g.program.target_note
print(json.dumps(seen))
"""


@pytest.fixture(scope="module")
def fault_run(tmp_path_factory):
    stdout, log = run_on_fake_driver(tmp_path_factory, "faults", ["-c", SCRIPT], timeout=300)
    return json.loads(stdout.splitlines()[-1]), log.read_text().splitlines()


ILLEGAL = "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)"


def test_out_of_bounds_read_is_an_illegal_address(fault_run):
    seen, log = fault_run
    assert seen["host"] == [2.0] * 4
    assert ILLEGAL in seen["fault"], seen["fault"]
    # The error names the kernel and says the context is lost.
    assert ("a kernel faulted (the last one launched: add_0), and the error is sticky"
            in seen["fault"]), seen["fault"]
    # The launch says which access of which thread faulted.
    faulted = [line for line in log if "(fault: " in line]
    assert len(faulted) == 1
    assert faulted[0].startswith("cuLaunchKernel add_0 ")
    assert "(fault: CUDA_ERROR_ILLEGAL_ADDRESS, out-of-bounds " in faulted[0]


def test_the_lost_context_fails_later_calls(fault_run):
    seen, _ = fault_run
    assert ILLEGAL in seen["after"], seen["after"]


def test_auto_after_the_lost_context_runs_on_the_cpu(fault_run):
    seen, _ = fault_run
    assert seen["auto"] == [2.0] * 3
    assert seen["auto_note"].startswith("no usable GPU (cuMemGetInfo failed: " + ILLEGAL)
    assert seen["auto_note"].endswith("; running on the CPU target")
