"""The one escaping layer between hostile values and what people read.

Plans and stack files come from pull requests. Every renderer (the tree, the summary,
the rollout estimate, `diff` text and markdown, error messages) shows values from them,
so a value must never act as markup: control and format characters (terminal escape
sequences, a newline that forges an extra line, a right-to-left override) are shown
escaped, and in markdown a value stays inside its code span and never becomes HTML."""

from __future__ import annotations

import html
import re
from typing import Any

from config.raw import printable

__all__ = ["html_text", "md_code", "md_text", "printable", "printable_document"]


def printable_document(value: Any) -> Any:
    """A JSON-like document with every string (keys too) passed through `printable`."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {printable_document(k): printable_document(v) for k, v in value.items()}
    if isinstance(value, list):
        return [printable_document(v) for v in value]
    return value


def md_code(value: str) -> str:
    """Inline code a value cannot leave: the fence is one backtick longer than the
    longest run inside, padded when the value starts or ends with one; pipes are escaped
    so that a table cell stays one cell."""
    value = printable(value).replace("|", "\\|")
    longest = max((len(run) for run in re.findall(r"`+", value)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if value.startswith("`") or value.endswith("`") or longest else ""
    return f"{fence}{pad}{value}{pad}{fence}"


# Characters with a meaning in GitHub-flavoured markdown, escaped with a backslash.
# Only those that act mid-line: emphasis, code, links/images, tables, strikethrough,
# autolinks/HTML (`<`, `>` and `&` are HTML-escaped first).
_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~@#:])")  # also mentions (@team), issue links (#1), URLs (x://)
_WWW = re.compile(r"(?i)\bwww\.")  # GitHub autolinks www.example.com too


def md_text(value: str) -> str:
    """Plain text in markdown: no emphasis, links, code or HTML of the value's making."""
    text = _MD_SPECIAL.sub(r"\\\1", html.escape(printable(value), quote=False))
    return _WWW.sub(lambda m: m.group(0)[:-1] + "\\.", text)


def html_text(value: str) -> str:
    """Text inside an HTML element of the markdown (e.g. `<summary>`)."""
    return html.escape(printable(value), quote=True)
