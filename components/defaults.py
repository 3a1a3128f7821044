"""Defaults the spec fills in: pinned versions, node-pool shapes, platform constants.

Kept as data in one place so that a version bump is a one-line change that shows up
in review, and so that the spec, the components and the tests agree on the values.
"""

from typing import Final

from policy.rules import platform as rules

# --- Anyscale control plane on Azure (platform.md 1, 2, 4, 5) ---------------------
API_VERSION: Final = "2026-09-01"
CONSOLE_ORIGIN: Final = rules.CONSOLE_ORIGIN  # CORS origin and controlPlaneURL
# The platform's own service principal (app ID); the operator requests tokens for it.
PLATFORM_APP_ID: Final = "086bc555-6989-4362-ba30-fded273e432b"
OPERATOR_AUDIENCE: Final = f"api://{PLATFORM_APP_ID}/.default"
OPERATOR_NAMESPACE: Final = "anyscale-operator"
OPERATOR_SERVICE_ACCOUNT: Final = "anyscale-operator"
# The operator pod annotation (chart key operator.annotations) holding a hash of its secret
# settings on Generic: a new CLI token rolls the operator (components/generic.py).
OPERATOR_ROLL_ANNOTATION: Final = "anyscale-cloud/secrets-sha256"
WORKLOAD_IDENTITY_SUBJECT: Final = f"system:serviceaccount:{OPERATOR_NAMESPACE}:{OPERATOR_SERVICE_ACCOUNT}"
GATEWAY_NAME: Final = "gateway"
GATEWAY_CLASS: Final = "eg"
# Hostnames follow the control plane, not the cluster: the same for every resource.
GATEWAY_HOSTS: Final = {
    "https": "*.i.azure.anyscaleuserdata.com",
    "https-session": "*.s.azure.anyscaleuserdata.com",
}

# --- Pinned chart / extension versions (override per resource under `addons`) ------
ENVOY_GATEWAY_CHART: Final = "oci://docker.io/envoyproxy/gateway-helm"
ENVOY_GATEWAY_VERSION: Final = "v1.7.0"  # what the platform's docs pin
KUBERAY_REPO: Final = "https://ray-project.github.io/kuberay-helm/"
KUBERAY_VERSION: Final = "1.6.2"
ANYSCALE_REPO: Final = "https://anyscale.github.io/helm-charts"
ANYSCALE_OPERATOR_VERSION: Final = "1.8.0"
NVIDIA_DEVICE_PLUGIN_REPO: Final = "https://nvidia.github.io/k8s-device-plugin"
NVIDIA_DEVICE_PLUGIN_VERSION: Final = "0.17.1"
# EKS only. The chart for the default Kubernetes minor (KUBERNETES_VERSION): chart 9.47.0
# ships Cluster Autoscaler 1.33.0. Renovate bumps this line; the table below holds it.
CLUSTER_AUTOSCALER_REPO: Final = "https://kubernetes.github.io/autoscaler"
CLUSTER_AUTOSCALER_VERSION: Final = "9.47.0"
# The autoscaler's minor must match the cluster's (its README: versioning "match[es]
# Kubernetes minor releases exactly"; use it with the control plane version "for which
# it was meant"), so each EKS minor gets its own chart and image:
# the newest chart whose appVersion has that minor (but 1.33: the Renovate-managed pin
# above, the chart tests/test_charts.py renders offline), and the newest patch image of
# that minor, set as `image.tag` (the chart's default is its appVersion's patch). Sources:
# kubernetes/autoscaler tags `cluster-autoscaler-chart-<v>` (Chart.yaml appVersion) and
# `cluster-autoscaler-<minor>.<patch>` (the release that publishes
# registry.k8s.io/autoscaling/cluster-autoscaler:v<minor>.<patch>), read 2026-11-30.
# 1.31 and older are past EKS extended support; 1.36 has images but no chart release yet.
CLUSTER_AUTOSCALER_RELEASES: Final[dict[str, tuple[str, str]]] = {
    # minor: (chart version, image tag)
    "1.32": ("9.46.6", "v1.32.7"),  # chart appVersion 1.32.0
    "1.33": (CLUSTER_AUTOSCALER_VERSION, "v1.33.6"),  # chart appVersion 1.33.0
    "1.34": ("9.53.0", "v1.34.5"),  # chart appVersion 1.34.2
    "1.35": ("9.59.0", "v1.35.2"),  # chart appVersion 1.35.0
}

# --- Kubernetes versions ------------------------------------------------------------
KUBERNETES_VERSION: Final = "1.33"

# --- Node pools (platform.md 7) ------------------------------------------------------
# The operator chart's own GPU mapping (anyscale-operator 1.8.0 values.yaml,
# `workloads.accelerator.nodeSelectors.<provider>`): GPU pods of accelerator type X get
# the node selector `<GPU_SELECTOR_KEY>: <value>`, so a GPU pool must carry exactly this
# value or it never receives a GPU pod (platform.md 9.2). The keys are the GPU types the
# spec accepts, spelled as the chart spells them. Bump with the chart version.
GPU_NODE_SELECTORS: Final[dict[str, dict[str, str]]] = {
    "Azure": {"T4": "NVIDIA-T4", "A10": "NVIDIA-A10", "A100": "NVIDIA-A100", "H100": "NVIDIA-H100"},
    "AWS": {
        "V100": "Tesla-V100-SXM2-16GB",
        "T4": "Tesla-T4",
        "L4": "NVIDIA-L4",
        "A10G": "NVIDIA-A10G",
        "L40S": "NVIDIA-L40S",
        "A100-40G": "NVIDIA-A100-SXM4-40GB",
        "A100-80G": "NVIDIA-A100-SXM4-80GB",
        "H100": "NVIDIA-H100-80GB-HBM3",
    },
    "GCP": {
        "T4": "nvidia-tesla-t4",
        "L4": "nvidia-l4",
        "A100-40G": "nvidia-tesla-a100",
        "A100-80G": "nvidia-a100-80gb",
        "H100": "nvidia-h100-80gb",
        "H100-MEGA": "nvidia-h100-mega-80gb",
        "RTX-PRO-6000": "nvidia-rtx-pro-6000",
    },
}
# The node label the chart selects GPU nodes by. We set it on AKS and EKS pools; GKE
# sets its own from the pool's accelerator type (which is therefore the chart's value).
GPU_SELECTOR_KEY: Final[dict[str, str]] = {
    "Azure": "nvidia.com/gpu.product",
    "AWS": "nvidia.com/gpu.product",
    "GCP": "cloud.google.com/gke-accelerator",
}
GPU_TYPES: Final[dict[str, tuple[str, ...]]] = {p: tuple(m) for p, m in GPU_NODE_SELECTORS.items()}

# Root disk of worker nodes (GiB): Ray images are several GB, plus /tmp/ray and object
# spilling. The reference modules use 500 GiB gp3 on EKS and 500 GB pd-ssd on GKE
# (platform.md 9.2); EKS would otherwise give 20 GiB, GKE 100 GB pd-balanced. On EKS the
# size goes to the node group's `disk_size` (the volume type is the EKS AMI's root
# volume, gp3 on AL2023; a launch template would pin it, not done yet). AKS keeps
# its own default (128 GB managed, or ephemeral where the VM's cache fits) unless set.
DISK_SIZE_GB: Final[dict[str, int | None]] = {"Azure": None, "AWS": 500, "GCP": 500}
GKE_DISK_TYPE: Final = "pd-ssd"

# Per provider: system pool instance type and the default CPU instance type.
SYSTEM_INSTANCE_TYPE: Final[dict[str, str]] = {
    "Azure": "Standard_D4s_v5",
    "AWS": "m6i.xlarge",
    "GCP": "e2-standard-4",
}
CPU_INSTANCE_TYPE: Final[dict[str, str]] = {
    "Azure": "Standard_D16s_v5",
    "AWS": "m6i.4xlarge",
    "GCP": "n2-standard-16",
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
