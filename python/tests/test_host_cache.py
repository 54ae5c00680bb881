"""The CPU target's cache of freed result buffers: bounded by
FUSE_HOST_CACHE_MB, the least recently freed going first, reused by
slightly smaller requests, freed by fuse.clear_cache()."""
import os
import subprocess
import sys
import textwrap

PROGRAM = textwrap.dedent("""
    import gc
    import numpy as np
    import fuse

    f = fuse.jit(lambda a: a * 2, target="cpu")
    lib = fuse._capi.lib()
    x = np.ones(1_000_000, np.float32)
    # Each result a little larger than the one before: none fits a kept
    # block, so the cache fills up to its bound and no further.
    for i in range(100):
        r = f(x[:500_000 + i * 1000])
        del r
    gc.collect()
    print("bounded", lib.fuse_host_cache_bytes() <= 8 << 20, lib.fuse_host_cache_bytes() > 0)
    # A smaller result reuses the last block freed (more than half its size).
    before = lib.fuse_host_cache_bytes()
    r = f(x[:590_000])
    print("reused", lib.fuse_host_cache_bytes() < before)
    del r
    gc.collect()
    fuse.clear_cache()
    print("cleared", lib.fuse_host_cache_bytes())
""")


def test_host_cache_is_bounded_and_cleared():
    env = dict(os.environ, FUSE_HOST_CACHE_MB="8")
    out = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True,
                         text=True, check=True).stdout
    assert out.splitlines() == ["bounded True True", "reused True", "cleared 0"]


CHANGED_AFTER_LOAD = textwrap.dedent("""
    import gc, os
    import numpy as np
    import fuse
    from fuse import _capi
    f = fuse.jit(lambda a: a + 1)
    f(np.ones(4, np.float32))
    os.environ["FUSE_HOST_CACHE_MB"] = "abc"
    g = fuse.jit(lambda a: a * 3)
    print("runs", g(np.ones(4, np.float32)).tolist())
    os.environ["FUSE_HOST_CACHE_MB"] = "0"
    r = g(np.ones(1_000_000, np.float32))
    del r
    gc.collect()
    print("kept", _capi.lib().fuse_host_cache_bytes() > 0)
""")


def test_the_cache_limit_is_read_when_the_library_loads():
    # The documented moment: a value set later changes nothing. A bad one
    # set later refused every compile after it, and a good one (0, keep
    # nothing) was not taken.
    env = dict(os.environ)
    env.pop("FUSE_HOST_CACHE_MB", None)
    out = subprocess.run([sys.executable, "-c", CHANGED_AFTER_LOAD], env=env,
                         capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["runs [3.0, 3.0, 3.0, 3.0]", "kept True"]
