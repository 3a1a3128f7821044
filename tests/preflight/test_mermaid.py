"""The Mermaid diagrams (preflight/mermaid.py, mermaid_diff.py): the cloud, what a diff
changes and the rollout's critical path, checked with the real Mermaid parser in one Node
process for the whole module (tests/mermaid_parser.py); hostile plan values stay label text;
a pull-request comment stays within GitHub's limit, summarised and never cut mid-diagram."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from preflight import mermaid
from preflight.changes import Change, diff_plans
from preflight.diff import render_markdown
from preflight.escape import printable
from preflight.mermaid import cloud_diagram, gantt_diagram, text
from preflight.mermaid_diff import COMMENT_LIMIT, LEVELS, changes_diagram
from preflight.plan import parser as plan_parser
from preflight.plan import render_mermaid
from preflight.runtime import Plan
from tests.adopt_stack import adopted_plan
from tests.cli import preflight_in_process
from tests.mermaid_parser import parse_all

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "fixtures" / "golden"
# Values a pull request's plan may hold: quotes, brackets, a click, a comment, HTML, an
# entity, a keyword, an edge, a Gantt task's data, a newline.
HOSTILE_CLUSTER = '"]; click n1 call alert(1) %%\n<img src=x onerror=alert(1)>'
HOSTILE_REGION = "end` #quot; section x :t9, 0, 5s |a| --> b"
HOSTILE_STEP = "section evil :t0, 0, 99s"


def golden(stack: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((GOLDEN / f"plan-{stack}.json").read_text(encoding="utf-8"))
    return document


def hostile(plan: dict[str, Any]) -> dict[str, Any]:
    plan = copy.deepcopy(plan)
    for record in plan["resources"]:
        if record["name"] == "default-aks":
            record["inputs"]["resourceName"] = HOSTILE_CLUSTER
            record["name"] = HOSTILE_STEP
        if record["name"] == "default-registration":
            record["inputs"]["properties"]["region"] = HOSTILE_REGION
    return plan


def changed(plan: dict[str, Any]) -> dict[str, Any]:
    """The dev plan with a create, an update, a replace (disruptive) and a delete."""
    head = copy.deepcopy(plan)
    head["resources"] = [r for r in head["resources"] if r["name"] != "default-pool-cpuspot"]
    for record in head["resources"]:
        if record["name"] == "default-registration":
            record["inputs"]["properties"]["region"] = "westus2"
        if record["name"] == "default-pool-cpu":
            record["inputs"]["maxCount"] = 20
    extra = copy.deepcopy(next(r for r in plan["resources"] if r["name"] == "default-pool-cpu"))
    extra.update(urn=extra["urn"].replace("default-pool-cpu", "default-pool-gpu"), name="default-pool-gpu")
    head["resources"].append(extra)
    return head


def node_ids(diagram: str) -> list[str]:
    """The node IDs our own text declares (`  n3["..."]`), in order."""
    return re.findall(r"^\s*(n\d+|cloud)[\[\(\{]", diagram, flags=re.MULTILINE)


def docs_diagrams() -> list[str]:
    found = []
    for page in sorted((ROOT / "docs").glob("*.md")):
        found += re.findall(r"```mermaid\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    return found


def test_text_leaves_no_markup() -> None:
    assert text('a"b#c') == "a#34;b#35;c"
    assert text("x\ny") == "x#92;ny"  # a newline shown escaped (printable), never a new line
    assert text("ok-name_1.2/3") == "ok-name_1.2/3"
    assert len(text("a" * 500)) == 80


def test_plan_takes_format_mermaid() -> None:
    assert plan_parser().parse_args(["--stack", "dev", "--format", "mermaid"]).format == "mermaid"


def test_every_diagram_parses_with_the_real_mermaid(
    dev_plan: Plan, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One Node process for every diagram of this module (it is the slow part)."""
    dev, example = golden("dev"), golden("example")
    # Past Mermaid's 500 edges (a valid stack of 70 resources) the cloud is one node per resource.
    with monkeypatch.context() as patched:
        patched.setattr(mermaid, "EDGE_LIMIT", 10)
        summary = cloud_diagram(example)
    bad = hostile(dev)
    changes = diff_plans(dev, changed(dev))
    base, head = tmp_path / "base.json", tmp_path / "head.json"
    base.write_text(json.dumps(dev), encoding="utf-8")
    head.write_text(json.dumps(changed(dev)), encoding="utf-8")
    comment = preflight_in_process("diff", str(base), str(head), "--format", "markdown")
    assert comment.returncode == 0, comment.stderr
    rendered = render_mermaid(dev_plan)
    diagrams = {
        "dev": cloud_diagram(dev),
        "example": cloud_diagram(example),
        "example gantt": gantt_diagram(example),
        "example summary": summary,
        "adopted": cloud_diagram(adopted_plan().to_json()),
        "hostile": cloud_diagram(bad),
        "hostile gantt": gantt_diagram(bad),
        "dev gantt": gantt_diagram(dev),
        **{f"diff {level}": changes_diagram(changes, level) for level in LEVELS},
        "hostile diff": changes_diagram(diff_plans(dev, bad)),
        **{f"plan --format mermaid {i}": d for i, d in enumerate(re.findall(r"```mermaid\n(.*?)```", rendered, re.S))},
        **{f"diff comment {i}": d for i, d in enumerate(re.findall(r"```mermaid\n(.*?)```", comment.stdout, re.S))},
        **{f"docs {i}": d for i, d in enumerate(docs_diagrams())},
        # The parser is real: broken diagrams fail.
        "broken flowchart": 'flowchart TB\n  a["unclosed\n',
        "broken gantt": "gantt\n  dateFormat X\n  section s\n  a task without its data\n",
    }
    assert len([k for k in diagrams if k.startswith("plan --format")]) == 2
    assert len([k for k in diagrams if k.startswith("diff comment")]) == 1
    assert [k for k in diagrams if k.startswith("docs")], "no ```mermaid block in docs/"
    results = dict(zip(diagrams, parse_all(list(diagrams.values())), strict=True))

    assert not results.pop("broken flowchart")["ok"]
    assert not results.pop("broken gantt")["ok"]
    failed = {name: r["error"] for name, r in results.items() if not r["ok"]}
    assert failed == {}
    assert [n["label"] for n in results["example summary"]["nodes"]][:2] == [
        "Anyscale cloud",
        "1. default: 3 pools",
    ]
    assert len(results["example summary"]["edges"]) == 4  # the chain of the example's four resources

    # The cloud: one box per cloud resource, in the chain's order, with its parts.
    dev_cloud = results["dev"]
    assert [s["title"] for s in dev_cloud["subgraphs"]] == ["1. default (Azure, eastus2)"]
    labels = sorted(n["label"] for n in dev_cloud["nodes"])
    assert labels == [
        "Anyscale cloud ml-platform-dev",
        "azure:Registry ml-platform-dev-registry",
        "azure:ResourceGroup rg-ml-platform-dev",
        "bucket: default-storage",
        "cluster: aks-ml-platform-dev-default",
        "gateway: default-gateway",
        "identity: id-ml-platform-dev-default-operator",
        "operator: anyscale-operator",
        "pool: cpu",
        "pool: cpuspot",
        "registration: default",
    ]
    chain = [e for e in results["example"]["edges"] if e["label"]]
    titles = {s["id"]: s["title"] for s in results["example"]["subgraphs"]}
    assert [e["label"] for e in chain] == ["1", "2", "3", "4"]
    assert list(titles.values()) == [
        "1. default (Azure, eastus2)",
        "2. aws-usw2 (AWS, us-west-2)",
        "3. gcp-usc1 (GCP, us-central1)",
        "4. onprem (Generic, dc1-rack7)",
    ]
    assert {n["label"] for n in results["example"]["nodes"]} >= {"bucket: s3://ray-data (existing)"}

    # Adopted resources are marked.
    imported = sorted(n["label"] for n in results["adopted"]["nodes"] if "import" in n["classes"])
    assert imported == [
        "Anyscale cloud ml-platform-dev · imported",
        "azure:Registry acrportal01 · imported",
        "azure:ResourceGroup rg-ml-platform-dev · imported",
        "bucket: stportal01 · imported",
        "cluster: aks-portal · imported",
        "identity: id-portal-operator · imported",
        "operator: anyscale-operator · imported",
        "registration: default · imported",
    ]

    # Hostile values stay the text of their own label: same nodes, edges and boxes as before.
    safe, evil = results["dev"], results["hostile"]
    assert [n["id"] for n in evil["nodes"]] == [n["id"] for n in safe["nodes"]] == node_ids(diagrams["hostile"])
    assert len(evil["edges"]) == len(safe["edges"])
    assert f"cluster: {printable(HOSTILE_CLUSTER)}" in {n["label"] for n in evil["nodes"]}
    assert [s["title"] for s in evil["subgraphs"]] == [f"1. default (Azure, {HOSTILE_REGION})"]
    assert [t["id"] for t in results["hostile gantt"]["tasks"]] == [t["id"] for t in results["dev gantt"]["tasks"]]
    assert f"{HOSTILE_STEP} (azure:ManagedCluster)" in {t["label"] for t in results["hostile gantt"]["tasks"]}
    hostile_changes = [c for c in diff_plans(dev, bad) if c.action != "same"]
    assert len(results["hostile diff"]["nodes"]) == len(hostile_changes)
    assert f"!! DISRUPTIVE · +- replace: {HOSTILE_STEP} (azure:ManagedCluster)" in {
        n["label"] for n in results["hostile diff"]["nodes"]
    }

    # The Gantt chart: the critical path, bars back to back, sections per cloud resource.
    gantt = results["dev gantt"]
    assert [(t["section"], t["label"]) for t in gantt["tasks"]] == [
        ("cloud", "ml-platform-dev-rg (azure:ResourceGroup)"),
        ("default", "default-aks (azure:ManagedCluster)"),
        ("default", "default-pool-cpu (azure:AgentPool)"),
        ("default", "default-registration (anyscale:cloudResource)"),
        ("default", "default-gateway (k8s:Gateway)"),
        ("default", "default-operator-extension (azure:Extension)"),
    ]

    # What changes: each action its own class, the disruptive change unmistakable.
    each = {n["label"]: n["classes"] for n in results["diff each change"]["nodes"]}
    assert each == {
        "~ update: default-pool-cpu (azure:AgentPool)": ["update"],
        "!! DISRUPTIVE · +- replace: default-registration (anyscale:cloudResource)": ["disruptive"],
        "+ create: default-pool-gpu (azure:AgentPool)": ["create"],
        "- delete: default-pool-cpuspot (azure:AgentPool)": ["delete"],
        **{
            label: classes
            for label, classes in each.items()
            if label.startswith("~ update: default-") and "cpu" not in label
        },
    }
    coarse = {n["label"]: n["classes"] for n in results["diff per cloud resource"]["nodes"]}
    assert coarse["!! DISRUPTIVE · +- replace: default-registration (anyscale:cloudResource)"] == ["disruptive"]
    assert {n["label"] for n in results["diff per action"]["nodes"]} >= {
        "+- 1 to replace, 1 disruptive",
        "+ 1 to create",
    }


def _many_changes(count: int, every: int = 50) -> list[Change]:
    actions = ("create", "update", "replace", "delete", "import")
    return [
        Change(
            urn=f"urn:pulumi:dev::p::t::r{i}",
            type="azure-native:containerservice:AgentPool",
            name=f"resource-{i:05d}-{'x' * 40}",
            action=actions[i % 5],
            disruptive=i % every == 0,
            reasons=["it is disruptive " * 10] if i % every == 0 else [],
            cloud_resource=f"cr{i % 30}",
            label="azure:AgentPool",
        )
        for i in range(count)
    ]


def test_a_large_diff_is_summarised_within_githubs_limit() -> None:
    small = render_markdown(_many_changes(20))
    assert "#### What changes\n" in small  # one node per change when it fits
    for count, every, level in ((600, 50, "per cloud resource"), (1500, 1, "per action")):
        comment = render_markdown(_many_changes(count, every))
        assert len(comment) <= COMMENT_LIMIT
        assert f"#### What changes (summarised {level}, to fit GitHub's comment limit)" in comment
        # Whole diagrams only: every block opened is closed, and ends with its classes.
        blocks = re.findall(r"```mermaid\n(.*?)```", comment, flags=re.DOTALL)
        assert len(blocks) == 1 == comment.count("```mermaid")
        assert blocks[0].rstrip().splitlines()[-1].startswith("  classDef ")
    assert "left out to fit" in comment  # the 1500 changes' details and rows did not all fit
