"""The package as a whole: where it looks for the library and what it says
of a library it cannot use, its version and distribution name, and the
example of its docstring."""

import os
import re
import shutil
import subprocess
import sys
import textwrap
import warnings

import pytest

import fuse
from fuse import _capi, _dtypes

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(fuse.__file__)))
REPO = os.path.dirname(PYTHON_DIR)


def _fuse_process(code, env_changes, tmp_path):
    """Runs `code` in a Python process of its own that imports this fuse
    package, with the environment changed by `env_changes` (None: unset);
    (return code, output). A crash (SIGBUS in dlopen) fails the test
    instead of killing pytest."""
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
    for name, value in env_changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout + done.stderr


_SAY_WHY = textwrap.dedent("""\
    import fuse
    try:
        fuse.library_path()
    except fuse.LibraryNotFoundError as e:
        print(e)
    else:
        print("loaded", fuse.library_path())
    """)


@pytest.mark.parametrize("size", [200000, 5000, 40])
def test_a_truncated_library_is_refused_before_it_is_loaded(tmp_path, size):
    # dlopen of a copy cut short (head -c 200000) killed Python with SIGBUS.
    with open(os.path.realpath(_capi.library_path()), "rb") as f:
        head = f.read(size)
    (tmp_path / "libfuse_capi.so").write_bytes(head)
    code, output = _fuse_process(_SAY_WHY, {"FUSE_LIB_DIR": str(tmp_path)}, tmp_path)
    assert code == 0, output
    need = r"\d+" if size >= 64 else "64"
    assert re.search(rf"cannot load libfuse_capi\.so; looked in:\n  "
                     rf"{re.escape(str(tmp_path / 'libfuse_capi.so'))} \(truncated: {size} bytes, "
                     rf"the ELF headers need {need}\)\n", output), output


def test_a_file_that_is_not_a_shared_library_is_refused(tmp_path):
    (tmp_path / "libfuse_capi.so").write_text("INPUT(libfuse_capi.so.22.1)\n")
    assert _capi.elf_problem(str(tmp_path / "libfuse_capi.so")) == \
        "not a 64-bit ELF shared library"
    assert _capi.elf_problem(os.path.realpath(_capi.library_path())) is None


def test_a_broken_fuse_lib_dir_is_an_error(monkeypatch, tmp_path):
    # FUSE_LIB_DIR names the build to use: the package fell back to another
    # copy (build/lib, an installed one) without saying so.
    monkeypatch.setattr(_capi, "_lib", None)
    monkeypatch.setenv("FUSE_LIB_DIR", str(tmp_path))
    assert _capi.candidate_dirs() == [str(tmp_path)]
    path = re.escape(str(tmp_path / "libfuse_capi.so"))
    with pytest.raises(fuse.LibraryNotFoundError,
                       match=rf"^fuse: cannot load libfuse_capi\.so; looked in:\n  {path} "
                             rf"\(not found\)\nFUSE_LIB_DIR is set, so fuse looks there only"):
        _capi.lib()
    (tmp_path / "libfuse_capi.so").write_text("not a library")
    with pytest.raises(fuse.LibraryNotFoundError,
                       match=rf"looked in:\n  {path} \(not a 64-bit ELF shared library\)\n"
                             rf"FUSE_LIB_DIR is set"):
        _capi.lib()


def test_an_installed_package_looks_in_no_source_tree(tmp_path):
    # The folder two above an installed package was listed as the source
    # tree's build/lib (<venv>/lib/python3.11/build/lib).
    site = tmp_path / "lib" / "python3" / "site-packages"
    shutil.copytree(os.path.join(PYTHON_DIR, "fuse"), site / "fuse",
                    ignore=shutil.ignore_patterns("__pycache__", "_lib"))
    code, output = _fuse_process("from fuse import _capi; print(_capi.candidate_dirs())",
                                 {"FUSE_LIB_DIR": None, "PYTHONPATH": str(site)}, tmp_path)
    assert code == 0, output
    assert output.strip() == repr([str(site / "fuse" / "_lib")])
    # From the source tree: its build/lib first.
    code, output = _fuse_process("from fuse import _capi; print(_capi.candidate_dirs())",
                                 {"FUSE_LIB_DIR": None}, tmp_path)
    assert code == 0, output
    assert output.strip() == repr([os.path.join(REPO, "build", "lib"),
                                   os.path.join(PYTHON_DIR, "fuse", "_lib")])


def test_a_library_of_another_version_is_skipped(monkeypatch, tmp_path):
    # Its element types numbered otherwise (check_codes) stopped the search
    # with a RuntimeError that named no file.
    real = os.path.dirname(os.path.realpath(_capi.library_path()))
    other = tmp_path / "other"
    other.mkdir()
    os.symlink(os.path.join(real, "libfuse_capi.so"), other / "libfuse_capi.so")
    monkeypatch.setattr(_capi, "_lib", None)
    monkeypatch.setattr(_capi, "candidate_dirs", lambda: [str(other), real])
    checked = []

    def another_version_first(spellings):
        checked.append(spellings)
        if len(checked) == 1:
            raise RuntimeError("it numbers its element types ['f32'], the fuse package ['f16']")

    monkeypatch.setattr(_dtypes, "check_codes", another_version_first)
    # The search goes on to the next candidate, which loads.
    assert _capi.library_path() == os.path.join(real, "libfuse_capi.so")
    monkeypatch.setattr(_capi, "_lib", None)

    def another_version(spellings):
        raise RuntimeError("it numbers its element types otherwise")

    monkeypatch.setattr(_dtypes, "check_codes", another_version)
    with pytest.raises(fuse.LibraryNotFoundError) as caught:
        _capi.lib()
    assert [line for line in str(caught.value).splitlines() if line.startswith("  ")] == [
        f"  {path} (from another version of fuse: it numbers its element types otherwise)"
        for path in (other / "libfuse_capi.so", os.path.join(real, "libfuse_capi.so"))]


def test_the_version_has_one_source():
    # pyproject.toml reads fuse.__version__ (setuptools' attr:), so that
    # the installed package and the source tree say one version.
    tomllib = pytest.importorskip("tomllib")
    with open(os.path.join(PYTHON_DIR, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)
    assert project["project"]["name"] == "fuse-mlir"
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "fuse.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", fuse.__version__)
    pyprojecttoml = pytest.importorskip("setuptools.config.pyprojecttoml")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # [tool.setuptools] is "beta" to setuptools 65
        read = pyprojecttoml.read_configuration(os.path.join(PYTHON_DIR, "pyproject.toml"))
    assert read["project"]["version"] == fuse.__version__


def test_the_docstring_example_runs(capsys):
    # It used a and b without defining them (a NameError).
    lines = fuse.__doc__.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("    "))
    end = next(i for i in range(start, len(lines))
               if lines[i] and not lines[i].startswith("    "))
    example = textwrap.dedent("\n".join(lines[start:end]))
    assert "fuse.explain(add_relu, a, b)" in example
    exec(compile(example, "<fuse docstring>", "exec"), {"__name__": "docstring_example"})
    printed = capsys.readouterr().out
    assert "fuse.relu" in printed and "fused vs eager" in printed
