"""The hourly cost estimate: the arithmetic on small hand-made plans, the price table
against the instance-type table, `preflight cost`, the cost in `preflight diff` and the
plan summary, and the advisory budget policy. Prices are written here as literals (the
list prices of 2026-12-01), never read from the table under test."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from config.data import prices
from config.data.instance_types import INSTANCE_TYPES
from preflight import diff
from preflight import pricing as cost
from preflight.policy import check_plan
from tests.cli import preflight_in_process

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "fixtures" / "golden"
CLOUD_RESOURCE = "anyscale-cloud:index:CloudResource"


def component(name: str) -> dict[str, Any]:
    return {"urn": f"urn:{name}", "type": CLOUD_RESOURCE, "name": name, "parent": None, "inputs": {}}


def registration(owner: str, provider: str, region: str) -> dict[str, Any]:
    return {
        "urn": f"urn:{owner}-registration",
        "type": "azure-native:resources:Resource",
        "name": f"{owner}-registration",
        "parent": f"urn:{owner}",
        "inputs": {
            "resourceProviderNamespace": "Anyscale.Platform",
            "resourceType": "cloudResources",
            "properties": {"provider": provider, "region": region},
        },
    }


def child(owner: str, type_: str, name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    return {"urn": f"urn:{name}", "type": type_, "name": name, "parent": f"urn:{owner}", "inputs": inputs}


def aks(region: str = "eastus2", gpu_max: Any = 4) -> dict[str, Any]:
    return {
        "project": "anyscale-cloud",
        "stack": "t",
        "resources": [
            component("default"),
            registration("default", "Azure", region),
            child(
                "default",
                "azure-native:containerservice:ManagedCluster",
                "default-aks",
                {
                    "sku": {"name": "Base", "tier": "Standard"},
                    "agentPoolProfiles": [
                        {
                            "name": "system",
                            "vmSize": "Standard_D4s_v5",
                            "enableAutoScaling": True,
                            "count": 1,
                            "minCount": 1,
                            "maxCount": 3,
                        }
                    ],
                },
            ),
            child(
                "default",
                "azure-native:containerservice:AgentPool",
                "default-pool-cpuspot",
                {
                    "vmSize": "Standard_D16s_v5",
                    "enableAutoScaling": True,
                    "count": 0,
                    "minCount": 0,
                    "maxCount": 10,
                    "scaleSetPriority": "Spot",
                },
            ),
            child(
                "default",
                "azure-native:containerservice:AgentPool",
                "default-pool-gput4",
                {"vmSize": "Standard_NC16as_T4_v3", "enableAutoScaling": True, "minCount": 0, "maxCount": gpu_max},
            ),
            child(
                "default",
                "azure-native:containerservice:AgentPool",
                "default-pool-fixed",
                {"vmSize": "Standard_D8s_v5", "count": 2},
            ),
        ],
    }


def by_name(plan: dict[str, Any]) -> dict[str, Any]:
    return {g.name: g for g in cost.groups_of(plan)}


# --- the arithmetic ---------------------------------------------------------------------------


def test_aks_idle_counts_the_control_plane_and_pool_minimums_maximum_every_pool_at_its_maximum():
    group = by_name(aks())["default"]
    assert [(line.label, line.idle, line.maximum, line.missing) for line in group.lines] == [
        ("AKS control plane (Standard)", 0.10, 0.10, None),
        ("pool system: 1-3 x Standard_D4s_v5", 0.192, 0.576, None),
        # The pools by name (the order they register in varies from run to run).
        ("pool default-pool-cpuspot spot: 0-10 x Standard_D16s_v5", 0.0, 7.68, None),
        # Without autoscaling a pool is at its count both ways.
        ("pool default-pool-fixed: 2-2 x Standard_D8s_v5", 0.768, 0.768, None),
        ("pool default-pool-gput4: 0-4 x Standard_NC16as_T4_v3", 0.0, 4.816, None),
    ]
    # 0.10 + 0.192 + 0.768; 0.10 + 0.576 + 7.68 + 4.816 + 0.768
    assert (group.idle, group.maximum, group.not_priced) == (1.06, 13.94, [])
    assert (group.provider, group.region) == ("Azure", "eastus2")


def test_a_region_without_prices_is_not_priced_and_left_out_of_the_sums():
    group = by_name(aks(region="westus3"))["default"]
    assert group.idle == 0.10 and group.maximum == 0.10  # only the control plane: priced in every region
    assert group.not_priced == [
        "pool system: 1-3 x Standard_D4s_v5: Standard_D4s_v5 in westus3 not priced",
        "pool default-pool-cpuspot spot: 0-10 x Standard_D16s_v5: Standard_D16s_v5 in westus3 not priced",
        "pool default-pool-fixed: 2-2 x Standard_D8s_v5: Standard_D8s_v5 in westus3 not priced",
        "pool default-pool-gput4: 0-4 x Standard_NC16as_T4_v3: Standard_NC16as_T4_v3 in westus3 not priced",
    ]


def test_a_count_not_known_before_the_deploy_is_not_priced():
    group = by_name(aks(gpu_max="${pools.maxCount}"))["default"]
    assert "pool default-pool-gput4: 0-? x Standard_NC16as_T4_v3: node count not known before the deploy" in (
        group.not_priced
    )
    assert group.maximum == round(0.10 + 0.576 + 7.68 + 0.768, 4)


def test_an_unpriced_instance_type_is_not_priced_never_guessed_from_its_family():
    plan = aks()
    plan["resources"][4]["inputs"]["vmSize"] = "Standard_ND96isr_H100_v5"
    group = by_name(plan)["default"]
    assert (
        "pool default-pool-gput4: 0-4 x Standard_ND96isr_H100_v5: Standard_ND96isr_H100_v5 in eastus2 not priced"
        in (group.not_priced)
    )


def test_eks_counts_control_plane_nat_and_node_groups_and_gke_attached_gpus_are_not_priced():
    plan = {
        "project": "anyscale-cloud",
        "stack": "t",
        "resources": [
            component("aws"),
            registration("aws", "AWS", "us-west-2"),
            child("aws", "aws:eks/cluster:Cluster", "aws-eks", {}),
            child("aws", "aws:ec2/natGateway:NatGateway", "aws-nat", {}),
            child(
                "aws",
                "aws:eks/nodeGroup:NodeGroup",
                "aws-cpu",
                {
                    "instanceTypes": ["m6i.4xlarge"],
                    "capacityType": "SPOT",
                    "scalingConfig": {"minSize": 1, "maxSize": 8},
                },
            ),
            child("aws", "kubernetes:gateway.networking.k8s.io/v1:Gateway", "aws-gateway", {}),
            component("gcp"),
            registration("gcp", "GCP", "us-central1"),
            child("gcp", "gcp:container/cluster:Cluster", "gcp-gke", {"removeDefaultNodePool": True}),
            child(
                "gcp",
                "gcp:container/nodePool:NodePool",
                "gcp-cpu",
                {
                    "autoscaling": {"totalMinNodeCount": 2, "totalMaxNodeCount": 8},
                    "nodeConfig": {"machineType": "n2-standard-16"},
                },
            ),
            child(
                "gcp",
                "gcp:container/nodePool:NodePool",
                "gcp-t4",
                {
                    "autoscaling": {"totalMinNodeCount": 0, "totalMaxNodeCount": 4},
                    "nodeConfig": {
                        "machineType": "n1-standard-16",
                        "spot": True,
                        "guestAccelerators": [{"type": "nvidia-tesla-t4", "count": 2}],
                    },
                },
            ),
            child("gcp", "kubernetes:gateway.networking.k8s.io/v1:Gateway", "gcp-gateway", {}),
        ],
    }
    groups = by_name(plan)
    aws, gcp = groups["aws"], groups["gcp"]
    # EKS 0.10 + NAT 0.045 + 1 x 0.768; at maximum 8 x 0.768
    assert (aws.idle, aws.maximum) == (0.913, 6.289)
    assert aws.not_priced == ["gateway load balancer: AWS load balancer in us-west-2 not priced"]
    # GKE 0.10 + forwarding rule 0.025 + 2 x 0.7769; at maximum 8 x 0.7769
    assert (gcp.idle, gcp.maximum) == (1.6788, 6.3402)
    assert gcp.not_priced == ["node pool gcp-t4 spot: 0-4 x n1-standard-16: attached GPUs not priced"]
    assert cost.totals(list(groups.values())) == (2.5918, 12.6292, 2)


def test_the_example_stack_per_cloud_resource():
    groups = by_name(json.loads((GOLDEN / "plan-example.json").read_text(encoding="utf-8")))
    assert {name: (g.idle, g.maximum, len(g.not_priced)) for name, g in groups.items()} == {
        "cloud": (0.0695, 0.0695, 0),  # the Premium registry: $1.667 a day / 24
        "aws-usw2": (0.342, 16.086, 1),  # with the NAT gateway's public IPv4 ($0.005)
        "default": (0.317, 20.877, 0),  # with the gateway's Standard load balancer ($0.025)
        "gcp-usc1": (0.259, 16.065, 0),
        "onprem": (0.0, 0.0, 1),
    }
    assert groups["onprem"].not_priced == ["gateway load balancer: bring-your-own cluster: its own infrastructure"]


# --- the table ---------------------------------------------------------------------------------


@pytest.mark.parametrize("provider", ["Azure", "AWS", "GCP"])
def test_every_instance_type_has_a_price_or_is_listed_as_not_priced(provider):
    priced = set().union(*(set(types) for types in prices.INSTANCE_HOURLY[provider].values()))
    known = set(INSTANCE_TYPES[provider])
    unpriced = set(prices.NOT_PRICED[provider])
    assert known - priced - unpriced == set(), "neither priced nor listed as not priced"
    assert priced & unpriced == set(), "both priced and listed as not priced"
    assert (priced | unpriced) - known == set(), "not in the instance-type table"


def test_the_table_is_dated_and_says_how_spot_is_counted():
    assert prices.PRICES_AS_OF == "2026-12-01" and prices.CURRENCY == "USD"
    assert prices.SPOT_DISCOUNT == 0.0
    assert prices.instance_price("Azure", "eastus2", "Standard_D16s_v5") == 0.768
    assert prices.instance_price("AWS", "us-west-2", "m6i.xlarge") == 0.192
    assert prices.instance_price("GCP", "us-central1", "e2-standard-4") == 0.134014
    assert prices.instance_price("GCP", "europe-west4", "e2-standard-4") is None


# --- the command, the diff and the plan summary --------------------------------------------------


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "preflight", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        env={**os.environ, "COLUMNS": "160"},
    )


def test_cost_of_the_example_stack_prints_each_cloud_resource_and_the_total(tmp_path, example_plan):
    # The example's plan as recorded once for the run (`--stack` records the same plan).
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(example_plan.to_json()), encoding="utf-8")
    out = tmp_path / "cost.json"
    result = preflight_in_process("cost", "--plan", str(plan), "--json", str(out))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Hourly cost, list prices of 2026-12-01 (USD; estimates only)"
    # A sum that leaves out an item not priced is a lower bound, and says how many it leaves out.
    assert "  default                $0.317        $20.877" in lines
    assert "  aws-usw2             ≥ $0.342      ≥ $16.086  (1 not priced)" in lines
    assert "  gcp-usc1               $0.259        $16.065" in lines
    assert "  total                ≥ $0.988      ≥ $53.097  (2 not priced)" in lines
    assert "  pool default-pool-gput4: 0-4 x Standard_NC16as_T4_v3: $0.000 idle, $4.816 maximum" in lines
    # $1.667 a registry day / 24; the gateway on the cluster's Standard load balancer; the NAT gateway's IP.
    assert "  container registry (Premium): $0.070 idle, $0.070 maximum" in lines
    assert "  gateway load balancer: $0.025 idle, $0.025 maximum" in lines
    assert "  public IPv4 address: $0.005 idle, $0.005 maximum" in lines
    assert "2 item(s) not priced: left out of the figures above, so those marked ≥ are lower bounds." in lines
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["total"] == {"idleHourly": 0.9875, "maximumHourly": 53.0975, "notPriced": 2, "lowerBound": True}
    lower = {r["name"]: r["lowerBound"] for r in document["cloudResources"]}
    assert lower == {"cloud": False, "default": False, "aws-usw2": True, "gcp-usc1": False, "onprem": True}
    assert document["pricesAsOf"] == "2026-12-01"
    default = next(r for r in document["cloudResources"] if r["name"] == "default")
    assert (default["provider"], default["region"], default["maximumHourly"]) == ("Azure", "eastus2", 20.877)


def test_cost_refuses_a_missing_plan_with_exit_2(tmp_path):
    # A real process: the one `cost` started as a command (tests/cli.py lists each command's).
    result = run("cost", "--plan", str(tmp_path / "none.json"))
    assert result.returncode == 2 and result.stderr.startswith("error: ")


def doubled_gpu_pool() -> tuple[dict[str, Any], dict[str, Any]]:
    base = json.loads((GOLDEN / "plan-example.json").read_text(encoding="utf-8"))
    head = copy.deepcopy(base)
    pool = next(r for r in head["resources"] if r["name"] == "default-pool-gput4")
    assert pool["inputs"]["maxCount"] == 4
    pool["inputs"]["maxCount"] = 8
    return base, head


def test_doubling_a_gpu_pools_max_count_shows_its_cost_change_in_the_diff_markdown():
    base, head = doubled_gpu_pool()
    rows = diff.cost_changes(base, head)
    text = diff.render_markdown(diff.diff_plans(base, head), rows)
    assert "#### Cost per hour (list prices of 2026-12-01; estimates only)" in text
    assert (  # 4 more x $1.204, of what is priced
        "**idle ±$0.000, maximum +$4.816** of the priced items (2 item(s) not priced after, 2 before; figures "
        "marked ≥ are lower bounds)"
    ) in text.splitlines()
    assert "| `default` | $0.317 -> $0.317 (±$0.000) | $20.877 -> $25.693 (+$4.816) | 0 |" in text
    assert "`aws-usw2`" not in text.split("#### Cost per hour")[1]  # unchanged resources are not listed


def test_the_diff_json_carries_each_cloud_resources_cost_before_and_after():
    base, head = doubled_gpu_pool()
    document = diff.changes_to_json(diff.diff_plans(base, head), diff.cost_changes(base, head))
    assert document["cost"]["pricesAsOf"] == "2026-12-01"
    rows = {row["cloudResource"]: row for row in document["cost"]["cloudResources"]}
    assert rows["default"] == {
        "cloudResource": "default",
        "idle": {"base": 0.317, "head": 0.317, "change": 0.0},
        "maximum": {"base": 20.877, "head": 25.693, "change": 4.816},
        "notPriced": 0,
        "notPricedBase": 0,
    }
    assert rows["aws-usw2"]["maximum"] == {"base": 16.086, "head": 16.086, "change": 0.0}


def test_a_removed_cloud_resource_shows_its_cost_going_to_zero():
    base = json.loads((GOLDEN / "plan-example.json").read_text(encoding="utf-8"))
    gone = {r["urn"] for r in base["resources"] if r["name"] == "gcp-usc1"}
    head = copy.deepcopy(base)
    head["resources"] = [r for r in head["resources"] if r["urn"] not in gone and r.get("parent") not in gone]
    rows = {row["cloudResource"]: row for row in diff.cost_changes(base, head)}
    assert rows["gcp-usc1"]["idle"] == {"base": 0.259, "head": 0.0, "change": -0.259}


def test_the_plan_summary_shows_the_totals():
    plan = json.loads((GOLDEN / "plan-dev.json").read_text(encoding="utf-8"))
    assert cost.summary_line(plan, 160) == (
        "Cost per hour (list prices of 2026-12-01): $0.387 idle, $16.131 at maximum"
    )


# --- the budget policy ---------------------------------------------------------------------------


def test_the_budget_policy_flags_a_maximum_above_the_configured_budget():
    plan = json.loads((GOLDEN / "plan-example.json").read_text(encoding="utf-8"))
    found = [v for v in check_plan(plan, {"cost-budget": {"maximumHourlyUsd": 50}}) if v.policy == "cost-budget"]
    assert [(v.level, v.urn, v.message) for v in found] == [
        (
            "advisory",
            None,
            "at maximum the stack can cost at least $53.10 per hour, above the budget of $50.00 (list prices of "
            "2026-12-01; "
            "largest: default $20.88, aws-usw2 $16.09, gcp-usc1 $16.07; 2 item(s) not priced are not in the sum)",
        )
    ]
    assert [v for v in check_plan(plan, {"cost-budget": {"maximumHourlyUsd": 53.1}}) if v.policy == "cost-budget"] == []
    # The default budget, $100 an hour, leaves the example alone.
    assert [v for v in check_plan(plan) if v.policy == "cost-budget"] == []


@pytest.mark.usefixtures("shared_recordings")
def test_preflight_plan_prints_the_totals_after_its_summary():
    result = preflight_in_process("plan", "--stack", "dev")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    line = "Cost per hour (list prices of 2026-12-01): $0.387 idle, $16.131 at maximum"
    assert line in lines
    assert lines.index(line) < lines.index("Rollout estimate (typical durations; estimates only)")


def test_the_summary_line_wraps_to_the_terminal():
    plan = json.loads((GOLDEN / "plan-dev.json").read_text(encoding="utf-8"))
    assert cost.summary_line(plan, 60).splitlines() == [
        "Cost per hour (list prices of 2026-12-01): $0.387 idle,",
        "  $16.131 at maximum",
    ]


def test_figures_with_every_item_priced_are_plain_and_a_lower_bound_is_marked():
    """aks(): every item priced in eastus2; in westus3 only the control plane is."""
    priced, partly = cost.groups_of(aks()), cost.groups_of(aks("westus3"))
    lines = cost.render(priced).splitlines()
    assert "  total                  $1.060        $13.940" in lines
    assert not [line for line in lines if "≥" in line or "not priced" in line]
    assert cost.summary_line(aks()) == "Cost per hour (list prices of 2026-12-01): $1.060 idle, $13.940 at maximum"
    lines = cost.render(partly).splitlines()
    assert "  total                ≥ $0.100       ≥ $0.100  (4 not priced)" in lines
    assert "4 item(s) not priced: left out of the figures above, so those marked ≥ are lower bounds." in lines
    assert cost.summary_line(aks("westus3"), 160) == (
        "Cost per hour (list prices of 2026-12-01): at least $0.100 idle, at least $0.100 at maximum (4 item(s) not "
        "priced, left out)"
    )
    assert cost.to_json(priced)["total"]["lowerBound"] is False
    assert cost.to_json(partly)["total"]["lowerBound"] is True


def test_a_cost_change_marks_each_side_that_leaves_items_out():
    # Every item priced on both sides: plain figures, no note.
    assert diff.render_cost_markdown(diff.cost_changes(aks(), aks(gpu_max=8)))[2:7] == [
        "**idle ±$0.000, maximum +$4.816**",
        "",
        "| cloud resource | idle | maximum | not priced |",
        "|---|---|---|---|",
        "| `default` | $1.060 -> $1.060 (±$0.000) | $13.940 -> $18.756 (+$4.816) | 0 |",
    ]
    # Moved to a region without prices: the head leaves four items out, the base none.
    assert diff.render_cost_markdown(diff.cost_changes(aks(), aks("westus3")))[2:7] == [
        "**idle -$0.960, maximum -$13.840** of the priced items (4 item(s) not priced after, 0 before; figures marked "
        "≥ are lower bounds)",
        "",
        "| cloud resource | idle | maximum | not priced |",
        "|---|---|---|---|",
        "| `default` | $1.060 -> ≥ $0.100 (-$0.960) | $13.940 -> ≥ $0.100 (-$13.840) | 4 |",
    ]
