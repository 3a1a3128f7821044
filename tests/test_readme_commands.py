"""Every offline command of README.md runs as shown (issue 19), so the README cannot drift.

Each ```sh (or ```bash / ```shell) block of README.md is one test: its commands run in
order, in one bash, in a temporary copy of the repository (the files `git ls-files`
lists, with ./venv a symlink to the real venv, committed as `main` with an `origin/main`
ref so that `scripts/plan_all.sh origin/main ...` has a base). The rule, stated in the
README's Tests section too:

- A line is NOT run when its first word needs a cloud account or the network (ONLINE
  below: `pulumi`, `az`, `aws`, `gcloud`, `kubectl`, `helm`, ...), when it is
  `make venv`, `make lock`, `make uv` or `make test` (they install into ./venv, resolve
  against PyPI, or are this very suite), or when it ends with `# online`; no line of a
  block runs when the block's first line is a comment starting `# online`.
- Every other line must exit 0, or N when it ends with `# exit N`.
- A line that runs cannot hold a `<placeholder>`: use a real value, or mark it `# online`.

Comment lines (`# ...`) are skipped, a trailing `\\` continues a command on the next
line. `make` runs with `-o venv/.installed` (a `make` first on PATH adds it, for the
`make` calls of scripts too): the copy's files are newer than the real venv's stamp, and
the Makefile would otherwise reinstall the lock into the shared venv (`-o` also keeps a
missing stamp from being made). The test also fails if the venv's stamp changes. Under
`make test` Python writes bytecode as usual (the Makefile unexports PYTHONDONTWRITEBYTECODE;
`__pycache__` is ignored by git); run outside `make` where PYTHONDONTWRITEBYTECODE is set,
the blocks write it under a PYTHONPYCACHEPREFIX of the session instead: otherwise every
plan compiles the provider SDKs again.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"

SHELL_LANGUAGES = frozenset({"sh", "bash", "shell"})
# First words of commands that need a cloud account, a cluster or the network.
ONLINE = frozenset(
    {
        "pulumi",
        "az",
        "aws",
        "gcloud",
        "gsutil",
        "kubectl",
        "helm",
        "kubelogin",
        "gke-gcloud-auth-plugin",
        "curl",
        "wget",
    }
)
# `make` targets never run: they install into the shared venv or resolve over the
# network (venv, lock, uv), or they are this very suite (test).
NEVER_MAKE = frozenset({"venv", "lock", "uv", "test"})
ONLINE_MARK = re.compile(r"#\s*online\s*$")
BLOCK_ONLINE_MARK = re.compile(r"#\s*online\b")
EXIT_MARK = re.compile(r"#\s*exit\s+(\d+)\s*$")
PLACEHOLDER = re.compile(r"(?<![<\w])<[A-Za-z][\w.-]*>")
FENCE = re.compile(r"^\s*```\s*([\w+-]*)")
BLOCK_TIMEOUT_S = 1200  # the whole block; plans take seconds each on a quiet machine
STAMP = "venv/.installed"


@dataclass(frozen=True)
class Command:
    line: int  # 1-based line of README.md where the command starts
    text: str  # the logical line, continuations joined
    expected: int  # exit status


@dataclass
class Block:
    line: int  # the opening fence's line
    heading: str  # the nearest heading above it
    commands: list[Command] = field(default_factory=list)  # the ones that run
    skipped: list[tuple[int, str, str]] = field(default_factory=list)  # (line, text, why)

    @property
    def id(self) -> str:
        slug = re.sub(r"[^a-z0-9]+", "-", self.heading.lower()).strip("-")
        return f"L{self.line}-{slug}"


def code_part(text: str) -> str:
    """The command without its trailing comment (a ` #` outside quotes, roughly)."""
    return re.split(r"\s#", text, maxsplit=1)[0]


def skip_reason(text: str) -> str | None:
    """Why a logical line is not run, or None when it runs."""
    if ONLINE_MARK.search(text):
        return "marked `# online`"
    words = code_part(text).split()
    if not words:
        return "empty"
    if words[0] in ONLINE:
        return f"`{words[0]}` needs the cloud or the network"
    if words[0] == "make" and any(w in NEVER_MAKE for w in words[1:]):
        return "installs into ./venv or is the test suite itself"
    return None


def logical_lines(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Join `\\` continuations; drop blank and comment lines."""
    out: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for number, raw in lines:
        text = raw.strip()
        if pending is None and (not text or text.startswith("#")):
            continue
        start, sofar = pending if pending is not None else (number, "")
        if text.endswith("\\"):
            pending = (start, sofar + text[:-1].rstrip() + " ")
            continue
        pending = None
        out.append((start, sofar + text))
    if pending is not None:
        out.append((pending[0], pending[1].rstrip()))
    return out


def parse(markdown: str) -> list[Block]:
    """The shell blocks of a markdown text, with their commands split into run/skipped."""
    blocks: list[Block] = []
    heading = "top"
    body: list[tuple[int, str]] | None = None  # lines of the shell block being read
    opening = 0  # the line of its opening fence
    in_other_fence = False
    for number, raw in enumerate(markdown.splitlines(), start=1):
        fence = FENCE.match(raw)
        if body is not None:
            if fence and not fence.group(1):
                block = Block(opening, heading)
                # A block whose first line is `# online...` is a walkthrough against the
                # cloud (variables, loops, several tools): none of it runs.
                first = next((raw.strip() for _, raw in body if raw.strip()), "")
                whole = "block marked `# online` on its first line" if BLOCK_ONLINE_MARK.match(first) else None
                for start, text in logical_lines(body):
                    why = whole or skip_reason(text)
                    if why:
                        block.skipped.append((start, text, why))
                    else:
                        mark = EXIT_MARK.search(text)
                        block.commands.append(Command(start, text, int(mark.group(1)) if mark else 0))
                blocks.append(block)
                body = None
            else:
                body.append((number, raw))
            continue
        if in_other_fence:
            in_other_fence = not fence
            continue
        if fence:
            if fence.group(1).lower() in SHELL_LANGUAGES:
                body, opening = [], number
            else:
                in_other_fence = True
            continue
        if raw.startswith("#"):
            heading = raw.lstrip("#").strip()
    return blocks


def script(block: Block, source: str = "README.md") -> str:
    """One bash script: each command, then a check of its exit status."""
    parts = ["set -o pipefail"]
    for command in block.commands:
        where = f"{source}:{command.line}"
        parts.append(f"printf '%s\\n' {shell_quote('$ ' + command.text + '   (' + where + ')')}")
        parts.append(command.text)
        parts.append(
            f'rc=$?; if [ "$rc" -ne {command.expected} ]; then '
            f"printf '%s exited %s, expected {command.expected}: %s\\n' {shell_quote(where)} \"$rc\" "
            f"{shell_quote(command.text)} >&2; exit 97; fi"
        )
    return "\n".join(parts) + "\n"


def shell_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def run_block(block: Block, workdir: Path, env: dict[str, str], source: str = "README.md") -> tuple[int, str]:
    """Run a block's commands in workdir; (bash's exit status, combined output)."""
    path = workdir.parent / f"readme-block-{block.line}.sh"
    path.write_text(script(block, source), encoding="utf-8")
    proc = subprocess.run(
        ["bash", "--noprofile", "--norc", str(path)],
        cwd=workdir,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=BLOCK_TIMEOUT_S,
        check=False,
    )
    return proc.returncode, proc.stdout


# --- the copy of the repository -----------------------------------------------------------


def git(*args: str, cwd: Path) -> str:
    identity = ["-c", "user.name=readme-test", "-c", "user.email=readme-test@example.invalid"]
    no_signing = ["-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null"]
    return subprocess.run(
        ["git", *identity, *no_signing, *args], cwd=cwd, capture_output=True, text=True, check=True
    ).stdout


def copy_repository(target: Path) -> Path:
    """The tracked files of ROOT (as they are in the working tree), ./venv linked, committed."""
    try:
        listed = git("ls-files", "-z", cwd=ROOT)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: cannot tell which files belong to the repository")
    repo = target / "repo"
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if not source.exists() and not source.is_symlink():
            continue  # deleted in the working tree
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, repo / name, follow_symlinks=False)
    (repo / "venv").symlink_to((ROOT / "venv").resolve(), target_is_directory=True)
    git("init", "-q", "-b", "main", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-q", "--no-verify", "-m", "README test copy", cwd=repo)
    git("update-ref", "refs/remotes/origin/main", "HEAD", cwd=repo)
    return repo


def make_shim(directory: Path) -> Path:
    """A `make` that never rebuilds the venv stamp; first on PATH for the block."""
    real = shutil.which("make")
    if real is None:
        pytest.fail("`make` is not installed: README commands use it")
    directory.mkdir(parents=True, exist_ok=True)
    shim = directory / "make"
    shim.write_text(f'#!/bin/sh\nexec {shell_quote(real)} -o {STAMP} "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    return directory


# What an outer `make` (the suite runs under `make test`) exports to its children: a
# README command runs as a reader runs it, from a shell, not as a sub-make.
MAKE_VARIABLES = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "MAKE_TERMOUT", "MAKE_TERMERR")


def shell_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in MAKE_VARIABLES}


def block_env(bin_dir: Path, pycache: Path) -> dict[str, str]:
    env = shell_env()
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    # Where bytecode is not written (PYTHONDONTWRITEBYTECODE), every plan would compile
    # the provider SDKs again (tens of seconds): write it to a cache of this session
    # instead, never into the shared venv or the repository.
    if env.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


@pytest.fixture(scope="session")
def pycache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # one for all workers
    return shared / "readme-pycache"


def stamp_mtime() -> float | None:
    stamp = (ROOT / "venv").resolve() / ".installed"
    return stamp.stat().st_mtime if stamp.exists() else None


# --- the tests ----------------------------------------------------------------------------

BLOCKS = parse(README.read_text(encoding="utf-8"))
RUNNABLE = [b for b in BLOCKS if b.commands]


def test_the_readme_commands_are_found() -> None:
    """The extraction finds the blocks: a parser that found nothing would pass everything."""
    run = [c.text for b in BLOCKS for c in b.commands]
    skipped = [text for b in BLOCKS for _, text, _ in b.skipped]
    assert len(BLOCKS) >= 5
    assert any(re.match(r"make plan\b", text) for text in run)
    assert any(text.startswith("venv/bin/python -m preflight diff ") for text in run)
    assert any(text.startswith("scripts/plan_all.sh ") for text in run)
    assert any(text.startswith("pulumi up") for text in skipped)
    assert any(re.match(r"make test\b", text) for text in skipped)


def test_no_command_that_runs_is_a_template() -> None:
    templates = [
        f"README.md:{c.line}: {c.text}" for b in BLOCKS for c in b.commands if PLACEHOLDER.search(code_part(c.text))
    ]
    assert not templates, (
        "these README commands hold a <placeholder>: use a real value, or end the line with "
        "`# online` if it needs the real cloud:\n" + "\n".join(templates)
    )


@pytest.mark.parametrize("block", RUNNABLE, ids=[b.id for b in RUNNABLE])
def test_readme_block_runs(block: Block, tmp_path: Path, pycache: Path) -> None:
    repo = copy_repository(tmp_path)
    env = block_env(make_shim(tmp_path / "bin"), pycache)
    before = stamp_mtime()
    status, output = run_block(block, repo, env)
    assert status == 0, f"README.md block at line {block.line} ({block.heading}) failed:\n{output[-6000:]}"
    assert "installing the lock" not in output, "a README command reinstalled the venv"
    assert stamp_mtime() == before, "a README command touched the venv's install stamp"


# --- the harness itself can fail ----------------------------------------------------------

SAMPLE = """# Title

## Offline

```sh
true   # exit 0 by default
sh -c 'exit 3'   # exit 3
echo one \\
  two > out.txt
pulumi up
make venv      # installs
some-tool --flag   # online
```

```
false   # not a shell block: never run
```

## Broken

```bash
sh -c 'exit 0'   # exit 3
```

```sh
cat missing-file.txt
true
```
"""


def test_harness_reads_blocks_marks_and_skips() -> None:
    offline, wrong_exit, missing = parse(SAMPLE)
    assert offline.heading == "Offline"
    assert [(c.line, c.text, c.expected) for c in offline.commands] == [
        (6, "true   # exit 0 by default", 0),
        (7, "sh -c 'exit 3'   # exit 3", 3),
        (8, "echo one two > out.txt", 0),
    ]
    assert [(line, why) for line, _, why in offline.skipped] == [
        (10, "`pulumi` needs the cloud or the network"),
        (11, "installs into ./venv or is the test suite itself"),
        (12, "marked `# online`"),
    ]
    assert (wrong_exit.heading, wrong_exit.commands[0].expected) == ("Broken", 3)
    assert [c.text for c in missing.commands] == ["cat missing-file.txt", "true"]


def test_harness_skips_a_block_marked_online_on_its_first_line() -> None:
    walkthrough = (
        "## Deploy\n\n```sh\n# online: needs Azure\nSUB=$(az account show)\nfor x in a; do\n  echo $x\ndone\n```\n"
    )
    (block,) = parse(walkthrough)
    assert block.commands == []
    assert len(block.skipped) == 4
    # The mark counts only on the first line: later, it is an ordinary comment.
    (later,) = parse("```sh\ntrue\n# online\nfalse\n```\n")
    assert [c.text for c in later.commands] == ["true", "false"]


def test_harness_fails_on_a_broken_command(tmp_path: Path) -> None:
    offline, wrong_exit, missing = parse(SAMPLE)
    work = tmp_path / "work"
    work.mkdir()
    env = shell_env()
    assert run_block(offline, work, env, "SAMPLE") == (
        0,
        "$ true   # exit 0 by default   (SAMPLE:6)\n"
        "$ sh -c 'exit 3'   # exit 3   (SAMPLE:7)\n"
        "$ echo one two > out.txt   (SAMPLE:8)\n",
    )
    assert (work / "out.txt").read_text() == "one two\n"
    status, output = run_block(wrong_exit, work, env, "SAMPLE")
    assert status == 97
    assert "SAMPLE:22 exited 0, expected 3: sh -c 'exit 0'   # exit 3" in output
    status, output = run_block(missing, work, env, "SAMPLE")
    assert status == 97
    assert "SAMPLE:26 exited 1, expected 0: cat missing-file.txt" in output
    assert "$ true" not in output  # the block stops at the first failure


def test_harness_flags_placeholders() -> None:
    assert PLACEHOLDER.search(code_part("export ARM_SUBSCRIPTION_ID=<subscription>"))
    assert PLACEHOLDER.search(code_part("make plan STACK=<stack>"))
    assert not PLACEHOLDER.search(code_part("make plan STACK=dev   # plans build/plan-<stack>.json"))
    assert not PLACEHOLDER.search(code_part("cat <<EOF"))
    assert not PLACEHOLDER.search(code_part("python -c 'print(1<2>0)'"))


def test_the_make_shim_keeps_the_venv_stamp(tmp_path: Path) -> None:
    """Without -o, a copy's Makefile would reinstall: its requirements.txt is newer."""
    work = tmp_path / "work"
    (work / "venv").mkdir(parents=True)
    (work / "Makefile").write_text(
        "STAMP := venv/.installed\nplan: $(STAMP)\n\t@echo planned\n"
        "$(STAMP): requirements.txt\n\t@echo installing the lock; touch $(STAMP)\n",
        encoding="utf-8",
    )
    (work / "venv" / ".installed").touch()
    os.utime(work / "venv" / ".installed", (1, 1))
    (work / "requirements.txt").touch()
    plain = subprocess.run(["make", "plan"], cwd=work, env=shell_env(), capture_output=True, text=True, check=True)
    assert plain.stdout == "installing the lock\nplanned\n"
    os.utime(work / "venv" / ".installed", (1, 1))
    env = block_env(make_shim(tmp_path / "bin"), tmp_path / "pyc")
    shimmed = subprocess.run(["make", "plan"], cwd=work, env=env, capture_output=True, text=True, check=True)
    assert shimmed.stdout == "planned\n"


if __name__ == "__main__":  # list what would run: python -m tests.test_readme_commands
    for b in BLOCKS:
        print(f"README.md:{b.line} ({b.heading})")
        for c in b.commands:
            print(f"  run  {c.line}: {c.text}" + (f"   [exit {c.expected}]" if c.expected else ""))
        for line, text, why in b.skipped:
            print(f"  skip {line}: {text}   [{why}]")
    sys.exit(0)
