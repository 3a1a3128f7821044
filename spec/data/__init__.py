"""Sourced tables the spec checks against and defaults from, each module naming its
sources and the date they were read: regions, instance types, where Anyscale on Azure is
available, the operator chart's accelerators, and the pinned versions."""
