"""`addons`: the pinned charts inside every cluster, and the Anyscale operator's extra
chart values (each key checked against the keys the chart's templates read)."""

from __future__ import annotations

import difflib
from typing import Any

from pydantic import Field, ValidationError, field_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

from config.data.versions import ANYSCALE_OPERATOR_VERSION, ENVOY_GATEWAY_VERSION, NVIDIA_DEVICE_PLUGIN_VERSION
from config.kuberay import KubeRaySpec
from config.raw import is_secure
from config.types import ExactVersion, Strict, to_secret
from config.workloads import managed_namespaces, namespace_problems
from policy.rules.chart_keys import CHART_VERSION, FORBIDDEN_KEYS, TEMPLATE_KEYS

CHART_VERSION_RULE = "one exact chart version (no range, `*` or `latest`)"
# The operator pod annotation (chart key operator.annotations) holding a hash of its secret
# settings on Generic: a new CLI token rolls the operator (components/generic.py).
OPERATOR_ROLL_ANNOTATION = "anyscale-cloud/secrets-sha256"


# A chart given without `version` (e.g. only the operator's `values`) keeps its pin.
class EnvoyGatewayChart(Strict):
    version: ExactVersion = Field(ENVOY_GATEWAY_VERSION, description=CHART_VERSION_RULE)


class DevicePluginChart(Strict):
    version: ExactVersion = Field(NVIDIA_DEVICE_PLUGIN_VERSION, description=CHART_VERSION_RULE)


# Chart keys the program sets itself, each with the reason a user value cannot replace it
# (a key listed here refuses the keys under it too).
OPERATOR_ACCOUNT = (
    "the operator's cloud identity (Workload Identity, IRSA) is bound to the service account anyscale-operator"
)
WORKLOAD_ACCOUNT = (
    "Ray pods run as the service account anyscale-workloads the program creates, with no Kubernetes rights and a "
    "cloud identity with the bucket only"
)
OWNED_KEYS: dict[str, str] = {
    "global.cloudDeploymentId": "the program sets it to the cloud resource's ID from its registration",
    "global.cloudProvider": "it follows the resource's provider",
    "global.controlPlaneURL": "the program sets it to exactly the Azure control plane",
    "global.auth": "the operator's identity is the one the program creates (the CLI token on Generic: `cliToken`)",
    "global.aws.region": "it is the resource's region (on Generic: storage.region)",
    "global.gcp.projectId": "it is the resource's `project`",
    "global.azure.extension": "the AKS extension sets it",
    "networking.gateway": "the program installs the gateway and configures the operator with its address",
    "operator.serviceAccount.name": OPERATOR_ACCOUNT,
    "workloads.serviceAccount.name": WORKLOAD_ACCOUNT,
    "credentialMount.aws.createSecret": "set storage.credentials (Generic) instead: the program keeps the keys secret",
}


def _values_problems(node: Any, path: tuple[str, ...], out: dict[str, Any]) -> list[tuple[tuple[str, ...], str]]:
    """Walk `addons.anyscaleOperator.values` down to the chart's keys. Returns (path,
    message) per problem; fills `out` with flat Helm paths (`a.b\\.c[0]`) -> value."""
    problems: list[tuple[tuple[str, ...], str]] = []
    if not isinstance(node, dict) or is_secure(node):
        return [(path, "must be a mapping of chart values, e.g. {operator: {replicas: 2}}")]
    for key, value in node.items():
        here = (*path, str(key))
        dotted = ".".join(here)
        if not isinstance(key, str) or not key or "." in key:
            problems.append((here, "a chart key is a non-empty name without dots: nest the parts as a mapping"))
            continue
        owned = next((o for o in OWNED_KEYS if dotted == o or dotted.startswith(o + ".")), None)
        if owned is not None:
            problems.append((here, f"{owned} is set by the program and cannot be overridden: {OWNED_KEYS[owned]}"))
        elif dotted in FORBIDDEN_KEYS:
            problems.append((here, f"{dotted}: {FORBIDDEN_KEYS[dotted]}; remove it"))
        elif dotted == "operator.annotations" and (
            not isinstance(value, dict) or is_secure(value) or OPERATOR_ROLL_ANNOTATION in value
        ):
            # Merged with the program's own annotation: a mapping in clear, without that key.
            problems.append(
                (
                    here,
                    "must be a mapping of pod annotations in clear, without "
                    f"'{OPERATOR_ROLL_ANNOTATION}' (the program's: it rolls the operator when a secret changes)",
                )
            )
        elif dotted in TEMPLATE_KEYS:
            problems += _leaf_problems(value, here, _helm_path(here), out)
        elif any(k.startswith(dotted + ".") for k in TEMPLATE_KEYS):
            if isinstance(value, dict) and not is_secure(value):
                problems += _values_problems(value, here, out)
            else:
                below = sorted(
                    {k[len(dotted) + 1 :].split(".")[0] for k in TEMPLATE_KEYS if k.startswith(dotted + ".")}
                )
                problems.append((here, f"is a mapping in the chart (keys {', '.join(below)}), not a single value"))
        else:
            close = difflib.get_close_matches(dotted, sorted(TEMPLATE_KEYS), n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
            problems.append(
                (
                    here,
                    f"{dotted} is not a key the anyscale-operator {CHART_VERSION} chart reads (Helm would ignore it){hint}",
                )
            )
    return problems


def _helm_path(parts: tuple[str, ...]) -> str:
    return ".".join(p.replace(".", "\\.") for p in parts)


def _leaf_problems(
    value: Any, path: tuple[str, ...], helm: str, out: dict[str, Any]
) -> list[tuple[tuple[str, ...], str]]:
    """A value under a chart key, any shape: flattened to Helm `--set` paths (the AKS
    extension takes only those), a `{secure: ...}` becoming a Secret."""
    if is_secure(value):
        out[helm] = to_secret(value)
    elif isinstance(value, dict) and value:
        problems = []
        for key, child in value.items():
            if not isinstance(key, str) or not key:
                problems.append(((*path, str(key)), "a key must be a non-empty string"))
            else:
                problems += _leaf_problems(child, (*path, key), helm + "." + key.replace(".", "\\."), out)
        return problems
    elif isinstance(value, list) and value:
        return [p for i, child in enumerate(value) for p in _leaf_problems(child, (*path, str(i)), f"{helm}[{i}]", out)]
    elif isinstance(value, (dict, list)) or value is None:
        return [
            (path, "an empty or null value cannot be passed (the AKS extension takes flat keys); leave the key out")
        ]
    else:
        out[helm] = value
    return []


class OperatorChartSpec(Strict):
    version: ExactVersion = Field(ANYSCALE_OPERATOR_VERSION, description=CHART_VERSION_RULE)
    # Extra chart values, nested as in values.yaml; each key checked against the keys the
    # chart's templates read. After validation: flat Helm paths -> value (or Secret).
    values: dict[str, Any] = Field(
        default_factory=dict,
        description="extra operator chart values, nested; keys checked against the chart's "
        f"(policy/rules/chart_keys.py, chart {CHART_VERSION}), the program's own refused, `{{secure: ...}}` allowed "
        "([In every cluster](what-it-creates.md#in-every-cluster))",
    )

    @field_validator("values", mode="before")
    @classmethod
    def _values(cls, values: Any) -> dict[str, Any]:
        flat: dict[str, Any] = {}
        problems: list[tuple[tuple[str | int, ...], str]] = [*_values_problems(values, (), flat)]
        # The namespaces the program makes (config/workloads.py), once the values are known good.
        problems = problems or namespace_problems(flat)
        if problems:
            raise ValidationError.from_exception_data(
                cls.__name__,
                [
                    InitErrorDetails(type=PydanticCustomError("values", m), loc=where, input=None)
                    for where, m in problems
                ],
            )
        return flat

    @property
    def managed_namespaces(self) -> list[str]:
        """workloads.managedNamespaces: where the operator runs Ray pods besides its own namespace."""
        return managed_namespaces(self.values)


class AddonsSpec(Strict):
    """Pinned versions of what runs inside every cluster."""

    envoy_gateway: EnvoyGatewayChart = Field(
        default_factory=EnvoyGatewayChart, description="Envoy Gateway (chart `gateway-helm`) and its CRDs"
    )
    kuberay: KubeRaySpec = Field(
        default_factory=KubeRaySpec,
        description="the KubeRay operator and its options ([KubeRay options](what-it-creates.md#kuberay-options))",
    )
    anyscale_operator: OperatorChartSpec = Field(
        default_factory=OperatorChartSpec,
        description="the Anyscale operator: the Helm chart, on AKS the cluster extension of that version",
    )
    nvidia_device_plugin: DevicePluginChart = Field(
        default_factory=DevicePluginChart,
        description="installed on AKS and EKS clusters with GPU pools (GKE brings its own; not on Generic)",
    )
