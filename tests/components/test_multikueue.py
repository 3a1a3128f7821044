"""addons.kuberay.multiKueueWorkers: the example stack's primary manages its EKS resource
through MultiKueue. Kueue 0.19.2's setup (setup_multikueue.md, create-multikueue-kubeconfig.sh,
multikueue-setup.yaml) followed object by object, every custom object validated against the
chart's CRDs as rendered at its pin, and the spec's refusals."""

from __future__ import annotations

import base64
import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from components.kuberay.multikueue import object_name, worker_kubeconfig
from preflight.runtime import Plan
from tests import crds, helm
from tests.example_spec import spec_problems
from tests.kuberay_stack import CLOUD, RESOURCES


def inputs(plan: Plan, name: str) -> dict[str, Any]:
    return plan.named(name)["inputs"]


def test_each_worker_gets_an_account_its_role_and_a_long_lived_token(example_plan: Plan) -> None:
    account = inputs(example_plan, "aws-usw2-multikueue-account")
    assert account["metadata"] == {"name": "multikueue-sa", "namespace": "kueue-system"}
    token = inputs(example_plan, "aws-usw2-multikueue-token")
    assert token["type"] == "kubernetes.io/service-account-token"
    assert token["metadata"]["annotations"] == {"kubernetes.io/service-account.name": "multikueue-sa"}
    rules = {
        (g, r): tuple(rule["verbs"])
        for rule in inputs(example_plan, "aws-usw2-multikueue-role")["rules"]
        for g in rule["apiGroups"]
        for r in rule["resources"]
    }
    # The script's worker role for the kinds Kueue manages here (batch Jobs, the Ray kinds).
    assert rules[("ray.io", "rayjobs")] == ("create", "delete", "get", "list", "watch")
    assert rules[("ray.io", "rayclusters")] == ("create", "delete", "get", "list", "watch", "update", "patch")
    assert rules[("kueue.x-k8s.io", "workloads/status")] == ("get", "patch", "update")
    assert rules[("batch", "jobs")] == ("create", "delete", "get", "list", "watch")
    binding = inputs(example_plan, "aws-usw2-multikueue-role-binding")
    assert binding["subjects"] == [{"kind": "ServiceAccount", "name": "multikueue-sa", "namespace": "kueue-system"}]
    assert binding["roleRef"]["name"] == "multikueue-sa-role"
    # The dispatched job keeps its LocalQueue: the worker has it, on its own ClusterQueue.
    local = inputs(example_plan, "aws-usw2-multikueue-local-queue-default")
    assert (local["metadata"], local["spec"]) == (
        {"name": "ray-multikueue", "namespace": "default"},
        {"clusterQueue": "ray-cluster-queue"},
    )
    # After the worker's Kueue (its namespace and CRDs).
    kueue = example_plan.named("aws-usw2-kueue")["urn"]
    assert kueue in example_plan.named("aws-usw2-multikueue-account")["dependsOn"]


def test_the_manager_dispatches_through_an_admission_check(example_plan: Plan) -> None:
    secret = example_plan.named("default-multikueue-kubeconfig-aws-usw2")
    assert secret["inputs"]["metadata"] == {"name": "multikueue-aws-usw2", "namespace": "kueue-system"}
    assert secret["inputs"]["stringData"] == "[secret]"  # a Pulumi secret: the token never shows
    cluster = inputs(example_plan, "default-multikueue-cluster-aws-usw2")
    assert cluster["spec"] == {
        "clusterSource": {"kubeConfig": {"locationType": "Secret", "location": "multikueue-aws-usw2"}}
    }
    assert inputs(example_plan, "default-multikueue-config")["spec"] == {"clusters": ["aws-usw2"]}
    check = inputs(example_plan, "default-multikueue-check")["spec"]
    assert check == {
        "controllerName": "kueue.x-k8s.io/multikueue",
        "parameters": {"apiGroup": "kueue.x-k8s.io", "kind": "MultiKueueConfig", "name": "ray-multikueue"},
    }
    queue = inputs(example_plan, "default-multikueue-queue")["spec"]
    assert queue["admissionChecksStrategy"] == {"admissionChecks": [{"name": "ray-multikueue"}]}
    # What the workers' ClusterQueues admit, summed (here the one EKS resource's).
    worker_quota = inputs(example_plan, "aws-usw2-cluster-queue")["spec"]["resourceGroups"][0]["flavors"]
    summed = {
        q: sum(
            int(r["nominalQuota"].removesuffix("Gi")) for f in worker_quota for r in f["resources"] if r["name"] == q
        )
        for q in ("cpu", "memory", "nvidia.com/gpu")
    }
    ours = {r["name"]: r["nominalQuota"] for r in queue["resourceGroups"][0]["flavors"][0]["resources"]}
    assert ours == {
        "cpu": str(summed["cpu"]),
        "memory": f"{summed['memory']}Gi",
        "nvidia.com/gpu": str(summed["nvidia.com/gpu"]),
    }
    assert inputs(example_plan, "default-multikueue-local-queue-default")["spec"] == {"clusterQueue": "ray-multikueue"}
    # The manager's objects go after its Kueue; the kubeconfig after the worker's token.
    secret_deps = set(secret["dependsOn"])
    assert example_plan.named("default-kueue")["urn"] in secret_deps


def test_the_kubeconfig_is_token_and_ca_without_exec() -> None:
    ca, token = base64.b64encode(b"-----BEGIN CERTIFICATE-----").decode(), base64.b64encode(b"eyJhbGciOi").decode()
    config = yaml.safe_load(worker_kubeconfig("aws-usw2", "https://ABC.gr7.us-west-2.eks.amazonaws.com", ca, token))
    assert config["clusters"] == [
        {
            "name": "aws-usw2",
            "cluster": {"server": "https://ABC.gr7.us-west-2.eks.amazonaws.com", "certificate-authority-data": ca},
        }
    ]
    assert config["users"] == [{"name": "aws-usw2-multikueue-sa", "user": {"token": "eyJhbGciOi"}}]
    assert config["current-context"] == "aws-usw2"
    with pytest.raises(ValueError, match="no API server"):
        worker_kubeconfig("w", None, ca, token)
    assert object_name("GPU_Pool-1") == "gpu-pool-1"


@pytest.fixture(scope="module")
def kueue_crd_report(example_plan: Plan, render_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The example plan's Kueue objects against the CRDs the pinned chart renders (one run)."""
    release = example_plan.named("default-kueue")["inputs"]
    chart = helm.chart_dir(release["chart"], release["version"])
    assert chart is not None
    rendered = helm.render(
        chart, helm.fill(release.get("values") or {}, "azure"), release["namespace"], release["name"], render_cache
    )
    folder = tmp_path_factory.mktemp("kueue-crds")
    crd_file = folder / "kueue-crds.yaml"
    # The kinds the program creates only: parsing a CRD is most of the validator's time.
    kinds = {"MultiKueueCluster", "MultiKueueConfig", "AdmissionCheck", "ClusterQueue", "LocalQueue", "ResourceFlavor"}
    found = [o for o in rendered if o.get("kind") == "CustomResourceDefinition" and o["spec"]["names"]["kind"] in kinds]
    assert {o["spec"]["names"]["kind"] for o in found} == kinds
    # RE2 takes a flag group mid-pattern (AdmissionCheck's `^(?i)[a-z]...`), Python's re only
    # at the start: the same pattern moved there, so the validator can compile it.
    text = yaml.safe_dump_all(found).replace("pattern: ^(?i)", "pattern: (?i)^")
    crd_file.write_text(text, encoding="utf-8")
    return crds.report(crd_file, {"example": example_plan.to_json()}, folder)["example"]


def test_every_kueue_object_is_valid_against_its_crd(kueue_crd_report: list[str]) -> None:
    # Kueue's immutability rules compare with oldSelf: a create skips them (the validator
    # counts them "not passed"); every other rule must pass and no schema error remain.
    report = "\n".join(kueue_crd_report)
    summaries = [line for line in kueue_crd_report if line.strip().startswith("->")]
    assert summaries and all("-> 0 schema error(s)" in line for line in summaries), report
    cel = [line.strip() for line in kueue_crd_report if line.strip().startswith("CEL")]
    assert all(line.split(": ", 1)[1].startswith(("pass", "skipped (transition rule")) for line in cel), report
    for kind, count in {
        "MultiKueueCluster": 1,
        "MultiKueueConfig": 1,
        "AdmissionCheck": 1,
        # The primary's ray-cluster-queue and ray-multikueue, the worker's ray-cluster-queue.
        "ClusterQueue": 3,
        "LocalQueue": 5,  # ray-queue x3 (primary default + smoke namespace, worker), ray-multikueue x2
    }.items():
        assert crds.objects(kueue_crd_report, f"{kind} kueue.x-k8s.io/v1beta2") == count, kind


def problems(primary: dict[str, Any], aws: dict[str, Any] | None = None) -> list[str]:
    resources = copy.deepcopy(RESOURCES)
    resources[0]["addons"] = {"kuberay": primary}
    if aws is not None:
        resources[1]["addons"] = {"kuberay": aws}
    return spec_problems(CLOUD, resources)


KUEUE = {"batchScheduler": "kueue"}


def test_workers_are_known_eks_or_gke_resources_running_kueue() -> None:
    assert problems({**KUEUE, "multiKueueWorkers": ["aws"]}, KUEUE) == []
    at = "resources[0].addons.kuberay.multiKueueWorkers"
    assert problems({**KUEUE, "multiKueueWorkers": ["aws", "onprem", "nope", "aws", "default"]}, KUEUE) == [
        f"{at}[1] (default): 'onprem' is a Generic resource; MultiKueue workers are EKS or GKE resources of this "
        "stack (their API endpoint comes from the cluster the program builds): add others by hand "
        "(docs/operations.md, MultiKueue)",
        f"{at}[2] (default): 'nope' is not another cloud resource of this stack: use one of aws, gcp, onprem",
        f"{at}[3] (default): 'aws' is listed twice: list each worker once",
        f"{at}[4] (default): 'default' is not another cloud resource of this stack: use one of aws, gcp, onprem",
    ]
    assert problems({**KUEUE, "multiKueueWorkers": ["gcp"]}) == [
        f"{at}[0] (default): 'gcp' runs no Kueue, which takes the dispatched jobs: set batchScheduler: kueue on "
        "that resource"
    ]
    assert problems({"multiKueueWorkers": ["aws"]}, KUEUE) == [
        f"{at} (default): MultiKueue dispatches from Kueue on this cluster: set batchScheduler: kueue or drop "
        "multiKueueWorkers"
    ]
    assert problems(KUEUE, {**KUEUE, "multiKueueWorkers": ["gcp"]}) == [
        "resources[1].addons.kuberay.multiKueueWorkers (aws): MultiKueue's manager is the primary: move "
        "multiKueueWorkers to resources[0] (default)"
    ]


def test_the_example_kubeconfig_secret_never_holds_clear_text(example_plan: Plan) -> None:
    text = json.dumps(example_plan.to_json())
    assert 'multikueue-sa"}}' not in text and "certificate-authority-data" not in text
