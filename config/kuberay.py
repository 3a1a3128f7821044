"""`addons.kuberay`: the KubeRay operator and what it works with (docs/what-it-creates.md, KubeRay options).

Kueue's `queueQuota` left out is the worker pools' size: config/resources.py checks it and
config/load.py fills it in once the stack is valid.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, ValidationInfo, field_validator, model_validator

from config.data.kuberay import FEATURE_GATES
from config.data.kuberay_charts import PLATFORM_NAMESPACES, SMOKE_NAMESPACE
from config.data.versions import KUBERAY_SHIPPED, KUBERAY_VERSION
from config.doc import one_of, shown_default
from config.types import ExactVersion, Strict, fail, release_of

# The first KubeRay release with each option (its batch scheduler plugin, the
# `authOptions` fields of the RayCluster CRD, the feature gate), from the kuberay tags.
KUBERAY_SINCE: dict[str, tuple[tuple[int, int, int], str]] = {
    "yunikorn": ((1, 2, 2), "the YuniKorn batch scheduler"),
    "scheduler-plugins": ((1, 4, 0), "the scheduler-plugins batch scheduler"),
    "kai": ((1, 5, 0), "the KAI batch scheduler"),
    "token": ((1, 5, 1), "authOptions.mode: token"),
    "kubernetes-rbac": ((1, 6, 0), "authOptions.enableK8sTokenAuth"),
}
# Chart versions whose `featureGates` list we know (config/data/kuberay.py): setting one gate
# replaces the whole list, so gates are set only where we can repeat the chart's defaults.
KUBERAY_GATE_CHARTS = tuple(FEATURE_GATES)
NETWORK_POLICY_GATE = "RayClusterNetworkPolicy"
KUBERAY_NETWORK_POLICY_CHARTS = tuple(v for v, gates in FEATURE_GATES.items() if NETWORK_POLICY_GATE in dict(gates))
HISTORY_SERVER_GATE = "RayClusterHistoryServer"
KUBERAY_HISTORY_CHARTS = tuple(v for v, gates in FEATURE_GATES.items() if HISTORY_SERVER_GATE in dict(gates))


def kuberay_since(*options: str) -> str:  # pragma: no mutate block
    """`option` (KubeRay >= x.y.z), ... for the reference."""
    return ", ".join(f"`{o}` needs KubeRay >= {'.'.join(map(str, KUBERAY_SINCE[o][0]))}" for o in options)


def _kuberay_since(option: str, version: str) -> None:
    first, what = KUBERAY_SINCE[option]
    if release_of(version) < first:
        raise fail(
            "kuberay",
            "{w} needs KubeRay {f} or later (addons.kuberay.version is {v}); raise addons.kuberay.version",
            w=what,
            f=".".join(map(str, first)),
            v=version,
        )


class KubeRayMetricsSpec(Strict):
    """Prometheus Operator objects for the operator and the Ray pods."""

    enabled: bool = Field(False, description="Prometheus Operator objects for the operator and the Ray pods")
    install_prometheus: bool = Field(
        False, description="install kube-prometheus-stack (pinned) in `monitoring`; needs `enabled`"
    )

    @model_validator(mode="after")
    def _needs_enabled(self) -> KubeRayMetricsSpec:
        if self.install_prometheus and not self.enabled:
            raise fail(
                "kuberay",
                "installPrometheus without enabled: set metrics.enabled: true (or drop installPrometheus)",
                at="installPrometheus",
            )
        return self


def _metrics_shorthand(value: Any) -> Any:
    return {"enabled": value} if isinstance(value, bool) else value


# The largest quota this program sets (and says so when the pools add up to more).
QUOTA_LIMITS = {"cpu": 1_000_000, "memory_gi": 100_000_000, "gpu": 100_000}


class QueueQuotaSpec(Strict):
    """The Kueue ClusterQueue's nominal quota, when the pools cannot size it."""

    cpu: int = Field(ge=1, le=QUOTA_LIMITS["cpu"], description="vCPUs")
    memory_gi: int = Field(ge=1, le=QUOTA_LIMITS["memory_gi"], description="GiB")
    gpu: int = Field(0, ge=0, le=QUOTA_LIMITS["gpu"], description="nvidia.com/gpu")


# Where users submit by default (`kubectl ray job submit` uses the current namespace).
DEFAULT_QUEUE_NAMESPACES = ("default",)
# A namespace name (RFC 1123 label, as the API server checks `metadata.name` of a Namespace).
_NAMESPACE = re.compile(r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")


class KubeRaySpec(Strict):
    """The KubeRay operator and what it works with (docs/what-it-creates.md, KubeRay options)."""

    version: ExactVersion = Field(KUBERAY_VERSION, description="the KubeRay operator chart, one exact version")
    batch_scheduler: Literal["none", "volcano", "yunikorn", "kueue", "scheduler-plugins", "kai"] = Field(
        "none",
        description=kuberay_since("yunikorn", "scheduler-plugins", "kai")
        + "; `scheduler-plugins` needs a Kubernetes minor it has a chart for (config/data/kuberay.py); "
        "`kai` and `scheduler-plugins` not with `smokeTest`",
    )
    feature_gates: dict[str, bool] = Field(
        default_factory=dict,
        description="KubeRay operator feature gates by name, e.g. `{RayCronJob: true}`: each one of the chart's own "
        f"list at `version` (chart {one_of(KUBERAY_GATE_CHARTS)}); the others keep the chart's defaults",
        json_schema_extra=shown_default("the chart's"),
    )
    history_server: bool = Field(
        False,
        description="KubeRay's History Server (alpha) reading Ray clusters' events and logs from the resource's "
        f"bucket under `ray-history/`, and its {HISTORY_SERVER_GATE} gate; needs `version` "
        f"{one_of(KUBERAY_HISTORY_CHARTS)}; Azure (the container this program creates), AWS and GCP resources; "
        "with `authentication: token` it proxies live clusters in token mode; opened by port-forward",
    )
    metrics: Annotated[KubeRayMetricsSpec, BeforeValidator(_metrics_shorthand)] = Field(
        default_factory=KubeRayMetricsSpec,
        description="`true` is short for `{enabled: true}`",
        json_schema_extra=shown_default("off"),
    )
    authentication: Literal["none", "token", "kubernetes-rbac"] = Field(
        "none", description=kuberay_since("token", "kubernetes-rbac")
    )
    network_policy: bool = Field(
        False,
        description=f"KubeRay's {NETWORK_POLICY_GATE} gate (a NetworkPolicy per RayCluster) and the platform's "
        "allow policies (operator, gateway, Prometheus, DNS, HTTPS, the API server) for pods labelled "
        "`anyscale-cloud/network-policy: <mode>`; needs `version` "
        f"{one_of(KUBERAY_NETWORK_POLICY_CHARTS)} and a cluster that enforces NetworkPolicy: AKS (every AKS cluster "
        "runs a policy engine) or Generic; not EKS or GKE (this program turns on no policy engine there)",
    )
    smoke_test: bool = Field(False, description="run a small RayJob that `pulumi up` waits on")
    gpu_smoke_test: bool = Field(
        False,
        description="also run a RayJob whose worker asks for one GPU on the first GPU pool, which `pulumi up` waits "
        "on (it scales that pool up from zero: minutes and a GPU node's cost); needs `smokeTest` and a GPU pool",
    )
    # Kueue only; left out, the worker pools' size (config/load.py).
    queue_quota: QueueQuotaSpec | None = Field(
        None,
        description="Kueue only: the ClusterQueue's quota; default: the worker pools' size at `maxCount`; "
        "required on Generic",
        json_schema_extra=shown_default("from the pools"),
    )

    queue_namespaces: list[str] = Field(
        default_factory=lambda: list(DEFAULT_QUEUE_NAMESPACES),
        description="Kueue only: the namespaces that get the LocalQueue `ray-queue` (each created by the program, "
        "except `default`), where labelled RayJobs and RayClusters are queued; not a namespace the platform runs in",
        json_schema_extra=shown_default("`[default]`"),
    )

    multi_kueue_workers: list[str] = Field(
        default_factory=list,
        description="the primary only, with `batchScheduler: kueue`: MultiKueue with this cluster as manager, "
        "dispatching the jobs of LocalQueue `ray-multikueue` to these cloud resources by name: EKS or GKE "
        "resources of this stack, each with `batchScheduler: kueue` (docs/what-it-creates.md, MultiKueue)",
        max_length=20,
    )

    @field_validator("batch_scheduler", "authentication")
    @classmethod
    def _supported_by_version(cls, value: str, info: ValidationInfo) -> str:
        """A scheduler or an authentication mode the pinned KubeRay version knows."""
        if value in KUBERAY_SINCE and "version" in info.data:
            _kuberay_since(value, info.data["version"])
        return value

    @field_validator("history_server")
    @classmethod
    def _history(cls, value: bool, info: ValidationInfo) -> bool:
        version = info.data.get("version")
        if value and version is not None and version.lstrip("v") not in KUBERAY_HISTORY_CHARTS:
            raise fail(
                "kuberay",
                "needs the {g} feature gate, which KubeRay has from 1.7.0 and this program wires for chart {c} "
                '(addons.kuberay.version is {v}); set addons.kuberay.version: "1.7.0"',
                g=HISTORY_SERVER_GATE,
                c=", ".join(KUBERAY_HISTORY_CHARTS),
                v=version,
            )
        return value

    @field_validator("feature_gates")
    @classmethod
    def _gates(cls, value: dict[str, bool], info: ValidationInfo) -> dict[str, bool]:
        version = info.data.get("version")
        if not value or version is None:
            return value
        known = FEATURE_GATES.get(version.lstrip("v"))
        if known is None:
            raise fail(
                "kuberay",
                "this program knows the feature gates of chart {c} only (addons.kuberay.version is {v}): setting "
                "one replaces the chart's whole list; use one of those versions or drop featureGates",
                c=", ".join(KUBERAY_GATE_CHARTS),
                v=version,
            )
        names = [gate for gate, _ in known]
        for gate in value:
            if gate not in names:
                raise fail(
                    "kuberay",
                    "'{g}' is not a feature gate of kuberay-operator {v}: use {n}",
                    g=gate,
                    v=version,
                    n=", ".join(names),
                    at=gate,
                )
        return value

    @field_validator("network_policy")
    @classmethod
    def _network_policy(cls, value: bool, info: ValidationInfo) -> bool:
        version = info.data.get("version")
        if value and version is not None and version.lstrip("v") not in KUBERAY_NETWORK_POLICY_CHARTS:
            raise fail(
                "kuberay",
                "needs the RayClusterNetworkPolicy feature gate, which KubeRay has from 1.7.0 and this program "
                'wires for chart {c} (addons.kuberay.version is {v}); set addons.kuberay.version: "1.7.0"',
                c=", ".join(KUBERAY_NETWORK_POLICY_CHARTS),
                v=version,
            )
        return value

    @field_validator("smoke_test")
    @classmethod
    def _smoke(cls, value: bool, info: ValidationInfo) -> bool:
        scheduler = info.data.get("batch_scheduler")
        if value and scheduler == "kai":
            raise fail(
                "kuberay",
                "cannot run with batchScheduler kai: the smoke test is a RayJob in K8sJobMode (a submitter "
                "Job beside the Ray pods), which KubeRay's KAI integration does not schedule; turn smokeTest off "
                "or use another batchScheduler",
            )
        if value and scheduler == "scheduler-plugins":
            raise fail(
                "kuberay",
                "cannot run with batchScheduler scheduler-plugins: KubeRay's scheduler-plugins integration "
                "supports RayClusters only (it refuses RayJobs), so the smoke RayJob would never run; turn "
                "smokeTest off or use another batchScheduler",
            )
        return value

    @model_validator(mode="after")
    def _shipped(self) -> KubeRaySpec:
        # After the fields: the options' own rules (which name the version) come first.
        if self.version.lstrip("v") not in KUBERAY_SHIPPED:
            raise fail(
                "kuberay",
                "the KubeRay CRDs and dashboards ship with this program for {s} only (version is {v}): nothing is "
                "downloaded at deploy time; use one of those versions",
                s=", ".join(KUBERAY_SHIPPED),
                v=self.version,
                at="version",
            )
        return self

    @model_validator(mode="after")
    def _gpu_smoke(self) -> KubeRaySpec:
        if self.gpu_smoke_test and not self.smoke_test:
            raise fail(
                "kuberay",
                "gpuSmokeTest runs beside the smoke test: set smokeTest: true (or drop gpuSmokeTest)",
                at="gpuSmokeTest",
            )
        return self

    @model_validator(mode="after")
    def _network_policy_gate(self) -> KubeRaySpec:
        for option, on, gate in (
            ("networkPolicy", self.network_policy, NETWORK_POLICY_GATE),
            ("historyServer", self.history_server, HISTORY_SERVER_GATE),
        ):
            if on and self.feature_gates.get(gate) is False:
                raise fail(
                    "kuberay",
                    "{o} turns on the {g} gate that featureGates turns off: drop one of them",
                    o=option,
                    g=gate,
                    at="featureGates",
                )
        return self

    def gates(self) -> list[dict[str, object]] | None:
        """The chart's whole `featureGates` list with ours applied, or None to keep the chart's."""
        wanted = dict(self.feature_gates)
        if self.network_policy:
            wanted[NETWORK_POLICY_GATE] = True
        if self.history_server:
            wanted[HISTORY_SERVER_GATE] = True
        if not wanted:
            return None
        known = FEATURE_GATES[self.version.lstrip("v")]
        return [{"name": gate, "enabled": wanted.get(gate, default)} for gate, default in known]

    @field_validator("queue_namespaces")
    @classmethod
    def _queue_namespaces(cls, value: list[str]) -> list[str]:
        for index, name in enumerate(value):
            if not isinstance(name, str) or not _NAMESPACE.fullmatch(name):
                raise fail(
                    "kuberay",
                    "'{n}' is not a Kubernetes namespace name: at most 63 lower-case letters, digits and '-', "
                    "starting and ending with a letter or digit",
                    n=name,
                )
            if name in PLATFORM_NAMESPACES:
                raise fail(
                    "kuberay",
                    "'{n}' is a namespace the platform runs in, which Kueue's webhooks skip (no job there is ever "
                    "queued): use a namespace of your own",
                    n=name,
                )
            if name == SMOKE_NAMESPACE:
                raise fail(
                    "kuberay",
                    "'{n}' is the smoke test's namespace, which gets its LocalQueue with smokeTest: use a namespace "
                    "of your own",
                    n=name,
                )
            if name in value[:index]:
                raise fail("kuberay", "'{n}' is listed twice: list each namespace once", n=name)
        if not value:
            raise fail("kuberay", "name at least one namespace (the default is [default])")
        return value

    @model_validator(mode="after")
    def _multikueue_needs_kueue(self) -> KubeRaySpec:
        if self.multi_kueue_workers and self.batch_scheduler != "kueue":
            raise fail(
                "kuberay",
                "MultiKueue dispatches from Kueue on this cluster: set batchScheduler: kueue or drop multiKueueWorkers",
                at="multiKueueWorkers",
            )
        return self

    @model_validator(mode="after")
    def _quota_for_kueue(self) -> KubeRaySpec:
        if self.queue_quota is not None and self.batch_scheduler != "kueue":
            raise fail(
                "kuberay",
                "queueQuota sizes the Kueue ClusterQueue: set batchScheduler: kueue or drop queueQuota",
                at="queueQuota",
            )
        if "queue_namespaces" in self.model_fields_set and self.batch_scheduler != "kueue":
            raise fail(
                "kuberay",
                "queueNamespaces places Kueue's LocalQueues: set batchScheduler: kueue or drop queueNamespaces",
                at="queueNamespaces",
            )
        return self
