"""Generic storage at a custom endpoint: the keys (or an existing Secret) are required,
since anyscale-operator 1.8.0 hands the endpoint to the operator only in the AWS config file
of `credentialMount.aws` (templates/_helpers.tpl, `anyscale-operator.aws_config`)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from config import SpecError, load_spec
from tests.conftest import stack_values
from tests.example_spec import onprem_and_minio
from tests.plans import recorded

EXAMPLE = stack_values("example")
KEYS = {
    "accessKeyId": {"secure": "v1:example-ciphertext/access-key=="},
    "secretAccessKey": {"secure": "v1:example-ciphertext/secret-key=="},
}


def with_storage(storage: dict[str, Any]) -> dict[str, Any]:
    values = copy.deepcopy(EXAMPLE)
    values["anyscale-cloud:resources"][3]["storage"] = storage
    return values


def problems(storage: dict[str, Any]) -> list[str]:
    values = with_storage(storage)
    with pytest.raises(SpecError) as caught:
        load_spec(values["anyscale-cloud:cloud"], values["anyscale-cloud:resources"])
    return [str(p) for p in caught.value.problems]


def test_the_example_validates_with_its_keys() -> None:
    storage = EXAMPLE["anyscale-cloud:resources"][3]["storage"]
    assert storage["endpoint"] == "https://minio.dc1.example.com"
    spec = load_spec(EXAMPLE["anyscale-cloud:cloud"], EXAMPLE["anyscale-cloud:resources"])
    assert spec.resources[3].storage.credentials is not None


def test_an_endpoint_without_keys_is_refused_at_its_path() -> None:
    assert problems({"bucket": "s3://ray-data", "endpoint": "https://minio.dc1.example.com"}) == [
        "resources[3].storage.endpoint (onprem): a custom endpoint reaches the operator only with the bucket's keys: "
        "set storage.credentials (accessKeyId, secretAccessKey as Pulumi secrets) or storage.existingSecret, or "
        "remove endpoint"
    ]


def test_keys_and_an_existing_secret_not_both() -> None:
    storage = {
        "bucket": "s3://ray-data",
        "region": "us-east-1",
        "credentials": KEYS,
        "existingSecret": "minio-keys",
    }
    assert problems(storage) == ["resources[3].storage (onprem): give credentials or existingSecret, not both"]


def test_existing_secret_rules() -> None:
    assert problems({"bucket": "gs://ray-data", "existingSecret": "minio-keys"}) == [
        "resources[3].storage (onprem): existingSecret is for S3-compatible buckets (s3://...), not gs://; remove them "
        "or use an s3:// bucket"
    ]
    assert problems({"bucket": "s3://ray-data", "existingSecret": "Minio_Keys"}) == [
        "resources[3].storage.existingSecret (onprem): 'Minio_Keys' is not a Kubernetes Secret name: lowercase "
        "letters, digits, '-' and '.', starting and ending with a letter or digit"
    ]


def test_an_existing_secret_is_mounted_by_name() -> None:
    # `minio`, the example's onprem on an existing Secret (one run with test_operator_values_check.py).
    plan = recorded("test", onprem_and_minio())
    values = plan.named("minio-anyscale-operator")["inputs"]["values"]
    # The chart creates no Secret and mounts this one (templates/deployment.yaml, _helpers.tpl).
    assert values["credentialMount"] == {"aws": {"enabled": True, "fromSecret": {"name": "minio-keys"}}}
    assert "aws" not in values["global"]
    props = plan.named("minio-registration")["inputs"]["properties"]
    assert props["cloudStorageBucketEndpoint"] == "https://minio.dc1.example.com"
