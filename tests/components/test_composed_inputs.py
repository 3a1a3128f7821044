"""The inputs other programs compose: the values that only reach a resource property may be
Pulumi Outputs (another resource's ID, a stack reference). The spec checks the rest before
any resource is declared; each such value gets its field's own rules, with the same message,
once it is known. A program passes another resource's Output into each of them and each is
followed into the resource property it must reach."""

from __future__ import annotations

import ast
import copy
import datetime
import re
from pathlib import Path
from typing import Any

import pulumi
import pytest

from components.cloud_args import _checked, from_config, to_config
from config import SpecError, load_spec
from config.deferred import DeferredField, check_known, deferred_fields, input_paths, takes_output
from config.types import Deferred
from preflight.runtime import Plan
from tests.conftest import TODAY
from tests.plans import recorded

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = ROOT / "tests" / "fixtures" / "programs" / "component_composed.py"
TODAY_DATE = datetime.date.fromisoformat(TODAY)


def test_the_composable_inputs_are_the_values_that_only_reach_a_property() -> None:
    """Read from the spec's models (config.types.Deferrable); every other key decides which
    resources exist or what they are named, and stays plain."""
    assert sorted(input_paths()) == [
        ("cloud", "resourceGroup"),
        ("resources", "*", "cluster", "adminGroupObjectIds", "*"),
        ("resources", "*", "cluster", "network", "existingSubnetId"),
        ("resources", "*", "cluster", "podsRangeName"),
        ("resources", "*", "cluster", "servicesRangeName"),
        ("resources", "*", "cluster", "subnetIds", "private", "*"),
        ("resources", "*", "cluster", "subnetIds", "public", "*"),
        ("resources", "*", "cluster", "subnetwork"),
        ("resources", "*", "cluster", "vpcId"),
        ("resources", "*", "project"),
        ("resources", "*", "storage", "bucket"),
    ]
    assert takes_output(("resources", 3, "cluster", "subnetIds", "private", 1))
    # Names that build other names, and keys that decide resources, do not.
    for loc in (
        ("cloud", "name"),
        ("resources", 0, "name"),
        ("resources", 1, "cluster", "accessEntries", 0, "principalArn"),
    ):
        assert not takes_output(loc)


# --- the spec with values known only at deploy time ---------------------------------------

CLOUD = {"name": "c", "location": "eastus2", "resourceGroup": "rg-c"}
AZURE = {"name": "default", "provider": "Azure", "region": "eastus2"}
AWS = {
    "name": "eks",
    "provider": "AWS",
    "region": "us-east-1",
    "cluster": {
        "vpcId": "vpc-0a1b2c3d4e5f67890",
        "subnetIds": {"private": ["subnet-0a1b2c3d4e5f60001", "subnet-0a1b2c3d4e5f60002"]},
    },
}
GCP = {"name": "gke", "provider": "GCP", "region": "us-central1", "project": "ml-platform-1"}


def with_output(config: dict[str, Any], path: tuple[Any, ...]) -> dict[str, Any]:
    """`config` ({cloud, resources}) with the value at `path` replaced by an Output of it."""
    changed = copy.deepcopy(config)
    node: Any = changed
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = pulumi.Output.from_input(node[path[-1]])
    return changed


def spec_of(config: dict[str, Any]) -> Any:
    cloud, resources, secrets = to_config(from_config(config["cloud"], config["resources"], None))
    return load_spec(cloud, resources, secrets, today=TODAY_DATE, deploying=True)


def field_at(spec: Any, path: str) -> DeferredField:
    fields = {".".join(str(p) for p in (*f.loc, f.alias)): f for f in deferred_fields(spec)}
    return fields[path]


@pytest.mark.parametrize(
    ("path", "where", "bad"),
    [
        (("cloud", "resourceGroup"), "cloud.resourceGroup", "rg with spaces"),
        (("resources", 1, "cluster", "vpcId"), "resources.1.cluster.vpcId", "vpc-XYZ"),
        (("resources", 1, "cluster", "subnetIds", "private", 0), "resources.1.cluster.subnetIds.private", "sub-1"),
        (("resources", 2, "project"), "resources.2.project", "Project_1"),
    ],
)
def test_a_value_known_later_gets_the_same_rule_and_message(path: tuple[Any, ...], where: str, bad: str) -> None:
    config = {"cloud": CLOUD, "resources": [AZURE, AWS, GCP]}
    spec = spec_of(with_output(config, path))  # accepted unseen; the rest checked now
    field = field_at(spec, where)
    assert all(isinstance(deferred, Deferred) for _, deferred in field.deferred)
    good = copy.deepcopy(config)
    node: Any = good
    for key in path[:-1]:
        node = node[key]
    assert check_known(field, [node[path[-1]]]) == [node[path[-1]]]
    # The broken value: the message load_spec gives for it in a stack file, word for word.
    node[path[-1]] = bad
    with pytest.raises(SpecError) as at_load:
        load_spec(good["cloud"], good["resources"], today=TODAY_DATE, deploying=True)
    with pytest.raises(SpecError) as when_known:
        check_known(field, [bad])
    assert [str(p) for p in when_known.value.problems] == [str(p) for p in at_load.value.problems]


def test_an_item_known_later_is_checked_with_its_list() -> None:
    """Two subnet IDs, one an Output: known as the other's twin, the list's rule breaks."""
    config = with_output(
        {"cloud": CLOUD, "resources": [AZURE, AWS]}, ("resources", 1, "cluster", "subnetIds", "private", 0)
    )
    field = field_at(spec_of(config), "resources.1.cluster.subnetIds.private")
    assert [index for index, _ in field.deferred] == [0]
    with pytest.raises(SpecError) as error:
        check_known(field, ["subnet-0a1b2c3d4e5f60002"])
    assert [str(p) for p in error.value.problems] == [
        "resources[1].cluster.subnetIds.private (eks): needs at least two private subnets, in different availability "
        "zones: EKS requires two zones for the cluster and the node groups"
    ]


def test_a_control_character_known_later_is_refused_as_in_a_file() -> None:
    config = with_output({"cloud": CLOUD, "resources": [AZURE]}, ("cloud", "resourceGroup"))
    field = field_at(spec_of(config), "cloud.resourceGroup")
    with pytest.raises(SpecError) as error:
        check_known(field, ["rg\u202e"])
    assert [str(p) for p in error.value.problems] == [
        "cloud.resourceGroup: contains the control or format character U+202E; remove it"
    ]


def test_a_broken_value_fails_the_deployment_without_a_traceback() -> None:
    """What the resources wait on raises a RunError: the engine prints its message alone."""
    config = with_output({"cloud": CLOUD, "resources": [AZURE, AWS]}, ("resources", 1, "cluster", "vpcId"))
    field = field_at(spec_of(config), "resources.1.cluster.vpcId")
    with pytest.raises(pulumi.RunError) as error:
        _checked(field, ("vpc-1",))
    assert str(error.value).splitlines() == [
        "invalid stack config (1 problem(s)):",
        "resources[1].cluster.vpcId (eks): 'vpc-1' is not a VPC ID: vpc- and 8 or 17 hex digits, e.g. "
        "vpc-0a1b2c3d4e5f67890",
    ]


def test_a_broken_secret_value_is_not_shown() -> None:
    # Given as a secret Output, the value that breaks the rule is named as [secret].
    config = with_output({"cloud": CLOUD, "resources": [AZURE, AWS]}, ("resources", 1, "cluster", "vpcId"))
    field = field_at(spec_of(config), "resources.1.cluster.vpcId")
    with pytest.raises(pulumi.RunError) as error:
        _checked(field, ("vpc-topsecret",), True)
    assert "topsecret" not in str(error.value)
    assert "resources[1].cluster.vpcId (eks): '[secret]' is not a VPC ID" in str(error.value)


def test_an_output_that_decides_resources_is_still_refused() -> None:
    for path in (("resources", 1, "region"), ("cloud", "name"), ("resources", 1, "name")):
        config = with_output({"cloud": CLOUD, "resources": [AZURE, AWS]}, path)
        with pytest.raises(SpecError) as error:
            spec_of(config)
        assert [p.path for p in error.value.problems] == [".".join(map(str, path)).replace(".1.", "[1].")]
        assert "decides which resources are declared" in error.value.problems[0].message


# --- a program composing them ---------------------------------------------------------------


@pytest.fixture(scope="module")
def composed() -> Plan:
    return recorded("composed", {}, program=PROGRAM)


def composed_values() -> dict[str, str]:
    """The program's COMPOSED table (read, not imported: importing the program runs it)."""
    tree = ast.parse(PROGRAM.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["COMPOSED"]:
            table: dict[str, str] = ast.literal_eval(node.value)
            return table
    raise AssertionError("no COMPOSED in the program")


def source(plan: Plan, path: str) -> str:
    n = list(composed_values()).index(path)
    return plan.named(f"src-{n}")["urn"]


def loc_of(path: str) -> tuple[str, ...]:
    """`resources[1].cluster.subnetIds.private[0]` -> (resources, *, cluster, subnetIds, private, *)."""
    return tuple("*" if part.isdigit() else part for part in re.split(r"[.\[\]]+", path) if part)


# config path -> (resource, the property path in its inputs, the value there)
REACHES = {
    "cloud.resourceGroup": [("composed-rg", ("resourceGroupName",))],
    "resources[0].cluster.network.existingSubnetId": [
        ("default-aks", ("agentPoolProfiles", 0, "vnetSubnetID")),
        ("default-pool-cpu", ("vnetSubnetID",)),
        ("default-cluster-network", ("scope",)),
    ],
    "resources[0].cluster.adminGroupObjectIds[0]": [("default-aks", ("aadProfile", "adminGroupObjectIDs", 0))],
    "resources[1].cluster.subnetIds.private[0]": [
        ("eks-eks", ("vpcConfig", "subnetIds", 0)),
        ("eks-system", ("subnetIds", 0)),
    ],
    "resources[1].cluster.subnetIds.public[0]": [("eks-eks", ("vpcConfig", "subnetIds", 2))],
    "resources[2].project": [
        ("gke-gcp", ("project",)),
        ("gke-gke", ("workloadIdentityConfig", "workloadPool")),
        ("gke-node-sa-node", ("project",)),
        ("gke-operator-workload-identity", ("member",)),
    ],
    "resources[2].cluster.subnetwork": [("gke-gke", ("subnetwork",))],
    "resources[2].cluster.podsRangeName": [("gke-gke", ("ipAllocationPolicy", "clusterSecondaryRangeName"))],
    "resources[2].cluster.servicesRangeName": [("gke-gke", ("ipAllocationPolicy", "servicesSecondaryRangeName"))],
    "resources[2].storage.bucket": [("gke-registration", ("properties", "cloudStorageBucketName"))],
}


def value_at(node: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        node = node[key]
    return node


def test_each_composable_input_is_composed() -> None:
    """The program covers every composable input the spec has (a new one needs its case),
    and this module follows each (the VPC ID below, into the outputs)."""
    assert {loc_of(path) for path in composed_values()} == set(input_paths())
    assert {loc_of(path) for path in [*REACHES, "resources[1].cluster.vpcId"]} == set(input_paths())


def test_each_output_reaches_its_resource_property(composed: Plan) -> None:
    values = composed_values()
    for path, places in REACHES.items():
        value = values[path]
        for name, where in places:
            resource = composed.named(name)
            got = value_at(resource["inputs"], where)
            assert value in got, (path, name, where, got)
            # ... from the source resource: its URN is a dependency of the property's resource.
            assert source(composed, path) in resource["dependsOn"], (path, name)
    assert composed.named("gke-gke")["inputs"]["workloadIdentityConfig"]["workloadPool"] == (
        "ml-platform-composed.svc.id.goog"
    )
    # The bucket's grant takes its name, without the scheme.
    grant = composed.named("gke-operator-storage-bucket")
    assert grant["inputs"]["bucket"] == "ml-data-composed"
    assert source(composed, "resources[2].storage.bucket") in grant["dependsOn"]
    assert composed.named("gke-operator-workload-identity")["inputs"]["member"] == (
        "serviceAccount:ml-platform-composed.svc.id.goog[anyscale-operator/anyscale-operator]"
    )


def test_a_vpc_id_reaches_the_aws_resources_outputs(composed: Plan) -> None:
    """An existing VPC's ID is only reported (the cluster takes its subnets)."""
    outputs = [out for urn, out in composed.component_outputs.items() if urn.endswith("EksTarget::eks")]
    assert [out["vpc_id"] for out in outputs] == ["vpc-0a1b2c3d4e5f67890"]
    assert composed.outputs == {"resourceGroupName": "rg-composed"}


def test_an_azure_bucket_known_later_is_checked_against_its_endpoint() -> None:
    """The endpoint's rule that reads the bucket runs again once the bucket is known."""
    storage = {"bucket": "abfss://data@mlstore.dfs.core.windows.net", "endpoint": "https://other.blob.core.windows.net"}
    resource = {**AZURE, "storage": storage}
    with pytest.raises(SpecError) as at_load:
        load_spec(CLOUD, [resource], today=TODAY_DATE, deploying=True)
    config = with_output({"cloud": CLOUD, "resources": [resource]}, ("resources", 0, "storage", "bucket"))
    field = field_at(spec_of(config), "resources.0.storage.bucket")
    with pytest.raises(SpecError) as when_known:
        check_known(field, [storage["bucket"]])
    assert [str(p) for p in when_known.value.problems] == [str(p) for p in at_load.value.problems]
    assert [p.path for p in at_load.value.problems] == ["resources[0].storage.endpoint"]
