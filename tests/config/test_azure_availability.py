"""Azure regions outside the list where Anyscale on Azure is available: an advisory
(warning, exit 0; a `pulumi.log.warn` from the program), never an error; nothing when
the list is unset."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from config.data import azure_availability
from config.data.regions import KNOWN_REGIONS
from preflight import validate

# Microsoft Learn "Anyscale on Azure supported regions" (ms.date 2026-07-23).
PREVIEW_REGIONS = {
    "westcentralus",
    "eastus",
    "eastus2",
    "westus2",
    "westus3",
    "southcentralus",
    "westeurope",
    "northeurope",
    "swedencentral",
    "uksouth",
    "australiaeast",
    "southeastasia",
}

STACK = """config:
  anyscale-cloud:cloud: {{name: c, location: {location}, resourceGroup: rg}}
  anyscale-cloud:resources:
    - {{name: default, provider: Azure, region: {region}}}
    - {{name: second, provider: Azure, region: eastus2, storage: {{region: {storage}}}}}
    - {{name: aws, provider: AWS, region: us-west-2}}
"""


def run_validate(tmp_path: Path, capsys: pytest.CaptureFixture[str], **regions: str) -> tuple[int, str, str]:
    path = tmp_path / "Pulumi.x.yaml"
    path.write_text(STACK.format(**({"location": "eastus2", "region": "eastus2", "storage": "eastus2"} | regions)))
    code = validate.main([str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_list_is_the_documented_one_and_every_entry_is_an_azure_region() -> None:
    assert azure_availability.AVAILABLE_REGIONS == PREVIEW_REGIONS
    assert PREVIEW_REGIONS.issubset(KNOWN_REGIONS["Azure"])
    assert "learn.microsoft.com/azure/anyscale-on-azure/supported-regions" in (azure_availability.__doc__ or "")
    assert "2026-07-23" in azure_availability.SOURCE


def test_listed_regions_give_no_advisory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_validate(tmp_path, capsys, location="westeurope", region="swedencentral", storage="uksouth")
    assert code == 0
    assert out.startswith("ok: cloud c in westeurope: 3 cloud resource(s)")
    assert err == ""


def test_unlisted_regions_are_advisories_naming_path_and_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_validate(tmp_path, capsys, location="westus", region="francecentral", storage="japaneast")
    assert code == 0
    assert len(out.splitlines()) == 1 and out.startswith("ok: cloud c in westus")
    lines = err.splitlines()
    assert [line.split(": '", 1)[0] for line in lines] == [
        "warning: cloud.location",
        "warning: resources[0].region (default)",
        "warning: resources[1].storage.region (second)",
    ]
    assert lines[0].startswith(
        "warning: cloud.location: 'westus' is not a region where Anyscale on Azure is available "
        "(Microsoft Learn 'Anyscale on Azure supported regions', 2026-07-23 (config/data/azure_availability.py): "
        "australiaeast, eastus, eastus2, northeurope, southcentralus, southeastasia, swedencentral, uksouth, "
        "westcentralus, westeurope, westus2, westus3); the platform may refuse it"
    )
    assert "'francecentral'" in lines[1] and "'japaneast'" in lines[2]
    # The AWS resource's us-west-2 is not an Azure region: never compared.
    assert "us-west-2" not in err


def test_no_list_no_advisory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(azure_availability, "AVAILABLE_REGIONS", None)
    code, out, err = run_validate(tmp_path, capsys, location="westus", region="francecentral", storage="japaneast")
    assert (code, err) == (0, "")
    assert out.startswith("ok: ")


def test_a_problem_still_fails_and_advisories_wait_for_a_valid_spec(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_validate(tmp_path, capsys, location="westus", region="EastUS2")
    assert code == 1
    assert out.startswith("resources[0].region (default): 'EastUS2' must be lowercase")
    assert "warning" not in out + err


def warnings_of(run: Any, values: dict[str, Any], caplog: pytest.LogCaptureFixture) -> list[str]:
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        run(values)
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]


def test_the_program_logs_a_warning_and_deploys(
    run: Any, dev_values: dict[str, Any], caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert not [w for w in warnings_of(run, dev_values, caplog) if "Anyscale on Azure" in w]
    dev_values["anyscale-cloud:cloud"]["location"] = "westus"
    found = [w for w in warnings_of(run, dev_values, caplog) if "Anyscale on Azure" in w]
    assert len(found) == 1
    assert found[0].startswith("cloud.location: 'westus' is not a region where Anyscale on Azure is available")
    monkeypatch.setattr(azure_availability, "AVAILABLE_REGIONS", None)
    assert not [w for w in warnings_of(run, dev_values, caplog) if "Anyscale on Azure" in w]
