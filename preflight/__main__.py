"""Entry point: python -m preflight validate|plan|diff|policy ..."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable

COMMANDS = {
    "validate": ("preflight.validate", "check a stack file against every platform rule"),
    "plan": ("preflight.plan", "record what the program would deploy (mock runtime)"),
    "diff": ("preflight.diff", "compare two recorded plans"),
    "policy": ("preflight.policy", "run the policy pack over a recorded plan"),
    "cost": ("preflight.cost", "hourly cost of a plan at idle and at maximum (list prices)"),
}


def usage() -> str:
    lines = ["usage: python -m preflight <command> [args]", ""]
    lines += [f"  {name:<9} {help_}" for name, (_, help_) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(usage(), file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[argv[0]][0])
    command: Callable[[list[str]], int] = module.main
    return command(argv[1:])


if __name__ == "__main__":
    from preflight.heap import fewer_collections

    fewer_collections()
    sys.exit(main(sys.argv[1:]))
