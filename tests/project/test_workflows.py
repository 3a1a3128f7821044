"""The GitHub Actions workflows: schema-valid, linted, and wired the way the design says.

check-jsonschema (pinned in requirements-dev.in) vendors the GitHub workflow schema; actionlint
and zizmor (pinned too) lint them in `make lint`, and the tests here show both catch a
planted fault. The structural asserts below catch what neither can: a preview gated by the
pull request's own pack, a stored Pulumi token, a CLI left to float, a stack missing from the
matrix, a secret leaking into the fork-safe workflow, a deploy that could be cancelled
half-way or skip its environment."""

from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
PREVIEW = WORKFLOWS / "preview.yml"
OFFLINE = WORKFLOWS / "offline-checks.yml"
DEPLOY = WORKFLOWS / "deploy.yml"
DRIFT = WORKFLOWS / "drift.yml"
SUPPORT = WORKFLOWS / "kubernetes-support.yml"
RELEASE = WORKFLOWS / "release.yml"  # its own tests: tests/project/test_release.py
ALL = [PREVIEW, OFFLINE, DEPLOY, DRIFT, SUPPORT, RELEASE]
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


def test_every_workflow_matches_the_github_schema() -> None:
    # One run for all of them (the tool names each file that fails): a process apiece cost
    # half a second each.
    exe = Path(sys.executable).parent / "check-jsonschema"
    assert exe.is_file(), f"{exe} is missing: it is pinned in requirements-dev.in (make dev)"
    result = subprocess.run(
        [str(exe), "--builtin-schema", "vendor.github-workflows", *map(str, ALL)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


USES_LINE = re.compile(r"^\s*(?:- )?uses: (\S+)(.*)$", re.MULTILINE)


def uses_lines(path: Path) -> list[tuple[str, str]]:
    """Each `uses:` value with the comment after it (YAML drops comments)."""
    return [(ref, rest.strip()) for ref, rest in USES_LINE.findall(path.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_every_action_is_pinned_to_a_commit_with_its_tag_beside_it(path: Path) -> None:
    # A tag can be moved; a commit cannot. Renovate's github-actions manager updates the
    # digest and the `# vX.Y.Z` comment together.
    found = uses_lines(path)
    assert found
    for ref, comment in found:
        assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", ref), ref
        assert re.fullmatch(r"# v\d+\.\d+\.\d+", comment), f"{ref}: add the tag as `# vX.Y.Z`"


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
# each action's own action.yml on 2026-11-30 (pulumi/auth-actions v2.1.0 on 2026-12-01). A
# new action fails here until it is checked.
NODE24_MAJORS = {
    "pulumi/auth-actions": 2,
    "actions/checkout": 5,
    "actions/setup-python": 6,
    "actions/upload-artifact": 6,
    "marocchino/sticky-pull-request-comment": 3,
    "azure/login": 3,
    "aws-actions/configure-aws-credentials": 6,
    "google-github-actions/auth": 3,
    "pulumi/actions": 7,
    "actions/cache": 5,  # v5.0.5's action.yml: `using: 'node24'` (read 2026-12-02)
}


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_every_action_is_on_a_major_that_runs_on_node24(path: Path) -> None:
    for ref, comment in uses_lines(path):
        action = ref.partition("@")[0]
        assert action in NODE24_MAJORS, f"{action}: check its action.yml `runs.using`, then list it here"
        major = re.match(r"# v(\d+)", comment)
        assert major and int(major.group(1)) >= NODE24_MAJORS[action], f"{ref} {comment} runs on an older Node"


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


def is_gate(step: dict[str, Any]) -> bool:
    return uses(step) == "pulumi/actions" and step.get("name") == "pulumi preview"


STACK_NAME = "${{ vars.PULUMI_BACKEND_URL != '' && matrix.stack || format('{0}/{1}', vars.PULUMI_ORG, matrix.stack) }}"


def test_preview_runs_pulumi_preview_gated_by_the_base_pack_with_a_pr_comment(preview_job) -> None:
    step = steps(preview_job)[index_of(preview_job, is_gate)]
    options = step["with"]
    assert options["command"] == "preview"
    assert options["comment-on-pr"] is True
    assert options["diff"] is True
    assert options["refresh"] is True
    assert options["policyPacks"] == ".base/policy"
    assert "policyPackConfigs" not in options  # the base pack's own levels: mandatory stays mandatory
    assert options["work-dir"] == "."
    assert options["stack-name"] == "${{ env.PULUMI_STACK }}"
    assert preview_job["env"]["PULUMI_STACK"] == STACK_NAME
    assert (ROOT / "policy" / "PulumiPolicy.yaml").is_file()


def test_the_gating_pack_is_checked_out_from_the_base_commit(preview_job) -> None:
    gate = index_of(preview_job, is_gate)
    base = index_of(preview_job, lambda s: uses(s) == "actions/checkout" and "ref" in s.get("with", {}))
    options = steps(preview_job)[base]["with"]
    assert options["ref"] == "${{ github.event.pull_request.base.sha }}"
    assert options["path"] == ".base"
    assert options["sparse-checkout"] == "policy"
    assert options["persist-credentials"] is False
    venvs = steps(preview_job)[
        index_of(preview_job, lambda s: "requirements.txt" in s.get("run", "") and "pack" in s.get("run", ""))
    ]
    assert "for pack in .base/policy policy" in venvs["run"] and "--require-hashes" in venvs["run"]
    assert base < steps(preview_job).index(venvs) < gate


def test_the_pull_requests_own_pack_runs_advisory_after_the_gate(preview_job) -> None:
    advisory = index_of(preview_job, lambda s: uses(s) == "pulumi/actions" and not is_gate(s))
    step = steps(preview_job)[advisory]
    assert advisory > index_of(preview_job, is_gate)
    assert step["if"] == "${{ !cancelled() }}"
    options = step["with"]
    assert options["command"] == "preview"
    assert options["policyPacks"] == "policy"
    assert options.get("comment-on-pr", False) is False  # one comment per stack: the gate's
    assert options["policyPackConfigs"] == ".ci/policy-advisory.json"
    # `all` sets every policy's enforcement level (Pulumi's policy configuration).
    assert json.loads((ROOT / ".ci" / "policy-advisory.json").read_text(encoding="utf-8")) == {"all": "advisory"}


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_no_workflow_uses_a_stored_pulumi_token(path: Path) -> None:
    assert "PULUMI_ACCESS_TOKEN" not in path.read_text(encoding="utf-8")
    assert "PULUMI_ACCESS_TOKEN" not in secrets_referenced(path)


@pytest.mark.parametrize("path", [PREVIEW, DEPLOY], ids=lambda p: p.name)
def test_pulumi_cloud_login_is_oidc_and_skipped_for_a_self_managed_backend(path: Path) -> None:
    workflow = load(path)
    assert workflow["permissions"]["id-token"] == "write"
    job = next(iter(workflow["jobs"].values()))
    login = index_of(job, lambda s: uses(s) == "pulumi/auth-actions")
    step = steps(job)[login]
    assert step["if"] == "vars.PULUMI_BACKEND_URL == ''"
    assert step["with"] == {
        "organization": "${{ vars.PULUMI_ORG }}",
        "requested-token-type": "urn:pulumi:token-type:access_token:organization",
    }
    for i, other in enumerate(steps(job)):
        if uses(other) == "pulumi/actions":
            assert login < i
            assert other["with"]["cloud-url"] == "${{ vars.PULUMI_BACKEND_URL }}"
            assert other["with"]["stack-name"] == "${{ env.PULUMI_STACK }}"
    assert job["env"]["PULUMI_STACK"] == STACK_NAME
    check = steps(job)[index_of(job, lambda s: s.get("name") == "Check repository settings")]
    assert check["if"] == "vars.PULUMI_ORG == '' && vars.PULUMI_BACKEND_URL == ''"


@pytest.mark.parametrize("path", [PREVIEW, DEPLOY], ids=lambda p: p.name)
def test_every_pulumi_step_installs_the_cli_of_the_version_file(path: Path) -> None:
    pulumi_steps = [s for job in load(path)["jobs"].values() for s in steps(job) if uses(s) == "pulumi/actions"]
    assert pulumi_steps
    for step in pulumi_steps:
        assert step["with"]["pulumi-version-file"] == ".pulumi-version"
        assert "pulumi-version" not in step["with"]  # the action refuses both


def test_the_cli_version_file_is_one_release_the_sdk_pin_matches_and_renovate_bumps() -> None:
    text = (ROOT / ".pulumi-version").read_text(encoding="utf-8")
    assert re.fullmatch(r"\d+\.\d+\.\d+\n", text), "one exact version, no range (pulumi/actions reads it as is)"
    # The CLI and the Python SDK are released together with one version number.
    sdk = re.search(r"^pulumi==(\S+)$", (ROOT / "requirements.in").read_text(encoding="utf-8"), re.MULTILINE)
    assert sdk and text.strip() == sdk.group(1)
    renovate = json.loads((ROOT / "renovate.json").read_text(encoding="utf-8"))
    managers = [m for m in renovate["customManagers"] if "/^\\.pulumi-version$/" in m["managerFilePatterns"]]
    assert len(managers) == 1
    manager = managers[0]
    assert manager["datasourceTemplate"] == "github-releases" and manager["depNameTemplate"] == "pulumi/pulumi"
    # Renovate's regexes are JavaScript's: `(?<name>...)` is Python's `(?P<name>...)`.
    match = re.search(manager["matchStrings"][0].replace("(?<", "(?P<"), text)
    assert match and match.group("currentValue") == text.strip()
    assert (
        re.fullmatch(manager["extractVersionTemplate"].replace("(?<", "(?P<"), "v3.300.1").group("version") == "3.300.1"
    )  # the release tag
    group = next(r for r in renovate["packageRules"] if "pulumi/pulumi" in r.get("matchPackageNames", []))
    assert {"pulumi", "pulumi-policy"} <= set(group["matchPackageNames"])  # SDK and CLI in one PR


def test_preview_matrix_lists_exactly_the_deployable_stacks_in_stacks_dir(preview_job) -> None:
    assert sorted(preview_job["strategy"]["matrix"]["stack"]) == deployable_stacks()
    assert preview_job["strategy"]["fail-fast"] is False  # one broken stack must not hide the others


def test_preview_logs_in_to_every_cloud_before_pulumi_runs(preview_job) -> None:
    pulumi_step = index_of(preview_job, is_gate)
    assert index_of(preview_job, lambda s: uses(s) == "actions/checkout" and "ref" not in s["with"]) < pulumi_step
    for action in (
        "azure/login",
        "aws-actions/configure-aws-credentials",
        "google-github-actions/auth",
    ):
        assert index_of(preview_job, lambda s, a=action: uses(s) == a) < pulumi_step, action
    assert index_of(preview_job, lambda s: "make venv" in s.get("run", "")) < pulumi_step
    policy_venv = steps(preview_job)[
        index_of(preview_job, lambda s: "requirements.txt" in s.get("run", "") and "pack" in s.get("run", ""))
    ]
    assert steps(preview_job).index(policy_venv) < pulumi_step
    assert "--require-hashes" in policy_venv["run"]
    by_action = {uses(s): s.get("with", {}) for s in steps(preview_job)}
    assert set(by_action["azure/login"]) >= {"client-id", "tenant-id", "subscription-id"}
    assert all("secrets." in by_action["azure/login"][k] for k in ("client-id", "tenant-id", "subscription-id"))
    assert "role-to-assume" in by_action["aws-actions/configure-aws-credentials"]
    assert "workload_identity_provider" in by_action["google-github-actions/auth"]
    env = preview_job["env"]
    assert str(env["ARM_USE_OIDC"]).lower() == "true"


def test_preview_has_least_permissions_and_skips_forks(preview_job) -> None:
    workflow = load(PREVIEW)
    assert workflow["permissions"] == {"contents": "read", "pull-requests": "write", "id-token": "write"}
    assert "permissions" not in preview_job or preview_job["permissions"] == workflow["permissions"]
    assert re.fullmatch(
        r"\s*github\.event\.pull_request\.head\.repo\.full_name\s*==\s*github\.repository\s*", preview_job["if"]
    )
    group = preview_job["concurrency"]["group"]
    assert "github.event.pull_request.number" in group and "matrix.stack" in group


@pytest.mark.parametrize("path", [PREVIEW, DEPLOY, DRIFT], ids=lambda p: p.name)
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
    # A date never fails a deploy: the check before pulumi up judges as pulumi up does.
    assert "-m preflight validate --deploying " in steps(deploy_job)[validate]["run"]
    policy_venv = index_of(deploy_job, lambda s: "policy/requirements.txt" in s.get("run", ""))
    assert "--require-hashes" in steps(deploy_job)[policy_venv]["run"] and policy_venv < pulumi_step
    for action in ("azure/login", "aws-actions/configure-aws-credentials", "google-github-actions/auth"):
        assert validate < index_of(deploy_job, lambda s, a=action: uses(s) == a) < pulumi_step, action
    options = steps(deploy_job)[pulumi_step]["with"]
    assert options["command"] == "up"
    assert options["policyPacks"] == "policy"
    assert options["stack-name"] == "${{ env.PULUMI_STACK }}"
    assert options["work-dir"] == "."
    env = deploy_job["env"]
    assert str(env["ARM_USE_OIDC"]).lower() == "true"


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


# --- drift --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def drift_job() -> dict[str, Any]:
    return load(DRIFT)["jobs"]["drift"]


def test_drift_runs_nightly_and_on_demand_with_read_and_issue_rights_only() -> None:
    workflow = load(DRIFT)
    assert workflow["on"] == {"schedule": [{"cron": "17 4 * * *"}], "workflow_dispatch": None}
    assert workflow["permissions"] == {"contents": "read", "issues": "write", "id-token": "write"}


def test_drift_previews_every_deployable_stack_behind_its_environment(drift_job) -> None:
    assert sorted(drift_job["strategy"]["matrix"]["stack"]) == deployable_stacks()
    assert drift_job["strategy"]["fail-fast"] is False
    assert drift_job["environment"] == "drift"
    assert drift_job["concurrency"] == {"group": "drift-${{ matrix.stack }}", "cancel-in-progress": False}
    header = DRIFT.read_text(encoding="utf-8")
    assert "repo:<owner>/<repo>:environment:drift" in header


def test_drift_previews_with_refresh_and_expect_no_changes_and_never_updates(drift_job) -> None:
    preview = steps(drift_job)[index_of(drift_job, lambda s: s.get("id") == "preview")]
    command = " ".join(preview["run"].split())
    assert "pulumi preview" in command
    for flag in ("--refresh", "--expect-no-changes", "--diff", "--non-interactive", "--color never"):
        assert flag in command, flag
    assert 'scripts/drift_report.py "$STACK" "$code" preview.txt issue.md' in command
    # Nothing writes the stacks: no update, refresh, destroy or import, and the action only installs the CLI.
    for step in steps(drift_job):
        text = " ".join(step.get("run", "").split())
        assert not re.search(r"pulumi (up|update|refresh|destroy|import|state)\b", text), text
        if uses(step) == "pulumi/actions":
            assert "with" not in step or "command" not in step["with"]
    env = drift_job["env"]
    assert "PULUMI_ACCESS_TOKEN" not in env  # Pulumi Cloud through OIDC, as in preview.yml
    assert env["ARM_CLIENT_ID"] == "${{ secrets.AZURE_DRIFT_CLIENT_ID }}"


def test_drift_logs_in_before_the_preview_and_uses_the_reader_identities(drift_job) -> None:
    preview = index_of(drift_job, lambda s: s.get("id") == "preview")
    install = index_of(drift_job, lambda s: uses(s) == "pulumi/actions")
    for action in (
        "actions/checkout",
        "pulumi/auth-actions",
        "azure/login",
        "aws-actions/configure-aws-credentials",
        "google-github-actions/auth",
    ):
        assert index_of(drift_job, lambda s, a=action: uses(s) == a) < preview, action
    assert install < preview
    by_action = {uses(s): s.get("with", {}) for s in steps(drift_job)}
    assert by_action["azure/login"]["client-id"] == "${{ secrets.AZURE_DRIFT_CLIENT_ID }}"
    assert by_action["aws-actions/configure-aws-credentials"]["role-to-assume"] == "${{ secrets.AWS_DRIFT_ROLE_ARN }}"
    assert by_action["google-github-actions/auth"]["service_account"] == "${{ secrets.GCP_DRIFT_SERVICE_ACCOUNT }}"


def test_drift_opens_or_updates_one_issue_on_drift_and_closes_it_when_clean(drift_job) -> None:
    opening = steps(drift_job)[index_of(drift_job, lambda s: "gh issue create" in s.get("run", ""))]
    closing = steps(drift_job)[index_of(drift_job, lambda s: "gh issue close" in s.get("run", ""))]
    assert opening["if"] == "steps.preview.outputs.verdict == 'drift'"
    assert closing["if"] == "steps.preview.outputs.verdict == 'clean'"
    for step in (opening, closing):
        assert 'title="Drift in stack $STACK"' in step["run"]
        assert "--label drift" in step["run"]
    assert 'gh issue edit "$number" --body-file issue.md' in opening["run"]
    assert "--body-file issue.md" in opening["run"].split("gh issue create", 1)[1]
    assert drift_job["env"]["GH_TOKEN"] == "${{ github.token }}"


def _drift_report() -> Any:
    from tests.scripts import load_script

    return load_script("drift_report")


DRIFTED = (
    "Previewing update (org/dev)\n~ azure-native:containerservice:AgentPool default-pool-cpu update [diff: ~maxCount]\n"
)


@pytest.mark.parametrize("code", ["--5", "²", "1.5", "", "99999999999", "0x1"])
def test_drift_report_refuses_a_malformed_exit_code_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], code: str
) -> None:
    assert _drift_report().main(["dev", code, str(tmp_path / "o"), str(tmp_path / "b")]) == 2
    assert capsys.readouterr().err == "usage: drift_report.py STACK EXIT_CODE OUTPUT_FILE BODY_FILE\n"


def test_drift_report_reads_hostile_escapes_in_linear_time() -> None:
    import time

    report = _drift_report()
    started = time.process_time()
    body = report.issue_body("dev", "\x1b]" * 200_000 + DRIFTED, "url")
    assert time.process_time() - started < 2  # quadratic: minutes
    assert "\x1b" not in body
    # Terminated sequences (BEL and ST) go whole.
    assert report.ESCAPES_RE.sub("", "a\x1b]0;title\x07b\x1b[31mc\x1b]8;;x\x1b\\d") == "abcd"


def test_drift_report_body_stays_within_githubs_limit_whatever_the_backticks() -> None:
    report = _drift_report()
    for output, url in (("`" * 70_000, "url"), (("`" * 20 + "x") * 5_000, "url"), ("y" * 200_000, "u" * 9_000)):
        body = report.issue_body("dev", output, url)
        assert len(body) <= 65_536
        fence = body.rstrip("\n").rsplit("\n", 1)[-1]
        assert set(fence) == {"`"} and len(fence) <= 16


def test_drift_report_tells_drift_from_a_clean_run_and_from_other_errors() -> None:
    report = _drift_report()
    assert report.verdict(0, "") == "clean"
    assert report.verdict(255, DRIFTED + "error: no changes were expected but changes were proposed\n") == "drift"
    assert report.verdict(255, "error: no changes were expected for preview but changes were proposed") == "drift"
    assert report.verdict(255, "error: failed to refresh: AuthorizationFailed") == "error"


def test_drift_report_body_fences_the_output_so_nothing_in_it_renders_or_escapes(tmp_path: Path) -> None:
    report = _drift_report()
    hostile = "\x1b[31m~ cors\x1b[0m\n````\n<img src=x onerror=alert(1)> @team #1\n"
    body = report.issue_body("dev", hostile, "https://github.com/o/r/actions/runs/1")
    assert "\x1b" not in body
    assert "`````text\n~ cors\n````\n<img src=x onerror=alert(1)> @team #1\n`````" in body
    assert body.startswith("`pulumi preview --refresh --expect-no-changes` of stack `dev` found changes")
    assert "Run: https://github.com/o/r/actions/runs/1" in body
    long = report.issue_body("dev", "x" * 70_000, "run")
    assert "x" * 60_000 + "\n... (10000 more characters in the run's log)" in long
    assert len(long) < 65_536


def test_drift_report_command_line_writes_the_body_on_drift_only(tmp_path: Path) -> None:
    output, body = tmp_path / "preview.txt", tmp_path / "issue.md"
    output.write_text(DRIFTED + "error: no changes were expected but changes were proposed\n", encoding="utf-8")
    script = str(ROOT / "scripts" / "drift_report.py")
    run = subprocess.run(
        [sys.executable, script, "dev", "255", str(output), str(body)], capture_output=True, text=True, check=False
    )
    assert (run.returncode, run.stdout) == (0, "drift\n")
    assert "default-pool-cpu update [diff: ~maxCount]" in body.read_text(encoding="utf-8")
    body.unlink()
    run = subprocess.run(
        [sys.executable, script, "dev", "0", str(output), str(body)], capture_output=True, text=True, check=False
    )
    assert (run.returncode, run.stdout, body.exists()) == (0, "clean\n", False)
    bad = subprocess.run([sys.executable, script, "dev"], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "usage:" in bad.stderr


# --- linters ------------------------------------------------------------------------------


def lint(tool: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    bin_dir = Path(sys.executable).parent
    exe = bin_dir / tool
    assert exe.is_file(), f"{exe} is missing: it is pinned in requirements-dev.in (make dev)"
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(cwd), "NO_COLOR": "1"}
    return subprocess.run([str(exe), *args], capture_output=True, text=True, check=False, timeout=120, cwd=cwd, env=env)


@pytest.fixture
def planted(tmp_path: Path) -> Path:
    """A copy of the workflows with one fault for each linter: an unquoted variable in a
    `run:` script (shellcheck through actionlint) and a pull-request title expanded into a
    script (template injection, zizmor)."""
    (tmp_path / ".github").mkdir()
    shutil.copytree(WORKFLOWS, tmp_path / ".github" / "workflows")
    path = tmp_path / ".github" / "workflows" / "offline-checks.yml"
    text = path.read_text(encoding="utf-8")
    text = text.replace(
        '        run: cat "$OUT_DIR/report.md" >> "$GITHUB_STEP_SUMMARY"',
        '        run: |\n          cat $OUT_DIR/report.md >> "$GITHUB_STEP_SUMMARY"\n'
        '          echo "${{ github.event.pull_request.title }}"',
    )
    assert "github.event.pull_request.title" in text
    path.write_text(text, encoding="utf-8")
    return tmp_path


def test_actionlint_passes_the_workflows_and_catches_a_planted_shell_fault(planted: Path) -> None:
    clean = lint("actionlint", *(str(p) for p in ALL), cwd=ROOT)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    bad = lint(
        "actionlint",
        "-no-color",
        *sorted(str(p) for p in (planted / ".github" / "workflows").glob("*.yml")),
        cwd=planted,
    )
    assert bad.returncode == 1
    assert "SC2086" in bad.stdout  # shellcheck ran: `$OUT_DIR` unquoted
    assert "offline-checks.yml" in bad.stdout


def test_zizmor_passes_the_workflows_and_catches_a_planted_injection(planted: Path) -> None:
    clean = lint("zizmor", "--offline", "--quiet", ".github/workflows", cwd=ROOT)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    bad = lint("zizmor", "--offline", "--quiet", ".github/workflows", cwd=planted)
    assert bad.returncode != 0
    assert "template-injection" in bad.stdout + bad.stderr


def test_make_lint_runs_both_linters() -> None:
    target = re.search(r"^lint:.*?\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(encoding="utf-8"), re.MULTILINE)
    assert target
    assert "$(VENV)/bin/actionlint .github/workflows/*.yml" in target.group(1)
    assert "zizmor --offline" in target.group(1)


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
        "move DEFAULT_MINOR in config/data/kubernetes.py to a newer minor, and the stacks one minor at a time",
        "::warning title=Kubernetes support::the Kubernetes support calendar (config/data/kubernetes.py) was read on "
        "2026-12-01, 104 days ago: check the AKS, EKS and GKE calendars and update it (its defaults too)",
    ]
    assert support("--today", "2027-13-01").returncode == 2
