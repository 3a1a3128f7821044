"""The S3 bucket: private, encrypted, versioned, with the console's CORS rule; or the
existing bucket named in the spec."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

import pulumi
import pulumi_aws as aws
import pulumi_random as random

from components import defaults
from components.aws.policies import bucket_resource_policy
from components.cloud_args import known
from components.scope import Scope
from config import AwsResource
from config.names import S3_SUFFIX, s3_bucket_name

NONCURRENT_VERSION_DAYS = 30  # versioning guards snapshots; old versions do not pile up forever


class _Kept(TypedDict):
    """The arguments every bucket setting shares (typed, so `**kept` type-checks)."""

    region: str | None
    opts: pulumi.ResourceOptions


@dataclass(frozen=True)
class Bucket:
    uri: pulumi.Output[str]
    name: pulumi.Output[str]
    resources: list[pulumi.Resource] = field(default_factory=list)  # ours: the registration waits for them


def build_bucket(scope: Scope, spec: AwsResource) -> Bucket:
    if spec.storage.bucket is not None:
        # Existing bucket: its CORS rule and settings are the owner's to set.
        uri = pulumi.Output.from_input(known(spec.storage.bucket))
        return Bucket(uri, uri.apply(lambda value: value.removeprefix("s3://")))
    name = spec.name
    suffix = random.RandomString(
        f"{name}-bucket-suffix", length=S3_SUFFIX, special=False, upper=False, opts=scope.random()
    )
    # A retained bucket keeps its settings too (no public access, encryption, CORS).
    # They live in the storage region, which may differ from the cluster's.
    kept: _Kept = {"region": spec.storage.region, "opts": scope.opts(retain_on_delete=spec.storage.retain_on_delete)}
    bucket = aws.s3.Bucket(
        f"{name}-bucket",
        bucket=suffix.result.apply(lambda s: s3_bucket_name(scope.ctx.cloud_name, name, s)),
        force_destroy=False,  # it holds logs and snapshots
        region=spec.storage.region,
        opts=scope.guarded(retain_on_delete=spec.storage.retain_on_delete),
    )
    versioning = aws.s3.BucketVersioning(
        f"{name}-versioning", bucket=bucket.id, versioning_configuration={"status": "Enabled"}, **kept
    )
    lifecycle = aws.s3.BucketLifecycleConfiguration(
        f"{name}-lifecycle",
        bucket=bucket.id,
        rules=[
            {
                "id": "noncurrent-versions",
                "status": "Enabled",
                "filter": {},  # every object
                "noncurrent_version_expiration": {"noncurrent_days": NONCURRENT_VERSION_DAYS},
                "abort_incomplete_multipart_upload": {"days_after_initiation": 7},
            }
        ],
        region=spec.storage.region,
        opts=scope.opts(retain_on_delete=spec.storage.retain_on_delete, depends_on=[versioning]),
    )
    block = aws.s3.BucketPublicAccessBlock(
        f"{name}-public-access-block",
        bucket=bucket.id,
        block_public_acls=True,
        block_public_policy=True,
        ignore_public_acls=True,
        restrict_public_buckets=True,
        **kept,
    )
    # TLS only. Written after the public access block: S3 may refuse one of two writes to a
    # bucket's access settings at once ("A conflicting conditional operation").
    tls_only = aws.s3.BucketPolicy(
        f"{name}-tls-only",
        bucket=bucket.id,
        policy=bucket.bucket.apply(bucket_resource_policy),
        region=spec.storage.region,
        opts=scope.opts(retain_on_delete=spec.storage.retain_on_delete, depends_on=[block]),
    )
    settings = [
        block,
        tls_only,
        aws.s3.BucketOwnershipControls(
            f"{name}-ownership", bucket=bucket.id, rule={"object_ownership": "BucketOwnerEnforced"}, **kept
        ),
        aws.s3.BucketServerSideEncryptionConfiguration(
            f"{name}-encryption",
            bucket=bucket.id,
            rules=[{"apply_server_side_encryption_by_default": {"sse_algorithm": "AES256"}}],
            **kept,
        ),
        aws.s3.BucketCorsConfiguration(
            f"{name}-cors",
            bucket=bucket.id,
            cors_rules=[
                {
                    "allowed_origins": [defaults.CONSOLE_ORIGIN],
                    "allowed_methods": defaults.CORS_METHODS,
                    "allowed_headers": defaults.CORS_ALLOWED_HEADERS,
                    "expose_headers": defaults.CORS_EXPOSED_HEADERS,
                    "max_age_seconds": defaults.CORS_MAX_AGE_SECONDS,
                }
            ],
            **kept,
        ),
    ]
    return Bucket(
        pulumi.Output.concat("s3://", bucket.bucket), bucket.bucket, [bucket, *settings, versioning, lifecycle]
    )
