"""What a release is made of: the license, the one version number, the CHANGELOG, the
release notes script and the release workflow (docs/development.md, "Releasing").

Each fact is checked against literals written here (the license's sentences, the SemVer
grammar, the Keep a Changelog headings), not against the code that produces it."""

from __future__ import annotations

import ast
import datetime
import hashlib
import itertools
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from components.version import VERSION

ROOT = Path(__file__).resolve().parents[2]
CHANGELOG = ROOT / "CHANGELOG.md"
RELEASE_NOTES = ROOT / "scripts" / "release_notes.py"
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"
OFFLINE = ROOT / ".github" / "workflows" / "offline-checks.yml"

# semver.org's own regular expression for a SemVer 2.0.0 version.
SEMVER = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$"
)
# Keep a Changelog 1.1.0: the kinds of change a release section is grouped under.
CHANGE_TYPES = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}


def repository() -> str:
    """The project's repository URL, the one value policy/pack.py declares (read, not
    imported: the pack imports its rules as the Pulumi CLI lays them out)."""
    tree = ast.parse((ROOT / "policy" / "pack.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["REPOSITORY"]:
            assert isinstance(node.value, ast.Constant)
            return str(node.value.value)
    raise AssertionError("policy/pack.py declares no REPOSITORY")


# --- LICENSE ------------------------------------------------------------------------------

# The Apache License 2.0 as published at https://www.apache.org/licenses/LICENSE-2.0.txt.
APACHE_2_BYTES = 11358
APACHE_2_SHA256 = "cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30"


def test_the_license_is_the_full_apache_2_text() -> None:
    raw = (ROOT / "LICENSE").read_bytes()
    text = raw.decode("ascii")
    assert text.splitlines()[1:4] == [
        "                                 Apache License",
        "                           Version 2.0, January 2004",
        "                        http://www.apache.org/licenses/",
    ]
    for sentence in (
        "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION",
        '"License" shall mean the terms and conditions for use, reproduction,\n      and distribution as defined by Sections 1 through 9 of this document.',
        "2. Grant of Copyright License.",
        "3. Grant of Patent License.",
        "4. Redistribution.",
        "7. Disclaimer of Warranty.",
        "8. Limitation of Liability.",
        "9. Accepting Warranty or Additional Liability.",
        "END OF TERMS AND CONDITIONS",
        "APPENDIX: How to apply the Apache License to your work.",
        "Copyright [yyyy] [name of copyright owner]",
        '   Licensed under the Apache License, Version 2.0 (the "License");',
        "   limitations under the License.\n",
    ):
        assert sentence in text, sentence
    assert text.endswith("   limitations under the License.\n")
    assert b"\r" not in raw
    assert len(raw) == APACHE_2_BYTES
    assert hashlib.sha256(raw).hexdigest() == APACHE_2_SHA256


def test_the_project_files_name_the_license() -> None:
    # `license` is a field of both project files (Pulumi's Project and PolicyPackProject).
    assert yaml.safe_load((ROOT / "Pulumi.yaml").read_text(encoding="utf-8"))["license"] == "Apache-2.0"
    pack = yaml.safe_load((ROOT / "policy" / "PulumiPolicy.yaml").read_text(encoding="utf-8"))
    assert pack["license"] == "Apache-2.0"


# --- VERSION ------------------------------------------------------------------------------


def test_version_is_one_semver_line_read_by_one_module() -> None:
    text = (ROOT / "VERSION").read_text(encoding="utf-8")
    assert re.fullmatch(r"[^\n]+\n", text), "one line, ending with a newline"
    assert SEMVER.match(text.strip()), f"{text.strip()!r} is not a SemVer 2.0.0 version"
    assert text.strip() == VERSION


def test_the_semver_grammar_refuses_what_is_not_a_version() -> None:
    for good in ("0.1.0", "1.0.0-rc.1", "2.3.4+build.7"):
        assert SEMVER.match(good), good
    for bad in ("0.1", "v0.1.0", "01.0.0", "0.1.0 ", "1.0.0-", "0.1.0.0"):
        assert not SEMVER.match(bad), bad


def test_the_policy_packs_version_is_the_projects() -> None:
    # PulumiPolicy.yaml cannot read VERSION: the CLI takes its `version` as written.
    pack = yaml.safe_load((ROOT / "policy" / "PulumiPolicy.yaml").read_text(encoding="utf-8"))
    assert str(pack["version"]) == VERSION


# --- CHANGELOG ----------------------------------------------------------------------------

RELEASE_HEADING = re.compile(r"^## \[(?P<version>[^\]]+)\] - (?P<date>\d{4}-\d{2}-\d{2})$")
LINK_REFERENCE = re.compile(r"^\[(?P<name>[^\]]+)\]: (?P<url>\S+)$")


def changelog() -> str:
    return CHANGELOG.read_text(encoding="utf-8")


def headings(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("## ")]


def released(text: str) -> list[tuple[str, datetime.date]]:
    """(version, date) of every release section, newest first as the file lists them."""
    out = []
    for line in headings(text)[1:]:
        match = RELEASE_HEADING.match(line)
        assert match, f"{line!r}: a release section reads `## [X.Y.Z] - YYYY-MM-DD`"
        out.append((match.group("version"), datetime.date.fromisoformat(match.group("date"))))
    return out


def link_references(text: str) -> dict[str, str]:
    return {m.group("name"): m.group("url") for line in text.splitlines() if (m := LINK_REFERENCE.match(line))}


def test_the_changelog_keeps_a_changelog() -> None:
    text = changelog()
    assert text.startswith("# Changelog\n")
    assert "[Keep a Changelog 1.1.0](https://keepachangelog.com/en/1.1.0/)" in text
    assert "[Semantic Versioning 2.0.0](https://semver.org/spec/v2.0.0.html)" in text
    assert headings(text)[0] == "## [Unreleased]"
    releases = released(text)
    assert releases, "no release section"
    for version, _ in releases:
        assert SEMVER.match(version), version
    # Newest first, by version and by date.
    keys = [tuple(int(part) for part in SEMVER.match(v).groups()[:3]) for v, _ in releases]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)
    dates = [d for _, d in releases]
    assert dates == sorted(dates, reverse=True)
    # Only Keep a Changelog's kinds of change group the entries.
    kinds = {line[4:] for line in text.splitlines() if line.startswith("### ")}
    assert kinds and kinds <= CHANGE_TYPES, kinds - CHANGE_TYPES


def test_the_newest_release_is_the_version_and_dated() -> None:
    (newest, _), *_ = released(changelog())
    assert newest == VERSION
    assert "## [0.1.0] - 2026-12-01" in headings(changelog())


def test_every_version_heading_has_its_link_reference() -> None:
    text = changelog()
    base = repository()
    assert base == "https://github.com/anyscale/anyscale-cloud"
    links = link_references(text)
    versions = [v for v, _ in released(text)]
    assert set(links) == {"Unreleased", *versions}, "one link reference per heading, and none other"
    assert links["Unreleased"] == f"{base}/compare/v{versions[0]}...HEAD"
    for newer, older in itertools.pairwise(versions):
        assert links[newer] == f"{base}/compare/v{older}...v{newer}"
    assert links[versions[-1]] == f"{base}/releases/tag/v{versions[-1]}"
    # The footer is the file's end: nothing after the link references.
    assert LINK_REFERENCE.match(text.rstrip("\n").splitlines()[-1])


def test_the_first_release_names_what_ships() -> None:
    section = changelog().split("## [0.1.0] - 2026-12-01\n", 1)[1]
    for subject in ("preflight", "validate", "plan", "diff", "policy", "cost", "policy pack", "AnyscaleCloud"):
        assert subject in section, subject
    for provider in ("AKS", "EKS", "GKE", "Generic"):
        assert provider in section, provider
    assert "Pulumi YAML" in section and "Apache License 2.0" in section


# --- scripts/release_notes.py -------------------------------------------------------------


def release_notes(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(RELEASE_NOTES), *args], capture_output=True, text=True, check=False, cwd=cwd, timeout=60
    )


def test_release_notes_print_exactly_the_section_of_the_version() -> None:
    text = changelog()
    expected = text.split("## [0.1.0] - 2026-12-01\n", 1)[1].split("\n[Unreleased]: ", 1)[0].strip("\n") + "\n"
    result = release_notes("0.1.0")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == expected
    assert result.stdout.startswith("The first release.\n\n### Added\n")
    assert "## [" not in result.stdout and "[0.1.0]:" not in result.stdout


@pytest.mark.parametrize("version", ["9.9.9", "Unreleased", "0.1"])
def test_release_notes_exit_2_with_one_line_without_a_dated_section(version: str) -> None:
    result = release_notes(version)
    assert (result.returncode, result.stdout) == (2, "")
    assert len(result.stderr.splitlines()) == 1
    assert f'no section "## [{version}] - YYYY-MM-DD"' in result.stderr


def test_release_notes_stop_at_the_next_section_and_refuse_an_empty_one(tmp_path: Path) -> None:
    path = tmp_path / "CHANGELOG.md"
    path.write_text(
        "# Changelog\n\n## [Unreleased]\n\n- soon\n\n## [1.1.0] - 2027-01-02\n\n### Fixed\n\n- one\n\n"
        "## [1.0.0] - 2027-01-01\n\n## [0.9.0] - 2026-12-30\n\n### Added\n\n- first\n  second line\n\n"
        "[Unreleased]: https://x/compare/v1.1.0...HEAD\n[1.1.0]: https://x/compare/v1.0.0...v1.1.0\n",
        encoding="utf-8",
    )
    assert release_notes("1.1.0", "--changelog", str(path)).stdout == "### Fixed\n\n- one\n"
    assert release_notes("0.9.0", "--changelog", str(path)).stdout == "### Added\n\n- first\n  second line\n"
    empty = release_notes("1.0.0", "--changelog", str(path))
    assert empty.returncode == 2 and len(empty.stderr.splitlines()) == 1 and "[1.0.0]" in empty.stderr
    missing = release_notes("1.0.0", "--changelog", str(tmp_path / "nothere.md"))
    assert missing.returncode == 2 and len(missing.stderr.splitlines()) == 1


# --- .github/workflows/release.yml --------------------------------------------------------


def workflow() -> dict[str, Any]:
    document = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    document["on"] = document.pop(True, document.get("on"))  # YAML 1.1 reads `on` as True
    return document


def strings_with(node: Any, needle: str, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The key path of every string value containing `needle`."""
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in strings_with(v, needle, (*path, str(k)))]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in strings_with(v, needle, (*path, str(i)))]
    return [path] if isinstance(node, str) and needle in node else []


def only_in_env(document: dict[str, Any], needle: str) -> list[tuple[str, ...]]:
    """Where `needle` appears other than as the value of an `env:` entry."""
    return [p for p in strings_with(document, needle) if len(p) < 2 or p[-2] != "env"]


def step(job: dict[str, Any], predicate: Any) -> int:
    found = [i for i, s in enumerate(job["steps"]) if predicate(s)]
    assert len(found) == 1, f"expected one matching step, found {len(found)}"
    return found[0]


def uses(s: dict[str, Any]) -> str:
    return str(s.get("uses", "")).split("@")[0]


def test_release_runs_on_version_tags_with_least_permissions() -> None:
    document = workflow()
    assert document["on"] == {"push": {"tags": ["v*"]}}
    assert document["permissions"] == {}
    jobs = document["jobs"]
    assert list(jobs) == ["check", "release"]
    assert jobs["check"]["permissions"] == {"contents": "read"}
    assert jobs["release"]["permissions"] == {"contents": "write"}
    assert jobs["release"]["needs"] == "check"
    assert document["concurrency"]["cancel-in-progress"] is False


def test_the_tag_reaches_the_scripts_only_through_the_environment() -> None:
    document = workflow()
    assert document["env"] == {"TAG": "${{ github.ref_name }}"}
    assert only_in_env(document, "github.ref_name") == []
    assert strings_with(document, "github.ref_name") == [("env", "TAG")]
    for job in document["jobs"].values():
        for s in job["steps"]:
            assert "${{" not in s.get("run", ""), f"an expression inside `run:`: {s.get('name')}"


def test_the_env_only_check_sees_a_tag_in_a_script() -> None:
    planted = {
        "env": {"TAG": "${{ github.ref_name }}"},
        "jobs": {"a": {"steps": [{"run": "echo ${{ github.ref_name }}"}]}},
    }
    assert only_in_env(planted, "github.ref_name") == [("jobs", "a", "steps", "0", "run")]


def test_the_check_job_checks_the_tag_then_runs_the_tests() -> None:
    job = workflow()["jobs"]["check"]
    checkout = step(job, lambda s: uses(s) == "actions/checkout")
    setup = step(job, lambda s: uses(s) == "actions/setup-python")
    tag = step(job, lambda s: "scripts/release_notes.py" in s.get("run", ""))
    test = step(job, lambda s: s.get("run", "").strip() == "make test")
    assert checkout < setup < tag < test
    script = job["steps"][tag]["run"]
    assert 'version="$(cat VERSION)"' in script
    assert '[ "$TAG" != "v$version" ]' in script
    assert 'python3 scripts/release_notes.py "$version"' in script


def test_the_release_job_publishes_the_changelog_section_with_gh() -> None:
    job = workflow()["jobs"]["release"]
    notes = step(job, lambda s: "scripts/release_notes.py" in s.get("run", ""))
    create = step(job, lambda s: "gh release create" in s.get("run", ""))
    assert notes < create
    assert 'scripts/release_notes.py "$(cat VERSION)" > build/release-notes.md' in job["steps"][notes]["run"]
    command = job["steps"][create]["run"]
    assert command.startswith('gh release create "$TAG" ')
    assert "--notes-file build/release-notes.md" in command and "--verify-tag" in command
    assert job["steps"][create]["env"] == {"GH_TOKEN": "${{ github.token }}"}


def test_release_uses_only_checkout_and_setup_python_pinned_as_the_offline_checks() -> None:
    pin = re.compile(r"^\s*(?:- )?uses: (\S+)@(\S+) (# v\S+)$", re.MULTILINE)
    offline = {action: (sha, tag) for action, sha, tag in pin.findall(OFFLINE.read_text(encoding="utf-8"))}
    found = pin.findall(WORKFLOW.read_text(encoding="utf-8"))
    assert {action for action, _, _ in found} == {"actions/checkout", "actions/setup-python"}  # no release action
    for action, sha, tag in found:
        assert (sha, tag) == offline[action], action
    for job in workflow()["jobs"].values():
        for s in job["steps"]:
            if uses(s) == "actions/checkout":
                assert s["with"]["persist-credentials"] is False
            if uses(s) == "actions/setup-python":
                assert str(s["with"]["python-version"]) == "3.11"
                assert "cache" not in s["with"]  # a release is never built from a cache (zizmor: cache-poisoning)


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """What the tag check reads: VERSION, CHANGELOG.md and the notes script."""
    (tmp_path / "scripts").mkdir()
    for name in ("VERSION", "CHANGELOG.md", "scripts/release_notes.py"):
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path


def run_tag_check(cwd: Path, tag: str) -> subprocess.CompletedProcess[str]:
    job = workflow()["jobs"]["check"]
    script = job["steps"][step(job, lambda s: "scripts/release_notes.py" in s.get("run", ""))]["run"]
    env = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "TAG": tag}
    # GitHub runs a `run:` script as `bash --noprofile --norc -eo pipefail {0}`.
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def test_the_tag_check_passes_v_and_the_version(checkout: Path) -> None:
    result = run_tag_check(checkout, f"v{VERSION}")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


@pytest.mark.parametrize("tag", ["v0.1.1", VERSION, f"v{VERSION}-rc.1", "v0.1.0$(touch pwned)", "v0.1.0;touch pwned"])
def test_the_tag_check_fails_any_other_tag(checkout: Path, tag: str) -> None:
    result = run_tag_check(checkout, tag)
    assert result.returncode == 1
    assert f"::error::the tag {tag} is not v{VERSION}" in result.stdout
    assert not (checkout / "pwned").exists()  # the tag is data, never code


def test_the_tag_check_fails_without_the_changelog_section(checkout: Path) -> None:
    (checkout / "VERSION").write_text("0.2.0\n", encoding="utf-8")
    result = run_tag_check(checkout, "v0.2.0")
    assert result.returncode == 2
    assert 'no section "## [0.2.0] - YYYY-MM-DD"' in result.stderr
