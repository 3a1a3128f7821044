"""Reading a stack's config into a spec: validate, report every problem at once (each
naming its config path and resource), then resolve the defaults in one pass.

`__main__.py` and `preflight validate` both go through `load_spec`, so a bad config is
rejected before a single resource is declared.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from pydantic import ValidationError
from pydantic.alias_generators import to_camel
from pydantic_core import ErrorDetails

from config import currency, names, workloads
from config.aks import AksClusterSpec
from config.data import azure_availability
from config.gke import GkeClusterSpec
from config.hints import nearest_key, yaml_reading
from config.pools import disk_size, gpu_count
from config.raw import clear_secrets, printable, raw_problems
from config.resources import pools_quota
from config.secrets import SECRET_PATHS, merge_secrets
from config.stack import StackSpec
from config.types import KUBERNETES_VERSION_PATTERN
from policy.rules.platform import PROVIDERS


@dataclass(frozen=True)
class Problem:
    path: str  # e.g. resources[2].storage.endpoint
    resource: str | None  # the resource's name, when the problem is inside one
    message: str

    def __str__(self) -> str:
        where = f"{self.path} ({self.resource})" if self.resource else self.path
        # Values from the file are quoted in paths and messages: never print them raw.
        return printable(f"{where}: {self.message}")


class SpecError(Exception):
    """The config breaks one or more rules; `problems` lists them all."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


CONFIG_KEYS = {"cloud": "anyscale-cloud:cloud", "resources": "anyscale-cloud:resources"}


def load_spec(
    cloud: Any, resources: Any, secrets: Any = None, *, today: date | None = None, deploying: bool = False
) -> StackSpec:
    """Validate the config values; raise SpecError listing every problem. `secrets` is
    `anyscale-cloud:secrets`, each resource's secrets by its name (config/secrets.py); `today`:
    the day Kubernetes versions are judged on (config/currency.py; default its `today()`).
    `deploying` (the program under `pulumi up`): a Kubernetes minor refused only because its
    support ended on a past day is not a problem here but an advisory (`advisories`), so that
    no deploy fails because of the date; `preflight validate` leaves it False."""
    # Every problem of the file in one run: a missing key, the secrets map, the document-wide
    # rules, the models and (where the models cannot be built) the Kubernetes versions are
    # all collected before anything is raised.
    raw = {"cloud": cloud, "resources": resources}
    missing = [
        Problem(key, None, f"is required: set `{CONFIG_KEYS[key]}` in the stack file")
        for key, value in raw.items()
        if value is None
    ]
    present = {key: value for key, value in raw.items() if value is not None}
    secret_problems: list[tuple[str, str | None, str]] = []
    if "resources" in present:
        present["resources"], secret_problems = merge_secrets(resources, secrets)
        resources = present["resources"]
    # Document-wide rules first; the models' own message for the same value would only
    # repeat it (or echo a secret back).
    early = missing + [
        Problem(config_path(list(loc)), _resource_name(list(loc), resources), message)
        for loc, message in raw_problems(present)
    ]
    early += [Problem(path, name, message) for path, name, message in secret_problems]
    try:
        # camelCase only, as documented: the Python field names (resource_group) are for
        # the code, not the stack file.
        spec = StackSpec.model_validate(present, by_alias=True, by_name=False)
    except ValidationError as error:
        later = [p for p in _problems(error, resources) if not any(_within(p.path, e.path) for e in early)]
        if secret_problems:
            # A secret the broken map did not deliver is missing only because of that problem.
            later = [p for p in later if not (p.message == "is required" and _is_secret_path(p.path))]
        # The versions are judged on the model; where it could not be built, on the file's values.
        found = early + later
        versions = [
            Problem(*where)
            for where, verdict in _raw_versions(resources, today)
            if verdict.refusal
            and not (deploying and verdict.dated)
            and not any(_within(where[0], p.path) for p in found)
        ]
        raise SpecError(sorted(found + versions, key=_problem_order)) from None
    refused = [
        Problem(*where)
        for where, verdict in _versions(spec, today)
        if verdict.refusal and not (deploying and verdict.dated)
    ]
    if early or refused:
        raise SpecError(sorted(early + refused, key=_problem_order))
    return resolve_defaults(spec)


Judged = list[tuple[tuple[str, str | None, str], currency.Verdict]]
# What a cluster's version is judged on: index, name, provider, version, region, and whether
# it has what its provider's extended support needs.
Cluster = tuple[int, str | None, str, str, str, bool]


def _judge(clusters: list[Cluster], today: date | None) -> Judged:
    """Each cluster's Kubernetes version against the calendar: (path, name, message), verdict."""
    day = today or currency.today()
    out: Judged = []
    for index, name, provider, version, region, extended in clusters:
        path = f"resources[{index}].cluster.kubernetesVersion"
        for verdict in (
            currency.judge(provider, version, day, extended=extended),
            currency.patch(provider, version, region),
        ):
            if verdict.refusal or verdict.advisory:
                out.append(((path, name, verdict.refusal or verdict.advisory or ""), verdict))
    return out


def _extended(provider: str, support_plan: Any, release_channel: Any) -> bool:
    extended: dict[str, bool] = {
        "Azure": support_plan == "AKSLongTermSupport",
        "AWS": True,  # extended support is on by default (upgrade policy EXTENDED)
        "GCP": release_channel == "EXTENDED",
    }
    return extended[provider]


def _versions(spec: StackSpec, today: date | None) -> Judged:
    clusters: list[Cluster] = []
    for index, resource in enumerate(spec.resources):
        cluster = getattr(resource, "cluster", None)
        if cluster is None:
            continue  # Generic: the user's cluster, the user's version
        extended = _extended(
            resource.provider_name, getattr(cluster, "support_plan", None), getattr(cluster, "release_channel", None)
        )
        clusters.append(
            (index, resource.name, resource.provider_name, cluster.kubernetes_version, resource.region, extended)
        )
    return _judge(clusters, today)


def _raw_versions(resources: Any, today: date | None) -> Judged:
    """The versions a stack file writes, judged where the models could not be built: only
    those whose provider, version and region are plain valid text (the models report the
    rest), so that a refused minor shows in the same run as the file's other problems."""
    clusters: list[Cluster] = []
    for index, item in enumerate(resources if isinstance(resources, list) else []):
        cluster = item.get("cluster") if isinstance(item, dict) else None
        if not isinstance(cluster, dict):
            continue
        provider, version, region = item.get("provider"), cluster.get("kubernetesVersion"), item.get("region")
        if provider not in ("Azure", "AWS", "GCP") or not isinstance(version, str) or not isinstance(region, str):
            continue
        if not re.fullmatch(KUBERNETES_VERSION_PATTERN, version):
            continue
        name = item.get("name") if isinstance(item.get("name"), str) else None
        extended = _extended(provider, cluster.get("supportPlan"), cluster.get("releaseChannel"))
        clusters.append((index, name, provider, version, region, extended))
    return _judge(clusters, today)


def resolve_defaults(spec: StackSpec) -> StackSpec:
    """Fill in what the stack file left to the program, once every rule holds: each value
    from the validated spec alone (the checks used the same helpers), so what a loaded
    spec holds does not depend on the order the validators ran in."""
    for resource in spec.resources:
        provider = resource.provider_name
        if resource.storage.region is None:
            resource.storage.region = resource.region  # the bucket is where compute is
        cluster = getattr(resource, "cluster", None)
        if cluster is None:
            continue  # Generic: the user's cluster
        for pool in cluster.node_pools:
            pool.disk_size_gb = disk_size(provider, pool)
            if pool.gpu is not None:
                pool.gpu.count = gpu_count(provider, pool)
        if isinstance(cluster, AksClusterSpec) and cluster.network is not None:
            network = cluster.network
            if network.vnet is not None:
                network.address_space, network.node_subnet = network.vnet
            network.network_policy = network.policy_engine()
            network.dataplane = network.data_plane()
        if isinstance(cluster, GkeClusterSpec) and cluster.network is None:
            ranges = cluster.ranges()
            cluster.node_cidr, cluster.pod_cidr = ranges["nodeCidr"], ranges["podCidr"]
            cluster.service_cidr = ranges["serviceCidr"]
        kuberay = resource.addons.kuberay
        if kuberay.batch_scheduler == "kueue" and kuberay.queue_quota is None:
            kuberay.queue_quota = pools_quota(provider, cluster.node_pools)
    return spec


def advisories(spec: StackSpec, today: date | None = None, *, deploying: bool = False) -> list[Problem]:
    """Warnings that do not stop a deployment: a Kubernetes minor in paid extended support
    or close to the end of standard support, a calendar read long ago, and an Azure region
    outside the list of regions where Anyscale on Azure is available
    (config/data/azure_availability.py; nothing when that list is None). `preflight validate`
    prints them and exits 0; `pulumi up` logs them, and with `deploying` also the minors
    `load_spec` let through whose support ended on a past day."""
    day = today or currency.today()
    versions = []
    for (path, name, message), verdict in _versions(spec, day):
        if verdict.advisory:
            versions.append(Problem(path, name, message))
        elif deploying and verdict.refusal and verdict.dated:
            versions.append(Problem(path, name, message + currency.DEPLOYING_ANYWAY))
    stale = currency.stale(day)
    if stale:
        versions.append(Problem("resources", None, stale))
    return versions + _region_advisories(spec) + _workload_bucket_advisories(spec) + _workload_advisories(spec)


def _workload_advisories(spec: StackSpec) -> list[Problem]:
    """Managed namespaces the operator gets no rights in, or an AWS trust policy over IAM's
    default quota (config/workloads.py)."""
    found = []
    for index, resource in enumerate(spec.resources):
        values = resource.addons.anyscale_operator.values
        namespaces = resource.addons.anyscale_operator.managed_namespaces
        aws = workloads.aws_trust_advisory(resource.region, namespaces) if resource.provider_name == "AWS" else None
        for message in (workloads.cross_namespace_advisory(values), aws):
            if message is not None:
                path = f"resources[{index}].addons.anyscaleOperator.values.{workloads.MANAGED_NAMESPACES_KEY}"
                found.append(Problem(path, resource.name, message))
    return found


def _workload_bucket_advisories(spec: StackSpec) -> list[Problem]:
    """An existing Azure bucket: the program grants no data-plane role on it (its owner's to
    set, components/azure/bucket.py), so the Ray pods' identity needs the owner's grant too."""
    cloud = spec.cloud.name
    return [
        Problem(
            f"resources[{index}].storage.bucket",
            resource.name,
            "an existing bucket: the program grants the Ray pods' identity "
            f"'{names.azure_workload_identity_name(cloud, resource.name)}' nothing on it; grant it Storage Blob Data "
            "Contributor on the container (as the operator's identity), or Ray pods cannot read or write the bucket",
        )
        for index, resource in enumerate(spec.resources)
        if resource.provider_name == "Azure" and resource.storage.bucket is not None
    ]


def _region_advisories(spec: StackSpec) -> list[Problem]:
    available = azure_availability.AVAILABLE_REGIONS
    if available is None:
        return []
    places: list[tuple[str, str | None, str]] = [("cloud.location", None, spec.cloud.location)]
    for index, resource in enumerate(spec.resources):
        if resource.provider_name != "Azure":
            continue
        places.append((f"resources[{index}].region", resource.name, resource.region))
        if resource.storage.region not in (None, resource.region):
            places.append((f"resources[{index}].storage.region", resource.name, resource.storage.region))
    return [
        Problem(
            path,
            name,
            f"'{region}' is not a region where Anyscale on Azure is available ({azure_availability.SOURCE}: "
            f"{', '.join(sorted(available))}); the platform may refuse it: request the region from Anyscale "
            "support, or use a listed one",
        )
        for path, name, region in places
        if region not in available
    ]


def clear_secret_advisories(cloud: Any, resources: Any, secrets: Any = None) -> list[Problem]:
    """A warning for each secret the stack file holds in clear (its path only, never the
    value): committed, it is readable by anyone with the repository, and the engine stores
    it unencrypted. Only the stack file tells, so `preflight validate` reports these. The
    `anyscale-cloud:secrets` map is read the same way: every value in it is a secret."""
    raw = {"cloud": cloud, "resources": resources}
    locations = [(tuple(loc), _resource_name(list(loc), resources)) for loc in clear_secrets(raw)]
    if isinstance(secrets, dict):
        for name, entry in secrets.items():
            for loc in clear_secrets({"resources": [entry]}):
                locations.append((("secrets", name, *loc[2:]), str(name)))
    return [
        Problem(
            config_path(list(loc)),
            name,
            "is a secret given in clear in the stack file; encrypt it with "
            f"`pulumi config set --secret --path '{config_path(list(loc))}'`, which replaces the plain value",
        )
        for loc, name in locations
    ]


def _is_secret_path(path: str) -> bool:
    """resources[i].<a secret's key>: kubeconfig, cliToken, storage.credentials.<key>."""
    head, _, rest = path.partition("].")
    return head.startswith("resources[") and any(rest == ".".join(p) for p in SECRET_PATHS)


def _within(path: str, outer: str) -> bool:
    return path == outer or path.startswith((outer + ".", outer + "["))


def _problem_order(problem: Problem) -> tuple[int, int]:
    """File order: the cloud first, then resource by resource (a stable sort keeps the rest)."""
    if problem.path.startswith("resources["):
        return (1, int(problem.path[len("resources[") :].split("]", 1)[0]))
    return (0, -1) if problem.path.startswith("cloud") else (1, -1)


_TAGS = set(PROVIDERS)


def _problems(error: ValidationError, resources: Any) -> list[Problem]:
    problems = []
    for item in sorted(error.errors(include_url=False), key=_config_order):
        loc = list(item["loc"])
        # Drop the union tag pydantic inserts after the list index (resources.2.AWS.region).
        if len(loc) > 2 and loc[0] == "resources" and loc[2] in _TAGS:
            del loc[2]
        # A model-level rule with a field name in its type points at that field.
        if item["type"] == "provider":
            loc.append("provider")
        # A model-level rule that names the field it is about (ctx "at", dotted).
        at = (item.get("ctx") or {}).get("at")
        if isinstance(at, str):
            loc.extend(at.split("."))
        problems.append(Problem(config_path(loc), _resource_name(loc, resources), _message(item)))
    return problems


def _config_order(item: ErrorDetails) -> tuple[int, int]:
    """Report in the order of the file: the cloud first, then resource by resource."""
    loc = item["loc"]
    index = loc[1] if len(loc) > 1 and isinstance(loc[1], int) else -1
    return (0 if loc and loc[0] == "cloud" else 1, index)


def _message(item: ErrorDetails) -> str:
    kind, msg = item["type"], item["msg"]
    if kind == "extra_forbidden":
        key = item["loc"][-1] if item["loc"] else ""
        if isinstance(key, str) and "_" in key and to_camel(key) != key:
            return f"unknown key: the stack config is camelCase, write `{to_camel(key)}`"
        nearest = nearest_key(list(item["loc"]))
        if nearest:
            return f"unknown key: did you mean `{nearest}`? (see the config reference in docs/configuration.md)"
        return "unknown key (check the spelling; see the config reference in docs/configuration.md)"
    read = yaml_reading(kind, item.get("input"))
    if read:
        return read
    if kind == "missing":
        return "is required"
    if kind == "provider":
        got = item.get("input", {}).get("provider") if isinstance(item.get("input"), dict) else None
        return f"{msg} (got {got!r})"
    if kind == "string_pattern_mismatch":
        return f"{item.get('input')!r} does not have the required form {item['ctx']['pattern']}"
    if kind.startswith("value_error"):
        return msg.removeprefix("Value error, ")
    return msg


def config_path(loc: list[Any]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def _resource_name(loc: list[Any], resources: Any) -> str | None:
    if len(loc) >= 2 and loc[0] == "resources" and isinstance(loc[1], int) and isinstance(resources, list):
        item = resources[loc[1]] if loc[1] < len(resources) else None
        name = item.get("name") if isinstance(item, dict) else None
        return name if isinstance(name, str) else None
    return None
