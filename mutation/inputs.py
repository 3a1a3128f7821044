"""A digest of everything a kept mutants/ depends on besides the mutated functions.

`make mutate` keeps mutants/ so that the next run re-tests only the mutants of the
functions that changed (mutmut keeps each function's hash and resets its mutants' verdicts
when it changes). mutmut sees nothing else: a changed test, stack file, lock or module it
does not mutate (components/cloud.py, preflight/runtime.py, config/data/...) would leave every verdict
and recorded plan as it was, and so would a change in a mutated file outside the functions
mutmut mutates and hashes (a constant, a `Field` limit, a decorated validator, a function
marked `no mutate`). This digest covers those: every other file whole, and each mutated
file without the bodies of the functions mutmut mutates (plain functions and methods);
`make mutate` starts over when it differs from the one kept in mutants/.

    python mutation/inputs.py            # prints the digest
    python mutation/inputs.py --check F  # exit 0 when F holds the same digest
"""

from __future__ import annotations

import ast
import fnmatch
import hashlib
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INPUTS = ("__main__.py", "config", "components", "preflight", "policy", "tests", "stacks", "mutation")
FILES = (
    "Pulumi.yaml",
    "pyproject.toml",
    "pytest.ini",
    "requirements.txt",
    "requirements-dev.txt",
    "requirements-mutate.txt",
)
SKIPPED = {"__pycache__", "venv", ".hypothesis", "node_modules"}  # node_modules: from tests/mermaid/package-lock.json


def mutated_patterns() -> list[str]:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return list(settings["tool"]["mutmut"]["only_mutate"])


def outside_mutated_functions(source: str) -> bytes:
    """The file without the lines of the functions mutmut mutates and hashes itself: plain
    (undecorated) functions at module level and in classes, unless marked `no mutate`."""
    lines = source.splitlines(keepends=True)
    tree = ast.parse(source)
    nodes = [*tree.body, *(n for c in tree.body if isinstance(c, ast.ClassDef) for n in c.body)]
    for node in nodes:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.decorator_list:
            if "no mutate" in lines[node.lineno - 1]:
                continue
            for i in range(node.lineno - 1, node.end_lineno or node.lineno):
                lines[i] = "\n"
    return "".join(lines).encode()


def digest() -> str:
    patterns = mutated_patterns()
    found = hashlib.sha256()
    paths: list[Path] = [ROOT / name for name in FILES]
    for name in INPUTS:
        top = ROOT / name
        paths += [top] if top.is_file() else [p for p in top.rglob("*") if p.is_file()]
    for path in sorted(paths):
        relative = path.relative_to(ROOT)
        if SKIPPED & set(relative.parts) or not path.exists():
            continue
        found.update(relative.as_posix().encode() + b"\0")
        if any(fnmatch.fnmatch(relative.as_posix(), p) for p in patterns):
            found.update(outside_mutated_functions(path.read_text(encoding="utf-8")))
        else:
            found.update(path.read_bytes())
        found.update(b"\0")
    return found.hexdigest()


def main(argv: list[str]) -> int:
    if argv[:1] == ["--check"]:
        kept = Path(argv[1])
        return 0 if kept.exists() and kept.read_text(encoding="utf-8").strip() == digest() else 1
    print(digest())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
