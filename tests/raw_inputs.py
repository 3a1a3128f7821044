"""Run the program and keep what the plan redacts: the clear text of secret inputs, and
the invokes the program made. For tests that must see a value the plan shows as
"[secret]" (a kubeconfig, the operator extension's protected settings)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import pytest
from google.protobuf import json_format

from preflight import runtime
from preflight.runtime import Plan


@dataclass
class Raw:
    plan: Plan
    inputs: dict[str, dict[str, Any]] = field(default_factory=dict)  # logical name -> clear inputs
    invokes: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # (token, args)


def run_raw(stack: str, values: dict[str, Any]) -> Raw:
    """The recording of (stack, values) with its clear inputs and invokes, shared like every
    recording (tests/plans.py records them all this way)."""
    from tests.plans import recorded_raw

    return recorded_raw(stack, values)


def capture(stack: str, values: dict[str, Any], first_preview: bool = False, program: Any = None) -> Raw:
    """One run of the program that keeps the clear inputs and the invokes beside the plan."""
    raw_inputs: dict[str, dict[str, Any]] = {}
    invokes: list[tuple[str, dict[str, Any]]] = []
    register, call = runtime.RecordingMonitor.RegisterResource, runtime.PlanMocks.call

    def recording_register(self: Any, request: Any) -> Any:
        raw_inputs[request.name] = runtime._strip_secrets(json_format.MessageToDict(request.object))
        return register(self, request)

    def recording_call(self: Any, args: Any) -> Any:
        invokes.append((args.token, dict(args.args)))
        return call(self, args)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runtime.RecordingMonitor, "RegisterResource", recording_register)
        patch.setattr(runtime.PlanMocks, "call", recording_call)
        # Through the module, so that a wrapper installed there (mutation/plan_cache.py) sees the run.
        plan = runtime.run_program(stack, values, first_preview, program)
    return Raw(plan, raw_inputs, invokes)


@functools.cache
def example() -> Raw:
    """The example stack's recording (read-only!): the one `example_plan` is."""
    from tests.conftest import stack_values

    return run_raw("example", stack_values("example"))
