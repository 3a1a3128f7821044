"""The anyscale-cloud policy pack: `pulumi preview --policy-pack policy`.

Only runs the pack; the policies live in policies.py (importable, so that
`python -m preflight policy` and the tests run the very same ones offline), and so does
the PolicyPack built from them (`policies.serve`, type-checked there: this file shares its
module name `__main__` with the program's and mypy checks one of them)."""

from policies import serve

serve()
