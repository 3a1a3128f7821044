"""GkeTarget: a GKE-backed cloud resource's cluster, bucket and operator identity."""
from __future__ import annotations

import re
from typing import Any

import pulumi
import pulumi_gcp as gcp
import pulumi_random as random

from components import defaults
from components.nodepools import Taint, pool_labels, pool_taints
from components.spec import GcpResource, NodePoolSpec
from components.kube import exec_kubeconfig, kubernetes_provider
from components.target import CloudContext, Target

# Spec GPU type -> GKE accelerator name (the spec admits only these on GCP).
ACCELERATORS: dict[str, str] = {
    "T4": "nvidia-tesla-t4",
    "L4": "nvidia-l4",
    "A100": "nvidia-a100-80gb",
    "H100": "nvidia-h100-80gb",
}
# Kubernetes taint effects -> the GKE API's spelling.
TAINT_EFFECTS: dict[str, str] = {
    "NoSchedule": "NO_SCHEDULE",
    "PreferNoSchedule": "PREFER_NO_SCHEDULE",
    "NoExecute": "NO_EXECUTE",
}
SYSTEM_POOL = "system"
# The project's default VPC. A VPC of our own could not be deleted on destroy: GKE
# leaves behind the forwarding and firewall rules of LoadBalancer Services (the gateway).
NETWORK = "default"
# GKE-managed pod and service ranges of the default sizes, chosen by GKE in the subnet.
POD_RANGE = "/14"
SERVICE_RANGE = "/20"
# Access goes through IAM (Workload Identity); scopes stay wide, as GKE recommends.
OAUTH_SCOPES = ["https://www.googleapis.com/auth/cloud-platform"]
# objectAdmin for the data; legacyBucketReader adds storage.buckets.get, which the
# operator needs to find the bucket and check its location. Nothing at project level.
BUCKET_ROLES = {
    "objects": "roles/storage.objectAdmin",
    "bucket": "roles/storage.legacyBucketReader",
}
WORKLOAD_IDENTITY_ROLE = "roles/iam.workloadIdentityUser"
AUTH_PLUGIN = "gke-gcloud-auth-plugin"
AUTH_PLUGIN_HINT = (
    "Install gke-gcloud-auth-plugin (`gcloud components install gke-gcloud-auth-plugin`): "
    "https://cloud.google.com/kubernetes-engine/docs/how-to/cluster-access-for-kubectl#install_plugin"
)


def gcp_name(*parts: str, limit: int) -> str:
    """Lowercase letters, digits and single '-', no '-' at either end, at most `limit`."""
    joined = re.sub(r"[^a-z0-9]+", "-", "-".join(parts).lower()).strip("-")
    return joined[:limit].rstrip("-")


def cluster_name(cloud: str, resource: str) -> str:
    return gcp_name("gke", cloud, resource, limit=40)  # GKE: 40 characters, starts with a letter


def account_id(cloud: str, resource: str) -> str:
    return gcp_name("anyscale", cloud, resource, limit=30)  # 6-30 characters, starts with a letter


def bucket_name(cloud: str, resource: str, suffix: str) -> str:
    """Bucket names are global (3-63 characters): ours carry a random suffix."""
    stem = gcp_name(cloud, resource, limit=62 - len(suffix)) or "anyscale"
    return f"{stem}-{suffix}"


def workload_identity_member(project: str) -> str:
    """The operator's Kubernetes service account, as Workload Identity names it."""
    return (
        f"serviceAccount:{project}.svc.id.goog"
        f"[{defaults.OPERATOR_NAMESPACE}/{defaults.OPERATOR_SERVICE_ACCOUNT}]"
    )


def accelerator(pool: NodePoolSpec) -> list[dict[str, Any]]:
    assert pool.gpu is not None
    return [
        {
            "type": ACCELERATORS[pool.gpu.type],
            "count": pool.gpu.count,
            # GKE installs the driver; its own device plugin then advertises nvidia.com/gpu.
            "gpu_driver_installation_config": {"gpu_driver_version": "LATEST"},
        }
    ]


def gke_taint(taint: Taint) -> dict[str, str]:
    return {"key": taint.key, "value": taint.value, "effect": TAINT_EFFECTS[taint.effect]}


def kubeconfig(name: str, endpoint: str, ca_certificate: str) -> str:
    """An exec kubeconfig: no static credential, a token from gcloud at each use."""
    exec_ = {"command": AUTH_PLUGIN, "installHint": AUTH_PLUGIN_HINT, "provideClusterInfo": True}
    return exec_kubeconfig(name, f"https://{endpoint}", ca_certificate, exec_)


class GkeTarget(pulumi.ComponentResource):
    """A regional GKE cluster with Workload Identity, a GCS bucket with the console's
    CORS rule, and the operator's service account bound to its Kubernetes service account."""

    cluster_name: pulumi.Output[str]
    bucket_uri: pulumi.Output[str]
    service_account_email: pulumi.Output[str]
    kubeconfig: pulumi.Output[str]

    def __init__(self, spec: GcpResource, ctx: CloudContext, opts: pulumi.ResourceOptions | None = None):
        super().__init__("anyscale-cloud:gcp:GkeTarget", spec.name, None, opts)
        self._spec, self._ctx = spec, ctx
        self.provider = gcp.Provider(
            f"{spec.name}-gcp",
            project=spec.project,
            region=spec.region,
            opts=pulumi.ResourceOptions(parent=self),
        )
        self._gcp = pulumi.ResourceOptions(parent=self, provider=self.provider)
        self._guarded = pulumi.ResourceOptions.merge(self._gcp, pulumi.ResourceOptions(protect=ctx.protect))

        self.cluster = self._cluster()
        self.system_pool = self._system_pool()
        self.pools = [self.system_pool, *(self._pool(pool) for pool in spec.cluster.node_pools)]
        self.account = gcp.serviceaccount.Account(
            f"{spec.name}-operator-sa",
            account_id=account_id(ctx.cloud_name, spec.name),
            display_name=f"Anyscale operator ({ctx.cloud_name}/{spec.name})",
            description="Used by the Anyscale operator and its Ray pods through Workload Identity",
            opts=self._gcp,
        )
        self.service_account_email = self.account.email
        self._member = pulumi.Output.concat("serviceAccount:", self.account.email)
        self.workload_identity = gcp.serviceaccount.IAMMember(
            f"{spec.name}-operator-workload-identity",
            service_account_id=self.account.name,
            role=WORKLOAD_IDENTITY_ROLE,
            member=workload_identity_member(spec.project),
            # The project's identity pool exists once a cluster with Workload Identity does.
            opts=pulumi.ResourceOptions.merge(self._gcp, pulumi.ResourceOptions(depends_on=[self.cluster])),
        )
        self._bucket()
        self.cluster_name = self.cluster.name
        self.kubeconfig = pulumi.Output.secret(
            pulumi.Output.all(
                self.cluster.name, self.cluster.endpoint, self.cluster.master_auth.cluster_ca_certificate
            ).apply(lambda args: kubeconfig(f"gke_{spec.project}_{spec.region}_{args[0]}", args[1], args[2]))
        )
        # The default pool is removed: until the system pool is up there is no node to
        # run the add-ons, and their atomic Helm releases would time out waiting.
        self.kubernetes = kubernetes_provider(spec.name, self.kubeconfig, self, [self.system_pool])
        self.target = Target(
            provider="GCP",
            region=spec.region,
            kubernetes=self.kubernetes,
            cluster=self.cluster,
            bucket_uri=self.bucket_uri,
            bucket_endpoint=spec.storage.endpoint or "",
            bucket_region=spec.storage.region or spec.region,
            registration_identity=self.account.email,  # GCP: the same email in both places
            operator_identity=self.account.email,
            # The chart annotates its service account with iam.gke.io/gcp-service-account
            # itself, from global.auth.iamIdentity, when cloudProvider is gcp.
            operator_settings={"global.gcp.projectId": spec.project},
            proxy_service_annotations={},
            gateway_address_kind="ip",
            # GKE installs the drivers and its own device plugin on GPU nodes; a second
            # plugin would crash-loop and fail the atomic release.
            install_device_plugin=False,
            ready=[self.cluster, *self.pools, *self._storage, self.account, self.workload_identity, *self.grants],
        )
        self.register_outputs(
            {
                "cluster_name": self.cluster_name,
                "bucket_uri": self.bucket_uri,
                "service_account_email": self.service_account_email,
                "kubeconfig": self.kubeconfig,
            }
        )

    def _cluster(self) -> gcp.container.Cluster:
        spec, cluster = self._spec, self._spec.cluster
        return gcp.container.Cluster(
            f"{spec.name}-gke",
            name=cluster_name(self._ctx.cloud_name, spec.name),
            location=spec.region,  # a region: the control plane and pools span its zones
            min_master_version=cluster.kubernetes_version,
            release_channel={"channel": cluster.release_channel},
            # Pools are NodePool resources of their own; GKE needs one to start with.
            remove_default_node_pool=True,
            initial_node_count=1,
            network=NETWORK,
            networking_mode="VPC_NATIVE",
            ip_allocation_policy={"cluster_ipv4_cidr_block": POD_RANGE, "services_ipv4_cidr_block": SERVICE_RANGE},
            workload_identity_config={"workload_pool": f"{spec.project}.svc.id.goog"},
            deletion_protection=self._ctx.protect,
            opts=self._guarded,
        )

    def _system_pool(self) -> gcp.container.NodePool:
        system = self._spec.cluster.system_pool
        return self._node_pool(
            SYSTEM_POOL,
            {"machine_type": system.instance_type},
            system.min_count,
            system.max_count,
            spot=False,
        )

    def _pool(self, pool: NodePoolSpec) -> gcp.container.NodePool:
        spot = pool.capacity_type == "SPOT"
        node_config: dict[str, Any] = {
            "machine_type": pool.instance_type,
            "spot": spot,
            "taints": [gke_taint(t) for t in pool_taints(pool)],
            "labels": pool_labels(pool),
        }
        if pool.gpu is not None:
            node_config["guest_accelerators"] = accelerator(pool)
        return self._node_pool(pool.name, node_config, pool.min_count, pool.max_count, spot)

    def _node_pool(self, name: str, node_config: dict[str, Any], min_count: int, max_count: int, spot: bool) -> gcp.container.NodePool:
        return gcp.container.NodePool(
            f"{self._spec.name}-pool-{name}",
            name=name,
            cluster=self.cluster.name,
            location=self._spec.region,
            # Per zone; the autoscaler then keeps the pool within the spec's totals.
            initial_node_count=1 if min_count > 0 else 0,
            # The spec's counts are totals for the pool (as on AKS), not per zone.
            autoscaling={
                "total_min_node_count": min_count,
                "total_max_node_count": max_count,
                # Spot capacity: take whichever zone has it, fewer preemptions.
                "location_policy": "ANY" if spot else "BALANCED",
            },
            management={"auto_repair": True, "auto_upgrade": True},
            node_config={
                **node_config,
                "oauth_scopes": OAUTH_SCOPES,
                # Pods get their Kubernetes service account's identity, not the node's.
                "workload_metadata_config": {"mode": "GKE_METADATA"},
            },
            # Changing the initial count would replace the pool; the autoscaler owns the size.
            opts=pulumi.ResourceOptions.merge(self._gcp, pulumi.ResourceOptions(ignore_changes=["initialNodeCount"])),
        )

    def _bucket(self) -> None:
        """The bucket: ours (created here), or the existing one named in the spec.
        Either way the operator's service account gets access to it, and to it only."""
        spec, ctx = self._spec, self._ctx
        self._storage: list[pulumi.Resource] = []
        if spec.storage.bucket is not None:
            # Existing bucket: its CORS rule is the owner's to set.
            self.bucket_uri = pulumi.Output.from_input(spec.storage.bucket)
            name: pulumi.Input[str] = spec.storage.bucket.removeprefix("gs://")
        else:
            suffix = random.RandomString(
                f"{spec.name}-storage-suffix",
                length=6,
                special=False,
                upper=False,
                opts=pulumi.ResourceOptions(parent=self, provider=ctx.random_provider),
            )
            bucket = gcp.storage.Bucket(
                f"{spec.name}-storage",
                name=suffix.result.apply(lambda s: bucket_name(ctx.cloud_name, spec.name, s)),
                location=(spec.storage.region or spec.region).upper(),  # GCS spells locations in capitals
                uniform_bucket_level_access=True,
                public_access_prevention="enforced",
                force_destroy=False,  # it holds logs and workspace snapshots
                cors=[
                    {
                        "origins": [defaults.CONSOLE_ORIGIN],
                        "methods": defaults.CORS_METHODS,
                        "response_headers": defaults.CORS_EXPOSED_HEADERS,
                        "max_age_seconds": defaults.CORS_MAX_AGE_SECONDS,
                    }
                ],
                opts=pulumi.ResourceOptions.merge(
                    self._guarded, pulumi.ResourceOptions(retain_on_delete=spec.storage.retain_on_delete)
                ),
            )
            self._storage = [suffix, bucket]
            self.bucket_uri = pulumi.Output.concat("gs://", bucket.name)
            name = bucket.name
        self.grants = [
            gcp.storage.BucketIAMMember(
                f"{spec.name}-operator-storage-{key}",
                bucket=name,
                role=role,
                member=self._member,
                opts=self._gcp,
            )
            for key, role in BUCKET_ROLES.items()
        ]
