"""Run each preflight command that drives the mock runtime RUNS times in fresh processes
and fail if any run writes to stderr or exits non-zero.

A leaked event loop shows up only when the garbage collector meets it at interpreter
exit, in some runs and not others; one clean run proves nothing, so this loops.

    venv/bin/python scripts/clean_exit.py [--runs 50]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = (
    ["plan", "--stack", "dev", "--quiet"],
    ["policy", "--stack", "dev"],
)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args(argv)
    failures = 0
    for command in COMMANDS:
        noisy = 0
        for _ in range(args.runs):
            result = subprocess.run(
                [sys.executable, "-m", "preflight", *command],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=False,
            )
            if result.returncode != 0 or result.stderr:
                noisy += 1
                if noisy == 1:
                    print(f"exit {result.returncode}, stderr:\n{result.stderr}", file=sys.stderr)
        print(f"preflight {' '.join(command)}: {args.runs - noisy}/{args.runs} runs clean")
        failures += noisy
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
