"""The policy pack's folder, a package only so that the project can import the pack's
pure platform rules as `policy.rules.platform` (config/ wraps them).

The Pulumi CLI does not import this: it runs policy/__main__.py with policy/ itself on
sys.path, where the pack's modules are the top-level `pack` (the policy constructor),
`policies` (the declarations) and `rules` (the checks). `python -m policy.reference`
(docs/policies.md) runs from the repository root and puts policy/ on sys.path itself.
"""
