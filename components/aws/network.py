"""The VPC: private and public subnets per availability zone, one NAT gateway and an S3
gateway endpoint; or the existing VPC and subnets named in the spec."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field

import pulumi
import pulumi_aws as aws

from components.cloud_args import known, known_all
from components.scope import Scope
from config import AwsResource
from config.names import eks_cluster_name


def subnet_cidrs(vpc_cidr: str, zones: int) -> tuple[list[str], list[str]]:
    """Private subnets in the VPC's first half (pods take VPC addresses), public in the
    second: each half holds up to four subnets, one per availability zone."""
    network = ipaddress.ip_network(vpc_cidr, strict=False)
    blocks = [str(b) for b in network.subnets(new_prefix=network.prefixlen + 3)]
    return blocks[:zones], blocks[4 : 4 + zones]


def zone_at(names: list[str], index: int, region: str) -> str:
    """The zone of subnet `index`: the spec checks the count a new account sees, but an
    account may see fewer zones (an opt-out, a closed zone); say so instead of an IndexError."""
    if index >= len(names):
        raise ValueError(
            f"{region} offers this account {len(names)} availability zone(s) ({', '.join(names) or 'none'}), "
            f"fewer than cluster.availabilityZones asks for: lower it to {len(names)}"
        )
    return names[index]


def s3_service_name(region: str) -> str:
    """The S3 gateway endpoint service of a region (config/data/regions.py: all in the `aws` partition)."""
    return f"com.amazonaws.{region}.s3"


@dataclass(frozen=True)
class Network:
    vpc_id: pulumi.Input[str]
    private_subnet_ids: list[pulumi.Input[str]]
    public_subnet_ids: list[pulumi.Input[str]]
    # Nodes need their way out (image pulls, joining the cluster) before they boot.
    egress: list[pulumi.Resource] = field(default_factory=list)


@dataclass(frozen=True)
class Subnets:
    """Subnets of one kind (public or private) sharing one route table."""

    scope: Scope
    spec: AwsResource
    vpc: aws.ec2.Vpc
    zones: pulumi.Output[list[str]]

    def zone(self, index: int) -> pulumi.Output[str]:
        region = self.spec.region
        return self.zones.apply(lambda names: zone_at(names, index, region))

    def build(
        self, kind: str, cidrs: list[str], table: aws.ec2.RouteTable, tags: dict[str, str]
    ) -> tuple[list[aws.ec2.Subnet], list[pulumi.Resource]]:
        subnets: list[aws.ec2.Subnet] = []
        associations: list[pulumi.Resource] = []  # what the NAT route's users wait for
        eks = eks_cluster_name(self.scope.ctx.cloud_name, self.spec.name)
        for index, cidr in enumerate(cidrs):
            name = f"{self.spec.name}-{kind}-{index}"
            subnet = aws.ec2.Subnet(
                name,
                vpc_id=self.vpc.id,
                cidr_block=cidr,
                availability_zone=self.zone(index),
                tags={"Name": name, f"kubernetes.io/cluster/{eks}": "shared", **tags},
                opts=self.scope.opts(),
            )
            association = aws.ec2.RouteTableAssociation(
                f"{name}-routes", subnet_id=subnet.id, route_table_id=table.id, opts=self.scope.opts()
            )
            subnets.append(subnet)
            associations.append(association)
        return subnets, associations


def build_network(scope: Scope, spec: AwsResource) -> Network:
    existing = spec.cluster.subnet_ids
    if spec.cluster.vpc_id is not None and existing is not None:
        # Not ours: their route tables, NAT, S3 endpoint and load-balancer subnet tags
        # are the owner's (docs/what-it-creates.md, EKS networking).
        return Network(known(spec.cluster.vpc_id), known_all(existing.private), known_all(existing.public))
    return build_vpc(scope, spec)


def build_vpc(scope: Scope, spec: AwsResource) -> Network:
    name, opts = spec.name, scope.opts
    zones = aws.get_availability_zones_output(
        state="available",
        # Regular zones only: not the Local or Wavelength zones an account may have opted into.
        filters=[{"name": "opt-in-status", "values": ["opt-in-not-required"]}],
        opts=scope.invoke(),
    ).names
    vpc = aws.ec2.Vpc(
        f"{name}-vpc",
        cidr_block=spec.cluster.vpc_cidr,
        enable_dns_hostnames=True,  # required for nodes to join EKS
        enable_dns_support=True,
        tags={"Name": f"{scope.ctx.cloud_name}-{name}"},
        opts=opts(),
    )
    subnets = Subnets(scope, spec, vpc, zones)
    igw = aws.ec2.InternetGateway(f"{name}-igw", vpc_id=vpc.id, opts=opts())
    public_table = aws.ec2.RouteTable(
        f"{name}-public", vpc_id=vpc.id, routes=[{"cidr_block": "0.0.0.0/0", "gateway_id": igw.id}], opts=opts()
    )
    private_cidrs, public_cidrs = subnet_cidrs(spec.cluster.vpc_cidr, spec.cluster.availability_zones)
    public, public_associations = subnets.build("public", public_cidrs, public_table, {"kubernetes.io/role/elb": "1"})
    eip = aws.ec2.Eip(f"{name}-nat-ip", domain="vpc", opts=opts())
    nat = aws.ec2.NatGateway(f"{name}-nat", allocation_id=eip.id, subnet_id=public[0].id, opts=opts(depends_on=[igw]))
    private_table = aws.ec2.RouteTable(
        f"{name}-private", vpc_id=vpc.id, routes=[{"cidr_block": "0.0.0.0/0", "nat_gateway_id": nat.id}], opts=opts()
    )
    private, private_associations = subnets.build(
        "private", private_cidrs, private_table, {"kubernetes.io/role/internal-elb": "1"}
    )
    # Bucket traffic from the nodes stays on the AWS network instead of going through the
    # NAT gateway (billed per GB). A gateway endpoint serves buckets of its own region
    # only: a bucket in another region (storage.region) still goes through the NAT.
    s3 = aws.ec2.VpcEndpoint(
        f"{name}-s3-endpoint",
        vpc_id=vpc.id,
        service_name=s3_service_name(spec.region),
        vpc_endpoint_type="Gateway",
        route_table_ids=[private_table.id],
        tags={"Name": f"{scope.ctx.cloud_name}-{name}-s3"},
        opts=opts(),
    )
    return Network(
        vpc.id,
        [s.id for s in private],
        [s.id for s in public],
        [nat, private_table, s3, *public_associations, *private_associations],
    )
