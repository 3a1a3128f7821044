"""A pytest plugin for `make mutate` only (loaded with `-p mutation.pack_alias` from the
[tool.mutmut] settings in pyproject.toml; `make test` never loads it).

mutmut names a mutant after the file's path (policy/rules/aks.py -> `policy.rules.aks`) and
activates it only in a function whose `__module__` is that name. The policy pack imports its
rules the way the Pulumi CLI runs it, as top-level `rules.aks` (policy/ on sys.path), so
without this every mutant of a rule would run no test. This finder makes `rules` and
`rules.<name>` the very module objects `policy.rules` and `policy.rules.<name>`: one copy of
each rule, under the name mutmut expects. Nothing else changes: the pack still imports
`rules.x`, and the isolated-pack test (a subprocess with `python -I`) never sees this."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname == "rules" or fullname.startswith("rules."):
            return importlib.machinery.ModuleSpec(fullname, self)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(f"policy.{spec.name}")

    def exec_module(self, module: ModuleType) -> None:
        # Already executed as policy.<name>; only register it under the pack's name too.
        pass


def _install() -> None:
    if not any(isinstance(finder, _Alias) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Alias())


_install()
