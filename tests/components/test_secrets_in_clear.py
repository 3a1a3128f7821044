"""A secret given in clear in a stack file is reported with its path and never echoed; an
empty `secure:` value is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from config import clear_secret_advisories
from tests.cli import preflight_in_process
from tests.example_spec import example_cloud, example_resources, problems

ROOT = Path(__file__).resolve().parents[2]
PLAIN = "plain-token-DO-NOT-ECHO"


def generic_index() -> int:
    return next(i for i, r in enumerate(example_resources()) if r["provider"] == "Generic")


def test_a_plain_cli_token_is_an_advisory_with_its_path_only() -> None:
    resources = example_resources()
    index = generic_index()
    resources[index]["cliToken"] = PLAIN
    found = [str(a) for a in clear_secret_advisories(example_cloud(), resources)]
    assert found == [
        f"resources[{index}].cliToken (onprem): is a secret given in clear in the stack file; encrypt it with "
        f"`pulumi config set --secret --path 'resources[{index}].cliToken'`, which replaces the plain value"
    ]


def test_plain_storage_credentials_and_kubeconfig_are_reported() -> None:
    resources = example_resources()
    index = generic_index()
    resources[index]["kubeconfig"] = "apiVersion: v1\n"
    resources[index]["storage"]["credentials"] = {"accessKeyId": PLAIN, "secretAccessKey": {"secure": "v1:x"}}
    paths = [a.path for a in clear_secret_advisories(example_cloud(), resources)]
    assert paths == [f"resources[{index}].kubeconfig", f"resources[{index}].storage.credentials.accessKeyId"]


def test_encrypted_secrets_give_no_advisory() -> None:
    assert clear_secret_advisories(example_cloud(), example_resources()) == []


@pytest.mark.parametrize("ciphertext", ["", "   "])
@pytest.mark.parametrize("key", ["cliToken", "kubeconfig"])
def test_an_empty_secure_value_is_refused(key: str, ciphertext: str) -> None:
    resources = example_resources()
    index = generic_index()
    resources[index][key] = {"secure": ciphertext}
    assert problems(resources) == [
        f"resources[{index}].{key} (onprem): is an empty `secure:` value: set the secret with "
        "`pulumi config set --secret --path '<path>'`"
    ]


def test_validate_warns_without_echoing(tmp_path: Path) -> None:
    text = (ROOT / "stacks" / "Pulumi.example.yaml").read_text()
    start = text.index("      cliToken:\n")
    end = text.index("\n", text.index("secure:", start)) + 1
    stack = tmp_path / "Pulumi.x.yaml"
    stack.write_text(text[:start] + f"      cliToken: {PLAIN}\n" + text[end:])
    run = preflight_in_process("validate", str(stack))
    assert run.returncode == 0
    assert PLAIN not in run.stdout + run.stderr
    assert run.stderr.splitlines() == [
        f"warning: resources[{generic_index()}].cliToken (onprem): is a secret given in clear in the stack file; "
        f"encrypt it with `pulumi config set --secret --path 'resources[{generic_index()}].cliToken'`, which "
        "replaces the plain value"
    ]


def test_plain_values_in_the_secrets_map_are_reported_by_their_map_path() -> None:
    resources = example_resources()
    secrets = {"onprem": {"cliToken": PLAIN, "storage": {"credentials": {"accessKeyId": PLAIN}}}}
    found = clear_secret_advisories(example_cloud(), resources, secrets)
    assert [(a.path, a.resource) for a in found] == [
        ("secrets.onprem.cliToken", "onprem"),
        ("secrets.onprem.storage.credentials.accessKeyId", "onprem"),
    ]
    assert all(PLAIN not in str(a) for a in found)


def test_a_password_in_an_endpoint_is_never_echoed(tmp_path: Path) -> None:
    stack = tmp_path / "Pulumi.t.yaml"
    stack.write_text(
        "config:\n"
        "  anyscale-cloud:cloud: {name: ml, location: eastus2, resourceGroup: rg}\n"
        "  anyscale-cloud:resources:\n"
        "    - {name: default, provider: Azure, region: eastus2}\n"
        "    - name: onprem\n"
        "      provider: Generic\n"
        "      region: dc1\n"
        "      kubeconfig: {secure: 'v1:a'}\n"
        "      cliToken: {secure: 'v1:b'}\n"
        "      storage:\n"
        "        bucket: s3://ray-data\n"
        "        endpoint: 'https://user:HUNTER2@minio.example.com'\n"
        "        region: us-east-1\n"
        "        credentials: {accessKeyId: {secure: 'v1:c'}, secretAccessKey: {secure: 'v1:d'}}\n",
        encoding="utf-8",
    )
    result = preflight_in_process("validate", str(stack))
    assert result.returncode == 1
    assert "HUNTER2" not in result.stdout + result.stderr
    assert result.stdout.splitlines() == [
        "resources[1].storage.endpoint (onprem): 'https://***@minio.example.com' carries user information "
        "(`user[:password]@`): credentials never go in a URI"
    ]


def test_an_environment_name_with_an_escape_is_printed_escaped(tmp_path: Path) -> None:
    stack = tmp_path / "Pulumi.t.yaml"
    stack.write_text(
        'environment: [prod/secrets, "\\e[31mevil"]\n'
        "config:\n"
        "  anyscale-cloud:cloud: {name: ml, location: eastus2, resourceGroup: rg}\n"
        "  anyscale-cloud:resources:\n"
        "    - {name: default, provider: Azure, region: eastus2}\n",
        encoding="utf-8",
    )
    result = preflight_in_process("validate", str(stack))
    assert "\x1b" not in result.stdout + result.stderr
    assert "note: environment: imports prod/secrets, " in result.stderr
