"""Lifecycles that cannot wedge (platform.md 9.3, 9.4): the registry's explicit name,
delete-first replacement of fixed-name pools (shown by preflight.diff), the destroy
order of every provider walked from the plan's dependency graph, and retained storage
that survives its resource group."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import pytest

from components import shipped
from preflight.changes import diff_plans
from preflight.runtime import condensed
from tests.conftest import stack_values
from tests.plans import recorded

pytestmark = pytest.mark.filterwarnings("ignore:.*deprecated in favor of:DeprecationWarning")

AKS_POOL = "azure-native:containerservice:AgentPool"
EKS_GROUP = "aws:eks/nodeGroup:NodeGroup"
GKE_POOL = "gcp:container/nodePool:NodePool"


def resources_of(values: dict[str, Any]) -> list[dict[str, Any]]:
    return values["anyscale-cloud:resources"]


# Alike CPU pools on each cloud, each changed by one test in one shared changed plan (a diff's
# changes are per resource): `cpu` takes a new instance type, `gpu` (on AKS the example's
# `gput4`) a GPU, `spot` spot capacity, `disk` a bigger disk; GKE's system pool a new type.
POOLS = ("cpu", "gpu", "spot", "disk")


def base_values() -> dict[str, Any]:
    """The example stack with the alike pools on AKS (next to its own cpu and gput4), EKS and GKE."""
    values = stack_values("example")
    aks, aws, gcp = resources_of(values)[0], resources_of(values)[1], resources_of(values)[2]
    aks["cluster"]["nodePools"] += [{"name": name, "instanceType": "Standard_D16s_v5"} for name in ("spot", "disk")]
    aws["cluster"] = {"nodePools": [{"name": name, "instanceType": "m6i.4xlarge"} for name in POOLS]}
    gcp["cluster"] = {"nodePools": [{"name": name, "instanceType": "n2-standard-16"} for name in POOLS]}
    return values


@pytest.fixture(scope="module")
def base() -> dict[str, Any]:
    return recorded("base", base_values()).to_json()


def pool(values: dict[str, Any], index: int, name: str) -> dict[str, Any]:
    return next(p for p in resources_of(values)[index]["cluster"]["nodePools"] if p["name"] == name)


def change_instance_type(values: dict[str, Any]) -> None:
    pool(values, 0, "cpu")["instanceType"] = "Standard_D8s_v5"
    pool(values, 1, "cpu")["instanceType"] = "m6i.8xlarge"
    pool(values, 2, "cpu")["instanceType"] = "n2-standard-32"


def add_gpu(values: dict[str, Any]) -> None:
    # A GPU pool is a GPU machine (the spec checks the GPU against the instance type);
    # on EKS it also takes another AMI, on GKE an accelerator.
    pool(values, 0, "gput4").update(instanceType="Standard_NC24ads_A100_v4", gpu={"type": "A100", "count": 1})
    pool(values, 1, "gpu").update(instanceType="g5.xlarge", gpu={"type": "A10G", "count": 1})
    pool(values, 2, "gpu").update(instanceType="g2-standard-8", gpu={"type": "L4", "count": 1})


def make_spot(values: dict[str, Any]) -> None:
    for index in (0, 1, 2):
        pool(values, index, "spot")["capacityType"] = "SPOT"


def grow_disks(values: dict[str, Any]) -> None:
    for index in (0, 1, 2):
        pool(values, index, "disk")["diskSizeGb"] = 256


def retype_gke_system_pool(values: dict[str, Any]) -> None:
    resources_of(values)[2]["cluster"]["systemPool"] = {"instanceType": "e2-standard-8"}


@pytest.fixture(scope="module")
def changed() -> dict[str, Any]:
    """Every test's edit at once, each on its own pools."""
    values = base_values()
    for edit in (change_instance_type, add_gpu, make_spot, grow_disks, retype_gke_system_pool):
        edit(values)
    return recorded("base", values).to_json()


@pytest.mark.parametrize(
    "pools",
    [
        {"default-pool-cpu": AKS_POOL, "aws-usw2-cpu": EKS_GROUP},
        {"default-pool-gput4": AKS_POOL, "aws-usw2-gpu": EKS_GROUP, "gcp-usc1-pool-gpu": GKE_POOL},
        {"default-pool-spot": AKS_POOL, "aws-usw2-spot": EKS_GROUP, "gcp-usc1-pool-spot": GKE_POOL},
    ],
    ids=["instance-type", "gpu", "spot"],
)
def test_pool_replacements_are_delete_first(
    base: dict[str, Any], changed: dict[str, Any], pools: dict[str, str]
) -> None:
    changes = {c.name: c for c in diff_plans(base, changed)}
    options = {r["name"]: r["options"] for r in changed["resources"]}
    for name, type_ in pools.items():
        change = changes[name]
        assert (change.type, change.action) == (type_, "replace"), name
        assert any(p.forces_replacement for p in change.properties), name
        # A fixed name replaced create-first collides with itself ("already exists").
        assert options[name]["deleteBeforeReplace"] is True, name
    # The clusters themselves are untouched (by any of the edits).
    for name in ("default-aks", "aws-usw2-eks", "gcp-usc1-gke"):
        assert changes[name].action == "same"


def test_a_disk_size_change_replaces_aks_and_eks_pools_and_updates_gke_in_place(
    base: dict[str, Any], changed: dict[str, Any]
) -> None:
    # AKS answers PropertyChangeNotAllowed for osDiskSizeGB, EKS node groups cannot resize
    # their disks (ForceNew in the provider); GKE's UpdateNodePool takes disk_size_gb.
    changes = {c.name: c for c in diff_plans(base, changed)}
    options = {r["name"]: r["options"] for r in changed["resources"]}
    for name in ("default-pool-disk", "aws-usw2-disk"):
        assert changes[name].action == "replace", name
        assert options[name]["deleteBeforeReplace"] is True, name
    assert changes["gcp-usc1-pool-disk"].action == "update"


def test_gke_changes_a_pools_machine_type_in_place(base: dict[str, Any], changed: dict[str, Any]) -> None:
    # UpdateNodePool takes machine_type (google provider >= 5.10): a surge upgrade of the
    # nodes, never a delete-first gap, for the system pool (the only untainted one) too.
    changes = {c.name: c for c in diff_plans(base, changed)}
    assert changes["gcp-usc1-pool-cpu"].action == "update"
    assert changes["gcp-usc1-pool-system"].action == "update"


def test_autoscaled_aks_pool_count_is_ignored(base: dict[str, Any]) -> None:
    options = {r["name"]: r["options"] for r in base["resources"]}
    assert options["default-pool-cpu"]["ignoreChanges"] == ["count"]


# --- destroy order ------------------------------------------------------------------------


class Graph:
    """The plan's dependency graph: dependsOn, parent and provider edges."""

    def __init__(self, plan: dict[str, Any]):
        self.by_name = {r["name"]: r for r in plan["resources"]}
        self.by_urn = {r["urn"]: r for r in plan["resources"]}
        self.deps: dict[str, set[str]] = {}
        for r in plan["resources"]:
            edges = set(r["dependsOn"]) | {r["parent"]} | {(r["provider"] or "").rsplit("::", 1)[0]}
            self.deps[r["urn"]] = edges & set(self.by_urn)

    def destroy_order(self) -> list[str]:
        """Names as `pulumi destroy` deletes them: a resource goes once everything that
        depends on it is gone (reverse topological order); one `deletedWith` a resource
        that is deleted too is skipped (marked `~name`)."""
        remaining, order = set(self.by_urn), []
        while remaining:
            ready = sorted(u for u in remaining if not any(u in self.deps[o] for o in remaining if o != u))
            assert ready, "dependency cycle"
            for urn in ready:
                r = self.by_urn[urn]
                order.append(("~" if r["options"]["deletedWith"] else "") + r["name"])
            remaining -= set(ready)
        return order

    def ancestors(self, name: str) -> set[str]:
        seen: set[str] = set()
        todo = [self.by_name[name]["urn"]]
        while todo:
            for dep in self.deps[todo.pop()]:
                if dep not in seen:
                    seen.add(dep)
                    todo.append(dep)
        return {self.by_urn[u]["name"] for u in seen}


@pytest.fixture(scope="module")
def graph() -> Graph:
    return Graph(recorded("example", stack_values("example")).to_json())


def position(order: list[str], name: str) -> int:
    return order.index(name)


@pytest.mark.parametrize(
    ("resource", "cluster", "network"),
    [("aws-usw2", "aws-usw2-eks", "aws-usw2-vpc"), ("gcp-usc1", "gcp-usc1-gke", None)],
)
def test_eks_and_gke_delete_the_gateway_before_the_cluster_and_network(
    graph: Graph, resource: str, cluster: str, network: str | None
) -> None:
    order = graph.destroy_order()
    for owner in (f"{resource}-gateway", f"{resource}-envoy-proxy", f"{resource}-gateway-class"):
        assert owner in order, f"{owner} must really be deleted, not deletedWith the cluster"
        ancestors = graph.ancestors(owner)
        # Deleted while the controller runs (it deletes the proxy Service and its load
        # balancer), and before the cluster and the network it depends on.
        assert {f"{resource}-envoy-gateway", cluster} <= ancestors, owner
        assert position(order, owner) < position(order, "~" + f"{resource}-envoy-gateway")
        assert position(order, owner) < position(order, cluster)
        if network:
            assert network in ancestors and position(order, owner) < position(order, network)
    assert graph.by_name[f"{resource}-gateway"]["options"]["deletedWith"] is None


def test_aks_keeps_deleted_with_for_in_cluster_objects(graph: Graph) -> None:
    cluster = graph.by_name["default-aks"]["urn"]
    for name in ("default-gateway", "default-envoy-proxy", "default-envoy-gateway", "default-operator-extension"):
        assert graph.by_name[name]["options"]["deletedWith"] == cluster, name


def test_generic_deletes_the_registration_before_the_operator(graph: Graph) -> None:
    order = graph.destroy_order()
    registration = graph.by_name["onprem-registration"]["urn"]
    # The operator release is not uninstalled by itself when its registration goes too...
    assert graph.by_name["onprem-anyscale-operator"]["options"]["deletedWith"] == registration
    assert "~onprem-anyscale-operator" in order
    # ...its namespace (and the operator's pods with it) goes after the registration,
    # which depends on it.
    assert "onprem-operator-namespace" in graph.ancestors("onprem-registration")
    assert position(order, "onprem-registration") < position(order, "onprem-operator-namespace")


def test_every_registration_is_deleted_before_its_cluster(graph: Graph) -> None:
    order = graph.destroy_order()
    for resource, cluster in (("default", "default-aks"), ("aws-usw2", "aws-usw2-eks"), ("gcp-usc1", "gcp-usc1-gke")):
        assert position(order, f"{resource}-registration") < position(order, cluster)


# --- retention ------------------------------------------------------------------------------


def test_retained_storage_keeps_its_resource_group(graph: Graph) -> None:
    # The example's Azure bucket is created with the default retainOnDelete: true.
    assert graph.by_name["default-storage"]["options"]["retainOnDelete"] is True
    assert graph.by_name["ml-platform-rg"]["options"]["retainOnDelete"] is True


def test_resource_group_is_deleted_when_no_storage_is_retained() -> None:
    values = stack_values("dev")
    for resource in resources_of(values):
        resource.setdefault("storage", {})["retainOnDelete"] = False
    plan = recorded("dev", values)
    groups = plan.of_type("azure-native:resources:ResourceGroup")
    assert [g["options"]["retainOnDelete"] for g in groups] == [False]


def test_registry_has_an_explicit_name_with_a_random_suffix(graph: Graph) -> None:
    registry = graph.by_name["ml-platform-registry"]
    assert registry["inputs"]["registryName"] == "acrmlplatform${ml-platform-registry-suffix.result}"
    suffix = graph.by_name["ml-platform-registry-suffix"]
    assert suffix["inputs"] == {"length": 8, "special": False, "upper": False}


# --- CRDs upgrade with their charts ------------------------------------------------------------


@pytest.fixture(scope="module")
def dev() -> dict[str, Any]:
    return recorded("dev", stack_values("dev")).to_json()


def test_crds_are_their_own_resources_before_the_controllers(dev: dict[str, Any]) -> None:
    by_name = {r["name"]: r for r in dev["resources"]}
    envoy_crds, kuberay_crds = by_name["default-envoy-gateway-crds"], by_name["default-kuberay-crds"]
    assert envoy_crds["type"] == "kubernetes:helm.sh/v4:Chart"
    assert envoy_crds["inputs"] == {
        "chart": "oci://docker.io/envoyproxy/gateway-crds-helm",
        "version": "v1.7.0",
        "values": {
            "crds": {"gatewayAPI": {"enabled": True, "channel": "experimental"}, "envoyGateway": {"enabled": True}}
        },
    }
    assert kuberay_crds["type"] == "kubernetes:yaml/v2:ConfigGroup"
    # The text of the four CRDs of KubeRay 1.7.0 (shipped with the program, nothing downloaded);
    # the plan file holds its digest.
    assert kuberay_crds["inputs"]["yaml"] == condensed(shipped.kuberay_crds("1.7.0"))
    text = recorded("dev", stack_values("dev")).named("default-kuberay-crds")["inputs"]["yaml"]
    assert text == shipped.kuberay_crds("1.7.0") and text.count("\nkind: CustomResourceDefinition\n") == 4
    for release, crds in (("default-envoy-gateway", envoy_crds), ("default-kuberay", kuberay_crds)):
        assert crds["urn"] in by_name[release]["dependsOn"]
        assert by_name[release]["inputs"]["skipCrds"] is True  # Helm leaves them to us


def test_a_version_change_changes_the_crds_in_the_same_update(dev: dict[str, Any]) -> None:
    # KubeRay 1.7.0 -> 1.6.2, the other version whose CRDs ship with the program.
    values = stack_values("dev")
    resources_of(values)[0]["addons"] = {"envoyGateway": {"version": "v1.7.1"}, "kuberay": {"version": "1.6.2"}}
    head = recorded("dev", values)
    changes = {c.name: c for c in diff_plans(dev, head.to_json())}
    for name in ("default-envoy-gateway-crds", "default-kuberay-crds", "default-envoy-gateway", "default-kuberay"):
        assert changes[name].action == "update", name
    assert [p.path for p in changes["default-kuberay-crds"].properties] == ["yaml"]
    assert changes["default-kuberay-crds"].properties[0].new == condensed(shipped.kuberay_crds("1.6.2"))
    # helm-chart/kuberay-operator/crds/ray.io_rayclusters.yaml at kuberay tag v1.6.2 opens the stream
    new = head.named("default-kuberay-crds")["inputs"]["yaml"]
    assert (
        hashlib.sha256(re.split(r"(?m)^(?=---\n)", new)[1].encode()).hexdigest()
        == "1d51d8c4ce065b22c2069af0ebd72ae25f4a6968e5c5f93a3106ba6fc35bcc1d"
    )


def test_crds_are_applied_with_force_and_kept_on_delete() -> None:
    import pulumi

    from components.addons.crds import take_over_crd

    crd = {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "rayjobs.ray.io"},
    }
    args = pulumi.ResourceTransformArgs(
        True, "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition", "rayjobs", crd, pulumi.ResourceOptions()
    )
    result = take_over_crd(args)
    assert result is not None
    assert result.props["metadata"] == {"name": "rayjobs.ray.io", "annotations": {"pulumi.com/patchForce": "true"}}
    assert result.opts.retain_on_delete is True
    other = pulumi.ResourceTransformArgs(
        True, "kubernetes:core/v1:Service", "svc", {"metadata": {}}, pulumi.ResourceOptions()
    )
    assert take_over_crd(other) is None
