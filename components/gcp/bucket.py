"""The GCS bucket with the console's CORS rule (or the existing one named in the spec),
and the operator's access to it, and to it only."""

from __future__ import annotations

from dataclasses import dataclass

import pulumi
import pulumi_gcp as gcp
import pulumi_random as random

from components import defaults
from components.cloud_args import known
from components.scope import Scope
from config import GcpResource
from config.names import GCS_SUFFIX, gcs_bucket_name

# objectAdmin for the data; legacyBucketReader adds storage.buckets.get, which the
# operator needs to find the bucket and check its location. Nothing at project level.
BUCKET_ROLES = {
    "objects": "roles/storage.objectAdmin",
    "bucket": "roles/storage.legacyBucketReader",
}

# GCS has one header list per CORS rule, `responseHeader`: it is both the request
# headers a preflight may ask for (Access-Control-Allow-Headers) and the response
# headers exposed. Listing only the range headers fails the console's preflights
# (a PUT with Content-Type, a ranged read): every header, as on the other clouds.
RESPONSE_HEADERS = ["*"]


@dataclass(frozen=True)
class Bucket:
    uri: pulumi.Output[str]
    resources: list[pulumi.Resource]  # ours (none for an existing bucket)
    grants: list[gcp.storage.BucketIAMMember]


def create_bucket(scope: Scope, spec: GcpResource) -> tuple[random.RandomString, gcp.storage.Bucket]:
    ctx = scope.ctx
    suffix = random.RandomString(
        f"{spec.name}-storage-suffix", length=GCS_SUFFIX, special=False, upper=False, opts=scope.random()
    )
    bucket = gcp.storage.Bucket(
        f"{spec.name}-storage",
        name=suffix.result.apply(lambda s: gcs_bucket_name(ctx.cloud_name, spec.name, s)),
        location=str(spec.storage.region).upper(),  # GCS spells locations in capitals
        uniform_bucket_level_access=True,
        public_access_prevention="enforced",
        force_destroy=False,  # it holds logs and workspace snapshots
        cors=[
            {
                "origins": [defaults.CONSOLE_ORIGIN],
                "methods": defaults.CORS_METHODS,
                "response_headers": RESPONSE_HEADERS,
                "max_age_seconds": defaults.CORS_MAX_AGE_SECONDS,
            }
        ],
        opts=scope.guarded(retain_on_delete=spec.storage.retain_on_delete),
    )
    return suffix, bucket


def build_bucket(scope: Scope, spec: GcpResource, member: pulumi.Input[str]) -> Bucket:
    if spec.storage.bucket is not None:
        # Existing bucket: its CORS rule is the owner's to set.
        uri = pulumi.Output.from_input(known(spec.storage.bucket))
        name: pulumi.Input[str] = uri.apply(lambda value: value.removeprefix("gs://"))
        made: list[pulumi.Resource] = []
    else:
        suffix, bucket = create_bucket(scope, spec)
        uri, name, made = pulumi.Output.concat("gs://", bucket.name), bucket.name, [suffix, bucket]
    grants = [
        gcp.storage.BucketIAMMember(
            f"{spec.name}-operator-storage-{key}", bucket=name, role=role, member=member, opts=scope.opts()
        )
        for key, role in BUCKET_ROLES.items()
    ]
    return Bucket(uri, made, grants)
