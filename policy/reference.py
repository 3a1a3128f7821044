"""docs/policies.md, written from the pack's declarations (policies.py): one section per
policy, its anchor the policy's name (the URL every violation links to).

`make generate` writes it (scripts/generate.py); `make test` fails while it is stale.
"""

from __future__ import annotations

import html
import importlib
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

PACK_DIR = Path(__file__).resolve().parent
ROOT = PACK_DIR.parent
DOCS = ROOT / "docs" / "policies.md"
COMMAND = "make generate"

INTRO = f"""\
# Policies

<!-- Generated from policy/policies.py by `{COMMAND}`: edit the declarations there, not this file. -->

The policy pack in `policy/` checks what a deployment would create against the platform's
rules. `pulumi preview --policy-pack policy` runs it inside the engine (a mandatory
violation stops the update); `python -m preflight policy --stack <stack>` runs the same
policies offline over a recorded plan, without cloud credentials, and exits 1 on a
mandatory violation. A policy marked "(offline only)" needs what only a recorded plan
carries (replaceOnChanges, retainOnDelete, the plan's placeholders) and does nothing under
the engine.

A value that is not known yet is never a violation by itself, and never skipped in silence:
a policy that could not decide a property for that reason reports, after its violations, an
advisory naming each one, `can't run policy '<name>' from policy pack ... during preview:
could not check <property>, ...: unknown until apply; checked again on pulumi up` (in
`preflight policy`: `[advisory] <name>: can't run during preview: could not check ...`). A
stack policy's properties start with the resource's name. The advisory never blocks an
update: the policy runs again on `pulumi up`, when the values are known.

Every violation links to its policy's section below.

- **Level**: `mandatory` blocks the update, `advisory` is reported only. The config can
  change any policy's level (`advisory`, `mandatory`, `remediate`, `disabled`).
- **Severity**: `critical`, data or control open to anyone; `high`, more privilege than
  the job needs, or a cloud the platform refuses or cannot use; `medium`, a hardening gap
  or a console feature that stops working; `low`, availability or hygiene.

## Configuration

Levels and settings come from a JSON file, the same for
`pulumi preview --policy-pack policy --policy-pack-config FILE` and
`python -m preflight policy --stack <stack> --config FILE`: each key a policy's name (or
`all`, for every policy's level), each value a level or an object of `enforcementLevel`
and the policy's settings. A setting left out keeps its default.

```json
{{
  "all": "advisory",
  "aks-sku-tier": {{"enforcementLevel": "mandatory", "disallowedTiers": ["Free"]}},
  "cors-origins": {{"extraOrigins": ["https://notebooks.example.com"]}}
}}
```

`preflight policy` checks the file against the policies' schemas before anything else: a
value of the wrong type, an unknown setting or an unknown policy name is one line naming
the policy and the setting, and exit code 2.
"""

# Characters with a meaning in GitHub markdown mid-line, outside code spans.
_SPECIAL = re.compile(r"([\\*_\[\]|~])")
_CODE = re.compile(r"(`[^`]*`)")


def md(text: str) -> str:
    """Declaration text as markdown: code spans kept, everything else literal."""
    parts = _CODE.split(" ".join(text.split()))
    return "".join(p if _CODE.fullmatch(p) else _SPECIAL.sub(r"\\\1", html.escape(p, quote=False)) for p in parts)


def code(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    fence = "``" if "`" in text else "`"
    return f"{fence}{text}{fence}".replace("|", "\\|")


def type_of(spec: dict[str, Any]) -> str:
    kind = spec.get("type", "any")
    if kind == "array":
        items = spec.get("items", {})
        if "enum" in items:
            return "list of " + ", ".join(code(v) for v in items["enum"])
        return f"list of {items.get('type', 'any')}s"
    if kind == "object" and isinstance(spec.get("additionalProperties"), dict):
        return f"map of {spec['additionalProperties'].get('type', 'any')}s"
    return str(kind)


def scope(policy: Any) -> str:
    return "the whole stack" if type(policy).__name__ == "StackValidationPolicy" else "each resource"


def level(policy: Any) -> str:
    return str(policy.enforcement_level.value)


def severity(policy: Any) -> str:
    return str(policy.severity.value) if policy.severity is not None else "-"


def settings(policy: Any) -> dict[str, dict[str, Any]]:
    return dict(policy.config_schema.properties) if policy.config_schema else {}


def summary(policies: Sequence[Any]) -> list[str]:
    lines = ["## Summary", "", "| Policy | Level | Severity | Checks | Settings |", "|---|---|---|---|---|"]
    for p in policies:
        names = ", ".join(code(name) for name in settings(p)) or "-"
        lines.append(f"| [{p.name}](#{p.name}) | {level(p)} | {severity(p)} | {scope(p)} | {names} |")
    return lines


def section(policy: Any) -> list[str]:
    lines = [
        f"## {policy.name}",
        "",
        f"**{level(policy).capitalize()}**, severity **{severity(policy)}**, checks {scope(policy)}.",
        "",
        f"**What it checks.** {md(policy.description)}",
        "",
        f"**How to fix.** {md(policy.remediation_steps or '')}",
    ]
    if settings(policy):
        lines += ["", "| Setting | Type | Default | What it is |", "|---|---|---|---|"]
        for name, spec in settings(policy).items():
            lines.append(f"| {code(name)} | {type_of(spec)} | {code(spec['default'])} | {md(spec['description'])} |")
    return lines


def render(policies: Sequence[Any]) -> str:
    lines = [INTRO.rstrip("\n"), "", *summary(policies)]
    for p in policies:
        lines += ["", *section(p)]
    return "\n".join(lines) + "\n"


def pack_policies() -> list[Any]:
    """The pack's policies, imported as the Pulumi CLI imports them (policy/ on sys.path)."""
    if str(PACK_DIR) not in sys.path:
        sys.path.insert(0, str(PACK_DIR))
    return list(importlib.import_module("policies").ALL_POLICIES)


def shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
