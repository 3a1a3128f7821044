"""A resource's secrets by name (`anyscale-cloud:secrets`): the same spec and plan as the
inline form, one place per secret, and ESC imports recognised by `preflight validate`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from config import SpecError, load_spec
from tests.cli import preflight_in_process
from tests.conftest import stack_values

GENERIC = 3  # the example stack's Generic resource (`onprem`)


def moved_to_the_map(values: dict[str, Any]) -> dict[str, Any]:
    """The example's config with onprem's two secrets moved out of the list, by name."""
    onprem = values["anyscale-cloud:resources"][GENERIC]
    assert onprem["name"] == "onprem" and onprem["provider"] == "Generic"
    values["anyscale-cloud:secrets"] = {
        "onprem": {"kubeconfig": onprem.pop("kubeconfig"), "cliToken": onprem.pop("cliToken")}
    }
    return values


def problems(resources: Any, secrets: Any) -> list[str]:
    with pytest.raises(SpecError) as caught:
        load_spec(stack_values("example")["anyscale-cloud:cloud"], resources, secrets)
    return [str(p) for p in caught.value.problems]


def test_the_map_gives_the_same_spec_as_the_inline_form() -> None:
    inline = stack_values("example")
    mapped = moved_to_the_map(stack_values("example"))
    assert "kubeconfig" not in mapped["anyscale-cloud:resources"][GENERIC]
    expected = load_spec(inline["anyscale-cloud:cloud"], inline["anyscale-cloud:resources"])
    got = load_spec(
        mapped["anyscale-cloud:cloud"], mapped["anyscale-cloud:resources"], mapped["anyscale-cloud:secrets"]
    )
    assert got == expected
    onprem = got.resources[GENERIC]
    assert onprem.kubeconfig.value == "v1:Yz3kLq8mB0+example-ciphertext/kubeconfig=="  # type: ignore[union-attr]
    assert onprem.cli_token.value == "v1:Pq9rTb2wX4+example-ciphertext/clitoken=="  # type: ignore[union-attr]


def test_the_program_plans_the_map_form_as_the_inline_one(run, example_plan) -> None:
    plan = run(moved_to_the_map(stack_values("example")), stack="example")
    # Resource by resource (registration order between parallel branches may vary).
    by_urn = {r["urn"]: r for r in plan.to_json()["resources"]}
    assert by_urn == {r["urn"]: r for r in example_plan.to_json()["resources"]}
    onprem = [r for urn, r in by_urn.items() if "onprem" in urn and r["type"] == "pulumi:providers:kubernetes"]
    assert onprem and onprem[0]["inputs"]["kubeconfig"] == "[secret]"
    text = json.dumps(plan.to_json())
    assert "example-ciphertext" not in text and "[secret]" in text


def test_a_secret_given_in_both_places_is_an_error() -> None:
    resources = stack_values("example")["anyscale-cloud:resources"]
    assert problems(resources, {"onprem": {"cliToken": {"secure": "v1:b3RoZXI="}}}) == [
        "secrets.onprem.cliToken (onprem): is also given inline at resources[3].cliToken: keep one of the two "
        "(this map lets a Pulumi ESC environment supply it)"
    ]


def test_the_map_names_existing_resources_and_secrets_only() -> None:
    resources = moved_to_the_map(stack_values("example"))["anyscale-cloud:resources"]
    secret = {"secure": "v1:eA=="}
    assert problems(resources, {"onprme": {"cliToken": secret}}) == [
        "secrets.onprme: no cloud resource is named 'onprme' (the names are: default, aws-usw2, gcp-usc1, onprem)"
    ]
    assert problems(resources, {"onprem": {"kubeconfig": secret, "cliToken": secret, "region": "x"}}) == [
        "secrets.onprem.region (onprem): is not a secret of a cloud resource; the secrets are kubeconfig, "
        "cliToken, storage.credentials.accessKeyId, storage.credentials.secretAccessKey"
    ]
    assert problems(resources, {"onprem": secret}) == [
        "secrets.onprem (onprem): must be a map of the resource's secrets (kubeconfig, cliToken, "
        "storage.credentials.accessKeyId, storage.credentials.secretAccessKey)"
    ]
    assert problems(resources, ["onprem"]) == ["secrets: must be a map of cloud resource names to their secrets"]


def test_s3_keys_by_name_land_under_storage_credentials() -> None:
    resources = moved_to_the_map(stack_values("example"))["anyscale-cloud:resources"]
    resources[GENERIC]["storage"]["region"] = "us-east-1"  # S3-compatible keys need the bucket's region
    resources[GENERIC]["storage"].pop("credentials", None)  # given by name below instead
    secret = {"secure": "v1:eA=="}
    spec = load_spec(
        stack_values("example")["anyscale-cloud:cloud"],
        resources,
        {
            "onprem": {
                "kubeconfig": secret,
                "cliToken": secret,
                "storage": {"credentials": {"accessKeyId": secret, "secretAccessKey": {"secure": "v1:eQ=="}}},
            }
        },
    )
    credentials = spec.resources[GENERIC].storage.credentials  # type: ignore[union-attr]
    assert credentials is not None and credentials.secret_access_key.value == "v1:eQ=="


def test_a_generic_resource_without_its_secrets_anywhere_still_fails() -> None:
    resources = moved_to_the_map(stack_values("example"))["anyscale-cloud:resources"]
    found = problems(resources, None)
    assert any(p.startswith("resources[3].kubeconfig (onprem):") for p in found), found
    assert any(p.startswith("resources[3].cliToken (onprem):") for p in found), found


def write_stack(tmp_path: Path, document: dict[str, Any]) -> Path:
    path = tmp_path / "Pulumi.esc.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    return path


def test_validate_names_what_an_imported_environment_must_supply(tmp_path: Path) -> None:
    values = stack_values("example")
    onprem = values["anyscale-cloud:resources"][GENERIC]
    del onprem["kubeconfig"], onprem["cliToken"]
    without = preflight_in_process("validate", str(write_stack(tmp_path, {"config": values})))
    assert without.returncode == 1  # no environment: the secrets are simply missing
    result = preflight_in_process(
        "validate", str(write_stack(tmp_path, {"environment": ["anyscale/prod"], "config": values}))
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("ok: cloud ml-platform")
    notes = [line for line in result.stderr.splitlines() if line.startswith("note: ")]
    assert notes == [
        "note: environment: imports anyscale/prod: Pulumi ESC merges their values into the config at deploy "
        "time; preflight reads only this file",
        "note: resources[3].kubeconfig (onprem): not in this file; expected from anyscale/prod as "
        "anyscale-cloud:secrets.onprem.kubeconfig, which cannot be seen offline",
        "note: resources[3].cliToken (onprem): not in this file; expected from anyscale/prod as "
        "anyscale-cloud:secrets.onprem.cliToken, which cannot be seen offline",
    ]


def test_validate_accepts_the_map_in_a_stack_file_and_refuses_a_bad_environment(tmp_path: Path) -> None:
    values = moved_to_the_map(stack_values("example"))
    result = preflight_in_process("validate", str(write_stack(tmp_path, {"config": values})))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "note:" not in result.stderr
    bad = preflight_in_process(
        "validate", str(write_stack(tmp_path, {"environment": "anyscale/prod", "config": values}))
    )
    assert bad.returncode == 2
    assert bad.stderr.strip().endswith("`environment` must be a list of Pulumi ESC environment names")
