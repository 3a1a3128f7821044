"""Hypothesis text with st.text()'s own alphabet, named by category.

st.text()'s default alphabet is every character UTF-8 can encode (all but the surrogates,
category Cs). Given as characters(codec="utf-8"), hypothesis first builds a table of the whole
of Unicode: about 3 s in each process without a .hypothesis cache, as on a fresh clone and in
CI, in both test workers. Named by category, it is the same set without the table."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

CHARACTERS = st.characters(exclude_categories=["Cs"])


def text(**kwargs: Any) -> st.SearchStrategy[str]:
    """st.text(**kwargs) with the default alphabet, drawn without building the table."""
    return st.text(CHARACTERS, **kwargs)
