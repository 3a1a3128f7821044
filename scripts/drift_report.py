"""Reads the output of `pulumi preview --refresh --expect-no-changes` and says whether the
stack drifted, for .github/workflows/drift.yml.

    python scripts/drift_report.py STACK EXIT_CODE OUTPUT_FILE BODY_FILE

Prints one word: `clean` (exit code 0), `drift` (the CLI's "no changes were expected but
changes were proposed") or `error` (anything else: a login, a provider, the program).
On drift it writes the issue body to BODY_FILE: the preview's output, stripped of
terminal escapes, in a code fence longer than any run of backticks in it (so no text of
the diff can close the fence or be read as markdown), cut to fit an issue body.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

DRIFT_RE = re.compile(r"no changes were expected (?:for \S+ )?but changes were proposed")
# CSI sequences, OSC sequences (ended by BEL or ST) and other control characters. An OSC's
# body stops at the next ESC, so that output full of unterminated `ESC ]` is read in linear
# time (each attempt ends where the next begins); a lone ESC goes with the control characters.
ESCAPES_RE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|[\x00-\x08\x0b-\x1f\x7f]")
# GitHub refuses issue bodies above 65,536 characters; leave room for the text around the diff.
LIMIT = 60_000
BODY_LIMIT = 65_536
# Backtick runs longer than this are shown by their length, so that the fence around the
# output (one backtick longer than its longest run) stays short.
LONGEST_RUN = 15
LONG_RUN_RE = re.compile("`{" + str(LONGEST_RUN + 1) + ",}")
EXIT_CODE_RE = re.compile(r"-?[0-9]{1,10}")


def verdict(exit_code: int, output: str) -> str:
    if exit_code == 0:
        return "clean"
    return "drift" if DRIFT_RE.search(output) else "error"


def fenced(text: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def issue_body(stack: str, output: str, run_url: str) -> str:
    text = ESCAPES_RE.sub("", output).strip("\n")
    text = LONG_RUN_RE.sub(lambda m: f"[{len(m.group(0))} backticks]", text)
    if len(text) > LIMIT:
        text = text[:LIMIT] + f"\n... ({len(text) - LIMIT} more characters in the run's log)"
    body = _body(stack, text, run_url)
    if len(body) > BODY_LIMIT:  # a very long run URL or stack name: cut the output further
        text = text[: max(0, len(text) - (len(body) - BODY_LIMIT))]
        body = _body(stack, text, run_url)
    return body


def _body(stack: str, text: str, run_url: str) -> str:
    return "\n".join(
        [
            f"`pulumi preview --refresh --expect-no-changes` of stack `{stack}` found changes made outside "
            "the program (or changes the program would make to them).",
            "",
            f"Run: {run_url}",
            "",
            "Bring the stack back in line: `pulumi up` to restore what the program declares, or change the "
            "stack file to adopt the change. This issue closes itself on the first clean run.",
            "",
            fenced(text),
            "",
        ]
    )


def main(argv: list[str]) -> int:
    if len(argv) != 4 or not EXIT_CODE_RE.fullmatch(argv[1]):
        print("usage: drift_report.py STACK EXIT_CODE OUTPUT_FILE BODY_FILE", file=sys.stderr)
        return 2
    stack, code, output_file, body_file = argv[0], int(argv[1]), Path(argv[2]), Path(argv[3])
    output = output_file.read_text(encoding="utf-8", errors="replace") if output_file.is_file() else ""
    result = verdict(code, output)
    if result == "drift":
        body_file.write_text(issue_body(stack, output, _run_url()), encoding="utf-8")
    print(result)
    return 0


def _run_url() -> str:
    import os

    server, repo, run = (os.environ.get(k, "") for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID"))
    return f"{server}/{repo}/actions/runs/{run}" if server and repo and run else "(local run)"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
