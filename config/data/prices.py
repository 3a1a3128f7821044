"""List prices per provider and region, with their sources and date: the table itself is
`policy/rules/prices.py` (the policy pack's budget policy prices plans too, and the pack
ships its own folder alone), read here by everything outside the pack."""

from policy.rules.prices import (
    AKS_CONTROL_PLANE_HOURLY,
    CURRENCY,
    EKS_CONTROL_PLANE_HOURLY,
    GKE_CONTROL_PLANE_HOURLY,
    INSTANCE_HOURLY,
    LOAD_BALANCER_HOURLY,
    NAT_GATEWAY_HOURLY,
    NOT_BILLED,
    NOT_PRICED,
    PRICES_AS_OF,
    PUBLIC_IPV4_HOURLY,
    REGISTRY_DAILY,
    REGISTRY_HOURLY,
    SPOT_DISCOUNT,
    instance_price,
)

__all__ = [
    "AKS_CONTROL_PLANE_HOURLY",
    "CURRENCY",
    "EKS_CONTROL_PLANE_HOURLY",
    "GKE_CONTROL_PLANE_HOURLY",
    "INSTANCE_HOURLY",
    "LOAD_BALANCER_HOURLY",
    "NAT_GATEWAY_HOURLY",
    "NOT_BILLED",
    "NOT_PRICED",
    "PRICES_AS_OF",
    "PUBLIC_IPV4_HOURLY",
    "REGISTRY_DAILY",
    "REGISTRY_HOURLY",
    "SPOT_DISCOUNT",
    "instance_price",
]
