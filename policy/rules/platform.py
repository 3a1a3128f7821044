"""The platform's rules and constants, taken from the project itself (components/).

The pack lives in the project's repository (policy/ beside components/), so it reuses
the stack spec's patterns and the defaults module instead of restating them: a rule
changed there is changed here. The Pulumi CLI runs a Python pack with only the pack's
own folder on sys.path, so the project root is added (at the end: nothing shadowed).
"""
from __future__ import annotations

import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
if str(PROJECT_ROOT) not in sys.path:
    sys.path.append(str(PROJECT_ROOT))

from components import defaults  # noqa: E402
from components.spec import (  # noqa: E402
    BUCKET_FORMS,
    BUCKET_RES,
    MAX_REGION,
    ORIGIN_RE,
    PROVIDERS,
    REGION_RE,
)

__all__ = [
    "BUCKET_FORMS",
    "BUCKET_RES",
    "MAX_REGION",
    "ORIGIN_RE",
    "PROVIDERS",
    "REGION_RE",
    "defaults",
]
