"""IAM policy documents (pure functions: tested without Pulumi)."""

from __future__ import annotations

import json

# The trust document and its subjects are the spec's (config/workloads.py), which sizes the
# workloads' trust policy against IAM's limit before anything is deployed.
from config.workloads import STS_AUDIENCE as STS_AUDIENCE
from config.workloads import irsa_trust_policy as irsa_trust_policy
from config.workloads import service_account_subject as service_account_subject


def assume_role_policy(service: str) -> str:
    return json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Principal": {"Service": service}, "Action": "sts:AssumeRole"}],
        }
    )


def bucket_policy(bucket: str) -> str:
    """Read, write and delete objects of this one bucket; nothing else."""
    arn = f"arn:aws:s3:::{bucket}"
    return json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [
                {
                    "Sid": "Bucket",
                    "Effect": "Allow",
                    "Action": ["s3:ListBucket", "s3:GetBucketLocation", "s3:ListBucketMultipartUploads"],
                    "Resource": arn,
                },
                {
                    "Sid": "Objects",
                    "Effect": "Allow",
                    "Action": [
                        "s3:GetObject",
                        "s3:PutObject",
                        "s3:DeleteObject",
                        "s3:AbortMultipartUpload",
                        "s3:ListMultipartUploadParts",
                    ],
                    "Resource": f"{arn}/*",
                },
            ],
        }
    )


def deny_insecure_transport(bucket: str) -> dict[str, object]:
    """Refuse every request to the bucket and its objects that is not over TLS, whoever
    sends it (a Deny with Principal * grants nothing, so Block Public Access allows it)."""
    arn = f"arn:aws:s3:::{bucket}"
    return {
        "Sid": "DenyInsecureTransport",
        "Effect": "Deny",
        "Principal": "*",
        "Action": "s3:*",
        "Resource": [arn, f"{arn}/*"],
        "Condition": {"Bool": {"aws:SecureTransport": "false"}},
    }


def bucket_resource_policy(bucket: str, *statements: dict[str, object]) -> str:
    """The bucket's one resource policy (S3 keeps one per bucket: a second BucketPolicy
    would overwrite the first): the TLS-only deny, then any `statements` of ours."""
    return json.dumps({"Version": "2012-10-17", "Statement": [deny_insecure_transport(bucket), *statements]})
