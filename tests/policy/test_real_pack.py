"""The pack for real: what `pulumi policy publish` uploads (a copy of policy/ and nothing else),
booted the way the Pulumi CLI boots it (`python -u -m pulumi.policy`, isolated) and asked
over gRPC: its policies' metadata, a preview's resource and its stack, unknowns included."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from preflight import policy as runner
from tests.policy.helpers import CONSOLE, PACK, ROOT, record


@pytest.fixture(scope="module")
def uploaded_pack(tmp_path_factory) -> Path:
    """What `pulumi policy publish` uploads: a copy of policy/ and nothing else."""
    import shutil

    target = tmp_path_factory.mktemp("upload") / "anyscale-cloud-pack"
    shutil.copytree(ROOT / "policy", target, ignore=shutil.ignore_patterns("venv", "__pycache__"))
    return target


@pytest.fixture(scope="module")
def analyzer(uploaded_pack):
    """`python -u -m pulumi.policy <engine> <pack dir>` is what the CLI's
    pulumi-analyzer-policy-python runs; the pack prints the port it serves on. It runs
    the uploaded copy (policy/ alone) with an isolated interpreter (-I: no current
    directory, PYTHONPATH or user site-packages), as after `pulumi policy publish`."""
    import grpc
    from pulumi.runtime.proto import analyzer_pb2_grpc

    process = subprocess.Popen(
        [sys.executable, "-I", "-u", "-m", "pulumi.policy", "127.0.0.1:1", str(uploaded_pack)],
        cwd=uploaded_pack,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        port = process.stdout.readline().strip()
        assert port.isdigit(), process.stderr.read()
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        yield analyzer_pb2_grpc.AnalyzerStub(channel)
        channel.close()
    finally:
        process.terminate()
        process.wait(timeout=10)


def _request(rec: dict[str, Any], props: dict[str, Any] | None = None) -> Any:
    from google.protobuf import json_format, struct_pb2
    from pulumi.runtime.proto import analyzer_pb2

    properties = struct_pb2.Struct()
    json_format.ParseDict(runner.engine_value(props if props is not None else rec["inputs"]), properties)
    options = analyzer_pb2.AnalyzerResourceOptions(
        deleteBeforeReplace=rec["options"]["deleteBeforeReplace"], deleteBeforeReplaceDefined=True
    )
    return analyzer_pb2.AnalyzeRequest(
        type=rec["type"], properties=properties, urn=rec["urn"], name=rec["name"], options=options
    )


def test_real_pack_describes_its_policies(analyzer):
    from google.protobuf import empty_pb2
    from pulumi.runtime.proto import analyzer_pb2

    info = analyzer.GetAnalyzerInfo(empty_pb2.Empty())
    assert info.name == "anyscale-cloud"
    assert info.repository == runner.pack_module("pack").REPOSITORY
    assert [p.name for p in info.policies] == [p.name for p in PACK.ALL_POLICIES]
    levels = {"mandatory": analyzer_pb2.MANDATORY, "advisory": analyzer_pb2.ADVISORY}
    severities = {
        s: getattr(analyzer_pb2, f"POLICY_SEVERITY_{s.upper()}") for s in ("low", "medium", "high", "critical")
    }
    # Every declaration's metadata reaches the engine (and Pulumi Cloud) as declared.
    for sent, declared in zip(info.policies, PACK.ALL_POLICIES, strict=True):
        assert sent.description == declared.description, declared.name
        assert sent.enforcementLevel == levels[declared.enforcement_level.value], declared.name
        assert sent.severity == severities[declared.severity.value], declared.name
        assert sent.remediation_steps == declared.remediation_steps, declared.name
        assert sent.url == declared.url, declared.name
        assert set(sent.configSchema.properties) == set(
            declared.config_schema.properties if declared.config_schema else {}
        )
    assert levels["mandatory"] == next(p for p in info.policies if p.name == "registration-properties").enforcementLevel
    cors = next(p for p in info.policies if p.name == "console-cors")
    assert cors.configSchema.properties["origin"]["default"] == CONSOLE


def test_real_pack_analyzes_a_preview(analyzer, plan):
    from pulumi.runtime.proto import analyzer_pb2

    reg = record(plan, "aws-usw2-registration")
    props = copy.deepcopy(reg["inputs"])
    props["properties"]["anyscaleOperatorIamIdentity"] = "<unknown>"  # the engine's unknown
    props["properties"]["cloudStorageBucketName"] = "<unknown>"
    # No violation, and one advisory naming what could not be checked (the identity not known
    # yet is an output feeding it: set).
    unchecked = (
        "can't run policy 'registration-properties' from policy pack 'anyscale-cloud@v0.0.1' during preview: "
        "could not check properties.cloudStorageBucketName: unknown until apply; checked again on pulumi up"
    )
    clean = analyzer.Analyze(_request(reg, props)).diagnostics
    assert [(d.policyName, d.enforcementLevel, d.message) for d in clean] == [
        ("registration-properties", analyzer_pb2.ADVISORY, unchecked)
    ]
    props["properties"]["provider"] = "aws"
    found = analyzer.Analyze(_request(reg, props)).diagnostics
    # The violation reported before the unknown is kept, next to the advisory.
    assert [(d.policyName, d.enforcementLevel) for d in found] == [
        ("registration-properties", analyzer_pb2.MANDATORY),
        ("registration-properties", analyzer_pb2.ADVISORY),
    ]
    assert "write 'AWS'" in found[0].message and found[1].message == unchecked


def test_real_pack_analyzes_the_stack(analyzer, plan):
    from google.protobuf import json_format, struct_pb2
    from pulumi.runtime.proto import analyzer_pb2

    def resource(rec: dict[str, Any], deps: list[str]) -> Any:
        properties = struct_pb2.Struct()
        json_format.ParseDict(runner.engine_value(rec["inputs"]), properties)
        return analyzer_pb2.AnalyzerResource(
            type=rec["type"], properties=properties, urn=rec["urn"], name=rec["name"], dependencies=deps
        )

    first, second = record(plan, "default-registration"), record(plan, "aws-usw2-registration")
    chained = analyzer.AnalyzeStack(
        analyzer_pb2.AnalyzeStackRequest(resources=[resource(first, []), resource(second, [first["urn"]])])
    )
    assert [d.policyName for d in chained.diagnostics] == []
    unchained = analyzer.AnalyzeStack(
        analyzer_pb2.AnalyzeStackRequest(resources=[resource(first, []), resource(second, [])])
    )
    assert [(d.policyName, d.urn) for d in unchained.diagnostics] == [("registration-order", second["urn"])]
    # The primary's provider not known yet: the chain is still checked (the violation kept), and
    # the advisory, which has no URN, names the resource and its property.
    unknown = copy.deepcopy(first)
    unknown["inputs"]["properties"]["provider"] = "<unknown>"  # the engine's unknown
    found = analyzer.AnalyzeStack(
        analyzer_pb2.AnalyzeStackRequest(resources=[resource(unknown, []), resource(second, [])])
    ).diagnostics
    assert [(d.policyName, d.enforcementLevel, d.urn, d.message) for d in found] == [
        ("registration-order", analyzer_pb2.MANDATORY, second["urn"], unchained.diagnostics[0].message),
        (
            "registration-order",
            analyzer_pb2.ADVISORY,
            "",
            "can't run policy 'registration-order' from policy pack 'anyscale-cloud@v0.0.1' during preview: "
            "could not check default-registration.properties.provider: unknown until apply; checked again on pulumi up",
        ),
    ]


# Run in the uploaded copy, by an interpreter that sees only that folder and the venv's packages:
# -I drops the current directory, PYTHONPATH and the user's site-packages.
ISOLATED_IMPORT = """
import importlib.util, json, sys
pack = sys.argv[1]
sys.path.insert(0, pack)
importable = {name: importlib.util.find_spec(name) is not None for name in ("components", "preflight", "policy")}
import policies
ours = sorted(
    m.__file__ for m in list(sys.modules.values())
    if getattr(m, "__file__", None) and not m.__file__.startswith((sys.prefix, sys.base_prefix))
)
print(json.dumps({
    "importable": importable,
    "pack": policies.PACK_NAME,
    "policies": [p.name for p in policies.ALL_POLICIES],
    "loaded": ours,
}))
"""


def test_uploaded_pack_imports_nothing_outside_its_folder(uploaded_pack):
    done = subprocess.run(
        [sys.executable, "-I", "-c", ISOLATED_IMPORT, str(uploaded_pack)],
        cwd=uploaded_pack.parent,
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    # The simulation holds: the project's packages cannot be imported there.
    assert found["importable"] == {"components": False, "preflight": False, "policy": False}
    assert found["pack"] == "anyscale-cloud"
    assert found["policies"] == [p.name for p in PACK.ALL_POLICIES]
    assert {"registration-properties", "console-cors", "operator-chart-keys"} <= set(found["policies"])
    outside = [f for f in found["loaded"] if not f.startswith(str(uploaded_pack))]
    assert outside == []
    assert str(uploaded_pack / "rules" / "platform.py") in found["loaded"]
