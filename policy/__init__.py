"""The policy pack's folder, a package only so that the project can import the pack's
pure platform rules as `policy.rules.platform` (spec/ wraps them).

The Pulumi CLI does not import this: it runs policy/__main__.py with policy/ itself on
sys.path, where the pack's modules are the top-level `policies` and `rules`.
"""
