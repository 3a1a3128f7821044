"""Canary: the private SDK parts components/sdk_internals.py wraps still exist.

Fails loudly on an SDK upgrade that removes or changes one of them, naming it; fix
sdk_internals.py, not its callers. Also checks that no other production module reaches
into an SDK's private parts, so this canary keeps covering every use."""

from __future__ import annotations

import asyncio
import importlib
import re
from importlib.metadata import version
from pathlib import Path

import pulumi.output
import pulumi_kubernetes as k8s
import pytest

from components import sdk_internals
from tests.project.test_layout import production_modules

ROOT = Path(__file__).resolve().parents[2]
# (module, attribute): every private name sdk_internals.py reads, and the one the policy
# pack reads itself (policy/rules/values.py: the pack is uploaded alone and cannot import it).
PRIVATE_NAMES = [
    ("pulumi_kubernetes", "_utilities"),
    ("pulumi.output", "UNKNOWN"),
    ("pulumi.runtime.rpc", "_special_sig_key"),
    ("pulumi.runtime.rpc", "_special_secret_sig"),
    ("pulumi.runtime.rpc", "UNKNOWN"),
    ("pulumi.runtime.settings", "set_root_resource"),
    ("pulumi.runtime.settings", "SETTINGS"),
    ("pulumi.runtime.stack", "Stack"),
    ("pulumi.runtime.stack", "massage"),
    ("pulumi.runtime.stack", "run_pulumi_func"),
    ("pulumi.runtime.sync_await", "_sync_await"),
    # MockMonitor.Invoke closes the event loop this helper gives each executor thread.
    ("pulumi.runtime.mocks", "_ensure_event_loop"),
    ("pulumi.runtime.mocks", "_resolve_callbacks"),
    ("pulumi.runtime.mocks", "MockMonitor"),
    ("pulumi.runtime.resource", "_get_stack_trace"),
    ("pulumi_policy.policy", "_NotApplicableError"),
    ("pulumi_policy.proxy", "UnknownValueError"),
    ("pulumi_policy.proxy", "UNKNOWN_STRING_VALUE"),
    ("pulumi_policy.proxy", "UNKNOWN_BOOLEAN_VALUE"),
    ("pulumi_policy.proxy", "unknown_checking_proxy"),
]
# What a private use looks like in our code: an underscore attribute of an SDK object, an
# import of an underscore name or from a module the SDK does not export, the mock monitor's
# internals, a mangled name, the getter attribute, or a wire marker spelled out.
PRIVATE_USE = [
    re.compile(r"\b(pulumi\w*|k8s|aws|gcp|random|azure\w*|mocks|settings|rpc|stack|proxy)\._\w+"),
    re.compile(r"^\s*from pulumi\w*(\.\w+)* import .*\b_\w+"),
    re.compile(r"\bpulumi\.runtime\.(stack|settings|sync_await|rpc|mocks)\b"),
    re.compile(r"^\s*from pulumi\.runtime import .*\b(stack|settings|sync_await|rpc|mocks)\b"),
    re.compile(r"\bpulumi_policy\.(policy|proxy)\b"),
    re.compile(r"\bMockMonitor\.ResourceRegistration\b|\bmake_urn\("),
    re.compile(r"\._[A-Z]\w*__\w+"),
    re.compile(r"_pulumi_name"),
    re.compile(
        r"4dabf18193072939515e22adb298388d|1b47061264138c4ac30d75fd1eb44270|04da6b54-80e4-46f7-96ec-b56ff0331ba9"
    ),
]
# The pack's own use, covered by PRIVATE_NAMES above.
PACK_USE = ("policy/rules/values.py", "from pulumi_policy.proxy import (")


@pytest.mark.parametrize(("module", "name"), PRIVATE_NAMES, ids=[f"{m}.{n}" for m, n in PRIVATE_NAMES])
def test_the_private_name_still_exists(module: str, name: str) -> None:
    assert hasattr(importlib.import_module(module), name), (
        f"{module}.{name} is gone: update components/sdk_internals.py"
    )


def test_the_wire_markers_are_the_engines() -> None:
    # The plan JSON reads these from the recorded requests: a changed marker would let a
    # secret through as a value.
    assert sdk_internals.WIRE_SIG == "4dabf18193072939515e22adb298388d"
    assert sdk_internals.WIRE_SECRET == "1b47061264138c4ac30d75fd1eb44270"
    assert sdk_internals.WIRE_UNKNOWN == "04da6b54-80e4-46f7-96ec-b56ff0331ba9"


def test_the_mock_monitor_keeps_its_state_where_preflight_reads_it() -> None:
    from preflight.runtime import PlanMocks

    monitor = sdk_internals.MockMonitor(PlanMocks())
    assert isinstance(getattr(monitor, "resources", None), dict), (
        "MockMonitor.resources is gone: update components/sdk_internals.py"
    )
    assert callable(getattr(monitor, "make_urn", None)), "MockMonitor.make_urn is gone"
    urn = monitor.urn_of("", "t:m:T", "n")
    monitor.remember(urn, "id", {"a": 1})
    assert monitor.resources[urn] == (urn, "id", {"a": 1})


def test_an_sdk_getter_names_its_engine_property() -> None:
    from pulumi_azure_native import resources

    getter = resources.ResourceGroup.location.fget
    assert sdk_internals.engine_name(getter) == "location", "the getters' _pulumi_name is gone"


def test_a_resource_validation_policy_keeps_its_function() -> None:
    from pulumi_policy import EnforcementLevel, ResourceValidationPolicy

    def check(args: object, report: object) -> None:
        return None

    policy = ResourceValidationPolicy("p", "d", check, EnforcementLevel.ADVISORY)
    assert sdk_internals.resource_validation(policy) is check


def test_kubernetes_plugin_version_is_the_installed_sdk_version() -> None:
    got = sdk_internals.kubernetes_plugin_version()
    assert isinstance(got, str) and re.fullmatch(r"\d+\.\d+\.\d+.*", got), got
    assert got == version("pulumi_kubernetes")
    assert hasattr(k8s, "_utilities")


def test_no_other_module_uses_sdk_internals() -> None:
    offenders = []
    for path in production_modules().values():
        # mutation/ is `make mutate`'s pytest plugins, which patch the runtime on purpose and
        # run only in mutmut's copy of the project: a moved private name fails that run alone.
        if path.as_posix() == "components/sdk_internals.py" or path.parts[0] == "mutation":
            continue
        for number, line in enumerate((ROOT / path).read_text(encoding="utf-8").splitlines(), 1):
            if (path.as_posix(), line.strip()) == PACK_USE:
                continue
            if any(pattern.search(line) for pattern in PRIVATE_USE):
                offenders.append(f"{path}:{number}: {line.strip()}")
    assert offenders == []


def test_the_scan_finds_each_kind_of_use() -> None:
    samples = [
        "k8s._utilities.get_version()",
        "from pulumi.runtime.sync_await import _sync_await",
        "from pulumi.runtime.stack import massage",
        "from pulumi.runtime import mocks, settings",
        "from pulumi_policy.policy import NotApplicable",
        "mocks.MockMonitor.ResourceRegistration(urn, '', state)",
        "urn = self.make_urn(parent, type_, name)",
        "policy._ResourceValidationPolicy__validate",
        'getattr(fget, "_pulumi_name", None)',
        'SIG = "4dabf18193072939515e22adb298388d"',
    ]
    assert [s for s in samples if not any(p.search(s) for p in PRIVATE_USE)] == []
    assert not any(p.search("pulumi.runtime.set_mocks(mocks, monitor=monitor)") for p in PRIVATE_USE)


def test_the_sdk_still_has_its_unknown_singleton() -> None:
    assert hasattr(pulumi.output, "UNKNOWN"), (
        "pulumi.output.UNKNOWN is gone: rewrite components/sdk_internals.unknown()"
    )


def test_an_output_holding_unknown_is_not_known() -> None:
    from components.sdk_internals import unknown

    async def check() -> tuple[bool, list[str]]:
        value = unknown()
        ran: list[str] = []
        await value.apply(lambda v: ran.append("apply ran")).future()
        return await value.is_known(), ran

    known, ran = asyncio.new_event_loop().run_until_complete(check())
    assert known is False
    assert ran == []  # apply callbacks never see an unknown value


def test_the_policy_proxy_hands_out_the_same_child_each_time() -> None:
    """policy/rules/values.py finds where a map or list sits in a resource's props by its
    identity (to name a property a check could not decide): the proxy must wrap the tree once,
    not on each access."""
    from pulumi_policy.proxy import UNKNOWN_STRING_VALUE, UnknownValueError, unknown_checking_proxy

    props = unknown_checking_proxy({"a": {"b": [{"c": 1}], "u": UNKNOWN_STRING_VALUE}})
    assert props["a"] is props["a"]
    assert props["a"]["b"] is props["a"]["b"]
    assert props["a"]["b"][0] is props["a"]["b"][0]
    with pytest.raises(UnknownValueError) as raised:
        props["a"]["u"]
    assert raised.value.props == ["a", "u"]
