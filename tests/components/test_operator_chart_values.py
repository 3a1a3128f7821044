"""Exact values and messages of components/addons/ (and one of components/registration.py): the operator's extra chart values
on the AKS extension and the Helm chart (a `false`, a list of plain values, a secret), the
CRD take-over transform the CRD charts carry, the ClusterAddons component's registered
outputs, and the resource named in the "no cloudResourceId" error of a real create. Each
asserts what the cloud or the user receives, expected values as literals.

Killed by an existing test already in the mutmut selection (alive in the first run only
because the plan-cache plugin of that run filed a module fixture's calls under the first
test using it):
- addons.ClusterAddons._extension 47-51: test_in_cluster_values.py::
  test_extension_protected_settings_clear_the_cli_token.

Equivalent (not killable): none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pulumi
import pytest

from components import sdk_internals
from preflight import runtime
from preflight.runtime import run_program
from tests.conftest import stack_values
from tests.example_spec import standalone
from tests.raw_inputs import Raw, capture

SECRET_TEXT = "v1:example-ciphertext/pull-token=="  # the stack file's ciphertext, as the mock decrypts it
# Extra operator values a user sets: a boolean off, two managed namespaces, a secret env value.
OPERATOR_VALUES = {
    "workloads": {"enableZoneSelector": False, "managedNamespaces": ["ray-a", "ray-b"]},
    "operator": {"container": {"additionalEnv": [{"name": "TOKEN", "value": {"secure": SECRET_TEXT}}]}},
}
CRD_TYPE = "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition"
ADDONS_URN = "urn:pulumi:test::anyscale-cloud::anyscale-cloud:index:CloudResource$anyscale-cloud:index:ClusterAddons::"
NO_ID = (
    "cloud resource 'onprem': the platform returned no properties.cloudResourceId after the "
    "registration was created; check the resource in the Azure portal (Anyscale.Platform/clouds/"
    "cloudResources) and run `pulumi refresh` before the next `pulumi up`"
)


def default_and_onprem() -> dict[str, Any]:
    """The example stack cut to its AKS primary and its Generic resource."""
    values = standalone(stack_values("example"))
    resources = values["anyscale-cloud:resources"]
    resources[:] = [r for r in resources if r["name"] in ("default", "onprem")]
    return values


@pytest.fixture(scope="module")
def operator_run() -> tuple[Raw, dict[str, list[Callable[..., Any]]]]:
    """One program run with OPERATOR_VALUES on both resources; also returns the transforms
    each registration handed the engine (the plan does not record them)."""
    values = default_and_onprem()
    for resource in values["anyscale-cloud:resources"]:
        resource.setdefault("addons", {})["anyscaleOperator"] = {"version": "1.8.0", "values": OPERATOR_VALUES}
    transforms: dict[str, list[Callable[..., Any]]] = {}
    original = runtime.RecordingMonitor.RegisterResource

    def spy(self: Any, request: Any) -> Any:
        transforms[request.name] = sdk_internals.resolve_transforms(request.transforms)
        return original(self, request)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runtime.RecordingMonitor, "RegisterResource", spy)
        raw = capture("test", values)  # a run of its own: the spy must see it (never a shared recording)
    return raw, transforms


def engine_applies(transforms: list[Callable[..., Any]], crd: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """What the engine does to a CRD a chart renders: each transform in turn."""
    props, opts = crd, pulumi.ResourceOptions()
    for transform in transforms:
        result = transform(pulumi.ResourceTransformArgs(True, CRD_TYPE, "rayjobs", props, opts))
        if result is not None:
            props, opts = result.props, result.opts
    return props, opts


def test_extension_settings_send_false_as_the_string_false(operator_run: tuple[Raw, Any]) -> None:
    # The AKS extension takes strings only: a boolean off is "false"; list items are indexed keys.
    settings = operator_run[0].plan.named("default-operator-extension")["inputs"]["configurationSettings"]
    assert {k: v for k, v in settings.items() if k.startswith(("workloads.enable", "workloads.managed"))} == {
        "workloads.enableZoneSelector": "false",
        "workloads.managedNamespaces[0]": "ray-a",
        "workloads.managedNamespaces[1]": "ray-b",
    }


def test_extension_protected_settings_carry_the_secret_value(operator_run: tuple[Raw, Any]) -> None:
    # A `{secure: ...}` operator value reaches the extension's protected settings in clear text.
    assert operator_run[0].inputs["default-operator-extension"]["configurationProtectedSettings"] == {
        "global.auth.anyscaleCliToken": "",
        "operator.container.additionalEnv[0].value": SECRET_TEXT,
    }


def test_helm_values_keep_a_list_of_plain_values_as_given(operator_run: tuple[Raw, Any]) -> None:
    # Helm gets the two namespaces, not the list padded with nulls.
    values = operator_run[0].plan.named("onprem-anyscale-operator")["inputs"]["values"]
    assert values["workloads"] == {
        "enableZoneSelector": False,
        "managedNamespaces": ["ray-a", "ray-b"],
        "serviceAccount": {"name": "anyscale-workloads"},
    }


def test_helm_values_carry_the_secret_value(operator_run: tuple[Raw, Any]) -> None:
    # The secret env value reaches the chart's values in clear text (secret in the plan).
    values = operator_run[0].inputs["onprem-anyscale-operator"]["values"]
    assert values["operator"]["container"] == {"additionalEnv": [{"name": "TOKEN", "value": SECRET_TEXT}]}


@pytest.mark.parametrize("chart", ["default-envoy-gateway-crds", "default-kuberay-crds"])
def test_crd_charts_force_and_keep_their_crds(operator_run: tuple[Raw, Any], chart: str) -> None:
    # Each CRD the chart renders is applied with patchForce (Helm owns its fields) and kept on delete.
    props, opts = engine_applies(operator_run[1][chart], {"metadata": {"name": "rayjobs.ray.io"}})
    assert props == {"metadata": {"name": "rayjobs.ray.io", "annotations": {"pulumi.com/patchForce": "true"}}}
    assert opts.retain_on_delete is True


def test_cluster_addons_register_the_gateway_address(operator_run: tuple[Raw, Any]) -> None:
    # The component's outputs in the state: the address of its Gateway's load balancer.
    outputs = operator_run[0].plan.component_outputs
    assert outputs[ADDONS_URN + "default"] == {"gateway_address": "${default-gateway.status.addresses[0].value}"}
    assert outputs[ADDONS_URN + "onprem"] == {"gateway_address": "${onprem-gateway.status.addresses[0].value}"}


def test_a_real_create_without_an_id_names_the_resource(monkeypatch: pytest.MonkeyPatch) -> None:
    # An update (not a preview) whose create answered without cloudResourceId stops naming it;
    # `default`'s properties hold unknowns, so only `onprem`'s are read.
    monkeypatch.setattr(pulumi.runtime, "is_dry_run", lambda: False)
    with pytest.raises(pulumi.RunError) as caught:
        run_program("test", default_and_onprem(), first_preview=True)
    assert str(caught.value) == NO_ID
