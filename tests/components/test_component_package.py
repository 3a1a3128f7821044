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

from preflight.runtime import Plan, run_program

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


def test_only_secrets_take_outputs(schema: dict[str, Any]) -> None:
    """The structure is plain (it decides the resources); a secret may be an Output."""
    resource = type_of(schema, "CloudResourceConfig")["properties"]
    for key in ("kubeconfig", "cliToken"):
        assert "plain" not in resource[key], key
        assert resource[key]["type"] == "string"
    credentials = type_of(schema, "CredentialsConfig")["properties"]
    assert "plain" not in credentials["accessKeyId"] and "plain" not in credentials["secretAccessKey"]
    for key in ("name", "provider", "region", "project"):
        assert resource[key]["plain"] is True, key
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
    return run_program("yaml", {}, program=PROGRAM)


@pytest.fixture(scope="module")
def stack_program() -> Plan:
    """The stack program on the same config, its secrets given in the stack file."""
    properties = example()["resources"]["cloud"]["properties"]
    resources = json.loads(
        json.dumps(properties["resources"])
        .replace("${onpremKubeconfig}", "SENTINEL-kubeconfig-from-yaml")
        .replace("${onpremCliToken}", "SENTINEL-token-from-yaml")
    )
    return run_program("yaml", {"anyscale-cloud:cloud": properties["cloud"], "anyscale-cloud:resources": resources})


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
