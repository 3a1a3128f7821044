"""The chart keys the anyscale-operator 1.8.0 templates read: the only keys a value may set.

Copied from shared/reference/anyscale-operator-1.8.0-template-keys.txt (the list of
`.Values.*` paths read by the templates of the `anyscale-operator` chart 1.8.0 from
https://anyscale.github.io/helm-charts), because the pack must run where that folder
is not. The chart has no values schema, so Helm (and the AKS extension, which takes
the same keys) silently ignores any other key: a typo would pass unnoticed. A key is
accepted when it is listed or lies under a listed key (`operator.nodeSelector.<label>`).
Refresh this list together with defaults.ANYSCALE_OPERATOR_VERSION.
"""

from __future__ import annotations

import re

CHART_VERSION = "1.8.0"

TEMPLATE_KEYS: frozenset[str] = frozenset(
    {
        "credentialMount.aws.createSecret.accessKeyId",
        "credentialMount.aws.createSecret.addressingStyle",
        "credentialMount.aws.createSecret.create",
        "credentialMount.aws.createSecret.endpointUrl",
        "credentialMount.aws.createSecret.secretAccessKey",
        "credentialMount.aws.createSecret.signatureVersion",
        "credentialMount.aws.enabled",
        "credentialMount.aws.fromSecret.name",
        "credentialMount.aws.fromSecret.operatorMountPath",
        "credentialMount.aws.fromSecret.podMountPath",
        "credentialMount.gcp.createSecret.create",
        "credentialMount.gcp.createSecret.keyJsonB64",
        "credentialMount.gcp.enabled",
        "credentialMount.gcp.fromSecret.name",
        "credentialMount.gcp.fromSecret.operatorMountPath",
        "credentialMount.gcp.fromSecret.podMountPath",
        "global.auth.anyscaleCliToken",
        "global.auth.audience",
        "global.auth.iamIdentity",
        "global.aws.region",
        "global.aws.s3.usePathStyle",
        "global.azure.extension.enabled",
        "global.azure.images.operator",
        "global.azure.images.vector",
        "global.azure.workloadIdentity.proxyPort",
        "global.cloudDeploymentId",
        "global.cloudProvider",
        "global.controlPlaneURL",
        "global.gcp.projectId",
        "global.region",
        "networking.gateway.apiVersion",
        "networking.gateway.enabled",
        "networking.gateway.hostname",
        "networking.gateway.ip",
        "networking.gateway.name",
        "networking.gateway.namespace",
        "networking.gateway.serviceAuthFallbackEnabled",
        "networking.ingress.address",
        "networking.ingress.classNameOverride",
        "operator.affinity",
        "operator.annotations",
        "operator.config.kubernetesClient.kubeConfigPath",
        "operator.config.kubernetesClient.rateLimiter.burst",
        "operator.config.kubernetesClient.rateLimiter.qps",
        "operator.config.status.excludeComponentVerification",
        "operator.config.status.reportingEnabled",
        "operator.config.unscheduledPodReaper.reconcileInterval",
        "operator.config.unscheduledPodReaper.terminationThreshold",
        "operator.container.additionalEnv",
        "operator.container.image",
        "operator.container.imagePullPolicy",
        "operator.container.resources",
        "operator.deployment.annotations",
        "operator.deployment.labels",
        "operator.imagePullSecrets",
        "operator.labels",
        "operator.name",
        "operator.nodeSelector",
        "operator.replicas",
        "operator.securityContext",
        "operator.serviceAccount.name",
        "operator.tolerations",
        "operator.vector.additionalEnv",
        "operator.vector.image",
        "operator.vector.imagePullPolicy",
        "operator.vector.resources",
        "patches",
        "workloads.accelerator.customNodeSelectorKey",
        "workloads.accelerator.enableDefaults",
        "workloads.accelerator.nodeSelectors",
        "workloads.accelerator.nodeSelectors.additional",
        "workloads.accelerator.tolerations.additional",
        "workloads.accelerator.tolerations.default",
        "workloads.enableAnyscaleRayHeadNodePDB",
        "workloads.enableCrossNamespaceResourceManagement",
        "workloads.enableKarpenterSupport",
        "workloads.enableProcessTracing",
        "workloads.enableZoneSelector",
        "workloads.imagePullSecrets",
        "workloads.instanceTypes.additional",
        "workloads.instanceTypes.configMap.name",
        "workloads.instanceTypes.defaults",
        "workloads.instanceTypes.enableDefaults",
        "workloads.instanceTypes.validationHook.enabled",
        "workloads.managedNamespaces",
        "workloads.marketType",
        "workloads.marketType.additional",
        "workloads.marketType.additional.all",
        "workloads.marketType.additional.ondemand",
        "workloads.marketType.additional.spot",
        "workloads.marketType.enableDefaults",
        "workloads.marketType.generic.all",
        "workloads.marketType.generic.ondemand",
        "workloads.marketType.generic.spot",
        "workloads.serviceAccount.iamMappingAnnotation",
        "workloads.serviceAccount.name",
    }
)

# In the platform's docs, but read by no template (and absent from values.yaml): setting it
# does nothing, and the gateway class comes from the Gateway object itself.
FORBIDDEN_KEYS: dict[str, str] = {
    "networking.gateway.className": (
        "the platform's docs mention it, but no template of the chart reads it (the class is set on the Gateway "
        "object itself)"
    ),
}


def listed_or_under(key: str, allowed: frozenset[str] | set[str] = TEMPLATE_KEYS) -> bool:
    """Listed, or under a listed key whose value is a map or list (a node selector's labels;
    an item of a list, `workloads.managedNamespaces[0]` as the AKS extension's flat settings
    spell it). Used by the pack's operator-chart-keys policy and by the spec's `values` check."""
    parts = re.sub(r"\[\d+\]", "", key).split(".")
    return any(".".join(parts[:n]) in allowed for n in range(1, len(parts) + 1))


def holds_listed(key: str, allowed: frozenset[str] | set[str] = TEMPLATE_KEYS) -> bool:
    """A map above a listed key (`global` holds `global.controlPlaneURL`)."""
    return any(listed.startswith(key + ".") for listed in allowed)
