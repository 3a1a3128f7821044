"""Importing the policy pack's modules the way the Pulumi CLI runs the pack: with its
folder on sys.path (`policies`, `rules.options`). One place for `preflight policy`, the
cost figures and the tests."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

POLICY_DIR = Path(__file__).resolve().parent.parent / "policy"


def pack_module(name: str) -> ModuleType:
    """A module of the pack, imported as the pack imports it."""
    if str(POLICY_DIR) not in sys.path:
        sys.path.insert(0, str(POLICY_DIR))
    return importlib.import_module(name)
