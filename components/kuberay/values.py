"""Plain data: the KubeRay chart's values, the other charts' values and the custom objects,
each from the spec alone (no Pulumi), checked in tests against the charts and CRDs."""

from __future__ import annotations

from typing import Any, Final

from components.kuberay.flavors import LOCAL_QUEUE, QUEUE_LABEL, Flavor
from components.shipped import ray_dashboard
from config import KubeRaySpec
from config.data import kuberay_charts as charts
from config.kueue import GPU_SMOKE_WORKER, SMOKE_HEAD, PodRequest

# `batchScheduler.name` the kuberay-operator chart passes as --batch-scheduler (the names
# KubeRay's scheduler plugins answer to); Kueue works from its own side (its `ray.io/*`
# integrations), so KubeRay is not told about it.
BATCH_SCHEDULER_NAMES: Final = {
    "volcano": "volcano",
    "yunikorn": "yunikorn",
    "scheduler-plugins": "scheduler-plugins",
    "kai": "kai-scheduler",
}
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
            # What KubeRay's own install/prometheus/overrides.yaml (v1.7.0) sets: the Ray
            # dashboard shows Grafana's panels in iframes, which Grafana refuses unless embedding
            # is allowed, and the browser has no Grafana session there, so viewers are anonymous
            # (read-only: org_role Viewer). Grafana is reached by port-forward only.
            "grafana.ini": {
                "security": {"allow_embedding": True},
                "auth.anonymous": {"enabled": True, "org_role": "Viewer"},
            },
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


def quantities(request: PodRequest) -> dict[str, dict[str, str]]:
    """A smoke pod's requests, equal to its limits, as Kubernetes quantities (the spec's
    Kueue check counts the same PodRequest)."""
    cpu = str(request.cpu_milli // 1000) if request.cpu_milli % 1000 == 0 else f"{request.cpu_milli}m"
    memory = f"{request.memory_mi // 1024}Gi" if request.memory_mi % 1024 == 0 else f"{request.memory_mi}Mi"
    amounts = {"cpu": cpu, "memory": memory} | ({"nvidia.com/gpu": str(request.gpu)} if request.gpu else {})
    return {"requests": amounts, "limits": dict(amounts)}


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
        "resources": quantities(SMOKE_HEAD),
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
        "resources": quantities(GPU_SMOKE_WORKER),
    }
    job["spec"]["rayClusterSpec"]["workerGroupSpecs"] = [
        {
            "groupName": "gpu",
            "replicas": 1,
            "minReplicas": 1,
            "maxReplicas": 1,
            "rayStartParams": {},
            "template": {
                "spec": {"containers": [worker], "nodeSelector": pool.node_labels, "tolerations": pool.pod_tolerations}
            },
        }
    ]
    job["spec"]["entrypoint"] = entrypoint
    job["spec"]["activeDeadlineSeconds"] = GPU_SMOKE_TIMEOUT_SECONDS - 60
    job["metadata"]["name"] = "kuberay-gpu-smoke-test"
    job["metadata"]["annotations"]["pulumi.com/timeoutSeconds"] = str(GPU_SMOKE_TIMEOUT_SECONDS)
    return job


# kubernetes-rbac: the roles of KubeRay's ray-cluster.kubernetes.auth sample. Ray pods'
# service account needs `authenticator`; callers of the dashboard/job API need `writer`.
AUTH_ROLES: Final[dict[str, list[dict[str, Any]]]] = {
    "ray-authenticator": [
        {"apiGroups": ["authentication.k8s.io"], "resources": ["tokenreviews"], "verbs": ["create"]},
        {"apiGroups": ["authorization.k8s.io"], "resources": ["subjectaccessreviews"], "verbs": ["create"]},
    ],
    "ray-writer": [{"apiGroups": ["ray.io"], "resources": ["rayclusters"], "verbs": ["ray:write"]}],
}
