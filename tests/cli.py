"""`python -m preflight ...` run in this process: the same entry point (preflight/__main__.py
`main`), without a new interpreter importing the provider SDKs again (seconds a run). The
tests of what only a process shows (exit noise on stderr, the interpreter's own exit) keep
running it as a subprocess."""

from __future__ import annotations

import contextlib
import io
import logging
import os
import subprocess
from unittest import mock

from preflight.__main__ import main


def preflight_in_process(*args: str, columns: int = 160) -> subprocess.CompletedProcess[str]:
    """`python -m preflight *args` as a CompletedProcess, run in this process, with the
    terminal `columns` wide (as COLUMNS sets it for a subprocess)."""
    out, err = io.StringIO(), io.StringIO()
    # The program's warnings (pulumi.log under the mock runtime) go to the root logger; a real
    # process prints them on stderr, so they go to this run's stderr too.
    handler = logging.StreamHandler(err)
    handler.setLevel(logging.WARNING)
    root = logging.getLogger()
    root.addHandler(handler)
    with (
        mock.patch.dict(os.environ, {"COLUMNS": str(columns)}),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        try:
            code = main(list(args))
        except SystemExit as exit_:  # argparse's usage errors
            code = exit_.code if isinstance(exit_.code, int) else 2
        finally:
            root.removeHandler(handler)
    return subprocess.CompletedProcess(["preflight", *args], code, out.getvalue(), err.getvalue())
