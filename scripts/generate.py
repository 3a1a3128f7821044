"""Every file generated from the code, in one step: `make generate` writes them all,
`make test` checks them (`--check`: exit 1 naming each stale file and `make generate`).

    venv/bin/python scripts/generate.py            # rewrite every stale file (`make generate`)
    venv/bin/python scripts/generate.py --check    # exit 1 while any is stale (`make test`)
    venv/bin/python scripts/generate.py --list     # the generated files and their sources

A generated file is never edited by hand: change its source (the stack model's fields and
validators in config/, the pack's declarations in policy/, the pack's messages) and run
`make generate`, then review the diff. The golden plans (tests/fixtures/golden/) are not
here on purpose: they guard the program against unintended change, so regenerating them is
a decision taken file by file (tests/components/test_golden_plans.py says how).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

COMMAND = "make generate"


@dataclass(frozen=True)
class Generated:
    path: str  # relative to the repository root
    source: str  # what it is generated from, in words
    # The whole new text of the file, from its current text (None when it does not exist):
    # a file that is only partly generated keeps what lies outside its markers.
    render: Callable[[str | None], str]
    # The test that checks it instead of tests/project/test_generated.py, where rendering
    # repeats work that test does anyway (and tells which part differs).
    checked_by: str | None = None


def _stack_schema(_: str | None) -> str:
    from config import schema

    return schema.render()


def _typed_args(_: str | None) -> str:
    from config import typed_args

    return typed_args.render()


def _config_reference(current: str | None) -> str:
    from config import reference

    if current is None:
        raise ValueError("docs/configuration.md is missing: it holds the prose around the generated block")
    return reference.replaced(current)


def _policy_reference(_: str | None) -> str:
    from policy import reference

    return reference.render(reference.pack_policies())


def _message_catalogue(_: str | None) -> str:
    # The catalogue records the dev stack's plan (a few seconds) and plants every fault in it.
    from tests.policy.test_policy_messages import render_catalogue

    return render_catalogue()


GENERATED: tuple[Generated, ...] = (
    Generated("stacks/stack.schema.json", "the stack model's fields (config/schema.py)", _stack_schema),
    Generated("components/args.py", "the stack file schema (config/typed_args.py)", _typed_args),
    Generated("docs/configuration.md", "the stack model's fields and rules (config/reference.py)", _config_reference),
    Generated("docs/policies.md", "the policy pack's declarations (policy/reference.py)", _policy_reference),
    Generated(
        "tests/fixtures/policy/messages.json",
        "every message the pack's policies give (tests/policy/test_policy_messages.py)",
        _message_catalogue,
        checked_by="tests/policy/test_policy_messages.py",
    ),
)


def stale(files: tuple[Generated, ...] = GENERATED, root: Path = ROOT) -> list[tuple[Generated, str]]:
    """The generated files whose text differs from what their source renders, with that text."""
    out = []
    for generated in files:
        path = root / generated.path
        current = path.read_text(encoding="utf-8") if path.exists() else None
        new = generated.render(current)
        if new != current:
            out.append((generated, new))
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="scripts/generate.py", description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="exit 1 while any generated file is stale")
    mode.add_argument("--list", action="store_true", help="list the generated files and their sources")
    args = parser.parse_args(argv)
    if args.list:
        for generated in GENERATED:
            print(f"{generated.path}: from {generated.source}")
        return 0
    try:
        found = stale()
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.check:
        for generated, _ in found:
            print(f"{generated.path} is stale (generated from {generated.source}): run `{COMMAND}`", file=sys.stderr)
        return 1 if found else 0
    for generated, new in found:
        (ROOT / generated.path).write_text(new, encoding="utf-8")
        print(f"wrote {generated.path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
