"""The anyscale-cloud component package: hosts `AnyscaleCloud` for Pulumi programs in any
language (docs/component.md).

The language host runs `python <this folder> <engine address>` in the folder's virtualenv.
The component's code is the repository's `components/` and `config/` (a `github.com/...`
package source is the whole repository at a tag), so the repository root goes on the path
from this file's own location: nothing depends on the caller's PYTHONPATH or directory.

`component_provider_host` would serve the SDK's `ComponentProvider`, whose input mapping
drops keys the schema does not name and hands integers on as doubles; this serves the same
schema with the inputs handed to the spec as sent (components/package_provider.py).
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pulumi.provider import main  # noqa: E402

from components.cloud import AnyscaleCloud  # noqa: E402
from components.package_provider import AnyscaleCloudProvider  # noqa: E402
from components.version import VERSION  # noqa: E402

NAME = "anyscale-cloud"  # the package name: type tokens are `anyscale-cloud:index:<Component>`

if __name__ == "__main__":
    # As component_provider_host does: the engine address and flags follow the folder.
    main(AnyscaleCloudProvider([AnyscaleCloud], NAME, None, VERSION), sys.argv[1:])
