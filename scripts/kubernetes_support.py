"""Warn ahead of the end of standard support of each provider's default Kubernetes minor
(config/data/kubernetes.py), and when the calendar itself was read long ago.

Run by the scheduled workflow `.github/workflows/kubernetes-support.yml` on the real date;
`--today` makes it reproducible. Prints one line per default; exits 1 with a GitHub
`::warning::` line per finding when a default leaves standard support within `--days`
(or has left it, or is not in the calendar), or the calendar is stale.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from config.currency import SERVICE, TodayError, parse_day, stale, today  # noqa: E402
from config.data.kubernetes import CALENDAR, DEFAULT_MINOR  # noqa: E402


def findings(day_text: str | None, days: int) -> tuple[list[str], list[str]]:
    """(report lines, warnings)."""
    day = parse_day(day_text, "--today") if day_text else today()
    lines, warnings = [], []
    for provider, minor in DEFAULT_MINOR.items():
        service = SERVICE[provider]
        row = next((r for r in CALENDAR[provider] if r.minor == minor), None)
        if row is None:
            warnings.append(
                f"{service} default {minor} is not in the calendar (config/data/kubernetes.py): add its row"
            )
            continue
        left = (row.standard_end - day).days
        lines.append(f"{service} {minor}: standard support until {row.standard_end.isoformat()} ({left} days)")
        if left <= days:
            when = f"in {left} days" if left >= 0 else f"{-left} days ago"
            warnings.append(
                f"{service} default {minor} leaves standard support on {row.standard_end.isoformat()} ({when}): "
                "move DEFAULT_MINOR in config/data/kubernetes.py to a newer minor, and the stacks one minor at a time"
            )
    note = stale(day)
    if note:
        warnings.append(note)
    return lines, warnings


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--today", help="the day to judge on, YYYY-MM-DD (default: today, UTC)")
    parser.add_argument("--days", type=int, default=90, help="lead time in days (default 90)")
    args = parser.parse_args(argv)
    try:
        lines, warnings = findings(args.today, args.days)
    except TodayError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for line in lines:
        print(line)
    for warning in warnings:
        print(f"::warning title=Kubernetes support::{warning}")
    return 1 if warnings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
