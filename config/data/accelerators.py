"""The operator chart's GPU mapping: which accelerator names it knows per provider, and
the node label it selects GPU nodes by (platform.md 9.2).

Source: anyscale-operator 1.8.0 values.yaml, `workloads.accelerator.nodeSelectors.<provider>`
(the chart pinned in versions.py). GPU pods of accelerator type X get the node selector
`<GPU_SELECTOR_KEY>: <value>`, so a GPU pool must carry exactly this value or it never
receives a GPU pod. The keys are the GPU types the spec accepts, spelled as the
chart spells them. Bump with the chart version.
"""

from typing import Final

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
