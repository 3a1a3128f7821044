"""The static checks catch what they are there for (issue #21): with the project's
pyproject.toml, `ruff check` reports an unused import and `mypy` a type error planted in a
copy of a components module, and both pass on the unchanged copy (so the finding is the
plant, not noise). Runs the tools pinned in requirements.txt from the venv; skipped when
they are not installed there."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "pyproject.toml"
BIN = Path(sys.executable).parent
# A components module with few imports, so mypy's check of the copy stays small.
MODULE = ROOT / "components" / "nodepools.py"

PLANTED_IMPORT = "import os\n"
PLANTED_TYPE_ERROR = '\n\ndef planted_wrong_return() -> int:\n    return "not an int"\n'


def tool(name: str) -> Path:
    path = BIN / name
    if not path.exists():
        pytest.skip(f"{name} is not installed in {BIN} (it is pinned in requirements.txt: make venv)")
    return path


def copy_of_module(tmp_path: Path, prefix: str = "", suffix: str = "") -> Path:
    """The module's text with plants, in its own file outside the tree."""
    text = MODULE.read_text()
    future = "from __future__ import annotations\n"
    if prefix:  # after the docstring and the __future__ import, where an import may go
        assert future in text
        text = text.replace(future, future + prefix, 1)
    copy = tmp_path / "planted_nodepools.py"
    copy.write_text(text + suffix)
    return copy


def ruff(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(tool("ruff")), "check", "--no-cache", "--config", str(CONFIG), str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def mypy(path: Path) -> subprocess.CompletedProcess[str]:
    # cwd=ROOT and MYPYPATH: the copy imports components.* from the tree; the shared cache
    # keeps the run short once `make lint` has analysed the SDKs.
    env = {**os.environ, "MYPYPATH": str(ROOT)}
    return subprocess.run(
        [
            str(tool("mypy")),
            "--config-file",
            str(CONFIG),
            "--python-executable",
            sys.executable,
            "--cache-dir",
            str(ROOT / ".mypy_cache"),
            str(path),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )


def test_ruff_passes_the_unchanged_copy(tmp_path):
    result = ruff(copy_of_module(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_reports_a_planted_unused_import(tmp_path):
    copy = copy_of_module(tmp_path, prefix=PLANTED_IMPORT)
    result = ruff(copy)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "F401" in result.stdout and "`os` imported but unused" in result.stdout


def test_mypy_reports_a_planted_type_error_and_nothing_else(tmp_path):
    if shutil.which(str(tool("mypy"))) is None:
        pytest.skip("mypy is not executable")
    clean = mypy(copy_of_module(tmp_path))
    assert clean.returncode == 0, clean.stdout + clean.stderr
    planted = mypy(copy_of_module(tmp_path, suffix=PLANTED_TYPE_ERROR))
    assert planted.returncode == 1, planted.stdout + planted.stderr
    assert 'Incompatible return value type (got "str", expected "int")  [return-value]' in planted.stdout
    assert "Found 1 error in 1 file" in planted.stdout
