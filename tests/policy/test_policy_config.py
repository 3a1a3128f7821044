"""`preflight policy --config FILE`: the policy config is checked against the pack before
any plan is read. A value of the wrong type, an unknown setting or policy name, a level
that is none: exit 2 and one printable line naming the policy and the setting. No file
makes it print a traceback; a config it accepts never makes a check fail."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from preflight import policy as runner
from preflight.escape import printable
from tests.text import text

ROOT = Path(__file__).resolve().parents[2]
PLAN = ROOT / "tests" / "fixtures" / "golden" / "plan-dev.json"
PACK = runner.load_pack()
SCHEMAS = {p.name: dict(p.config_schema.properties) if p.config_schema else {} for p in PACK.ALL_POLICIES}


def problems(config: Any) -> list[str]:
    return runner.config_problems(config, PACK.ALL_POLICIES)


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str) -> tuple[int, str, str]:
    path = tmp_path / "config.json"
    path.write_text(content, encoding="utf-8")
    code = runner.main(["--plan", str(PLAN), "--config", str(path)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# (config, fragments of the one error line)
REFUSED = [
    (
        {"aks-sku-tier": {"disallowedTiers": 5}},
        ["policy aks-sku-tier, setting disallowedTiers: must be an array, got 5"],
    ),
    (
        {"aks-sku-tier": {"disallowedTiers": ["Gold"]}},
        ["policy aks-sku-tier, setting disallowedTiers[0]: must be one of", '"Free"', 'got "Gold"'],
    ),
    (
        {"aks-sku-tier": {"disallowedTier": ["Free"]}},
        ['policy aks-sku-tier has no setting "disallowedTier"', "mean disallowedTiers"],
    ),
    ({"cors-origins": {"origins": []}}, ['policy cors-origins has no setting "origins"', "extraOrigins"]),
    ({"aks-rbac": {"enabled": True}}, ['policy aks-rbac has no settings (only enforcementLevel), not "enabled"']),
    ({"aks-sku-teir": "advisory"}, ['no policy "aks-sku-teir" in the pack', "mean aks-sku-tier"]),
    ({"no-such-policy": {}}, ['no policy "no-such-policy" in the pack']),
    ({"aks-sku-tier": "strict"}, ['policy aks-sku-tier: "strict" is not an enforcement level', "advisory, mandatory"]),
    ({"aks-sku-tier": {"enforcementLevel": 3}}, ["policy aks-sku-tier: enforcementLevel must be one of", "got 3"]),
    (
        {"aks-sku-tier": None},
        ["policy aks-sku-tier: must be an enforcement level", "or an object of settings, got null"],
    ),
    (
        {"all": {"enforcementLevel": "advisory", "origin": "x"}},
        ['all sets every policy\'s enforcementLevel and has no setting "origin"'],
    ),
    ({"all": "off"}, ['policy all: "off" is not an enforcement level']),
    (
        {"identity-role-assignments": {"forbiddenRoles": {"8e3af657-a8ff-443c-a75c-2fe8c4bcb635": 5}}},
        [
            'policy identity-role-assignments, setting forbiddenRoles["8e3af657-a8ff-443c-a75c-2fe8c4bcb635"]: '
            "must be a string, got 5"
        ],
    ),
    # Role names where role definition GUIDs belong: the map replaces the defaults and could
    # never match an assignment's roleDefinitionId, so it would forbid nothing.
    (
        # A GUID with a trailing newline would match no roleDefinitionId either.
        {"identity-role-assignments": {"forbiddenRoles": {"8e3af657-a8ff-443c-a75c-2fe8c4bcb635\n": "Owner"}}},
        ["setting forbiddenRoles: the key", "is not a role definition GUID"],
    ),
    (
        {"identity-role-assignments": {"forbiddenRoles": {"Owner": "Owner"}}},
        [
            'policy identity-role-assignments, setting forbiddenRoles: the key "Owner" is not a role definition '
            "GUID (e.g. 8e3af657-a8ff-443c-a75c-2fe8c4bcb635 for Owner)"
        ],
    ),
    ({"console-cors": {"origin": ["https://x"]}}, ["policy console-cors, setting origin: must be a string"]),
    ({"operator-control-plane": {"controlPlaneUrl": None}}, ["setting controlPlaneUrl: must be a string, got null"]),
    ({"storage-azure-secure": {"minimumTlsVersions": ["TLS1_1"]}}, ["setting minimumTlsVersions[0]: must be one of"]),
    # Two problems: the first, and how many more.
    ({"aks-sku-tier": {"disallowedTiers": 5}, "nope": "advisory"}, ["setting disallowedTiers", "(and 1 more)"]),
]


@pytest.mark.parametrize(("config", "fragments"), REFUSED, ids=[json.dumps(c)[:60] for c, _ in REFUSED])
def test_a_wrong_config_is_one_line_and_exit_2(tmp_path, capsys, config, fragments):
    code, out, err = run(tmp_path, capsys, json.dumps(config))
    assert code == 2 and out == ""
    (line,) = err.splitlines()
    assert line.startswith(f"error: {tmp_path / 'config.json'}: "), line
    for fragment in fragments:
        assert fragment in line, line


# Files that are no config at all: still one line, exit 2.
UNREADABLE = [
    ("nope", "is not valid JSON"),
    ("[1, 2]", "a policy config is a JSON object of policy names, got [1, 2]"),
    ('"advisory"', "a policy config is a JSON object"),
    ("[" * 100_000, "nested deeper than"),
    ('{"aks-sku-tier": {"disallowedTiers": ' + "9" * 5000 + "}}", "is not valid JSON"),
    ('{"aks-sku-tier": {"disallowedTiers": ' + "9" * 4000 + "}}", "must be an array, got 999"),
    ('{"aks-sku-tier": {"disallowedTiers": [1e999]}}', "disallowedTiers[0]: a number out of range (Infinity)"),
    ('{"aks-sku-tier": {"disallowedTiers": NaN}}', "a number out of range (NaN)"),
    ('{"aks-sku-tier": "advisory", "aks-sku-tier": "mandatory"}', "duplicate key"),
    ('{"\\u001b[31mred": "advisory"}', 'no policy "\\u001b[31mred"'),
    ('{"console-cors": {"origin": 7, "\\u202eevil": 1}}', "\\u202eevil"),
]


@pytest.mark.parametrize(("content", "fragment"), UNREADABLE, ids=[c[:30] for c, _ in UNREADABLE])
def test_no_config_file_makes_a_traceback(tmp_path, capsys, content, fragment):
    code, out, err = run(tmp_path, capsys, content)
    assert code == 2 and out == ""
    (line,) = err.splitlines()
    assert line.startswith("error: ") and fragment in line, line
    assert printable(line) == line and len(line) < 400, line


def test_the_config_is_checked_before_the_stack_is_recorded(tmp_path, capsys):
    (tmp_path / "config.json").write_text('{"aks-sku-tier": {"disallowedTiers": 5}}')
    assert runner.main(["--stack", "no-such-stack", "--config", str(tmp_path / "config.json")]) == 2
    assert "setting disallowedTiers" in capsys.readouterr().err


def test_an_empty_file_is_no_config_as_for_the_engine(tmp_path, capsys):
    code, _, err = run(tmp_path, capsys, "  \n")
    assert code == 0 and err == ""


def every_default() -> dict[str, Any]:
    return {name: {k: spec["default"] for k, spec in schema.items()} for name, schema in SCHEMAS.items() if schema}


@pytest.mark.parametrize("level", list(runner.LEVELS))
def test_every_level_and_every_default_is_a_valid_config(level):
    assert problems({"all": level}) == []
    assert problems(dict.fromkeys(SCHEMAS, level)) == []
    assert problems({name: {"enforcementLevel": level} for name in SCHEMAS}) == []
    assert problems(every_default()) == []


def test_check_plan_refuses_a_wrong_config_too(dev_plan):
    with pytest.raises(runner.ConfigError, match=r"policy config: policy aks-sku-tier, setting disallowedTiers"):
        runner.check_plan(dev_plan.to_json(), {"aks-sku-tier": {"disallowedTiers": 5}})


# --- any config: one line or none, never a traceback; what is accepted runs -------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text(max_size=8), inner, max_size=3),
    max_leaves=12,
)
settings_of = st.sampled_from(sorted({s for schema in SCHEMAS.values() for s in schema} | {"enforcementLevel", "x"}))
entries = st.one_of(
    st.sampled_from([*runner.LEVELS, "strict", ""]),
    st.dictionaries(settings_of, json_values | st.sampled_from([["Free"], [], "https://console.azure.anyscale.com"])),
    json_values,
)
configs = st.dictionaries(st.sampled_from([*SCHEMAS, "all", "aks-sku-teir"]), entries, max_size=3) | json_values
SMALL_PLAN = json.loads((ROOT / "tests" / "fixtures" / "policy" / "aws.json").read_text())


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(configs)
def test_any_config_is_refused_in_one_line_or_runs(config):
    try:
        runner.check_config(config, "config.json")
    except runner.ConfigError as error:
        line = str(error)
        assert "\n" not in line and printable(line) == line and line.startswith("config.json: ")
        return
    # Accepted: every check gets settings of its schema's types, and none fails on them.
    for violation in runner.check_plan({"resources": SMALL_PLAN["resources"]}, config):
        assert violation.level in runner.LEVELS


def test_non_finite_numbers_are_found_at_any_depth():
    found = list(runner.non_finite({"a": [1.0, {"b": math.inf}], "c": math.nan}))
    assert [path for path, _ in found] == [("a", 1, "b"), ("c",)]
