"""A secret given in clear in a stack file is reported with its path and never echoed; an
empty `secure:` value is refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from spec import clear_secret_advisories
from tests.example_spec import example_cloud, example_resources, problems

ROOT = Path(__file__).resolve().parent.parent
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
    run = subprocess.run(
        [sys.executable, "-m", "preflight", "validate", str(stack)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0
    assert PLAIN not in run.stdout + run.stderr
    assert run.stderr.splitlines() == [
        f"warning: resources[{generic_index()}].cliToken (onprem): is a secret given in clear in the stack file; "
        f"encrypt it with `pulumi config set --secret --path 'resources[{generic_index()}].cliToken'`, which "
        "replaces the plain value"
    ]
