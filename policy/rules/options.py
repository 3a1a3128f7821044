"""Resource options a policy can see, and the ones only a recorded plan has.

The engine hands a resource policy `PolicyResourceOptions`: protect, ignore_changes,
delete_before_replace, aliases, custom_timeouts, additional_secret_outputs and parent.
It does not pass replace_on_changes, retain_on_delete or deleted_with (nor
depends_on: a stack policy sees dependencies on `PolicyResource`). `preflight policy`
knows them from the plan and passes them as this subclass; the checks that need them
read them with `offline_option`, which answers None under a real engine, where those
checks do nothing.
"""

from __future__ import annotations

from typing import Any

from pulumi_policy import PolicyCustomTimeouts, PolicyResourceOptions


class PlanResourceOptions(PolicyResourceOptions):
    def __init__(
        self,
        *,
        protect: bool,
        ignore_changes: list[str],
        delete_before_replace: bool | None,
        additional_secret_outputs: list[str],
        parent: str | None,
        replace_on_changes: list[str],
        retain_on_delete: bool,
        deleted_with: str | None,
    ) -> None:
        super().__init__(
            protect,
            ignore_changes,
            delete_before_replace,
            [],
            PolicyCustomTimeouts(0, 0, 0),
            additional_secret_outputs,
            parent,
        )
        self.replace_on_changes = replace_on_changes
        self.retain_on_delete = retain_on_delete
        self.deleted_with = deleted_with


def offline_option(opts: Any, name: str) -> Any:
    """An option only a recorded plan carries; None under a real engine."""
    return getattr(opts, name, None) if isinstance(opts, PlanResourceOptions) else None
