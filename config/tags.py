"""`cloud.tags`: the tags every Azure resource of the stack carries, and, when the stack has
an AWS cloud resource, the AWS provider's default tags on every AWS resource. So they are
checked against both clouds' rules, each key at its own path.

Sources (checked 2026-12-01):
- Azure: learn.microsoft.com/azure/azure-resource-manager/management/tag-resources
  ("Limitations"): at most 50 tag name/value pairs per resource; names at most 512
  characters, 128 on storage accounts (the program creates one per Azure cloud resource);
  values at most 256; names may not contain `<`, `>`, `%`, `&`, `\\`, `?` or `/`; tag names
  are case-insensitive (two keys differing in case are one tag).
- AWS: docs.aws.amazon.com/tag-editor/latest/userguide/tagging.html ("Tag naming limits
  and requirements"): at most 50 user tags per resource; keys 1 to 128 Unicode characters,
  values at most 256; letters, numbers, spaces and `_ . : / = + - @`; the `aws:` prefix
  (any casing) is reserved for AWS.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

MAX_TAGS = 50
# Tags the program adds itself to some AWS resources (components/aws/network.py: `Name` and
# `kubernetes.io/cluster/<eks>`), which count toward the same 50.
AWS_PROGRAM_TAGS = 2
AZURE_MAX_KEY = 128  # the storage account's limit, the lowest of the resources we tag
AZURE_MAX_VALUE = 256
AZURE_FORBIDDEN = "<>%&\\?/"
AWS_MAX_KEY = 128
AWS_MAX_VALUE = 256
AWS_SYMBOLS = set("_.:/=+-@ ")
AWS_RESERVED_PREFIX = "aws:"


def _aws_character_ok(char: str) -> bool:
    return char in AWS_SYMBOLS or unicodedata.category(char)[0] in ("L", "N") or unicodedata.category(char) == "Zs"


def tag_problems(tags: dict[str, str], aws: bool) -> Iterator[tuple[str | None, str]]:
    """(key or None for the whole map, message) for each rule `tags` breaks; `aws`: the
    stack has an AWS cloud resource, so the AWS rules hold too."""
    limit = MAX_TAGS - AWS_PROGRAM_TAGS if aws else MAX_TAGS
    if len(tags) > limit:
        why = (
            f"AWS allows {MAX_TAGS} per resource and the program adds {AWS_PROGRAM_TAGS} (Name, kubernetes.io/cluster)"
            if aws
            else f"Azure allows {MAX_TAGS} per resource"
        )
        yield None, f"has {len(tags)} tags, more than the {limit} allowed ({why}); remove some"
    seen: dict[str, str] = {}
    for key, value in tags.items():
        if not key.strip():
            yield key, "a tag name must not be empty or blank"
            continue
        folded = key.casefold()
        if folded in seen:
            yield key, f"is the same Azure tag as '{seen[folded]}' (Azure tag names ignore case); keep one"
        seen.setdefault(folded, key)
        bad = sorted({c for c in key if c in AZURE_FORBIDDEN})
        if bad:
            yield key, f"Azure tag names may not contain {' '.join(bad)} (none of {' '.join(AZURE_FORBIDDEN)})"
        if len(key) > AZURE_MAX_KEY:
            yield key, f"the tag name has {len(key)} characters; at most {AZURE_MAX_KEY} (Azure storage accounts)"
        if len(value) > AZURE_MAX_VALUE:
            yield key, f"the tag value has {len(value)} characters; at most {AZURE_MAX_VALUE} (Azure)"
        if not aws:
            continue
        if folded.startswith(AWS_RESERVED_PREFIX):
            yield key, "tag names starting with 'aws:' are reserved for AWS (the AWS resources would refuse it)"
        for text, what in ((key, "name"), (value, "value")):
            odd = sorted({c for c in text if not _aws_character_ok(c)})
            if odd:
                shown = " ".join(repr(c) for c in odd)
                yield (
                    key,
                    (
                        f"the tag {what} has {shown}, which AWS tags do not allow "
                        "(letters, digits, spaces and _ . : / = + - @ only)"
                    ),
                )
        # AWS_MAX_KEY and AWS_MAX_VALUE equal Azure's limits, checked above.
