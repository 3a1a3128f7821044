"""anyscale-cloud: the stack config as AnyscaleCloud's arguments; its outputs exported."""

import json
from typing import Any

import pulumi

from components.cloud import AnyscaleCloud
from components.cloud_args import from_config


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


cloud_config = read_config("cloud")
# The component's name is the cloud's (every URN has it); a config without one is refused
# by the component's own check, which names the missing key.
name = cloud_config.get("name") if isinstance(cloud_config, dict) else None
cloud = AnyscaleCloud(
    name if isinstance(name, str) and name else "anyscale-cloud",
    from_config(cloud_config, read_config("resources"), read_config("secrets")),
)
pulumi.export("cloudId", cloud.cloud_id)
pulumi.export("consoleUrl", cloud.console_url)
pulumi.export("provisioningState", cloud.provisioning_state)
pulumi.export("registryId", cloud.registry_id)
pulumi.export("resourceGroupName", cloud.resource_group_name)
pulumi.export("cloudResources", cloud.cloud_resources)
pulumi.export("kubeconfigs", cloud.kubeconfigs)
