"""The generated files are current: each is what its source renders now, and a stale one
fails naming `make generate`, the one command that rewrites them all (scripts/generate.py)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]


generate = load_script("generate")
CHECKED_HERE = [g for g in generate.GENERATED if g.checked_by is None]


@pytest.mark.parametrize("generated", CHECKED_HERE, ids=lambda g: g.path)
def test_the_generated_file_is_current(generated) -> None:
    assert generate.stale((generated,)) == [], f"{generated.path} is stale: run `make generate`, then review the diff"


def test_every_generated_file_is_checked_here_or_by_a_named_test_that_exists() -> None:
    for generated in generate.GENERATED:
        assert (ROOT / generated.path).is_file(), generated.path
        if generated.checked_by is not None:
            text = (ROOT / generated.checked_by).read_text(encoding="utf-8")
            assert "make generate" in text, f"{generated.checked_by} must name `make generate` when it fails"


def test_the_files_say_they_are_generated_by_make_generate() -> None:
    # A reader of a generated file learns how to change it without opening the Makefile.
    for path in ("stacks/stack.schema.json", "components/args.py", "docs/configuration.md", "docs/policies.md"):
        assert "make generate" in (ROOT / path).read_text(encoding="utf-8"), path


def test_a_stale_file_is_named_with_the_command_and_make_generate_rewrites_it(tmp_path: Path) -> None:
    # The cheap generators, on a copy: a hand edit is reported, and the write puts it back.
    files = tuple(g for g in CHECKED_HERE)
    for generated in files:
        (tmp_path / generated.path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / generated.path, tmp_path / generated.path)
    schema = tmp_path / "stacks" / "stack.schema.json"
    schema.write_text("{}\n", encoding="utf-8")
    reference = tmp_path / "docs" / "configuration.md"
    reference.write_text(
        reference.read_text(encoding="utf-8").replace("| `location` |", "| `locaton` |"), encoding="utf-8"
    )
    found = generate.stale(files, root=tmp_path)
    assert [g.path for g, _ in found] == ["stacks/stack.schema.json", "docs/configuration.md"]
    for generated, new in found:
        (tmp_path / generated.path).write_text(new, encoding="utf-8")
    assert generate.stale(files, root=tmp_path) == []


def test_the_config_reference_needs_its_markers(tmp_path: Path) -> None:
    entry = next(g for g in generate.GENERATED if g.path == "docs/configuration.md")
    with pytest.raises(ValueError, match="markers"):
        entry.render("# Configuration\n\nno markers here\n")
    with pytest.raises(ValueError, match="missing"):
        entry.render(None)


def test_the_command_line_lists_checks_and_refuses_bad_usage() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "scripts/generate.py", *args], cwd=ROOT, capture_output=True, text=True, check=False
        )

    listed = run("--list")
    assert listed.returncode == 0
    assert [line.split(":")[0] for line in listed.stdout.splitlines()] == [g.path for g in generate.GENERATED]
    assert run("--bogus").returncode == 2
    assert run("--check", "--list").returncode == 2


def test_make_generate_is_the_target_that_runs_it() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    # The development lock: scripts/generate.py renders the message catalogue with a test module (pytest).
    assert re.search(r"^generate: \$\(DEV_STAMP\)\n\t\$\(PY\) scripts/generate\.py$", makefile, re.MULTILINE)
    assert "generate" in re.search(r"^\.PHONY:(.*)$", makefile, re.MULTILINE).group(1).split()  # type: ignore[union-attr]
