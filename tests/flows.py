"""Following one workload through what the program creates: the rules the API server, Kueue and
the cluster autoscaler apply, written out from their code so a test can take a pod of a given
shape from admission to a node. Each rule names the upstream code it follows; none of them is
the program's own logic (that comes from the plan and the rendered charts).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

DOCS = Path(__file__).resolve().parent.parent / "docs" / "what-it-creates.md"

Taint = dict[str, str]
Toleration = dict[str, str]

_QUANTITY = re.compile(r"^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|Ti)?$")
_UNITS = {None: 1.0, "m": 0.001, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40}


def quantity(text: str | int) -> float:
    """A Kubernetes quantity (`500m`, `4Gi`, `2`) as a number (bytes for memory)."""
    match = _QUANTITY.match(str(text))
    assert match, text
    return float(match.group(1)) * _UNITS[match.group(2)]


def aks_taint(text: str) -> Taint:
    """`key=value:Effect`, as an AKS agent pool's `nodeTaints` holds them."""
    key_value, effect = text.rsplit(":", 1)
    key, value = key_value.split("=", 1)
    return {"key": key, "value": value, "effect": effect}


def tolerates(toleration: Toleration, taint: Taint) -> bool:
    """k8s.io/api core/v1 toleration.go ToleratesTaint: an empty effect matches every effect; an
    empty key with Exists matches every taint; Exists ignores the value, Equal (the default)
    compares it."""
    if toleration.get("effect") and toleration["effect"] != taint["effect"]:
        return False
    if toleration.get("key", "") and toleration["key"] != taint["key"]:
        return False
    if toleration.get("operator", "Equal") == "Exists":
        return True
    return toleration.get("value", "") == taint.get("value", "")


def untolerated(taints: list[Taint], tolerations: list[Toleration]) -> list[Taint]:
    """The NoSchedule and NoExecute taints no toleration tolerates (what keeps a pod off a node:
    the scheduler's TaintToleration filter, and Kueue's flavor check below)."""
    hard = [t for t in taints if t["effect"] in ("NoSchedule", "NoExecute")]
    return [t for t in hard if not any(tolerates(tol, t) for tol in tolerations)]


def requests(pod: dict[str, Any]) -> dict[str, float]:
    """The pod's requests summed over its containers."""
    total: dict[str, float] = {}
    for container in pod.get("containers", []):
        for name, value in container.get("resources", {}).get("requests", {}).items():
            total[name] = total.get(name, 0.0) + quantity(value)
    return total


@dataclass
class Node:
    """What the cluster autoscaler builds for a pool at zero (its node template): the pool's
    labels and taints, and the machine's allocatable resources."""

    labels: dict[str, str]
    taints: list[Taint]
    allocatable: dict[str, float]

    def why_not(self, pod: dict[str, Any]) -> list[str]:
        """Why the pod would not fit this node (empty when it fits): the scheduler's
        NodeAffinity (nodeSelector), TaintToleration and NodeResourcesFit filters, which the
        autoscaler runs against its template before it scales the pool up."""
        reasons = [f"node selector {k}={v}" for k, v in pod.get("nodeSelector", {}).items() if self.labels.get(k) != v]
        reasons += [f"untolerated taint {t['key']}" for t in untolerated(self.taints, pod.get("tolerations", []))]
        reasons += [
            f"{name} {amount} > {self.allocatable.get(name, 0.0)}"
            for name, amount in requests(pod).items()
            if amount > self.allocatable.get(name, 0.0)
        ]
        return reasons


@dataclass
class Kueue:
    """One ClusterQueue's flavor assignment for a pod set, as Kueue 0.19.2 does it
    (pkg/scheduler/flavorassigner/flavorassigner.go): flavors in the queue's order; a flavor
    whose nodeTaints the pod's tolerations plus the flavor's own do not all tolerate is skipped
    (line 1239); so is one whose nodeLabels disagree with the pod's node selector on a key the
    flavor has (flavorSelector); then the pod set's requests must fit the flavor's nominal
    quota less what is used. On admission the pods get the flavor's nodeLabels as node
    selector and its tolerations added (pkg/podset/podset.go:86-88)."""

    queue: dict[str, Any]  # the ClusterQueue's spec
    flavors: dict[str, dict[str, Any]]  # ResourceFlavor name -> spec
    used: dict[tuple[str, str], float] = field(default_factory=dict)  # (flavor, resource) -> amount

    def assign(self, pod: dict[str, Any], count: int = 1) -> str | None:
        wanted = {k: v * count for k, v in requests(pod).items()}
        for group in self.queue["resourceGroups"]:
            covered = set(group["coveredResources"])
            if not covered & set(wanted):
                continue
            for entry in group["flavors"]:
                name, spec = entry["name"], self.flavors[entry["name"]]
                if untolerated(spec.get("nodeTaints", []), pod.get("tolerations", []) + spec.get("tolerations", [])):
                    continue
                labels = spec.get("nodeLabels", {})
                if any(k in labels and labels[k] != v for k, v in pod.get("nodeSelector", {}).items()):
                    continue
                quota = {r["name"]: quantity(r["nominalQuota"]) for r in entry["resources"]}
                if all(amount <= quota.get(r, 0.0) - self.used.get((name, r), 0.0) for r, amount in wanted.items()):
                    return name
            return None
        return None

    def admit(self, pod: dict[str, Any], count: int = 1) -> tuple[str | None, dict[str, Any]]:
        """The flavor and the pod as Kueue lets it start (its quota counted as used)."""
        name = self.assign(pod, count)
        if name is None:
            return None, pod
        spec = self.flavors[name]
        for resource, amount in requests(pod).items():
            self.used[(name, resource)] = self.used.get((name, resource), 0.0) + amount * count
        admitted = dict(pod)
        admitted["nodeSelector"] = {**pod.get("nodeSelector", {}), **spec.get("nodeLabels", {})}
        admitted["tolerations"] = pod.get("tolerations", []) + spec.get("tolerations", [])
        return name, admitted


def kueue_rejects(obj: dict[str, Any]) -> list[str]:
    """What Kueue 0.19.2's webhooks refuse on a queued RayJob or RayCluster at creation
    (pkg/controller/jobs/rayjob/rayjob_webhook.go validateCreate, raycluster_webhook.go
    validateCreate, raycluster/common.go ValidateCreate), with the feature gate
    ElasticJobsViaWorkloadSlices on (beta, on by default since 0.18: pkg/features/kube_features.go)."""
    meta, spec = obj["metadata"], obj["spec"]
    if "kueue.x-k8s.io/queue-name" not in meta.get("labels", {}):
        return []  # not managed: manageJobsWithoutQueueName is false by default
    elastic = meta.get("annotations", {}).get("kueue.x-k8s.io/elastic-job") == "true"
    errors = []
    if obj["kind"] == "RayJob":
        if spec.get("clusterSelector") and spec.get("rayClusterSpec"):
            return ["spec.clusterSelector: a kueue managed job should not use an existing cluster"]
        if not spec.get("rayClusterSpec"):
            return ["spec.rayClusterSpec: required"]
        if not spec.get("shutdownAfterJobFinishes", False):
            errors.append(
                "spec.shutdownAfterJobFinishes: a kueue managed job should delete the cluster after finishing"
            )
        cluster = spec["rayClusterSpec"]
    else:
        cluster = spec
    if cluster.get("enableInTreeAutoscaling", False) and not elastic:
        errors.append('enableInTreeAutoscaling: only as an elastic job (kueue.x-k8s.io/elastic-job: "true")')
    if 1 + len(cluster.get("workerGroupSpecs", [])) > 8:  # jobframework.MaxPodSets
        errors.append("workerGroupSpecs: too many")
    errors += [
        f"workerGroupSpecs[{i}].groupName: 'head' is reserved"
        for i, group in enumerate(cluster.get("workerGroupSpecs", []))
        if group.get("groupName") == "head"
    ]
    return errors


def docs_yaml() -> list[Any]:
    """The YAML blocks of docs/what-it-creates.md, as written."""
    text = DOCS.read_text(encoding="utf-8")
    return [yaml.safe_load(b) for b in re.findall(r"^```yaml\n(.*?)^```", text, re.M | re.S)]


def docs_objects() -> list[dict[str, Any]]:
    """The Ray manifests among them."""
    return [d for d in docs_yaml() if isinstance(d, dict) and d.get("apiVersion") == "ray.io/v1"]
