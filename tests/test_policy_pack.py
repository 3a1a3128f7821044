"""The pack's one policy constructor (policy/pack.py) and what every declaration carries.

These are properties of every policy, so a new declaration is checked without being
listed here: a name that is its docs anchor, a description, a level, a severity, steps
to fix it, its URL, settings with valid schemas and defaults. The constructor itself is
exercised with checks of its own: the type filter, where each message is reported, the
settings a check receives."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from jsonschema import Draft7Validator
from pulumi_policy import EnforcementLevel, ResourceValidationPolicy, Severity, StackValidationPolicy

from preflight import policy as runner

ROOT = Path(__file__).resolve().parent.parent
PACK = runner.load_pack()
pack = runner.pack_module("pack")
NAMES = [p.name for p in PACK.ALL_POLICIES]


def reported(policy: Any, config: dict[str, Any] | None = None, **args: Any) -> list[tuple[str, str | None]]:
    """What `policy` reports for args of these fields (and this config), with the URN of each."""
    found: list[tuple[str, str | None]] = []
    policy.validate(SimpleNamespace(get_config=lambda: config, **args), lambda m, urn: found.append((m, urn)))
    return found


# --- every declaration ----------------------------------------------------------------------------


def test_names_are_unique():
    assert len(set(NAMES)) == len(NAMES), sorted(n for n in NAMES if NAMES.count(n) > 1)


@pytest.mark.parametrize("policy", PACK.ALL_POLICIES, ids=NAMES)
def test_every_policy_carries_what_the_engine_shows(policy):
    assert pack.NAME_RE.fullmatch(policy.name)
    assert policy.description.endswith("."), "a description is a sentence"
    assert policy.enforcement_level in (EnforcementLevel.MANDATORY, EnforcementLevel.ADVISORY)
    assert isinstance(policy.severity, Severity)
    assert policy.remediation_steps and policy.remediation_steps.endswith(".")
    assert policy.url == f"{pack.DOCS_URL}#{policy.name}"


@pytest.mark.parametrize("policy", PACK.ALL_POLICIES, ids=NAMES)
def test_every_setting_has_a_valid_schema_a_description_and_a_default_it_accepts(policy):
    for name, spec in (policy.config_schema.properties if policy.config_schema else {}).items():
        Draft7Validator.check_schema(spec)
        assert spec["description"], name
        assert list(Draft7Validator(spec).iter_errors(spec["default"])) == [], name


@pytest.mark.parametrize("policy", PACK.ALL_POLICIES, ids=NAMES)
def test_every_policy_is_built_by_the_constructor(policy):
    private = (
        "_ResourceValidationPolicy__validate"
        if isinstance(policy, ResourceValidationPolicy)
        else "_StackValidationPolicy__validate"
    )
    validate = getattr(policy, private)
    assert validate.__module__ == "pack" and validate.__qualname__.split(".")[0] in (
        "_resource_validate",
        "_stack_validate",
    )


def test_the_docs_url_is_one_constant():
    assert pack.DOCS_URL.startswith(pack.REPOSITORY + "/blob/") and pack.DOCS_URL.endswith("/docs/policies.md")
    assert {p.url.split("#")[0] for p in PACK.ALL_POLICIES} == {pack.DOCS_URL}


# The pack's own modules may use pulumi_policy's data types (what a check reads), never build policies.
DATA_TYPES = {"PolicyResource", "PolicyResourceOptions", "PolicyCustomTimeouts"}


@pytest.mark.parametrize("module", sorted((ROOT / "policy" / "rules").glob("*.py")), ids=lambda p: p.name)
def test_rules_modules_hold_pure_checks(module):
    tree = ast.parse(module.read_text(encoding="utf-8"))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "pulumi_policy"
        for alias in node.names
    }
    assert imported <= DATA_TYPES, (
        f"{module.name} imports {sorted(imported - DATA_TYPES)}: declare policies in policies.py"
    )
    if module.name == "platform.py":  # shared with the stack-file validator: no SDK at all
        modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        modules |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert modules <= {"__future__", "re"}, modules


# --- the constructor ------------------------------------------------------------------------------


def two_messages(args: Any, settings: dict[str, Any]) -> list[str]:
    return [f"first {args.props['x']}", f"second {settings.get('limit')}"]


CLUSTER = "azure-native:containerservice:ManagedCluster"


def declared(**changes: Any) -> Any:
    base: dict[str, Any] = {
        "level": pack.MANDATORY,
        "severity": pack.HIGH,
        "remediation": "Fix it.",
        "check": two_messages,
    }
    return pack.policy("test-policy", "What it checks.", **{**base, **changes})


def test_a_resource_policy_reports_every_message_against_its_resource():
    policy = declared()
    assert isinstance(policy, ResourceValidationPolicy)
    assert reported(policy, resource_type="aws:s3/bucket:Bucket", props={"x": 1}) == [
        ("first 1", None),
        ("second None", None),
    ]


def test_on_runs_the_check_only_for_those_types_api_versions_included():
    policy = declared(on=(CLUSTER,))
    expected = [("first 2", None), ("second None", None)]
    assert reported(policy, resource_type=CLUSTER, props={"x": 2}) == expected
    assert (
        reported(policy, resource_type="azure-native:containerservice/v20250801:ManagedCluster", props={"x": 2})
        == expected
    )
    assert reported(policy, resource_type="azure-native:containerservice:AgentPool", props={"x": 2}) == []


def test_a_check_gets_the_defaults_under_the_given_config():
    schema = {"limit": {"type": "integer", "default": 3, "description": "how many"}}
    policy = declared(settings=schema)
    assert policy.config_schema.properties == schema
    assert reported(policy, resource_type="t", props={"x": 0})[1] == ("second 3", None)
    assert reported(policy, resource_type="t", props={"x": 0}, config={"limit": 7})[1] == ("second 7", None)


def test_a_stack_policy_reports_each_finding_against_its_urn():
    def findings(args: Any, _: Any) -> list[tuple[str | None, str]]:
        return [(f"urn:{r}", f"bad {r}") for r in args.resources] + [(None, "the stack")]

    policy = declared(check=None, stack_check=findings)
    assert isinstance(policy, StackValidationPolicy)
    assert reported(policy, resources=("a", "b")) == [("bad a", "urn:a"), ("bad b", "urn:b"), ("the stack", None)]


def test_the_metadata_is_the_declarations():
    policy = declared(level=pack.ADVISORY, severity=pack.LOW)
    seen = (policy.name, policy.description, policy.enforcement_level, policy.severity, policy.remediation_steps)
    assert seen == ("test-policy", "What it checks.", EnforcementLevel.ADVISORY, Severity.LOW, "Fix it.")
    assert policy.url == pack.DOCS_URL + "#test-policy"


@pytest.mark.parametrize(
    ("changes", "refusal"),
    [
        ({"check": None}, "exactly one of check= and stack_check="),
        ({"stack_check": two_messages}, "exactly one of check= and stack_check="),
        ({"check": None, "stack_check": two_messages, "on": (CLUSTER,)}, "on= filters resources"),
        ({"level": EnforcementLevel.DISABLED}, "mandatory or advisory"),
        ({"remediation": " "}, "remediation steps are required"),
        ({"settings": {"limit": {"type": "integer", "description": "no default"}}}, "setting limit needs a default"),
        ({"settings": {"limit": {"type": "integer", "default": 1}}}, "setting limit needs a default and a description"),
    ],
)
def test_the_constructor_refuses_an_incomplete_declaration(changes, refusal):
    with pytest.raises(ValueError, match=refusal):
        declared(**changes)


@pytest.mark.parametrize("name", ["Aks-Rbac", "aks rbac", "aks_rbac", "-aks", "aks--rbac", ""])
def test_a_name_must_be_its_own_docs_anchor(name):
    with pytest.raises(ValueError, match="docs anchor"):
        pack.policy(name, "x.", level=pack.MANDATORY, severity=pack.LOW, remediation="y.", check=two_messages)
