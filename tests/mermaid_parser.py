"""The real Mermaid parser (tests/mermaid/: the `mermaid` package from npm, pinned in its
package-lock.json with integrity hashes, installed by `make test` with `npm ci`), run in Node
once for a whole batch of diagrams: starting Node and loading Mermaid is the slow part."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

FOLDER = Path(__file__).resolve().parent / "mermaid"


def parse_all(diagrams: list[str]) -> list[dict[str, Any]]:
    """What the parser makes of each diagram (tests/mermaid/parse.mjs). Fails, saying what to
    install, when Node or the package is missing: a check skipped in silence is no check."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("the Mermaid diagrams are checked with Node.js (20 or later), which is not on PATH: install it")
    if not (FOLDER / "node_modules" / "mermaid" / "package.json").is_file():
        pytest.fail("the Mermaid parser is not installed: run `make test`, or `npm ci` in tests/mermaid")
    run = subprocess.run(
        [node, str(FOLDER / "parse.mjs")],
        input=json.dumps(diagrams),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=FOLDER,
        check=False,
    )
    if run.returncode != 0:
        pytest.fail(f"the Mermaid parser failed to run:\n{run.stderr[-2000:]}")
    results: list[dict[str, Any]] = json.loads(run.stdout)
    assert len(results) == len(diagrams)
    return results
