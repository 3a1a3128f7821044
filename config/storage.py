"""The cloud resource's bucket (`storage`), one model per provider.

`storage.region` left out is the resource's region: config/load.py fills it in once the
stack is valid (platform.md 1.1: the bucket is where compute is).
"""

from __future__ import annotations

import re
from typing import ClassVar, Literal

from pydantic import Field, ValidationError, ValidationInfo, field_validator, model_validator

from config.doc import PREVIEW_REGIONS_NOTE, shown_default
from config.types import Deferrable, SecretValue, Strict, check_region, detail, fail
from policy.rules import platform

# A Kubernetes Secret's name (DNS subdomain, at most 253 characters).
SECRET_NAME_RE = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")


class StorageSpec(Strict):
    """The cloud resource's bucket. Without `bucket`, the program creates one."""

    provider: ClassVar[str] = "Generic"
    # An existing bucket's name only reaches resource properties: it may be an Output.
    bucket: Deferrable[str] | None = Field(
        None,
        description="an existing bucket to use instead of creating one (unset: the program creates it): "
        + "; ".join(f"{p} `{platform.BUCKET_FORMS[p]}`" for p in ("Azure", "AWS", "GCP"))
        + "; never a sub-path (`s3://b/prefix` is rejected)",
        json_schema_extra=shown_default("created"),
    )
    endpoint: str | None = Field(
        None,
        validate_default=True,
        description="a bare `https://<host>` origin: no path, no trailing slash (a trailing slash silently breaks "
        "log delivery); unset: sent empty. **Required** with an existing Azure bucket (its blob endpoint "
        "`https://<account>.blob.core.windows.net`); elsewhere only for S3-compatible storage at a custom endpoint. "
        "Only with `storage.bucket`: for a bucket the program creates it sets the endpoint itself, and an "
        "`endpoint` alone is an error",
    )
    region: str | None = Field(
        None,
        description=f"where the bucket lives; same rules as `region`. Azure: {PREVIEW_REGIONS_NOTE}",
        json_schema_extra=shown_default("`region`"),
    )
    retain_on_delete: bool = Field(
        True,
        description="keep the bucket when it is removed from the stack (it holds logs and workspace snapshots). "
        "On Azure the storage account lives in `cloud.resourceGroup`, so that group is then kept too",
    )

    @field_validator("bucket")
    @classmethod
    def _bucket(cls, value: Deferrable[str] | None) -> Deferrable[str] | None:
        if not isinstance(value, str):
            return value
        problem = platform.bucket_problem(value, cls.provider)
        if problem:
            raise fail("bucket", problem)
        return value

    @field_validator("endpoint")
    @classmethod
    def _endpoint(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None:
            if cls.provider == "Azure" and info.data.get("bucket"):
                raise fail(
                    "endpoint",
                    "is required with an existing Azure bucket: the storage account's blob "
                    "endpoint, e.g. https://<account>.blob.core.windows.net (no trailing slash)",
                )
            return value
        problem = platform.endpoint_problem(value)
        if problem:
            raise fail("endpoint", problem)
        bucket = info.data.get("bucket")
        if cls.provider == "Azure" and isinstance(bucket, str):
            problem = platform.azure_endpoint_problem(bucket, value)
            if problem:
                raise fail("endpoint", problem)
        if "bucket" in info.data and info.data["bucket"] is None:
            # The program sets the endpoint of the bucket it creates: a given one would be ignored.
            raise fail(
                "endpoint",
                "goes with an existing bucket (storage.bucket): the program creates this resource's "
                "bucket and sets its endpoint itself; remove endpoint, or set bucket too",
            )
        return value

    @field_validator("region")
    @classmethod
    def _region(cls, value: str | None) -> str | None:
        return None if value is None else check_region(value, cls.provider)

    @model_validator(mode="after")
    def _endpoint_of_a_bucket_known_later(self) -> StorageSpec:
        """`_endpoint`'s Azure check, for a bucket given as an Output: run again when the
        bucket is known (config/deferred.py); for a bucket known at load, `_endpoint` ran it."""
        if self.provider == "Azure" and isinstance(self.bucket, str) and self.endpoint is not None:
            problem = platform.azure_endpoint_problem(self.bucket, self.endpoint)
            if problem:
                raise ValidationError.from_exception_data(
                    type(self).__name__, [detail(("endpoint",), "endpoint", problem)]
                )
        return self


class AzureStorage(StorageSpec):
    provider: ClassVar[str] = "Azure"


class AwsStorage(StorageSpec):
    provider: ClassVar[str] = "AWS"


class GcpStorage(StorageSpec):
    provider: ClassVar[str] = "GCP"


class S3Credentials(Strict):
    """Keys for an S3-compatible bucket (MinIO, Ceph, ...): the operator chart writes them
    to a Secret mounted into the operator and the Ray pods (`credentialMount.aws`)."""

    access_key_id: SecretValue = Field(description="a Pulumi secret")
    secret_access_key: SecretValue = Field(description="a Pulumi secret")
    # `path` for most S3-compatible stores (MinIO): https://<endpoint>/<bucket>/<key>.
    addressing_style: Literal["path", "virtual"] | None = Field(
        None, description="`path` for most S3-compatible stores (MinIO); unset: the client's default"
    )
    signature_version: Literal["s3v4", "s3"] | None = Field(None, description="unset: the client's default")


class GenericStorage(StorageSpec):
    provider: ClassVar[str] = "Generic"
    bucket: Deferrable[str] = Field(
        description=f"the existing bucket: any `{platform.BUCKET_FORMS['Generic']}`, never a sub-path "
        "(the program creates no bucket for a Generic cluster)"
    )
    credentials: S3Credentials | None = Field(
        None,
        description="keys for an `s3://` bucket (MinIO, Ceph), as Pulumi secrets; need `storage.region` set "
        "explicitly (the region the S3 client signs for; MinIO's default is `us-east-1`). See "
        "[Generic](what-it-creates.md#generic-resources)",
    )
    # The chart's other way in: a Secret the user manages, read by name (credentialMount.aws.fromSecret.name).
    existing_secret: str | None = Field(
        None,
        max_length=253,
        description="instead of `credentials`: the name of a Secret you keep in namespace `anyscale-operator`, "
        "with the keys `credentials` and `config` (AWS credentials and config files; `config` holds "
        "`endpoint_url`), as the operator chart mounts it",
    )

    @field_validator("existing_secret")
    @classmethod
    def _secret_name(cls, value: str | None) -> str | None:
        if value is not None and not SECRET_NAME_RE.fullmatch(value):
            raise fail(
                "secret",
                "'{v}' is not a Kubernetes Secret name: lowercase letters, digits, '-' and '.', starting and ending "
                "with a letter or digit",
                v=value,
            )
        return value

    @model_validator(mode="after")
    def _credentials(self) -> GenericStorage:
        if self.credentials is not None and self.existing_secret is not None:
            raise fail("credentials", "give credentials or existingSecret, not both")
        if self.endpoint and self.credentials is None and self.existing_secret is None:
            # anyscale-operator 1.8.0 passes a custom endpoint to the operator and the Ray pods
            # only in the AWS config file of credentialMount.aws (_helpers.tpl): without it the
            # operator's storage check fails, with no logs and no snapshots.
            raise ValidationError.from_exception_data(
                type(self).__name__,
                [
                    detail(
                        ("endpoint",),
                        "endpoint",
                        "a custom endpoint reaches the operator only with the bucket's keys: set storage.credentials "
                        "(accessKeyId, secretAccessKey as Pulumi secrets) or storage.existingSecret, or remove endpoint",
                    )
                ],
            )
        if self.credentials is None and self.existing_secret is None:
            return self
        what = "credentials are" if self.credentials is not None else "existingSecret is"
        if isinstance(self.bucket, str) and not self.bucket.startswith("s3://"):
            raise fail(
                "credentials",
                "{k} for S3-compatible buckets (s3://...), not {b}; remove them or use an s3:// bucket",
                k=what,
                b=self.bucket.split("://", 1)[0] + "://",
            )
        if self.credentials is not None and self.region is None:
            # The resource's region is a free-form routing label on Generic: the S3 client
            # would sign its requests for a region the bucket is not in.
            raise fail(
                "credentials",
                "set storage.region to the bucket's real region (the S3 client signs requests for it; "
                "MinIO's default is us-east-1)",
            )
        return self
