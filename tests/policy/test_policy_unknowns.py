"""A value a preview does not know yet is never a violation by itself, nor skipped in silence.

A policy that could not decide a property because it is not known yet (the SDK's unknown
sentinel behind its proxy in a real preview, a `${<name>.<property>}` placeholder in a
recorded plan, or None) reports, after its violations, one UnknownValueError naming each
such property; the engine and `preflight policy` show it as an advisory ("can't run ...
during preview: could not check <paths>: ..."). Tested here: that advisory for resource and
stack policies, in both spellings of an unknown, its exact text, what it leaves out (known
values, partly known strings, placeholders read on purpose, reads that decide nothing), and
what the shipped stacks show. The SDK's own server is in tests/policy/test_real_pack.py (the pack
booted and asked over gRPC).

Then each record of the recorded plans gets one property at a time, at every depth, replaced
by None, and every resource policy of the pack that read that property on the record as
recorded is run over it (tests/policy/watch.py: one that did not read it runs the same
whatever it holds): it may find no more than it found on the record as recorded, but for the
advisory naming that property. The stack policies get the same treatment for every top-level
and second-level property."""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pulumi_policy import EnforcementLevel, ResourceValidationPolicy, StackValidationPolicy
from pulumi_policy.proxy import UnknownValueError

from preflight import policy as runner
from preflight.planfile import Graph
from preflight.runtime import Plan
from preflight.stackfile import read_stack_file
from tests.conftest import stack_values
from tests.plans import recorded as shared_recording
from tests.policy.helpers import multicloud, reports
from tests.policy.watch import Reads, Watch

PACK = runner.load_pack()
RESOURCE_POLICIES = [p for p in PACK.ALL_POLICIES if isinstance(p, ResourceValidationPolicy)]
STACK_POLICIES = [p for p in PACK.ALL_POLICIES if isinstance(p, StackValidationPolicy)]
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@functools.cache
def recorded(name: str) -> list[dict[str, Any]]:
    """A stack's plan, recorded in registration order (example, and the golden gpu stack),
    or a hand-made policy fixture (aws, gcp, generic)."""
    if name == "example":
        return shared_recording(name, stack_values(name)).to_json()["resources"]  # type: ignore[no-any-return]
    if name == "gpu":
        values = read_stack_file(FIXTURES / "golden" / "Pulumi.gpu.yaml").config
        return shared_recording(name, values).to_json()["resources"]  # type: ignore[no-any-return]
    resources: list[dict[str, Any]] = json.loads((FIXTURES / "policy" / f"{name}.json").read_text())["resources"]
    return resources


def paths(node: Any, prefix: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    """Every property path of a value: maps and lists themselves, and their leaves."""
    items: list[tuple[str | int, Any]] = []
    if isinstance(node, dict):
        items = list(node.items())
    elif isinstance(node, list):
        items = list(enumerate(node))
    for key, child in items:
        yield (*prefix, key)
        yield from paths(child, (*prefix, key))


def with_none(record: dict[str, Any], path: tuple[str | int, ...]) -> dict[str, Any]:
    """A copy of `record` with None at `path` of its inputs: the maps and lists on the way
    copied, the rest shared (nothing here writes into a record)."""
    inputs = node = copy.copy(record["inputs"])
    for key in path[:-1]:
        node[key] = copy.copy(node[key])
        node = node[key]
    node[path[-1]] = None
    return {**record, "inputs": inputs}


def spelled(path: tuple[str | int, ...]) -> str:
    return "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in path).lstrip(".")


def names(finding: tuple[str, str], path: str) -> bool:
    """Whether `finding` is the advisory of a check that could not decide the value at `path`
    (or at a map or list above it, which the check met first)."""
    _, message = finding
    prefix = "can't run during preview: could not check "
    if not message.startswith(prefix):
        return False
    named = message.removeprefix(prefix).split(": unknown until apply")[0].split(", ")
    return any(path == n or path.startswith((n + ".", n + "[")) for n in named)


def resource_findings(
    record: dict[str, Any], views: runner.Views, policies: list[ResourceValidationPolicy]
) -> dict[str, set[tuple[str, str]]]:
    """What each of `policies` reports for `record` (its views shared by them, as in `preflight policy`)."""
    found: dict[str, set[tuple[str, str]]] = {}
    for policy in policies:
        args = runner.resource_args(record, views.graph, None, views)
        violations = runner.run(
            policy, EnforcementLevel.MANDATORY, functools.partial(policy.validate, args), record["urn"]
        )
        found[policy.name] = {(policy.name, violation.message) for violation in violations}
    return found


@pytest.mark.parametrize("plan", ["example", "gpu", "aws", "gcp", "generic"])
def test_none_where_a_value_was_is_never_a_new_violation(plan: str) -> None:
    """Nothing but the advisory that names the value as not checked. Each record's value is
    changed for the policies that read it as recorded (tests/policy/watch.py: the others run
    the same whatever is there)."""
    records = recorded(plan)  # read only: each change is made on a copy
    graph = Graph(records)
    views = runner.Views(graph)  # each record as recorded, its inputs' proxy built once
    new: list[tuple[str, tuple[str | int, ...], tuple[str, str]]] = []
    checked = unchecked = runs = 0
    read_somewhere: set[str] = set()
    for record in records:
        watch = Watch()
        watch.add(runner.resource_args(record, graph, None, views).props)
        before: set[tuple[str, str]] = set()
        reads: dict[str, Reads] = {}
        for policy in RESOURCE_POLICIES:
            with watch.reading() as reads[policy.name]:
                before |= resource_findings(record, views, [policy])[policy.name]
        watch.stop()
        read_somewhere.update(name for name, read in reads.items() if read)
        # The changed records' views: each one's inputs built once for its readers, the provider's
        # once for them all (each changed record is kept alive meanwhile: a view is found by id).
        changed_views = runner.Views(graph)
        kept: list[dict[str, Any]] = []
        for path in paths(record["inputs"]):
            readers = [policy for policy in RESOURCE_POLICIES if reads[policy.name].sees(path)]
            # Every value is read by one policy at least (the clear-secrets one reads them all):
            # a watch that missed reads would leave values unchecked here, not pass in silence.
            assert readers, f"no policy read {record['name']}.{spelled(path)}: does the watch miss a way of reading?"
            changed = with_none(record, path)
            kept.append(changed)
            for found in resource_findings(changed, changed_views, readers).values():
                for finding in found - before:
                    if names(finding, spelled(path)):
                        unchecked += 1
                    else:
                        new.append((record["name"], path, finding))
            checked += 1
            runs += len(readers)
    assert checked > 50  # every property, at every depth
    assert unchecked > 0  # and some of them are what a policy checks
    assert len(read_somewhere) > 3  # the watch sees reads (a watch that saw none would check nothing)
    assert runs > checked  # values read by more than one policy are checked by each
    assert new == [], "\n".join(map(repr, new))


def stack_findings(
    records: list[dict[str, Any]], policies: list[StackValidationPolicy]
) -> set[tuple[str, str | None, str]]:
    """What `policies` report for the plan."""
    found: set[tuple[str, str | None, str]] = set()
    for policy in policies:
        args = runner.stack_args(records)
        for violation in runner.run(policy, EnforcementLevel.MANDATORY, functools.partial(policy.validate, args), None):
            found.add((policy.name, violation.urn, violation.message))
    return found


def test_none_where_a_value_was_is_never_a_new_stack_violation(monkeypatch: pytest.MonkeyPatch) -> None:
    records = recorded("example")  # read only: each change is made on a copy
    # Each check below changes one record and hands the whole plan to the stack policies: the
    # other records' engine views (props and options) are built once, not once per check.
    unchanged = {id(record) for record in records}
    for name in ("props_of", "options_of"):
        real, built = getattr(runner, name), {}

        def once(record: dict[str, Any], real: Any = real, built: dict[int, Any] = built) -> Any:
            if id(record) not in unchanged:
                return real(record)
            if id(record) not in built:
                built[id(record)] = real(record)
            return built[id(record)]

        monkeypatch.setattr(runner, name, once)
    watch = Watch()
    for index, record in enumerate(records):
        watch.add(runner.props_of(record), (index,))
    before: set[tuple[str, str | None, str]] = set()
    reads: dict[str, Reads] = {}
    for policy in STACK_POLICIES:
        with watch.reading() as reads[policy.name]:
            before |= stack_findings(records, [policy])
    watch.stop()  # the records as recorded, read by every check below: no longer watched
    assert not [f for f in before if f[0] == "registration-order"]  # the chain as recorded is right
    # The watch sees reads (one that saw none would check nothing): registration-order reads
    # each registration's provider, which decides the first one.
    primary = next(i for i, r in enumerate(records) if r["name"] == "default-registration")
    assert reads["registration-order"].sees((primary, "properties", "provider"))
    new = []
    runs = 0
    for index, record in enumerate(records):
        for path in paths(record["inputs"]):
            if len(path) > 2:
                continue
            # Only a policy that read this value can see it change (tests/policy/watch.py).
            readers = [policy for policy in STACK_POLICIES if reads[policy.name].sees((index, *path))]
            if not readers:
                continue
            changed = [*records[:index], with_none(record, path), *records[index + 1 :]]
            where = f"{record['name']}.{spelled(path)}"
            new += [
                (record["name"], path, finding)
                for finding in stack_findings(changed, readers) - before
                if not names((finding[0], finding[2]), where)
            ]
            runs += len(readers)
    assert runs > 50  # the registrations, the pools the budget reads, the buckets, ...
    assert new == [], "\n".join(map(repr, new))


# --- the advisory naming what a policy could not check ---------------------------------------------

POLICIES = {p.name: p for p in PACK.ALL_POLICIES}
LATER = ": unknown until apply; checked again on pulumi up"
ENGINE_UNKNOWN = "<unknown>"  # a plan's spelling of the engine's unknown: the SDK's sentinel behind its proxy


@pytest.fixture(scope="module")
def plan(dev_plan: Plan) -> dict[str, Any]:
    return multicloud(dev_plan)


def named(plan: dict[str, Any], name: str) -> dict[str, Any]:
    return copy.deepcopy(next(r for r in plan["resources"] if r["name"] == name))


def set_at(record: dict[str, Any], path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    node = record["inputs"]
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return record


def resource_run(policy: str, record: dict[str, Any]) -> tuple[list[str], str | None]:
    """The violations `policy` reports for `record` under the SDK's proxy, and the message of
    its UnknownValueError (None: it checked everything)."""
    found, unchecked = reports(POLICIES[policy], runner.resource_args(record))
    return [message for _, message in found], unchecked


def stack_run(policy: str, records: list[dict[str, Any]]) -> tuple[list[tuple[str | None, str]], str | None]:
    return reports(POLICIES[policy], runner.stack_args(records))


@pytest.mark.parametrize("unknown", [ENGINE_UNKNOWN, "${default-region.result}"], ids=["engine", "placeholder"])
def test_a_resource_policy_names_each_property_it_could_not_check(plan, unknown):
    rec = named(plan, "default-registration")
    set_at(rec, ("properties", "region"), unknown)
    set_at(rec, ("properties", "cloudStorageBucketEndpoint"), unknown)
    assert resource_run("registration-properties", rec) == (
        [],
        "could not check properties.cloudStorageBucketEndpoint, properties.region: unknown until apply; "
        "checked again on pulumi up",
    )


def test_the_advisory_is_the_sdks_unknown_value_error(plan):
    """The class the engine turns into its "can't run policy ... during preview" advisory."""
    rec = set_at(named(plan, "default-registration"), ("properties", "region"), ENGINE_UNKNOWN)
    with pytest.raises(UnknownValueError) as raised:
        POLICIES["registration-properties"].validate(runner.resource_args(rec), lambda *_: None)
    assert raised.value.message == f"could not check properties.region{LATER}"


def test_a_known_value_gives_no_advisory(plan):
    rec = named(plan, "default-storage")
    assert resource_run("storage-azure-secure", rec) == ([], None)
    set_at(rec, ("minimumTlsVersion",), ENGINE_UNKNOWN)
    assert resource_run("storage-azure-secure", rec) == ([], f"could not check minimumTlsVersion{LATER}")


def test_the_violations_found_before_the_unknown_are_kept(plan):
    rec = named(plan, "default-storage")
    set_at(rec, ("allowBlobPublicAccess",), True)
    set_at(rec, ("minimumTlsVersion",), ENGINE_UNKNOWN)
    set_at(rec, ("allowSharedKeyAccess",), "${default-policy.shared}")
    violations, unchecked = resource_run("storage-azure-secure", rec)
    assert violations == ["allowBlobPublicAccess is not false: set allow_blob_public_access=False (no anonymous reads)"]
    assert unchecked == f"could not check allowSharedKeyAccess, minimumTlsVersion{LATER}"
    # preflight policy reports both, as the engine does: the violation at its level, then the advisory.
    found = runner.run(
        POLICIES["storage-azure-secure"],
        EnforcementLevel.MANDATORY,
        functools.partial(POLICIES["storage-azure-secure"].validate, runner.resource_args(rec)),
        rec["urn"],
    )
    assert [(v.level, v.message, v.urn) for v in found] == [
        ("mandatory", violations[0], rec["urn"]),
        ("advisory", f"can't run during preview: {unchecked}", rec["urn"]),
    ]


def test_a_partly_known_string_is_checked_by_its_known_parts(plan):
    rec = named(plan, "default-registration")  # its endpoint and bucket hold a placeholder inside
    assert "${" in rec["inputs"]["properties"]["cloudStorageBucketEndpoint"]
    assert resource_run("registration-properties", rec) == ([], None)
    endpoint = rec["inputs"]["properties"]["cloudStorageBucketEndpoint"] + "/"
    set_at(rec, ("properties", "cloudStorageBucketEndpoint"), endpoint)
    violations, unchecked = resource_run("registration-properties", rec)
    assert unchecked is None and len(violations) == 1 and "trailing slash" in violations[0], violations
    set_at(rec, ("properties", "cloudStorageBucketEndpoint"), "${default-storage.primaryEndpoints.blob}")
    assert resource_run("registration-properties", rec) == (
        [],
        f"could not check properties.cloudStorageBucketEndpoint{LATER}",
    )


def test_a_placeholder_read_on_purpose_is_a_check(plan):
    """identity-principal-vs-client reads which output feeds the principal: a placeholder is
    what it checks, not a value it could not check."""
    rec = named(plan, "default-operator-storage")
    assert rec["inputs"]["principalId"] == "${default-operator-identity.principalId}"
    assert resource_run("identity-principal-vs-client", rec) == ([], None)
    set_at(rec, ("principalId",), "${default-operator-identity.clientId}")
    violations, unchecked = resource_run("identity-principal-vs-client", rec)
    assert unchecked is None and len(violations) == 1 and "a client ID" in violations[0]
    # What it could not read at all is named: the operator's settings, not known yet.
    extension = set_at(named(plan, "default-operator-extension"), ("configurationSettings",), ENGINE_UNKNOWN)
    assert resource_run("identity-principal-vs-client", extension) == (
        [],
        f"could not check configurationSettings{LATER}",
    )


def test_an_output_feeding_the_operator_identity_counts_as_set(plan):
    """A value the check needs only to be there: an output feeds it, so it is decided."""
    rec = named(plan, "aws-usw2-registration")
    set_at(rec, ("properties", "anyscaleOperatorIamIdentity"), ENGINE_UNKNOWN)
    assert resource_run("registration-properties", rec) == ([], None)
    generic = set_at(named(plan, "onprem-registration"), ("properties", "anyscaleOperatorIamIdentity"), ENGINE_UNKNOWN)
    # On Generic it must not be there at all: an unknown one may be empty, or set.
    assert resource_run("registration-properties", generic) == (
        [],
        f"could not check properties.anyscaleOperatorIamIdentity{LATER}",
    )


@pytest.mark.parametrize(
    ("name", "key", "where"),
    [
        ("aws-usw2-anyscale-operator", ("values", "global", "controlPlaneURL"), "values.global.controlPlaneURL"),
        (
            "default-operator-extension",
            ("configurationSettings", "global.controlPlaneURL"),
            "configurationSettings.global.controlPlaneURL",
        ),
        ("aws-usw2-anyscale-operator", ("values", "global"), "values.global"),
    ],
)
def test_a_chart_setting_is_named_by_its_property_path(plan, name, key, where):
    rec = named(plan, name)
    assert resource_run("operator-control-plane", rec) == ([], None)
    set_at(rec, key, ENGINE_UNKNOWN)
    assert resource_run("operator-control-plane", rec) == ([], f"could not check {where}{LATER}")


@pytest.mark.parametrize(
    ("path", "unknown"),
    [(("properties", "provider"), ENGINE_UNKNOWN), (("resourceName",), "${default-cloud-resource.name}")],
    ids=["engine", "placeholder"],
)
def test_a_stack_policy_names_the_resource_and_its_property(plan, path, unknown):
    records = copy.deepcopy(plan["resources"])
    assert stack_run("registration-order", records) == ([], None)
    set_at(next(r for r in records if r["name"] == "default-registration"), path, unknown)
    where = "default-registration." + ".".join(str(key) for key in path)
    assert stack_run("registration-order", records) == ([], f"could not check {where}{LATER}")


def test_a_stack_policy_keeps_its_findings_next_to_the_advisory(plan):
    records = copy.deepcopy(plan["resources"])
    first = next(r for r in records if r["name"] == "default-registration")
    second = next(r for r in records if r["name"] == "aws-usw2-registration")
    set_at(first, ("properties", "provider"), ENGINE_UNKNOWN)
    second["dependsOn"] = []
    found, unchecked = stack_run("registration-order", records)
    assert found == [
        (
            second["urn"],
            "registration 'aws-usw2' does not depend on 'default', the registration before it: the platform creates "
            "cloud resources one at a time; pass the previous registration in depends_on",
        )
    ]
    assert unchecked == f"could not check default-registration.properties.provider{LATER}"


def test_a_name_only_in_a_message_is_not_named(plan):
    """registration-order words its finding with the registration's name: not knowing it decides nothing."""
    records = copy.deepcopy(plan["resources"])
    second = next(r for r in records if r["name"] == "aws-usw2-registration")
    second["dependsOn"] = []
    found, unchecked = stack_run("registration-order", records)
    assert unchecked is None and len(found) == 1
    set_at(second, ("resourceName",), ENGINE_UNKNOWN)  # read for the message, and for duplicates
    found, unchecked = stack_run("registration-order", records)
    assert [urn for urn, _ in found] == [second["urn"]]
    assert "registration 'aws-usw2-registration' does not depend on 'default'" in found[0][1]
    assert unchecked == f"could not check aws-usw2-registration.resourceName{LATER}"  # the duplicates check


def advisories(plan: dict[str, Any]) -> list[tuple[str | None, str, str]]:
    """(resource name, None for a stack policy's; policy; what it could not check) of each advisory."""
    return sorted(
        (
            (v.name, v.policy, v.message.removeprefix("can't run during preview: could not check ").removesuffix(LATER))
            for v in runner.check_plan(plan)
            if v.message.startswith("can't run during preview")
        ),
        key=lambda found: (found[0] or "", found[1], found[2]),
    )


def test_the_dev_stack_names_what_it_could_not_check(dev_plan):
    """Every one a rule that could not be decided: a role assignment's scope is another resource's ID."""
    assert advisories(dev_plan.to_json()) == [
        ("default-kubelet-acrpull", "identity-role-assignments", "scope"),
        ("default-operator-acrpush", "identity-role-assignments", "scope"),
        ("default-operator-acrtasks", "identity-role-assignments", "scope"),
        ("default-operator-storage", "identity-role-assignments", "scope"),
        ("default-workload-storage", "identity-role-assignments", "scope"),  # the container's ID
    ]


def test_the_example_stack_names_what_it_could_not_check(example_plan):
    assert advisories(example_plan.to_json()) == [
        ("default-kubelet-acrpull", "identity-role-assignments", "scope"),
        ("default-operator-acrpush", "identity-role-assignments", "scope"),
        ("default-operator-acrtasks", "identity-role-assignments", "scope"),
        ("default-operator-storage", "identity-role-assignments", "scope"),
        ("default-workload-storage", "identity-role-assignments", "scope"),  # the container's ID
        ("gcp-usc1-gke", "gke-default-network", "network"),
        # The default pool runs as the nodes' account, another resource's output.
        ("gcp-usc1-gke", "gke-node-service-account", "nodeConfig.serviceAccount"),
        ("gcp-usc1-pool-cpu", "gke-node-service-account", "nodeConfig.serviceAccount"),
        ("gcp-usc1-pool-cpuspot", "gke-node-service-account", "nodeConfig.serviceAccount"),
        ("gcp-usc1-pool-system", "gke-node-service-account", "nodeConfig.serviceAccount"),
    ]


@pytest.mark.parametrize(
    ("stack", "expected"),
    [
        ("dev", {"identity-role-assignments": 5, "registration-properties": 1}),
        (
            "example",
            {
                "gke-default-network": 1,
                "gke-node-service-account": 4,
                "identity-aws-policies": 2,
                "identity-aws-trust": 4,
                "identity-role-assignments": 5,
                "registration-properties": 3,
                "storage-gcs-secure": 3,
                "storage-s3-secure": 1,
                "storage-s3-tls-only": 1,
            },
        ),
    ],
)
def test_a_first_preview_names_the_outputs_of_new_resources(stack, expected):
    """Every output of a resource not created yet is unknown (docs/reviewing.md gives the counts)."""
    first = shared_recording(stack, stack_values(stack), first_preview=True).to_json()
    found: dict[str, int] = {}
    for _, policy, _ in advisories(first):
        found[policy] = found.get(policy, 0) + 1
    assert found == expected
    assert sum(found.values()) == {"dev": 6, "example": 24}[stack]


def test_preflight_policy_prints_the_advisory(dev_plan):
    plan = dev_plan.to_json()
    text = runner.render(runner.check_plan(plan), plan)
    assert (
        "default-kubelet-acrpull (azure-native:authorization:RoleAssignment)\n"
        "  [advisory] identity-role-assignments: can't run during preview: could not check scope: unknown until "
        "apply; checked again on pulumi up\n"
    ) in text
    assert text.endswith("0 mandatory, 7 advisory violation(s) in 6 resource(s) of 41 (dev)")
