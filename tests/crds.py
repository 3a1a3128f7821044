"""Custom objects of plans against their real CRDs, with tests/tools/crd_validate.py (run with
this venv: jsonschema, PyYAML, cel-python from the locks): schema, unknown fields and CEL
rules, as the API server checks them.

Parsing a CRD is most of the tool's time (the RayJob CRD is over a megabyte of YAML), so one
run takes every plan a test module needs against one CRD file, and the report is split back
per plan."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

TOOL = Path(__file__).resolve().parent / "tools" / "crd_validate.py"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "crds"


def unpacked(text: str, folder: Path, name: str) -> Path:
    """A CRD's text as a file the tool reads (the CRDs are kept gzipped)."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def fixture(name: str) -> str:
    """A CRD kept in tests/fixtures/crds/ (gzipped), as text."""
    return gzip.decompress((FIXTURES / f"{name}.gz").read_bytes()).decode("utf-8")


def report(crd: Path, plans: dict[str, dict[str, Any]], folder: Path) -> dict[str, list[str]]:
    """Per label, the tool's lines about that plan's objects."""
    assert crd.is_file(), crd
    files = {label: folder / f"{label}.json" for label in plans}
    for label, plan in plans.items():
        files[label].write_text(json.dumps(plan), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, str(TOOL), str(crd), *map(str, files.values())],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert "TOTAL violations:" in result.stdout, result.stdout + result.stderr
    lines: dict[str, list[str]] = {label: [] for label in files}
    current = None
    for line in result.stdout.splitlines():
        current = next((label for label, path in files.items() if line.startswith(f"{path}: ")), current)
        if current and not line.startswith("TOTAL"):
            lines[current].append(line)
    return lines


def all_valid(lines: list[str]) -> bool:
    """Each object's summary line says no schema error and no failed CEL rule."""
    summaries = [line for line in lines if line.strip().startswith("->")]
    return bool(summaries) and all(re.search(r"-> 0 schema error\(s\); .* 0 not passed$", s) for s in summaries)


def objects(lines: list[str], kind: str) -> int:
    """How many objects of this `Kind group/version` the lines report on."""
    return sum(f"({kind}," in line for line in lines)


def valid_at_creation(lines: list[str]) -> bool:
    """As all_valid, but a transition rule (one that compares with the old object, such as
    `field is immutable`) does not apply when an object is created: its skip is no failure."""
    summaries = [line for line in lines if line.strip().startswith("->")]
    schema_ok = all(re.search(r"-> 0 schema error\(s\);", s) for s in summaries)
    cel = [line.strip() for line in lines if line.strip().startswith("CEL ")]
    return bool(summaries) and schema_ok and all("skipped (transition rule: needs oldSelf)" in c for c in cel)
