"""preflight.changes and preflight.diff: actions, property paths, replacement, disruption, output and CLI."""

from __future__ import annotations

import copy
import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from preflight.changes import Change, diff_plans, format_path, parse_path
from preflight.diff import changes_to_json, main, render_changes, render_markdown, summarize

FIXTURE = Path(__file__).parents[1] / "fixtures" / "plans" / "two_resources.json"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
Plan = dict[str, Any]


@pytest.fixture()
def base() -> Plan:
    return json.loads(FIXTURE.read_text())


def edited(plan: Plan, name: str, edit: Callable[[dict[str, Any]], None]) -> Plan:
    """A copy of `plan` with `edit` applied to the resource named `name`."""
    head = copy.deepcopy(plan)
    edit(next(r for r in head["resources"] if r["name"] == name))
    return head


def without(plan: Plan, *names: str) -> Plan:
    head = copy.deepcopy(plan)
    head["resources"] = [r for r in head["resources"] if r["name"] not in names]
    return head


def change_of(changes: list[Change], name: str) -> Change:
    return next(c for c in changes if c.name == name)


def non_same(changes: list[Change]) -> dict[str, str]:
    return {c.name: c.action for c in changes if c.action != "same"}


def paths(change: Change) -> list[str]:
    return [p.path for p in change.properties]


def set_in(path: list[str | int], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(resource: dict[str, Any]) -> None:
        target = resource["inputs"]
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return edit


# --------------------------------------------------------------------------------
# Actions and property paths


def test_identical_plans_have_no_changes(base: Plan) -> None:
    changes = diff_plans(base, copy.deepcopy(base))
    assert len(changes) == len(base["resources"])
    assert all(c.action == "same" for c in changes)
    assert summarize(changes) == f"no changes, {len(base['resources'])} unchanged"


def test_nested_list_path_is_an_update(base: Plan) -> None:
    head = edited(base, "aws-usw2-gateway", set_in(["spec", "listeners", 1, "hostname"], "*.x.example.com"))
    changes = diff_plans(base, head)
    assert non_same(changes) == {"aws-usw2-gateway": "update"}
    prop = change_of(changes, "aws-usw2-gateway").properties[0]
    assert (prop.path, prop.old, prop.new, prop.kind) == (
        "spec.listeners[1].hostname",
        "*.i.azure.anyscaleuserdata.com",
        "*.x.example.com",
        "changed",
    )
    assert not change_of(changes, "aws-usw2-gateway").disruptive


def test_keys_with_dots_are_quoted(base: Plan) -> None:
    head = edited(
        base,
        "default-anyscale-operator",
        set_in(["configurationSettings", "global.controlPlaneURL"], "https://other.example.com"),
    )
    change = change_of(diff_plans(base, head), "default-anyscale-operator")
    assert paths(change) == ['configurationSettings["global.controlPlaneURL"]']


def test_added_and_removed_keys_are_changes(base: Plan) -> None:
    def edit(resource: dict[str, Any]) -> None:
        del resource["inputs"]["createNamespace"]
        resource["inputs"]["atomic"] = True

    change = change_of(diff_plans(base, edited(base, "default-kuberay", edit)), "default-kuberay")
    assert {(p.path, p.kind) for p in change.properties} == {("createNamespace", "removed"), ("atomic", "added")}
    assert change.action == "update"


def test_bool_to_number_is_a_change(base: Plan) -> None:
    head = edited(base, "default-kuberay", set_in(["createNamespace"], 1))
    assert non_same(diff_plans(base, head)) == {"default-kuberay": "update"}


@pytest.mark.parametrize(
    "parts",
    [
        ["spec", "listeners", 1, "hostname"],
        ["configurationSettings", "global.auth.iamIdentity"],
        ["metadata", "annotations", "service.beta.kubernetes.io/aws-load-balancer-type"],
        ["values", "a b", 0],
    ],
)
def test_paths_round_trip(parts: list[str | int]) -> None:
    assert parse_path(format_path(parts)) == parts


def test_created_and_deleted_resources(base: Plan) -> None:
    extra = copy.deepcopy(next(r for r in base["resources"] if r["name"] == "default-operator-ns"))
    extra["urn"] = extra["urn"].replace("default-operator-ns", "default-extra-ns")
    extra["name"] = "default-extra-ns"
    head = without(base, "aws-usw2-cpu")
    head["resources"].append(extra)
    changes = diff_plans(base, head)
    assert non_same(changes) == {"default-extra-ns": "create", "aws-usw2-cpu": "delete"}
    assert not any(c.disruptive for c in changes)  # a node pool or a namespace is not disruptive here
    assert change_of(changes, "aws-usw2-cpu").cloud_resource == "aws-usw2"


# --------------------------------------------------------------------------------
# Replacement


def test_any_registration_change_replaces_it(base: Plan) -> None:
    head = edited(base, "aws-usw2-registration", set_in(["properties", "cloudStorageBucketRegion"], "us-east-1"))
    change = change_of(diff_plans(base, head), "aws-usw2-registration")
    assert change.action == "replace"
    assert change.properties[0].path == "properties.cloudStorageBucketRegion"
    assert change.properties[0].forces_replacement


def test_an_api_version_change_updates_a_registration(base: Plan) -> None:
    head = edited(base, "aws-usw2-registration", set_in(["apiVersion"], "2026-02-01-preview"))
    change = change_of(diff_plans(base, head), "aws-usw2-registration")
    assert change.action == "update"
    assert [(p.path, p.old, p.new, p.forces_replacement) for p in change.properties] == [
        ("apiVersion", "2026-09-01", "2026-02-01-preview", False)
    ]
    assert not change.disruptive


def test_a_read_only_field_copied_into_the_inputs_does_not_replace_a_registration(base: Plan) -> None:
    # A refresh that copies provisioningState into the stored inputs: the next diff shows it
    # removed, which is an update (an unchanged PUT), not a new cldrsrc_ ID.
    refreshed = edited(base, "aws-usw2-registration", set_in(["properties", "provisioningState"], "Succeeded"))
    change = change_of(diff_plans(refreshed, base), "aws-usw2-registration")
    assert change.action == "update"
    assert [p.path for p in change.properties] == ["properties.provisioningState"]


def test_a_named_replace_on_changes_covers_itself_and_below_only(base: Plan) -> None:
    def narrow(resource: dict[str, Any]) -> None:
        resource["options"]["replaceOnChanges"] = ["values.global"]

    narrowed = edited(base, "aws-usw2-anyscale-operator", narrow)
    other = edited(narrowed, "aws-usw2-anyscale-operator", set_in(["values", "networking", "gateway", "name"], "x"))
    assert change_of(diff_plans(narrowed, other), "aws-usw2-anyscale-operator").action == "update"
    below = edited(narrowed, "aws-usw2-anyscale-operator", set_in(["values", "global", "cloudProvider"], "gcp"))
    assert change_of(diff_plans(narrowed, below), "aws-usw2-anyscale-operator").action == "replace"


def test_a_registration_is_replaced_whatever_its_options_say(base: Plan) -> None:
    # A head plan that drops (or narrows) replaceOnChanges on a registration must not
    # show the platform's delete-and-create as a harmless update.
    def drop(resource: dict[str, Any]) -> None:
        resource["options"]["replaceOnChanges"] = []

    stripped = edited(base, "aws-usw2-registration", drop)
    head = edited(stripped, "aws-usw2-registration", set_in(["properties", "cloudStorageBucketRegion"], "x-1"))
    change = change_of(diff_plans(stripped, head), "aws-usw2-registration")
    assert change.action == "replace"
    assert change.disruptive


def test_replace_on_changes_matches_whole_segments(base: Plan) -> None:
    def options(resource: dict[str, Any]) -> None:
        resource["options"]["replaceOnChanges"] = ["spec.listener"]  # a prefix of "listeners", not a parent

    narrowed = edited(base, "aws-usw2-gateway", options)
    head = edited(narrowed, "aws-usw2-gateway", set_in(["spec", "listeners", 0, "port"], 8080))
    assert change_of(diff_plans(narrowed, head), "aws-usw2-gateway").action == "update"


def test_replace_on_changes_falls_back_to_base_options(base: Plan) -> None:
    def edit(resource: dict[str, Any]) -> None:
        del resource["options"]["replaceOnChanges"]
        resource["inputs"]["properties"]["region"] = "us-east-1"

    change = change_of(diff_plans(base, edited(base, "aws-usw2-registration", edit)), "aws-usw2-registration")
    assert change.action == "replace"


@pytest.mark.parametrize(
    ("name", "path", "value", "action"),
    [
        ("aws-usw2-anyscale-operator", ["name"], "operator", "replace"),  # Helm release name
        ("aws-usw2-anyscale-operator", ["version"], "1.9.0", "update"),  # a chart upgrade
        ("default-operator", ["location"], "westus2", "replace"),  # azure-native location
        ("default-operator-ns", ["metadata", "name"], "other", "replace"),  # Kubernetes name
        ("default-envoy-proxy", ["metadata", "namespace"], "other", "replace"),
        ("default-aks", ["kubernetesVersion"], "1.37", "update"),
        ("aws-usw2-bucket", ["bucket"], "other-bucket", "replace"),  # recorded as aws:s3/bucketV2:BucketV2
    ],
)
def test_identity_inputs_force_replacement(base: Plan, name: str, path: list[str], value: Any, action: str) -> None:
    change = change_of(diff_plans(base, edited(base, name, set_in(path, value))), name)
    assert change.action == action


def test_option_changes_are_not_property_changes(base: Plan) -> None:
    def edit(resource: dict[str, Any]) -> None:
        resource["options"]["deleteBeforeReplace"] = False
        resource["options"]["protect"] = True

    changes = diff_plans(base, edited(base, "default-registration", edit))
    change = change_of(changes, "default-registration")
    assert change.action == "same" and not change.properties
    assert "option protect: false -> true" in change.notes
    assert "options only" in render_changes(changes)


def test_ignore_changes_is_honoured(base: Plan) -> None:
    def edit(resource: dict[str, Any]) -> None:
        resource["options"]["ignoreChanges"] = ["spec.listeners"]
        resource["inputs"]["spec"]["listeners"][1]["hostname"] = "*.x.example.com"

    change = change_of(diff_plans(base, edited(base, "aws-usw2-gateway", edit)), "aws-usw2-gateway")
    assert change.action == "same"
    assert any("spec.listeners[1].hostname" in note for note in change.notes)


def test_replacement_propagates_through_references(base: Plan) -> None:
    # A longer random suffix -> a new storage account name -> a new bucket, and a
    # registration whose bucket name reads it (replaceOnChanges "*").
    changes = diff_plans(base, edited(base, "default-suffix", set_in(["length"], 10)))
    actions = non_same(changes)
    for name in ("default-suffix", "default-storage", "default-container", "default-registration"):
        assert actions[name] == "replace", name
    assert actions["default-anyscale-operator"] == "update"  # reads the new cloudResourceId
    storage = change_of(changes, "default-storage")
    assert storage.disruptive
    assert storage.properties[0].kind == "computed" and storage.properties[0].path == "accountName"
    assert "aws-usw2-registration" not in actions  # the other cloud resource is untouched


# --------------------------------------------------------------------------------
# Disruption


def test_replacing_a_registration_is_disruptive_with_reasons(base: Plan) -> None:
    head = edited(base, "aws-usw2-registration", set_in(["properties", "region"], "us-east-1"))
    change = change_of(diff_plans(base, head), "aws-usw2-registration")
    assert change.disruptive
    text = " ".join(change.reasons)
    assert "409" in text and "terminate its workloads first" in text
    assert "snapshot" in text
    assert "primary" in text  # services are said to be unaffected: they run on default only


def test_deleting_the_primary_says_it_must_stay(base: Plan) -> None:
    change = change_of(diff_plans(base, without(base, "default-registration")), "default-registration")
    assert change.action == "delete" and change.disruptive
    text = " ".join(change.reasons)
    assert "must stay first and Azure-backed" in text
    assert "Services run only on the primary" in text


def test_deleting_a_cluster_is_disruptive(base: Plan) -> None:
    changes = diff_plans(base, without(base, "aws-usw2-eks"))  # recorded as aws:eks/cluster:Cluster
    change = change_of(changes, "aws-usw2-eks")
    assert change.action == "delete" and change.disruptive
    assert "running workloads" in change.reasons[0]


def test_replacing_a_cluster_is_disruptive(base: Plan) -> None:
    change = change_of(diff_plans(base, edited(base, "default-aks", set_in(["location"], "westus2"))), "default-aks")
    assert change.action == "replace" and change.disruptive


def test_deleting_a_bucket_loses_its_data(base: Plan) -> None:
    change = change_of(diff_plans(base, without(base, "aws-usw2-bucket")), "aws-usw2-bucket")
    assert change.disruptive and "loses the logs and workspace snapshots" in change.reasons[0]


def test_a_retained_bucket_is_kept_but_orphaned(base: Plan) -> None:
    def retain(resource: dict[str, Any]) -> None:
        resource["options"]["retainOnDelete"] = True

    retained = edited(base, "aws-usw2-bucket", retain)
    change = change_of(diff_plans(retained, without(retained, "aws-usw2-bucket")), "aws-usw2-bucket")
    assert change.disruptive
    assert "kept, but orphaned" in change.reasons[0]


def test_updates_are_never_disruptive(base: Plan) -> None:
    head = edited(base, "default-aks", set_in(["kubernetesVersion"], "1.37"))
    assert not change_of(diff_plans(base, head), "default-aks").disruptive


# --------------------------------------------------------------------------------
# Secrets


@pytest.mark.parametrize(("turned_clear", "note"), [(True, "was secret, now in clear text"), (False, "now secret")])
def test_a_change_between_secret_and_clear_is_shown_redacted(base: Plan, turned_clear: bool, note: str) -> None:
    clear = edited(
        base,
        "default-anyscale-operator",
        set_in(["configurationProtectedSettings", "global.auth.anyscaleCliToken"], "tok-PLAINTEXT"),
    )
    old, new = (base, clear) if turned_clear else (clear, base)
    changes = diff_plans(old, new)
    prop = change_of(changes, "default-anyscale-operator").properties[0]
    assert (prop.old, prop.new, prop.kind, prop.note) == ("[secret]", "[secret]", "changed", note)
    for text in (render_changes(changes), render_markdown(changes), json.dumps(changes_to_json(changes))):
        assert "tok-PLAINTEXT" not in text


def test_a_secret_appearing_is_a_change(base: Plan) -> None:
    head = edited(base, "default-anyscale-operator", set_in(["configurationProtectedSettings", "extra"], "[secret]"))
    prop = change_of(diff_plans(base, head), "default-anyscale-operator").properties[0]
    assert (prop.path, prop.kind, prop.new) == ("configurationProtectedSettings.extra", "added", "[secret]")


def test_unchanged_secrets_are_counted_as_unseen(base: Plan) -> None:
    changes = diff_plans(base, copy.deepcopy(base))
    text = render_changes(changes)
    assert "3 secret input(s) are redacted in both plans" in text  # two kubeconfigs, one CLI token


# --------------------------------------------------------------------------------
# Rendering


def sample_changes(base: Plan) -> list[Change]:
    """2 creates, 1 disruptive replace, the rest unchanged."""
    head = edited(base, "aws-usw2-registration", set_in(["properties", "region"], "us-east-1"))
    for n in ("one", "two"):
        extra = copy.deepcopy(next(r for r in base["resources"] if r["name"] == "aws-usw2-operator-ns"))
        extra["urn"] = extra["urn"].replace("aws-usw2-operator-ns", f"aws-usw2-{n}")
        extra["name"] = f"aws-usw2-{n}"
        head["resources"].append(extra)
    return diff_plans(base, head)


def test_summary_line(base: Plan) -> None:
    # The gateway (certificate names) and the operator (cloudDeploymentId) of aws-usw2
    # read the replaced registration's id: 2 updates; 45 - 1 - 2 resources unchanged.
    assert summarize(sample_changes(base)) == "2 to create, 2 to update, 1 to replace (1 disruptive), 42 unchanged"


def test_text_groups_by_action_and_flags_disruptive(base: Plan) -> None:
    text = render_changes(sample_changes(base), color=False)
    assert not ANSI.search(text)
    assert text.startswith("!! 1 DISRUPTIVE")
    assert re.search(r"^\+ create \(2\)$", text, re.M)
    assert re.search(r"^\+- replace \(1\)$", text, re.M)
    assert re.search(r"^  \+- anyscale:cloudResource  aws-usw2-registration  \[aws-usw2\]  !! DISRUPTIVE$", text, re.M)
    assert '~ properties.region: "us-west-2" -> "us-east-1"  (forces replacement)' in text
    assert "default-aks" not in text  # unchanged resources are not listed
    assert text.rstrip().splitlines()[-2].startswith("2 to create")


def test_text_colour_only_when_asked(base: Plan) -> None:
    assert ANSI.search(render_changes(sample_changes(base), color=True))


def test_markdown_has_a_table_and_details(base: Plan) -> None:
    text = render_markdown(sample_changes(base))
    assert (
        "| `+-` | replace | `aws-usw2-registration` | `azure-native:resources:Resource` | `aws-usw2` | "
        "**disruptive** |" in text
    )
    assert "<details><summary><code>+-</code> replace <code>aws-usw2-registration</code>, disruptive</summary>" in text
    assert "**Why this is disruptive:**" in text
    assert '| `properties.region` | `"us-west-2"` | `"us-east-1"` |  | **forces replacement** |' not in text
    assert '| `properties.region` | `"us-west-2"` | `"us-east-1"` | **forces replacement** |' in text
    assert not ANSI.search(text)


# --------------------------------------------------------------------------------
# Command line


def write(tmp_path: Path, name: str, plan: Any) -> str:
    path = tmp_path / name
    path.write_text(plan if isinstance(plan, str) else json.dumps(plan))
    return str(path)


def test_cli_success_and_json(base: Plan, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    head = edited(base, "aws-usw2-gateway", set_in(["spec", "listeners", 1, "hostname"], "*.x.example.com"))
    out = tmp_path / "diff.json"
    code = main(
        [write(tmp_path, "b.json", base), write(tmp_path, "h.json", head), "--json", str(out), "--fail-on-disruptive"]
    )
    assert code == 0
    assert "1 to update" in capsys.readouterr().out
    rows = json.loads(out.read_text())["changes"]
    assert len(rows) == len(base["resources"])  # every resource, "same" included
    row = next(r for r in rows if r["name"] == "aws-usw2-gateway")
    assert {"urn", "type", "name", "action", "disruptive", "reasons", "properties"} <= set(row)
    assert row["properties"] == [
        {
            "path": "spec.listeners[1].hostname",
            "old": "*.i.azure.anyscaleuserdata.com",
            "new": "*.x.example.com",
            "kind": "changed",
            "forcesReplacement": False,
        }
    ]


def test_cli_fails_on_disruptive_only_when_asked(base: Plan, tmp_path: Path) -> None:
    head = without(base, "aws-usw2-eks")
    args = [write(tmp_path, "b.json", base), write(tmp_path, "h.json", head)]
    assert main(args) == 0
    out = tmp_path / "d.json"
    assert main(args + ["--fail-on-disruptive", "--json", str(out)]) == 3
    assert out.exists()  # the report is still written


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("{not json", "is not valid JSON"),
        ({"resources": "nope"}, "is not a plan"),
        ({"resources": [{"urn": 1}]}, "is not a plan"),
        ([1, 2], "is not a plan"),
    ],
)
def test_cli_bad_input_exits_2_without_traceback(
    base: Plan, tmp_path: Path, capsys: pytest.CaptureFixture[str], content: Any, message: str
) -> None:
    bad = str(tmp_path / "missing.json") if content is None else write(tmp_path, "bad.json", content)
    code = main([write(tmp_path, "b.json", base), bad])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error: ") and message in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_cli_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["only-one.json"]) == 2
    assert "usage:" in capsys.readouterr().err


def test_cli_markdown(base: Plan, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    head = without(base, "aws-usw2-eks")
    main([write(tmp_path, "b.json", base), write(tmp_path, "h.json", head), "--format", "markdown"])
    out = capsys.readouterr().out
    assert out.startswith("### Preflight diff") and "<details>" in out and "> [!CAUTION]" in out


class FakeTty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("tty", "no_color", "coloured"), [(True, None, True), (True, "1", False), (False, None, False)]
)
def test_cli_colour_follows_tty_and_no_color(
    base: Plan, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tty: bool, no_color: str | None, coloured: bool
) -> None:
    stdout = FakeTty() if tty else io.StringIO()
    monkeypatch.setattr("sys.stdout", stdout)
    if no_color is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", no_color)
    head = without(base, "aws-usw2-eks")
    main([write(tmp_path, "b.json", base), write(tmp_path, "h.json", head)])
    assert bool(ANSI.search(stdout.getvalue())) == coloured


def test_a_control_plane_jump_of_more_than_one_minor_is_blocked(base: Plan) -> None:
    # The fixture's clusters run 1.36 (AKS) and 1.36 (EKS).
    jump = change_of(
        diff_plans(base, edited(base, "default-aks", set_in(["kubernetesVersion"], "1.38"))), "default-aks"
    )
    assert (jump.action, jump.disruptive) == ("update", True)
    assert jump.reasons == [
        "Blocked: the control plane would move from Kubernetes 1.36 to 1.38, 2 minors at once; AKS, EKS and GKE "
        "upgrade one minor at a time and refuse the jump. Go to 1.37 first, apply, then take the next minor."
    ]
    down = change_of(diff_plans(base, edited(base, "aws-usw2-eks", set_in(["version"], "1.35"))), "aws-usw2-eks")
    assert down.reasons == [
        "Blocked: the control plane would move from Kubernetes 1.36 down to 1.35; the clouds do not downgrade a "
        "cluster's minor (only a new cluster can run the older one)."
    ]
    one = change_of(diff_plans(base, edited(base, "aws-usw2-eks", set_in(["version"], "1.37"))), "aws-usw2-eks")
    assert (one.action, one.disruptive, one.reasons) == ("update", False, [])


def test_a_fixed_name_cluster_replacement_is_refused_with_what_to_do(base: Plan) -> None:
    head = edited(base, "default-aks", set_in(["location"], "westus3"))
    change = change_of(diff_plans(base, head), "default-aks")
    assert change.action == "replace" and change.disruptive
    assert change.reasons == [
        "Replacing the cluster destroys its running workloads and everything in it (operators, gateway, Ray clusters).",
        'REFUSED: the replacement keeps the name "default-aks", and the cloud refuses to create it while the old '
        "cluster exists ('already exists'); with cloud.protect on, the engine refuses it at preview. Revert the "
        "change, or add a cloud resource under a new name, move the workloads there, then remove this one.",
    ]


def test_a_renamed_eks_cluster_is_not_refused_but_still_disruptive(base: Plan) -> None:
    # The identity input `name` changed: the new cluster does not meet the old one.
    head = edited(base, "aws-usw2-eks", set_in(["name"], "aws-usw2-b"))
    change = change_of(diff_plans(base, head), "aws-usw2-eks")
    assert change.action == "replace" and change.disruptive
    assert not any(r.startswith("REFUSED") for r in change.reasons)


def test_an_aks_pool_bounds_change_says_to_refresh() -> None:
    base = json.loads((FIXTURE.parent.parent / "golden" / "plan-dev.json").read_text())
    head = edited(base, "default-pool-cpu", set_in(["minCount"], 2))
    change = change_of(diff_plans(base, head), "default-pool-cpu")
    assert change.action == "update"
    assert change.notes == [
        "the update re-sends the pool's count from the state (ignoreChanges: count), the creation count unless a "
        "refresh read the autoscaler's: run `pulumi up --refresh` so that AKS gets the current one"
    ]
    labels = edited(base, "default-pool-cpu", set_in(["nodeLabels", "team"], "ml"))
    assert change_of(diff_plans(base, labels), "default-pool-cpu").notes == []
