"""`cloud.tags` against Azure's and AWS's tag rules, each problem at its key's path."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from config import load_spec
from tests.example_spec import example_cloud, example_resources, problems


def with_tags(tags: dict[str, str]) -> dict[str, Any]:
    cloud = example_cloud()
    cloud["tags"] = tags
    return cloud


def azure_only() -> list[dict[str, Any]]:
    return [r for r in example_resources() if r["provider"] == "Azure"]


def test_aws_reserved_prefix_in_any_casing() -> None:
    assert problems(example_resources(), with_tags({"AWS:team": "x"})) == [
        "cloud.tags.AWS:team: tag names starting with 'aws:' are reserved for AWS (the AWS resources would refuse it)"
    ]


def test_aws_rules_only_with_an_aws_resource() -> None:
    load_spec(with_tags({"aws:team": "a#b"}), azure_only())  # Azure alone accepts both


def test_azure_forbidden_characters() -> None:
    assert problems(azure_only(), with_tags({"cost/center": "1", "a%b": "2"})) == [
        "cloud.tags.cost/center: Azure tag names may not contain / (none of < > % & \\ ? /)",
        "cloud.tags.a%b: Azure tag names may not contain % (none of < > % & \\ ? /)",
    ]


def test_names_differing_in_case_are_one_azure_tag() -> None:
    assert problems(azure_only(), with_tags({"Team": "a", "team": "b"})) == [
        "cloud.tags.team: is the same Azure tag as 'Team' (Azure tag names ignore case); keep one"
    ]


def test_lengths_at_the_limits() -> None:
    load_spec(with_tags({"k" * 128: "v" * 256}), example_resources())
    assert problems(example_resources(), with_tags({"k" * 129: "v" * 257})) == [
        "cloud.tags." + "k" * 129 + ": the tag name has 129 characters; at most 128 (Azure storage accounts)",
        "cloud.tags." + "k" * 129 + ": the tag value has 257 characters; at most 256 (Azure)",
    ]


def test_count_leaves_room_for_the_programs_aws_tags() -> None:
    load_spec(with_tags({f"t{i}": "" for i in range(48)}), example_resources())
    load_spec(with_tags({f"t{i}": "" for i in range(50)}), azure_only())
    assert problems(example_resources(), with_tags({f"t{i}": "" for i in range(49)})) == [
        "cloud.tags: has 49 tags, more than the 48 allowed (AWS allows 50 per resource and the program adds 2 "
        "(Name, kubernetes.io/cluster)); remove some"
    ]
    assert problems(azure_only(), with_tags({f"t{i}": "" for i in range(51)})) == [
        "cloud.tags: has 51 tags, more than the 50 allowed (Azure allows 50 per resource); remove some"
    ]


def test_aws_characters_in_values() -> None:
    assert problems(example_resources(), with_tags({"owner": "me#1"})) == [
        "cloud.tags.owner: the tag value has '#', which AWS tags do not allow "
        "(letters, digits, spaces and _ . : / = + - @ only)"
    ]


def test_blank_name() -> None:
    assert problems(azure_only(), with_tags({" ": "x"})) == ["cloud.tags. : a tag name must not be empty or blank"]


AWS_SAFE = st.text(alphabet="abcXYZ019 _.:=+-@é", min_size=1, max_size=128)


@given(st.dictionaries(AWS_SAFE.filter(lambda k: k.strip() and not k.lower().startswith("aws:")), AWS_SAFE, max_size=5))
def test_tags_within_both_clouds_rules_validate(tags: dict[str, str]) -> None:
    if len({k.casefold() for k in tags}) == len(tags):
        load_spec(with_tags(tags), example_resources())


@given(st.sampled_from("<>%&\\?"), st.text(alphabet="abc", min_size=1, max_size=10))
def test_each_azure_forbidden_character_is_refused(char: str, stem: str) -> None:
    key = stem + char
    assert problems(azure_only(), with_tags({key: "v"})) == [
        f"cloud.tags.{key}: Azure tag names may not contain {char} (none of < > % & \\ ? /)"
    ]
