"""The pack as a whole, over every policy's case (tests/policy/cases.py): each policy has
one case, in the test module of its catalog module; each setting's default is the
platform's, pinned as a literal; and a check run without config applies exactly those
defaults, which decide what it reports."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from pulumi_policy import StackValidationPolicy

from preflight import policy as runner
from preflight.pack_import import pack_module
from tests.policy.cases import CASES, SUBJECTS
from tests.policy.helpers import PACK, POLICIES, PolicyCase, validate

SETTINGS = [case for case in CASES if case.config_default is not None]
# A stack policy has no record to break: its own module checks its defaults (console-cors-coverage, cost-budget).
VIOLATED = [case for case in SETTINGS if case.violate is not None]


def test_the_pack_is_named_and_holds_every_declaration() -> None:
    """What each declaration carries is tests/policy/test_policy_pack.py's; the levels, severities and
    settings of all of them are docs/policies.md's (tests/policy/test_policy_reference.py)."""
    assert PACK.PACK_NAME == "anyscale-cloud"
    assert len(POLICIES) == len(PACK.ALL_POLICIES)


def test_every_policy_has_one_case_in_the_module_of_its_subject() -> None:
    """A new policy is one row: in the CASES of the test module mirroring its catalog module."""
    for subject, cases in SUBJECTS.items():
        declared = [p.name for p in pack_module(f"catalog.{subject}").POLICIES]
        assert [case.policy for case in cases] == declared, subject
    assert sorted(case.policy for case in CASES) == sorted(POLICIES)


def test_every_setting_has_its_default_in_the_case() -> None:
    with_settings = {p.name for p in PACK.ALL_POLICIES if p.config_schema is not None}
    assert {case.policy for case in SETTINGS} == with_settings
    # A resource policy with settings shows them deciding on a record (test_config_defaults_are_what_the_checks_use).
    unshown = [
        c.policy for c in SETTINGS if c.violate is None and not isinstance(POLICIES[c.policy], StackValidationPolicy)
    ]
    assert unshown == [], f"give these cases a record that breaks them under their defaults: {unshown}"


@pytest.mark.parametrize("case", SETTINGS, ids=[case.policy for case in SETTINGS])
def test_config_defaults_are_the_platforms(case: PolicyCase) -> None:
    schema = POLICIES[case.policy].config_schema
    assert schema is not None, f"{case.policy} has no settings"
    assert {name: spec["default"] for name, spec in schema.properties.items()} == case.config_default


@pytest.mark.parametrize("case", VIOLATED, ids=[case.policy for case in VIOLATED])
def test_config_defaults_are_what_the_checks_use(plan: dict[str, Any], case: PolicyCase) -> None:
    """Without config, a check applies exactly the documented defaults: the same findings as
    with the defaults passed explicitly, and a violation that only the defaults forbid."""
    assert case.violate is not None and case.allow is not None
    rec = case.violate(plan)
    defaults = copy.deepcopy(case.config_default)
    found = validate(case.policy, rec)
    assert len(found) == 1, found
    assert validate(case.policy, rec, defaults) == found
    # ...and the setting is what decides it: allowing the value lifts the violation.
    config_problems = runner.config_problems({case.policy: case.allow}, PACK.ALL_POLICIES)
    if case.refused is not None:
        assert config_problems and case.refused in config_problems[0]
    else:
        assert config_problems == []
        assert validate(case.policy, rec, case.allow) == []
