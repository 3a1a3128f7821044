"""The in-process runner of `python -m preflight` (tests/cli.py) that the CLI's output tests
use: it can fail (an escaping exception is a failure, never a pass), keeps stdout and stderr
apart with everything a process would write on them, and gives the status a process exits
with. Each command here is a stand-in put in place of `preflight validate`'s main, run
through the real dispatcher, or the real dispatcher itself."""

from __future__ import annotations

import logging
import os
import sys
import threading
import warnings
from pathlib import Path

import pulumi
import pytest

import preflight.validate
from preflight import project
from tests.cli import preflight_in_process

ROOT = Path(__file__).resolve().parents[2]


def test_an_exception_escaping_the_command_fails_the_test(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = KeyError("resources")

    def command(argv: list[str]) -> int:
        print("halfway")
        raise broken

    monkeypatch.setattr(preflight.validate, "main", command)
    with pytest.raises(pytest.fail.Exception) as caught:
        preflight_in_process("validate", "x.yaml")
    # Not an Exception: a test's own `except Exception` cannot swallow it.
    assert not isinstance(caught.value, Exception)
    assert caught.value.__cause__ is broken
    assert str(caught.value).startswith(
        "`python -m preflight validate x.yaml` raised KeyError: 'resources' (a process prints a traceback and "
        "exits 1)\nstdout so far:\nhalfway\n"
    )
    assert sys.stdout is not None and sys.stdout is not sys.__stdout__  # pytest's capture is back


class Unraisable:
    """Raises while being collected: what a process reports as "Exception ignored in"."""

    def __del__(self) -> None:
        raise RuntimeError("from __del__")


def raising() -> None:
    raise RuntimeError("from a thread")


def test_stdout_and_stderr_are_apart_with_all_a_process_prints(monkeypatch: pytest.MonkeyPatch) -> None:
    def command(argv: list[str]) -> int:
        print("out")
        print("err", file=sys.stderr)
        pulumi.log.warn("from the SDK")  # no engine: printed on stderr
        logging.getLogger().warning("logged")  # as the mock runtime logs the program's warnings
        logging.getLogger().info("not shown")  # a process's root logger is at WARNING
        warnings.warn("careful", UserWarning, stacklevel=1)
        warnings.warn("old", DeprecationWarning, stacklevel=1)  # ignored by an interpreter's defaults
        os.write(2, b"by descriptor\n")
        sys.__stdout__.write("interpreter's stdout\n")  # type: ignore[union-attr]
        print("\udcff", file=sys.stderr)  # stderr's handler is backslashreplace
        Unraisable()  # "Exception ignored in ...": the interpreter's hook prints it on stderr
        thread = threading.Thread(target=raising)
        thread.start()  # "Exception in thread ...": on stderr too
        thread.join()
        return 0

    monkeypatch.setattr(preflight.validate, "main", command)
    handlers = list(logging.getLogger().handlers)
    result = preflight_in_process("validate", "x.yaml")
    assert result.returncode == 0
    assert result.stdout == "out\ninterpreter's stdout\n"
    lines = result.stderr.splitlines()
    # The SDK's warning reaches stderr either way: without an engine (a process that ran no
    # program) it prints "warning: ..."; once a mock runtime ran in this worker, its engine
    # logs the message through logging, as the program's warnings go. Which one depends on
    # what this worker ran before, so both are the process's output.
    assert lines[0] == "err" and lines[2] == "logged"
    assert lines[1] in ("warning: from the SDK", "from the SDK")
    assert lines[3].startswith(f"{__file__}:") and lines[3].endswith(": UserWarning: careful")
    assert lines[4:7] == ['  warnings.warn("careful", UserWarning, stacklevel=1)', "by descriptor", "\\udcff"]
    rest = "\n".join(lines[7:])
    assert rest.startswith("Exception ignored in: <function Unraisable.__del__")
    assert "RuntimeError: from __del__" in rest
    assert "Exception in thread" in rest and "RuntimeError: from a thread" in rest
    assert logging.getLogger().handlers == handlers  # pytest's own handlers are back


@pytest.mark.parametrize(
    ("outcome", "status", "stderr"),
    [
        (0, 0, ""),
        (3, 3, ""),
        (256 + 7, 7, ""),
        (SystemExit(4), 4, ""),
        (SystemExit(None), 0, ""),
        (SystemExit("bye"), 1, "bye\n"),
    ],
)
def test_the_status_is_the_one_a_process_exits_with(
    monkeypatch: pytest.MonkeyPatch, outcome: int | SystemExit, status: int, stderr: str
) -> None:
    def command(argv: list[str]) -> int:
        if isinstance(outcome, SystemExit):
            raise outcome
        return outcome

    monkeypatch.setattr(preflight.validate, "main", command)
    result = preflight_in_process("validate", "x.yaml")
    assert (result.returncode, result.stdout, result.stderr) == (status, "", stderr)


def test_the_real_dispatcher_and_an_argparse_usage_error() -> None:
    usage = preflight_in_process("cost", "--plan")
    assert usage.returncode == 2 and usage.stdout == ""
    assert usage.stderr.startswith("usage: python -m preflight cost ")
    assert usage.stderr.endswith("\npython -m preflight cost: error: argument --plan: expected one argument\n")
    assert preflight_in_process("nonsense").returncode == 2


def test_each_run_starts_as_a_new_process_and_leaves_this_one_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A project found upward is announced once per process: so once in each run.
    copy = tmp_path / "copy"
    (copy / "deep").mkdir(parents=True)
    (copy / "Pulumi.yaml").write_text("name: anyscale-cloud\nruntime: python\n")
    monkeypatch.delenv(project.ENV, raising=False)
    before = Path.cwd()
    for _ in range(2):
        result = preflight_in_process("plan", "--stack", "none", cwd=copy / "deep", env={"EXTRA": "1"})
        assert result.returncode == 2
        assert result.stderr.startswith(f"preflight: using the project in {copy} (found upward from {copy / 'deep'})\n")
    assert Path.cwd() == before and "EXTRA" not in os.environ
    assert project._chosen is None and copy not in project._announced
