# The project's view of the policy pack, for mypy only (pyproject.toml, [tool.mypy]).
#
# mypy checks the pack under the names the Pulumi CLI runs it with (policy/ on sys.path:
# `rules.platform`, `pack`, `catalog.cost`), and one file can have only one module name in
# a mypy run. The project imports a few of the same files as `policy.rules.<x>`; these
# stubs are those names, each re-exporting the pack's module, so that the project is
# checked against the pack's real types. A new `policy.rules.<x>` import from the project
# needs its one-line stub here (without it mypy stops with "Source file found twice under
# different module names").
