"""Each KubeRay option followed end to end: a Ray pod of a given shape, taken from what the
program creates (the recorded plans of tests/kuberay_stack.py, the charts rendered at their
pins), through the scheduler's admission (Kueue's flavors, Volcano's actions, KAI's webhook,
YuniKorn's placement) to its node selector, tolerations and runtime class, and to what the
cluster autoscaler sees for a pool at zero. The rules of Kueue, the scheduler and the
autoscaler are in tests/flows.py with their upstream sources; the facts here are literals.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from preflight.runtime import Plan
from tests import flows, helm

GIB = 2**30
# Standard_D16s_v5: 16 vCPU, 64 GiB; Standard_NC16as_T4_v3: 16 vCPU, 110 GiB, one T4 (Azure's
# size tables, as config/data/instance_types.py holds them): the autoscaler's template for a pool
# at zero takes its resources from the VM size.
D16S_V5 = {"cpu": 16.0, "memory": 64.0 * GIB, "nvidia.com/gpu": 0.0}
NC16AS_T4 = {"cpu": 16.0, "memory": 110.0 * GIB, "nvidia.com/gpu": 1.0}
GPU_TOLERATIONS = [
    {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
    {"key": "node.anyscale.com/accelerator-type", "operator": "Exists", "effect": "NoSchedule"},
]


def pod(cpu: str, memory: str, gpu: str = "0", **spec: Any) -> dict[str, Any]:
    requests = {"cpu": cpu, "memory": memory} | ({"nvidia.com/gpu": gpu} if gpu != "0" else {})
    return {"containers": [{"name": "ray", "resources": {"requests": requests, "limits": requests}}], **spec}


def pool_at_zero(plan: Plan, name: str, allocatable: dict[str, float]) -> flows.Node:
    """The autoscaler's template for an AKS agent pool of the plan, checked to start at zero."""
    pool = plan.named(name)["inputs"]
    assert (pool["enableAutoScaling"], pool["minCount"], pool["count"]) == (True, 0, 0)
    return flows.Node(pool["nodeLabels"], [flows.aks_taint(t) for t in pool.get("nodeTaints", [])], allocatable)


def kueue_of(plan: Plan, resource: str) -> flows.Kueue:
    queue = plan.named(f"{resource}-cluster-queue")["inputs"]["spec"]
    kinds = {
        r["inputs"]["metadata"]["name"]: r["inputs"].get("spec", {})
        for r in plan.resources
        if r["type"] == "kubernetes:kueue.x-k8s.io/v1beta2:ResourceFlavor" and r["name"].startswith(f"{resource}-")
    }
    names = [f["name"] for f in queue["resourceGroups"][0]["flavors"]]
    return flows.Kueue(queue, {n: kinds[n] for n in names})


# --- Kueue ------------------------------------------------------------------------------------


def test_kueue_takes_a_gpu_worker_to_the_t4_pool_from_zero(full: Plan) -> None:
    kueue = kueue_of(full, "default")
    worker = pod("4", "16Gi", "1", tolerations=GPU_TOLERATIONS)
    flavor, admitted = kueue.admit(worker)
    assert flavor == "pool-gput4"
    # Kueue's node selector and the capacity-type toleration it adds (the flavor's own).
    assert admitted["nodeSelector"] == {
        "node.anyscale.com/accelerator-type": "GPU",
        "node.anyscale.com/capacity-type": "ON_DEMAND",
        "nvidia.com/gpu.count": "1",
        "nvidia.com/gpu.product": "NVIDIA-T4",
    }
    t4 = pool_at_zero(full, "default-pool-gput4", NC16AS_T4)
    assert t4.why_not(admitted) == []
    assert pool_at_zero(full, "default-pool-cpu", D16S_V5).why_not(admitted)  # only the T4 pool grows
    # Without the GPU tolerations it is admitted nowhere: the T4 flavor's taints are not
    # tolerated, the CPU flavors have no GPU quota.
    assert kueue.assign(pod("4", "16Gi", "1")) is None


def test_kueue_never_admits_cpu_workers_to_the_gpu_flavor(full: Plan) -> None:
    kueue = kueue_of(full, "default")
    cpu, spot = pool_at_zero(full, "default-pool-cpu", D16S_V5), pool_at_zero(full, "default-pool-cpuspot", D16S_V5)
    where = []
    for _ in range(41):  # 8 vCPU each: 20 fill the on-demand quota (160), 20 the spot one
        flavor, admitted = kueue.admit(pod("8", "32Gi"))
        where.append(flavor)
        if flavor is not None:
            assert (cpu if flavor == "pool-cpu" else spot).why_not(admitted) == []
    assert where == ["pool-cpu"] * 20 + ["pool-cpuspot"] * 20 + [None]
    # The T4 flavor's 64 vCPUs stay free: a CPU-only pod does not tolerate its GPU taints.
    assert kueue.assign(pod("8", "32Gi")) is None


def test_kueue_admits_the_smoke_jobs_head_to_the_first_cpu_pool(full: Plan) -> None:
    """The cost docs/what-it-creates.md states: a queued head leaves the system pool."""
    job = full.named("default-smoke-test")["inputs"]
    head = job["spec"]["rayClusterSpec"]["headGroupSpec"]["template"]["spec"]
    flavor, admitted = kueue_of(full, "default").admit(head)
    assert flavor == "pool-cpu"
    assert pool_at_zero(full, "default-pool-cpu", D16S_V5).why_not(admitted) == []
    assert flows.kueue_rejects({"kind": "RayJob", **job}) == []


def test_the_docs_kueue_recipes_pass_kueues_webhooks_and_reach_their_pools(full: Plan) -> None:
    queued = [o for o in flows.docs_objects() if "kueue.x-k8s.io/queue-name" in o["metadata"].get("labels", {})]
    assert sorted(o["kind"] for o in queued) == ["RayCluster", "RayJob"]
    for obj in queued:
        assert flows.kueue_rejects(obj) == [], obj["metadata"]["name"]
        assert obj["metadata"]["namespace"] == "default"  # where the LocalQueue is by default
    # What the webhooks refuse, for contrast: the same objects without what the docs add.
    (job,) = [o for o in queued if o["kind"] == "RayJob"]
    (cluster,) = [o for o in queued if o["kind"] == "RayCluster"]
    assert flows.kueue_rejects({**job, "spec": {**job["spec"], "shutdownAfterJobFinishes": False}})
    assert flows.kueue_rejects({**cluster, "metadata": {**cluster["metadata"], "annotations": {}}})
    # The RayJob's pods through Kueue: the GPU worker to the T4 pool, the head to the CPU pool.
    kueue = kueue_of(full, "default")
    spec = job["spec"]["rayClusterSpec"]
    (group,) = spec["workerGroupSpecs"]
    flavor, worker = kueue.admit(group["template"]["spec"], group["replicas"])
    assert flavor == "pool-gput4"
    assert pool_at_zero(full, "default-pool-gput4", NC16AS_T4).why_not(worker) == []
    assert kueue.admit(spec["headGroupSpec"]["template"]["spec"])[0] == "pool-cpu"


def test_local_queues_in_the_namespaces_chosen(full: Plan) -> None:
    def local_queues(resource: str) -> dict[str, dict[str, Any]]:
        prefix = f"{resource}-local-queue-"
        return {r["inputs"]["metadata"]["namespace"]: r for r in full.resources if r["name"].startswith(prefix)}

    # The default: `default` (which exists) and the smoke test's namespace (created for it).
    assert set(local_queues("default")) == {"default", "kuberay-smoke-test"}
    assert not [r for r in full.resources if r["name"].startswith("default-queue-namespace-")]
    # queueNamespaces [default, team-a] on aws: team-a is created, and its LocalQueue waits for it.
    queues = local_queues("aws")
    assert set(queues) == {"default", "team-a", "kuberay-smoke-test"}
    namespace = full.named("aws-queue-namespace-team-a")
    assert (namespace["type"], namespace["inputs"]["metadata"]) == ("kubernetes:core/v1:Namespace", {"name": "team-a"})
    assert namespace["urn"] in queues["team-a"]["dependsOn"]
    assert queues["team-a"]["inputs"]["spec"] == {"clusterQueue": "ray-cluster-queue"}


# --- Volcano ----------------------------------------------------------------------------------


def rendered(plan: Plan, release: str, chart: str, namespace: str, cache: Path) -> list[dict[str, Any]]:
    if helm.unavailable():
        pytest.skip(helm.unavailable())
    values = plan.named(release)["inputs"].get("values", {})
    return helm.render(helm.CHARTS / chart, values, namespace, release.split("-", 1)[1], cache)


def volcano_scheduler_chart(folder: Path) -> Path:
    """Volcano's chart with its scheduler's template only (templates/scheduler.yaml, the helpers
    and the config files it reads), as it is at the pin: the whole chart renders 1.3 MB of
    CRDs, many seconds of CPU for objects this test does not read."""
    source = helm.CHARTS / "volcano-1.14.4"
    chart = yaml.safe_load((source / "Chart.yaml").read_text())
    assert [d["name"] for d in chart.pop("dependencies")] == ["jobflow"]  # a subchart of other templates
    (folder / "templates").mkdir(parents=True)
    (folder / "config").mkdir()
    (folder / "Chart.yaml").write_text(yaml.safe_dump(chart))
    (folder / "values.yaml").write_text((source / "values.yaml").read_text())
    for part in (
        "templates/scheduler.yaml",
        "templates/_helpers.tpl",
        *(f"config/{f.name}" for f in (source / "config").iterdir()),
    ):
        (folder / part).write_text((source / part).read_text())
    return folder


def test_volcano_lets_a_pending_gang_reach_the_autoscaler(
    rotation: Plan, render_cache: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    if helm.unavailable():
        pytest.skip(helm.unavailable())
    chart = volcano_scheduler_chart(tmp_path_factory.mktemp("volcano") / "volcano")
    values = rotation.named("default-volcano")["inputs"]["values"]
    objects = helm.render(chart, values, "volcano-system", "volcano", render_cache)
    (config,) = [o for o in objects if o["kind"] == "ConfigMap" and "volcano-scheduler.conf" in o.get("data", {})]
    conf = yaml.safe_load(config["data"]["volcano-scheduler.conf"])
    # No `enqueue`: allocate.go moves a Pending PodGroup to Inqueue and marks what it cannot
    # place Unschedulable; the chart's own file starts with enqueue.
    assert [a.strip() for a in conf["actions"].split(",")] == ["allocate", "backfill"]
    chart_default = (helm.CHARTS / "volcano-1.14.4" / "config" / "volcano-scheduler.conf").read_text()
    assert chart_default.startswith('actions: "enqueue, allocate, backfill"')
    plugins = [p["name"] for tier in conf["tiers"] for p in tier["plugins"]]
    assert plugins[:2] == ["priority", "gang"] and "predicates" in plugins  # gangs still bind together
    # The gang: the GPU smoke job's worker, Unschedulable on an empty cluster, is what the
    # autoscaler sees; the T4 pool's template takes it, the CPU pool's does not.
    job = rotation.named("default-gpu-smoke-test")["inputs"]
    (group,) = job["spec"]["rayClusterSpec"]["workerGroupSpecs"]
    worker = group["template"]["spec"]
    assert pool_at_zero(rotation, "default-pool-gput4", NC16AS_T4).why_not(worker) == []
    assert pool_at_zero(rotation, "default-pool-cpu", D16S_V5).why_not(worker)


# --- KAI --------------------------------------------------------------------------------------


def kai_webhook_selectors(config: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """What KAI's operator builds from its Config (pkg/operator/operands/admission/resources.go
    buildWebhookSelectors, v0.12.6): namespaces but kube-system and KAI's own; the pod label
    selector, when set, as objectSelector."""
    spec = config["spec"]
    namespaces = {
        "matchExpressions": [
            {"key": "kubernetes.io/metadata.name", "operator": "NotIn", "values": ["kube-system", spec["namespace"]]}
        ]
    }
    labels = spec["global"].get("podLabelSelector")
    return namespaces, ({"matchLabels": labels} if labels else None)


def calls_webhook(namespace: str, labels: dict[str, str], selectors: tuple[dict[str, Any], Any]) -> bool:
    namespaces, objects = selectors
    (expression,) = namespaces["matchExpressions"]
    if namespace in expression["values"]:
        return False
    return objects is None or all(labels.get(k) == v for k, v in objects["matchLabels"].items())


def test_kai_lets_a_gpu_ray_pod_run_without_a_runtime_class(rotation: Plan, render_cache: Path) -> None:
    objects = rendered(rotation, "onprem-kai", "kai-scheduler-v0.12.6", "kai-scheduler", render_cache)
    (config,) = [o for o in objects if o["kind"] == "Config"]
    # The runtime-enforcement plugin is registered only for a non-empty name (cmd/admission/main.go).
    assert config["spec"]["admission"]["gpuPodRuntimeClassName"] == ""
    template = (helm.CHARTS / "kai-scheduler-v0.12.6" / "templates" / "kai-config.yaml").read_text()
    assert '.Values.admission.gpuPodRuntimeClassName | default "nvidia"' in template  # why "" is spelt '""'
    selectors = kai_webhook_selectors(config)
    # A GPU worker as KubeRay labels it (common/pod.go labelPod) with the queue label KAI needs.
    labels = {
        "ray.io/is-ray-node": "yes",
        "ray.io/node-type": "worker",
        "ray.io/cluster": "demo",
        "app.kubernetes.io/created-by": "kuberay-operator",
        "kai.scheduler/queue": "default-queue",
    }
    assert calls_webhook("default", labels, selectors)
    t4 = pool_at_zero(rotation, "default-pool-gput4", NC16AS_T4)
    worker = pod(
        "4",
        "16Gi",
        "1",
        nodeSelector=t4.labels,
        tolerations=[{"key": t["key"], "operator": "Exists", "effect": t["effect"]} for t in t4.taints],
    )
    assert "runtimeClassName" not in worker and t4.why_not(worker) == []
    # The platform's pods never meet KAI's fail-closed webhooks.
    for namespace, pod_labels in (
        ("envoy-gateway-system", {"app.kubernetes.io/name": "envoy"}),
        ("anyscale-operator", {"app.kubernetes.io/name": "anyscale-operator"}),
        ("kuberay-system", {"app.kubernetes.io/name": "kuberay-operator"}),
    ):
        assert not calls_webhook(namespace, pod_labels, selectors)


# --- YuniKorn ---------------------------------------------------------------------------------


def test_yunikorn_places_an_application_in_the_queue_it_names(rotation: Plan, render_cache: Path) -> None:
    objects = rendered(rotation, "gcp-yunikorn", "yunikorn-1.8.0", "yunikorn", render_cache)
    (defaults,) = [o for o in objects if o["kind"] == "ConfigMap" and o["metadata"]["name"] == "yunikorn-defaults"]
    (partition,) = yaml.safe_load(defaults["data"]["queues.yaml"])["partitions"]
    # The first rule that returns a queue places the application (placement.go): `provided`
    # (the pods' `queue` label, copied by KubeRay from yunikorn.apache.org/queue), then the namespace.
    assert partition["placementrules"] == [
        {"name": "provided", "create": True},
        {"name": "tag", "value": "namespace", "create": True},
    ]
    (recipe,) = [d for d in flows.docs_yaml() if "yunikorn.apache.org/queue" in str(d)]
    assert {"yunikorn.apache.org/app-id", "yunikorn.apache.org/queue"} <= set(recipe["metadata"]["labels"])
