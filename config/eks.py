"""EKS: the cluster spec of an AWS resource (`cluster`): access entries, the API
server's endpoints, the VPC (created or existing), and the AWS resource itself."""

from __future__ import annotations

import re
from typing import Annotated, ClassVar, Literal

from annotated_types import MaxLen, MinLen
from pydantic import AfterValidator, Field, field_validator, model_validator

from config.capacity import eks_private_subnets
from config.data import quotas
from config.data.eks import aws_zone_count
from config.data.versions import CLUSTER_AUTOSCALER_RELEASES
from config.doc import shown_default
from config.pools import (
    NODE_POOLS_RULE,
    SYSTEM_POOL_RULE,
    UNIQUE_POOL_NAMES,
    ClusterSpec,
    EksSystemPool,
    NodePoolSpec,
    default_pools,
    kubernetes_version_field,
)
from config.resources import CLUSTER_RULE, ResourceSpec
from config.storage import AwsStorage
from config.types import Deferrable, Deferred, IPv4Cidr, Strict, Unique, fail, minor_of, repeated

# IAM roles (a path is allowed: arn:aws:iam::111122223333:role/dev/apps/ci) and users, in
# the `aws` partition (every region in config/data/regions.py is in it). The account may
# be another than the cluster's: EKS accepts that for STANDARD access entries.
IAM_PRINCIPAL_RE = re.compile(r"^arn:aws:iam::[0-9]{12}:(role|user)/([\w+=,.@-]+/)*[\w+=,.@-]{1,128}$")
STS_SESSION_RE = re.compile(r"^arn:aws:sts::[0-9]{12}:assumed-role/([\w+=,.@-]+)/")
NAMESPACE_RE = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")
# EC2 IDs: 8 hex digits (older resources) or 17 (current).
VPC_ID_RE = re.compile(r"^vpc-([0-9a-f]{8}|[0-9a-f]{17})$")
EKS_SUBNET_ID_RE = re.compile(r"^subnet-([0-9a-f]{8}|[0-9a-f]{17})$")


def _namespace_names(namespaces: list[str]) -> list[str]:
    for namespace in namespaces:
        if not NAMESPACE_RE.fullmatch(namespace):
            raise fail(
                "namespace",
                "'{v}' is not a Kubernetes namespace name: lowercase letters, digits and '-', at most 63",
                v=namespace,
            )
    return namespaces


NAMESPACES_TWICE = "namespaces are listed twice: {d}"


class AccessEntrySpec(Strict):
    """One IAM principal (a person's role, the CI role) with one EKS access policy."""

    principal_arn: str = Field(
        description=f"an IAM role (with its path) or user ARN, `{IAM_PRINCIPAL_RE.pattern}`; not an STS "
        "assumed-role session ARN; one entry per principal"
    )
    # The EKS access policies named like the Kubernetes user-facing roles they mirror.
    policy: Literal["cluster-admin", "admin", "edit", "view"] = Field(description="the EKS access policy of that name")
    # Absent: the whole cluster; else only these namespaces.
    namespaces: (
        Annotated[list[str], MinLen(1), AfterValidator(_namespace_names), Unique("namespace", NAMESPACES_TWICE)] | None
    ) = Field(
        None,
        description=f"Kubernetes namespaces (`{NAMESPACE_RE.pattern}`), each once: the policy applies there only",
        json_schema_extra=shown_default("the whole cluster"),
    )

    @field_validator("principal_arn")
    @classmethod
    def _principal(cls, value: str) -> str:
        session = STS_SESSION_RE.match(value)
        if session:
            raise fail(
                "arn",
                "'{v}' is an STS session, which EKS does not accept in an access entry (it is a new "
                "principal each session): use the role's IAM ARN, arn:aws:iam::<account>:role/{r} "
                "(with its path, if any)",
                v=value,
                r=session.group(1),
            )
        if not IAM_PRINCIPAL_RE.fullmatch(value):
            raise fail(
                "arn",
                "'{v}' is not an IAM role or user ARN: use arn:aws:iam::<12-digit account>:role/<name> "
                "(a path is allowed) or arn:aws:iam::<12-digit account>:user/<name>",
                v=value,
            )
        return value


class EksSubnetIds(Strict):
    """Subnets of an existing VPC: nodes (and the API server's network interfaces) in
    `private`, internet-facing load balancers in `public`."""

    public: list[Deferrable[str]] = Field(
        default_factory=list,
        description=f"subnet IDs (`{EKS_SUBNET_ID_RE.pattern}`) for internet-facing load balancers",
    )
    private: list[Deferrable[str]] = Field(
        description=f"subnet IDs (`{EKS_SUBNET_ID_RE.pattern}`) for the nodes and the API server: at least two, "
        "in two availability zones; no ID listed twice (or in both lists)"
    )

    @field_validator("public", "private")
    @classmethod
    def _ids(cls, value: list[Deferrable[str]]) -> list[Deferrable[str]]:
        wrong = [v for v in value if not isinstance(v, Deferred) and not EKS_SUBNET_ID_RE.fullmatch(v)]
        if wrong:
            raise fail(
                "subnet",
                "{w} not a subnet ID: subnet- and 8 or 17 hex digits, e.g. subnet-0a1b2c3d4e5f67890",
                w=", ".join(repr(v) for v in wrong) + (" is" if len(wrong) == 1 else " are"),
            )
        return value

    @field_validator("private")
    @classmethod
    def _two_zones(cls, value: list[Deferrable[str]]) -> list[Deferrable[str]]:
        # The zones of a subnet are not known offline: two distinct IDs is what we can
        # check; EKS itself rejects subnets that are not in two zones.
        if len(set(value)) < 2:
            raise fail(
                "subnet",
                "needs at least two private subnets, in different availability zones: EKS requires "
                "two zones for the cluster and the node groups",
            )
        return value

    @model_validator(mode="after")
    def _distinct(self) -> EksSubnetIds:
        twice = repeated(self.private + self.public)
        if twice:
            raise fail("subnet", "subnets are listed twice (or as both public and private): {d}", d=", ".join(twice))
        return self


ONE_ENTRY_PER_PRINCIPAL = Unique(
    "arn",
    "{d} is listed twice: EKS takes one access entry per principal; give it one policy here",
    key=lambda entry: entry.principal_arn,
)


class EksClusterSpec(ClusterSpec):
    provider: ClassVar[str] = "AWS"
    kubernetes_version: str = kubernetes_version_field(
        "AWS",
        "AWS: a minor only, no patch (EKS runs its own patch of it), with a pinned Cluster Autoscaler release ("
        + ", ".join(CLUSTER_AUTOSCALER_RELEASES)
        + ", config/data/versions.py)",
    )
    system_pool: EksSystemPool = Field(default_factory=EksSystemPool, description=SYSTEM_POOL_RULE)
    node_pools: Annotated[list[NodePoolSpec], UNIQUE_POOL_NAMES] = Field(
        default_factory=lambda: default_pools("AWS", NodePoolSpec), description=NODE_POOLS_RULE
    )
    # The VPC the program creates... (the pattern admits 999.1.2.3/16 and 10.0.0.1/16: only a
    # real parse, IPv4Cidr, says it is a network)
    vpc_cidr: Annotated[str, IPv4Cidr("10.0.0.0/16")] = Field(
        "10.0.0.0/16",
        pattern=r"^([0-9]{1,3}\.){3}[0-9]{1,3}/(1[6-9]|2[0-4])$",
        description="the IPv4 network (/16 to /24) of the VPC the program creates, an eighth of it per private "
        "subnet: room for every node at `maxCount` with the addresses the VPC CNI takes for it with each group's update surge; not with `vpcId`",
    )
    availability_zones: int = Field(2, ge=2, le=4, description="zones of the VPC the program creates; not with `vpcId`")
    # ...or an existing one (both keys, or neither).
    vpc_id: Deferrable[str] | None = Field(
        None,
        description=f"an existing VPC, `{VPC_ID_RE.pattern}`; requires `subnetIds` ([EKS networking](what-it-creates.md#eks-networking))",
        json_schema_extra=shown_default("none (a VPC is created)"),
    )
    subnet_ids: EksSubnetIds | None = Field(None, description="the existing VPC's subnets; requires `vpcId`")
    # Who besides the creating identity may use the cluster.
    access_entries: Annotated[list[AccessEntrySpec], ONE_ENTRY_PER_PRINCIPAL] = Field(
        default_factory=list, description="who besides the identity that creates the cluster may use it"
    )
    # The API server's endpoints. EKS's default for the public one is 0.0.0.0/0.
    endpoint_public_access: bool = Field(
        True, description="the API server's public endpoint; `false` needs `pulumi up` to run inside the VPC"
    )
    endpoint_private_access: bool = Field(
        True,
        description="the private endpoint (nodes reach the API inside the VPC); at least one of the two must be on",
    )
    endpoint_public_access_cidrs: (
        Annotated[
            list[str],
            MinLen(1),
            MaxLen(quotas.EKS_MAX_PUBLIC_ACCESS_CIDRS),  # an EKS quota that cannot be raised
            IPv4Cidr("203.0.113.0/24", allow_list=True),
        ]
        | None
    ) = Field(
        None,
        description="IPv4 networks allowed to reach the public endpoint; requires `endpointPublicAccess` and "
        "`endpointPrivateAccess`; include the addresses `pulumi up` and `kubectl` run from",
        json_schema_extra=shown_default("none (EKS: `0.0.0.0/0`)"),
    )

    @field_validator("kubernetes_version")
    @classmethod
    def _autoscaler_release(cls, value: str) -> str:
        minor = minor_of(value)
        if minor not in CLUSTER_AUTOSCALER_RELEASES:
            known = ", ".join(CLUSTER_AUTOSCALER_RELEASES)
            raise fail(
                "version",
                "Kubernetes {m} has no Cluster Autoscaler release pinned for EKS (its minor must match the "
                "cluster's; config/data/versions.py CLUSTER_AUTOSCALER_RELEASES); use one of {k}",
                m=minor,
                k=known,
            )
        return value

    @field_validator("vpc_id")
    @classmethod
    def _vpc_id(cls, value: Deferrable[str] | None) -> Deferrable[str] | None:
        if isinstance(value, str) and not VPC_ID_RE.fullmatch(value):
            raise fail("vpc", "'{v}' is not a VPC ID: vpc- and 8 or 17 hex digits, e.g. vpc-0a1b2c3d4e5f67890", v=value)
        return value

    @model_validator(mode="after")
    def _network_choice(self) -> EksClusterSpec:
        if (self.vpc_id is None) != (self.subnet_ids is None):
            raise fail("vpc", "vpcId and subnetIds go together: give both to use an existing VPC, or neither")
        created = {"vpcCidr": "vpc_cidr", "availabilityZones": "availability_zones"}
        if self.vpc_id is not None:
            given = [key for key, field in created.items() if field in self.model_fields_set]
            if given:
                raise fail(
                    "vpc",
                    "{g} describe{s} the VPC the program creates: remove {it} when using vpcId and subnetIds",
                    g=" and ".join(given),
                    s="" if len(given) > 1 else "s",
                    it="them" if len(given) > 1 else "it",
                )
        return self

    @model_validator(mode="after")
    def _endpoints(self) -> EksClusterSpec:
        if not self.endpoint_public_access and not self.endpoint_private_access:
            raise fail(
                "endpoint",
                "endpointPublicAccess and endpointPrivateAccess are both false: the API server would be unreachable",
            )
        if self.endpoint_public_access_cidrs is not None and not self.endpoint_public_access:
            raise fail(
                "endpoint", "endpointPublicAccessCidrs is set but endpointPublicAccess is false: remove one of them"
            )
        if self.endpoint_public_access_cidrs is not None and not self.endpoint_private_access:
            raise fail(
                "endpoint",
                "endpointPublicAccessCidrs needs endpointPrivateAccess: true, or the nodes, which would reach the "
                "API server from their egress address (the NAT gateway's, not known before deploy), cannot join",
            )
        return self

    @model_validator(mode="after")
    def _private_subnet_size(self) -> EksClusterSpec:
        """The private subnets the program derives from vpcCidr hold every node and pod
        (config/capacity.py); an existing VPC's subnets are not known offline."""
        if self.vpc_id is None:
            short = eks_private_subnets(self.vpc_cidr, self.availability_zones, [self.system_pool, *self.node_pools])
            if short is not None:
                raise fail("vpc", short, at="vpcCidr")
        return self

    @property
    def minor(self) -> str:
        """What EKS takes as the version: major.minor."""
        return minor_of(self.kubernetes_version)


class AwsResource(ResourceSpec):
    provider_name: ClassVar[str] = "AWS"
    provider: Literal["AWS"]
    storage: AwsStorage = Field(default_factory=AwsStorage)
    cluster: EksClusterSpec = Field(default_factory=EksClusterSpec, description=CLUSTER_RULE)

    @model_validator(mode="after")
    def _zones_in_region(self) -> AwsResource:
        # The VPC gets one private and one public subnet per zone; a region with fewer
        # zones has no zone for the last subnets.
        zones, available = self.cluster.availability_zones, aws_zone_count(self.region)
        if self.cluster.vpc_id is None and zones > available:
            raise fail(
                "zones",
                "availabilityZones is {z}, but {r} has {a} availability zones for every account: use at most {a}",
                z=zones,
                r=self.region,
                a=available,
                at="cluster.availabilityZones",
            )
        return self
