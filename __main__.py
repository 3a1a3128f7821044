"""anyscale-cloud: read the stack spec, build one AnyscaleCloud, export its outputs."""

import json
from typing import Any

import pulumi

from components.cloud import AnyscaleCloud
from spec import SpecError, advisories, load_spec
from spec.currency import TodayError, today


def read_config(key: str) -> Any:
    # The raw value, not pulumi.Config: `resources` and `secrets` hold nested secrets
    # (kubeconfig, cliToken) that the spec wraps and the components keep secret end to end.
    raw = pulumi.runtime.get_config(f"anyscale-cloud:{key}")
    if raw is None:
        return None
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


try:
    # The day Kubernetes versions are judged on: ANYSCALE_CLOUD_TODAY, else today (UTC).
    # A minor the provider no longer creates is refused here as in `preflight validate`.
    day = today()
    spec = load_spec(read_config("cloud"), read_config("resources"), read_config("secrets"), today=day)
except TodayError as error:
    raise pulumi.RunError(str(error)) from None
except SpecError as error:
    # RunError: reported without a traceback, before any resource is declared.
    raise pulumi.RunError(f"invalid stack config ({len(error.problems)} problem(s)):\n{error}") from None

# Advisories (a minor in paid extended support or near its end, an Azure region outside the
# preview's list) warn; they never stop a deployment.
for advisory in advisories(spec, day):
    pulumi.log.warn(str(advisory))

cloud = AnyscaleCloud(spec)
pulumi.export("cloudId", cloud.cloud_id)
pulumi.export("registryId", cloud.registry_id)
pulumi.export(
    "cloudResources",
    {
        name: {
            "cloudResourceId": res.cloud_resource_id,
            "bucket": res.bucket_uri,
            "bucketEndpoint": res.bucket_endpoint,
            "gatewayAddress": res.gateway_address,
        }
        for name, res in cloud.resources.items()
    },
)
pulumi.export("kubeconfigs", pulumi.Output.secret({name: res.kubeconfig for name, res in cloud.resources.items()}))
