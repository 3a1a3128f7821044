"""Mock-cloud answers specific to gcp resources (see preflight/outputs.py)."""
from __future__ import annotations

from typing import Any, Callable

OVERRIDES: dict[str, Callable[[str, dict[str, Any]], dict[str, Any]]] = {}
INVOKES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {}
