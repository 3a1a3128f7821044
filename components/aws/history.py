"""addons.kuberay.historyServer on EKS: an IAM role of its own, trusted through IRSA (the
cluster's OIDC provider, as the operator's and the autoscaler's roles) by the History
Server's and the collectors' Kubernetes service accounts, allowed objects under the history
prefix of the resource's bucket only. KubeRay 1.7.0's `s3` backend (historyserver/pkg/storage/
s3/config.go, s3.go) builds an aws-sdk-go session with static keys only when
AWS_ACCESS_KEY_ID is set, else the SDK's default chain, whose web identity provider reads the
AWS_ROLE_ARN and token file EKS's pod identity webhook injects for the annotated account."""

from __future__ import annotations

import json

import pulumi
import pulumi_aws as aws

from components.aws.iam import Irsa
from components.aws.policies import STS_AUDIENCE, service_account_subject
from components.kuberay.history import PREFIX, SERVICE_ACCOUNTS
from components.target import HistoryIdentity
from config import AwsResource

# https://docs.aws.amazon.com/eks/latest/userguide/associate-service-account-role.html
ROLE_ANNOTATION = "eks.amazonaws.com/role-arn"


def history_trust_policy(provider_arn: str, issuer: str) -> str:
    """Only the two service accounts (server, collectors), with tokens meant for STS."""
    host = issuer.removeprefix("https://")
    subjects = [service_account_subject(ns, name) for ns, name in SERVICE_ACCOUNTS.values()]
    statement = {
        "Effect": "Allow",
        "Principal": {"Federated": provider_arn},
        "Action": "sts:AssumeRoleWithWebIdentity",
        # A list under StringEquals matches any of its values.
        "Condition": {"StringEquals": {f"{host}:sub": subjects, f"{host}:aud": STS_AUDIENCE}},
    }
    return json.dumps({"Version": "2012-10-17", "Statement": [statement]})


def history_bucket_policy(bucket: str) -> str:
    """List the bucket, read and write objects under the history prefix; nothing else.

    The listing has no prefix condition: KubeRay 1.7.0's S3 backend calls HeadBucket when it
    starts (historyserver/pkg/storage/s3/s3.go, createBucketIfNotExists), which S3 authorises
    as s3:ListBucket with no prefix, and both the server and the collectors exit when it is
    refused. The role can therefore list every key name in the bucket (not read them)."""
    arn = f"arn:aws:s3:::{bucket}"
    return json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [
                {
                    "Sid": "List",
                    "Effect": "Allow",
                    "Action": ["s3:ListBucket"],
                    "Resource": arn,
                },
                {"Sid": "Location", "Effect": "Allow", "Action": ["s3:GetBucketLocation"], "Resource": arn},
                {
                    "Sid": "Objects",
                    "Effect": "Allow",
                    "Action": ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload"],
                    "Resource": f"{arn}/{PREFIX}/*",
                },
            ],
        }
    )


def build_history_identity(
    irsa: Irsa, spec: AwsResource, bucket_name: pulumi.Input[str], cloud: str
) -> HistoryIdentity:
    scope = irsa.scope
    role = aws.iam.Role(
        f"{spec.name}-history",
        assume_role_policy=pulumi.Output.all(irsa.oidc.arn, irsa.issuer).apply(
            lambda a: history_trust_policy(a[0], a[1])
        ),
        description=f"Ray History Server and collectors of cloud resource {spec.name} (cloud {cloud})",
        opts=scope.opts(),
    )
    policy = aws.iam.RolePolicy(
        f"{spec.name}-history-s3",
        role=role.id,
        policy=pulumi.Output.from_input(bucket_name).apply(history_bucket_policy),
        opts=scope.opts(),
    )
    return HistoryIdentity(
        {ROLE_ANNOTATION: role.arn},
        [role, policy],
        storage_variables={"S3_BUCKET": bucket_name, "S3_REGION": spec.bucket_region},
    )
