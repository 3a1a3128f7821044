"""docs/policies.md is the pack's: generated from the declarations (policy/reference.py),
one section per policy at the anchor its URL names."""

from __future__ import annotations

import re
from pathlib import Path

from policy import reference
from preflight import policy as runner

ROOT = Path(__file__).resolve().parents[2]
PACK = runner.load_pack()
DOCS = ROOT / "docs" / "policies.md"


def test_the_docs_are_the_packs():
    assert DOCS.read_text(encoding="utf-8") == reference.render(PACK.ALL_POLICIES), (
        f"docs/policies.md differs from policy/policies.py: run `{reference.COMMAND}`"
    )


def github_anchor(heading: str) -> str:
    """The id GitHub gives a heading: lowercase, punctuation but '-' and '_' dropped, spaces as '-'."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_every_policy_url_names_its_own_section():
    text = reference.render(PACK.ALL_POLICIES)
    anchors = [github_anchor(line[3:]) for line in text.splitlines() if line.startswith("## ")]
    assert len(anchors) == len(set(anchors)), "two headings would share an anchor (GitHub suffixes the second)"
    for policy in PACK.ALL_POLICIES:
        assert policy.url.split("#", 1)[1] in anchors, policy.name


def test_a_section_holds_what_the_engine_shows():
    text = reference.render(PACK.ALL_POLICIES)
    section = text.split("\n## aks-sku-tier\n", 1)[1].split("\n## ", 1)[0]
    assert "**Advisory**, severity **low**, checks each resource." in section
    assert "**What it checks.** AKS clusters do not run on the Free tier" in section
    assert "**How to fix.** Set cluster.skuTier: Standard" in section
    assert (
        '| `disallowedTiers` | list of `Free`, `Standard`, `Premium` | `["Free"]` | AKS sku tiers to warn about |'
        in section
    )


def test_declaration_text_cannot_turn_into_markup():
    assert reference.md("Principal '*', Action 's3:*' on <project> [x](y) a_b") == (
        "Principal '\\*', Action 's3:\\*' on &lt;project&gt; \\[x\\](y) a\\_b"
    )
    assert reference.md("keep `code_as *is*` and | pipes") == "keep `code_as *is*` and \\| pipes"


def test_the_reference_renders_the_packs_policies_as_the_cli_imports_them():
    # make generate renders from the pack imported as the Pulumi CLI imports it (policy/ on sys.path).
    assert reference.render(reference.pack_policies()) == reference.render(PACK.ALL_POLICIES)
