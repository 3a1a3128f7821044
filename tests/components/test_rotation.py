"""Day-2 rotations (README "Day-2 operations"): a new CLI token reaches the running
operator, and new credentials for the same cluster never replace the Kubernetes provider
(which would replace every object it manages, the CRDs and with them every Ray object)."""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

import pytest

from components.kube import api_server
from tests.conftest import stack_values
from tests.example_spec import spec_problems
from tests.raw_inputs import Raw, example, run_raw

# anyscale-operator 1.8.0 templates/deployment.yaml: `operator.annotations` lands in the
# pod template's annotations, so a changed value rolls the operator's pods.
ANNOTATION = "anyscale-cloud/secrets-sha256"

AKS_KUBECONFIG = """\
apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: {ca}
    server: https://aks-ml-default-1a2b3c4d.hcp.eastus2.azmk8s.io:443
  name: aks-ml-default
contexts:
- context:
    cluster: aks-ml-default
    user: clusterAdmin_rg_aks-ml-default
  name: aks-ml-default-admin
current-context: aks-ml-default-admin
kind: Config
users:
- name: clusterAdmin_rg_aks-ml-default
  user:
    token: abc
"""


def test_the_identifier_is_the_current_contexts_server_and_ignores_the_ca() -> None:
    old, rotated = AKS_KUBECONFIG.format(ca="T0xE"), AKS_KUBECONFIG.format(ca="TkVX")
    assert api_server(old) == "https://aks-ml-default-1a2b3c4d.hcp.eastus2.azmk8s.io:443"
    assert api_server(rotated) == api_server(old)


def test_the_identifier_follows_the_current_context_among_several_clusters() -> None:
    config = {
        "clusters": [
            {"name": "a", "cluster": {"server": "https://a.example:6443"}},
            {"name": "b", "cluster": {"server": "https://b.example:6443"}},
        ],
        "contexts": [{"name": "ca", "context": {"cluster": "a"}}, {"name": "cb", "context": {"cluster": "b"}}],
        "current-context": "cb",
    }
    assert api_server(json.dumps(config)) == "https://b.example:6443"


@pytest.mark.parametrize("text", ["", "not: [yaml", "just a string", "clusters: []", "[1, 2]"])
def test_no_identifier_when_the_kubeconfig_names_no_server(text: str) -> None:
    # The provider then reports the kubeconfig itself; the program must not crash first.
    assert api_server(text) is None


@pytest.fixture(scope="module")
def raw() -> Raw:
    return example()


def test_eks_and_gke_providers_are_identified_by_their_endpoint(raw: Raw) -> None:
    assert raw.inputs["aws-usw2-k8s"]["clusterIdentifier"] == "${aws-usw2-eks.endpoint}"
    assert raw.inputs["gcp-usc1-k8s"]["clusterIdentifier"] == "https://${gcp-usc1-gke.endpoint}"
    # Derived from the secret kubeconfig, so a secret too.
    for name in ("default-k8s", "aws-usw2-k8s", "gcp-usc1-k8s", "onprem-k8s"):
        assert raw.plan.named(name)["inputs"]["kubeconfig"] == "[secret]"
    for name in ("aws-usw2-k8s", "gcp-usc1-k8s"):
        assert raw.plan.named(name)["inputs"]["clusterIdentifier"] == "[secret]"


def checksum(raw: Raw, resource: str = "onprem") -> str:
    value: str = raw.inputs[f"{resource}-anyscale-operator"]["values"]["operator"]["annotations"][ANNOTATION]
    return value


def generic(values: dict[str, Any]) -> dict[str, Any]:
    resource: dict[str, Any] = values["anyscale-cloud:resources"][3]
    assert resource["provider"] == "Generic"
    return resource


def edits() -> Raw:
    """The example's onprem three times, each with one edit, next to a bare Azure primary, in
    one run: `token` with a rotated CLI token, `kube` with new credentials for the same
    cluster, `notes` with user pod annotations."""
    values = copy.deepcopy(stack_values("example"))
    primary, onprem = values["anyscale-cloud:resources"][0], generic(values)
    token, kube, notes = ({**copy.deepcopy(onprem), "name": name} for name in ("token", "kube", "notes"))
    token["cliToken"] = {"secure": "v1:NewToken+example-ciphertext/clitoken=="}
    kube["kubeconfig"] = {"secure": "v1:Other+example-ciphertext/kubeconfig=="}
    notes["addons"] = {"anyscaleOperator": {"values": {"operator": {"annotations": {"team": "ml"}}}}}
    bare = {"name": primary["name"], "provider": "Azure", "region": primary["region"]}
    values["anyscale-cloud:resources"] = [bare, token, kube, notes]
    return run_raw("example", values)


def test_the_operator_rolls_when_the_cli_token_changes_and_only_then(raw: Raw) -> None:
    onprem = generic(stack_values("example"))
    token = onprem["cliToken"]["secure"]
    keys = onprem["storage"]["credentials"]
    # The hash of exactly the secret settings (the MinIO keys and the token), and shown only as a secret.
    secrets = {
        "credentialMount.aws.createSecret.accessKeyId": keys["accessKeyId"]["secure"],
        "credentialMount.aws.createSecret.secretAccessKey": keys["secretAccessKey"]["secure"],
        "global.auth.anyscaleCliToken": token,
    }
    assert checksum(raw) == hashlib.sha256(json.dumps(secrets).encode()).hexdigest()
    values = raw.plan.named("onprem-anyscale-operator")["inputs"]["values"]
    assert values["operator"]["annotations"] == {ANNOTATION: "[secret]"}

    # The hash is of onprem's own secret settings only: the edited copies next to a bare
    # primary (one run, edits()) compare with the example's onprem.
    assert checksum(edits(), "token") != checksum(raw)
    assert checksum(edits(), "kube") == checksum(raw)


def test_a_generic_provider_has_no_identifier(raw: Raw) -> None:
    # A rebuilt cluster behind the same address (a VIP, a proxy) must still replace the
    # provider: its new CA is the only sign of it, so the kubeconfig alone decides.
    assert "clusterIdentifier" not in raw.inputs["onprem-k8s"]


def problems(values: dict[str, Any]) -> list[str]:
    return spec_problems(values["anyscale-cloud:cloud"], values["anyscale-cloud:resources"])


ANNOTATIONS_PROBLEM = (
    "resources[3].addons.anyscaleOperator.values.operator.annotations (onprem): must be a mapping of pod "
    "annotations in clear, without 'anyscale-cloud/secrets-sha256' (the program's: it rolls the operator when a "
    "secret changes)"
)


@pytest.mark.parametrize(
    "annotations",
    [{"anyscale-cloud/secrets-sha256": "0"}, {"secure": "v1:abc=="}, "team=ml"],
    ids=["the-programs-key", "a-secret", "not-a-mapping"],
)
def test_user_annotations_cannot_drop_or_fake_the_roll_hash(annotations: Any) -> None:
    values = copy.deepcopy(stack_values("example"))
    generic(values)["addons"] = {"anyscaleOperator": {"values": {"operator": {"annotations": annotations}}}}
    assert problems(values) == [ANNOTATIONS_PROBLEM]


def test_user_annotations_are_merged_with_the_roll_hash() -> None:
    values = copy.deepcopy(stack_values("example"))
    generic(values)["addons"] = {"anyscaleOperator": {"values": {"operator": {"annotations": {"team": "ml"}}}}}
    # Only `values` given: the operator keeps its pinned version (no "version is required").
    assert problems(values) == []
    annotations = edits().inputs["notes-anyscale-operator"]["values"]["operator"]["annotations"]
    assert annotations["team"] == "ml"
    assert len(annotations[ANNOTATION]) == 64
