"""The anyscale-cloud policy pack: `pulumi preview --policy-pack policy`.

Only builds the pack; the policies live in policies.py (importable, so that
`python -m preflight policy` and the tests run the very same ones offline)."""

from pack import REPOSITORY
from policies import ALL_POLICIES, DEFAULT_LEVEL, PACK_NAME
from pulumi_policy import PolicyPack

PolicyPack(name=PACK_NAME, policies=ALL_POLICIES, enforcement_level=DEFAULT_LEVEL, repository=REPOSITORY)
