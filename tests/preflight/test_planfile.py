"""preflight.planfile: the one plan model (values, loading, types, graph) behind tree,
diff, rollout and policy."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from preflight import planfile
from preflight.planfile import Graph, PlanError

FIXTURE = Path(__file__).parents[1] / "fixtures" / "plans" / "two_resources.json"
CLOUD = "urn:pulumi:example::anyscale-cloud::anyscale-cloud:index:AnyscaleCloud::ml-platform"
AWS_GROUP = "urn:pulumi:example::anyscale-cloud::anyscale-cloud:index:AnyscaleCloud$anyscale-cloud:index:CloudResource::aws-usw2"


@pytest.fixture()
def plan() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text())


def named(plan: dict[str, Any], name: str, type_part: str = "") -> dict[str, Any]:
    return next(r for r in plan["resources"] if r["name"] == name and type_part in r["type"])


# --- values ----------------------------------------------------------------------------------


def test_placeholder_spelling() -> None:
    assert (
        planfile.placeholder("default-storage", "primaryEndpoints.blob") == "${default-storage.primaryEndpoints.blob}"
    )


@pytest.mark.parametrize(
    "value, unknown, holds",
    [
        ("${default-operator.principalId}", True, True),
        ("<unknown>", True, True),  # the first-preview mode's spelling of the engine's unknown
        ("https://acct${default-suffix.result}.blob.core.windows.net", False, True),
        ("abfss://anyscale@acct.dfs.core.windows.net", False, False),
        ("[secret]", False, False),
        ("", False, False),
        (None, False, False),  # a null input is a value, not an unknown one
        (3, False, False),
    ],
)
def test_unknown_values(value: Any, unknown: bool, holds: bool) -> None:
    assert planfile.is_unknown(value) is unknown
    assert planfile.holds_unknown(value) is holds


@pytest.mark.parametrize("value", ["${a.b}", "<unknown>", "${default-operator.principalId}"])
def test_the_policy_pack_reads_the_same_unknowns(value: str) -> None:
    """The pack keeps its own reader (it is uploaded alone); both must agree on the spelling."""
    from preflight.policy import pack_module

    assert planfile.is_unknown(value)
    assert pack_module("rules.values").is_unknown(value)


def test_references_any_tries_dotted_names() -> None:
    assert planfile.references_any("x-${my.dotted.name.id}", {"my.dotted.name"})
    assert not planfile.references_any("x-${other.id}", {"my"})
    assert not planfile.references_any("<unknown>", {"unknown"})


# --- loading and checking --------------------------------------------------------------------


def test_a_recorded_plan_is_valid(plan: dict[str, Any], example_plan: Any) -> None:
    assert planfile.plan_problem(plan) is None
    assert planfile.validate(example_plan.to_json())["resources"]


@pytest.mark.parametrize(
    "document, problem",
    [
        ([1, 2], 'expected an object with a "resources" list (python -m preflight plan --json FILE)'),
        ({"resources": "nope"}, 'expected an object with a "resources" list (python -m preflight plan --json FILE)'),
        (
            {"resources": [{"urn": 1, "type": "t"}]},
            "resources[0] is not a plan record: it needs a string `urn` and `type` (and `name`)",
        ),
        (
            {"resources": [{"urn": "u::a", "type": "t", "name": 7}]},
            "resources[0] is not a plan record: it needs a string `urn` and `type` (and `name`)",
        ),
        ({"resources": [{"urn": "u::a", "type": "t"}, {"urn": "u::a", "type": "t"}]}, "resources[1] repeats URN u::a"),
        (
            {"resources": [{"urn": "u::a", "type": "t", "inputs": []}]},
            "resources[0] (a): `inputs` must be an object (or null)",
        ),
        (
            {"resources": [{"urn": "u::a", "type": "t", "options": "x"}]},
            "resources[0] (a): `options` must be an object (or null)",
        ),
        (
            {"resources": [{"urn": "u::a", "type": "t", "dependsOn": {}}]},
            "resources[0] (a): `dependsOn` must be a list (or null)",
        ),
    ],
)
def test_shape_problems(document: Any, problem: str) -> None:
    assert planfile.plan_problem(document) == problem
    with pytest.raises(PlanError, match=r"^not a plan: "):
        planfile.validate(document)


def test_read_goes_through_the_input_gate(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    with pytest.raises(PlanError, match=f"^cannot read {missing}: No such file or directory$"):
        planfile.read(str(missing))
    with pytest.raises(PlanError, match=f"^cannot read {tmp_path}: it is a directory$"):
        planfile.read(str(tmp_path))
    with pytest.raises(PlanError, match=r"^cannot read /dev/zero: not a regular file"):
        planfile.read("/dev/zero")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(PlanError, match=r"^.*bad.json is not valid JSON: "):
        planfile.read(str(bad))
    bad.write_text('{"resources": [], "resources": []}')
    with pytest.raises(PlanError, match=r"bad.json: duplicate key 'resources'"):
        planfile.read(str(bad))
    bad.write_text("[]")
    with pytest.raises(PlanError, match=r"bad.json is not a plan: expected an object"):
        planfile.read(str(bad))
    good = tmp_path / "good.json"
    good.write_text(FIXTURE.read_text())
    assert planfile.read(str(good)) == json.loads(FIXTURE.read_text())


# --- types -----------------------------------------------------------------------------------


def test_type_helpers_on_a_recorded_plan(plan: dict[str, Any]) -> None:
    kinds = {r["name"]: planfile.registration_kind(r) for r in plan["resources"] if planfile.registration_kind(r)}
    assert kinds == {
        "cloud": "cloud",
        "default-registration": "cloudResource",
        "aws-usw2-registration": "cloudResource",
    }
    clusters = sorted(r["name"] for r in plan["resources"] if planfile.is_cluster(r))
    assert clusters == ["aws-usw2-eks", "default-aks"]
    buckets = {r["name"]: planfile.bucket_kind(r) for r in plan["resources"] if planfile.bucket_kind(r)}
    assert buckets == {
        "default-storage": "storage account",
        "default-container": "blob container",
        "aws-usw2-bucket": "bucket",
    }
    assert planfile.is_provider(named(plan, "aws-usw2-k8s"))
    assert planfile.is_component(named(plan, "aws-usw2", "CloudResource"))
    assert not planfile.is_component(named(plan, "aws-usw2-eks"))


def test_resource_name_falls_back_to_the_urn() -> None:
    assert planfile.resource_name({"urn": "urn:pulumi:s::p::aws:eks/cluster:Cluster::my-eks"}) == "my-eks"


# --- the graph -------------------------------------------------------------------------------


def res(name: str, parent: str | None = None, **extra: Any) -> dict[str, Any]:
    return {
        "urn": f"u::{name}",
        "type": extra.pop("type", "t:m:T"),
        "name": name,
        "parent": f"u::{parent}" if parent else None,
        **extra,
    }


def test_graph_links() -> None:
    resources = [
        res("cloud", type=planfile.CLOUD_TYPE, custom=False),
        res("group", "cloud", type=planfile.CLOUD_RESOURCE_TYPE, custom=False),
        res("k8s", "group", type="pulumi:providers:kubernetes"),
        res("cluster", "group", type="aws:eks/cluster:Cluster"),
        res(
            "chart",
            "group",
            provider="u::k8s::0f1e",
            dependsOn=["u::cluster", "u::elsewhere"],
            options={"deletedWith": "u::cluster"},
        ),
        res(
            "reg",
            "group",
            type="azure-native:resources:Resource",
            inputs={"resourceProviderNamespace": "Anyscale.Platform", "resourceType": "clouds/cloudResources"},
        ),
        res("bare-ref", provider="u::k8s"),
    ]
    graph = Graph(resources)
    chart, group = graph.by_urn["u::chart"], graph.by_urn["u::group"]
    assert [r["name"] for r in graph.ancestors(chart)] == ["group", "cloud"]
    assert graph.parent(chart) is group
    assert [r["name"] for r in graph.children("u::group")] == ["k8s", "cluster", "chart", "reg"]
    assert graph.descendants("u::cloud") == {"u::group", "u::k8s", "u::cluster", "u::chart", "u::reg"}
    assert graph.depends_on(chart) == ["u::cluster"]  # a URN the plan does not hold is left out
    assert graph.provider(chart)["name"] == "k8s"  # `<urn>::<id>`
    assert graph.provider(graph.by_urn["u::bare-ref"])["name"] == "k8s"  # a bare URN
    assert graph.deleted_with(chart)["name"] == "cluster"
    assert graph.deleted_with(group) is None
    assert graph.cloud_resource_of(chart) is group
    assert graph.registration_of(group)["name"] == "reg"
    assert graph.group_name(chart) == "group"
    assert graph.group_name(graph.by_urn["u::bare-ref"]) == "cloud"


def test_parent_cycles_end() -> None:
    graph = Graph([res("a", "b"), res("b", "a")])
    assert [r["name"] for r in graph.ancestors(graph.by_urn["u::a"])] == ["b", "a"]
    assert graph.descendants("u::a") == {"u::a", "u::b"}


def test_graph_of_a_recorded_plan(plan: dict[str, Any]) -> None:
    graph = Graph.of(plan)
    aws = graph.by_urn[AWS_GROUP]
    assert graph.registration_of(aws)["name"] == "aws-usw2-registration"
    assert graph.group_name(named(plan, "aws-usw2-eks")) == "aws-usw2"
    assert graph.group_name(named(plan, "acr")) == "cloud"
    assert graph.provider(named(plan, "aws-usw2-envoy-gateway"))["name"] == "aws-usw2-k8s"
    assert graph.parent(named(plan, "aws-usw2", "CloudResource"))["urn"] == CLOUD


def test_deleted_with_points_in_cluster_resources_at_their_cluster(example_plan: Any) -> None:
    document = example_plan.to_json()
    graph = Graph.of(document)
    operator = named(document, "aws-usw2-anyscale-operator")
    assert graph.deleted_with(operator)["name"] == "aws-usw2-eks"


# --- terminal --------------------------------------------------------------------------------


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    "stream, no_color, coloured",
    [(Tty(), None, True), (Tty(), "", True), (Tty(), "1", False), (io.StringIO(), None, False)],
)
def test_use_color_follows_no_color(
    monkeypatch: pytest.MonkeyPatch, stream: Any, no_color: str | None, coloured: bool
) -> None:
    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    assert planfile.use_color(stream) is coloured


def test_a_plan_file_keeps_long_texts_as_their_digest(tmp_path: Path) -> None:
    # The shipped KubeRay CRDs (about 4 MB a cluster) would take a plan past what diff reads.
    from preflight.plan import write_json
    from preflight.runtime import Plan

    crds = "---\nkind: CustomResourceDefinition\n" + "x" * 20_000
    plan = Plan(
        "dev",
        [{"urn": "u", "name": "crds", "type": "kubernetes:yaml/v2:ConfigGroup", "inputs": {"yaml": crds, "a": "b"}}],
    )
    write_json(plan, str(tmp_path / "plan.json"))
    (resource,) = json.loads((tmp_path / "plan.json").read_text(encoding="utf-8"))["resources"]
    # sha256 of that text, 20035 bytes; a short text stays as it is.
    assert resource["inputs"] == {
        "yaml": "<text sha256:69f261a460db7e19c43e09f3c7f9d9525ef023bf0407bc97b9b7643fbeedd039, 20035 bytes>",
        "a": "b",
    }
    assert plan.resources[0]["inputs"]["yaml"] == crds  # the plan in memory keeps the text


def test_a_plan_file_keeps_a_cloud_resources_long_text_whole() -> None:
    # Only Kubernetes objects' long texts (the shipped CRDs and dashboards) become digests: an
    # IAM policy document past 16 KiB stays whole, so the policy pack still reads it.
    from preflight.runtime import Plan

    policy = '{"bindings": [{"role": "roles/storage.objectViewer", "members": ["allUsers"' + ', "x"' * 6000 + "]}]}"
    crd = "kind: CustomResourceDefinition\n" + "#" * 20000
    plan = Plan(
        "s",
        [
            {"type": "gcp:storage/bucketIAMPolicy:BucketIAMPolicy", "name": "p", "inputs": {"policyData": policy}},
            {"type": "kubernetes:yaml/v2:ConfigGroup", "name": "c", "inputs": {"yaml": crd}},
        ],
    )
    resources = plan.to_json()["resources"]
    assert resources[0]["inputs"]["policyData"] == policy
    assert resources[1]["inputs"]["yaml"].startswith("<text sha256:")
