"""Upstream files that ship with the program, read from the package at run time: nothing is
downloaded during `pulumi up` (or by the cluster, for the dashboards).

components/data/kuberay/<version>/ holds, gzipped, KubeRay's four `ray.io` CRDs
(helm-chart/kuberay-operator/crds/ in ray-project/kuberay at tag v<version>) and the Grafana
dashboards the program installs (config/grafana/ at that tag), for every version in
config/data/versions.py KUBERAY_SHIPPED. components/data/kuberay/sources.json records, per
version, the repository, tag and commit, and per file its upstream path and the sha256 and
size of its (uncompressed) text; tests/components/test_shipped.py checks each file against
both, and against the pinned chart's crds/ when a copy is at hand. docs/development.md
("Shipped upstream files") says how to add a version.
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
KUBERAY = DATA / "kuberay"
KUBERAY_CRDS = ("rayclusters", "raycronjobs", "rayjobs", "rayservices")


class NotShipped(LookupError):
    """No copy of this file ships with the program (config/ refuses such a version first)."""


@cache
def sources() -> dict[str, Any]:
    """components/data/kuberay/sources.json: version -> repository, tag, commit, files."""
    loaded: dict[str, Any] = json.loads((KUBERAY / "sources.json").read_text(encoding="utf-8"))
    return loaded


@cache
def kuberay_file(version: str, name: str) -> str:
    """The text of `name` (e.g. `crds/ray.io_rayjobs.yaml`) as KubeRay tags it at `version`
    (`v` prefix or not). gzip checks its CRC on the way out."""
    path = KUBERAY / version.removeprefix("v") / f"{name}.gz"
    if not path.is_file():
        raise NotShipped(f"KubeRay {version}: {name} does not ship with this program ({path} is absent)")
    return gzip.decompress(path.read_bytes()).decode("utf-8")


def kuberay_crds(version: str) -> str:
    """The four ray.io CRDs of KubeRay `version` as one YAML stream (what a ConfigGroup's `yaml`
    takes): the files one after the other, each opening with its own `---`."""
    texts = [kuberay_file(version, f"crds/ray.io_{kind}.yaml") for kind in KUBERAY_CRDS]
    return "".join(text if text.startswith("---\n") else f"---\n{text}" for text in texts)


@cache
def ray_dashboard(version: str, file: str) -> str:
    """A Grafana dashboard of KubeRay `version` (config/grafana/`file`), as compact JSON: the
    same dashboard in about half the bytes, so that the six fit in the one ConfigMap the
    Grafana chart writes them to (Kubernetes caps a ConfigMap at 1 MiB; pretty-printed they are
    just over it)."""
    return json.dumps(json.loads(kuberay_file(version, f"grafana/{file}")), separators=(",", ":"))
