"""Golden plans: what every stack deploys stays byte-for-byte what was recorded.

A refactor of components/ must not change a single URN, input, option, parent, provider
or dependency of any resource: existing stacks would otherwise see replacements. The
golden files under tests/fixtures/golden/ were recorded with the program as it was; this
test records the plans again and compares them resource by resource (keyed by URN, since
the registration order of independent resources is not fixed).

Stacks: every stacks/Pulumi.<stack>.yaml, plus tests/fixtures/golden/Pulumi.gpu.yaml
(GPU pools on AKS, EKS and GKE, existing buckets, another storage region, protection on).

When a change to the plans is intended, regenerate the golden files and review their diff:

    venv/bin/python -m tests.components.test_golden_plans

(which writes resources sorted by URN, so the diff shows only real changes; `venv/bin/python
-m preflight plan --stack <s> --json tests/fixtures/golden/plan-<s>.json --quiet`, with
`--file tests/fixtures/golden/Pulumi.gpu.yaml` for `gpu`, writes an equivalent file).

Texts of more than 16 KiB (the KubeRay CRDs and Grafana dashboards that ship with the program,
up to 1.4 MB each) are kept as their sha256 and size, as in every plan file
(preflight.runtime.condensed): the comparison stays exact, and the golden files stay small.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from preflight.runtime import Plan, condensed
from preflight.stackfile import read_stack_file
from tests.plans import recorded

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "fixtures" / "golden"
STACK_FILES = {
    path.name.removeprefix("Pulumi.").removesuffix(".yaml"): path
    for path in sorted((ROOT / "stacks").glob("Pulumi.*.yaml"))
}
STACK_FILES["gpu"] = GOLDEN / "Pulumi.gpu.yaml"

pytestmark = pytest.mark.filterwarnings("ignore:.*deprecated in favor of:DeprecationWarning")


def record(stack: str) -> Plan:
    return recorded(stack, read_stack_file(STACK_FILES[stack]).config)


def golden_path(stack: str) -> Path:
    return GOLDEN / f"plan-{stack}.json"


def by_urn(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Resources keyed by URN, dependencies as a sorted list (their order carries no meaning)."""
    resources = {}
    for resource in condensed(json.loads(json.dumps(document["resources"]))):  # the JSON round trip the file took
        resource["dependsOn"] = sorted(resource["dependsOn"])
        resources[resource["urn"]] = resource
    return resources


def test_every_stack_has_a_golden_plan() -> None:
    assert {"dev", "example", "gpu"} <= set(STACK_FILES)
    assert sorted(p.name for p in GOLDEN.glob("plan-*.json")) == sorted(f"plan-{s}.json" for s in STACK_FILES)


@pytest.mark.parametrize("stack", sorted(STACK_FILES))
def test_plan_matches_the_golden_plan(stack: str) -> None:
    golden = json.loads(golden_path(stack).read_text(encoding="utf-8"))
    head = record(stack).to_json()
    old, new = by_urn(golden), by_urn(head)
    assert sorted(set(new) - set(old)) == [], "new URNs"
    assert sorted(set(old) - set(new)) == [], "URNs gone (existing stacks would delete them)"
    changed = [urn for urn in old if old[urn] != new[urn]]
    for urn in changed[:3]:  # the first few in full, for a readable failure
        assert new[urn] == old[urn], urn
    assert changed == []
    assert json.loads(json.dumps(head["outputs"])) == golden["outputs"]


def regenerate() -> None:
    for stack in STACK_FILES:
        plan = record(stack)
        document = plan.to_json()
        # Sorted by URN, so a regenerated file's diff shows only real changes.
        document["resources"] = sorted(condensed(document["resources"]), key=lambda r: r["urn"])
        golden_path(stack).write_text(json.dumps(document, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {golden_path(stack).relative_to(ROOT)} ({len(plan.resources)} resources)")


if __name__ == "__main__":
    regenerate()
