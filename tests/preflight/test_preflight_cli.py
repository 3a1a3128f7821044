"""`python -m preflight validate|plan`: exit codes and output, end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli import preflight_in_process

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("stack", sorted(p.name for p in (ROOT / "stacks").glob("Pulumi.*.yaml")))
def test_every_stack_validates(stack: str) -> None:
    result = preflight_in_process("validate", f"stacks/{stack}")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("ok: cloud ")
    assert len(result.stdout.strip().splitlines()) == 1


def test_invalid_stack_exits_1_with_one_line_per_problem(tmp_path: Path) -> None:
    bad = tmp_path / "Pulumi.bad.yaml"
    bad.write_text(
        "config:\n"
        "  anyscale-cloud:cloud: {name: c, location: eastus2, resourceGroup: rg}\n"
        "  anyscale-cloud:resources:\n"
        "    - {name: default, provider: Azure, region: eastus2}\n"
        "    - {name: aws, provider: AWS, region: US-WEST-2, storage: {bucket: 's3://b/p'}}\n"
    )
    result = preflight_in_process("validate", str(bad))
    assert result.returncode == 1
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 2
    # design.md: each line names the config path and the rule; the file is named once, on stderr.
    assert lines[0].startswith("resources[1].region (aws): 'US-WEST-2' must be lowercase")
    assert lines[1].startswith("resources[1].storage.bucket (aws): 's3://b/p' has a sub-path")
    assert result.stderr == f"2 problem(s) found in {bad}\n"
    assert "Traceback" not in result.stdout + result.stderr


@pytest.mark.parametrize("content", [None, "config: [\n", "- just\n- a list\n", "config: 42\n", "\x00\x01"])
def test_unreadable_or_not_yaml_exits_2(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "Pulumi.x.yaml"
    if content is not None:
        path.write_text(content)
    result = preflight_in_process("validate", str(path))
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.startswith("error: ")
    assert "Traceback" not in result.stderr


def test_unknown_project_key(tmp_path: Path) -> None:
    path = tmp_path / "Pulumi.x.yaml"
    text = (ROOT / "stacks/Pulumi.dev.yaml").read_text() + "  anyscale-cloud:resource: []\n"
    path.write_text(text)
    result = preflight_in_process("validate", str(path))
    assert result.returncode == 1
    assert "anyscale-cloud:resource: unknown config key of this project" in result.stdout


def test_usage_errors_exit_2() -> None:
    assert preflight_in_process().returncode == 2
    assert preflight_in_process("validate").returncode == 2
    assert preflight_in_process("nonsense").returncode == 2


@pytest.mark.usefixtures("shared_recordings")
def test_plan_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "plan.json"
    result = preflight_in_process("plan", "--stack", "dev", "--json", str(out))
    assert result.returncode == 0, result.stderr
    plan = json.loads(out.read_text())
    assert plan["project"] == "anyscale-cloud" and plan["stack"] == "dev"
    assert {"urn", "type", "name", "parent", "custom", "dependsOn", "provider", "inputs", "options"} <= set(
        plan["resources"][0]
    )
    assert "[1] default" in result.stdout


def test_plan_of_invalid_stack_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "Pulumi.bad.yaml"
    path.write_text((ROOT / "stacks/Pulumi.dev.yaml").read_text().replace("region: eastus2", "region: EastUS2"))
    result = preflight_in_process("plan", "--stack", "bad", "--file", str(path))
    assert result.returncode == 1
    assert "resources[0].region (default): 'EastUS2'" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


@pytest.mark.parametrize("width", [60, 160])
def test_example_plan_view_fits_the_terminal(example_plan, width: int) -> None:
    from preflight.plan import render

    text = render(example_plan, width, color=False)
    assert max(len(line) for line in text.splitlines()) <= width
    assert "\x1b[" not in text
    # Every custom resource of the example appears in the tree.
    for resource in example_plan.resources:
        if resource["custom"]:
            assert resource["name"] in text, resource["name"]
    assert "Rollout estimate" in text and "critical path" in text
