"""The diagram of a diff for a pull-request comment, and how the comment stays within
GitHub's size limit: the diagram is made coarser (one node per change, then per cloud
resource and action, then per action) and never cut; then the folded details go, then the
table's rows, each with a line saying what was left out."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from preflight.changes import ACTIONS, SYMBOLS, Change
from preflight.mermaid import CLASSES, fenced, text

# GitHub refuses a comment longer than 65,536 characters ("Body is too long (maximum is
# 65536 characters)", the REST API's 422 on POST /repos/{owner}/{repo}/issues/{n}/comments).
COMMENT_LIMIT = 65536
LEVELS = ("each change", "per cloud resource", "per action")


def _label(change: Change) -> str:
    flag = "!! DISRUPTIVE #183; " if change.disruptive else ""
    return f"{flag}{text(SYMBOLS[change.action])} {change.action}: {text(change.name)} #40;{text(change.label)}#41;"


def _style(change: Change) -> str:
    return "disruptive" if change.disruptive else change.action


def _group_key(change: Change) -> str:
    return change.cloud_resource or "cloud"


def changes_diagram(changes: list[Change], level: str = "each change") -> str:
    """flowchart of what changes: a box per cloud resource (and one for the cloud's own
    resources), a node per change styled by its action, disruptive ones red, thick-bordered
    and hexagonal. Coarser levels count changes instead of naming them, but always name
    the disruptive ones."""
    shown = [c for c in changes if c.action != "same"]
    lines = ["flowchart LR"]
    if not shown:
        lines.append('  n0["no changes"]')
        return "\n".join(lines) + "\n"
    used: set[str] = set()
    counter = 0

    def node(label: str, style: str, hexagon: bool = False) -> str:
        nonlocal counter
        counter += 1
        used.add(style)
        opening, closing = ("{{", "}}") if hexagon else ("[", "]")
        return f'n{counter}{opening}"{label}"{closing}:::{style}'

    if level == "per action":
        for action in ACTIONS:
            group = [c for c in shown if c.action == action]
            if group:
                disruptive = sum(1 for c in group if c.disruptive)
                extra = f", {disruptive} disruptive" if disruptive else ""
                label = f"{text(SYMBOLS[action])} {len(group)} to {action}{extra}"
                lines.append("  " + node(label, "disruptive" if disruptive else action, bool(disruptive)))
    else:
        groups: dict[str, list[Change]] = {}
        for change in shown:
            groups.setdefault(_group_key(change), []).append(change)
        for number, (name, group) in enumerate(groups.items()):
            lines.append(f'  subgraph g{number}["{text(name)}"]')
            if level == "each change":
                members = group
            else:
                members = [c for c in group if c.disruptive]
                counts = Counter(c.action for c in group if not c.disruptive)
                for action in ACTIONS:
                    if counts[action]:
                        lines.append("    " + node(f"{text(SYMBOLS[action])} {counts[action]} to {action}", action))
            for change in sorted(members, key=lambda c: ACTIONS.index(c.action)):
                lines.append("    " + node(_label(change), _style(change), change.disruptive))
            lines.append("  end")
    lines += [f"  classDef {name} {CLASSES[name]}" for name in CLASSES if name in used]
    return "\n".join(lines) + "\n"


LEGEND = (
    "_Legend: `=>` imported (dashed blue), `+` created (green), `~` updated (yellow), `+-` replaced (purple), "
    "`-` deleted (red, dashed); **disruptive** changes are red hexagons with a thick border._"
)


def fit_comment(
    build: Callable[[str, int, int], str],
    diagram_size: Callable[[str], int],
    details: int,
    rows: int,
    limit: int = COMMENT_LIMIT,
) -> str:
    """The richest comment within `limit`, from `build(level, details_kept, rows_kept)`: the
    first diagram level that takes at most half the limit (the picture is the point, but
    not the whole comment), then fewer folded details, then fewer table rows; a coarser
    diagram only when even the bare comment does not fit."""
    start = next((i for i, level in enumerate(LEVELS) if diagram_size(level) <= limit // 2), len(LEVELS) - 1)
    for level in LEVELS[start:]:
        kept_details, kept_rows = details, rows
        while True:
            body = build(level, kept_details, kept_rows)
            if len(body) <= limit:
                return body
            if kept_details:
                kept_details = kept_details // 2 if kept_details > 8 else kept_details - 1
            elif kept_rows:
                kept_rows = kept_rows // 2 if kept_rows > 8 else kept_rows - 1
            else:
                break
    return build(LEVELS[-1], 0, 0)


def diagram_section(changes: list[Change], level: str) -> list[str]:
    summary = "" if level == LEVELS[0] else f" (summarised {level}, to fit GitHub's comment limit)"
    return [f"#### What changes{summary}", "", fenced(changes_diagram(changes, level)), LEGEND, ""]
