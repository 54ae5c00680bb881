# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "fuse"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.fuse_obj_root, "test")
config.excludes = ["Inputs", "corpus", "Unit", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.substitutions.append(("%python", "/usr/bin/python3"))

config.substitutions.append(("%fuse_src_root", config.fuse_src_root))
config.substitutions.append(("%fuse_obj_root", config.fuse_obj_root))
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tools = ["fuse-opt", "fuse-run", "fuse-translate", "fuse-lsp-server", "fuse-parse-fuzzer", "fuse-gpu-harness",
         "fuse-pipeline-fuzzer", "fuse-npy-fuzzer"]
llvm_config.add_tool_substitutions(tools, [config.fuse_tools_dir])

# PTX from the tests is assembled by ptxas when the CUDA toolkit is present.
if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%{ptxas}", config.ptxas))

# The fake CUDA driver built with the tests.
if os.path.exists(config.fake_cuda):
    config.available_features.add("fakecuda")
    config.substitutions.append(("%fakecuda", config.fake_cuda))

# A library that sets FTZ and DAZ when loaded (x86 only).
if config.flush_denormals and os.path.exists(config.flush_denormals):
    config.available_features.add("flush-denormals")
    config.substitutions.append(("%flush_denormals", config.flush_denormals))

# Tests that need gigabytes and minutes (test/Errors/large-index*.test) run
# only when asked: lit --param large_tests=1.
if lit_config.params.get("large_tests"):
    config.available_features.add("large-tests")

# The sanitizer build (scripts/test-sanitizers): ASan reserves terabytes of
# address space, so tests that limit it are unsupported there.
if "Address" in config.sanitizers:
    config.available_features.add("asan")

# A usable GPU: tests marked `REQUIRES: cuda-device` run where there is one.
import ctypes

try:
    cuda = ctypes.CDLL("libcuda.so.1")
    count = ctypes.c_int(0)
    if cuda.cuInit(0) == 0 and cuda.cuDeviceGetCount(ctypes.byref(count)) == 0 and count.value > 0:
        config.available_features.add("cuda-device")
except OSError:
    pass

# Graphviz's dot and headless Chromium draw and open the report's picture
# and page (test/Report/graph-*.test); scripts/setup installs both.
import shutil

for program, feature in [("dot", "dot"), ("chromium", "chromium")]:
    if shutil.which(program):
        config.available_features.add(feature)
