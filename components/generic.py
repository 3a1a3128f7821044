"""GenericCluster: a bring-your-own Kubernetes cluster with an existing bucket.

Nothing is created outside the cluster: the user supplies the kubeconfig, the bucket
(with the console's CORS rule already set on it) and an Anyscale CLI token, which the
operator uses instead of a cloud identity."""
from __future__ import annotations

import pulumi

from components.kube import kubernetes_provider
from components.spec import GenericResource
from components.target import CloudContext, Target


class GenericCluster(pulumi.ComponentResource):
    target: Target

    def __init__(self, spec: GenericResource, ctx: CloudContext, opts: pulumi.ResourceOptions | None = None):
        # The type token predates the class name: it is part of every child's URN.
        super().__init__("anyscale-cloud:generic:GenericTarget", spec.name, None, opts)
        kubeconfig = pulumi.Output.secret(spec.kubeconfig.value)
        bucket_uri = pulumi.Output.from_input(spec.storage.bucket)
        self.target = Target(
            provider="Generic",
            region=spec.region,  # a free-form routing label here
            kubernetes=kubernetes_provider(spec.name, kubeconfig, self),
            kubeconfig=kubeconfig,
            cluster=None,  # not ours: in-cluster objects are deleted one by one
            bucket_uri=spec.storage.bucket,
            bucket_endpoint=spec.storage.endpoint or "",
            bucket_region=spec.bucket_region,
            registration_identity=None,  # Generic has no cloud identity
            operator_identity=None,
            gateway_address_kind=spec.gateway_address,
            # The operator authenticates with the CLI token: a protected (secret) setting.
            protected_settings={"global.auth.anyscaleCliToken": pulumi.Output.secret(spec.cli_token.value)},
        )
        self.register_outputs({"kubeconfig": kubeconfig, "bucket_uri": bucket_uri})
