"""The component package's provider: the SDK's component provider, with the inputs handed to
the spec as the engine sent them.

The SDK's own mapping (`ComponentProvider.map_inputs`) shapes the inputs by the schema before
the component sees them: it drops a key the schema does not name (a typo would pass without a
word), turns a value that is not an object into `{}` (`metrics: true` would mean off), and
hands every number on as a double (the spec's integers would refuse `2.0`). Here every key
reaches the spec, which reports each problem with its path, as `preflight validate` does.
The schema is the SDK's, from the component's annotations.
"""

from typing import Any

from pulumi.provider.experimental.analyzer import ComponentDefinition
from pulumi.provider.experimental.component import ComponentProvider

from components.cloud_args import from_inputs


class AnyscaleCloudProvider(ComponentProvider):
    def map_inputs(self, inputs: Any, component_def: ComponentDefinition) -> Any:
        return from_inputs(inputs)
