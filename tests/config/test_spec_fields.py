"""Exact values and messages of the spec (config/): each asserts what a user sees, with the expected text as a literal."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from config import Secret, SpecError, load_spec
from tests.conftest import stack_values
from tests.example_spec import AKS_NETWORK_10_10, example_resources, problems


def test_secret_never_prints_its_value() -> None:
    # The value reaches neither repr() (tracebacks, logs) nor str() (f-strings).
    secret = Secret("hunter2-plaintext")
    assert repr(secret) == "Secret([secret])"
    assert str(secret) == "Secret([secret])"
    assert f"{secret}" == "Secret([secret])"
    assert secret.value == "hunter2-plaintext"


# A cross-resource rule (the primary must be named `default`) together with a per-field
# problem: the stack rule re-raises pydantic's own errors with its own, and the message of
# the per-field problem still quotes the value the user wrote (it needs the error's input
# and, for a pattern, its context: without them this was a KeyError traceback).


def test_pattern_problem_next_to_a_stack_rule_quotes_the_value_and_the_form() -> None:
    resources = example_resources()
    resources[0]["name"] = "main"
    resources[0]["cluster"]["kubernetesVersion"] = "2.x"
    assert problems(resources) == [
        "resources[0].name (main): the first cloud resource is the primary and must be named 'default' "
        "(got 'main'); put the AKS primary first",
        "resources[0].cluster.kubernetesVersion (main): '2.x' does not have the required form ^1\\.[0-9]{2}(\\.[0-9]+)?$",
    ]


def test_provider_problem_next_to_a_stack_rule_quotes_what_was_written() -> None:
    resources = example_resources()
    resources[0]["name"] = "main"
    resources[0]["provider"] = "AZUR"
    assert (
        problems(resources)[-1]
        == "resources[0].provider (main): provider must be one of Azure, AWS, GCP, Generic (got 'AZUR')"
    )


# --- node pools: instance types, GPUs and shapes (check_machine) ---------------------------


def pool_problems(**pool: Any) -> list[str]:
    resources = example_resources()
    resources[0]["cluster"]["nodePools"][0].update(pool)
    return problems(resources)


def test_unknown_instance_type_suggests_the_closest_known_one() -> None:
    assert pool_problems(instanceType="Standard_D8s_v9") == [
        "resources[0].cluster.nodePools[0].instanceType (default): 'Standard_D8s_v9' is not a known Azure instance "
        "type (config/data/instance_types.py); did you mean 'Standard_D8s_v5'? or give the node's size as "
        "`shape: {cpu, memoryGb, gpus}`"
    ]


def test_gpu_type_the_chart_does_not_map_names_what_the_machine_carries_and_the_choices() -> None:
    # The anyscale-operator chart's GPU types on Azure (platform.md): T4, A10, A100, H100.
    assert pool_problems(instanceType="Standard_NC24ads_A100_v4", gpu={"type": "TPU-V9"}) == [
        "resources[0].cluster.nodePools[0].gpu.type (default): TPU-V9 is not a GPU type the operator chart maps on "
        "Azure; Standard_NC24ads_A100_v4 carries A100; use one of T4, A10, A100, H100"
    ]


def test_a_shape_with_gpus_needs_the_pools_gpu_type() -> None:
    assert pool_problems(instanceType="Standard_Custom_X", shape={"cpu": 1, "memoryGb": 1, "gpus": 1}) == [
        "resources[0].cluster.nodePools[0].gpu (default): the shape has 1 GPUs: add `gpu: {type: ...}`"
    ]
    # With the type, the shape's count fills the pool's: a valid spec.
    resources = example_resources()
    resources[0]["cluster"]["nodePools"][0].update(
        instanceType="Standard_Custom_X", shape={"cpu": 4, "memoryGb": 16, "gpus": 2}, gpu={"type": "A100"}
    )
    spec = load_spec(stack_values("example")["anyscale-cloud:cloud"], resources)
    gpu = spec.resources[0].cluster.node_pools[0].gpu
    assert gpu is not None and gpu.count == 2


def test_without_a_gpu_machine_or_a_close_name_the_messages_say_nothing_more() -> None:
    # A CPU machine carries no GPU: no "carries" clause; no close name: no suggestion.
    assert pool_problems(gpu={"type": "TPU-V9"}) == [
        "resources[0].cluster.nodePools[0].gpu.type (default): TPU-V9 is not a GPU type the operator chart maps on "
        "Azure; use one of T4, A10, A100, H100"
    ]
    assert pool_problems(instanceType="qqqqqq") == [
        "resources[0].cluster.nodePools[0].instanceType (default): 'qqqqqq' is not a known Azure instance type "
        "(config/data/instance_types.py); or give the node's size as `shape: {cpu, memoryGb, gpus}`"
    ]


# --- peering: the ranges an AKS network uses (make mutate found no test reading them) --------


def test_an_aks_network_brings_its_address_space_pod_and_service_ranges() -> None:
    from config.peering import network_cidrs

    cloud = stack_values("example")["anyscale-cloud:cloud"]
    resources = example_resources()
    # No cluster.network: AKS makes its own VNet and the program knows none of its ranges, so
    # peering is not checked for it (a known gap: README, config reference, `peeredWith`).
    assert network_cidrs(load_spec(cloud, resources).resources[0]) == {}
    resources[0]["cluster"]["network"] = {"addressSpace": "10.10.0.0/16", "nodeSubnet": "10.10.1.0/24"}
    # The pod and service ranges are the spec's defaults, which are AKS's own (kubenet/overlay
    # pods 10.244.0.0/16, services 10.0.0.0/16).
    assert network_cidrs(load_spec(cloud, resources).resources[0]) == {
        "cluster.network.addressSpace": "10.10.0.0/16",
        "cluster.network.podCidr": "10.244.0.0/16",
        "cluster.network.serviceCidr": "10.0.0.0/16",
    }


def test_an_aks_network_peered_with_an_overlapping_vpc_is_refused() -> None:
    resources = example_resources()
    resources[0]["cluster"]["network"] = copy.deepcopy(AKS_NETWORK_10_10)
    resources[0]["peeredWith"] = ["aws-usw2"]
    resources[1].setdefault("cluster", {})["vpcCidr"] = "10.10.128.0/17"
    assert problems(resources) == [
        "resources[0].peeredWith[0] (default): cluster.network.addressSpace 10.10.0.0/16 overlaps aws-usw2's "
        "cluster.vpcCidr 10.10.128.0/17: peered networks need distinct address ranges; change one of them"
    ]
    resources[1]["cluster"]["vpcCidr"] = "10.30.0.0/16"
    load_spec(stack_values("example")["anyscale-cloud:cloud"], resources)  # distinct ranges: accepted


@pytest.mark.parametrize(
    ("index", "instance_type", "expected"),
    [
        # Another cloud's known type on this provider's pool, with a shape to pass the table.
        (0, "m6i.4xlarge", "'m6i.4xlarge' is an AWS machine type, not an Azure one"),
        (1, "Standard_D16s_v5", "'Standard_D16s_v5' is an Azure machine type, not an AWS one"),
        (2, "p4d.24xlarge", "'p4d.24xlarge' is an AWS machine type, not a GCP one"),
        # Unknown to every table, and not spelt as the provider spells its types.
        (0, "custom-16", "'custom-16' is not spelt as an Azure machine type (Standard_<size>, e.g. Standard_D16s_v5)"),
        (
            1,
            "n2-standard-16x",
            "'n2-standard-16x' is not spelt as an AWS machine type (<family>.<size>, e.g. m6i.4xlarge)",
        ),
        (
            2,
            "m7i.4xlarge",
            "'m7i.4xlarge' is not spelt as a GCP machine type (<series>-<type>-<vcpus>, e.g. n2-standard-16)",
        ),
    ],
)
def test_a_shape_does_not_let_a_pool_take_another_clouds_machine_type(
    index: int, instance_type: str, expected: str
) -> None:
    resources = example_resources()
    resources[index]["cluster"] = {
        "nodePools": [{"name": "odd", "instanceType": instance_type, "shape": {"cpu": 16, "memoryGb": 64}}]
    }
    with pytest.raises(SpecError) as caught:
        load_spec(stack_values("example")["anyscale-cloud:cloud"], resources)
    assert [str(p) for p in caught.value.problems] == [
        f"resources[{index}].cluster.nodePools[0].instanceType ({resources[index]['name']}): {expected}"
    ]


@pytest.mark.parametrize(
    ("index", "instance_type"), [(0, "Standard_HX176rs"), (1, "u7i-12tb.224xlarge"), (2, "c4d-highmem-384")]
)
def test_a_shape_takes_a_new_type_spelt_as_its_cloud_spells_them(index: int, instance_type: str) -> None:
    resources = example_resources()
    resources[index]["cluster"] = {
        "nodePools": [{"name": "odd", "instanceType": instance_type, "shape": {"cpu": 16, "memoryGb": 64}}]
    }
    spec = load_spec(stack_values("example")["anyscale-cloud:cloud"], resources)
    assert spec.resources[index].cluster.node_pools[0].instance_type == instance_type  # type: ignore[union-attr]
