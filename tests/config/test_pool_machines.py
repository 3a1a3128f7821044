"""Exact values and messages of `config.pools.check_machine` (a node pool's instance type
against its `gpu`) and of `components/addons/`. Each asserts what a user sees: the whole problem of `load_spec` with its
config path, the `gpu.count` an accepted spec fills in, or what the program registers.
Expected values are literals (machines: config/data/instance_types.py's sources; GPU types:
the anyscale-operator chart's accelerator names).

Equivalent (not killable):

- `x_check_machine` 35, 36: `get_close_matches(..., n=1)` with `n` dropped or 2; only the
  best match is used.
- `x_check_machine` 87: `'XX, XX'.join(machine.attachable)`; no machine takes attached GPUs
  of more than one type (GCP N1: T4 only), so the join never uses its separator.
"""

from __future__ import annotations

import hashlib
import re
from importlib.metadata import version
from typing import Any

import pytest

from components.addons.gateway import certificate_secret_names
from config import GenericResource, load_spec
from preflight import runtime
from preflight.runtime import Plan, run_program
from tests.conftest import stack_values
from tests.example_spec import example_resources, problems, standalone

AZURE, GCP = 0, 2  # the example stack's `default` (Azure) and `gcp-usc1` (GCP) resources


def with_pool(index: int, pool: dict[str, Any]) -> list[dict[str, Any]]:
    """The example's resources, with `pool` as the resource's first worker pool, before its CPU
    pools (where Kueue admits the smoke job's head: a GPU pool's flavor never does)."""
    resources = example_resources()
    cluster = resources[index].setdefault("cluster", {})
    cpu_pools = [p for p in cluster.get("nodePools", []) if "gpu" not in p and p.get("name") != "gpu"]
    cluster["nodePools"] = [{"name": "gpu", "minCount": 0, "maxCount": 2, **pool}, *cpu_pools]
    return resources


def filled_gpu_count(index: int, pool: dict[str, Any]) -> int | None:
    spec = load_spec(stack_values("example")["anyscale-cloud:cloud"], with_pool(index, pool))
    resource = spec.resources[index]
    assert not isinstance(resource, GenericResource) and resource.cluster is not None
    gpu = resource.cluster.node_pools[0].gpu
    assert gpu is not None
    return gpu.count


# --- machines with built-in GPUs (Azure NCasT4_v3, NC_A100_v4) --------------------------------


def test_a_gpu_machine_without_a_gpu_asks_for_its_gpu_type() -> None:
    # A pool on a GPU machine with no `gpu` would get no GPU label or taint: the user is told which to add.
    assert problems(with_pool(AZURE, {"instanceType": "Standard_NC64as_T4_v3"})) == [
        "resources[0].cluster.nodePools[0].gpu (default): Standard_NC64as_T4_v3 carries 4 x T4: "
        "add `gpu: {type: T4}` so the pool is labelled and tainted for GPU pods"
    ]


def test_a_gpu_machine_with_another_gpu_type_names_the_one_it_carries() -> None:
    # An A100 machine labelled T4 would never receive a T4 pod.
    pool = {"instanceType": "Standard_NC24ads_A100_v4", "gpu": {"type": "T4"}}
    assert problems(with_pool(AZURE, pool)) == [
        "resources[0].cluster.nodePools[0].gpu.type (default): Standard_NC24ads_A100_v4 carries A100, not T4"
    ]


def test_a_gpu_count_the_machine_does_not_carry_is_refused() -> None:
    # The count is the machine's: the message gives it and how to fix the pool.
    pool = {"instanceType": "Standard_NC64as_T4_v3", "gpu": {"type": "T4", "count": 2}}
    assert problems(with_pool(AZURE, pool)) == [
        "resources[0].cluster.nodePools[0].gpu.count (default): Standard_NC64as_T4_v3 carries 4 GPUs, not 2; "
        "omit `count` or set it to 4"
    ]


def test_a_gpu_machine_fills_in_its_gpu_count() -> None:
    # `gpu.count` left out: the spec takes the machine's (4 T4s on NC64as_T4_v3).
    assert filled_gpu_count(AZURE, {"instanceType": "Standard_NC64as_T4_v3", "gpu": {"type": "T4"}}) == 4


# --- machines taking attached GPUs (GCP N1: 1, 2 or 4 T4s up to 48 vCPUs) ----------------------


def test_attached_gpus_default_to_the_smallest_allowed_count() -> None:
    # n1-standard-16 with T4s and no count: one T4 per node.
    assert filled_gpu_count(GCP, {"instanceType": "n1-standard-16", "gpu": {"type": "T4"}}) == 1


def test_an_attached_gpu_count_the_machine_cannot_take_lists_the_allowed_ones() -> None:
    # Three T4s on an N1: the message lists the counts GCP allows.
    pool = {"instanceType": "n1-standard-16", "gpu": {"type": "T4", "count": 3}}
    assert problems(with_pool(GCP, pool)) == [
        "resources[2].cluster.nodePools[0].gpu.count (gcp-usc1): n1-standard-16 takes 1, 2, 4 attached T4 GPUs, not 3"
    ]


def test_an_attached_gpu_of_another_type_names_what_the_machine_takes_and_a_machine_for_it() -> None:
    # L4s cannot be attached to an N1: the message says what it takes and the first L4 machine.
    pool = {"instanceType": "n1-standard-16", "gpu": {"type": "L4"}}
    assert problems(with_pool(GCP, pool)) == [
        "resources[2].cluster.nodePools[0].gpu.type (gcp-usc1): n1-standard-16 takes attached T4 only, not L4; "
        "for L4 use e.g. g2-standard-4"
    ]


# --- machines with no GPUs ------------------------------------------------------------------


def test_a_cpu_machine_with_a_gpu_points_to_the_first_machine_for_it() -> None:
    # An E2 has no GPUs; the first GCP machine taking T4s is n1-standard-4 (attached).
    pool = {"instanceType": "e2-standard-4", "gpu": {"type": "T4"}}
    assert problems(with_pool(GCP, pool)) == [
        "resources[2].cluster.nodePools[0].gpu.type (gcp-usc1): e2-standard-4 has no GPUs, not T4; "
        "for T4 use e.g. n1-standard-4"
    ]


def test_a_cpu_machine_with_a_gpu_no_known_machine_carries_gives_no_example() -> None:
    # The chart maps RTX-PRO-6000 on GKE, but no machine in the table carries it: no "use e.g." hint.
    pool = {"instanceType": "e2-standard-4", "gpu": {"type": "RTX-PRO-6000"}}
    assert problems(with_pool(GCP, pool)) == [
        "resources[2].cluster.nodePools[0].gpu.type (gcp-usc1): e2-standard-4 has no GPUs, not RTX-PRO-6000"
    ]


# --- addons.py --------------------------------------------------------------------------------


def test_certificate_secret_names_turn_every_underscore_into_a_dash() -> None:
    # Called directly: the ID comes from the platform (properties.cloudResourceId), no config
    # reaches it, and the mock's placeholder ID has no `_`. The operator names its TLS
    # Secrets so; the Gateway's listeners must name the same ones.
    assert certificate_secret_names("cldrsrc_ab12_cd34") == {
        "https": "anyscale-cldrsrc-ab12-cd34-certificate",
        "https-session": "anyscale-svc-cldrsrc-ab12-cd34-certificate",
    }


@pytest.fixture(scope="module")
def kuberay_v_run() -> tuple[Plan, dict[str, str]]:
    """One program run of the example's `default` resource with `kuberay.version: v1.7.0` (the
    spec allows the `v`); also returns the plugin version each registration asked the engine for
    (the plan does not record it)."""
    requested: dict[str, str] = {}
    original = runtime.RecordingMonitor.RegisterResource

    def spy(self: Any, request: Any) -> Any:
        requested[request.name] = request.version
        return original(self, request)

    values = standalone(stack_values("example"))
    resources = values["anyscale-cloud:resources"]
    del resources[1:]
    resources[0]["addons"]["kuberay"]["version"] = "v1.7.0"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runtime.RecordingMonitor, "RegisterResource", spy)
        plan = run_program("example", values)
    return plan, requested


def test_a_v_prefixed_kuberay_version_takes_the_crds_of_that_tag(kuberay_v_run: tuple[Plan, dict[str, str]]) -> None:
    # `kuberay.version: v1.7.0`: the CRDs are those of the kuberay tag v1.7.0 (the sha256 of
    # helm-chart/kuberay-operator/crds/ray.io_{rayclusters,raycronjobs,rayjobs,rayservices}.yaml
    # there), shipped with the program, not "vv1.7.0".
    plan, _ = kuberay_v_run
    stream = plan.named("default-kuberay-crds")["inputs"]["yaml"]
    files = re.split(r"(?m)^(?=---\n)", stream)[1:]  # each file opens with `---`
    assert [hashlib.sha256(text.encode()).hexdigest() for text in files] == [
        "c44704442eef0c6721ad40c1d66782c8bd3fdab9d3344306a5820910a679baa1",
        "31c2c753bba01f7e8e89cb8e8c504131b58ee42090ca536d87f5ac27605a568e",
        "01a5cf3b17c1769fda44af7e82debcd98722f0c27b9ab84d084681c6649121f5",
        "0a8fc325e6e22b9231c1f282b309555e2ecf94227ca20a03df3d1d9a403907ab",
    ]


def test_gateway_objects_ask_for_the_plugin_the_typed_kubernetes_resources_use(
    kuberay_v_run: tuple[Plan, dict[str, str]],
) -> None:
    # The Gateway API objects (raw custom resources) request the installed pulumi-kubernetes
    # plugin version, as the typed resources (the operator's Namespace) do: else the engine may
    # pick another plugin for them.
    _, requested = kuberay_v_run
    plugin = version("pulumi_kubernetes")  # the installed SDK's, not the program's
    names = ("default-operator-namespace", "default-envoy-proxy", "default-gateway-class", "default-gateway")
    assert {name: requested[name] for name in names} == dict.fromkeys(names, plugin)
