"""Known node instance types per provider: vCPUs, memory and the GPUs they carry.

The spec uses this table to check that a pool's `gpu` matches what its instance type
actually carries (an A100 40GB label on an 80GB machine never receives a GPU pod), and
the operator's instance types (`components/operator_shapes.py`) are sized from it. An
instance type not listed here is rejected unless the pool gives its `shape`.

Memory is in GiB as the providers list it (GCP's "GB" are GiB). Only whole-GPU shapes
are listed (Azure's fractional NVadsA10 sizes are not). GPU types are the operator
chart's accelerator names (`workloads.accelerator.nodeSelectors.<provider>`, 1.8.0).

Sources, gathered 2026-11-30:

* Azure: "Sizes for virtual machines in Azure"
  (https://learn.microsoft.com/azure/virtual-machines/sizes/overview): Dsv5, Esv5,
  NCasT4_v3, NVadsA10_v5, NC_A100_v4, NDasrA100_v4, NDm_A100_v4, ND_H100_v5, NC_H100_v5.
* AWS: "Amazon EC2 instance types" (https://aws.amazon.com/ec2/instance-types/ and
  https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html): m6i, g4dn, g5, g6,
  g6e, p3, p4d, p4de, p5.
* GCP: "Machine families resource and comparison guide" and "GPU machine types"
  (https://cloud.google.com/compute/docs/machine-resource,
  https://cloud.google.com/compute/docs/gpus): e2, n2, n1 (+ attached T4), g2, a2
  (highgpu, megagpu, ultragpu), a3 (highgpu, megagpu).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final


@dataclass(frozen=True)
class Machine:
    vcpu: int
    memory_gib: float
    gpus: int = 0
    gpu_type: str | None = None
    # GPUs attached to the machine at create time (GCP N1): type -> allowed counts.
    attachable: dict[str, tuple[int, ...]] = field(default_factory=dict)


def _family(gpu_type: str | None, sizes: dict[str, tuple[int, float, int]]) -> dict[str, Machine]:
    return {name: Machine(cpu, mem, gpus, gpu_type if gpus else None) for name, (cpu, mem, gpus) in sizes.items()}


# cloud.google.com/compute/docs/gpus#t4-gpus: 1 or 2 T4s on N1 machines of at most 48
# vCPUs, 4 T4s on up to 96.
_N1_T4: dict[str, tuple[int, ...]] = {"T4": (1, 2, 4)}
_N1_T4_LARGE: dict[str, tuple[int, ...]] = {"T4": (4,)}

INSTANCE_TYPES: Final[dict[str, dict[str, Machine]]] = {
    "Azure": {
        **_family(None, {f"Standard_D{n}s_v5": (n, 4 * n, 0) for n in (2, 4, 8, 16, 32, 48, 64, 96)}),
        **_family(None, {f"Standard_E{n}s_v5": (n, 8 * n, 0) for n in (2, 4, 8, 16, 32, 48, 64)}),
        **_family(
            "T4",
            {
                "Standard_NC4as_T4_v3": (4, 28, 1),
                "Standard_NC8as_T4_v3": (8, 56, 1),
                "Standard_NC16as_T4_v3": (16, 110, 1),
                "Standard_NC64as_T4_v3": (64, 440, 4),
            },
        ),
        **_family("A10", {"Standard_NV36ads_A10_v5": (36, 440, 1), "Standard_NV72ads_A10_v5": (72, 880, 2)}),
        # The chart names one A100 on Azure, whether 40GB or 80GB.
        **_family(
            "A100",
            {
                "Standard_NC24ads_A100_v4": (24, 220, 1),
                "Standard_NC48ads_A100_v4": (48, 440, 2),
                "Standard_NC96ads_A100_v4": (96, 880, 4),
                "Standard_ND96asr_v4": (96, 900, 8),
                "Standard_ND96amsr_A100_v4": (96, 1900, 8),
            },
        ),
        **_family(
            "H100",
            {
                "Standard_NC40ads_H100_v5": (40, 320, 1),
                "Standard_NC80adis_H100_v5": (80, 640, 2),
                "Standard_ND96isr_H100_v5": (96, 1900, 8),
            },
        ),
    },
    "AWS": {
        **_family(
            None,
            {
                f"m6i.{s}": (n, 4 * n, 0)
                for s, n in (
                    ("large", 2),
                    ("xlarge", 4),
                    ("2xlarge", 8),
                    ("4xlarge", 16),
                    ("8xlarge", 32),
                    ("12xlarge", 48),
                    ("16xlarge", 64),
                    ("24xlarge", 96),
                )
            },
        ),
        **_family(
            "T4",
            {
                "g4dn.xlarge": (4, 16, 1),
                "g4dn.2xlarge": (8, 32, 1),
                "g4dn.4xlarge": (16, 64, 1),
                "g4dn.8xlarge": (32, 128, 1),
                "g4dn.12xlarge": (48, 192, 4),
                "g4dn.16xlarge": (64, 256, 1),
                "g4dn.metal": (96, 384, 8),
            },
        ),
        **_family(
            "A10G",
            {
                "g5.xlarge": (4, 16, 1),
                "g5.2xlarge": (8, 32, 1),
                "g5.4xlarge": (16, 64, 1),
                "g5.8xlarge": (32, 128, 1),
                "g5.12xlarge": (48, 192, 4),
                "g5.16xlarge": (64, 256, 1),
                "g5.24xlarge": (96, 384, 4),
                "g5.48xlarge": (192, 768, 8),
            },
        ),
        **_family(
            "L4",
            {
                "g6.xlarge": (4, 16, 1),
                "g6.2xlarge": (8, 32, 1),
                "g6.4xlarge": (16, 64, 1),
                "g6.8xlarge": (32, 128, 1),
                "g6.12xlarge": (48, 192, 4),
                "g6.16xlarge": (64, 256, 1),
                "g6.24xlarge": (96, 384, 4),
                "g6.48xlarge": (192, 768, 8),
            },
        ),
        **_family(
            "L40S",
            {
                "g6e.xlarge": (4, 32, 1),
                "g6e.2xlarge": (8, 64, 1),
                "g6e.4xlarge": (16, 128, 1),
                "g6e.8xlarge": (32, 256, 1),
                "g6e.12xlarge": (48, 384, 4),
                "g6e.16xlarge": (64, 512, 1),
                "g6e.24xlarge": (96, 768, 4),
                "g6e.48xlarge": (192, 1536, 8),
            },
        ),
        **_family("V100", {"p3.2xlarge": (8, 61, 1), "p3.8xlarge": (32, 244, 4), "p3.16xlarge": (64, 488, 8)}),
        **_family("A100-40G", {"p4d.24xlarge": (96, 1152, 8)}),
        **_family("A100-80G", {"p4de.24xlarge": (96, 1152, 8)}),
        **_family("H100", {"p5.48xlarge": (192, 2048, 8)}),
    },
    "GCP": {
        **_family(None, {f"e2-standard-{n}": (n, 4 * n, 0) for n in (2, 4, 8, 16, 32)}),
        **_family(None, {f"n2-standard-{n}": (n, 4 * n, 0) for n in (2, 4, 8, 16, 32, 48, 64, 80, 96, 128)}),
        # N1 takes T4s attached at create time (1, 2 or 4 per node; above 48 vCPUs only 4).
        **{
            f"n1-standard-{n}": Machine(n, 3.75 * n, attachable=_N1_T4 if n <= 48 else _N1_T4_LARGE)
            for n in (4, 8, 16, 32, 64, 96)
        },
        **_family(
            "L4",
            {
                "g2-standard-4": (4, 16, 1),
                "g2-standard-8": (8, 32, 1),
                "g2-standard-12": (12, 48, 1),
                "g2-standard-16": (16, 64, 1),
                "g2-standard-24": (24, 96, 2),
                "g2-standard-32": (32, 128, 1),
                "g2-standard-48": (48, 192, 4),
                "g2-standard-96": (96, 384, 8),
            },
        ),
        **_family(
            "A100-40G",
            {
                "a2-highgpu-1g": (12, 85, 1),
                "a2-highgpu-2g": (24, 170, 2),
                "a2-highgpu-4g": (48, 340, 4),
                "a2-highgpu-8g": (96, 680, 8),
                "a2-megagpu-16g": (96, 1360, 16),
            },
        ),
        **_family(
            "A100-80G",
            {
                "a2-ultragpu-1g": (12, 170, 1),
                "a2-ultragpu-2g": (24, 340, 2),
                "a2-ultragpu-4g": (48, 680, 4),
                "a2-ultragpu-8g": (96, 1360, 8),
            },
        ),
        **_family(
            "H100",
            {
                "a3-highgpu-1g": (26, 234, 1),
                "a3-highgpu-2g": (52, 468, 2),
                "a3-highgpu-4g": (104, 936, 4),
                "a3-highgpu-8g": (208, 1872, 8),
            },
        ),
        **_family("H100-MEGA", {"a3-megagpu-8g": (208, 1872, 8)}),
    },
}


def machine(provider: str, instance_type: str) -> Machine | None:
    return INSTANCE_TYPES.get(provider, {}).get(instance_type)
