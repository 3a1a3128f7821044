"""Hostile values in plans reach people through the renderers: none may act as markup
(terminal escape sequences, forged lines, markdown or HTML in a PR comment), and diff
refuses to compare plans that are not of one stack."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

from preflight import diff, plan, planfile
from preflight.escape import html_text, md_code, md_text
from tests.text import text

FIXTURE = Path(__file__).parents[1] / "fixtures" / "plans" / "two_resources.json"
EVIL = "x\x1b[2J\x1b]8;;https://evil.example\x07click\u202e\nFAKE LINE"


def write(tmp_path: Path, name: str, document: Any) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return str(path)


def poisoned() -> dict[str, Any]:
    head = json.loads(FIXTURE.read_text())
    gateway = next(r for r in head["resources"] if r["name"] == "aws-usw2-gateway")
    gateway["inputs"]["spec"]["gatewayClassName"] = EVIL
    return head


def test_a_plan_file_is_printable_once_read(tmp_path: Path) -> None:
    loaded = planfile.read(write(tmp_path, "head.json", poisoned()))
    text = json.dumps(loaded, ensure_ascii=False)
    assert "\x1b" not in text and "\u202e" not in text and "\x07" not in text
    gateway = next(r for r in loaded["resources"] if r["name"] == "aws-usw2-gateway")
    assert (
        gateway["inputs"]["spec"]["gatewayClassName"]
        == "x\\x1b[2J\\x1b]8;;https://evil.example\\x07click\\u202e\\nFAKE LINE"
    )


@pytest.mark.parametrize("fmt", ["text", "markdown"])
def test_diff_output_carries_no_control_characters(
    tmp_path: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    base = write(tmp_path, "base.json", json.loads(FIXTURE.read_text()))
    head = write(tmp_path, "head.json", poisoned())
    assert diff.main([base, head, "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out and "\x07" not in out
    assert "\nFAKE LINE" not in out


def test_the_plan_view_carries_no_control_characters() -> None:
    document = poisoned()
    from preflight.tree import render_tree

    text = render_tree(plan.printable_document(document), width=120, color=False)
    assert "\x1b" not in text and "\nFAKE LINE" not in text


@given(text(max_size=30))
def test_a_value_never_leaves_its_code_span(value: str) -> None:
    code = md_code(value)
    fence = code[: len(code) - len(code.lstrip("`"))]
    inner = code[len(fence) : len(code) - len(fence)]
    assert code.endswith(fence)
    assert fence not in inner  # no run as long as the fence inside: the span cannot close early
    assert "\n" not in code and "|" not in inner.replace("\\|", "")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"),
        ("[click](https://evil.example)", "\\[click\\](https\\://evil.example)"),
        ("**bold** `code` | cell", "\\*\\*bold\\*\\* \\`code\\` \\| cell"),
    ],
)
def test_markdown_text_is_inert(value: str, expected: str) -> None:
    assert md_text(value) == expected


def test_html_text_is_escaped() -> None:
    assert html_text('"><script>') == "&quot;&gt;&lt;script&gt;"


def test_a_resource_name_in_markdown_is_not_html(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base_doc = json.loads(FIXTURE.read_text())
    head_doc = copy.deepcopy(base_doc)
    gateway = next(r for r in head_doc["resources"] if r["name"] == "aws-usw2-gateway")
    gateway["inputs"]["spec"]["gatewayClassName"] = "other"
    gateway["name"] = "</summary><img src=x onerror=alert(1)>"
    base_gateway = next(r for r in base_doc["resources"] if r["name"] == "aws-usw2-gateway")
    base_gateway["name"] = gateway["name"]
    assert (
        diff.main([write(tmp_path, "b.json", base_doc), write(tmp_path, "h.json", head_doc), "--format", "markdown"])
        == 0
    )
    out = capsys.readouterr().out
    # Inside a code span GitHub shows HTML as text; outside one it must be escaped.
    outside_code = re.sub(r"(`+)(?s:.+?)\1", "", out)
    assert "<img" not in outside_code
    assert "<code>&lt;/summary&gt;&lt;img src=x onerror=alert(1)&gt;</code>" in out


@pytest.mark.parametrize(("key", "other"), [("stack", "prod"), ("project", "someone-else")])
def test_plans_of_different_stacks_or_projects_are_refused(
    tmp_path: Path, key: str, other: str, capsys: pytest.CaptureFixture[str]
) -> None:
    base_doc = json.loads(FIXTURE.read_text())
    head_doc = {**copy.deepcopy(base_doc), key: other}
    argv = [write(tmp_path, "b.json", base_doc), write(tmp_path, "h.json", head_doc)]
    assert diff.main(argv) == 2
    assert f"the plans are of different {key}s" in capsys.readouterr().err
    assert diff.main([*argv, "--allow-other-stack"]) == 0


def test_markdown_text_links_and_mentions_nothing() -> None:
    assert md_text("@anyscale/security-team see https://evil.example www.evil.com #1") == (
        "\\@anyscale/security-team see https\\://evil.example www\\.evil.com \\#1"
    )


def test_a_pipe_in_a_plan_value_cannot_forge_table_columns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A hostile name and value holding `|` stay one cell each in the pull request's tables:
    every row of a table has as many cell separators (unescaped pipes) as its header."""
    base_doc = json.loads(FIXTURE.read_text())
    head_doc = copy.deepcopy(base_doc)
    forged = "x | forged | cells |"
    for doc in (base_doc, head_doc):
        gateway = next(r for r in doc["resources"] if r["name"] == "aws-usw2-gateway")
        gateway["name"] = forged
    gateway = next(r for r in head_doc["resources"] if r["name"] == forged)
    gateway["inputs"]["spec"]["gatewayClassName"] = "a | b | c"
    argv = [write(tmp_path, "b.json", base_doc), write(tmp_path, "h.json", head_doc), "--format", "markdown"]
    assert diff.main(argv) == 0
    out = capsys.readouterr().out
    separators = re.compile(r"(?<!\\)\|")
    tables: list[list[str]] = [[]]
    for line in out.splitlines():
        if line.startswith("|"):
            tables[-1].append(line)
        elif tables[-1]:
            tables.append([])
    tables = [table for table in tables if table]
    rows = [line for table in tables for line in table]
    assert any(forged.split()[0] in row and "forged" in row for row in rows)  # the hostile row is there
    for table in tables:
        widths = {len(separators.findall(line)) for line in table if line.startswith("|")}
        assert len(widths) == 1, table
