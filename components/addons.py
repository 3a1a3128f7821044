"""ClusterAddons: what runs inside every cluster, whatever its provider.

Envoy Gateway (Helm release: its certgen Job is a hook), the EnvoyProxy / GatewayClass /
Gateway objects, the KubeRay operator, the NVIDIA device plugin where there are GPU
pools, and the Anyscale operator: the AKS cluster extension on AKS, the Helm chart
elsewhere, configured with the same keys either way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pulumi
import pulumi_kubernetes as k8s
from pulumi_azure_native import kubernetesconfiguration

from components import defaults
from components.kuberay.install import install_kuberay
from components.nodepools import ACCELERATOR_TAINT, CAPACITY_TAINT, GPU_TAINT
from components.sdk_internals import kubernetes_plugin_version
from components.spec import AddonsSpec, Secret
from components.target import Target

ENVOY_NAMESPACE = "envoy-gateway-system"
KUBERAY_NAMESPACE = "kuberay-system"
DEVICE_PLUGIN_NAMESPACE = "nvidia-device-plugin"
GATEWAY_API = "gateway.networking.k8s.io/v1"
ENVOY_API = "gateway.envoyproxy.io/v1alpha1"
ENVOY_PROXY_NAME = "anyscale-proxy"
# CRDs as resources of their own, pinned to the chart's version (platform.md 9.4): Helm
# installs a chart's `crds/` once and never upgrades them. Applied server-side by the
# cluster's provider (the ray.io CRDs are about 1 MB, too big for client-side apply).
# Envoy Gateway publishes its CRDs (Gateway API experimental channel, as gateway-helm's
# crds/, and its own) as a chart of templates; KubeRay's are files of the chart's
# crds/ directory in the repository at the release tag (the same four in 1.6.2 and 1.7.0).
GATEWAY_CRDS_CHART = "oci://docker.io/envoyproxy/gateway-crds-helm"
GATEWAY_CRDS_VALUES = {
    "crds": {"gatewayAPI": {"enabled": True, "channel": "experimental"}, "envoyGateway": {"enabled": True}}
}
KUBERAY_CRDS = ("rayclusters", "raycronjobs", "rayjobs", "rayservices")
KUBERAY_CRD_URL = "https://raw.githubusercontent.com/ray-project/kuberay/v{version}/helm-chart/kuberay-operator/crds/ray.io_{kind}.yaml"
CRD_TYPE = "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition"


def kuberay_crd_urls(version: str) -> list[str]:
    return [KUBERAY_CRD_URL.format(version=version.removeprefix("v"), kind=kind) for kind in KUBERAY_CRDS]


def take_over_crd(args: pulumi.ResourceTransformArgs) -> pulumi.ResourceTransformResult | None:
    """Each CRD the component applies: force the server-side apply (Helm created these
    CRDs on earlier installs and owns their fields), and keep it on delete, as Helm does:
    deleting a CRD deletes every object of its kind."""
    current = args.props.get("metadata")
    if args.type_ != CRD_TYPE or not isinstance(current, dict):
        return None
    metadata: dict[str, Any] = dict(current)
    metadata["annotations"] = {**(metadata.get("annotations") or {}), "pulumi.com/patchForce": "true"}
    opts = pulumi.ResourceOptions.merge(args.opts, pulumi.ResourceOptions(retain_on_delete=True))
    return pulumi.ResourceTransformResult({**args.props, "metadata": metadata}, opts)


class KubernetesObject(pulumi.CustomResource):
    """A custom object whose `status` we read (CustomResource exposes only its inputs)."""

    status: pulumi.Output[Any]

    def __init__(
        self,
        name: str,
        api_version: str,
        kind: str,
        metadata: dict[str, Any],
        spec: dict[str, Any],
        opts: pulumi.ResourceOptions,
    ):
        props = {"apiVersion": api_version, "kind": kind, "metadata": metadata, "spec": spec, "status": None}
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(version=kubernetes_plugin_version()))
        super().__init__(f"kubernetes:{api_version}:{kind}", name, props, opts)


def certificate_secret_names(cloud_resource_id: str) -> dict[str, str]:
    """The TLS Secrets the operator creates, named after the ID with `_` -> `-`."""
    slug = cloud_resource_id.replace("_", "-")
    return {"https": f"anyscale-{slug}-certificate", "https-session": f"anyscale-svc-{slug}-certificate"}


def gateway_listeners(cloud_resource_id: str) -> list[dict[str, Any]]:
    secrets = certificate_secret_names(cloud_resource_id)
    listeners: list[dict[str, Any]] = [{"name": "http", "port": 80, "protocol": "HTTP"}]
    for name, hostname in defaults.GATEWAY_HOSTS.items():
        listeners.append(
            {
                "name": name,
                "port": 443,
                "protocol": "HTTPS",
                "hostname": hostname,
                "tls": {"mode": "Terminate", "certificateRefs": [{"kind": "Secret", "name": secrets[name]}]},
                "allowedRoutes": {"namespaces": {"from": "All"}},
            }
        )
    return listeners


def operator_settings(
    target: Target, cloud_resource_id: pulumi.Input[str], gateway_address: pulumi.Input[str]
) -> dict[str, Any]:
    """The chart keys we set (flat, dotted). Every key must be one the chart's templates
    read (shared/reference): Helm silently ignores anything else."""
    settings: dict[str, Any] = {
        "global.cloudDeploymentId": cloud_resource_id,
        "global.cloudProvider": target.provider.lower(),
        "global.controlPlaneURL": defaults.CONSOLE_ORIGIN,
        "networking.gateway.enabled": True,
        "networking.gateway.name": defaults.GATEWAY_NAME,
        "networking.gateway.namespace": defaults.OPERATOR_NAMESPACE,
        "networking.gateway.apiVersion": GATEWAY_API,
        f"networking.gateway.{target.gateway_address_kind}": gateway_address,
        "operator.serviceAccount.name": defaults.OPERATOR_SERVICE_ACCOUNT,
        # Without it Ray pods run with no cloud identity.
        "workloads.serviceAccount.name": defaults.OPERATOR_SERVICE_ACCOUNT,
    }
    if target.operator_identity is not None:
        settings["global.auth.iamIdentity"] = target.operator_identity
    settings.update(target.operator_settings)
    return settings


def operator_values(values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, pulumi.Output[str]]]:
    """`addons.anyscaleOperator.values` (flat Helm paths, checked by the spec) split into
    clear settings and secret ones (`{secure: ...}` in the stack file)."""
    clear = {k: v for k, v in values.items() if not isinstance(v, Secret)}
    secret = {k: pulumi.Output.secret(v.value) for k, v in values.items() if isinstance(v, Secret)}
    return clear, secret


PATH_PART = re.compile(r"((?:[^.\\[]|\\.)+)((?:\[[0-9]+\])*)")


def path_parts(key: str) -> list[str | int]:
    """A Helm `--set` path -> its parts: `a.b\\.c[0].d` -> ["a", "b.c", 0, "d"]."""
    parts: list[str | int] = []
    for match in PATH_PART.finditer(key):
        parts.append(match.group(1).replace("\\.", "."))
        parts += [int(i) for i in re.findall(r"\[([0-9]+)\]", match.group(2))]
    return parts


def nest(flat: dict[str, Any]) -> dict[str, Any]:
    """{"a.b": 1, "a.c[0]": 2} -> {"a": {"b": 1, "c": [2]}}: Helm values from the flat
    chart keys (Helm `--set` paths, as the AKS extension takes them)."""
    tree: dict[str, Any] = {}
    for key, value in flat.items():
        node: Any = tree
        *parents, leaf = path_parts(key)
        for part, child in zip(parents, [*parents[1:], leaf], strict=True):
            empty: Any = [] if isinstance(child, int) else {}
            if isinstance(part, int):
                node.extend(empty for _ in range(part + 1 - len(node)))
                node[part] = node[part] or empty
                node = node[part]
            else:
                node = node.setdefault(part, empty)
        if isinstance(leaf, int):
            node.extend(None for _ in range(leaf + 1 - len(node)))
        node[leaf] = value
    return tree


def as_extension_setting(value: Any) -> Any:
    """Extension settings are strings; booleans become "true"/"false", numbers digits."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    return value


@dataclass(frozen=True)
class Chart:
    release: str
    chart: str
    version: str
    namespace: str
    repo: str | None = None  # None for an OCI chart reference


@dataclass(frozen=True)
class AddonsArgs:
    target: Target
    cloud_resource_id: pulumi.Input[str]
    addons: AddonsSpec
    # The registration record; on Generic the operator goes only after it (see below).
    registration: pulumi.Resource | None = None


class ClusterAddons(pulumi.ComponentResource):
    gateway_address: pulumi.Output[str]

    def __init__(self, name: str, target: Target, opts: pulumi.ResourceOptions | None = None):
        """The operator's namespace; `install` adds the rest once the registration exists.
        Two steps because on Generic the registration depends on the namespace."""
        super().__init__("anyscale-cloud:index:ClusterAddons", name, None, opts)
        # In-cluster objects go with the cluster: a destroy then removes the registration
        # while the operator still runs, instead of wedging on HTTP 409.
        self._k8s = pulumi.ResourceOptions(parent=self, provider=target.kubernetes, deleted_with=target.cluster)
        # Objects that own a cloud load balancer the cluster's delete leaves behind (EKS,
        # GKE): really deleted. They depend on the cluster (through the Kubernetes
        # provider) and on the Envoy Gateway release, so the engine deletes them before
        # the cluster and the network, and while the controller still runs to delete the
        # proxy Service and release its load balancer.
        self._owns_lb = (
            pulumi.ResourceOptions(parent=self, provider=target.kubernetes)
            if target.load_balancer_outlives_cluster
            else self._k8s
        )
        self._name, self._target = name, target
        self.namespace = k8s.core.v1.Namespace(
            f"{name}-operator-namespace",
            metadata={"name": defaults.OPERATOR_NAMESPACE},
            opts=self._k8s,
        )

    def install(self, args: AddonsArgs) -> None:
        target, namespace = self._target, self.namespace
        # Generic (no cluster of ours): the operator must outlive its registration, or
        # the platform answers 409 on the registration's delete (platform.md 8.6). The
        # operator reads the registration's ID, so the engine would delete it first:
        # instead it is `deletedWith` the registration (not uninstalled by itself when
        # the registration goes too), and the registration depends on the operator's
        # namespace (CloudResource), so the namespace, and the operator's pods in it,
        # are deleted after the registration.
        self._after_registration = args.registration if target.cluster is None else None
        versions = args.addons
        crds = pulumi.ResourceOptions.merge(self._k8s, pulumi.ResourceOptions(transforms=[take_over_crd]))
        envoy_crds = k8s.helm.v4.Chart(
            f"{self._name}-envoy-gateway-crds",
            chart=GATEWAY_CRDS_CHART,
            version=versions.envoy_gateway.version,
            values=GATEWAY_CRDS_VALUES,
            opts=crds,
        )
        kuberay_crds = k8s.yaml.v2.ConfigGroup(
            f"{self._name}-kuberay-crds", files=kuberay_crd_urls(versions.kuberay.version), opts=crds
        )
        # The controllers come after their CRDs, and leave the CRDs alone (skip_crds).
        envoy = self._release(
            "envoy-gateway",
            Chart("eg", defaults.ENVOY_GATEWAY_CHART, versions.envoy_gateway.version, ENVOY_NAMESPACE),
            {},
            pulumi.ResourceOptions(depends_on=[envoy_crds]),
            skip_crds=True,
        )
        install_kuberay(self._name, versions.kuberay, KUBERAY_NAMESPACE, self._release, self._k8s, crds=kuberay_crds)
        if target.install_device_plugin:
            plugin = Chart(
                "nvidia-device-plugin",
                "nvidia-device-plugin",
                versions.nvidia_device_plugin.version,
                DEVICE_PLUGIN_NAMESPACE,
                defaults.NVIDIA_DEVICE_PLUGIN_REPO,
            )
            # It must run on the tainted GPU nodes it serves.
            tolerated = (GPU_TAINT, ACCELERATOR_TAINT, CAPACITY_TAINT, "kubernetes.azure.com/scalesetpriority")
            # The chart's default affinity needs node-feature-discovery labels no node has
            # (platform.md 9.2). Select the label every GPU pool carries on every provider
            # (nodepools.pool_labels) and no CPU pool does; the list replaces the default's.
            gpu_nodes = {"matchExpressions": [{"key": ACCELERATOR_TAINT, "operator": "In", "values": ["GPU"]}]}
            affinity = {
                "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [gpu_nodes]}}
            }
            self._release(
                "nvidia-device-plugin",
                plugin,
                {"tolerations": [{"key": k, "operator": "Exists"} for k in tolerated], "affinity": affinity},
            )
        gateway = self._gateway(envoy, namespace, args.cloud_resource_id)
        self.gateway_address = gateway.status.apply(lambda s: ((s or {}).get("addresses") or [{}])[0].get("value"))
        extra, extra_secrets = operator_values(args.addons.anyscale_operator.values)
        # The spec refuses the keys the program owns: ours are applied last anyway.
        settings = {**extra, **operator_settings(target, args.cloud_resource_id, self.gateway_address)}
        protected = {**extra_secrets, **target.protected_settings}
        self.operator = (
            self._extension(settings, protected, args)
            if target.operator_extension is not None
            else self._operator_chart(settings, protected, args, namespace)
        )
        self.register_outputs({"gateway_address": self.gateway_address})

    def _release(
        self, key: str, chart: Chart, values: Any, extra: pulumi.ResourceOptions | None = None, skip_crds: bool = False
    ) -> k8s.helm.v3.Release:
        return k8s.helm.v3.Release(
            f"{self._name}-{key}",
            **({"skip_crds": True} if skip_crds else {}),
            name=chart.release,
            chart=chart.chart,
            version=chart.version,
            repository_opts={"repo": chart.repo} if chart.repo else None,
            namespace=chart.namespace,
            create_namespace=True,
            values=values,
            atomic=True,
            cleanup_on_fail=True,
            opts=pulumi.ResourceOptions.merge(self._k8s, extra),
        )

    def _gateway(
        self, envoy: pulumi.Resource, namespace: pulumi.Resource, cloud_resource_id: pulumi.Input[str]
    ) -> KubernetesObject:
        after_crds = pulumi.ResourceOptions.merge(self._owns_lb, pulumi.ResourceOptions(depends_on=[envoy]))
        proxy = KubernetesObject(
            f"{self._name}-envoy-proxy",
            ENVOY_API,
            "EnvoyProxy",
            {"name": ENVOY_PROXY_NAME, "namespace": ENVOY_NAMESPACE},
            {
                "provider": {
                    "type": "Kubernetes",
                    "kubernetes": {
                        "envoyService": {"type": "LoadBalancer", "annotations": self._target.proxy_service_annotations}
                    },
                }
            },
            after_crds,
        )
        gateway_class = KubernetesObject(
            f"{self._name}-gateway-class",
            GATEWAY_API,
            "GatewayClass",
            {"name": defaults.GATEWAY_CLASS},
            {
                "controllerName": "gateway.envoyproxy.io/gatewayclass-controller",
                "parametersRef": {
                    "group": "gateway.envoyproxy.io",
                    "kind": "EnvoyProxy",
                    "name": ENVOY_PROXY_NAME,
                    "namespace": ENVOY_NAMESPACE,
                },
            },
            pulumi.ResourceOptions.merge(after_crds, pulumi.ResourceOptions(depends_on=[proxy])),
        )
        return KubernetesObject(
            f"{self._name}-gateway",
            GATEWAY_API,
            "Gateway",
            {
                "name": defaults.GATEWAY_NAME,
                "namespace": defaults.OPERATOR_NAMESPACE,
                # Wait for the load balancer: the operator is configured with its address.
                "annotations": {"pulumi.com/waitFor": "jsonpath={.status.addresses[0].value}"},
            },
            {
                "gatewayClassName": defaults.GATEWAY_CLASS,
                "listeners": pulumi.Output.from_input(cloud_resource_id).apply(gateway_listeners),
            },
            pulumi.ResourceOptions.merge(after_crds, pulumi.ResourceOptions(depends_on=[gateway_class, namespace])),
        )

    def _extension(
        self, settings: dict[str, Any], protected: dict[str, Any], args: AddonsArgs
    ) -> kubernetesconfiguration.Extension:
        ext = self._target.operator_extension
        assert ext is not None
        return kubernetesconfiguration.Extension(
            f"{self._name}-operator-extension",
            extension_name="anyscale-operator",
            cluster_rp="Microsoft.ContainerService",
            cluster_resource_name="managedClusters",
            cluster_name=ext.cluster_name,
            resource_group_name=ext.resource_group_name,
            extension_type=defaults.AKS_EXTENSION_TYPE,
            release_train=defaults.AKS_EXTENSION_TRAIN,
            auto_upgrade_minor_version=False,
            version=args.addons.anyscale_operator.version,
            plan=kubernetesconfiguration.PlanArgs(**defaults.AKS_EXTENSION_PLAN),
            scope={"cluster": {"release_namespace": defaults.OPERATOR_NAMESPACE}},
            configuration_settings={k: as_extension_setting(v) for k, v in settings.items()},
            # Omitted keys keep their value from an earlier install: clear the token.
            configuration_protected_settings=pulumi.Output.secret({"global.auth.anyscaleCliToken": "", **protected}),
            opts=pulumi.ResourceOptions(
                parent=self,
                provider=ext.azure_provider,
                deleted_with=self._target.cluster,
                additional_secret_outputs=["configurationProtectedSettings"],
            ),
        )

    def _operator_chart(
        self, settings: dict[str, Any], protected: dict[str, Any], args: AddonsArgs, namespace: pulumi.Resource
    ) -> k8s.helm.v3.Release:
        # Secret values stay secret inside the otherwise reviewable values tree, and the
        # release's `values` output (which echoes them) is secret in the state too.
        values = nest({**settings, **{k: pulumi.Output.secret(v) for k, v in protected.items()}})
        chart = Chart(
            "anyscale-operator",
            "anyscale-operator",
            args.addons.anyscale_operator.version,
            defaults.OPERATOR_NAMESPACE,
            defaults.ANYSCALE_REPO,
        )
        secret_outputs = ["values"] if protected else []
        return self._release(
            "anyscale-operator",
            chart,
            values,
            pulumi.ResourceOptions(
                depends_on=[namespace],
                additional_secret_outputs=secret_outputs,
                deleted_with=self._after_registration or self._target.cluster,
            ),
        )
