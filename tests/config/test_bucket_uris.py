"""Bucket URIs and endpoints against each cloud's naming rules, in the spec and the pack's
one home of those rules (policy/rules/platform.py); userinfo is never accepted."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from policy.rules import platform
from tests.example_spec import example_resources, problems
from tests.text import from_regex, text


@pytest.mark.parametrize(
    ("uri", "provider", "why"),
    [
        ("s3://a..b", "AWS", "an S3 bucket name has no two adjacent periods"),
        ("s3://192.168.1.1", "AWS", "an S3 bucket name is not formatted as an IP address"),
        (
            "s3://xn--bucket",
            "AWS",
            "an S3 bucket name does not start with xn--, sthree- or amzn-s3-demo-, nor end with a reserved suffix",
        ),
        (
            "s3://logs--x-s3",
            "AWS",
            "an S3 bucket name does not start with xn--, sthree- or amzn-s3-demo-, nor end with a reserved suffix",
        ),
        ("gs://my-google-logs", "GCP", "a GCS bucket name does not start with 'goog' nor contain 'google'"),
        ("gs://goog-logs", "GCP", "a GCS bucket name does not start with 'goog' nor contain 'google'"),
        ("gs://10.0.0.1", "GCP", "a GCS bucket name is not formatted as an IP address"),
        ("gs://" + "a" * 64 + ".b", "GCP", "each dot-separated part of a GCS bucket name is at most 63 characters"),
        (
            "abfss://a--b@acct.dfs.core.windows.net",
            "Azure",
            "an Azure container name is 3-63 lowercase letters, digits and '-', a letter or digit first, "
            "each hyphen between letters or digits",
        ),
        (
            "abfss://logs@Acct.dfs.core.windows.net",
            "Azure",
            "names the storage account 'Acct'; an account name is 3-24 lowercase letters and digits",
        ),
        (
            "s3://key:secret@minio.example.com",
            "Generic",
            "carries user information (`user[:password]@`): credentials never go in a URI",
        ),
        ("s3://minio.example.com:70000", "Generic", "has the port '70000'; a port is a number from 1 to 65535"),
        (
            "s3://bad_label.example.com",
            "Generic",
            "has the host label 'bad_label'; each dot-separated label is 1-63 letters, digits and hyphens, "
            "with no hyphen at either end",
        ),
    ],
)
def test_bucket_names_each_cloud_refuses(uri: str, provider: str, why: str) -> None:
    # User information (a password) is never echoed: the message shows it masked.
    shown = uri.replace("key:secret@", "***@")
    assert platform.bucket_problem(uri, provider) == f"'{shown}' {why}"


@pytest.mark.parametrize(
    ("uri", "provider"),
    [
        ("s3://my.logs-1", "AWS"),
        ("gs://a_b.c-d", "GCP"),
        ("gs://" + "a" * 63 + "." + "b" * 63, "GCP"),
        ("abfss://logs@acct123.dfs.core.windows.net", "Azure"),
        ("azure://logs-1", "Azure"),
        ("s3://minio.example.com:9000", "Generic"),
        ("s3://anyscale", "Generic"),
    ],
)
def test_bucket_names_each_cloud_accepts(uri: str, provider: str) -> None:
    assert platform.bucket_problem(uri, provider) is None


@pytest.mark.parametrize(
    ("endpoint", "why"),
    [
        (
            "https://user:pw@minio.example.com",
            "carries user information (`user[:password]@`): credentials never go in a URI",
        ),
        ("https://minio.example.com:0", "has the port '0'; a port is a number from 1 to 65535"),
        ("https://minio.example.com:65536", "has the port '65536'; a port is a number from 1 to 65535"),
        ("https://minio.example.com:", "has the port ''; a port is a number from 1 to 65535"),
        ("https://10.0.0.256", "has the host '10.0.0.256', which is not an IPv4 address"),
        (
            "https://minio..example.com",
            "has the host label ''; each dot-separated label is 1-63 letters, digits and hyphens, "
            "with no hyphen at either end",
        ),
        (
            "https://-minio.example.com",
            "has the host label '-minio'; each dot-separated label is 1-63 letters, digits and hyphens, "
            "with no hyphen at either end",
        ),
    ],
)
def test_endpoints_refused(endpoint: str, why: str) -> None:
    shown = endpoint.replace("user:pw@", "***@")
    assert platform.endpoint_problem(endpoint) == f"'{shown}' {why}"


def test_endpoint_limits() -> None:
    assert platform.endpoint_problem("https://minio.example.com:65535") is None
    assert platform.endpoint_problem("https://minio.example.com:1") is None
    assert platform.endpoint_problem("https://10.0.0.255") is None
    assert platform.endpoint_problem("https://" + "a" * 63 + ".example.com") is None
    assert platform.endpoint_problem("https://" + "a" * 64 + ".example.com") is not None


def test_an_existing_azure_buckets_endpoint_is_its_accounts() -> None:
    resources = example_resources()
    resources[0]["storage"] = {
        "bucket": "abfss://logs@mlacct.dfs.core.windows.net",
        "endpoint": "https://otheracct.blob.core.windows.net",
    }
    assert problems(resources) == [
        "resources[0].storage.endpoint (default): 'https://otheracct.blob.core.windows.net' is not the blob endpoint "
        "of the bucket's storage account 'mlacct'; use https://mlacct.blob.core.windows.net"
    ]
    resources[0]["storage"]["endpoint"] = "https://mlacct.blob.core.windows.net"
    from config import load_spec
    from tests.example_spec import example_cloud

    load_spec(example_cloud(), resources)


def test_userinfo_in_a_generic_endpoint_is_refused_in_the_spec() -> None:
    resources = example_resources()
    generic = next(i for i, r in enumerate(resources) if r["provider"] == "Generic")
    resources[generic]["storage"]["endpoint"] = "https://minio:hunter2@minio.example.com"
    found = problems(resources)
    assert len(found) == 1
    assert found[0].startswith(f"resources[{generic}].storage.endpoint")
    assert "carries user information" in found[0]


LABEL = from_regex(r"[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?", fullmatch=True)


# A DNS name's last label is not all digits (RFC 3696 section 2): `0.0.0.00` reads as a
# malformed IPv4 address, which the rule refuses as such.
TOP_LABEL = LABEL.filter(lambda label: not label.isdigit())


@given(st.lists(LABEL, min_size=0, max_size=3), TOP_LABEL, st.integers(1, 65535))
def test_any_dns_host_and_port_is_an_endpoint(labels: list[str], top: str, port: int) -> None:
    assert platform.endpoint_problem(f"https://{'.'.join([*labels, top])}:{port}") is None


def test_a_host_of_digits_only_is_judged_as_an_address() -> None:
    assert platform.endpoint_problem("https://0.0.0.00:1") == (
        "'https://0.0.0.00:1' has the host '0.0.0.00', which is not an IPv4 address"
    )


@given(text(min_size=1, max_size=10).filter(lambda t: "/" not in t), LABEL)
def test_userinfo_is_never_accepted(user: str, host: str) -> None:
    for provider in ("Generic", "AWS", "GCP"):
        scheme = {"Generic": "s3", "AWS": "s3", "GCP": "gs"}[provider]
        assert platform.bucket_problem(f"{scheme}://{user}@{host}", provider) is not None
    assert platform.endpoint_problem(f"https://{user}@{host}") is not None


@given(st.integers().filter(lambda p: not 1 <= p <= 65535))
def test_ports_out_of_range(port: int) -> None:
    assert platform.endpoint_problem(f"https://h.example.com:{port}") is not None
