"""The documentation cannot drift: its commands run, its links resolve, the paths it names exist.

The pages are README.md and every docs/*.md but the two generated from the code
(docs/configuration.md, docs/policies.md: their generators and tests own them). README.md is
read up to its "## Config reference" heading: that tail is the generated reference, checked by
tests/config/test_config_reference.py, until it moves to docs/configuration.md.

Commands. Every fenced block whose language is `sh`, `bash`, `shell` or `console` holds
commands (in a `console` block, the lines after a `$ ` prompt; `> ` lines continue them).
Each page with commands is one test: its blocks run in order, in one bash, in one fresh copy
of the repository (the files `git ls-files` lists, as they are in the working tree; ./venv a
symlink to the real venv; ../shared beside the copy a symlink to the real ../shared when there
is one; committed as `main` with an `origin/main` ref, so that `scripts/plan_all.sh
origin/main ...` has a base), from its root, as a reader following the page runs them. So a
block may use what an earlier block of the same page wrote (build/...), never what another
page wrote. The rules:

- A command runs and must exit 0, or N when its line ends with `# exit N`.
- A command that needs the cloud, a cluster, a login or the network is marked, with the
  reason: a trailing `# needs: <reason>`, or `# needs: <reason>` as the block's first line,
  which marks every command of the block (a walkthrough against the cloud: variables, loops,
  several tools). Marked commands are not run.
- An unmarked command whose first word needs the cloud or the network (ONLINE below:
  `pulumi`, `az`, `aws`, `gcloud`, `kubectl`, `helm`, `curl`, ...) fails the suite: mark it.
- A command that runs may hold no `<placeholder>`: use a real value, or mark it.
- Some commands only make sense at full length (loops, hours of mutants, this very suite):
  the test runs them with smaller arguments, or as a dry run, by the table SUBSTITUTIONS
  below (shown command -> what runs, and why). `make test` runs as `make -n test`, `bash
  .ci/run` as `bash -n .ci/run`, `make lock`, `make mutate ...` and `make typecheck-sdk` as
  `make -n ...`, `make bench` at sizes 1 and 2 once, `scripts/bench_diff.py` at 500 resources, `scripts/clean_exit.py --runs N` with
  `--runs 1`, `HYPOTHESIS_PROFILE=thorough` as the `ci` profile. A table entry no page uses
  fails the suite.
- `make` runs with `-o venv/.installed` (a `make` first on PATH adds it, for the `make`
  calls of scripts too): the copy's files are newer than the real venv's stamp, and the
  Makefile would otherwise reinstall the lock into the shared venv. So `make venv` installs
  nothing here. The test also fails if the venv's stamp changes.
- A `make`, `venv/bin/...`, `scripts/...`, `bash ...` or `.ci/...` command quoted inline in
  a page's text (a code span with a space) must be one a block shows (a `<placeholder>` in
  the quote matches any word), so that a command quoted in prose is run or marked too.
- Comment lines are skipped, a trailing `\\` continues a command on the next line, and a
  here-document (`<<'EOF'` ... `EOF`) belongs to the command that opens it.

Under `make test` Python writes bytecode as usual (the Makefile unexports
PYTHONDONTWRITEBYTECODE; `__pycache__` is ignored by git); run outside `make` where
PYTHONDONTWRITEBYTECODE is set, the pages write it under a PYTHONPYCACHEPREFIX of the
session instead: otherwise every plan compiles the provider SDKs again.

Links and paths. Every fence names its language (a bare fence could hide a command). Every
relative markdown link must reach a file, and its `#anchor` a heading of that page (GitHub's
slugs); links into the generated pages are skipped. Every code span that looks like a path in
the repository (no space, a `/`, its first part a top-level entry of the repository) must
exist (a `<placeholder>` or `*` in it matches anything). README.md's map links every page of
docs/.

`venv/bin/python -m tests.project.test_readme_commands` lists, per page, what runs and what does not.
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

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
# Generated from the code by other modules: not read here, and links into them not checked.
GENERATED = frozenset({"docs/configuration.md", "docs/policies.md"})
# README.md from this heading on is the generated config reference (tests/config/test_config_reference.py).
README_TAIL = "\n## Config reference\n"

SHELL_LANGUAGES = frozenset({"sh", "bash", "shell", "console"})
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
NEEDS_MARK = re.compile(r"(?:^|\s)#\s*needs:\s*(\S.*?)\s*$")
BLOCK_NEEDS_MARK = re.compile(r"^#\s*needs:\s*(\S.*?)\s*$")
EXIT_MARK = re.compile(r"#\s*exit\s+(\d+)\s*$")
PLACEHOLDER = re.compile(r"(?<![<\w])<[A-Za-z][\w.-]*>")
FENCE = re.compile(r"^(\s*)```\s*([\w+-]*)")
HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_]\w*)\1")
ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*=\S*$")
PAGE_TIMEOUT_S = 1200  # a whole page; plans take seconds each on a quiet machine
STAMP = "venv/.installed"


@dataclass(frozen=True)
class Substitution:
    shown: str  # a regex the whole command (without its trailing comment) must match
    run: str  # what runs instead (re.sub template)
    why: str


SUBSTITUTIONS = (
    Substitution(r"make test", "make -n test", "it is this suite: the dry run checks the target"),
    Substitution(r"bash \.ci/run", "bash -n .ci/run", "it runs this suite: the script must parse"),
    Substitution(r"make lock( UPGRADE=1)?", r"make -n lock\1", "resolves every lock against PyPI and rewrites them"),
    Substitution(r"make mutate((?: \S+)*)", r"make -n mutate\1", "an hour of mutants: the dry run checks the target"),
    Substitution(r"make typecheck-sdk", "make -n typecheck-sdk", "about 15 minutes cold"),
    Substitution(r"make bench", "venv/bin/python scripts/bench_plan.py --sizes 1,2 --repeat 1", "a minute at 4 and 40"),
    Substitution(
        r"venv/bin/python scripts/bench_diff\.py",
        "venv/bin/python scripts/bench_diff.py --count 500",
        "five diffs of 50,000 resources take a minute",
    ),
    Substitution(
        r"(venv/bin/python scripts/clean_exit\.py) --runs \d+", r"\1 --runs 1", "a loop: one run is enough here"
    ),
    Substitution(
        r"HYPOTHESIS_PROFILE=thorough (.+)", r"HYPOTHESIS_PROFILE=ci \1", "2,000 examples a property take minutes"
    ),
)


@dataclass(frozen=True)
class Command:
    line: int  # 1-based line of the page where the command starts
    shown: str  # the command as the page shows it (continuations joined, here-document included)
    run: str  # what the test runs: `shown`, or its substitute
    expected: int  # exit status
    why: str = ""  # the substitution's reason, if any


@dataclass(frozen=True)
class Marked:
    line: int
    shown: str
    reason: str  # the `# needs:` reason


@dataclass
class Block:
    line: int  # the opening fence's line
    heading: str  # the nearest heading above it
    commands: list[Command] = field(default_factory=list)  # the ones that run
    marked: list[Marked] = field(default_factory=list)  # the ones marked `# needs:`
    unmarked_online: list[tuple[int, str]] = field(default_factory=list)  # errors: cloud commands without a mark


@dataclass
class Page:
    name: str  # relative to ROOT, e.g. docs/reviewing.md
    text: str  # what this module reads of it
    blocks: list[Block] = field(default_factory=list)
    bare_fences: list[int] = field(default_factory=list)  # lines of fences without a language

    @property
    def commands(self) -> list[Command]:
        return [c for b in self.blocks for c in b.commands]


def code_part(text: str) -> str:
    """The command's first line without its trailing comment (a ` #` outside quotes, roughly)."""
    return re.split(r"\s#", text.split("\n", 1)[0], maxsplit=1)[0].strip()


def first_word(text: str) -> str:
    """The command's program: its first word after any `VAR=value` assignments."""
    words = code_part(text).split()
    while words and ENV_ASSIGNMENT.match(words[0]):
        words.pop(0)
    return words[0] if words else ""


def substitute(text: str) -> tuple[str, str]:
    """(what runs, why) for a shown command: itself, or its entry of SUBSTITUTIONS."""
    code = code_part(text)
    for entry in SUBSTITUTIONS:
        if re.fullmatch(entry.shown, code):
            return re.sub(entry.shown, entry.run, code), entry.why
    return text, ""


def logical_lines(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Join `\\` continuations and here-documents; drop blank and comment lines."""
    out: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    rows = iter(lines)
    for number, raw in rows:
        text = raw.strip()
        if pending is None and (not text or text.startswith("#")):
            continue
        start, sofar = pending if pending is not None else (number, "")
        if text.endswith("\\"):
            pending = (start, sofar + text[:-1].rstrip() + " ")
            continue
        pending = None
        command = sofar + text
        heredoc = HEREDOC.search(code_part(command))
        if heredoc:
            body = []
            for _, raw_body in rows:
                body.append(raw_body.rstrip("\n"))
                if raw_body.strip() == heredoc.group(2):
                    break
            command = "\n".join([command, *body])
        out.append((start, command))
    if pending is not None:
        out.append((pending[0], pending[1].rstrip()))
    return out


def console_lines(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The commands of a console session: `$ ` lines, continued by `> ` lines; output dropped."""
    picked: list[tuple[int, str]] = []
    inside = False
    for number, raw in lines:
        text = raw.strip()
        if text.startswith("$ "):
            picked.append((number, text[2:]))
            inside = True
        elif inside and (text.startswith("> ") or text == ">"):
            picked.append((number, text[2:]))
        else:
            inside = False
    return logical_lines(picked)


def make_block(opening: int, heading: str, language: str, body: list[tuple[int, str]]) -> Block:
    block = Block(opening, heading)
    first = next((raw.strip() for _, raw in body if raw.strip()), "")
    whole = BLOCK_NEEDS_MARK.match(first)
    for start, text in console_lines(body) if language == "console" else logical_lines(body):
        found = whole or NEEDS_MARK.search(text.split("\n", 1)[0])
        if found:
            block.marked.append(Marked(start, text, found.group(1)))
            continue
        if first_word(text) in ONLINE:
            block.unmarked_online.append((start, text))
            continue
        run, why = substitute(text)
        status = EXIT_MARK.search(text.split("\n", 1)[0])
        block.commands.append(Command(start, text, run, int(status.group(1)) if status else 0, why))
    return block


def parse(markdown: str, name: str = "<text>") -> Page:
    """A page's shell blocks, their commands split into run / marked, and its bare fences."""
    page = Page(name, markdown)
    heading = "top"
    body: list[tuple[int, str]] | None = None  # lines of the shell block being read
    opening, indent, language = 0, 0, ""
    in_other_fence = False
    for number, raw in enumerate(markdown.splitlines(), start=1):
        fence = FENCE.match(raw)
        if body is not None:
            if fence and not fence.group(2):
                page.blocks.append(make_block(opening, heading, language, body))
                body = None
            else:
                body.append((number, raw[indent:] if not raw[:indent].strip() else raw.lstrip()))
            continue
        if in_other_fence:
            in_other_fence = not fence
            continue
        if fence:
            language = fence.group(2).lower()
            if not language:
                page.bare_fences.append(number)
            if language in SHELL_LANGUAGES:
                body, opening, indent = [], number, len(fence.group(1))
            else:
                in_other_fence = True
            continue
        if raw.startswith("#"):
            heading = raw.lstrip("#").strip()
    return page


def prose(markdown: str) -> str:
    """The text outside fenced blocks (fence lines blanked, so line numbers stay)."""
    out, inside = [], False
    for raw in markdown.splitlines():
        if FENCE.match(raw):
            inside = not inside
            out.append("")
        else:
            out.append("" if inside else raw)
    return "\n".join(out)


def code_spans(markdown: str) -> list[str]:
    return [m.group(2).strip() for m in re.finditer(r"(`+)(.+?)\1", prose(markdown))]


# --- links and headings ---------------------------------------------------------------------


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lowercase, punctuation dropped, spaces made hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(markdown: str) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for line in prose(markdown).splitlines():
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


def links(markdown: str) -> list[str]:
    text = re.sub(r"(`+).+?\1", "", prose(markdown))  # not inside code spans
    return LINK.findall(text)


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


# --- paths ----------------------------------------------------------------------------------

# Paths the docs name that the tools create: not in a checkout.
CREATED = frozenset({"policy/venv"})


def top_level() -> set[str]:
    try:
        listed = git("ls-files", cwd=ROOT).splitlines()
    except (OSError, subprocess.CalledProcessError):
        return {p.name for p in ROOT.iterdir()}
    return {name.split("/", 1)[0] for name in listed}


def missing_paths(name: str, markdown: str, tops: set[str]) -> list[str]:
    problems = []
    for span in code_spans(markdown):
        if " " in span or "/" not in span or span.split("/", 1)[0] not in tops or span.rstrip("/") in CREATED:
            continue
        pattern = PLACEHOLDER.sub("*", span).replace("...", "*").rstrip("/")
        found = any(ROOT.glob(pattern)) if any(c in pattern for c in "*?[") else (ROOT / pattern).exists()
        if not found:
            problems.append(f"{name}: `{span}` is not a path in the repository")
    return problems


# --- commands quoted in the text ------------------------------------------------------------

QUOTED_COMMAND = re.compile(r"^(make |venv/bin/|scripts/|bash |\.ci/)\S*\s")


def quoted_commands(markdown: str) -> list[str]:
    return [s for s in code_spans(markdown) if QUOTED_COMMAND.match(s + " ") and " " in s]


def shown_anywhere(quote: str, shown: list[str]) -> bool:
    words = [r".*" if w == "..." else r"\S+".join(map(re.escape, PLACEHOLDER.split(w))) for w in quote.split()]
    pattern = re.compile(r"\s+".join(words) + r"(\s|$)")
    return any(pattern.match(code_part(text)) for text in shown)


# --- the pages ------------------------------------------------------------------------------


def read_page(name: str) -> str:
    text = (ROOT / name).read_text(encoding="utf-8")
    if name == "README.md" and README_TAIL in text:
        text = text[: text.index(README_TAIL) + 1]
    return text


def page_names() -> list[str]:
    docs = sorted(p.relative_to(ROOT).as_posix() for p in DOCS.glob("*.md"))
    return ["README.md", *(d for d in docs if d not in GENERATED)]


PAGES = [parse(read_page(name), name) for name in page_names()]
RUNNABLE = [p for p in PAGES if p.commands]


# --- running a page -------------------------------------------------------------------------


def script(commands: list[Command], source: str) -> str:
    """One bash script: each command, then a check of its exit status."""
    parts = ["set -o pipefail"]
    for command in commands:
        where = f"{source}:{command.line}"
        shown = command.run if command.run == command.shown else f"{command.run}   (shown: {code_part(command.shown)})"
        parts.append(f"printf '%s\\n' {shell_quote('$ ' + shown + '   (' + where + ')')}")
        parts.append(command.run)
        parts.append(
            f'rc=$?; if [ "$rc" -ne {command.expected} ]; then '
            f"printf '%s exited %s, expected {command.expected}: %s\\n' {shell_quote(where)} \"$rc\" "
            f"{shell_quote(command.run)} >&2; exit 97; fi"
        )
    return "\n".join(parts) + "\n"


def shell_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def run_commands(commands: list[Command], workdir: Path, env: dict[str, str], source: str) -> tuple[int, str]:
    """Run the commands in workdir; (bash's exit status, combined output)."""
    path = workdir.parent / f"commands-{re.sub(r'[^A-Za-z0-9]+', '-', source)}.sh"
    path.write_text(script(commands, source), encoding="utf-8")
    proc = subprocess.run(
        ["bash", "--noprofile", "--norc", str(path)],
        cwd=workdir,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=PAGE_TIMEOUT_S,
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
    """The tracked files of ROOT (as they are in the working tree), ./venv and ../shared linked, committed."""
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
    shared = ROOT.parent / "shared"
    if shared.is_dir():
        (target / "shared").symlink_to(shared.resolve(), target_is_directory=True)
    git("init", "-q", "-b", "main", cwd=repo)
    git("add", "-A", cwd=repo)
    git("commit", "-q", "--no-verify", "-m", "docs test copy", cwd=repo)
    git("update-ref", "refs/remotes/origin/main", "HEAD", cwd=repo)
    return repo


def make_shim(directory: Path) -> Path:
    """A `make` that never rebuilds the venv stamp; first on PATH for the page."""
    real = shutil.which("make")
    if real is None:
        pytest.fail("`make` is not installed: the documented commands use it")
    directory.mkdir(parents=True, exist_ok=True)
    shim = directory / "make"
    shim.write_text(f'#!/bin/sh\nexec {shell_quote(real)} -o {STAMP} "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    return directory


# What an outer `make` (the suite runs under `make test`) exports to its children: a
# documented command runs as a reader runs it, from a shell, not as a sub-make.
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


def test_the_commands_are_found() -> None:
    """The extraction finds the blocks: a parser that found nothing would pass everything."""
    run = [c.shown for p in PAGES for c in p.commands]
    substituted = [c.shown for p in PAGES for c in p.commands if c.run != c.shown]
    marked = [m.shown for p in PAGES for b in p.blocks for m in b.marked]
    assert {"README.md", "docs/deploying.md", "docs/reviewing.md", "docs/development.md"} <= {p.name for p in PAGES}
    assert sum(len(p.blocks) for p in PAGES) >= 20
    assert any(re.match(r"make plan\b", text) for text in run)
    assert any(text.startswith("venv/bin/python -m preflight diff ") for text in run)
    assert any(text.startswith("scripts/plan_all.sh ") for text in run)
    assert any(text.startswith("pulumi up") for text in marked)
    assert any(re.match(r"make test\b", text) for text in substituted)


def test_every_cloud_command_is_marked() -> None:
    unmarked = [f"{p.name}:{line}: {text}" for p in PAGES for b in p.blocks for line, text in b.unmarked_online]
    assert not unmarked, (
        "these commands need the cloud or the network but are not marked: end the line with "
        "`# needs: <reason>` (or start the block with it):\n" + "\n".join(unmarked)
    )


def test_no_command_that_runs_is_a_template() -> None:
    templates = [f"{p.name}:{c.line}: {c.shown}" for p in PAGES for c in p.commands if PLACEHOLDER.search(c.run)]
    assert not templates, (
        "these commands hold a <placeholder>: use a real value, or mark the line "
        "`# needs: <reason>` if it needs the real cloud:\n" + "\n".join(templates)
    )


def test_every_substitution_is_used() -> None:
    shown = [code_part(c.shown) for p in PAGES for c in p.commands]
    unused = [s.shown for s in SUBSTITUTIONS if not any(re.fullmatch(s.shown, text) for text in shown)]
    assert not unused, f"SUBSTITUTIONS entries no page shows (remove them): {unused}"


def test_commands_quoted_in_the_text_are_shown_in_a_block() -> None:
    shown = [c for p in PAGES for b in p.blocks for c in [*(x.shown for x in b.commands), *(m.shown for m in b.marked)]]
    orphans = [f"{p.name}: `{q}`" for p in PAGES for q in quoted_commands(p.text) if not shown_anywhere(q, shown)]
    assert not orphans, (
        "these commands are quoted in the text but no block shows them, so nothing runs them: "
        "add them to a block (or mark them there):\n" + "\n".join(orphans)
    )


def test_every_fence_names_its_language() -> None:
    bare = [f"{p.name}:{line}" for p in PAGES for line in p.bare_fences]
    assert not bare, "fences without a language (`text` for output): " + ", ".join(bare)


def test_every_relative_link_resolves() -> None:
    problems = [problem for p in PAGES for problem in broken_links(p.name, p.text)]
    assert not problems, "\n".join(problems)


def test_every_repository_path_named_exists() -> None:
    tops = top_level()
    problems = [problem for p in PAGES for problem in missing_paths(p.name, p.text, tops)]
    assert not problems, "\n".join(problems)


def test_the_readme_maps_every_page_of_docs() -> None:
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in links(read_page("README.md"))}
    pages = {ROOT / name for name in [*page_names()[1:], *GENERATED]}
    assert not {p for p in pages if p.resolve() not in linked}, "README.md's map misses a page of docs/"


@pytest.mark.parametrize("page", RUNNABLE, ids=[p.name for p in RUNNABLE])
def test_the_commands_of_a_page_run(page: Page, tmp_path: Path, pycache: Path) -> None:
    repo = copy_repository(tmp_path)
    env = block_env(make_shim(tmp_path / "bin"), pycache)
    before = stamp_mtime()
    status, output = run_commands(page.commands, repo, env, page.name)
    assert status == 0, f"a command of {page.name} failed:\n{output[-6000:]}"
    assert "installing the lock" not in output, "a documented command reinstalled the venv"
    assert stamp_mtime() == before, "a documented command touched the venv's install stamp"


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
make test
```

```text
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


def test_harness_reads_blocks_marks_substitutions_and_heredocs() -> None:
    page = parse(SAMPLE, "SAMPLE")
    offline, wrong_exit, missing = page.blocks
    assert offline.heading == "Offline"
    assert [(c.line, c.run, c.expected) for c in offline.commands] == [
        (6, "true   # exit 0 by default", 0),
        (7, "sh -c 'exit 3'   # exit 3", 3),
        (8, "echo one two > out.txt", 0),
        (10, "cat > here.txt <<'EOF'\n  # kept: a here-document's lines are its own\nEOF", 0),
        (15, "make -n test", 0),
    ]
    assert offline.commands[-1].shown == "make test"
    assert [(m.line, m.reason) for m in offline.marked] == [(13, "a Pulumi login"), (14, "the network")]
    assert (wrong_exit.heading, wrong_exit.commands[0].expected) == ("Broken", 3)
    assert [c.run for c in missing.commands] == ["cat missing-file.txt", "true"]
    assert page.bare_fences == []
    assert parse("```\nls\n```\n").bare_fences == [1]


def test_harness_marks_a_whole_block_and_flags_unmarked_cloud_commands() -> None:
    walkthrough = (
        "## Deploy\n\n```sh\n# needs: an Azure login\nSUB=$(az account show)\nfor x in a; do\n  echo $x\ndone\n```\n"
    )
    (block,) = parse(walkthrough).blocks
    assert block.commands == []
    assert {m.reason for m in block.marked} == {"an Azure login"}
    assert len(block.marked) == 4
    # The block mark counts on the first line only; a mark needs its reason.
    (later,) = parse("```sh\ntrue\n# needs: x\nfalse\n```\n").blocks
    assert [c.run for c in later.commands] == ["true", "false"]
    (bare,) = parse("```sh\nKUBECONFIG=k kubectl get pods\naz login   # needs:\n```\n").blocks
    assert [text for _, text in bare.unmarked_online] == ["KUBECONFIG=k kubectl get pods", "az login   # needs:"]


def test_harness_reads_console_sessions() -> None:
    session = "```console\n$ make plan \\\n>   STACK=dev\noutput line\n$ ls   # exit 2\nmore output\n```\n"
    (block,) = parse(session).blocks
    assert [(c.line, c.run, c.expected) for c in block.commands] == [
        (2, "make plan STACK=dev", 0),
        (5, "ls   # exit 2", 2),
    ]


def test_harness_reads_an_indented_block() -> None:
    nested = "1. Step:\n\n   ```sh\n   cat > f <<'EOF'\n   a: 1\n   EOF\n   ```\n"
    (block,) = parse(nested).blocks
    assert [c.run for c in block.commands] == ["cat > f <<'EOF'\na: 1\nEOF"]


def test_harness_fails_on_a_broken_command(tmp_path: Path) -> None:
    offline, wrong_exit, missing = parse(SAMPLE, "SAMPLE").blocks
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
    assert "SAMPLE:25 exited 0, expected 3: sh -c 'exit 0'   # exit 3" in output
    status, output = run_commands(missing.commands, work, env, "SAMPLE")
    assert status == 97
    assert "SAMPLE:29 exited 1, expected 0: cat missing-file.txt" in output
    assert "$ true" not in output  # the page stops at the first failure


def test_harness_substitutes_long_commands() -> None:
    assert substitute("venv/bin/python scripts/clean_exit.py --runs 50")[0] == (
        "venv/bin/python scripts/clean_exit.py --runs 1"
    )
    assert substitute("make mutate MUTANTS='policy.rules.*'")[0] == "make -n mutate MUTANTS='policy.rules.*'"
    assert substitute("make lock UPGRADE=1   # all pins")[0] == "make -n lock UPGRADE=1"
    assert substitute("HYPOTHESIS_PROFILE=thorough venv/bin/python -m pytest tests/config/test_fuzz.py")[0] == (
        "HYPOTHESIS_PROFILE=ci venv/bin/python -m pytest tests/config/test_fuzz.py"
    )
    assert substitute("make plan STACK=dev") == ("make plan STACK=dev", "")


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
    tops = {"components", "stacks", "policy"}
    spans = "`stacks/Pulumi.<stack>.yaml` `policy/rules/*.py` `policy/venv` `ray.io/v1` `components/nothere.py`"
    assert missing_paths("X.md", spans, tops) == ["X.md: `components/nothere.py` is not a path in the repository"]


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


if __name__ == "__main__":  # what would run: python -m tests.project.test_readme_commands
    for p in PAGES:
        print(p.name)
        for b in p.blocks:
            for c in b.commands:
                extra = f"   [runs: {c.run}; {c.why}]" if c.why else ""
                status = f"   [exit {c.expected}]" if c.expected else ""
                print(f"  run     {c.line}: {code_part(c.shown)}{status}{extra}")
            for m in b.marked:
                print(f"  marked  {m.line}: {code_part(m.shown)}   [needs: {m.reason}]")
            for line, text in b.unmarked_online:
                print(f"  ERROR   {line}: {code_part(text)}   [needs the cloud, not marked]")
    sys.exit(0)
