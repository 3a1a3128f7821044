"""Every policy's case (tests/policy/helpers.py `PolicyCase`), gathered from the test module
of its subject: a new policy is one row in the CASES of the module that mirrors its catalog
module (policy/catalog/<subject>.py). test_pack_settings.py and test_pack_cli.py run over the
union; tests/policy/test_policy_messages.py pins the planted violations' messages."""

from __future__ import annotations

from tests.policy import test_access, test_clusters, test_cost_budget, test_records
from tests.policy.helpers import Planted, PolicyCase

# policy/catalog/<subject>.py -> the cases of its policies, in the order the pack declares them.
SUBJECTS: dict[str, list[PolicyCase]] = {
    "records": test_records.CASES,
    "access": test_access.CASES,
    "clusters": test_clusters.CASES,
    "cost": test_cost_budget.CASES,
}
CASES: list[PolicyCase] = [case for cases in SUBJECTS.values() for case in cases]
# (policy, multicloud?, record, edit or None, resource named in the output, the fix), one per planted violation.
PLANTED: list[Planted] = [planted for case in CASES for planted in case.plants()]
