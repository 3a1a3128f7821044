"""Lean workflows: uv's download cache (and the Pulumi plugins) kept between runs, keyed on
the locks; lint run once; Renovate's rules matching only what they name."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
CACHE = "actions/cache"


def jobs(name: str) -> list[dict[str, Any]]:
    document = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    return list(document["jobs"].values())


def uses(step: dict[str, Any]) -> str:
    return str(step.get("uses", "")).split("@")[0]


def installs(step: dict[str, Any]) -> bool:
    return re.search(r"\bmake (venv|test|mutate)\b", str(step.get("run", ""))) is not None


@pytest.mark.parametrize(
    "name",
    ["offline-checks.yml", "preview.yml", "drift.yml", "deploy.yml", "kubernetes-support.yml", "mutation.yml"],
)
def test_uv_downloads_are_cached_on_the_locks_before_the_install(name: str) -> None:
    for job in jobs(name):
        steps = job["steps"]
        caches = [i for i, s in enumerate(steps) if uses(s) == CACHE and s["with"]["path"] == "~/.cache/uv"]
        install = next(i for i, s in enumerate(steps) if installs(s))
        assert len(caches) == 1 and caches[0] < install, name
        key = steps[caches[0]]["with"]["key"]
        assert "hashFiles('requirements.txt', 'requirements-uv.txt'" in key, key
        assert steps[caches[0]]["with"]["restore-keys"] == "uv-${{ runner.os }}-py311-"


@pytest.mark.parametrize("name", ["preview.yml", "drift.yml", "deploy.yml"])
def test_the_pulumi_plugins_are_cached_where_pulumi_runs(name: str) -> None:
    for job in jobs(name):
        found = [s for s in job["steps"] if uses(s) == CACHE and s["with"]["path"] == "~/.pulumi/plugins"]
        assert len(found) == 1 and "hashFiles('requirements.txt'" in found[0]["with"]["key"]


def test_a_release_is_built_without_a_cache() -> None:
    assert not [s for job in jobs("release.yml") for s in job["steps"] if uses(s) == CACHE]


def test_lint_runs_once() -> None:
    """`make test` runs `make lint` (beside pytest): no separate `make lint` step."""
    recipe = re.search(r"^test:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(encoding="utf-8"), re.MULTILINE)
    assert recipe and "$(SUBMAKE) lint " in recipe.group(1)
    runs = [str(s.get("run", "")) for s in jobs("offline-checks.yml")[0]["steps"]]
    assert [r.strip() for r in runs if "make test" in r or "make lint" in r] == ["make test"]


# --- Renovate -------------------------------------------------------------------------------

# Every dependency the custom managers find, with its manager and datasource, and a sample of
# the other managers' (what a rule must not match by accident).
CHARTS = ["gateway-helm", "kuberay-operator", "anyscale-operator", "nvidia-device-plugin", "cluster-autoscaler"]
MINORS = ["azure-kubernetes-service", "amazon-eks", "google-kubernetes-engine"]
DEPS = (
    [("custom.regex", "docker" if c == "gateway-helm" else "helm", c) for c in CHARTS]
    + [("custom.regex", "endoflife-date", m) for m in MINORS]
    + [("custom.regex", "github-releases", "pulumi/pulumi")]
    + [("pip-compile", "pypi", p) for p in ("pulumi", "pulumi-policy", "pytest", "ruff", "pydantic")]
    + [("github-actions", "github-tags", "actions/checkout")]
)


def matches(rule: dict[str, Any], manager: str, datasource: str, name: str) -> bool:
    """Renovate's reading of the match* keys this config uses: every one given must match
    (exact names; a pattern would need this matcher extended, and fails here)."""
    known = {"matchManagers", "matchDatasources", "matchDepNames", "matchPackageNames", "matchUpdateTypes"}
    used = {k for k in rule if k.startswith("match")}
    assert used <= known, f"extend the matcher for {used - known}"
    for values in (rule.get(k, []) for k in ("matchDepNames", "matchPackageNames")):
        assert not [v for v in values if v.startswith(("/", "!")) or "*" in v], "a pattern: extend the matcher"
    return (
        manager in rule.get("matchManagers", [manager])
        and datasource in rule.get("matchDatasources", [datasource])
        and name in rule.get("matchDepNames", [name])
        and name in rule.get("matchPackageNames", [name])
    )


def matched(rule: dict[str, Any]) -> list[str]:
    return [name for manager, source, name in DEPS if matches(rule, manager, source, name)]


def rule_labelled(label: str) -> dict[str, Any]:
    config = json.loads((ROOT / "renovate.json").read_text(encoding="utf-8"))
    return next(r for r in config["packageRules"] if label in r.get("labels", []))


def test_the_chart_rule_matches_the_charts_only() -> None:
    assert matched(rule_labelled("chart")) == CHARTS


def test_the_kubernetes_minor_rule_matches_the_minors_only() -> None:
    assert matched(rule_labelled("kubernetes")) == MINORS


def test_every_rule_matches_only_what_it_names() -> None:
    config = json.loads((ROOT / "renovate.json").read_text(encoding="utf-8"))
    found = {rule["description"].split(":")[0].split(",")[0]: matched(rule) for rule in config["packageRules"]}
    assert list(found.values()) == [
        MINORS,
        ["actions/checkout"],
        ["pulumi/pulumi", "pulumi", "pulumi-policy"],
        ["pytest", "ruff"],
        CHARTS,
        ["cluster-autoscaler"],
    ], found
