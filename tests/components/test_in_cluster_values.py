"""What runs inside every cluster, asserted at the exact values a user depends on: the NVIDIA device plugin's tolerations, the
Gateway's wait annotation and listeners, and the operator extension's protected settings.
Expected values are literals with their source, never imported from the code under test."""

from __future__ import annotations

from typing import Any

import pytest

from preflight.runtime import Plan
from tests.raw_inputs import Raw, example

# platform.md 7 and 9.2: the taints every GPU pool carries, and the label that marks GPU
# nodes on every provider. The plugin replaces the chart's default tolerations and
# affinity (nvidia-device-plugin 0.17.1 values.yaml, `tolerations:` and `affinity:`).
GPU_TAINT_KEY = "nvidia.com/gpu"
ACCELERATOR_KEY = "node.anyscale.com/accelerator-type"
CAPACITY_KEY = "node.anyscale.com/capacity-type"
AKS_SPOT_KEY = "kubernetes.azure.com/scalesetpriority"  # platform.md 7: AKS spot pools
DEVICE_PLUGIN_VALUES = {
    "tolerations": [
        {"key": GPU_TAINT_KEY, "operator": "Exists"},
        {"key": ACCELERATOR_KEY, "operator": "Exists"},
        {"key": CAPACITY_KEY, "operator": "Exists"},
        {"key": AKS_SPOT_KEY, "operator": "Exists"},
    ],
    "affinity": {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [
                    {"matchExpressions": [{"key": ACCELERATOR_KEY, "operator": "In", "values": ["GPU"]}]}
                ]
            }
        }
    },
}
# The Pulumi Kubernetes provider's await annotation (pulumi-kubernetes >= 4.18, "pulumi.com/waitFor"):
# the Gateway is ready once its load balancer has an address, which the operator is configured with.
WAIT_FOR = {"pulumi.com/waitFor": "jsonpath={.status.addresses[0].value}"}
# platform.md 5: the listeners; `allowedRoutes.namespaces.from: All` because the operator
# creates its routes in workload namespaces, not in the Gateway's own (Gateway API default: Same).
HOSTS = {"https": "*.i.azure.anyscaleuserdata.com", "https-session": "*.s.azure.anyscaleuserdata.com"}


def listeners(resource: str) -> list[dict[str, Any]]:
    cloud_resource_id = "${" + resource + "-registration.properties.cloudResourceId}"
    secrets = {
        "https": f"anyscale-{cloud_resource_id}-certificate",
        "https-session": f"anyscale-svc-{cloud_resource_id}-certificate",
    }
    return [{"name": "http", "port": 80, "protocol": "HTTP"}] + [
        {
            "name": name,
            "port": 443,
            "protocol": "HTTPS",
            "hostname": host,
            "tls": {"mode": "Terminate", "certificateRefs": [{"kind": "Secret", "name": secrets[name]}]},
            "allowedRoutes": {"namespaces": {"from": "All"}},
        }
        for name, host in HOSTS.items()
    ]


RESOURCES = ("default", "aws-usw2", "gcp-usc1", "onprem")


@pytest.fixture(scope="module")
def raw() -> Raw:
    return example()


@pytest.fixture(scope="module")
def plan(raw: Raw) -> Plan:
    return raw.plan


def test_device_plugin_values_are_exact(plan: Plan) -> None:
    plugin = plan.named("default-nvidia-device-plugin")["inputs"]
    assert plugin["values"] == DEVICE_PLUGIN_VALUES
    assert (plugin["chart"], plugin["version"], plugin["namespace"]) == (
        "nvidia-device-plugin",
        "0.17.1",
        "nvidia-device-plugin",
    )


def test_device_plugin_tolerates_every_taint_of_the_gpu_pool(plan: Plan) -> None:
    """What AKS will schedule: every `key=value:effect` taint of the GPU pool is tolerated."""
    pool = plan.named("default-pool-gput4")["inputs"]
    assert sorted(pool["nodeTaints"]) == sorted(
        [
            "node.anyscale.com/capacity-type=ON_DEMAND:NoSchedule",
            "nvidia.com/gpu=present:NoSchedule",
            "node.anyscale.com/accelerator-type=GPU:NoSchedule",
        ]
    )
    tolerated = {t["key"] for t in plan.named("default-nvidia-device-plugin")["inputs"]["values"]["tolerations"]}
    for taint in pool["nodeTaints"]:
        assert taint.split("=", 1)[0] in tolerated, taint
    assert pool["nodeLabels"][ACCELERATOR_KEY] == "GPU"  # what the plugin's affinity selects


@pytest.mark.parametrize("resource", RESOURCES)
def test_gateway_waits_for_its_address(plan: Plan, resource: str) -> None:
    gateway = plan.named(f"{resource}-gateway")["inputs"]
    assert gateway["metadata"] == {"name": "gateway", "namespace": "anyscale-operator", "annotations": WAIT_FOR}


@pytest.mark.parametrize("resource", RESOURCES)
def test_gateway_listeners_are_exact(plan: Plan, resource: str) -> None:
    spec = plan.named(f"{resource}-gateway")["inputs"]["spec"]
    assert spec == {"gatewayClassName": "eg", "listeners": listeners(resource)}


def test_extension_protected_settings_clear_the_cli_token(raw: Raw) -> None:
    """platform.md 4: omitted keys keep their value from an earlier install, so the token is
    sent as "" (and the whole map stays a secret)."""
    assert raw.plan.named("default-operator-extension")["inputs"]["configurationProtectedSettings"] == "[secret]"
    assert raw.inputs["default-operator-extension"]["configurationProtectedSettings"] == {
        "global.auth.anyscaleCliToken": ""
    }


def test_generic_operator_gets_the_cli_token(raw: Raw) -> None:
    """platform.md 3/4: Generic authenticates with the CLI token, secret in the plan."""
    values = raw.inputs["onprem-anyscale-operator"]["values"]
    assert values["global"]["auth"]["anyscaleCliToken"] == "v1:Pq9rTb2wX4+example-ciphertext/clitoken=="
    assert raw.plan.named("onprem-anyscale-operator")["inputs"]["values"]["global"]["auth"] == {
        "anyscaleCliToken": "[secret]"
    }
