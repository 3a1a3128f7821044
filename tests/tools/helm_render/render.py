#!/usr/bin/env python3
"""Render a Helm chart OFFLINE with the real Helm v4 engine.

    python render.py CHART_DIR VALUES_JSON [--namespace NS] [--release NAME]
                     [--kube-version v1.33.0] [--api-versions G/V[/Kind] ...]
                     [--include-crds] [--output json|yaml|posted] [--strict-kinds]

VALUES_JSON is a JSON object literal, '-' (stdin), or a path to a JSON/YAML file.

How: libhelm_sdkpy.so (PyPI helm-sdkpy 0.1.32, Helm v4.3.0 compiled as a Go
c-shared library; `make helm` unpacks the hash-pinned wheel of requirements-helm.txt into
.helm/) is called through cffi (requirements-dev.txt).  Its install action has no dry-run
option, so it runs a real, non-waiting `helm install` against fakekube.py, a
loopback-only fake API server, with HELM_DRIVER=memory (release kept in
memory, nothing written anywhere).  The rendered manifest and hooks are read
from the release JSON the install returns.

Exit status: 0 ok; 1 Helm error (Helm's own message on stderr); 2 usage/setup.

The project's copy of the workplace's helm-render tool (render.py and fakekube.py, taken
2026-12-02), run by tests/helm.py with the project's own venv and Helm library.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

# `make helm` unpacks the wheel into .helm/ at the repository root (HELM_SDKPY_LIB overrides).
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
DEFAULT_LIB = os.environ.get("HELM_SDKPY_LIB") or os.path.join(
    ROOT, ".helm", "helm_sdkpy", "_lib", "linux-amd64", "libhelm_sdkpy.so"
)

CDEF = """
typedef unsigned long long helm_sdkpy_handle;
int helm_sdkpy_config_create(const char *namespace, const char *kubeconfig, const char *kubecontext,
                             const char *options_json, helm_sdkpy_handle *handle_out);
void helm_sdkpy_config_destroy(helm_sdkpy_handle handle);
int helm_sdkpy_install(helm_sdkpy_handle handle, const char *release_name, const char *chart_path,
                       const char *values_json, const char *version, const char *options_json,
                       char **result_json);
const char *helm_sdkpy_last_error(void);
void helm_sdkpy_free(void *ptr);
const char *helm_sdkpy_version_string(void);
"""

NO_MATCH = re.compile(r'no matches for kind \\?"([^"\\]+)\\?" in version \\?"([^"\\]+)\\?"')


class HelmFailure(Exception):
    pass


def isolated_env(tmp: str) -> dict:
    """Environment for the Go library.  It must be in place when the PROCESS
    starts: Go's c-shared runtime reads the initial environment block, so
    os.environ changes made later in Python are invisible to it (checked:
    HELM_DRIVER set via os.environ was ignored).  main() therefore re-execs."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HELM_", "KUBE"))}
    env.update(
        {
            "HELM_DRIVER": "memory",  # release records in memory, not Secrets
            "HOME": tmp,
            "HELM_CACHE_HOME": os.path.join(tmp, "cache"),
            "HELM_CONFIG_HOME": os.path.join(tmp, "config"),
            "HELM_DATA_HOME": os.path.join(tmp, "data"),
            "KUBECONFIG": os.path.join(tmp, "no-kubeconfig"),
            "NO_PROXY": "127.0.0.1,localhost",
            "no_proxy": "127.0.0.1,localhost",
            "HELMRENDER_TMP": tmp,
        }
    )
    return env


def load_values(arg: str) -> dict:
    if arg == "-":
        text = sys.stdin.read()
    elif arg.lstrip().startswith("{"):
        text = arg
    else:
        with open(arg) as f:
            text = f.read()
    try:
        vals = json.loads(text)
    except ValueError:
        import yaml

        vals = yaml.safe_load(text)
    if vals is None:
        vals = {}
    if not isinstance(vals, dict):
        raise SystemExit("render.py: values must be a JSON/YAML object")
    return vals


def _go_like_loader():
    """PyYAML SafeLoader tuned toward Go's sigs.k8s.io/yaml: no timestamps, no
    sexagesimal numbers (they stay strings). libyaml's parser where PyYAML has it (the
    resolvers below are Python either way): a large chart's manifest parses in a fifth of
    the time."""
    import yaml

    class L(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
        pass

    L.yaml_implicit_resolvers = {
        ch: [(tag, rx) for tag, rx in lst if tag != "tag:yaml.org,2002:timestamp"]
        for ch, lst in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    int_rx = re.compile(r"^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+)$")
    float_rx = re.compile(
        r"^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
    )
    for ch in list(L.yaml_implicit_resolvers):
        L.yaml_implicit_resolvers[ch] = [
            (tag, int_rx if tag == "tag:yaml.org,2002:int" else float_rx if tag == "tag:yaml.org,2002:float" else rx)
            for tag, rx in L.yaml_implicit_resolvers[ch]
        ]
    return L


def split_docs(manifest: str) -> list[dict]:
    import yaml

    loader = _go_like_loader()
    out = []
    for doc in yaml.load_all(manifest, Loader=loader):
        if isinstance(doc, dict) and doc:
            out.append(doc)
    return out


class Renderer:
    def __init__(
        self, lib_path: str = DEFAULT_LIB, kube_version: str = "v1.33.0", api_versions=(), verbose: bool = False
    ):
        if os.environ.get("HELM_DRIVER") != "memory":
            print(
                "render.py: warning: HELM_DRIVER=memory was not set at process start; "
                "Helm will keep its release record as a Secret in the fake API",
                file=sys.stderr,
            )
        import cffi
        from fakekube import FakeKube

        self.ffi = cffi.FFI()
        self.ffi.cdef(CDEF)
        if not os.path.exists(lib_path):
            raise SystemExit(f"render.py: {lib_path} missing; run `make helm`")
        self.lib = self.ffi.dlopen(lib_path)
        ver = self.ffi.string(self.lib.helm_sdkpy_version_string()).decode()
        if ver != "helm-sdkpy-v0.1.32":  # the C signatures above changed between releases
            print(f"render.py: warning: built for helm-sdkpy-v0.1.32, found {ver}", file=sys.stderr)
        self.fake = FakeKube(kube_version=kube_version, verbose=verbose).start()
        for av in api_versions:  # like `helm template --api-versions`
            bits = av.split("/")
            if len(bits) == 3:
                self.fake.registry.add_kind(bits[0] + "/" + bits[1], bits[2])
            elif len(bits) == 2:
                self.fake.registry.add_group_version(av)
            else:
                raise SystemExit(f"render.py: bad --api-versions {av!r} (want group/version[/Kind])")

    def _err(self) -> str:
        p = self.lib.helm_sdkpy_last_error()
        return self.ffi.string(p).decode() if p != self.ffi.NULL else "unknown error"

    def install_once(self, chart: str, values: dict, namespace: str, release: str, timeout: int) -> dict:
        ffi, lib = self.ffi, self.lib
        self.fake.reset()
        h = ffi.new("helm_sdkpy_handle *")
        rc = lib.helm_sdkpy_config_create(
            namespace.encode(), self.fake.kubeconfig(namespace).encode(), ffi.NULL, b"{}", h
        )
        if rc != 0:
            raise HelmFailure(self._err())
        opts = {
            "create_namespace": False,
            "wait": False,
            "timeout_seconds": timeout,
            "wait_for_jobs": False,
            "server_side_apply": "false",
            "force_conflicts": False,
            "disable_openapi_validation": True,
            "skip_schema_validation": False,
            "rollback_on_failure": False,
            "take_ownership": False,
        }
        out = ffi.new("char **")
        try:
            rc = lib.helm_sdkpy_install(
                h[0],
                release.encode(),
                os.path.abspath(chart).encode(),
                json.dumps(values).encode() if values else b"",
                b"",
                json.dumps(opts).encode(),
                out,
            )
            if rc != 0:
                raise HelmFailure(self._err())
            try:
                return json.loads(ffi.string(out[0]).decode())
            finally:
                lib.helm_sdkpy_free(out[0])
        finally:
            lib.helm_sdkpy_config_destroy(h[0])

    def render(
        self, chart, values, namespace="default", release="release-name", timeout=60, strict_kinds=False, max_retries=5
    ):
        """Returns (release_json, notes). Unknown kinds the chart renders are added
        to fake discovery (as if their CRDs were installed) and the render retried."""
        notes = []
        for _ in range(max_retries + 1):
            try:
                return self.install_once(chart, values, namespace, release, timeout), notes
            except HelmFailure as e:
                missing = sorted(set(NO_MATCH.findall(str(e))))
                if strict_kinds or not missing:
                    raise
                for kind, gv in missing:
                    self.fake.registry.add_kind(gv, kind)
                    notes.append(f"{gv}/{kind} not served by fake API; added to discovery and re-rendered")
        raise HelmFailure("gave up after adding missing kinds: " + "; ".join(notes))


def chart_crds_of(r: Renderer, manifest_objs: list) -> list:
    """The CRDs Helm installed from the chart's crds/ folder (not those its templates render)."""
    crd_writes = [w for w in r.fake.writes if w["method"] == "POST" and w["resource"] == "customresourcedefinitions"]
    template_crd_names = {
        d.get("metadata", {}).get("name") for d in manifest_objs if d.get("kind") == "CustomResourceDefinition"
    }
    return [w["body"] for w in crd_writes if (w["body"].get("metadata") or {}).get("name") not in template_crd_names]


def objects_of(r: Renderer, rel: dict, include_crds: bool, no_hooks: bool) -> list:
    """The rendered objects, as `--output json` prints them."""
    manifest_objs = split_docs(rel.get("manifest") or "")  # parsed once: a large chart's takes seconds
    objs = (chart_crds_of(r, manifest_objs) if include_crds else []) + manifest_objs
    for hk in [] if no_hooks else (rel.get("hooks") or []):
        objs += split_docs(hk.get("manifest") or "")
    return objs


def serve(lib: str, kube_version: str) -> int:
    """`--serve`: render one request per line of stdin ({"chart", "values", "namespace",
    "release"}), answering one line of JSON each on stdout: {"objects": [...]} as `--output
    json` prints them, or {"error": Helm's message}. The Go library is loaded once for all of
    them; each render starts from the fake API server's built-in discovery, so nothing one
    render added (a kind, a CRD) is seen by the next: a chart's `.Capabilities` checks answer
    as in a process of its own."""
    from fakekube import Registry

    r = Renderer(lib, kube_version)
    for line in sys.stdin:
        request = json.loads(line)
        with r.fake.lock:
            r.fake.registry = Registry()
        try:
            rel, _notes = r.render(request["chart"], request["values"], request["namespace"], request["release"])
            answer = {"objects": objects_of(r, rel, False, False)}
        except HelmFailure as e:
            answer = {"error": f"Error: {e}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("chart", nargs="?")
    ap.add_argument("values", nargs="?", default="{}")
    ap.add_argument("--serve", action="store_true", help="render requests read from stdin, one per line (see serve)")
    ap.add_argument("--namespace", "-n", default="default")
    ap.add_argument("--release", default="release-name")
    ap.add_argument("--kube-version", default="v1.33.0")
    ap.add_argument(
        "--api-versions",
        "-a",
        action="append",
        default=[],
        help="extra API group/version (or group/version/Kind) to advertise",
    )
    ap.add_argument("--include-crds", action="store_true", help="also emit the chart's crds/ objects")
    ap.add_argument("--no-hooks", action="store_true", help="omit hook objects from the output")
    ap.add_argument(
        "--output",
        "-o",
        choices=["json", "yaml", "posted"],
        default="json",
        help="json: list of objects (default); yaml: manifest text like `helm template`; "
        "posted: exact bodies Helm sent to the API (incl. Helm ownership metadata)",
    )
    ap.add_argument(
        "--strict-kinds",
        action="store_true",
        help="fail (like a real cluster without the CRD) instead of auto-adding unknown kinds",
    )
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--lib", default=DEFAULT_LIB)
    ap.add_argument("--verbose", "-v", action="store_true")
    a = ap.parse_args(argv)
    if os.environ.get("HELMRENDER_TMP") is None:  # re-exec with the isolated env (see isolated_env)
        env = isolated_env(tempfile.mkdtemp(prefix="helmrender-"))
        env["HELM_SDKPY_LIB"] = a.lib  # the isolated HOME must not move the library
        os.execve(sys.executable, [sys.executable, os.path.abspath(__file__)] + sys.argv[1:], env)
    import atexit
    import shutil

    atexit.register(shutil.rmtree, os.environ["HELMRENDER_TMP"], True)

    if a.serve:
        return serve(a.lib, a.kube_version)
    if a.chart is None:
        ap.error("a chart is needed (or --serve)")
    if not os.path.isdir(a.chart) and not os.path.isfile(a.chart):
        print(f"render.py: chart {a.chart!r} not found", file=sys.stderr)
        return 2
    values = load_values(a.values)
    t0 = time.time()
    r = Renderer(a.lib, a.kube_version, a.api_versions, a.verbose)
    try:
        rel, notes = r.render(a.chart, values, a.namespace, a.release, a.timeout, a.strict_kinds)
    except HelmFailure as e:
        print(f"Error: {e}", file=sys.stderr)
        return 1
    for n in notes:
        print("render.py: note: " + n, file=sys.stderr)

    manifest = rel.get("manifest") or ""
    hooks = [] if a.no_hooks else (rel.get("hooks") or [])
    if a.output == "posted":
        print(json.dumps([{k: w[k] for k in ("method", "path", "body")} for w in r.fake.writes], indent=2))
    elif a.output == "yaml":
        import yaml

        parts = []
        if a.include_crds:
            parts += [
                "# Source: crds (chart crds/ directory)\n" + yaml.safe_dump(c, sort_keys=False)
                for c in chart_crds_of(r, split_docs(manifest))
            ]
        parts.append(manifest.strip("\n"))
        for hk in hooks:
            parts.append(f"# Source: {hk.get('path')}\n" + (hk.get("manifest") or "").strip("\n"))
        print("\n".join(p if p.lstrip().startswith("---") else "---\n" + p for p in parts if p.strip()))
    else:
        print(json.dumps(objects_of(r, rel, a.include_crds, a.no_hooks), indent=2))
    print(
        f"render.py: rendered in {time.time() - t0:.2f}s (release status: {(rel.get('info') or {}).get('status')})",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
