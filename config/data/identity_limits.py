"""Limits of the clouds' workload identities that bind once Ray pods run in more namespaces
than the operator's (addons.anyscaleOperator.values.workloads.managedNamespaces), with their
sources. Read 2026-12-02.

- Azure: "A maximum of 20 federated identity credentials can be added to an application or
  user-assigned managed identity": "Important considerations and restrictions for federated
  identity credentials" (learn.microsoft.com/entra/workload-id/
  workload-identity-federation-considerations, General federated identity credential
  considerations).
- AWS: "Role trust policy length: 2,048 characters", adjustable through Service Quotas up to
  4,096; "IAM doesn't count white space when calculating the size of a policy against these
  limits": "IAM and AWS STS quotas" (docs.aws.amazon.com/IAM/latest/UserGuide/
  reference_iam-quotas.html, IAM and AWS STS character limits). The 4,096 ceiling is as the
  brief for issue #40 states it and that page is remembered to say; not re-read here.
- EKS's OIDC issuer, which the trust policy names twice (the provider's ARN and the
  condition keys): `https://oidc.eks.<region>.amazonaws.com/id/<32 hexadecimal characters>`,
  e.g. `https://oidc.eks.region-code.amazonaws.com/id/EXAMPLED539D4633E53DE1B71EXAMPLE`
  ("Create an IAM OIDC provider for your cluster",
  docs.aws.amazon.com/eks/latest/userguide/enable-iam-roles-for-service-accounts.html). An
  account ID is 12 digits. Every region this program knows is in the `aws` partition
  (config/data/regions.py).
"""

from __future__ import annotations

from typing import Final

AZURE_MAX_FEDERATED_CREDENTIALS: Final = 20
IAM_TRUST_POLICY_DEFAULT_LENGTH: Final = 2_048
IAM_TRUST_POLICY_MAX_LENGTH: Final = 4_096
EKS_ISSUER_ID_LENGTH: Final = 32
AWS_ACCOUNT_ID_LENGTH: Final = 12
