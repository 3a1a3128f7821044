"""The config reference (docs/configuration.md) is the spec's: generated from the models, checked here."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel, Field

from config import reference
from config.reference import BEGIN, END, Row, render, rows

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "configuration.md"
COMMAND = "make generate"


# Whether docs/configuration.md is current is tests/project/test_generated.py's check.


def test_the_markers_name_make_generate() -> None:
    assert f"<!-- config-reference:begin (generated: {COMMAND}) -->" == BEGIN


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_links_from_the_reference_to_the_manual_resolve() -> None:
    links = re.findall(r"\]\(([a-z-]+\.md)#([^)]+)\)", render())
    assert links, "the reference links to the manual's sections"
    missing = []
    for page, anchor in sorted(set(links)):
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        anchors = {github_anchor(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}
        if anchor not in anchors:
            missing.append(f"{page}#{anchor}")
    assert missing == []


def test_the_readme_links_to_the_reference_instead_of_holding_it() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert BEGIN not in readme and END not in readme
    assert "(docs/configuration.md)" in readme


def rule_of(key: str) -> list[tuple[str, str]]:
    """(default, rule) of every row whose key cell is exactly `key` (with its providers)."""
    found = []
    for line in render().splitlines():
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        if len(cells) == 3 and cells[0] == key:
            found.append((cells[1], cells[2]))
    assert found, key
    return found


@pytest.mark.parametrize(
    ("key", "default", "in_rule"),
    [
        # platform.md 1.1: names and regions.
        ("`name`", "required", "`^[a-zA-Z0-9_-]+$`, at most 256 characters"),
        ("`region`", "required", "`^[a-z0-9]+(-[a-z0-9]+)*$`, at most 35 characters, never case-converted"),
        # Limits the reference states.
        ("`cluster.nodePools[].name` (Azure)", "required", "`^[a-z][a-z0-9]{0,11}$`"),
        ("`cluster.nodePools[].name` (AWS)", "required", "`^[a-z][a-z0-9-]{0,39}$`"),
        ("`cluster.nodePools[].name` (GCP)", "required", "not ending with '-'"),
        ("`cluster.nodePools[].minCount`", "`0`", "0-1000; at most `maxCount`"),
        ("`cluster.nodePools[].maxCount`", "`10`", "1-1000"),
        ("`cluster.systemPool.minCount`", "`1`", "1-100"),
        ("`cluster.systemPool.maxCount`", "`3`", "1-100"),
        ("`cluster.nodePools[].gpu.count`", "the instance type's", "1-16"),
        ("`cluster.nodePools[].gpu.count`", "the instance type's", "GCP T4 1, 2 or 4"),
        ("`cluster.nodePools[].diskSizeGb`", "AWS `500`; GCP `500`; Azure: the platform's", "30-16384"),
        # GPU types per provider (the operator chart 1.8.0's names).
        ("`cluster.nodePools[].gpu.type`", "required", "Azure `T4 A10 A100 H100`"),
        ("`cluster.nodePools[].gpu.type`", "required", "GCP `T4 L4 A100-40G A100-80G H100 H100-MEGA RTX-PRO-6000`"),
        # Defaults that work (tests/config/test_careless_values.py): a system pool with counts only.
        (
            "`cluster.systemPool.instanceType`",
            "Azure `Standard_D4s_v5`; AWS `m6i.xlarge`; GCP `e2-standard-4`",
            "`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`",
        ),
        ("`cluster.systemPool`", "see below", "given only the counts, it keeps the provider's instance type"),
        ("`storage.endpoint`", "none", "an `endpoint` alone is an error"),
        ("`storage.bucket` (Generic)", "required", "`<scheme>://<bucket>`"),
        ("`storage.region`", "`region`", "Azure: outside the regions where Anyscale on Azure is available"),
        ("`cluster.kubernetesVersion` (Azure)", "`1.36`", "a minor the provider creates on the day of the check"),
        (
            "`cluster.kubernetesVersion` (AWS)",
            "`1.36`",
            "AWS: a minor only, no patch (EKS runs its own patch of it), with a pinned Cluster Autoscaler release (1.32, 1.33",
        ),
        ("`cluster.kubernetesVersion` (GCP)", "`1.35`", "the release channel upgrades the cluster"),
        ("`cluster.supportPlan` (Azure)", "`KubernetesOfficial`", "requires `skuTier: Premium`"),
        ("`cluster.availabilityZones` (AWS)", "`2`", "2-4"),
        ("`kubeconfig` (Generic)", "required", "a Pulumi secret"),
        ("`project` (GCP)", "required", "`^[a-z][a-z0-9-]{4,28}[a-z0-9]$`"),
        ("`addons.nvidiaDevicePlugin`", "see below", "GKE brings its own"),
        ("`addons.kuberay.authentication`", "`none`", "`token` needs KubeRay >= 1.5.1"),
    ],
)
def test_rows_state_the_spec_limits(key: str, default: str, in_rule: str) -> None:
    assert any(d == default and in_rule in r for d, r in rule_of(key)), rule_of(key)


def test_provider_is_documented_once_not_as_four_literals() -> None:
    assert rule_of("`provider`") == [
        (
            "required",
            "`Azure`, `AWS`, `GCP` or `Generic` (any casing is accepted and normalized); the first must be `Azure`",
        )
    ]


def test_the_reference_says_snake_case_is_refused() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text[: text.index(BEGIN)]
    assert "snake_case spelling (`resource_group`, `node_pools`) is an unknown key" in section


class Inner(BaseModel):
    size: int = Field(2, ge=1, le=8, description="how many")


class Sample(BaseModel):
    mode: Literal["a", "b", "c"] = Field("a", description="the mode")
    label: str = Field(pattern=r"^[a-z]+$", max_length=9)
    ratio: float = Field(0.5, gt=0, le=1)
    tags: list[str] = Field(default_factory=list, max_length=3)
    inner: Inner = Field(default_factory=lambda: Inner(size=4), description="nested")
    items: list[Inner] | None = None


def test_rows_come_from_metadata_defaults_and_descriptions() -> None:
    assert list(rows(Sample)) == [
        Row("mode", "`a`", "`a`, `b` or `c`; the mode"),
        Row("label", "required", "`^[a-z]+$`; at most 9 characters"),
        Row("ratio", "`0.5`", "greater than 0, at most 1"),
        Row("tags", "`[]`", "at most 3 entries"),
        Row("inner", "see below", "nested"),
        # The enclosing default (size=4), not the field's own (2).
        Row("inner.size", "`4`", "1-8; how many"),
        Row("items", "none", ""),
        Row("items[].size", "`2`", "1-8; how many"),
    ]


def test_replaced_rewrites_only_the_block() -> None:
    text = f"# before\n\n{BEGIN}\n| stale |\n{END}\n\nafter\n"
    assert reference.replaced(text) == f"# before\n\n{render()}\n\nafter\n"


def test_missing_markers_are_an_error() -> None:
    with pytest.raises(ValueError, match="markers"):
        reference.replaced("no markers\n")
