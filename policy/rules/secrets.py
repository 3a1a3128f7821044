"""Credentials in clear in a plan: a kubeconfig, a token or a key that is not a Pulumi secret
ends up readable in the state file and in every preview.

A recorded plan shows a secret as "[secret]", so anything else under a credential's key,
or any string shaped like a kubeconfig or a JWT, is in clear. Offline only: the engine
hands a policy secret inputs as plain values, so a real preview cannot tell them apart.
"""

from __future__ import annotations

import re
from typing import Any

from rules.values import is_list, is_map, is_unknown, keys, raw

REDACTED = "[secret]"
# The last segment of a key (dotted chart keys included), lowercased, ending in one of these.
CREDENTIAL_KEYS = ("kubeconfig", "token", "password", "clientsecret", "secretaccesskey", "keyjsonb64", "privatekey")
KUBECONFIG_RE = re.compile(r"""["']?apiVersion["']?\s*:\s*["']?v1\b.*["']?kind["']?\s*:\s*["']?Config\b""", re.S)
KUBECONFIG_RE_REVERSED = re.compile(
    r"""["']?kind["']?\s*:\s*["']?Config\b.*["']?apiVersion["']?\s*:\s*["']?v1\b""", re.S
)
JWT_RE = re.compile(r"\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*")


def clear_secret_problems(props: Any) -> list[str]:
    problems = []
    for path, value in _strings(props, ""):
        if value == REDACTED or is_unknown(value) or not value.strip():
            continue
        what = _shape(value)
        leaf = path.rsplit(".", 1)[-1].lower()
        if what is None and leaf.endswith(CREDENTIAL_KEYS):
            what = "a credential"
        if what is not None:
            problems.append(
                f"{path or 'a value'} holds {what} in clear: it would be stored readable in the state and shown in every "
                "preview; pass it as a Pulumi secret (pulumi.Output.secret, or `{secure: ...}` in the stack)"
            )
    return problems


def _shape(value: str) -> str | None:
    if KUBECONFIG_RE.search(value) or KUBECONFIG_RE_REVERSED.search(value):
        return "a kubeconfig"
    if JWT_RE.search(value):
        return "a token (JWT)"
    return None


def _strings(node: Any, path: str) -> list[tuple[str, str]]:
    """(dotted path, string) of every string under `node`."""
    if isinstance(node, str):
        return [(path, node)]
    found: list[tuple[str, str]] = []
    if is_map(node):
        for key in keys(node):
            found += _strings(raw(node, key), f"{path}.{key}" if path else str(key))
    elif is_list(node):
        for index in range(len(node)):
            found += _strings(raw(node, index), f"{path}[{index}]")
    return found
