"""`python -m preflight policy`, end to end over whole plans: the shipped stacks pass, every
mandatory policy's planted violations (the cases of tests/policy/cases.py) fail the plan and
are shown against their resource with their fix, the policy config changes a level, and a
bad plan or a missing file exits 2 with one line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from pulumi_policy import EnforcementLevel

from preflight import policy as runner
from preflight.runtime import Plan
from tests.policy.cases import PLANTED
from tests.policy.helpers import PACK, POLICIES, ROOT, edited, set_at, without


@pytest.mark.usefixtures("shared_recordings")
def test_dev_stack_passes(capsys):
    assert runner.main(["--stack", "dev"]) == 0
    out = capsys.readouterr().out
    assert "0 mandatory" in out


def test_multicloud_plan_has_no_mandatory_violation(plan):
    assert [v for v in runner.check_plan(plan) if v.mandatory] == []


def test_example_stack_has_no_mandatory_violation(example_plan: Plan):
    """The real example stack, every provider: a program error fails here (no skip)."""
    recorded = example_plan.to_json()
    assert {r["type"] for r in recorded["resources"]} >= {
        "azure-native:containerservice:ManagedCluster",
        "aws:eks/cluster:Cluster",
        "gcp:container/cluster:Cluster",
        "kubernetes:helm.sh/v3:Release",
    }
    assert [v for v in runner.check_plan(recorded) if v.mandatory] == []


# --- planted violations ----------------------------------------------------------------------------


def test_every_mandatory_policy_has_a_planted_violation() -> None:
    """A mandatory policy is one `preflight policy` fails a plan on: it is shown doing so."""
    mandatory = [p.name for p in PACK.ALL_POLICIES if p.enforcement_level is EnforcementLevel.MANDATORY]
    planted = {case[0] for case in PLANTED}
    missing = [name for name in mandatory if name not in planted]
    assert not missing, (
        f"no planted violation for the mandatory {', '.join(missing)}: give its PolicyCase (in the CASES of "
        "tests/policy/test_<subject>.py) a Plant(record name, edit of that record or None to remove it, fragment "
        "of the fix, resource named in the output if not that record) that makes `preflight policy` fail on it, "
        "then venv/bin/python -m tests.policy.test_policy_messages"
    )
    assert planted <= set(POLICIES), f"PLANTED names policies the pack does not have: {sorted(planted - set(POLICIES))}"


@pytest.mark.parametrize("policy, multi, name, edit, resource, fix", PLANTED, ids=[f"{c[0]}:{c[2]}" for c in PLANTED])
def test_planted_violation_fails(tmp_path, capsys, plan, dev_plan, policy, multi, name, edit, resource, fix):
    # `edited` and `without` change a copy: the module's multicloud plan and the recording stay as they are.
    base = plan if multi else dev_plan.to_json()
    bad = edited(base, name, edit) if edit is not None else without(base, name)
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(bad))
    assert runner.main(["--plan", str(path)]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith(f"{resource} ("))
    block = []
    for line in lines[header + 1 :]:
        if not line.startswith("  "):
            break
        block.append(line)
    assert any(f"[mandatory] {policy}:" in line and fix in line for line in block), out


# --- plan files, config and errors ------------------------------------------------------------------


def test_a_clean_plan_file_passes(tmp_path, dev_plan):
    path = tmp_path / "plan.json"
    path.write_text(json.dumps(dev_plan.to_json()))
    assert runner.main(["--plan", str(path)]) == 0


def test_config_can_turn_a_policy_advisory(tmp_path, capsys, dev_plan):
    bad = edited(dev_plan.to_json(), "default-aks", set_at(("inputs", "oidcIssuerProfile", "enabled"), False))
    (tmp_path / "plan.json").write_text(json.dumps(bad))
    (tmp_path / "config.json").write_text(json.dumps({"aks-workload-identity": "advisory"}))
    args = ["--plan", str(tmp_path / "plan.json"), "--config", str(tmp_path / "config.json")]
    assert runner.main(args) == 0
    assert "[advisory] aks-workload-identity" in capsys.readouterr().out
    (tmp_path / "config.json").write_text(json.dumps({"aks-workload-identity": {"enforcementLevel": "disabled"}}))
    assert runner.main(args) == 0
    assert "aks-workload-identity" not in capsys.readouterr().out


@pytest.mark.parametrize(
    "content, fragment",
    [
        ("this is { not json", "is not valid JSON"),
        ("[1, 2]", "not a plan"),
        ('{"resources": [{"urn": 1}]}', "resources[0] is not a plan record"),
    ],
)
def test_bad_plan_file_exits_2(tmp_path, capsys, content, fragment):
    path = tmp_path / "plan.json"
    path.write_text(content)
    assert runner.main(["--plan", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0]


def test_missing_plan_and_stack_files_exit_2(tmp_path, capsys):
    assert runner.main(["--plan", str(tmp_path / "nope.json")]) == 2
    assert runner.main(["--stack", "no-such-stack"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("error: ") for line in lines)
    assert "Traceback" not in "".join(lines)


def test_check_plan_is_pure(dev_plan):
    plan = dev_plan.to_json()
    before = json.dumps(plan, sort_keys=True)
    first = runner.check_plan(plan)
    assert runner.check_plan(plan) == first
    assert json.dumps(plan, sort_keys=True) == before


def test_dispatcher_routes_policy(tmp_path):
    path = tmp_path / "plan.json"
    path.write_text("not json")
    done = subprocess.run(
        [sys.executable, "-m", "preflight", "policy", "--plan", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and done.stderr.startswith("error: ") and "Traceback" not in done.stderr
