"""Where the project is: the folder with the Pulumi.yaml of `anyscale-cloud`, its program
(`__main__.py`, or the file Pulumi.yaml's `main` names) and its stack files (Pulumi.yaml's
`stackConfigDir`). One answer for `--stack NAME` and the mock runtime, so that the command
works from any directory and never reads a stack file because of where the shell stands.

The project is, in this order: the folder given with `--project-dir` (or the environment's
ANYSCALE_CLOUD_PROJECT_DIR); the nearest folder from the working directory upward whose
Pulumi.yaml names this project (a checkout or a copy of one); the source tree the code was
imported from, when it is one (`python -m preflight` in a checkout, an editable install).
An installed wheel holds the code but no stacks nor program: outside a checkout it asks for
`--project-dir`."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from preflight.inputs import InputError, load_yaml, read_text

NAME = "anyscale-cloud"
ENV = "ANYSCALE_CLOUD_PROJECT_DIR"
PROJECT_FILE = "Pulumi.yaml"
# The folder the packages were imported from: in a checkout, the repository root.
SOURCE_ROOT = Path(__file__).resolve().parent.parent

_chosen: Path | None = None


class ProjectError(Exception):
    """No project found, or its Pulumi.yaml is not this project's (exit code 2)."""


def _project_name(folder: Path) -> str | None:
    """The `name:` of folder/Pulumi.yaml, None without one (or when it cannot be read)."""
    path = folder / PROJECT_FILE
    if not path.is_file():
        return None
    try:
        document = load_yaml(read_text(path), str(path))
    except InputError:
        return None
    name = document.get("name") if isinstance(document, dict) else None
    return name if isinstance(name, str) else None


def find_upward(start: Path) -> Path | None:
    """The nearest folder from start upward whose Pulumi.yaml names this project."""
    for folder in (start, *start.parents):
        if _project_name(folder) == NAME:
            return folder
    return None


def choose(folder: str | os.PathLike[str] | None) -> None:
    """Use folder as the project for this process (`--project-dir`); None: find it again."""
    global _chosen
    if folder is None:
        _chosen = None
        return
    path = Path(folder).expanduser().resolve()
    name = _project_name(path)
    if name != NAME:
        found = f"its {PROJECT_FILE} names {name!r}" if name else f"it has no readable {PROJECT_FILE}"
        raise ProjectError(f"--project-dir {folder}: not an {NAME} project ({found})")
    _chosen = path


def project_dir() -> Path:
    """The project's folder (see the module's docstring for the order), or ProjectError."""
    if _chosen is not None:
        return _chosen
    env = os.environ.get(ENV)
    if env:
        path = Path(env).expanduser().resolve()
        if _project_name(path) != NAME:
            raise ProjectError(f"{ENV}={env}: not an {NAME} project (no {PROJECT_FILE} naming it)")
        return path
    found = find_upward(Path.cwd())
    if found is not None:
        if found != SOURCE_ROOT:
            _announce(found)
        return found
    if _project_name(SOURCE_ROOT) == NAME:
        return SOURCE_ROOT
    raise ProjectError(
        f"no {NAME} project here: run it inside a checkout of the project, or pass --project-dir "
        f"<the folder with its {PROJECT_FILE}> (a stack file can also be named with --file)"
    )


_announced: set[Path] = set()


def _announce(folder: Path) -> None:
    """A project found upward that is not the checkout this code came from runs its own program:
    say which, once, on stderr (a Pulumi.yaml planted above the working directory shows)."""
    if folder not in _announced:
        _announced.add(folder)
        print(f"preflight: using the project in {folder} (found upward from {Path.cwd()})", file=sys.stderr)


def _inside(folder: Path, relative: str, key: str) -> Path:
    """`folder / relative`, refused (ProjectError) when it leads outside the project folder."""
    target = (folder / relative).resolve()
    if target != folder and folder not in target.parents:
        raise ProjectError(f"{folder / PROJECT_FILE}: {key} {relative!r} leads outside the project folder")
    return target


def _settings() -> dict[str, object]:
    folder = project_dir()
    path = folder / PROJECT_FILE
    document = load_yaml(read_text(path), str(path))
    return document if isinstance(document, dict) else {}


def stacks_dir() -> Path:
    """Where the CLI reads Pulumi.<stack>.yaml: `stackConfigDir`, else the project's folder."""
    configured = _settings().get("stackConfigDir")
    folder = project_dir()
    return _inside(folder, configured, "stackConfigDir") if isinstance(configured, str) and configured else folder


def program_path() -> Path:
    """The program the Pulumi CLI runs: `main` (a file, or a folder with __main__.py), else
    the project folder's __main__.py."""
    folder = project_dir()
    main = _settings().get("main")
    target = _inside(folder, main, "main") if isinstance(main, str) and main else folder
    return target / "__main__.py" if target.is_dir() else target
