"""The pack on values built to slip past it: origins built around placeholders are judged
by their known parts, and NotAction / NotResource / NotPrincipal are the broad grants they
are."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from preflight import policy as runner

aws_iam = runner.pack_module("rules.aws_iam")
storage = runner.pack_module("rules.storage")
values = runner.pack_module("rules.values")

CONSOLE = "https://console.azure.anyscale.com"


def origins_found(*origins: str) -> list[str]:
    props = {"corsRules": [{"allowedOrigins": list(origins), "allowedMethods": ["GET"]}]}
    return storage.cors_origin_problems(props, storage.S3_CORS_SHAPE, CONSOLE, [])


@pytest.mark.parametrize(
    "origin",
    ["http://${site.host}", "https://${site.host}.evil.example.com", "https://evil.example.com:${port.value}"],
)
def test_an_origin_built_around_a_placeholder_is_checked_by_its_known_parts(origin: str) -> None:
    assert origins_found(CONSOLE, origin) == [
        f"the CORS rules also allow {origin!r}: only the console ({CONSOLE}) reads logs from the browser; remove "
        "them (or list a needed https origin in the cors-origins policy's extraOrigins)"
    ]


@pytest.mark.parametrize("origin", ["${console.origin}", "https://${console.host}", "https://console.${zone.name}"])
def test_a_placeholder_that_could_be_the_console_is_not_flagged(origin: str) -> None:
    assert origins_found(CONSOLE, origin) == []


@given(st.text(alphabet="abc.:/-", max_size=12), st.text(alphabet="abc.:/-", max_size=12))
def test_could_be_agrees_with_filling_in_the_placeholder(before: str, after: str) -> None:
    value = before + "${x.y}" + after
    for filler in ("", "zz", "console"):
        filled = before + filler + after
        assert values.could_be(value, [filled])


def doc(*statements: dict[str, Any]) -> dict[str, Any]:
    return {"Version": "2012-10-17", "Statement": list(statements)}


def test_not_action_is_a_broad_grant() -> None:
    policy = doc({"Effect": "Allow", "NotAction": ["iam:*"], "Resource": "*"})
    assert aws_iam.wildcard_problems(policy, "the policy") == [
        "the policy has an Allow statement with NotAction: it grants every action of AWS but 'iam:*'; list what it "
        "needs under Action instead"
    ]


def test_not_resource_is_a_broad_grant() -> None:
    policy = doc({"Effect": "Allow", "Action": ["s3:GetObject"], "NotResource": "arn:aws:s3:::private/*"})
    assert aws_iam.wildcard_problems(policy, "the policy") == [
        "the policy has an Allow statement with NotResource: it grants every resource of the account but "
        "'arn:aws:s3:::private/*'; list what it needs under Resource instead"
    ]


def test_deny_with_not_action_is_fine() -> None:
    policy = doc({"Effect": "Deny", "NotAction": ["s3:GetObject"], "Resource": "*"})
    assert aws_iam.wildcard_problems(policy, "the policy") == []


def test_not_principal_with_allow_is_public_in_a_bucket_policy() -> None:
    statement = {"Effect": "Allow", "NotPrincipal": {"AWS": "arn:aws:iam::1:root"}, "Action": "s3:GetObject"}
    problems = aws_iam.bucket_policy_problems({"policy": json.dumps(doc(statement))})
    assert problems == [
        "the bucket policy allows 's3:GetObject' to everyone (Principal '*', no Condition): the bucket holds users' "
        "logs and snapshots; grant the operator's role instead"
    ]
