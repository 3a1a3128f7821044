"""Exact values and messages of components/registration.py. Expected values are literals (platform.md 1.1, 9.1)."""

from __future__ import annotations

import asyncio

import pulumi
import pytest

from components import registration

# The whole message a user reads when the platform returned no ID after a real create.
NO_ID = (
    "cloud resource 'onprem': the platform returned no properties.cloudResourceId after the "
    "registration was created; check the resource in the Azure portal (Anyscale.Platform/clouds/"
    "cloudResources) and run `pulumi refresh` before the next `pulumi up`"
)


@pytest.mark.parametrize("properties", [None, {}, {"cloudResourceId": ""}, {"cloudResourceId": None}])
def test_no_id_after_a_real_create_stops_the_update_with_the_whole_message(
    monkeypatch: pytest.MonkeyPatch, properties: dict[str, object] | None
) -> None:
    monkeypatch.setattr(pulumi.runtime, "is_dry_run", lambda: False)
    with pytest.raises(pulumi.RunError) as caught:
        registration.cloud_resource_id("onprem", properties)
    assert str(caught.value) == NO_ID


@pytest.mark.parametrize("properties", [None, {"provider": "Generic"}, {"cloudResourceId": ""}])
def test_no_id_during_a_preview_is_unknown_not_an_error(
    monkeypatch: pytest.MonkeyPatch, properties: dict[str, object] | None
) -> None:
    monkeypatch.setattr(pulumi.runtime, "is_dry_run", lambda: True)
    value = registration.cloud_resource_id("onprem", properties)
    assert isinstance(value, pulumi.Output)
    assert asyncio.new_event_loop().run_until_complete(value.is_known()) is False


def test_the_platform_id_is_passed_through_even_outside_a_preview(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pulumi.runtime, "is_dry_run", lambda: False)
    assert registration.cloud_resource_id("x", {"cloudResourceId": "cldrsrc_abc123"}) == "cldrsrc_abc123"


def test_the_component_registers_its_id_and_the_platforms_id() -> None:
    """Mutants 61-64 of CloudResourceRegistration.__init__: its registered outputs (house rule:
    every component registers them) are the ARM record's ID and the platform's
    cloudResourceId, read from the record it created."""
    from tests.conftest import stack_values
    from tests.plans import recorded

    plan = recorded("dev", stack_values("dev"))
    urn = (
        "urn:pulumi:dev::anyscale-cloud::anyscale-cloud:index:CloudResource"
        "$anyscale-cloud:index:CloudResourceRegistration::default"
    )
    assert plan.component_outputs[urn] == {
        "cloud_resource_id": "${default-registration.properties.cloudResourceId}",
        "resource_id": "${default-registration.id}",
    }
