"""One cloud resource (an entry of `anyscale-cloud:resources`): the fields every provider
shares and the rules between its cluster and its add-ons. Each provider's resource is in
its module (config/aks.py, eks.py, gke.py, generic.py)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import Field, ValidationError, field_validator, model_validator

from config.addons import AddonsSpec
from config.adopt import ResourceAdoptSpec
from config.data.kuberay import SCHEDULER_PLUGINS_CHARTS
from config.doc import NAME_RULE, PREVIEW_REGIONS_NOTE, REGION_RULE, one_of
from config.kuberay import QUOTA_LIMITS, QueueQuotaSpec
from config.kueue import FlavorQuota, admits, pool_quota, smoke_jobs
from config.pools import NodePoolSpec
from config.storage import StorageSpec
from config.types import Name, Strict, check_region, fail, minor_of, normalize_provider
from config.workloads import WorkloadAccount, aws_trust_problem, azure_credentials_problem, workload_accounts
from policy.rules.platform import PROVIDERS

CLUSTER_RULE = "the cluster the program creates (a Generic resource brings its own: `kubeconfig`)"


class ResourceSpec(Strict):
    """One cloud resource: a Kubernetes cluster registered with the cloud."""

    provider_name: ClassVar[str]
    name: Name = Field(
        description=f"{NAME_RULE}; unique within the cloud, ignoring case; the first resource is the primary and "
        "must be named `default`"
    )
    provider: str = Field(
        description=f"{one_of(PROVIDERS)} (any casing is accepted and normalized); the first must be `Azure`",
        json_schema_extra={"doc_only": True},
    )
    region: str = Field(
        description=f"{REGION_RULE}; Azure, AWS, GCP: a known region of the provider (config/data/regions.py); "
        f"Generic: a free-form routing label. Azure: {PREVIEW_REGIONS_NOTE}"
    )
    addons: AddonsSpec = Field(default_factory=AddonsSpec)
    adopt: ResourceAdoptSpec = Field(
        default_factory=ResourceAdoptSpec,
        description="an existing registration (and on Azure its cluster, storage, identity and operator extension) "
        "to import instead of creating them (docs/adopting.md)",
    )
    if TYPE_CHECKING:
        # Declared by each provider's subclass with its own storage type; here for the checker only.
        storage: StorageSpec
    # Names of other cloud resources whose networks are peered with this one's: their
    # address ranges must not overlap (config/peering.py).
    peered_with: list[str] = Field(
        default_factory=list,
        description="names of other resources of the stack whose networks are peered with this one's: their "
        "address ranges must not overlap (checked: EKS `vpcCidr`, GKE node/pod/service ranges, AKS network ranges "
        "where set; Generic and existing networks without ranges are not checked)",
    )

    @field_validator("provider", mode="before")
    @classmethod
    def _provider(cls, value: Any) -> Any:
        return normalize_provider(value)

    @field_validator("region")
    @classmethod
    def _region(cls, value: str) -> str:
        return check_region(value, cls.provider_name)

    @property
    def bucket_region(self) -> str:
        """Where the bucket is: the storage region, which defaults to the resource's."""
        return self.storage.region or self.region

    @property
    def workload_accounts(self) -> list[WorkloadAccount]:
        """The service accounts Ray pods run as: anyscale-workloads in the operator's namespace
        and in each managed namespace (config/workloads.py), each federated to the workloads'
        cloud identity where there is one."""
        return workload_accounts(self.addons.anyscale_operator.managed_namespaces)

    @model_validator(mode="after")
    def _managed_namespaces_fit(self) -> ResourceSpec:
        # One subject per namespace on the workloads' cloud identity: the clouds' limits bind.
        namespaces = self.addons.anyscale_operator.managed_namespaces
        problem = (
            azure_credentials_problem(namespaces)
            if self.provider_name == "Azure"
            else aws_trust_problem(self.region, namespaces)
            if self.provider_name == "AWS"
            else None
        )
        if problem is not None:
            raise fail("workloads", problem, at="addons.anyscaleOperator.values.workloads.managedNamespaces")
        return self

    @model_validator(mode="after")
    def _scheduler_plugins_matches_the_cluster(self) -> ResourceSpec:
        # scheduler-plugins ships a kube-scheduler built for one Kubernetes minor, and a
        # scheduler must not be newer than the API server nor a minor behind: the chart is
        # picked by the cluster's own minor, and a minor without one is refused.
        cluster = getattr(self, "cluster", None)
        if self.addons.kuberay.batch_scheduler == "scheduler-plugins" and cluster is not None:
            minor = minor_of(cluster.kubernetes_version)
            if minor not in SCHEDULER_PLUGINS_CHARTS:
                raise fail(
                    "kuberay",
                    "scheduler-plugins has a chart for Kubernetes {k} only (its kube-scheduler must match the "
                    "cluster's minor), but the cluster runs {m}; use Kubernetes {k} or another batchScheduler",
                    k=", ".join(SCHEDULER_PLUGINS_CHARTS),
                    m=minor,
                    at="addons.kuberay.batchScheduler",
                )
        return self

    # The clusters this program builds that enforce NetworkPolicy: every AKS cluster runs a
    # policy engine (config/aks.py); EKS and GKE get none from this program.
    ENFORCES_NETWORK_POLICY: ClassVar[bool] = False

    @model_validator(mode="after")
    def _network_policy_enforced(self) -> ResourceSpec:
        if (
            self.addons.kuberay.network_policy
            and getattr(self, "cluster", None) is not None
            and not self.ENFORCES_NETWORK_POLICY
        ):
            raise fail(
                "kuberay",
                "the {p} cluster this program builds enforces no NetworkPolicy (no network policy engine is "
                "enabled on it), so the policies KubeRay would create would be inert; use it on an AKS cluster "
                "or a Generic cluster that enforces NetworkPolicy",
                p=self.provider_name,
                at="addons.kuberay.networkPolicy",
            )
        return self

    # The providers whose History Server identity the program wires (components/*/history.py).
    HISTORY_SERVER_PROVIDERS: ClassVar[tuple[str, ...]] = ("Azure", "AWS", "GCP")

    @model_validator(mode="after")
    def _history_server_storage(self) -> ResourceSpec:
        if not self.addons.kuberay.history_server:
            return self
        if self.provider_name not in self.HISTORY_SERVER_PROVIDERS:
            raise fail(
                "kuberay",
                "the History Server reads the resource's bucket with a cloud identity of its own, which this "
                "program creates on {s} resources only (not {p}); turn historyServer off here",
                s=", ".join(self.HISTORY_SERVER_PROVIDERS),
                p=self.provider_name,
                at="addons.kuberay.historyServer",
            )
        storage = getattr(self, "storage", None)
        if self.provider_name == "Azure" and storage is not None and storage.bucket is not None:
            raise fail(
                "kuberay",
                "on Azure the History Server's identity is granted the container this program creates, and "
                "storage.bucket names an existing one (whose grants are its owner's); drop storage.bucket or turn "
                "historyServer off here",
                at="addons.kuberay.historyServer",
            )
        return self

    @model_validator(mode="after")
    def _gpu_pool_for_the_gpu_smoke_test(self) -> ResourceSpec:
        if not self.addons.kuberay.gpu_smoke_test:
            return self
        cluster = getattr(self, "cluster", None)
        if cluster is None or not [p for p in cluster.node_pools if p.gpu is not None]:
            raise fail(
                "kuberay",
                "gpuSmokeTest needs a GPU pool of this program's cluster (its labels and taints are what the job "
                "targets): add a pool with `gpu`, or drop gpuSmokeTest",
                at="addons.kuberay.gpuSmokeTest",
            )
        return self

    @model_validator(mode="after")
    def _prometheus_operator_crds(self) -> ResourceSpec:
        """The KubeRay chart renders its ServiceMonitor whenever metrics are on (kuberay v1.7.0
        helm-chart/kuberay-operator/templates/servicemonitor.yaml), and the program adds two
        PodMonitors: without the monitoring.coreos.com CRDs the atomic release fails. A cluster
        this program builds has none of its own (AKS's managed Prometheus uses
        azmonitoring.coreos.com, GKE's monitoring.googleapis.com, EKS none): only
        installPrometheus brings them there. A Generic cluster may have them already."""
        metrics = self.addons.kuberay.metrics
        if metrics.enabled and not metrics.install_prometheus and getattr(self, "cluster", None) is not None:
            raise fail(
                "kuberay",
                "metrics creates a ServiceMonitor and PodMonitors (monitoring.coreos.com), whose CRDs the {p} "
                "cluster this program builds does not have, so the KubeRay release would fail: set "
                "metrics.installPrometheus: true (it brings them), or turn metrics off",
                p=self.provider_name,
                at="addons.kuberay.metrics.installPrometheus",
            )
        return self

    @model_validator(mode="after")
    def _kueue_quota(self) -> ResourceSpec:
        """A Kueue quota left out must be one the pools can size."""
        kuberay = self.addons.kuberay
        if kuberay.queue_quota is not None and getattr(self, "cluster", None) is not None:
            raise fail(
                "kuberay",
                "the Kueue quotas of a cluster this program builds come from its pools (one ResourceFlavor per "
                "worker pool, sized at its maxCount): drop queueQuota and set the pools' maxCount instead",
                at="addons.kuberay.queueQuota",
            )
        if kuberay.batch_scheduler != "kueue" or kuberay.queue_quota is not None:
            return self
        cluster = getattr(self, "cluster", None)
        if cluster is None:
            raise fail(
                "kuberay",
                "a Generic cluster's pools are unknown to this program: set addons.kuberay.queueQuota "
                "(cpu, memoryGi, gpu) to size the Kueue ClusterQueue",
                at="addons.kuberay.queueQuota",
            )
        pools_quota(self.provider_name, cluster.node_pools)
        return self

    @model_validator(mode="after")
    def _smoke_admitted(self) -> ResourceSpec:
        """Under Kueue the smoke RayJobs wait for admission: a quota that cannot hold one
        leaves `pulumi up` waiting until the job's timeout (config/kueue.py)."""
        kuberay = self.addons.kuberay
        if not kuberay.smoke_test or kuberay.batch_scheduler != "kueue":
            return self
        cluster = getattr(self, "cluster", None)
        if cluster is None:
            quota = kuberay.queue_quota
            if quota is None:
                return self  # refused by _kueue_quota
            flavors = [FlavorQuota("default-flavor", quota.cpu, quota.memory_gi, quota.gpu)]
        else:
            flavors = [pool_quota(self.provider_name, pool) for pool in cluster.node_pools]
        gpu = next((f.name for f in flavors if f.gpu > 0), None) if kuberay.gpu_smoke_test else None
        for job, pod_sets in smoke_jobs(gpu).items():
            if admits(flavors, pod_sets):
                continue
            asks = "; ".join(request.text() for request, _ in pod_sets)
            if cluster is None:
                raise fail(
                    "kuberay",
                    "queueQuota cannot admit the {j} RayJob, whose pods Kueue counts together ({a}: its head, "
                    "workers and submitter): `pulumi up` would wait on it until its timeout; raise queueQuota "
                    "(at least {c} vCPUs and {m} GiB) or drop {j}",
                    j=job,
                    a=asks,
                    c=-(-sum(r.cpu_milli for r, _ in pod_sets) // 1000),
                    m=-(-sum(r.memory_mi for r, _ in pod_sets) // 1024),
                    at="addons.kuberay.queueQuota",
                )
            raise fail(
                "kuberay",
                "no worker pool's Kueue quota (its nodes at maxCount) can admit the {j} RayJob ({a}: its head, "
                "workers and submitter): `pulumi up` would wait on it until its timeout; give a pool more nodes or "
                "larger ones, or drop {j}",
                j=job,
                a=asks,
                at=f"addons.kuberay.{job}",
            )
        return self


def pools_quota(provider: str, pools: Sequence[NodePoolSpec]) -> QueueQuotaSpec:
    """Kueue admits Ray jobs against a ClusterQueue's quota: by default the sum of the
    worker pools at their maxCount (the system pool runs no Ray pods: it is untainted
    but the pools' taints are what Ray pods tolerate)."""
    # Sizes as sold (the spec has already rejected pools whose size is unknown).
    sizes = [(p.node_size(provider), p.max_count) for p in pools]
    totals = {
        "cpu": max(1, sum(cpu * count for (cpu, _, _), count in sizes)),
        "memory_gi": max(1, math.floor(sum(memory * count for (_, memory, _), count in sizes))),
        "gpu": sum(gpus * count for (_, _, gpus), count in sizes),
    }
    try:
        return QueueQuotaSpec(**totals)
    except ValidationError:
        # Raised here, pydantic would report the quota's own field (`resources[i].cpu`),
        # a path that is not in the stack file.
        limits = f"{QUOTA_LIMITS['cpu']:,} vCPUs, {QUOTA_LIMITS['memory_gi']:,} GiB, {QUOTA_LIMITS['gpu']:,} GPUs"
        raise fail(
            "kuberay",
            "the worker pools at their maxCount add up to {c} vCPUs, {m} GiB and {g} GPUs, more than a "
            f"Kueue quota this program sets ({limits}): lower the pools' maxCount or set addons.kuberay.queueQuota",
            c=totals["cpu"],
            m=totals["memory_gi"],
            g=totals["gpu"],
            at="addons.kuberay.queueQuota",
        ) from None
