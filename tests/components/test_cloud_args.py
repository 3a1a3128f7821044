"""AnyscaleCloud's typed arguments: generated from the spec (a stale copy fails), converted to
and from the stack config key by key, validated by the spec with the same messages, and
Outputs taken at the places that hold secrets (the values that only reach a resource property
take them too: tests/components/test_composed_inputs.py), refused elsewhere."""

from __future__ import annotations

import copy
import datetime
import typing
from pathlib import Path
from typing import Any

import pulumi
import pytest

from components.cloud_args import camel, from_config, to_config
from config import Secret, SpecError, load_spec
from tests.conftest import TODAY, stack_values

ROOT = Path(__file__).resolve().parents[2]
TODAY_DATE = datetime.date.fromisoformat(TODAY)


def config_of(stack: str) -> tuple[Any, Any, Any]:
    values = stack_values(stack)
    return (
        values["anyscale-cloud:cloud"],
        values["anyscale-cloud:resources"],
        values.get("anyscale-cloud:secrets"),
    )


def test_the_generated_module_names_every_field_of_the_stack_schema() -> None:
    from components import args

    cloud = args.CloudConfig.__annotations__
    assert list(cloud) == [
        "name",
        "location",
        "resource_group",
        "api_version",
        "protect",
        "registry_sku",
        "tags",
        "adopt",
    ]
    assert sorted(args.CloudConfig.__required_keys__) == ["location", "name", "resource_group"]
    resource = args.CloudResourceConfig.__annotations__
    for key in ("kubeconfig", "cli_token", "project", "enable_apis", "gateway_address", "peered_with", "cluster"):
        assert key in resource, key
    pool = args.NodePoolConfig.__annotations__
    assert {"instance_type", "min_count", "max_count", "capacity_type", "gpu"} <= set(pool)


@pytest.mark.parametrize("stack", ["dev", "example"])
def test_config_and_arguments_convert_both_ways(stack: str) -> None:
    cloud, resources, secrets = config_of(stack)
    args = from_config(cloud, resources, secrets)
    assert "resource_group" in args["cloud"] and "resourceGroup" not in args["cloud"]
    back = to_config(args)
    assert back == (cloud, resources, secrets) or back[:2] == (cloud, resources)


def test_map_keys_are_kept_as_given() -> None:
    cloud = {"name": "c", "location": "eastus2", "resourceGroup": "rg", "tags": {"cost_center": "ml", "OwnerTeam": "x"}}
    args = from_config(cloud, [], None)
    assert args["cloud"]["tags"] == {"cost_center": "ml", "OwnerTeam": "x"}
    assert to_config(args)[0]["tags"] == {"cost_center": "ml", "OwnerTeam": "x"}


def test_adoption_keys_convert_both_ways() -> None:
    """`registrationProperties` is a map: its camelCase keys (the platform's) stay as given."""
    from tests.adopt_stack import adopted_values

    values = adopted_values()
    cloud, resources = values["anyscale-cloud:cloud"], values["anyscale-cloud:resources"]
    args = from_config(cloud, resources, None)
    adopt = args["resources"][0]["adopt"]
    assert adopt["operator_extension"].endswith("/extensions/anyscale-operator")
    assert adopt["registration_properties"]["cloudStorageBucketName"] == "abfss://ray@stportal01.dfs.core.windows.net"
    assert to_config(args)[:2] == (cloud, resources)


def test_a_snake_case_key_in_a_stack_file_stays_unknown() -> None:
    """`resource_group` is the Python key, never the stack file's: it must not become valid
    on its way through the arguments."""
    cloud = {"name": "c", "location": "eastus2", "resource_group": "rg"}
    resources = [{"name": "default", "provider": "Azure", "region": "eastus2"}]
    with pytest.raises(SpecError) as direct:
        load_spec(cloud, resources)
    with pytest.raises(SpecError) as through:
        load_spec(*to_config(from_config(cloud, resources, None)))
    assert [str(p) for p in through.value.problems] == [str(p) for p in direct.value.problems]
    assert any("resource_group" in str(p) for p in direct.value.problems)


def test_the_schema_names_are_the_stack_files() -> None:
    assert camel("resource_group") == "resourceGroup"
    assert camel("memory_gi") == "memoryGi"
    assert camel("name") == "name"


def generic(**overrides: Any) -> list[dict[str, Any]]:
    resource: dict[str, Any] = {
        "name": "onprem",
        "provider": "Generic",
        "region": "dc1",
        "kubeconfig": "apiVersion: v1",
        "cliToken": "token",
        "storage": {"bucket": "s3://ray-data", "region": "us-east-1"},
    }
    resource.update(overrides)
    return [{"name": "default", "provider": "Azure", "region": "eastus2"}, resource]


CLOUD = {"name": "c", "location": "eastus2", "resourceGroup": "rg"}


def test_the_declared_sequence_and_mapping_types_are_taken() -> None:
    """AnyscaleCloudArgs says Sequence and Mapping: a tuple of resources or of node pools and a
    read-only mapping of tags (and of chart values) reach the spec as lists and dicts."""
    from types import MappingProxyType

    args = {
        "cloud": MappingProxyType(
            {"name": "c", "location": "eastus2", "resource_group": "rg", "tags": MappingProxyType({"team": "ml"})}
        ),
        "resources": (
            {
                "name": "default",
                "provider": "Azure",
                "region": "eastus2",
                "cluster": {
                    "node_pools": ({"name": "cpu", "instance_type": "Standard_D16s_v5"},),
                    "admin_group_object_ids": ("8e3af657-a8ff-443c-a75c-2fe8c4bcb635",),
                },
                "addons": {"anyscale_operator": {"values": MappingProxyType({"extra": ("a", "b")})}},
            },
        ),
    }
    cloud, resources, _ = to_config(typing.cast(Any, args))
    assert cloud == {"name": "c", "location": "eastus2", "resourceGroup": "rg", "tags": {"team": "ml"}}
    assert resources[0]["cluster"] == {
        "nodePools": [{"name": "cpu", "instanceType": "Standard_D16s_v5"}],
        "adminGroupObjectIds": ["8e3af657-a8ff-443c-a75c-2fe8c4bcb635"],
    }
    assert resources[0]["addons"]["anyscaleOperator"]["values"] == {"extra": ["a", "b"]}
    del resources[0]["addons"]  # `extra` is not a key of the chart: the spec would say so
    spec = load_spec(cloud, resources, today=TODAY_DATE)
    assert [p.name for p in spec.resources[0].cluster.node_pools] == ["cpu"]  # type: ignore[union-attr]
    # A string is not a sequence of resources: the spec says what it is.
    with pytest.raises(SpecError, match=r"resources"):
        load_spec(*to_config(typing.cast(Any, {"cloud": args["cloud"], "resources": "default"}))[:2], today=TODAY_DATE)


def test_an_output_where_a_secret_belongs_is_passed_through() -> None:
    kubeconfig = pulumi.Output.secret("apiVersion: v1")
    resources = generic(kubeconfig=kubeconfig)
    _, converted, _ = to_config(from_config(CLOUD, resources, None))
    assert isinstance(converted[1]["kubeconfig"], Secret)
    assert converted[1]["kubeconfig"].value is kubeconfig
    spec = load_spec(CLOUD, converted, today=TODAY_DATE)
    assert spec.resources[1].kubeconfig.value is kubeconfig  # type: ignore[union-attr]


def test_an_output_in_the_secrets_map_is_passed_through() -> None:
    token = pulumi.Output.secret("token")
    resources = generic()
    del resources[1]["cliToken"]
    _, converted, secrets = to_config(from_config(CLOUD, resources, {"onprem": {"cliToken": token}}))
    assert secrets["onprem"]["cliToken"] == Secret(token)
    spec = load_spec(CLOUD, converted, secrets, today=TODAY_DATE)
    assert spec.resources[1].cli_token.value is token  # type: ignore[union-attr]


def test_an_output_anywhere_else_is_refused_with_its_path() -> None:
    resources = generic(region=pulumi.Output.from_input("dc1"))
    cloud = {**CLOUD, "tags": {"team": pulumi.Output.from_input("ml")}}
    with pytest.raises(SpecError) as error:
        to_config(from_config(cloud, resources, None))
    lines = [str(p) for p in error.value.problems]
    assert [line.split(":")[0] for line in lines] == ["cloud.tags.team", "resources[1].region"]
    assert lines[1] == (
        "resources[1].region: is a Pulumi Output: only secrets may be (kubeconfig, cliToken, the "
        "storage.credentials keys, a value under addons.anyscaleOperator.values, a secret under "
        "secrets.<name>), and the values that only reach a resource property (those the schema marks as "
        "Inputs); this value decides which resources are declared and is checked before any is, so pass it "
        "as a plain value"
    )


@pytest.mark.parametrize(
    "where",
    [
        ("cloud", "tags", "kubeconfig"),  # a secret's key name elsewhere is no secret
        ("resources", 1, "addons", "anyscaleOperator", "values"),  # the whole values map
        ("secrets", "onprem"),  # a resource's whole entry of the map
    ],
)
def test_an_output_is_taken_at_the_secret_paths_only(where: tuple[Any, ...]) -> None:
    from components.cloud_args import holds_secret

    assert not holds_secret(where)
    assert holds_secret(("resources", 1, "kubeconfig"))
    assert holds_secret(("resources", 1, "storage", "credentials", "secretAccessKey"))
    assert holds_secret(("resources", 0, "addons", "anyscaleOperator", "values", "operator", "token"))
    assert holds_secret(("secrets", "onprem", "cliToken"))


def test_both_spellings_of_a_key_in_a_stack_file_are_both_seen() -> None:
    """`resource_group` beside `resourceGroup` must not replace its value on the way."""
    for cloud in (
        {"name": "c", "location": "eastus2", "resourceGroup": "rg-a", "resource_group": "rg-b"},
        {"name": "c", "location": "eastus2", "resource_group": "rg-b", "resourceGroup": "rg-a"},
    ):
        resources = [{"name": "default", "provider": "Azure", "region": "eastus2"}]
        with pytest.raises(SpecError) as direct:
            load_spec(cloud, resources, today=TODAY_DATE)
        with pytest.raises(SpecError) as through:
            load_spec(*to_config(from_config(cloud, resources, None)), today=TODAY_DATE)
        assert [str(p) for p in through.value.problems] == [str(p) for p in direct.value.problems]
        assert [p.path for p in direct.value.problems] == ["cloud.resource_group"]


def test_a_python_caller_giving_both_spellings_is_refused() -> None:
    args: Any = {"cloud": {"name": "c", "location": "eastus2", "resource_group": "rg-a", "resourceGroup": "rg-b"}}
    with pytest.raises(SpecError) as error:
        to_config(args)
    assert str(error.value) == "cloud.resourceGroup: is given twice (once in snake_case): keep one"


def test_numbers_from_the_provider_protocol_are_the_specs_integers() -> None:
    from components.cloud_args import from_inputs

    pools = [{"name": "cpu", "instanceType": "Standard_D16s_v5", "minCount": 0.0, "maxCount": 4.0}]
    inputs = {
        "cloud": CLOUD,
        "resources": [{"name": "default", "provider": "Azure", "region": "eastus2", "cluster": {"nodePools": pools}}],
    }
    _, resources, _ = to_config(from_inputs(inputs))
    pool = resources[0]["cluster"]["nodePools"][0]
    assert (pool["minCount"], pool["maxCount"]) == (0, 4) and type(pool["maxCount"]) is int
    # Only where the field is an integer, and only a whole number.
    inputs["resources"][0]["cluster"]["nodePools"][0]["maxCount"] = 4.5
    with pytest.raises(SpecError) as error:
        load_spec(*to_config(from_inputs(inputs)), today=TODAY_DATE)
    assert [p.path for p in error.value.problems] == ["resources[0].cluster.nodePools[0].maxCount"]
    # The stack program's values are the stack file's: a 4.0 there stays what the spec refuses.
    _, from_file, _ = to_config(
        from_config(
            CLOUD,
            [{"name": "default", "provider": "Azure", "region": "eastus2", "cluster": {"nodePools": [{**pools[0]}]}}],
            None,
        )
    )
    assert type(from_file[0]["cluster"]["nodePools"][0]["maxCount"]) is float


def test_inputs_keep_the_keys_the_schema_does_not_name() -> None:
    """The SDK's own mapping drops them; the spec must see a typo to refuse it."""
    from components.cloud_args import from_inputs

    inputs = {
        "cloud": {**CLOUD, "protekt": False},
        "resources": [{"name": "default", "provider": "Azure", "region": "eastus2"}],
        "extra": 1,
    }
    with pytest.raises(SpecError) as error:
        to_config(from_inputs(inputs))
    assert str(error.value) == "extra: is not an argument of AnyscaleCloud"
    del inputs["extra"]
    with pytest.raises(SpecError) as typo:
        load_spec(*to_config(from_inputs(inputs)), today=TODAY_DATE)
    assert [p.path for p in typo.value.problems] == ["cloud.protekt"]


def test_arguments_nested_too_deeply_are_one_problem() -> None:
    deep: Any = "x"
    for _ in range(3000):
        deep = {"a": deep}
    resources = [{"name": "default", "provider": "Azure", "region": "eastus2", "cluster": {"network": deep}}]
    with pytest.raises(SpecError) as error:
        to_config(from_config(CLOUD, resources, None))
    assert str(error.value) == "args: nest too deeply: a config is a few levels of maps and lists"


def test_arguments_that_are_not_a_map_are_refused() -> None:
    with pytest.raises(SpecError) as error:
        to_config("cloud")  # type: ignore[arg-type]
    assert str(error.value) == "args: must be a map of `cloud`, `resources` and `secrets`"
    with pytest.raises(SpecError) as unknown:
        to_config({"cloud": CLOUD, "resources": [], "extra": 1})  # type: ignore[typeddict-unknown-key]
    assert str(unknown.value) == "extra: is not an argument of AnyscaleCloud"


def test_conversion_leaves_its_input_alone() -> None:
    cloud, resources, secrets = config_of("example")
    before = copy.deepcopy((cloud, resources, secrets))
    to_config(from_config(cloud, resources, secrets))
    assert (cloud, resources, secrets) == before


def test_outputs_inline_and_in_the_secrets_map_together() -> None:
    """Merging the map copies the resources: a secret Output inline must survive the copy."""
    kubeconfig = pulumi.Output.secret("apiVersion: v1")
    token = pulumi.Output.secret("token")
    resources = generic(kubeconfig=kubeconfig)
    del resources[1]["cliToken"]
    spec = load_spec(*to_config(from_config(CLOUD, resources, {"onprem": {"cliToken": token}})), today=TODAY_DATE)
    assert spec.resources[1].kubeconfig.value is kubeconfig  # type: ignore[union-attr]
    assert spec.resources[1].cli_token.value is token  # type: ignore[union-attr]


def test_whole_numbers_in_free_form_values_from_the_wire_are_integers() -> None:
    from components.cloud_args import from_inputs

    values = {"operator": {"replicas": 2.0, "ratio": 0.5, "ports": [80.0, 443.0], "debug": True}}
    resource = {
        "name": "default",
        "provider": "Azure",
        "region": "eastus2",
        "addons": {"anyscaleOperator": {"values": values}},
    }
    _, resources, _ = to_config(from_inputs({"cloud": CLOUD, "resources": [resource]}))
    got = resources[0]["addons"]["anyscaleOperator"]["values"]["operator"]
    assert got == {"replicas": 2, "ratio": 0.5, "ports": [80, 443], "debug": True}
    assert type(got["replicas"]) is int and got["debug"] is True


def test_descriptions_link_the_manual_absolutely() -> None:
    """In a generated SDK's docs a page-relative link is dead."""
    from config.typed_args import DOCS
    from preflight.pack_import import pack_module

    text = (ROOT / "components" / "args.py").read_text(encoding="utf-8")
    assert "](what-it-creates.md" not in text
    assert "](https://github.com/anyscale/anyscale-cloud/blob/main/docs/what-it-creates.md#aks-networks)" in text
    assert f"{pack_module('pack').REPOSITORY}/blob/main/docs/" == DOCS
