"""GenericTarget: a bring-your-own Kubernetes cluster with an existing bucket.

Nothing is created outside the cluster: the user supplies the kubeconfig, the bucket
(with the console's CORS rule already set on it) and an Anyscale CLI token, which the
operator uses instead of a cloud identity; for an S3-compatible bucket (MinIO), its
keys, endpoint and addressing style (storage.credentials)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pulumi

from components.cloud_args import known
from components.kube import kubernetes_provider
from components.target import CloudContext, Target
from config import GenericResource
from config.addons import OPERATOR_ROLL_ANNOTATION

# The chart writes the keys to a Secret (an AWS credentials and config file) mounted into
# the operator and, through its patches, into the Ray pods (AWS_SHARED_CREDENTIALS_FILE,
# AWS_CONFIG_FILE): templates/credentials.yaml and _helpers.tpl of anyscale-operator 1.8.0.
CREDENTIALS = "credentialMount.aws.createSecret"
# The chart hands the CLI token to the operator as an environment variable from a Secret
# (templates/deployment.yaml of 1.8.0) and puts no checksum on the pod: a new token would
# change the Secret but leave the running operator on the old one. A hash of the secrets
# in the pod template's annotations (`operator.annotations`, read by that template) rolls
# the operator whenever one of them changes, in the same `pulumi up`.
ROLL_ANNOTATION = f"operator.annotations.{OPERATOR_ROLL_ANNOTATION}"


def storage_settings(spec: GenericResource) -> dict[str, Any]:
    """Chart keys for an S3-compatible bucket with credentials or an existing Secret
    (none without them)."""
    credentials = spec.storage.credentials
    if spec.storage.existing_secret is not None:
        # The user's Secret, in the chart's format (templates/credentials.yaml): the chart
        # mounts it by name and creates none.
        return {
            "credentialMount.aws.enabled": True,
            "credentialMount.aws.fromSecret.name": spec.storage.existing_secret,
        }
    if credentials is None:
        return {}
    settings: dict[str, Any] = {
        "credentialMount.aws.enabled": True,
        f"{CREDENTIALS}.create": True,
        # The config file's `region`: the bucket's real region, not the routing label.
        "global.aws.region": spec.storage.region,
    }
    if spec.storage.endpoint:
        settings[f"{CREDENTIALS}.endpointUrl"] = spec.storage.endpoint
    if credentials.addressing_style:
        # `path` also sets ANYSCALE_S3_USE_PATH_STYLE on the operator (usePathStyle helper).
        settings[f"{CREDENTIALS}.addressingStyle"] = credentials.addressing_style
    if credentials.signature_version:
        settings[f"{CREDENTIALS}.signatureVersion"] = credentials.signature_version
    return settings


def secrets_checksum(secrets: dict[str, pulumi.Output[str]]) -> pulumi.Output[str]:
    """sha256 of the secret settings (a secret itself: it only changes with them)."""
    keys = sorted(secrets)

    def digest(values: list[str]) -> str:
        return hashlib.sha256(json.dumps(dict(zip(keys, values, strict=True))).encode()).hexdigest()

    return pulumi.Output.secret(pulumi.Output.all(*(secrets[k] for k in keys)).apply(digest))


def storage_secrets(spec: GenericResource) -> dict[str, pulumi.Output[str]]:
    credentials = spec.storage.credentials
    if credentials is None:
        return {}
    return {
        f"{CREDENTIALS}.accessKeyId": pulumi.Output.secret(credentials.access_key_id.value),
        f"{CREDENTIALS}.secretAccessKey": pulumi.Output.secret(credentials.secret_access_key.value),
    }


class GenericTarget(pulumi.ComponentResource):
    target: Target

    def __init__(self, spec: GenericResource, ctx: CloudContext, opts: pulumi.ResourceOptions | None = None):
        # The type token predates the class name: it is part of every child's URN.
        super().__init__("anyscale-cloud:generic:GenericTarget", spec.name, None, opts)
        kubeconfig = pulumi.Output.secret(spec.kubeconfig.value)
        bucket_uri = pulumi.Output.from_input(known(spec.storage.bucket))
        # The operator authenticates with the CLI token: a protected (secret) setting.
        secrets: dict[str, pulumi.Output[str]] = {
            "global.auth.anyscaleCliToken": pulumi.Output.secret(spec.cli_token.value),
            **storage_secrets(spec),
        }
        self.target = Target(
            provider="Generic",
            region=spec.region,  # a free-form routing label here
            kubernetes=kubernetes_provider(spec.name, kubeconfig, self, identify=False),
            kubeconfig=kubeconfig,
            cluster=None,  # not ours: in-cluster objects are deleted one by one
            bucket_uri=bucket_uri,
            bucket_endpoint=spec.storage.endpoint or "",
            bucket_region=spec.bucket_region,
            registration_identity=None,  # Generic has no cloud identity
            operator_identity=None,
            gateway_address_kind=spec.gateway_address,
            operator_settings={**storage_settings(spec), ROLL_ANNOTATION: secrets_checksum(secrets)},
            protected_settings=dict[str, pulumi.Input[str]](secrets),
        )
        self.register_outputs({"kubeconfig": kubeconfig, "bucket_uri": bucket_uri})
