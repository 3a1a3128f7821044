"""The mutation score per module after `make mutate` (mutmut's results in mutants/).

Score = (killed + timeout) / mutants checked; a mutant no selected test calls ("no tests")
counts as not killed. Prints one line per module, the policy rules together and per file,
then every mutant that was not killed (`mutmut show <name>` prints its diff)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from mutmut.stats import status_by_exit_code

ROOT = Path.cwd()  # the project root: where `make mutate` runs mutmut
KILLED = {"killed", "timeout", "caught by type check"}


def main() -> int:
    metas = sorted((ROOT / "mutants").rglob("*.py.meta"))
    if not metas:
        print("no results in mutants/: run `make mutate` first", file=sys.stderr)
        return 1
    counts: dict[str, Counter[str]] = {}
    survivors: list[tuple[str, str]] = []
    for meta in metas:
        module = meta.relative_to(ROOT / "mutants").as_posix().removesuffix(".meta")
        results = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        statuses = Counter(status_by_exit_code[code] for code in results.values())
        if not results:
            continue
        counts[module] = statuses
        survivors += [
            (name, status_by_exit_code[code])
            for name, code in sorted(results.items())
            if status_by_exit_code[code] not in KILLED | {"not checked"}
        ]
    rules = sum((c for m, c in counts.items() if m.startswith("policy/rules/")), Counter())
    rows = [(m, c) for m, c in counts.items() if not m.startswith("policy/rules/")]
    rows += [("policy/rules/*.py", rules)] + [(f"  {m}", c) for m, c in counts.items() if m.startswith("policy/rules/")]
    print(f"{'module':36} {'score':>7} {'killed':>7} {'survived':>9} {'no tests':>9} {'checked':>8}")
    for module, c in rows:
        checked = sum(n for status, n in c.items() if status != "not checked")
        killed = sum(c[s] for s in KILLED)
        score = f"{100 * killed / checked:.1f}%" if checked else "-"
        print(f"{module:36} {score:>7} {killed:>7} {c['survived']:>9} {c['no tests']:>9} {checked:>8}")
    print(f"\nnot killed ({len(survivors)}):")
    for name, status in survivors:
        print(f"  {status:10} {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
