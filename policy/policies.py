"""The anyscale-cloud policies: the platform's rules (docs/platform.md) as CrossGuard
policies, over what `pulumi preview` (or `preflight policy`) would deploy.

Every policy is one `policy(...)` declaration (pack.py) in a module of catalog/: name, description,
level, severity, how to fix it, settings and its check. The checks are the plain
functions of `rules/`; what is here only picks the resources they read. A value not
known yet is never a violation by itself. Checks that need a resource option the engine
does not pass to policies (replaceOnChanges, retainOnDelete) or the placeholder text of
a recorded plan run only offline, under `python -m preflight policy`; their descriptions
say "(offline only)". docs/policies.md is generated from this list
(`make generate`).
"""

from __future__ import annotations

from catalog import access, clusters, cost, records
from pack import REPOSITORY, Policy
from pulumi_policy import EnforcementLevel, PolicyPack

PACK_NAME = "anyscale-cloud"
# Every policy sets its own level; this is only the fallback for one that does not.
DEFAULT_LEVEL = EnforcementLevel.MANDATORY

ALL_POLICIES: list[Policy] = [*records.POLICIES, *access.POLICIES, *clusters.POLICIES, *cost.POLICIES]


def serve() -> None:
    """Runs the pack for the Pulumi CLI (policy/__main__.py): PolicyPack serves the policies
    to the engine."""
    PolicyPack(name=PACK_NAME, policies=[*ALL_POLICIES], enforcement_level=DEFAULT_LEVEL, repository=REPOSITORY)
