"""`python -m preflight plan --stack <stack> [--json FILE]`: what the program would deploy.

Runs the real __main__.py under the mock runtime, then prints the resource tree grouped
by cloud resource, a summary and the rollout estimate; `--json` writes the plan."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

import pulumi

from config import SpecError
from preflight import planfile
from preflight.escape import md_text, printable, printable_document
from preflight.project import ProjectError
from preflight.runtime import Plan, run_program
from preflight.stackfile import StackFileError, read_stack_file, stack_path
from preflight.validate import validate_stack


def record(stack: str, path: Path | None = None, first_preview: bool = False) -> Plan:
    """Validate the stack file as `pulumi up` does (a minor whose support ended on a past day
    warns, from the program), then run the program on it. Raises StackFileError or SpecError."""
    stack_file = read_stack_file(path or stack_path(stack))
    validate_stack(stack_file, deploying=True)
    return run_program(stack, stack_file.config, first_preview=first_preview)


# What recording a stack can fail with; report_record_error turns each into an exit code.
RECORD_ERRORS = (StackFileError, ProjectError, SpecError, pulumi.RunError)


def report_record_error(error: Exception) -> int:
    """1 for a config that breaks the rules (one line per problem), 2 for an unreadable file."""
    if isinstance(error, SpecError):
        for problem in error.problems:
            print(problem)
        return 1
    print(f"error: {printable(str(error))}", file=sys.stderr)
    return 2 if isinstance(error, StackFileError | ProjectError) else 1


def write_json(plan: Plan, path: str) -> None:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    # Long texts (the shipped CRDs and dashboards) as their digest: Plan.to_json.
    target.write_text(json.dumps(plan.to_json(), indent=2, sort_keys=True) + "\n", encoding="utf-8")


def render(plan: Plan, width: int, color: bool) -> str:
    from preflight.pricing import summary_line
    from preflight.rollout import estimate, render_estimate
    from preflight.scheduling import render_scheduling
    from preflight.tree import render_summary, render_tree

    document = printable_document(plan.to_json())
    return "\n".join(
        [
            render_tree(document, width=width, color=color),
            "",
            render_summary(document, width),
            summary_line(document, width),
            "",
            render_estimate(estimate(document), width=width),
            "",
            render_scheduling(document, width),
        ]
    )


def render_mermaid(plan: Plan) -> str:
    """Markdown for GitHub: the cloud as a Mermaid flowchart, then the rollout's critical
    path as a Mermaid Gantt chart (preflight/mermaid.py)."""
    from preflight.mermaid import cloud_diagram, fenced, gantt_diagram

    document = plan.to_json()
    return "\n".join(
        [
            f"### {md_text(plan.stack)}: the cloud",
            "",
            fenced(cloud_diagram(document)),
            "#### Rollout: the critical path of a first `pulumi up`",
            "",
            fenced(gantt_diagram(document)),
        ]
    )


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m preflight plan", description=__doc__)
    p.add_argument("--stack", required=True, help="stack name: reads stacks/Pulumi.<stack>.yaml")
    p.add_argument("--file", help="a stack file elsewhere (default: stacks/Pulumi.<stack>.yaml)")
    p.add_argument("--json", metavar="FILE", help="write the plan as JSON")
    p.add_argument("--quiet", action="store_true", help="do not print the tree")
    p.add_argument(
        "--format",
        choices=("text", "mermaid"),
        default="text",
        help="text: the tree, summary, rollout and scheduling (default); mermaid: markdown with the cloud as a "
        "Mermaid flowchart and the rollout's critical path as a Mermaid Gantt chart (GitHub renders both)",
    )
    p.add_argument(
        "--first-preview",
        action="store_true",
        help="answer as the engine does on a stack's first `pulumi preview`: each new resource "
        "knows only its inputs, everything else is <unknown>",
    )
    return p


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    try:
        plan = record(args.stack, Path(args.file) if args.file else None, first_preview=args.first_preview)
    except RECORD_ERRORS as error:
        return report_record_error(error)
    if args.json:
        try:
            write_json(plan, args.json)
        except OSError as error:
            print(f"error: cannot write {printable(args.json)}: {error.strerror or error}", file=sys.stderr)
            return 2
    if args.quiet:
        pass
    elif args.format == "mermaid":
        print(render_mermaid(plan), end="")
    else:
        color = planfile.use_color()
        print(render(plan, shutil.get_terminal_size((100, 24)).columns, color))
    if args.json:
        print(f"plan written to {printable(args.json)} ({len(plan.resources)} resources)")
    return 0
