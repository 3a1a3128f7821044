"""AksTarget: an AKS-backed cloud resource's cluster, bucket and operator identity."""

from __future__ import annotations

import pulumi

from components import defaults
from components.azure.bucket import build_bucket
from components.azure.cluster import build_cluster, cluster_kubeconfig
from components.azure.history import build_history_identity
from components.azure.identity import Grants, build_identity, build_workload_identity, registry_grants
from components.azure.maintenance import build_maintenance
from components.azure.network import build_network, network_grants
from components.azure.pools import build_pools
from components.kube import kubernetes_provider
from components.operator_shapes import instance_type_settings
from components.scope import Scope
from components.target import CloudContext, OperatorExtension, Target
from config import AzureResource


class AksTarget(pulumi.ComponentResource):
    """AKS with OIDC issuer and workload identity, an ADLS Gen2 bucket with the console's
    CORS rule, and the operator's managed identity federated to its service account."""

    target: Target

    def __init__(self, spec: AzureResource, ctx: CloudContext, opts: pulumi.ResourceOptions | None = None):
        super().__init__("anyscale-cloud:azure:AksTarget", spec.name, None, opts)
        scope = Scope(ctx, self, ctx.azure_provider)
        grants = Grants.of(scope)
        nodes = build_network(grants, spec)
        cluster = build_cluster(scope, spec, nodes)
        network = [*(nodes.resources if nodes else []), *network_grants(grants, spec, nodes, cluster)]
        # Pools join the subnet with the cluster's identity: after its grant there, or the
        # first node NICs race the role assignment.
        pools = build_pools(scope, spec, cluster, nodes, after=network)
        maintenance = build_maintenance(scope, spec, cluster)
        kubeconfig = cluster_kubeconfig(scope, spec, cluster)
        operator = build_identity(scope, spec, cluster)
        principal_id = operator.identity.principal_id
        registry = registry_grants(grants, spec, cluster, principal_id)
        bucket = build_bucket(grants, spec, principal_id, nodes)
        workloads = build_workload_identity(grants, spec, cluster, bucket.container_id)
        history = None
        if spec.addons.kuberay.history_server and bucket.container_id is not None:  # the spec requires ours
            history = build_history_identity(grants, spec, cluster, bucket.uri, bucket.endpoint, bucket.container_id)
        self.target = Target(
            provider="Azure",
            region=spec.region,
            kubernetes=kubernetes_provider(spec.name, kubeconfig, self),
            kubeconfig=kubeconfig,
            cluster=cluster,
            bucket_uri=bucket.uri,
            bucket_endpoint=bucket.endpoint,
            bucket_region=spec.bucket_region,
            registration_identity=principal_id,  # the OBJECT (principal) ID
            operator_identity=operator.identity.client_id,  # the CLIENT ID: a different GUID
            operator_settings={
                "global.auth.audience": defaults.OPERATOR_AUDIENCE,
                **instance_type_settings("Azure", spec.cluster.node_pools),
            },
            install_device_plugin=any(p.gpu for p in spec.cluster.node_pools),
            history_identity=history,
            workload_identity=workloads,
            cilium_data_plane=spec.cluster.network is None or spec.cluster.network.data_plane() == "cilium",
            operator_extension=OperatorExtension(
                cluster.name,
                ctx.resource_group_name,
                ctx.azure_provider,
                name=spec.adopt.name_of("operatorExtension") or "anyscale-operator",
                import_id=spec.adopt.operator_extension,
            ),
            cluster_name=cluster.name,
            cluster_id=cluster.id,
            oidc_issuer=cluster.oidc_issuer_profile.apply(lambda p: p.issuer_url if p else None),
            ready=[
                cluster,
                *network,
                *pools,
                *maintenance,
                operator.identity,
                operator.federation,
                *registry,
                *bucket.resources,
            ],
        )
        self.register_outputs(
            {
                "cluster_name": cluster.name,
                "bucket_uri": bucket.uri,
                "bucket_endpoint": bucket.endpoint,
                "principal_id": principal_id,
                "client_id": operator.identity.client_id,
                "kubeconfig": kubeconfig,
            }
        )
