"""addons.kuberay: per option and provider, the charts, values, objects and
namespaces in the plan, and the smoke RayJob's wait condition (the spec's refusals are in
tests/config/test_kuberay_options.py).

Expected charts, names and keys are literals from the upstream sources (README: KubeRay
options), never imported from the code under test.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from components import shipped
from preflight.runtime import Plan
from tests import crds, flows, helm
from tests.kuberay_stack import NAMES, values_with
from tests.plans import recorded

KUBERAY_REPO = {"repo": "https://ray-project.github.io/kuberay-helm/"}


@pytest.fixture(scope="module")
def off() -> Plan:
    return recorded("kuberay-off", values_with([{}, {}, {}, {}]))


def inputs(plan: Plan, name: str) -> dict[str, Any]:
    return plan.named(name)["inputs"]


def names(plan: Plan) -> set[str]:
    return {r["name"] for r in plan.resources}


# --- everything off: the bare chart, as before ---------------------------------------------------


@pytest.mark.parametrize("resource", NAMES)
def test_off_installs_the_bare_operator_chart_only(off: Plan, resource: str) -> None:
    record = off.named(f"{resource}-kuberay")
    i = record["inputs"]
    assert (i["name"], i["chart"], i["version"], i["namespace"], i["repositoryOpts"]) == (
        "kuberay-operator",
        "kuberay-operator",
        "1.7.0",
        "kuberay-system",
        KUBERAY_REPO,
    )
    assert i.get("values", {}) == {}
    assert record["parent"].endswith(f"ClusterAddons::{resource}")
    extra = {
        f"{resource}-{k}"
        for k in (
            "kueue",
            "volcano",
            "yunikorn",
            "scheduler-plugins",
            "kai",
            "prometheus",
            "smoke-test",
            "smoke-namespace",
            "cluster-queue",
            "ray-head-monitor",
        )
    }
    assert not extra & names(off)
    assert not [
        r
        for r in off.resources
        if r["type"].startswith(("kubernetes:ray.io", "kubernetes:kueue", "kubernetes:monitoring"))
    ]


# --- batch schedulers -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "resource, key, chart, version, namespace, repo, chart_values, batch_scheduler",
    [
        (
            "default",
            "volcano",
            "volcano",
            "1.14.4",
            "volcano-system",
            "https://volcano-sh.github.io/helm-charts",
            {"custom": ["scheduler_config_override"]},
            "volcano",
        ),
        (
            "gcp",
            "yunikorn",
            "yunikorn",
            "1.8.0",
            "yunikorn",
            "https://apache.github.io/yunikorn-release",
            {"embedAdmissionController": False, "yunikornDefaults": ["queues.yaml"]},
            "yunikorn",
        ),
        (
            "aws",
            "scheduler-plugins",
            "scheduler-plugins",
            "0.33.5",
            "scheduler-plugins",
            "https://scheduler-plugins.sigs.k8s.io",
            {"scheduler": {"name": "scheduler-plugins-scheduler"}},
            "scheduler-plugins",
        ),
        (
            "onprem",
            "kai",
            "oci://ghcr.io/kai-scheduler/kai-scheduler/kai-scheduler",
            "v0.12.6",
            "kai-scheduler",
            None,
            {
                "admission": {"gpuPodRuntimeClassName": '""'},
                "global": {"podLabelSelector": {"ray.io/is-ray-node": "yes"}},
            },
            "kai-scheduler",
        ),
    ],
)
def test_scheduler_chart_and_operator_setting(
    rotation: Plan,
    resource: str,
    key: str,
    chart: str,
    version: str,
    namespace: str,
    repo: str | None,
    chart_values: dict[str, Any],
    batch_scheduler: str,
) -> None:
    i = inputs(rotation, f"{resource}-{key}")
    assert (i["chart"], i["version"], i["namespace"], i["createNamespace"]) == (chart, version, namespace, True)
    assert i.get("repositoryOpts") == ({"repo": repo} if repo else None)
    # Values given in full, or (a list) the keys whose rendered effect test_kuberay_flows.py follows.
    got = i.get("values", {})
    assert {k: sorted(v) if isinstance(chart_values[k], list) else v for k, v in got.items()} == chart_values
    # No node selector or tolerations: the untainted system pool is the only place they fit.
    assert "nodeSelector" not in json.dumps(i.get("values", {})) and "tolerations" not in json.dumps(
        i.get("values", {})
    )
    assert inputs(rotation, f"{resource}-kuberay")["values"]["batchScheduler"] == {"name": batch_scheduler}


@pytest.mark.parametrize("resource", NAMES)
def test_kueue_chart_runs_after_the_kuberay_crds(full: Plan, resource: str) -> None:
    record = full.named(f"{resource}-kueue")
    i = record["inputs"]
    assert (i["chart"], i["version"], i["namespace"]) == (
        "oci://registry.k8s.io/kueue/charts/kueue",
        "0.19.2",
        "kueue-system",
    )
    assert "repositoryOpts" not in i
    config = yaml.safe_load(i["values"]["managerConfig"]["controllerManagerConfigYaml"])
    # Only what Ray needs: no pod, deployment or statefulset webhooks over the platform's pods.
    assert config["integrations"] == {
        "frameworks": ["batch/job", "ray.io/rayjob", "ray.io/rayservice", "ray.io/raycluster"]
    }
    assert (config["apiVersion"], config["kind"]) == ("config.kueue.x-k8s.io/v1beta2", "Configuration")
    assert full.named(f"{resource}-kuberay")["urn"] in record["dependsOn"]
    # Kueue admits through its own ray.io integrations: KubeRay gets no batchScheduler.
    assert "batchScheduler" not in inputs(full, f"{resource}-kuberay")["values"]


ON_DEMAND = {
    "key": "node.anyscale.com/capacity-type",
    "operator": "Equal",
    "value": "ON_DEMAND",
    "effect": "NoSchedule",
}
SPOT = {"key": "node.anyscale.com/capacity-type", "operator": "Equal", "value": "SPOT", "effect": "NoSchedule"}
AKS_SPOT = {
    "key": "kubernetes.azure.com/scalesetpriority",
    "operator": "Equal",
    "value": "spot",
    "effect": "NoSchedule",
}
GPU = [
    {"key": "nvidia.com/gpu", "operator": "Equal", "value": "present", "effect": "NoSchedule"},
    {"key": "node.anyscale.com/accelerator-type", "operator": "Equal", "value": "GPU", "effect": "NoSchedule"},
]


def quota(cpu: str, memory: str, gpu: str) -> list[dict[str, str]]:
    return [
        {"name": "cpu", "nominalQuota": cpu},
        {"name": "memory", "nominalQuota": memory},
        {"name": "nvidia.com/gpu", "nominalQuota": gpu},
    ]


# Per resource: (flavor, nodeLabels, the pool's taints (as the tolerations matching them), the
# flavor's own tolerations (the taints but the GPU ones, which a workload must tolerate itself),
# quota at maxCount). The default pools are
# 10 16-vCPU, 64 GiB nodes each (on-demand, spot); the primary adds 4 T4 nodes (16 vCPU,
# 110 GiB, 1 GPU); Generic's pools are unknown: one empty flavor with the given quota.
Tolerations = list[dict[str, str]]
FLAVORS: dict[str, list[tuple[str, dict[str, str], Tolerations, Tolerations, Tolerations]]] = {
    "default": [
        (
            "pool-cpu",
            {"node.anyscale.com/capacity-type": "ON_DEMAND"},
            [ON_DEMAND],
            [ON_DEMAND],
            quota("160", "640Gi", "0"),
        ),
        (
            "pool-cpuspot",
            {"node.anyscale.com/capacity-type": "SPOT"},
            [SPOT, AKS_SPOT],
            [SPOT, AKS_SPOT],
            quota("160", "640Gi", "0"),
        ),
        (
            "pool-gput4",
            {
                "node.anyscale.com/capacity-type": "ON_DEMAND",
                "nvidia.com/gpu.product": "NVIDIA-T4",
                "nvidia.com/gpu.count": "1",
                "node.anyscale.com/accelerator-type": "GPU",
            },
            [ON_DEMAND, *GPU],
            [ON_DEMAND],
            quota("64", "440Gi", "4"),
        ),
    ],
    "aws": [
        (
            "pool-cpu",
            {"node.anyscale.com/capacity-type": "ON_DEMAND"},
            [ON_DEMAND],
            [ON_DEMAND],
            quota("160", "640Gi", "0"),
        ),
        ("pool-cpuspot", {"node.anyscale.com/capacity-type": "SPOT"}, [SPOT], [SPOT], quota("160", "640Gi", "0")),
    ],
    "onprem": [("default-flavor", {}, [], [], quota("64", "256Gi", "2"))],
}


@pytest.mark.parametrize("resource", ["default", "aws", "onprem"])
def test_kueue_has_a_labelled_tolerating_flavor_per_pool(full: Plan, resource: str) -> None:
    queue = full.named(f"{resource}-cluster-queue")
    assert queue["type"] == "kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueue"
    assert queue["inputs"]["metadata"] == {"name": "ray-cluster-queue"}
    entries = []
    for flavor, labels, taints, tolerations, quotas in FLAVORS[resource]:
        key = "resource-flavor" if flavor == "default-flavor" else f"resource-flavor-{flavor}"
        record = full.named(f"{resource}-{key}")
        assert record["type"] == "kubernetes:kueue.x-k8s.io/v1beta2:ResourceFlavor"
        assert record["inputs"]["metadata"] == {"name": flavor}
        node_taints = [{k: t[k] for k in ("key", "value", "effect")} for t in taints]
        expected = {"nodeLabels": labels, "nodeTaints": node_taints, "tolerations": tolerations} if labels else {}
        assert record["inputs"].get("spec", {}) == expected
        assert record["urn"] in queue["dependsOn"]
        entries.append({"name": flavor, "resources": quotas})
    assert queue["inputs"]["spec"] == {
        "namespaceSelector": {},
        "resourceGroups": [{"coveredResources": ["cpu", "memory", "nvidia.com/gpu"], "flavors": entries}],
    }
    assert full.named(f"{resource}-kueue")["urn"] in queue["dependsOn"]
    for namespace in ("default", "kuberay-smoke-test"):
        local = full.named(f"{resource}-local-queue-{namespace}")
        assert local["type"] == "kubernetes:kueue.x-k8s.io/v1beta2:LocalQueue"
        assert local["inputs"]["metadata"] == {"name": "ray-queue", "namespace": namespace}
        assert local["inputs"]["spec"] == {"clusterQueue": "ray-cluster-queue"}
        assert queue["urn"] in local["dependsOn"]


@pytest.mark.parametrize("resource, operator", [("default", "operator-extension"), ("aws", "anyscale-operator")])
def test_anyscale_operator_goes_after_kueue(full: Plan, rotation: Plan, resource: str, operator: str) -> None:
    # Its chart renders the Kueue RBAC only when Kueue's API exists at render time.
    assert full.named(f"{resource}-kueue")["urn"] in full.named(f"{resource}-{operator}")["dependsOn"]
    assert not [u for u in rotation.named(f"{resource}-{operator}")["dependsOn"] if "kueue" in u]


def test_kuberay_operator_goes_after_volcano(rotation: Plan) -> None:
    # KubeRay's Volcano plugin creates PodGroups: the operator needs Volcano's CRDs at start.
    volcano = rotation.named("default-volcano")
    assert volcano["urn"] in rotation.named("default-kuberay")["dependsOn"]
    assert rotation.named("default-kuberay")["urn"] not in volcano["dependsOn"]


# --- the smoke RayJob -----------------------------------------------------------------------


@pytest.mark.parametrize("resource", NAMES)
def test_smoke_job_waits_for_success_in_its_own_namespace(full: Plan, resource: str) -> None:
    namespace = full.named(f"{resource}-smoke-namespace")
    assert namespace["inputs"]["metadata"] == {"name": "kuberay-smoke-test"}
    job = full.named(f"{resource}-smoke-test")
    assert job["type"] == "kubernetes:ray.io/v1:RayJob"
    meta = job["inputs"]["metadata"]
    assert (meta["name"], meta["namespace"]) == ("kuberay-smoke-test", "kuberay-smoke-test")
    assert meta["annotations"] == {
        "pulumi.com/waitFor": "jsonpath={.status.jobStatus}=SUCCEEDED",
        "pulumi.com/timeoutSeconds": "900",
    }
    assert meta["labels"] == {"kueue.x-k8s.io/queue-name": "ray-queue"}
    spec = job["inputs"]["spec"]
    assert (spec["shutdownAfterJobFinishes"], spec["ttlSecondsAfterFinished"], spec["backoffLimit"]) == (True, 60, 0)
    assert spec["activeDeadlineSeconds"] == 840
    assert spec["entrypoint"].startswith('python -c "import ray; ray.init();')
    cluster = spec["rayClusterSpec"]
    assert cluster["rayVersion"] == "2.52.0" and cluster["authOptions"] == {"mode": "token"}
    assert "workerGroupSpecs" not in cluster  # head only: no worker pool scales up
    (head,) = cluster["headGroupSpec"]["template"]["spec"]["containers"]
    assert head["image"] == "rayproject/ray:2.52.0"
    assert head["resources"] == {"requests": {"cpu": "1", "memory": "2Gi"}, "limits": {"cpu": "1", "memory": "2Gi"}}
    assert "tolerations" not in cluster["headGroupSpec"]["template"]["spec"]  # CPU only, system pool
    urns = {
        full.named(f"{resource}-{k}")["urn"]
        for k in ("kuberay", "smoke-namespace", "kueue", "local-queue-kuberay-smoke-test")
    }
    assert urns <= set(job["dependsOn"])
    assert job["options"]["deletedWith"] == full.named(f"{resource}-kuberay")["options"]["deletedWith"]


def test_smoke_job_without_kueue_or_auth_has_no_queue_label(rotation: Plan) -> None:
    job = rotation.named("default-smoke-test")
    assert job["inputs"]["metadata"].get("labels", {}) == {}
    assert "authOptions" not in job["inputs"]["spec"]["rayClusterSpec"]
    assert rotation.named("default-volcano")["urn"] in job["dependsOn"]
    assert "aws-smoke-test" not in names(rotation)


KUEUE_KINDS = ("ResourceFlavor", "ClusterQueue", "LocalQueue")


@pytest.fixture(scope="module")
def rayjob_crd_report(
    full: Plan, rotation: Plan, tmp_path_factory: pytest.TempPathFactory, render_cache: Path
) -> dict[str, list[str]]:
    """Every RayJob and Kueue object of the `full` and `rotation` plans, and the Ray manifests of
    docs/what-it-creates.md, against KubeRay 1.7.0's RayJob CRD and Kueue 0.19.2's CRDs (as its
    chart renders them), in one run. A documented RayCluster is checked as a RayJob's
    `rayClusterSpec`: the same Go type (RayClusterSpec), without parsing a second megabyte of CRD."""
    folder = tmp_path_factory.mktemp("rayjob-crd")
    kueue = helm.render(
        helm.CHARTS / "kueue-0.19.2", inputs(full, "aws-kueue")["values"], "kueue-system", "kueue", render_cache
    )
    crd = folder / "crds.yaml"
    crd.write_text(
        # The copy that ships with the program (components/data/kuberay, checked in test_shipped.py).
        shipped.kuberay_file("1.7.0", "crds/ray.io_rayjobs.yaml")
        + "\n---\n"
        # Only the kinds the program creates: the others (Workload's embeds a PodSpec) would
        # cost seconds of parsing for nothing.
        + yaml.safe_dump_all(
            [o for o in kueue if o["kind"] == "CustomResourceDefinition" and o["spec"]["names"]["kind"] in KUEUE_KINDS]
        ),
        encoding="utf-8",
    )
    docs = []
    for obj in flows.docs_objects():
        if obj["kind"] == "RayCluster":
            obj = {**obj, "kind": "RayJob", "spec": {"rayClusterSpec": obj["spec"]}}
        docs.append(
            {"type": f"kubernetes:ray.io/v1:{obj['kind']}", "name": f"docs-{obj['metadata']['name']}", "inputs": obj}
        )
    plans = {"full": full.to_json(), "rotation": rotation.to_json(), "docs": {"resources": docs}}
    return crds.report(crd, plans, folder)


def test_smoke_job_and_kueue_objects_are_valid_against_their_crds(rayjob_crd_report: dict[str, list[str]]) -> None:
    lines = rayjob_crd_report["full"]
    assert crds.valid_at_creation(lines), "\n".join(lines)  # LocalQueue's clusterQueue is immutable
    assert crds.objects(lines, "RayJob ray.io/v1") == 4
    # Per resource a ClusterQueue; flavors: 3 + 2 + 2 pools and Generic's one; 2 LocalQueues each.
    api = "kueue.x-k8s.io/v1beta2"
    assert (crds.objects(lines, f"ResourceFlavor {api}"), crds.objects(lines, f"ClusterQueue {api}")) == (8, 4)
    assert crds.objects(lines, f"LocalQueue {api}") == 9  # and aws's in team-a


def test_the_docs_ray_manifests_are_valid_against_the_crds(rayjob_crd_report: dict[str, list[str]]) -> None:
    lines = rayjob_crd_report["docs"]
    assert crds.all_valid(lines), "\n".join(lines)
    assert crds.objects(lines, "RayJob ray.io/v1") == 2  # the queued RayJob and the elastic RayCluster


# --- metrics ----------------------------------------------------------------------------------


@pytest.mark.parametrize("resource", NAMES)
def test_metrics_with_kube_prometheus_stack(full: Plan, resource: str) -> None:
    prometheus = full.named(f"{resource}-prometheus")
    i = prometheus["inputs"]
    assert (i["chart"], i["version"], i["namespace"], i["repositoryOpts"]) == (
        "kube-prometheus-stack",
        "88.5.3",
        "monitoring",
        {"repo": "https://prometheus-community.github.io/helm-charts"},
    )
    assert i["values"]["prometheus"] == {
        "prometheusSpec": {
            "serviceMonitorSelectorNilUsesHelmValues": False,
            "podMonitorSelectorNilUsesHelmValues": False,
        }
    }
    assert sorted(i["values"]["grafana"]["dashboards"]["ray"]) == sorted(RAY_DASHBOARDS)
    kuberay = full.named(f"{resource}-kuberay")
    assert kuberay["inputs"]["values"]["metrics"] == {"serviceMonitor": {"enabled": True}}
    assert prometheus["urn"] in kuberay["dependsOn"]  # the chart's ServiceMonitor needs the CRDs
    head, workers = full.named(f"{resource}-ray-head-monitor"), full.named(f"{resource}-ray-workers-monitor")
    for monitor, node_type in ((head, "head"), (workers, "worker")):
        assert monitor["type"] == "kubernetes:monitoring.coreos.com/v1:PodMonitor"
        assert monitor["inputs"]["metadata"]["namespace"] == "kuberay-system"
        assert monitor["inputs"]["spec"]["namespaceSelector"] == {"any": True}
        assert monitor["inputs"]["spec"]["selector"] == {"matchLabels": {"ray.io/node-type": node_type}}
        assert prometheus["urn"] in monitor["dependsOn"]
    assert [e["port"] for e in head["inputs"]["spec"]["podMetricsEndpoints"]] == [
        "metrics",
        "as-metrics",
        "dash-metrics",
    ]


# sha256 of each file of config/grafana in ray-project/kuberay at tag v1.7.0.
DASHBOARD_SHA256 = {
    "default_grafana_dashboard.json": "8a0188ac5ed70421f280f6ddea1d9b58bcc5ce1eef540c7de87451233575280c",
    "data_grafana_dashboard.json": "2081725524ffdaa1c67f38813e0dc82b3bbf7307ee7cd5c2ac4b96e8d57b07a0",
    "serve_grafana_dashboard.json": "f8b6017ad5512379c93197426d8066962fdcd3acfb1eb07dbc2f01fff310014d",
    "serve_deployment_grafana_dashboard.json": "159e7e70df184821c4d041499b53d77e668c78ae2ed23f4df895cceb35e29a75",
    "train_grafana_dashboard.json": "6a73dfe224ab79409cbb03cb4381de37c3377a224cf860f4a5af9de53ae679e8",
    "KubeRay-Operator.json": "76abe7b3673533eaae41158778d5b2e1fffc5619e179b51c11331f4832271c5e",
}
# Ray's dashboards in kuberay v1.7.0 config/grafana (name -> file).
RAY_DASHBOARDS = {
    "ray-default": "default_grafana_dashboard.json",
    "ray-data": "data_grafana_dashboard.json",
    "ray-serve": "serve_grafana_dashboard.json",
    "ray-serve-deployment": "serve_deployment_grafana_dashboard.json",
    "ray-train": "train_grafana_dashboard.json",
    "kuberay-operator": "KubeRay-Operator.json",
}


def test_grafana_gets_rays_dashboards_of_the_operators_tag_from_the_program(full: Plan, render_cache: Path) -> None:
    values = inputs(full, "aws-prometheus")["values"]
    objects = helm.render(
        helm.CHARTS / "kube-prometheus-stack-88.5.3", values, "monitoring", "kube-prometheus-stack", render_cache
    )
    (grafana,) = [o for o in objects if o["kind"] == "Deployment" and o["metadata"]["name"].endswith("-grafana")]
    pod = grafana["spec"]["template"]["spec"]
    # Nothing is downloaded when Grafana starts: the chart's download-dashboards init container
    # (there whenever `dashboards` is set) runs a script that only makes the folders.
    (script,) = [
        o["data"]["download_dashboards.sh"] for o in objects if "download_dashboards.sh" in (o.get("data") or {})
    ]
    assert "curl" not in script and "http" not in script, script
    assert "mkdir -p /var/lib/grafana/dashboards/ray" in script
    (dashboards,) = [o for o in objects if o["metadata"]["name"] == "kube-prometheus-stack-grafana-dashboards-ray"]
    # Each dashboard is KubeRay v1.7.0's config/grafana file (sha256 of the file at the tag),
    # as compact JSON; the ConfigMap stays under the API server's 1 MiB.
    assert set(dashboards["data"]) == {f"{name}.json" for name in RAY_DASHBOARDS}
    for name, file in RAY_DASHBOARDS.items():
        text = shipped.kuberay_file("1.7.0", f"grafana/{file}")
        assert hashlib.sha256(text.encode()).hexdigest() == DASHBOARD_SHA256[file]
        assert json.loads(dashboards["data"][f"{name}.json"]) == json.loads(text)
    assert sum(len(v.encode()) for v in dashboards["data"].values()) < 1024 * 1024
    mounts = {m["mountPath"] for c in pod["containers"] for m in c.get("volumeMounts", [])}
    assert {f"/var/lib/grafana/dashboards/ray/{name}.json" for name in RAY_DASHBOARDS} <= mounts
    providers = [o for o in objects if o["kind"] == "ConfigMap" and "dashboardproviders.yaml" in o.get("data", {})]
    (provider,) = yaml.safe_load(providers[0]["data"]["dashboardproviders.yaml"])["providers"]
    assert (provider["folder"], provider["options"]["path"]) == ("Ray", "/var/lib/grafana/dashboards/ray")
    # Grafana lets the Ray dashboard embed its panels, for viewers without a Grafana session
    # (what KubeRay's install/prometheus/overrides.yaml at v1.7.0 sets).
    (ini,) = [
        o["data"]["grafana.ini"] for o in objects if o["kind"] == "ConfigMap" and "grafana.ini" in o.get("data", {})
    ]
    sections = {
        name: dict(re.findall(r"^(\w+) = (.*)$", body, re.M))
        for name, body in re.findall(r"^\[([\w.]+)\]\n(.*?)(?=^\[|\Z)", ini, re.M | re.S)
    }
    assert sections["security"]["allow_embedding"] == "true"
    assert (sections["auth.anonymous"]["enabled"], sections["auth.anonymous"]["org_role"]) == ("true", "Viewer")
    # The Ray head learns where Prometheus and Grafana are: the rendered Services' names and ports.
    services = {o["metadata"]["name"]: o["spec"]["ports"][0]["port"] for o in objects if o["kind"] == "Service"}
    assert (services["kube-prometheus-stack-prometheus"], services["kube-prometheus-stack-grafana"]) == (9090, 80)
    (head,) = inputs(full, "aws-smoke-test")["spec"]["rayClusterSpec"]["headGroupSpec"]["template"]["spec"][
        "containers"
    ]
    assert head["env"] == [
        {"name": "RAY_PROMETHEUS_HOST", "value": "http://kube-prometheus-stack-prometheus.monitoring.svc:9090"},
        {"name": "RAY_GRAFANA_HOST", "value": "http://kube-prometheus-stack-grafana.monitoring.svc:80"},
        {"name": "RAY_GRAFANA_IFRAME_HOST", "value": "http://127.0.0.1:3000"},
    ]


def test_metrics_without_prometheus_installs_only_the_monitors(rotation: Plan) -> None:
    # On Generic only: the cluster may have the Prometheus Operator's CRDs (the spec refuses it elsewhere).
    assert "onprem-prometheus" not in names(rotation)
    assert inputs(rotation, "onprem-kuberay")["values"]["metrics"] == {"serviceMonitor": {"enabled": True}}
    assert "onprem-ray-head-monitor" in names(rotation) and "aws-ray-head-monitor" not in names(rotation)


# --- authentication, network policy --------------------------------------------------------------


def test_kubernetes_rbac_installs_the_ray_roles(rotation: Plan) -> None:
    authenticator = inputs(rotation, "aws-ray-authenticator")
    assert authenticator["metadata"] == {"name": "ray-authenticator"}
    assert authenticator["rules"] == [
        {"apiGroups": ["authentication.k8s.io"], "resources": ["tokenreviews"], "verbs": ["create"]},
        {"apiGroups": ["authorization.k8s.io"], "resources": ["subjectaccessreviews"], "verbs": ["create"]},
    ]
    assert inputs(rotation, "aws-ray-writer")["rules"] == [
        {"apiGroups": ["ray.io"], "resources": ["rayclusters"], "verbs": ["ray:write"]}
    ]
    assert "default-ray-writer" not in names(rotation)


def test_network_policy_and_feature_gates_send_the_charts_whole_list(rotation: Plan) -> None:
    i = inputs(rotation, "onprem-kuberay")
    assert i["version"] == "1.7.0"
    # kuberay-operator 1.7.0 values.yaml `featureGates`, with RayCronJob and the network policy gate on.
    assert i["values"]["featureGates"] == [
        {"name": "RayClusterStatusConditions", "enabled": True},
        {"name": "RayJobDeletionPolicy", "enabled": True},
        {"name": "RayMultiHostIndexing", "enabled": True},
        {"name": "RayServiceIncrementalUpgrade", "enabled": True},
        {"name": "RayCronJob", "enabled": True},
        {"name": "RayClusterMTLS", "enabled": False},
        {"name": "RayClusterNetworkPolicy", "enabled": True},
        {"name": "RayClusterHistoryServer", "enabled": False},
    ]
    assert "featureGates" not in inputs(rotation, "default-kuberay")["values"]


# --- the operator chart at 1.7.0 reads what we set -----------------------------------------------


@pytest.mark.parametrize(
    "chart_values, argument",
    [
        ({"batchScheduler": {"name": "volcano"}}, "--batch-scheduler=volcano"),
        ({"batchScheduler": {"name": "kai-scheduler"}}, "--batch-scheduler=kai-scheduler"),
    ],
)
def test_operator_chart_passes_the_scheduler(chart_values: dict[str, Any], argument: str, render_cache: Path) -> None:
    objects = helm.render(
        helm.CHARTS / "kuberay-operator-1.7.0", chart_values, "kuberay-system", "kuberay-operator", render_cache
    )
    (deployment,) = [o for o in objects if o["kind"] == "Deployment"]
    assert argument in deployment["spec"]["template"]["spec"]["containers"][0]["args"]


def test_operator_chart_renders_its_service_monitor(render_cache: Path) -> None:
    values = {"metrics": {"serviceMonitor": {"enabled": True}}}
    objects = helm.render(
        helm.CHARTS / "kuberay-operator-1.7.0", values, "kuberay-system", "kuberay-operator", render_cache
    )
    (monitor,) = [o for o in objects if o["kind"] == "ServiceMonitor"]
    assert monitor["metadata"]["namespace"] == "kuberay-system"
    assert monitor["spec"]["selector"] == {"matchLabels": {"app.kubernetes.io/name": "kuberay-operator"}}


# --- the example stack ----------------------------------------------------------------------------


def test_example_primary_runs_kueue_metrics_and_the_smoke_job(example_plan: Plan) -> None:
    present = names(example_plan)
    assert {"default-kueue", "default-prometheus", "default-smoke-test", "default-cluster-queue"} <= present
    # Its pools: 2 x 10 D16s_v5 (16 vCPU, 64 GiB) and 4 T4 nodes (16 vCPU, 110 GiB, 1 GPU).
    flavors = inputs(example_plan, "default-cluster-queue")["spec"]["resourceGroups"][0]["flavors"]
    assert [(f["name"], [q["nominalQuota"] for q in f["resources"]]) for f in flavors] == [
        ("pool-cpu", ["160", "640Gi", "0"]),
        ("pool-cpuspot", ["160", "640Gi", "0"]),
        ("pool-gput4", ["64", "440Gi", "4"]),
    ]
    flavor = inputs(example_plan, "default-resource-flavor-pool-gput4")["spec"]
    assert flavor["nodeLabels"]["nvidia.com/gpu.product"] == "NVIDIA-T4"
    # The GPU taint is the flavor's (a workload must tolerate it to be admitted), not tolerated for it.
    assert {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"} in flavor["nodeTaints"]
    assert "nvidia.com/gpu" not in [t["key"] for t in flavor["tolerations"]]
    # The EKS resource runs Kueue as the primary's MultiKueue worker (tests/components/test_multikueue.py).
    assert not {"aws-usw2-smoke-test", "gcp-usc1-kueue", "gcp-usc1-smoke-test", "onprem-prometheus"} & present


# --- the other charts at their pins read what we set ---------------------------------------------


def test_scheduler_plugins_answers_to_the_name_kuberay_stamps(rotation: Plan, render_cache: Path) -> None:
    values = inputs(rotation, "aws-scheduler-plugins")["values"]
    objects = helm.render(
        helm.CHARTS / "scheduler-plugins-0.33.5", values, "scheduler-plugins", "scheduler-plugins", render_cache
    )
    (config,) = [o for o in objects if o["kind"] == "ConfigMap" and "scheduler-config.yaml" in o.get("data", {})]
    profiles = yaml.safe_load(config["data"]["scheduler-config.yaml"])["profiles"]
    # KubeRay v1.7.0 batchscheduler/scheduler-plugins/scheduler_plugins.go: schedulerName.
    assert [p["schedulerName"] for p in profiles] == ["scheduler-plugins-scheduler"]


def webhooks(objects: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {w["name"]: w for o in objects if o["kind"].endswith("WebhookConfiguration") for w in o.get("webhooks", [])}


def excluded(webhook: dict[str, Any]) -> set[str]:
    (expression,) = webhook["namespaceSelector"]["matchExpressions"]
    assert (expression["key"], expression["operator"]) == ("kubernetes.io/metadata.name", "NotIn")
    return set(expression["values"])


def test_kueue_webhooks_fail_closed_only_for_ray_and_jobs_outside_the_platform(full: Plan, render_cache: Path) -> None:
    ours = webhooks(
        helm.render(
            helm.CHARTS / "kueue-0.19.2", inputs(full, "aws-kueue")["values"], "kueue-system", "kueue", render_cache
        )
    )
    for kind in ("pod", "deployment", "statefulset"):
        assert (ours[f"m{kind}.kb.io"]["failurePolicy"], ours[f"v{kind}.kb.io"]["failurePolicy"]) == (
            "Ignore",
            "Ignore",
        )
    # Every namespace a chart of this plan installs into is outside Kueue's fail-closed webhooks.
    platform = {r["inputs"]["namespace"] for r in full.resources if r["type"] == "kubernetes:helm.sh/v3:Release"}
    platform |= {"kube-system", "anyscale-operator"}
    for name in ("mjob.kb.io", "mrayjob.kb.io", "mraycluster.kb.io", "mrayservice.kb.io"):
        assert ours[name]["failurePolicy"] == "Fail"
        assert platform <= excluded(ours[name]) and "default" not in excluded(ours[name])
    # The chart's own values: pods fail closed everywhere but kube-system and kueue-system.
    defaults = webhooks(helm.render(helm.CHARTS / "kueue-0.19.2", {}, "kueue-system", "kueue", render_cache))
    assert defaults["mpod.kb.io"]["failurePolicy"] == "Fail"
    assert excluded(defaults["mpod.kb.io"]) == {"kube-system", "kueue-system"}


# --- the GPU smoke RayJob ---------------------------------------------------------------------


def test_gpu_smoke_job_asks_for_one_gpu_on_the_gpu_pool(
    rotation: Plan, rayjob_crd_report: dict[str, list[str]]
) -> None:
    job = rotation.named("default-gpu-smoke-test")
    assert job["type"] == "kubernetes:ray.io/v1:RayJob"
    meta = job["inputs"]["metadata"]
    assert (meta["name"], meta["namespace"]) == ("kuberay-gpu-smoke-test", "kuberay-smoke-test")
    assert meta["annotations"] == {
        "pulumi.com/waitFor": "jsonpath={.status.jobStatus}=SUCCEEDED",
        "pulumi.com/timeoutSeconds": "1800",
    }
    spec = job["inputs"]["spec"]
    assert spec["activeDeadlineSeconds"] == 1740 and "ray.get_gpu_ids()" in spec["entrypoint"]
    (group,) = spec["rayClusterSpec"]["workerGroupSpecs"]
    assert (group["groupName"], group["replicas"], group["minReplicas"], group["maxReplicas"]) == ("gpu", 1, 1, 1)
    pod = group["template"]["spec"]
    (worker,) = pod["containers"]
    assert worker["image"] == "rayproject/ray:2.52.0-gpu"
    assert worker["resources"]["limits"]["nvidia.com/gpu"] == "1"
    # The T4 pool's labels (the operator chart's azure T4 value) and its three taints.
    assert pod["nodeSelector"] == {
        "node.anyscale.com/capacity-type": "ON_DEMAND",
        "nvidia.com/gpu.product": "NVIDIA-T4",
        "nvidia.com/gpu.count": "1",
        "node.anyscale.com/accelerator-type": "GPU",
    }
    assert pod["tolerations"] == [ON_DEMAND, *GPU]
    pool = inputs(rotation, "default-pool-gput4")
    assert pool["nodeLabels"] == pod["nodeSelector"]
    assert sorted(pool["nodeTaints"]) == sorted(f"{t['key']}={t['value']}:{t['effect']}" for t in pod["tolerations"])
    assert "aws-gpu-smoke-test" not in names(rotation)
    urns = {rotation.named(f"default-{k}")["urn"] for k in ("kuberay", "smoke-namespace", "volcano")}
    assert urns <= set(job["dependsOn"])
    lines = rayjob_crd_report["rotation"]
    assert crds.all_valid(lines), "\n".join(lines)
    assert any(": default-gpu-smoke-test (RayJob ray.io/v1," in line for line in lines)
