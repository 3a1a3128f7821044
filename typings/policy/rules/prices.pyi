# policy.rules.prices is the pack's rules.prices (see ../__init__.pyi).
from rules.prices import *  # noqa: F403 - a re-export of the whole module
