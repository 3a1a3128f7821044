"""Whether what a documented command names exists, found without running the command.

`missing(command, ...)` lists the problems of one command of a page; the rules it applies are
in tests/project/test_readme_commands.py's docstring. Everything here is cheap: `make -n`,
`bash -n`, file look-ups, and the argument parsers of `preflight`'s verbs (parsing only).
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.util
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from tests.project.docs_blocks import PLACEHOLDER, Command, code_part

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `preflight` is imported from the repository, as the docs run it
    sys.path.insert(0, str(ROOT))
STAMP = "venv/.installed"

# What an outer `make` (the suite runs under `make test`) exports to its children: a
# documented command is checked as a reader runs it, from a shell, not as a sub-make.
MAKE_VARIABLES = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "MAKE_TERMOUT", "MAKE_TERMERR")
# Words after which the next word is a program again (`if make plan; then ...`, `do az ...`).
LEADING_KEYWORDS = frozenset({"if", "then", "else", "elif", "while", "until", "do", "!", "time", "{", "}"})
# Compound commands whose words are not a program with arguments.
SKIPPED_KEYWORDS = frozenset({"for", "case", "select", "done", "fi", "esac", "function"})
ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*=")
FLAG = re.compile(r"^--[\w-]+")


def shell_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in MAKE_VARIABLES}


def simple_commands(code: str) -> tuple[list[list[str]], list[str]]:
    """The simple commands of a command line (split at `|`, `&&`, `||`, `;`, `&` and around
    `$( )`), redirections dropped, and the files it writes (`>` and `>>` targets).
    Raises ValueError on words the shell could not read either (an unclosed quote)."""
    lexer = shlex.shlex(code, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    tokens = list(lexer)
    commands: list[list[str]] = [[]]
    writes: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token and set(token) <= set("<>&") and set(token) & set("<>"):
            target = tokens[index + 1] if index + 1 < len(tokens) else ""
            if token in (">", ">>", "&>") and target:
                writes.append(target)
            if commands[-1] and commands[-1][-1].isdigit():
                commands[-1].pop()  # the descriptor of `2>&1`
            index += 2
            continue
        if set(token) <= set("();|&$"):
            commands.append([])  # a separator, or the `$` of `$(`
        else:
            commands[-1].append(token)
        index += 1
    return [c for c in commands if c], writes


def written_files(commands: list[Command]) -> set[str]:
    """The paths a page's commands create: redirection targets and `cp`/`mv` destinations."""
    out: set[str] = set()
    for command in commands:
        with contextlib.suppress(ValueError):
            simple, writes = simple_commands(code_part(command.shown))
            out.update(writes)
            out.update(argv[-1] for argv in simple if argv[0] in ("cp", "mv") and len(argv) > 2)
    return out


@functools.cache
def tracked_tops() -> frozenset[str]:
    """The repository's top-level entries, as `git ls-files` names them (the folders of a checkout)."""
    try:
        listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return frozenset(p.name for p in ROOT.iterdir())
    return frozenset(name.split("/", 1)[0] for name in listed.splitlines())


def repository_path_exists(word: str) -> bool:
    """Whether a path in the repository exists (a `<placeholder>`, `*` or `...` in it matches anything)."""
    pattern = PLACEHOLDER.sub("*", word).replace("...", "*").rstrip("/")
    return any(ROOT.glob(pattern)) if any(c in pattern for c in "*?[") else (ROOT / pattern).exists()


def missing(command: Command, created: set[str]) -> list[str]:
    """What the command names and the repository (or the venv, or PATH) does not have."""
    try:
        simple, _ = simple_commands(code_part(command.shown))
    except ValueError as error:
        # A marked walkthrough may spread one quoted argument over lines; it never runs here.
        return [] if command.needs else [f"not readable as shell words ({error})"]
    problems: list[str] = []
    for argv in simple:
        problems += missing_program(argv, marked=bool(command.needs))
        paths = [FLAG.sub("", word).removeprefix("=") for word in argv[1:]]  # `--json=x` names x
        problems += [
            f"`{path}` is not a path in the repository"
            for path in paths
            if looks_like_repository_path(path) and path not in created and not repository_path_exists(path)
        ]
    return problems


def looks_like_repository_path(word: str) -> bool:
    return "/" in word and "$" not in word and word.split("/", 1)[0] in tracked_tops()


def missing_program(argv: list[str], marked: bool) -> list[str]:
    words = list(argv)
    while words and (words[0] in LEADING_KEYWORDS or ASSIGNMENT.match(words[0])):
        words.pop(0)
    if not words or words[0] in SKIPPED_KEYWORDS or "$" in words[0]:
        return []  # nothing, a loop's header, or a program named by a variable
    program, args = words[0], words[1:]
    if program == "make":
        return missing_make_target(tuple(args))
    if program in ("venv/bin/python", "venv/bin/python3"):
        return missing_python(args)
    if program.startswith("venv/bin/"):
        return missing_venv_tool(program.removeprefix("venv/bin/"))
    if program in ("bash", "sh"):
        script = next((a for a in args if not a.startswith("-")), "")
        return [] if "-c" in args or not script else missing_script(script, must_execute=False)
    if "/" in program:
        return missing_script(program, must_execute=True)
    if marked or program in shell_words() or shutil.which(program):
        return []  # a marked command's tools are outside the repository: not looked for
    return [f"`{program}` is neither a shell builtin nor a program on PATH"]


@functools.cache
def shell_words() -> frozenset[str]:
    """bash's builtins and keywords."""
    listed = subprocess.run(["bash", "-c", "compgen -b -k"], capture_output=True, text=True, check=True).stdout
    return frozenset(listed.split())


def missing_make_target(args: tuple[str, ...]) -> list[str]:
    """`make -n` (prints the recipes, runs none) knows the targets and takes the variables.
    `-o` the venv's stamp, as the quick start's make does: the dry run is then the reader's,
    with no reinstall of the lock planned."""
    return list(make_dry_run(args))


@functools.cache  # pages repeat `make plan`, `make mutate ...`
def make_dry_run(args: tuple[str, ...]) -> tuple[str, ...]:
    proc = subprocess.run(
        ["make", "-n", "-o", STAMP, *args],
        cwd=ROOT,
        env=shell_env(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if proc.returncode == 0:
        return ()
    last = (proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
    return (f"`make {shlex.join(args)}`: {last}",)


def missing_python(args: list[str]) -> list[str]:
    if len(args) >= 2 and args[0] == "-m":
        return missing_module(args[1], args[2:])
    if args and args[0].endswith(".py"):
        return missing_script(args[0], must_execute=False) or unknown_flags(ROOT / args[0], args[1:])
    return []  # `-c`, or the interpreter itself


def repository_module(module: str) -> Path | None:
    """The file `python -m module` runs, when the module is one of the repository's."""
    base = ROOT.joinpath(*module.split("."))
    return next((p for p in (base.with_suffix(".py"), base / "__main__.py") if p.is_file()), None)


def missing_module(module: str, args: list[str]) -> list[str]:
    source = repository_module(module)
    top = module.split(".", 1)[0]
    if source is None and ((ROOT / top).is_dir() or (ROOT / f"{top}.py").is_file()):
        return [f"`-m {module}`: no such module in the repository (or no __main__.py)"]
    if source is None:
        try:
            found = importlib.util.find_spec(module) is not None
        except ImportError:
            found = False
        return [] if found else [f"`-m {module}`: not installed in the venv"]
    if module == "preflight":
        return unknown_preflight_arguments(args)
    return unknown_flags(source, args)


def unknown_preflight_arguments(args: list[str]) -> list[str]:
    """The verb must be one of preflight's, and the verb's own argparse parser must accept
    the arguments (parsing only: nothing runs). A verb without a `parser()` (validate reads
    its few arguments by hand) gets the flag check of any module."""
    entry = importlib.import_module("preflight.__main__")
    commands: dict[str, tuple[str, str]] = entry.COMMANDS
    if args and args[0] in (*entry.HELP, "--version"):
        return []
    if args and args[0] == "--project-dir":
        args = args[2:]  # the global option: a folder, then the verb
    verb, rest = (args[0], args[1:]) if args else ("", [])
    if verb not in commands:
        return [f"`preflight {verb}`: no such verb (one of {', '.join(commands)})"]
    module = importlib.import_module(commands[verb][0])
    parser = getattr(module, "parser", None)
    if parser is None:
        return unknown_flags(Path(str(module.__file__)), rest)
    errors = io.StringIO()
    try:
        with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
            parser().parse_args(rest)
    except SystemExit:
        said = errors.getvalue().strip().splitlines() or ["refused"]
        return [f"`preflight {verb} {shlex.join(rest)}`: {said[-1]}"]
    return []


def unknown_flags(source: Path, args: list[str]) -> list[str]:
    """Each `--flag` shown must be spelt in the source of what takes it (its parser, its usage);
    `--help` is argparse's own."""
    text = source.read_text(encoding="utf-8")
    flags = {m.group() for a in args if (m := FLAG.match(a))} - ({"--help"} if "argparse" in text else set())
    return [
        f"`{flag}`: not an option of {source.relative_to(ROOT)}"
        for flag in sorted(flags)
        if not re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", text)
    ]


def missing_script(name: str, must_execute: bool) -> list[str]:
    """A script of the repository exists (executable, when run by its path); a shell one parses.
    Scripts outside the repository (../shared) are not the repository's to check."""
    if "$" in name or name.startswith(("/", "../")):
        return []
    path = ROOT / name
    if not path.is_file():
        return [f"`{name}`: no such file in the repository"]
    if must_execute and not os.access(path, os.X_OK):
        return [f"`{name}`: not executable, but the page runs it by its path"]
    head = path.read_text(encoding="utf-8", errors="replace").split("\n", 1)[0]
    if name.endswith(".sh") or re.match(r"#!.*\b(ba)?sh\b", head):
        proc = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True, check=False)
        if proc.returncode:
            return [f"`{name}` does not parse: {proc.stderr.strip()}"]
    return []


def missing_venv_tool(tool: str) -> list[str]:
    """In the venv, or pinned in one of the locks a `make` target installs (mutmut: `make mutate`)."""
    if os.access(ROOT / "venv" / "bin" / tool, os.X_OK):
        return []
    pinned = re.compile(rf"(?mi)^{re.escape(tool)}==")
    if any(pinned.search(lock.read_text(encoding="utf-8")) for lock in ROOT.glob("requirements*.txt")):
        return []
    return [f"`venv/bin/{tool}`: not in the venv, nor pinned in a requirements*.txt lock"]
