"""Canary: the private SDK parts components/sdk_internals.py wraps still exist.

Fails loudly on an SDK upgrade that removes or changes them; fix sdk_internals.py, not
its callers. Also checks that no other module in components/ reaches into an SDK's
private modules, so this canary keeps covering every use."""

from __future__ import annotations

import asyncio
import re
from importlib.metadata import version
from pathlib import Path

import pulumi.output
import pulumi_kubernetes as k8s

from components import sdk_internals

COMPONENTS = Path(__file__).resolve().parent.parent / "components"
PRIVATE = re.compile(r"\b(pulumi\w*|k8s|aws|gcp|random|azure\w*)\._\w+")


def test_kubernetes_plugin_version_is_the_installed_sdk_version() -> None:
    assert hasattr(k8s, "_utilities"), "pulumi_kubernetes._utilities is gone: update components/sdk_internals.py"
    got = sdk_internals.kubernetes_plugin_version()
    assert isinstance(got, str) and re.fullmatch(r"\d+\.\d+\.\d+.*", got), got
    assert got == version("pulumi_kubernetes")


def test_no_other_component_module_uses_sdk_internals() -> None:
    offenders = [
        f"{path.relative_to(COMPONENTS)}:{number}: {line.strip()}"
        for path in sorted(COMPONENTS.rglob("*.py"))
        if path.name != "sdk_internals.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if PRIVATE.search(line) or re.search(r"from pulumi\w*\._", line)
    ]
    assert offenders == []


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
