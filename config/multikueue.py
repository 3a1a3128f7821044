"""`addons.kuberay.multiKueueWorkers`: the rules across resources (config/stack.py calls
`multikueue_problems`). The primary is MultiKueue's manager; its workers are other cloud
resources of the stack that run Kueue, and whose API server the program knows from the
cluster it builds (EKS, GKE). An AKS cluster other than the primary and a Generic one are
refused: the manager reads a worker's endpoint from the kubeconfig the program builds, which
an AKS resource only gets from its credentials at deploy time and a Generic one brings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from pydantic_core import InitErrorDetails

from config.types import detail

WORKER_PROVIDERS: Final = ("AWS", "GCP")
KEY: Final = ("addons", "kuberay", "multiKueueWorkers")


def multikueue_problems(resources: Sequence[Any]) -> list[InitErrorDetails]:
    """`resources`: the validated ResourceSpecs, in stack order."""
    problems: list[InitErrorDetails] = []
    by_name = {r.name: r for r in resources}
    for index, resource in enumerate(resources):
        workers = resource.addons.kuberay.multi_kueue_workers
        if not workers:
            continue
        loc = ("resources", index, *KEY)
        if index != 0:
            problems.append(
                detail(
                    loc,
                    "kuberay",
                    "MultiKueue's manager is the primary: move multiKueueWorkers to resources[0] (default)",
                )
            )
            continue
        seen: set[str] = set()
        for position, name in enumerate(workers):
            at = (*loc, position)
            worker = by_name.get(name)
            if name in seen:
                message = f"'{name}' is listed twice: list each worker once"
            elif worker is None or worker is resource:
                others = ", ".join(r.name for r in resources[1:]) or "none"
                message = f"'{name}' is not another cloud resource of this stack: use one of {others}"
            elif worker.provider_name not in WORKER_PROVIDERS:
                message = (
                    f"'{name}' is a {worker.provider_name} resource; MultiKueue workers are EKS or GKE resources "
                    "of this stack (their API endpoint comes from the cluster the program builds): add others "
                    "by hand (docs/operations.md, MultiKueue)"
                )
            elif worker.addons.kuberay.batch_scheduler != "kueue":
                message = (
                    f"'{name}' runs no Kueue, which takes the dispatched jobs: set batchScheduler: kueue on "
                    "that resource"
                )
            else:
                seen.add(name)
                continue
            seen.add(name)
            problems.append(detail(at, "kuberay", message))
    return problems
