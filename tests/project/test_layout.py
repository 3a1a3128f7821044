"""The shape of the code: small production modules, and no two of our modules importing
each other, directly or around a cycle (every import counts, `if TYPE_CHECKING` and
function-level ones too: a cycle hidden behind either still ties the two together).

Production modules are every `.py` file outside tests/ (and outside the venv and the
tools' own folders). An import is followed when it names one of them: `config.names`,
`from config import load_spec` (the package config/__init__.py), and inside policy/ the pack's
own spelling `rules.x` (the Pulumi CLI runs the pack with policy/ on sys.path).
"""

from __future__ import annotations

import ast
import functools
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 500
# Folders that hold no module of ours: the venv, tool caches, mutmut's copy, build output.
SKIPPED = {"tests", "venv", "mutants", "build", ".uv", ".git", "__pycache__", "node_modules"}
# Over the limit until they are split: each may only shrink, and its entry goes when it is
# under the limit (policy/policies.py: the pack's policy declarations).
CEILINGS: dict[str, int] = {}


def production_modules(root: Path = ROOT) -> dict[str, Path]:
    """Dotted module name -> path, for every production module under `root`."""
    return dict(_production_modules(root))


@functools.cache
def _production_modules(root: Path) -> tuple[tuple[str, Path], ...]:
    # os.walk, pruning the skipped folders as it goes: rglob would list the venv's tens of
    # thousands of files first (over a second a call) only to drop them.
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED and not d.startswith("."))
        for file in files:
            if not file.endswith(".py") or file.startswith("."):
                continue
            relative = (Path(folder) / file).relative_to(root)
            parts = list(relative.with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found.append((".".join(parts), relative))
    return tuple(sorted(found, key=lambda item: item[1]))


def imported(module: str, relative: Path, source: str, modules: dict[str, Path]) -> set[str]:
    """Our modules that `module` imports, anywhere in its source."""

    def ours(name: str) -> str | None:
        candidates = [name, f"policy.{name}"] if relative.parts[0] == "policy" else [name]
        return next((c for c in candidates if c in modules), None)

    package = module.split(".") if relative.name == "__init__.py" else module.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {hit for alias in node.names if (hit := ours(alias.name))}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                hit = ours(f"{base}.{alias.name}") or ours(base)
                if hit:
                    found.add(hit)
    found.discard(module)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or around a cycle (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    return {name: set(targets) for name, targets in _import_graph(root).items()}


@functools.cache
def _import_graph(root: Path) -> dict[str, frozenset[str]]:
    # Read once per test run: three tests walk the same graph.
    modules = production_modules(root)
    return {
        name: frozenset(imported(name, path, (root / path).read_text(encoding="utf-8"), modules))
        for name, path in modules.items()
    }


def test_no_production_module_is_over_the_limit() -> None:
    sizes = {
        path.as_posix(): len((ROOT / path).read_text(encoding="utf-8").splitlines())
        for path in production_modules().values()
    }
    over = {path: lines for path, lines in sizes.items() if lines > CEILINGS.get(path, MAX_LINES)}
    assert over == {}, f"split these modules (at most {MAX_LINES} lines each)"
    assert all(path in sizes and sizes[path] > MAX_LINES for path in CEILINGS), "a module under the limit: drop it"


# A test module past this wants splitting by the unit it tests (tests/<package>/test_<unit>.py).
MAX_TEST_LINES = 900


def test_no_test_module_is_over_its_limit() -> None:
    sizes = {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted((ROOT / "tests").rglob("*.py"))
    }
    over = {path: lines for path, lines in sizes.items() if lines > MAX_TEST_LINES}
    assert over == {}, f"split these test modules by the unit they test (at most {MAX_TEST_LINES} lines each)"


def test_no_two_modules_import_each_other() -> None:
    assert cycles(import_graph()) == []


# Data flows stack file -> model (config) -> components -> resources; the offline tools read
# both. Each package may import only the packages listed here (and itself). config/ takes the
# pack's pure platform rules (policy.rules), so that the model and the pack word a broken rule
# alike; the pack imports nothing outside its folder (it is published alone).
ALLOWED_IMPORTS = {
    "config": {"config", "policy"},
    "components": {"components", "config", "policy"},
    "preflight": {"preflight", "components", "config", "policy"},
    "policy": {"policy"},
}


def package_imports(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Top-level package -> the top-level packages its modules import."""
    out: dict[str, set[str]] = {}
    for module, targets in graph.items():
        out.setdefault(module.split(".")[0], set()).update(t.split(".")[0] for t in targets)
    return out


def test_packages_depend_one_way() -> None:
    found = package_imports(import_graph())
    wrong = {
        package: sorted(found.get(package, set()) - allowed)
        for package, allowed in ALLOWED_IMPORTS.items()
        if found.get(package, set()) - allowed
    }
    assert wrong == {}, "the model never imports the components, nor the pack anything of the project"
    # Only the pack's pure rules, never its policy declarations (which import pulumi_policy).
    from_config = {t for m, targets in import_graph().items() if m.startswith("config") for t in targets}
    assert {t for t in from_config if t.startswith("policy")} <= {
        t for t in from_config if t.startswith("policy.rules")
    }


def test_the_one_way_check_sees_a_model_importing_a_component(tmp_path: Path) -> None:
    for package in ("config", "components"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "components" / "cloud.py").write_text("from config import names\n")
    (tmp_path / "config" / "names.py").write_text("x = 1\n")
    (tmp_path / "config" / "load.py").write_text("from components.cloud import x\n")
    assert package_imports(import_graph(tmp_path))["config"] == {"components"}


def test_the_checks_see_what_they_guard(tmp_path: Path) -> None:
    # A cycle through a TYPE_CHECKING import and a function-level one, and a long module.
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.b import B\n"
    )
    (tmp_path / "pkg" / "b.py").write_text("def f():\n    from pkg import c\n")
    (tmp_path / "pkg" / "c.py").write_text("from . import a\n" + "x = 1\n" * MAX_LINES)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "t.py").write_text("import pkg.a\n")
    graph = import_graph(tmp_path)
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]
    assert "tests.t" not in graph
    assert len((tmp_path / "pkg" / "c.py").read_text().splitlines()) > MAX_LINES


def test_the_spec_imports_no_pulumi_or_cloud_sdk() -> None:
    """`preflight validate` loads the spec alone: no SDK, so that it stays fast."""
    code = (
        "import sys, config, config.reference, preflight.validate; "
        "print(sorted({m.split('.')[0] for m in sys.modules if m.startswith(('pulumi', 'google', 'grpc'))}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "[]", result.stdout


# What the tests of each folder cover: a source package, or the repository itself.
TEST_FOLDERS = {"config", "components", "policy", "preflight", "project"}


def test_tests_mirror_the_source_tree() -> None:
    """Every test file is in the folder of what it tests (tests/<package>/test_*.py), and each
    folder but `project` names a package of the source."""
    misplaced = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "tests").rglob("test_*.py")
        if "fixtures" not in path.parts and path.parent.name not in TEST_FOLDERS
    ]
    assert misplaced == []
    assert all((ROOT / folder).is_dir() for folder in TEST_FOLDERS - {"project"})
    assert {p.name for p in (ROOT / "tests").iterdir() if p.is_dir() and any(p.glob("test_*.py"))} == TEST_FOLDERS


def test_mutation_testing_copies_every_module_the_tests_import() -> None:
    """mutmut runs the tests in a copy made of `source_paths` and `also_copy` only: a module of
    the program or the pack left out (policy/catalog once) fails its stats run for every mutant."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]
    copied = [*config["source_paths"], *config["also_copy"]]
    modules = [
        str(path.relative_to(ROOT))
        for folder in ("config", "components", "preflight", "policy")
        for path in (ROOT / folder).rglob("*.py")
        if "__pycache__" not in path.parts and "venv" not in path.parts
    ]
    missing = [m for m in modules if not any(m == c or m.startswith(c.rstrip("/") + "/") for c in copied)]
    assert missing == []
    # Files read when the program is imported.
    assert {"VERSION", "provider", "stacks", "Pulumi.yaml"} <= set(config["also_copy"])
