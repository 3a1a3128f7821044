#!/usr/bin/env python3
"""Benchmark: how the program's plan scales with the number of cloud resources.

    venv/bin/python scripts/bench_plan.py [--sizes 4,40] [--repeat 2] [--providers Azure,AWS,GCP,Generic]

For each size N it generates a stack config with N cloud resources (the `default`
Azure primary, then N-1 more cycling over the providers with unique names and valid
regions; the cloud record is the example stack's) and runs the real program
(`preflight.runtime.run_program`) on it in a FRESH Python process, so that every size
pays its own imports and its memory is its own. Per size it reports:

  run s      wall time of run_program() inside the child: the program itself, including
             the provider SDK imports it triggers, excluding interpreter start-up and
             the import of the mock runtime (pulumi)
  process s  wall time of the whole child process, interpreter start-up included
  peak MB    the child's peak RSS (ru_maxrss from wait4 on that child)

and checks the targets: t40/t4 <= 6 on `run s` (the program must scale about linearly:
ten times the resources in at most six times the time, fixed costs included), and
peak RSS < 1.5 GB. Exit 0 when every target passes, 1 when one fails, 2 when a run
fails. A benchmark, not a test: the numbers depend on the machine.

Each size runs --repeat times (default 2: `make bench` is the best of 2), each run in its
own fresh process; the fastest run's times and the highest peak count.

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
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE_STACK = "example"  # the cloud record and the primary come from this stack
PROVIDERS = ("Azure", "AWS", "GCP", "Generic")
MODULES = {"AWS": "aws", "GCP": "gcp", "Generic": "generic"}  # Azure: the primary's, always there
REGIONS = {
    "Azure": ("eastus2", "westus3", "northeurope", "westeurope", "swedencentral", "japaneast"),
    "AWS": ("us-west-2", "us-east-1", "eu-west-1", "ap-northeast-1"),
    "GCP": ("us-central1", "europe-west4", "asia-east1"),
    "Generic": ("dc1-rack1", "dc2-rack4", "edge-3"),  # free-form routing labels
}
RATIO_TARGET = 6.0  # t40 / t4
PEAK_TARGET_MB = 1536.0  # 1.5 GB


# --- the generated stacks ------------------------------------------------------------


def has_module(name: str) -> bool:
    """components/<name>.py or the package components/<name>/ (aws and gcp are packages)."""
    base = ROOT / "components"
    return (base / f"{name}.py").is_file() or (base / name / "__init__.py").is_file()


def available_providers() -> tuple[list[str], list[str]]:
    """(providers to cycle over, providers left out because their module is missing)."""
    present = ["Azure"] + [p for p, name in MODULES.items() if has_module(name)]
    return present, [p for p in PROVIDERS if p not in present]


def extra_resource(i: int, provider: str, turn: int) -> dict[str, Any]:
    """The i-th cloud resource (i >= 1): the `turn`-th of its provider, in its next region."""
    regions = REGIONS[provider]
    region = regions[turn % len(regions)]
    name = f"{provider.lower()}-{i}"
    item: dict[str, Any] = {"name": name, "provider": provider, "region": region}
    if provider == "AWS":
        item["storage"] = {"region": region}
    elif provider == "GCP":
        item["project"] = "my-gcp-project"
    elif provider == "Generic":
        item["kubeconfig"] = {"secure": f"v1:bench-ciphertext/kubeconfig-{i}=="}
        item["cliToken"] = {"secure": f"v1:bench-ciphertext/clitoken-{i}=="}
        item["storage"] = {"bucket": f"s3://ray-data-{i}", "endpoint": f"https://minio-{i}.dc.example.com"}
    return item


def stack_values(n: int, providers: list[str]) -> dict[str, Any]:
    """The stack config (as the CLI hands it over) with n cloud resources."""
    from preflight.stackfile import read_stack_file, stack_path

    values = copy.deepcopy(read_stack_file(stack_path(TEMPLATE_STACK)).config)
    primary = next(r for r in values["anyscale-cloud:resources"] if r["name"] == "default")
    resources = [primary]
    for i in range(1, n):
        resources.append(extra_resource(i, providers[i % len(providers)], i // len(providers)))
    values["anyscale-cloud:resources"] = resources
    return values


# --- one size, in a fresh process --------------------------------------------------------


def child(n: int, providers: list[str], result_path: str) -> int:
    """Runs in the fresh process: build the config, run the program, write the figures."""
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)
    started = time.perf_counter()
    from preflight.runtime import run_program  # imports pulumi: not part of `run s`

    imported = time.perf_counter()
    values = stack_values(n, providers)
    begin = time.perf_counter()
    plan = run_program(f"bench{n}", values)
    run_s = time.perf_counter() - begin
    result = {
        "n": n,
        "resources": len(plan.resources),
        "run_s": run_s,
        "import_s": imported - started,
        "self_maxrss_mb": maxrss_mb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss),
    }
    Path(result_path).write_text(json.dumps(result), encoding="utf-8")
    return 0


def maxrss_mb(value: int) -> float:
    # ru_maxrss is in kilobytes on Linux, in bytes on macOS.
    return value / (1024 * 1024) if sys.platform == "darwin" else value / 1024


def measure(n: int, providers: list[str]) -> dict[str, Any]:
    """Run one size in a fresh interpreter; return its figures (raise on failure)."""
    with tempfile.TemporaryDirectory() as tmp:
        result_path, log_path = Path(tmp) / "result.json", Path(tmp) / "child.log"
        command = [
            sys.executable,
            __file__,
            "--child",
            str(n),
            "--providers",
            ",".join(providers),
            "--result",
            str(result_path),
        ]
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
            raise RuntimeError(f"N={n}: the child exited with {proc.returncode}:\n{output[-4000:]}")
        result = json.loads(result_path.read_text(encoding="utf-8"))
    result["process_s"] = process_s
    result["peak_mb"] = maxrss_mb(usage.ru_maxrss)
    return result


# --- report -------------------------------------------------------------------------------


def best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Repeated runs of one size: the fastest times, the highest peak."""
    out = dict(runs[0])
    for key in ("run_s", "process_s", "import_s"):
        out[key] = min(r[key] for r in runs)
    out["peak_mb"] = max(r["peak_mb"] for r in runs)
    return out


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def report(results: list[dict[str, Any]]) -> tuple[str, bool]:
    lines = [f"{'N':>4}  {'resources':>9}  {'run s':>7}  {'process s':>9}  {'peak MB':>8}"]
    for r in results:
        lines.append(
            f"{r['n']:>4}  {r['resources']:>9}  {r['run_s']:>7.2f}  {r['process_s']:>9.2f}  {r['peak_mb']:>8.0f}"
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
    peak = max(r["peak_mb"] for r in results)
    ok &= peak < PEAK_TARGET_MB
    lines.append(f"peak RSS       {peak:5.0f} MB   target < {PEAK_TARGET_MB:g} MB   {verdict(peak < PEAK_TARGET_MB)}")
    return "\n".join(lines), ok


def parse_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", default="4,40", help="comma-separated numbers of cloud resources (default 4,40)")
    p.add_argument("--repeat", type=int, default=2, help="runs per size; the fastest counts (default 2)")
    p.add_argument("--providers", help="providers to cycle over (default: every provider whose module exists)")
    p.add_argument("--child", type=int, help=argparse.SUPPRESS)
    p.add_argument("--result", help=argparse.SUPPRESS)
    return p


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    if args.providers:
        providers = parse_list(args.providers)
        unknown = [p for p in providers if p not in PROVIDERS]
        if unknown or "Azure" not in providers:
            parser().error(f"--providers: choose from {', '.join(PROVIDERS)}, Azure included (got {args.providers})")
    else:
        providers, missing = available_providers()
        if missing:
            print(
                f"note: {', '.join(f'components/{MODULES[p]}' for p in missing)} not there yet: "
                f"cycling over {', '.join(providers)} only"
                + (" (a cloud can have many AKS resources)" if providers == ["Azure"] else "")
            )
    if args.child is not None:
        return child(args.child, providers, args.result)
    try:
        sizes = [int(s) for s in parse_list(args.sizes)]
    except ValueError:
        parser().error(f"--sizes: comma-separated integers (got {args.sizes})")
    if not sizes or min(sizes) < 1 or args.repeat < 1:
        parser().error("--sizes must be >= 1 and --repeat >= 1")

    print(f"providers cycled: {', '.join(providers)}; each size in a fresh process, {args.repeat} run(s)")
    results = []
    for n in sizes:
        try:
            results.append(best([measure(n, providers) for _ in range(args.repeat)]))
        except RuntimeError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    print()
    text, ok = report(results)
    print(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
