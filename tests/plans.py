"""Plans recorded once per test run and shared by every test and every xdist worker.

A recording is a pure function of the stack name, its config, the first-preview flag and the
program (the code does not change during a run), so a test that would record a plan someone
else has already recorded gets a copy of that recording instead of running the program again:
speed from not repeating work, with every assertion kept. A test that patches anything the
program reads (the runtime, a module, the clock) must call `run_program` itself.

The recordings live in a folder the controller makes for the run and hands to its workers in
ANYSCALE_TEST_PLANS (tests/conftest.py); without it, or with it empty (`make mutate`, whose
mutants must never share a recording: mutation/plan_cache.py empties it), they are kept in
this process only. Two workers that need the same recording at the same moment both make it
(waiting would idle a core as long); a recording is written whole or not at all. The
program is called through its module (`preflight.runtime.run_program`), so that a wrapper
installed there (mutation/plan_cache.py) still sees every run.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import pickle
from pathlib import Path
from typing import Any

import preflight.runtime
from preflight.runtime import Plan

ENV = "ANYSCALE_TEST_PLANS"
_REGISTER = preflight.runtime.RecordingMonitor.RegisterResource  # as imported, before any test runs
_CALL = preflight.runtime.PlanMocks.call
_MEMO: dict[str, bytes] = {}  # this process's recordings, pickled (every caller gets a fresh copy)


def key_of(stack: str, values: dict[str, Any], first_preview: bool, program: Path | None) -> str:
    # The day the program judges Kubernetes versions on (config/currency.py) is an input too.
    day = os.environ.get("ANYSCALE_CLOUD_TODAY")
    text = json.dumps(
        [stack, values, first_preview, str(program) if program else None, day], sort_keys=True, default=str
    )
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def recorded(stack: str, values: dict[str, Any], first_preview: bool = False, program: Path | None = None) -> Plan:
    """`run_program(stack, values, first_preview, program)`, run once per test run: a copy each call."""
    if os.environ.get(ENV) == "":
        # `make mutate`: every test runs the program itself, so that mutmut's stats run files
        # each test under the functions the program calls (mutation/plan_cache.py replays).
        return preflight.runtime.run_program(stack, copy.deepcopy(values), first_preview, program)
    plan = recorded_raw(stack, values, first_preview, program).plan
    assert isinstance(plan, Plan)
    return plan


def recorded_raw(stack: str, values: dict[str, Any], first_preview: bool = False, program: Path | None = None) -> Any:
    """The same recording with the clear inputs and the invokes kept (tests/raw_inputs.py Raw):
    every recording keeps them, so a test that needs a secret's clear text shares the run too."""
    from tests.raw_inputs import capture

    if os.environ.get(ENV) == "":
        return capture(stack, copy.deepcopy(values), first_preview, program)
    key = key_of(stack, values, first_preview, program)
    if key not in _MEMO:
        # A recording made while a test has the runtime patched would be shared as the plain one.
        assert preflight.runtime.RecordingMonitor.RegisterResource is _REGISTER, "patched runtime: call run_program"
        assert preflight.runtime.PlanMocks.call is _CALL, "patched runtime: call run_program"
        _MEMO[key] = _shared(key, lambda: capture(stack, copy.deepcopy(values), first_preview, program))
    return pickle.loads(_MEMO[key])


def _shared(key: str, record: Any) -> bytes:
    folder = os.environ.get(ENV)
    if not folder:
        return pickle.dumps(record())
    path = Path(folder) / f"{key}.pickle"
    if path.exists():
        return path.read_bytes()
    # Not yet recorded (or being recorded by the other worker right now): record it here.
    # Waiting for the other worker would leave this core idle for the same time.
    data = pickle.dumps(record())
    partial = path.with_name(f"{key}.{os.getpid()}.partial")
    partial.write_bytes(data)
    partial.replace(path)  # atomic: a reader sees the whole recording or none
    return data
