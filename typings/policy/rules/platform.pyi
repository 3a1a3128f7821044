# policy.rules.platform is the pack's rules.platform (see ../__init__.pyi).
from rules.platform import *  # noqa: F403 - a re-export of the whole module
