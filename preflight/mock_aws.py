"""Mock-cloud answers specific to aws resources (see preflight/outputs.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from preflight.planfile import placeholder


def _eks_cluster(name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    # `identities` is a list, which the SDK-derived shape leaves empty; the issuer is an
    # https URL (our code strips the scheme to build the IRSA condition keys).
    region = inputs.get("region", placeholder(name, "region"))
    oidc_id = placeholder(name, "identities[0].oidcs[0].id")
    return {
        "name": inputs.get("name", placeholder(name, "name")),
        "endpoint": placeholder(name, "endpoint"),  # https://<id>.gr7.<region>.eks.amazonaws.com
        "certificateAuthority": {"data": placeholder(name, "certificateAuthority.data")},  # base64 PEM
        "identities": [{"oidcs": [{"issuer": f"https://oidc.eks.{region}.amazonaws.com/id/{oidc_id}"}]}],
    }


def _availability_zones(args: dict[str, Any]) -> dict[str, Any]:
    # Enough zones for the largest `availabilityZones` the spec allows (4).
    zones = range(4)
    return {
        "id": placeholder("getAvailabilityZones", "id"),
        "names": [placeholder("getAvailabilityZones", f"names[{i}]") for i in zones],
        "zoneIds": [placeholder("getAvailabilityZones", f"zoneIds[{i}]") for i in zones],
        "groupNames": [],
    }


OVERRIDES: dict[str, Callable[[str, dict[str, Any]], dict[str, Any]]] = {
    "aws:eks/cluster:Cluster": _eks_cluster,
}


def _addon_version(args: dict[str, Any]) -> dict[str, Any]:
    # EKS's default version of the add-on for that minor, known only to the cloud.
    name = f"getAddonVersion[{args.get('addonName')}@{args.get('kubernetesVersion')}]"
    return {"id": placeholder(name, "id"), "version": placeholder(name, "version")}


INVOKES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "aws:eks/getAddonVersion:getAddonVersion": _addon_version,
    "aws:index/getAvailabilityZones:getAvailabilityZones": _availability_zones,
}
