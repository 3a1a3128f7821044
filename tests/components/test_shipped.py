"""The upstream files that ship with the program (components/shipped.py) are KubeRay's own.

Each file's text against the sha256 and size recorded in components/data/kuberay/sources.json
(always, no network), and each CRD against the digest of the pinned kuberay-operator chart's own
crds/ file, written here as read (the chart at its tag; ray-project/kuberay
helm-chart/kuberay-operator/crds/ at v<version>), so that a file and sources.json cannot be
changed together.
"""

from __future__ import annotations

import hashlib

import pytest

from components import shipped
from config.data.versions import KUBERAY_SHIPPED, KUBERAY_VERSION

# sha256 of helm-chart/kuberay-operator/crds/ray.io_<kind>.yaml in the kuberay-operator chart at
# each tag (read from the chart packages of 1.6.2 and 1.7.0 on 2026-12-02).
CHART_CRDS = {
    "1.6.2": {
        "rayclusters": "1d51d8c4ce065b22c2069af0ebd72ae25f4a6968e5c5f93a3106ba6fc35bcc1d",
        "raycronjobs": "6d0ae6c24a2b2a6c0796c6775cd72f3e894831ff3b89379613e93c4d55965cd5",
        "rayjobs": "ecae45d9a5dc1be68f1074ba784c495ef9d439d295253b61e1bd51f7b08522f5",
        "rayservices": "95c639acc20ecc3cfa425d5ad0f8a7c152a336bc16d2e0deec17b62005e67fda",
    },
    "1.7.0": {
        "rayclusters": "c44704442eef0c6721ad40c1d66782c8bd3fdab9d3344306a5820910a679baa1",
        "raycronjobs": "31c2c753bba01f7e8e89cb8e8c504131b58ee42090ca536d87f5ac27605a568e",
        "rayjobs": "01a5cf3b17c1769fda44af7e82debcd98722f0c27b9ab84d084681c6649121f5",
        "rayservices": "0a8fc325e6e22b9231c1f282b309555e2ecf94227ca20a03df3d1d9a403907ab",
    },
}


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
    assert shipped.sources()["1.7.0"]["files"]["crds/ray.io_rayjobs.yaml"]["sha256"] == CHART_CRDS["1.7.0"]["rayjobs"]
    assert shipped.sources()["1.7.0"]["commit"] == "59d663aeec13760646da3db9c1cf8cfe883e30b7"


@pytest.mark.parametrize("version", KUBERAY_SHIPPED)
def test_the_crds_are_the_pinned_charts_own(version: str) -> None:
    assert sorted(CHART_CRDS[version]) == sorted(shipped.KUBERAY_CRDS)
    for kind, digest in CHART_CRDS[version].items():
        text = shipped.kuberay_file(version, f"crds/ray.io_{kind}.yaml")
        assert hashlib.sha256(text.encode()).hexdigest() == digest, kind


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
