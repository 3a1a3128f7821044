"""Typical stack-file mistakes get messages that say what YAML read and how to write it,
the nearest key for a misspelt one, and every problem of the file in one run
(config/load.py; preflight/inputs.py keeps a number's spelling). `preflight validate` runs
in this process: no program run."""

from __future__ import annotations

from pathlib import Path

import pytest

from config import SpecError, load_spec
from tests.cli import preflight_in_process

HEAD = "config:\n  anyscale-cloud:cloud: {name: c, location: eastus2, resourceGroup: rg%s}\n"
PRIMARY = "  anyscale-cloud:resources:\n    - name: default\n      provider: Azure\n      region: eastus2\n"


def validate(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "Pulumi.t.yaml"
    path.write_text(text, encoding="utf-8")
    result = preflight_in_process("validate", str(path))
    assert result.returncode == 1, result.stdout + result.stderr
    return result.stdout.splitlines()


def test_an_unquoted_version_says_what_yaml_read_and_how_to_quote_it(tmp_path: Path) -> None:
    lines = validate(tmp_path, HEAD % "" + PRIMARY + "      cluster: {kubernetesVersion: 1.30}\n")
    assert lines == [
        "resources[0].cluster.kubernetesVersion (default): YAML read 1.30 as the number 1.3, not text: "
        'write it quoted: "1.30"'
    ]


def test_a_quoted_boolean_says_to_unquote_it(tmp_path: Path) -> None:
    lines = validate(tmp_path, HEAD % ', protect: "false"' + PRIMARY)
    assert lines == ["cloud.protect: YAML read 'false' as text (it is quoted), not a boolean: write it unquoted: false"]


def test_every_problem_of_the_file_in_one_run(tmp_path: Path) -> None:
    """A misspelt key, a type slip, a value the rules refuse and a Kubernetes minor no longer
    created: each used to wait for the one before it to be fixed."""
    text = (
        HEAD % ", protct: false"
        + PRIMARY.replace("region: eastus2", "region: EastUS2")
        + '      cluster: {kubernetesVersion: "1.20", nodePols: []}\n'
    )
    assert validate(tmp_path, text) == [
        "cloud.protct: unknown key: did you mean `protect`? (see the config reference in docs/configuration.md)",
        "resources[0].region (default): 'EastUS2' must be lowercase letters and digits in dash-separated groups "
        "(^[a-z0-9]+(-[a-z0-9]+)*$) (did you mean 'eastus2'? casing is never converted)",
        "resources[0].cluster.nodePols (default): unknown key: did you mean `nodePools`? (see the config reference "
        "in docs/configuration.md)",
        "resources[0].cluster.kubernetesVersion (default): Kubernetes 1.20 is no longer created on AKS (the AKS "
        "release calendar, config/data/kubernetes.py, read 2026-12-01): use one of 1.35, 1.36, 1.37",
    ]


def test_a_missing_key_and_the_other_keys_problems_together() -> None:
    with pytest.raises(SpecError) as error:
        load_spec(None, [{"name": "default", "provider": "Azure", "region": "eastus2", "storag": {}}])
    assert [str(p) for p in error.value.problems] == [
        "cloud: is required: set `anyscale-cloud:cloud` in the stack file",
        "resources[0].storag (default): unknown key: did you mean `storage`? (see the config reference in "
        "docs/configuration.md)",
    ]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            1.3,
            'YAML read the number 1.3 where text is expected: write it quoted, as you mean it (an unquoted 1.30 is the number 1.3: write "1.30")',
        ),
        (True, 'YAML read true as a boolean, not text: write it quoted: "true"'),
    ],
)
def test_a_value_from_the_pulumi_cli_has_no_spelling_but_the_same_advice(value: object, message: str) -> None:
    """`pulumi up` hands the program JSON: the number's spelling in the file is gone."""
    cloud = {"name": "c", "location": "eastus2", "resourceGroup": "rg"}
    resources = [{"name": "default", "provider": "Azure", "region": "eastus2", "cluster": {"kubernetesVersion": value}}]
    with pytest.raises(SpecError) as error:
        load_spec(cloud, resources)
    assert [str(p) for p in error.value.problems] == [f"resources[0].cluster.kubernetesVersion (default): {message}"]
