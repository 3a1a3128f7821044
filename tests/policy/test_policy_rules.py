"""Checks of policy/rules/*.py at branches the plans and fixtures do not reach: each
rule called directly with the input of one branch, its whole answer asserted where no
other test pins it. Modules are imported as the pack imports them (`rules.x`, policy/ on
sys.path), through preflight's runner; resource types are literals. How policies are
built from these checks is tests/policy/test_policy_pack.py's."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from preflight import policy as runner

eks = runner.pack_module("rules.eks")
gke = runner.pack_module("rules.gke")
values = runner.pack_module("rules.values")


def test_value_markers_print_their_name() -> None:
    # Messages about values that are not known yet name the marker.
    assert repr(values._Marker("UNKNOWN")) == "UNKNOWN"
    assert repr(values.MISSING) == "MISSING"


# --- IAM documents, TLS-only buckets, GKE pools and access entries: branches no plan record reaches --

aws_iam = runner.pack_module("rules.aws_iam")
WEB_IDENTITY = "sts:AssumeRoleWithWebIdentity"
SUB = "oidc.eks.us-west-2.amazonaws.com/id/ABC:sub"
OPERATOR_SA = "system:serviceaccount:anyscale-operator:anyscale-operator"


def policy(*statements: dict[str, Any]) -> dict[str, str]:
    return {"policy": json.dumps({"Version": "2012-10-17", "Statement": list(statements)})}


def test_a_public_statement_without_actions_is_reported_as_access() -> None:
    public = {"Effect": "Allow", "Principal": "*", "Resource": "arn:aws:s3:::b/*"}
    assert aws_iam.bucket_policy_problems(policy(public)) == [
        "the bucket policy allows access to everyone (Principal '*', no Condition): the bucket holds users' logs and "
        "snapshots; grant the operator's role instead"
    ]
    named = {**public, "Action": ["s3:GetObject", "s3:ListBucket"]}
    assert aws_iam.bucket_policy_problems(policy(named))[0].startswith(
        "the bucket policy allows 's3:GetObject', 's3:ListBucket' to everyone"
    )


def trust(*statements: dict[str, Any]) -> list[str]:
    doc = {"Version": "2012-10-17", "Statement": list(statements)}
    return aws_iam.trust_problems({"assumeRolePolicy": json.dumps(doc)})


def web_identity(*subjects: str) -> dict[str, Any]:
    return {
        "Effect": "Allow",
        "Principal": {"Federated": "arn:aws:iam::111122223333:oidc-provider/oidc.eks"},
        "Action": WEB_IDENTITY,
        "Condition": {"StringLike": {SUB: list(subjects)}},
    }


def test_every_web_identity_statement_is_checked_after_a_deny() -> None:
    deny = {"Effect": "Deny", "Principal": "*", "Action": "sts:AssumeRole"}
    wild = "the web-identity trust's ':sub' condition is 'system:serviceaccount:*:*': a wildcard lets other service "
    # A Deny first must not end the walk; two loose statements are two problems.
    assert (
        trust(deny, web_identity("system:serviceaccount:*:*"), web_identity("system:serviceaccount:*:*"))
        == [wild + "accounts assume the role; name the one service account (StringEquals)"] * 2
    )
    assert trust(deny, web_identity(OPERATOR_SA)) == []


def test_two_wildcard_subjects_are_both_named() -> None:
    assert trust(web_identity("system:serviceaccount:a:*", "system:serviceaccount:*:b")) == [
        "the web-identity trust's ':sub' condition is 'system:serviceaccount:a:*', 'system:serviceaccount:*:b': a "
        "wildcard lets other service accounts assume the role; name the one service account (StringEquals)"
    ]


def tls_statement(**changes: Any) -> dict[str, Any]:
    return {
        "Effect": "Deny",
        "Principal": "*",
        "Action": "s3:*",
        "Condition": {"Bool": {"aws:SecureTransport": "false"}},
        **changes,
    }


def test_a_tls_only_statement_is_found_after_others_and_only_when_it_is_one() -> None:
    allow = {"Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::111122223333:role/x"}, "Action": "s3:GetObject"}
    assert eks.denies_insecure_transport({"Statement": [allow, tls_statement()]}) is True
    # Denying one principal, not everyone, is not TLS-only.
    assert eks.denies_insecure_transport({"Statement": [tls_statement(Principal={"AWS": "arn:x"})]}) is False
    # A Condition or a Bool that is not a map (a malformed document) is no TLS rule, and no crash.
    assert eks.denies_insecure_transport({"Statement": [tls_statement(Condition=["Bool"])]}) is False
    assert eks.denies_insecure_transport({"Statement": [tls_statement(Condition={"Bool": "false"})]}) is False
    assert eks.denies_insecure_transport({"Statement": [tls_statement(Condition={"Bool": {}})]}) is False


def on_default(where: str) -> str:
    return (
        f"{where} run as the Compute Engine default service account (Editor on the project in many projects): "
        "a compromised node gets all of it; give nodeConfig.serviceAccount a service account of their own"
    )


def on_the_pools_default(found: list[str]) -> bool:
    """One problem, the pool's (its whole text is in tests/fixtures/policy/messages.json)."""
    return len(found) == 1 and found[0].startswith("the pool's nodes run as the Compute Engine default service account")


def test_a_node_pool_with_its_own_service_account_passes() -> None:
    pool = "gcp:container/nodePool:NodePool"
    own = {"nodeConfig": {"serviceAccount": "anyscale-nodes@my-project.iam.gserviceaccount.com"}}
    assert gke.node_account_problems(pool, own) == []
    assert on_the_pools_default(gke.node_account_problems(pool, {"nodeConfig": {}}))
    compute = {"nodeConfig": {"serviceAccount": "123456789012-compute@developer.gserviceaccount.com"}}
    assert on_the_pools_default(gke.node_account_problems(pool, compute))
    assert gke.node_account_problems(pool, {"nodeConfig": {"serviceAccount": "${sa.email}"}}) == []


def entry(**changes: Any) -> SimpleNamespace:
    base = {"props": {"type": "STANDARD"}, "urn": "urn:entry", "dependencies": [], "property_dependencies": {}}
    return SimpleNamespace(**{**base, **changes})


def test_an_access_entry_belongs_to_the_cluster_it_depends_on_or_names() -> None:
    cluster = SimpleNamespace(urn="urn:cluster", props={"name": "ml-eks"})
    other = SimpleNamespace(urn="urn:other")
    assert eks._may_belong(entry(dependencies=[other, cluster]), cluster) is True
    assert eks._may_belong(entry(property_dependencies={"clusterName": [other, cluster]}), cluster) is True
    assert eks._may_belong(entry(property_dependencies={"clusterName": [other]}), cluster) is False
    assert eks._may_belong(entry(props={"type": "STANDARD", "clusterName": "ml-eks"}), cluster) is True
    assert eks._may_belong(entry(props={"type": "STANDARD", "clusterName": "other-eks"}), cluster) is False
    assert eks._may_belong(entry(props={"type": "EC2_LINUX", "clusterName": "ml-eks"}), cluster) is False
    assert eks._may_belong(entry(dependencies=None, property_dependencies=None), cluster) is False


# --- storage, GKE and list separators ---------------------------------------------------------

storage = runner.pack_module("rules.storage")
NO_SSE = "has no default encryption rule: "  # the whole text: tests/fixtures/policy/messages.json


def test_a_buckets_inline_encryption_rule_is_checked_with_its_acl() -> None:
    sse = {"serverSideEncryptionConfiguration": {"rule": {"applyServerSideEncryptionByDefault": {}}}}
    public = "acl is 'public-read': the bucket must be private; remove the canned ACL"
    acl, encryption = storage.s3_bucket_problems({"acl": "public-read", **sse})
    assert acl == public and encryption.startswith(NO_SSE)
    kms = {"rule": {"applyServerSideEncryptionByDefault": {"sseAlgorithm": "aws:kms"}}}
    assert storage.s3_bucket_problems({"acl": "private", "serverSideEncryptionConfiguration": kms}) == []
    assert storage.s3_bucket_problems({}) == []  # no inline rule: the separate resource is checked instead
    assert storage.s3_acl_problems({"acl": ["public-read"]}) == []  # not a canned ACL string: nothing to name


def test_encryption_rules_as_a_list_need_one_with_an_algorithm() -> None:
    none = {"applyServerSideEncryptionByDefault": {"sseAlgorithm": "none"}}
    aes = {"applyServerSideEncryptionByDefault": {"sseAlgorithm": "AES256"}}
    (problem,) = storage.s3_encryption_problems([none])
    assert problem.startswith(NO_SSE)
    assert storage.s3_encryption_problems([none, aes]) == []


def test_the_default_network_message_in_full() -> None:
    message = (
        "runs on the project's `default` VPC: it may be absent (organisation policy "
        "compute.skipDefaultNetworkCreation) and its firewall rules open SSH and RDP to the internet; leave "
        "cluster.network unset (the program creates a VPC) or name a network of your own"
    )
    assert gke.default_network_problems({}) == [message]
    assert gke.default_network_problems({"network": "default"}) == [message]
    assert gke.default_network_problems({"network": "${net.id}"}) == []  # not known yet
    assert gke.default_network_problems({"network": "ml-vpc"}) == []


def test_gcs_cors_names_every_origin_and_checks_every_rule() -> None:
    good = {"origins": ["https://a"], "responseHeaders": ["*"]}
    bad = {"origins": ["https://console.azure.anyscale.com", "https://b"], "responseHeaders": ["Content-Range"]}
    assert gke.gcs_cors_header_problems({"cors": [good, bad]}) == [
        "the CORS rule for https://console.azure.anyscale.com, https://b lists responseHeaders ['Content-Range']: on GCS "
        "this list is also the request headers a preflight may ask for, so the console's PUT (Content-Type) and ranged "
        "reads (Range) fail their preflight; set responseHeaders to ['*']"
    ]


def test_wildcard_actions_and_broad_managed_policies_are_all_named() -> None:
    tail = (
        "every action of the service (or of AWS); list the actions the job needs (the operator's S3 policy lists ten)"
    )
    doc = {"Statement": [{"Effect": "Allow", "Action": ["s3:*", "iam:*"], "Resource": "*"}]}
    assert aws_iam.wildcard_problems(doc, "the policy") == [f"the policy allows 'iam:*', 's3:*': {tail}"]
    statement = {"Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::111122223333:role/r"}, "Action": "s3:*"}
    bucket = {"policy": json.dumps({"Statement": [statement]})}
    assert aws_iam.bucket_policy_problems(bucket) == [f"the bucket policy allows 's3:*': {tail}"]
    admin, iam = "arn:aws:iam::aws:policy/AdministratorAccess", "arn:aws:iam::aws:policy/IAMFullAccess"
    assert aws_iam.managed_policy_problems([admin, iam]) == [
        f"attaches {admin}, {iam}: full control of the account (or of IAM) for a workload identity; attach a policy "
        "with the actions it needs"
    ]


# --- GKE clusters' own pools, duplicate registration names ----------------------------------

stack = runner.pack_module("rules.stack")
DEFAULT_SA = "123456789012-compute@developer.gserviceaccount.com"
OWN_SA = "nodes@my-project.iam.gserviceaccount.com"


def test_a_gke_clusters_default_and_inline_pools_need_their_own_account() -> None:
    cluster = "gcp:container/cluster:Cluster"
    # The default pool is removed and its config is absent: nothing runs as the default account.
    assert gke.node_account_problems(cluster, {"removeDefaultNodePool": True}) == []
    # Kept (removeDefaultNodePool unset): its nodes use nodeConfig's account, the default one here.
    assert gke.node_account_problems(cluster, {}) == [on_default("the default pool's nodes")]
    # Removed, but created first with nodeConfig's account.
    removed = {"removeDefaultNodePool": True, "nodeConfig": {"serviceAccount": DEFAULT_SA}}
    assert gke.node_account_problems(cluster, removed) == [on_default("the default pool's nodes")]
    inline = {
        "removeDefaultNodePool": True,
        "nodePools": [{"nodeConfig": {"serviceAccount": OWN_SA}}, {"nodeConfig": {"serviceAccount": "default"}}],
    }
    assert gke.node_account_problems(cluster, inline) == [on_default("the inline pool's nodes")]
    assert gke.node_account_problems("gcp:compute/network:Network", {}) == []


def registration(urn: str, name: Any, cloud: Any = "/clouds/ml") -> SimpleNamespace:
    return SimpleNamespace(
        urn=urn, name=urn.rsplit("::", 1)[-1], props={"resourceName": name, "parentResourcePath": cloud}
    )


def test_registration_names_collide_per_cloud_and_regardless_of_case() -> None:
    a = registration("urn::a-registration", "default")
    b = registration("urn::b-registration", "Default", "/clouds/ML")  # the same cloud: paths fold too
    c = registration("urn::c-registration", "default", "/clouds/other")  # another cloud: no collision
    d = registration("urn::d-registration", "default")
    assert stack._duplicates([a, b, c, d]) == [
        (
            "urn::b-registration",
            "registration name 'Default' equals 'default' (a-registration) but for case: Azure resource names are "
            "case-insensitive, so they collide (HTTP 409); rename one of them",
        ),
        (
            "urn::d-registration",
            "registration name 'default' is already used by a-registration: names are unique within the cloud (the "
            "platform answers HTTP 409); rename one of them",
        ),
    ]
    unnamed = SimpleNamespace(urn="urn::x", name="x-registration", props={"parentResourcePath": "/clouds/ml"})
    # Without resourceName the logical name stands in.
    assert stack._duplicates([unnamed, registration("urn::y", "x-registration")]) == [
        (
            "urn::y",
            "registration name 'x-registration' is already used by x-registration: names are unique within the "
            "cloud (the platform answers HTTP 409); rename one of them",
        )
    ]


# --- GCS access-control resources: legacy ACLs that make a bucket public ----------------------

gcp_iam = runner.pack_module("rules.gcp_iam")


def public_bucket(*members: str) -> list[str]:
    return [
        f"grants the bucket to {', '.join(members)}: anyone (with any Google account) could read users' logs and "
        "snapshots; grant the operator's service account only"
    ]


def test_legacy_bucket_acls_granting_all_users_are_refused() -> None:
    # Entities as the GCS JSON API spells them (allUsers, allAuthenticatedUsers, user-<email>);
    # a BucketACL's roleEntities are "<ROLE>:<entity>".
    control = "gcp:storage/bucketAccessControl:BucketAccessControl"
    assert gcp_iam.bucket_public_problems(control, {"entity": "allUsers", "role": "READER"}) == public_bucket(
        "allUsers"
    )
    assert gcp_iam.bucket_public_problems(control, {"entity": "user-ops@example.com", "role": "READER"}) == []
    default_object = "gcp:storage/defaultObjectAccessControl:DefaultObjectAccessControl"
    assert gcp_iam.bucket_public_problems(default_object, {"entity": "allAuthenticatedUsers"}) == public_bucket(
        "allAuthenticatedUsers"
    )
    acl = "gcp:storage/bucketACL:BucketACL"
    entities = ["OWNER:user-ops@example.com", "READER:allUsers", "READER:allAuthenticatedUsers"]
    assert gcp_iam.bucket_public_problems(acl, {"roleEntities": entities}) == public_bucket(
        "allAuthenticatedUsers", "allUsers"
    )
    assert gcp_iam.bucket_public_problems(acl, {"roleEntities": ["allUsers"]}) == public_bucket("allUsers")
    # The same entity on a resource type that is no ACL is not read as one.
    assert gcp_iam.bucket_public_problems("gcp:storage/bucket:Bucket", {"entity": "allUsers"}) == []


# --- the options a policy sees from a recorded plan ------------------------------------------

options = runner.pack_module("rules.options")


def test_plan_options_carry_every_field_and_only_plans_answer_offline_options() -> None:
    from pulumi_policy import PolicyCustomTimeouts, PolicyResourceOptions

    opts = options.PlanResourceOptions(
        protect=True,
        ignore_changes=["tags"],
        delete_before_replace=True,
        additional_secret_outputs=["kubeConfig"],
        parent="urn:parent",
        replace_on_changes=["properties"],
        retain_on_delete=True,
        deleted_with="urn:cluster",
    )
    seen = (opts.protect, opts.ignore_changes, opts.delete_before_replace, opts.aliases)
    assert seen == (True, ["tags"], True, [])
    assert (opts.additional_secret_outputs, opts.parent) == (["kubeConfig"], "urn:parent")
    timeouts = opts.custom_timeouts
    assert (timeouts.create_seconds, timeouts.update_seconds, timeouts.delete_seconds) == (0, 0, 0)
    assert options.offline_option(opts, "replace_on_changes") == ["properties"]
    assert options.offline_option(opts, "retain_on_delete") is True
    assert options.offline_option(opts, "deleted_with") == "urn:cluster"
    assert options.offline_option(opts, "no_such_option") is None
    engine = PolicyResourceOptions(True, [], False, [], PolicyCustomTimeouts(0, 0, 0), [], None)
    assert options.offline_option(engine, "protect") is None  # under a real engine: never read


# --- wording -----------------------------------------------------------------------------------------

platform = runner.pack_module("rules.platform")


def test_a_provider_or_type_takes_the_article_english_reads() -> None:
    words = ["Azure", "AWS", "GCP", "Generic", "azure", "aws", "gcp", "aws.s3.BucketCorsConfiguration"]
    assert [platform.a_or_an(w) for w in words] == [
        "an Azure",
        "an AWS",
        "a GCP",
        "a Generic",
        "an azure",
        "an aws",
        "a gcp",
        "an aws.s3.BucketCorsConfiguration",
    ]
    assert platform.bucket_problem("gs://b", "AWS") == "'gs://b' is not an AWS bucket URI; use s3://<bucket>"
