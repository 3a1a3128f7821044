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
from preflight.runtime import Plan, run_program
from tests.conftest import stack_values


@dataclass
class Raw:
    plan: Plan
    inputs: dict[str, dict[str, Any]] = field(default_factory=dict)  # logical name -> clear inputs
    invokes: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # (token, args)


def run_raw(stack: str, values: dict[str, Any]) -> Raw:
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
        plan = run_program(stack, values)
    return Raw(plan, raw_inputs, invokes)


@functools.cache
def example() -> Raw:
    """The example stack, run once per test process (read-only!)."""
    return run_raw("example", stack_values("example"))
