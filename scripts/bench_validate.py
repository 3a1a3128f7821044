"""How long `preflight validate` takes on a stack with N cloud resources (default: the most
a stack may have, config.MAX_RESOURCES): the example stack's primary, then copies of its
other resources with short unique names.

    venv/bin/python scripts/bench_validate.py [--count N]
"""

from __future__ import annotations

import argparse
import copy
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from config import MAX_RESOURCES  # noqa: E402
from preflight.stackfile import read_stack_file, stack_path  # noqa: E402

TARGET_S = 5.0  # the whole process, interpreter start-up included


def big_stack(count: int) -> dict[str, Any]:
    """The stack file's content (`config:`) with `count` cloud resources."""
    # The stack file as the CLI reads it; not tests/conftest.py, which would import pytest
    # and the mock runtime (pulumi) into a benchmark of the spec alone.
    values = copy.deepcopy(read_stack_file(stack_path("example")).config)
    template = values["anyscale-cloud:resources"]
    resources = [template[0]]
    # Its MultiKueue workers are resources of the example, which the copies rename.
    template[0].get("addons", {}).get("kuberay", {}).pop("multiKueueWorkers", None)
    for i in range(1, count):
        entry = dict(template[1 + (i - 1) % (len(template) - 1)])  # the non-primary ones, in turn
        # Short names: every derived name (GCP service accounts: 30 characters) must fit.
        entry["name"] = f"{entry['name'][:3]}{i}"
        resources.append(entry)
    values["anyscale-cloud:resources"] = resources
    return {"config": values}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=MAX_RESOURCES, help=f"cloud resources (default {MAX_RESOURCES})")
    args = parser.parse_args(argv)
    # Over MAX_RESOURCES the spec refuses the stack: the time would be the error's.
    if not 1 <= args.count <= MAX_RESOURCES:
        parser.error(f"--count must be between 1 and {MAX_RESOURCES} (got {args.count})")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "Pulumi.big.yaml"
        path.write_text(yaml.safe_dump(big_stack(args.count)))
        start = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-m", "preflight", "validate", str(path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        elapsed = time.perf_counter() - start
    print(result.stdout.strip()[:120])
    if result.returncode != 0:
        print(result.stderr.strip()[-4000:], file=sys.stderr)
    print(
        f"{args.count} cloud resources: validate exit {result.returncode} in {elapsed:.2f} s "
        f"(whole process, target < {TARGET_S:g} s)"
    )
    return 0 if result.returncode == 0 and elapsed < TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
