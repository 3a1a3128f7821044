"""A deliberately tiny FAKE Kubernetes API server (test double), loopback only.

It exists so that the real Helm v4 install action (inside libhelm_sdkpy.so)
can run end to end without a cluster.  It answers just what a non-waiting
`helm install` needs:

  * /version and legacy discovery (/api, /apis, /api/v1, /apis/G, /apis/G/V)
  * /openapi/v2 (an empty protobuf document: no schemas, so no client-side
    validation happens) ; /openapi/v3 -> 404
  * GET/LIST/WATCH/POST/PUT/PATCH/DELETE on any resource it advertises,
    backed by an in-memory dict.  Every write body is recorded.

It is NOT a Kubernetes implementation: no defaulting, no admission, no
validation, no garbage collection.  Objects POSTed are stored as-is; a Job is
stored already "Complete" and a Pod already "Succeeded" so Helm hook waits
finish immediately.  POSTed CustomResourceDefinitions are added to discovery.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

# group/version -> list of "plural:Kind:n|c"  (n = namespaced, c = cluster)
BUILTIN = {
    "v1": "bindings:Binding:n componentstatuses:ComponentStatus:c configmaps:ConfigMap:n "
    "endpoints:Endpoints:n events:Event:n limitranges:LimitRange:n namespaces:Namespace:c "
    "nodes:Node:c persistentvolumeclaims:PersistentVolumeClaim:n "
    "persistentvolumes:PersistentVolume:c pods:Pod:n podtemplates:PodTemplate:n "
    "replicationcontrollers:ReplicationController:n resourcequotas:ResourceQuota:n "
    "secrets:Secret:n serviceaccounts:ServiceAccount:n services:Service:n",
    "admissionregistration.k8s.io/v1": "mutatingwebhookconfigurations:MutatingWebhookConfiguration:c "
    "validatingwebhookconfigurations:ValidatingWebhookConfiguration:c "
    "validatingadmissionpolicies:ValidatingAdmissionPolicy:c "
    "validatingadmissionpolicybindings:ValidatingAdmissionPolicyBinding:c",
    "apiextensions.k8s.io/v1": "customresourcedefinitions:CustomResourceDefinition:c",
    "apiregistration.k8s.io/v1": "apiservices:APIService:c",
    "apps/v1": "controllerrevisions:ControllerRevision:n daemonsets:DaemonSet:n "
    "deployments:Deployment:n replicasets:ReplicaSet:n statefulsets:StatefulSet:n",
    "authentication.k8s.io/v1": "selfsubjectreviews:SelfSubjectReview:c tokenreviews:TokenReview:c",
    "authorization.k8s.io/v1": "localsubjectaccessreviews:LocalSubjectAccessReview:n "
    "selfsubjectaccessreviews:SelfSubjectAccessReview:c "
    "selfsubjectrulesreviews:SelfSubjectRulesReview:c subjectaccessreviews:SubjectAccessReview:c",
    "autoscaling/v2": "horizontalpodautoscalers:HorizontalPodAutoscaler:n",
    "autoscaling/v1": "horizontalpodautoscalers:HorizontalPodAutoscaler:n",
    "batch/v1": "cronjobs:CronJob:n jobs:Job:n",
    "certificates.k8s.io/v1": "certificatesigningrequests:CertificateSigningRequest:c",
    "coordination.k8s.io/v1": "leases:Lease:n",
    "discovery.k8s.io/v1": "endpointslices:EndpointSlice:n",
    "events.k8s.io/v1": "events:Event:n",
    "flowcontrol.apiserver.k8s.io/v1": "flowschemas:FlowSchema:c "
    "prioritylevelconfigurations:PriorityLevelConfiguration:c",
    "networking.k8s.io/v1": "ingressclasses:IngressClass:c ingresses:Ingress:n "
    "networkpolicies:NetworkPolicy:n ipaddresses:IPAddress:c servicecidrs:ServiceCIDR:c",
    "node.k8s.io/v1": "runtimeclasses:RuntimeClass:c",
    "policy/v1": "poddisruptionbudgets:PodDisruptionBudget:n",
    "rbac.authorization.k8s.io/v1": "clusterrolebindings:ClusterRoleBinding:c "
    "clusterroles:ClusterRole:c rolebindings:RoleBinding:n roles:Role:n",
    "scheduling.k8s.io/v1": "priorityclasses:PriorityClass:c",
    "storage.k8s.io/v1": "csidrivers:CSIDriver:c csinodes:CSINode:c csistoragecapacities:CSIStorageCapacity:n "
    "storageclasses:StorageClass:c volumeattachments:VolumeAttachment:c",
}

# Minimal protobuf openapi_v2.Document: swagger="2.0", info{title="Kubernetes", version="v0"}
_INFO = b"\x0a\x0aKubernetes" + b"\x12\x02v0"
OPENAPI_V2_PB = b"\x0a\x032.0" + b"\x12" + bytes([len(_INFO)]) + _INFO


def guess_plural(kind: str) -> str:
    k = kind.lower()
    if re.search(r"(s|x|z|ch|sh)$", k):
        return k + "es"
    if re.search(r"[^aeiou]y$", k):
        return k[:-1] + "ies"
    return k + "s"


class Registry:
    """Discovery data: {groupVersion: {plural: (kind, namespaced)}}"""

    def __init__(self):
        self.gv: dict[str, dict[str, tuple[str, bool]]] = {}
        for gv, spec in BUILTIN.items():
            for item in spec.split():
                plural, kind, scope = item.split(":")
                self.add(gv, plural, kind, scope == "n")

    def add(self, gv: str, plural: str, kind: str, namespaced: bool = True):
        self.gv.setdefault(gv, {})[plural] = (kind, namespaced)

    def add_group_version(self, gv: str):
        self.gv.setdefault(gv, {})

    def add_kind(self, gv: str, kind: str, namespaced: bool = True):
        res = self.gv.setdefault(gv, {})
        if not any(k == kind for k, _ in res.values()):
            res[guess_plural(kind)] = (kind, namespaced)

    def groups(self):
        out: dict[str, list[str]] = {}
        for gv in self.gv:
            if "/" in gv:
                g, v = gv.split("/", 1)
                out.setdefault(g, []).append(v)
        return out


def _status(code: int, reason: str, message: str, details=None):
    return {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Success" if code < 400 else "Failure",
        "message": message,
        "reason": reason,
        "details": details or {},
        "code": code,
    }


class FakeKube:
    def __init__(self, kube_version: str = "v1.33.0", verbose: bool = False):
        self.registry = Registry()
        self.kube_version = kube_version
        self.verbose = verbose
        self.lock = threading.RLock()
        self.reset()
        self._stop = threading.Event()
        handler = self._make_handler()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    # ---- state -------------------------------------------------------------
    def reset(self):
        with self.lock:
            self.objects: dict[tuple, dict] = {}  # (gv, plural, ns, name) -> obj
            self.writes: list[dict] = []  # every POST/PUT/PATCH/DELETE
            self.rv = 1

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self._stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def kubeconfig(self, namespace: str) -> str:
        return (
            "apiVersion: v1\nkind: Config\n"
            "clusters:\n- name: fake\n  cluster:\n    server: " + self.url + "\n"
            "contexts:\n- name: fake\n  context:\n    cluster: fake\n    user: fake\n"
            "    namespace: " + namespace + "\n"
            "current-context: fake\n"
            "users:\n- name: fake\n  user:\n    token: fake-token\n"
        )

    # ---- HTTP --------------------------------------------------------------
    def _make_handler(self):
        fk = self

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # else ~40 ms per request (Nagle + delayed ACK)

            def log_message(self, fmt, *args):
                if fk.verbose:
                    import sys

                    sys.stderr.write(f"fakekube: {time.time():.3f} " + (fmt % args) + "\n")

            def _send(self, code, body, ctype="application/json"):
                data = body if isinstance(body, bytes) else json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _body(self):
                n = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(n) if n else b""
                if not raw:
                    return None
                try:
                    return json.loads(raw)
                except ValueError:
                    return {"_raw": raw.decode("utf-8", "replace")}

            def do_GET(self):
                fk._handle(self, "GET")

            def do_POST(self):
                fk._handle(self, "POST")

            def do_PUT(self):
                fk._handle(self, "PUT")

            def do_PATCH(self):
                fk._handle(self, "PATCH")

            def do_DELETE(self):
                fk._handle(self, "DELETE")

        return H

    def _handle(self, h, method):
        u = urlsplit(h.path)
        q = {k: v[-1] for k, v in parse_qs(u.query).items()}
        parts = [p for p in u.path.split("/") if p]
        body = h._body() if method in ("POST", "PUT", "PATCH", "DELETE") else None
        with contextlib.suppress(BrokenPipeError):
            self._route(h, method, parts, q, body)

    def _route(self, h, method, parts, q, body):
        reg = self.registry
        if parts == ["version"]:
            m = re.match(r"v(\d+)\.(\d+)", self.kube_version)
            return h._send(
                200,
                {
                    "major": m.group(1),
                    "minor": m.group(2),
                    "gitVersion": self.kube_version,
                    "gitCommit": "fake",
                    "gitTreeState": "clean",
                    "buildDate": "2025-01-01T00:00:00Z",
                    "goVersion": "go1.24",
                    "compiler": "gc",
                    "platform": "linux/amd64",
                },
            )
        if parts == ["openapi", "v2"]:
            return h._send(200, OPENAPI_V2_PB, "application/com.github.proto-openapi.spec.v2.v1.0+protobuf")
        if parts == ["api"]:
            return h._send(
                200,
                {
                    "kind": "APIVersions",
                    "versions": ["v1"],
                    "serverAddressByClientCIDRs": [
                        {"clientCIDR": "0.0.0.0/0", "serverAddress": f"127.0.0.1:{self.port}"}
                    ],
                },
            )
        if parts == ["apis"]:
            groups = []
            for g, vs in reg.groups().items():
                gvs = [{"groupVersion": f"{g}/{v}", "version": v} for v in vs]
                groups.append({"name": g, "versions": gvs, "preferredVersion": gvs[0]})
            return h._send(200, {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
        if len(parts) == 2 and parts[0] == "apis":
            vs = reg.groups().get(parts[1])
            if not vs:
                return h._send(404, _status(404, "NotFound", "the server could not find the requested resource"))
            gvs = [{"groupVersion": f"{parts[1]}/{v}", "version": v} for v in vs]
            return h._send(
                200,
                {"kind": "APIGroup", "apiVersion": "v1", "name": parts[1], "versions": gvs, "preferredVersion": gvs[0]},
            )
        if len(parts) >= 2 and parts[0] == "api":
            gv, rest = parts[1], parts[2:]
        elif len(parts) >= 3 and parts[0] == "apis":
            gv, rest = parts[1] + "/" + parts[2], parts[3:]
        else:
            return h._send(404, _status(404, "NotFound", "the server could not find the requested resource"))
        if gv not in reg.gv:
            return h._send(404, _status(404, "NotFound", "the server could not find the requested resource"))
        resources = reg.gv[gv]
        if not rest:
            verbs = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"]
            return h._send(
                200,
                {
                    "kind": "APIResourceList",
                    "apiVersion": "v1",
                    "groupVersion": gv,
                    "resources": [
                        {"name": p, "singularName": k.lower(), "namespaced": n, "kind": k, "verbs": verbs}
                        for p, (k, n) in resources.items()
                    ],
                },
            )
        ns = None
        if len(rest) >= 3 and rest[0] == "namespaces":
            ns, rest = rest[1], rest[2:]
        plural, name = rest[0], (rest[1] if len(rest) > 1 else None)
        if plural not in resources:
            return h._send(404, _status(404, "NotFound", "the server could not find the requested resource"))
        kind, _namespaced = resources[plural]
        key = (gv, plural, ns or "", name)
        gr = plural + ("." + gv.split("/")[0] if "/" in gv else "")

        def not_found():
            return h._send(
                404,
                _status(
                    404,
                    "NotFound",
                    f'{gr} "{name}" not found',
                    {"name": name, "group": gv.split("/")[0] if "/" in gv else "", "kind": plural},
                ),
            )

        with self.lock:
            if method in ("POST", "PUT", "PATCH", "DELETE"):
                self.writes.append(
                    {
                        "method": method,
                        "path": h.path,
                        "groupVersion": gv,
                        "resource": plural,
                        "namespace": ns,
                        "name": name or ((body or {}).get("metadata") or {}).get("name"),
                        "body": body,
                    }
                )
            if method == "GET" and name is None:
                items = [
                    o
                    for (g2, p2, n2, _), o in self.objects.items()
                    if g2 == gv and p2 == plural and (ns is None or n2 == ns)
                ]
                if q.get("watch") in ("true", "1"):
                    return self._watch(h, gv, kind, items, q)
                return h._send(
                    200,
                    {
                        "apiVersion": gv,
                        "kind": kind + "List",
                        "metadata": {"resourceVersion": str(self.rv)},
                        "items": items,
                    },
                )
            if method == "GET":
                obj = self.objects.get(key)
                return h._send(200, obj) if obj else not_found()
            if method == "DELETE":
                obj = self.objects.pop(key, None)
                if obj is None:
                    return not_found()
                return h._send(200, _status(200, "", "", {"name": name, "kind": plural}))
            if method == "POST":
                if not isinstance(body, dict):
                    return h._send(400, _status(400, "BadRequest", "expected a JSON object body"))
                meta = body.setdefault("metadata", {})
                name = meta.get("name") or (meta.get("generateName", "obj-") + uuid.uuid4().hex[:5])
                meta["name"] = name
                key = (gv, plural, ns or "", name)
                if key in self.objects:
                    return h._send(
                        409,
                        _status(409, "AlreadyExists", f'{gr} "{name}" already exists', {"name": name, "kind": plural}),
                    )
                obj = self._store(key, json.loads(json.dumps(body)), ns)
                self._on_create(obj)
                return h._send(201, obj)
            if method in ("PUT", "PATCH"):
                cur = self.objects.get(key)
                if method == "PUT" and isinstance(body, dict):
                    obj = self._store(key, json.loads(json.dumps(body)), ns)
                    return h._send(200 if cur else 201, obj)
                if cur is None:
                    return not_found()
                if isinstance(body, dict) and "_raw" not in body:
                    _merge(cur, body)  # merge-patch style; good enough for a test double
                self.rv += 1
                cur.setdefault("metadata", {})["resourceVersion"] = str(self.rv)
                return h._send(200, cur)
        return h._send(405, _status(405, "MethodNotAllowed", "not supported by fake server"))

    def _store(self, key, obj, ns):
        self.rv += 1
        meta = obj.setdefault("metadata", {})
        if ns:
            meta["namespace"] = ns
        meta.setdefault("uid", str(uuid.uuid4()))
        meta["resourceVersion"] = str(self.rv)
        meta.setdefault("creationTimestamp", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
        meta.setdefault("generation", 1)
        self.objects[key] = obj
        return obj

    def _on_create(self, obj):
        kind = obj.get("kind")
        if kind == "Job":  # hooks: pretend the Job already ran to completion
            obj["status"] = {"succeeded": 1, "conditions": [{"type": "Complete", "status": "True"}]}
        elif kind == "Pod":
            obj["status"] = {"phase": "Succeeded"}
        elif kind == "CustomResourceDefinition":
            spec = obj.get("spec") or {}
            names = spec.get("names") or {}
            for v in spec.get("versions") or ([{"name": spec.get("version")}] if spec.get("version") else []):
                if v.get("served", True) and v.get("name"):
                    self.registry.add(
                        f"{spec.get('group')}/{v['name']}",
                        names.get("plural"),
                        names.get("kind"),
                        spec.get("scope", "Namespaced") == "Namespaced",
                    )
            obj["status"] = {
                "conditions": [{"type": "Established", "status": "True"}, {"type": "NamesAccepted", "status": "True"}],
                "acceptedNames": names,
            }

    def _watch(self, h, gv, kind, items, q):
        """Stream a watch: initial ADDED events (+ the initial-events-end bookmark
        when sendInitialEvents=true), then stay quiet until timeout."""
        h.send_response(200)
        h.send_header("Content-Type", "application/json")
        h.send_header("Transfer-Encoding", "chunked")
        h.end_headers()

        def chunk(ev):
            data = json.dumps(ev).encode() + b"\n"
            h.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            h.wfile.flush()

        rv = str(self.rv)
        self.lock.release()  # do not hold the lock while streaming
        try:
            if q.get("sendInitialEvents") == "true":
                for o in items:
                    chunk({"type": "ADDED", "object": o})
                chunk(
                    {
                        "type": "BOOKMARK",
                        "object": {
                            "apiVersion": gv,
                            "kind": kind,
                            "metadata": {"resourceVersion": rv, "annotations": {"k8s.io/initial-events-end": "true"}},
                        },
                    }
                )
            deadline = time.time() + min(float(q.get("timeoutSeconds") or 30), 30)
            while time.time() < deadline and not self._stop.is_set():
                time.sleep(0.2)
            h.wfile.write(b"0\r\n\r\n")
            h.close_connection = True
        except (BrokenPipeError, ConnectionResetError):
            h.close_connection = True
        finally:
            self.lock.acquire()


def _merge(dst, patch):
    for k, v in patch.items():
        if v is None:
            dst.pop(k, None)
        elif isinstance(v, dict) and isinstance(dst.get(k), dict):
            _merge(dst[k], v)
        else:
            dst[k] = v
