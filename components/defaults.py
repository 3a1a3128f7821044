"""The platform's fixed values the components set: the control plane, the operator's
identity and gateway, the console's CORS rule, role IDs and the AKS extension.

What the spec defaults from (pinned versions, regions, instance types) is data in
config/data/; these are constants of the platform (platform.md 1-5), kept in one place so
that the components and the tests agree on them.
"""

from typing import Final

from policy.rules import platform as rules

# --- Anyscale control plane on Azure (platform.md 1, 2, 4, 5) ---------------------
CONSOLE_ORIGIN: Final = rules.CONSOLE_ORIGIN  # CORS origin and controlPlaneURL
# The platform's own service principal (app ID); the operator requests tokens for it.
PLATFORM_APP_ID: Final = "086bc555-6989-4362-ba30-fded273e432b"
OPERATOR_AUDIENCE: Final = f"api://{PLATFORM_APP_ID}/.default"
OPERATOR_NAMESPACE: Final = "anyscale-operator"
OPERATOR_SERVICE_ACCOUNT: Final = "anyscale-operator"
WORKLOAD_IDENTITY_SUBJECT: Final = f"system:serviceaccount:{OPERATOR_NAMESPACE}:{OPERATOR_SERVICE_ACCOUNT}"
# Ray pods' own service account (no RoleBinding: none of the operator's Kubernetes rights),
# federated to a cloud identity with the bucket only (components/workloads.py).
WORKLOAD_SERVICE_ACCOUNT: Final = rules.WORKLOAD_SERVICE_ACCOUNT
WORKLOAD_SUBJECT: Final = rules.WORKLOAD_SUBJECT
GATEWAY_NAME: Final = "gateway"
GATEWAY_CLASS: Final = "eg"
# Hostnames follow the control plane, not the cluster: the same for every resource.
GATEWAY_HOSTS: Final = {
    "https": "*.i.azure.anyscaleuserdata.com",
    "https-session": "*.s.azure.anyscaleuserdata.com",
}

# --- The console's CORS rule on every bucket (platform.md 2) ---------------------------
CORS_METHODS: Final = rules.CORS_METHODS
CORS_ALLOWED_HEADERS: Final = ["*"]
# S3 and GCS take explicit exposed headers; Azure Blob accepts "*".
CORS_EXPOSED_HEADERS: Final = rules.CORS_EXPOSED_HEADERS
CORS_MAX_AGE_SECONDS: Final = 3600

# --- Azure built-in role definition IDs (same GUID in every tenant) -------------------
# One table of role GUIDs, in the policy pack (it is uploaded alone, so it owns it).
_ROLE_ID = {name: guid for guid, name in rules.AZURE_ROLES.items()}
ROLE_STORAGE_BLOB_DATA_CONTRIBUTOR: Final = _ROLE_ID["Storage Blob Data Contributor"]
ROLE_ACR_PULL: Final = _ROLE_ID["AcrPull"]
ROLE_ACR_PUSH: Final = _ROLE_ID["AcrPush"]
ROLE_ACR_TASKS_CONTRIBUTOR: Final = _ROLE_ID["Container Registry Tasks Contributor"]

# --- The AKS cluster extension that carries the operator (platform.md 4) ---------------
AKS_EXTENSION_TYPE: Final = "Anyscale.AKS.Operator"
AKS_EXTENSION_TRAIN: Final = "stable"
AKS_EXTENSION_PLAN: Final = {
    "name": "anyscale-operator",
    "publisher": "anyscale1750870039553",
    "product": "anyscale-operator-aks",
}
FEDERATED_AUDIENCE: Final = "api://AzureADTokenExchange"
