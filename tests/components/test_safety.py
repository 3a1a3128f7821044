"""Production safety: secrets end to end, stable names, protection, destroy order."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest
import yaml

from preflight.changes import diff_plans
from preflight.diff import changes_to_json, render_changes, render_markdown
from preflight.rollout import estimate, render_estimate
from preflight.runtime import Plan
from preflight.tree import render_summary, render_tree
from tests.conftest import stack_values
from tests.example_spec import SENTINELS, variants_values, with_sentinels
from tests.plans import recorded

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def sentinel_plan() -> Plan:
    return recorded("example", variants_values())


@pytest.fixture(scope="module")
def base_plan() -> Plan:
    return recorded("example", stack_values("example"))


def every_text(plan: Plan, other: Plan) -> str:
    document = plan.to_json()
    changes = diff_plans(other.to_json(), document)
    texts = [
        json.dumps(document),
        json.dumps(plan.component_outputs),
        render_tree(document, width=120, color=False),
        render_summary(document),
        render_estimate(estimate(document)),
        render_changes(changes),
        render_markdown(changes),
        json.dumps(changes_to_json(changes)),
    ]
    return "\n".join(texts)


def test_every_stack_has_a_secret_input_to_plant() -> None:
    planted = [r for r in with_sentinels(stack_values("example"))["anyscale-cloud:resources"] if "kubeconfig" in r]
    assert planted and all(r["kubeconfig"].startswith("SENTINEL") for r in planted)


def test_secrets_never_appear_in_any_output(sentinel_plan: Plan, base_plan: Plan) -> None:
    text = every_text(sentinel_plan, base_plan)
    for sentinel in SENTINELS.values():
        assert sentinel not in text
    # ... while the resources that carry them are there, redacted.
    assert sentinel_plan.named("onprem-k8s")["inputs"]["kubeconfig"] == "[secret]"
    values = sentinel_plan.named("onprem-anyscale-operator")["inputs"]["values"]
    assert values["global"]["auth"]["anyscaleCliToken"] == "[secret]"
    assert sentinel_plan.outputs["kubeconfigs"] == {
        "default": "[secret]",
        "aws-usw2": "[secret]",
        "gcp-usc1": "[secret]",
        "onprem": "[secret]",
    }


def test_secrets_never_appear_in_policy_output(sentinel_plan: Plan, tmp_path: Path) -> None:
    from preflight import policy

    path = tmp_path / "plan.json"
    path.write_text(json.dumps(sentinel_plan.to_json()))
    out = io.StringIO()
    with redirect_stdout(out):
        code = policy.main(["--plan", str(path)])
    # The pack really ran over the plan (exit 0: no mandatory violation, `secrets-not-in-clear`
    # included), not stopped early on a bad plan (exit 2) with nothing to leak.
    assert code == 0, out.getvalue()
    assert "0 mandatory" in out.getvalue()
    for sentinel in SENTINELS.values():
        assert sentinel not in out.getvalue()


def test_kubeconfigs_derived_from_clusters_are_secret(base_plan: Plan) -> None:
    providers = base_plan.of_type("pulumi:providers:kubernetes")
    assert len(providers) == 4
    for provider in providers:
        assert provider["inputs"]["kubeconfig"] == "[secret]", provider["name"]
    for outputs in base_plan.component_outputs.values():
        if "kubeconfig" in outputs:
            assert outputs["kubeconfig"] == "[secret]"


def test_secret_outputs_the_sdk_does_not_mark(base_plan: Plan) -> None:
    operator = base_plan.named("onprem-anyscale-operator")
    assert operator["options"]["additionalSecretOutputs"] == ["values"]
    extension = base_plan.named("default-operator-extension")
    assert extension["options"]["additionalSecretOutputs"] == ["configurationProtectedSettings"]


def test_reordering_resources_changes_nothing(base_plan: Plan) -> None:
    values = stack_values("example")
    first, *rest = values["anyscale-cloud:resources"]
    values["anyscale-cloud:resources"] = [first, *reversed(rest)]
    reordered = recorded("example", values)
    changes = diff_plans(base_plan.to_json(), reordered.to_json())
    assert {c.action for c in changes} == {"same"}
    assert sorted(r["urn"] for r in base_plan.resources) == sorted(r["urn"] for r in reordered.resources)


def test_removing_a_resource_deletes_only_it_and_is_disruptive(base_plan: Plan) -> None:
    values = stack_values("example")
    values["anyscale-cloud:resources"] = [r for r in values["anyscale-cloud:resources"] if r["name"] != "gcp-usc1"]
    head = recorded("example", values)
    changes = {c.name: c for c in diff_plans(base_plan.to_json(), head.to_json()) if c.action != "same"}
    assert all(c.action == "delete" for c in changes.values()), {n: c.action for n, c in changes.items()}
    assert all(name.startswith("gcp-usc1") for name in changes)
    registration = changes["gcp-usc1-registration"]
    assert registration.disruptive
    assert any("409" in reason for reason in registration.reasons)
    # The operator (and everything in the cluster) goes with the cluster: the registration
    # is deleted while the operator still runs, instead of a 409 on a half-removed resource.
    cluster = base_plan.named("gcp-usc1-gke")["urn"]
    operator = base_plan.named("gcp-usc1-anyscale-operator")
    assert operator["options"]["deletedWith"] == cluster


def test_every_stack_disables_default_providers() -> None:
    for path in sorted((ROOT / "stacks").glob("Pulumi.*.yaml")):
        config = yaml.safe_load(path.read_text())["config"]
        assert config["pulumi:disable-default-providers"] == ["*"], path.name


def test_showcase_stacks_turn_protection_off_and_default_is_on() -> None:
    for stack in ("dev", "example"):
        assert stack_values(stack)["anyscale-cloud:cloud"]["protect"] is False
    plan = recorded("example", variants_values())  # the cloud's `protect` left out
    protected = {r["name"] for r in plan.resources if r["options"]["protect"]}
    for name in (
        "default-aks",
        "aws-usw2-eks",
        "gcp-usc1-gke",
        "default-storage",
        "aws-usw2-bucket",
        "gcp-usc1-storage",
    ):
        assert name in protected, name
    for registration in ("default", "aws-usw2", "gcp-usc1", "onprem"):
        assert f"{registration}-registration" in protected


def test_editing_a_bucket_replaces_exactly_that_registration(base_plan: Plan) -> None:
    values = stack_values("example")
    aws = next(r for r in values["anyscale-cloud:resources"] if r["name"] == "aws-usw2")
    aws["storage"] = {"bucket": "s3://existing-ray-data"}
    head = recorded("example", values)
    changes = [c for c in diff_plans(base_plan.to_json(), head.to_json()) if c.action != "same"]
    replaced = [c.name for c in changes if c.action == "replace"]
    assert replaced == ["aws-usw2-registration"]
    registration = next(c for c in changes if c.name == "aws-usw2-registration")
    assert registration.disruptive and registration.reasons
    # What necessarily follows: our bucket goes (disruptive, kept on delete), the
    # operator's policy now names the other bucket; nothing of another resource changes.
    assert all(c.name.startswith("aws-usw2") for c in changes), [c.name for c in changes]
    deleted = {c.name for c in changes if c.action == "delete"}
    assert "aws-usw2-bucket" in deleted
    assert next(c for c in changes if c.name == "aws-usw2-bucket").disruptive


def test_bad_config_stops_the_program_before_any_resource() -> None:
    import pulumi

    from preflight import runtime

    values = stack_values("dev")
    values["anyscale-cloud:resources"][0]["storage"] = {
        "bucket": "azure://logs",
        "endpoint": "https://acct.blob.core.windows.net/",
    }
    recorded: list[Any] = []
    original = runtime.RecordingMonitor.RegisterResource

    def spy(self: Any, request: Any) -> Any:
        recorded.append(request.type)
        return original(self, request)

    runtime.RecordingMonitor.RegisterResource = spy  # type: ignore[method-assign]
    try:
        with pytest.raises(pulumi.RunError) as caught:
            runtime.run_program("dev", values)  # patched above: a run of its own
    finally:
        runtime.RecordingMonitor.RegisterResource = original  # type: ignore[method-assign]
    assert "resources[0].storage.endpoint (default): 'https://acct.blob.core.windows.net/' ends with '/'" in str(
        caught.value
    )
    assert recorded == ["pulumi:pulumi:Stack"]  # the root only: nothing half-applied


def test_generic_gateway_address_kind() -> None:
    # onprem of variants_values: gatewayAddress: hostname.
    gateway = recorded("example", variants_values()).named("onprem-anyscale-operator")["inputs"]["values"][
        "networking"
    ]["gateway"]
    assert gateway["hostname"] == "${onprem-gateway.status.addresses[0].value}"
    assert "ip" not in gateway
