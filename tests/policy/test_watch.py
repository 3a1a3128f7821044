"""The watch the sweeps over every input value trust to say which policies read a value
(tests/policy/watch.py): a way of reading it missed would leave that value unchecked for
that policy in silence, so each way a policy can read the SDK's proxy (and the resource
options) is shown seen here."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from components.sdk_internals import UnknownValueError, read_only_unknown_checking_proxy
from preflight.pack_import import pack_module
from preflight.policy import engine_value, options_of
from tests.policy.watch import Reads, Watch

PlanResourceOptions = pack_module("rules.options").PlanResourceOptions
offline_option = pack_module("rules.options").offline_option

INPUTS = {
    "name": "n",
    "spec": {"size": 3, "tags": {"a": "1"}},
    "pools": [{"vm": "d4"}, {"vm": "d8"}, {"vm": "d16"}],
    "later": "<unknown>",
}


def read(how: Callable[[Any], Any]) -> Reads:
    """What `how` reads of the proxy of INPUTS, watched at path ("r",) (a stack's record)."""
    props = read_only_unknown_checking_proxy(engine_value(INPUTS))
    watch = Watch()
    watch.add(props, ("r",))
    with watch.reading() as reads:
        how(props)
    return reads


@pytest.mark.parametrize(
    ("how", "values"),
    [
        (lambda p: p["name"], {("r", "name")}),
        (lambda p: p.get("spec"), {("r", "spec")}),
        (lambda p: p.get("missing"), {("r", "missing")}),
        (lambda p: "spec" in p, {("r", "spec")}),
        (lambda p: p["spec"]["tags"]["a"], {("r", "spec"), ("r", "spec", "tags"), ("r", "spec", "tags", "a")}),
        (lambda p: dict(p["spec"]["tags"].items()), {("r", "spec"), ("r", "spec", "tags"), ("r", "spec", "tags", "a")}),
        (lambda p: list(p["spec"].values()), {("r", "spec"), ("r", "spec", "size"), ("r", "spec", "tags")}),
        (lambda p: p["spec"]["tags"] == {"a": "1"}, {("r", "spec"), ("r", "spec", "tags"), ("r", "spec", "tags", "a")}),
        (lambda p: p["pools"][-1], {("r", "pools"), ("r", "pools", 2)}),
        (lambda p: p["pools"][1]["vm"], {("r", "pools"), ("r", "pools", 1), ("r", "pools", 1, "vm")}),
        (lambda p: p["pools"][1:], {("r", "pools"), ("r", "pools", 1), ("r", "pools", 2)}),
    ],
)
def test_a_value_read_is_seen_at_its_path(how: Callable[[Any], Any], values: set[tuple[str | int, ...]]) -> None:
    assert read(how).values == values


def test_a_list_read_to_its_end_reads_its_length() -> None:
    reads = read(lambda p: [pool["vm"] for pool in p["pools"]])
    assert {("r", "pools", index, "vm") for index in range(3)} <= reads.values
    assert ("r", "pools") in reads.shapes  # the index past the end: one more pool would be read
    assert read(lambda p: p["pools"].index(p["pools"][1])).values >= {("r", "pools", 0), ("r", "pools", 1)}


def test_an_unknown_read_is_a_read() -> None:
    def unknown(props: Any) -> None:
        with pytest.raises(UnknownValueError):
            props["later"]

    assert read(unknown).values == {("r", "later")}


def test_keys_and_lengths_are_the_shape() -> None:
    reads = read(lambda p: (list(p["spec"]), len(p["pools"])))
    assert reads.shapes == {("r", "spec"), ("r", "pools")}
    assert reads.values == {("r", "spec"), ("r", "pools")}
    assert reads.sees(("r", "spec", "size"), deleted=True) and not reads.sees(("r", "spec", "size"))
    # Its keys alone, through iter() (list() above asks the length first).
    assert read(lambda p: next(iter(p["spec"]))).shapes == {("r", "spec")}


@pytest.mark.parametrize(
    "how",
    [
        lambda p: p["spec"]["__target"],
        lambda p: vars(p["spec"]),
        lambda p: copy.copy(p["spec"]),
        lambda p: copy.deepcopy(p["spec"]),
        lambda p: pickle.dumps(p["spec"]),
    ],
    ids=["target", "vars", "copy", "deepcopy", "pickle"],
)
def test_a_map_taken_whole_is_every_value_in_it(how: Callable[[Any], Any]) -> None:
    reads = read(how)
    assert reads.sees(("r", "spec", "size")) and reads.sees(("r", "spec", "tags"), deleted=True)


def test_a_change_no_read_reached_is_not_seen() -> None:
    reads = read(lambda p: (p["spec"]["size"], p["pools"][0]["vm"]))
    assert reads and not reads.everything
    for path in [("r", "name"), ("r", "spec", "tags"), ("r", "pools", 1), ("r", "pools", 0, "zone")]:
        assert not reads.sees(path), path
    assert not reads.sees(("r", "spec", "tags"), deleted=True)  # the keys of spec were never listed
    assert not read(lambda p: None)


def test_the_watched_proxy_stays_read_only_and_reads_as_before() -> None:
    props = read_only_unknown_checking_proxy(engine_value(INPUTS))
    watch = Watch()
    watch.add(props)
    with pytest.raises(TypeError, match="policies read them, never write"):
        props["spec"]["size"] = 4
    assert props["spec"]["tags"]["a"] == "1" and [p["vm"] for p in props["pools"]] == ["d4", "d8", "d16"]
    watch.stop()
    with watch.reading() as reads:
        props["spec"]["size"]
    assert not reads  # no longer watched


def test_an_options_attribute_read_is_seen_by_its_name() -> None:
    options = options_of({"options": {"protect": True, "retainOnDelete": False}})
    watch = Watch()
    watch.add_attributes(options, ("options",))
    with watch.reading() as reads:
        assert options.protect is True and offline_option(options, "retain_on_delete") is False
    assert reads.values == {("options", "protect"), ("options", "retain_on_delete")}
    with watch.reading() as reads:
        vars(options)
    assert reads.sees(("options", "deleted_with"))
    watch.stop()
    assert type(options) is PlanResourceOptions  # as it was
