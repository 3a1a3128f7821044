#!/usr/bin/env python3
"""Benchmark: how the program's plan scales with the number of cloud resources, and how
close it is to the Pulumi SDK's own floor.

    venv/bin/python scripts/bench_plan.py [--sizes 4,40] [--repeat 2] [--providers Azure,AWS,GCP,Generic]

For each size N it generates a stack config with N cloud resources (the example stack's
cloud record and its `default` Azure primary, then N-1 copies of the example stack's
other resources, cycling over the providers, with unique names and the next region of
each provider) and checks it with the spec (`config.load_spec`) before anything is
timed: a generated stack the spec refuses stops the run with the spec's message (exit 2).
It then runs the real program (`preflight.runtime.run_program`) on it in a FRESH Python
process, so that every size pays its own imports and its memory is its own, and then, in
another fresh process, the SDK floor: a trivial program registering as many custom and
component resources as the program's plan recorded, under the same mock monitor
(`run_program` with another entry point: same monitor, event loop and SDK). Per size:

  resources  what the program registered (custom + component), the floor's count too
  run s      wall time of run_program() inside the child: the program itself, including
             the provider SDK imports it triggers, excluding interpreter start-up and
             the import of the mock runtime (pulumi)
  floor s    the same for the floor program: the least the SDK spends registering that
             many resources (one input each, no outputs read, no provider SDK imported)
  ratio      run s / floor s: how far above that floor the program is (1 would be the
             SDK's least). What is above it: the provider SDK imports (most of it at
             small sizes), the real resources' inputs and outputs going through the same
             SDK (Output chains, serialization), and the program's own work
  process s  wall time of the program's whole child process, interpreter start-up included
  peak MB    the program child's peak RSS (ru_maxrss from wait4 on that child)

and, with two sizes or more, the marginal ratio between the smallest and the largest:
the program's time per extra resource over the floor's, where the fixed costs (imports)
cancel. Then it checks the targets: t40/t4 <= 6 on `run s` (the program must scale
about linearly: ten times the resources in at most six times the time, fixed costs
included), and peak RSS < 1.5 GB. Exit 0 when every target passes, 1 when one fails, 2 when a run
fails or a generated stack is invalid. A benchmark, not a test: the numbers depend on
the machine.

Each size runs --repeat times (default 2: `make bench` runs 2), each run in its own fresh
processes; the median of the runs' times counts (the lower middle of an even count, so
that 2 runs give the faster one, as `make bench` always did), and the highest peak.

Providers whose module (components/aws/, gcp/, generic.py) is not in the tree are
left out of the cycle with a note (Azure only when none is there: a cloud can have many
AKS resources); --providers chooses the cycle explicitly.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from preflight.runtime import Plan

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE_STACK = "example"  # the cloud record, the primary and the resource templates come from this stack
PROVIDERS = ("Azure", "AWS", "GCP", "Generic")
MODULES = {"AWS": "aws", "GCP": "gcp", "Generic": "generic"}  # Azure: the primary's, always there
REGIONS = {
    # Azure: regions where Anyscale on Azure is available (config/data/azure_availability.py),
    # so that the program logs no advisory per resource.
    "Azure": ("eastus2", "westus3", "northeurope", "westeurope", "swedencentral", "uksouth"),
    "AWS": ("us-west-2", "us-east-1", "eu-west-1", "ap-northeast-1"),
    "GCP": ("us-central1", "europe-west4", "asia-east1"),
    "Generic": ("dc1-rack1", "dc2-rack4", "edge-3"),  # free-form routing labels
}
RATIO_TARGET = 6.0  # t40 / t4
PEAK_TARGET_MB = 1536.0  # 1.5 GB
# The floor program's config namespace (not the project's: the program's keys stay untouched).
FLOOR_NAMESPACE = "bench-floor"
FLOOR_TYPE = "test:index:Thing"
FLOOR_COMPONENT = "test:index:Group"
FLOOR_FANOUT = 4  # child components per component in the floor's tree


# --- the generated stacks ------------------------------------------------------------


def has_module(name: str) -> bool:
    """components/<name>.py or the package components/<name>/ (aws and gcp are packages)."""
    base = ROOT / "components"
    return (base / f"{name}.py").is_file() or (base / name / "__init__.py").is_file()


def available_providers() -> tuple[list[str], list[str]]:
    """(providers to cycle over, providers left out because their module is missing)."""
    present = ["Azure"] + [p for p, name in MODULES.items() if has_module(name)]
    return present, [p for p in PROVIDERS if p not in present]


def templates(resources: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per provider, the template of its extra resources: the example stack's first
    resource of that provider other than the primary (the stack tests keep it valid, so a
    rule the spec gains reaches the benchmark through it), else the bare minimum (Azure:
    the primary's cluster and add-ons stay the primary's own)."""
    out: dict[str, dict[str, Any]] = {p: {"provider": p} for p in PROVIDERS}
    for item in reversed(resources[1:]):  # reversed: the first of each provider wins
        if item.get("provider") in out:
            out[item["provider"]] = item
    return out


def extra_resource(i: int, template: dict[str, Any], turn: int) -> dict[str, Any]:
    """The i-th cloud resource (i >= 1): a copy of its provider's template, the `turn`-th
    of that provider, in its next region."""
    provider = template["provider"]
    item = copy.deepcopy(template)
    regions = REGIONS[provider]
    region = regions[turn % len(regions)]
    storage = item.get("storage")
    # A bucket in the template's own region is "with the compute": it moves along. Any other
    # storage region (Generic: the region the S3 client signs for) is the bucket's and stays.
    if isinstance(storage, dict) and storage.get("region") == template.get("region"):
        storage["region"] = region
    item["name"] = f"{provider.lower()}-{i}"  # short: GCP's derived names must fit 30 characters
    item["region"] = region
    return item


def stack_values(n: int, providers: list[str]) -> dict[str, Any]:
    """The stack config (as the CLI hands it over) with n cloud resources."""
    from preflight.stackfile import read_stack_file, stack_path

    values = copy.deepcopy(read_stack_file(stack_path(TEMPLATE_STACK)).config)
    given = values["anyscale-cloud:resources"]
    primary = next(r for r in given if r["name"] == "default")
    # Its MultiKueue workers are resources of the example, which the copies rename.
    primary.get("addons", {}).get("kuberay", {}).pop("multiKueueWorkers", None)
    by_provider = templates(given)
    resources = [primary]
    for i in range(1, n):
        resources.append(extra_resource(i, by_provider[providers[i % len(providers)]], i // len(providers)))
    values["anyscale-cloud:resources"] = resources
    return values


class InvalidStack(Exception):
    """A generated stack the spec refuses: the benchmark would time an error."""


def check_stack(values: dict[str, Any]) -> list[str]:
    """The spec's verdict on a generated stack, as the program reaches it (load_spec, the
    day from ANYSCALE_CLOUD_TODAY or today): raise InvalidStack with its problems; return
    its advisories (warnings the program would log; they do not stop it)."""
    from config import SpecError, advisories, load_spec
    from config.currency import today

    day = today()
    try:
        spec = load_spec(
            values.get("anyscale-cloud:cloud"),
            values.get("anyscale-cloud:resources"),
            values.get("anyscale-cloud:secrets"),
            today=day,
        )
    except SpecError as error:
        raise InvalidStack(f"{len(error.problems)} problem(s):\n{error}") from None
    return [str(advisory) for advisory in advisories(spec, day)]


# --- the SDK floor: a trivial program under the same mock runtime ---------------------------


def floor_program() -> None:
    """The floor's program body: `components` ComponentResources in a tree (each the
    child of an earlier one, FLOOR_FANOUT to a parent, as the program nests its
    components) and `custom` CustomResources spread over them as children, each with
    one input and no dependencies: the least the SDK does per resource. Each component
    registers its (empty) outputs, as the program's components do."""
    import pulumi

    config = pulumi.Config(FLOOR_NAMESPACE)
    components_n, custom_n = config.require_int("components"), config.require_int("custom")
    groups: list[pulumi.ComponentResource] = []
    for i in range(components_n):
        parent = groups[(i - 1) // FLOOR_FANOUT] if i else None
        groups.append(
            pulumi.ComponentResource(FLOOR_COMPONENT, f"group-{i}", None, pulumi.ResourceOptions(parent=parent))
        )
    for j in range(custom_n):
        parent = groups[j % len(groups)] if groups else None
        pulumi.CustomResource(FLOOR_TYPE, f"thing-{j}", {"index": j}, pulumi.ResourceOptions(parent=parent))
    for group in groups:
        group.register_outputs({})


# run_program runs a file (runpy) as its entry point; this one calls floor_program from
# this module, loaded by path (scripts/ is no package).
FLOOR_ENTRY = """\
import importlib.util
spec = importlib.util.spec_from_file_location("bench_plan_floor", {path!r})
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
module.floor_program()
"""


def run_floor(components: int, custom: int) -> Plan:
    """The floor program run under preflight's mock runtime, as the program is run."""
    from preflight.runtime import run_program

    values = {f"{FLOOR_NAMESPACE}:components": str(components), f"{FLOOR_NAMESPACE}:custom": str(custom)}
    with tempfile.TemporaryDirectory() as tmp:
        entry = Path(tmp) / "floor.py"
        entry.write_text(FLOOR_ENTRY.format(path=str(Path(__file__).resolve())), encoding="utf-8")
        return run_program("floor", values, program=entry)


def counts(plan: Plan) -> tuple[int, int]:
    """(component, custom) resources a plan recorded (the root stack is not recorded)."""
    custom = sum(1 for r in plan.resources if r["custom"])
    return len(plan.resources) - custom, custom


# --- one size, in a fresh process --------------------------------------------------------


def child(values_path: str, result_path: str, floor: tuple[int, int] | None) -> int:
    """Runs in the fresh process: run the program on the stack (or the floor program with
    `floor` = (components, custom)), write the figures."""
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)
    started = time.perf_counter()
    from preflight.runtime import run_program  # imports pulumi: not part of `run s`

    imported = time.perf_counter()
    if floor is None:
        values = json.loads(Path(values_path).read_text(encoding="utf-8"))
        begin = time.perf_counter()
        plan = run_program("bench", values)
    else:
        begin = time.perf_counter()
        plan = run_floor(*floor)
    run_s = time.perf_counter() - begin
    components, custom = counts(plan)
    result = {
        "components": components,
        "custom": custom,
        "run_s": run_s,
        "import_s": imported - started,
        "self_maxrss_mb": maxrss_mb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss),
    }
    Path(result_path).write_text(json.dumps(result), encoding="utf-8")
    return 0


def maxrss_mb(value: int) -> float:
    # ru_maxrss is in kilobytes on Linux, in bytes on macOS.
    return value / (1024 * 1024) if sys.platform == "darwin" else value / 1024


def spawn(what: str, extra: list[str]) -> dict[str, Any]:
    """One child process (`what` names it in errors); its figures, plus its wall time
    and peak RSS as the parent sees them. Raises RuntimeError on failure."""
    with tempfile.TemporaryDirectory() as tmp:
        result_path, log_path = Path(tmp) / "result.json", Path(tmp) / "child.log"
        command = [sys.executable, __file__, "--result", str(result_path), *extra]
        with open(log_path, "wb") as log:
            begin = time.perf_counter()
            proc = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
            # wait4, not wait: the rusage of this child alone (RUSAGE_CHILDREN would be
            # the maximum over every child so far).
            _, status, usage = os.wait4(proc.pid, 0)
            process_s = time.perf_counter() - begin
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0 or not result_path.is_file():
            output = log_path.read_text(encoding="utf-8", errors="replace").strip()
            raise RuntimeError(f"{what}: the child exited with {proc.returncode}:\n{output[-4000:]}")
        result: dict[str, Any] = json.loads(result_path.read_text(encoding="utf-8"))
    result["process_s"] = process_s
    result["peak_mb"] = maxrss_mb(usage.ru_maxrss)
    return result


def measure(n: int, values_path: Path) -> dict[str, Any]:
    """One run of size n: the program, then the floor at the program's counts, each in a
    fresh interpreter (each pays its own cold start of the SDK, so the two compare alike)."""
    program = spawn(f"N={n}", ["--child", str(values_path)])
    floor = spawn(f"N={n} (floor)", ["--floor", f"{program['components']},{program['custom']}"])
    if (floor["components"], floor["custom"]) != (program["components"], program["custom"]):
        raise RuntimeError(
            f"N={n}: the floor registered {floor['components']} + {floor['custom']} resources, "
            f"not the program's {program['components']} + {program['custom']}"
        )
    return {
        "n": n,
        "resources": program["components"] + program["custom"],
        "run_s": program["run_s"],
        "floor_s": floor["run_s"],
        "process_s": program["process_s"],
        "import_s": program["import_s"],
        "peak_mb": program["peak_mb"],
    }


# --- report -------------------------------------------------------------------------------


def median(values: list[float]) -> float:
    """The middle value; the lower middle of an even count (2 runs: the faster one)."""
    ordered = sorted(values)
    return ordered[(len(ordered) - 1) // 2]


def summarize(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Repeated runs of one size: the median times, the highest peak."""
    out = dict(runs[0])
    for key in ("run_s", "floor_s", "process_s", "import_s"):
        out[key] = median([r[key] for r in runs])
    out["peak_mb"] = max(r["peak_mb"] for r in runs)
    return out


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def marginal_line(lo: dict[str, Any], hi: dict[str, Any]) -> str:
    """The program's cost per extra resource against the floor's, between two sizes: the
    fixed costs (the provider SDK imports, which dominate `ratio` at small sizes) cancel."""
    head = f"marginal ratio {hi['n']} vs {lo['n']}"
    extra_run, extra_floor = hi["run_s"] - lo["run_s"], hi["floor_s"] - lo["floor_s"]
    if hi["resources"] <= lo["resources"] or extra_run <= 0 or extra_floor <= 0:
        # Close sizes: the difference is within the noise (the imports alone vary more).
        return f"{head}: n/a (a time did not grow with the resources: sizes too close for it)"
    per_resource = 1000 * extra_run / (hi["resources"] - lo["resources"])
    floor_per_resource = 1000 * extra_floor / (hi["resources"] - lo["resources"])
    return (
        f"{head}  {extra_run / extra_floor:5.2f}   ({per_resource:.1f} ms per extra resource, "
        f"the floor {floor_per_resource:.1f} ms)"
    )


def report(results: list[dict[str, Any]]) -> tuple[str, bool]:
    lines = [
        f"{'N':>4}  {'resources':>9}  {'run s':>7}  {'floor s':>7}  {'ratio':>6}  {'process s':>9}  {'peak MB':>8}"
    ]
    for r in results:
        lines.append(
            f"{r['n']:>4}  {r['resources']:>9}  {r['run_s']:>7.2f}  {r['floor_s']:>7.2f}  "
            f"{r['run_s'] / r['floor_s']:>6.2f}  {r['process_s']:>9.2f}  {r['peak_mb']:>8.0f}"
        )
    lines.append("")
    ok = True
    by_n = {r["n"]: r for r in results}
    if 4 in by_n and 40 in by_n:
        ratio = by_n[40]["run_s"] / by_n[4]["run_s"]
        process_ratio = by_n[40]["process_s"] / by_n[4]["process_s"]
        ok &= ratio <= RATIO_TARGET
        lines.append(
            f"t40/t4 (run)   {ratio:5.2f}   target <= {RATIO_TARGET:g}   {verdict(ratio <= RATIO_TARGET)}"
            f"   (process: {process_ratio:.2f})"
        )
    elif len(results) > 1:
        lo, hi = results[0], results[-1]
        lines.append(
            f"t{hi['n']}/t{lo['n']} (run)  {hi['run_s'] / lo['run_s']:.2f}   "
            "(the ratio target is defined for sizes 4 and 40)"
        )
    if len(results) > 1:
        lo, hi = min(results, key=lambda r: r["resources"]), max(results, key=lambda r: r["resources"])
        lines.append(marginal_line(lo, hi))
    peak = max(r["peak_mb"] for r in results)
    ok &= peak < PEAK_TARGET_MB
    lines.append(f"peak RSS       {peak:5.0f} MB   target < {PEAK_TARGET_MB:g} MB   {verdict(peak < PEAK_TARGET_MB)}")
    return "\n".join(lines), ok


def parse_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", default="4,40", help="comma-separated numbers of cloud resources (default 4,40)")
    p.add_argument("--repeat", type=int, default=2, help="runs per size; the median counts (default 2)")
    p.add_argument("--providers", help="providers to cycle over (default: every provider whose module exists)")
    p.add_argument("--child", help=argparse.SUPPRESS)  # the stack values (JSON) to run the program on
    p.add_argument("--floor", help=argparse.SUPPRESS)  # "components,custom" for the floor program
    p.add_argument("--result", help=argparse.SUPPRESS)
    return p


def parse_sizes(text: str) -> list[int]:
    """The --sizes list; ValueError when it is not a list of integers >= 1."""
    sizes = [int(s) for s in parse_list(text)]
    if not sizes or min(sizes) < 1:
        raise ValueError(text)
    return sizes


def choose_providers(given: str | None) -> list[str]:
    """The provider cycle: --providers as given (checked), else every one with a module."""
    if given is not None:
        providers = parse_list(given)
        if [p for p in providers if p not in PROVIDERS] or "Azure" not in providers:
            parser().error(f"--providers: choose from {', '.join(PROVIDERS)}, Azure included (got {given})")
        return providers
    providers, missing = available_providers()
    if missing:
        print(
            f"note: {', '.join(f'components/{MODULES[p]}' for p in missing)} not there yet: "
            f"cycling over {', '.join(providers)} only"
            + (" (a cloud can have many AKS resources)" if providers == ["Azure"] else "")
        )
    return providers


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    if args.child is not None:
        return child(args.child, args.result, None)
    if args.floor is not None:
        try:
            components, custom = (int(x) for x in args.floor.split(","))
        except ValueError:
            parser().error(f"--floor: components,custom (got {args.floor})")
        return child("", args.result, (components, custom))
    try:
        sizes = parse_sizes(args.sizes)
    except ValueError:
        parser().error(f"--sizes: comma-separated integers >= 1 (got {args.sizes})")
    if args.repeat < 1:
        parser().error(f"--repeat must be >= 1 (got {args.repeat})")
    providers = choose_providers(args.providers)

    sys.path.insert(0, str(ROOT))
    print(
        f"providers cycled: {', '.join(providers)}; each size and its floor in fresh processes, "
        f"{args.repeat} run(s), the median counts"
    )
    # Every size's stack is generated and checked before anything is timed: a stack the
    # spec refuses would only time the program's error (and a large size would fail late).
    stacks = {n: stack_values(n, providers) for n in sizes}
    for n, values in stacks.items():
        try:
            notes = check_stack(values)
        except InvalidStack as error:
            print(f"error: the generated stack of size {n} is not valid: {error}", file=sys.stderr)
            return 2
        for note in dict.fromkeys(notes):  # once per size, in order
            print(f"note (size {n}): {note}")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for n, values in stacks.items():
            values_path = Path(tmp) / f"stack-{n}.json"
            values_path.write_text(json.dumps(values), encoding="utf-8")
            try:
                results.append(summarize([measure(n, values_path) for _ in range(args.repeat)]))
            except RuntimeError as error:
                print(f"error: {error}", file=sys.stderr)
                return 2
    print()
    text, ok = report(results)
    print(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
