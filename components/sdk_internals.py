"""The one place the project uses a private part of a Pulumi SDK.

Private: an underscore name, a module the SDK does not export (pulumi.runtime's `stack`,
`settings`, `sync_await`, `rpc`, the mock monitor's state; pulumi_policy's `policy` and
`proxy`), or a value the SDK only implies (the wire markers). Nothing else may use one:
when an SDK upgrade moves one of these, tests/components/test_sdk_internals.py fails and names it.

Three users: the components (the Kubernetes plugin version, an unknown Output),
preflight's mock runtime (preflight/runtime.py: running __main__.py, reading what it sends)
and its policy runner (preflight/policy.py). The policy pack, which the Pulumi CLI uploads
without the rest of the repository, cannot import this module: its one use
(policy/rules/values.py: pulumi_policy.proxy) is checked by name in the same test.
"""

from __future__ import annotations

import asyncio
import threading
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pulumi
import pulumi_kubernetes as k8s
import pulumi_policy.policy
import pulumi_policy.proxy
from pulumi.output import UNKNOWN
from pulumi.runtime import mocks, rpc, settings
from pulumi.runtime import resource as resource_rpc
from pulumi.runtime.proto import source_pb2
from pulumi.runtime.stack import Stack, massage, run_pulumi_func
from pulumi.runtime.sync_await import _sync_await

# --- the components -----------------------------------------------------------------------


def kubernetes_plugin_version() -> str:
    """The pulumi-kubernetes plugin version the SDK's own resources request. A raw
    `pulumi.CustomResource` of a Kubernetes type needs it too, or the engine may pick
    another plugin version than the typed resources next to it use."""
    return str(k8s._utilities.get_version())


def unknown() -> pulumi.Output[Any]:
    """An Output whose value is not known yet, as the engine hands out during a preview.

    `pulumi.output.UNKNOWN` is the SDK's singleton unknown value (public module, but not
    in the documented API); an Output holding it is marked not known, so `apply`
    callbacks downstream do not run during the preview."""
    return pulumi.Output.from_input(UNKNOWN)


# --- the engine's wire format: how a registration's properties travel ---------------------

WIRE_SIG: str = rpc._special_sig_key  # the key that marks a special value in a map
WIRE_SECRET: str = rpc._special_secret_sig  # its value for a secret
WIRE_UNKNOWN: str = rpc.UNKNOWN  # an unknown value


# --- running a program under the mock runtime ----------------------------------------------


def start_mock_runtime(monitor: MockMonitor, project: str, stack: str) -> None:
    """The mock runtime with `monitor`, in preview, on a fresh root stack and without
    leftover RPCs or outputs: exports do not leak between runs."""
    settings.set_root_resource(None)  # type: ignore[arg-type]  # None is how the SDK starts
    pulumi.runtime.set_mocks(monitor.mocks, project=project, stack=stack, preview=True, monitor=monitor)
    settings.SETTINGS.rpc_manager.clear()
    settings.SETTINGS.outputs.clear()


@contextmanager
def without_source_positions() -> Iterator[None]:
    """Registrations without the caller's stack trace. The SDK walks and reads the Python
    stack for every resource (`_get_stack_trace`: the source position the engine shows);
    a mock monitor ignores it, and it is about a tenth of a plan's time. Restored after."""
    real = resource_rpc._get_stack_trace
    resource_rpc._get_stack_trace = lambda *_, **__: source_pb2.StackTrace()  # as for no user frame
    try:
        yield
    finally:
        resource_rpc._get_stack_trace = real


def run_to_completion(program: Callable[[], None]) -> None:
    """Run `program` as the engine's entry point does, waiting for every RPC it started."""
    _sync_await(run_pulumi_func(program))


def register_stack_outputs() -> None:
    """The program's exports, registered on the root stack. The mock runtime finishes its
    root stack before the program runs, so this is done explicitly, as the real entry
    point does when the program ends."""
    root = settings.get_root_resource()
    if not isinstance(root, Stack):
        raise RuntimeError("the mock runtime registered no root stack")
    root.register_outputs(massage(root.outputs, []))


def resolve_transforms(callbacks: Any) -> list[Callable[..., Any]]:
    """A registration's transform callbacks (`RegisterResourceRequest.transforms`) as the
    functions the mock runtime would call."""
    return list(mocks._resolve_callbacks(callbacks))


class MockMonitor(mocks.MockMonitor):
    """The SDK's mock resource monitor, with the parts of its state preflight uses."""

    def Invoke(self, request: Any) -> Any:
        # The SDK calls Invoke on an executor thread, and the mock's Invoke gives that
        # thread an event loop of its own (`_ensure_event_loop`) that nothing closes. Left
        # to the garbage collector at interpreter exit, after its self-pipe socket is
        # gone, such a loop prints "Exception ignored in: BaseEventLoop.__del__" with a
        # traceback through selectors.py. Close the loop this call made, on its thread.
        had_loop = _thread_loop() is not None
        try:
            return super().Invoke(request)  # type: ignore[no-untyped-call]  # the SDK's method is unannotated
        finally:
            if not had_loop:
                _close_thread_loop()

    def urn_of(self, parent: str, type_: str, name: str) -> str:
        return str(self.make_urn(parent, type_, name))

    def remember(self, urn: str, resource_id: str, state: dict[str, Any]) -> None:
        """What the mock answers later reads of the resource (getResource) with."""
        self.resources[urn] = mocks.MockMonitor.ResourceRegistration(urn, resource_id, state)


def _thread_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop set for this (non-main) thread, without creating one."""
    if threading.current_thread() is threading.main_thread():
        return None  # the main thread's loop belongs to the run
    try:
        return asyncio.get_event_loop_policy().get_event_loop()
    except RuntimeError:  # a non-main thread without a loop
        return None


def _close_thread_loop() -> None:
    loop = _thread_loop()
    if loop is not None:
        asyncio.set_event_loop(None)
        loop.close()


def engine_name(getter: Any) -> str | None:
    """The engine's (camelCase) name of an SDK output property, from its getter."""
    name = getattr(getter, "_pulumi_name", None)
    return name if isinstance(name, str) else None


# --- the policy SDK, as the engine runs a pack ----------------------------------------------

# Raised by a policy's validation to say it does not apply (the engine skips it).
NotApplicableError = pulumi_policy.policy._NotApplicableError
# Raised when a policy reads a value that is not known yet (during a preview).
UnknownValueError = pulumi_policy.proxy.UnknownValueError
UNKNOWN_STRING_VALUE: Any = pulumi_policy.proxy.UNKNOWN_STRING_VALUE
UNKNOWN_BOOLEAN_VALUE: Any = pulumi_policy.proxy.UNKNOWN_BOOLEAN_VALUE
# Wraps resource properties so that reading an unknown value raises UnknownValueError.
unknown_checking_proxy: Callable[[Any], Any] = pulumi_policy.proxy.unknown_checking_proxy


# The class of the maps behind that proxy (tests watch which a policy reads).
DictProxy: type = pulumi_policy.proxy._DictProxy


class _ReadOnlyDictProxy(pulumi_policy.proxy._DictProxy):
    """The SDK's proxy of a map that refuses writes (its own `__setitem__` writes through)."""

    def __setitem__(self, key: Any, value: Any) -> None:
        raise TypeError(f"a policy wrote {key!r} into a resource's inputs: policies read them, never write")

    def __getitem__(self, key: Any) -> Any:
        value = super().__getitem__(key)  # type: ignore[no-untyped-call]  # the SDK's method is unannotated
        if key == "__target":  # the SDK's way to the map behind the proxy: a read-only view of it
            return types.MappingProxyType(value)
        return value


def read_only_unknown_checking_proxy(props: Any) -> Any:
    """`unknown_checking_proxy` whose maps refuse writes, at every depth (its lists are
    read-only already): one view of a resource's inputs that every policy of a run can read
    in turn, where the engine builds one per policy. Sharing it is the same only because no
    policy can write into it."""
    proxy = unknown_checking_proxy(props)
    pending = [proxy]
    while pending:
        node = pending.pop()
        if isinstance(node, pulumi_policy.proxy._DictProxy):
            node.__class__ = _ReadOnlyDictProxy
            pending.extend(vars(node)["_DictProxy__target"].values())
        elif isinstance(node, pulumi_policy.proxy._ListProxy):
            pending.extend(vars(node)["_ListProxy__target"])
    return proxy


def resource_validation(policy: Any) -> Any:
    """The validation function (or list of them) a ResourceValidationPolicy was made with."""
    return policy._ResourceValidationPolicy__validate
