"""Adopting what exists (`adopt`): the Azure resource IDs of an existing cloud's records,
clusters, storage and identities, which the program imports (Pulumi's `import` resource
option) instead of creating them.

An import succeeds only when the program's inputs match what Azure holds, and a
registration's properties never change (platform.md 1.1, 1.2): a differing import fails,
or, once imported, plans a delete-and-create. So every fact an ID tells offline is
checked here: its shape, that it names the type its key adopts, its subscription and
resource group, the cloud and resource names in a registration's ID, the cluster an
extension sits on; and, when the stack copies the existing registration's properties
(`registrationProperties`), every immutable property the stack decides offline. What an
ID cannot tell (a location, a principal ID) only `pulumi preview` answers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pydantic import Field, field_validator, model_validator

from config.types import Strict, fail
from policy.rules.platform import REGISTRATION_PROPERTIES, REGISTRATION_READ_ONLY

GUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
# ARM's resource group rule (1-90 of letters, digits, `-_.()`, not ending in `.`).
_ID_RE = re.compile(
    rf"/subscriptions/(?P<sub>{GUID})/resourceGroups/(?P<rg>[-\w._()]{{0,89}}[-\w_()])(?:/providers/(?P<rest>.+))?",
    re.IGNORECASE,
)
_NAMESPACE_RE = re.compile(r"[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)+")
_SEGMENT_RE = re.compile(r"[^/\s]+")


@dataclass(frozen=True)
class ArmId:
    """A parsed Azure resource ID: its subscription, resource group and each scope's
    namespace with its (type, name) pairs; an extension resource has two scopes."""

    text: str
    subscription: str
    resource_group: str
    scopes: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]

    @property
    def kind(self) -> str:
        """`Namespace/type[/child type]` of each scope, joined by `/providers/`; "" for a group."""
        return "/providers/".join(ns + "".join(f"/{t}" for t, _ in pairs) for ns, pairs in self.scopes)

    @property
    def name(self) -> str:
        return self.scopes[-1][1][-1][1] if self.scopes else self.resource_group

    def names(self) -> list[str]:
        """Every name along the ID (a registration: its cloud, then itself)."""
        return [n for _, pairs in self.scopes for _, n in pairs]


def parse_arm_id(text: str) -> ArmId | None:
    """The ID, or None when `text` is not `/subscriptions/<guid>/resourceGroups/<group>[/providers/...]`."""
    match = _ID_RE.fullmatch(text)
    if not match:
        return None
    scopes: list[tuple[str, tuple[tuple[str, str], ...]]] = []
    for scope in (match["rest"] or "").split("/providers/") if match["rest"] else []:
        namespace, _, path = scope.partition("/")
        parts = path.split("/")
        if not _NAMESPACE_RE.fullmatch(namespace) or len(parts) % 2 or not all(map(_SEGMENT_RE.fullmatch, parts)):
            return None
        scopes.append((namespace, tuple((parts[i], parts[i + 1]) for i in range(0, len(parts), 2))))
    return ArmId(text, match["sub"].lower(), match["rg"], tuple(scopes))


# What each key adopts: the ARM type its ID must name (compared ignoring case, as ARM
# does), what a reader calls it, and where to copy the ID from.
@dataclass(frozen=True)
class Adoptable:
    kind: str
    what: str
    where: str


ADOPTABLE: dict[str, Adoptable] = {
    "resourceGroup": Adoptable("", "a resource group", "az group show -n <group> --query id"),
    "registry": Adoptable(
        "Microsoft.ContainerRegistry/registries", "a container registry", "az acr show -n <name> --query id"
    ),
    "cloud": Adoptable("Anyscale.Platform/clouds", "an Anyscale cloud record", "the cloud's JSON view in the portal"),
    "registration": Adoptable(
        "Anyscale.Platform/clouds/cloudResources",
        "a cloud-resource registration",
        "az resource list -g <group> --resource-type Anyscale.Platform/clouds/cloudResources --query [].id",
    ),
    "cluster": Adoptable(
        "Microsoft.ContainerService/managedClusters", "an AKS cluster", "az aks show -g <group> -n <name> --query id"
    ),
    "storageAccount": Adoptable(
        "Microsoft.Storage/storageAccounts", "a storage account", "az storage account show -n <name> --query id"
    ),
    "container": Adoptable(
        "Microsoft.Storage/storageAccounts/blobServices/containers",
        "a blob container",
        "az storage container-rm show --storage-account <account> -n <name> --query id",
    ),
    "identity": Adoptable(
        "Microsoft.ManagedIdentity/userAssignedIdentities",
        "a user-assigned managed identity",
        "az identity show -g <group> -n <name> --query id",
    ),
    "operatorExtension": Adoptable(
        "Microsoft.ContainerService/managedClusters/providers/Microsoft.KubernetesConfiguration/extensions",
        "an AKS cluster extension (the Anyscale operator)",
        "az k8s-extension show -g <group> -c <cluster> -t managedClusters -n <name> --query id",
    ),
}


def check_id(key: str, value: str) -> str:
    """`value` if it is an ARM ID of the type `key` adopts; a PydanticCustomError otherwise."""
    adoptable = ADOPTABLE[key]
    parsed = parse_arm_id(value)
    shape = "/subscriptions/<subscription GUID>/resourceGroups/<group>" + "".join(
        "/providers/" + "/".join(f"{t}/<name>" if i else t for i, t in enumerate(scope.split("/")))
        for scope in adoptable.kind.split("/providers/")
        if scope
    )
    if parsed is None:
        raise fail(
            "adopt",
            "'{v}' is not an Azure resource ID ({s}); copy it with `{w}`",
            v=value,
            s=shape,
            w=adoptable.where,
        )
    if parsed.kind.lower() != adoptable.kind.lower():
        got = f"a {parsed.kind} ID" if parsed.kind else "a resource group's ID"
        raise fail(
            "adopt",
            "'{v}' is {g}, not the ID of {a} ({k}); copy it with `{w}`",
            v=value,
            g=got,
            a=adoptable.what,
            k=adoptable.kind or "resourceGroups",
            w=adoptable.where,
        )
    if key == "container" and parsed.scopes[0][1][1][1] != "default":
        raise fail("adopt", "'{v}': a blob container's service is always `blobServices/default`", v=value)
    return value


class _Ids(Strict):
    @field_validator("*", mode="after")
    @classmethod
    def _ids(cls, value: Any, info: Any) -> Any:
        alias = cls.model_fields[info.field_name].alias or info.field_name
        return check_id(alias, value) if isinstance(value, str) and alias in ADOPTABLE else value


class CloudAdoptSpec(_Ids):
    """The existing cloud's own records, by Azure resource ID."""

    resource_group: str | None = Field(
        None, description="the existing `cloud.resourceGroup`, e.g. `/subscriptions/<s>/resourceGroups/<group>`"
    )
    registry: str | None = Field(
        None,
        description="the existing container registry of the cloud's `acrResourceId` "
        "(`.../providers/Microsoft.ContainerRegistry/registries/<name>`); the program keeps its name",
    )
    cloud: str | None = Field(
        None,
        description="the existing `Anyscale.Platform/clouds` record (`.../providers/Anyscale.Platform/clouds/<name>`); "
        "its name must be `cloud.name`",
    )


# The registration's properties (platform.md 1.1) as `az resource show --query properties`
# prints them; read-only ones are accepted and not compared (the pack's list, platform.py).
READ_ONLY_PROPERTIES = REGISTRATION_READ_ONLY


class ResourceAdoptSpec(_Ids):
    """An existing cloud resource's registration and (AKS) the resources behind it, by Azure
    resource ID; the program imports each instead of creating it and takes its name from the ID."""

    registration: str | None = Field(
        None,
        description="the existing `Anyscale.Platform/clouds/cloudResources` record "
        "(`.../providers/Anyscale.Platform/clouds/<cloud>/cloudResources/<name>`); its cloud must be `cloud.name` "
        "and its name this resource's `name`",
    )
    registration_properties: dict[str, str] | None = Field(
        None,
        description="the existing registration's `properties`, copied from `az resource show --ids <registration> "
        "--query properties`: `preflight validate` then compares every property the stack decides offline "
        "(the platform never changes them: a difference fails the import or replaces the registration)",
    )
    cluster: str | None = Field(None, description="Azure only: the existing AKS cluster")
    storage_account: str | None = Field(
        None, description="Azure only: the existing storage account (ADLS Gen2) of the resource's bucket"
    )
    container: str | None = Field(
        None,
        description="Azure only, with `storageAccount`: the existing blob container of the bucket "
        "(`.../storageAccounts/<account>/blobServices/default/containers/<name>`); unset: the program's `anyscale`",
    )
    identity: str | None = Field(None, description="Azure only: the operator's existing user-assigned identity")
    operator_extension: str | None = Field(
        None,
        description="Azure only, with `cluster`: the Anyscale operator's existing AKS cluster extension "
        "(`.../managedClusters/<cluster>/providers/Microsoft.KubernetesConfiguration/extensions/<name>`)",
    )

    @field_validator("registration_properties")
    @classmethod
    def _known_properties(cls, value: dict[str, str] | None) -> dict[str, str] | None:
        for key in value or {}:
            if key not in REGISTRATION_PROPERTIES + READ_ONLY_PROPERTIES:
                raise fail(
                    "adopt",
                    "'{k}' is not a property of Anyscale.Platform/clouds/cloudResources; they are {p}",
                    k=key,
                    p=", ".join(REGISTRATION_PROPERTIES),
                )
        return value

    @model_validator(mode="after")
    def _depends(self) -> ResourceAdoptSpec:
        if self.registration_properties is not None and self.registration is None:
            raise fail("adopt", "registrationProperties describe an adopted registration: set `registration` too")
        if self.container is not None and self.storage_account is None:
            raise fail("adopt", "a container is adopted with its storage account: set `storageAccount` too")
        if self.operator_extension is not None and self.cluster is None:
            raise fail("adopt", "an extension lives on its cluster: adopt the cluster (`cluster`) too")
        return self

    def ids(self) -> dict[str, str]:
        """Each adopted ID by its key (camelCase, as in the stack file)."""
        return {
            key: value
            for key, value in (
                ("registration", self.registration),
                ("cluster", self.cluster),
                ("storageAccount", self.storage_account),
                ("container", self.container),
                ("identity", self.identity),
                ("operatorExtension", self.operator_extension),
            )
            if value is not None
        }

    def name_of(self, key: str) -> str | None:
        """The name the ID gives the adopted resource (the program uses it), or None."""
        value = self.ids().get(key)
        parsed = parse_arm_id(value) if value else None
        return parsed.name if parsed else None


AZURE_ONLY = ("cluster", "storageAccount", "container", "identity", "operatorExtension")
