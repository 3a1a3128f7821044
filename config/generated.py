"""The command line of a file generated from the spec (`python -m spec.<module> [--write|--check
[FILE]]`): print it, write it, or exit 1 naming the command that rewrites it while it is stale."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def generated_file_main(
    argv: list[str], *, module: str, default_file: str, what: str, render: Callable[[], str]
) -> int:
    """`what`: the file in words, for the stale message ("the stack file schema")."""
    command = f"venv/bin/python -m {module} --write"
    if len(argv) > 2 or (argv and argv[0] not in ("--write", "--check")):
        print(f"usage: python -m {module} [--write|--check [FILE, default {default_file}]]", file=sys.stderr)
        return 2
    new = render()
    if not argv:
        sys.stdout.write(new)
        return 0
    path = Path(argv[1]) if len(argv) == 2 else ROOT / default_file
    if argv[0] == "--check":
        try:
            current = path.read_text(encoding="utf-8")
        except OSError as error:
            print(f"error: {path}: {error}; run `{command}`", file=sys.stderr)
            return 1
        if current != new:
            print(f"{path}: {what} differs from the spec; run `{command}`", file=sys.stderr)
            return 1
        return 0
    path.write_text(new, encoding="utf-8")
    return 0
