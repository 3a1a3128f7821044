"""Checks across resources, over what a stack policy sees: every resource with its
dependencies (explicit `depends_on` and those of its inputs)."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from pulumi_policy import PolicyResource
from rules.platform import a_or_an
from rules.registration import is_registration, may_be_registration, registration_name
from rules.storage import (
    AZURE_CORS,
    BLOB_SERVICE,
    S3_CORS,
    S3_CORS_SHAPE,
    S3_ENCRYPTION,
    S3_PUBLIC_ACCESS_BLOCK,
    STORAGE_ACCOUNT,
    CorsRule,
    cors_problems,
    is_s3_bucket,
    s3_inline_encryption,
)
from rules.values import MISSING, UNKNOWN, get, in_passing, type_is, unchecked

Finding = tuple[str, str]  # (urn, message)


def direct_dependencies(resource: PolicyResource) -> list[PolicyResource]:
    found = list(resource.dependencies or [])
    for deps in (resource.property_dependencies or {}).values():
        found.extend(deps)
    return found


def upstream(resource: PolicyResource) -> list[PolicyResource]:
    """What the engine creates before `resource`: its dependencies (explicit and those of its
    inputs) and its parent. The SDK registers a child only once its parent is registered, and
    a parent only once its own dependencies are, so a child waits for what its parent waits
    for."""
    found = direct_dependencies(resource)
    if resource.parent is not None:
        found.append(resource.parent)
    return found


def _reached(resource: PolicyResource, stop: set[str] | None = None) -> Iterator[str]:
    """The URNs `resource` is created after, directly or through others (cycles end); with
    `stop`, those URNs are yielded but not gone past."""
    seen: set[str] = set()
    todo = upstream(resource)
    while todo:
        dep = todo.pop()
        if dep.urn in seen:
            continue
        seen.add(dep.urn)
        yield dep.urn
        if stop is None or dep.urn not in stop:
            todo.extend(upstream(dep))


# --- registrations ---------------------------------------------------------------------------


def registration_order_findings(resources: list[PolicyResource]) -> list[Finding]:
    """platform.md 1.2: the first is `default` on Azure, each later one waits for the one
    before it, names are unique within the cloud. The order is the one the engine keeps,
    read from the graph (dependencies and parents), never from where a record sits in the
    list: a plan sorted by URN is the same plan."""
    known = [r for r in resources if is_registration(r.resource_type, r.props)]
    if not known:
        return []
    urns = {r.urn for r in known}
    # The registrations each one waits for with no other registration between: the chain's
    # links. A search stops at a registration, so a long chain costs linear time and memory.
    nearest = {r.urn: {u for u in _reached(r, stop=urns) if u in urns and u != r.urn} for r in known}
    chain = _chain(known, nearest)
    first = chain[0]
    # Each known registration must wait for the known one before it whatever lies between
    # (a registration between them waits for it in turn), so only the first-is-primary
    # check needs every registration known: a possible one the first does not come before
    # could be the first.
    possible = [r for r in resources if may_be_registration(r.resource_type, r.props)]
    after_first = _downstream(resources, first) if possible else set()
    findings = [] if any(r.urn not in after_first for r in possible) else _primary(first)
    # In the engine's order, the registration before another is upstream of it only as one of
    # its nearest: anything between them would have to come between them in the order too.
    # (Not so around a cycle, which the engine refuses anyway.)
    for previous, current in itertools.pairwise(chain):
        if previous.urn not in nearest[current.urn]:
            findings.append(
                (
                    current.urn,
                    f"registration '{_name(current)}' does not depend on '{_name(previous)}', the registration "
                    "before it: the platform creates cloud resources one at a time; pass the previous "
                    "registration in depends_on",
                )
            )
    return findings + _duplicates(chain)


def _downstream(resources: list[PolicyResource], start: PolicyResource) -> set[str]:
    """The URNs created only after `start`: one walk down the reversed graph."""
    below: dict[str, list[str]] = {}
    for resource in resources:
        for dep in upstream(resource):
            below.setdefault(dep.urn, []).append(resource.urn)
    found: set[str] = set()
    todo = list(below.get(start.urn, []))
    while todo:
        urn = todo.pop()
        if urn not in found:
            found.add(urn)
            todo.extend(below.get(urn, []))
    return found


def _chain(known: list[PolicyResource], nearest: dict[str, set[str]]) -> list[PolicyResource]:
    """The registrations in the order the engine creates them: each next one is one whose
    nearest earlier registrations are all placed, preferring one that waits for the last
    placed (so a correct chain comes out as it is, and a broken one breaks where its link is
    missing), then one that looks like the primary, then the URN. Nothing depends on the
    records' order in the list; a cycle (which the engine refuses) is cut at the same place."""
    rank = {r.urn: index for index, r in enumerate(sorted(known, key=lambda r: (_primary(r) != [], str(r.urn))))}
    by_urn = {r.urn: r for r in known}
    waiting = {urn: len(links) for urn, links in nearest.items()}
    after: dict[str, list[str]] = {urn: [] for urn in nearest}
    for urn, links in nearest.items():
        for link in links:
            after[link].append(urn)
    ready = [(rank[urn], urn) for urn, count in waiting.items() if count == 0]
    heapq.heapify(ready)
    placed: set[str] = set()
    chain: list[PolicyResource] = []
    while len(chain) < len(known):
        last = chain[-1].urn if chain else None
        linked = sorted((rank[u], u) for u in after.get(last or "", []) if u not in placed and waiting[u] == 0)
        if linked:
            pick = linked[0][1]
        else:
            while ready and ready[0][1] in placed:
                heapq.heappop(ready)
            # A cycle leaves nothing ready: cut it at the first of the rest.
            pick = heapq.heappop(ready)[1] if ready else min((rank[u], u) for u in nearest if u not in placed)[1]
        placed.add(pick)
        chain.append(by_urn[pick])
        for later in after[pick]:
            waiting[later] -= 1
            if waiting[later] == 0 and later not in placed:
                heapq.heappush(ready, (rank[later], later))
    return chain


def _name(resource: PolicyResource) -> Any:
    """The registration's name for a message (its resource name while not known yet)."""
    with in_passing():
        name = registration_name(resource.props, resource.name)
    return resource.name if name is UNKNOWN else name


def _primary(first: PolicyResource) -> list[Finding]:
    findings = []
    name = registration_name(first.props, first.name)
    if name is not UNKNOWN and name != "default":
        findings.append(
            (
                first.urn,
                f"the first registration is '{name}': the first cloud resource is the primary and must be named "
                "'default'; put the AKS primary first in anyscale-cloud:resources",
            )
        )
    provider = get(first.props, "properties", "provider")
    if provider not in (UNKNOWN, MISSING, "Azure"):
        findings.append(
            (
                first.urn,
                f"the first registration has provider {provider!r}: the platform refuses 'The first cloud resource "
                "on cloud <id> must have provider AZURE'; put the AKS primary first",
            )
        )
    return findings


def _duplicates(chain: list[PolicyResource]) -> list[Finding]:
    """Azure resource names are case-insensitive (platform.md 9.3): `default` and `Default` collide."""
    seen: dict[tuple[Any, Any], PolicyResource] = {}
    by_name: dict[Any, list[tuple[PolicyResource, Any]]] = {}
    findings = []
    for resource in chain:
        name = registration_name(resource.props, resource.name)
        if name is UNKNOWN:
            continue
        with in_passing():  # noted below, only where another registration has the name
            cloud = get(resource.props, "parentResourcePath")
        # repr: a hostile plan can hold a map or a list here, which is not hashable.
        folded = name.lower() if isinstance(name, str) else repr(name)
        by_name.setdefault(folded, []).append((resource, cloud))
        key = (cloud.lower() if isinstance(cloud, str) else "", folded)
        if key not in seen:
            seen[key] = resource
            continue
        other = seen[key]
        other_name = registration_name(other.props, other.name)
        if other_name == name:
            message = (
                f"registration name '{name}' is already used by {other.name}: names are unique within the "
                "cloud (the platform answers HTTP 409); rename one of them"
            )
        else:
            message = (
                f"registration name '{name}' equals '{other_name}' ({other.name}) but for case: Azure resource names "
                "are case-insensitive, so they collide (HTTP 409); rename one of them"
            )
        findings.append((resource.urn, message))
    for named in by_name.values():
        for resource, cloud in named if len(named) > 1 else []:
            if cloud is UNKNOWN:  # the same name in a cloud not known yet: a collision or not
                unchecked(resource.props, "parentResourcePath")
    return findings


# --- buckets and what must come with them ------------------------------------------------------


def _attached(child: PolicyResource, parent: PolicyResource, child_key: str, parent_key: str) -> bool:
    """`child` configures `parent`: it depends on it, or names it (when both names are known)."""
    if any(dep.urn == parent.urn for dep in direct_dependencies(child)):
        return True
    mine, theirs = get(child.props, child_key), get(parent.props, parent_key)
    return isinstance(mine, str) and mine == theirs


def _companions(
    resources: Iterable[PolicyResource], parent: PolicyResource, kinds: tuple[str, ...], child_key: str, parent_key: str
) -> list[PolicyResource]:
    return [r for r in resources if type_is(r.resource_type, *kinds) and _attached(r, parent, child_key, parent_key)]


def s3_guard_findings(resources: list[PolicyResource]) -> list[Finding]:
    """Each S3 bucket has a public access block and default encryption."""
    findings = []
    for bucket in (r for r in resources if is_s3_bucket(r.resource_type)):
        if not _companions(resources, bucket, S3_PUBLIC_ACCESS_BLOCK, "bucket", "bucket"):
            findings.append(
                (
                    bucket.urn,
                    f"S3 bucket {bucket.name} has no public access block: add aws.s3.BucketPublicAccessBlock for it "
                    "with all four block/ignore/restrict flags true",
                )
            )
        encrypted = s3_inline_encryption(bucket.props) is not MISSING or _companions(
            resources, bucket, S3_ENCRYPTION, "bucket", "bucket"
        )
        if not encrypted:
            findings.append(
                (
                    bucket.urn,
                    f"S3 bucket {bucket.name} has no default encryption: add "
                    "aws.s3.BucketServerSideEncryptionConfiguration for it (AES256 or aws:kms)",
                )
            )
    return findings


def cors_coverage_findings(resources: list[PolicyResource], want: CorsRule) -> list[Finding]:
    """Each storage account we create has a blob service with the console's rule, each S3
    bucket a CORS configuration with it (GCS buckets carry it inline: a resource check)."""
    findings = []
    for account in (r for r in resources if type_is(r.resource_type, STORAGE_ACCOUNT)):
        services = _companions(resources, account, (BLOB_SERVICE,), "accountName", "accountName")
        if not _any_complete(services, lambda s: cors_problems(s.props, AZURE_CORS, want)):
            findings.append(
                (
                    account.urn,
                    _uncovered(f"storage account {account.name}", services, "storage.BlobServiceProperties", want),
                )
            )
    for bucket in (r for r in resources if is_s3_bucket(r.resource_type)):
        if get(bucket.props, "corsRules") is not MISSING and not cors_problems(bucket.props, S3_CORS_SHAPE, want):
            continue  # the rule is inline
        configs = _companions(resources, bucket, S3_CORS, "bucket", "bucket")
        if not _any_complete(configs, lambda c: cors_problems(c.props, S3_CORS_SHAPE, want)):
            findings.append(
                (bucket.urn, _uncovered(f"S3 bucket {bucket.name}", configs, "aws.s3.BucketCorsConfiguration", want))
            )
    return findings


def _uncovered(what: str, companions: list[PolicyResource], kind: str, want: CorsRule) -> str:
    if companions:
        names = ", ".join(c.name for c in companions)
        return (
            f"{what} has no complete console CORS rule ({want.origin}): its {names} lacks parts of it "
            "(see the console-cors finding there) and must be fixed"
        )
    return f"{what} has no CORS setting for the console ({want.origin}): add {a_or_an(kind)} for it with the console's rule"


def _any_complete(candidates: list[PolicyResource], problems: Callable[[PolicyResource], list[str]]) -> bool:
    return any(not problems(c) for c in candidates)
