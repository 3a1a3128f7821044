"""The project's version: the one line of the root file VERSION, the only place the number
is written (docs/development.md, "Releasing"). The component package's entry point and the
release tools read it from here."""

from __future__ import annotations

from pathlib import Path

VERSION_FILE = Path(__file__).resolve().parent.parent / "VERSION"
VERSION: str = VERSION_FILE.read_text(encoding="utf-8").strip()
