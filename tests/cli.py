"""`python -m preflight ...` run in this process: the same entry point (preflight/__main__.py
`main`) as the command, with what a new process would start with (its own stdout and stderr,
the interpreter's default warning filters, logging without handlers, the working directory,
no project chosen yet), without a new interpreter importing the provider SDKs again (0.5 to
1 s a command). An exception escaping the command fails the calling test, naming the command,
the way a traceback makes the process exit 1.

What only a real process shows is checked by real processes, once per command:
- tests/project/test_readme_commands.py (the README's quick start) runs `validate`, `plan`,
  `diff` and `policy` as processes and fails on any output on stderr (noise at interpreter
  exit included);
- tests/preflight/test_input_gate.py `test_commands_exit_cleanly_without_stderr_noise`: the
  first-preview `plan`, the same way;
- tests/preflight/test_cost.py `test_cost_refuses_a_missing_plan_with_exit_2`: `cost`;
- tests/policy/test_pack_cli.py `test_dispatcher_routes_policy`: `python -m preflight` routing
  a command;
- tests/preflight/test_entry_point.py `test_the_command_runs_from_any_directory`: the console
  script, from another working directory with the code found on the path.

Not reproduced in-process, so left to those processes: a warning a module gives when first
imported (a worker imported it before), a parent's PYTHONWARNINGS, a real stdin (no command
reads it), and a time limit (a hang stalls the worker rather than failing)."""

from __future__ import annotations

import contextlib
import io
import locale
import logging
import os
import shlex
import subprocess
import sys
import tempfile
import threading
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Literal, TextIO
from unittest import mock

import pytest

from preflight import project
from preflight.__main__ import main

ROOT = Path(__file__).resolve().parents[1]

# The warning filters an interpreter starts with, without -W or PYTHONWARNINGS
# (docs.python.org/3.11/library/warnings.html#default-warning-filter): pytest's own filters
# and its recording of warnings would otherwise hide a warning the command prints on stderr.
PROCESS_WARNING_FILTERS: list[tuple[Literal["default", "ignore"], type[Warning], str]] = [
    ("default", DeprecationWarning, r"__main__\Z"),
    ("ignore", DeprecationWarning, ""),
    ("ignore", PendingDeprecationWarning, ""),
    ("ignore", ImportWarning, ""),
    ("ignore", ResourceWarning, ""),
]


class _Stream:
    """A process's stdout or stderr: file descriptor `fd` and the text stream `sys.<name>` both
    write into one temporary file (as a child's fd and its sys.stdout share one pipe), so that
    nothing written either way (print, logging, warnings, a C library, sys.__stderr__) is lost
    and the order holds. The text stream encodes as the child's would: it inherits this
    interpreter's environment, so its encoding and error handler are sys.__<name>__'s (stdout
    strict or surrogateescape, stderr backslashreplace)."""

    def __init__(self, fd: int, name: str) -> None:
        self.fd, self.name = fd, name
        self.original: TextIO | None = getattr(sys, f"__{name}__")
        self.data = b""

    def __enter__(self) -> _Stream:
        self._flush_original()
        self.file = tempfile.TemporaryFile()
        self.saved = os.dup(self.fd)
        os.dup2(self.file.fileno(), self.fd)
        self.stream = io.TextIOWrapper(
            io.FileIO(self.fd, "w", closefd=False),
            encoding=getattr(self.original, "encoding", None) or "utf-8",
            errors=getattr(self.original, "errors", None) or "strict",
            write_through=True,
        )
        self.patch = mock.patch.object(sys, self.name, self.stream)
        self.patch.start()
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.patch.stop()
            self.stream.flush()
            self._flush_original()  # what was written to sys.__<name>__ belongs to this run
            self.stream.close()  # its FileIO leaves the descriptor open (closefd=False)
        finally:
            os.dup2(self.saved, self.fd)
            os.close(self.saved)
            self.file.seek(0)
            self.data = self.file.read()
            self.file.close()

    def _flush_original(self) -> None:
        if self.original is not None:
            with contextlib.suppress(OSError, ValueError):
                self.original.flush()

    def text(self) -> str:
        """Decoded as subprocess.run(text=True) decodes a child's output: UTF-8 in UTF-8 mode,
        else the locale's encoding, strictly, with universal newlines."""
        encoding = "utf-8" if sys.flags.utf8_mode else locale.getencoding()
        return self.data.decode(encoding).replace("\r\n", "\n").replace("\r", "\n")


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """The interpreter's own way to show a warning (warnings._showwarnmsg_impl): formatted, on
    the stderr of the moment. Set as warnings.showwarning, it comes before pytest's recorder."""
    with contextlib.suppress(OSError):
        (file or sys.stderr).write(warnings.formatwarning(message, category, filename, lineno, line))


@contextlib.contextmanager
def _unconfigured_logging() -> Iterator[None]:
    """Logging as configured by nobody: the root logger at WARNING and without handlers, so a
    record (the mock runtime logs the program's warnings there) goes to logging's last resort,
    which writes the message alone on the stderr of the moment, as in a process. pytest's
    capturing handlers are set aside for the run."""
    root = logging.getLogger()
    handlers, level = root.handlers, root.level
    root.handlers = []
    root.setLevel(logging.WARNING)  # setLevel, not the attribute: it clears the loggers' level cache
    try:
        yield
    finally:
        root.handlers = handlers
        root.setLevel(level)


@contextlib.contextmanager
def _process_warnings() -> Iterator[None]:
    """The interpreter's default filters, and warnings shown on stderr as the interpreter shows
    them rather than recorded by pytest."""
    with warnings.catch_warnings():
        warnings.resetwarnings()
        for action, category, module in PROCESS_WARNING_FILTERS:
            warnings.filterwarnings(action, category=category, module=module, append=True)
        warnings.showwarning = _show_warning
        yield


@contextlib.contextmanager
def _as_a_new_process(cwd: Path, env: Mapping[str, str], argv: list[str]) -> Iterator[None]:
    """What a new `python -m preflight` starts with, for the length of one run, then put back."""
    with (
        mock.patch.dict(os.environ, env),  # the environment and working directory the test gave
        contextlib.chdir(cwd),
        mock.patch.object(sys, "argv", argv),
        # Per-process state of the command: no project chosen, none announced on stderr yet.
        mock.patch.object(project, "_chosen", None),
        mock.patch.object(project, "_announced", set()),
        _unconfigured_logging(),
        _process_warnings(),
        # The interpreter's own hooks: "Exception ignored in ..." (a __del__, an unclosed event
        # loop) and "Exception in thread ..." printed on stderr, as a process prints them;
        # pytest's hooks would turn them into warnings of the test instead.
        mock.patch.object(sys, "unraisablehook", sys.__unraisablehook__),
        mock.patch.object(threading, "excepthook", threading.__excepthook__),
    ):
        yield


def _exit_status(code: Any) -> int:
    """The status a process exits with for sys.exit(code): None 0, an integer modulo 256 (what
    the parent sees), anything else printed on stderr, then 1 (as the interpreter does)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code % 256
    print(code, file=sys.stderr)
    return 1


def preflight_in_process(
    *args: str, columns: int | None = 160, cwd: Path = ROOT, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`python -m preflight *args` started in `cwd` (the repository by default, where the tests
    start their processes) with `env` added to this process's environment, as a
    CompletedProcess: its exit status, stdout and stderr apart. `columns` sets COLUMNS (the
    terminal's width for the plan view and usage text); None leaves it as it is."""
    argv = [sys.executable, "-m", "preflight", *args]
    variables = {**({"COLUMNS": str(columns)} if columns is not None else {}), **(env or {})}
    raised: Exception | None = None
    with (
        _Stream(1, "stdout") as out,
        _Stream(2, "stderr") as err,
        _as_a_new_process(cwd, variables, [str(ROOT / "preflight" / "__main__.py"), *args]),
    ):
        try:
            status = _exit_status(main(list(args)))
        except SystemExit as stop:  # argparse's usage errors, --help
            status = _exit_status(stop.code)
        except Exception as error:  # a process would print a traceback and exit 1
            raised, status = error, 1
    result = subprocess.CompletedProcess(argv, status, out.text(), err.text())
    if raised is not None:
        # pytest's Failed, which no `except Exception` in a test catches, caused by the exception.
        raise pytest.fail.Exception(
            f"`{shlex.join(['python', '-m', 'preflight', *args])}` raised {type(raised).__name__}: {raised} "
            "(a process prints a traceback and exits 1)\n"
            f"stdout so far:\n{result.stdout}\nstderr so far:\n{result.stderr}"
        ) from raised
    return result
