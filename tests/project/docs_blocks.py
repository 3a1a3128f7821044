"""Reading the documentation: its fenced shell blocks and their commands, its prose, code
spans, headings (GitHub's anchors) and links. No checks here: tests/project/test_readme_commands.py
holds the rules and says what they are."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

SHELL_LANGUAGES = frozenset({"sh", "bash", "shell", "console"})
# First words of commands that need a cloud account, a cluster or the network.
ONLINE = frozenset(
    {
        "pulumi",
        "az",
        "aws",
        "gcloud",
        "gsutil",
        "kubectl",
        "helm",
        "kubelogin",
        "gke-gcloud-auth-plugin",
        "curl",
        "wget",
    }
)
NEEDS_MARK = re.compile(r"(?:^|\s)#\s*needs:\s*(\S.*?)\s*$")
BLOCK_NEEDS_MARK = re.compile(r"^#\s*needs:\s*(\S.*?)\s*$")
EXIT_MARK = re.compile(r"#\s*exit\s+(\d+)\s*$")
PLACEHOLDER = re.compile(r"(?<![<\w])<[A-Za-z][\w.-]*>")
FENCE = re.compile(r"^(\s*)```\s*([\w+-]*)")
HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_]\w*)\1")
ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*=\S*$")
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


@dataclass(frozen=True)
class Command:
    line: int  # 1-based line of the page where the command starts
    shown: str  # as the page shows it (continuations joined, here-document included)
    expected: int = 0  # exit status: 0, or N from a trailing `# exit N`
    needs: str = ""  # the `# needs:` reason: set, the command never runs


@dataclass
class Block:
    line: int  # the opening fence's line
    section: str  # the nearest `## ` heading above it ("" before the first)
    commands: list[Command] = field(default_factory=list)  # every command, marked or not
    unmarked_online: list[tuple[int, str]] = field(default_factory=list)  # errors: cloud commands without a mark


@dataclass
class Page:
    name: str  # relative to the repository's root, e.g. docs/reviewing.md
    text: str
    blocks: list[Block] = field(default_factory=list)
    bare_fences: list[int] = field(default_factory=list)  # lines of fences without a language

    @property
    def commands(self) -> list[Command]:
        return [c for b in self.blocks for c in b.commands]


def code_part(text: str) -> str:
    """The command's first line without its trailing comment (a ` #` outside quotes, roughly)."""
    return re.split(r"\s#", text.split("\n", 1)[0], maxsplit=1)[0].strip()


def first_word(text: str) -> str:
    """The command's program: its first word after any `VAR=value` assignments."""
    words = code_part(text).split()
    while words and ENV_ASSIGNMENT.match(words[0]):
        words.pop(0)
    return words[0] if words else ""


def logical_lines(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Join `\\` continuations and here-documents; drop blank and comment lines."""
    out: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    rows = iter(lines)
    for number, raw in rows:
        text = raw.strip()
        if pending is None and (not text or text.startswith("#")):
            continue
        start, sofar = pending if pending is not None else (number, "")
        if text.endswith("\\"):
            pending = (start, sofar + text[:-1].rstrip() + " ")
            continue
        pending = None
        command = sofar + text
        heredoc = HEREDOC.search(code_part(command))
        if heredoc:
            body = []
            for _, raw_body in rows:
                body.append(raw_body.rstrip("\n"))
                if raw_body.strip() == heredoc.group(2):
                    break
            command = "\n".join([command, *body])
        out.append((start, command))
    if pending is not None:
        out.append((pending[0], pending[1].rstrip()))
    return out


def console_lines(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The commands of a console session: `$ ` lines, continued by `> ` lines; output dropped."""
    picked: list[tuple[int, str]] = []
    inside = False
    for number, raw in lines:
        text = raw.strip()
        if text.startswith("$ "):
            picked.append((number, text[2:]))
            inside = True
        elif inside and (text.startswith("> ") or text == ">"):
            picked.append((number, text[2:]))
        else:
            inside = False
    return logical_lines(picked)


def make_block(opening: int, section: str, language: str, body: list[tuple[int, str]]) -> Block:
    block = Block(opening, section)
    first = next((raw.strip() for _, raw in body if raw.strip()), "")
    whole = BLOCK_NEEDS_MARK.match(first)  # counts on the block's first line only
    for start, text in console_lines(body) if language == "console" else logical_lines(body):
        head = text.split("\n", 1)[0]
        found = whole or NEEDS_MARK.search(head)
        if not found and first_word(text) in ONLINE:
            block.unmarked_online.append((start, text))
            continue
        status = EXIT_MARK.search(head)
        block.commands.append(
            Command(start, text, int(status.group(1)) if status else 0, found.group(1) if found else "")
        )
    return block


def parse(markdown: str, name: str = "<text>") -> Page:
    """A page's shell blocks and their commands, and its bare fences."""
    page = Page(name, markdown)
    section = ""
    body: list[tuple[int, str]] | None = None  # lines of the shell block being read
    opening, indent, language = 0, 0, ""
    in_other_fence = False
    for number, raw in enumerate(markdown.splitlines(), start=1):
        fence = FENCE.match(raw)
        if body is not None:
            if fence and not fence.group(2):
                page.blocks.append(make_block(opening, section, language, body))
                body = None
            else:
                body.append((number, raw[indent:] if not raw[:indent].strip() else raw.lstrip()))
            continue
        if in_other_fence:
            in_other_fence = not fence
            continue
        if fence:
            language = fence.group(2).lower()
            if not language:
                page.bare_fences.append(number)
            if language in SHELL_LANGUAGES:
                body, opening, indent = [], number, len(fence.group(1))
            else:
                in_other_fence = True
            continue
        if raw.startswith("## "):
            section = raw[3:].strip()
    return page


def prose(markdown: str) -> str:
    """The text outside fenced blocks (fence lines blanked, so line numbers stay)."""
    out, inside = [], False
    for raw in markdown.splitlines():
        if FENCE.match(raw):
            inside = not inside
            out.append("")
        else:
            out.append("" if inside else raw)
    return "\n".join(out)


def code_spans(markdown: str) -> list[str]:
    return [m.group(2).strip() for m in re.finditer(r"(`+)(.+?)\1", prose(markdown))]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lowercase, punctuation dropped, spaces made hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(markdown: str) -> set[str]:
    """Every heading's anchor; a repeated heading gets -1, -2... as on GitHub."""
    seen: dict[str, int] = {}
    out = set()
    for line in prose(markdown).splitlines():
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


def links(markdown: str) -> list[str]:
    text = re.sub(r"(`+).+?\1", "", prose(markdown))  # not inside code spans
    return LINK.findall(text)


# --- samples of the program's output ---------------------------------------------------------

# `<!-- output: <command> -->` on the line before a ```text fence: the block quotes what that
# command prints (tests/project/test_output_samples.py runs it and compares).
OUTPUT_MARK = re.compile(r"^<!--\s*output:\s*(.+?)\s*-->\s*$")
GAP = "..."  # a line of a sample that stands for lines left out


@dataclass(frozen=True)
class Sample:
    line: int  # the opening fence's line
    section: str  # the nearest `## ` heading above it
    command: str  # from the output mark, "" when the block has none
    lines: tuple[str, ...]


def text_samples(markdown: str) -> list[Sample]:
    """Every ```text block, with the command its output mark names."""
    samples: list[Sample] = []
    section, previous = "", ""
    body: list[str] | None = None
    opening, mark, in_other = 0, "", False
    for number, raw in enumerate(markdown.splitlines(), start=1):
        fence = FENCE.match(raw)
        if body is not None:
            if fence and not fence.group(2):
                samples.append(Sample(opening, section, mark, tuple(body)))
                body = None
            else:
                body.append(raw)
            continue
        if in_other:
            in_other = not fence
        elif fence and fence.group(2).lower() == "text":
            found = OUTPUT_MARK.match(previous.strip())
            body, opening, mark = [], number, found.group(1) if found else ""
        elif fence:
            in_other = True
        elif raw.startswith("## "):
            section = raw[3:].strip()
        previous = raw
    return samples


def excerpt_problems(sample: tuple[str, ...], output: str) -> list[str]:
    """A sample is an excerpt of the output: its runs of lines between `...` lines each
    appear, whole and in that order, in the output (trailing spaces aside)."""
    have = [line.rstrip() for line in output.splitlines()]
    runs: list[list[str]] = [[]]
    for line in sample:
        if line.strip() == GAP:
            runs.append([])
        else:
            runs[-1].append(line.rstrip())
    start = 0
    for run in (r for r in runs if r):
        at = next((i for i in range(start, len(have) - len(run) + 1) if have[i : i + len(run)] == run), None)
        if at is None:
            near = next((i for i in range(start, len(have)) if have[i] == run[0]), None)
            where = (
                ""
                if near is None
                else f" (its first line is there, then the output reads {have[near : near + len(run)]!r})"
            )
            return [f"not in the output, in this order: {run!r}{where}"]
        start = at + len(run)
    return []
