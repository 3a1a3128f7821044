"""The stack file's JSON Schema (stacks/stack.schema.json): generated from the spec, current,
named by every shipped stack's `yaml-language-server` modeline, passed by every stack, and
failed by a misspelt key at that key's path."""

from __future__ import annotations

import copy
import functools
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from config import load_spec

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_FILE = ROOT / "stacks" / "stack.schema.json"
STACKS = sorted((ROOT / "stacks").glob("Pulumi.*.yaml"))
GPU_FIXTURE = ROOT / "tests" / "fixtures" / "golden" / "Pulumi.gpu.yaml"
MODELINE = re.compile(r"# yaml-language-server: \$schema=(\S+)")


@functools.cache
def validator() -> jsonschema.Draft202012Validator:
    # Built once per test run: checking the schema against the metaschema is most of the cost.
    document = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(document)
    return jsonschema.Draft202012Validator(document)


def errors(document: Any) -> list[tuple[str, str]]:
    """Each error as (JSON path, message), leaves first: what an editor underlines."""
    found = []
    for error in validator().iter_errors(document):
        leaves = [error]
        while leaves and any(e.context for e in leaves):
            leaves = [c for e in leaves for c in (e.context or [e])]
        found += [(leaf.json_path, leaf.message) for leaf in leaves]
    return found


def example() -> dict[str, Any]:
    return copy.deepcopy(yaml.safe_load((ROOT / "stacks" / "Pulumi.example.yaml").read_text(encoding="utf-8")))


@pytest.mark.parametrize("path", STACKS, ids=lambda p: p.name)
def test_every_shipped_stack_names_the_schema_in_its_first_line(path: Path) -> None:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    match = MODELINE.fullmatch(first)
    assert match, f"{path.name}: start it with `# yaml-language-server: $schema=stack.schema.json`"
    # yaml-language-server resolves a relative modeline path from the file's folder.
    assert (path.parent / match.group(1)).resolve() == SCHEMA_FILE


@pytest.mark.parametrize("path", [*STACKS, GPU_FIXTURE], ids=lambda p: p.name)
def test_every_stack_passes_the_schema(path: Path) -> None:
    assert errors(yaml.safe_load(path.read_text(encoding="utf-8"))) == []


MISSPELT = [
    # (where, how the key is misspelt, the path reported, the unexpected key)
    ("top level", lambda d: d.update(confg=d.pop("config")), "$", "confg"),
    (
        "project key",
        lambda d: d["config"].update({"anyscale-cloud:resource": d["config"].pop("anyscale-cloud:resources")}),
        "$.config",
        None,
    ),
    (
        "cloud",
        lambda d: d["config"]["anyscale-cloud:cloud"].update(resourceGroupp="rg"),
        "$.config['anyscale-cloud:cloud']",
        "resourceGroupp",
    ),
    (
        "Azure node pool",
        lambda d: d["config"]["anyscale-cloud:resources"][0]["cluster"]["nodePools"][0].update(
            instanceTyp="Standard_D16s_v5"
        ),
        "$.config['anyscale-cloud:resources'][0].cluster.nodePools[0]",
        "instanceTyp",
    ),
    (
        "KubeRay add-on",
        lambda d: d["config"]["anyscale-cloud:resources"][0]["addons"]["kuberay"].update(batchSchedular="kueue"),
        "$.config['anyscale-cloud:resources'][0].addons.kuberay",
        "batchSchedular",
    ),
    (
        "AWS resource",
        lambda d: d["config"]["anyscale-cloud:resources"][1].update(regoin="us-west-2"),
        "$.config['anyscale-cloud:resources'][1]",
        "regoin",
    ),
]


@pytest.mark.parametrize(("where", "misspell", "path", "key"), MISSPELT, ids=[m[0] for m in MISSPELT])
def test_a_misspelt_key_fails_at_its_path(where: str, misspell: Any, path: str, key: str | None) -> None:
    document = example()
    misspell(document)
    found = errors(document)
    assert found, f"a misspelt key in the {where} passed the schema"
    if key is None:  # an unknown key of the project's namespace: its name is refused
        assert (
            path,
            "'anyscale-cloud:resource' is not one of ['anyscale-cloud:cloud', 'anyscale-cloud:resources', 'anyscale-cloud:secrets']",
        ) in found
    else:
        assert (path, f"Additional properties are not allowed ('{key}' was unexpected)") in found


def test_a_provider_outside_the_four_fails_at_provider() -> None:
    document = example()
    document["config"]["anyscale-cloud:resources"][1]["provider"] = "Aws"
    assert errors(document) == [
        (
            "$.config['anyscale-cloud:resources'][1].provider",
            "'Aws' is not one of ['Azure', 'AWS', 'GCP', 'Generic']",
        )
    ]


def test_secrets_are_ciphertext_or_a_value_and_other_namespaces_are_the_clis() -> None:
    document = example()
    generic = next(r for r in document["config"]["anyscale-cloud:resources"] if r["provider"] == "Generic")
    generic["cliToken"] = "a-plain-value"
    document["config"]["azure-native:location"] = "eastus2"
    document["environment"] = ["anyscale/prod"]
    assert errors(document) == []
    generic["cliToken"] = {"secur": "v1:abc"}
    assert errors(document) != []
    generic["cliToken"] = {"secure": ""}
    assert errors(document) != []
    document = example()
    document["config"]["nonamespace"] = 1
    assert ("$.config", "'nonamespace' does not match '^(?!anyscale-cloud:)[^:]+:[^:]+$'") in errors(document)


def test_the_schema_and_the_spec_agree_on_the_shipped_stacks() -> None:
    # The schema is a view of the spec: what it passes here the spec loads.
    for path in STACKS:
        config = yaml.safe_load(path.read_text(encoding="utf-8"))["config"]
        load_spec(config["anyscale-cloud:cloud"], config["anyscale-cloud:resources"])


def test_make_test_checks_every_stack_with_check_jsonschema() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = re.search(r"^test:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert target
    command = "$(VENV)/bin/check-jsonschema --schemafile stacks/stack.schema.json stacks/Pulumi.*.yaml"
    assert command in target.group(1)
    # The command as make runs it fails on a misspelt key.
    exe = ROOT / "venv" / "bin" / "check-jsonschema"
    bad = Path(ROOT / "build")
    bad.mkdir(exist_ok=True)
    broken = bad / "Pulumi.schema-typo.yaml"
    broken.write_text(
        (ROOT / "stacks" / "Pulumi.dev.yaml").read_text(encoding="utf-8").replace("resourceGroup:", "resourceGrup:"),
        encoding="utf-8",
    )
    try:
        result = subprocess.run(
            [str(exe), "--schemafile", str(SCHEMA_FILE), str(broken)],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
    finally:
        broken.unlink()
    assert result.returncode == 1
    assert "'resourceGrup' was unexpected" in result.stdout
