"""Hints for the typical stack-file slips, for config/load.py's messages: what YAML read
where another type was meant (and how to write it), and the allowed key nearest a misspelt
one, found by walking the stack models along the error's location."""

from __future__ import annotations

import difflib
import types
import typing
from typing import Any

from pydantic import BaseModel, Tag

from config.stack import StackSpec
from policy.rules.platform import PROVIDERS

_TAGS = set(PROVIDERS)


def yaml_reading(kind: str, value: Any) -> str | None:
    """The typical YAML slip behind a type error, said as what YAML read and how to write it:
    an unquoted `1.30` is the number 1.3 where text is expected; a quoted "true" is text where
    a boolean is. A number read from a stack file by preflight keeps its spelling (`yaml_text`,
    preflight/inputs.py); from the Pulumi CLI's JSON it has none."""
    if kind == "string_type" and isinstance(value, bool):
        word = "true" if value else "false"
        return f'YAML read {word} as a boolean, not text: write it quoted: "{word}"'
    if kind == "string_type" and isinstance(value, int | float):
        text = getattr(value, "yaml_text", None)
        if isinstance(text, str):
            return f'YAML read {text} as the number {value!r}, not text: write it quoted: "{text}"'
        return (
            f"YAML read the number {value!r} where text is expected: write it quoted, as you mean it "
            '(an unquoted 1.30 is the number 1.3: write "1.30")'
        )
    if kind == "bool_type" and isinstance(value, str) and value.lower() in ("true", "false"):
        return f"YAML read {value!r} as text (it is quoted), not a boolean: write it unquoted: {value.lower()}"
    if kind in ("int_type", "float_type") and isinstance(value, str):
        try:
            number = int(value) if kind == "int_type" else float(value)
        except ValueError:
            return None
        return f"YAML read {value!r} as text (it is quoted), not a number: write it unquoted: {number}"
    return None


def nearest_key(loc: list[Any]) -> str | None:
    """The allowed key nearest a misspelt one (`nodePols` -> `nodePools`), or None."""
    if not loc or not isinstance(loc[-1], str):
        return None
    allowed = _keys_at(loc[:-1])
    key = loc[-1]
    same_letters = [k for k in allowed if k.lower() == key.lower()]
    if same_letters:
        return same_letters[0]
    close = difflib.get_close_matches(key, sorted(allowed), n=1, cutoff=0.7)
    return close[0] if close else None


def _expand(annotation: Any, tag: str | None = None) -> list[tuple[str | None, Any]]:
    """The types behind an annotation, each with its union tag: Annotated and unions opened."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        inner, *metadata = typing.get_args(annotation)
        found = next((m.tag for m in metadata if isinstance(m, Tag)), tag)
        return _expand(inner, found)
    if origin is typing.Union or origin is types.UnionType:
        return [t for arg in typing.get_args(annotation) for t in _expand(arg, tag)]
    return [(tag, annotation)]


def _keys_at(loc: list[Any]) -> set[str]:
    """The keys the stack file may write at `loc` (a pydantic error location), from the models."""
    candidates = _expand(StackSpec)
    for part in loc:
        if isinstance(part, str) and part in _TAGS and any(tag for tag, _ in candidates):
            candidates = [(tag, t) for tag, t in candidates if tag == part]
            continue
        following: list[tuple[str | None, Any]] = []
        for _, kind in candidates:
            args = typing.get_args(kind)
            if isinstance(part, int) and typing.get_origin(kind) in (list, tuple) and args:
                following += _expand(args[0])
            elif isinstance(part, str) and typing.get_origin(kind) is dict and len(args) == 2:
                following += _expand(args[1])
            elif isinstance(part, str) and isinstance(kind, type) and issubclass(kind, BaseModel):
                for name, field in kind.model_fields.items():
                    if part in (name, field.alias):
                        following += _expand(field.annotation)
        candidates = following
    keys: set[str] = set()
    for _, kind in candidates:
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            keys |= {field.alias or name for name, field in kind.model_fields.items()}
    return keys
