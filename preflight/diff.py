"""Compare two recorded plans: what `pulumi up` would change, and what it would break.

    python -m preflight diff BASE.json HEAD.json [--json FILE] [--format text|markdown]
                                                 [--fail-on-disruptive]

Resources are matched by URN: create, delete, update, replace or same, with the
changed inputs as property paths (`properties.region`, `spec.listeners[1].hostname`).
Replacing or deleting a cloud-resource registration, a cluster or a bucket is
flagged as disruptive, with the reasons (platform.md 1.2, 2).

Limitations, since the plans are recorded offline:
- Secrets are redacted as "[secret]" in both plans, so a change from one secret
  value to another cannot be seen. A change between a secret and a clear value, or a
  secret input appearing or disappearing, is shown, still redacted on both sides.
- Values only the cloud knows read "${name.property}". When the resource `name` is
  replaced, such a value changes at apply time although its text does not; it is
  shown as a "computed" change (Pulumi's "[unknown]"), and may force a replacement.
- Replacement is decided from `replaceOnChanges` and a small table of identity
  inputs (IDENTITY_PATHS, preflight/changes.py); a provider may still replace for other reasons.
- Option changes (protect, deleteBeforeReplace, ...) are not property changes: the
  resource stays "same" and the option change is listed as a note.

Exit codes: 0 done; 2 bad input (missing file, not JSON, not a plan); 3 with
--fail-on-disruptive when any change is disruptive.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from config.data.prices import PRICES_AS_OF
from preflight.changes import ACTIONS, SYMBOLS, Change, PropertyChange, diff_plans
from preflight.escape import html_text, md_code, md_text, printable
from preflight.mermaid_diff import COMMENT_LIMIT, diagram_section, fit_comment
from preflight.planfile import SECRET, Plan, PlanError, read, use_color
from preflight.pricing import bound, groups_of, money

# --------------------------------------------------------------------------------
# Rendering

COLORS = {
    "import": "36",
    "create": "32",
    "update": "33",
    "replace": "35",
    "delete": "31",
    "disruptive": "1;31",
    "muted": "2",
}
VALUE_LIMIT = 120


def paint(text: str, style: str, color: bool) -> str:
    return f"\x1b[{COLORS[style]}m{text}\x1b[0m" if color and text else text


def show_value(value: Any) -> str:
    if value == SECRET:
        return SECRET  # unquoted: a marker, not the value
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text if len(text) <= VALUE_LIMIT else text[: VALUE_LIMIT - 3] + "..."


def property_text(prop: PropertyChange) -> str:
    if prop.kind == "added":
        text = f"+ {prop.path}: {show_value(prop.new)}"
    elif prop.kind == "removed":
        text = f"- {prop.path}: {show_value(prop.old)}"
    elif prop.kind == "computed":
        text = f"~ {prop.path}: {show_value(prop.old)} -> (known after apply)"
    else:
        text = f"~ {prop.path}: {show_value(prop.old)} -> {show_value(prop.new)}"
    extras = [
        e
        for e in (prop.note if prop.kind != "computed" else "", "forces replacement" if prop.forces_replacement else "")
        if e
    ]
    return text + (f"  ({'; '.join(extras)})" if extras else "")


def change_lines(change: Change, color: bool) -> list[str]:
    where = f"  [{change.cloud_resource}]" if change.cloud_resource else ""
    head = f"  {SYMBOLS[change.action]} {change.label}  {change.name}{where}"
    lines = [
        paint(head, change.action, color) + (paint("  !! DISRUPTIVE", "disruptive", color) if change.disruptive else "")
    ]
    if change.action in ("update", "replace"):
        lines += [f"       {property_text(p)}" for p in change.properties]
    lines += [paint(f"       ! {reason}", "disruptive", color) for reason in change.reasons]
    lines += [paint(f"       note: {note}", "muted", color) for note in change.notes]
    return lines


def summarize(changes: list[Change]) -> str:
    """One line: `2 to create, 1 to replace (1 disruptive), 40 unchanged`."""
    parts = []
    for action in ACTIONS:
        group = [c for c in changes if c.action == action]
        if group:
            disruptive = sum(1 for c in group if c.disruptive)
            parts.append(f"{len(group)} to {action}" + (f" ({disruptive} disruptive)" if disruptive else ""))
    same = sum(1 for c in changes if c.action == "same")
    return ", ".join(parts + [f"{same} unchanged"]) if parts else f"no changes, {same} unchanged"


def hidden_secrets_note(changes: list[Change]) -> str | None:
    hidden = sum(c.hidden_secrets for c in changes)
    if not hidden:
        return None
    return f"note: {hidden} secret input(s) are redacted in both plans; a change to them cannot be seen here."


def render_changes(changes: list[Change], color: bool = False) -> str:
    """Text for a terminal: non-same changes grouped by action, then the summary."""
    lines: list[str] = []
    disruptive = sum(1 for c in changes if c.disruptive)
    if disruptive:
        lines += [
            paint(f"!! {disruptive} DISRUPTIVE change(s): read the reasons (!) before applying.", "disruptive", color),
            "",
        ]
    for action in ACTIONS:
        group = [c for c in changes if c.action == action]
        if group:
            lines.append(paint(f"{SYMBOLS[action]} {action} ({len(group)})", action, color))
            for change in group:
                lines += change_lines(change, color)
            lines.append("")
    noted = [c for c in changes if c.action == "same" and c.notes]
    if noted:
        lines.append(f"= options only, no resource change ({len(noted)})")
        for change in noted:
            lines += change_lines(change, color)
        lines.append("")
    lines.append(summarize(changes))
    note = hidden_secrets_note(changes)
    if note:
        lines.append(paint(note, "muted", color))
    return "\n".join(lines) + "\n"


def md_details(change: Change) -> list[str]:
    state = ", disruptive" if change.disruptive else ""
    lines = [
        f"<details><summary><code>{SYMBOLS[change.action]}</code> {change.action} "
        f"<code>{html_text(change.name)}</code>{state}</summary>",
        "",
    ]
    if change.action in ("update", "replace") and change.properties:
        lines += ["| property | old | new | |", "|---|---|---|---|"]
        for p in change.properties:
            new = "(known after apply)" if p.kind == "computed" else md_code(show_value(p.new))
            flags = "; ".join(
                e for e in (md_text(p.note or ""), "**forces replacement**" if p.forces_replacement else "") if e
            )
            lines.append(f"| {md_code(p.path)} | {md_code(show_value(p.old))} | {new} | {flags} |")
        lines.append("")
    if change.reasons:
        lines += ["**Why this is disruptive:**", ""] + [f"- {md_text(r)}" for r in change.reasons] + [""]
    if change.notes:
        lines += [f"- note: {md_text(n)}" for n in change.notes] + [""]
    return lines + ["</details>", ""]


def render_markdown(changes: list[Change], cost: list[dict[str, Any]] | None = None, limit: int = COMMENT_LIMIT) -> str:
    """For a pull-request comment: a diagram of what changes, a table of changes, details
    folded, then the cost; at most `limit` characters (GitHub's), made coarser and shorter
    as preflight/mermaid_diff.py says, never cut mid-diagram."""
    shown = sorted((c for c in changes if c.action != "same"), key=lambda c: ACTIONS.index(c.action))
    detailed = [c for c in shown if c.reasons or c.notes or (c.action in ("update", "replace") and c.properties)]
    # Each piece rendered once: the fitting below only chooses how many of them to keep.
    rows = [
        f"| {md_code(SYMBOLS[c.action])} | {c.action} | {md_code(c.name)} | {md_code(c.type)} "
        f"| {md_code(c.cloud_resource) if c.cloud_resource else 'cloud'} | {'**disruptive**' if c.disruptive else ''} |"
        for c in shown
    ]
    details = ["\n".join(md_details(c)) for c in detailed]
    diagrams: dict[str, list[str]] = {}

    def diagram(level: str) -> list[str]:
        if level not in diagrams:
            diagrams[level] = diagram_section(changes, level)
        return diagrams[level]

    head = ["### Preflight diff", "", f"**{summarize(changes)}**", ""]
    disruptive = sum(1 for c in shown if c.disruptive)
    if disruptive:
        head += ["> [!CAUTION]", f"> {disruptive} disruptive change(s): read the reasons below before merging.", ""]
    noted = [c for c in changes if c.action == "same" and c.notes]
    tail: list[str] = []
    note = hidden_secrets_note(changes)
    if note:
        tail += [f"_{note}_", ""]
    if cost is not None:
        tail += render_cost_markdown(cost)

    def build(level: str, kept_details: int, kept_rows: int) -> str:
        lines = list(head)
        if shown:
            lines += diagram(level)
            lines += ["| | action | resource | type | cloud resource | |", "|---|---|---|---|---|---|"]
            lines += rows[:kept_rows] + [""]
            if kept_rows < len(shown):
                lines += [
                    f"_{len(shown) - kept_rows} more change(s) left out to fit GitHub's comment limit: {FULL}_",
                    "",
                ]
        lines += details[:kept_details]
        if kept_details < len(detailed):
            lines += [f"_Details of {len(detailed) - kept_details} change(s) left out to fit the limit: {FULL}_", ""]
        if noted and kept_rows == len(shown):
            lines += ["Options changed, no resource change:", ""]
            lines += [f"- {md_code(c.name)}: {md_text('; '.join(c.notes))}" for c in noted] + [""]
        return "\n".join(lines + tail).rstrip("\n") + "\n"

    return fit_comment(build, lambda level: len("\n".join(diagram(level))), len(detailed), len(shown), limit)


# Where the whole diff is when the comment leaves some out.
FULL = "`python -m preflight diff BASE HEAD` (or `--json FILE`) shows every change"


def changes_to_json(changes: list[Change], cost: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    rows = []
    for c in changes:
        rows.append(
            {
                "urn": c.urn,
                "type": c.type,
                "name": c.name,
                "action": c.action,
                "disruptive": c.disruptive,
                "reasons": c.reasons,
                "properties": [
                    {
                        "path": p.path,
                        "old": p.old,
                        "new": p.new,
                        "kind": p.kind,
                        "forcesReplacement": p.forces_replacement,
                        **({"note": p.note} if p.note else {}),
                    }
                    for p in c.properties
                ],
                "notes": c.notes,
                "cloudResource": c.cloud_resource,
            }
        )
    document: dict[str, Any] = {"summary": summarize(changes), "changes": rows}
    if cost is not None:
        document["cost"] = {"pricesAsOf": PRICES_AS_OF, "cloudResources": cost}
    return document


# --------------------------------------------------------------------------------
# Cost: how each cloud resource's idle and maximum $/hour change


def cost_changes(base: Plan, head: Plan) -> list[dict[str, Any]]:
    """Per cloud resource (in head order, then those only in base): idle and maximum
    $/hour before and after, and how many items are not priced in the head (`notPriced`)
    and in the base (`notPricedBase`): a figure that leaves some out is a lower bound."""
    before = {g.name: g for g in groups_of(base)}
    after = {g.name: g for g in groups_of(head)}
    rows = []
    for name in [*after, *(n for n in before if n not in after)]:
        old, new = before.get(name), after.get(name)
        rows.append(
            {
                "cloudResource": name,
                "idle": {"base": old.idle if old else 0.0, "head": new.idle if new else 0.0},
                "maximum": {"base": old.maximum if old else 0.0, "head": new.maximum if new else 0.0},
                "notPriced": len(new.not_priced) if new else 0,
                "notPricedBase": len(old.not_priced) if old else 0,
            }
        )
    for row in rows:
        for key in ("idle", "maximum"):
            row[key]["change"] = round(row[key]["head"] - row[key]["base"], 4)
    return rows


def signed(value: float) -> str:
    return ("+" if value > 0 else "-" if value < 0 else "±") + money(abs(value))


def _span(figures: dict[str, float], before: int, after: int) -> str:
    """`base -> head (change)`, each side marked ≥ when it leaves out items not priced."""
    return f"{bound(figures['base'], before)} -> {bound(figures['head'], after)} ({signed(figures['change'])})"


def render_cost_markdown(rows: list[dict[str, Any]]) -> list[str]:
    changed = [r for r in rows if r["idle"]["change"] or r["maximum"]["change"]]
    idle = sum(r["idle"]["change"] for r in rows)
    maximum = sum(r["maximum"]["change"] for r in rows)
    head_missing = sum(r["notPriced"] for r in rows)
    base_missing = sum(r["notPricedBase"] for r in rows)
    # The sums leave out what is not priced: the change is that of the priced items.
    unpriced = (
        f" of the priced items ({head_missing} item(s) not priced after, {base_missing} before; "
        "figures marked ≥ are lower bounds)"
        if head_missing or base_missing
        else ""
    )
    lines = [
        f"#### Cost per hour (list prices of {PRICES_AS_OF}; estimates only)",
        "",
        f"**idle {signed(idle)}, maximum {signed(maximum)}**{unpriced}",
        "",
    ]
    if changed:
        lines += ["| cloud resource | idle | maximum | not priced |", "|---|---|---|---|"]
        for r in changed:
            before, after = r["notPricedBase"], r["notPriced"]
            idle_span, maximum_span = _span(r["idle"], before, after), _span(r["maximum"], before, after)
            lines.append(f"| {md_code(r['cloudResource'])} | {idle_span} | {maximum_span} | {after} |")
        lines.append("")
    return lines


# --------------------------------------------------------------------------------
# Command line


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m preflight diff",
        description="Compare two recorded plans (preflight plan --json).",
        epilog="Secrets are redacted in both plans: a change from one secret value to another cannot be seen.\n"
        "Exit codes: 0 done, 2 bad input, 3 disruptive changes (with --fail-on-disruptive).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("base", help="plan JSON of the base (e.g. the main branch)")
    p.add_argument("head", help="plan JSON of the head (e.g. the pull request)")
    p.add_argument("--json", metavar="FILE", help="also write every resource's change as JSON")
    p.add_argument(
        "--format",
        choices=("text", "markdown"),
        default="text",
        help="text for a terminal (default) or markdown for a pull-request comment",
    )
    p.add_argument(
        "--allow-other-stack",
        action="store_true",
        help="compare plans of different stacks or projects (refused by default)",
    )
    p.add_argument("--fail-on-disruptive", action="store_true", help="exit 3 when any change is disruptive")
    return p


def plans_mismatch(base: Plan, head: Plan) -> str | None:
    """Plans of two projects or stacks compare every resource as deleted and created,
    which reads like a catastrophe or, worse, hides one: say so instead."""
    for key in ("project", "stack"):
        if base.get(key) != head.get(key):
            return f"the plans are of different {key}s ({printable(str(base.get(key)))} vs {printable(str(head.get(key)))})"
    return None


def main(argv: list[str]) -> int:
    try:
        args = parser().parse_args(argv)
    except SystemExit as stop:  # --help, or a usage error already printed by argparse
        return stop.code if isinstance(stop.code, int) else 2
    try:
        base, head = read(args.base), read(args.head)
    except PlanError as error:
        print(f"error: {printable(str(error))}", file=sys.stderr)
        return 2
    mismatch = plans_mismatch(base, head)
    if mismatch and not args.allow_other_stack:
        print(f"error: {printable(mismatch)}; pass --allow-other-stack to compare them anyway", file=sys.stderr)
        return 2
    changes = diff_plans(base, head)
    cost = cost_changes(base, head)
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as handle:
                json.dump(changes_to_json(changes, cost), handle, indent=2)
                handle.write("\n")
        except OSError as error:
            print(f"error: cannot write {printable(args.json)}: {error.strerror or error}", file=sys.stderr)
            return 2
    text = render_markdown(changes, cost) if args.format == "markdown" else render_changes(changes, use_color())
    sys.stdout.write(text)
    if args.fail_on_disruptive and any(c.disruptive for c in changes):
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
