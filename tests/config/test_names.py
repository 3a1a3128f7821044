"""Names the clouds accept (platform.md 9.3): each derived name at its cloud's limits,
and `preflight validate` rejecting every collision with both config paths."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from config import SpecError, load_spec, names
from config.names import aks_cluster_name, aks_dns_prefix, gcp_account_id, gke_cluster_name
from preflight.runtime import Plan
from tests.cli import preflight_in_process
from tests.conftest import stack_values
from tests.example_spec import spec_problems, standalone
from tests.plans import recorded

CLOUD = {"name": "c", "location": "eastus2", "resourceGroup": "rg"}
PRIMARY = {"name": "default", "provider": "Azure", "region": "eastus2"}


def problems(resources: list[dict[str, Any]], cloud: dict[str, Any] | None = None) -> list[str]:
    return spec_problems(cloud or CLOUD, resources)


# --- the rules, at their boundaries (limits as literals from the clouds' docs) ----------


@pytest.mark.parametrize(
    ("rule", "good", "bad"),
    [
        ("registry", ["a" * 5, "A1" * 25], ["a" * 4, "a" * 51, "ab-cd", "abcde\n"]),
        ("storage_account", ["abc", "a" * 24], ["ab", "a" * 25, "Abcd", "ab-cd"]),
        ("aks_cluster", ["a", "a" * 63, "a_b-c"], ["a" * 64, "-ab", "ab-", "ab_"]),
        ("aks_dns_prefix", ["a", "a" * 54, "a-b"], ["", "a" * 55, "a_b", "-a", "a-"]),
        ("aks_pool", ["a", "a" * 12], ["a" * 13, "1a", "a-b", "Ab"]),
        ("azure_identity", ["abc", "a" * 128], ["ab", "a" * 129, "-abc"]),
        ("eks_cluster", ["a", "a" * 100], ["a" * 101, "-a"]),
        ("eks_node_group", ["a", "a" * 63], ["a" * 64, "_a", ""]),
        ("s3_bucket", ["abc", "a" * 63, "a.b-c"], ["ab", "a" * 64, "Abc", "abc-"]),
        ("gke_cluster", ["a", "a" * 40], ["a" * 41, "1a", "a-"]),
        ("gke_pool", ["a", "a" * 40], ["a" * 41, "a-", "A"]),
        ("gcp_account", ["abcdef", "a" * 30], ["abcde", "a" * 31, "1abcdef", "abcdef-", "abcdef\n"]),
        ("gcs_bucket", ["abc", "a" * 63], ["ab", "a" * 64, "-abc"]),
    ],
)
def test_rule_boundaries(rule: str, good: list[str], bad: list[str]) -> None:
    for name in good:
        assert names.RULES[rule].problem(name) is None, name
    for name in bad:
        assert names.RULES[rule].problem(name) is not None, name


def test_registry_name_is_letters_and_digits_within_50() -> None:
    assert names.registry_name("ml-platform", "ab12cd34") == "acrmlplatformab12cd34"
    longest = names.registry_name("x" * 256, "ab12cd34")
    assert len(longest) == 50 and longest.endswith("ab12cd34")
    assert names.registry_name("_-_", "ab12cd34") == "acrab12cd34"  # still >= 5


def test_derived_names_fit_for_the_longest_config_names() -> None:
    cloud, resource = "C" * 256, "r_" * 128
    assert len(names.aks_cluster_name(cloud, resource)) == 63
    assert re.fullmatch(r"[a-zA-Z0-9][-_a-zA-Z0-9]{0,61}[a-zA-Z0-9]", names.aks_cluster_name("c", "x_"))
    assert len(names.aks_dns_prefix(cloud, resource)) == 54
    assert len(names.storage_account_name(cloud, resource, "abc123")) == 24
    assert len(names.s3_bucket_name(cloud, resource, "abcd1234")) == 63
    assert len(names.gcs_bucket_name(cloud, resource, "abc123")) <= 63
    assert len(names.gcp_account_id(cloud, resource)) == 30
    assert len(names.gke_cluster_name(cloud, resource)) == 40


def test_the_example_stack_is_free_of_collisions() -> None:
    from preflight.stackfile import read_stack_file, stack_path

    config = read_stack_file(stack_path("example")).config
    load_spec(config["anyscale-cloud:cloud"], config["anyscale-cloud:resources"])


# --- collisions ------------------------------------------------------------------------


def test_default_and_Default_collide_on_azure() -> None:
    found = problems([PRIMARY, {"name": "Default", "provider": "Azure", "region": "eastus2"}])
    assert found[0] == (
        "resources[1].name (Default): 'Default' is already the name of resources[0] ('default': Azure "
        "resource names ignore case); names must be unique within the cloud (the platform answers HTTP 409)"
    )


def test_pool_logical_names_collide_across_resources() -> None:
    pool = {"instanceType": "m6i.4xlarge"}
    found = problems(
        [
            PRIMARY,
            {
                "name": "aws",
                "provider": "AWS",
                "region": "us-west-2",
                "cluster": {"nodePools": [{"name": "cpu", **pool}, {"name": "east-cpu", **pool}]},
            },
            {
                "name": "aws-east",
                "provider": "AWS",
                "region": "us-east-1",
                "cluster": {"nodePools": [{"name": "cpu", **pool}]},
            },
        ]
    )
    assert found == [
        "resources[2].cluster.nodePools[0].name (aws-east): gives the Pulumi logical name 'aws-east-cpu', "
        "which collides with resources[1].cluster.nodePools[1].name (aws); rename one of them"
    ]


def test_gke_pool_logical_names_collide_with_the_system_pool() -> None:
    gcp = {"provider": "GCP", "region": "us-central1", "project": "my-gcp-project"}
    found = problems(
        [
            PRIMARY,
            {
                "name": "g",
                **gcp,
                "cluster": {"nodePools": [{"name": "x-pool-system", "instanceType": "n2-standard-16"}]},
            },
            {"name": "g-pool-x", **gcp},
        ]
    )
    assert (
        "resources[2].name (g-pool-x): gives the Pulumi logical name 'g-pool-x-pool-system', which collides "
        "with resources[1].cluster.nodePools[0].name (g); rename one of them"
    ) in found


def test_cut_aks_cluster_names_carry_a_hash_of_the_whole_name() -> None:
    cloud = {**CLOUD, "name": "c" * 58}  # aks-<58>- leaves no character of the resource name
    assert problems([PRIMARY, {"name": "other", "provider": "Azure", "region": "eastus2"}], cloud) == []
    # 56 characters, '-', 6 hex characters of sha256("aks-<58 c>-<resource>").
    assert aks_cluster_name("c" * 58, "default") == f"aks-{'c' * 52}-64defc"
    assert aks_cluster_name("c" * 58, "other") == f"aks-{'c' * 52}-76a52a"


def test_cut_gcp_service_account_ids_carry_a_hash_of_the_whole_name() -> None:
    gcp = {"provider": "GCP", "region": "us-central1", "project": "my-gcp-project"}
    assert problems([PRIMARY, {"name": "gcp-team-alpha-east-1", **gcp}, {"name": "gcp-team-alpha-east-2", **gcp}]) == []
    assert gcp_account_id("c", "gcp-team-alpha-east-1") == "anyscale-c-gcp-team-alp-466d34"
    assert gcp_account_id("c", "gcp-team-alpha-east-2") == "anyscale-c-gcp-team-alp-bee652"


def test_names_that_fit_are_unchanged() -> None:
    # At the limit exactly: no hash (nothing deployed is renamed).
    assert gcp_account_id("c", "gcp-team-alpha-e") == "anyscale-c-gcp-team-alpha-e"  # 27
    assert gcp_account_id("ml-platform", "gcp-usc1") == "anyscale-ml-platform-gcp-usc1"  # 29
    assert gcp_account_id("ml-platform", "gcp-usc1x") == "anyscale-ml-platform-gcp-usc1x"  # 30
    assert aks_cluster_name("c" * 50, "default") == f"aks-{'c' * 50}-default"  # 62
    assert aks_cluster_name("c" * 50, "default_") == f"aks-{'c' * 50}-default"  # 63, trailing '_' trimmed as before
    assert aks_dns_prefix("ml-platform", "default") == "ml-platform-default"
    assert gke_cluster_name("ml-platform", "gcp-usc1") == "gke-ml-platform-gcp-usc1"


def test_same_sa_id_in_other_projects_is_fine() -> None:
    found = problems(
        [
            PRIMARY,
            {"name": "gcp-team-alpha-east-1", "provider": "GCP", "region": "us-central1", "project": "project-one"},
            {"name": "gcp-team-alpha-east-2", "provider": "GCP", "region": "us-central1", "project": "project-two"},
        ]
    )
    assert found == []


def test_azure_identity_names_ignore_case() -> None:
    found = problems(
        [
            PRIMARY,
            {"name": "Team", "provider": "Azure", "region": "eastus2"},
            {"name": "team_", "provider": "Azure", "region": "eastus2"},
        ]
    )
    # `aks-c-team_` strips to `aks-c-team`: the same cluster name as `Team`'s, case aside.
    assert (
        "resources[2].name (team_): gives the AKS cluster name 'aks-c-team', which collides with "
        "resources[1].name (Team) (the cloud ignores case); rename one of them"
    ) in found


def test_invalid_derived_gke_pool_name_names_its_path() -> None:
    found = problems(
        [
            PRIMARY,
            {
                "name": "g",
                "provider": "GCP",
                "region": "us-central1",
                "project": "my-gcp-project",
                "cluster": {"nodePools": [{"name": "cpu-", "instanceType": "n2-standard-16"}]},
            },
        ]
    )
    assert found == [
        "resources[1].cluster.nodePools[0].name (g): gives the GKE node pool name 'cpu-', which the cloud "
        "rejects: 1-40 lowercase letters, digits and '-', starting with a letter, not ending with '-'"
    ]


def test_preflight_validate_reports_both_paths(tmp_path: Path) -> None:
    bad = tmp_path / "Pulumi.bad.yaml"
    bad.write_text(
        "config:\n"
        "  anyscale-cloud:cloud: {name: c, location: eastus2, resourceGroup: rg}\n"
        "  anyscale-cloud:resources:\n"
        "    - {name: default, provider: Azure, region: eastus2}\n"
        "    - {name: aws, provider: AWS, region: us-west-2, cluster: {nodePools: [{name: east-cpu, instanceType: m6i.large}]}}\n"
        "    - {name: aws-east, provider: AWS, region: us-east-1, cluster: {nodePools: [{name: cpu, instanceType: m6i.large}]}}\n"
    )
    result = preflight_in_process("validate", str(bad))
    assert result.returncode == 1
    assert result.stdout.strip().splitlines() == [
        "resources[2].cluster.nodePools[0].name (aws-east): gives the Pulumi logical name 'aws-east-cpu', "
        "which collides with resources[1].cluster.nodePools[0].name (aws); rename one of them"
    ]


def test_reserved_bucket_name_parts_are_avoided_or_refused() -> None:
    # docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html;
    # cloud.google.com/storage/docs/buckets#naming
    from config.names import RULES, gcp_display_name, gcs_bucket_name, s3_bucket_name

    assert s3_bucket_name("sthree", "default", "abcd1234") == "anyscale-sthree-default-abcd1234"
    assert s3_bucket_name("amzn-s3-demo", "x", "abcd1234") == "anyscale-amzn-s3-demo-x-abcd1234"
    assert s3_bucket_name("ml", "default", "abcd1234") == "ml-default-abcd1234"
    assert gcs_bucket_name("google-ml", "x", "abc123") == "gcp-ml-x-abc123"
    assert gcs_bucket_name("goog", "x", "abc123") == "anyscale-goog-x-abc123"
    assert RULES["s3_bucket"].problem("sthree-x") is not None
    assert RULES["gcs_bucket"].problem("my-g00gle-b") is not None
    assert len(gcp_display_name("c" * 200, "r" * 200).encode()) == 100
    assert gcp_display_name("ml", "gcp") == "Anyscale operator (ml/gcp)"


def test_iam_role_autonames_stay_within_64_characters(example_plan: Plan) -> None:
    # IAM caps role names at 64; Pulumi appends "-" and 7 random characters to the logical name.
    from config.names import aws_role_logical_names

    values = standalone(stack_values("example"))
    roles = sorted(r["name"] for r in example_plan.resources if r["type"] == "aws:iam/role:Role")
    # The EBS CSI driver's IRSA role (aws/addons.py): its suffix is shorter than
    # "-cluster-role", so the length rule below covers it.
    assert roles == sorted([*aws_role_logical_names("aws-usw2"), "aws-usw2-ebs-csi"])
    long_name = "a" * 44  # 44 + len("-cluster-role") + 8 = 65
    values["anyscale-cloud:resources"][1]["name"] = long_name
    with pytest.raises(SpecError) as error:
        load_spec(values["anyscale-cloud:cloud"], values["anyscale-cloud:resources"])
    assert any("IAM role name" in str(p) and "resources[1].name" in str(p) for p in error.value.problems), (
        error.value.problems
    )


def similar_resources(indices: range | tuple[int, ...]) -> dict[str, Any]:
    """The example cloud with its primary and a GCP resource named alike for each of `indices`
    (gcp-usc1-1 ...)."""
    values = standalone(stack_values("example"))
    primary = values["anyscale-cloud:resources"][0]
    gcp = {"provider": "GCP", "region": "us-central1", "project": "my-gcp-project"}
    values["anyscale-cloud:resources"] = [primary] + [{"name": f"gcp-usc1-{i}", **gcp} for i in indices]
    return values


def gcp_accounts(cloud: str, indices: range | tuple[int, ...]) -> list[str]:
    """The operator's, the Ray pods' and the nodes' account of gcp-usc1-<i> for each of `indices`."""
    return [
        account(cloud, f"gcp-usc1-{i}")
        for i in indices
        for account in (names.gcp_account_id, names.gcp_workload_account_id, names.gke_node_account_id)
    ]


def test_forty_similar_resources_get_forty_sets_of_names() -> None:
    # At forty, on the names themselves: the spec's collision check (the derived physical
    # names, and the pools' and node groups' logical names) finds none, and the 117 account
    # IDs are apart. The plan below shows that the program registers exactly these account
    # IDs, and every other name as the resource's name plus a suffix the same for each
    # resource, so the names of forty are apart as the names of the four below are (a run of
    # forty costs 12 s of the suite's two minutes).
    values = similar_resources(range(1, 40))
    load_spec(values["anyscale-cloud:cloud"], values["anyscale-cloud:resources"])  # no collision reported
    accounts = gcp_accounts("ml-platform", range(1, 40))
    assert len(accounts) == len(set(accounts)) == 117
    assert all(6 <= len(a) <= 30 for a in accounts)
    # Cut (anyscale-ml-platform-gcp-usc1-<n> is 31-32 characters) and told apart by the hash;
    # gcp-usc1-1's is 31: "anyscale-ml-platform-gc" + "-" + sha256(...)[:6].
    assert "anyscale-ml-platform-gc-6e0545" in accounts
    assert "workloads-ml-platform-g-388e6a" in accounts  # gcp-usc1-1's, cut the same way


# Two resources of each suffix length: a one-digit (gcp-usc1-1, gcp-usc1-2) and a two-digit
# pair (gcp-usc1-10, gcp-usc1-11), so both cut lengths of the account IDs (31 and 32 characters)
# are in the plan twice, and gcp-usc1-1's name is the start of two others' (each GCP resource
# registers about 40 resources: eleven of them cost 3 s more than these four).
SIMILAR = (1, 2, 10, 11)


def test_similar_resources_plan_with_the_names_the_spec_checked() -> None:
    plan = recorded("test", similar_resources(SIMILAR))
    assert len(plan.of_type("azure-native:resources:Resource")) == 6  # the clouds record and 5 registrations
    accounts = [r["inputs"]["accountId"] for r in plan.of_type("gcp:serviceaccount/account:Account")]
    assert sorted(accounts) == sorted(gcp_accounts("ml-platform", SIMILAR))
    assert len(accounts) == len(set(accounts)) == 12
    assert "anyscale-ml-platform-gc-6e0545" in accounts
    urns = [r["urn"] for r in plan.resources]
    assert len(urns) == len(set(urns))
    # Every logical name of a resource is its name, or its name, "-" and a suffix that is the
    # same for every resource: no name of one can be another's, at any count.
    names_of = {
        i: {r["name"] for r in plan.resources if r["name"] == f"gcp-usc1-{i}" or r["name"].startswith(f"gcp-usc1-{i}-")}
        for i in SIMILAR
    }
    assert set().union(*names_of.values()) == {r["name"] for r in plan.resources if r["name"].startswith("gcp-usc1-")}
    suffixes = {i: {name[len(f"gcp-usc1-{i}") :] for name in names} for i, names in names_of.items()}
    assert all(s == suffixes[1] for s in suffixes.values()) and len(suffixes[1]) > 20
    assert all(suffix == "" or suffix.startswith("-") for suffix in suffixes[1])
