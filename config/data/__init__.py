"""Sourced tables, each module naming its sources and the date they were read: regions,
instance types, where Anyscale on Azure is available, the operator chart's accelerators,
the pinned versions and the charts KubeRay works with. The spec checks against them and
defaults from them; the components install what they pin."""
