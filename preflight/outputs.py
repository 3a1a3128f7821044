"""What the mock cloud answers: `${<logical name>.<property>}` for every value only the
cloud knows, with the property names taken from the provider SDK classes.

A mock stands in for the cloud, never for our own logic: it returns placeholders (and,
for the few values our code transforms, the shape the real cloud returns), so the plan
shows which output feeds which input.
"""

from __future__ import annotations

import base64
import functools
import importlib
import typing
from collections.abc import Callable
from typing import Any

from components import sdk_internals
from preflight import mock_aws, mock_gcp
from preflight.planfile import placeholder

MAX_DEPTH = 3


@functools.cache
def sdk_class(type_token: str) -> type | None:
    """`azure-native:containerservice:ManagedCluster` -> pulumi_azure_native.containerservice.ManagedCluster."""
    try:
        package, module, name = type_token.split(":")
    except ValueError:
        return None
    module = module.split("/")[0] if package != "kubernetes" else module
    path = f"pulumi_{package.replace('-', '_')}"
    if module not in ("index", ""):
        path += "." + module.replace("/", ".").replace(".k8s.io", "").replace("helm.sh", "helm")
    try:
        return getattr(importlib.import_module(path), name, None)
    except ImportError:
        return None


@functools.cache
def _getters(cls: type) -> dict[str, tuple[str, Any]]:
    """{python name: (engine name, annotation)} for the output properties of an SDK class."""
    out: dict[str, tuple[str, Any]] = {}
    for attr, member in vars(cls).items():
        fget = getattr(member, "fget", None)
        engine_name = sdk_internals.engine_name(fget)
        if engine_name is None:
            continue
        try:
            hint = typing.get_type_hints(fget).get("return")
        except Exception:  # unresolvable forward reference: treat as a scalar
            hint = None
        out[attr] = (engine_name, hint)
    return out


def _shape(hint: Any, name: str, path: str, depth: int) -> Any:
    """A placeholder value of the annotated shape: nested output types become dicts."""
    origin = typing.get_origin(hint)
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    if origin in (typing.Union,) or str(origin) == "typing.Union":
        return _shape(args[0], name, path, depth) if args else placeholder(name, path)
    if origin is not None and getattr(origin, "__name__", "") == "Output":
        return _shape(args[0], name, path, depth) if args else placeholder(name, path)
    if isinstance(hint, type) and depth < MAX_DEPTH and _getters(hint):
        return {engine: _shape(h, name, f"{path}.{engine}", depth + 1) for engine, h in _getters(hint).values()}
    if origin is list or getattr(origin, "__name__", "") in ("Sequence", "list"):
        return []
    if origin is dict or getattr(origin, "__name__", "") in ("Mapping", "dict"):
        return {}
    return placeholder(name, path)


def sdk_outputs(type_token: str, name: str) -> dict[str, Any]:
    cls = sdk_class(type_token)
    if cls is None:
        return {}
    return {engine: _shape(hint, name, engine, 0) for engine, hint in _getters(cls).values()}


# Values whose real shape our code depends on (it transforms them), per type.
def _storage_account(name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    account = inputs.get("accountName", placeholder(name, "name"))
    return {
        "name": account,
        "primaryEndpoints": {
            "blob": f"https://{account}.blob.core.windows.net/",  # the real one ends with "/"
            "dfs": f"https://{account}.dfs.core.windows.net/",
        },
    }


def _managed_cluster(name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    # identityProfile is a map keyed by identity kind; the SDK types cannot tell the key.
    return {
        "name": inputs.get("resourceName", placeholder(name, "name")),
        "identityProfile": {
            "kubeletidentity": {
                "clientId": placeholder(name, "identityProfile.kubeletidentity.clientId"),
                "objectId": placeholder(name, "identityProfile.kubeletidentity.objectId"),
                "resourceId": placeholder(name, "identityProfile.kubeletidentity.resourceId"),
            }
        },
    }


def _generic_resource(name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    properties = dict(inputs.get("properties") or {})
    if inputs.get("resourceType") == "cloudResources":
        properties["cloudResourceId"] = placeholder(name, "properties.cloudResourceId")
    if inputs.get("resourceType") == "clouds":
        properties["ssoUrl"] = placeholder(name, "properties.ssoUrl")  # read-only (platform.md)
    properties["provisioningState"] = "Succeeded"
    return {"name": inputs.get("resourceName", placeholder(name, "name")), "properties": properties}


def _gateway(name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    return {"status": {"addresses": [{"type": "IPAddress", "value": placeholder(name, "status.addresses[0].value")}]}}


def _named(name: str, inputs: dict[str, Any], key: str) -> dict[str, Any]:
    return {"name": inputs.get(key, placeholder(name, "name"))}


OVERRIDES: dict[str, Callable[[str, dict[str, Any]], dict[str, Any]]] = {
    "azure-native:storage:StorageAccount": _storage_account,
    "azure-native:containerservice:ManagedCluster": _managed_cluster,
    "azure-native:resources:Resource": _generic_resource,
    "kubernetes:gateway.networking.k8s.io/v1:Gateway": _gateway,
    "azure-native:storage:BlobContainer": lambda n, i: _named(n, i, "containerName"),
    "azure-native:managedidentity:UserAssignedIdentity": lambda n, i: _named(n, i, "resourceName"),
    "azure-native:resources:ResourceGroup": lambda n, i: _named(n, i, "resourceGroupName"),
}


def resource_state(type_token: str, name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    """The mock's answer to a registration: inputs, plus placeholders for the rest."""
    state = merge(sdk_outputs(type_token, name), inputs)
    override = OVERRIDES.get(type_token)
    if override is not None:
        state.update(override(name, inputs))
    return state


def merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """`over` wins, except that nested dicts are merged (inputs fill only what they set)."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


# --- invokes ----------------------------------------------------------------------------


def _kubeconfig(args: dict[str, Any]) -> dict[str, Any]:
    cluster = args.get("resourceName", "cluster")
    value = base64.b64encode(placeholder(str(cluster), "kubeconfig").encode()).decode()
    return {"kubeconfigs": [{"name": "clusterAdmin", "value": value}]}


def _exec_kubeconfig(args: dict[str, Any]) -> dict[str, Any]:
    """The user credential with format=exec: AKS answers a kubelogin kubeconfig that logs in
    with `devicecode`; the program rewrites it, so the mock answers the real shape."""
    if args.get("format") != "exec":
        return _kubeconfig(args)
    cluster = str(args.get("resourceName", "cluster"))
    user = f"clusterUser_{args.get('resourceGroupName', 'rg')}_{cluster}"
    text = f"""apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: {placeholder(cluster, "caData")}
    server: https://{placeholder(cluster, "fqdn")}:443
  name: {cluster}
contexts:
- context:
    cluster: {cluster}
    user: {user}
  name: {cluster}
current-context: {cluster}
kind: Config
preferences: {{}}
users:
- name: {user}
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      args:
      - get-token
      - --environment
      - AzurePublicCloud
      - --server-id
      - 6dae42f8-4368-4678-94ff-3960e28e3630
      - --client-id
      - 80faf920-1908-4b52-b5ef-a8e7bedfc67a
      - --tenant-id
      - {placeholder("azure", "tenantId")}
      - --login
      - devicecode
      command: kubelogin
      env: null
      installHint: kubelogin is not installed
      provideClusterInfo: false
"""
    return {"kubeconfigs": [{"name": "clusterUser", "value": base64.b64encode(text.encode()).decode()}]}


INVOKES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "azure-native:containerservice:listManagedClusterAdminCredentials": _kubeconfig,
    "azure-native:containerservice:listManagedClusterUserCredentials": _exec_kubeconfig,
    "azure-native:authorization:getClientConfig": lambda args: {
        "clientId": placeholder("azure", "clientId"),
        "objectId": placeholder("azure", "objectId"),
        "subscriptionId": placeholder("azure", "subscriptionId"),
        "tenantId": placeholder("azure", "tenantId"),
    },
}


# Provider-specific tables live beside this module, one per provider.
for _module in (mock_aws, mock_gcp):
    OVERRIDES.update(_module.OVERRIDES)
    INVOKES.update(_module.INVOKES)


def invoke_result(token: str, args: dict[str, Any]) -> dict[str, Any]:
    handler = INVOKES.get(token)
    if handler is not None:
        return handler(args)
    fn = token.split(":")[-1]
    return {"id": placeholder(fn, "id")}
