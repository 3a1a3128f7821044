# policy.rules.chart_keys is the pack's rules.chart_keys (see ../__init__.pyi).
from rules.chart_keys import *  # noqa: F403 - a re-export of the whole module
