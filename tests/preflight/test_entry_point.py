"""The command's entry point (preflight/__main__.py) and where it finds the project
(preflight/project.py): `--help`, `--version`, `--project-dir`, and stack files found from
any working directory. The installed console script is declared in pyproject.toml."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from preflight import project
from preflight.stackfile import StackFileError, stack_path
from tests.cli import preflight_in_process

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _no_chosen_project() -> object:
    yield
    project.choose(None)


def test_help_exits_0_and_lists_every_verb() -> None:
    for flag in ("--help", "-h"):
        result = preflight_in_process(flag)
        assert result.returncode == 0 and result.stderr == ""
        assert result.stdout.startswith("usage: python -m preflight [--project-dir DIR] <command> [args]\n")
        for verb in ("validate", "plan", "diff", "policy", "cost"):
            assert f"\n  {verb} " in result.stdout


def test_version_prints_the_version_file() -> None:
    result = preflight_in_process("--version")
    assert (result.returncode, result.stdout) == (
        0,
        f"anyscale-cloud-preflight {(ROOT / 'VERSION').read_text().strip()}\n",
    )


def test_project_dir_that_is_not_the_project_exits_2(tmp_path: Path) -> None:
    (tmp_path / "Pulumi.yaml").write_text("name: something-else\nruntime: python\n")
    result = preflight_in_process("--project-dir", str(tmp_path), "plan", "--stack", "dev")
    assert result.returncode == 2
    assert (
        result.stderr
        == f"error: --project-dir {tmp_path}: not an anyscale-cloud project (its Pulumi.yaml names 'something-else')\n"
    )
    assert preflight_in_process("--project-dir").returncode == 2


def _copy_project(into: Path, stack_dir: str) -> Path:
    """A project folder elsewhere, its stack files in stack_dir (Pulumi.yaml's stackConfigDir)."""
    into.mkdir()
    (into / "Pulumi.yaml").write_text(f"name: anyscale-cloud\nruntime: python\nstackConfigDir: {stack_dir}\n")
    (into / stack_dir).mkdir()
    (into / stack_dir / "Pulumi.dev.yaml").write_text((ROOT / "stacks/Pulumi.dev.yaml").read_text())
    return into


def test_stack_files_come_from_the_nearest_project_upward(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = _copy_project(tmp_path / "copy", "conf")
    (copy / "deep" / "er").mkdir(parents=True)
    monkeypatch.chdir(copy / "deep" / "er")
    monkeypatch.delenv(project.ENV, raising=False)
    assert stack_path("dev") == copy / "conf" / "Pulumi.dev.yaml"
    assert project.program_path() == copy / "__main__.py"


def test_a_project_found_upward_is_named_and_cannot_point_outside_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A Pulumi.yaml planted above the working directory (a shared /tmp) would run its program:
    # the command says which project it uses, and `main` / `stackConfigDir` stay inside it.
    evil = tmp_path / "evil"
    (evil / "sub").mkdir(parents=True)
    (evil / "Pulumi.yaml").write_text("name: anyscale-cloud\nruntime: python\nmain: ../payload.py\n")
    monkeypatch.chdir(evil / "sub")
    monkeypatch.delenv(project.ENV, raising=False)
    with pytest.raises(project.ProjectError, match=r"main '\.\./payload\.py' leads outside the project folder"):
        project.program_path()
    assert f"preflight: using the project in {evil} (found upward from {evil / 'sub'})" in capsys.readouterr().err
    (evil / "Pulumi.yaml").write_text("name: anyscale-cloud\nruntime: python\nstackConfigDir: /etc\n")
    with pytest.raises(project.ProjectError, match=r"stackConfigDir '/etc' leads outside the project folder"):
        project.stacks_dir()


def test_outside_any_project_the_checkout_the_code_is_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(project.ENV, raising=False)
    assert stack_path("dev") == ROOT / "stacks" / "Pulumi.dev.yaml"
    # An installed wheel has no project beside its code: the command asks for one.
    monkeypatch.setattr(project, "SOURCE_ROOT", tmp_path)
    with pytest.raises(StackFileError, match=r"^no anyscale-cloud project here: .* pass --project-dir"):
        stack_path("dev")


def test_project_dir_and_the_environment_choose_the_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy = _copy_project(tmp_path / "copy", "stacks")
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv(project.ENV, str(copy))
    assert stack_path("dev") == copy / "stacks" / "Pulumi.dev.yaml"
    project.choose(ROOT)  # --project-dir wins over the environment
    assert stack_path("dev") == ROOT / "stacks" / "Pulumi.dev.yaml"


def test_pyproject_declares_the_script_and_reads_the_version_file() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert meta["project"]["name"] == "anyscale-cloud"
    assert meta["project"]["dynamic"] == ["version"]
    assert meta["tool"]["setuptools"]["dynamic"]["version"] == {"file": "VERSION"}
    assert meta["project"]["scripts"] == {"anyscale-cloud-preflight": "preflight.__main__:console"}
    # Every package the program and the command import is in the distribution.
    includes = meta["tool"]["setuptools"]["packages"]["find"]["include"]
    assert includes == ["config*", "components*", "preflight*", "policy*"]


def test_the_command_runs_from_any_directory(tmp_path: Path) -> None:
    """As an installed script runs: another working directory, the code found on the path."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(project.ENV, None)
    result = subprocess.run(
        [sys.executable, "-c", "from preflight.__main__ import console; console()", "--version"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == f"anyscale-cloud-preflight {(ROOT / 'VERSION').read_text().strip()}\n"


@pytest.mark.parametrize("entry", ["python -m preflight", "console script"])
def test_a_command_exits_with_its_code_after_freezing_the_heap(entry: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both entry points end through preflight/heap.py exit_without_last_collections: the
    command's exit code, the heap frozen first (the exit's collections skip it)."""
    import gc
    import runpy

    import preflight.__main__ as entry_point

    frozen: list[int] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(1))
    monkeypatch.setattr(sys, "argv", ["preflight", "no-such-verb"])  # main returns 2 (usage)
    threshold = gc.get_threshold()
    try:
        with pytest.raises(SystemExit) as ended:
            if entry == "console script":
                entry_point.console()
            else:
                # As `python -m preflight` starts: the module not imported yet (runpy warns otherwise).
                monkeypatch.delitem(sys.modules, "preflight.__main__")
                runpy.run_module("preflight", run_name="__main__")
    finally:
        gc.set_threshold(*threshold)
    assert (ended.value.code, frozen) == (2, [1])
