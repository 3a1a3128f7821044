"""vCPUs, memory (GiB) and GPUs of the instance types we know, to size the Kueue queue.

Pure data (the spec imports it). The defaults of components/defaults.py, the reference
shapes of platform.md 7, and the common GPU shapes of each provider, from the providers'
instance-type pages. A pool of a type not listed here needs `addons.kuberay.queueQuota`
when `batchScheduler` is `kueue`: we never guess a shape.
"""
from __future__ import annotations

from typing import Final, NamedTuple


class Shape(NamedTuple):
    cpu: int  # vCPUs
    memory_gi: int  # GiB, as sold (the allocatable share is smaller)


SHAPES: Final[dict[str, Shape]] = {
    # Azure (platform.md 7)
    "Standard_D2s_v5": Shape(2, 8),
    "Standard_D4s_v5": Shape(4, 16),
    "Standard_D8s_v5": Shape(8, 32),
    "Standard_D16s_v5": Shape(16, 64),
    "Standard_D32s_v5": Shape(32, 128),
    "Standard_NC16as_T4_v3": Shape(16, 110),
    "Standard_NV36ads_A10_v5": Shape(36, 440),
    "Standard_NC24ads_A100_v4": Shape(24, 220),
    "Standard_ND96isr_H100_v5": Shape(96, 1900),
    # AWS
    "m6i.xlarge": Shape(4, 16),
    "m6i.2xlarge": Shape(8, 32),
    "m6i.4xlarge": Shape(16, 64),
    "m6i.8xlarge": Shape(32, 128),
    "g4dn.xlarge": Shape(4, 16),
    "g4dn.12xlarge": Shape(48, 192),
    "g5.xlarge": Shape(4, 16),
    "g5.12xlarge": Shape(48, 192),
    "g6.xlarge": Shape(4, 16),
    "p4d.24xlarge": Shape(96, 1152),
    "p5.48xlarge": Shape(192, 2048),
    # GCP
    "e2-standard-4": Shape(4, 16),
    "n2-standard-8": Shape(8, 32),
    "n2-standard-16": Shape(16, 64),
    "n2-standard-32": Shape(32, 128),
    "n1-standard-16": Shape(16, 60),
    "g2-standard-8": Shape(8, 32),
    "a2-highgpu-1g": Shape(12, 85),
    "a3-highgpu-8g": Shape(208, 1872),
}
