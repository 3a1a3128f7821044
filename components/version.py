"""The project's version: the one line of the root file VERSION, the only place the number
is written (docs/development.md, "Releasing"). The component package's entry point and the
release tools read it from here. An installed wheel has no VERSION file beside its
packages: there the number is the distribution's, which pyproject.toml reads from the same
file when the wheel is built (`[tool.setuptools.dynamic]`)."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

DISTRIBUTION = "anyscale-cloud"
VERSION_FILE = Path(__file__).resolve().parent.parent / "VERSION"


def _read() -> str:
    if VERSION_FILE.is_file():
        return VERSION_FILE.read_text(encoding="utf-8").strip()
    return metadata.version(DISTRIBUTION)


VERSION: str = _read()
