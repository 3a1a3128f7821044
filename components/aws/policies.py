"""IAM policy documents (pure functions: tested without Pulumi)."""

from __future__ import annotations

import json

STS_AUDIENCE = "sts.amazonaws.com"  # the audience of the tokens EKS projects for IRSA


def assume_role_policy(service: str) -> str:
    return json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Principal": {"Service": service}, "Action": "sts:AssumeRole"}],
        }
    )


def service_account_subject(namespace: str, name: str) -> str:
    """The `sub` of the tokens EKS projects for a Kubernetes service account."""
    return f"system:serviceaccount:{namespace}:{name}"


def irsa_trust_policy(provider_arn: str, issuer: str, namespace: str, service_account: str) -> str:
    """Only the one service account, with tokens meant for STS, may assume the role."""
    host = issuer.removeprefix("https://")
    return json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [
                {
                    "Effect": "Allow",
                    "Principal": {"Federated": provider_arn},
                    "Action": "sts:AssumeRoleWithWebIdentity",
                    "Condition": {
                        "StringEquals": {
                            f"{host}:sub": service_account_subject(namespace, service_account),
                            f"{host}:aud": STS_AUDIENCE,
                        }
                    },
                }
            ],
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
