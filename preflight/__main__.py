"""Entry point: `python -m preflight [--project-dir DIR] validate|plan|diff|policy|cost ...`,
installed as the console script `anyscale-cloud-preflight` (pyproject.toml)."""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable

COMMANDS = {
    "validate": ("preflight.validate", "check a stack file against every platform rule"),
    "plan": ("preflight.plan", "record what the program would deploy (mock runtime)"),
    "diff": ("preflight.diff", "compare two recorded plans"),
    "policy": ("preflight.policy", "run the policy pack over a recorded plan"),
    "cost": ("preflight.cost", "hourly cost of a plan at idle and at maximum (list prices)"),
}
HELP = ("-h", "--help")
SCRIPT = "anyscale-cloud-preflight"


def usage(prog: str = "python -m preflight") -> str:
    lines = [f"usage: {prog} [--project-dir DIR] <command> [args]", f"       {prog} --help | --version", ""]
    lines += [f"  {name:<9} {help_}" for name, (_, help_) in COMMANDS.items()]
    lines += [
        "",
        "  --project-dir DIR  the folder with the project's Pulumi.yaml, whose stack files --stack",
        "                     reads and whose program `plan` runs (default: the nearest one from the",
        "                     working directory upward, else the checkout this code is in)",
        "",
        f"`{prog} <command> --help` describes a command.",
    ]
    return "\n".join(lines)


def version() -> str:
    from components.version import VERSION

    return VERSION


def main(argv: list[str], prog: str = "python -m preflight") -> int:
    from preflight import project

    argv = list(argv)
    if argv and argv[0] in HELP:
        print(usage(prog))
        return 0
    if argv and argv[0] == "--version":
        print(f"{SCRIPT} {version()}")
        return 0
    if argv and (argv[0] == "--project-dir" or argv[0].startswith("--project-dir=")):
        option = argv.pop(0)
        folder = option.partition("=")[2] if "=" in option else (argv.pop(0) if argv else "")
        if not folder:
            print(f"{usage(prog)}\n\nerror: --project-dir needs a folder", file=sys.stderr)
            return 2
        try:
            project.choose(folder)
        except project.ProjectError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    else:
        project.choose(None)
    if not argv or argv[0] not in COMMANDS:
        print(usage(prog), file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[argv[0]][0])
    command: Callable[[list[str]], int] = module.main
    return command(argv[1:])


def console() -> None:
    """The console script: the same commands under the script's own name."""
    from preflight.heap import exit_without_last_collections

    exit_without_last_collections(main(sys.argv[1:], prog=os.path.basename(sys.argv[0]) or SCRIPT))


if __name__ == "__main__":
    from preflight.heap import exit_without_last_collections, fewer_collections

    fewer_collections()
    exit_without_last_collections(main(sys.argv[1:]))
