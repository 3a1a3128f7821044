"""EksTarget: an EKS-backed cloud resource's network, cluster, bucket, operator role and Cluster Autoscaler."""
from __future__ import annotations

import ipaddress
import json
import re
from typing import Any

import pulumi
import pulumi_aws as aws
import pulumi_kubernetes as k8s
import pulumi_random as random

from components import defaults
from components.nodepools import pool_labels, pool_taints
from components.spec import AwsResource, NodePoolSpec, SystemPoolSpec
from components.kube import exec_kubeconfig, kubernetes_provider
from components.target import CloudContext, Target

# Every region in components/regions.py is in the `aws` partition.
MANAGED_POLICY = "arn:aws:iam::aws:policy/{}"
CLUSTER_POLICIES = ("AmazonEKSClusterPolicy",)
NODE_POLICIES = ("AmazonEKSWorkerNodePolicy", "AmazonEKS_CNI_Policy", "AmazonEC2ContainerRegistryReadOnly")
STS_AUDIENCE = "sts.amazonaws.com"  # the audience of the tokens EKS projects for IRSA
# Kubernetes taint effects as the EKS API spells them.
TAINT_EFFECTS = {"NoSchedule": "NO_SCHEDULE", "NoExecute": "NO_EXECUTE", "PreferNoSchedule": "PREFER_NO_SCHEDULE"}
AUTOSCALER_GPU_LABEL = "k8s.amazonaws.com/accelerator"
CPU_AMI, GPU_AMI = "AL2023_x86_64_STANDARD", "AL2023_x86_64_NVIDIA"
NONCURRENT_VERSION_DAYS = 30  # versioning guards snapshots; old versions do not pile up forever
# The proxy Service as an internet-facing NLB. These are the annotations of the service
# controller that EKS runs itself (cloud-provider-aws), so a stock cluster honours them.
# The AWS Load Balancer Controller's set (`aws-load-balancer-type: external` with
# `nlb-target-type: ip`) is ignored by that controller and would leave the Service, and
# so the Gateway, without an address. The scheme annotation is the LBC's (the built-in
# controller is internet-facing unless `-internal` is set): should the LBC be installed
# later and take the Service over, it keeps the NLB public instead of its `internal` default.
PROXY_SERVICE_ANNOTATIONS = {
    "service.beta.kubernetes.io/aws-load-balancer-type": "nlb",
    "service.beta.kubernetes.io/aws-load-balancer-scheme": "internet-facing",
}
# The Kubernetes Cluster Autoscaler: managed node groups keep their size until something
# changes it, so without it a worker pool with minCount 0 never gets a node. EKS only
# (AKS and GKE scale their pools themselves), which is why it is here and not in addons.
AUTOSCALER_NAMESPACE = "kube-system"
AUTOSCALER_SERVICE_ACCOUNT = "cluster-autoscaler"
# The autoscaler's documented policy for auto-discovery (kubernetes/autoscaler,
# cluster-autoscaler/cloudprovider/aws/README.md, "Full Cluster Autoscaler Features
# Policy"): read-only calls on any resource, as documented; the two that change an Auto
# Scaling group only on this cluster's groups (AUTOSCALER_OWNED_TAG).
AUTOSCALER_READ_ACTIONS = (
    "autoscaling:DescribeAutoScalingGroups",
    "autoscaling:DescribeAutoScalingInstances",
    "autoscaling:DescribeLaunchConfigurations",
    "autoscaling:DescribeScalingActivities",
    "ec2:DescribeImages",
    "ec2:DescribeInstanceTypes",
    "ec2:DescribeLaunchTemplateVersions",
    "ec2:GetInstanceTypesFromInstanceRequirements",
    "eks:DescribeNodegroup",  # a scaled-to-zero group's labels and taints (see _node_group)
)
AUTOSCALER_WRITE_ACTIONS = ("autoscaling:SetDesiredCapacity", "autoscaling:TerminateInstanceInAutoScalingGroup")
# EKS tags the Auto Scaling group of every managed node group with this key (value
# "owned") and with `k8s.io/cluster-autoscaler/enabled`: the two keys the chart's
# auto-discovery looks for, and the one the write statement is conditioned on.
AUTOSCALER_OWNED_TAG = "k8s.io/cluster-autoscaler/{}"
# Flags for Ray: worker pools are alike but for the zone, Ray pods keep /tmp/ray and
# /dev/shm in emptyDir (local storage), and the system pool's own pods must not pin its
# nodes forever.
AUTOSCALER_ARGS = {
    "balance-similar-node-groups": True,
    "expander": "least-waste",  # the pool that leaves the least idle CPU and memory
    "skip-nodes-with-local-storage": False,
    "skip-nodes-with-system-pods": False,
}


def bucket_name(cloud: str, resource: str, suffix: str) -> str:
    """S3 names are global: 3-63 lowercase letters, digits and '-'."""
    stem = re.sub(r"-+", "-", re.sub(r"[^a-z0-9-]", "-", f"{cloud}-{resource}".lower())).strip("-")
    return f"{stem[: 62 - len(suffix)].rstrip('-')}-{suffix}"


def cluster_name(cloud: str, resource: str) -> str:
    """EKS names: up to 100 of letters, digits, '-' and '_', starting alphanumeric."""
    return f"eks-{cloud}-{resource}"[:100]


def subnet_cidrs(vpc_cidr: str, zones: int) -> tuple[list[str], list[str]]:
    """Private subnets in the VPC's first half (pods take VPC addresses), public in the
    second: each half holds up to four subnets, one per availability zone."""
    network = ipaddress.ip_network(vpc_cidr, strict=False)
    blocks = [str(b) for b in network.subnets(new_prefix=network.prefixlen + 3)]
    return blocks[:zones], blocks[4 : 4 + zones]


def assume_role_policy(service: str) -> str:
    return json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Principal": {"Service": service}, "Action": "sts:AssumeRole"}],
        }
    )


def service_account_subject(namespace: str, name: str) -> str:
    """The `sub` of the tokens EKS projects for a Kubernetes service account."""
    return f"system:serviceaccount:{namespace}:{name}"


def irsa_trust_policy(provider_arn: str, issuer: str, namespace: str, service_account: str) -> str:
    """Only the one service account, with tokens meant for STS, may assume the role."""
    host = issuer.removeprefix("https://")
    return json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [
                {
                    "Effect": "Allow",
                    "Principal": {"Federated": provider_arn},
                    "Action": "sts:AssumeRoleWithWebIdentity",
                    "Condition": {
                        "StringEquals": {
                            f"{host}:sub": service_account_subject(namespace, service_account),
                            f"{host}:aud": STS_AUDIENCE,
                        }
                    },
                }
            ],
        }
    )


def bucket_policy(bucket: str) -> str:
    """Read, write and delete objects of this one bucket; nothing else."""
    arn = f"arn:aws:s3:::{bucket}"
    return json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [
                {
                    "Sid": "Bucket",
                    "Effect": "Allow",
                    "Action": ["s3:ListBucket", "s3:GetBucketLocation", "s3:ListBucketMultipartUploads"],
                    "Resource": arn,
                },
                {
                    "Sid": "Objects",
                    "Effect": "Allow",
                    "Action": [
                        "s3:GetObject",
                        "s3:PutObject",
                        "s3:DeleteObject",
                        "s3:AbortMultipartUpload",
                        "s3:ListMultipartUploadParts",
                    ],
                    "Resource": f"{arn}/*",
                },
            ],
        }
    )


def autoscaler_policy(cluster: str) -> str:
    """Describe anything; resize and shrink only the Auto Scaling groups EKS tagged as
    this cluster's own."""
    return json.dumps(
        {
            "Version": "2012-10-17",
            "Statement": [
                {"Sid": "Discover", "Effect": "Allow", "Action": list(AUTOSCALER_READ_ACTIONS), "Resource": "*"},
                {
                    "Sid": "ScaleOwnGroups",
                    "Effect": "Allow",
                    "Action": list(AUTOSCALER_WRITE_ACTIONS),
                    "Resource": "*",
                    "Condition": {"StringEquals": {f"aws:ResourceTag/{AUTOSCALER_OWNED_TAG.format(cluster)}": "owned"}},
                },
            ],
        }
    )


def kubeconfig(name: str, region: str, endpoint: str, ca_data: str) -> str:
    """A kubeconfig that gets tokens from the AWS CLI (no static credential)."""
    args = ["eks", "get-token", "--cluster-name", name, "--region", region, "--output", "json"]
    return exec_kubeconfig(name, endpoint, ca_data, {"command": "aws", "args": args, "interactiveMode": "Never"})


class EksTarget(pulumi.ComponentResource):
    """A VPC (public and private subnets, one NAT gateway), EKS with API access entries
    and IRSA, managed node groups tainted like every worker pool and sized by the Cluster
    Autoscaler, an S3 bucket with the console's CORS rule, and the operator's IAM role
    trusted by its service account."""

    cluster_name: pulumi.Output[str]
    bucket_uri: pulumi.Output[str]
    role_arn: pulumi.Output[str]
    kubeconfig: pulumi.Output[str]

    def __init__(self, spec: AwsResource, ctx: CloudContext, opts: pulumi.ResourceOptions | None = None):
        super().__init__("anyscale-cloud:aws:EksTarget", spec.name, None, opts)
        self._spec, self._ctx = spec, ctx
        # Our own provider: resources of several regions coexist in one stack.
        self.provider = aws.Provider(
            f"{spec.name}-aws",
            region=spec.region,
            default_tags={"tags": ctx.tags} if ctx.tags else None,
            opts=pulumi.ResourceOptions(parent=self),
        )
        self._aws = pulumi.ResourceOptions(parent=self, provider=self.provider)
        self._guarded = pulumi.ResourceOptions.merge(self._aws, pulumi.ResourceOptions(protect=ctx.protect))
        self._attachments: list[aws.iam.RolePolicyAttachment] = []  # managed policies of both roles
        self._associations: list[aws.ec2.RouteTableAssociation] = []

        self._network()
        self.cluster = self._cluster()
        self._issuer = self.cluster.identities.apply(lambda ids: ids[0].oidcs[0].issuer)  # https://oidc.eks...
        self.oidc = aws.iam.OpenIdConnectProvider(
            f"{spec.name}-oidc",
            url=self._issuer,
            client_id_lists=[STS_AUDIENCE],
            # No thumbprint: IAM validates the EKS issuer against its own trusted CAs.
            opts=self._aws,
        )
        self.node_role = self._role("node", "ec2.amazonaws.com", NODE_POLICIES)
        self.system_pool = self._node_group("system", spec.cluster.system_pool)
        self.pools = [self._node_group(pool.name, pool) for pool in spec.cluster.node_pools]
        self._bucket()
        self.role = self._irsa_role(
            f"{spec.name}-operator",
            defaults.OPERATOR_NAMESPACE,
            defaults.OPERATOR_SERVICE_ACCOUNT,
            f"Anyscale operator of cloud resource {spec.name} (cloud {ctx.cloud_name})",
        )
        self.policy = aws.iam.RolePolicy(
            f"{spec.name}-operator-s3",
            role=self.role.id,
            policy=self._bucket_name.apply(bucket_policy),
            opts=self._aws,
        )

        self.cluster_name = self.cluster.name
        self.role_arn = self.role.arn
        self.kubeconfig = pulumi.Output.secret(
            pulumi.Output.all(
                self.cluster.name, self.cluster.endpoint, self.cluster.certificate_authority.data
            ).apply(lambda a: kubeconfig(a[0], spec.region, a[1], a[2]))
        )
        # Worker pools are tainted: the add-ons run on the system pool, so wait for it.
        self.kubernetes = kubernetes_provider(spec.name, self.kubeconfig, self, [self.system_pool])
        self._autoscaler()
        self.target = Target(
            provider="AWS",
            region=spec.region,
            kubernetes=self.kubernetes,
            cluster=self.cluster,
            bucket_uri=self.bucket_uri,
            bucket_endpoint=spec.storage.endpoint or "",
            bucket_region=spec.storage.region or spec.region,
            registration_identity=self.role.arn,  # the same ARN in both places
            operator_identity=self.role.arn,
            operator_settings={"global.aws.region": spec.region},
            proxy_service_annotations=PROXY_SERVICE_ANNOTATIONS,
            gateway_address_kind="hostname",  # NLBs have DNS names, not IPs
            install_device_plugin=any(p.gpu for p in spec.cluster.node_pools),
            ready=[self.cluster, self.oidc, self.system_pool, *self.pools, *self._storage, self.role, self.policy],
        )
        self.register_outputs(
            {
                "cluster_name": self.cluster_name,
                "bucket_uri": self.bucket_uri,
                "role_arn": self.role_arn,
                "kubeconfig": self.kubeconfig,
            }
        )

    # --- network ---------------------------------------------------------------------

    def _network(self) -> None:
        spec, name = self._spec, self._spec.name
        zones = spec.cluster.availability_zones
        names = aws.get_availability_zones_output(
            state="available",
            # Regular zones only: not the Local or Wavelength zones an account may have opted into.
            filters=[{"name": "opt-in-status", "values": ["opt-in-not-required"]}],
            opts=pulumi.InvokeOutputOptions(parent=self, provider=self.provider),
        ).names
        self.vpc = aws.ec2.Vpc(
            f"{name}-vpc",
            cidr_block=spec.cluster.vpc_cidr,
            enable_dns_hostnames=True,  # required for nodes to join EKS
            enable_dns_support=True,
            tags={"Name": f"{self._ctx.cloud_name}-{name}"},
            opts=self._aws,
        )
        igw = aws.ec2.InternetGateway(f"{name}-igw", vpc_id=self.vpc.id, opts=self._aws)
        public_table = aws.ec2.RouteTable(
            f"{name}-public", vpc_id=self.vpc.id, routes=[{"cidr_block": "0.0.0.0/0", "gateway_id": igw.id}], opts=self._aws
        )
        private_cidrs, public_cidrs = subnet_cidrs(spec.cluster.vpc_cidr, zones)
        self.public_subnets = [
            self._subnet("public", i, cidr, names[i], public_table, {"kubernetes.io/role/elb": "1"})
            for i, cidr in enumerate(public_cidrs)
        ]
        eip = aws.ec2.Eip(f"{name}-nat-ip", domain="vpc", opts=self._aws)
        nat = aws.ec2.NatGateway(
            f"{name}-nat",
            allocation_id=eip.id,
            subnet_id=self.public_subnets[0].id,
            opts=pulumi.ResourceOptions.merge(self._aws, pulumi.ResourceOptions(depends_on=[igw])),
        )
        private_table = aws.ec2.RouteTable(
            f"{name}-private", vpc_id=self.vpc.id, routes=[{"cidr_block": "0.0.0.0/0", "nat_gateway_id": nat.id}], opts=self._aws
        )
        self.private_subnets = [
            self._subnet("private", i, cidr, names[i], private_table, {"kubernetes.io/role/internal-elb": "1"})
            for i, cidr in enumerate(private_cidrs)
        ]
        # Nodes need their way out (image pulls, joining the cluster) before they boot.
        self._egress = [nat, private_table, *self._associations]

    def _subnet(self, kind: str, index: int, cidr: str, zone: pulumi.Input[str], table: aws.ec2.RouteTable, tags: dict[str, str]) -> aws.ec2.Subnet:
        name = f"{self._spec.name}-{kind}-{index}"
        subnet = aws.ec2.Subnet(
            name,
            vpc_id=self.vpc.id,
            cidr_block=cidr,
            availability_zone=zone,
            tags={"Name": name, f"kubernetes.io/cluster/{self._eks_name}": "shared", **tags},
            opts=self._aws,
        )
        self._associations.append(
            aws.ec2.RouteTableAssociation(f"{name}-routes", subnet_id=subnet.id, route_table_id=table.id, opts=self._aws)
        )
        return subnet

    @property
    def _eks_name(self) -> str:
        return cluster_name(self._ctx.cloud_name, self._spec.name)

    # --- identity and the autoscaler ----------------------------------------------------

    def _irsa_role(self, name: str, namespace: str, service_account: str, description: str) -> aws.iam.Role:
        """A role that only `namespace/service_account` of this cluster may assume (IRSA)."""
        return aws.iam.Role(
            name,
            assume_role_policy=pulumi.Output.all(self.oidc.arn, self._issuer).apply(
                lambda a: irsa_trust_policy(a[0], a[1], namespace, service_account)
            ),
            description=description,
            opts=self._aws,
        )

    def _autoscaler(self) -> None:
        """The Cluster Autoscaler, with its own IRSA role, discovering the node groups by
        the tags EKS puts on their Auto Scaling groups. It runs on the system pool (the
        only untainted one), so it needs no tolerations."""
        spec = self._spec
        self.autoscaler_role = self._irsa_role(
            f"{spec.name}-autoscaler",
            AUTOSCALER_NAMESPACE,
            AUTOSCALER_SERVICE_ACCOUNT,
            f"Cluster Autoscaler of cloud resource {spec.name} (cloud {self._ctx.cloud_name})",
        )
        self.autoscaler_policy = aws.iam.RolePolicy(
            f"{spec.name}-autoscaler-asg",
            role=self.autoscaler_role.id,
            policy=self.cluster.name.apply(autoscaler_policy),
            opts=self._aws,
        )
        self.autoscaler = k8s.helm.v3.Release(
            f"{spec.name}-cluster-autoscaler",
            name="cluster-autoscaler",
            chart="cluster-autoscaler",
            version=defaults.CLUSTER_AUTOSCALER_VERSION,
            repository_opts={"repo": defaults.CLUSTER_AUTOSCALER_REPO},
            namespace=AUTOSCALER_NAMESPACE,
            values={
                "cloudProvider": "aws",
                "awsRegion": spec.region,
                "autoDiscovery": {"clusterName": self.cluster.name},
                "rbac": {
                    "serviceAccount": {
                        "create": True,
                        "name": AUTOSCALER_SERVICE_ACCOUNT,
                        "annotations": {"eks.amazonaws.com/role-arn": self.autoscaler_role.arn},
                    }
                },
                "extraArgs": AUTOSCALER_ARGS,
            },
            atomic=True,
            cleanup_on_fail=True,
            opts=pulumi.ResourceOptions(
                parent=self,
                provider=self.kubernetes,
                # Gone with the cluster, like every add-on; its permissions come first.
                deleted_with=self.cluster,
                depends_on=[self.autoscaler_policy],
            ),
        )

    # --- cluster -----------------------------------------------------------------------

    def _role(self, kind: str, service: str, policies: tuple[str, ...]) -> aws.iam.Role:
        role = aws.iam.Role(f"{self._spec.name}-{kind}-role", assume_role_policy=assume_role_policy(service), opts=self._aws)
        self._attachments += [
            aws.iam.RolePolicyAttachment(
                f"{self._spec.name}-{kind}-{policy}", role=role.name, policy_arn=MANAGED_POLICY.format(policy), opts=self._aws
            )
            for policy in policies
        ]
        return role

    def _cluster(self) -> aws.eks.Cluster:
        spec = self._spec
        role = self._role("cluster", "eks.amazonaws.com", CLUSTER_POLICIES)
        return aws.eks.Cluster(
            f"{spec.name}-eks",
            name=self._eks_name,
            version=".".join(spec.cluster.kubernetes_version.split(".")[:2]),  # EKS takes major.minor
            role_arn=role.arn,
            access_config={"authentication_mode": "API", "bootstrap_cluster_creator_admin_permissions": True},
            vpc_config={
                "subnet_ids": [s.id for s in self.private_subnets + self.public_subnets],
                "endpoint_public_access": True,
                "endpoint_private_access": True,  # nodes reach the API server inside the VPC
            },
            opts=pulumi.ResourceOptions.merge(self._guarded, pulumi.ResourceOptions(depends_on=list(self._attachments))),
        )

    def _node_group(self, name: str, pool: NodePoolSpec | SystemPoolSpec) -> aws.eks.NodeGroup:
        """No Cluster Autoscaler tags here, on purpose. EKS itself tags the Auto Scaling
        group of every managed node group with `k8s.io/cluster-autoscaler/enabled` and
        `k8s.io/cluster-autoscaler/<cluster>` (owned): that is what the autoscaler's
        auto-discovery and its IAM condition match. Nor node-template tags for scaling up
        from zero: for a managed node group the autoscaler (1.24 on) reads the labels and
        taints from eks:DescribeNodegroup (cloudprovider/aws/README.md); and EKS does not
        copy a node group's `tags` to its Auto Scaling group, so they would not be seen."""
        worker = isinstance(pool, NodePoolSpec)
        gpu = worker and pool.gpu is not None
        return aws.eks.NodeGroup(
            f"{self._spec.name}-{name}",
            cluster_name=self.cluster.name,
            node_group_name=name,
            node_role_arn=self.node_role.arn,
            subnet_ids=[s.id for s in self.private_subnets],
            instance_types=[pool.instance_type],
            ami_type=GPU_AMI if gpu else CPU_AMI,
            capacity_type=pool.capacity_type if worker else "ON_DEMAND",
            scaling_config={"min_size": pool.min_count, "max_size": pool.max_count, "desired_size": pool.min_count},
            labels=self._labels(pool) if worker else None,
            taints=[{"key": t.key, "value": t.value, "effect": TAINT_EFFECTS[t.effect]} for t in pool_taints(pool)] if worker else None,
            opts=pulumi.ResourceOptions.merge(
                self._aws,
                pulumi.ResourceOptions(
                    depends_on=[*self._attachments, *self._egress],
                    # The Cluster Autoscaler owns the current size; only the bounds are ours.
                    ignore_changes=["scalingConfig.desiredSize"],
                ),
            ),
        )

    @staticmethod
    def _labels(pool: NodePoolSpec) -> dict[str, str]:
        labels = pool_labels(pool)
        if pool.gpu is not None:
            # The autoscaler treats nodes with this label as GPU nodes still starting until
            # the device plugin reports the GPUs, instead of adding more of them meanwhile.
            labels[AUTOSCALER_GPU_LABEL] = pool.gpu.type.lower()
        return labels

    # --- bucket ------------------------------------------------------------------------

    def _bucket(self) -> None:
        """The bucket: ours (created here), or the existing one named in the spec."""
        spec = self._spec
        self._storage: list[pulumi.Resource] = []
        if spec.storage.bucket is not None:
            # Existing bucket: its CORS rule and settings are the owner's to set.
            self.bucket_uri = pulumi.Output.from_input(spec.storage.bucket)
            self._bucket_name = pulumi.Output.from_input(spec.storage.bucket.removeprefix("s3://"))
            return
        suffix = random.RandomString(
            f"{spec.name}-bucket-suffix",
            length=8,
            special=False,
            upper=False,
            opts=pulumi.ResourceOptions(parent=self, provider=self._ctx.random_provider),
        )
        # A retained bucket keeps its settings too (no public access, encryption, CORS).
        kept = pulumi.ResourceOptions.merge(self._aws, pulumi.ResourceOptions(retain_on_delete=spec.storage.retain_on_delete))
        # The bucket lives in the storage region, which may differ from the cluster's.
        s3: dict[str, Any] = {"region": spec.storage.region or spec.region, "opts": kept}
        bucket = aws.s3.Bucket(
            f"{spec.name}-bucket",
            bucket=suffix.result.apply(lambda s: bucket_name(self._ctx.cloud_name, spec.name, s)),
            force_destroy=False,  # it holds logs and snapshots
            region=s3["region"],
            opts=pulumi.ResourceOptions.merge(kept, pulumi.ResourceOptions(protect=self._ctx.protect)),
        )
        versioning = aws.s3.BucketVersioning(
            f"{spec.name}-versioning", bucket=bucket.id, versioning_configuration={"status": "Enabled"}, **s3
        )
        self._storage = [
            bucket,
            aws.s3.BucketPublicAccessBlock(
                f"{spec.name}-public-access-block",
                bucket=bucket.id,
                block_public_acls=True,
                block_public_policy=True,
                ignore_public_acls=True,
                restrict_public_buckets=True,
                **s3,
            ),
            aws.s3.BucketOwnershipControls(
                f"{spec.name}-ownership", bucket=bucket.id, rule={"object_ownership": "BucketOwnerEnforced"}, **s3
            ),
            aws.s3.BucketServerSideEncryptionConfiguration(
                f"{spec.name}-encryption",
                bucket=bucket.id,
                rules=[{"apply_server_side_encryption_by_default": {"sse_algorithm": "AES256"}}],
                **s3,
            ),
            versioning,
            aws.s3.BucketLifecycleConfiguration(
                f"{spec.name}-lifecycle",
                bucket=bucket.id,
                rules=[
                    {
                        "id": "noncurrent-versions",
                        "status": "Enabled",
                        "filter": {},  # every object
                        "noncurrent_version_expiration": {"noncurrent_days": NONCURRENT_VERSION_DAYS},
                        "abort_incomplete_multipart_upload": {"days_after_initiation": 7},
                    }
                ],
                region=s3["region"],
                opts=pulumi.ResourceOptions.merge(kept, pulumi.ResourceOptions(depends_on=[versioning])),
            ),
            aws.s3.BucketCorsConfiguration(
                f"{spec.name}-cors",
                bucket=bucket.id,
                cors_rules=[
                    {
                        "allowed_origins": [defaults.CONSOLE_ORIGIN],
                        "allowed_methods": defaults.CORS_METHODS,
                        "allowed_headers": defaults.CORS_ALLOWED_HEADERS,
                        "expose_headers": defaults.CORS_EXPOSED_HEADERS,
                        "max_age_seconds": defaults.CORS_MAX_AGE_SECONDS,
                    }
                ],
                **s3,
            ),
        ]
        self._bucket_name = bucket.bucket
        self.bucket_uri = pulumi.Output.concat("s3://", bucket.bucket)
