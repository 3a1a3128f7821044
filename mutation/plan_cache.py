"""A pytest plugin for `make mutate` only (loaded with `-p mutation.plan_cache` from the
[tool.mutmut] settings in pyproject.toml; `make test` never loads it). It makes a mutant cost
what its tests cost, not what the program costs, without changing what any test checks.

1. Program runs are replayed, not repeated, when the mutant cannot change them. Most tests
   start from a plan of the real `__main__.py` (`preflight.runtime.run_program`, 1-20 s each).
   In mutmut's stats run (every selected test once, unmutated) each plan is pickled under
   mutants/plan-cache/ together with the mutated functions the program called while making
   it (mutmut's own trampoline bookkeeping). In a mutant's run, a call with the same arguments
   loads the pickle when the mutant's function is not among them: a function the program never
   calls cannot change what the program registers, so the plan is the one the program would
   make. A mutant of a function the program calls (all of config/, registration.py and
   addons/ that the program uses, policy/rules/platform.py) runs the program for real.
   mutmut's clean run (no mutant) replays every plan: the code is the stats run's.
   A test that watches the program run rather than its plan always gets a real run, in every
   mode: it uses `monkeypatch` or captures what the run prints, or anything the program run
   goes through (preflight.runtime, its mocks, pulumi.runtime) is not what it was when this
   plugin loaded (a spy set by hand or with unittest.mock). Plans are keyed by the arguments
   and by a digest of the program's code in mutants/ and of the installed packages, so a
   stale cache is never replayed.
   A mutant of a function the program calls only while it reads its config (`load_spec` and
   `advisories`: most of config/) is checked first on that step alone: the stats run keeps the
   arguments `load_spec` got and what it and `advisories` returned (pickled), and the mutant's
   run calls both again under the mutant. When both return the same bytes (or raise the same
   error), the rest of the program gets the same spec and runs none of the mutated code, so the
   plan is the recorded one; otherwise the program runs for real. (Bytes differ for equal
   values only by chance of order, and then the program just runs: `make mutate` fixes
   PYTHONHASHSEED so that a later run can still match what an earlier one recorded.)
2. A mutant's tests run fastest first. mutmut's fork server passes them in set order, so a
   mutant that a 0.1 s test kills could first sit through a 20 s one. Test files are ordered
   by their fastest test (recorded in the stats run), tests within a file by duration; files
   stay contiguous so a module fixture is still set up once (no test here has a parametrized
   module or session fixture, which a reorder within the file could set up twice). For a
   mutant of a function the program calls after its config step (addons/, registration.py,
   the spec's helpers the components use) the golden plans go first: they compare every
   resource of three stacks, so they kill most such mutants in a second or two, where the
   tests sorted before them took 30 s to pass.
3. In the stats run, a test that uses a module or session fixture is filed under the mutated
   functions that fixture's setup called (mutmut files them under the first such test only).
4. The fork server loads the modules the stats run's program runs loaded (the provider
   SDKs load theirs lazily: 2-7 s of every mutant's first program run otherwise), then
   freezes its heap after collecting the tests (`gc.freeze()`): every mutant is a fork of it,
   and pytest's `gc.collect()` at the end of each run would otherwise touch, and so copy,
   every page the server holds.
"""

from __future__ import annotations

import copy
import gc
import hashlib
import importlib
import importlib.metadata
import json
import os
import pickle
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pulumi.runtime
import pulumi.runtime.mocks
import pulumi.runtime.settings
import pytest

import components.sdk_internals
import config
import preflight.runtime

CACHE = Path("plan-cache")  # relative to mutants/, where mutmut runs the tests
STATS = Path("mutmut-stats.json")
GOLDEN = "test_golden_plans.py"
MODULES = CACHE / "modules.json"
PROGRAM = CACHE / "program-functions.json"


# A test with one of these sees more of a program run than the plan it returns.
WATCHING = {"monkeypatch", "capsys", "capsysbinary", "capfd", "capfdbinary", "caplog", "recwarn"}
_test: pytest.Item | None = None


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    global _test
    _test = item


_wide_fixtures = 0  # module- or session-scoped fixtures being set up right now
# The stats run: the mutated functions each module- or session-scoped fixture's setup called.
_fixture_calls: dict[int, set[str]] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef: pytest.FixtureDef[Any], request: pytest.FixtureRequest) -> Any:
    global _wide_fixtures
    wide = fixturedef.scope != "function"
    _wide_fixtures += wide
    recording = wide and _mutant() == "stats"
    if recording:
        from mutmut.state import state

        outer = state()._stats
        state()._stats = set()
    try:
        yield
    finally:
        _wide_fixtures -= wide
        if recording:
            calls = state()._stats
            _fixture_calls.setdefault(id(fixturedef), set()).update(calls)
            outer |= calls
            state()._stats = outer


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """The stats run: a test depends on what the setup of each module or session fixture it
    uses called, though that setup ran (and mutmut counted its calls) only for the first test
    that used it. Without this a test that checks a plan from a shared fixture (most do) is
    never selected for the mutants that could change that plan: they survive untested.
    Runs before mutmut's own teardown hook, which files these calls under the test."""
    if _mutant() != "stats" or not _fixture_calls:
        return
    from mutmut.state import state

    info = getattr(item, "_fixtureinfo", None)
    for fixturedefs in getattr(info, "name2fixturedefs", {}).values():
        for fixturedef in fixturedefs:
            state()._stats |= _fixture_calls.get(id(fixturedef), set())


def _watched() -> bool:
    if any(vars(owner).get(name) is not value for owner, name, value in _UNPATCHED):
        return True
    # A module or session fixture cannot use a test's monkeypatch or capsys: only a call from
    # the test itself (or its function fixtures) can be watched by them.
    return _wide_fixtures == 0 and (_test is None or bool(WATCHING & set(getattr(_test, "fixturenames", ()))))


def _seams() -> list[tuple[Any, str, Any]]:
    """Every function a test could swap to watch a program run, as it is now."""
    owners = [
        preflight.runtime,
        preflight.runtime.RecordingMonitor,
        components.sdk_internals,
        components.sdk_internals.MockMonitor,
        preflight.runtime.PlanMocks,
        pulumi.runtime,
        pulumi.runtime.settings,
        pulumi.runtime.mocks,
        pulumi.runtime.mocks.MockMonitor,
    ]
    return [(owner, name, value) for owner in owners for name, value in vars(owner).items() if callable(value)]


_code_digest = ""


def _code() -> str:
    """The program's code in mutants/ (every mutant is in it): a cache from other code is stale."""
    global _code_digest
    if not _code_digest:
        digest = hashlib.sha256()
        for path in sorted(
            [
                Path("__main__.py"),
                *Path().glob("components/**/*.py"),
                *Path().glob("config/**/*.py"),
                *Path().glob("preflight/**/*.py"),
                *Path().glob("policy/**/*.py"),
            ]
        ):
            digest.update(str(path).encode() + b"\0" + path.read_bytes())
        # The installed packages too: a plan made by other provider SDKs is not today's.
        for dist in sorted(f"{d.metadata['Name']}=={d.version}" for d in importlib.metadata.distributions()):
            digest.update(dist.encode() + b"\0")
        _code_digest = digest.hexdigest()
    return _code_digest


def _mutant() -> str:
    from mutmut.mutation.trampoline import get_mutant_under_test

    return get_mutant_under_test()


def _key(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str | None:
    try:
        text = json.dumps([_code(), args, sorted(kwargs.items())], sort_keys=True, default=str)
    except (TypeError, ValueError):
        return None
    return hashlib.sha256(text.encode()).hexdigest()[:24]


class _SpecStep:
    """While the stats run records a program run: the mutated functions called inside
    `load_spec`/`advisories` (kept apart from those the rest of the program calls) and the
    arguments `load_spec` got."""

    def __init__(self) -> None:
        self.calls: set[str] = set()
        self.arguments: list[tuple[Any, ...]] = []


_step: _SpecStep | None = None
_program_functions: set[str] = set()  # called by a program run after its config step


def _spec_step(real: Callable[..., Any], keep_arguments: bool) -> Callable[..., Any]:
    def spec_step(*args: Any, **kwargs: Any) -> Any:
        step = _step
        if step is None:
            return real(*args, **kwargs)
        from mutmut.state import state

        program_calls = state()._stats
        state()._stats = set()
        try:
            if keep_arguments:
                step.arguments.append(copy.deepcopy((args, kwargs)))
            return real(*args, **kwargs)
        finally:
            step.calls |= state()._stats
            state()._stats = program_calls

    spec_step.__doc__ = real.__doc__
    return spec_step


def _spec_outcome(args: tuple[Any, ...], kwargs: dict[str, Any]) -> bytes:
    """What the config step makes of these arguments, as bytes: the spec and its advisories,
    or the error it raises. Anything that cannot be pickled compares unequal (a real run)."""
    try:
        loaded = config.load_spec(*copy.deepcopy(args), **copy.deepcopy(kwargs))
        outcome: Any = (loaded, [str(advisory) for advisory in config.advisories(loaded)])
    except Exception as error:  # the error is the outcome
        outcome = (type(error).__name__, str(error))
    try:
        return pickle.dumps(outcome)
    except Exception:  # not picklable: never equal
        return os.urandom(16)


def _recorded(real: Callable[..., Any], key: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The stats run: run the program, keep its plan, the mutated functions it called (those
    of the config step apart) and what the config step made."""
    global _step
    from mutmut.state import state

    outer = state()._stats
    state()._stats = set()
    _step = _SpecStep()
    step = _step
    try:
        plan = real(*args, **kwargs)
        called = sorted(state()._stats | step.calls)
        rest = sorted(state()._stats)
        _program_functions.update(rest)
    finally:
        _step = None
        outer |= state()._stats | step.calls
        state()._stats = outer
    CACHE.mkdir(exist_ok=True)
    try:
        (CACHE / f"{key}.pickle").write_bytes(pickle.dumps(plan))
    except (pickle.PicklingError, TypeError, AttributeError):
        return plan
    (CACHE / f"{key}.json").write_text(json.dumps(called), encoding="utf-8")
    if len(step.arguments) == 1:  # one config step, then the rest of the program
        (CACHE / f"{key}.spec.pickle").write_bytes(
            pickle.dumps(
                {
                    "arguments": step.arguments[0],
                    "outcome": _spec_outcome(*step.arguments[0]),
                    "step": sorted(step.calls),
                    "rest": rest,
                }
            )
        )
    return plan


def _replayable(key: str, mutant: str) -> bool:
    from mutmut.utils.format_utils import mangled_name_from_mutant_name

    calls = CACHE / f"{key}.json"
    if not calls.exists() or not (CACHE / f"{key}.pickle").exists():
        return False
    if mutant == "":  # mutmut's clean run: the unmutated code, as in the stats run
        return True
    if "__mutmut_" not in mutant:
        return False
    function = mangled_name_from_mutant_name(mutant)
    if function not in json.loads(calls.read_text(encoding="utf-8")):
        return True
    return _same_spec(key, function)


def _same_spec(key: str, function: str) -> bool:
    """The mutant's function runs only in the config step, and under the mutant that step
    makes the same spec and advisories (or the same error) from the recorded arguments.
    Checked at every call (milliseconds): nothing carries over from an earlier one."""
    path = CACHE / f"{key}.spec.pickle"
    if not path.exists():
        return False
    recorded = pickle.loads(path.read_bytes())
    if function not in recorded["step"] or function in recorded["rest"]:
        return False
    return bool(_spec_outcome(*recorded["arguments"]) == recorded["outcome"])


def _caching(real: Callable[..., Any]) -> Callable[..., Any]:
    def run_program(*args: Any, **kwargs: Any) -> Any:
        key = _key(args, kwargs)
        mutant = _mutant()
        if key is None or _watched():
            return real(*args, **kwargs)
        if mutant == "stats":
            return _recorded(real, key, args, kwargs)
        if _replayable(key, mutant):
            return pickle.loads((CACHE / f"{key}.pickle").read_bytes())
        return real(*args, **kwargs)

    run_program.__doc__ = real.__doc__
    return run_program


# Before any test module does `from preflight.runtime import run_program` (or imports
# load_spec: outside a recorded program run the wrappers only pass the call on).
# Mutants must never share a recording through the test suite's own cache (tests/plans.py):
# an empty folder name keeps its recordings in one process, one mutant.
os.environ["ANYSCALE_TEST_PLANS"] = ""
preflight.runtime.run_program = _caching(preflight.runtime.run_program)  # type: ignore[assignment]
config.load_spec = _spec_step(config.load_spec, keep_arguments=True)  # type: ignore[assignment]
config.advisories = _spec_step(config.advisories, keep_arguments=False)  # type: ignore[assignment]
_UNPATCHED = _seams()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if "__mutmut_" not in _mutant() or not STATS.exists():
        return
    durations: dict[str, float] = json.loads(STATS.read_text(encoding="utf-8"))["duration_by_test"]

    def duration(item: pytest.Item) -> float:
        return durations.get(item.nodeid, 0.0)

    fastest: dict[str, float] = {}
    for item in items:
        path = str(item.path)
        fastest[path] = min(fastest.get(path, duration(item)), duration(item))
    # The golden plans first for a mutant of the program's own code; a mutant of the config
    # step is usually killed faster by a spec test (milliseconds) than by a program run.
    from mutmut.utils.format_utils import mangled_name_from_mutant_name

    program = set(json.loads(PROGRAM.read_text(encoding="utf-8"))) if PROGRAM.exists() else set()
    golden_first = mangled_name_from_mutant_name(_mutant()) in program
    items.sort(
        key=lambda item: (
            not (golden_first and item.path.name == GOLDEN),
            fastest[str(item.path)],
            str(item.path),
            duration(item),
        )
    )


def pytest_sessionfinish(session: pytest.Session) -> None:
    if _mutant() != "stats":
        return
    # The modules the program runs loaded, for the fork server's warm-up, and the functions
    # the program calls after its config step (merged: a later stats run may cover only new tests).
    CACHE.mkdir(exist_ok=True)
    loaded = {n for n, m in list(sys.modules.items()) if type(m) is types.ModuleType and not n.startswith("_")}
    for path, names in ((MODULES, loaded), (PROGRAM, _program_functions)):
        known = set(json.loads(path.read_text(encoding="utf-8"))) if path.exists() else set()
        path.write_text(json.dumps(sorted(known | names)), encoding="utf-8")


def _warm_up() -> None:
    """Load in the fork server what the stats run's program runs loaded. Each mutant is a fork
    of it: otherwise every mutant would load the provider SDKs' modules again on its first
    program run (pulumi_kubernetes and pulumi_azure_native load them lazily, 2-7 s of each
    mutant's run). Parents before children: a lazy package loads its own submodules."""
    if not MODULES.exists():
        return
    for name in sorted(json.loads(MODULES.read_text(encoding="utf-8")), key=lambda n: (n.count("."), n)):
        module = sys.modules.get(name)
        try:
            if module is None:
                importlib.import_module(name)
            elif type(module) is not types.ModuleType:  # pulumi's lazy module: any attribute loads it
                getattr(module, "_loaded", None)
        except Exception:  # a module that only loads in some context: the mutant loads it then
            continue


def pytest_collection_finish(session: pytest.Session) -> None:
    if session.config.option.collectonly:  # the fork server's warm-up (and mutmut's listing)
        if _mutant() not in {"stats", "list_all_tests"}:
            _warm_up()
        gc.collect()
        gc.freeze()
