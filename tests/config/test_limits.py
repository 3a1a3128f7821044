"""Every limit of the spec, the platform rules and the derived names, tested at
the exact limit on both sides (the last accepted value and the first refused one), so that
an off-by-one in either direction fails. Limits are literals with their source."""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from typing import Any

import pytest

from config import names
from policy.rules import platform
from tests.conftest import stack_values
from tests.example_spec import spec_problems

EXAMPLE = stack_values("example")
Edit = Callable[[dict[str, Any], list[dict[str, Any]]], None]


def problems(edit: Edit) -> list[str]:
    """The spec's problems with the example stack after `edit(cloud, resources)`."""
    cloud = copy.deepcopy(EXAMPLE["anyscale-cloud:cloud"])
    resources = copy.deepcopy(EXAMPLE["anyscale-cloud:resources"])
    edit(cloud, resources)
    return spec_problems(cloud, resources)


def aks_cluster(**cluster: Any) -> Edit:
    def edit(_: dict[str, Any], resources: list[dict[str, Any]]) -> None:
        resources[0]["cluster"].update(cluster)

    return edit


def aks_pool(**pool: Any) -> Edit:
    """The example's first AKS pool (cpu, Standard_D16s_v5, 0-10) with `pool` changed."""

    def edit(_: dict[str, Any], resources: list[dict[str, Any]]) -> None:
        resources[0]["cluster"]["nodePools"][0].update(pool)

    return edit


def eks_cluster(**cluster: Any) -> Edit:
    def edit(_: dict[str, Any], resources: list[dict[str, Any]]) -> None:
        resources[1].setdefault("cluster", {}).update(cluster)

    return edit


def eks_pool(**pool: Any) -> Edit:
    base = {"name": "cpu", "instanceType": "m6i.4xlarge", "minCount": 0, "maxCount": 10}
    return eks_cluster(nodePools=[{**base, **pool}])


def generic(**fields: Any) -> Edit:
    def edit(_: dict[str, Any], resources: list[dict[str, Any]]) -> None:
        resources[3].update(fields)

    return edit


def cloud(**fields: Any) -> Edit:
    def edit(c: dict[str, Any], _: list[dict[str, Any]]) -> None:
        c.update(fields)

    return edit


POOL0 = "resources[0].cluster.nodePools[0]"
EKS = "resources[1].cluster"
RANGES = [f"203.0.113.{i}/32" for i in range(201)]
GROUPS = [f"8f3b5a9e-7c21-4d0e-9a6b-{i:012x}" for i in range(11)]

# (what, the last accepted edit, the first refused edit, the config path the refusal names)
CASES: list[tuple[str, Edit, Edit, str]] = [
    # platform.md 7 and 9.3: AKS Linux pool names are at most 12 lowercase letters/digits.
    ("AKS pool name 12/13", aks_pool(name="a" * 12), aks_pool(name="a" * 13), f"{POOL0}.name"),
    # A fixed-size pool: min = max is a pool without autoscaling range, and fine.
    ("pool min = max", aks_pool(minCount=4, maxCount=4), aks_pool(minCount=5, maxCount=4), POOL0),
    ("pool minCount 0/-1", aks_pool(minCount=0), aks_pool(minCount=-1), f"{POOL0}.minCount"),
    ("pool maxCount 1/0", aks_pool(minCount=0, maxCount=1), aks_pool(minCount=0, maxCount=0), f"{POOL0}.maxCount"),
    ("pool maxCount 1000/1001", aks_pool(maxCount=1000), aks_pool(maxCount=1001), f"{POOL0}.maxCount"),
    ("pool minCount 1000/1001", aks_pool(minCount=1000, maxCount=1000), aks_pool(minCount=1001), f"{POOL0}.minCount"),
    ("pool disk 30/29 GB", aks_pool(diskSizeGb=30), aks_pool(diskSizeGb=29), f"{POOL0}.diskSizeGb"),
    # The AKS API's osDiskSizeGB allows 0-2048 (containerservice AgentPool, bicep-types-az);
    # EKS/GKE root volumes go to 16384 (EBS gp3's 16 TiB).
    ("AKS pool disk 2048/2049 GB", aks_pool(diskSizeGb=2048), aks_pool(diskSizeGb=2049), f"{POOL0}.diskSizeGb"),
    (
        "EKS pool disk 16384/16385 GB",
        eks_pool(diskSizeGb=16384),
        eks_pool(diskSizeGb=16385),
        f"{EKS}.nodePools[0].diskSizeGb",
    ),
    # Worker pool names elsewhere: 1-40 (GKE's pool name limit, the tightest of EKS/GKE).
    ("EKS pool name 40/41", eks_pool(name="a" * 40), eks_pool(name="a" * 41), f"{EKS}.nodePools[0].name"),
    (
        "system pool min = max",
        eks_cluster(systemPool={"minCount": 2, "maxCount": 2}),
        eks_cluster(systemPool={"minCount": 3, "maxCount": 2}),
        f"{EKS}.systemPool",
    ),
    (
        "system pool minCount 1/0",
        eks_cluster(systemPool={"minCount": 1}),
        eks_cluster(systemPool={"minCount": 0}),
        f"{EKS}.systemPool.minCount",
    ),
    (
        "system pool maxCount 100/101",
        eks_cluster(systemPool={"maxCount": 100}),
        eks_cluster(systemPool={"maxCount": 101}),
        f"{EKS}.systemPool.maxCount",
    ),
    (
        "EKS availability zones 2/1",
        eks_cluster(availabilityZones=2),
        eks_cluster(availabilityZones=1),
        f"{EKS}.availabilityZones",
    ),
    (
        "EKS availability zones 4/5",
        eks_cluster(availabilityZones=4),
        eks_cluster(availabilityZones=5),
        f"{EKS}.availabilityZones",
    ),
    (
        "AKS authorized IP ranges 200/201",
        aks_cluster(apiServer={"authorizedIpRanges": RANGES[:200]}),
        aks_cluster(apiServer={"authorizedIpRanges": RANGES}),
        "resources[0].cluster.apiServer.authorizedIpRanges",
    ),
    (
        "AKS admin groups 10/11",
        aks_cluster(adminGroupObjectIds=GROUPS[:10]),
        aks_cluster(adminGroupObjectIds=GROUPS),
        "resources[0].cluster.adminGroupObjectIds",
    ),
    # platform.md 1.1: region at most 35 characters (free-form label on Generic).
    ("region 35/36", generic(region="a" * 35), generic(region="a" * 36), "resources[3].region"),
    # platform.md 1.1: names of cloud resources at most 256 characters.
    ("resource name 256/257", generic(name="a" * 256), generic(name="a" * 257), "resources[3].name"),
    ("cloud name 256/257", cloud(name="a" * 256), cloud(name="a" * 257), "cloud.name"),
    # ARM: resource group names are 1-90 characters.
    ("resource group 90/91", cloud(resourceGroup="r" * 90), cloud(resourceGroup="r" * 91), "cloud.resourceGroup"),
]


@pytest.mark.parametrize(("what", "accepted", "refused", "path"), CASES, ids=[c[0] for c in CASES])
def test_spec_limit_on_both_sides(what: str, accepted: Edit, refused: Edit, path: str) -> None:
    assert problems(accepted) == [], what
    found = problems(refused)
    assert len(found) == 1, found
    assert found[0].startswith(path), found[0]


def custom_gpu_pool(count: int, gpus: int) -> Edit:
    """A GPU pool on an instance type the table does not know, sized by its `shape`."""

    def edit(_: dict[str, Any], resources: list[dict[str, Any]]) -> None:
        resources[0]["cluster"]["nodePools"][2] = {
            "name": "gpux",
            "instanceType": "Standard_Custom_X",
            "maxCount": 2,
            "gpu": {"type": "T4", "count": count},
            "shape": {"cpu": 96, "memoryGb": 900, "gpus": gpus},
        }

    return edit


def test_gpu_count_limits() -> None:
    """GPUs per node: 1-16 (the largest VM sizes carry 8), in `gpu.count` and `shape.gpus`."""
    assert problems(custom_gpu_pool(16, 16)) == []
    assert problems(custom_gpu_pool(17, 16)) == [
        "resources[0].cluster.nodePools[2].gpu.count (default): Input should be less than or equal to 16"
    ]
    assert problems(custom_gpu_pool(16, 17)) == [
        "resources[0].cluster.nodePools[2].shape.gpus (default): Input should be less than or equal to 16"
    ]
    (zero,) = problems(custom_gpu_pool(0, 16))
    assert zero.startswith("resources[0].cluster.nodePools[2].gpu.count"), zero


def custom_shape(cpu: int, memory_gb: float) -> Edit:
    def edit(_: dict[str, Any], resources: list[dict[str, Any]]) -> None:
        resources[0]["cluster"]["nodePools"][0] = {
            "name": "cpux",
            "instanceType": "Standard_Custom_Y",
            "maxCount": 2,
            "shape": {"cpu": cpu, "memoryGb": memory_gb},
        }

    return edit


def test_shape_limits() -> None:
    """A custom instance type's shape: 1-1024 vCPUs, up to 32768 GiB (beyond any VM sold)."""
    assert problems(custom_shape(1024, 32768)) == []
    assert problems(custom_shape(1, 0.5)) == []
    at = "resources[0].cluster.nodePools[0].shape"
    assert problems(custom_shape(1025, 32768)) == [f"{at}.cpu (default): Input should be less than or equal to 1024"]
    assert problems(custom_shape(0, 32768)) == [f"{at}.cpu (default): Input should be greater than or equal to 1"]
    assert problems(custom_shape(1024, 32769)) == [
        f"{at}.memoryGb (default): Input should be less than or equal to 32768"
    ]


def test_at_most_100_cloud_resources() -> None:
    """The program's own cap (config/stack.py: a stack from a pull request must not plan for hours)."""

    def resources(count: int) -> Edit:
        def edit(_: dict[str, Any], found: list[dict[str, Any]]) -> None:
            found[3:] = [{**copy.deepcopy(found[3]), "name": f"onprem{i}"} for i in range(count - 3)]

        return edit

    assert problems(resources(100)) == []
    assert problems(resources(101)) == ["resources: List should have at most 100 items after validation, not 101"]


def test_aks_pool_name_message_at_13() -> None:
    """The spec's own rule (not only the derived-name check behind it) refuses 13 characters."""
    assert problems(aks_pool(name="a" * 13)) == [
        "resources[0].cluster.nodePools[0].name (default): 'aaaaaaaaaaaaa' is not a valid AKS node pool name: "
        "at most 12 characters, lowercase letters and digits, starting with a letter"
    ]


# --- the platform rules themselves (policy/rules/platform.py), as the pack applies them ----------


def test_region_rule_at_35() -> None:
    assert platform.region_problem("a" * 35) is None
    assert platform.region_problem("a" * 36) == "must be at most 35 characters (it has 36)"
    assert platform.region_problem("a-" * 17 + "a") is None  # 35 with dashes


def test_name_rule_at_256() -> None:
    assert platform.name_problem("a" * 256) is None
    assert platform.name_problem("a" * 257) == "must be at most 256 characters (it has 257)"
    assert platform.name_problem("a") is None


# --- derived names: the rules not covered by test_names, and truncation at each limit ----------


@pytest.mark.parametrize(
    ("rule", "last_good", "first_bad"),
    [
        ("azure_vnet", ["ab", "a" * 64], ["a", "a" * 65]),  # Azure VNet: 2-64
        ("iam_role", ["a", "a" * 64], ["", "a" * 65]),  # IAM role names: 1-64
        ("gcp_network", ["a", "a" * 63], ["", "a" * 64]),  # GCE resource names: 1-63
    ],
)
def test_more_rule_boundaries(rule: str, last_good: list[str], first_bad: list[str]) -> None:
    for name in last_good:
        assert names.RULES[rule].problem(name) is None, name
    for name in first_bad:
        assert names.RULES[rule].problem(name) is not None, name


@pytest.mark.parametrize(
    ("derive", "prefix", "limit"),
    [
        (names.aks_cluster_name, "aks-c-", 63),  # AKS cluster name 1-63
        (names.aks_dns_prefix, "c-", 54),  # AKS dnsPrefix 1-54
        (names.azure_vnet_name, "vnet-c-", 64),  # VNet 2-64
        (names.eks_cluster_name, "eks-c-", 100),  # EKS cluster 1-100
        (names.gke_cluster_name, "gke-c-", 40),  # GKE cluster 1-40
        (names.gcp_account_id, "anyscale-c-", 30),  # GCP service account ID 6-30
    ],
)
def test_derived_names_truncate_exactly_at_the_limit(
    derive: Callable[[str, str], str], prefix: str, limit: int
) -> None:
    fits = "r" * (limit - len(prefix))
    assert derive("c", fits) == prefix + fits  # exactly the limit: kept whole
    # One more: cut back to the limit, ending in '-' and 6 hex characters of the whole name's sha256.
    digest = hashlib.sha256(f"{prefix}{fits}x".encode()).hexdigest()[:6]
    assert derive("c", fits + "x") == f"{prefix}{fits[:-7]}-{digest}"


def test_storage_account_and_registry_names_at_their_limits() -> None:
    """Storage accounts 3-24, registries 5-50 (platform.md 9.3)."""
    assert len(names.storage_account_name("c" * 40, "r" * 40, "abc123")) == 24
    assert len(names.registry_name("c" * 80, "abc123")) == 50


# --- limits across a whole cluster (config/data/quotas.py) --------------------------------------


def aks_pools(count: int, max_count: int = 1) -> Edit:
    pools = [{"name": f"p{i}", "instanceType": "Standard_D16s_v5", "maxCount": max_count} for i in range(count)]
    return aks_cluster(nodePools=pools)


def test_an_aks_cluster_takes_100_pools_with_the_system_pool_and_no_more() -> None:
    assert problems(aks_pools(99)) == []
    assert problems(aks_pools(100)) == [
        "resources[0].cluster (default): nodePools: 101 pools with the system pool, more than the 100 AKS allows "
        "in a cluster; merge pools"
    ]


def test_an_aks_cluster_takes_5000_nodes_at_maxcount_and_no_more() -> None:
    # The example's system pool: at most 3 nodes; 4,997 more reach 5,000.
    assert (
        problems(
            aks_cluster(
                nodePools=[{"name": "a", "instanceType": "Standard_D16s_v5", "maxCount": 997}]
                + [{"name": f"b{i}", "instanceType": "Standard_D16s_v5", "maxCount": 1000} for i in range(4)]
            )
        )
        == []
    )
    assert problems(aks_pools(6, max_count=1000)) == [
        "resources[0].cluster (default): nodePools: the pools' maxCount add up to 6003 nodes with the system "
        "pool's, more than the 5000 AKS allows in a cluster; lower some maxCount"
    ]


def test_eks_takes_40_public_access_cidrs_and_no_more() -> None:
    cidrs = [f"203.0.{i}.0/24" for i in range(41)]
    base = {"endpointPublicAccess": True, "endpointPrivateAccess": True}
    assert problems(eks_cluster(**base, endpointPublicAccessCidrs=cidrs[:40])) == []
    found = problems(eks_cluster(**base, endpointPublicAccessCidrs=cidrs))
    assert len(found) == 1 and found[0].startswith("resources[1].cluster.endpointPublicAccessCidrs (aws-usw2): ")
    assert "at most 40" in found[0]
