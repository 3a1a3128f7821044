"""How long `preflight diff` takes on two plans of N resources (default 50,000) in each
shape that once made it quadratic: flat, a chain of replacements each reading the
previous one's output, a chain of renamed resources, a deep parent chain, and one wide
parent. The comparison and its text are timed in-process (a plan file of that size is
over the input gate's size cap); each shape must finish within `--limit` seconds.

    venv/bin/python scripts/bench_diff.py [--count N] [--limit SECONDS]

`--count 1000` is the smoke (`make bench-smoke`, in CI): about a second in all, it
checks that every shape still builds, compares and renders. Too small to show quadratic
work (tests/preflight/test_diff_hostile.py counts the operations for that); the
default size is the benchmark.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from preflight.changes import diff_plans  # noqa: E402
from preflight.diff import render_changes, render_markdown  # noqa: E402

Plan = dict[str, Any]
RANDOM = "random:index/randomString:RandomString"  # every input a keeper: a change replaces it
COMPONENT = "anyscale-cloud:index:CloudResource"


def urn(name: str, kind: str = RANDOM) -> str:
    return f"urn:pulumi:bench::anyscale-cloud::{kind}::{name}"


def record(name: str, inputs: dict[str, Any], parent: str | None = None, kind: str = RANDOM) -> dict[str, Any]:
    return {"urn": urn(name, kind), "type": kind, "name": name, "parent": parent, "custom": True, "inputs": inputs}


def plan(resources: list[dict[str, Any]]) -> Plan:
    return {"project": "anyscale-cloud", "stack": "bench", "resources": resources}


def flat(count: int) -> tuple[Plan, Plan]:
    base = [record(f"r{i}", {"length": 8, "special": False}) for i in range(count)]
    head = [record(f"r{i}", {"length": 8 + i % 2, "special": False}) for i in range(count)]
    return plan(base), plan(head)


def replacement_chain(count: int) -> tuple[Plan, Plan]:
    """r0 changes; r1 reads r0's output, r2 reads r1's...: every one is replaced in turn."""

    def side(first: int) -> list[dict[str, Any]]:
        chain = [record("r0", {"length": first})]
        chain += [record(f"r{i}", {"length": 8, "keeper": f"${{r{i - 1}.result}}"}) for i in range(1, count)]
        return chain

    return plan(side(8)), plan(side(9))


def rename_chain(count: int) -> tuple[Plan, Plan]:
    """Every resource renamed (a new URN under the same logical name: deleted and created),
    each reading the previous one's output."""

    def side(kind: str) -> list[dict[str, Any]]:
        out = [record("r0", {"length": 8}, kind=kind)]
        out += [record(f"r{i}", {"keeper": f"${{r{i - 1}.result}}"}, kind=kind) for i in range(1, count)]
        return out

    return plan(side(RANDOM)), plan(side("random:index/randomPet:RandomPet"))


def deep_parents(count: int) -> tuple[Plan, Plan]:
    """Each resource the child of the one before, under one CloudResource component."""

    def side(length: int) -> list[dict[str, Any]]:
        out = [record("top", {}, kind=COMPONENT)]
        parent = out[0]["urn"]
        for i in range(count - 1):
            out.append(record(f"r{i}", {"length": length}, parent=parent))
            parent = out[-1]["urn"]
        return out

    return plan(side(8)), plan(side(9))


def wide_parent(count: int) -> tuple[Plan, Plan]:
    def side(length: int) -> list[dict[str, Any]]:
        out = [record("top", {}, kind=COMPONENT)]
        out += [record(f"r{i}", {"length": length}, parent=out[0]["urn"]) for i in range(count - 1)]
        return out

    return plan(side(8)), plan(side(9))


SHAPES: dict[str, Callable[[int], tuple[Plan, Plan]]] = {
    "flat": flat,
    "replacement chain": replacement_chain,
    "rename chain": rename_chain,
    "deep parent chain": deep_parents,
    "wide parent": wide_parent,
}


def timed(base: Plan, head: Plan) -> float:
    start = time.perf_counter()
    changes = diff_plans(base, head)
    render_changes(changes, False)
    render_markdown(changes)
    return time.perf_counter() - start


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--count", type=int, default=50_000, help="resources per plan (default 50,000; smoke: 1000)")
    p.add_argument("--limit", type=float, default=30.0, help="seconds each shape may take (default 30)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    # One resource is the smallest plan every shape can build (a component alone for the
    # parent shapes); a limit of 0 would fail every shape.
    if args.count < 1:
        parser().error(f"--count must be >= 1 (got {args.count})")
    if not args.limit > 0:
        parser().error(f"--limit must be > 0 seconds (got {args.limit})")
    slow = []
    for name, make in SHAPES.items():
        seconds = timed(*make(args.count))
        print(f"{name}: {args.count:,} resources in {seconds:.2f} s")
        if seconds > args.limit:
            slow.append(name)
    if slow:
        print(f"over {args.limit:g} s: {', '.join(slow)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
