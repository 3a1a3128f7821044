"""The GitHub Actions workflows: schema-valid, and wired the way the design says.

actionlint is not available offline; check-jsonschema (pinned in requirements.txt) vendors
the GitHub workflow schema. The structural asserts below catch what a schema cannot: a
preview without its policy pack, a stack missing from the matrix, a secret leaking into
the fork-safe workflow."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"
PREVIEW = WORKFLOWS / "preview.yml"
OFFLINE = WORKFLOWS / "offline-checks.yml"
PLAN_ALL = ROOT / "scripts" / "plan_all.sh"
SECRET_REF = re.compile(r"secrets\s*(?:\.\s*([A-Za-z_][A-Za-z0-9_-]*)|\[\s*['\"]([^'\"]+)['\"]\s*\])")


def load(path: Path) -> dict[str, Any]:
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    # YAML 1.1 reads the key `on` as the boolean True.
    if True in document:
        document["on"] = document.pop(True)
    return document


def steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    return job["steps"]


def uses(step: dict[str, Any]) -> str:
    return step.get("uses", "").split("@")[0]


def index_of(job: dict[str, Any], predicate) -> int:
    matches = [i for i, step in enumerate(steps(job)) if predicate(step)]
    assert len(matches) == 1, f"expected exactly one matching step, found {len(matches)}"
    return matches[0]


def stacks_on_disk() -> list[str]:
    return sorted(p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (ROOT / "stacks").glob("Pulumi.*.yaml"))


def secrets_referenced(path: Path) -> set[str]:
    return {a or b for a, b in SECRET_REF.findall(path.read_text(encoding="utf-8"))}


@pytest.fixture(scope="module")
def preview_job() -> dict[str, Any]:
    return load(PREVIEW)["jobs"]["preview"]


@pytest.fixture(scope="module")
def offline_job() -> dict[str, Any]:
    return load(OFFLINE)["jobs"]["checks"]


# --- both -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [PREVIEW, OFFLINE], ids=lambda p: p.name)
def test_workflow_matches_the_github_schema(path: Path) -> None:
    exe = Path(sys.executable).parent / "check-jsonschema"
    assert exe.is_file(), f"{exe} is missing: it is pinned in requirements.txt (make venv)"
    result = subprocess.run(
        [str(exe), "--builtin-schema", "vendor.github-workflows", str(path)],
        capture_output=True, text=True, check=False, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("path", [PREVIEW, OFFLINE], ids=lambda p: p.name)
def test_every_action_is_pinned_to_a_version(path: Path) -> None:
    for job in load(path)["jobs"].values():
        for step in steps(job):
            if "uses" in step:
                assert re.search(r"@(v\d+(\.\d+)*|[0-9a-f]{40})$", step["uses"]), step["uses"]


@pytest.mark.parametrize("path", [PREVIEW, OFFLINE], ids=lambda p: p.name)
def test_python_311_and_the_makefile_venv(path: Path) -> None:
    job = next(iter(load(path)["jobs"].values()))
    setup = index_of(job, lambda s: uses(s) == "actions/setup-python")
    assert str(steps(job)[setup]["with"]["python-version"]) == "3.11"
    make = index_of(job, lambda s: re.search(r"\bmake (venv|test)\b", s.get("run", "")) is not None)
    assert setup < make
    assert re.search(r"^venv:", (ROOT / "Makefile").read_text(encoding="utf-8"), re.MULTILINE)


def test_no_workflow_runs_pull_request_target() -> None:
    # pull_request_target runs with secrets and a writable token: never on untrusted code.
    for path in (PREVIEW, OFFLINE):
        assert "pull_request_target" not in load(path)["on"], path.name


# --- preview ------------------------------------------------------------------------------


def test_preview_runs_pulumi_preview_with_policy_and_a_pr_comment(preview_job) -> None:
    step = steps(preview_job)[index_of(preview_job, lambda s: uses(s) == "pulumi/actions")]
    assert step["uses"] == "pulumi/actions@v6"
    options = step["with"]
    assert options["command"] == "preview"
    assert options["comment-on-pr"] is True
    assert options["diff"] is True
    assert options["refresh"] is True
    assert options["policyPacks"] == "policy"
    assert options["work-dir"] == "."
    assert options["stack-name"] == "${{ vars.PULUMI_ORG }}/${{ matrix.stack }}"
    if (ROOT / "policy").is_dir():
        assert (ROOT / "policy" / "PulumiPolicy.yaml").is_file()


def test_preview_matrix_lists_exactly_the_stacks_in_stacks_dir(preview_job) -> None:
    assert sorted(preview_job["strategy"]["matrix"]["stack"]) == stacks_on_disk()
    assert preview_job["strategy"]["fail-fast"] is False  # one broken stack must not hide the others


def test_preview_logs_in_to_every_cloud_before_pulumi_runs(preview_job) -> None:
    pulumi_step = index_of(preview_job, lambda s: uses(s) == "pulumi/actions")
    for action in ("actions/checkout", "azure/login", "aws-actions/configure-aws-credentials",
                   "google-github-actions/auth"):
        assert index_of(preview_job, lambda s, a=action: uses(s) == a) < pulumi_step, action
    assert index_of(preview_job, lambda s: "make venv" in s.get("run", "")) < pulumi_step
    assert index_of(preview_job, lambda s: "policy/requirements.txt" in s.get("run", "")) < pulumi_step
    by_action = {uses(s): s.get("with", {}) for s in steps(preview_job)}
    assert set(by_action["azure/login"]) >= {"client-id", "tenant-id", "subscription-id"}
    assert all("secrets." in by_action["azure/login"][k] for k in ("client-id", "tenant-id", "subscription-id"))
    assert "role-to-assume" in by_action["aws-actions/configure-aws-credentials"]
    assert "workload_identity_provider" in by_action["google-github-actions/auth"]
    env = preview_job["env"]
    assert str(env["ARM_USE_OIDC"]).lower() == "true"
    assert env["PULUMI_ACCESS_TOKEN"] == "${{ secrets.PULUMI_ACCESS_TOKEN }}"


def test_preview_has_least_permissions_and_skips_forks(preview_job) -> None:
    workflow = load(PREVIEW)
    assert workflow["permissions"] == {"contents": "read", "pull-requests": "write", "id-token": "write"}
    assert "permissions" not in preview_job or preview_job["permissions"] == workflow["permissions"]
    assert re.fullmatch(
        r"\s*github\.event\.pull_request\.head\.repo\.full_name\s*==\s*github\.repository\s*", preview_job["if"]
    )
    group = preview_job["concurrency"]["group"]
    assert "github.event.pull_request.number" in group and "matrix.stack" in group


def test_preview_documents_every_secret_it_uses() -> None:
    header = "".join(line for line in PREVIEW.read_text(encoding="utf-8").splitlines(True) if line.startswith("#"))
    for name in secrets_referenced(PREVIEW):
        assert name in header, f"secrets.{name} is used but not described in the header comment"


# --- offline checks ---------------------------------------------------------------------------


def test_offline_checks_use_no_secrets(offline_job) -> None:
    assert secrets_referenced(OFFLINE) <= {"GITHUB_TOKEN"}
    assert "secrets: inherit" not in OFFLINE.read_text(encoding="utf-8")
    permissions = load(OFFLINE)["permissions"]
    assert "id-token" not in permissions  # no cloud login here
    assert permissions == {"contents": "read", "pull-requests": "write"}


def test_offline_checks_test_then_plan_every_stack_against_the_base(offline_job) -> None:
    checkout = steps(offline_job)[index_of(offline_job, lambda s: uses(s) == "actions/checkout")]
    assert checkout["with"]["fetch-depth"] == 0  # the base commit must be there for its plan
    test = index_of(offline_job, lambda s: s.get("run", "").strip() == "make test")
    plan = index_of(offline_job, lambda s: "scripts/plan_all.sh" in s.get("run", ""))
    assert test < plan
    plan_step = steps(offline_job)[plan]
    assert "github.event.pull_request.base.sha" in plan_step["env"]["BASE_REF"]
    assert "$GITHUB_STEP_SUMMARY" in "".join(s.get("run", "") for s in steps(offline_job))
    assert any(uses(s) == "actions/upload-artifact" for s in steps(offline_job))


def test_offline_checks_comment_only_on_same_repo_pull_requests(offline_job) -> None:
    step = steps(offline_job)[index_of(offline_job, lambda s: uses(s) == "marocchino/sticky-pull-request-comment")]
    assert "github.event.pull_request.head.repo.full_name == github.repository" in " ".join(step["if"].split())
    assert step["with"]["header"]  # one comment, updated in place


def test_plan_all_script_is_valid_bash_and_executable() -> None:
    text = PLAN_ALL.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in text
    result = subprocess.run(["bash", "-n", str(PLAN_ALL)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert PLAN_ALL.stat().st_mode & 0o111, "the workflow runs it directly: chmod +x scripts/plan_all.sh"


def test_plan_all_script_rejects_bad_usage() -> None:
    result = subprocess.run(["bash", str(PLAN_ALL)], capture_output=True, text=True, check=False, timeout=30)
    assert result.returncode == 2
    assert "usage:" in result.stderr
