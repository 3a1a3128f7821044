"""Credentials in clear in a plan: a kubeconfig, a token or a key that is not a Pulumi secret
ends up readable in the state file and in every preview.

A recorded plan shows a secret as "[secret]", so anything else under a credential's key,
or any string shaped like a kubeconfig or a JWT, is in clear. Offline only: the engine
hands a policy secret inputs as plain values, so a real preview cannot tell them apart.
"""

from __future__ import annotations

import re
from typing import Any

from rules.values import is_list, is_map, is_unknown, keys, raw, unchecked

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
    for path, value, node, key in _values(props, ""):
        leaf = path.rsplit(".", 1)[-1].lower()
        if is_unknown(value):
            if leaf.endswith(CREDENTIAL_KEYS):
                unchecked(node, key)  # a credential not known yet: whether it is a secret cannot be told
            continue
        if not isinstance(value, str) or value == REDACTED or not value.strip():
            continue
        what = _shape(value)
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


def _values(node: Any, path: str) -> list[tuple[str, Any, Any, str | int]]:
    """(dotted path, value, the map or list holding it, its key there) of every string and
    every unknown value under `node`."""
    found: list[tuple[str, Any, Any, str | int]] = []
    children: list[tuple[str | int, str]] = []
    if is_map(node):
        children = [(key, f"{path}.{key}" if path else str(key)) for key in keys(node)]
    elif is_list(node):
        children = [(index, f"{path}[{index}]") for index in range(len(node))]
    for key, where in children:
        value = raw(node, key)
        if isinstance(value, str) or is_unknown(value):
            found.append((where, value, node, key))
        else:
            found += _values(value, where)
    return found
