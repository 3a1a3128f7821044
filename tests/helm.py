"""Render the plan's Helm releases with the real charts (tests/charts, tests/tools/helm_render).

The plan holds values as the program sends them, with placeholders where only the cloud
knows the value: `${name.prop}` (placeholder mode) or `<unknown>` (first-preview mode),
and `[secret]` for secrets. `fill` swaps each for a realistic stand-in that is a pure
function of the placeholder, so a test can compute what a given output must render as.
`render` runs tests/tools/helm_render (Helm v4.3.0, the Go library of the hash-pinned
helm-sdkpy wheel that `make helm` unpacks into .helm/, loaded through cffi) with this venv's
Python on the project's copy of the chart at the pinned version (tests/charts), and caches
the result on disk, shared by the xdist workers of one session.
"""

from __future__ import annotations

import atexit
import fcntl
import hashlib
import json
import os
import re
import select
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHARTS = ROOT / "tests" / "charts"
RENDER = ROOT / "tests" / "tools" / "helm_render" / "render.py"
LIBRARY = Path(
    os.environ.get("HELM_SDKPY_LIB") or ROOT / ".helm" / "helm_sdkpy" / "_lib" / "linux-amd64" / "libhelm_sdkpy.so"
)

RELEASE = "kubernetes:helm.sh/v3:Release"
EXTENSION = "azure-native:kubernetesconfiguration:Extension"
PLACEHOLDER = re.compile(r"\$\{([^}]+)\}")
UNKNOWN = "<unknown>"
SECRET = "[secret]"


class RenderError(Exception):
    """Helm refused the chart with these values (its own message)."""


def unavailable() -> str | None:
    """Why charts cannot be rendered here, or None when they can (the tests that render fail
    with this, they do not skip: `make test` installs everything they need)."""
    if not LIBRARY.is_file():
        return f"the Helm library {LIBRARY} is absent: run `make helm` (`make test` does)"
    try:
        import cffi  # noqa: F401
    except ImportError:
        return "cffi is not in this venv: run `make dev` (requirements-dev.txt; `make test` does)"
    return None


def chart_dir(chart: str, version: str) -> Path | None:
    """The project's copy of `chart` (a name, repo chart or oci:// reference) at `version`."""
    path = CHARTS / f"{chart.rstrip('/').rsplit('/', 1)[-1]}-{version}"
    return path if path.is_dir() else None


# --- stand-ins ------------------------------------------------------------------------


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def standin(placeholder: str, key: str = "", provider: str = "") -> str:
    """A realistic value for one placeholder. `${x.prop}` is decided by its property;
    `<unknown>` (no name to go on) by the values key it sits under and the provider."""
    match = PLACEHOLDER.fullmatch(placeholder)
    prop = match.group(1).rsplit(".", 1)[-1] if match else ""
    if match and prop.startswith("addresses[0]"):  # `...status.addresses[0].value`
        prop = "value"
    h = _digest(placeholder)
    kind = {
        "cloudResourceId": "cldrsrc",
        "clientId": "guid",
        "principalId": "guid",
        "tenantId": "guid",
        "arn": "arn",
        "email": "email",
        "result": "suffix",
    }.get(prop)
    if kind is None:  # `<unknown>`, or a property decided by where it is used
        if key.endswith("cloudDeploymentId"):
            kind = "cldrsrc"
        elif key.endswith("hostname"):
            kind = "hostname"
        elif key.endswith(".ip") or prop == "value":
            kind = "ip"
        elif key.endswith(("iamIdentity", "role-arn", "client-id", "gcp-service-account")):
            kind = {"azure": "guid", "aws": "arn", "gcp": "email"}.get(provider, "guid")
        elif key.endswith("anyscaleCliToken"):
            kind = "token"
        else:
            kind = "name"
    if kind == "cldrsrc":
        return f"cldrsrc_{h[:26]}"
    if kind == "guid":
        return str(uuid.UUID(h[:32], version=4))
    if kind == "arn":
        return f"arn:aws:iam::123456789012:role/standin-{h[:12]}"
    if kind == "email":
        return f"standin-{h[:12]}@my-gcp-project.iam.gserviceaccount.com"
    if kind == "hostname":
        return f"k8s-envoygat-{h[:10]}.elb.us-west-2.amazonaws.com"
    if kind == "ip":
        return "20.{}.{}.{}".format(*(int(h[i : i + 2], 16) for i in (0, 2, 4)))
    if kind == "token":
        return f"aph0_standin{h[:24]}"
    if kind == "suffix":
        return h[:6]
    return f"standin-{h[:8]}"


def fill(value: Any, provider: str = "", key: str = "") -> Any:
    """A values tree with every placeholder, `<unknown>` and `[secret]` replaced."""
    if isinstance(value, dict):
        return {k: fill(v, provider, f"{key}.{k}" if key else k) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v, provider, key) for v in value]
    if value in (UNKNOWN, SECRET) or (isinstance(value, str) and PLACEHOLDER.fullmatch(value)):
        return standin(value, key, provider)
    if isinstance(value, str) and "${" in value:  # embedded: `as...${x.result}.blob...`
        return PLACEHOLDER.sub(lambda m: standin(m.group(0), key, provider), value)
    return value


def set_value(text: Any) -> Any:
    """One `--set` value as Helm types it (extension settings are strings)."""
    if not isinstance(text, str):
        return text
    if text in ("true", "false"):
        return text == "true"
    if text == "null":
        return None
    if re.fullmatch(r"-?(0|[1-9][0-9]*)", text):
        return int(text)
    return text


def set_path(dotted: str) -> list[str | int]:
    """A `--set` key's parts as Helm reads them: `\\.` is a dot inside a key, `[i]` a list index."""
    parts: list[str | int] = []
    for raw in re.split(r"(?<!\\)\.", dotted):
        match = re.fullmatch(r"(.*?)((?:\[[0-9]+\])*)", raw)
        assert match is not None
        parts.append(match.group(1).replace("\\.", "."))
        parts += [int(i) for i in re.findall(r"\[([0-9]+)\]", match.group(2))]
    return parts


def nest_settings(flat: dict[str, Any]) -> dict[str, Any]:
    """Flat extension settings (`--set` keys) -> nested Helm values, typed as `--set` does."""
    tree: dict[Any, Any] = {}
    for key, value in flat.items():
        *parents, leaf = set_path(key)
        node = tree
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = set_value(value)
    return as_lists(tree)


def as_lists(node: Any) -> Any:
    """Maps keyed by list indexes only -> lists (missing indexes are null, as in Helm)."""
    if not isinstance(node, dict):
        return node
    items = {k: as_lists(v) for k, v in node.items()}
    if items and all(isinstance(k, int) for k in items):
        return [items.get(i) for i in range(max(items) + 1)]
    return items


# --- rendering ------------------------------------------------------------------------


class _Server:
    """One `render.py --serve` process per test process, started on first use: the Go library
    and the interpreter load once instead of once per render (each render still starts from
    the fake API server's built-in discovery). Restarted if it dies; a render that takes longer
    than RENDER_TIMEOUT_S kills it (the one-shot tool had the same limit). Its stderr (Helm's
    own messages) goes to a file whose tail a failure shows."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None
        self.log: Any = None

    def _start(self) -> subprocess.Popen[str]:
        self.log = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115  (open as long as the server runs)
        proc = subprocess.Popen(
            [sys.executable, str(RENDER), "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
        )
        atexit.register(proc.kill)
        return proc

    def _stderr_tail(self) -> str:
        if self.log is None:
            return ""
        self.log.seek(0)
        return str(self.log.read())[-2000:]

    def render(self, request: dict[str, Any]) -> dict[str, Any]:
        for _attempt in range(2):
            if self.proc is None or self.proc.poll() is not None:
                self.proc = self._start()
            assert self.proc.stdin is not None and self.proc.stdout is not None
            line = ""
            try:
                self.proc.stdin.write(json.dumps(request) + "\n")
                self.proc.stdin.flush()
                ready, _, _ = select.select([self.proc.stdout], [], [], RENDER_TIMEOUT_S)
                line = self.proc.stdout.readline() if ready else ""
            except BrokenPipeError:
                pass
            if line:
                answer: dict[str, Any] = json.loads(line)
                return answer
            self.proc.kill()  # it died or hung mid-render: once more in a new one
            self.proc.wait()
            self.proc = None
        raise RuntimeError(
            f"{RENDER} --serve failed twice rendering {request['chart']} (died, or over {RENDER_TIMEOUT_S} s); "
            f"its stderr ends:\n{self._stderr_tail()}"
        )


RENDER_TIMEOUT_S = 300
_SERVER = _Server()


def render(chart: Path, values: dict[str, Any], namespace: str, release: str, cache: Path) -> list[dict[str, Any]]:
    """The objects Helm renders (hooks included); RenderError on a template failure.
    Cached in `cache` by (chart, values, namespace, release), locked per key so that
    parallel workers render each combination once."""
    text = json.dumps(values, sort_keys=True)
    key = _digest(f"{chart}\n{namespace}\n{release}\n{text}")[:24]
    if (why := unavailable()) is not None:
        raise RuntimeError(why)
    cache.mkdir(parents=True, exist_ok=True)
    done, failed = cache / f"{key}.json", cache / f"{key}.err"
    with open(cache / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists() and not failed.exists():
            for _attempt in range(3):
                answer = _SERVER.render(
                    {"chart": str(chart), "values": values, "namespace": namespace, "release": release}
                )
                # The render talks to a loopback fake API server (tools/helm_render/fakekube.py);
                # on a loaded machine a connection of it is now and then reset mid-install. That
                # is the transport, not the chart: the same render runs again (a template error
                # fails the same way every time, and is reported).
                if "error" not in answer or "connection reset by peer" not in answer["error"]:
                    break
            if "error" in answer:
                failed.write_text(f"exit 1: {answer['error']}")
            else:
                done.write_text(json.dumps(answer["objects"]))
    if failed.exists():
        raise RenderError(f"{chart.name} ({release} in {namespace}): {failed.read_text()}")
    return json.loads(done.read_text())
