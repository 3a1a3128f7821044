"""How long `preflight validate` takes on a stack with N cloud resources (default: the most
a stack may have, spec.MAX_RESOURCES)."""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from config import MAX_RESOURCES  # noqa: E402
from tests.conftest import stack_values  # noqa: E402


def big_stack(count: int) -> dict:
    values = stack_values("example")
    template = values["anyscale-cloud:resources"]
    resources = [template[0]]
    for i in range(1, count):
        entry = dict(template[1 + (i - 1) % 3])
        # Short names: every derived name (GCP service accounts: 30 characters) must fit.
        entry["name"] = f"{entry['name'][:3]}{i}"
        resources.append(entry)
    values["anyscale-cloud:resources"] = resources
    return {"config": values}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=MAX_RESOURCES)
    args = parser.parse_args()
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
    print(
        f"{args.count} cloud resources: validate exit {result.returncode} in {elapsed:.2f} s (whole process, target < 5 s)"
    )
    return 0 if result.returncode == 0 and elapsed < 5 else 1


if __name__ == "__main__":
    sys.exit(main())
