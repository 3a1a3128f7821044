"""The component package (provider/): started as the engine starts a Python plugin and asked
for its schema over the provider protocol; and the YAML example, carried in the protocol's
Struct and constructed through the package's provider under the mock runtime, registering
what the stack program registers for the same config."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc  # type: ignore[import-untyped]
import pytest
import yaml
from pulumi.runtime.proto import provider_pb2, provider_pb2_grpc

from preflight.runtime import Plan
from tests.plans import recorded

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_FILE = ROOT / "examples" / "yaml" / "Pulumi.yaml"
PROGRAM = ROOT / "tests" / "fixtures" / "programs" / "component_from_yaml.py"
TOKEN = "anyscale-cloud:index:AnyscaleCloud"
TYPES = "anyscale-cloud:index:"


@pytest.fixture(scope="module")
def schema(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The schema the plugin answers, started as the Python language host runs a plugin:
    `python <folder> <engine address>`, from another directory, without PYTHONPATH."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "provider"), "127.0.0.1:1"],
        cwd=tmp_path_factory.mktemp("elsewhere"),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert process.stdout is not None
        port = process.stdout.readline().decode().strip()  # the provider protocol: its port first
        assert port.isdigit(), process.stderr.read().decode() if process.stderr else port
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = provider_pb2_grpc.ResourceProviderStub(channel)
            reply = stub.GetSchema(provider_pb2.GetSchemaRequest(version=0), timeout=120)
        yield json.loads(reply.schema)
    finally:
        process.terminate()
        process.wait(timeout=30)


def component(schema: dict[str, Any]) -> dict[str, Any]:
    resource: dict[str, Any] = schema["resources"][TOKEN]
    return resource


def type_of(schema: dict[str, Any], name: str) -> dict[str, Any]:
    typed: dict[str, Any] = schema["types"][TYPES + name]
    return typed


def test_the_plugin_names_its_package_and_version(schema: dict[str, Any]) -> None:
    assert schema["name"] == "anyscale-cloud"
    assert schema["version"] == (ROOT / "VERSION").read_text(encoding="utf-8").strip()
    assert list(schema["resources"]) == [TOKEN]
    assert component(schema)["isComponent"] is True
    assert component(schema)["description"].startswith("An Anyscale cloud on Azure")


def test_the_inputs_are_the_stack_config(schema: dict[str, Any]) -> None:
    inputs = component(schema)["inputProperties"]
    assert sorted(inputs) == ["cloud", "resources", "secrets"]
    assert sorted(component(schema)["requiredInputs"]) == ["cloud", "resources"]
    assert inputs["cloud"]["$ref"] == "#/types/anyscale-cloud:index:CloudConfig"
    assert inputs["resources"]["type"] == "array"
    assert inputs["resources"]["items"]["$ref"] == "#/types/anyscale-cloud:index:CloudResourceConfig"
    assert inputs["secrets"]["additionalProperties"]["$ref"] == "#/types/anyscale-cloud:index:ResourceSecretsConfig"
    cloud = type_of(schema, "CloudConfig")
    assert sorted(cloud["properties"]) == [
        "adopt",
        "apiVersion",
        "location",
        "name",
        "protect",
        "registrySku",
        "resourceGroup",
        "tags",
    ]
    assert sorted(cloud["required"]) == ["location", "name", "resourceGroup"]
    assert cloud["properties"]["protect"]["type"] == "boolean"
    assert cloud["properties"]["tags"] == {
        "type": "object",
        "additionalProperties": {"type": "string", "plain": True, "description": "tags on the Azure resources"},
        "plain": True,
        "description": "tags on the Azure resources",
    }
    assert cloud["properties"]["resourceGroup"]["description"] == (
        "the Azure resource group, created by the program (or adopted: `adopt.resourceGroup`)"
    )
    assert cloud["properties"]["adopt"]["$ref"] == "#/types/anyscale-cloud:index:CloudAdoptConfig"


def test_secrets_and_property_values_take_outputs(schema: dict[str, Any]) -> None:
    """The structure is plain (it decides the resources); a secret, and a value that only
    reaches a resource property, may be an Output."""
    resource = type_of(schema, "CloudResourceConfig")["properties"]
    for key in ("kubeconfig", "cliToken", "project"):
        assert "plain" not in resource[key], key
        assert resource[key]["type"] == "string"
    credentials = type_of(schema, "CredentialsConfig")["properties"]
    assert "plain" not in credentials["accessKeyId"] and "plain" not in credentials["secretAccessKey"]
    for key in ("name", "provider", "region", "enableApis", "cluster", "storage"):
        assert resource[key]["plain"] is True, key
    cluster = type_of(schema, "ClusterConfig")["properties"]
    inputs = sorted(key for key, prop in cluster.items() if not prop.get("plain"))
    assert inputs == ["podsRangeName", "servicesRangeName", "subnetwork", "vpcId"]
    # A list of IDs: the list is plain (its length is known), each ID may be an Output.
    for owner, key in (("ClusterConfig", "adminGroupObjectIds"), ("SubnetIdsConfig", "private")):
        prop = type_of(schema, owner)["properties"][key]
        assert prop["plain"] is True and "plain" not in prop["items"], key
    assert "plain" not in type_of(schema, "CloudConfig")["properties"]["resourceGroup"]
    for key in ("name", "location", "protect", "registrySku", "tags"):
        assert type_of(schema, "CloudConfig")["properties"][key]["plain"] is True, key
    assert sorted(type_of(schema, "CloudResourceConfig")["required"]) == ["name", "provider", "region"]


def test_a_field_of_some_providers_says_which(schema: dict[str, Any]) -> None:
    resource = type_of(schema, "CloudResourceConfig")["properties"]
    assert resource["project"]["description"].startswith("GCP only: ")
    assert resource["gatewayAddress"]["description"].startswith("Generic only: ")
    cluster = type_of(schema, "ClusterConfig")["properties"]
    # AKS's network is an object of settings, GKE's a VPC name: one key of no one type.
    assert cluster["network"]["$ref"] == "pulumi.json#/Any"
    assert cluster["network"]["description"].startswith("Azure: the nodes' network")
    assert "; GCP: an existing VPC" in cluster["network"]["description"]


def test_the_outputs_are_documented(schema: dict[str, Any]) -> None:
    outputs = component(schema)["properties"]
    assert sorted(outputs) == [
        "cloudId",
        "cloudResources",
        "consoleUrl",
        "kubeconfigs",
        "provisioningState",
        "registryId",
        "resourceGroupName",
    ]
    assert outputs["consoleUrl"]["description"] == (
        "the cloud's console sign-in URL (the clouds record's read-only `ssoUrl`)"
    )
    per_resource = type_of(schema, "CloudResourceOutputs")
    assert outputs["cloudResources"]["additionalProperties"]["$ref"] == (
        "#/types/anyscale-cloud:index:CloudResourceOutputs"
    )
    assert sorted(per_resource["properties"]) == [
        "bucketEndpoint",
        "bucketUri",
        "cloudResourceId",
        "clusterId",
        "clusterName",
        "gatewayAddress",
        "oidcIssuer",
        "operatorClientId",
        "operatorPrincipalId",
        "operatorRoleArn",
        "operatorServiceAccountEmail",
        "provider",
        "region",
    ]
    assert sorted(per_resource["required"]) == [
        "bucketEndpoint",
        "bucketUri",
        "cloudResourceId",
        "gatewayAddress",
        "provider",
        "region",
    ]
    assert outputs["kubeconfigs"]["additionalProperties"]["type"] == "string"


def test_every_property_has_a_description(schema: dict[str, Any]) -> None:
    missing = [
        f"{name}.{key}"
        for name, typed in schema["types"].items()
        for key, prop in typed.get("properties", {}).items()
        if not prop.get("description")
    ]
    missing += [f"{TOKEN}.{key}" for key, prop in component(schema)["properties"].items() if not prop["description"]]
    assert missing == []


# --- the YAML example, constructed as the provider host constructs it -----------------------


def example() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(EXAMPLE_FILE.read_text(encoding="utf-8"))
    return loaded


def test_the_example_uses_the_package_at_the_projects_version() -> None:
    version = (ROOT / "VERSION").read_text(encoding="utf-8").strip()
    doc = example()
    assert doc["runtime"] == "yaml"
    # The folder as it is at that release's tag: `package/` until 0.1.0, `provider/` after.
    folder = "package" if version == "0.1.0" else "provider"
    assert doc["packages"] == {"anyscale-cloud": f"github.com/anyscale/anyscale-cloud/{folder}@v{version}"}
    assert doc["resources"]["cloud"]["type"] == "anyscale-cloud:AnyscaleCloud"
    assert doc["config"]["onpremKubeconfig"] == {"type": "string", "secret": True}


def check_against_schema(value: Any, prop: dict[str, Any], schema: dict[str, Any], path: str) -> list[str]:
    """What the YAML runtime checks of a property before the plugin sees it: types, required
    and unknown keys. A `${...}` reference stands for a value of any type."""
    if isinstance(value, str) and re.fullmatch(r"\$\{[^}]+\}", value):
        return []
    ref = prop.get("$ref", "")
    if ref == "pulumi.json#/Any":
        return []
    if ref:
        typed = schema["types"][ref.removeprefix("#/types/")]
        if "enum" in typed:
            allowed = [choice["value"] for choice in typed["enum"]]
            return [] if value in allowed else [f"{path}: not one of {allowed}"]
        if not isinstance(value, dict):
            return [f"{path}: not an object"]
        problems = [f"{path}.{key}: unknown" for key in value if key not in typed["properties"]]
        problems += [f"{path}.{key}: required" for key in typed.get("required", []) if key not in value]
        for key, child in value.items():
            if key in typed["properties"]:
                problems += check_against_schema(child, typed["properties"][key], schema, f"{path}.{key}")
        return problems
    kind = prop.get("type")
    if kind == "array":
        if not isinstance(value, list):
            return [f"{path}: not a list"]
        return [
            p for i, item in enumerate(value) for p in check_against_schema(item, prop["items"], schema, f"{path}[{i}]")
        ]
    if kind == "object":
        if not isinstance(value, dict):
            return [f"{path}: not a map"]
        return [
            p
            for key, child in value.items()
            for p in check_against_schema(child, prop["additionalProperties"], schema, f"{path}.{key}")
        ]
    python = {"string": str, "boolean": bool, "integer": int, "number": (int, float)}[kind]
    return [] if isinstance(value, python) else [f"{path}: not a {kind}"]


def test_the_example_fits_the_schema(schema: dict[str, Any]) -> None:
    properties = example()["resources"]["cloud"]["properties"]
    inputs = component(schema)["inputProperties"]
    problems = [p for key, value in properties.items() for p in check_against_schema(value, inputs[key], schema, key)]
    assert problems == []
    # ... and the check sees a mistake.
    broken = {**properties, "cloud": {**properties["cloud"], "resource_group": "rg"}}
    found = [p for key, value in broken.items() for p in check_against_schema(value, inputs[key], schema, key)]
    assert found == ["cloud.resource_group: unknown"]


@pytest.fixture(scope="module")
def constructed() -> Plan:
    return recorded("yaml", {}, program=PROGRAM)


@pytest.fixture(scope="module")
def stack_program() -> Plan:
    """The stack program on the same config, its secrets given in the stack file."""
    properties = example()["resources"]["cloud"]["properties"]
    resources = json.loads(
        json.dumps(properties["resources"])
        .replace("${onpremKubeconfig}", "SENTINEL-kubeconfig-from-yaml")
        .replace("${onpremCliToken}", "SENTINEL-token-from-yaml")
    )
    return recorded("yaml", {"anyscale-cloud:cloud": properties["cloud"], "anyscale-cloud:resources": resources})


def test_the_component_registers_what_the_stack_program_does(constructed: Plan, stack_program: Plan) -> None:
    assert len(constructed.resources) == len(stack_program.resources) > 30
    by_urn = {r["urn"]: r for r in constructed.to_json()["resources"]}
    assert by_urn == {r["urn"]: r for r in stack_program.to_json()["resources"]}
    assert constructed.outputs == stack_program.outputs


def test_the_components_state_is_its_outputs(constructed: Plan) -> None:
    outputs = constructed.outputs
    assert outputs["consoleUrl"] == "${ml-platform-yaml-cloud.properties.ssoUrl}"
    assert outputs["resourceGroupName"] == "rg-ml-platform-yaml"
    assert outputs["kubeconfigs"] == {"default": "[secret]", "onprem": "[secret]"}
    assert outputs["cloudResources"]["default"]["clusterName"] == "aks-ml-platform-yaml-default"
    assert outputs["cloudResources"]["default"]["operatorPrincipalId"] == "${default-operator-identity.principalId}"
    assert outputs["cloudResources"]["onprem"] == {
        "provider": "Generic",
        "region": "dc1-rack7",
        "cloudResourceId": "${onprem-registration.properties.cloudResourceId}",
        "bucketUri": "s3://ray-data",
        "bucketEndpoint": "https://minio.dc1.example.com",
        "gatewayAddress": "${onprem-gateway.status.addresses[0].value}",
    }


def test_secrets_given_as_outputs_stay_secret(constructed: Plan) -> None:
    text = json.dumps(constructed.to_json())
    assert "SENTINEL" not in text
    assert constructed.named("onprem-k8s")["inputs"]["kubeconfig"] == "[secret]"
    values = constructed.named("onprem-anyscale-operator")["inputs"]["values"]
    assert values["global"]["auth"]["anyscaleCliToken"] == "[secret]"


def test_bad_arguments_are_refused_before_any_resource_with_the_specs_messages() -> None:
    from pulumi.provider.experimental.component import ComponentInitError

    from components.cloud import AnyscaleCloud
    from components.package_provider import AnyscaleCloudProvider

    provider = AnyscaleCloudProvider([AnyscaleCloud], "anyscale-cloud", None, "0.0.0")
    properties = example()["resources"]["cloud"]["properties"]
    broken = {
        "cloud": {**properties["cloud"], "location": "mars-north1"},
        "resources": [{"name": "default", "provider": "AWS", "region": "us-east-1"}],
    }
    with pytest.raises(ComponentInitError) as error:
        provider.construct("c", TOKEN, broken, None)
    assert str(error.value.inner).splitlines() == [
        "invalid stack config (2 problem(s)):",
        "cloud.location: 'mars-north1' is not a known Azure region (see config/data/regions.py); did you mean 'uaenorth'?",
        "resources[0].provider (default): the first cloud resource must have provider Azure (AKS): the platform "
        "refuses 'The first cloud resource on cloud <id> must have provider AZURE'",
    ]


# --- the schema as other languages read it -------------------------------------------------

METASCHEMA = ROOT / "tests" / "fixtures" / "pulumi" / "package-metaschema.json"


def metaschema() -> dict[str, Any]:
    """Pulumi's package metaschema (tests/fixtures/pulumi/README.md says where it is from).
    Its patterns are ECMA-262, as JSON Schema's are; Python's `re` spells a named group
    `(?P<name>...)`, which is the one construct of them it reads differently."""
    loaded: dict[str, Any] = json.loads(METASCHEMA.read_text(encoding="utf-8").replace("(?<", "(?P<"))
    return loaded


def test_the_schema_is_a_pulumi_package_schema(schema: dict[str, Any]) -> None:
    import jsonschema

    validator = jsonschema.Draft202012Validator(metaschema())
    assert [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(schema)] == []
    # ... and the validator sees a broken one.
    broken = json.loads(json.dumps(schema))
    broken["types"][TYPES + "CapacityType"]["enum"][0] = {"name": "OnDemand"}
    broken["resources"][TOKEN]["inputProperties"]["cloud"]["secret"] = "yes"
    assert len(list(validator.iter_errors(broken))) == 2


def test_every_secret_is_marked_secret(schema: dict[str, Any]) -> None:
    marked = sorted(
        f"{name.removeprefix(TYPES)}.{key}"
        for name, typed in schema["types"].items()
        for key, prop in typed.get("properties", {}).items()
        if prop.get("secret")
    )
    assert marked == [
        "CloudResourceConfig.cliToken",
        "CloudResourceConfig.kubeconfig",
        "CredentialsConfig.accessKeyId",
        "CredentialsConfig.secretAccessKey",
        "CredentialsSecretsConfig.accessKeyId",
        "CredentialsSecretsConfig.secretAccessKey",
        "ResourceSecretsConfig.cliToken",
        "ResourceSecretsConfig.kubeconfig",
    ]
    outputs = component(schema)["properties"]
    assert [key for key, prop in outputs.items() if prop.get("secret")] == ["kubeconfigs"]
    assert not any(prop.get("secret") for prop in component(schema)["inputProperties"].values())


def test_closed_sets_are_enum_types(schema: dict[str, Any]) -> None:
    def values(name: str) -> list[Any]:
        typed = type_of(schema, name)
        assert typed["type"] == "string"
        return [choice["value"] for choice in typed["enum"]]

    assert values("Provider") == ["Azure", "AWS", "GCP", "Generic"]
    assert values("CapacityType") == ["ON_DEMAND", "SPOT"]
    assert values("SkuTier") == ["Free", "Standard", "Premium"]
    assert values("RegistrySku") == ["Basic", "Standard", "Premium"]
    assert values("ReleaseChannel") == ["RAPID", "REGULAR", "STABLE", "EXTENDED"]
    assert values("BatchScheduler") == ["none", "volcano", "yunikorn", "kueue", "scheduler-plugins", "kai"]
    resource = type_of(schema, "CloudResourceConfig")["properties"]
    assert resource["provider"]["$ref"] == "#/types/anyscale-cloud:index:Provider"
    assert "type" not in resource["provider"]
    pool = type_of(schema, "NodePoolConfig")["properties"]
    assert pool["capacityType"]["$ref"] == "#/types/anyscale-cloud:index:CapacityType"
    cluster = type_of(schema, "ClusterConfig")["properties"]
    assert cluster["skuTier"]["$ref"] == "#/types/anyscale-cloud:index:SkuTier"


def test_the_enum_values_are_the_specs() -> None:
    """One source: the values are the models' Literals, so a new choice reaches the schema."""
    from typing import get_args

    from config.aks import AksClusterSpec
    from config.pools import NodePoolSpec
    from config.typed_args import closed_sets

    sets = closed_sets()
    assert sets[("ClusterConfig", "skuTier")] == get_args(AksClusterSpec.model_fields["sku_tier"].annotation)
    assert sets[("NodePoolConfig", "capacityType")] == get_args(NodePoolSpec.model_fields["capacity_type"].annotation)


REPOSITORY_WORDS = re.compile(
    r"\b(config|policy|components|spec|stacks|docs)/[\w/.-]+\.(py|json|yaml)\b|platform\.md|pulumi config "
)


def test_descriptions_speak_to_a_component_user(schema: dict[str, Any]) -> None:
    found: list[str] = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            text = node.get("description")
            if isinstance(text, str) and REPOSITORY_WORDS.search(text):
                found.append(f"{where}: {text}")
            for key, child in node.items():
                walk(child, f"{where}.{key}")
        elif isinstance(node, list):
            for index, child in enumerate(node):
                walk(child, f"{where}[{index}]")

    walk(schema, "")
    assert found == []
    resource = type_of(schema, "CloudResourceConfig")["properties"]
    assert resource["kubeconfig"]["description"] == "Generic only: a Pulumi secret"
    pool = type_of(schema, "NodePoolConfig")
    assert pool["description"] == "A worker pool. Tainted so that only Anyscale workloads land on it."


def test_each_language_has_the_packages_own_name(schema: dict[str, Any]) -> None:
    language = schema["language"]
    assert language["nodejs"]["packageName"] == "@anyscale-cloud/anyscale-cloud"
    assert language["python"]["packageName"] == "anyscale_cloud"
    assert language["go"]["importBasePath"] == "github.com/anyscale/anyscale-cloud/sdk/go/anyscalecloud"
    assert language["csharp"]["rootNamespace"] == "AnyscaleCloud"
    assert language["java"]["basePackage"] == "io.github.anyscale"
    assert "pulumi" not in json.dumps(language).lower()
    # Each block is what Pulumi's codegen reads for that language (the metaschema's own
    # definitions, which its top level does not apply to `language`).
    import jsonschema

    definitions = metaschema()
    for name in ("nodejs", "python", "go", "csharp", "java"):
        spec = {"$ref": f"#/$defs/{name}LanguageSpec", "$defs": definitions["$defs"]}
        problems = [e.message for e in jsonschema.Draft202012Validator(spec).iter_errors(language[name])]
        assert problems == [], name
        known = definitions["$defs"][f"{name}LanguageSpec"]["properties"]
        assert set(language[name]) <= set(known), name
