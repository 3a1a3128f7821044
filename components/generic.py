"""GenericTarget: a bring-your-own Kubernetes cluster with an existing bucket.

Nothing is created outside the cluster: the user supplies the kubeconfig, the bucket
(with the console's CORS rule already set on it) and an Anyscale CLI token, which the
operator uses instead of a cloud identity."""
from __future__ import annotations

import pulumi

from components.spec import GenericResource
from components.kube import kubernetes_provider
from components.target import CloudContext, Target


class GenericTarget(pulumi.ComponentResource):
    kubeconfig: pulumi.Output[str]
    bucket_uri: pulumi.Output[str]

    def __init__(self, spec: GenericResource, ctx: CloudContext, opts: pulumi.ResourceOptions | None = None):
        super().__init__("anyscale-cloud:generic:GenericTarget", spec.name, None, opts)
        self.kubeconfig = pulumi.Output.secret(spec.kubeconfig.value)
        self.bucket_uri = pulumi.Output.from_input(spec.storage.bucket)
        # The operator authenticates with the CLI token: a protected (secret) setting.
        self.protected_settings = {"global.auth.anyscaleCliToken": pulumi.Output.secret(spec.cli_token.value)}
        self.kubernetes = kubernetes_provider(spec.name, self.kubeconfig, self)
        self.target = Target(
            provider="Generic",
            region=spec.region,  # a free-form routing label here
            kubernetes=self.kubernetes,
            cluster=None,  # not ours: in-cluster objects are deleted one by one
            bucket_uri=spec.storage.bucket,
            bucket_endpoint=spec.storage.endpoint or "",
            bucket_region=spec.storage.region or spec.region,
            registration_identity=None,  # Generic has no cloud identity
            operator_identity=None,
            gateway_address_kind=spec.gateway_address,
        )
        self.register_outputs({"kubeconfig": self.kubeconfig, "bucket_uri": self.bucket_uri})
