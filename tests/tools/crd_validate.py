#!/usr/bin/env python3
"""Validate plan resources against the openAPIV3Schema of upstream CRDs, the way the
API server would: apply structural defaults, reject unknown fields (strict field
validation / what pruning would silently drop), check types/enums/patterns/min/max,
then evaluate every x-kubernetes-validations CEL rule with cel-python.

`${...}` placeholders (unknown before deploy) count as valid strings: pattern,
format and length checks are skipped for strings that contain one.

usage: crd_validate.py CRD.yaml[,CRD2.yaml|DIR] PLAN.json [PLAN2.json ...]
A DIR argument takes every *.yaml under it (e.g. a chart's crds/ folder).
Exit 0 when every custom object with a known CRD is valid, 1 otherwise.

The project's copy of the workplace's crd-validate tool (taken 2026-12-02), run by
tests/crds.py with the project's venv (jsonschema and PyYAML from requirements.txt,
cel-python from requirements-dev.txt).
"""

from __future__ import annotations

import copy
import functools
import json
import re
import sys

import celpy
import jsonschema
import yaml

PLACEHOLDER = re.compile(r"\$\{[^}]*\}")
PULUMI_ONLY_ANNOTATIONS = {
    "pulumi.com/waitFor",
    "pulumi.com/skipAwait",
    "pulumi.com/timeoutSeconds",
    "pulumi.com/patchForce",
}


@functools.cache
def documents(path):
    """The YAML documents of one file, parsed once (a CRD can be over a megabyte)."""
    with open(path) as f:
        # libyaml's parser where PyYAML has it: a CRD of a megabyte parses in a fraction of the time.
        return list(yaml.load_all(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))


def load_crds(paths):
    crds = {}
    for p in paths:
        for d in documents(p):
            if d and d.get("kind") == "CustomResourceDefinition":
                g = d["spec"]["group"]
                kind = d["spec"]["names"]["kind"]
                for v in d["spec"]["versions"]:
                    crds[(f"{g}/{v['name']}", kind)] = (p, v)
    return crds


def strict(schema):
    """Copy of a structural schema with additionalProperties: false wherever the API
    server would prune unknown fields."""
    s = copy.deepcopy(schema)

    def walk(n):
        if not isinstance(n, dict):
            return
        if (
            n.get("type") == "object"
            and "properties" in n
            and "additionalProperties" not in n
            and not n.get("x-kubernetes-preserve-unknown-fields")
        ):
            n["additionalProperties"] = False
        for v in (n.get("properties") or {}).values():
            walk(v)
        if isinstance(n.get("items"), dict):
            walk(n["items"])
        if isinstance(n.get("additionalProperties"), dict):
            walk(n["additionalProperties"])
        for k in ("allOf", "anyOf", "oneOf"):
            for v in n.get(k, []) or []:
                walk(v)
        if "not" in n:
            walk(n["not"])

    walk(s)
    return s


def apply_defaults(obj, schema):
    """Structural defaulting as the API server does it (defaults of absent fields)."""
    if not isinstance(schema, dict):
        return obj
    if isinstance(obj, dict):
        for k, sub in (schema.get("properties") or {}).items():
            if k not in obj and "default" in sub:
                obj[k] = copy.deepcopy(sub["default"])
            if k in obj:
                obj[k] = apply_defaults(obj[k], sub)
        ap = schema.get("additionalProperties")
        if isinstance(ap, dict):
            for k in list(obj):
                if k not in (schema.get("properties") or {}):
                    obj[k] = apply_defaults(obj[k], ap)
    elif isinstance(obj, list) and isinstance(schema.get("items"), dict):
        obj = [apply_defaults(x, schema["items"]) for x in obj]
    return obj


def schema_errors(obj, schema):
    v = jsonschema.Draft7Validator(strict(schema), format_checker=jsonschema.FormatChecker())
    out = []
    for e in sorted(v.iter_errors(obj), key=lambda e: list(e.absolute_path)):
        if (
            e.validator in ("pattern", "format", "maxLength", "minLength")
            and isinstance(e.instance, str)
            and PLACEHOLDER.search(e.instance)
        ):
            continue
        out.append(("/".join(map(str, e.absolute_path)) or "<root>", e.message[:300]))
    return out


def cel_rules(obj, schema, path="spec"):
    """Yield (path, rule, message, result) for every CEL rule, evaluated on `obj`."""
    env = celpy.Environment()
    results = []

    def walk(o, s, p):
        if not isinstance(s, dict) or o is None:
            return
        for r in s.get("x-kubernetes-validations") or []:
            rule = r["rule"]
            if "oldSelf" in rule:
                results.append((p, rule, r.get("message"), "skipped (transition rule: needs oldSelf)"))
                continue
            try:
                prg = env.program(env.compile(rule))
                res = prg.evaluate({"self": celpy.json_to_cel(o)})
                ok = bool(res)
                results.append((p, rule, r.get("message"), "pass" if ok else "FAIL"))
            except Exception as ex:
                results.append((p, rule, r.get("message"), f"could not evaluate: {type(ex).__name__}: {str(ex)[:160]}"))
        if isinstance(o, dict):
            for k, sub in (s.get("properties") or {}).items():
                if k in o:
                    walk(o[k], sub, f"{p}.{k}")
            ap = s.get("additionalProperties")
            if isinstance(ap, dict):
                for k, v in o.items():
                    if k not in (s.get("properties") or {}):
                        walk(v, ap, f"{p}[{k!r}]")
        elif isinstance(o, list) and isinstance(s.get("items"), dict):
            for i, x in enumerate(o):
                walk(x, s["items"], f"{p}[{i}]")

    walk(obj, schema, path)
    return results


DNS1123_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
DNS1123_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")


def metadata_errors(meta, namespaced):
    errs = []
    name = meta.get("name", "")
    if not DNS1123_SUBDOMAIN.match(name) or len(name) > 253:
        errs.append(("metadata/name", f"{name!r} is not a DNS-1123 subdomain"))
    ns = meta.get("namespace")
    if namespaced and not ns:
        errs.append(("metadata/namespace", "namespaced kind without namespace (provider default namespace used)"))
    if not namespaced and ns:
        errs.append(("metadata/namespace", f"cluster-scoped kind has namespace {ns!r}"))
    if ns and not DNS1123_LABEL.match(ns):
        errs.append(("metadata/namespace", f"{ns!r} is not a DNS-1123 label"))
    return errs


def crd_files(arg):
    import pathlib

    out = []
    for part in arg.split(","):
        path = pathlib.Path(part)
        out += sorted(str(f) for f in path.rglob("*.yaml")) if path.is_dir() else [part]
    return out


def main(argv):
    files = crd_files(argv[1])
    crds = load_crds(files)
    scopes = {}
    for p in files:
        for d in documents(p):
            if d and d.get("kind") == "CustomResourceDefinition":
                scopes[d["spec"]["names"]["kind"]] = d["spec"]["scope"] == "Namespaced"
    failures = 0
    for plan in argv[2:]:
        with open(plan) as f:
            data = json.load(f)
        for r in data["resources"]:
            t = r["type"]
            if not t.startswith("kubernetes:"):
                continue
            _, api, kind = t.split(":")
            if (api, kind) not in crds:
                continue
            src, ver = crds[(api, kind)]
            schema = ver["schema"]["openAPIV3Schema"]
            obj = copy.deepcopy(r["inputs"])
            # Pulumi-only: the waitFor/skipAwait annotations are read by the provider;
            # they are still sent to the cluster, and are valid annotation keys.
            obj.pop("status", None)
            head = f"{plan}: {r['name']} ({kind} {api}, schema {src} version {ver['name']}; served={ver.get('served')} storage={ver.get('storage')})"
            errs = metadata_errors(obj.get("metadata", {}), scopes.get(kind, True))
            errs += schema_errors(obj, schema)
            defaulted = apply_defaults(copy.deepcopy(obj), schema)
            cel = cel_rules(defaulted.get("spec"), schema["properties"]["spec"])
            bad = [c for c in cel if c[3] != "pass"]
            print(head)
            for p, m in errs:
                print(f"   SCHEMA  {p}: {m}")
            for p, _rule, msg, res in bad:
                print(f"   CEL     {p}: {res}: {msg!r}")
            npass = sum(1 for c in cel if c[3] == "pass")
            print(f"   -> {len(errs)} schema error(s); CEL: {npass} rule evaluations passed, {len(bad)} not passed")
            failures += len(errs) + sum(1 for c in bad if c[3] == "FAIL")
            if "--show-defaulted" in sys.argv:
                print(json.dumps(defaulted.get("spec"), indent=1))
    print(f"TOTAL violations: {failures}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main([a for a in sys.argv if a != "--show-defaulted"]))
