"""A digest of everything a kept mutants/ depends on besides the mutated functions.

`make mutate` keeps mutants/ so that the next run re-tests only the mutants of the
functions that changed (mutmut keeps each function's hash and resets its mutants' verdicts
when it changes). mutmut sees nothing else: a changed test, stack file, lock or module it
does not mutate (components/cloud.py, preflight/runtime.py...) would leave every verdict
and recorded plan as it was. This digest covers those, and the list (not the text) of the
mutated files; `make mutate` starts over when it differs from the one kept in mutants/.

    python scripts/mutation_inputs.py            # prints the digest
    python scripts/mutation_inputs.py --check F  # exit 0 when F holds the same digest
"""

from __future__ import annotations

import fnmatch
import hashlib
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INPUTS = ("__main__.py", "components", "preflight", "policy", "tests", "stacks")
FILES = ("Pulumi.yaml", "pyproject.toml", "pytest.ini", "requirements.txt", "requirements-mutate.txt")
SKIPPED = {"__pycache__", "venv", ".hypothesis"}


def mutated_patterns() -> list[str]:
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return list(settings["tool"]["mutmut"]["only_mutate"])


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
        if not any(fnmatch.fnmatch(relative.as_posix(), p) for p in patterns):  # mutated: the name only
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
