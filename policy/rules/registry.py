"""The Azure Container Registry: images are pulled with the kubelet's identity (AcrPull)
and pushed with the operator's (AcrPush), never with a shared password or anonymously
(platform.md 3)."""

from __future__ import annotations

from typing import Any

from rules.values import get


def registry_problems(props: Any) -> list[str]:
    """The API's defaults are off for both: only an explicit true is a hole."""
    problems = []
    if get(props, "adminUserEnabled") is True:
        problems.append(
            "adminUserEnabled is true: the admin user's password pushes and pulls every image and cannot be scoped; "
            "set admin_user_enabled=False (the kubelet pulls with AcrPull, the operator pushes with AcrPush)"
        )
    if get(props, "anonymousPullEnabled") is True:
        problems.append(
            "anonymousPullEnabled is true: anyone on the internet can pull the workspace images; "
            "set anonymous_pull_enabled=False"
        )
    return problems
