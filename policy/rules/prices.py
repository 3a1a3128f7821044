"""List prices, in US dollars per hour, of what the program creates: node instance types,
Kubernetes control planes, NAT gateways, load balancers and the registry, per provider
and region. `config/data/prices.py` is how the rest of the project reads this table; it
lives in the policy pack because the pack's budget policy prices a plan too, and
`pulumi policy publish` ships the pack's folder alone.

A price is recorded only where a public source states it for that provider, region and
SKU. Everything else is absent, and the estimate reports it as "not priced": no region is
priced from another, no size from its family.

Prices read 2026-12-01 (PRICES_AS_OF), on-demand (pay-as-you-go), Linux, per hour:

* Azure virtual machines, East US and East US 2: Microsoft's pay-as-you-go list prices
  for Dsv5 (D2s_v5 $0.096 ... D32s_v5 $1.536) and NCasT4_v3 (NC4as $0.526, NC8as $0.752,
  NC16as $1.204, NC64as $4.352), NC_A100_v4 (NC24ads $3.673, NC48ads $7.346, NC96ads
  $14.692), ND96asr_v4 $27.197 and ND96amsr_A100_v4 $32.768, as transcribed in public
  price tables of the Azure pricing page
  (https://azure.microsoft.com/pricing/details/virtual-machines/linux/); East US 2 lists
  the same prices as East US for these series.
* AKS control plane: Free tier $0, Standard tier $0.10 per cluster hour
  (https://azure.microsoft.com/pricing/details/kubernetes-service/,
  https://learn.microsoft.com/azure/aks/free-standard-pricing-tiers).
* EC2, us-east-1 and us-west-2: m6i.large $0.096 ... m6i.24xlarge $4.608
  (https://aws.amazon.com/ec2/pricing/on-demand/).
* EKS control plane: $0.10 per cluster hour in standard support; extended support
  ($0.60) is not counted (https://aws.amazon.com/eks/pricing/).
* NAT gateway: $0.045 per NAT gateway hour in us-east-1, us-east-2 and us-west-2, plus
  $0.045 per GB processed, not counted (https://aws.amazon.com/vpc/pricing/).
* Compute Engine, us-central1: e2-standard-4 $0.134014, -8 $0.268028, -16 $0.536056;
  n2-standard-2 $0.0971 ... n2-standard-128 $6.2154; n1-standard-4 $0.19 ...
  n1-standard-96 $4.56 (https://cloud.google.com/compute/vm-instance-pricing). GPUs
  attached to N1 machines are billed apart and not priced here.
* GKE control plane: $0.10 per cluster hour (Standard edition); the free-tier credit of
  one zonal or Autopilot cluster per billing account is not applied
  (https://cloud.google.com/kubernetes-engine/pricing).
* Cloud Load Balancing, us-central1: $0.025 per forwarding rule hour for the first five
  (https://cloud.google.com/load-balancing/pricing).
* Azure Load Balancer, Standard SKU, East US and East US 2: $0.025 per hour for the first
  five rules (load-balancing and outbound rules together), $0.01 per further rule hour,
  $0.005 per GB processed, not counted
  (https://azure.microsoft.com/pricing/details/load-balancer/). AKS puts the gateway's
  LoadBalancer Service on the cluster's own Standard load balancer (`kubernetes`, which
  also holds the cluster's outbound rule): one outbound rule and the gateway's listeners
  (HTTP and HTTPS) are three rules, within the first five, so the load balancer's hour is
  counted once, on the gateway's line.
* Azure Container Registry, per registry day: Basic $0.167, Standard $0.667, Premium
  $1.667 (https://azure.microsoft.com/pricing/details/container-registry/; the Basic
  figure is also in https://learn.microsoft.com/azure/container-registry/container-registry-skus),
  read here per hour (day / 24). The included storage (Premium 500 GiB) is in the price;
  storage beyond it and build minutes are billed per use, not counted.
* AWS public IPv4 address: $0.005 per IP hour, every region, whether attached or idle
  (https://aws.amazon.com/vpc/pricing/, "Public IPv4 Address"): the NAT gateway's Elastic IP.

Not priced (no source read states it): every other region; the AWS GPU families; Azure's
H100 and A10 sizes; AWS's Network Load Balancer hour.
To refresh: read each page above for the regions the stacks use, update the numbers and
PRICES_AS_OF, and run the tests (docs/operations.md, "Cost").
"""

from __future__ import annotations

from typing import Final

PRICES_AS_OF: Final[str] = "2026-12-01"
CURRENCY: Final[str] = "USD"

# Spot capacity is counted at the on-demand price: the most it can bill. Azure spot VMs
# with the default maximum price (-1) and AWS spot instances with the default maximum
# never bill above on-demand; GCP spot VMs bill below it. A discount here would be a guess
# about a market price that changes by the minute.
SPOT_DISCOUNT: Final[float] = 0.0

_DSV5 = {f"Standard_D{n}s_v5": round(0.048 * n, 3) for n in (2, 4, 8, 16, 32)}
_AZURE_GPU = {
    "Standard_NC4as_T4_v3": 0.526,
    "Standard_NC8as_T4_v3": 0.752,
    "Standard_NC16as_T4_v3": 1.204,
    "Standard_NC64as_T4_v3": 4.352,
    "Standard_NC24ads_A100_v4": 3.673,
    "Standard_NC48ads_A100_v4": 7.346,
    "Standard_NC96ads_A100_v4": 14.692,
    "Standard_ND96asr_v4": 27.197,
    "Standard_ND96amsr_A100_v4": 32.768,
}
_M6I = {
    "m6i.large": 0.096,
    "m6i.xlarge": 0.192,
    "m6i.2xlarge": 0.384,
    "m6i.4xlarge": 0.768,
    "m6i.8xlarge": 1.536,
    "m6i.12xlarge": 2.304,
    "m6i.16xlarge": 3.072,
    "m6i.24xlarge": 4.608,
}
_GCE_US_CENTRAL1 = {
    "e2-standard-4": 0.134014,
    "e2-standard-8": 0.268028,
    "e2-standard-16": 0.536056,
    "n2-standard-2": 0.0971,
    "n2-standard-4": 0.1942,
    "n2-standard-8": 0.3885,
    "n2-standard-16": 0.7769,
    "n2-standard-32": 1.5539,
    "n2-standard-48": 2.3308,
    "n2-standard-64": 3.1078,
    "n2-standard-80": 3.8847,
    "n2-standard-96": 4.6616,
    "n2-standard-128": 6.2154,
    "n1-standard-4": 0.19,
    "n1-standard-8": 0.38,
    "n1-standard-16": 0.76,
    "n1-standard-32": 1.52,
    "n1-standard-64": 3.04,
    "n1-standard-96": 4.56,
}

# provider -> region -> instance type -> $/hour (on-demand, Linux).
INSTANCE_HOURLY: Final[dict[str, dict[str, dict[str, float]]]] = {
    "Azure": {"eastus": {**_DSV5, **_AZURE_GPU}, "eastus2": {**_DSV5, **_AZURE_GPU}},
    "AWS": {"us-east-1": dict(_M6I), "us-west-2": dict(_M6I)},
    "GCP": {"us-central1": dict(_GCE_US_CENTRAL1)},
}

# Instance types of config/data/instance_types.py priced in no region: listed so that a
# type missing from both this list and the table fails a test (tests/preflight/test_cost.py).
NOT_PRICED: Final[dict[str, frozenset[str]]] = {
    "Azure": frozenset(
        {f"Standard_D{n}s_v5" for n in (48, 64, 96)}
        | {f"Standard_E{n}s_v5" for n in (2, 4, 8, 16, 32, 48, 64)}
        | {
            "Standard_NV36ads_A10_v5",
            "Standard_NV72ads_A10_v5",
            "Standard_NC40ads_H100_v5",
            "Standard_NC80adis_H100_v5",
            "Standard_ND96isr_H100_v5",
        }
    ),
    "AWS": frozenset(
        {f"g4dn.{s}" for s in ("xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge", "16xlarge", "metal")}
        | {
            f"{family}.{s}"
            for family in ("g5", "g6", "g6e")
            for s in ("xlarge", "2xlarge", "4xlarge", "8xlarge", "12xlarge", "16xlarge", "24xlarge", "48xlarge")
        }
        | {"p3.2xlarge", "p3.8xlarge", "p3.16xlarge", "p4d.24xlarge", "p4de.24xlarge", "p5.48xlarge"}
    ),
    "GCP": frozenset(
        {"e2-standard-2", "e2-standard-32"}
        | {f"g2-standard-{n}" for n in (4, 8, 12, 16, 24, 32, 48, 96)}
        | {f"a2-highgpu-{n}g" for n in (1, 2, 4, 8)}
        | {"a2-megagpu-16g"}
        | {f"a2-ultragpu-{n}g" for n in (1, 2, 4, 8)}
        | {f"a3-highgpu-{n}g" for n in (1, 2, 4, 8)}
        | {"a3-megagpu-8g"}
    ),
}

# Managed Kubernetes control planes, per cluster hour. AKS by its SKU tier; the Premium
# tier (long-term support) is not priced.
AKS_CONTROL_PLANE_HOURLY: Final[dict[str, float]] = {"Free": 0.0, "Standard": 0.10}
EKS_CONTROL_PLANE_HOURLY: Final[float] = 0.10
GKE_CONTROL_PLANE_HOURLY: Final[float] = 0.10

# provider -> region -> $/hour of one NAT gateway (AWS; GKE and AKS stacks create none).
NAT_GATEWAY_HOURLY: Final[dict[str, dict[str, float]]] = {
    "AWS": {"us-east-1": 0.045, "us-east-2": 0.045, "us-west-2": 0.045},
}

# provider -> region -> $/hour of the load balancer in front of one gateway (one
# forwarding rule on GCP).
LOAD_BALANCER_HOURLY: Final[dict[str, dict[str, float]]] = {
    "Azure": {"eastus": 0.025, "eastus2": 0.025},
    "GCP": {"us-central1": 0.025},
}

# Azure Container Registry SKU -> $/hour: the list price per registry day / 24.
REGISTRY_DAILY: Final[dict[str, float]] = {"Basic": 0.167, "Standard": 0.667, "Premium": 1.667}
REGISTRY_HOURLY: Final[dict[str, float]] = {sku: round(day / 24, 4) for sku, day in REGISTRY_DAILY.items()}

# provider -> $/hour of one public IPv4 address (AWS bills every one; the NAT gateway's).
PUBLIC_IPV4_HOURLY: Final[dict[str, float]] = {"AWS": 0.005}

# Every other resource type the shipped stacks create, and why it adds nothing to the
# hourly figures: free, billed only per use (zero at idle), or running on nodes already
# priced. tests/preflight/test_cost_coverage.py fails on a type of a shipped stack's plan
# that is neither priced (rules/cost.py PRICED) nor listed here.
FREE = "no charge of its own"
PER_USE = "billed per use only (stored GB, requests, data processed): nothing at idle, not counted"
ON_NODES = "runs on the cluster's nodes, priced with its node pools"
COMPONENT = "a component: groups resources, creates nothing in a cloud"
NOT_BILLED: Final[dict[str, str]] = {
    "pulumi:providers:azure-native": FREE,
    "pulumi:providers:kubernetes": FREE,
    "pulumi:providers:random": FREE,
    "pulumi:providers:aws": FREE,
    "pulumi:providers:gcp": FREE,
    "random:index/randomString:RandomString": "a name suffix held in the stack's state: no cloud resource",
    "anyscale-cloud:index:AnyscaleCloud": COMPONENT,
    "anyscale-cloud:index:CloudResource": COMPONENT,
    "anyscale-cloud:index:CloudResourceRegistration": COMPONENT,
    "anyscale-cloud:index:ClusterAddons": COMPONENT,
    "anyscale-cloud:azure:AksTarget": COMPONENT,
    "anyscale-cloud:aws:EksTarget": COMPONENT,
    "anyscale-cloud:gcp:GkeTarget": COMPONENT,
    "anyscale-cloud:generic:GenericTarget": COMPONENT,
    # The cloud and cloud-resource records (Anyscale.Platform): the platform's own fees,
    # which a list price of the clouds does not give, are outside the estimate.
    "azure-native:resources:Resource": "the Anyscale platform's records: its fees are not list prices of a cloud, not counted",
    "azure-native:resources:ResourceGroup": FREE,
    "azure-native:authorization:RoleAssignment": FREE,
    "azure-native:managedidentity:UserAssignedIdentity": FREE,
    "azure-native:managedidentity:FederatedIdentityCredential": FREE,
    "azure-native:containerservice:MaintenanceConfiguration": FREE,
    "azure-native:network:VirtualNetwork": FREE,
    "azure-native:network:Subnet": FREE,
    "azure-native:kubernetesconfiguration:Extension": ON_NODES,
    "azure-native:storage:StorageAccount": PER_USE,
    "azure-native:storage:BlobContainer": PER_USE,
    "azure-native:storage:BlobServiceProperties": FREE,
    "aws:ec2/vpc:Vpc": FREE,
    "aws:ec2/subnet:Subnet": FREE,
    "aws:ec2/routeTable:RouteTable": FREE,
    "aws:ec2/routeTableAssociation:RouteTableAssociation": FREE,
    "aws:ec2/internetGateway:InternetGateway": FREE,
    # A Gateway endpoint (S3): AWS charges for interface endpoints only.
    "aws:ec2/vpcEndpoint:VpcEndpoint": "an S3 gateway endpoint: no charge (interface endpoints are billed)",
    "aws:eks/addon:Addon": ON_NODES,
    "aws:iam/openIdConnectProvider:OpenIdConnectProvider": FREE,
    "aws:iam/role:Role": FREE,
    "aws:iam/rolePolicy:RolePolicy": FREE,
    "aws:iam/rolePolicyAttachment:RolePolicyAttachment": FREE,
    "aws:s3/bucket:Bucket": PER_USE,
    "aws:s3/bucketCorsConfiguration:BucketCorsConfiguration": FREE,
    "aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration": FREE,
    "aws:s3/bucketOwnershipControls:BucketOwnershipControls": FREE,
    "aws:s3/bucketPolicy:BucketPolicy": FREE,
    "aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock": FREE,
    "aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration": FREE,
    "aws:s3/bucketVersioning:BucketVersioning": FREE,
    "gcp:compute/network:Network": FREE,
    "gcp:compute/subnetwork:Subnetwork": FREE,
    "gcp:compute/firewall:Firewall": FREE,
    "gcp:compute/router:Router": FREE,
    # Cloud NAT bills per VM using the gateway hour and per GB processed
    # (https://cloud.google.com/nat/pricing): it grows with the nodes, not counted.
    "gcp:compute/routerNat:RouterNat": "billed per VM using it and per GB processed (Cloud NAT): not counted",
    "gcp:projects/iAMMember:IAMMember": FREE,
    "gcp:serviceaccount/account:Account": FREE,
    "gcp:serviceaccount/iAMMember:IAMMember": FREE,
    "gcp:storage/bucket:Bucket": PER_USE,
    "gcp:storage/bucketIAMMember:BucketIAMMember": FREE,
    "kubernetes:core/v1:Namespace": ON_NODES,
    "kubernetes:helm.sh/v3:Release": ON_NODES,
    "kubernetes:helm.sh/v4:Chart": ON_NODES,
    "kubernetes:yaml/v2:ConfigGroup": ON_NODES,
    "kubernetes:gateway.envoyproxy.io/v1alpha1:EnvoyProxy": ON_NODES,
    "kubernetes:gateway.networking.k8s.io/v1:GatewayClass": ON_NODES,
    "kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueue": ON_NODES,
    "kubernetes:kueue.x-k8s.io/v1beta2:LocalQueue": ON_NODES,
    "kubernetes:kueue.x-k8s.io/v1beta2:ResourceFlavor": ON_NODES,
    "kubernetes:monitoring.coreos.com/v1:PodMonitor": ON_NODES,
    "kubernetes:ray.io/v1:RayJob": ON_NODES,
    "kubernetes:cilium.io/v2:CiliumNetworkPolicy": ON_NODES,
    "kubernetes:core/v1:Secret": ON_NODES,
    "kubernetes:core/v1:ServiceAccount": ON_NODES,
    "kubernetes:kueue.x-k8s.io/v1beta2:AdmissionCheck": ON_NODES,
    "kubernetes:kueue.x-k8s.io/v1beta2:MultiKueueCluster": ON_NODES,
    "kubernetes:kueue.x-k8s.io/v1beta2:MultiKueueConfig": ON_NODES,
    "kubernetes:networking.k8s.io/v1:NetworkPolicy": ON_NODES,
    "kubernetes:rbac.authorization.k8s.io/v1:ClusterRole": ON_NODES,
    "kubernetes:rbac.authorization.k8s.io/v1:ClusterRoleBinding": ON_NODES,
}


def instance_price(provider: str, region: str, instance_type: str) -> float | None:
    return INSTANCE_HOURLY.get(provider, {}).get(region, {}).get(instance_type)
