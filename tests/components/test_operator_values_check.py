"""Exact values and messages of in the
operator chart values check (`addons.anyscaleOperator.values`), a node pool's `shape`
against its `gpu`, the address ranges compared for `peeredWith`, and the CRD take-over and
operator chart of components/addons/. Each asserts what a user sees, expected text as a
literal.

Equivalent (not killable):
- spec._values_problems 4: a `{secure: ...}` as the whole of `values` is refused by the
  secret gate first; below the root the walk only recurses into clear mappings.
- spec._values_problems 30: keys hold no dots, so the walk reaches an owned key by
  equality before anything under it; `startswith(owned + ".")` never decides.
- spec._values_problems 34: the one FORBIDDEN_KEYS entry (networking.gateway.className)
  is under the owned networking.gateway, reported (and not walked into) first.
- spec._values_problems 93, 95: only the best close match is shown; `n` caps the others.
- spec._helm_path 7, 8: the parts it escapes are chart keys, refused when they hold a dot.
- spec._cidrs_of 9, 17, 21: no field it is given holds a list (the only list name,
  `vpc_cidrs`, is no field of the EKS spec: see _eks_cidrs).
- spec._cidrs_of 13: `strict=None` is falsy, as `strict=False`.
- spec._cidrs_of 15, 16: every range it reads passed a strict IPv4 network check already,
  so `strict=True` never refuses one.
- spec._eks_cidrs 6: every AWS resource's cluster is an EksClusterSpec, which has `vpc_id`.
- spec._eks_cidrs 9, 10, 15, 16, 17, 18: in an existing VPC it reads `vpc_cidrs`, which no
  spec field provides (`vpcCidrs` is refused as an unknown key): the result is {} anyway.
- spec._aks_cidrs 6: every Azure resource's cluster is an AksClusterSpec, with `network`.
- spec._aks_cidrs 10: without cluster.network, _cidrs_of(None, ...) finds nothing: {} too.
- addons.nest 7, 10, 12: the two zipped lists always have the same length.
"""

from __future__ import annotations

import copy
from typing import Any

import pulumi
import pytest

from components.addons.crds import take_over_crd
from config import load_spec
from tests.example_spec import example_cloud, example_resources, onprem_and_minio, problems
from tests.raw_inputs import run_raw

SECRET = {"secure": "v1:example-ciphertext/annotation=="}
AT = "resources[2].addons.anyscaleOperator.values"  # the GCP resource of the example stack


def with_values(values: Any) -> list[dict[str, Any]]:
    resources = example_resources()
    resources[2]["addons"] = {"anyscaleOperator": {"version": "1.8.0", "values": values}}
    return resources


def values_problems(values: Any) -> list[str]:
    return problems(with_values(values))


def flat_values(values: Any) -> dict[str, Any]:
    spec = load_spec(example_cloud(), with_values(values))
    return spec.resources[2].addons.anyscale_operator.values


# --- addons.anyscaleOperator.values: the keys ----------------------------------------------


def test_values_that_are_not_a_mapping_are_refused() -> None:
    # A scalar where the chart's values tree belongs: one problem, with an example.
    assert values_problems("replicas=2") == [
        f"{AT} (gcp-usc1): must be a mapping of chart values, e.g. {{operator: {{replicas: 2}}}}"
    ]


def test_an_empty_key_is_refused_as_a_chart_key() -> None:
    # An empty name is not a chart key (not an unknown key of the chart).
    assert values_problems({"": 1}) == [
        f"{AT}. (gcp-usc1): a chart key is a non-empty name without dots: nest the parts as a mapping"
    ]


def test_a_dotted_key_does_not_hide_the_problems_after_it() -> None:
    # Every key is checked: the one after a refused dotted key is reported too.
    assert values_problems({"operator.replicas": 2, "operator": {"replicsa": 1}}) == [
        f"{AT}.operator.replicas (gcp-usc1): a chart key is a non-empty name without dots: nest the parts as a mapping",
        f"{AT}.operator.replicsa (gcp-usc1): operator.replicsa is not a key the anyscale-operator 1.8.0 chart reads "
        "(Helm would ignore it); did you mean operator.replicas?",
    ]


def test_a_valid_key_after_an_unknown_one_keeps_its_problem() -> None:
    # A good leaf after a bad sibling does not wipe the sibling's problem.
    assert values_problems({"operator": {"replicsa": 1, "replicas": 2}}) == [
        f"{AT}.operator.replicsa (gcp-usc1): operator.replicsa is not a key the anyscale-operator 1.8.0 chart reads "
        "(Helm would ignore it); did you mean operator.replicas?"
    ]


def test_a_valid_mapping_after_an_unknown_key_keeps_its_problem() -> None:
    # A clean chart mapping after a bad one does not wipe the bad one's problem.
    assert values_problems({"operator": {"replicsa": 1}, "workloads": {"enableZoneSelector": True}}) == [
        f"{AT}.operator.replicsa (gcp-usc1): operator.replicsa is not a key the anyscale-operator 1.8.0 chart reads "
        "(Helm would ignore it); did you mean operator.replicas?"
    ]


def test_an_unknown_key_with_no_close_match_gets_no_hint() -> None:
    # Nothing close among the chart's keys: the message ends without "did you mean".
    assert values_problems({"zzzzqqq": 1}) == [
        f"{AT}.zzzzqqq (gcp-usc1): zzzzqqq is not a key the anyscale-operator 1.8.0 chart reads (Helm would ignore it)"
    ]


def test_a_secret_in_place_of_a_chart_mapping_is_refused() -> None:
    # `operator` is a mapping in the chart: a `{secure: ...}` there is a single value.
    assert values_problems({"operator": SECRET}) == [
        f"{AT}.operator (gcp-usc1): is a mapping in the chart (keys affinity, annotations, config, container, "
        "deployment, imagePullSecrets, labels, name, nodeSelector, replicas, securityContext, serviceAccount, "
        "tolerations, vector), not a single value"
    ]


# --- operator.annotations: merged with the program's roll annotation -----------------------

ANNOTATIONS_PROBLEM = (
    f"{AT}.operator.annotations (gcp-usc1): must be a mapping of pod annotations in clear, without "
    "'anyscale-cloud/secrets-sha256' (the program's: it rolls the operator when a secret changes)"
)


@pytest.mark.parametrize(
    "annotations",
    [
        {"anyscale-cloud/secrets-sha256": "forged"},  # the program's own key
        SECRET,  # a secret: the program merges into it in clear
        "team=ml",  # not a mapping
    ],
)
def test_operator_annotations_the_program_cannot_merge_are_refused(annotations: Any) -> None:
    # Only a clear mapping without the program's roll annotation can be merged.
    assert values_problems({"operator": {"annotations": annotations}}) == [ANNOTATIONS_PROBLEM]


def test_operator_annotations_in_clear_are_accepted() -> None:
    # A clear mapping of other annotations reaches the operator as flat Helm keys.
    assert flat_values({"operator": {"annotations": {"team": "ml"}}}) == {"operator.annotations.team": "ml"}


# --- values under a chart key, any shape ------------------------------------------------------


def test_an_empty_key_under_a_chart_key_is_refused_and_the_next_still_checked() -> None:
    # A node selector with an empty label name; its next label is still checked.
    assert values_problems({"operator": {"nodeSelector": {"": "v", "disk": None}}}) == [
        f"{AT}.operator.nodeSelector. (gcp-usc1): a key must be a non-empty string",
        f"{AT}.operator.nodeSelector.disk (gcp-usc1): an empty or null value cannot be passed (the AKS extension "
        "takes flat keys); leave the key out",
    ]


def test_a_null_inside_a_list_names_its_index() -> None:
    # The problem's path names the list element (0) and the key inside it.
    assert values_problems({"operator": {"imagePullSecrets": [{"name": None}]}}) == [
        f"{AT}.operator.imagePullSecrets.0.name (gcp-usc1): an empty or null value cannot be passed (the AKS "
        "extension takes flat keys); leave the key out"
    ]


def test_a_dotted_label_under_a_chart_key_is_escaped_in_the_helm_path() -> None:
    # Helm `--set` paths: the dots of a label name are escaped, nested keys joined by dots.
    assert flat_values({"operator": {"nodeSelector": {"kubernetes.io/os": "linux"}}}) == {
        "operator.nodeSelector.kubernetes\\.io/os": "linux"
    }


# --- node pools: `shape` against `gpu` -------------------------------------------------------


def pool_problems(**pool: Any) -> list[str]:
    resources = example_resources()
    resources[0]["cluster"]["nodePools"][0].update(pool)
    return problems(resources)


def test_a_shape_without_gpus_in_a_gpu_pool_is_refused() -> None:
    # The pool has a GPU type but the shape counts no GPUs.
    assert pool_problems(
        instanceType="Standard_Custom_X", shape={"cpu": 4, "memoryGb": 16, "gpus": 0}, gpu={"type": "A100"}
    ) == [
        "resources[0].cluster.nodePools[0].shape.gpus (default): is 0 but the pool has a `gpu`: give the node's GPU "
        "count"
    ]


def test_a_shape_whose_gpus_differ_from_the_pools_count_is_refused() -> None:
    # The shape's GPU count and the pool's gpu.count must agree.
    assert pool_problems(
        instanceType="Standard_Custom_X", shape={"cpu": 4, "memoryGb": 16, "gpus": 2}, gpu={"type": "A100", "count": 1}
    ) == ["resources[0].cluster.nodePools[0].shape.gpus (default): is 2 but the pool's gpu.count is 1; they must agree"]


# --- peeredWith: an EKS cluster in an existing VPC -------------------------------------------

EXISTING_VPC = {
    "vpcId": "vpc-0a1b2c3d4e5f67890",
    "subnetIds": {"private": ["subnet-0a1b2c3d4e5f60001", "subnet-0a1b2c3d4e5f60002"]},
}


def test_an_eks_cluster_in_an_existing_vpc_is_not_compared_by_the_created_vpcs_range() -> None:
    # Its range is unknown (vpcCidr describes a VPC the program creates): peering a GKE
    # network inside the default 10.0.0.0/16 is accepted, not reported as an overlap.
    resources = example_resources()
    resources[1]["cluster"] = copy.deepcopy(EXISTING_VPC)
    resources[1]["peeredWith"] = ["gcp-usc1"]
    resources[2]["cluster"] = {"nodeCidr": "10.0.16.0/20"}
    spec = load_spec(example_cloud(), resources)
    assert spec.resources[1].peered_with == ["gcp-usc1"]


# --- components/addons/ --------------------------------------------------------------------


def test_a_taken_over_crd_keeps_its_annotations_and_options() -> None:
    # take_over_crd is a Pulumi transform the program applies to the CRDs it installs; no
    # config sets a CRD's own annotations or options, so it is called directly here.
    crd = {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "rayjobs.ray.io", "annotations": {"helm.sh/resource-policy": "keep"}},
    }
    args = pulumi.ResourceTransformArgs(
        True,
        "kubernetes:apiextensions.k8s.io/v1:CustomResourceDefinition",
        "rayjobs",
        crd,
        pulumi.ResourceOptions(protect=True),
    )
    result = take_over_crd(args)
    assert result is not None
    assert result.props["metadata"]["annotations"] == {
        "helm.sh/resource-policy": "keep",
        "pulumi.com/patchForce": "true",
    }
    assert (result.opts.protect, result.opts.retain_on_delete) == (True, True)


def test_generic_operator_chart_gets_the_cli_token_value() -> None:
    # Generic: the operator's Helm values carry the CLI token itself (secret), not a blank.
    # Beside onprem, `minio` (one run with test_generic_endpoint.py; only onprem is looked at here).
    raw = run_raw("test", onprem_and_minio())
    chart_values = raw.inputs["onprem-anyscale-operator"]["values"]
    assert chart_values["global"]["auth"] == {"anyscaleCliToken": "v1:Pq9rTb2wX4+example-ciphertext/clitoken=="}
