"""ClusterAddons: what runs inside every cluster, whatever its provider.

Envoy Gateway (Helm release: its certgen Job is a hook), the EnvoyProxy / GatewayClass /
Gateway objects, the KubeRay operator, the NVIDIA device plugin where there are GPU
pools, and the Anyscale operator: the AKS cluster extension on AKS, the Helm chart
elsewhere, configured with the same keys either way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pulumi
import pulumi_kubernetes as k8s
from pulumi_azure_native import kubernetesconfiguration

from components import defaults, shipped
from components.addons.crds import GATEWAY_CRDS_CHART, GATEWAY_CRDS_VALUES, take_over_crd
from components.addons.gateway import ENVOY_API, GATEWAY_API, KubernetesObject, envoy_proxy_spec, gateway_listeners
from components.addons.operator import as_extension_setting, nest, operator_settings, operator_values
from components.kuberay.flavors import Flavor
from components.kuberay.history import install_history_server
from components.kuberay.install import install_kuberay
from components.nodepools import ACCELERATOR_TAINT, CAPACITY_TAINT, GPU_TAINT
from components.target import Target
from config import AddonsSpec
from config.data.versions import ANYSCALE_REPO, ENVOY_GATEWAY_CHART, NVIDIA_DEVICE_PLUGIN_REPO
from config.workloads import workload_accounts

ENVOY_NAMESPACE = "envoy-gateway-system"
KUBERAY_NAMESPACE = "kuberay-system"
DEVICE_PLUGIN_NAMESPACE = "nvidia-device-plugin"
ENVOY_PROXY_NAME = "anyscale-proxy"


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
    # The worker pools' Kueue flavors (components/kuberay/flavors.py); none on Generic.
    flavors: list[Flavor] = field(default_factory=list)


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
            f"{self._name}-kuberay-crds", yaml=shipped.kuberay_crds(versions.kuberay.version), opts=crds
        )
        # The controllers come after their CRDs, and leave the CRDs alone (skip_crds).
        envoy = self._release(
            "envoy-gateway",
            Chart("eg", ENVOY_GATEWAY_CHART, versions.envoy_gateway.version, ENVOY_NAMESPACE),
            {},
            pulumi.ResourceOptions(depends_on=[envoy_crds]),
            skip_crds=True,
        )
        # The managed namespaces first: a Kueue queue namespace that is also one is this Namespace.
        self._managed = {ns: self._managed_namespace(ns) for ns in args.addons.anyscale_operator.managed_namespaces}
        kueue = install_kuberay(
            self._name,
            versions.kuberay,
            KUBERAY_NAMESPACE,
            self._release,
            self._k8s,
            crds=kuberay_crds,
            flavors=args.flavors,
            cilium=target.cilium_data_plane,
            namespaces=self._managed,
        )
        self.kueue = kueue  # MultiKueue (components/kuberay/multikueue.py) goes after it
        self.in_cluster = self._k8s
        if versions.kuberay.history_server and target.history_identity is not None:
            token_mode = versions.kuberay.authentication == "token"
            install_history_server(self._name, target.provider, target.history_identity, token_mode, self._k8s)
        if target.install_device_plugin:
            plugin = Chart(
                "nvidia-device-plugin",
                "nvidia-device-plugin",
                versions.nvidia_device_plugin.version,
                DEVICE_PLUGIN_NAMESPACE,
                NVIDIA_DEVICE_PLUGIN_REPO,
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
        self.workload_accounts = [
            self._workload_account(self._managed.get(account.namespace, namespace), account.namespace)
            for account in workload_accounts(list(self._managed))
        ]
        gateway = self._gateway(envoy, namespace, args.cloud_resource_id)
        self.gateway_address = gateway.status.apply(lambda s: ((s or {}).get("addresses") or [{}])[0].get("value"))
        extra, extra_secrets = operator_values(args.addons.anyscale_operator.values)
        # The spec refuses the keys the program owns: ours are applied last anyway.
        settings = {**extra, **operator_settings(target, args.cloud_resource_id, self.gateway_address)}
        protected = {**extra_secrets, **target.protected_settings}
        self.operator = (
            self._extension(settings, protected, args, kueue)
            if target.operator_extension is not None
            else self._operator_chart(settings, protected, args, namespace, kueue)
        )
        self.register_outputs({"gateway_address": self.gateway_address})

    def _managed_namespace(self, name: str) -> k8s.core.v1.Namespace:
        """A namespace of workloads.managedNamespaces: the chart only lists it for the operator
        (anyscale-operator 1.8.0 templates/anyscale_managed_namespace.yaml:1-15), whose rules
        cannot create namespaces (templates/_rbac_rules.tpl:7-36), so the program makes it.
        Aliased to the Namespace a Kueue queue namespace of that name had (components/kuberay/
        install.py), so listing a queue namespace here moves it instead of replacing it."""
        return k8s.core.v1.Namespace(
            f"{self._name}-workload-namespace-{name}",
            metadata={"name": name},
            opts=pulumi.ResourceOptions.merge(
                self._k8s, pulumi.ResourceOptions(aliases=[pulumi.Alias(name=f"{self._name}-queue-namespace-{name}")])
            ),
        )

    def _workload_account(self, namespace: pulumi.Resource, name: str) -> k8s.core.v1.ServiceAccount:
        """The Ray pods' own service account (the chart's workloads.serviceAccount.name,
        components/addons/operator.py), in each namespace the operator runs them in: the chart
        names that one account on every pod it makes (templates/configmap_patches.yaml:15-25).
        No RoleBinding names it: the chart binds only operator.serviceAccount.name to its Role
        (anyscale-operator 1.8.0 templates/role_binding.yaml, cluster_role_binding.yaml).
        Annotated with the workloads' cloud identity, which exists (and trusts the account in
        this namespace) before the account."""
        workloads = self._target.workload_identity
        own = name == defaults.OPERATOR_NAMESPACE
        return k8s.core.v1.ServiceAccount(
            f"{self._name}-workload-account" + ("" if own else f"-{name}"),
            metadata={
                "name": defaults.WORKLOAD_SERVICE_ACCOUNT,
                "namespace": name,
                "annotations": workloads.service_account_annotations or None,
            },
            opts=pulumi.ResourceOptions.merge(
                self._k8s, pulumi.ResourceOptions(depends_on=[namespace, *workloads.ready])
            ),
        )

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
            envoy_proxy_spec(self._target.proxy_service_annotations),
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
        self, settings: dict[str, Any], protected: dict[str, Any], args: AddonsArgs, kueue: pulumi.Resource | None
    ) -> kubernetesconfiguration.Extension:
        ext = self._target.operator_extension
        assert ext is not None
        return kubernetesconfiguration.Extension(
            f"{self._name}-operator-extension",
            extension_name=ext.name,
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
                import_=ext.import_id,
                deleted_with=self._target.cluster,
                additional_secret_outputs=["configurationProtectedSettings"],
                # The operator's chart renders its Kueue RBAC only when Kueue's API exists.
                # Its Ray pods run as the workloads' account: it exists first.
                depends_on=[*self.workload_accounts, *([kueue] if kueue is not None else [])],
            ),
        )

    def _operator_chart(
        self,
        settings: dict[str, Any],
        protected: dict[str, Any],
        args: AddonsArgs,
        namespace: pulumi.Resource,
        kueue: pulumi.Resource | None,
    ) -> k8s.helm.v3.Release:
        # Secret values stay secret inside the otherwise reviewable values tree, and the
        # release's `values` output (which echoes them) is secret in the state too.
        values = nest({**settings, **{k: pulumi.Output.secret(v) for k, v in protected.items()}})
        chart = Chart(
            "anyscale-operator",
            "anyscale-operator",
            args.addons.anyscale_operator.version,
            defaults.OPERATOR_NAMESPACE,
            ANYSCALE_REPO,
        )
        secret_outputs = ["values"] if protected else []
        return self._release(
            "anyscale-operator",
            chart,
            values,
            pulumi.ResourceOptions(
                # Its chart renders the Kueue RBAC only when Kueue's API exists at render time.
                # Its Ray pods run as the workloads' account: it exists first.
                depends_on=[namespace, *self.workload_accounts] + ([kueue] if kueue is not None else []),
                additional_secret_outputs=secret_outputs,
                deleted_with=self._after_registration or self._target.cluster,
            ),
        )
