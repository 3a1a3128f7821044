"""The documentation's samples of program output are the program's output.

A ```text block whose previous line is `<!-- output: preflight <verb> --stack <stack> -->`
quotes that command: its runs of lines (between `...` lines) must each appear, whole and in
order, in what the command prints today, 100 columns wide. The plans come from the shared
recordings (tests/plans.py), so no sample runs the program again. The README's quick start
is checked the same way against its own run (test_readme_commands.py)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from preflight import plan as plan_command
from preflight import pricing
from preflight.escape import printable_document
from preflight.policy import check_plan
from preflight.policy import render as render_policy
from tests.conftest import stack_values
from tests.plans import recorded
from tests.project.docs_blocks import Sample, excerpt_problems, text_samples

ROOT = Path(__file__).resolve().parents[2]
WIDTH = 100  # the width the samples are printed at (the README's quick start sets COLUMNS=100)
PAGES = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))]


def marked() -> list[tuple[str, Sample]]:
    return [(page, s) for page in PAGES for s in text_samples((ROOT / page).read_text("utf-8")) if s.command]


def output_of(command: str) -> str:
    """What `python -m preflight <verb> --stack <stack>` prints, from the shared recording."""
    words = shlex.split(command)
    if words[:1] == ["preflight"]:
        words = words[1:]
    verb, rest = words[0], words[1:]
    assert len(rest) == 2 and rest[0] == "--stack", (
        f"an output mark names `preflight <verb> --stack <stack>`: {command}"
    )
    plan = recorded(rest[1], stack_values(rest[1]))
    if verb == "plan":
        return plan_command.render(plan, WIDTH, color=False)
    document = plan.to_json()
    if verb == "cost":
        return pricing.render(pricing.groups_of(document))
    if verb == "policy":
        return render_policy(check_plan(document), printable_document(document))
    raise AssertionError(f"no sample check for `preflight {verb}`")


def test_the_samples_are_found() -> None:
    """The parser finds the marked samples: one that found none would pass everything."""
    found = {(page, s.command) for page, s in marked()}
    assert ("README.md", "preflight plan --stack dev") in found
    assert ("docs/reviewing.md", "preflight plan --stack example") in found
    assert ("docs/operations.md", "preflight cost --stack dev") in found


@pytest.mark.parametrize(("page", "sample"), marked(), ids=lambda v: getattr(v, "line", v))
def test_each_sample_is_the_programs_output(page: str, sample: Sample) -> None:
    problems = excerpt_problems(sample.lines, output_of(sample.command))
    assert not problems, f"{page}:{sample.line}: `{sample.command}` no longer prints this sample: {problems}"


def test_an_excerpt_must_match_in_order() -> None:
    output = "a\nb\nc\nd\n"
    assert excerpt_problems(("a", "b", "...", "d"), output) == []
    assert excerpt_problems(("b", "   ...", "a"), output) != []
    assert excerpt_problems(("a", "c"), output) != []  # a run is contiguous
    assert excerpt_problems(("a  ",), output) == []  # trailing spaces aside
