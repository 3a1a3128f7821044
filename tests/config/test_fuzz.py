"""Property-based tests of the spec and `preflight validate` (hypothesis).

Arbitrary documents and mutations of the example stack never produce a traceback or an
exit code other than 0, 1 or 2; configs valid by construction validate; breaking exactly
one rule is reported at that rule's path. Runs in-process (validate.main) to stay fast;
the `ci` profile bounds the run time."""

from __future__ import annotations

import copy
import io
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config import SpecError, load_spec
from config.data.regions import AWS_REGIONS, AZURE_REGIONS, GCP_REGIONS
from preflight import validate
from tests.conftest import stack_values
from tests.example_spec import standalone
from tests.text import from_regex, text

# Profiles (`ci`, `thorough`): tests/conftest.py.

EXAMPLE = standalone(copy.deepcopy(stack_values("example")))

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), text(max_size=20))
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(text(max_size=12), inner, max_size=4)),
    max_leaves=20,
)


def run_validate(path: Path) -> tuple[int, str]:
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(out):
        code = validate.main([str(path)])
    return code, out.getvalue()


@given(doc=documents)
def test_arbitrary_yaml_documents(tmp_path_factory: Any, doc: Any) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "Pulumi.x.yaml"
    path.write_text(yaml.safe_dump(doc))
    code, output = run_validate(path)
    assert code in (0, 1, 2)
    assert "Traceback" not in output


@given(doc=documents)
def test_arbitrary_config_values(doc: Any) -> None:
    for cloud, resources in ((doc, EXAMPLE["anyscale-cloud:resources"]), (EXAMPLE["anyscale-cloud:cloud"], doc)):
        try:
            load_spec(copy.deepcopy(cloud), copy.deepcopy(resources))
        except SpecError as error:
            assert error.problems


@given(raw=st.binary(max_size=200))
def test_arbitrary_bytes(tmp_path_factory: Any, raw: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "Pulumi.x.yaml"
    path.write_bytes(raw)
    code, output = run_validate(path)
    assert code in (0, 1, 2)
    assert "Traceback" not in output


def paths_of(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += paths_of(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += paths_of(item, prefix + (index,))
    return out


CONFIG = {"cloud": EXAMPLE["anyscale-cloud:cloud"], "resources": EXAMPLE["anyscale-cloud:resources"]}
ALL_PATHS = paths_of(CONFIG)


@given(path=st.sampled_from(ALL_PATHS), replacement=documents)
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_mutations_of_the_example_never_crash(path: tuple, replacement: Any) -> None:
    config = copy.deepcopy(CONFIG)
    node = config
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = replacement
    try:
        load_spec(config["cloud"], config["resources"])
    except SpecError as error:
        for problem in error.problems:
            assert problem.path and problem.message


name_text = from_regex(r"[a-zA-Z0-9_-]{1,40}", fullmatch=True).filter(lambda n: any(c.isalnum() for c in n))
pool_names = from_regex(r"[a-z][a-z0-9]{0,11}", fullmatch=True)


@st.composite
def valid_resources(draw: Any, max_extra: int = 6) -> list[dict[str, Any]]:
    """A valid `anyscale-cloud:resources` list: the Azure primary and up to `max_extra` more."""
    names = draw(
        st.lists(
            name_text.filter(lambda n: n.lower() != "default"),
            min_size=0,
            max_size=max_extra,
            # Names differing only in case or punctuation ("0" and "0-") derive the same cloud
            # names, which the spec refuses as a collision: not valid by construction.
            unique_by=lambda n: re.sub(r"[^a-z0-9]", "", n.lower()),
        )
    )
    resources: list[dict[str, Any]] = [
        {
            "name": "default",
            "provider": draw(st.sampled_from(["Azure", "azure", "AZURE"])),
            "region": draw(st.sampled_from(sorted(AZURE_REGIONS))),
        }
    ]
    if draw(st.booleans()):
        resources[0]["cluster"] = {
            "nodePools": [
                {
                    "name": draw(pool_names),
                    "instanceType": "Standard_D8s_v5",
                    "minCount": 0,
                    "maxCount": draw(st.integers(1, 50)),
                }
            ]
        }
    for name in names:
        kind = draw(st.sampled_from(["Azure", "AWS", "GCP", "Generic"]))
        entry: dict[str, Any] = {"name": name, "provider": kind}
        if kind == "Azure":
            entry["region"] = draw(st.sampled_from(sorted(AZURE_REGIONS)))
        elif kind == "AWS":
            entry["region"] = draw(st.sampled_from(sorted(AWS_REGIONS)))
            if draw(st.booleans()):
                entry["storage"] = {
                    "bucket": "s3://" + draw(from_regex(r"[a-z0-9][a-z0-9-]{2,20}[a-z0-9]", fullmatch=True))
                }
        elif kind == "GCP":
            entry["region"] = draw(st.sampled_from(sorted(GCP_REGIONS)))
            entry["project"] = draw(
                from_regex(r"[a-z][a-z0-9-]{4,20}[a-z0-9]", fullmatch=True).filter(
                    # Google refuses a project ID containing these.
                    lambda p: not any(word in p for word in ("google", "null", "undefined", "ssl"))
                )
            )
        else:
            entry["region"] = draw(from_regex(r"[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,2}", fullmatch=True))
            entry["kubeconfig"] = {"secure": "v1:abc"}
            entry["cliToken"] = draw(text(min_size=1, max_size=10).filter(str.strip))
            entry["storage"] = {
                "bucket": draw(st.sampled_from(["s3", "minio", "r2"]))
                + "://"
                + draw(from_regex(r"[a-z0-9][a-z0-9-]{1,18}[a-z0-9]", fullmatch=True))  # a host label
            }
        resources.append(entry)
    return resources


@given(resources=valid_resources())
def test_valid_by_construction(resources: list[dict[str, Any]]) -> None:
    spec = load_spec(copy.deepcopy(EXAMPLE["anyscale-cloud:cloud"]), resources)
    assert [r.name for r in spec.resources] == [r["name"] for r in resources]
    assert spec.resources[0].provider == "Azure"


# One broken rule at a time: (mutation, expected path of the problem).
BREAKERS = [
    (lambda c: c["resources"][1].__setitem__("region", "US-WEST-2"), "resources[1].region"),
    (lambda c: c["resources"][1].__setitem__("region", "us-west-99"), "resources[1].region"),
    (lambda c: c["resources"][2].__setitem__("storage", {"bucket": "gs://b/p"}), "resources[2].storage.bucket"),
    (
        lambda c: c["resources"][3]["storage"].__setitem__("endpoint", "https://minio.example.com/"),
        "resources[3].storage.endpoint",
    ),
    (lambda c: c["resources"][3].pop("cliToken"), "resources[3].cliToken"),
    (lambda c: c["resources"][2].pop("project"), "resources[2].project"),
    (lambda c: c["resources"][0].__setitem__("name", "primary"), "resources[0].name"),
    # Without its AKS pools, which would also be reported as unknown AWS instance types.
    (
        lambda c: (
            c["resources"][0].update(provider="AWS", region="us-east-2"),
            c["resources"][0].pop("cluster", None),
            # and its networkPolicy, which an AWS cluster of this program would not enforce
            c["resources"][0]["addons"]["kuberay"].pop("networkPolicy", None),
        ),
        "resources[0].provider",
    ),
    (lambda c: c["resources"][2].__setitem__("name", "aws-usw2"), "resources[2].name"),
    (lambda c: c["resources"][1].__setitem__("provider", "EKS"), "resources[1].provider"),
    (lambda c: c["cloud"].__setitem__("location", "westus9"), "cloud.location"),
    (lambda c: c["resources"][1].__setitem__("regoin", "x"), "resources[1].regoin"),
]


@given(index=st.integers(0, len(BREAKERS) - 1), noise=valid_resources())
def test_one_broken_rule_is_reported_at_its_path(index: int, noise: list[dict[str, Any]]) -> None:
    config = copy.deepcopy(CONFIG)
    # Valid extra resources after the example ones must not change what is reported.
    taken = {r["name"].lower() for r in config["resources"]}
    config["resources"] += [r for r in noise[1:] if r["name"].lower() not in taken]
    mutate, expected = BREAKERS[index]
    mutate(config)
    try:
        load_spec(config["cloud"], config["resources"])
    except SpecError as error:
        assert [p.path for p in error.problems] == [expected], error.problems
    else:
        raise AssertionError(f"{expected} was not reported")
