"""The checks behind the anyscale-cloud policy pack, one module per concern.

Every check is a plain function over a resource's properties (the engine's camelCase
inputs) that returns messages; `policies.py` wraps them into CrossGuard policies. A
value that is not known yet is never a violation by itself (see `values.py`).
"""
