"""addons.kuberay.multiKueueWorkers: MultiKueue with the primary as manager.

After Kueue 0.19.2's setup (site/content/en/docs/tasks/manage/setup_multikueue.md,
site/static/examples/multikueue/create-multikueue-kubeconfig.sh and multikueue-setup.yaml):
- on each worker, in Kueue's namespace, a ServiceAccount bound to the worker ClusterRole and a
  long-lived token Secret (`kubernetes.io/service-account-token`: Kubernetes fills `token`
  and `ca.crt`; the Kubernetes provider waits for them, pulumi/pulumi-kubernetes#2048), and
  the LocalQueue the dispatched jobs name, pointing at the worker's own ClusterQueue (a
  dispatched job keeps its namespace and queue name);
- on the manager, per worker a kubeconfig Secret (key `kubeconfig`, in Kueue's namespace)
  built from the worker's API server, that `ca.crt` and that token: no exec plugin (Kueue
  refuses them), a Pulumi secret end to end; a MultiKueueCluster per worker, one
  MultiKueueConfig listing them, an AdmissionCheck of controller `kueue.x-k8s.io/multikueue`
  and the ClusterQueue `ray-multikueue` (LocalQueue `ray-multikueue` in `default`) using it.
"""

from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass
from typing import Any, Final

import pulumi
import pulumi_kubernetes as k8s

from components.kube import api_server
from components.kuberay.flavors import CLUSTER_QUEUE as WORKER_CLUSTER_QUEUE
from components.kuberay.flavors import COVERED, KUEUE_API, _quotas
from config import QueueQuotaSpec
from config.data.kuberay_charts import KUEUE

# MultiKueue creates a dispatched job in the same namespace on the worker, under a LocalQueue of
# the same name: the `ray-multikueue` queues live in `default` on the manager and on every worker
# (`queueNamespaces` places the manager's own `ray-queue` LocalQueues only).
LOCAL_QUEUE_NAMESPACES: Final = ("default",)

NAMESPACE: Final = KUEUE.namespace  # Kueue's: where the manager looks for kubeconfig Secrets
SERVICE_ACCOUNT: Final = "multikueue-sa"  # the script's MULTIKUEUE_SA
WORKER_ROLE: Final = "multikueue-sa-role"
QUEUE: Final = "ray-multikueue"  # the manager's ClusterQueue and every cluster's LocalQueue
CONTROLLER: Final = "kueue.x-k8s.io/multikueue"
FLAVOR: Final = "multikueue"  # the manager runs nothing: one flavor, no node labels
CRUD: Final = ("create", "delete", "get", "list", "watch")

# The worker ClusterRole of create-multikueue-kubeconfig.sh (v0.19.2), for the kinds this
# program's Kueue manages (components/kuberay/values.KUEUE_FRAMEWORKS: batch Jobs and the
# three Ray kinds) and Kueue's own; the script's JobSet, LWS, Kubeflow, AppWrapper, pods and
# StatefulSet rules are left out (no such integration is enabled).
WORKER_RULES: Final[list[dict[str, Any]]] = [
    {"apiGroups": ["batch"], "resources": ["jobs"], "verbs": list(CRUD)},
    {"apiGroups": ["batch"], "resources": ["jobs/status"], "verbs": ["get"]},
    {"apiGroups": ["kueue.x-k8s.io"], "resources": ["workloads"], "verbs": [*CRUD, "update", "patch"]},
    {"apiGroups": ["kueue.x-k8s.io"], "resources": ["clusterqueues", "localqueues"], "verbs": ["get", "list", "watch"]},
    {"apiGroups": ["kueue.x-k8s.io"], "resources": ["workloads/status"], "verbs": ["get", "patch", "update"]},
    {"apiGroups": ["ray.io"], "resources": ["rayjobs"], "verbs": list(CRUD)},
    {"apiGroups": ["ray.io"], "resources": ["rayjobs/status"], "verbs": ["get"]},
    {"apiGroups": ["ray.io"], "resources": ["rayclusters"], "verbs": [*CRUD, "update", "patch"]},
    {"apiGroups": ["ray.io"], "resources": ["rayclusters/status"], "verbs": ["get"]},
    {"apiGroups": ["ray.io"], "resources": ["rayservices"], "verbs": list(CRUD)},
    {"apiGroups": ["ray.io"], "resources": ["rayservices/status"], "verbs": ["get"]},
]


@dataclass(frozen=True)
class Member:
    """A cluster of the MultiKueue setup, as its CloudResource built it."""

    name: str  # the cloud resource's name
    opts: pulumi.ResourceOptions  # its ClusterAddons' in-cluster options
    kueue: pulumi.Resource  # its Kueue release (CRDs, namespace, controller)
    kubeconfig: pulumi.Output[str]  # the program's (a secret): the API server's URL is read from it
    quota: QueueQuotaSpec  # its ClusterQueue's quota (filled from the pools)


def object_name(resource: str) -> str:
    """A cloud resource name (letters, digits, `_`, `-`) as a Kubernetes object name."""
    return re.sub(r"[^a-z0-9-]", "-", resource.lower()).strip("-")[:63] or "worker"


def worker_kubeconfig(name: str, server: str | None, ca_crt_b64: str, token_b64: str) -> str:
    """The kubeconfig of the script's last step: CA data as the Secret holds it (base64),
    the token in clear (the Secret holds it base64)."""
    if not server:
        raise ValueError(f"MultiKueue worker {name}: no API server in the program's kubeconfig of that cluster")
    config = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": name, "cluster": {"server": server, "certificate-authority-data": ca_crt_b64}}],
        "users": [{"name": f"{name}-{SERVICE_ACCOUNT}", "user": {"token": base64.b64decode(token_b64).decode()}}],
        "contexts": [{"name": name, "context": {"cluster": name, "user": f"{name}-{SERVICE_ACCOUNT}"}}],
        "current-context": name,
    }
    return json.dumps(config)  # JSON is YAML


def manager_quota(workers: list[Member]) -> list[dict[str, str]]:
    """The manager admits what its workers together can run (their ClusterQueues' quotas)."""
    return _quotas(
        sum(w.quota.cpu for w in workers), sum(w.quota.memory_gi for w in workers), sum(w.quota.gpu for w in workers)
    )


def _after(opts: pulumi.ResourceOptions, *deps: pulumi.Resource) -> pulumi.ResourceOptions:
    return pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(depends_on=list(deps)))


def _custom(
    key: str, kind: str, name: str, spec: dict[str, Any], opts: pulumi.ResourceOptions, namespace: str | None = None
) -> k8s.apiextensions.CustomResource:
    metadata = {"name": name, **({"namespace": namespace} if namespace else {})}
    return k8s.apiextensions.CustomResource(
        key, api_version=KUEUE_API, kind=kind, metadata=metadata, spec=spec, opts=opts
    )


def _worker(worker: Member) -> pulumi.Output[str]:
    """The worker's account, role, token and LocalQueue; returns the manager's kubeconfig."""
    prefix, opts = f"{worker.name}-multikueue", _after(worker.opts, worker.kueue)
    account = k8s.core.v1.ServiceAccount(
        f"{prefix}-account", metadata={"name": SERVICE_ACCOUNT, "namespace": NAMESPACE}, opts=opts
    )
    role = k8s.rbac.v1.ClusterRole(f"{prefix}-role", metadata={"name": WORKER_ROLE}, rules=WORKER_RULES, opts=opts)
    k8s.rbac.v1.ClusterRoleBinding(
        f"{prefix}-role-binding",
        metadata={"name": f"{SERVICE_ACCOUNT}-crb"},
        role_ref={"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": WORKER_ROLE},
        subjects=[{"kind": "ServiceAccount", "name": SERVICE_ACCOUNT, "namespace": NAMESPACE}],
        opts=_after(opts, role, account),
    )
    token = k8s.core.v1.Secret(
        f"{prefix}-token",
        metadata={
            "name": SERVICE_ACCOUNT,
            "namespace": NAMESPACE,
            "annotations": {"kubernetes.io/service-account.name": SERVICE_ACCOUNT},
        },
        type="kubernetes.io/service-account-token",
        # Rotation (docs/operations.md): `pulumi up --replace` this Secret; the kubeconfig follows.
        opts=_after(opts, account),
    )
    for ns in LOCAL_QUEUE_NAMESPACES:
        _custom(
            f"{prefix}-local-queue-{ns}",
            "LocalQueue",
            QUEUE,
            {"clusterQueue": WORKER_CLUSTER_QUEUE},
            opts,
            namespace=ns,
        )
    cluster = object_name(worker.name)
    return pulumi.Output.secret(
        pulumi.Output.all(worker.kubeconfig.apply(api_server), token.data).apply(
            lambda a: worker_kubeconfig(cluster, a[0], (a[1] or {}).get("ca.crt", ""), (a[1] or {}).get("token", ""))
        )
    )


def install_multikueue(manager: Member, workers: list[Member]) -> None:
    opts = _after(manager.opts, manager.kueue)
    clusters: list[pulumi.Resource] = []
    for worker in workers:
        cluster = object_name(worker.name)
        secret = k8s.core.v1.Secret(
            f"{manager.name}-multikueue-kubeconfig-{worker.name}",
            metadata={"name": f"multikueue-{cluster}", "namespace": NAMESPACE},
            type="Opaque",
            string_data={"kubeconfig": _worker(worker)},
            opts=opts,
        )
        source = {"kubeConfig": {"locationType": "Secret", "location": f"multikueue-{cluster}"}}
        clusters.append(
            _custom(
                f"{manager.name}-multikueue-cluster-{worker.name}",
                "MultiKueueCluster",
                cluster,
                {"clusterSource": source},
                _after(opts, secret),
            )
        )
    config = _custom(
        f"{manager.name}-multikueue-config",
        "MultiKueueConfig",
        QUEUE,
        {"clusters": [object_name(w.name) for w in workers]},
        _after(opts, *clusters),
    )
    check = _custom(
        f"{manager.name}-multikueue-check",
        "AdmissionCheck",
        QUEUE,
        {
            "controllerName": CONTROLLER,
            "parameters": {"apiGroup": "kueue.x-k8s.io", "kind": "MultiKueueConfig", "name": QUEUE},
        },
        _after(opts, config),
    )
    flavor = _custom(f"{manager.name}-multikueue-flavor", "ResourceFlavor", FLAVOR, {}, opts)
    queue = _custom(
        f"{manager.name}-multikueue-queue",
        "ClusterQueue",
        QUEUE,
        {
            "namespaceSelector": {},
            "resourceGroups": [
                {"coveredResources": list(COVERED), "flavors": [{"name": FLAVOR, "resources": manager_quota(workers)}]}
            ],
            "admissionChecksStrategy": {"admissionChecks": [{"name": QUEUE}]},
        },
        _after(opts, check, flavor),
    )
    for ns in LOCAL_QUEUE_NAMESPACES:
        _custom(
            f"{manager.name}-multikueue-local-queue-{ns}",
            "LocalQueue",
            QUEUE,
            {"clusterQueue": QUEUE},
            _after(opts, queue),
            namespace=ns,
        )
