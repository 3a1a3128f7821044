"""The pack's one policy constructor (policy/pack.py) and what every declaration carries.

These are properties of every policy, so a new declaration is checked without being
listed here: a name that is its docs anchor, a description, a level, a severity, steps
to fix it, its URL, settings with valid schemas and defaults. The constructor itself is
exercised with checks of its own: the type filter, where each message is reported, the
settings a check receives."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from jsonschema import Draft7Validator
from pulumi_policy import EnforcementLevel, ResourceValidationPolicy, Severity, StackValidationPolicy
from pulumi_policy.proxy import UnknownValueError

from preflight import policy as runner

ROOT = Path(__file__).resolve().parents[2]
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


# --- what a check could not decide ------------------------------------------------------------------

values = runner.pack_module("rules.values")
LATER = ": unknown until apply; checked again on pulumi up"


def unknown_props(inputs: dict[str, Any]) -> Any:
    """Props as the engine hands them in a preview: the plan's `<unknown>` is the SDK's sentinel
    behind its unknown-checking proxy."""
    return runner.props_of({"inputs": inputs})


def reads_and_reports(args: Any, _: Any) -> Iterator[str]:
    """A check reading the ways the pack's checks read, and reporting before it knows all."""
    props = args.props
    yield "reported first"
    values.get(props, "cluster", "name")  # known: nothing noted
    values.get(props, "cluster", "region")  # an engine unknown, under a map
    values.elements(values.get(props, "pools"))  # each pool: the second is a placeholder
    values.reference(props, "principal")  # a placeholder read on purpose
    with values.in_passing():
        values.get(props, "label")  # only words a message
    start = values.mark()
    values.get(props, "fallback")
    values.forget(start)  # decided without it
    yield "reported second"
    props["direct"]  # outside `get`: the SDK's error, noted all the same
    yield "never reached"


PROPS = {
    "cluster": {"name": "c1", "region": "<unknown>"},
    "pools": ["a", "${pool.id}"],
    "principal": "${identity.principalId}",
    "label": "<unknown>",
    "fallback": "${other.value}",
    "direct": "<unknown>",
}


def test_a_resource_check_names_what_it_read_as_unknown_after_its_violations():
    policy = declared(check=reads_and_reports)
    found: list[tuple[str, str | None]] = []
    args = SimpleNamespace(get_config=lambda: None, resource_type="t", props=unknown_props(PROPS))
    with pytest.raises(UnknownValueError) as raised:  # the SDK's class: the engine makes it an advisory
        policy.validate(args, lambda m, urn: found.append((m, urn)))
    assert found == [("reported first", None), ("reported second", None)]
    assert raised.value.message == f"could not check cluster.region, direct, pools[1]{LATER}"
    assert str(raised.value) == raised.value.message


def test_the_messages_reported_before_an_unknown_are_kept():
    def check(args: Any, _: Any) -> Any:
        yield "first"
        yield f"second {values.get(args.props, 'x')!r}"
        args.props["y"]
        yield "never"

    policy = declared(check=check)
    found: list[tuple[str, str | None]] = []
    args = SimpleNamespace(get_config=lambda: None, resource_type="t", props=unknown_props({"x": 1, "y": "<unknown>"}))
    with pytest.raises(UnknownValueError, match=f"^could not check y{LATER}$"):
        policy.validate(args, lambda m, urn: found.append((m, urn)))
    assert found == [("first", None), ("second 1", None)]


def test_a_stack_check_names_the_resource_of_each_property():
    def findings(args: Any, _: Any) -> list[tuple[str | None, str]]:
        for resource in args.resources:
            values.get(resource.props, "spec", "size")
        return [("urn:b", "b is wrong")]

    policy = declared(check=None, stack_check=findings)
    resources = [
        SimpleNamespace(name="b", props=unknown_props({"spec": {"size": "${b.size}"}})),
        SimpleNamespace(name="a", props=unknown_props({"spec": "<unknown>"})),
        SimpleNamespace(name="c", props=unknown_props({"spec": {"size": 3}})),
    ]
    found: list[tuple[str, str | None]] = []
    with pytest.raises(UnknownValueError) as raised:
        policy.validate(
            SimpleNamespace(get_config=lambda: None, resources=resources), lambda m, u: found.append((m, u))
        )
    assert found == [("b is wrong", "urn:b")]
    assert raised.value.message == f"could not check a.spec, b.spec.size{LATER}"


class Untouchable(Mapping[str, Any]):
    """A resource's props that fail the test if anything reads them."""

    def __getitem__(self, key: str) -> Any:
        raise AssertionError(f"read {key!r} of a resource the check never read")

    def __iter__(self) -> Iterator[str]:
        raise AssertionError("listed the keys of a resource the check never read")

    def __len__(self) -> int:
        raise AssertionError("measured a resource the check never read")


def test_a_stack_check_looks_for_its_unknowns_only_until_it_found_them() -> None:
    """Naming a property means finding where its map sits in the stack: the search ends at the
    resources that hold what the check could not decide, never walks the rest of a large stack."""

    def findings(args: Any, _: Any) -> list[tuple[str | None, str]]:
        values.get(args.resources[-1].props, "spec", "size")
        return []

    # The search starts from the last resource (it would reach the first one last).
    resources = [
        SimpleNamespace(name="first", props=Untouchable()),
        SimpleNamespace(name="last", props=unknown_props({"spec": {"size": "<unknown>"}})),
    ]
    args = SimpleNamespace(get_config=lambda: None, resources=resources)
    with pytest.raises(UnknownValueError, match=f"^could not check last.spec.size{LATER}$"):
        declared(check=None, stack_check=findings).validate(args, lambda m, u: None)


def test_a_long_list_of_properties_is_cut_short():
    def check(args: Any, _: Any) -> list[str]:
        for name in sorted(args.props):
            values.get(args.props, name)
        return []

    many = {f"p{n:02}": "<unknown>" for n in range(11)}
    args = SimpleNamespace(get_config=lambda: None, resource_type="t", props=unknown_props(many))
    with pytest.raises(UnknownValueError) as raised:
        declared(check=check).validate(args, lambda m, urn: None)
    shown = ", ".join(f"p{n:02}" for n in range(values.MOST_NAMED))
    assert raised.value.message == f"could not check {shown}, and 3 more{LATER}"
    assert raised.value.paths == sorted(many)


def test_a_check_that_read_nothing_unknown_raises_nothing():
    def check(args: Any, _: Any) -> list[str]:
        return [f"x is {values.get(args.props, 'x')!r}"]

    found: list[tuple[str, str | None]] = []
    args = SimpleNamespace(get_config=lambda: None, resource_type="t", props=unknown_props({"x": 1}))
    declared(check=check).validate(args, lambda m, urn: found.append((m, urn)))
    assert found == [("x is 1", None)]
    args.props = unknown_props({"x": "<unknown>"})
    with pytest.raises(UnknownValueError, match=f"^could not check x{LATER}$"):
        declared(check=check).validate(args, lambda m, urn: found.append((m, urn)))
    assert found[1:] == [("x is UNKNOWN", None)]
