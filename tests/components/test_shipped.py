"""The upstream files that ship with the program (components/shipped.py) are KubeRay's own.

Each file's text against the sha256 and size recorded in components/data/kuberay/sources.json
(always, no network), and against the pinned kuberay-operator chart's crds/ when a copy of the
chart is at hand (../shared/reference/charts). The recorded digests were compared once with
ray-project/kuberay itself at each tag (`git show v<version>:<upstream path> | sha256sum`).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from components import shipped
from config.data.versions import KUBERAY_SHIPPED, KUBERAY_VERSION

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference" / "charts"
# sha256 of helm-chart/kuberay-operator/crds/ray.io_rayjobs.yaml at kuberay tag v1.7.0.
RAYJOB_CRD_1_7_0 = "01a5cf3b17c1769fda44af7e82debcd98722f0c27b9ab84d084681c6649121f5"


def test_every_shipped_version_and_only_those_has_its_files() -> None:
    assert KUBERAY_VERSION in KUBERAY_SHIPPED
    assert sorted(shipped.sources()) == sorted(KUBERAY_SHIPPED)
    folders = sorted(p.name for p in shipped.KUBERAY.iterdir() if p.is_dir())
    assert folders == sorted(KUBERAY_SHIPPED)
    for version, source in shipped.sources().items():
        assert (source["repository"], source["tag"]) == ("https://github.com/ray-project/kuberay", f"v{version}")
        on_disk = sorted(
            str(p.relative_to(shipped.KUBERAY / version)) for p in (shipped.KUBERAY / version).rglob("*.gz")
        )
        assert on_disk == sorted(f"{name}.gz" for name in source["files"])


@pytest.mark.parametrize("version", KUBERAY_SHIPPED)
def test_each_file_is_the_recorded_upstream_text(version: str) -> None:
    for name, entry in shipped.sources()[version]["files"].items():
        data = shipped.kuberay_file(version, name).encode()
        assert (hashlib.sha256(data).hexdigest(), len(data)) == (entry["sha256"], entry["bytes"]), name
        kind = "crds" if name.startswith("crds/") else "grafana"
        prefix = {"crds": "helm-chart/kuberay-operator/crds/", "grafana": "config/grafana/"}[kind]
        assert entry["upstream"] == prefix + name.split("/", 1)[1]


def test_the_recorded_digest_is_kuberays() -> None:
    # One digest written here as read at the tag, so that sources.json cannot drift with its files.
    assert shipped.sources()["1.7.0"]["files"]["crds/ray.io_rayjobs.yaml"]["sha256"] == RAYJOB_CRD_1_7_0
    assert shipped.sources()["1.7.0"]["commit"] == "59d663aeec13760646da3db9c1cf8cfe883e30b7"


@pytest.mark.parametrize("version", KUBERAY_SHIPPED)
def test_the_crds_are_the_pinned_charts_own(version: str) -> None:
    chart = REFERENCE / f"kuberay-operator-{version}" / "crds"
    if not chart.is_dir():
        pytest.skip(f"no copy of the chart at {chart} (the recorded digests are checked always)")
    for kind in shipped.KUBERAY_CRDS:
        name = f"ray.io_{kind}.yaml"
        assert shipped.kuberay_file(version, f"crds/{name}") == (chart / name).read_text(encoding="utf-8"), name


def test_the_crd_stream_holds_the_four_files_in_order() -> None:
    texts = [shipped.kuberay_file("v1.7.0", f"crds/ray.io_{kind}.yaml") for kind in shipped.KUBERAY_CRDS]
    assert shipped.kuberay_crds("v1.7.0") == "".join(texts)
    assert [t.split("\n  name: ", 1)[1].split("\n", 1)[0] for t in texts] == [
        "rayclusters.ray.io",
        "raycronjobs.ray.io",
        "rayjobs.ray.io",
        "rayservices.ray.io",
    ]


def test_a_version_that_does_not_ship_is_a_clear_error() -> None:
    with pytest.raises(shipped.NotShipped, match=r"KubeRay 1\.7\.1: crds/ray.io_rayclusters.yaml does not ship"):
        shipped.kuberay_crds("1.7.1")
