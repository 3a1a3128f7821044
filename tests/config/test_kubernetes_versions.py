"""Kubernetes versions: the minors each provider creates on a given day (config/currency.py over
config/data/kubernetes.py), the refusals and advisories `preflight validate` and the program
report, AKS long-term support, pools that carry the cluster's minor, and a one-minor upgrade.

The day is always an input here (conftest.py fixes it for the suite at 2026-12-01); the
calendar facts below are literals from the providers' calendars read that day
(../shared/reference/versions-2026-12.md), never read back from the code under test.
"""

from __future__ import annotations

import copy
import logging
import os
from datetime import date
from pathlib import Path
from typing import Any

import pulumi
import pytest
import yaml

from config import SpecError, advisories, load_spec
from config.currency import TodayError, parse_day
from preflight import validate
from preflight.changes import diff_plans
from preflight.runtime import Plan, run_program
from tests.conftest import stack_values
from tests.example_spec import example_cloud, example_resources
from tests.plans import recorded

DAY = date(2026, 12, 1)
ROOT = Path(__file__).resolve().parents[2]


def resources_with(index: int, **cluster: Any) -> list[dict[str, Any]]:
    resources = example_resources()
    resources[index].setdefault("cluster", {}).update(cluster)
    return resources


def refusals(resources: list[dict[str, Any]], day: date = DAY) -> list[str]:
    with pytest.raises(SpecError) as caught:
        load_spec(example_cloud(), resources, today=day)
    return [str(p) for p in caught.value.problems]


def warnings(resources: list[dict[str, Any]], day: date = DAY) -> list[str]:
    return [str(a) for a in advisories(load_spec(example_cloud(), resources, today=day), day)]


# --- defaults ------------------------------------------------------------------------------


def test_each_provider_defaults_to_a_minor_in_standard_support_for_six_months() -> None:
    spec = load_spec(example_cloud(), [{"name": "default", "provider": "Azure", "region": "eastus2"}], today=DAY)
    assert spec.resources[0].cluster.kubernetes_version == "1.36"  # AKS community support to 2027-06-30
    aws = {"name": "aws", "provider": "AWS", "region": "us-west-2"}
    gcp = {"name": "gcp", "provider": "GCP", "region": "us-central1", "project": "my-gcp-project"}
    spec = load_spec(
        example_cloud(), [{"name": "default", "provider": "Azure", "region": "eastus2"}, aws, gcp], today=DAY
    )
    assert [r.cluster.kubernetes_version for r in spec.resources] == ["1.36", "1.36", "1.35"]
    # The example validates with no version advisory on the day the calendar was read.
    assert [a for a in advisories(spec, DAY) if "kubernetesVersion" in a.path] == []


def test_the_example_runs_the_defaults_and_validates() -> None:
    spec = load_spec(example_cloud(), example_resources(), today=DAY)
    versions = {r.name: r.cluster.kubernetes_version for r in spec.resources if hasattr(r, "cluster")}
    assert versions == {"default": "1.36", "aws-usw2": "1.36", "gcp-usc1": "1.35"}


# --- refusals ------------------------------------------------------------------------------


def test_aks_133_without_lts_is_refused_naming_the_path_and_the_creatable_minors() -> None:
    assert refusals(resources_with(0, kubernetesVersion="1.33")) == [
        "resources[0].cluster.kubernetesVersion (default): Kubernetes 1.33 left AKS standard support on 2026-07-31 "
        "(the AKS release calendar, config/data/kubernetes.py, read 2026-12-01); AKS creates it only with long-term "
        "support: skuTier: Premium and supportPlan: AKSLongTermSupport (until 2027-07-31): use one of 1.35, 1.36, "
        "1.37, or set up that extension"
    ]


def test_aks_134_left_community_support_the_day_before() -> None:
    assert refusals(resources_with(0, kubernetesVersion="1.34.3"))[0].startswith(
        "resources[0].cluster.kubernetesVersion (default): Kubernetes 1.34 left AKS standard support on 2026-11-30 "
    )
    # ...and was still created without LTS on its last day.
    load_spec(example_cloud(), resources_with(0, kubernetesVersion="1.34"), today=date(2026, 11, 30))


def test_aks_133_with_lts_and_premium_is_created_with_an_advisory() -> None:
    resources = resources_with(0, kubernetesVersion="1.33", skuTier="Premium", supportPlan="AKSLongTermSupport")
    assert [w for w in warnings(resources) if "kubernetesVersion" in w] == [
        "resources[0].cluster.kubernetesVersion (default): Kubernetes 1.33 left AKS standard support on 2026-07-31 "
        "and runs in long-term support: skuTier: Premium and supportPlan: AKSLongTermSupport, until 2027-07-31: "
        "upgrade one minor at a time towards 1.36"
    ]


def test_lts_requires_the_premium_tier() -> None:
    for tier in ("Free", "Standard"):
        assert refusals(resources_with(0, skuTier=tier, supportPlan="AKSLongTermSupport")) == [
            f"resources[0].cluster.supportPlan (default): AKSLongTermSupport requires skuTier: Premium (AKS rejects "
            f"the plan on the {tier} tier): set skuTier: Premium, or supportPlan: KubernetesOfficial"
        ]
    load_spec(example_cloud(), resources_with(0, skuTier="Premium", supportPlan="AKSLongTermSupport"), today=DAY)


def test_a_minor_past_extended_support_is_refused_even_with_it() -> None:
    # EKS 1.32: extended support ended 2027-03-23.
    assert refusals(resources_with(1, kubernetesVersion="1.32"), date(2027, 3, 24)) == [
        "resources[1].cluster.kubernetesVersion (aws-usw2): Kubernetes 1.32 left EKS extended support on 2027-03-23, "
        "so EKS no longer creates it (the EKS release calendar, config/data/kubernetes.py, read 2026-12-01): use one "
        "of 1.33, 1.34, 1.35, 1.36"
    ]
    resources = resources_with(0, kubernetesVersion="1.32", skuTier="Premium", supportPlan="AKSLongTermSupport")
    assert refusals(resources, date(2027, 4, 1))[0].startswith(
        "resources[0].cluster.kubernetesVersion (default): Kubernetes 1.32 left AKS extended support on 2027-03-31"
    )


def test_a_minor_not_released_is_refused() -> None:
    assert refusals(resources_with(0, kubernetesVersion="1.38")) == [
        "resources[0].cluster.kubernetesVersion (default): Kubernetes 1.38 is not released on AKS (the AKS release "
        "calendar, config/data/kubernetes.py, read 2026-12-01): use one of 1.35, 1.36, 1.37"
    ]
    assert refusals(resources_with(2, kubernetesVersion="1.36")) == [
        "resources[2].cluster.kubernetesVersion (gcp-usc1): Kubernetes 1.36 is not released on GKE (the GKE release "
        "schedule, config/data/kubernetes.py, read 2026-12-01): use one of 1.35"
    ]
    # Before its GA day (AKS 1.36: June 2026).
    assert refusals(example_resources(), date(2026, 6, 29))[0].startswith(
        "resources[0].cluster.kubernetesVersion (default): Kubernetes 1.36 is not available on AKS before 2026-06-30"
    )


def test_gke_past_standard_support_needs_the_extended_channel() -> None:
    assert refusals(resources_with(2, kubernetesVersion="1.34")) == [
        "resources[2].cluster.kubernetesVersion (gcp-usc1): Kubernetes 1.34 left GKE standard support on 2026-10-01 "
        "(the GKE release schedule, config/data/kubernetes.py, read 2026-12-01); GKE creates it only with the Extended "
        "release channel (releaseChannel: EXTENDED) (until 2027-09-30): use one of 1.35, or set up that extension"
    ]
    resources = resources_with(2, kubernetesVersion="1.34", releaseChannel="EXTENDED")
    assert [w for w in warnings(resources) if "kubernetesVersion" in w] == [
        "resources[2].cluster.kubernetesVersion (gcp-usc1): Kubernetes 1.34 left GKE standard support on 2026-10-01 "
        "and runs in the Extended release channel (releaseChannel: EXTENDED), until 2027-09-30 (a date not "
        "confirmed in the provider's own document): upgrade one minor at a time towards 1.35"
    ]


# --- patches ---------------------------------------------------------------------------------
# No source read lists the patches of a minor (versions-2026-12.md gives minors and dates): EKS,
# which takes a minor only, refuses every patch; AKS and GKE take the patches they offer, which
# only the deploy can check, and an advisory says so.


@pytest.mark.parametrize("patch", ["1.36.99", "1.36.2", "1.36.0"])
def test_a_patch_on_eks_is_refused_naming_the_path_and_the_minor(patch: str) -> None:
    assert refusals(resources_with(1, kubernetesVersion=patch)) == [
        f"resources[1].cluster.kubernetesVersion (aws-usw2): {patch} is a patch, and EKS takes a minor only (it runs "
        "its own patch of it; config/data/kubernetes.py PATCH_LIST): write 1.36"
    ]
    load_spec(example_cloud(), resources_with(1, kubernetesVersion="1.36"), today=DAY)


def test_a_patch_on_aks_or_gke_is_an_advisory_naming_where_its_patches_are_listed() -> None:
    resources = resources_with(0, kubernetesVersion="1.36.99")
    resources[2].setdefault("cluster", {})["kubernetesVersion"] = "1.35.99"
    assert [w for w in warnings(resources) if "kubernetesVersion" in w] == [
        "resources[0].cluster.kubernetesVersion (default): 1.36.99 is a patch: AKS creates only the 1.36 patches it "
        "offers in eastus2, and config/data/kubernetes.py keeps no list of them, so only the deploy checks it; "
        "`az aks get-versions --location eastus2` lists them, or write 1.36 (AKS picks the newest)",
        "resources[2].cluster.kubernetesVersion (gcp-usc1): 1.35.99 is a patch: GKE creates only the 1.35 patches it "
        "offers in us-central1, and config/data/kubernetes.py keeps no list of them, so only the deploy checks it; "
        "`gcloud container get-server-config --region us-central1` lists them, or write 1.35 (GKE picks the newest)",
    ]
    # A minor has neither.
    assert [w for w in warnings(example_resources()) if "is a patch" in w] == []


def test_a_patch_past_its_minors_support_gets_both_verdicts() -> None:
    # AKS 1.34 needs LTS since 2026-12-01: the minor's refusal, whatever the patch.
    assert refusals(resources_with(0, kubernetesVersion="1.34.3"))[0].startswith(
        "resources[0].cluster.kubernetesVersion (default): Kubernetes 1.34 left AKS standard support"
    )
    # EKS 1.33 in extended support: the minor's advisory does not hide the patch's refusal.
    assert refusals(resources_with(1, kubernetesVersion="1.33.1")) == [
        "resources[1].cluster.kubernetesVersion (aws-usw2): 1.33.1 is a patch, and EKS takes a minor only (it runs "
        "its own patch of it; config/data/kubernetes.py PATCH_LIST): write 1.33"
    ]


def test_validate_and_the_program_refuse_an_eks_patch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stack = write_stack(tmp_path, resources_with(1, kubernetesVersion="1.36.99"))
    assert validate.main(["--today", "2026-12-01", stack]) == 1
    assert capsys.readouterr().out.splitlines()[0] == (
        "resources[1].cluster.kubernetesVersion (aws-usw2): 1.36.99 is a patch, and EKS takes a minor only (it runs "
        "its own patch of it; config/data/kubernetes.py PATCH_LIST): write 1.36"
    )
    values = stack_values("example")
    values["anyscale-cloud:resources"] = resources_with(1, kubernetesVersion="1.36.99")
    with pytest.raises(pulumi.RunError, match=r"1\.36\.99 is a patch, and EKS takes a minor only"):
        recorded("refused", values)


# --- advisories ------------------------------------------------------------------------------


def test_eks_133_is_named_as_paid_extended_support() -> None:
    assert [w for w in warnings(resources_with(1, kubernetesVersion="1.33")) if "kubernetesVersion" in w] == [
        "resources[1].cluster.kubernetesVersion (aws-usw2): Kubernetes 1.33 left EKS standard support on 2026-07-29 "
        "and runs in EKS extended support, billed per cluster hour on top of the standard control-plane price, "
        "until 2027-07-29: upgrade one minor at a time towards 1.36"
    ]


def test_within_60_days_of_the_end_of_standard_support() -> None:
    resources = resources_with(0, kubernetesVersion="1.35")
    # AKS 1.35: community support to 2027-03-31; 60 days before is 2027-01-30.
    assert [w for w in warnings(resources, date(2027, 1, 29)) if "kubernetesVersion" in w] == []
    assert [w for w in warnings(resources, date(2027, 1, 30)) if "kubernetesVersion" in w] == [
        "resources[0].cluster.kubernetesVersion (default): Kubernetes 1.35 leaves AKS standard support on 2027-03-31 "
        "(60 days); after that it is created only with long-term support: skuTier: Premium and supportPlan: "
        "AKSLongTermSupport: plan the upgrade, one minor at a time"
    ]
    eks = [w for w in warnings(resources_with(1, kubernetesVersion="1.34"), date(2026, 11, 1)) if "aws-usw2" in w]
    assert eks == [
        "resources[1].cluster.kubernetesVersion (aws-usw2): Kubernetes 1.34 leaves EKS standard support on 2026-12-02 "
        "(31 days); after that it runs in EKS extended support, billed per cluster hour on top of the standard "
        "control-plane price: plan the upgrade, one minor at a time"
    ]


def test_a_stale_calendar_is_an_advisory_never_a_failure() -> None:
    # 2027-03-01 is 90 days after the calendar was read (2026-12-01): not yet stale.
    assert [w for w in warnings(example_resources(), date(2027, 3, 1)) if w.startswith("resources:")] == []
    assert [w for w in warnings(example_resources(), date(2027, 3, 2)) if w.startswith("resources:")] == [
        "resources: the Kubernetes support calendar (config/data/kubernetes.py) was read on 2026-12-01, 91 days ago: "
        "check the AKS, EKS and GKE calendars and update it (its defaults too)"
    ]


# --- the commands ---------------------------------------------------------------------------


def write_stack(tmp_path: Path, resources: list[dict[str, Any]]) -> str:
    values = copy.deepcopy(stack_values("example"))
    values["anyscale-cloud:resources"] = resources
    path = tmp_path / "Pulumi.v.yaml"
    path.write_text(yaml.safe_dump({"config": values}), encoding="utf-8")
    return str(path)


def test_validate_judges_on_the_day_given(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    example = str(ROOT / "stacks" / "Pulumi.example.yaml")
    assert validate.main(["--today", "2026-12-01", example]) == 0
    capsys.readouterr()
    # The same file eight months later: AKS 1.36 is past community support.
    assert validate.main(["--today", "2027-08-01", example]) == 1
    out = capsys.readouterr().out
    assert (
        "resources[0].cluster.kubernetesVersion (default): Kubernetes 1.36 left AKS standard support on 2027-06-30"
        in out
    )
    assert validate.main(["--today", "2026-13-01", example]) == 2
    assert "--today: '2026-13-01' is not a date; write YYYY-MM-DD, e.g. 2026-12-01" in capsys.readouterr().err
    stack = write_stack(tmp_path, resources_with(1, kubernetesVersion="1.33"))
    assert validate.main(["--today", "2026-12-01", stack]) == 0
    err = capsys.readouterr().err
    assert (
        "warning: resources[1].cluster.kubernetesVersion (aws-usw2): Kubernetes 1.33 left EKS standard support" in err
    )


def test_validate_without_today_reads_the_environment(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    example = str(ROOT / "stacks" / "Pulumi.example.yaml")
    monkeypatch.setenv("ANYSCALE_CLOUD_TODAY", "2027-08-01")
    assert validate.main([example]) == 1
    monkeypatch.setenv("ANYSCALE_CLOUD_TODAY", "someday")
    assert validate.main([example]) == 2
    assert "ANYSCALE_CLOUD_TODAY: 'someday' is not a date" in capsys.readouterr().err


A_YEAR_ON = "2027-08-01"  # the day the shipped example's default minor (AKS 1.36) is past standard support


class _Warnings(logging.Handler):
    """The WARNING records logged while it is installed (as caplog keeps them)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno == logging.WARNING:
            self.messages.append(record.getMessage())


@pytest.fixture(scope="module")
def a_year_on() -> tuple[Plan, list[str]]:
    """One run of the shipped example on A_YEAR_ON (the day an input, set as the CLI gets it),
    with the warnings it logged: test_a_date_never_fails_the_program_it_warns_and_deploys reads
    both, and `preflight plan` a year on takes this run as its own (the same stack, config and
    day: the program is a function of them) instead of running the program again."""
    root, handler = logging.getLogger(), _Warnings()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("ANYSCALE_CLOUD_TODAY", A_YEAR_ON)
            plan = run_program("example", stack_values("example"))
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
    return plan, handler.messages


def test_a_date_never_fails_the_program_it_warns_and_deploys(
    caplog: pytest.LogCaptureFixture, example_plan: Any, a_year_on: tuple[Plan, list[str]]
) -> None:
    """No time bomb: `pulumi up` on a day past a minor's support warns, names the minor, the
    date and the way out, and registers every resource; `preflight validate` refuses it."""

    def warnings(stack: str, values: dict[str, Any]) -> tuple[int, list[str]]:
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            plan = run_program(stack, values)
        found = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        return len(plan.resources), [w for w in found if "kubernetesVersion" in w]

    values = stack_values("example")
    values["anyscale-cloud:resources"] = resources_with(0, kubernetesVersion="1.33")
    count, found = warnings("old-minor", values)
    assert count > 100 and len(found) == 1
    assert found[0].startswith(
        "resources[0].cluster.kubernetesVersion (default): Kubernetes 1.33 left AKS standard support on "
    )
    assert found[0].endswith(
        "; deploying anyway: a date alone never fails a deploy (the cloud refuses a minor it no longer creates), "
        "and `preflight validate` reports it as a problem"
    )
    # The day the shipped example's default minor leaves standard support, a year on.
    plan, logged = a_year_on
    count, found = len(plan.resources), [w for w in logged if "kubernetesVersion" in w]
    # Every resource the example registers on the suite's day (the session's recording of it,
    # made before this test moved the day).
    assert count == len(example_plan.resources)
    assert any(
        w.startswith(
            "resources[0].cluster.kubernetesVersion (default): Kubernetes 1.36 left AKS standard support on 2027-06-30"
        )
        for w in found
    )
    # The same stack, validated on that day: a problem, exit 1.
    with pytest.raises(SpecError, match=r"Kubernetes 1\.36 left AKS standard support on 2027-06-30"):
        load_spec(
            stack_values("example")["anyscale-cloud:cloud"],
            stack_values("example")["anyscale-cloud:resources"],
            stack_values("example").get("anyscale-cloud:secrets"),
            today=date(2027, 8, 1),
        )


def test_validate_deploying_and_plan_warn_where_validate_refuses(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, a_year_on: tuple[Plan, list[str]]
) -> None:
    """The commands a deploy runs judge as `pulumi up`: `validate --deploying` (deploy.yml)
    and `plan` exit 0 with the warning a year on; plain `validate` (pull requests) exits 1."""
    import preflight.plan
    from tests.cli import preflight_in_process

    def program(stack: str, values: dict[str, Any], first_preview: bool = False) -> Plan:
        # `plan` validates the stack file itself (preflight/plan.py record); the program run it
        # then asks for is a_year_on's: the same stack, config and day.
        assert (stack, values, first_preview) == ("example", stack_values("example"), False)
        assert os.environ["ANYSCALE_CLOUD_TODAY"] == A_YEAR_ON
        return copy.deepcopy(a_year_on[0])

    monkeypatch.setattr(preflight.plan, "run_program", program)

    example = "stacks/Pulumi.example.yaml"
    assert validate.main(["--today", "2027-08-01", example]) == 1
    assert "Kubernetes 1.36 left AKS standard support on 2027-06-30" in capsys.readouterr().out
    assert validate.main(["--deploying", "--today", "2027-08-01", example]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("ok: cloud ")
    assert (
        "warning: resources[0].cluster.kubernetesVersion (default): Kubernetes 1.36 left AKS standard support on "
        "2027-06-30" in err
    )
    assert "; deploying anyway: a date alone never fails a deploy" in err
    monkeypatch.setenv("ANYSCALE_CLOUD_TODAY", A_YEAR_ON)
    result = preflight_in_process("plan", "--stack", "example", "--quiet")
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_minor_no_calendar_row_knows_still_fails_the_program() -> None:
    # Not a date: a minor newer than any release is refused at deploy too.
    values = stack_values("example")
    values["anyscale-cloud:resources"] = resources_with(0, kubernetesVersion="1.99")
    with pytest.raises(pulumi.RunError, match=r"Kubernetes 1\.99 is not released on AKS"):
        recorded("unreleased", values)


# --- pools and upgrades ---------------------------------------------------------------------


def test_every_aks_pool_carries_the_clusters_version(example_plan: Any) -> None:
    aks = example_plan.named("default-aks")["inputs"]
    assert [p["orchestratorVersion"] for p in aks["agentPoolProfiles"]] == ["1.36"]
    pools = example_plan.of_type("azure-native:containerservice:AgentPool")
    assert sorted(p["name"] for p in pools) == ["default-pool-cpu", "default-pool-cpuspot", "default-pool-gput4"]
    for pool in pools:
        assert pool["inputs"]["orchestratorVersion"] == "1.36", pool["name"]
        assert example_plan.named("default-aks")["urn"] in pool["dependsOn"]  # after the control plane


def one_minor_down() -> dict[str, Any]:
    values = stack_values("example")
    values["anyscale-cloud:resources"][0]["cluster"]["kubernetesVersion"] = "1.35"
    values["anyscale-cloud:resources"][1]["cluster"] = {"kubernetesVersion": "1.35"}
    return values


def test_a_one_minor_upgrade_of_the_example_is_in_place_and_not_disruptive(example_plan: Any) -> None:
    base = recorded("example", one_minor_down()).to_json()
    changes = diff_plans(base, example_plan.to_json())
    moved = {c.name: (c.action, sorted(p.path for p in c.properties)) for c in changes if c.action != "same"}
    assert moved == {
        # The control plane first; each worker pool depends on it.
        "default-aks": ("update", ["kubernetesVersion"]),
        "default-pool-cpu": ("update", ["orchestratorVersion"]),
        "default-pool-cpuspot": ("update", ["orchestratorVersion"]),
        "default-pool-gput4": ("update", ["orchestratorVersion"]),
        # EKS: the cluster, then its node groups (each depends on it).
        "aws-usw2-eks": ("update", ["version"]),
        "aws-usw2-system": ("update", ["version"]),
        "aws-usw2-cpu": ("update", ["version"]),
        "aws-usw2-cpuspot": ("update", ["version"]),
        # The autoscaler follows the minor: chart 9.59.0 either way, the 1.36 image.
        "aws-usw2-cluster-autoscaler": ("update", ["values.image.tag"]),
        # The managed add-ons follow it too: EKS's version for the new minor.
        "aws-usw2-addon-aws-ebs-csi-driver": ("update", ["addonVersion"]),
        "aws-usw2-addon-coredns": ("update", ["addonVersion"]),
        "aws-usw2-addon-eks-pod-identity-agent": ("update", ["addonVersion"]),
        "aws-usw2-addon-kube-proxy": ("update", ["addonVersion"]),
        "aws-usw2-addon-vpc-cni": ("update", ["addonVersion"]),
    }
    assert not [c for c in changes if c.disruptive]
    # The system pool's version sits in the cluster's agentPoolProfiles, which the program
    # ignores after creation (AKS lists the worker pools there too): the diff says so and
    # names the step that moves it (preflight/refusals.py; docs/operations.md "Upgrades").
    aks = next(c for c in changes if c.name == "default-aks")
    assert aks.notes[0] == "ignored (ignoreChanges): agentPoolProfiles[0].orchestratorVersion"
    assert len(aks.notes) == 2 and aks.notes[1].startswith('the system pool stays at its version ("1.35")')
    assert "--name system --kubernetes-version 1.36`" in aks.notes[1]


@pytest.mark.parametrize("value", ["20261201", "2026-W49-2", "2026-12-1"])
def test_today_takes_only_the_yyyy_mm_dd_form(value: str) -> None:
    with pytest.raises(TodayError, match="write YYYY-MM-DD"):
        parse_day(value, "--today")
