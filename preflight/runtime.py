"""Run the real program (__main__.py) under the Pulumi SDK's mock runtime and record
every resource it registers: type, name, parent, dependencies, provider, inputs and
options. Both `preflight plan` and the tests use it."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import runpy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pulumi
from google.protobuf import json_format, struct_pb2
from pulumi.runtime.proto import resource_pb2

from components import sdk_internals
from components.sdk_internals import WIRE_SECRET, WIRE_SIG, WIRE_UNKNOWN
from preflight import planfile, project
from preflight.outputs import invoke_result, resource_state

PROJECT = project.NAME


def redact(value: Any) -> Any:
    """Engine wire values -> plan JSON: secrets become "[secret]", refs become URNs."""
    if isinstance(value, dict):
        sig = value.get(WIRE_SIG)
        if sig == WIRE_SECRET:
            return planfile.SECRET
        if sig is not None and "urn" in value:  # a resource reference
            return value["urn"]
        return {k: redact(value[k]) for k in sorted(value)}  # the wire map has no order
    if isinstance(value, list):
        return [redact(v) for v in value]
    if value == WIRE_UNKNOWN:
        return planfile.UNKNOWN
    if isinstance(value, float) and value.is_integer():
        return int(value)  # the wire has doubles only; 80.0 is the port 80
    return value


def _strip_secrets(value: Any) -> Any:
    """The plain value behind secret markers (for the mock's state only)."""
    if isinstance(value, dict):
        if value.get(WIRE_SIG) == WIRE_SECRET:
            return value.get("value")
        return {k: _strip_secrets(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_strip_secrets(v) for v in value]
    return value


class PlanMocks(pulumi.runtime.Mocks):
    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str | None, dict[str, Any]]:
        raise NotImplementedError  # RecordingMonitor answers registrations itself

    def call(self, args: pulumi.runtime.MockCallArgs) -> tuple[dict[str, Any], list[tuple[str, str]] | None]:
        return invoke_result(args.token, args.args), []


class RecordingMonitor(sdk_internals.MockMonitor):
    """Records each RegisterResource request; answers with the mock cloud's state, with
    secret inputs still marked secret in the state (as the engine would).

    `first_preview`: answer as the engine does for a create during `pulumi preview`
    (platform.md 9.1): a custom resource's outputs are its inputs only (unknown inputs
    stay unknown) and its ID is empty, so every other output is unknown; an untyped
    output such as the generic ARM resource's `properties` is the input map itself,
    without the fields only the server fills in. Providers answer as usual."""

    def __init__(self, first_preview: bool = False) -> None:
        super().__init__(PlanMocks())
        self.first_preview = first_preview
        self.records: list[dict[str, Any]] = []
        self.outputs: dict[str, dict[str, Any]] = {}  # urn -> registered outputs

    def RegisterResourceOutputs(self, request: Any) -> Any:
        self.outputs[request.urn] = redact(json_format.MessageToDict(request.outputs))
        return super().RegisterResourceOutputs(request)  # type: ignore[no-untyped-call]  # the SDK's method is unannotated

    def RegisterResource(self, request: Any) -> Any:
        urn = self.urn_of(request.parent, request.type, request.name)
        if request.type == "pulumi:pulumi:Stack":
            return resource_pb2.RegisterResourceResponse(urn=urn)
        wire = json_format.MessageToDict(request.object)
        dependencies = set(request.dependencies)
        for deps in request.propertyDependencies.values():
            dependencies.update(deps.urns)
        self.records.append(
            {
                "urn": urn,
                "type": request.type,
                "name": request.name,
                "parent": request.parent or None,
                "custom": bool(request.custom),
                "dependsOn": sorted(dependencies),
                "provider": request.provider or None,
                "inputs": redact(wire),
                "options": {
                    "protect": bool(request.protect),
                    "deleteBeforeReplace": bool(request.deleteBeforeReplace),
                    "replaceOnChanges": list(request.replaceOnChanges),
                    "ignoreChanges": list(request.ignoreChanges),
                    "retainOnDelete": bool(request.retainOnDelete),
                    "deletedWith": request.deletedWith or None,
                    "additionalSecretOutputs": list(request.additionalSecretOutputs),
                    # Only when set, so that plans without adoption keep their shape.
                    **({"import": request.importId} if request.importId else {}),
                },
            }
        )
        if not request.custom:
            return resource_pb2.RegisterResourceResponse(urn=urn)
        name = request.name
        if self.first_preview and not request.type.startswith("pulumi:providers:"):
            # The engine echoes the inputs (request.object, unknowns and secrets as
            # sent) and no ID: the SDK resolves everything else as unknown.
            self.remember(urn, "", _strip_secrets(wire))
            return resource_pb2.RegisterResourceResponse(urn=urn, id="", object=request.object)
        state = resource_state(request.type, name, wire)
        # Keep secret inputs secret in the answer; new values are placeholders (not secret).
        obj = struct_pb2.Struct()
        json_format.ParseDict(state, obj)
        resource_id = "${" + name + ".id}" if not request.type.startswith("pulumi:providers:") else f"{name}-id"
        self.remember(urn, resource_id, _strip_secrets(state))
        return resource_pb2.RegisterResourceResponse(urn=urn, id=resource_id, object=obj)


# A text input longer than this (the KubeRay CRDs, up to 1.4 MB each, and the Ray Grafana
# dashboards, which ship with the program) is in a plan file (Plan.to_json) as its digest and size:
# a plan of every stack stays small enough to read back (preflight/inputs.py MAX_BYTES) and to
# review, and a change of the text still shows, as another digest.
LONG_TEXT = 16 * 1024


def condensed(value: Any) -> Any:
    """`value` with every string over LONG_TEXT characters replaced by `<text sha256:..., N bytes>`."""
    if isinstance(value, dict):
        return {k: condensed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [condensed(v) for v in value]
    if isinstance(value, str) and len(value) > LONG_TEXT:
        data = value.encode()
        return f"<text sha256:{hashlib.sha256(data).hexdigest()}, {len(data)} bytes>"
    return value


@dataclass
class Plan:
    stack: str
    resources: list[dict[str, Any]] = field(default_factory=list)
    outputs: dict[str, Any] = field(default_factory=dict)  # the stack's exports
    component_outputs: dict[str, dict[str, Any]] = field(default_factory=dict)  # urn -> outputs

    def to_json(self) -> dict[str, Any]:
        """The plan as a plan file holds it: long texts as their digest (condensed); `resources`
        keeps them whole."""
        # Only Kubernetes objects' texts: the shipped CRDs and dashboards are those. A cloud
        # resource's long text (an IAM policy document, a bucket policy) stays whole, since the
        # policy pack reads it from the plan file and a digest would hide it from the gate.
        resources = [condensed(r) if str(r.get("type", "")).startswith("kubernetes:") else r for r in self.resources]
        return {"project": PROJECT, "stack": self.stack, "resources": resources, "outputs": self.outputs}

    def of_type(self, type_token: str) -> list[dict[str, Any]]:
        return [r for r in self.resources if r["type"] == type_token]

    def named(self, name: str) -> dict[str, Any]:
        matches = [r for r in self.resources if r["name"] == name]
        if len(matches) != 1:
            raise KeyError(f"{len(matches)} resources named {name!r}")
        return matches[0]


def config_from_values(values: dict[str, Any]) -> tuple[dict[str, str], list[str]]:
    """Stack-file config (`key: value`) -> the engine's form: JSON strings, secret keys."""
    config, secret_keys = {}, []
    for key, value in values.items():
        config[key] = value if isinstance(value, str) else json.dumps(value)
        if _has_secure(value):
            secret_keys.append(key)
    return config, secret_keys


def _has_secure(value: Any) -> bool:
    if isinstance(value, dict):
        return set(value) == {"secure"} or any(_has_secure(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_secure(v) for v in value)
    return False


def _run_main(program: Path) -> None:
    runpy.run_path(str(program), run_name="__main__")
    sdk_internals.register_stack_outputs()


def run_program(stack: str, values: dict[str, Any], first_preview: bool = False, program: Path | None = None) -> Plan:
    """Run __main__.py with the given stack config under mocks; return what it registered.
    `first_preview`: the engine's semantics for a first `pulumi preview` (see
    RecordingMonitor). `program`: another entry point than __main__.py (tests only).
    Raises what the program raises (pulumi.RunError for bad config)."""
    # The run owns its event loop, made before the mock runtime's root stack (whose
    # futures belong to it), and closes it after joining the executor threads the SDK
    # ran its RPCs on: an unclosed loop collected at interpreter exit prints a
    # traceback on stderr (see components/sdk_internals.py MockMonitor.Invoke).
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    monitor = RecordingMonitor(first_preview)
    cwd = os.getcwd()
    try:
        config, secret_keys = config_from_values(values)
        pulumi.runtime.set_all_config(config, secret_keys)
        sdk_internals.start_mock_runtime(monitor, PROJECT, stack)
        # The program runs in its project folder, as the Pulumi CLI runs it.
        main = program or project.program_path()
        os.chdir(project.project_dir())
        with sdk_internals.without_source_positions():
            sdk_internals.run_to_completion(lambda: _run_main(main))
    finally:
        os.chdir(cwd)
        loop.run_until_complete(loop.shutdown_default_executor())
        asyncio.set_event_loop(None)
        loop.close()
        # A fresh policy: code after the run that asks for the thread's loop gets a new
        # one made on demand, as before the run (set_event_loop(None) alone would make
        # asyncio refuse with "There is no current event loop").
        asyncio.set_event_loop_policy(None)
    stack_urn = f"urn:pulumi:{stack}::{PROJECT}::pulumi:pulumi:Stack::{PROJECT}-{stack}"
    return Plan(stack, monitor.records, monitor.outputs.get(stack_urn, {}), monitor.outputs)
