"""Read a Pulumi stack file (stacks/Pulumi.<stack>.yaml) into the program's config."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

NAMESPACE = "anyscale-cloud"
KNOWN_KEYS = {"cloud", "resources"}
STACKS_DIR = Path(__file__).resolve().parent.parent / "stacks"


class StackFileError(Exception):
    """The file cannot be read or is not a stack file (exit code 2)."""


@dataclass(frozen=True)
class StackFile:
    path: Path
    config: dict[str, Any]  # every key, namespaced: {"anyscale-cloud:cloud": {...}, ...}

    def project_value(self, key: str) -> Any:
        return self.config.get(f"{NAMESPACE}:{key}")

    def unknown_project_keys(self) -> list[str]:
        prefix = f"{NAMESPACE}:"
        return sorted(k for k in self.config if k.startswith(prefix) and k[len(prefix):] not in KNOWN_KEYS)


def stack_path(stack: str) -> Path:
    return STACKS_DIR / f"Pulumi.{stack}.yaml"


def read_stack_file(path: str | Path) -> StackFile:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise StackFileError(f"cannot read {path}: {getattr(error, 'strerror', None) or error}") from None
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        raise StackFileError(f"{path} is not valid YAML{where}: {getattr(error, 'problem', None) or error}") from None
    if document is None:
        document = {}
    if not isinstance(document, dict):
        raise StackFileError(f"{path} is not a Pulumi stack file: expected a mapping with a `config:` key")
    config = document.get("config") or {}
    if not isinstance(config, dict):
        raise StackFileError(f"{path}: `config` must be a mapping of keys to values")
    return StackFile(path, {str(k): v for k, v in config.items()})
