"""Every problem is one printable line, file names included: a name or a parser message with
a newline or an escape sequence is shown escaped."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli import preflight_in_process

HOSTILE_NAME = "bad\x1b[31mname\nforged.yaml"


def test_a_control_character_in_the_file_is_one_line(tmp_path: Path) -> None:
    stack = tmp_path / "Pulumi.x.yaml"
    stack.write_text("a: \x01\n")
    result = preflight_in_process("validate", str(stack))
    assert result.returncode == 2
    assert result.stderr == (
        f"error: {stack} is not valid YAML (character 4): the character U+0001 is not allowed in YAML; remove it\n"
    )


def test_a_file_name_with_control_characters_is_escaped_in_validate(tmp_path: Path) -> None:
    stack = tmp_path / HOSTILE_NAME
    stack.write_text("config: {}\n")
    result = preflight_in_process("validate", str(stack))
    assert result.returncode == 1
    assert "\x1b" not in result.stderr
    assert result.stderr.splitlines()[-1] == f"2 problem(s) found in {tmp_path}/bad\\x1b[31mname\\nforged.yaml"


@pytest.mark.parametrize("verb", [["validate"], ["diff", "--"], ["policy", "--plan"]])
def test_an_unreadable_hostile_name_is_one_escaped_line(tmp_path: Path, verb: list[str]) -> None:
    missing = str(tmp_path / HOSTILE_NAME)
    args = [*verb, missing] + ([missing] if verb[0] == "diff" else [])
    result = preflight_in_process(*args)
    assert result.returncode == 2
    assert "\x1b" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    assert "bad\\x1b[31mname\\nforged.yaml" in lines[0]
