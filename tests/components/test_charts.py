"""Every Helm release of every plan, rendered with the real chart at its pinned version.

Helm drops unknown keys silently and a chart's defaults decide what runs, so the values
are checked where they are consumed: the project's copy `tests/charts/<chart>-<version>`
rendered by tests/tools/helm_render (Helm v4.3.0, installed by `make test`). Placeholders
become realistic stand-ins (tests/helm.py); the assertions then read the rendered
Kubernetes objects. Nothing is skipped: a chart without a copy fails.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from components.kuberay.schedulers import KUEUE_UNMANAGED_NAMESPACES
from preflight.runtime import Plan
from tests import helm
from tests.conftest import stack_values
from tests.plans import recorded

CONSOLE = "https://console.azure.anyscale.com"
OPERATOR_NS = "anyscale-operator"
IDENTITY_ANNOTATION = {
    "Azure": "azure.workload.identity/client-id",
    "AWS": "eks.amazonaws.com/role-arn",
    "GCP": "iam.gke.io/gcp-service-account",
}
EKS_EFFECTS = {"NO_SCHEDULE": "NoSchedule", "NO_EXECUTE": "NoExecute", "PREFER_NO_SCHEDULE": "PreferNoSchedule"}

# GPU pools on each provider that has them (instance types that carry that GPU), next to
# CPU pools the device plugin must stay off; spot GPU pools carry the extra spot taints.
GPU_STACK: dict[str, Any] = {
    "pulumi:disable-default-providers": ["*"],
    "anyscale-cloud:cloud": {
        "name": "gpu-cloud",
        "location": "eastus2",
        "resourceGroup": "rg-gpu-cloud",
        "protect": False,
    },
    "anyscale-cloud:resources": [
        {
            "name": "default",
            "provider": "Azure",
            "region": "eastus2",
            "cluster": {
                "nodePools": [
                    {"name": "cpu", "instanceType": "Standard_D16s_v5"},
                    {"name": "gput4", "instanceType": "Standard_NC16as_T4_v3", "maxCount": 4, "gpu": {"type": "T4"}},
                    {
                        "name": "gpua10spot",
                        "instanceType": "Standard_NV36ads_A10_v5",
                        "capacityType": "SPOT",
                        "gpu": {"type": "A10"},
                    },
                ]
            },
        },
        {
            "name": "aws-gpu",
            "provider": "AWS",
            "region": "us-west-2",
            "cluster": {
                # EKS extended support on 2026-12-01: the Cluster Autoscaler chart of this
                # minor (9.47.0) renders here from tests/charts, beside the defaults' chart (9.59.0).
                "kubernetesVersion": "1.33",
                "nodePools": [
                    {"name": "cpu", "instanceType": "m6i.4xlarge"},
                    {"name": "t4", "instanceType": "g4dn.xlarge", "gpu": {"type": "T4"}},
                    {
                        "name": "a10gspot",
                        "instanceType": "g5.12xlarge",
                        "capacityType": "SPOT",
                        "gpu": {"type": "A10G", "count": 4},
                    },
                ],
            },
        },
        {
            "name": "gcp-gpu",
            "provider": "GCP",
            "region": "us-central1",
            "project": "my-gcp-project",
            "cluster": {
                "nodePools": [
                    {"name": "cpu", "instanceType": "n2-standard-16"},
                    {"name": "l4", "instanceType": "g2-standard-8", "gpu": {"type": "L4"}},
                ]
            },
        },
    ],
}


def stack_config(stack: str) -> dict[str, Any]:
    return copy.deepcopy(GPU_STACK) if stack == "gpu" else stack_values(stack)


STACKS = sorted(p.name.split(".")[1] for p in (helm.ROOT / "stacks").glob("Pulumi.*.yaml")) + ["gpu"]
# (stack, resource name, provider) for every cloud resource of every stack.
PROVIDERS = {"azure": "Azure", "aws": "AWS", "gcp": "GCP", "generic": "Generic"}  # any casing is accepted
RESOURCES = [
    (stack, r["name"], PROVIDERS[r["provider"].lower()])
    for stack in STACKS
    for r in stack_config(stack)["anyscale-cloud:resources"]
]


Case = tuple[str, str, str]  # (stack, cloud resource name, provider)
Plans = Callable[[str], Plan]


def resource_ids(case: Case) -> str:
    return f"{case[0]}-{case[1]}"


@cache
def _plan(stack: str) -> Plan:
    return recorded(stack, stack_config(stack))


@pytest.fixture
def plan_of(request: pytest.FixtureRequest) -> Plans:
    """stack -> its plan; the stacks/ plans come from conftest's session fixtures
    (`example_plan`, ...) where they exist, so other modules' runs are reused."""

    def get(stack: str) -> Plan:
        if stack != "gpu":
            try:
                return request.getfixturevalue(f"{stack}_plan")
            except pytest.FixtureLookupError:
                pass
        return _plan(stack)

    return get


# --- the plan: what belongs to which cloud resource -----------------------------------


def owned(plan: Plan, resource: str) -> list[dict[str, Any]]:
    """Records under the CloudResource component named `resource`."""
    by_urn = {r["urn"]: r for r in plan.resources}

    def under(record: dict[str, Any]) -> bool:
        while record is not None:
            if record["type"].endswith(":CloudResource") and record["name"] == resource:
                return True
            record = by_urn.get(record["parent"])
        return False

    return [r for r in plan.resources if under(r)]


def releases(plan: Plan, resource: str) -> dict[str, dict[str, Any]]:
    """chart name -> its Release record."""
    found = [r for r in owned(plan, resource) if r["type"] == helm.RELEASE]
    return {r["inputs"]["chart"].rsplit("/", 1)[-1]: r for r in found}


def registration(plan: Plan, resource: str) -> dict[str, Any]:
    (reg,) = [
        r
        for r in plan.resources
        if r["type"] == "azure-native:resources:Resource"
        and r["inputs"].get("resourceType") == "cloudResources"
        and r["inputs"]["resourceName"] == resource
    ]
    return reg


def pools(plan: Plan, resource: str) -> dict[str, tuple[dict[str, str], list[tuple[str, str, str]]]]:
    """Worker pool name -> (node labels, taints as (key, value, effect)) as recorded."""
    found = {}
    for r in owned(plan, resource):
        i = r["inputs"]
        if r["type"] == "azure-native:containerservice:AgentPool":
            taints = [re.fullmatch(r"([^=]+)=([^:]*):(\w+)", t).groups() for t in i.get("nodeTaints") or []]
            found[i["agentPoolName"]] = (i.get("nodeLabels") or {}, taints)
        elif r["type"] == "aws:eks/nodeGroup:NodeGroup":
            taints = [(t["key"], t.get("value", ""), EKS_EFFECTS[t["effect"]]) for t in i.get("taints") or []]
            found[i["nodeGroupName"]] = (i.get("labels") or {}, taints)
    return found


# --- rendering ------------------------------------------------------------------------


def render_release(record: dict[str, Any], provider: str, cache_dir: Path) -> list[dict[str, Any]]:
    i = record["inputs"]
    chart = helm.chart_dir(i["chart"], i["version"])
    if chart is None:
        pytest.fail(f"no copy of chart {i['chart']} {i['version']} in {helm.CHARTS} (tests/charts/README.md)")
    values = helm.fill(i.get("values") or {}, provider.lower())
    return helm.render(chart, values, i["namespace"], i["name"], cache_dir)


def render_extension(record: dict[str, Any], cache_dir: Path) -> list[dict[str, Any]]:
    """The AKS extension: its settings are the anyscale-operator chart's values."""
    i = record["inputs"]
    chart = helm.chart_dir("anyscale-operator", i["version"])
    if chart is None:
        pytest.fail(f"no copy of chart anyscale-operator {i['version']} in {helm.CHARTS} (tests/charts/README.md)")
    values = helm.fill(helm.nest_settings(i["configurationSettings"]), "azure")
    return helm.render(chart, values, i["scope"]["cluster"]["releaseNamespace"], i["extensionName"], cache_dir)


def rendered_operator(plan: Plan, resource: str, provider: str, cache_dir: Path) -> list[dict[str, Any]]:
    extensions = [r for r in owned(plan, resource) if r["type"] == helm.EXTENSION]
    if extensions:
        return render_extension(extensions[0], cache_dir)
    return render_release(releases(plan, resource)["anyscale-operator"], provider, cache_dir)


def one(objects: list[dict[str, Any]], kind: str, name: str) -> dict[str, Any]:
    matches = [o for o in objects if o["kind"] == kind and o["metadata"]["name"] == name]
    assert len(matches) == 1, (
        f"{len(matches)} {kind} named {name} in {[(o['kind'], o['metadata']['name']) for o in objects]}"
    )
    return matches[0]


def container(deployment: dict[str, Any], name: str | None = None) -> dict[str, Any]:
    containers = deployment["spec"]["template"]["spec"]["containers"]
    return next(c for c in containers if name is None or c["name"] == name)


# --- Kubernetes scheduling rules (node affinity, taints and tolerations) ----------------


def expression_matches(expr: dict[str, Any], labels: dict[str, str]) -> bool:
    key, op, values = expr["key"], expr["operator"], expr.get("values") or []
    if op == "In":
        return key in labels and labels[key] in values
    if op == "NotIn":
        return key not in labels or labels[key] not in values
    if op == "Exists":
        return key in labels
    if op == "DoesNotExist":
        return key not in labels
    if op in ("Gt", "Lt"):
        return key in labels and (
            int(labels[key]) > int(values[0]) if op == "Gt" else int(labels[key]) < int(values[0])
        )
    raise AssertionError(f"unknown operator {op}")


def schedulable_on(pod: dict[str, Any], labels: dict[str, str]) -> bool:
    """nodeSelector and required node affinity admit a node with these labels."""
    if any(labels.get(k) != v for k, v in (pod.get("nodeSelector") or {}).items()):
        return False
    required = ((pod.get("affinity") or {}).get("nodeAffinity") or {}).get(
        "requiredDuringSchedulingIgnoredDuringExecution"
    )
    if not required:
        return True
    return any(
        all(expression_matches(e, labels) for e in term.get("matchExpressions") or [])
        for term in required["nodeSelectorTerms"]
    )


def tolerates(tolerations: list[dict[str, Any]], taint: tuple[str, str, str]) -> bool:
    key, value, effect = taint
    for t in tolerations:
        if t.get("effect") and t["effect"] != effect:
            continue
        if t.get("operator", "Equal") == "Exists":
            if not t.get("key") or t["key"] == key:
                return True
        elif t.get("key") == key and t.get("value", "") == value:
            return True
    return False


# --- every release renders --------------------------------------------------------------


@pytest.mark.parametrize("stack", STACKS)
def test_every_release_renders_with_its_chart(stack: str, render_cache: Path, plan_of: Plans) -> None:
    plan = plan_of(stack)
    records = [r for r in plan.resources if r["type"] in (helm.RELEASE, helm.EXTENSION)]
    assert records, f"no Helm release in the {stack} plan"
    provider_of = {r["urn"]: p for s, n, p in RESOURCES if s == stack for r in owned(plan, n)}
    errors, rendered = [], 0
    for r in records:
        provider = provider_of[r["urn"]]
        i = r["inputs"]
        chart, version = (
            ("anyscale-operator", i["version"]) if r["type"] == helm.EXTENSION else (i["chart"], i["version"])
        )
        if helm.chart_dir(chart, version) is None:
            continue  # reported by test_every_pinned_chart_has_a_copy
        try:
            objects = (
                render_extension(r, render_cache)
                if r["type"] == helm.EXTENSION
                else render_release(r, provider, render_cache)
            )
            assert objects, f"{r['name']}: rendered nothing"
            rendered += 1
        except helm.RenderError as e:
            errors.append(f"{r['name']}: {e}")
    assert not errors, "\n".join(errors)
    assert rendered


@pytest.mark.parametrize("stack", STACKS)
def test_every_pinned_chart_has_a_copy(stack: str, plan_of: Plans) -> None:
    plan = plan_of(stack)
    missing = sorted(
        {
            f"{r['inputs']['chart']} {r['inputs']['version']}"
            for r in plan.resources
            if r["type"] == helm.RELEASE and helm.chart_dir(r["inputs"]["chart"], r["inputs"]["version"]) is None
        }
        | {
            f"anyscale-operator {r['inputs']['version']} (AKS extension)"
            for r in plan.resources
            if r["type"] == helm.EXTENSION and helm.chart_dir("anyscale-operator", r["inputs"]["version"]) is None
        }
    )
    assert missing == [], f"no copy in {helm.CHARTS} (tests/charts/README.md says how to add one)"


def test_first_preview_unknowns_render(render_cache: Path) -> None:
    """The operator as a stack's first preview sends it (`--first-preview`: `<unknown>`
    for every output) still renders, with an identity of the provider's shape on its
    service account."""
    plan = recorded("example", stack_config("example"), first_preview=True)
    shapes = {
        "Azure": r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}",
        "AWS": r"arn:aws:iam::\d{12}:role/[\w+=,.@-]+",
        "GCP": r"[a-z][a-z0-9-]{5,29}@[a-z][a-z0-9-]+\.iam\.gserviceaccount\.com",
    }
    rendered = 0
    for _, name, provider in [c for c in RESOURCES if c[0] == "example"]:
        for r in owned(plan, name):
            if r["type"] == helm.EXTENSION or (
                r["type"] == helm.RELEASE and r["inputs"]["chart"] == "anyscale-operator"
            ):
                assert helm.UNKNOWN in json.dumps(r["inputs"]), (
                    "the first preview should leave the operator's ID unknown"
                )
                objects = (
                    render_extension(r, render_cache)
                    if r["type"] == helm.EXTENSION
                    else render_release(r, provider, render_cache)
                )
                annotations = one(objects, "ServiceAccount", "anyscale-operator")["metadata"].get("annotations") or {}
                if provider in shapes:
                    assert re.fullmatch(shapes[provider], annotations[IDENTITY_ANNOTATION[provider]]), annotations
                rendered += 1
    assert rendered == 4


# --- what runs, per provider ------------------------------------------------------------


@pytest.mark.parametrize("case", RESOURCES, ids=resource_ids)
def test_operator_service_account_carries_the_registered_identity(
    case: Case, render_cache: Path, plan_of: Plans
) -> None:
    stack, name, provider = case
    plan = plan_of(stack)
    objects = rendered_operator(plan, name, provider, render_cache)
    annotations = one(objects, "ServiceAccount", "anyscale-operator")["metadata"].get("annotations") or {}
    registered = registration(plan, name)["inputs"]["properties"].get("anyscaleOperatorIamIdentity")
    if provider == "Generic":
        assert registered is None
        assert not set(annotations) & set(IDENTITY_ANNOTATION.values()), annotations
        return
    if provider == "Azure":
        # The registration records the principal ID; the operator must get the CLIENT ID
        # of that same identity (platform.md 3, field failure 1).
        identity, prop = re.fullmatch(r"\$\{(.+)\.(\w+)\}", registered).groups()
        assert prop == "principalId"
        assert plan.named(identity)["type"] == "azure-native:managedidentity:UserAssignedIdentity"
        expected = helm.standin("${" + identity + ".clientId}")
        assert annotations[IDENTITY_ANNOTATION["Azure"]] != helm.standin(registered)
    else:  # AWS role ARN, GCP service-account email: the same value in both places
        expected = helm.standin(registered)
    assert annotations == {IDENTITY_ANNOTATION[provider]: expected}


@pytest.mark.parametrize("case", RESOURCES, ids=resource_ids)
def test_operator_arguments(case: Case, render_cache: Path, plan_of: Plans) -> None:
    stack, name, provider = case
    plan = plan_of(stack)
    operator = container(
        one(rendered_operator(plan, name, provider, render_cache), "Deployment", "anyscale-operator"), "operator"
    )
    args = operator["args"]
    cloud_resource_id = helm.standin("${" + registration(plan, name)["name"] + ".properties.cloudResourceId}")
    gateway = [r for r in owned(plan, name) if r["type"] == "kubernetes:gateway.networking.k8s.io/v1:Gateway"]
    assert len(gateway) == 1
    address = "${" + gateway[0]["name"] + ".status.addresses[0].value}"
    for arg in (
        f"--cloud-deployment-id={cloud_resource_id}",
        f"--cloud-provider={provider.lower()}",
        f"--control-plane-url={CONSOLE}",
        "--enable-gateway=true",
        "--gateway-name=gateway",
        f"--gateway-namespace={OPERATOR_NS}",
        "--gateway-api-version=gateway.networking.k8s.io/v1",
    ):
        assert arg in args, f"{arg} not in {args}"
    if provider == "AWS":  # NLBs report a hostname
        assert f"--gateway-hostname={helm.standin(address, 'networking.gateway.hostname')}" in args
        assert "--gateway-ip=" in args
    else:
        assert f"--gateway-ip={helm.standin(address, 'networking.gateway.ip')}" in args
        assert "--gateway-hostname=" in args
    # The region: at 1.8.0 only AWS has a consumer (--aws-region, for the STS signer);
    # `--region` comes from the deprecated global.region, which we do not set.
    region = next(r["region"] for r in stack_config(stack)["anyscale-cloud:resources"] if r["name"] == name)
    assert [a for a in args if "region=" in a] == ([f"--aws-region={region}"] if provider == "AWS" else [])
    if provider == "Azure":
        assert "--auth-audience=api://086bc555-6989-4362-ba30-fded273e432b/.default" in args
    env = {e["name"] for e in operator.get("env") or []}
    assert ("ANYSCALE_CLI_TOKEN" in env) == (provider == "Generic")


def gpu_pool_names(stack: str, resource: str) -> tuple[list[str], list[str]]:
    spec = next(r for r in stack_config(stack)["anyscale-cloud:resources"] if r["name"] == resource)
    configured = (spec.get("cluster") or {}).get("nodePools") or []
    return [p["name"] for p in configured if p.get("gpu")], [p["name"] for p in configured if not p.get("gpu")]


GPU_RESOURCES = [c for c in RESOURCES if gpu_pool_names(c[0], c[1])[0]]


@pytest.mark.parametrize("case", GPU_RESOURCES, ids=resource_ids)
def test_device_plugin_runs_on_every_gpu_pool_and_no_other(case: Case, render_cache: Path, plan_of: Plans) -> None:
    stack, name, provider = case
    plan = plan_of(stack)
    if provider == "GCP":  # GKE installs drivers and its own device plugin
        assert "nvidia-device-plugin" not in releases(plan, name)
        return
    objects = render_release(releases(plan, name)["nvidia-device-plugin"], provider, render_cache)
    (daemonset,) = [
        o for o in objects if o["kind"] == "DaemonSet" and "mps-control-daemon" not in o["metadata"]["name"]
    ]
    pod = daemonset["spec"]["template"]["spec"]
    recorded = pools(plan, name)
    gpu, cpu = gpu_pool_names(stack, name)
    for pool in gpu:
        labels, taints = recorded[pool]
        assert schedulable_on(pod, labels), f"{pool}: affinity {pod.get('affinity')} does not admit labels {labels}"
        for taint in taints:
            assert tolerates(pod.get("tolerations") or [], taint), (
                f"{pool}: taint {taint} not tolerated by {pod.get('tolerations')}"
            )
    for pool in cpu:
        assert not schedulable_on(pod, recorded[pool][0]), f"{pool} (CPU) admitted: {pod.get('affinity')}"
    assert not schedulable_on(pod, {}), "the (unlabelled) system pool is admitted"


AWS_RESOURCES = [c for c in RESOURCES if c[2] == "AWS"]


@pytest.mark.parametrize("case", AWS_RESOURCES, ids=resource_ids)
def test_autoscaler_discovers_its_own_cluster(case: Case, render_cache: Path, plan_of: Plans) -> None:
    stack, name, provider = case
    plan = plan_of(stack)
    (cluster,) = [r for r in owned(plan, name) if r["type"] == "aws:eks/cluster:Cluster"]
    objects = render_release(releases(plan, name)["cluster-autoscaler"], provider, render_cache)
    (deployment,) = [o for o in objects if o["kind"] == "Deployment"]
    autoscaler = container(deployment)
    tags = f"k8s.io/cluster-autoscaler/enabled,k8s.io/cluster-autoscaler/{cluster['inputs']['name']}"
    assert f"--node-group-auto-discovery=asg:tag={tags}" in autoscaler["command"], autoscaler["command"]
    assert "--cloud-provider=aws" in autoscaler["command"]
    region = next(r["region"] for r in stack_config(stack)["anyscale-cloud:resources"] if r["name"] == name)
    assert {"name": "AWS_REGION", "value": region} in autoscaler["env"]


@pytest.mark.parametrize("case", RESOURCES, ids=resource_ids)
def test_gateway_and_kuberay_land_in_their_namespaces(case: Case, render_cache: Path, plan_of: Plans) -> None:
    stack, name, provider = case
    plan = plan_of(stack)
    found = releases(plan, name)
    envoy = one(render_release(found["gateway-helm"], provider, render_cache), "Deployment", "envoy-gateway")
    kuberay = one(render_release(found["kuberay-operator"], provider, render_cache), "Deployment", "kuberay-operator")
    assert envoy["metadata"]["namespace"] == "envoy-gateway-system"
    assert kuberay["metadata"]["namespace"] == "kuberay-system"


def webhooks(objects: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each webhook of the rendered webhook configurations by its name (mjob.kb.io, vpod.kb.io, ...)."""
    kinds = ("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration")
    return {w["name"]: w for o in objects if o["kind"] in kinds for w in o["webhooks"]}


def test_kueue_webhooks_are_as_components_kuberay_schedulers_says(render_cache: Path, plan_of: Plans) -> None:
    """What the comments on KUEUE_FRAMEWORKS and KUEUE_UNMANAGED_NAMESPACES state about the
    chart at its pinned version, with the program's values and with the chart's defaults."""
    release = releases(plan_of("example"), "default")["kueue"]
    ours = webhooks(render_release(release, "Azure", render_cache))
    defaults = webhooks(
        render_release({**release, "inputs": {**release["inputs"], "values": {}}}, "Azure", render_cache)
    )
    # The same webhooks whatever the frameworks list holds: JobSet and plain pods are not in ours.
    assert ours.keys() == defaults.keys()
    assert {"mjobset.kb.io", "vjobset.kb.io", "mpod.kb.io", "vpod.kb.io"} <= ours.keys()
    # The list sets the failure policy of the pod, deployment and statefulset webhooks only.
    plain = {f"{side}{kind}.kb.io" for side in "mv" for kind in ("pod", "deployment", "statefulset")}
    assert {n: w["failurePolicy"] for n, w in ours.items() if n in plain} == dict.fromkeys(plain, "Ignore")
    assert {n: w["failurePolicy"] for n, w in defaults.items() if n in plain} == dict.fromkeys(plain, "Fail")
    assert {w["failurePolicy"] for n, w in ours.items() if n not in plain} == {"Fail"}
    # Each webhook on workload kinds skips the namespaces the program installs into.
    selectors = {n: w.get("namespaceSelector") for n, w in ours.items()}
    unscoped = {n for n, sel in selectors.items() if sel is None}
    assert unscoped == {
        f"{side}{kind}.kb.io" for side in "mv" for kind in ("clusterqueue", "resourceflavor", "workload")
    } | {"vcohort.kb.io"}
    skipped = {"key": "kubernetes.io/metadata.name", "operator": "NotIn", "values": list(KUEUE_UNMANAGED_NAMESPACES)}
    assert {n for n, sel in selectors.items() if sel == {"matchExpressions": [skipped]}} == ours.keys() - unscoped
    # The chart's defaults: every namespace but kube-system and the release's.
    assert defaults["mpod.kb.io"]["namespaceSelector"]["matchExpressions"][0]["values"] == [
        "kube-system",
        "kueue-system",
    ]
