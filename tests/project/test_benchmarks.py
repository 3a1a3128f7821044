"""The benchmark scripts cannot rot quietly: the stacks they generate pass the spec, the SDK
floor registers exactly what it is asked to, and their command lines refuse bad input.

Cheap on purpose (no timing, no child process, one small mock run): `make bench-smoke`
runs the scripts themselves, in CI after `make test`.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from config import MAX_RESOURCES, SpecError, load_spec
from config.currency import today
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
EVERY_PROVIDER = ["Azure", "AWS", "GCP", "Generic"]


@pytest.fixture(scope="module")
def bench_plan() -> ModuleType:
    return load_script("bench_plan")


@pytest.fixture(scope="module")
def bench_diff() -> ModuleType:
    return load_script("bench_diff")


@pytest.fixture(scope="module")
def bench_validate() -> ModuleType:
    return load_script("bench_validate")


def spec_of(values: dict[str, Any]) -> Any:
    """The spec's verdict on stack values, as the program reaches it (SpecError if refused)."""
    return load_spec(
        values.get("anyscale-cloud:cloud"),
        values.get("anyscale-cloud:resources"),
        values.get("anyscale-cloud:secrets"),
        today=today(),
    )


# --- the generated stacks pass the spec ----------------------------------------------------


@pytest.mark.parametrize("providers", [EVERY_PROVIDER, ["Azure"], ["Azure", "Generic"]])
def test_bench_plan_stacks_pass_the_spec(bench_plan: ModuleType, providers: list[str]) -> None:
    # 9: every provider at least twice (second turn: the next region of each) with the
    # primary, so every template and the region cycling are checked.
    values = bench_plan.stack_values(9, providers)
    spec = spec_of(values)
    assert len(spec.resources) == 9
    assert [r.provider for r in spec.resources[1:]] == [providers[i % len(providers)] for i in range(1, 9)]
    assert len({r.name for r in spec.resources}) == 9
    assert bench_plan.check_stack(values) == []  # no advisory either: nothing for the program to log


def test_bench_plan_generic_resources_keep_their_bucket_keys(bench_plan: ModuleType) -> None:
    """The regression that made the benchmark fail: a Generic endpoint without credentials."""
    generic = [
        r
        for r in bench_plan.stack_values(8, EVERY_PROVIDER)["anyscale-cloud:resources"][1:]
        if r["provider"] == "Generic"
    ]
    assert generic
    for item in generic:
        assert item["storage"]["endpoint"] and item["storage"]["credentials"]
        assert item["storage"]["region"] == "us-east-1"  # the bucket's own, not the routing label


def test_bench_plan_refuses_an_invalid_stack_before_timing_anything(
    bench_plan: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = bench_plan.stack_values

    def without_keys(n: int, providers: list[str]) -> dict[str, Any]:
        values: dict[str, Any] = real(n, providers)
        for item in values["anyscale-cloud:resources"]:
            if item["provider"] == "Generic":
                del item["storage"]["credentials"]
        return values

    def never(*args: object) -> None:
        raise AssertionError("a benchmark ran on a stack the spec refuses")

    monkeypatch.setattr(bench_plan, "stack_values", without_keys)
    monkeypatch.setattr(bench_plan, "spawn", never)
    assert bench_plan.main(["--sizes", "4", "--repeat", "1", "--providers", ",".join(EVERY_PROVIDER)]) == 2
    error = capsys.readouterr().err
    assert "the generated stack of size 4 is not valid" in error
    assert "a custom endpoint reaches the operator only with the bucket's keys" in error


def test_bench_validate_stack_passes_the_spec(bench_validate: ModuleType) -> None:
    spec = spec_of(bench_validate.big_stack(7)["config"])
    assert len(spec.resources) == 7


def test_the_spec_still_refuses_a_generic_endpoint_without_keys(bench_plan: ModuleType) -> None:
    """The check the benchmark relies on is the spec's own: it would catch the old stacks."""
    values = bench_plan.stack_values(4, EVERY_PROVIDER)
    del values["anyscale-cloud:resources"][3]["storage"]["credentials"]
    with pytest.raises(SpecError, match="custom endpoint"):
        spec_of(values)
    with pytest.raises(bench_plan.InvalidStack, match=r"resources\[3\]\.storage\.endpoint"):
        bench_plan.check_stack(values)


# --- the SDK floor --------------------------------------------------------------------------


@pytest.fixture
def floor_plan(bench_plan: ModuleType) -> Any:
    return bench_plan.run_floor(2, 3)


def test_the_floor_registers_exactly_what_it_is_asked(bench_plan: ModuleType, floor_plan: Any) -> None:
    assert bench_plan.counts(floor_plan) == (2, 3)
    assert len(floor_plan.resources) == 5
    groups = floor_plan.of_type(bench_plan.FLOOR_COMPONENT)
    things = floor_plan.of_type(bench_plan.FLOOR_TYPE)
    assert [r["custom"] for r in groups] == [False, False] and all(r["custom"] for r in things)
    # A tree, as the program nests its components: the second group and every thing under one.
    assert groups[0]["parent"].endswith("::pulumi:pulumi:Stack::anyscale-cloud-floor")
    assert groups[1]["parent"] == groups[0]["urn"]
    assert {r["parent"] for r in things} == {g["urn"] for g in groups}


def test_the_floor_without_components(bench_plan: ModuleType) -> None:
    assert bench_plan.counts(bench_plan.run_floor(0, 2)) == (0, 2)


# --- the command lines ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["--sizes", "0"],
        ["--sizes", "4,x"],
        ["--sizes", ","],
        ["--sizes", "-4"],
        ["--repeat", "0"],
        ["--providers", "AWS,GCP"],  # no Azure: the primary's provider
        ["--providers", "Azure,Oracle"],
        ["--no-such-flag"],
    ],
)
def test_bench_plan_refuses_bad_arguments(bench_plan: ModuleType, argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        bench_plan.main(argv)
    assert exit_info.value.code == 2


@pytest.mark.parametrize("argv", [["--count", "0"], ["--count", "x"], ["--limit", "0"], ["--limit", "nan"]])
def test_bench_diff_refuses_bad_arguments(bench_diff: ModuleType, argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        bench_diff.main(argv)
    assert exit_info.value.code == 2


@pytest.mark.parametrize("count", ["0", str(MAX_RESOURCES + 1)])
def test_bench_validate_refuses_bad_arguments(bench_validate: ModuleType, count: str) -> None:
    with pytest.raises(SystemExit) as exit_info:
        bench_validate.main(["--count", count])
    assert exit_info.value.code == 2


def test_bench_diff_runs_every_shape_at_a_tiny_size(bench_diff: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_diff.main(["--count", "20"]) == 0
    assert capsys.readouterr().out.count("20 resources in") == len(bench_diff.SHAPES)


# --- the report -----------------------------------------------------------------------------


def test_the_median_of_repeated_runs(bench_plan: ModuleType) -> None:
    assert bench_plan.median([3.0]) == 3.0
    assert bench_plan.median([3.0, 1.0, 2.0]) == 2.0
    assert bench_plan.median([2.0, 1.0]) == 1.0  # even: the lower middle (2 runs: the faster)


def test_the_report_shows_the_floor_and_the_ratios(bench_plan: ModuleType) -> None:
    def result(n: int, resources: int, run_s: float, floor_s: float) -> dict[str, Any]:
        return {
            "n": n,
            "resources": resources,
            "run_s": run_s,
            "floor_s": floor_s,
            "process_s": run_s + 1,
            "peak_mb": 300.0,
        }

    text, ok = bench_plan.report([result(4, 100, 4.0, 0.5), result(40, 1100, 14.0, 2.5)])
    assert ok
    assert "floor s" in text and "ratio" in text
    assert "  8.00  " in text  # 4.0 / 0.5
    assert "t40/t4 (run)    3.50" in text
    assert "marginal ratio 40 vs 4   5.00" in text  # (14 - 4) / (2.5 - 0.5)
    text, ok = bench_plan.report([result(4, 100, 4.0, 0.5), result(40, 1100, 40.0, 2.5)])
    assert not ok  # t40/t4 = 10 > 6
    # A floor that did not grow (noise at tiny sizes): no ratio of noise.
    assert "n/a" in bench_plan.report([result(1, 50, 3.0, 0.3), result(2, 60, 3.1, 0.3)])[0]


# --- CI runs the smoke ----------------------------------------------------------------------


def test_the_smoke_target_runs_every_script_small_and_ci_runs_it_after_the_tests() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = re.search(r"^bench-smoke:.*?\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert target, "the Makefile has no bench-smoke target"
    recipe = target.group(1)
    assert "scripts/bench_plan.py --sizes 4,8 --repeat 1" in recipe
    assert "scripts/bench_diff.py --count " in recipe
    assert "scripts/bench_validate.py --count " in recipe
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert ci.index("make test") < ci.index("make bench-smoke")
    steps = yaml.safe_load((ROOT / ".github" / "workflows" / "offline-checks.yml").read_text(encoding="utf-8"))
    runs = [step.get("run", "").strip() for step in steps["jobs"]["checks"]["steps"]]
    assert runs.index("make test") < runs.index("make bench-smoke")
