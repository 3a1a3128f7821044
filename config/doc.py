"""How the config reference (docs/configuration.md, config/reference.py) states a field.

A field's `description` is its rule in words, written from the constants the validators
use, and `doc_default`/`doc_only` (json_schema_extra) adjust how its row is shown.
These helpers run only while the spec's modules are imported (class bodies), before
mutmut can switch a mutant on, so `make mutate` could never test them:
`# pragma: no mutate block`. tests/config/test_config_reference.py checks the text they write.
"""

from __future__ import annotations

from typing import Any

from policy.rules import platform


def shown_default(text: str) -> Any:  # pragma: no mutate block
    """The default as the reference states it, where the model's own value would mislead
    (filled in when the spec is loaded, or empty meaning "the platform's")."""
    return {"doc_default": text}


def per_provider(values: dict[str, Any]) -> str:  # pragma: no mutate block
    return "; ".join(f"{p} `{v}`" for p, v in values.items() if v is not None)


def one_of(values: Any) -> str:  # pragma: no mutate block
    shown = [f"`{v}`" for v in values]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


NAME_RULE = f"`{platform.NAME_RE.pattern}`, at most {platform.MAX_NAME} characters"
REGION_RULE = f"`{platform.REGION_RE.pattern}`, at most {platform.MAX_REGION} characters, never case-converted"
PREVIEW_REGIONS_NOTE = (
    "outside the regions where Anyscale on Azure is available (preview; config/data/azure_availability.py): "
    "a warning, not an error"
)
