# policy.rules.plan_records is the pack's rules.plan_records (see ../__init__.pyi).
from rules.plan_records import *  # noqa: F403 - a re-export of the whole module
