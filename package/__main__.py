"""The anyscale-cloud component package: hosts `AnyscaleCloud` for Pulumi programs in any
language (docs/component.md).

The language host runs `python <this folder> <engine address>` in the folder's virtualenv.
The component's code is the repository's `components/` and `spec/` (a `github.com/...`
package source is the whole repository at a tag), so the repository root goes on the path
from this file's own location: nothing depends on the caller's PYTHONPATH or directory.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pulumi.provider.experimental import component_provider_host  # noqa: E402

from components.cloud import AnyscaleCloud  # noqa: E402
from components.version import VERSION  # noqa: E402

NAME = "anyscale-cloud"  # the package name: type tokens are `anyscale-cloud:index:<Component>`

if __name__ == "__main__":
    component_provider_host([AnyscaleCloud], name=NAME, version=VERSION)
