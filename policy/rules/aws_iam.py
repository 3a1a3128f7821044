"""AWS: bucket policies that make a bucket public, IAM policies broader than the job, and
IRSA trust policies anyone could assume (platform.md 2, 3)."""

from __future__ import annotations

import re
from typing import Any

from rules.documents import actions, allows, document, listed, public_principal, statements
from rules.values import MISSING, UNKNOWN, elements, get, in_passing, is_map, is_unknown, sample, type_is, unchecked

ROLE = "aws:iam/role:Role"
# Resources whose `policy` input is a permissions policy document.
POLICY_DOCUMENTS = (
    "aws:iam/policy:Policy",
    "aws:iam/rolePolicy:RolePolicy",
    "aws:iam/userPolicy:UserPolicy",
    "aws:iam/groupPolicy:GroupPolicy",
)
# Resources whose `policyArn` attaches a managed policy.
ATTACHMENTS = (
    "aws:iam/rolePolicyAttachment:RolePolicyAttachment",
    "aws:iam/policyAttachment:PolicyAttachment",
    "aws:iam/userPolicyAttachment:UserPolicyAttachment",
    "aws:iam/groupPolicyAttachment:GroupPolicyAttachment",
)
# AWS managed policies that grant everything, or the right to grant anything.
BROAD_MANAGED = re.compile(r"arn:aws[a-z-]*:iam::aws:policy/(AdministratorAccess|PowerUserAccess|IAMFullAccess)")
WILDCARD_ACTION = re.compile(r"\*|[A-Za-z0-9-]+:\*")
WEB_IDENTITY = "sts:assumerolewithwebidentity"


# --- bucket policies -------------------------------------------------------------------------


def bucket_policy_problems(props: Any) -> list[str]:
    """A BucketPolicy's (or a bucket's inline) `policy`: no statement lets anyone in."""
    doc = document(props, "policy")
    if doc in (UNKNOWN, MISSING):
        return []
    if doc is None:
        return [
            "the bucket policy is not a JSON policy document: it cannot be checked; pass json.dumps of the document"
        ]
    problems = []
    for statement in statements(doc):
        # NotPrincipal with Allow: everyone but those listed, as public as Principal "*".
        everyone = public_principal(statement.get("Principal")) or "NotPrincipal" in statement
        if allows(statement) and everyone and not statement.get("Condition"):
            problems.append(
                f"the bucket policy allows {_what(statement)} to everyone (Principal '*', no Condition): the bucket holds "
                "users' logs and snapshots; grant the operator's role instead"
            )
    return problems + wildcard_problems(doc, "the bucket policy")


# --- permissions policies -----------------------------------------------------------------------


def wildcard_problems(doc: Any, what: str) -> list[str]:
    broad = sorted({a for s in statements(doc) if allows(s) for a in actions(s) if WILDCARD_ACTION.fullmatch(a)})
    problems = []
    if broad:
        problems.append(
            f"{what} allows {', '.join(repr(a) for a in broad)}: every action of the service (or of AWS); list the "
            "actions the job needs (the operator's S3 policy lists ten)"
        )
    # An Allow with NotAction grants every action but those listed, and with NotResource
    # every resource but those listed: broader than any wildcard a reviewer would spot.
    for statement in statements(doc):
        if not allows(statement):
            continue
        for key, grant in (("NotAction", "every action of AWS"), ("NotResource", "every resource of the account")):
            if key in statement:
                but = ", ".join(repr(v) for v in listed(statement[key]) if isinstance(v, str)) or "nothing"
                problems.append(
                    f"{what} has an Allow statement with {key}: it grants {grant} but {but}; list what it needs "
                    f"under {key.removeprefix('Not')} instead"
                )
    return problems


def permissions_problems(resource_type: str, props: Any) -> list[str]:
    if type_is(resource_type, *POLICY_DOCUMENTS):
        doc = document(props, "policy")
        return wildcard_problems(doc, "the policy") if doc not in (UNKNOWN, MISSING, None) else []
    if type_is(resource_type, *ATTACHMENTS):
        return managed_policy_problems([get(props, "policyArn")])
    if type_is(resource_type, ROLE):
        problems = managed_policy_problems(elements(get(props, "managedPolicyArns")))
        for inline in elements(get(props, "inlinePolicies")):
            doc = document(inline, "policy")
            if doc not in (UNKNOWN, MISSING, None):
                with in_passing():  # only words the message
                    name = get(inline, "name")
                problems += wildcard_problems(doc, f"inline policy {name!r}")
        return problems
    return []


def managed_policy_problems(arns: list[Any]) -> list[str]:
    broad = [a for a in arns if isinstance(a, str) and BROAD_MANAGED.fullmatch(sample(a))]
    if not broad:
        return []
    return [
        f"attaches {', '.join(broad)}: full control of the account (or of IAM) for a workload identity; attach a policy "
        "with the actions it needs"
    ]


# --- trust policies (IRSA) ---------------------------------------------------------------------


def trust_problems(props: Any) -> list[str]:
    """Who may assume the role: never everyone; through the cluster's OIDC provider only
    one service account (a `:sub` condition)."""
    doc = document(props, "assumeRolePolicy")
    if doc in (UNKNOWN, MISSING):
        return []
    if doc is None:
        return ["assumeRolePolicy is not a JSON policy document: it cannot be checked; pass json.dumps of the document"]
    problems = []
    for statement in statements(doc):
        if not allows(statement):
            continue
        if public_principal(statement.get("Principal")):
            problems.append(
                "the trust policy lets any principal ('*') assume the role: name the cluster's OIDC provider "
                "(Federated) or the AWS service"
            )
        elif WEB_IDENTITY in {a.lower() for a in actions(statement)}:
            problems += _subject_problems(props, statement.get("Condition"))
    return problems


def _subject_problems(props: Any, condition: Any) -> list[str]:
    subjects = [
        value
        for test in (condition.values() if is_map(condition) else [])
        if is_map(test)
        for key, values in test.items()
        if isinstance(key, str) and key.endswith(":sub")
        for value in listed(values)
    ]
    if not subjects:
        return [
            "the web-identity trust has no ':sub' condition: every service account of the cluster (any pod) can assume "
            "the role; add StringEquals <issuer>:sub = system:serviceaccount:anyscale-operator:anyscale-operator"
        ]
    wild = [s for s in subjects if isinstance(s, str) and not is_unknown(s) and "*" in sample(s)]
    if not wild and any(is_unknown(s) for s in subjects):
        unchecked(props, "assumeRolePolicy")  # a subject not known yet inside the document
    if wild:
        return [
            f"the web-identity trust's ':sub' condition is {', '.join(repr(s) for s in wild)}: a wildcard lets other service "
            "accounts assume the role; name the one service account (StringEquals)"
        ]
    return []


def _what(statement: Any) -> str:
    named = actions(statement)
    return ", ".join(repr(a) for a in named) if named else "access"
