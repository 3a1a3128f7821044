"""Canary: what components/sdk_compat.py relies on beyond the SDK's documented surface.
If an SDK upgrade breaks one of these, this fails first, with the reason."""
from __future__ import annotations

import asyncio

import pulumi
import pulumi.output


def test_the_sdk_still_has_its_unknown_singleton() -> None:
    assert hasattr(pulumi.output, "UNKNOWN"), "pulumi.output.UNKNOWN is gone: rewrite components/sdk_compat.unknown()"


def test_an_output_holding_unknown_is_not_known() -> None:
    from components.sdk_compat import unknown

    async def check() -> tuple[bool, list[str]]:
        value = unknown()
        ran: list[str] = []
        await value.apply(lambda v: ran.append("apply ran")).future()
        return await value.is_known(), ran

    known, ran = asyncio.new_event_loop().run_until_complete(check())
    assert known is False
    assert ran == []  # apply callbacks never see an unknown value
