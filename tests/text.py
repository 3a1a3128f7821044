"""Hypothesis text and regex strategies with their default alphabet, named by category.

The default alphabet of st.text() and st.from_regex() is every character UTF-8 can encode
(all but the surrogates, category Cs). Given as characters(codec="utf-8"), hypothesis first
builds a table of the whole of Unicode: about 3 s in each process without a .hypothesis cache,
as on a fresh clone and in CI, in both test workers. Named by category, it is the same set
without the table."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

CHARACTERS = st.characters(exclude_categories=["Cs"])


def text(**kwargs: Any) -> st.SearchStrategy[str]:
    """st.text(**kwargs) with the default alphabet, drawn without building the table."""
    return st.text(CHARACTERS, **kwargs)


def from_regex(regex: str, **kwargs: Any) -> st.SearchStrategy[str]:
    """st.from_regex(regex, **kwargs) with the default alphabet, drawn without building the table."""
    return st.from_regex(regex, alphabet=CHARACTERS, **kwargs)
