"""Plain data: the KubeRay chart's values, the other charts' values and the custom objects,
each from the spec alone (no Pulumi), checked in tests against the charts and CRDs."""

from __future__ import annotations

from typing import Any, Final

import yaml

from components.kuberay.flavors import Flavor
from components.shipped import ray_dashboard
from config import KubeRaySpec, QueueQuotaSpec
from config.data import kuberay_charts as charts

# `batchScheduler.name` the kuberay-operator chart passes as --batch-scheduler (the names
# KubeRay's scheduler plugins answer to); Kueue works from its own side (its `ray.io/*`
# integrations), so KubeRay is not told about it.
BATCH_SCHEDULER_NAMES: Final = {
    "volcano": "volcano",
    "yunikorn": "yunikorn",
    "scheduler-plugins": "scheduler-plugins",
    "kai": "kai-scheduler",
}
SCHEDULER_PLUGINS_NAME: Final = "scheduler-plugins-scheduler"
KUEUE_API: Final = "kueue.x-k8s.io/v1beta2"  # the storage version of Kueue 0.19's CRDs
# Kueue's manager configuration: the chart's default (charts/kueue values.yaml at v0.19.2,
# managerConfig.controllerManagerConfigYaml) with the integrations cut to what Ray needs.
# The chart (templates/webhook/manifests.yaml) renders the same webhooks whatever this list
# holds, one per kind it knows; the list sets only the failure policy of the pod,
# deployment and statefulset webhooks: Fail when listed, Ignore when not. Its default list
# holds all three, so plain pods, deployments and statefulsets in every namespace but
# kube-system and kueue-system would wait on Kueue, and while Kueue is down no operator,
# gateway or Prometheus pod could start; left out here, those webhooks fail open. Every
# other kind's webhook fails closed, listed or not (batch Jobs, the Ray kinds, and kinds
# such as JobSet whose CRDs the program does not install, so nothing matches them).
KUEUE_FRAMEWORKS: Final = ("batch/job", "ray.io/rayjob", "ray.io/rayservice", "ray.io/raycluster")
# Every webhook on workload kinds takes managedJobsNamespaceSelector as its own
# namespaceSelector, so the API server never calls Kueue for these namespaces (what the
# program installs into: the platform's own Jobs, such as Helm hooks, never wait on Kueue);
# only Kueue's own kinds (ClusterQueue, Cohort, ResourceFlavor, Workload) have webhooks
# without one. Ray jobs go anywhere else, e.g. `default`.
KUEUE_UNMANAGED_NAMESPACES: Final = (
    "kube-system",
    "kueue-system",
    "anyscale-operator",
    "envoy-gateway-system",
    "kuberay-system",
    "monitoring",
    "nvidia-device-plugin",
)
KUEUE_CONFIG: Final[dict[str, Any]] = {
    "apiVersion": "config.kueue.x-k8s.io/v1beta2",
    "kind": "Configuration",
    "health": {"healthProbeBindAddress": ":8081"},
    "metrics": {"bindAddress": ":8443"},
    "webhook": {"port": 9443},
    "leaderElection": {"leaderElect": True, "resourceName": "c1f6bfd2.kueue.x-k8s.io"},
    "controller": {
        "groupKindConcurrency": {
            "Job.batch": 5,
            "Pod": 5,
            "Workload.kueue.x-k8s.io": 10,
            "LocalQueue.kueue.x-k8s.io": 5,
            "ClusterQueue.kueue.x-k8s.io": 5,
            "ResourceFlavor.kueue.x-k8s.io": 1,
        }
    },
    "clientConnection": {"qps": 300, "burst": 500},
    "managedJobsNamespaceSelector": {
        "matchExpressions": [
            {"key": "kubernetes.io/metadata.name", "operator": "NotIn", "values": list(KUEUE_UNMANAGED_NAMESPACES)}
        ]
    },
    "integrations": {"frameworks": list(KUEUE_FRAMEWORKS)},
}
RESOURCE_FLAVOR: Final = "default-flavor"
CLUSTER_QUEUE: Final = "ray-cluster-queue"
LOCAL_QUEUE: Final = "ray-queue"
# Where users submit by default (`kubectl ray job submit` uses the current namespace).
LOCAL_QUEUE_NAMESPACES: Final = ("default",)
QUEUE_LABEL: Final = "kueue.x-k8s.io/queue-name"
MONITORING_API: Final = "monitoring.coreos.com/v1"
RAY_IMAGE: Final = "rayproject/ray:2.52.0"  # token auth needs Ray 2.52.0 or later
RAY_VERSION: Final = "2.52.0"
SMOKE_TIMEOUT_SECONDS: Final = 900


def operator_values(spec: KubeRaySpec) -> dict[str, Any]:
    """kuberay-operator values: `{}` with every option off (the chart's defaults)."""
    values: dict[str, Any] = {}
    name = BATCH_SCHEDULER_NAMES.get(spec.batch_scheduler)
    if name is not None:
        values["batchScheduler"] = {"name": name}
    if spec.metrics.enabled:
        # The chart's own ServiceMonitor for the operator's /metrics (port http, 8080).
        values["metrics"] = {"serviceMonitor": {"enabled": True}}
    gates = spec.gates()
    if gates is not None:
        values["featureGates"] = gates  # the chart's whole list: a value replaces it
    return values


def scheduler_values(scheduler: str) -> dict[str, Any]:
    """Each scheduler runs on the system pool: it is the only untainted pool, and these
    charts' pods tolerate none of the worker pools' taints, so no selector is needed."""
    if scheduler == "yunikorn":
        # Its admission controller would send every pod of the cluster (the Anyscale
        # operator's too) to YuniKorn; KubeRay stamps schedulerName on Ray pods itself.
        return {"embedAdmissionController": False}
    if scheduler == "scheduler-plugins":
        # KubeRay stamps schedulerName: scheduler-plugins-scheduler on Ray pods
        # (batchscheduler/scheduler-plugins/scheduler_plugins.go); the second scheduler
        # answers to its `scheduler.name`, which must stay that name (the chart's default).
        return {"scheduler": {"name": SCHEDULER_PLUGINS_NAME}}
    if scheduler == "kueue":
        return {"managerConfig": {"controllerManagerConfigYaml": yaml.safe_dump(KUEUE_CONFIG, sort_keys=False)}}
    return {}


# Ray's Grafana dashboards as KubeRay ships them (config/grafana at the operator's tag; each
# selects its Prometheus with a `datasource` variable, so they import as they are). They ship
# with the program (components/shipped.py) and go into the chart's values as JSON: the
# Grafana chart writes them to a ConfigMap mounted in the dashboards folder, instead of an
# init container downloading them from GitHub when Grafana starts.
RAY_DASHBOARDS: Final = {
    "ray-default": "default_grafana_dashboard.json",
    "ray-data": "data_grafana_dashboard.json",
    "ray-serve": "serve_grafana_dashboard.json",
    "ray-serve-deployment": "serve_deployment_grafana_dashboard.json",
    "ray-train": "train_grafana_dashboard.json",
    "kuberay-operator": "KubeRay-Operator.json",
}
DASHBOARD_DIR: Final = "/var/lib/grafana/dashboards/ray"


def prometheus_values(version: str) -> dict[str, Any]:
    # By default the stack's Prometheus selects only monitors labelled with its release;
    # ours (the operator's ServiceMonitor, the Ray PodMonitors) carry no such label.
    # The Ray dashboards: the chart's `dashboards` json entries of the provider `ray`
    # (mounted in its folder, shown in the Grafana folder Ray).
    provider = {
        "name": "ray",
        "orgId": 1,
        "folder": "Ray",
        "type": "file",
        "disableDeletion": False,
        "editable": True,
        "options": {"path": DASHBOARD_DIR},
    }
    return {
        "prometheus": {
            "prometheusSpec": {
                "serviceMonitorSelectorNilUsesHelmValues": False,
                "podMonitorSelectorNilUsesHelmValues": False,
            }
        },
        "grafana": {
            "dashboardProviders": {"dashboardproviders.yaml": {"apiVersion": 1, "providers": [provider]}},
            "dashboards": {
                "ray": {key: {"json": ray_dashboard(version, file)} for key, file in RAY_DASHBOARDS.items()}
            },
        },
    }


# Where the Ray head's dashboard finds kube-prometheus-stack (its Services in `monitoring`,
# release kube-prometheus-stack), after Ray's "Using Prometheus and Grafana" guide for KubeRay.
RAY_MONITORING_ENV: Final = {
    "RAY_PROMETHEUS_HOST": "http://kube-prometheus-stack-prometheus.monitoring.svc:9090",
    "RAY_GRAFANA_HOST": "http://kube-prometheus-stack-grafana.monitoring.svc:80",
    # What the browser opens: Grafana through `kubectl port-forward ... 3000:80`.
    "RAY_GRAFANA_IFRAME_HOST": "http://127.0.0.1:3000",
}


def ray_monitoring_env() -> list[dict[str, str]]:
    return [{"name": k, "value": v} for k, v in RAY_MONITORING_ENV.items()]


def _ray_cluster_label(port: str) -> dict[str, Any]:
    relabel = {
        "action": "replace",
        "sourceLabels": ["__meta_kubernetes_pod_label_ray_io_cluster"],
        "targetLabel": "ray_io_cluster",
    }
    return {"port": port, "relabelings": [relabel]}


def pod_monitors() -> dict[str, dict[str, Any]]:
    """PodMonitor specs (name -> spec) for Ray pods in every namespace, after KubeRay's
    config/prometheus/podMonitor.yaml: head (Ray, autoscaler, dashboard) and workers."""
    return {
        "ray-head-monitor": {
            "jobLabel": "ray-head",
            "namespaceSelector": {"any": True},
            "selector": {"matchLabels": {"ray.io/node-type": "head"}},
            "podMetricsEndpoints": [_ray_cluster_label(p) for p in ("metrics", "as-metrics", "dash-metrics")],
        },
        "ray-workers-monitor": {
            "jobLabel": "ray-workers",
            "namespaceSelector": {"any": True},
            "selector": {"matchLabels": {"ray.io/node-type": "worker"}},
            "podMetricsEndpoints": [_ray_cluster_label("metrics")],
        },
    }


def _gi(value: int) -> str:
    return f"{value}Gi"


COVERED: Final = ("cpu", "memory", "nvidia.com/gpu")


def _quotas(cpu: int, memory_gi: int, gpu: int) -> list[dict[str, str]]:
    return [
        {"name": "cpu", "nominalQuota": str(cpu)},
        {"name": "memory", "nominalQuota": _gi(memory_gi)},
        {"name": "nvidia.com/gpu", "nominalQuota": str(gpu)},
    ]


def queue_flavors(flavors: list[Flavor], quota: QueueQuotaSpec) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(name, ResourceFlavor spec, ClusterQueue flavor entry) per flavor: one per worker pool,
    each with that pool's quota; without known pools (Generic) one empty flavor, which
    matches every node, with the given quota."""
    if not flavors:
        entry = {"name": RESOURCE_FLAVOR, "resources": _quotas(quota.cpu, quota.memory_gi, quota.gpu)}
        return [(RESOURCE_FLAVOR, {}, entry)]
    return [(f.name, f.spec(), {"name": f.name, "resources": _quotas(f.cpu, f.memory_gi, f.gpu)}) for f in flavors]


def cluster_queue(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The one ClusterQueue over the flavors, tried in order."""
    return {
        "namespaceSelector": {},  # every namespace may have a LocalQueue pointing here
        "resourceGroups": [{"coveredResources": list(COVERED), "flavors": entries}],
    }


def smoke_job(spec: KubeRaySpec) -> dict[str, Any]:
    """The smoke RayJob's metadata and spec: a head-only Ray cluster (CPU, on the system
    pool: no worker pool is scaled up) runs a few tasks, then KubeRay deletes it."""
    entrypoint = (
        'python -c "import ray; ray.init(); square = ray.remote(lambda x: x * x); '
        "assert sum(ray.get([square.remote(i) for i in range(100)])) == 328350; print('kuberay smoke test ok')\""
    )
    container: dict[str, Any] = {
        "name": "ray-head",
        "image": RAY_IMAGE,
        "resources": {"requests": {"cpu": "1", "memory": "2Gi"}, "limits": {"cpu": "1", "memory": "2Gi"}},
    }
    if spec.metrics.install_prometheus:
        container["env"] = ray_monitoring_env()
    cluster: dict[str, Any] = {
        "rayVersion": RAY_VERSION,
        "headGroupSpec": {"rayStartParams": {}, "template": {"spec": {"containers": [container]}}},
    }
    if spec.authentication != "none":
        # Token auth works for RayJobs; Kubernetes-delegated auth is for standalone
        # RayClusters only (the CRD's note), so the smoke job proves the token mode.
        cluster["authOptions"] = {"mode": "token"}
    labels = {QUEUE_LABEL: LOCAL_QUEUE} if spec.batch_scheduler == "kueue" else {}
    metadata = {
        "name": "kuberay-smoke-test",
        "namespace": charts.SMOKE_NAMESPACE,
        "labels": labels,
        "annotations": {
            # `pulumi up` waits for the job to succeed; a failed job times out the update.
            "pulumi.com/waitFor": "jsonpath={.status.jobStatus}=SUCCEEDED",
            "pulumi.com/timeoutSeconds": str(SMOKE_TIMEOUT_SECONDS),
        },
    }
    body = {
        "entrypoint": entrypoint,
        "shutdownAfterJobFinishes": True,
        "ttlSecondsAfterFinished": 60,
        # Fail (rather than hang until the timeout) when the cluster never comes up.
        "activeDeadlineSeconds": SMOKE_TIMEOUT_SECONDS - 60,
        "backoffLimit": 0,
        "rayClusterSpec": cluster,
    }
    return {"metadata": metadata, "spec": body}


GPU_RAY_IMAGE: Final = "rayproject/ray:2.52.0-gpu"  # Ray's CUDA image of the same release
GPU_SMOKE_TIMEOUT_SECONDS: Final = 1800  # a GPU node from zero, its driver and a multi-GB image


def gpu_smoke_job(spec: KubeRaySpec, pool: Flavor) -> dict[str, Any]:
    """The GPU smoke RayJob: the smoke job's head (system pool) and one worker asking for
    one `nvidia.com/gpu` on `pool`'s nodes (its labels as node selector, its taints
    tolerated), so a success proves labels, taints, the autoscaler and the device plugin."""
    job = smoke_job(spec)
    entrypoint = (
        'python -c "import ray; ray.init(); gpus = ray.remote(num_gpus=1)(lambda: ray.get_gpu_ids()); '
        "ids = ray.get(gpus.remote()); assert len(ids) == 1, ids; print('kuberay gpu smoke test ok', ids)\""
    )
    worker = {
        "name": "ray-worker",
        "image": GPU_RAY_IMAGE,
        "resources": {
            "requests": {"cpu": "1", "memory": "4Gi", "nvidia.com/gpu": "1"},
            "limits": {"cpu": "1", "memory": "4Gi", "nvidia.com/gpu": "1"},
        },
    }
    job["spec"]["rayClusterSpec"]["workerGroupSpecs"] = [
        {
            "groupName": "gpu",
            "replicas": 1,
            "minReplicas": 1,
            "maxReplicas": 1,
            "rayStartParams": {},
            "template": {
                "spec": {"containers": [worker], "nodeSelector": pool.node_labels, "tolerations": pool.tolerations}
            },
        }
    ]
    job["spec"]["entrypoint"] = entrypoint
    job["spec"]["activeDeadlineSeconds"] = GPU_SMOKE_TIMEOUT_SECONDS - 60
    job["metadata"]["name"] = "kuberay-gpu-smoke-test"
    job["metadata"]["annotations"]["pulumi.com/timeoutSeconds"] = str(GPU_SMOKE_TIMEOUT_SECONDS)
    return job


def local_queue_namespaces(spec: KubeRaySpec) -> tuple[str, ...]:
    return LOCAL_QUEUE_NAMESPACES + ((charts.SMOKE_NAMESPACE,) if spec.smoke_test else ())


# kubernetes-rbac: the roles of KubeRay's ray-cluster.kubernetes.auth sample. Ray pods'
# service account needs `authenticator`; callers of the dashboard/job API need `writer`.
AUTH_ROLES: Final[dict[str, list[dict[str, Any]]]] = {
    "ray-authenticator": [
        {"apiGroups": ["authentication.k8s.io"], "resources": ["tokenreviews"], "verbs": ["create"]},
        {"apiGroups": ["authorization.k8s.io"], "resources": ["subjectaccessreviews"], "verbs": ["create"]},
    ],
    "ray-writer": [{"apiGroups": ["ray.io"], "resources": ["rayclusters"], "verbs": ["ray:write"]}],
}
