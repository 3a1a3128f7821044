"""GKE: clusters off the project's `default` VPC, nodes off the Compute Engine default
service account, and GCS CORS rules that allow every request header. Pure checks over
plan properties."""

from __future__ import annotations

import re
from typing import Any

from rules.plan_records import GKE_CLUSTER, NODE_POOL
from rules.values import MISSING, UNKNOWN, elements, get, in_passing, is_unknown, strings, type_is

# `default`, or its path / self link (.../projects/<p>/global/networks/default).
DEFAULT_NETWORK_RE = re.compile(r"^(.*/)?networks/default$|^default$")
# <project-number>-compute@developer.gserviceaccount.com, or `default` (the same account).
DEFAULT_ACCOUNT_RE = re.compile(r"^[0-9]+-compute@developer\.gserviceaccount\.com$|^default$")


def default_network_problems(props: Any) -> list[str]:
    network = get(props, "network")
    if network is UNKNOWN or is_unknown(network):
        return []
    if network is MISSING or (isinstance(network, str) and DEFAULT_NETWORK_RE.fullmatch(network)):
        return [
            "runs on the project's `default` VPC: it may be absent (organisation policy "
            "compute.skipDefaultNetworkCreation) and its firewall rules open SSH and RDP to the internet; leave "
            "cluster.network unset (the program creates a VPC) or name a network of your own"
        ]
    return []


def _account_problem(where: str, node_config: Any) -> list[str]:
    account = get(node_config, "serviceAccount") if node_config not in (MISSING, UNKNOWN) else node_config
    if account is UNKNOWN or is_unknown(account):
        return []
    # An empty or non-string account is no account: GKE runs the nodes as the default one.
    no_account = account is MISSING or not isinstance(account, str) or not account.strip()
    if no_account or DEFAULT_ACCOUNT_RE.fullmatch(account):
        return [
            f"{where} run as the Compute Engine default service account (Editor on the project in many projects): "
            "a compromised node gets all of it; give nodeConfig.serviceAccount a service account of their own"
        ]
    return []


def node_account_problems(resource_type: str, props: Any) -> list[str]:
    if type_is(resource_type, NODE_POOL):
        return _account_problem("the pool's nodes", get(props, "nodeConfig"))
    if not type_is(resource_type, GKE_CLUSTER):
        return []
    problems = []
    # The default pool exists (briefly, with removeDefaultNodePool) with nodeConfig's account;
    # a removed one's short life as the default account is accepted. A null
    # removeDefaultNodePool is not known yet: no finding from it.
    node_config = get(props, "nodeConfig")
    if node_config is not MISSING:
        problems += _account_problem("the default pool's nodes", node_config)
    else:
        remove = get(props, "removeDefaultNodePool")
        if not (remove is True or remove is None or remove is UNKNOWN or is_unknown(remove)):
            problems += _account_problem("the default pool's nodes", MISSING)
    for pool in elements(get(props, "nodePools")):
        problems += _account_problem(
            "the inline pool's nodes", get(pool, "nodeConfig") if pool is not UNKNOWN else UNKNOWN
        )
    return problems


def gcs_cors_header_problems(props: Any) -> list[str]:
    """GCS's `responseHeader` is the Access-Control-Allow-Headers of a preflight too."""
    problems = []
    for rule in elements(get(props, "cors")):
        if rule is UNKNOWN:
            continue
        headers = strings(get(rule, "responseHeaders"))
        if headers is UNKNOWN or UNKNOWN in headers or "*" in headers:
            continue
        with in_passing():  # only words the message
            origins = strings(get(rule, "origins"))
        shown = ", ".join(o for o in origins if isinstance(o, str)) if origins is not UNKNOWN else "?"
        problems.append(
            f"the CORS rule for {shown} lists responseHeaders {headers}: on GCS this list is also the request "
            "headers a preflight may ask for, so the console's PUT (Content-Type) and ranged reads (Range) fail "
            "their preflight; set responseHeaders to ['*']"
        )
    return problems
