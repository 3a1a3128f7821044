"""The GitHub Actions workflows: schema-valid, and wired the way the design says.

actionlint is not available offline; check-jsonschema (pinned in requirements.in) vendors
the GitHub workflow schema. The structural asserts below catch what a schema cannot: a
preview without its policy pack, a stack missing from the matrix, a secret leaking into
the fork-safe workflow, a deploy that could be cancelled half-way or skip its environment."""

from __future__ import annotations

import base64
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
DEPLOY = WORKFLOWS / "deploy.yml"
SUPPORT = WORKFLOWS / "kubernetes-support.yml"
ALL = [PREVIEW, OFFLINE, DEPLOY, SUPPORT]
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


def is_ciphertext(value: str) -> bool:
    """A `secure:` value the CLI could decrypt: base64 (`v1:<nonce>:<ciphertext>` for the
    passphrase provider). The placeholders in stacks/Pulumi.example.yaml are not."""
    parts = value.removeprefix("v1:").split(":")
    try:
        return all(base64.b64decode(part, validate=True) for part in parts)
    except ValueError:
        return False


def secure_values(node: Any) -> list[str]:
    if isinstance(node, dict):
        if set(node) == {"secure"}:
            return [str(node["secure"])]
        return [v for child in node.values() for v in secure_values(child)]
    if isinstance(node, list):
        return [v for child in node for v in secure_values(child)]
    return []


def deployable_stacks() -> list[str]:
    """Stacks a real preview or `pulumi up` can run: every secret real ciphertext."""
    return [
        stack
        for stack in stacks_on_disk()
        if all(
            is_ciphertext(v)
            for v in secure_values(yaml.safe_load((ROOT / "stacks" / f"Pulumi.{stack}.yaml").read_text()))
        )
    ]


def secrets_referenced(path: Path) -> set[str]:
    return {a or b for a, b in SECRET_REF.findall(path.read_text(encoding="utf-8"))}


@pytest.fixture(scope="module")
def preview_job() -> dict[str, Any]:
    return load(PREVIEW)["jobs"]["preview"]


@pytest.fixture(scope="module")
def offline_job() -> dict[str, Any]:
    return load(OFFLINE)["jobs"]["checks"]


@pytest.fixture(scope="module")
def deploy_job() -> dict[str, Any]:
    return load(DEPLOY)["jobs"]["deploy"]


# --- both -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_workflow_matches_the_github_schema(path: Path) -> None:
    exe = Path(sys.executable).parent / "check-jsonschema"
    assert exe.is_file(), f"{exe} is missing: it is pinned in requirements.in (make venv)"
    result = subprocess.run(
        [str(exe), "--builtin-schema", "vendor.github-workflows", str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_every_action_is_pinned_to_a_version(path: Path) -> None:
    for job in load(path)["jobs"].values():
        for step in steps(job):
            if "uses" in step:
                assert re.search(r"@(v\d+(\.\d+)*|[0-9a-f]{40})$", step["uses"]), step["uses"]


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_python_311_and_the_makefile_venv(path: Path) -> None:
    job = next(iter(load(path)["jobs"].values()))
    setup = index_of(job, lambda s: uses(s) == "actions/setup-python")
    assert str(steps(job)[setup]["with"]["python-version"]) == "3.11"
    make = index_of(job, lambda s: re.search(r"\bmake (venv|test)\b", s.get("run", "")) is not None)
    assert setup < make
    assert re.search(r"^venv:", (ROOT / "Makefile").read_text(encoding="utf-8"), re.MULTILINE)


def test_no_workflow_runs_pull_request_target() -> None:
    # pull_request_target runs with secrets and a writable token: never on untrusted code.
    for path in ALL:
        assert "pull_request_target" not in load(path)["on"], path.name


# Majors whose action.yml has `runs: using: node24` (Node 20 is being removed), read from
# each action's own action.yml on 2026-11-30. A new action fails here until it is checked.
NODE24_MAJORS = {
    "actions/checkout": 5,
    "actions/setup-python": 6,
    "actions/upload-artifact": 6,
    "marocchino/sticky-pull-request-comment": 3,
    "azure/login": 3,
    "aws-actions/configure-aws-credentials": 6,
    "google-github-actions/auth": 3,
    "pulumi/actions": 7,
}


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_every_action_is_on_a_major_that_runs_on_node24(path: Path) -> None:
    for job in load(path)["jobs"].values():
        for step in steps(job):
            if "uses" not in step:
                continue
            action, _, ref = step["uses"].partition("@")
            assert action in NODE24_MAJORS, f"{action}: check its action.yml `runs.using`, then list it here"
            major = re.match(r"v(\d+)", ref)
            assert major and int(major.group(1)) >= NODE24_MAJORS[action], f"{step['uses']} runs on an older Node"


def test_only_stacks_with_real_secrets_get_a_real_preview_or_deploy(preview_job, deploy_job) -> None:
    # example's secrets are placeholders the CLI cannot decrypt: offline checks only.
    assert "example" in stacks_on_disk() and "example" not in deployable_stacks()
    assert "dev" in deployable_stacks()
    assert sorted(deploy_job["strategy"]["matrix"]["stack"]) == deployable_stacks()
    deploying = " ".join((ROOT / "docs" / "deploying.md").read_text(encoding="utf-8").split())
    assert "`example` is checked offline only" in deploying


def test_the_placeholder_test_tells_ciphertext_from_placeholders() -> None:
    assert not is_ciphertext("v1:Yz3kLq8mB0+example-ciphertext/kubeconfig==")
    assert is_ciphertext("v1:3ZtOqDZ5uMkNqQmj:tq0BqBuwyL0tnk0GzZkkBjEeJ/0eNw==")
    assert secure_values({"a": [{"b": {"secure": "x"}}, {"secure": "y"}], "c": "z"}) == ["x", "y"]


# --- preview ------------------------------------------------------------------------------


def test_preview_runs_pulumi_preview_with_policy_and_a_pr_comment(preview_job) -> None:
    step = steps(preview_job)[index_of(preview_job, lambda s: uses(s) == "pulumi/actions")]
    assert step["uses"] == "pulumi/actions@v7"
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


def test_preview_matrix_lists_exactly_the_deployable_stacks_in_stacks_dir(preview_job) -> None:
    assert sorted(preview_job["strategy"]["matrix"]["stack"]) == deployable_stacks()
    assert preview_job["strategy"]["fail-fast"] is False  # one broken stack must not hide the others


def test_preview_logs_in_to_every_cloud_before_pulumi_runs(preview_job) -> None:
    pulumi_step = index_of(preview_job, lambda s: uses(s) == "pulumi/actions")
    for action in (
        "actions/checkout",
        "azure/login",
        "aws-actions/configure-aws-credentials",
        "google-github-actions/auth",
    ):
        assert index_of(preview_job, lambda s, a=action: uses(s) == a) < pulumi_step, action
    assert index_of(preview_job, lambda s: "make venv" in s.get("run", "")) < pulumi_step
    policy_venv = steps(preview_job)[index_of(preview_job, lambda s: "policy/requirements.txt" in s.get("run", ""))]
    assert steps(preview_job).index(policy_venv) < pulumi_step
    assert "--require-hashes" in policy_venv["run"]
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


@pytest.mark.parametrize("path", [PREVIEW, DEPLOY], ids=lambda p: p.name)
def test_documents_every_secret_it_uses(path: Path) -> None:
    header = "".join(line for line in path.read_text(encoding="utf-8").splitlines(True) if line.startswith("#"))
    for name in secrets_referenced(path):
        assert name in header, f"secrets.{name} is used but not described in the header comment"


# --- deploy -------------------------------------------------------------------------------


def test_deploy_runs_on_push_to_main_only() -> None:
    assert load(DEPLOY)["on"] == {"push": {"branches": ["main"]}}
    assert load(DEPLOY)["permissions"] == {"contents": "read", "id-token": "write"}


def test_deploy_runs_each_stack_behind_its_environment_one_at_a_time(deploy_job) -> None:
    assert deploy_job["environment"] == "${{ matrix.stack }}"  # required reviewers live there
    concurrency = deploy_job["concurrency"]
    # Per stack, not per commit: two pushes must not update one stack at once, and a
    # running `pulumi up` is never cancelled half-way.
    assert concurrency["group"] == "deploy-${{ matrix.stack }}"
    assert concurrency["cancel-in-progress"] is False
    assert deploy_job["strategy"]["fail-fast"] is False
    assert deploy_job["strategy"]["matrix"]["stack"] == load(PREVIEW)["jobs"]["preview"]["strategy"]["matrix"]["stack"]


def test_deploy_validates_then_runs_pulumi_up_with_the_policy_pack(deploy_job) -> None:
    pulumi_step = index_of(deploy_job, lambda s: uses(s) == "pulumi/actions")
    venv = index_of(deploy_job, lambda s: s.get("run", "").strip() == "make venv")
    validate = index_of(deploy_job, lambda s: "-m preflight validate" in s.get("run", ""))
    assert venv < validate < pulumi_step
    assert "stacks/Pulumi.${{ matrix.stack }}.yaml" in steps(deploy_job)[validate]["run"]
    policy_venv = index_of(deploy_job, lambda s: "policy/requirements.txt" in s.get("run", ""))
    assert "--require-hashes" in steps(deploy_job)[policy_venv]["run"] and policy_venv < pulumi_step
    for action in ("azure/login", "aws-actions/configure-aws-credentials", "google-github-actions/auth"):
        assert validate < index_of(deploy_job, lambda s, a=action: uses(s) == a) < pulumi_step, action
    options = steps(deploy_job)[pulumi_step]["with"]
    assert options["command"] == "up"
    assert options["policyPacks"] == "policy"
    assert options["stack-name"] == "${{ vars.PULUMI_ORG }}/${{ matrix.stack }}"
    assert options["work-dir"] == "."
    env = deploy_job["env"]
    assert str(env["ARM_USE_OIDC"]).lower() == "true"
    assert env["PULUMI_ACCESS_TOKEN"] == "${{ secrets.PULUMI_ACCESS_TOKEN }}"


def test_deploy_header_names_the_environment_oidc_subject() -> None:
    # A job with an environment presents `repo:<owner>/<repo>:environment:<name>` to the
    # clouds, so the federated credentials must trust that subject.
    assert "repo:<owner>/<repo>:environment:<stack>" in DEPLOY.read_text(encoding="utf-8")


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


# --- kubernetes-support -------------------------------------------------------------------


def test_kubernetes_support_runs_weekly_on_the_real_date_without_secrets() -> None:
    workflow = load(SUPPORT)
    assert workflow["on"] == {"schedule": [{"cron": "17 6 * * 1"}], "workflow_dispatch": None}
    assert workflow["permissions"] == {"contents": "read"}
    assert not secrets_referenced(SUPPORT)
    job = workflow["jobs"]["support"]
    run = steps(job)[index_of(job, lambda s: "kubernetes_support.py" in s.get("run", ""))]["run"]
    # The real date: no --today, and the lead time is longer than validate's 60-day advisory.
    assert run == "venv/bin/python scripts/kubernetes_support.py --days 90"


SUPPORT_SCRIPT = ROOT / "scripts" / "kubernetes_support.py"


def support(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SUPPORT_SCRIPT), *args], capture_output=True, text=True, check=False, timeout=60
    )


def test_kubernetes_support_passes_while_every_default_has_90_days_left() -> None:
    result = support("--today", "2026-12-01", "--days", "90")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == [
        "AKS 1.36: standard support until 2027-06-30 (211 days)",
        "EKS 1.36: standard support until 2027-08-02 (244 days)",
        "GKE 1.35: standard support until 2027-04-11 (131 days)",
    ]


def test_kubernetes_support_warns_ahead_of_a_defaults_end_and_when_the_calendar_is_stale() -> None:
    result = support("--today", "2027-03-15", "--days", "90")
    assert result.returncode == 1
    warnings = [line for line in result.stdout.splitlines() if line.startswith("::warning")]
    assert warnings == [
        "::warning title=Kubernetes support::GKE default 1.35 leaves standard support on 2027-04-11 (in 27 days): "
        "move DEFAULT_MINOR in spec/data/kubernetes.py to a newer minor, and the stacks one minor at a time",
        "::warning title=Kubernetes support::the Kubernetes support calendar (spec/data/kubernetes.py) was read on "
        "2026-12-01, 104 days ago: check the AKS, EKS and GKE calendars and update it (its defaults too)",
    ]
    assert support("--today", "2027-13-01").returncode == 2
