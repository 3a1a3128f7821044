"""Malformed plans: any value in any place of a plan file makes `diff` and `policy`
answer with an exit code (2 with one line for a plan they cannot use), never a traceback."""

from __future__ import annotations

import contextlib
import copy
import io
import json
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from preflight import diff, policy
from tests.text import text

FIXTURE = Path(__file__).parents[1] / "fixtures" / "plans" / "two_resources.json"
BASE = json.loads(FIXTURE.read_text())


def all_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, child in value.items():
            found += all_paths(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += all_paths(child, (*path, index))
    return found


# Record-level paths first: the fields every reader walks.
PATHS = [p for p in all_paths(BASE) if len(p) <= 4]
VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), text(max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(text(max_size=6), inner, max_size=3)),
    max_leaves=6,
)


def replaced(path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    plan = copy.deepcopy(BASE)
    node = plan
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return plan


def run(main: Any, argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(argv)
    return code, out.getvalue()


@given(path=st.sampled_from(PATHS), value=VALUES)
def test_any_value_anywhere_is_an_exit_code_not_a_traceback(
    tmp_path_factory: Any, path: tuple[Any, ...], value: Any
) -> None:
    head = tmp_path_factory.mktemp("plans") / "head.json"
    head.write_text(json.dumps(replaced(path, value)))
    code, out = run(diff.main, [str(FIXTURE), str(head)])
    assert code in (0, 2, 3), out
    if code == 2:
        assert out.startswith("error: ") and out.count("\n") == 1, out
    code, out = run(policy.main, ["--plan", str(head)])
    assert code in (0, 1, 2), out


def test_a_wrong_field_type_names_the_field(tmp_path_factory: Any) -> None:
    head = tmp_path_factory.mktemp("plans") / "head.json"
    head.write_text(json.dumps(replaced(("resources", 1, "options", "replaceOnChanges"), True)))
    code, out = run(diff.main, [str(FIXTURE), str(head)])
    assert code == 2
    assert (
        out.strip()
        == f"error: {head} is not a plan: resources[1] (azure): `options.replaceOnChanges` must be a list (or null)"
    )
