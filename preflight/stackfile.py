"""Read a Pulumi stack file (stacks/Pulumi.<stack>.yaml) into the program's config."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from preflight import project
from preflight.inputs import InputError, load_yaml, read_text

NAMESPACE = "anyscale-cloud"
KNOWN_KEYS = {"cloud", "resources", "secrets"}


class StackFileError(Exception):
    """The file cannot be read or is not a stack file (exit code 2)."""


@dataclass(frozen=True)
class StackFile:
    path: Path
    config: dict[str, Any]  # every key, namespaced: {"anyscale-cloud:cloud": {...}, ...}
    # Pulumi ESC environments the stack imports (`environment:`): the CLI merges their
    # `pulumiConfig` into the config at deploy time; offline they cannot be read.
    environments: tuple[str, ...] = ()

    def project_value(self, key: str) -> Any:
        return self.config.get(f"{NAMESPACE}:{key}")

    def unknown_project_keys(self) -> list[str]:
        prefix = f"{NAMESPACE}:"
        return sorted(k for k in self.config if k.startswith(prefix) and k[len(prefix) :] not in KNOWN_KEYS)


def stack_path(stack: str) -> Path:
    """The stack's file in the project's stack folder (preflight/project.py), wherever the
    command runs from."""
    try:
        return project.stacks_dir() / f"Pulumi.{stack}.yaml"
    except (project.ProjectError, InputError) as error:
        raise StackFileError(str(error)) from None


def read_stack_file(path: str | Path) -> StackFile:
    """The stack file through the input gate (preflight/inputs.py), or StackFileError."""
    path = Path(path)
    try:
        document = load_yaml(read_text(path), str(path))
    except InputError as error:
        raise StackFileError(str(error)) from None
    if document is None:
        document = {}
    if not isinstance(document, dict):
        raise StackFileError(f"{path} is not a Pulumi stack file: expected a mapping with a `config:` key")
    config = document.get("config") or {}
    if not isinstance(config, dict):
        raise StackFileError(f"{path}: `config` must be a mapping of keys to values")
    for key in config:
        # The Pulumi CLI refuses these too (config keys are `<namespace>:<name>`).
        if not isinstance(key, str) or key.count(":") != 1 or not all(key.split(":")):
            raise StackFileError(
                f"{path}: config key {str(key)!r} is not of the form <namespace>:<name> "
                f"(e.g. {NAMESPACE}:cloud); the Pulumi CLI would refuse this file"
            )
    imports = document.get("environment") or []
    # `environment: [name, ...]`; the CLI also accepts `environment: {imports: [...]}`.
    if isinstance(imports, dict):
        imports = imports.get("imports") or []
    if not isinstance(imports, list) or not all(isinstance(name, str) and name for name in imports):
        raise StackFileError(f"{path}: `environment` must be a list of Pulumi ESC environment names")
    return StackFile(path, dict(config), tuple(imports))
