"""`python -m preflight cost --stack S | --plan FILE [--json FILE]`: what a plan can cost
per hour, per cloud resource and in total, at idle and at maximum (preflight/pricing.py
says what is counted and how).

Exit codes: 0 done; 1 the stack breaks a rule; 2 unreadable input.
"""

from __future__ import annotations

import argparse
import json
import sys

from preflight.plan import RECORD_ERRORS, record, report_record_error
from preflight.planfile import PlanError, read
from preflight.pricing import groups_of, render, to_json


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m preflight cost", description=__doc__.split("\n\n")[0])
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--stack", help="record stacks/Pulumi.<stack>.yaml and price it")
    source.add_argument("--plan", metavar="FILE", help="price a plan written by `preflight plan --json`")
    p.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    return p


def main(argv: list[str]) -> int:
    try:
        args = parser().parse_args(argv)
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 2
    try:
        plan = read(args.plan) if args.plan else record(args.stack).to_json()
    except PlanError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except RECORD_ERRORS as error:
        return report_record_error(error)
    groups = groups_of(plan)
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as handle:
                json.dump(to_json(groups), handle, indent=2)
                handle.write("\n")
        except OSError as error:
            print(f"error: cannot write {args.json}: {error.strerror or error}", file=sys.stderr)
            return 2
    sys.stdout.write(render(groups))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
