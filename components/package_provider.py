"""The component package's provider: the SDK's component provider, with the inputs handed to
the spec as the engine sent them, and the schema completed for other languages.

The SDK's own mapping (`ComponentProvider.map_inputs`) shapes the inputs by the schema before
the component sees them: it drops a key the schema does not name (a typo would pass without a
word), turns a value that is not an object into `{}` (`metrics: true` would mean off), and
hands every number on as a double (the spec's integers would refuse `2.0`). Here every key
reaches the spec, which reports each problem with its path, as `preflight validate` does.
The schema is the SDK's, from the component's annotations, with secrets, enum types and the
package's own language names added (components/package_schema.py).
"""

import json
from typing import Any

import pulumi
from pulumi.provider.experimental.analyzer import ComponentDefinition
from pulumi.provider.experimental.component import ComponentProvider

from components.cloud_args import from_inputs
from components.package_schema import for_languages


class AnyscaleCloudProvider(ComponentProvider):
    def __init__(
        self,
        components: list[type[pulumi.ComponentResource]],
        name: str,
        namespace: str | None = None,
        version: str = "0.0.0",
    ) -> None:
        super().__init__(components, name, namespace, version)
        served: dict[str, Any] = json.loads(self.schema or "{}")
        for component in components:
            served = for_languages(served, f"{name}:index:{component.__name__}")
        self.schema = json.dumps(served)

    def map_inputs(self, inputs: Any, component_def: ComponentDefinition) -> Any:
        return from_inputs(inputs)
