"""Plain YAML scalars resolved as the Pulumi CLI resolves them, not as PyYAML does.

The CLI reads stack files with go-yaml v3 (YAML 1.2 booleans and nulls, with some 1.1
number forms kept), decodes each config value into Go values and hands it to the program
as JSON. PyYAML reads YAML 1.1, so `yes`, `on`, `1:30` or `0777` would validate here as one
thing and reach `pulumi up` as another. This module is the resolver of go-yaml v3.0.1
(`resolve.go`, `resolve()`; github.com/go-yaml/yaml, tag v3.0.1, read 2026-12-01) in Python:

- booleans only `true`/`True`/`TRUE`/`false`/`False`/`FALSE` (so `yes`, `on`, `y`: strings);
- nulls `~`, `null`, `Null`, `NULL` and the empty value;
- integers as Go's `strconv.ParseInt(text, 0, 64)` reads them once `_` is removed, then
  as unsigned, then floats matching go-yaml's float pattern; `1:30` stays a string.

Forms where YAML 1.2's core schema and go-yaml disagree, or that mean a different type in
the program than in the file, are refused with the advice to quote them: legacy octal
(`0777`, 511 to go-yaml, 777 to a 1.2 reader), `_` separators, `0b`/`0o`/`0x` numbers,
unquoted dates (go-yaml turns `2026-02-01` into the timestamp `2026-02-01T00:00:00Z`), and
`.nan`/`.inf` (no JSON number: no config value can hold one).

A float with an integral value reaches the program as an integer (Go's JSON encoder writes
8.0 as `8`), so it is returned as one here too.
"""

from __future__ import annotations

import math
import re
from typing import Any

BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
NULLS = frozenset({"", "~", "null", "Null", "NULL"})
NON_FINITE = frozenset({".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"})
NON_FINITE |= {"-.inf", "-.Inf", "-.INF"}
# go-yaml's yamlStyleFloat.
GO_FLOAT_RE = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
# What Go's ParseInt with base 0 reads (sign, then a base prefix or a decimal).
GO_INT_RE = re.compile(r"^[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$")
# The YAML 1.2 core schema's integers: what every 1.2 reader agrees on.
CORE_INT_RE = re.compile(r"^[-+]?[0-9]+$")
# The first characters go-yaml's resolve table sends to its number/timestamp branch.
NUMBER_START = "+-0123456789."
# go-yaml's timestamp check: four digits and a dash first, then one of its layouts.
TIMESTAMP_RE = re.compile(
    r"^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}"
    r"([Tt][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\.[0-9]+)?(Z|[-+][0-9]{2}:[0-9]{2})"
    r"| [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(\.[0-9]+)?)?$"
)
INT64 = (-(2**63), 2**63 - 1)
UINT64_MAX = 2**64 - 1
# Go's JSON encoder writes floats below this magnitude without an exponent.
JSON_PLAIN_FLOAT = 1e21


class Ambiguous(ValueError):
    """A plain scalar that should be quoted; the message says why."""


def _quote(text: str, why: str) -> Ambiguous:
    return Ambiguous(f"the unquoted value {text!r} {why}; quote it ('{text}')")


def _go_int(text: str) -> int | None:
    """What go-yaml's ParseInt/ParseUint steps make of `text` (underscores removed)."""
    if not GO_INT_RE.fullmatch(text):
        return None
    sign = -1 if text[0] == "-" else 1
    digits = text.lstrip("+-")
    if digits[:2].lower() in ("0x", "0o", "0b"):
        value = int(digits[2:], {"x": 16, "o": 8, "b": 2}[digits[1].lower()])
    elif len(digits) > 1 and digits[0] == "0":
        value = int(digits, 8)
    else:
        value = int(digits)
    value *= sign
    if INT64[0] <= value <= INT64[1]:
        return value
    if text[0] not in "+-" and value <= UINT64_MAX:  # ParseUint takes no sign
        return value
    return None


def _as_json_number(value: float) -> int | float:
    return int(value) if value.is_integer() and abs(value) < JSON_PLAIN_FLOAT else value


def resolve_plain(text: str) -> Any:
    """The value the Pulumi program receives for the plain (unquoted, untagged) scalar
    `text`, or Ambiguous when the file should quote it."""
    if text in NULLS:
        return None
    if text in BOOLS:
        return BOOLS[text]
    if text in NON_FINITE:
        raise Ambiguous(f"the value {text!r} is not a finite number; a config value has no NaN or infinity")
    if not text or text[0] not in NUMBER_START:
        return text
    if text[0] != "." and TIMESTAMP_RE.fullmatch(text):
        raise _quote(text, "is read by Pulumi as a timestamp (it would reach the program as an RFC 3339 time)")
    plain = text.replace("_", "") if text[0] != "." else text
    number = _go_int(plain)
    if number is not None:
        if plain != text:
            raise _quote(text, "has '_' separators, which YAML 1.2 readers do not take in numbers")
        if not CORE_INT_RE.fullmatch(plain):
            raise _quote(text, f"is read by Pulumi as the integer {number} but by YAML 1.2 as something else")
        if len(plain.lstrip("+-")) > 1 and plain.lstrip("+-")[0] == "0":
            raise _quote(text, f"is octal to Pulumi ({number}) and decimal to YAML 1.2 readers")
        return number
    if GO_FLOAT_RE.fullmatch(plain):
        value = float(plain)
        if math.isinf(value):
            return text  # Go's ParseFloat fails out of range: go-yaml keeps the string
        if plain != text:
            raise _quote(text, "has '_' separators, which YAML 1.2 readers do not take in numbers")
        return _as_json_number(value)
    if plain != text and (_go_int(plain) is not None or GO_FLOAT_RE.fullmatch(plain)):
        raise _quote(text, "has '_' separators, which YAML 1.2 readers do not take in numbers")
    return text


def resolve_tagged(tag: str, text: str) -> Any:
    """An explicit `!!int`, `!!float`, `!!bool` or `!!null` scalar: go-yaml resolves the text
    and refuses a value of another type (an int is taken as a float)."""
    value = resolve_plain(text)
    kind = tag.rsplit(":", 1)[-1]
    if kind == "float" and isinstance(value, int) and not isinstance(value, bool):
        return value
    expected = {"int": int, "float": float, "bool": bool, "null": type(None)}[kind]
    if not isinstance(value, expected) or (kind == "int" and isinstance(value, bool)):
        article = "an" if kind == "int" else "a"
        raise Ambiguous(f"the value {text!r} is not {article} {kind}, as its tag !!{kind} says")
    return value
