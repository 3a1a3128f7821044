"""Prints the release notes of one version: the body of its section in CHANGELOG.md.

    python3 scripts/release_notes.py VERSION [--changelog FILE]

The section is the one headed `## [VERSION] - YYYY-MM-DD` (Keep a Changelog 1.1.0), up to
the next `## ` heading or the link references at the bottom. Exit 0 with the body on
stdout; exit 2 with one line on stderr when the CHANGELOG has no such section, or it is
empty. `.github/workflows/release.yml` checks the tag with it and publishes its output as
the GitHub release's notes. Standard library only: the workflow runs it before `make venv`.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHANGELOG = ROOT / "CHANGELOG.md"
# `## [0.1.0] - 2026-12-01`, and `## [Unreleased]` (no date).
HEADING = re.compile(r"^## \[(?P<version>[^\]]+)\](?: - (?P<date>\S+))?\s*$")
# A link reference definition, `[0.1.0]: https://...`: the CHANGELOG's footer.
LINK_REFERENCE = re.compile(r"^\[[^\]]+\]:\s")


def sections(text: str) -> list[tuple[str, str | None, str]]:
    """(version, date or None, body) of every `## [...]` section, in the file's order; the
    body without the blank lines around it."""
    found: list[tuple[str, str | None, list[str]]] = []
    for line in text.splitlines():
        heading = HEADING.match(line)
        if heading:
            found.append((heading.group("version"), heading.group("date"), []))
        elif line.startswith("## ") or LINK_REFERENCE.match(line):
            found.append(("", None, []))  # another heading or the footer: ends the section
        elif found:
            found[-1][2].append(line)
    return [(version, date, "\n".join(body).strip("\n")) for version, date, body in found if version]


def notes(text: str, version: str) -> str:
    """The body of the released (dated) section of `version`; ValueError when there is none."""
    for found, date, body in sections(text):
        if found == version and date is not None:
            if not body.strip():
                raise ValueError(f"the section [{version}] of CHANGELOG.md is empty: describe the release there")
            return body + "\n"
    raise ValueError(f'CHANGELOG.md has no section "## [{version}] - YYYY-MM-DD": add it before tagging v{version}')


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Print the CHANGELOG.md section of one version.")
    parser.add_argument("version", help="a released version, e.g. 0.1.0")
    parser.add_argument("--changelog", type=Path, default=CHANGELOG, help="default: CHANGELOG.md at the root")
    args = parser.parse_args(argv)
    try:
        text = args.changelog.read_text(encoding="utf-8")
        sys.stdout.write(notes(text, args.version))
    except OSError as error:
        print(f"release_notes.py: cannot read {args.changelog}: {error.strerror}", file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"release_notes.py: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
