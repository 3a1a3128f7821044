"""Checks on the raw stack config, before the models see it.

Three rules hold for every value whatever its place, so they are checked once over the
whole document instead of in each field: no non-finite number, no control characters (a name ending in a
newline would reach an immutable registration; escape sequences would reach a reviewer's
terminal), and `{secure: ...}` only where a secret belongs (a secret in a tag or a name
would be stored and shown in clear)."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterator
from typing import Any

# The config keys that hold secrets (GenericResource: kubeconfig, cliToken; its
# storage.credentials keys). A kubeconfig is multi-line text, so these are also the only
# values where control characters may be.
SECRET_KEYS = frozenset({"kubeconfig", "cliToken"})
CREDENTIAL_KEYS = frozenset({"accessKeyId", "secretAccessKey"})
# Under a resource's `addons.anyscaleOperator.values`, any value may be a secret (a chart
# value such as an image pull token); everything else there is checked as usual.
OPERATOR_VALUES = (("addons", "anyscaleOperator", "values"), ("addons", "anyscale_operator", "values"))


def is_secret_key(loc: tuple[Any, ...]) -> bool:
    """A config location that holds a secret as a whole (never inspected)."""
    if loc and loc[-1] in SECRET_KEYS:
        return True
    return (
        len(loc) == 5 and loc[0] == "resources" and loc[2:4] == ("storage", "credentials") and loc[4] in CREDENTIAL_KEYS
    )


def may_be_secret(loc: tuple[Any, ...]) -> bool:
    """A location where a `{secure: ...}` value is accepted."""
    return is_secret_key(loc) or (len(loc) > 5 and loc[0] == "resources" and tuple(loc[2:5]) in OPERATOR_VALUES)


def is_secure(value: Any) -> bool:
    """`{secure: <ciphertext>}`: how Pulumi stack files hold an encrypted value."""
    return isinstance(value, dict) and set(value) == {"secure"}


def control_character(text: str) -> str | None:
    """The first control or format character in `text` (escaped for a message), if any."""
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp"):
            return f"U+{ord(char):04X}"
    return None


def printable(text: str) -> str:
    """`text` with every control or format character escaped (`\\n`, `\\x1b`, `\\u202e`):
    what a terminal, a log or a PR comment shows of a value from a hostile file."""
    # isprintable() is False for every C* and Z* character but the space: a fast pass for
    # the common case (a superset of what is escaped, so it skips nothing).
    if text.isprintable() or not any(unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") for char in text):
        return text
    return "".join(
        char.encode("unicode_escape").decode("ascii")
        if unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp")
        else char
        for char in text
    )


def clear_secrets(value: Any, loc: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Each location where a secret belongs but the stack file holds a plain value. Only a
    stack file tells (the engine hands the program every secret decrypted), so only
    `preflight validate` can warn; the value itself is never inspected or shown."""
    if is_secret_key(loc):
        if not is_secure(value) and value is not None:
            yield loc
        return
    if isinstance(value, dict):
        for child_key, child in value.items():
            yield from clear_secrets(child, (*loc, child_key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from clear_secrets(child, (*loc, index))


def raw_problems(value: Any, loc: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    """(location, message) for every value that breaks the two document-wide rules."""
    if is_secret_key(loc) or (is_secure(value) and may_be_secret(loc)):
        return  # a secret is opaque: never inspected, never echoed
    if is_secure(value):
        yield (
            loc,
            (
                "a secret ({secure: ...}) is not accepted here: only kubeconfig, cliToken, storage.credentials keys "
                "and addons.anyscaleOperator.values are secrets; set this value in clear"
            ),
        )
    elif isinstance(value, dict):
        for child_key, child in value.items():
            if isinstance(child_key, str) and control_character(child_key):
                yield (
                    (*loc, child_key),
                    f"the key contains the control or format character {control_character(child_key)}; remove it",
                )
                continue
            yield from raw_problems(child, (*loc, child_key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from raw_problems(child, (*loc, index))
    elif isinstance(value, str) and control_character(value):
        yield loc, f"contains the control or format character {control_character(value)}; remove it"
    elif isinstance(value, float) and not math.isfinite(value):
        # No JSON number holds one (the engine's config is JSON), and NaN never equals itself.
        yield loc, "is not a finite number; a config value has no NaN or infinity"
