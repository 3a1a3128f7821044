"""The documentation cannot drift: every command it shows exists, the README's quick start
runs, its links resolve, the paths it names exist.

The pages are README.md and every docs/*.md but the two generated from the code
(docs/configuration.md, docs/policies.md: their generators and tests own them).

Commands. Every fenced block whose language is `sh`, `bash`, `shell` or `console` holds
commands (in a `console` block, the lines after a `$ ` prompt; `> ` lines continue them).
Comment lines are skipped, a trailing `\\` continues a command on the next line, and a
here-document (`<<'EOF'` ... `EOF`) belongs to the command that opens it.

- A command that needs the cloud, a cluster, a login or the network is marked, with the
  reason: a trailing `# needs: <reason>`, or `# needs: <reason>` as the block's first line,
  which marks every command of the block (a walkthrough against the cloud: variables, loops,
  several tools). An unmarked command whose first word needs the cloud or the network
  (docs_blocks.ONLINE: `pulumi`, `az`, `aws`, `gcloud`, `kubectl`, `helm`, `curl`, ...)
  fails the suite: mark it.
- An unmarked command holds no `<placeholder>`: a reader can run it as shown. Use a real
  value, or mark it.
- Every command of every page, marked or not, names only what exists; checked without
  running it (tests/project/docs_commands.py): a `make ...` is one `make -n` accepts (its
  targets and variables; `-o venv/.installed`, so the dry run plans no reinstall);
  `venv/bin/python -m <module>` names a module of the repository (with a __main__.py for a
  package) or of the venv; `python -m preflight <verb> ...` names one of preflight's verbs, and the verb's
  own argparse parser accepts the arguments (parsed, not run); any other `--flag` given to a
  module or script of the repository is spelt in its source; `venv/bin/python scripts/x.py`,
  `scripts/x.sh`, `bash x`, `.ci/run` name a file of the repository (executable when run by
  its path; a shell script must pass `bash -n`); `venv/bin/<tool>` is in the venv or pinned
  in a requirements*.txt lock (mutmut: `make mutate` installs it); every argument that is a
  path in the repository exists, unless a command of the page writes it (`>`, `cp`, `mv`).
  An unmarked command's other programs are bash builtins or on PATH; a marked command's are
  outside the repository and not looked for, nor are scripts outside it (../shared).
- A `make`, `venv/bin/...`, `scripts/...`, `bash ...` or `.ci/...` command quoted inline in
  a page's text (a code span with a space) must be one a block shows (a `<placeholder>` in
  the quote matches any word), so that a command quoted in prose is checked too.

The README's quick start (its `## Quick start...` section) is the one part that runs, end to
end, as a new reader follows it: its unmarked commands in order, in one bash, in one fresh
copy of the repository (the files `git ls-files` lists, as they are in the working tree;
./venv a symlink to the real venv, nothing beside it: the quick start needs nothing outside
the repository; committed as `main` with an `origin/main` ref), from its root. Each
command must exit 0, or N when its line ends with `# exit N`. `make` runs with `-o
venv/.installed` (a `make` first on PATH adds it): the copy's files are newer than the real
venv's stamp, and the Makefile would otherwise reinstall the lock into the shared venv; the
test also fails if the venv's stamp changes. A command too long for the suite (`make test`:
this suite) would run by the table SUBSTITUTIONS (shown command -> what runs, and why); it is
empty while the quick start needs none, and an entry the quick start does not use fails.
Where PYTHONDONTWRITEBYTECODE is set, the quick start writes bytecode under a
PYTHONPYCACHEPREFIX of the session instead: otherwise every plan compiles the provider SDKs.

How long the docs' other commands take is not this suite's business: `make bench` and the
scripts in docs/development.md measure against targets.

Links and paths. Every fence names its language (a bare fence could hide a command). Every
relative markdown link must reach a file, and its `#anchor` a heading of that page (GitHub's
slugs); links into the generated pages are skipped. Every code span that looks like a path in
the repository (no space, a `/`, its first part a top-level entry of the repository) must
exist (a `<placeholder>` or `*` in it matches anything). README.md's map links every page of
docs/.

`venv/bin/python -m tests.project.test_readme_commands` lists, per page, what runs and what is
only checked.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.project.docs_blocks import (
    PLACEHOLDER,
    Command,
    Page,
    anchors,
    code_part,
    code_spans,
    excerpt_problems,
    links,
    parse,
    slug,
    text_samples,
)
from tests.project.docs_commands import (
    STAMP,
    missing,
    repository_path_exists,
    shell_env,
    tracked_tops,
    written_files,
)

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
# Generated from the code by other modules: not read here, and links into them not checked.
GENERATED = frozenset({"docs/configuration.md", "docs/policies.md"})
QUICK_START = "Quick start"  # README.md's section that runs: the `## ` heading starting so
QUICK_START_TIMEOUT_S = 600  # a handful of plans, seconds each on a quiet machine


@dataclass(frozen=True)
class Substitution:
    shown: str  # a regex the whole command (without its trailing comment) must match
    run: str  # what runs instead (re.sub template)
    why: str


# Quick-start commands that would not finish in a test (e.g. `make test` -> `make -n test`:
# it is this suite). None today.
SUBSTITUTIONS: tuple[Substitution, ...] = ()


def substitute(text: str, table: tuple[Substitution, ...] = SUBSTITUTIONS) -> tuple[str, str]:
    """(what runs, why) for a shown command: itself, or its entry of the table."""
    code = code_part(text)
    for entry in table:
        if re.fullmatch(entry.shown, code):
            return re.sub(entry.shown, entry.run, code), entry.why
    return text, ""


# --- the pages ------------------------------------------------------------------------------


def read_page(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def page_names() -> list[str]:
    docs = sorted(p.relative_to(ROOT).as_posix() for p in DOCS.glob("*.md"))
    return ["README.md", *(d for d in docs if d not in GENERATED)]


PAGES = [parse(read_page(name), name) for name in page_names()]


def quick_start(page: Page) -> list[Command]:
    """The commands that run: the unmarked ones of the page's quick-start section."""
    return [c for b in page.blocks if b.section.startswith(QUICK_START) for c in b.commands if not c.needs]


QUICK_START_COMMANDS = quick_start(PAGES[0])


# --- links and paths ------------------------------------------------------------------------


def broken_links(name: str, markdown: str) -> list[str]:
    problems = []
    here = (ROOT / name).parent
    for target in links(markdown):
        if re.match(r"^[a-z]+:", target):
            continue  # https:, mailto:
        path, _, anchor = target.partition("#")
        file = (here / path).resolve() if path else ROOT / name
        relative = file.relative_to(ROOT).as_posix() if file.is_relative_to(ROOT) else str(file)
        if relative in GENERATED:
            continue
        if not file.exists():
            problems.append(f"{name}: ({target}): no file {relative}")
        elif anchor and file.suffix == ".md" and anchor not in anchors(read_page(relative)):
            problems.append(f"{name}: ({target}): no heading #{anchor} in {relative}")
    return problems


# Paths the docs name that the tools create: not in a checkout.
CREATED = frozenset({"policy/venv"})


def missing_paths(name: str, markdown: str, tops: frozenset[str]) -> list[str]:
    problems = []
    for span in code_spans(markdown):
        if " " in span or "/" not in span or span.split("/", 1)[0] not in tops or span.rstrip("/") in CREATED:
            continue
        if not repository_path_exists(span):
            problems.append(f"{name}: `{span}` is not a path in the repository")
    return problems


QUOTED_COMMAND = re.compile(r"^(make |venv/bin/|scripts/|bash |\.ci/)\S*\s")


def quoted_commands(markdown: str) -> list[str]:
    return [s for s in code_spans(markdown) if QUOTED_COMMAND.match(s + " ") and " " in s]


def shown_anywhere(quote: str, shown: list[str]) -> bool:
    words = [r".*" if w == "..." else r"\S+".join(map(re.escape, PLACEHOLDER.split(w))) for w in quote.split()]
    pattern = re.compile(r"\s+".join(words) + r"(\s|$)")
    return any(pattern.match(code_part(text)) for text in shown)


def page_problems(page: Page) -> list[str]:
    """Every command of the page that names something missing (docs_commands)."""
    created = written_files(page.commands)
    return [f"{page.name}:{c.line}: {code_part(c.shown)}\n    {p}" for c in page.commands for p in missing(c, created)]


# --- running the quick start ----------------------------------------------------------------


def script(commands: list[Command], source: str) -> str:
    """One bash script: each command (or its substitute), then a check of its exit status."""
    parts = ["set -o pipefail"]
    for command in commands:
        run, _ = substitute(command.shown)
        where = f"{source}:{command.line}"
        shown = run if run == command.shown else f"{run}   (shown: {code_part(command.shown)})"
        parts.append(f"printf '%s\\n' {shell_quote('$ ' + shown + '   (' + where + ')')}")
        parts.append(run)
        parts.append(
            f'rc=$?; if [ "$rc" -ne {command.expected} ]; then '
            f"printf '%s exited %s, expected {command.expected}: %s\\n' {shell_quote(where)} \"$rc\" "
            f"{shell_quote(run)} >&2; exit 97; fi"
        )
    return "\n".join(parts) + "\n"


def shell_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def run_commands(
    commands: list[Command], workdir: Path, env: dict[str, str], source: str, stderr: list[str] | None = None
) -> tuple[int, str]:
    """Run the commands in workdir; (bash's exit status, combined output). With `stderr`, what
    they wrote there is appended to it instead, and the output is stdout alone."""
    path = workdir.parent / f"commands-{re.sub(r'[^A-Za-z0-9]+', '-', source)}.sh"
    path.write_text(script(commands, source), encoding="utf-8")
    proc = subprocess.run(
        ["bash", "--noprofile", "--norc", str(path)],
        cwd=workdir,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT if stderr is None else subprocess.PIPE,
        text=True,
        timeout=QUICK_START_TIMEOUT_S,
        check=False,
    )
    if stderr is not None:
        stderr.append(proc.stderr)
    return proc.returncode, proc.stdout


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
    # A commit and an origin/main, so that a command reading git history (plan_all.sh) has a base.
    git("init", "-q", "-b", "main", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-q", "--no-verify", "-m", "docs test copy", cwd=repo)
    git("update-ref", "refs/remotes/origin/main", "HEAD", cwd=repo)
    return repo


def make_shim(directory: Path) -> Path:
    """A `make` that never rebuilds the venv stamp; first on PATH for the quick start."""
    real = shutil.which("make")
    if real is None:
        pytest.fail("`make` is not installed: the documented commands use it")
    directory.mkdir(parents=True, exist_ok=True)
    shim = directory / "make"
    shim.write_text(f'#!/bin/sh\nexec {shell_quote(real)} -o {STAMP} "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    return directory


def block_env(bin_dir: Path, pycache: Path) -> dict[str, str]:
    env = shell_env()
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    # Where bytecode is not written (PYTHONDONTWRITEBYTECODE), every plan would compile
    # the provider SDKs again (tens of seconds): write it to a cache of this session
    # instead, never into the shared venv or the repository.
    if env.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    # The README's samples of output are 100 columns wide (the plan's tree wraps to the terminal).
    env["COLUMNS"] = "100"
    return env


def stamp_mtime() -> float | None:
    stamp = (ROOT / "venv").resolve() / ".installed"
    return stamp.stat().st_mtime if stamp.exists() else None


# --- the tests ----------------------------------------------------------------------------


def test_the_commands_are_found() -> None:
    """The extraction finds the blocks and the quick start: a parser that found nothing would pass everything."""
    shown = [code_part(c.shown) for p in PAGES for c in p.commands]
    marked = [code_part(c.shown) for p in PAGES for c in p.commands if c.needs]
    assert {"README.md", "docs/deploying.md", "docs/reviewing.md", "docs/development.md"} <= {p.name for p in PAGES}
    assert sum(len(p.blocks) for p in PAGES) >= 20
    assert any(text.startswith("venv/bin/python -m preflight diff ") for text in shown)
    assert any(text.startswith("scripts/plan_all.sh ") for text in shown)
    assert any(text.startswith("pulumi up") for text in marked)
    assert any(re.match(r"make test\b", text) for text in shown)
    run = [code_part(c.shown) for c in QUICK_START_COMMANDS]
    assert "make plan STACK=dev" in run, f"README.md has no `## {QUICK_START}` section that plans the dev stack"
    assert any(text.startswith("venv/bin/python -m preflight diff ") for text in run)


def test_every_cloud_command_is_marked() -> None:
    unmarked = [f"{p.name}:{line}: {text}" for p in PAGES for b in p.blocks for line, text in b.unmarked_online]
    assert not unmarked, (
        "these commands need the cloud or the network but are not marked: end the line with "
        "`# needs: <reason>` (or start the block with it):\n" + "\n".join(unmarked)
    )


def test_no_unmarked_command_is_a_template() -> None:
    # The whole command but its trailing comment: a here-document's body counts.
    templates = [
        f"{p.name}:{c.line}: {c.shown}"
        for p in PAGES
        for c in p.commands
        if not c.needs and PLACEHOLDER.search("\n".join([code_part(c.shown), *c.shown.split("\n")[1:]]))
    ]
    assert not templates, (
        "these commands hold a <placeholder>: use a real value, or mark the line "
        "`# needs: <reason>` if it needs the real cloud:\n" + "\n".join(templates)
    )


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_command_shown_exists(page: Page) -> None:
    problems = page_problems(page)
    assert not problems, "these commands name what does not exist:\n" + "\n".join(problems)


def test_every_substitution_is_used() -> None:
    shown = [code_part(c.shown) for c in QUICK_START_COMMANDS]
    unused = [s.shown for s in SUBSTITUTIONS if not any(re.fullmatch(s.shown, text) for text in shown)]
    assert not unused, f"SUBSTITUTIONS entries the quick start does not show (remove them): {unused}"


def test_commands_quoted_in_the_text_are_shown_in_a_block() -> None:
    shown = [c.shown for p in PAGES for c in p.commands]
    orphans = [f"{p.name}: `{q}`" for p in PAGES for q in quoted_commands(p.text) if not shown_anywhere(q, shown)]
    assert not orphans, (
        "these commands are quoted in the text but no block shows them, so nothing checks them: "
        "add them to a block (or mark them there):\n" + "\n".join(orphans)
    )


def test_every_fence_names_its_language() -> None:
    bare = [f"{p.name}:{line}" for p in PAGES for line in p.bare_fences]
    assert not bare, "fences without a language (`text` for output): " + ", ".join(bare)


def test_every_relative_link_resolves() -> None:
    problems = [problem for p in PAGES for problem in broken_links(p.name, p.text)]
    assert not problems, "\n".join(problems)


def test_every_repository_path_named_exists() -> None:
    problems = [problem for p in PAGES for problem in missing_paths(p.name, p.text, tracked_tops())]
    assert not problems, "\n".join(problems)


def test_the_readme_maps_every_page_of_docs() -> None:
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in links(read_page("README.md"))}
    pages = {ROOT / name for name in [*page_names()[1:], *GENERATED]}
    assert not {p for p in pages if p.resolve() not in linked}, "README.md's map misses a page of docs/"


def test_the_quick_start_runs(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    repo = copy_repository(tmp_path)
    env = block_env(make_shim(tmp_path / "bin"), tmp_path_factory.getbasetemp() / "readme-pycache")
    before = stamp_mtime()
    errors: list[str] = []
    status, output = run_commands(QUICK_START_COMMANDS, repo, env, "README.md", stderr=errors)
    assert status == 0, f"a command of README.md's quick start failed:\n{output[-6000:]}\n{errors[0][-3000:]}"
    # Nothing on stderr from a run that succeeds: no "Exception ignored in BaseEventLoop.__del__"
    # at interpreter exit (seen about one run in ten once), no stray warning. This is the check
    # of validate and plan as processes of their own (tests/preflight/test_input_gate.py keeps
    # the first-preview plan's, which the quick start does not run).
    assert errors == [""], f"the quick start wrote on stderr:\n{errors[0][-3000:]}"
    assert "installing the lock" not in output, "a quick-start command reinstalled the venv"
    assert stamp_mtime() == before, "a quick-start command touched the venv's install stamp"
    # Every sample of output in the quick start is what its commands printed in this run.
    samples = [s for s in text_samples(read_page("README.md")) if s.section.startswith("Quick start")]
    assert len(samples) >= 3, "the quick start's samples of output were not found"
    for sample in samples:
        problems = excerpt_problems(sample.lines, output)
        assert not problems, f"README.md:{sample.line}: the quick start no longer prints this sample: {problems}"


# --- the harness itself can fail ----------------------------------------------------------

SAMPLE = """# Title

## Offline

```sh
true   # exit 0 by default
sh -c 'exit 3'   # exit 3
echo one \\
  two > out.txt
cat > here.txt <<'EOF'
  # kept: a here-document's lines are its own
EOF
pulumi up   # needs: a Pulumi login
some-tool --flag   # needs: the network
```

```text
false   # not a shell block: never read
```

## Broken

### A subsection

```bash
sh -c 'exit 0'   # exit 3
```

```sh
cat missing-file.txt
true
```
"""


def test_harness_reads_blocks_marks_and_heredocs() -> None:
    page = parse(SAMPLE, "SAMPLE")
    offline, wrong_exit, missing_file = page.blocks
    assert offline.section == "Offline"
    assert [(c.line, c.shown, c.expected, c.needs) for c in offline.commands] == [
        (6, "true   # exit 0 by default", 0, ""),
        (7, "sh -c 'exit 3'   # exit 3", 3, ""),
        (8, "echo one two > out.txt", 0, ""),
        (10, "cat > here.txt <<'EOF'\n  # kept: a here-document's lines are its own\nEOF", 0, ""),
        (13, "pulumi up   # needs: a Pulumi login", 0, "a Pulumi login"),
        (14, "some-tool --flag   # needs: the network", 0, "the network"),
    ]
    assert (wrong_exit.section, wrong_exit.commands[0].expected) == ("Broken", 3)  # `###` stays in its section
    assert [c.shown for c in missing_file.commands] == ["cat missing-file.txt", "true"]
    assert page.bare_fences == []
    assert parse("```\nls\n```\n").bare_fences == [1]


def test_harness_marks_a_whole_block_and_flags_unmarked_cloud_commands() -> None:
    walkthrough = (
        "## Deploy\n\n```sh\n# needs: an Azure login\nSUB=$(az account show)\nfor x in a; do\n  echo $x\ndone\n```\n"
    )
    (block,) = parse(walkthrough).blocks
    assert {c.needs for c in block.commands} == {"an Azure login"}
    assert len(block.commands) == 4
    # The block mark counts on the first line only; a mark needs its reason.
    (later,) = parse("```sh\ntrue\n# needs: x\nfalse\n```\n").blocks
    assert [(c.shown, c.needs) for c in later.commands] == [("true", ""), ("false", "")]
    (bare,) = parse("```sh\nKUBECONFIG=k kubectl get pods\naz login   # needs:\n```\n").blocks
    assert [text for _, text in bare.unmarked_online] == ["KUBECONFIG=k kubectl get pods", "az login   # needs:"]


def test_harness_reads_console_sessions_and_indented_blocks() -> None:
    session = "```console\n$ make plan \\\n>   STACK=dev\noutput line\n$ ls   # exit 2\nmore output\n```\n"
    (block,) = parse(session).blocks
    assert [(c.line, c.shown, c.expected) for c in block.commands] == [
        (2, "make plan STACK=dev", 0),
        (5, "ls   # exit 2", 2),
    ]
    nested = "1. Step:\n\n   ```sh\n   cat > f <<'EOF'\n   a: 1\n   EOF\n   ```\n"
    (indented,) = parse(nested).blocks
    assert [c.shown for c in indented.commands] == ["cat > f <<'EOF'\na: 1\nEOF"]


def test_harness_fails_on_a_broken_command(tmp_path: Path) -> None:
    offline, wrong_exit, missing_file = parse(SAMPLE, "SAMPLE").blocks
    work = tmp_path / "work"
    work.mkdir()
    env = shell_env()
    status, output = run_commands(offline.commands[:4], work, env, "SAMPLE")
    assert (status, output) == (
        0,
        "$ true   # exit 0 by default   (SAMPLE:6)\n"
        "$ sh -c 'exit 3'   # exit 3   (SAMPLE:7)\n"
        "$ echo one two > out.txt   (SAMPLE:8)\n"
        "$ cat > here.txt <<'EOF'\n  # kept: a here-document's lines are its own\nEOF   (SAMPLE:10)\n",
    )
    assert (work / "out.txt").read_text() == "one two\n"
    assert (work / "here.txt").read_text() == "  # kept: a here-document's lines are its own\n"
    status, output = run_commands(wrong_exit.commands, work, env, "SAMPLE")
    assert status == 97
    assert "SAMPLE:26 exited 0, expected 3: sh -c 'exit 0'   # exit 3" in output
    status, output = run_commands(missing_file.commands, work, env, "SAMPLE")
    assert status == 97
    assert "SAMPLE:30 exited 1, expected 0: cat missing-file.txt" in output
    assert "$ true" not in output  # the run stops at the first failure


def test_harness_substitutes_long_commands() -> None:
    table = (
        Substitution(r"make test", "make -n test", "this suite"),
        Substitution(r"(venv/bin/python scripts/clean_exit\.py) --runs \d+", r"\1 --runs 1", "a loop"),
    )
    assert substitute("make test   # all of it", table) == ("make -n test", "this suite")
    assert substitute("venv/bin/python scripts/clean_exit.py --runs 50", table)[0] == (
        "venv/bin/python scripts/clean_exit.py --runs 1"
    )
    assert substitute("make plan STACK=dev", table) == ("make plan STACK=dev", "")


def test_harness_flags_placeholders() -> None:
    assert PLACEHOLDER.search(code_part("export ARM_SUBSCRIPTION_ID=<subscription>"))
    assert PLACEHOLDER.search(code_part("make plan STACK=<stack>"))
    assert not PLACEHOLDER.search(code_part("make plan STACK=dev   # plans build/plan-<stack>.json"))
    assert not PLACEHOLDER.search(code_part("cat <<EOF"))
    assert not PLACEHOLDER.search(code_part("python -c 'print(1<2>0)'"))


def test_harness_matches_quoted_commands() -> None:
    shown = ["make plan STACK=dev", "venv/bin/mutmut show components.spec.x__mutmut_1   # needs: a run"]
    assert shown_anywhere("make plan STACK=<stack>", shown)
    assert shown_anywhere("make plan", shown)
    assert shown_anywhere("venv/bin/mutmut show <mutant>", shown)
    assert not shown_anywhere("make plans", shown)
    assert not shown_anywhere("make plan STACK=prod", shown)
    assert not shown_anywhere("make plan STACK=<stack> --more", shown)
    text = "Run `make plan STACK=<stack>`, see `scripts/plan_all.sh` and `make  fmt`, not `makefile x`."
    assert quoted_commands(text) == ["make plan STACK=<stack>", "make  fmt"]


def test_harness_checks_links_anchors_and_paths() -> None:
    text = "# A page\n\n## Step 1: the `plan` view\n\n## Step 1: the `plan` view\n\n```sh\n# not a heading\n```\n"
    assert anchors(text) == {"a-page", "step-1-the-plan-view", "step-1-the-plan-view-1"}
    assert slug("9.1 The first `pulumi preview`") == "91-the-first-pulumi-preview"
    page = "[ok](docs/platform.md#91-the-first-pulumi-preview) [gen](docs/configuration.md#x) [web](https://x.y/z)"
    assert broken_links("README.md", page) == []
    bad = "[a](docs/nothere.md) [b](docs/platform.md#no-such-heading) `[c](not/a/link.md)`"
    assert broken_links("README.md", bad) == [
        "README.md: (docs/nothere.md): no file docs/nothere.md",
        "README.md: (docs/platform.md#no-such-heading): no heading #no-such-heading in docs/platform.md",
    ]
    tops = frozenset({"components", "stacks", "policy"})
    spans = "`stacks/Pulumi.<stack>.yaml` `policy/rules/*.py` `policy/venv` `ray.io/v1` `components/nothere.py`"
    assert missing_paths("X.md", spans, tops) == ["X.md: `components/nothere.py` is not a path in the repository"]


CHECKED = """## Fine

```sh
make plan STACK=dev
make venv
venv/bin/python -m preflight plan --stack dev --json build/x.json --quiet
venv/bin/python -m preflight validate --today 2026-12-01 stacks/Pulumi.dev.yaml
venv/bin/python -m pytest tests/config/test_fuzz.py
venv/bin/python scripts/clean_exit.py --runs 50
venv/bin/python scripts/bench_plan.py --help
scripts/plan_all.sh origin/main build/review && cat build/review/report.md
cp stacks/Pulumi.dev.yaml stacks/Pulumi.new.yaml
sed 's/a/b/' stacks/Pulumi.new.yaml > stacks/Pulumi.newer.yaml
venv/bin/mutmut show x   # needs: a run of make mutate
bash ../shared/tools/x/setup.sh   # needs: PyPI
az ad sp show --id x >/dev/null 2>&1 || jq . "$(cat x)"   # needs: a login
```

## Broken

```sh
make no-such-target
venv/bin/python -m preflight plann --stack dev
venv/bin/python -m preflight plan --stack dev --no-such-flag
venv/bin/python -m preflight validate --yesterday stacks/Pulumi.dev.yaml
venv/bin/python -m config.nothere
venv/bin/python -m nothere_installed
venv/bin/python scripts/nothere.py
venv/bin/python scripts/clean_exit.py --walks 3
scripts/nothere.sh
venv/bin/nothere
no-such-program-anywhere --x
cat stacks/Pulumi.nothere.yaml
make nothere-either   # needs: it is still looked for
```
"""


def test_harness_checks_that_commands_exist() -> None:
    fine, broken = parse(CHECKED, "CHECKED").blocks
    created = written_files([*fine.commands, *broken.commands])
    assert {"stacks/Pulumi.new.yaml", "stacks/Pulumi.newer.yaml", "/dev/null"} <= created
    assert [(c.line, missing(c, created)) for c in fine.commands if missing(c, created)] == []
    # Each broken command, in the block's order, and what its problem must say.
    expected = [
        "No rule to make target 'no-such-target'",
        "no such verb",
        "unrecognized arguments: --no-such-flag",
        "`--yesterday`: not an option of preflight/validate.py",
        "no such module in the repository",
        "not installed in the venv",
        "`scripts/nothere.py`: no such file",
        "`--walks`: not an option of scripts/clean_exit.py",
        "`scripts/nothere.sh`: no such file",
        "`venv/bin/nothere`: not in the venv",
        "neither a shell builtin nor a program on PATH",
        "`stacks/Pulumi.nothere.yaml` is not a path in the repository",
        "No rule to make target 'nothere-either'",
    ]
    said = [" ".join(missing(c, created)) for c in broken.commands]
    assert len(said) == len(expected)
    wrong = [
        (c.shown, got, want) for c, got, want in zip(broken.commands, said, expected, strict=True) if want not in got
    ]
    assert not wrong, wrong


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


if __name__ == "__main__":  # python -m tests.project.test_readme_commands: what runs, what is checked
    running = set(map(id, QUICK_START_COMMANDS))
    for p in PAGES:
        print(p.name)
        for c in p.commands:
            run, why = substitute(c.shown) if id(c) in running else (c.shown, "")
            what = "run    " if id(c) in running else "marked " if c.needs else "checked"
            extra = f"   [runs: {run}; {why}]" if why else f"   [needs: {c.needs}]" if c.needs else ""
            status = f"   [exit {c.expected}]" if c.expected else ""
            print(f"  {what} {c.line}: {code_part(c.shown)}{status}{extra}")
        for b in p.blocks:
            for line, text in b.unmarked_online:
                print(f"  ERROR   {line}: {code_part(text)}   [needs the cloud, not marked]")
    sys.exit(0)
