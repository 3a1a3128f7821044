"""Stack files read as the Pulumi CLI reads them (go-yaml v3: YAML 1.2 booleans and nulls,
its number forms), with the forms two readers disagree on refused, and strict types in the
spec (no boolean as a number, no string as a boolean, no non-finite number)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from preflight import inputs
from tests.cli import preflight_in_process
from tests.example_spec import example_cloud, example_resources, problems

ROOT = Path(__file__).resolve().parents[2]


def load(text: str) -> Any:
    return inputs.load_yaml(text, "Pulumi.x.yaml")


@pytest.mark.parametrize(
    ("scalar", "value"),
    [
        # YAML 1.1 booleans are strings to go-yaml v3 (and to YAML 1.2).
        ("yes", "yes"),
        ("No", "No"),
        ("on", "on"),
        ("OFF", "OFF"),
        ("y", "y"),
        ("n", "n"),
        # 1.2 booleans, in the three spellings go-yaml takes; others are strings.
        ("true", True),
        ("True", True),
        ("FALSE", False),
        ("tRUE", "tRUE"),
        # Sexagesimal numbers are 1.1 only.
        ("1:30", "1:30"),
        ("190:20:30", "190:20:30"),
        # Nulls.
        ("~", None),
        ("null", None),
        ("NULL", None),
        ("", None),
        # Numbers: floats with an integral value reach the program as integers (Go's JSON).
        ("12", 12),
        ("-7", -7),
        ("+3", 3),
        ("8.0", 8),
        ("1e3", 1000),
        ("0.5", 0.5),
        (".5", 0.5),
        ("0", 0),
        ("2026-02-01-preview", "2026-02-01-preview"),
        ("1e999", "1e999"),  # out of float range: go-yaml keeps the string
    ],
)
def test_plain_scalars_resolve_as_go_yaml_v3(scalar: str, value: Any) -> None:
    result = load(f"a: {scalar}\n")["a"]
    assert result == value
    # A number keeps its spelling for messages (preflight/inputs.py YamlInt, YamlFloat): the
    # plain type underneath.
    base = type(result).__mro__[1] if hasattr(result, "yaml_text") else type(result)
    assert base is type(value)
    assert getattr(result, "yaml_text", scalar) == scalar


@pytest.mark.parametrize(
    ("scalar", "why"),
    [
        ("0777", "is octal to Pulumi (511) and decimal to YAML 1.2 readers"),
        ("-012", "is octal to Pulumi (-10) and decimal to YAML 1.2 readers"),
        ("1_000", "has '_' separators, which YAML 1.2 readers do not take in numbers"),
        ("1_0.5", "has '_' separators, which YAML 1.2 readers do not take in numbers"),
        ("0b101", "is read by Pulumi as the integer 5 but by YAML 1.2 as something else"),
        ("0o17", "is read by Pulumi as the integer 15 but by YAML 1.2 as something else"),
        ("0x1F", "is read by Pulumi as the integer 31 but by YAML 1.2 as something else"),
        ("2026-02-01", "is read by Pulumi as a timestamp (it would reach the program as an RFC 3339 time)"),
        ("2026-02-01T10:00:00Z", "is read by Pulumi as a timestamp (it would reach the program as an RFC 3339 time)"),
    ],
)
def test_forms_readers_disagree_on_are_refused(scalar: str, why: str) -> None:
    message = f"Pulumi.x.yaml: line 1, column 4: the unquoted value '{scalar}' {why}; quote it ('{scalar}')"
    with pytest.raises(inputs.InputError, match=f"^{re.escape(message)}$"):
        load(f"a: {scalar}\n")
    assert load(f"a: '{scalar}'\n") == {"a": scalar}  # quoted, it is the string


@pytest.mark.parametrize("scalar", [".nan", ".NaN", ".inf", "-.Inf", "+.INF"])
def test_non_finite_numbers_are_refused(scalar: str) -> None:
    message = f"Pulumi.x.yaml: line 2, column 5: the value '{scalar}' is not a finite number"
    with pytest.raises(inputs.InputError, match=re.escape(message)):
        load(f"a:\n  - {scalar}\n")


def test_explicit_tags_resolve_and_must_fit() -> None:
    assert load("a: !!int '12'\n") == {"a": 12}
    assert load("a: !!float 3\n") == {"a": 3}
    with pytest.raises(inputs.InputError, match=re.escape("the value 'yes' is not a bool, as its tag !!bool says")):
        load("a: !!bool yes\n")


def test_the_old_guards_still_hold() -> None:
    with pytest.raises(inputs.InputError, match="duplicate key 'a' at line 2"):
        load("a: 1\na: 2\n")
    with pytest.raises(inputs.InputError, match="nested deeper than 64 levels"):
        load("a: " + "[" * 70 + "]" * 70 + "\n")
    with pytest.raises(inputs.InputError, match="expands to more than"):
        load("a: &a [" + ",".join(["x"] * 1000) + "]\nb: [" + ",".join(["*a"] * 300) + "]\n")
    assert load("base: &b {x: 1}\nmerged:\n  <<: *b\n  y: 2\n") == {"base": {"x": 1}, "merged": {"x": 1, "y": 2}}


# --- strict types in the spec ----------------------------------------------------------------


def test_a_boolean_is_not_a_count() -> None:
    resources = example_resources()
    resources[0]["cluster"]["nodePools"][0]["minCount"] = True
    found = problems(resources)
    assert found == ["resources[0].cluster.nodePools[0].minCount (default): Input should be a valid integer"]


def test_a_string_is_not_a_boolean() -> None:
    cloud = example_cloud()
    cloud["protect"] = "yes"
    assert problems(example_resources(), cloud) == ["cloud.protect: Input should be a valid boolean"]


def test_a_float_is_not_a_count() -> None:
    resources = example_resources()
    resources[0]["cluster"]["nodePools"][0]["minCount"] = 1.5
    assert problems(resources) == [
        "resources[0].cluster.nodePools[0].minCount (default): Input should be a valid integer"
    ]


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_non_finite_numbers_are_refused_in_the_spec(value: float) -> None:
    cloud = example_cloud()
    cloud["tags"] = {"cost": value}
    assert problems(example_resources(), cloud) == [
        "cloud.tags.cost: is not a finite number; a config value has no NaN or infinity"
    ]


def test_validate_refuses_an_ambiguous_value_with_one_line(tmp_path: Path) -> None:
    stack = tmp_path / "Pulumi.x.yaml"
    text = (ROOT / "stacks" / "Pulumi.dev.yaml").read_text().replace("protect: false", "protect: off")
    stack.write_text(text)
    run = preflight_in_process("validate", str(stack))
    assert run.returncode == 1
    assert run.stdout == "cloud.protect: Input should be a valid boolean\n"


# --- properties: YAML 1.1 forms against the 1.2 reading -----------------------------------------

ONE_ONE_BOOLS = ["y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF"]


@given(st.sampled_from(ONE_ONE_BOOLS))
def test_every_yaml_1_1_boolean_is_a_string(word: str) -> None:
    assert load(f"a: {word}\n") == {"a": word}


@given(st.integers(0, 59), st.integers(0, 59), st.integers(1, 999))
def test_sexagesimal_forms_are_strings(seconds: int, minutes: int, hours: int) -> None:
    text = f"{hours}:{minutes:02d}:{seconds:02d}"
    assert load(f"a: {text}\n") == {"a": text}


@given(st.integers(-(2**63), 2**63 - 1))
def test_decimal_integers_read_as_themselves(number: int) -> None:
    assert load(f"a: {number}\n") == {"a": number}


@given(st.integers(8, 10**6).map(lambda n: "0" + format(n, "o")))
def test_legacy_octal_is_always_refused(text: str) -> None:
    with pytest.raises(inputs.InputError, match="is octal to Pulumi"):
        load(f"a: {text}\n")


@given(st.floats(allow_nan=False, allow_infinity=False, width=64).filter(lambda f: not f.is_integer()))
def test_finite_floats_read_as_themselves(number: float) -> None:
    assert load(f"a: {number!r}\n") == {"a": number}
