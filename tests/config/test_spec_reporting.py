"""Exact behaviour of the spec's reporting helpers (config/load.py): the order of the problems `load_spec` reports, which of them it drops,
how it words them, and a few value checks behind them. Every test goes through
`load_spec`, the entry point of `pulumi up` and `preflight validate`, and writes what
the user reads as a literal.

Equivalent (not killable):
- `_problem_order` 4, 24: resources get (2, i) / others (1, -2): still after the cloud and
  "resources" before resources[0]; same order for every pair of paths.
- `_problem_order` 9, 12: `split("]")[0]` with any maxsplit is the same first part.
- `_problem_order` 17, 18: cloud gets (0, 1) / (0, -2): still before everything else.
- `_config_order` 4 5 11 12 13 14 15 16 18 19 20 21: `_problems` sorts with it, then
  `load_spec` sorts every problem again by `_problem_order` (stable), whose groups are the
  same (cloud, resources[i], the rest); within a group every mutant gives equal keys, so
  the final order never changes (4: equal tuples (1, None) compare without `None < None`).
- `_message` 11, 18: an unknown key with an empty location cannot occur (the document has
  only `cloud` and `resources`); and "XXXX" has no "_", so the message is the same anyway.
- `_message` 42, 44: `.get("input")` is only reached when the input is a dict, so the
  default never applies.
- `_problems` 7: the URL pydantic adds is never read.
- `_problems` 40, 41: `at` not split gives one part "a.b.c", which `_path` prints the same.
- `_resource_name` 4, 5: no problem is reported at `resources[i]` itself when that item
  has a name (raw checks report there only for a `{secure}` or string item; every model
  rule names a field).
- `_resource_name` 12, 15: the index of a problem is always inside the list.
- `_within` 7: an early problem never sits on a list whose items pydantic then checks (it
  flags a `{secure}` value, a string, or a key whose value is then rejected as a whole).
- `_detail` 5: the stack rules' problems carry no input anyone reads.
- `_message` 60-66 (the `value_error` branch): no validator lets a plain ValueError through
  since version parts are bounded to 9 digits (the one input that did was a part over
  CPython's 4300-digit int limit); the branch stays for a future validator.
- `check_cidr` 5, `ipv4_network` 4: `strict=True` is `ipaddress.IPv4Network`'s default.
- `_to_secret` 20, 21; `check_cidr` 15, 16; `ipv4_network` 16, 17; `_kuberay_since` 14,
  15: the error's type name, which no message or path shows.
- `release_of` 8, 15: only the part before the first `-`/`+` is used, whatever maxsplit.
- `release_of` 13: `lstrip("XXvXX")` strips the same as `lstrip("v")` (no X in a version
  the pattern accepts).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from config import Secret, load_spec
from tests.example_spec import example_cloud, example_resources, problems, spec_error

SECRET_HERE = (
    "a secret ({secure: ...}) is not accepted here: only kubeconfig, cliToken, storage.credentials keys and "
    "addons.anyscaleOperator.values are secrets; set this value in clear"
)
CLOUD_LOCATION = (
    "cloud.location: 'EASTUS' must be lowercase letters and digits in dash-separated groups "
    "(^[a-z0-9]+(-[a-z0-9]+)*$) (did you mean 'eastus'? casing is never converted)"
)


# --- order: the cloud first, then the resources list, then resource by resource ----------


def test_a_cloud_problem_comes_before_a_problem_with_the_resources_value() -> None:
    # The early (document-wide) problem on `resources` is listed after the cloud's, as in the file.
    cloud = example_cloud()
    cloud["location"] = "EASTUS"
    assert problems({"secure": "v1:abc"}, cloud) == [CLOUD_LOCATION, f"resources: {SECRET_HERE}"]


def test_a_problem_with_the_whole_list_comes_before_the_resources_problems() -> None:
    # Too many resources is reported before a problem inside resources[0], found earlier.
    resources = [copy.deepcopy(example_resources()[1]) for _ in range(101)]
    for index, resource in enumerate(resources):
        resource["name"] = f"r{index}"
    resources[0] = example_resources()[0]
    resources[0]["region"] = "eastus2\x07"
    assert problems(resources) == [
        "resources: List should have at most 100 items after validation, not 101",
        "resources[0].region (default): contains the control or format character U+0007; remove it",
    ]


def test_problems_are_listed_resource_by_resource() -> None:
    # A document-wide problem in resources[1] (found first) is listed after resources[0]'s.
    resources = example_resources()
    resources[1]["region"] = "us-west-2\x07"
    resources[0]["region"] = "EASTUS2"
    assert problems(resources) == [
        "resources[0].region (default): 'EASTUS2' must be lowercase letters and digits in dash-separated groups "
        "(^[a-z0-9]+(-[a-z0-9]+)*$) (did you mean 'eastus2'? casing is never converted)",
        "resources[1].region (aws-usw2): contains the control or format character U+0007; remove it",
    ]


# --- a value refused as a whole is reported once, not again for its parts ------------------


def test_a_secret_where_a_mapping_belongs_is_reported_once() -> None:
    # Not followed by the model's complaints about the keys inside (`secure` unknown...).
    resources = example_resources()
    resources[0]["storage"] = {"secure": "v1:abc"}
    assert problems(resources) == [f"resources[0].storage (default): {SECRET_HERE}"]


def test_the_error_text_is_one_problem_per_line() -> None:
    # str(SpecError) is what `pulumi up` prints: every problem, one per line, in order.
    cloud = example_cloud()
    cloud["location"] = "EASTUS"
    assert str(spec_error(cloud, {"secure": "v1:abc"})) == f"{CLOUD_LOCATION}\nresources: {SECRET_HERE}"


# --- wording ---------------------------------------------------------------------------------


def test_an_unknown_capitalised_key_is_a_spelling_mistake_not_snake_case() -> None:
    # Only a snake_case key gets the camelCase hint; `Region` gets the key of the same letters.
    resources = example_resources()
    resources[1]["Region"] = "us-west-2"
    assert problems(resources) == [
        "resources[1].Region (aws-usw2): unknown key: did you mean `region`? (see the config reference in "
        "docs/configuration.md)"
    ]


def test_a_version_part_longer_than_nine_digits_is_refused_by_its_form() -> None:
    # Before the bound, 4,400 digits reached int() in release_of and the user saw CPython's
    # "Exceeds the limit (4300 digits) for integer string conversion" against `authentication`.
    resources = example_resources()
    resources[0]["addons"]["kuberay"].update(version="1.0000000000.0", authentication="token")
    assert problems(resources) == [
        "resources[0].addons.kuberay.version (default): '1.0000000000.0' does not have the required form "
        "^v?[0-9]{1,9}\\.[0-9]{1,9}\\.[0-9]{1,9}(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$"
    ]


# --- secrets -----------------------------------------------------------------------------------


def test_a_secure_value_with_other_keys_is_not_a_secret() -> None:
    # `{secure: ..., note: ...}` is not how Pulumi stores a secret: refused, not taken as one.
    resources = example_resources()
    resources[3]["kubeconfig"] = {"secure": "v1:abc", "note": "mine"}
    assert problems(resources) == [
        "resources[3].kubeconfig (onprem): must be a non-empty Pulumi secret: set it with "
        "`pulumi config set --secret --path '<path>'`"
    ]


def test_an_encrypted_secret_keeps_its_ciphertext() -> None:
    # Offline (preflight on a stack file) the spec holds the `{secure: ...}` ciphertext.
    spec = load_spec(example_cloud(), example_resources())
    assert spec.resources[3].kubeconfig == Secret("v1:Yz3kLq8mB0+example-ciphertext/kubeconfig==", encrypted=True)


# --- KubeRay versions: the first release with an option, `v` prefixes and pre-releases -----------


def kuberay_token(version: str) -> list[dict[str, Any]]:
    resources = example_resources()
    resources[0]["addons"]["kuberay"].update(version=version, authentication="token")
    resources[0]["addons"]["kuberay"].pop("networkPolicy")  # it needs KubeRay 1.7.0
    return resources


@pytest.mark.parametrize("version", ["1.5.1", "v1.5.1", "1.5.1-rc.1", "1.5.1+build.7"])
def test_token_authentication_is_accepted_from_kuberay_1_5_1(version: str) -> None:
    # 1.5.1 itself is enough; a `v` prefix and a pre-release or build suffix count as 1.5.1:
    # the one problem left is that its CRDs do not ship with the program (1.6.2 and 1.7.0 do).
    assert problems(kuberay_token(version)) == [
        f"resources[0].addons.kuberay.version (default): the KubeRay CRDs and dashboards ship with this program "
        f"for 1.6.2, 1.7.0 only (version is {version}): nothing is downloaded at deploy time; use one of those versions"
    ]


def test_token_authentication_before_kuberay_1_5_1_names_the_version_written() -> None:
    # `v1.4.0` is read as 1.4.0 and quoted as written.
    assert problems(kuberay_token("v1.4.0")) == [
        "resources[0].addons.kuberay.authentication (default): authOptions.mode: token needs KubeRay 1.5.1 or "
        "later (addons.kuberay.version is v1.4.0); raise addons.kuberay.version"
    ]
