"""Declares KubeRay and its options inside a cluster, as children of ClusterAddons.

With every option off this is exactly the release ClusterAddons always had: the
`kuberay-operator` chart with values `{}` (same name, parent and options), so plans do not
move until a user turns something on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pulumi
import pulumi_kubernetes as k8s

from components.kuberay import flavors as queues
from components.kuberay import schedulers, values
from components.kuberay.flavors import Flavor
from components.kuberay.network_policy import install_network_policies, opted_in
from config import KubeRaySpec
from config.data import kuberay_charts as charts
from config.data.versions import KUBERAY_REPO

# ClusterAddons._release: (key, chart, values, extra options) -> Release. The chart is
# anything with release/chart/version/namespace/repo (charts.Pin is).
Releaser = Callable[..., k8s.helm.v3.Release]


def install_kuberay(
    name: str,
    spec: KubeRaySpec,
    namespace: str,
    release: Releaser,
    opts: pulumi.ResourceOptions,
    crds: pulumi.Resource,
    flavors: list[Flavor],
    cilium: bool = False,
    namespaces: Mapping[str, pulumi.Resource] | None = None,
) -> pulumi.Resource | None:
    """`opts` are ClusterAddons' options for in-cluster objects (parent, provider, deletedWith);
    `crds` the ray.io CRDs, applied before the operator (whose release skips the chart's);
    `flavors` the worker pools' Kueue flavors (flavors.pool_flavors); `cilium`: the data plane
    is Cilium (its API server needs a CiliumNetworkPolicy under networkPolicy); `namespaces` the
    Namespaces the caller made already (the operator's managed ones), used, not made again. Returns Kueue's
    release when Kueue is installed: the Anyscale operator's chart renders its Kueue RBAC
    only when Kueue's API exists, so it goes after it."""

    def after(*resources: pulumi.Resource) -> pulumi.ResourceOptions:
        return pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(depends_on=list(resources)))

    def custom(
        key: str, api_version: str, kind: str, metadata: dict[str, Any], body: dict[str, Any], *deps: pulumi.Resource
    ) -> k8s.apiextensions.CustomResource:
        return k8s.apiextensions.CustomResource(
            f"{name}-{key}", api_version=api_version, kind=kind, metadata=metadata, spec=body, opts=after(*deps)
        )

    prometheus = None
    if spec.metrics.install_prometheus:
        prometheus = release("prometheus", charts.PROMETHEUS, values.prometheus_values(spec.version), None)
    pin = charts.SCHEDULERS.get(spec.batch_scheduler)
    volcano = None
    if spec.batch_scheduler == "volcano" and pin is not None:
        # KubeRay's Volcano plugin creates PodGroups: the operator needs Volcano's CRDs when it starts.
        volcano = release("volcano", pin, schedulers.scheduler_values("volcano"), None)
    operator = release(
        "kuberay",
        charts.Pin("kuberay-operator", "kuberay-operator", spec.version, namespace, KUBERAY_REPO),
        values.operator_values(spec),
        # The chart's ServiceMonitor needs the Prometheus Operator's CRDs.
        pulumi.ResourceOptions(depends_on=[crds] + [r for r in (prometheus, volcano) if r is not None]),
        skip_crds=True,
    )
    if spec.metrics.enabled:
        for monitor, body in values.pod_monitors().items():
            deps = [operator] + ([prometheus] if prometheus is not None else [])
            custom(monitor, values.MONITORING_API, "PodMonitor", {"name": monitor, "namespace": namespace}, body, *deps)

    if spec.authentication == "kubernetes-rbac":
        for role, rules in values.AUTH_ROLES.items():
            k8s.rbac.v1.ClusterRole(f"{name}-{role}", metadata={"name": role}, rules=rules, opts=opts)

    scheduler_ready: list[pulumi.Resource] = []
    if volcano is not None:
        scheduler_ready.append(volcano)
    elif pin is not None:
        # Kueue turns on its ray.io integrations only for CRDs that exist when it starts.
        extra = pulumi.ResourceOptions(depends_on=[operator]) if spec.batch_scheduler == "kueue" else None
        scheduler = release(spec.batch_scheduler, pin, schedulers.scheduler_values(spec.batch_scheduler), extra)
        scheduler_ready.append(scheduler)
    kueue = scheduler_ready[0] if spec.batch_scheduler == "kueue" else None
    made_already = dict(namespaces or {})
    user_namespaces: dict[str, pulumi.Resource] = {}  # queueNamespaces the program creates

    smoke_namespace = None
    if spec.smoke_test:
        smoke_namespace = k8s.core.v1.Namespace(
            f"{name}-smoke-namespace", metadata={"name": charts.SMOKE_NAMESPACE}, opts=opts
        )

    if spec.batch_scheduler == "kueue":
        assert spec.queue_quota is not None  # filled by the spec from the pools
        made, entries = [], []
        for flavor_name, body, entry in queues.queue_flavors(flavors, spec.queue_quota):
            key = "resource-flavor" if flavor_name == queues.RESOURCE_FLAVOR else f"resource-flavor-{flavor_name}"
            made.append(custom(key, queues.KUEUE_API, "ResourceFlavor", {"name": flavor_name}, body, *scheduler_ready))
            entries.append(entry)
        queue = custom(
            "cluster-queue",
            queues.KUEUE_API,
            "ClusterQueue",
            {"name": queues.CLUSTER_QUEUE},
            queues.cluster_queue(entries),
            *made,
            *scheduler_ready,
        )
        for ns in queues.local_queue_namespaces(spec):
            needs: list[pulumi.Resource] = [queue]
            if ns == charts.SMOKE_NAMESPACE and smoke_namespace is not None:
                needs.append(smoke_namespace)
            elif ns in made_already:
                user_namespaces[ns] = made_already[ns]
                needs.append(made_already[ns])
            elif ns not in queues.EXISTING_NAMESPACES:
                # A namespace the user chose (addons.kuberay.queueNamespaces): the program owns it.
                user_namespaces[ns] = k8s.core.v1.Namespace(
                    f"{name}-queue-namespace-{ns}", metadata={"name": ns}, opts=opts
                )
                needs.append(user_namespaces[ns])
            local = custom(
                f"local-queue-{ns}",
                queues.KUEUE_API,
                "LocalQueue",
                {"name": queues.LOCAL_QUEUE, "namespace": ns},
                {"clusterQueue": queues.CLUSTER_QUEUE},
                *needs,
            )
            scheduler_ready.append(local)

    if spec.network_policy:
        # The namespaces Ray runs in: the queue namespaces (`default` without Kueue), each after
        # its Namespace where the program makes one, and the smoke test's.
        ray_namespaces: dict[str, list[pulumi.Resource]] = {
            ns: [user_namespaces[ns]] if ns in user_namespaces else [] for ns in spec.queue_namespaces
        }
        if smoke_namespace is not None:
            ray_namespaces[charts.SMOKE_NAMESPACE] = [smoke_namespace]
        install_network_policies(name, spec, ray_namespaces, cilium, spec.history_server, opts)

    if smoke_namespace is not None:
        jobs = {"smoke-test": values.smoke_job(spec)}
        gpu_pools = [f for f in flavors if f.gpu > 0]
        if spec.gpu_smoke_test and gpu_pools:  # the spec requires a GPU pool
            jobs["gpu-smoke-test"] = values.gpu_smoke_job(spec, gpu_pools[0])
        for key, job in jobs.items():
            if spec.network_policy:  # under KubeRay's DenyAll, the platform's flows allowed
                job = opted_in(job)
            # A finished RayJob is never run again by the operator, and its old SUCCEEDED would
            # satisfy the wait at once: any change makes a new job (the old one deleted first).
            k8s.apiextensions.CustomResource(
                f"{name}-{key}",
                api_version="ray.io/v1",
                kind="RayJob",
                metadata=job["metadata"],
                spec=job["spec"],
                opts=pulumi.ResourceOptions.merge(
                    after(operator, smoke_namespace, *scheduler_ready),
                    pulumi.ResourceOptions(replace_on_changes=["spec"], delete_before_replace=True),
                ),
            )
    return kueue
