"""The AKS primary end to end under mocks: exact registrations and the wiring."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from components.addons.gateway import certificate_secret_names
from preflight.policy import pack_module
from preflight.runtime import Plan
from tests.conftest import stack_values
from tests.plans import recorded
from tests.raw_inputs import Raw, run_raw

ROOT = Path(__file__).resolve().parents[2]
# The chart's keys, as the policy pack keeps them (tests/policy/test_clusters.py checks that copy
# against the list in tests/fixtures/reference).
CHART_KEYS = pack_module("rules.chart_keys").TEMPLATE_KEYS


def two_azure_values() -> dict[str, Any]:
    values = stack_values("dev")
    values["anyscale-cloud:resources"].append({"name": "westeu", "provider": "Azure", "region": "westeurope"})
    return values


@pytest.fixture(scope="module")
def raw() -> Raw:
    """The run, with the clear text of secret inputs (the plan shows "[secret]")."""
    return run_raw("test", two_azure_values())


@pytest.fixture(scope="module")
def plan(raw: Raw) -> Plan:
    return raw.plan


def inputs(plan: Plan, name: str) -> dict[str, Any]:
    return plan.named(name)["inputs"]


def test_cloud_record(plan: Plan) -> None:
    record = inputs(plan, "ml-platform-dev-cloud")
    assert record == {
        "resourceProviderNamespace": "Anyscale.Platform",
        "parentResourcePath": "",
        "resourceType": "clouds",
        "resourceName": "ml-platform-dev",
        "apiVersion": "2026-09-01",
        "resourceGroupName": "rg-ml-platform-dev",
        "location": "eastus2",
        "properties": {"acrResourceId": "${ml-platform-dev-registry.id}"},
        "tags": {},
    }


def test_registration_properties_exact(plan: Plan) -> None:
    registration = inputs(plan, "default-registration")
    account = "asmlplatformdevdef${default-storage-suffix.result}"
    assert registration == {
        "resourceProviderNamespace": "Anyscale.Platform",
        "parentResourcePath": "clouds/ml-platform-dev",
        "resourceType": "cloudResources",
        "resourceName": "default",
        "apiVersion": "2026-09-01",
        "resourceGroupName": "rg-ml-platform-dev",
        "location": "eastus2",
        "properties": {
            "provider": "Azure",
            "computeStack": "K8S",
            "region": "eastus2",
            "cloudStorageBucketName": f"abfss://anyscale@{account}.dfs.core.windows.net",
            # The mock answers the real shape, with a trailing "/": it must be trimmed.
            "cloudStorageBucketEndpoint": f"https://{account}.blob.core.windows.net",
            "cloudStorageBucketRegion": "eastus2",
            "anyscaleOperatorIamIdentity": "${default-operator-identity.principalId}",
        },
    }
    options = plan.named("default-registration")["options"]
    # What the platform fixes (platform.md 1.1/1.2), and not apiVersion.
    assert options["replaceOnChanges"] == [
        "resourceName",
        "location",
        "parentResourcePath",
        "resourceGroupName",
        "resourceProviderNamespace",
        "resourceType",
        "properties.provider",
        "properties.computeStack",
        "properties.region",
        "properties.cloudStorageBucketName",
        "properties.cloudStorageBucketEndpoint",
        "properties.cloudStorageBucketRegion",
        "properties.anyscaleOperatorIamIdentity",
    ]
    assert options["deleteBeforeReplace"] is True


def test_principal_id_to_registration_client_id_to_operator(plan: Plan) -> None:
    settings = inputs(plan, "default-operator-extension")["configurationSettings"]
    assert settings["global.auth.iamIdentity"] == "${default-operator-identity.clientId}"
    assert inputs(plan, "default-registration")["properties"]["anyscaleOperatorIamIdentity"] == (
        "${default-operator-identity.principalId}"
    )


def test_operator_extension(plan: Plan) -> None:
    ext = inputs(plan, "default-operator-extension")
    assert ext["extensionType"] == "Anyscale.AKS.Operator"
    assert ext["releaseTrain"] == "stable"
    assert ext["plan"] == {
        "name": "anyscale-operator",
        "publisher": "anyscale1750870039553",
        "product": "anyscale-operator-aks",
    }
    assert ext["clusterName"] == "aks-ml-platform-dev-default"
    assert ext["clusterRp"] == "Microsoft.ContainerService" and ext["clusterResourceName"] == "managedClusters"
    assert ext["configurationProtectedSettings"] == "[secret]"
    assert ext["configurationSettings"] == {
        "global.cloudDeploymentId": "${default-registration.properties.cloudResourceId}",
        "global.cloudProvider": "azure",
        "global.controlPlaneURL": "https://console.azure.anyscale.com",
        "global.auth.iamIdentity": "${default-operator-identity.clientId}",
        "global.auth.audience": "api://086bc555-6989-4362-ba30-fded273e432b/.default",
        "networking.gateway.enabled": "true",
        "networking.gateway.name": "gateway",
        "networking.gateway.namespace": "anyscale-operator",
        "networking.gateway.apiVersion": "gateway.networking.k8s.io/v1",
        "networking.gateway.ip": "${default-gateway.status.addresses[0].value}",
        "operator.serviceAccount.name": "anyscale-operator",
        "workloads.serviceAccount.name": "anyscale-workloads",
        # The D16s_v5 pools' operator instance type (16 vCPU / 64 GiB less the reserve),
        # as Helm --set paths: the label key's dots escaped.
        "workloads.instanceTypes.additional.15CPU-56GB.resources.CPU": "15",
        "workloads.instanceTypes.additional.15CPU-56GB.resources.memory": "56Gi",
        "workloads.instanceTypes.additional.15CPU-56GB.nodeSelector.node\\.kubernetes\\.io/instance-type": "Standard_D16s_v5",
        # The chart's defaults less 8CPU-32GB-1xT4 (values.yaml 182-205: `additional` replaces them).
        "workloads.instanceTypes.enableDefaults": "false",
        "workloads.instanceTypes.additional.2CPU-8GB.resources.CPU": "2",
        "workloads.instanceTypes.additional.2CPU-8GB.resources.memory": "8Gi",
        "workloads.instanceTypes.additional.4CPU-16GB.resources.CPU": "4",
        "workloads.instanceTypes.additional.4CPU-16GB.resources.memory": "16Gi",
        "workloads.instanceTypes.additional.8CPU-32GB.resources.CPU": "8",
        "workloads.instanceTypes.additional.8CPU-32GB.resources.memory": "32Gi",
    }


def test_operator_keys_are_read_by_the_chart(plan: Plan) -> None:
    for ext in plan.of_type("azure-native:kubernetesconfiguration:Extension"):
        keys = set(ext["inputs"]["configurationSettings"])
        # Listed, or under a listed map key (workloads.instanceTypes.additional.<name>...).
        unread = {
            k
            for k in keys
            if not any(".".join(k.split(".")[:n]) in CHART_KEYS for n in range(1, len(k.split(".")) + 1))
        }
        assert not unread, unread
        assert "networking.gateway.className" not in keys


@pytest.mark.parametrize("resource", ["default", "westeu"])
def test_protected_settings_clear_the_cli_token(raw: Raw, resource: str) -> None:
    """platform.md 4: omitted keys keep their value from an earlier install, so every
    extension sends the token as "" in its protected settings (a secret in the plan)."""
    name = f"{resource}-operator-extension"
    assert raw.plan.named(name)["inputs"]["configurationProtectedSettings"] == "[secret]"
    assert raw.inputs[name]["configurationProtectedSettings"] == {"global.auth.anyscaleCliToken": ""}
    # Extension settings are strings: booleans as "true"/"false".
    assert raw.inputs[name]["configurationSettings"]["networking.gateway.enabled"] == "true"


def test_blob_cors_rule(plan: Plan) -> None:
    cors = inputs(plan, "default-blob-cors")
    assert cors["blobServicesName"] == "default"
    assert cors["cors"] == {
        "corsRules": [
            {
                "allowedOrigins": ["https://console.azure.anyscale.com"],
                "allowedMethods": ["GET", "HEAD", "PUT", "POST", "DELETE"],
                "allowedHeaders": ["*"],
                "exposedHeaders": ["*"],
                "maxAgeInSeconds": 3600,
            }
        ]
    }


def test_storage_account_name_fits_azure_limits() -> None:
    from config.names import storage_account_name as account_name

    name = account_name("Very_Long-Cloud-Name", "resource_with_long_name", "abc123")
    assert name == "asverylongcloudnamabc123"
    assert len(name) == 24 and name.isalnum() and name.islower()


def test_storage_account_hardening(plan: Plan) -> None:
    account = inputs(plan, "default-storage")
    assert {
        k: account[k]
        for k in (
            "kind",
            "isHnsEnabled",
            "enableHttpsTrafficOnly",
            "minimumTlsVersion",
            "allowBlobPublicAccess",
            "allowSharedKeyAccess",
        )
    } == {
        "kind": "StorageV2",
        "isHnsEnabled": True,
        "enableHttpsTrafficOnly": True,
        "minimumTlsVersion": "TLS1_2",
        "allowBlobPublicAccess": False,
        "allowSharedKeyAccess": False,
    }
    assert account["accountName"] == "asmlplatformdevdef${default-storage-suffix.result}"
    assert inputs(plan, "default-container")["publicAccess"] == "None"


def test_federated_credential(plan: Plan) -> None:
    federation = inputs(plan, "default-operator-federation")
    assert federation["subject"] == "system:serviceaccount:anyscale-operator:anyscale-operator"
    assert federation["audiences"] == ["api://AzureADTokenExchange"]
    assert federation["issuer"] == "${default-aks.oidcIssuerProfile.issuerURL}"
    assert federation["resourceName"] == "id-ml-platform-dev-default-operator"


# Azure built-in role definition IDs (the same in every tenant; learn.microsoft.com,
# "Azure built-in roles"): literals, not imported from the code under test.
BLOB_DATA_CONTRIBUTOR = "ba92f5b4-2d11-453d-a403-e96b0029c9fe"
ACR_PULL = "7f951dda-4ed3-4680-a7ca-43fe172d538d"
ACR_PUSH = "8311e382-0749-4cb8-b61a-304f252e45ec"
ACR_TASKS_CONTRIBUTOR = "fb382eab-e894-4461-af04-94435c366c3f"


def role(guid: str) -> str:
    return "/subscriptions/${azure.subscriptionId}/providers/Microsoft.Authorization/roleDefinitions/" + guid


@pytest.mark.parametrize(
    ("name", "principal", "guid", "scope"),
    [
        (
            "default-operator-storage",
            "${default-operator-identity.principalId}",
            BLOB_DATA_CONTRIBUTOR,
            "${default-storage.id}",
        ),
        (
            "default-kubelet-acrpull",
            "${default-aks.identityProfile.kubeletidentity.objectId}",
            ACR_PULL,
            "${ml-platform-dev-registry.id}",
        ),
        (
            "default-operator-acrpush",
            "${default-operator-identity.principalId}",
            ACR_PUSH,
            "${ml-platform-dev-registry.id}",
        ),
        (
            "default-operator-acrtasks",
            "${default-operator-identity.principalId}",
            ACR_TASKS_CONTRIBUTOR,
            "${ml-platform-dev-registry.id}",
        ),
        (
            "westeu-kubelet-acrpull",
            "${westeu-aks.identityProfile.kubeletidentity.objectId}",
            ACR_PULL,
            "${ml-platform-dev-registry.id}",
        ),
    ],
)
def test_role_assignments(plan: Plan, name: str, principal: str, guid: str, scope: str) -> None:
    assert inputs(plan, name) == {
        "principalId": principal,
        "principalType": "ServicePrincipal",
        "roleDefinitionId": role(guid),
        "scope": scope,
    }


def test_only_the_primary_operator_pushes_to_the_registry(plan: Plan) -> None:
    names = {r["name"] for r in plan.of_type("azure-native:authorization:RoleAssignment")}
    assert "westeu-operator-acrpush" not in names and "westeu-operator-acrtasks" not in names
    assert "westeu-operator-storage" in names


def test_aks_cluster(plan: Plan) -> None:
    aks = inputs(plan, "default-aks")
    assert aks["oidcIssuerProfile"] == {"enabled": True}
    assert aks["securityProfile"] == {"workloadIdentity": {"enabled": True}}
    assert aks["kubernetesVersion"] == "1.36"
    assert aks["supportPlan"] == "KubernetesOfficial"
    assert aks["sku"] == {"name": "Base", "tier": "Standard"}
    assert aks["agentPoolProfiles"][0]["mode"] == "System"
    # The system pool carries the cluster's minor too (AKS takes major.minor).
    assert aks["agentPoolProfiles"][0]["orchestratorVersion"] == "1.36"
    assert aks["agentPoolProfiles"][0]["enableAutoScaling"] is True
    assert plan.named("default-aks")["options"]["ignoreChanges"] == ["agentPoolProfiles"]


def test_node_pools_taints_labels(plan: Plan) -> None:
    cpu, spot = inputs(plan, "default-pool-cpu"), inputs(plan, "default-pool-cpuspot")
    assert cpu["nodeTaints"] == ["node.anyscale.com/capacity-type=ON_DEMAND:NoSchedule"]
    assert spot["nodeTaints"] == [
        "node.anyscale.com/capacity-type=SPOT:NoSchedule",
        "kubernetes.azure.com/scalesetpriority=spot:NoSchedule",
    ]
    assert spot["scaleSetPriority"] == "Spot"
    assert (cpu["minCount"], cpu["maxCount"], cpu["enableAutoScaling"]) == (0, 10, True)
    for pool in plan.of_type("azure-native:containerservice:AgentPool"):
        assert len(pool["inputs"]["agentPoolName"]) <= 12


def test_gpu_pool_and_device_plugin(example_plan: Plan) -> None:
    # The example's primary (its GPU pool gput4), from the suite's shared recording of the example.
    plan = example_plan
    gpu = inputs(plan, "default-pool-gput4")
    assert gpu["vmSize"] == "Standard_NC16as_T4_v3"
    assert gpu["nodeTaints"] == [
        "node.anyscale.com/capacity-type=ON_DEMAND:NoSchedule",
        "nvidia.com/gpu=present:NoSchedule",
        "node.anyscale.com/accelerator-type=GPU:NoSchedule",
    ]
    # The operator chart's azure T4 value (1.8.0), not GPU feature discovery's Tesla-T4.
    assert gpu["nodeLabels"]["nvidia.com/gpu.product"] == "NVIDIA-T4"
    assert gpu["nodeLabels"]["nvidia.com/gpu.count"] == "1"
    plugin = inputs(plan, "default-nvidia-device-plugin")
    assert plugin["chart"] == "nvidia-device-plugin" and plugin["version"] == "0.17.1"


def test_gateway_listeners_and_secret_names(plan: Plan) -> None:
    gateway = inputs(plan, "default-gateway")
    assert gateway["metadata"]["name"] == "gateway" and gateway["metadata"]["namespace"] == "anyscale-operator"
    assert gateway["spec"]["gatewayClassName"] == "eg"
    listeners = {listener["name"]: listener for listener in gateway["spec"]["listeners"]}
    assert listeners["http"] == {"name": "http", "port": 80, "protocol": "HTTP"}
    rid = "${default-registration.properties.cloudResourceId}"
    for name, host, secret in [
        ("https", "*.i.azure.anyscaleuserdata.com", f"anyscale-{rid}-certificate"),
        ("https-session", "*.s.azure.anyscaleuserdata.com", f"anyscale-svc-{rid}-certificate"),
    ]:
        assert listeners[name]["port"] == 443 and listeners[name]["protocol"] == "HTTPS"
        assert listeners[name]["hostname"] == host
        assert listeners[name]["tls"] == {"mode": "Terminate", "certificateRefs": [{"kind": "Secret", "name": secret}]}


def test_certificate_secret_names_replace_underscores() -> None:
    assert certificate_secret_names("cldrsrc_abc_123") == {
        "https": "anyscale-cldrsrc-abc-123-certificate",
        "https-session": "anyscale-svc-cldrsrc-abc-123-certificate",
    }


def test_gateway_class_and_envoy_proxy(plan: Plan) -> None:
    gateway_class = inputs(plan, "default-gateway-class")
    assert gateway_class["spec"]["controllerName"] == "gateway.envoyproxy.io/gatewayclass-controller"
    assert gateway_class["spec"]["parametersRef"]["kind"] == "EnvoyProxy"
    proxy = inputs(plan, "default-envoy-proxy")
    assert proxy["spec"]["provider"]["kubernetes"]["envoyService"]["type"] == "LoadBalancer"
    envoy = inputs(plan, "default-envoy-gateway")
    assert (envoy["chart"], envoy["version"], envoy["namespace"]) == (
        "oci://docker.io/envoyproxy/gateway-helm",
        "v1.7.0",
        "envoy-gateway-system",
    )
    kuberay = inputs(plan, "default-kuberay")
    assert (kuberay["chart"], kuberay["version"], kuberay["repositoryOpts"]) == (
        "kuberay-operator",
        "1.7.0",
        {"repo": "https://ray-project.github.io/kuberay-helm/"},
    )


def test_registrations_are_chained_and_clusters_are_not(plan: Plan) -> None:
    first, second = plan.named("default-registration"), plan.named("westeu-registration")
    assert first["urn"] in second["dependsOn"]
    registrations = {r["urn"] for r in plan.resources if r["name"].endswith("-registration") and r["custom"]}
    for resource in plan.resources:
        if resource["type"].startswith(
            ("azure-native:containerservice", "azure-native:storage", "azure-native:managedidentity")
        ):
            assert not registrations & set(resource["dependsOn"]), resource["name"]
    # Each registration waits for its own target only (and the cloud record).
    assert plan.named("default-aks")["urn"] in first["dependsOn"]
    assert plan.named("westeu-aks")["urn"] in second["dependsOn"]
    assert plan.named("westeu-aks")["urn"] not in first["dependsOn"]


def test_in_cluster_resources_are_deleted_with_their_cluster(plan: Plan) -> None:
    clusters = {name: plan.named(f"{name}-aks")["urn"] for name in ("default", "westeu")}
    in_cluster = [
        r
        for r in plan.resources
        if r["custom"] and (r["type"].startswith("kubernetes:") and not r["type"].startswith("pulumi:"))
    ]
    in_cluster += plan.of_type("azure-native:kubernetesconfiguration:Extension")
    assert len(in_cluster) >= 14
    for resource in in_cluster:
        owner = resource["name"].split("-")[0]
        assert resource["options"]["deletedWith"] == clusters[owner], resource["name"]


def test_every_resource_uses_an_explicit_provider(plan: Plan) -> None:
    for resource in plan.resources:
        if resource["custom"] and not resource["type"].startswith("pulumi:providers:"):
            assert resource["provider"], resource["name"]
    k8s = {r["urn"] for r in plan.of_type("pulumi:providers:kubernetes")}
    for resource in plan.resources:
        if resource["type"].startswith("kubernetes:"):
            assert resource["provider"].rsplit("::", 1)[0] in k8s


def test_kubeconfig_is_secret(plan: Plan) -> None:
    provider = inputs(plan, "default-k8s")
    assert provider["kubeconfig"] == "[secret]"
    assert "${default-aks-name.kubeconfig}" not in json.dumps(plan.to_json())
    assert "kubeconfig}" not in json.dumps(plan.to_json())


def test_existing_bucket_is_used_as_given() -> None:
    values = stack_values("dev")
    values["anyscale-cloud:resources"][0]["storage"] = {
        "bucket": "abfss://data@mylogs.dfs.core.windows.net",
        "endpoint": "https://mylogs.blob.core.windows.net",
    }
    plan = recorded("test", values)
    assert not plan.of_type("azure-native:storage:StorageAccount")
    props = inputs(plan, "default-registration")["properties"]
    assert props["cloudStorageBucketName"] == "abfss://data@mylogs.dfs.core.windows.net"
    assert props["cloudStorageBucketEndpoint"] == "https://mylogs.blob.core.windows.net"


def test_protection_on_by_default() -> None:
    values = stack_values("dev")
    del values["anyscale-cloud:cloud"]["protect"]
    plan = recorded("test", values)
    for name in (
        "default-registration",
        "default-aks",
        "default-storage",
        "default-container",
        "ml-platform-dev-cloud",
        "ml-platform-dev-rg",
    ):
        assert plan.named(name)["options"]["protect"] is True, name
    assert plan.named("default-storage")["options"]["retainOnDelete"] is True


def test_retain_on_delete_opt_out() -> None:
    values = stack_values("dev")
    values["anyscale-cloud:resources"][0]["storage"] = {"retainOnDelete": False}
    plan = recorded("dev", values)  # the values test_lifecycle.py records under "dev": one run for both
    assert plan.named("default-storage")["options"]["retainOnDelete"] is False
