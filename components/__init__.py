"""anyscale-cloud components: the spec and the ComponentResources built from it."""
