"""CODEOWNERS covers what gates a change: the workflows (and this file), CI's settings, the
policy pack and the code that runs it, the scripts the workflows run, and the locks. A
pull request's workflows run from its own branch, so only a required code-owner review
keeps such a change from weakening its own checks (docs/deploying.md)."""

from __future__ import annotations

import fnmatch
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CODEOWNERS = ROOT / ".github" / "CODEOWNERS"


def rules() -> list[tuple[str, list[str]]]:
    out = []
    for line in CODEOWNERS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            pattern, *owners = line.split()
            out.append((pattern, owners))
    return out


def owned(path: str) -> bool:
    """GitHub's reading, for the anchored patterns this file uses: `/dir/` owns everything
    under it, `/name*` matches a file of the root."""
    for pattern, owners in rules():
        assert pattern.startswith("/"), f"{pattern}: anchor it at the root"
        body = pattern[1:]
        if (body.endswith("/") and path.startswith(body)) or fnmatch.fnmatchcase(path, body):
            return bool(owners)
    return False


# What .gitignore keeps out of the repository (installs, caches, build output): no rule may
# count on a file in them. Pruned while walking: listing the venv alone takes over a second.
UNTRACKED = {"venv", ".git", "build", "__pycache__", ".pytest_cache", ".hypothesis", ".uv", ".ruff_cache"}
UNTRACKED |= {".mypy_cache", "mutants", ".venv-mut", "node_modules", ".helm"}


def repository_files() -> list[str]:
    files = []
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in UNTRACKED and not d.endswith(".egg-info")]
        files += [str((Path(folder) / n).relative_to(ROOT)) for n in names if not n.endswith(".pyc")]
    return files


def test_every_rule_names_an_owner_and_matches_a_file() -> None:
    files = repository_files()
    for pattern, owners in rules():
        assert owners and all(re.fullmatch(r"@[\w.-]+(/[\w.-]+)?|[^@\s]+@[^@\s]+", o) for o in owners), pattern
        body = pattern[1:]
        assert any((body.endswith("/") and f.startswith(body)) or fnmatch.fnmatchcase(f, body) for f in files), pattern


def test_what_gates_a_change_is_owned() -> None:
    gates = [
        ".github/CODEOWNERS",
        *(str(p.relative_to(ROOT)) for p in (ROOT / ".github" / "workflows").glob("*.yml")),
        ".ci/run",
        ".ci/policy-advisory.json",
        ".pulumi-version",
        "policy/policies.py",
        "policy/rules/cost.py",
        "policy/requirements.txt",
        "preflight/policy.py",
        "requirements.txt",
        "requirements.in",
        "requirements-uv.txt",
        "provider/requirements.txt",
        "renovate.json",
        "Makefile",
        # The checks and what they compare against (a PR could otherwise mark its own tests
        # xfail, or change a shipped CRD and its recorded digest together).
        "tests/conftest.py",
        "tests/fixtures/golden/plan-example.json",
        "pytest.ini",
        "pyproject.toml",
        "components/data/kuberay/sources.json",
        "preflight/runtime.py",
    ]
    assert [path for path in gates if not owned(path)] == []


def test_every_script_a_workflow_runs_is_owned() -> None:
    run = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / ".github" / "workflows").glob("*.yml"))
    scripts = set(re.findall(r"\bscripts/[\w.-]+", run))
    assert scripts, "no script found in the workflows: the pattern is stale"
    assert sorted(s for s in scripts if not owned(s)) == []
